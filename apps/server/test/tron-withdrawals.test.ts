import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SandboxTronNode } from '../src/modules/tron/sandbox-node.js';
import { simulateTron } from '../src/simulator/tron.js';
import { Rng } from '../src/simulator/rng.js';
import { configureTronNode } from '../src/modules/tron/runtime.js';
import { depositAddressFor } from '../src/modules/tron/wallets.js';
import { COLLECT_JOB, advanceOpenSweeps } from '../src/modules/tron/sweeps.js';
import { and, eq, sql } from 'drizzle-orm';
import { BILL_TYPE, PAY_TYPE, WITHDRAWAL_STATUS } from '@dau/domain';
import { paymentConfig, withdrawals } from '../src/schema.js';
import { HOUSE, checkInvariants } from '../src/modules/money/ledger.js';
import { DISBURSE_JOB, runDisbursement } from '../src/modules/payments/withdrawals.js';
import { tronSettings, tronSweeps, tronTransfers, tronWallets, TRON_SWEEP_STATUS, TRON_WALLET_ROLE } from '../src/modules/tron/schema.js';
import { scanChain, setChainReader } from '../src/modules/tron/watcher.js';
import { setChainSender } from '../src/modules/tron/chain-sender.js';
import { HttpChainReader, toBase58, toHexAddress } from '../src/modules/tron/chain-reader.js';
import { tronSettingsOf } from '../src/modules/tron/deposits.js';
import { followUpWithdrawals, requestUsdtWithdrawal } from '../src/modules/tron/withdrawals.js';
import { AppError } from '../src/platform/errors.js';
import { admins } from '../src/platform/schema.js';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeWorld, type TestApp } from './helpers.js';
import { PAYMENT_KEYS, balanceOf, billsOf, grantKeys, makePayer } from './payments-fixtures.js';
import { FakeChain, insertWallet, randomHex } from './support/tron-fake-chain.js';

process.env.DAU_TRON_WATCHER = '0'; // this file drives the follow-up itself

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let chain: FakeChain;
let root: string;
let second: string;
let agentA: string;
let agentB: string;
let hot: Awaited<ReturnType<typeof insertWallet>>;
const db = () => t.database.db;
const RATE = 260_000;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, PAYMENT_KEYS);
  const [superAdmin] = await db().select({ roleId: admins.roleId }).from(admins).where(eq(admins.account, 'admin'));
  await makeAdmin(t, 'checker', superAdmin.roleId!, w.rootId);
  root = await t.login('admin', ADMIN_PASSWORD);
  second = await t.login('checker');
  agentA = await t.login('agent_a');
  agentB = await t.login('agent_b');
  await tronSettingsOf(db());
  await db().update(tronSettings).set({ usdtRateTsh: RATE, confirmations: 19 }).where(eq(tronSettings.id, 1));
  hot = await insertWallet(db(), { role: TRON_WALLET_ROLE.collection });
});
afterAll(() => t?.close());

beforeEach(async () => {
  chain = new FakeChain();
  chain.fund(hot.addressHex, { trx: 1_000_000_000n, usdt: 100_000_000_000n });
  setChainReader(db(), chain);
  setChainSender(db(), chain);
  await db().update(paymentConfig).set({ disburseTimeoutMinutes: 60 }).where(eq(paymentConfig.id, 1));
});

const outside = () => toBase58(randomHex());
const disbursed = () => t.ctx.jobs.drain([DISBURSE_JOB]);
const sweepOf = async (withdrawalId: number) => (await db().select().from(tronSweeps).where(eq(tronSweeps.withdrawalId, withdrawalId)))[0];
const withdrawal = async (id: number) => (await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0];
const approve = (token: string, id: number) => t.call('POST', `/api/v1/money/withdrawals/${id}/approve`, { token });

async function asked(amount = 26_000_00, to = outside()) {
  const b = await makePayer(t, w.agentA, 100_000_00);
  const x = await requestUsdtWithdrawal(db(), { bettorId: b.id, amount, toAddress: to });
  return { b, ...x };
}

