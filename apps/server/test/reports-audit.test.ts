/**
 * Issue 30, the auditors' reports: the significant events and the void and resettlement report. Each fact is
 * made through the product's own services and routes (a manual result, a result change after settlement, a
 * void, a feed resettlement, a balance correction, a settings change, a burst of failed sign-ins, a large
 * withdrawal approved by a second admin and one refused); each appears once in the log with its kind, admin
 * and money to the cent; the filters narrow; the report's money is the bills the changes wrote; a branch
 * admin is refused. Every case makes its own bettor, match or account, so they pass alone and in any order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, gte, inArray, ne, sql } from 'drizzle-orm';
import { BILL_TYPE, CREDIT_BILL_TYPE, LOG_TYPE, ORDER_TYPE, OUTCOME_STATUS, PAY_TYPE, SPORT } from '@dau/domain';
import { PRODUCER } from '../src/modules/feed/messages';
import { placeOrder } from '../src/modules/betting/placement';
import { orderLines } from '../src/modules/betting/schema';
import { casinoSettings } from '../src/modules/casino/schema';
import { feedProducerOutages } from '../src/modules/feed/schema';
import { requestWithdrawal } from '../src/modules/payments/withdrawals';
import { bills } from '../src/schema.js';
import { admins, roles, systemLogs } from '../src/platform/schema';
import { ADMIN_PASSWORD, approved, checkerToken, createTestApp, exportFinished, makeAdmin, makeRole, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';
import { X12, feedMatches } from './support/feed-matches';
import { makePayer } from './payments-fixtures';

let t: TestApp;
let token: string;
let rootId: number;
const { tick, ev, send, match: feedMatch, pick, settle } = feedMatches(() => t, 'ra', 'Audit League');
/** A football match in an hour with a 1X2 market at these prices (margin 0 here). */
const match = (n: number, prices: [string, string, string] = ['1.80', '3.40', '4.20']) => feedMatch(n, prices);


/** A single of 1,000.00 on the home side of match n, for a new bettor. */
async function single(n: number, odds = '1.80') {
  const b = await makeBettor(t, rootId, { cash: 100_000 });
  const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(n, '1', odds)], skipLiveDelay: true });
  const [line] = await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, o.id));
  return { bettor: b, order: o, line: line! };
}

const get = async (url: string, as = token) => {
  const r = await t.call('GET', url, { token: as });
  expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
};
type Event = { id: number; time: string; kind: string; admin_id: number | null; admin_account: string | null; money: number | null; bettor_id: number | null; order_id: number | null; event_id: string | null; orders: number | null; params: Record<string, unknown>; target_kind: string | null };
const events = async (q: Record<string, string | number>) => (await get(`/api/v1/reports/significant_events?page_size=200&${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`)).items as Event[];
const iso = (d: Date) => d.toISOString();
/** The money the bills of these orders moved from a moment on (the stakes excluded). */
async function billsSince(orderIds: number[], since: Date) {
  const rows = await t.database.db
    .select({ amount: bills.amount })
    .from(bills)
    .where(and(eq(bills.causeType, 'order'), inArray(bills.causeId, orderIds.map(String)), gte(bills.createdAt, since), ne(bills.type, BILL_TYPE.bet), ne(bills.type, CREDIT_BILL_TYPE.credit_bet)));
  return rows.reduce((a, r) => a + r.amount, 0);
}

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  rootId = root!.id;
  expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
});
afterAll(() => t?.close());

