import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { paymentConfig } from '../src/schema.js';
import { tronSettings, tronSweeps, tronWallets, TRON_SWEEP_STATUS, TRON_WALLET_ROLE } from '../src/modules/tron/schema.js';
import { scanChain, setChainReader, setWatcherPosition } from '../src/modules/tron/watcher.js';
import { setChainSender } from '../src/modules/tron/chain-sender.js';
import { tronSettingsOf } from '../src/modules/tron/deposits.js';
import { COLLECT_ALL_JOB, COLLECT_JOB, advanceOpenSweeps } from '../src/modules/tron/sweeps.js';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers.js';
import { grantKeys } from './payments-fixtures.js';
import { makeBettor } from './money-helpers.js';
import { FakeChain, FAKE_USDT_FEE, insertWallet } from './support/tron-fake-chain.js';

process.env.DAU_TRON_WATCHER = '0'; // this file drives the watcher and the sweeps itself

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let chain: FakeChain;
let root: string;
let agentA: string;
let agentB: string;
let viewer: string;
let hot: Awaited<ReturnType<typeof insertWallet>>;
let gas: Awaited<ReturnType<typeof insertWallet>>;
const db = () => t.database.db;
const GAS = 30_000_000;
const TRON_KEYS = ['tron', 'tron:collect', 'tron:collect_all', 'tron_transaction_summary', 'usdt_transaction_record'];

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, TRON_KEYS);
  const viewerRole = await makeRole(t, 'TronViewer', ['tron', 'tron_transaction_summary', 'usdt_transaction_record']);
  await makeAdmin(t, 'tron_viewer', viewerRole, w.rootId);
  root = await t.login('admin', ADMIN_PASSWORD);
  agentA = await t.login('agent_a');
  agentB = await t.login('agent_b');
  viewer = await t.login('tron_viewer');
  await tronSettingsOf(db());
  await db().update(tronSettings).set({ confirmations: 19, collectThreshold: 5_000_000, gasTopUpSun: GAS }).where(eq(tronSettings.id, 1));
  hot = await insertWallet(db(), { role: TRON_WALLET_ROLE.collection });
  gas = await insertWallet(db(), { role: TRON_WALLET_ROLE.gas });
});
afterAll(() => t?.close());

beforeEach(async () => {
  chain = new FakeChain();
  chain.fund(hot.addressHex, {});
  chain.fund(gas.addressHex, { trx: 1_000_000_000n });
  setChainReader(db(), chain);
  setChainSender(db(), chain);
  await db().delete(tronSweeps);
  await setWatcherPosition(db(), 0);
  await db().update(paymentConfig).set({ disburseTimeoutMinutes: 60 }).where(eq(paymentConfig.id, 1));
});

/** A bettor's deposit wallet that received `usdt` from outside (on chain) and holds `trx`. */
async function funded(usdt: number, trx = 0, agentId = w.agentA) {
  const b = await makeBettor(t, agentId);
  const wallet = await insertWallet(db(), { bettorId: b.id, agentId });
  chain.fund(wallet.addressHex, { trx: BigInt(trx) });
  if (usdt) chain.transfer({ to: wallet.addressHex, amount: BigInt(usdt) });
  return wallet;
}

const collects = () => t.ctx.jobs.drain([COLLECT_JOB, COLLECT_ALL_JOB]);
const sweepsFrom = (address: string) => db().select().from(tronSweeps).where(eq(tronSweeps.fromAddress, address));
const childrenOf = (id: number) => db().select().from(tronSweeps).where(eq(tronSweeps.parentId, id));
/** Mines past the confirmation depth and advances the open sweeps (the periodic job's work). */
async function settle() {
  chain.mine(20);
  await advanceOpenSweeps(db());
}

