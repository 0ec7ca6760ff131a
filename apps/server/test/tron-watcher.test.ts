import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { BILL_TYPE, PAY_STATUS, PAY_TYPE } from '@dau/domain';
import { bills, houseEntries, recharges } from '../src/schema.js';
import { HOUSE, checkInvariants } from '../src/modules/money/ledger.js';
import { tronSettings, tronTransfers, TRON_TRANSFER_STATUS, TRON_WALLET_ROLE } from '../src/modules/tron/schema.js';
import { scanChain, setChainReader, setWatcherPosition, watcherPosition } from '../src/modules/tron/watcher.js';
import { tronSettingsOf, usdtToCents } from '../src/modules/tron/deposits.js';
import { createTestApp, makeWorld, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { FakeChain, insertWallet, randomHex } from './support/tron-fake-chain.js';

process.env.DAU_TRON_WATCHER = '0'; // this file drives the watcher itself

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let chain: FakeChain;
const db = () => t.database.db;
const RATE = 260_000; // TSh 2,600.00 per USDT

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await tronSettingsOf(db());
  await db().update(tronSettings).set({ usdtRateTsh: RATE, confirmations: 19 }).where(eq(tronSettings.id, 1));
});
afterAll(() => t?.close());

beforeEach(async () => {
  chain = new FakeChain();
  setChainReader(db(), chain);
  // Each test starts its own chain from block 1.
  await db().delete(tronTransfers);
  await setWatcherPosition(db(), 0);
  await db().execute(sql`delete from tron_chain_state where key = 'watcher_seen'`);
});

async function depositor(agentId = w.agentA) {
  const b = await makeBettor(t, agentId);
  const wallet = await insertWallet(db(), { bettorId: b.id, agentId });
  return { bettor: b, wallet };
}

const rechargesOf = (bettorId: number) => db().select().from(recharges).where(eq(recharges.bettorId, bettorId));
const transfersOf = (txHash: string) => db().select().from(tronTransfers).where(eq(tronTransfers.txHash, txHash));
const usdtClearing = async () =>
  Number((await db().select({ s: sql<string>`coalesce(sum(${houseEntries.amount}), 0)` }).from(houseEntries).where(eq(houseEntries.account, HOUSE.usdtClearing)))[0].s);