describe('significant events', () => {
  it('logs a manual result, then its change after settlement, each once with the admin and the money of the bills', async () => {
    await match(1);
    const { bettor, order, line } = await single(1);
    const url = `/api/v1/betting/orders/${order.id}/lines/${line.id}/result`;
    const first = new Date();
    expect((await t.call('POST', url, { token, body: { outcome_status: OUTCOME_STATUS.won, reason: 'Official result' } })).status).toBe(200);
    const second = new Date();
    expect((await t.call('POST', url, { token, body: { outcome_status: OUTCOME_STATUS.lost, reason: 'Result corrected' } })).status).toBe(200);

    const mine = await events({ bettor_id: bettor.id });
    const manual = mine.filter((e) => e.kind === 'manual_result');
    const changed = mine.filter((e) => e.kind === 'result_change');
    expect(manual).toHaveLength(1);
    expect(changed).toHaveLength(1);
    // 1.80 on 1,000.00: 1,800.00 less 10 % tax on the 800.00 won = 1,720.00; the change takes it back.
    expect(manual[0]).toMatchObject({ admin_id: rootId, admin_account: 'admin', money: 172_000, order_id: order.id, event_id: ev(1), orders: 1, target_kind: 'order' });
    expect(manual[0]!.params).toMatchObject({ reason: 'Official result', source: 'operator' });
    expect(changed[0]).toMatchObject({ admin_id: rootId, money: -172_000, order_id: order.id });
    expect(changed[0]!.params.reason).toBe('Result corrected');
    expect(manual[0]!.money).toBe(await billsSince([order.id], first) - (await billsSince([order.id], second)));
    expect(changed[0]!.money).toBe(await billsSince([order.id], second));
  });

  it('logs a void with its refund, a feed resettlement and a rollback, and the report moves what the bills moved', async () => {
    await match(2, ['2.00', '3.40', '4.20']);
    await match(3);
    const voided = await single(3);
    const settled = await single(2, '2.00');
    await send(settle(2, '1')); // the feed's first settlement: not a change
    const since = new Date();
    expect((await t.call('POST', `/api/v1/betting/orders/${voided.order.id}/cancel`, { token, body: { reason: 'Palpable error' } })).status).toBe(200);
    // The provider corrects itself: rolled back, then settled the other way.
    await send({ type: 'rollback_bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(2), markets: [{ id: 1 }] });
    await send(settle(2, '2')); // settled again (lost): a settlement of an open order, not a change
    await send(settle(2, '1')); // and resettled (won after all): a change of a settled order

    const [v] = (await events({ bettor_id: voided.bettor.id })).filter((e) => e.kind === 'void');
    expect(v).toMatchObject({ admin_id: rootId, money: 100_000, order_id: voided.order.id });
    expect(v!.params.reason).toBe('Palpable error');
    const rolled = (await events({ bettor_id: settled.bettor.id })).filter((e) => e.kind === 'rollback');
    expect(rolled).toHaveLength(1);
    // 2.00 on 1,000.00 paid 1,900.00 after tax: taken back.
    expect(rolled[0]).toMatchObject({ admin_id: null, money: -190_000, event_id: ev(2) });
    expect(rolled[0]!.params.source).toBe('feed');
    const resettled = (await events({ bettor_id: settled.bettor.id })).filter((e) => e.kind === 'resettlement');
    expect(resettled).toEqual([expect.objectContaining({ admin_id: null, money: 190_000, event_id: ev(2) })]);

    // The report: per match and market, the money of the changes is the bills the changes wrote.
    const report = await get(`/api/v1/reports/resettlements?time_from=${encodeURIComponent(iso(since))}&page_size=200`);
    const row3 = report.items.find((r: { event_id: string }) => r.event_id === ev(3));
    const row2 = report.items.find((r: { event_id: string }) => r.event_id === ev(2));
    expect(row3).toMatchObject({ market_key: X12, market_name: '1X2', match_name: 'Home 3 v Away 3', orders: 1, changes: 1, cash: 100_000, money: 100_000, admins: 'admin', reasons: 'Palpable error' });
    expect(row2).toMatchObject({ orders: 1, changes: 2, money: 0, admins: '' });
    expect(row3.money).toBe(await billsSince([voided.order.id], since));
    expect(row2.money).toBe(await billsSince([settled.order.id], since));
    const sum = report.items.reduce((a: number, r: { money: number }) => a + r.money, 0);
    expect(report.totals.money).toBe(sum);

    // The drawer: the orders of one match and market, who and why.
    const drawer = await get(`/api/v1/reports/resettlements/changes?event_id=${encodeURIComponent(ev(3))}&market_key=${encodeURIComponent(X12)}`);
    expect(drawer.items).toEqual([
      expect.objectContaining({ order_id: voided.order.id, kind: 'cancelled', source: 'operator', admin_account: 'admin', reason: 'Palpable error', cash: 100_000, money: 100_000, selection_name: 'Home 3' }),
    ]);
    // Each change of match 2 moved what the bills of its own transaction moved.
    const changes2 = await get(`/api/v1/reports/resettlements/changes?event_id=${encodeURIComponent(ev(2))}&time_from=${encodeURIComponent(iso(since))}`);
    expect(changes2.items.map((c: { kind: string; money: number }) => [c.kind, c.money])).toEqual([['resettled', 190_000], ['rolled_back', -190_000]]);
    const perTransaction = await t.database.db
      .select({ at: bills.createdAt, amount: sql<string>`sum(${bills.amount})` })
      .from(bills)
      .where(and(eq(bills.causeType, 'order'), eq(bills.causeId, String(settled.order.id)), gte(bills.createdAt, since)))
      .groupBy(bills.createdAt)
      .orderBy(desc(bills.createdAt));
    expect(perTransaction.map((x) => Number(x.amount))).toEqual(changes2.items.map((c: { money: number }) => c.money));
    // Filtered by admin: the feed's changes have none.
    const byAdmin = await get(`/api/v1/reports/resettlements/changes?admin_id=${rootId}&event_id=${encodeURIComponent(ev(2))}`);
    expect(byAdmin.items).toEqual([]);
  });

  it('logs a balance correction with its bill, and a settings change with who approved it', async () => {
    const b = await makeBettor(t, rootId, { cash: 10_000 });
    const since = new Date();
    const fix = await t.call('POST', `/api/v1/money/bettors/${b.id}/balance`, { token, body: { amount: -2_345, remark: 'Duplicate deposit' } });
    expect(fix.status, JSON.stringify(fix.body)).toBe(200);
    const [corr] = await events({ bettor_id: b.id, kind: 'balance_correction' });
    expect(corr).toMatchObject({ admin_id: rootId, money: -2_345, bettor_id: b.id, target_kind: 'bettor' });
    expect(corr!.params.reason).toBe('Duplicate deposit');

    const before = (await get('/api/v1/betting/bet_config')) as { cashout_margin: number };
    const changed = await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body: { cashout_margin: before.cashout_margin + 1 } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    try {
      const settings = (await events({ kind: 'setting_change', time_from: iso(since) })).filter((e) => e.params.setting === 'bet_config');
      expect(settings).toHaveLength(1);
      expect(settings[0]).toMatchObject({ admin_id: rootId, money: null });
    } finally {
      await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body: { cashout_margin: before.cashout_margin } });
    }
  });

  it('logs a burst of failed sign-ins once, at the fifth failure within ten minutes, and a privileged sign-in', async () => {
    const [superRole] = await t.database.db.select({ id: roles.id }).from(roles).where(eq(roles.isSuper, true));
    const desk = await makeRole(t, 'Audit desk', ['system', 'log']);
    const target = await makeAdmin(t, 'burst_target', desk, rootId);
    await makeAdmin(t, 'few_fails', desk, rootId);
    const second = await makeAdmin(t, 'audit_super', superRole!.id, rootId);
    const since = new Date();
    const fail = async (account: string, n: number) => {
      for (let i = 0; i < n; i++) {
        const r = await t.call('POST', '/api/v1/auth/login', { body: { account, password: 'Wrong#password1' }, ip: `198.51.100.${(account.length * 10 + i) % 250}` });
        expect(r.status).toBe(401);
      }
    };
    await fail('burst_target', 5);
    await fail('few_fails', 4);
    const bursts = await events({ kind: 'sign_in_burst', time_from: iso(since) });
    expect(bursts.map((e) => e.params.account)).toEqual(['burst_target']);
    expect(bursts[0]).toMatchObject({ admin_id: target, params: { failures: 5, minutes: 10 } });

    // A long attack (one failure a minute for twelve minutes) is one burst; a new one after a quiet half hour is another.
    // Written as the sign-in route writes its refusals (the throttle would stop a real run after five).
    const start = Date.now() - 3 * 3_600_000;
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    await t.database.db.insert(systemLogs).values(
      [...Array.from({ length: 12 }, (_, i) => at(i)), ...Array.from({ length: 5 }, (_, i) => at(50 + i))].map((createdAt) => ({
        type: LOG_TYPE.login, content: 'Failed sign-in for "steady_attack"', route: '/api/v1/auth/login', method: 'POST', status: 401, account: 'Steady_Attack', createdAt,
      })),
    );
    const steady = (await events({ kind: 'sign_in_burst', time_from: iso(at(-1)), time_to: iso(at(60)) })).filter((e) => e.params.account === 'Steady_Attack');
    expect(steady.map((e) => e.time)).toEqual([iso(at(54)), iso(at(4))]);

    await t.login('audit_super');
    await t.login('few_fails');
    const signIns = await events({ kind: 'privileged_sign_in', time_from: iso(since) });
    expect(signIns.map((e) => e.admin_id)).toEqual([second]);
  });

  it('logs a large withdrawal approved by a second admin and one refused, with their amounts', async () => {
    const b = await makePayer(t, rootId, 4_000_000_00, PAY_TYPE.vodacom);
    const a = await requestWithdrawal(t.database.db, { bettorId: b.id, payType: PAY_TYPE.vodacom, amount: 1_500_000_00 });
    const r = await requestWithdrawal(t.database.db, { bettorId: b.id, payType: PAY_TYPE.vodacom, amount: 1_200_000_00 });
    expect((await t.call('POST', `/api/v1/money/withdrawals/${a.id}/approve`, { token })).status).toBe(200);
    const checker = await checkerToken(t);
    const [checkerRow] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'checker'));
    expect((await t.call('POST', `/api/v1/money/withdrawals/${a.id}/approve`, { token: checker })).status).toBe(200);
    expect((await t.call('POST', `/api/v1/money/withdrawals/${r.id}/refuse`, { token, body: { reason: 'Documents missing' } })).status).toBe(200);

    const mine = await events({ bettor_id: b.id });
    expect(mine.map((e) => e.kind).sort()).toEqual(['large_withdrawal_approved', 'large_withdrawal_refused']);
    expect(mine.find((e) => e.kind === 'large_withdrawal_approved')).toMatchObject({ admin_id: checkerRow!.id, money: 1_500_000_00, params: { serial: a.serialNumber, first_approver: 'admin' } });
    expect(mine.find((e) => e.kind === 'large_withdrawal_refused')).toMatchObject({ admin_id: rootId, money: 1_200_000_00, params: { reason: 'Documents missing' } });
  });

  it('lists a sports payout at or above the large-win amount as a large win', async () => {
    await match(4, ['3.00', '3.40', '4.20']);
    const { bettor, order, line } = await single(4, '3.00');
    const [was] = await t.database.db.select({ amount: casinoSettings.largeWinAmount }).from(casinoSettings);
    await t.database.db.update(casinoSettings).set({ largeWinAmount: 280_000 });
    try {
      expect((await t.call('POST', `/api/v1/betting/orders/${order.id}/lines/${line.id}/result`, { token, body: { outcome_status: OUTCOME_STATUS.won, reason: 'Official' } })).status).toBe(200);
      const wins = await events({ bettor_id: bettor.id, kind: 'large_win' });
      // 3.00 on 1,000.00: 3,000.00 less 10 % of the 2,000.00 won = 2,800.00.
      expect(wins).toEqual([expect.objectContaining({ money: 280_000, order_id: order.id, params: expect.objectContaining({ product: 'sports' }) })]);
    } finally {
      await t.database.db.update(casinoSettings).set({ largeWinAmount: was!.amount });
    }
  });

  it('lists each producer outage the feed client kept, with its reason and when it was up again', async () => {
    // The UOF client writes these on its state changes (uof-feed.test.ts); here, what the log makes of them.
    const downAt = new Date(Date.now() - 3_600_000);
    const upAt = new Date(downAt.getTime() + 90_000);
    const [over] = await t.database.db.insert(feedProducerOutages).values({ producer: PRODUCER.live, downAt, upAt, reason: 'no alive within the gap' }).returning();
    const [open] = await t.database.db.insert(feedProducerOutages).values({ producer: PRODUCER.prematch, downAt: upAt, reason: 'the broker connection was lost' }).returning();
    const found = (await events({ kind: 'producer_down', time_from: iso(new Date(downAt.getTime() - 1000)) })).filter((e) => [over!.id, open!.id].some((id) => e.id === id * 16 + 3));
    expect(found).toEqual([
      expect.objectContaining({ time: iso(upAt), params: expect.objectContaining({ producer: PRODUCER.prematch, reason: 'the broker connection was lost', up_at: null }) }),
      expect.objectContaining({ time: iso(downAt), params: expect.objectContaining({ producer: PRODUCER.live, reason: 'no alive within the gap', up_at: expect.any(String) }) }),
    ]);
  });

  it('narrows by kind, admin, match, bettor and period', async () => {
    await match(5);
    const { bettor, order, line } = await single(5);
    const since = new Date();
    expect((await t.call('POST', `/api/v1/betting/orders/${order.id}/lines/${line.id}/result`, { token, body: { outcome_status: OUTCOME_STATUS.lost, reason: 'Lost' } })).status).toBe(200);
    const until = new Date(Date.now() + 1000);
    expect(await events({ event_id: ev(5) })).toEqual([expect.objectContaining({ kind: 'manual_result', bettor_id: bettor.id, money: 0 })]);
    expect(await events({ event_id: ev(5), kind: 'void' })).toEqual([]);
    expect(await events({ event_id: ev(5), admin_id: rootId })).toHaveLength(1);
    expect(await events({ event_id: ev(5), admin_id: rootId + 100_000 })).toEqual([]);
    expect(await events({ event_id: ev(5), admin: 'ADMIN' })).toHaveLength(1);
    expect(await events({ event_id: ev(5), admin: 'nobody_here' })).toEqual([]);
    expect(await events({ bettor_id: bettor.id, time_from: iso(since), time_to: iso(until) })).toHaveLength(1);
    expect(await events({ bettor_id: bettor.id, time_to: iso(since) })).toEqual([]);
    const all = await events({ kind: 'manual_result', time_from: iso(since) });
    expect(all.every((e) => e.kind === 'manual_result')).toBe(true);
    expect(all.some((e) => e.order_id === order.id)).toBe(true);
    expect((await t.call('GET', '/api/v1/reports/significant_events?kind=nothing', { token })).status).toBe(400);

    // The export runs the same list through the exports module.
    const job = await t.call('POST', '/api/v1/exports', { token, body: { type: 'significant_events', format: 1, params: { bettor_id: String(bettor.id) } } });
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    const done = await exportFinished(t, job.body.id);
    expect(done).toMatchObject({ status: 2, rowCount: 1 });
    const changes = await t.call('POST', '/api/v1/exports', { token, body: { type: 'resettlement_changes', format: 2, params: { event_id: ev(5) } } });
    expect(changes.status, JSON.stringify(changes.body)).toBe(202);
    expect(await exportFinished(t, changes.body.id)).toMatchObject({ status: 2, rowCount: 1 });
  });

  it('refuses a branch admin (403 WHOLE_BOOK_ONLY) even with the pages', async () => {
    const role = await makeRole(t, 'Branch auditor', ['significant_events', 'significant_events:export', 'resettlement_report', 'resettlement_report:export']);
    await makeAdmin(t, 'branch_auditor', role, rootId);
    const branch = await t.login('branch_auditor');
    for (const url of ['/api/v1/reports/significant_events', '/api/v1/reports/resettlements', '/api/v1/reports/resettlements/changes']) {
      const r = await t.call('GET', url, { token: branch });
      expect(r.status, url).toBe(403);
      expect(r.body.code).toBe('WHOLE_BOOK_ONLY');
    }
  });
});