describe('collect', () => {
  it('collects a deposit address that has TRX for the energy: one USDT transfer, success when confirmed, balances refreshed', async () => {
    const wallet = await funded(12_000_000, 50_000_000);
    chain.mine(1);
    const r = await t.call('POST', `/api/v1/tron/wallets/${wallet.id}/collect`, { token: agentA });
    expect(r.status).toBe(202);
    await collects();
    const [s] = await sweepsFrom(wallet.addressBase58);
    expect(s).toMatchObject({ kind: 'collect', asset: 'USDT', amount: 12_000_000, toAddress: hot.addressBase58, status: TRON_SWEEP_STATUS.pending });
    expect(s.txHash).toBeTruthy();
    expect(await childrenOf(s.id)).toHaveLength(0);
    await settle();
    const [done] = await sweepsFrom(wallet.addressBase58);
    expect(done.status).toBe(TRON_SWEEP_STATUS.success);
    expect(done.confirmedAt).not.toBeNull();
    expect(chain.usdt.get(hot.addressHex)).toBe(12_000_000n);
    const [stored] = await db().select().from(tronWallets).where(eq(tronWallets.id, wallet.id));
    expect(stored.usdtBalance).toBe(0);
    expect(stored.trxBalance).toBe(50_000_000 - FAKE_USDT_FEE);
  });

  it('tops up TRX from the gas wallet first, then collects; both recorded with the parent link', async () => {
    const wallet = await funded(8_000_000, 0);
    chain.mine(1);
    await t.call('POST', `/api/v1/tron/wallets/${wallet.id}/collect`, { token: root });
    await collects();
    const [c] = await sweepsFrom(wallet.addressBase58);
    expect(c.txHash).toBeNull(); // waits for its gas
    const [g] = await childrenOf(c.id);
    expect(g).toMatchObject({ kind: 'gas', asset: 'TRX', amount: GAS, fromAddress: gas.addressBase58, toAddress: wallet.addressBase58 });
    expect(g.txHash).toBeTruthy();
    await settle(); // gas confirmed → the USDT is sent
    const [c2] = await sweepsFrom(wallet.addressBase58);
    expect(c2.txHash).toBeTruthy();
    expect((await childrenOf(c.id))[0].status).toBe(TRON_SWEEP_STATUS.success);
    await settle();
    expect((await sweepsFrom(wallet.addressBase58))[0].status).toBe(TRON_SWEEP_STATUS.success);
    expect(chain.usdt.get(wallet.addressHex)).toBe(0n);
    // The list shows both, the gas top-up under its collect; scoped to the branch.
    const list = await t.call('GET', `/api/v1/tron/sweeps?parent_id=${c.id}`, { token: root });
    expect(list.status).toBe(200);
    expect(list.body.items.map((x: { number: string }) => x.number)).toEqual([g.number]);
    const mine = await t.call('GET', `/api/v1/tron/sweeps?address=${wallet.addressBase58}`, { token: agentA });
    expect(mine.body.items).toHaveLength(2);
    const theirs = await t.call('GET', `/api/v1/tron/sweeps?address=${wallet.addressBase58}`, { token: agentB });
    expect(theirs.body.items).toHaveLength(0);
  });

  it('collect all opens one collect per wallet at or above the threshold, never two while one is open', async () => {
    const big = [await funded(6_000_000, 40_000_000), await funded(7_000_000, 40_000_000), await funded(50_000_000, 40_000_000)];
    const small = await funded(1_000_000, 40_000_000);
    chain.mine(20);
    await scanChain(db()); // the deposits are credited: the candidates
    expect((await t.call('POST', '/api/v1/tron/collect_all', { token: root })).status).toBe(202);
    await collects();
    expect((await t.call('POST', '/api/v1/tron/collect_all', { token: root })).status).toBe(202);
    await collects();
    for (const x of big) expect(await sweepsFrom(x.addressBase58)).toHaveLength(1);
    expect(await sweepsFrom(small.addressBase58)).toHaveLength(0);
    await settle();
    expect(chain.usdt.get(hot.addressHex)).toBe(63_000_000n);
    // Another collect all finds nothing more to take.
    await t.call('POST', '/api/v1/tron/collect_all', { token: root });
    await collects();
    for (const x of big) expect(await sweepsFrom(x.addressBase58)).toHaveLength(1);
  });

  it('survives a node that fails mid-way, and records a transfer that failed on chain as failed', async () => {
    const wallet = await funded(9_000_000, 40_000_000);
    const other = await funded(9_000_000, 40_000_000);
    chain.mine(1);
    await t.call('POST', `/api/v1/tron/wallets/${wallet.id}/collect`, { token: root });
    await t.call('POST', `/api/v1/tron/wallets/${other.id}/collect`, { token: root });
    await collects();
    chain.mine(20);
    chain.failures = 1;
    await expect(advanceOpenSweeps(db())).rejects.toThrow(/connection refused/);
    await advanceOpenSweeps(db());
    expect((await sweepsFrom(wallet.addressBase58))[0].status).toBe(TRON_SWEEP_STATUS.success);
    // A gas wallet without TRX: the top-up fails on chain, and so does the collect it was for.
    chain.fund(gas.addressHex, { trx: 0n });
    const dry = await funded(9_000_000, 0);
    chain.mine(1);
    await t.call('POST', `/api/v1/tron/wallets/${dry.id}/collect`, { token: root });
    await collects();
    await settle();
    const [c] = await sweepsFrom(dry.addressBase58);
    expect(c.status).toBe(TRON_SWEEP_STATUS.failed);
    expect(c.remark).toMatch(/gas top-up .* failed/);
    expect((await childrenOf(c.id))[0].status).toBe(TRON_SWEEP_STATUS.failed);
  });

  it('a collect whose transaction never confirms is unknown (to reconcile) after the timeout, and signed only once', async () => {
    const wallet = await funded(9_000_000, 40_000_000);
    chain.mine(1);
    chain.faults.neverConfirm = 1;
    await t.call('POST', `/api/v1/tron/wallets/${wallet.id}/collect`, { token: root });
    await collects();
    const before = chain.signatures;
    await settle();
    expect((await sweepsFrom(wallet.addressBase58))[0].status).toBe(TRON_SWEEP_STATUS.pending);
    await db().update(paymentConfig).set({ disburseTimeoutMinutes: 0 }).where(eq(paymentConfig.id, 1));
    await settle();
    expect((await sweepsFrom(wallet.addressBase58))[0].status).toBe(TRON_SWEEP_STATUS.unknown);
    // Asking again opens no second collect while this one is in doubt.
    await t.call('POST', `/api/v1/tron/wallets/${wallet.id}/collect`, { token: root });
    await collects();
    expect(await sweepsFrom(wallet.addressBase58)).toHaveLength(1);
    expect(chain.signatures).toBe(before);
  });
});

