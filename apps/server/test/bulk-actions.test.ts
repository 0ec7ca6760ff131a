/**
 * Bulk actions (issue 29): many withdrawals approved or refused in one call, markets of a match suspended
 * together. Each row goes through its single action's service in its own transaction, so its rules hold
 * per row (branch scope, the USDT hold, the large amount's second approver, the state it is in) and one
 * refusal leaves the others done; the answer is 200 with every row's outcome; a repeated call acts on no
 * row twice. (The batch approval of activity qualifications, older, is held by promotions.test.ts.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { BETTING_OFFER_STATUS, BILL_TYPE, EVENT_STATUS, LOG_TYPE, PAY_TYPE, SPORT, WITHDRAWAL_STATUS } from '@dau/domain';
import { paymentConfig, withdrawals } from '../src/schema.js';
import { systemLogs } from '../src/platform/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { requestWithdrawal } from '../src/modules/payments/withdrawals.js';
import { tronSettings, TRON_WALLET_ROLE } from '../src/modules/tron/schema.js';
import { tronSettingsOf } from '../src/modules/tron/deposits.js';
import { requestUsdtWithdrawal } from '../src/modules/tron/withdrawals.js';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages.js';
import { FB } from '../src/modules/feed/simulator.js';
import { ADMIN_PASSWORD, createTestApp, makeRole, makeAdmin, makeWorld, type TestApp } from './helpers.js';
import { PAYMENT_KEYS, balanceOf, billsOf, disbursed, grantKeys, makePayer, manualClock, withdrawalsClearingProblems } from './payments-fixtures.js';
import { insertWallet } from './support/tron-fake-chain.js';

process.env.DAU_TRON_WATCHER = '0';

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let agentA: string;
let limited: string;
let hotAddress: string;
const db = () => t.database.db;
const LARGE = 50_000_00;
const VODACOM = PAY_TYPE.vodacom;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, PAYMENT_KEYS);
  // A role with the list but neither button.
  const listOnly = await makeRole(t, 'Withdrawal viewer', ['withdraw_list']);
  await makeAdmin(t, 'viewer', listOnly, w.rootId);
  root = await t.login('admin', ADMIN_PASSWORD);
  agentA = await t.login('agent_a');
  limited = await t.login('viewer');
  manualClock(t);
  await db().update(paymentConfig).set({ largeWithdrawal: LARGE }).where(eq(paymentConfig.id, 1));
  await tronSettingsOf(db());
  await db().update(tronSettings).set({ usdtRateTsh: 260_000 }).where(eq(tronSettings.id, 1));
  hotAddress = (await insertWallet(db(), { role: TRON_WALLET_ROLE.collection })).addressBase58;
});
afterAll(() => t?.close());
afterEach(async () => {
  await disbursed(t);
  expect(await checkInvariants(db())).toEqual([]);
  expect(await withdrawalsClearingProblems(t)).toEqual([]);
});

const post = (url: string, token: string, body?: unknown) => t.call('POST', url, { token, body });
const bulkApprove = (ids: number[], token = agentA) => post('/api/v1/money/withdrawals/approve', token, { ids });
const bulkRefuse = (ids: number[], reason: string, token = agentA) => post('/api/v1/money/withdrawals/refuse', token, { ids, reason });
const load = async (id: number) => (await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0];

/** A withdrawal asked by a fresh bettor of `agentId` (funded for it), pending review. */
async function asked(agentId: number, amount = 2_000_00) {
  const b = await makePayer(t, agentId, amount + 10_000_00, VODACOM);
  return requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount });
}