describe('USDT withdrawals', () => {
  it('goes through the review, is signed once by the hot wallet, broadcast, and paid when confirmed on chain', async () => {
    const { b, withdrawal: x, sweep } = await asked(26_000_00);
    expect(sweep).toMatchObject({ kind: 'withdrawal', asset: 'USDT', amount: 10_000_000, status: TRON_SWEEP_STATUS.pending, txHash: null });
    expect(x.payType).toBe(PAY_TYPE.usdt);
    expect(Number((await balanceOf(t, b.id)).cashBalance)).toBe(100_000_00 - 26_000_00);
    // Another branch's agent cannot approve it; the agent of the branch can.
    expect((await approve(agentB, x.id)).status).toBe(404);
    const ok = await approve(agentA, x.id);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    await disbursed();
    const sent = await sweepOf(x.id);
    expect(sent.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(sent.fromAddress).toBe(hot.addressBase58);
    expect((await withdrawal(x.id)).carrierOrderNumber).toBe(sent.txHash);
    expect(chain.broadcasts).toEqual([sent.txHash]);
    // Not confirmed yet: still disbursing.
    chain.mine(1);
    await followUpWithdrawals(db());
    expect((await withdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.disbursing);
    chain.mine(19);
    await followUpWithdrawals(db());
    expect((await withdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
    expect((await sweepOf(x.id)).status).toBe(TRON_SWEEP_STATUS.success);
    // A second run of the job (a retry, another process) signs nothing new.
    await runDisbursement(db(), x.id);
    expect(chain.signatures).toBe(1);
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toHaveLength(0);
    const usdtClearing = (await db().execute(sql`select coalesce(sum(amount), 0)::bigint as s from house_entries where account = ${HOUSE.usdtClearing} and bill_type = ${BILL_TYPE.user_withdrawal}`)) as unknown as { rows: { s: string }[] };
    expect(Number(usdtClearing.rows[0].s)).toBeGreaterThanOrEqual(26_000_00);
    expect(await checkInvariants(db())).toEqual([]);
  });

  it('a large one needs two different approvers', async () => {
    const [cfg] = await db().select().from(paymentConfig);
    const { withdrawal: x } = await asked(cfg.largeWithdrawal + 100, outside()).catch(async () => {
      // The payer needs more money for a large amount.
      const b = await makePayer(t, w.agentA, cfg.largeWithdrawal * 2);
      return requestUsdtWithdrawal(db(), { bettorId: b.id, amount: cfg.largeWithdrawal + 100, toAddress: outside() }).then((r) => ({ b, ...r }));
    });
    expect((await approve(root, x.id)).body.status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);
    expect((await approve(root, x.id)).status).toBe(422);
    expect((await approve(second, x.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    await disbursed();
    expect(chain.signatures).toBe(1);
  });

  it('a transfer that fails on chain (out of energy) is refunded through the refund path', async () => {
    const { b, withdrawal: x } = await asked();
    chain.faults.outOfEnergy = 1;
    await approve(root, x.id);
    await disbursed();
    chain.mine(20);
    await followUpWithdrawals(db());
    const after = await withdrawal(x.id);
    expect(after.status).toBe(WITHDRAWAL_STATUS.failed);
    expect(after.failReason).toMatch(/OUT_OF_ENERGY/);
    expect(Number((await balanceOf(t, b.id)).cashBalance)).toBe(100_000_00);
    expect((await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).map((x) => Number(x.amount))).toEqual([26_000_00]);
    expect((await sweepOf(x.id)).status).toBe(TRON_SWEEP_STATUS.failed);
    expect(await checkInvariants(db())).toEqual([]);
  });

  it('an outcome the chain cannot tell waits for reconciliation, never a blind refund', async () => {
    const { b, withdrawal: x } = await asked();
    chain.faults.neverConfirm = 1;
    await approve(root, x.id);
    await disbursed();
    chain.mine(30);
    await followUpWithdrawals(db());
    expect((await withdrawal(x.id)).reconcileSince).toBeNull(); // within the timeout: still waiting
    await db().update(paymentConfig).set({ disburseTimeoutMinutes: 0 }).where(eq(paymentConfig.id, 1));
    await followUpWithdrawals(db());
    const flagged = await withdrawal(x.id);
    expect(flagged.status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect(flagged.reconcileSince).not.toBeNull();
    expect(Number((await balanceOf(t, b.id)).cashBalance)).toBe(100_000_00 - 26_000_00);
    expect((await sweepOf(x.id)).status).toBe(TRON_SWEEP_STATUS.unknown);
    // Further follow-ups change nothing; an operator reconciles it from the chain explorer.
    await followUpWithdrawals(db());
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toHaveLength(0);
    const r = await t.call('POST', `/api/v1/money/withdrawals/${x.id}/reconcile`, {
      token: root, body: { outcome: 'not_paid', reference: `tronscan:${flagged.carrierOrderNumber}`, remark: 'Not on chain after expiry' },
    });
    expect(r.status).toBe(200);
    expect(Number((await balanceOf(t, b.id)).cashBalance)).toBe(100_000_00);
    await followUpWithdrawals(db());
    expect((await sweepOf(x.id)).status).toBe(TRON_SWEEP_STATUS.failed);
    expect(chain.signatures).toBe(1);
  });

  it('a broadcast that is not answered is retried with the same signed transaction', async () => {
    const { withdrawal: x } = await asked();
    chain.faults.broadcastError = 1;
    await approve(root, x.id);
    await disbursed();
    expect(chain.signatures).toBe(1);
    const s = await sweepOf(x.id);
    expect(chain.broadcasts).toEqual([s.txHash]);
    expect((await withdrawal(x.id)).disburseAttempts).toBe(2);
    chain.mine(20);
    await followUpWithdrawals(db());
    expect((await withdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
  });

  it('refuses a bad address (400) and a refused withdrawal marks its record failed', async () => {
    const b = await makePayer(t, w.agentA, 100_000_00);
    for (const bad of ['', 'T123', '0x1234', `${hot.addressBase58.slice(0, -1)}X`]) {
      const err = await requestUsdtWithdrawal(db(), { bettorId: b.id, amount: 10_000_00, toAddress: bad }).catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
    }
    const { withdrawal: x } = await requestUsdtWithdrawal(db(), { bettorId: b.id, amount: 10_000_00, toAddress: outside() });
    expect((await t.call('POST', `/api/v1/money/withdrawals/${x.id}/refuse`, { token: root, body: { reason: 'Wrong network' } })).status).toBe(200);
    await followUpWithdrawals(db());
    expect((await sweepOf(x.id)).status).toBe(TRON_SWEEP_STATUS.failed);
  });
});

describe('address poisoning', () => {
  it('holds a destination that looks like a recent counterparty until a reviewer releases it', async () => {
    const real = outside();
    const dest = outside();
    // A counterparty seen lately whose address shares the destination's first and last 4 characters.
    const lookalike = `${dest.slice(0, 4)}${real.slice(4, -4)}${dest.slice(-4)}`;
    await db().insert(tronTransfers).values({
      fingerprint: `${randomHex()}:0`, txHash: randomHex(), eventIndex: 0, fromAddress: lookalike, toAddress: hot.addressBase58, amount: 1, direction: 'in', status: 2,
    });
    const { b, withdrawal: x, sweep } = await asked(26_000_00, dest);
    expect(sweep.remark).toMatch(/^HELD: .*recent counterparty/);
    const view = await t.call('GET', `/api/v1/tron/withdrawals/${x.id}`, { token: agentA });
    expect(view.body).toMatchObject({ to_address: dest, usdt_amount: 10_000_000, held: true, tx_hash: null });
    expect(view.body.warning).toMatch(/recent counterparty/);
    expect((await t.call('GET', `/api/v1/tron/withdrawals/${x.id}`, { token: agentB })).status).toBe(404);
    const refused = await approve(root, x.id);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('WITHDRAWAL_HELD');
    expect((await withdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.pending_review);
    // A branch cannot release it (issue 29: the whole book asks, a second whole-book admin approves; tron-console.test.ts).
    expect((await t.call('POST', `/api/v1/tron/withdrawals/${x.id}/release`, { token: agentB, body: { remark: 'checked' } })).status).toBe(403);
    const ask = await t.call('POST', `/api/v1/tron/withdrawals/${x.id}/release`, { token: root, body: { remark: 'Confirmed with the bettor by phone' } });
    expect(ask.status).toBe(202);
    const released = await t.call('POST', `/api/v1/system/pending_changes/${ask.body.pending_change.id}/approve`, { token: second, body: {} });
    expect(released.body.pending_change).toMatchObject({ status: 'applied', result_status: 200 });
    expect((await t.call('POST', `/api/v1/tron/withdrawals/${x.id}/release`, { token: root, body: { remark: 'again' } })).status).toBe(409);
    expect((await t.call('GET', `/api/v1/tron/withdrawals/${x.id}`, { token: agentA })).body).toMatchObject({ held: false, warning: null });
    expect((await approve(root, x.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect(b.id).toBeGreaterThan(0);
  });

  it('holds a withdrawal to one of our own addresses; an ordinary address is not held', async () => {
    const own = await asked(26_000_00, hot.addressBase58);
    expect(own.sweep.remark).toMatch(/^HELD: .*our own wallets/);
    const plain = await asked(26_000_00, outside());
    expect(plain.sweep.remark).not.toMatch(/^HELD/);
  });
});

describe('against the sandbox TRON node, with real keys and signatures (TronWeb)', () => {
  let node: SandboxTronNode;
  let realHot: { id: number; address_base58: string; address_hex: string };

  beforeAll(async () => {
    node = new SandboxTronNode(db());
    const url = await node.listen(0);
    configureTronNode({ fullNodeUrl: url });
    setChainReader(db(), null);
    setChainSender(db(), null);
    // The fake hot wallet of the tests above has no real key: the house's hot wallet is a real one now.
    await db().update(tronWallets).set({ removed: true }).where(eq(tronWallets.id, hot.id));
    const made = await t.call('POST', '/api/v1/tron/wallets', { token: root, body: { role: 2 } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    realHot = made.body;
    const gasWallet = await t.call('POST', '/api/v1/tron/wallets', { token: root, body: { role: 3 } });
    expect(gasWallet.status).toBe(201);
    expect((await node.deposit(realHot.address_base58, 500_000_000)).result).toBe(true);
    expect((await node.deposit(realHot.address_base58, 200_000_000, 'TRX')).result).toBe(true);
    expect((await node.deposit(gasWallet.body.address_base58, 500_000_000, 'TRX')).result).toBe(true);
    await node.mine(1);
  });
  afterAll(async () => {
    await node?.close();
  });
  beforeEach(() => {
    // The node, not the in-memory chain of the file's beforeEach.
    setChainReader(db(), null);
    setChainSender(db(), null);
  });

  const usdtOf = async (address: string) => {
    const reader = new HttpChainReader(node.url);
    return Number((await reader.balances(toHexAddress(address), node.usdtHex)).token);
  };

  it('pays a USDT withdrawal: signed by the hot wallet, broadcast, confirmed by the follow-up', async () => {
    const dest = outside();
    const { b, withdrawal: x } = await asked(26_000_00, dest);
    expect((await approve(root, x.id)).status).toBe(200);
    await disbursed();
    const s = await sweepOf(x.id);
    expect(s.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(s.fromAddress).toBe(realHot.address_base58);
    await node.mine(1);
    await followUpWithdrawals(db());
    expect((await withdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.disbursing); // not at the depth yet
    await node.mine(20);
    await followUpWithdrawals(db());
    expect((await withdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
    expect(await usdtOf(dest)).toBe(10_000_000);
    expect(Number((await balanceOf(t, b.id)).cashBalance)).toBe(100_000_00 - 26_000_00);
    expect(await checkInvariants(db())).toEqual([]);
  });

  it('a transfer that runs out of energy on the node is refunded', async () => {
    const { b, withdrawal: x } = await asked(26_000_00, outside());
    await node.setFaults({ outOfEnergy: 1 });
    await approve(root, x.id);
    await disbursed();
    await node.mine(21);
    await followUpWithdrawals(db());
    expect((await withdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.failed);
    expect(Number((await balanceOf(t, b.id)).cashBalance)).toBe(100_000_00);
  });

  it('the simulator deposits USDT through the sandbox node; the watcher credits it', async () => {
    const rng = new Rng(14);
    for (let i = 0; i < 12; i++) await simulateTron(t.ctx, rng);
    await node.mine(21);
    const run = await scanChain(db());
    expect(run.credited).toBeGreaterThan(0);
    const credited = (await db().execute(sql`select count(*)::int as n from recharges where pay_type = ${PAY_TYPE.usdt}`)) as unknown as { rows: { n: number }[] };
    expect(credited.rows[0].n).toBeGreaterThan(0);
    expect(await checkInvariants(db())).toEqual([]);
  });

  it('collects a deposit address with a gas top-up, all signed for real', async () => {
    const b = await makePayer(t, w.agentA, 0);
    const { walletId, addressBase58 } = await depositAddressFor(db(), b.id);
    expect((await node.deposit(addressBase58, 20_000_000)).result).toBe(true);
    await node.mine(1);
    const before = await usdtOf(realHot.address_base58);
    expect((await t.call('POST', `/api/v1/tron/wallets/${walletId}/collect`, { token: root })).status).toBe(202);
    await t.ctx.jobs.drain([COLLECT_JOB]);
    const [c] = await db().select().from(tronSweeps).where(and(eq(tronSweeps.fromAddress, addressBase58), eq(tronSweeps.kind, 'collect')));
    const [g] = await db().select().from(tronSweeps).where(eq(tronSweeps.parentId, c.id));
    expect(g).toMatchObject({ kind: 'gas', asset: 'TRX' });
    await node.mine(21);
    await advanceOpenSweeps(db()); // gas confirmed: the USDT goes
    await node.mine(21);
    await advanceOpenSweeps(db());
    const [done] = await db().select().from(tronSweeps).where(eq(tronSweeps.id, c.id));
    expect(done.status, done.remark ?? '').toBe(TRON_SWEEP_STATUS.success);
    expect(await usdtOf(addressBase58)).toBe(0);
    expect((await usdtOf(realHot.address_base58)) - before).toBe(20_000_000);
    // The watcher records the deposit (credited) and the collect (ours to ours, not credited).
    await scanChain(db());
    const rows = await db().select().from(tronTransfers).where(eq(tronTransfers.walletId, walletId));
    expect(rows.some((r) => r.rechargeId !== null && r.amount === 20_000_000)).toBe(true);
  });
});