describe('tron watcher', () => {
  it('credits a confirmed deposit once at the rate, rounded down to the cent, with its bill and journal entry', async () => {
    const { bettor, wallet } = await depositor();
    const before = await usdtClearing();
    const tx = chain.transfer({ to: wallet.addressHex, amount: 1_234_567n }); // 1.234567 USDT
    chain.mine(1);
    // Not yet solidified: seen, not credited.
    let run = await scanChain(db());
    expect(run.credited).toBe(0);
    expect((await transfersOf(tx))[0]?.status).toBe(TRON_TRANSFER_STATUS.seen);
    expect(await rechargesOf(bettor.id)).toHaveLength(0);
    chain.mine(19);
    run = await scanChain(db());
    expect(run.credited).toBe(1);
    const expected = Math.floor((1_234_567 * RATE) / 1_000_000); // 320,987.42 → 320,987 cents
    expect(expected).toBe(320_987);
    expect(usdtToCents(1_234_567n, RATE)).toBe(expected);
    const [r] = await rechargesOf(bettor.id);
    expect(r).toMatchObject({ amount: expected, payType: PAY_TYPE.usdt, payStatus: PAY_STATUS.paid, carrierOrderNumber: `${tx}:0` });
    const [row] = await transfersOf(tx);
    expect(row).toMatchObject({ status: TRON_TRANSFER_STATUS.confirmed, rechargeId: r.id, bettorId: bettor.id, agentId: w.agentA, direction: 'in', amount: 1_234_567, blockNumber: 1 });
    const bs = await db().select().from(bills).where(and(eq(bills.bettorId, bettor.id), eq(bills.type, BILL_TYPE.user_recharge)));
    expect(bs.map((b) => Number(b.amount))).toEqual([expected]);
    expect((await usdtClearing()) - before).toBe(-expected);
    expect(await checkInvariants(db())).toEqual([]);
    expect(await watcherPosition(db())).toBe(1);
  });

  it('never credits twice: re-scans, the same event twice in a block and again in a later block', async () => {
    const { bettor, wallet } = await depositor();
    const hash = chain.transfer({ to: wallet.addressHex, amount: 5_000_000n });
    chain.transfer({ to: wallet.addressHex, amount: 5_000_000n, txHash: hash }); // a duplicated event
    chain.mine(1);
    chain.transfer({ to: wallet.addressHex, amount: 5_000_000n, txHash: hash }); // the node repeats it later
    chain.transfer({ to: wallet.addressHex, amount: 2_000_000n, txHash: hash, eventIndex: 1 }); // another event of the same tx: its own fingerprint
    chain.mine(25);
    await scanChain(db());
    for (let i = 0; i < 3; i++) {
      await setWatcherPosition(db(), 0);
      await scanChain(db());
    }
    const rs = await rechargesOf(bettor.id);
    expect(rs.map((r) => r.amount).sort()).toEqual([usdtToCents(2_000_000n, RATE), usdtToCents(5_000_000n, RATE)].sort());
    expect((await transfersOf(hash)).map((x) => x.fingerprint).sort()).toEqual([`${hash}:0`, `${hash}:1`]);
    expect(await checkInvariants(db())).toEqual([]);
  });

  it('several deposits of one bettor in one block: one bill each, their balances in sequence', async () => {
    const { bettor, wallet } = await depositor();
    for (const units of [1_000_000n, 2_000_000n, 3_000_000n]) chain.transfer({ to: wallet.addressHex, amount: units });
    chain.mine(20);
    await scanChain(db());
    const bs = await db().select().from(bills).where(and(eq(bills.bettorId, bettor.id), eq(bills.type, BILL_TYPE.user_recharge))).orderBy(bills.id);
    expect(bs.map((b) => Number(b.amount)).sort()).toEqual([2_600_00, 5_200_00, 7_800_00]);
    let balance = 0;
    for (const b of bs) {
      expect(Number(b.balanceBefore)).toBe(balance);
      balance += Number(b.amount);
      expect(Number(b.balanceAfter)).toBe(balance);
    }
    expect(await rechargesOf(bettor.id)).toHaveLength(3);
    expect(await checkInvariants(db())).toEqual([]);
  });

  it('two scanners at once apply each block once', async () => {
    const { bettor, wallet } = await depositor();
    for (let i = 0; i < 10; i++) {
      chain.transfer({ to: wallet.addressHex, amount: 1_000_000n + BigInt(i) });
      chain.mine(1);
    }
    chain.mine(19);
    await Promise.all([scanChain(db()), scanChain(db()), scanChain(db())]);
    await scanChain(db());
    expect(await rechargesOf(bettor.id)).toHaveLength(10);
    expect(await watcherPosition(db())).toBe(10);
  });

  it('a reorganised transfer is never credited; one the canonical chain includes again is credited once', async () => {
    const { bettor, wallet } = await depositor();
    chain.mine(5);
    const gone = chain.transfer({ to: wallet.addressHex, amount: 3_000_000n });
    const back = chain.transfer({ to: wallet.addressHex, amount: 4_000_000n });
    chain.mine(2);
    await scanChain(db());
    expect((await transfersOf(gone))[0].status).toBe(TRON_TRANSFER_STATUS.seen);
    // The top 3 blocks are replaced: `gone` vanishes, `back` is included again a block later.
    chain.reorg(3, [back]);
    chain.mine(30);
    await scanChain(db());
    expect((await transfersOf(gone))[0]).toMatchObject({ status: TRON_TRANSFER_STATUS.reorganised, rechargeId: null });
    const [b] = await transfersOf(back);
    expect(b.status).toBe(TRON_TRANSFER_STATUS.confirmed);
    expect(b.blockNumber).toBe(5); // was seen in block 6; the replacement chain has it in block 5
    const rs = await rechargesOf(bettor.id);
    expect(rs.map((r) => r.amount)).toEqual([usdtToCents(4_000_000n, RATE)]);
  });

  it('a failed transfer (out of energy) is recorded as failed and never credited', async () => {
    const { bettor, wallet } = await depositor();
    const failed = chain.transfer({ to: wallet.addressHex, amount: 9_000_000n, success: false });
    chain.mine(1);
    await scanChain(db());
    chain.mine(20);
    await scanChain(db());
    expect((await transfersOf(failed))[0]).toMatchObject({ status: TRON_TRANSFER_STATUS.failed, rechargeId: null });
    expect(await rechargesOf(bettor.id)).toHaveLength(0);
  });

  it('respects the configured confirmations beyond solidification', async () => {
    await db().update(tronSettings).set({ confirmations: 25 }).where(eq(tronSettings.id, 1));
    try {
      const { bettor, wallet } = await depositor();
      chain.transfer({ to: wallet.addressHex, amount: 1_000_000n });
      chain.mine(1 + 24); // solidified (19 on top) but 24 confirmations only
      await scanChain(db());
      expect(await rechargesOf(bettor.id)).toHaveLength(0);
      chain.mine(1);
      await scanChain(db());
      expect(await rechargesOf(bettor.id)).toHaveLength(1);
    } finally {
      await db().update(tronSettings).set({ confirmations: 19 }).where(eq(tronSettings.id, 1));
    }
  });

  it('ignores other tokens and strangers, records dust without crediting it, and survives a node that fails', async () => {
    const { bettor, wallet } = await depositor();
    const other = chain.transfer({ to: wallet.addressHex, amount: 7_000_000n, contract: randomHex() });
    const stranger = chain.transfer({ to: randomHex(), amount: 7_000_000n });
    const dust = chain.transfer({ to: wallet.addressHex, amount: 3n }); // 0.000003 USDT = 0.78 cents
    const real = chain.transfer({ to: wallet.addressHex, amount: 10_000_000n });
    chain.mine(20);
    chain.failures = 1;
    await expect(scanChain(db())).rejects.toThrow(/connection refused/);
    await scanChain(db());
    expect(await transfersOf(other)).toHaveLength(0);
    expect(await transfersOf(stranger)).toHaveLength(0);
    expect((await transfersOf(dust))[0]).toMatchObject({ status: TRON_TRANSFER_STATUS.confirmed, rechargeId: null });
    expect((await transfersOf(real))[0].rechargeId).not.toBeNull();
    expect((await rechargesOf(bettor.id)).map((r) => r.amount)).toEqual([26_000_00]);
  });

  it('records a transfer between our own wallets without crediting anybody', async () => {
    const { bettor, wallet } = await depositor();
    const collection = await insertWallet(db(), { role: TRON_WALLET_ROLE.collection });
    const sweep = chain.transfer({ from: wallet.addressHex, to: collection.addressHex, amount: 5_000_000n });
    const refill = chain.transfer({ from: collection.addressHex, to: wallet.addressHex, amount: 1_000_000n });
    chain.mine(20);
    await scanChain(db());
    expect((await transfersOf(sweep))[0]).toMatchObject({ direction: 'in', walletId: collection.id, rechargeId: null });
    expect((await transfersOf(refill))[0]).toMatchObject({ direction: 'in', walletId: wallet.id, rechargeId: null });
    expect(await rechargesOf(bettor.id)).toHaveLength(0);
  });
});