describe('bulk withdrawals', () => {
  it('approves each row by its own rules: the others stand when some are refused, and the answer lists every row', async () => {
    const plain = [await asked(w.agentA), await asked(w.agentA1), await asked(w.agentA)];
    const large = await asked(w.agentA, LARGE + 100_00);
    // Already first-approved by the same agent: the second approval needs another admin.
    const firstByMe = await asked(w.agentA, LARGE + 200_00);
    expect((await post(`/api/v1/money/withdrawals/${firstByMe.id}/approve`, agentA)).body.status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);
    // A USDT withdrawal to one of our own addresses: held (address poisoning) until released.
    const payer = await makePayer(t, w.agentA, 100_000_00);
    const held = (await requestUsdtWithdrawal(db(), { bettorId: payer.id, amount: 26_000_00, toAddress: hotAddress })).withdrawal;
    const otherBranch = await asked(w.agentB);
    const handled = await asked(w.agentA);
    expect((await bulkRefuse([handled.id], 'Duplicate request')).status).toBe(200);
    const unknown = 2_000_000_000;

    const ids = [plain[0].id, large.id, firstByMe.id, held.id, plain[1].id, otherBranch.id, handled.id, unknown, plain[2].id, plain[0].id];
    const res = await bulkApprove(ids);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byId = new Map((res.body.items as { id: number }[]).map((i) => [i.id, i]));
    // Each id once, in the order given.
    expect(res.body.items.map((i: { id: number }) => i.id)).toEqual(ids.slice(0, -1));
    for (const p of plain) expect(byId.get(p.id)).toEqual({ id: p.id, ok: true, status: WITHDRAWAL_STATUS.disbursing });
    // Four-eyes is not bypassed: the large one waits for a second admin.
    expect(byId.get(large.id)).toEqual({ id: large.id, ok: true, status: WITHDRAWAL_STATUS.awaiting_second_approval });
    expect(byId.get(firstByMe.id)).toMatchObject({ ok: false, code: 'SECOND_APPROVER_SAME' });
    expect(byId.get(held.id)).toMatchObject({ ok: false, code: 'WITHDRAWAL_HELD' });
    // Another branch's withdrawal is answered as the single route answers it: not found.
    expect(byId.get(otherBranch.id)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(byId.get(handled.id)).toMatchObject({ ok: false, code: 'WITHDRAWAL_STATE_CHANGED' });
    expect(byId.get(unknown)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    for (const i of res.body.items.filter((x: { ok: boolean }) => !x.ok)) expect(i.message).toEqual(expect.any(String));

    expect((await load(firstByMe.id)).status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);
    expect((await load(held.id)).status).toBe(WITHDRAWAL_STATUS.pending_review);
    expect((await load(otherBranch.id)).status).toBe(WITHDRAWAL_STATUS.pending_review);
    expect((await load(handled.id)).status).toBe(WITHDRAWAL_STATUS.refused);
    expect((await load(large.id))).toMatchObject({ status: WITHDRAWAL_STATUS.awaiting_second_approval, firstApproverId: w.agentA });

    // One summary audit row names the refused rows; each approved row has its own.
    const [summary] = await db().select().from(systemLogs).where(sql`${systemLogs.content} like 'Bulk approval of withdrawals: 4 of 9 done%'`);
    expect(summary).toMatchObject({ type: LOG_TYPE.update_balance, route: '/api/v1/money/withdrawals/approve' });
    expect(summary.content).toContain(`${held.id} WITHDRAWAL_HELD`);
    const own = await db().select().from(systemLogs).where(sql`${systemLogs.content} like ${`Approved withdrawal ${plain[1].serialNumber}%`}`);
    expect(own).toHaveLength(1);

    // The same call again (a retry after a lost answer): no row is approved twice.
    const again = await bulkApprove(ids);
    expect(again.status).toBe(200);
    expect(again.body.items.every((i: { ok: boolean }) => !i.ok)).toBe(true);
    for (const p of plain) expect((await load(p.id)).firstApproverId).toBe(w.agentA);
    expect(await db().select().from(systemLogs).where(sql`${systemLogs.content} like ${`Approved withdrawal ${plain[1].serialNumber}%`}`)).toHaveLength(1);
    expect((await load(large.id)).status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);

    // Another admin gives the large ones their second approval in bulk.
    const second = await bulkApprove([large.id, firstByMe.id], root);
    expect(second.body.items).toEqual([
      { id: large.id, ok: true, status: WITHDRAWAL_STATUS.disbursing },
      { id: firstByMe.id, ok: true, status: WITHDRAWAL_STATUS.disbursing },
    ]);
    expect(await load(large.id)).toMatchObject({ firstApproverId: w.agentA, secondApproverId: w.rootId });
  });

  it('refuses many with one reason: each row returns its money once, a row past review is refused alone', async () => {
    const a = await asked(w.agentA);
    const b = await asked(w.agentA, LARGE + 100_00);
    expect((await post(`/api/v1/money/withdrawals/${b.id}/approve`, agentA)).status).toBe(200);
    const sent = await asked(w.agentA);
    expect((await post(`/api/v1/money/withdrawals/${sent.id}/approve`, agentA)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    const before = Number((await balanceOf(t, a.bettorId)).cashBalance);

    const blank = await bulkRefuse([a.id], '   ');
    expect([blank.status, blank.body.code]).toEqual([400, 'REFUSE_REASON_REQUIRED']);
    expect((await load(a.id)).status).toBe(WITHDRAWAL_STATUS.pending_review);

    const res = await bulkRefuse([a.id, b.id, sent.id], 'Documents do not match');
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { id: a.id, ok: true, status: WITHDRAWAL_STATUS.refused },
      { id: b.id, ok: true, status: WITHDRAWAL_STATUS.refused },
      expect.objectContaining({ id: sent.id, ok: false, code: 'WITHDRAWAL_STATE_CHANGED' }),
    ]);
    expect(await load(a.id)).toMatchObject({ refuseReason: 'Documents do not match', refusedBy: w.agentA });
    expect(Number((await balanceOf(t, a.bettorId)).cashBalance)).toBe(before + a.amount);
    // Refused again: nothing more comes back.
    expect((await bulkRefuse([a.id, b.id], 'again')).body.items.map((i: { code: string }) => i.code)).toEqual(['WITHDRAWAL_STATE_CHANGED', 'WITHDRAWAL_STATE_CHANGED']);
    expect(await billsOf(t, a.bettorId, BILL_TYPE.amount_rolled_back)).toHaveLength(1);
    expect(await billsOf(t, b.bettorId, BILL_TYPE.amount_rolled_back)).toHaveLength(1);
  });

  it('refuses a call over the limit, an empty one, a duplicate field and a role without the button', async () => {
    const x = await asked(w.agentA);
    const many = Array.from({ length: 101 }, (_, i) => x.id + i);
    for (const res of [await bulkApprove(many), await bulkApprove([]), await bulkRefuse(many, 'too many'), await post('/api/v1/money/withdrawals/approve', agentA, { ids: [x.id], reason: 'x' })]) {
      expect([res.status, res.body.code]).toEqual([400, 'PARAM_INVALID']);
    }
    expect((await bulkApprove(Array.from({ length: 100 }, (_, i) => 2_000_000_000 - i))).status).toBe(200);
    expect((await bulkApprove([x.id], limited)).status).toBe(403);
    expect((await bulkRefuse([x.id], 'no', limited)).status).toBe(403);
    expect((await load(x.id)).status).toBe(WITHDRAWAL_STATUS.pending_review);
    expect((await bulkRefuse([x.id], 'tidy up')).body.items[0].ok).toBe(true);
  });
});

describe('bulk market suspension', () => {
  const EV = 'sr:match:2901';
  const X12 = `${FB.oneXtwo}|`;
  const TOTAL = `${FB.total}|total=2.5`;
  const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
  const send = async (m: FeedMessageInput) => expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  const url = `/api/v1/sports/matches/${encodeURIComponent(EV)}/markets/suspension`;
  const odds = async () => (await t.call('GET', `/api/v1/sports/matches/${encodeURIComponent(EV)}/odds`, { token: root })).body.markets as { key: string; suspended_by: { operator: boolean } }[];

  it('suspends and resumes the chosen markets of a match, each answered; an unknown market alone is refused', async () => {
    await send({
      type: 'fixture_change', producer: PRODUCER.prematch, timestamp: T0, event_id: EV, sport_id: SPORT.football, league_id: 'epl', league_name: 'EPL',
      home_team: 'Home', away_team: 'Away', start_time: T0 + 3_600_000, status: EVENT_STATUS.not_started,
    });
    await send({
      type: 'odds_change', producer: PRODUCER.live, timestamp: T0 + 1000, event_id: EV, event_status: EVENT_STATUS.not_started,
      markets: [
        { id: FB.oneXtwo, status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '1', price: '2.10', active: true }, { id: '2', price: '3.40', active: true }, { id: '3', price: '3.90', active: true }] },
        { id: FB.total, specifiers: 'total=2.5', status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '12', price: '1.90', active: true }, { id: '13', price: '1.95', active: true }] },
      ],
    });
    const res = await post(url, root, { keys: [X12, 'nope|', TOTAL], is_suspended: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items).toEqual([{ id: X12, ok: true }, expect.objectContaining({ id: 'nope|', ok: false, code: 'NOT_FOUND' }), { id: TOTAL, ok: true }]);
    const suspended = await odds();
    expect(suspended.filter((m) => m.suspended_by.operator).map((m) => m.key).sort()).toEqual([X12, TOTAL].sort());
    const audits = await db().select().from(systemLogs).where(and(eq(systemLogs.type, LOG_TYPE.ordinary), sql`${systemLogs.content} like ${`match ${EV}: suspend market%`}`));
    expect(audits).toHaveLength(2);

    const resumed = await post(url, root, { keys: [TOTAL], is_suspended: false });
    expect(resumed.body.items).toEqual([{ id: TOTAL, ok: true }]);
    expect((await odds()).filter((m) => m.suspended_by.operator).map((m) => m.key)).toEqual([X12]);

    expect((await post(url, root, { keys: Array.from({ length: 101 }, (_, i) => `${i}|`), is_suspended: true })).status).toBe(400);
    expect((await post(url, agentA, { keys: [X12], is_suspended: false })).status).toBe(403);
    const elsewhere = await post(`/api/v1/sports/matches/sr:match:404/markets/suspension`, root, { keys: [X12], is_suspended: true });
    expect(elsewhere.body.items[0]).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});