describe('permissions, scope and the reconciliation view', () => {
  it('checks the button and the branch on collect and collect all', async () => {
    const wallet = await funded(9_000_000, 40_000_000, w.agentA);
    const jobs = async () => Number(((await db().execute(sql`select count(*)::int as n from pgboss.job where name = ${COLLECT_JOB}`)) as unknown as { rows: { n: number }[] }).rows[0].n);
    const n0 = await jobs();
    expect((await t.call('POST', `/api/v1/tron/wallets/${wallet.id}/collect`)).status).toBe(401);
    expect((await t.call('POST', `/api/v1/tron/wallets/${wallet.id}/collect`, { token: viewer })).status).toBe(403);
    expect((await t.call('POST', `/api/v1/tron/wallets/${wallet.id}/collect`, { token: agentB })).status).toBe(404);
    expect((await t.call('POST', `/api/v1/tron/wallets/${hot.id}/collect`, { token: root })).status).toBe(400);
    expect((await t.call('POST', '/api/v1/tron/collect_all', { token: agentA })).status).toBe(403);
    expect((await t.call('POST', '/api/v1/tron/collect_all', { token: viewer })).status).toBe(403);
    expect(await jobs()).toBe(n0);
    expect((await t.call('POST', `/api/v1/tron/wallets/${wallet.id}/collect`, { token: agentA })).status).toBe(202);
    expect(await jobs()).toBe(n0 + 1);
  });

  it('shows on-chain against expected per wallet, scoped, with the hot wallet above its ceiling flagged', async () => {
    const wallet = await funded(9_000_000, 40_000_000, w.agentA);
    chain.mine(20);
    await scanChain(db());
    const mine = await t.call('GET', `/api/v1/tron/reconciliation?wallet_id=${wallet.id}`, { token: agentA });
    expect(mine.status).toBe(200);
    expect(mine.body.rows).toEqual([expect.objectContaining({ wallet_id: wallet.id, expected_usdt: 9_000_000, chain_usdt: 9_000_000, difference: 0 })]);
    expect((await t.call('GET', `/api/v1/tron/reconciliation?wallet_id=${wallet.id}`, { token: agentB })).body.rows).toEqual([]);
    expect((await t.call('GET', `/api/v1/tron/reconciliation?wallet_id=${hot.id}`, { token: agentA })).body.rows).toEqual([]);
    // Money that reached the wallet without the watcher having applied it shows as a difference.
    chain.transfer({ to: wallet.addressHex, amount: 1_000_000n });
    chain.mine(1);
    const diff = await t.call('GET', `/api/v1/tron/reconciliation?wallet_id=${wallet.id}`, { token: root });
    expect(diff.body.rows[0]).toMatchObject({ expected_usdt: 9_000_000, chain_usdt: 10_000_000, difference: 1_000_000 });
    chain.fund(hot.addressHex, { usdt: 150_000_000n });
    await db().update(tronSettings).set({ hotWalletCeiling: 100_000_000 }).where(eq(tronSettings.id, 1));
    const h = await t.call('GET', `/api/v1/tron/reconciliation?wallet_id=${hot.id}`, { token: root });
    expect(h.body.rows[0]).toMatchObject({ above_ceiling: true, surplus: 50_000_000 });
    // The USDT records: the branch sees its bettor's deposit, the other branch does not.
    const rec = await t.call('GET', `/api/v1/tron/transfers?wallet_id=${wallet.id}`, { token: agentA });
    expect(rec.status).toBe(200);
    expect(rec.body.items.length).toBeGreaterThanOrEqual(1);
    expect(rec.body.items[0]).toMatchObject({ to_address: wallet.addressBase58, bettor_id: wallet.bettorId, status: 2 });
    expect((await t.call('GET', `/api/v1/tron/transfers?wallet_id=${wallet.id}`, { token: agentB })).body.items).toEqual([]);
    expect((await t.call('GET', `/api/v1/tron/transfers?status=9`, { token: root })).status).toBe(400);
    await db().update(tronSettings).set({ hotWalletCeiling: 100_000_000_000 }).where(and(eq(tronSettings.id, 1)));
  });

  it('both lists export in the background with the asker\'s scope; without the export button, 403', async () => {
    const wallet = await funded(9_000_000, 40_000_000, w.agentA);
    chain.mine(20);
    await scanChain(db());
    for (const type of ['usdt_transaction_record', 'tron_transaction_summary']) {
      expect((await t.call('POST', '/api/v1/exports', { token: agentA, body: { type, format: 1 } })).status).toBe(403);
      const r = await t.call('POST', '/api/v1/exports', { token: root, body: { type, format: 1, params: type === 'usdt_transaction_record' ? { wallet_id: String(wallet.id) } : {} } });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
    }
    await t.ctx.jobs.drain(['exports.run']);
    const ops = (await db().execute(sql`select type, status, row_count from async_operations where type in ('usdt_transaction_record', 'tron_transaction_summary')`)) as unknown as { rows: { type: string; status: number; row_count: number }[] };
    expect(ops.rows.map((o) => [o.type, o.status]).sort()).toEqual([['tron_transaction_summary', 2], ['usdt_transaction_record', 2]]);
    expect(ops.rows.find((o) => o.type === 'usdt_transaction_record')!.row_count).toBe(1);
  });
});
