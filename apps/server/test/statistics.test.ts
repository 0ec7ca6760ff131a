import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import { eq, inArray } from 'drizzle-orm';
import { ONLINE_STATUS, PAY_STATUS, WITHDRAWAL_STATUS } from '@dau/domain';
import { ADMIN_PASSWORD, createTestApp, makeRole, makeWorld, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { orderLines, selectionExposure, statsBettorDay, statsHourly } from '../src/modules/betting/schema.js';
import { bettors, recharges, withdrawals, asyncOperations } from '../src/schema.js';
import { admins } from '../src/platform/schema.js';
import { feedEvents } from '../src/modules/feed/schema.js';
import { exportJobsOf } from '../src/modules/exports/routes.js';
import { dayStart, localDay } from '../src/modules/statistics/figures.js';

/**
 * The statistics screens read aggregates the betting service keeps (stats_hourly, stats_bettor_day,
 * selection_exposure): these tests write those rows directly, for two branches, and check the totals,
 * the data scope, the Africa/Dar_es_Salaam (UTC+3) day boundaries and the parameter checks.
 */
const H = 3_600_000;
const DAY = 86_400_000;

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let superToken: string;
let tokA: string;
let tokNone: string;
/**
 * The test's clock: half past the hour in which the file started, frozen (only `Date` is faked: timers,
 * promises and PostgreSQL run for real) from before the app starts to the end of the file. The screens
 * read the clock through `Date`, so a run that crosses the hour or local midnight (21:00 UTC) still sees
 * one "today" and one current hour. `DAU_TEST_NOW` (ISO) moves it, to try a given time of day.
 */
const now = new Date(process.env.DAU_TEST_NOW ?? Math.floor(Date.now() / 3_600_000) * 3_600_000 + 30 * 60_000);
const today = localDay(now);
const start = dayStart(today);
const yesterday = localDay(start.getTime() - 1);
/** The hour bucket the betting service writes (date_trunc('hour', now())). */
const hourOf = (ms: number) => new Date(Math.floor(ms / H) * H);
const currentHour = hourOf(now.getTime());

let serial = 0;
const rechargeRow = (bettorId: number, agentId: number, amount: number, paidAt: Date | null, payStatus: number = PAY_STATUS.paid) => ({
  serialNumber: `R${++serial}`, bettorId, agentId, amount, payType: 1, phone: '255700000000', payStatus, paidAt,
});
const withdrawalRow = (bettorId: number, agentId: number, amount: number, paidAt: Date | null, paid = true) => ({
  serialNumber: `W${++serial}`, bettorId, agentId, amount, payType: 1, phone: '255700000000',
  status: paid ? WITHDRAWAL_STATUS.paid : WITHDRAWAL_STATUS.pending_review, payStatus: paid ? PAY_STATUS.paid : PAY_STATUS.processing, paidAt,
});

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now });
  t = await createTestApp();
  w = await makeWorld(t);
  const db = t.database.db;
  superToken = await t.login('admin', ADMIN_PASSWORD);
  // Agent A holds the three screens (and the export of match_statistics); its subtree is A and A1.
  const statsRole = await makeRole(t, 'Stats', ['today_statistics', 'match_statistics', 'match_statistics:export', 'history_statistics']);
  await db.update(admins).set({ roleId: statsRole }).where(eq(admins.id, w.agentA));
  tokA = await t.login('agent_a');
  tokNone = await t.login('limited');

  // Betting figures: A1 and B in the current hour, A1 at the first hour of today, A1 in the last hour of yesterday.
  await db.insert(statsHourly).values([
    { hour: currentHour, agentId: w.agentA1, turnover: 100_000, orders: 10, payouts: 40_000, tax: 1_000, bonuses: 500, cashouts: 5_000, settled: 6 },
    { hour: currentHour, agentId: w.agentB, turnover: 1_000_000, orders: 3, payouts: 0, tax: 0, bonuses: 0, cashouts: 0, settled: 0 },
    ...(currentHour.getTime() !== start.getTime()
      ? [{ hour: start, agentId: w.agentA1, turnover: 20_000, orders: 2, payouts: 10_000, tax: 200, bonuses: 0, cashouts: 0, settled: 1 }]
      : []),
    { hour: new Date(start.getTime() - H), agentId: w.agentA1, turnover: 7_000_000, orders: 70, payouts: 1, tax: 1, bonuses: 1, cashouts: 1, settled: 1 },
  ]);
  await db.insert(statsBettorDay).values([
    { day: today, agentId: w.agentA1, bettorId: 1, hour: 0 },
    { day: today, agentId: w.agentA1, bettorId: 2, hour: 0 },
    { day: today, agentId: w.agentB, bettorId: 3, hour: 0 },
    { day: yesterday, agentId: w.agentA1, bettorId: 1, hour: 23 },
    { day: yesterday, agentId: w.agentA1, bettorId: 9, hour: 23 },
  ]);

  // Money: bettors of A1 (one created today and online) and of B.
  const a1 = await makeBettor(t, w.agentA1);
  const b = await makeBettor(t, w.agentB);
  const old = await makeBettor(t, w.agentA1);
  // Created "now" by the test's clock (the column's default is the database's own clock).
  await db.update(bettors).set({ createdAt: now }).where(inArray(bettors.id, [a1.id, b.id]));
  await db.update(bettors).set({ createdAt: new Date(start.getTime() - 1) }).where(eq(bettors.id, old.id));
  await db.update(bettors).set({ onlineStatus: ONLINE_STATUS.online }).where(eq(bettors.id, a1.id));
  await db.update(bettors).set({ onlineStatus: ONLINE_STATUS.online }).where(eq(bettors.id, b.id));
  await db.insert(recharges).values([
    rechargeRow(a1.id, w.agentA1, 50_000, now),
    rechargeRow(a1.id, w.agentA1, 30_000, start),
    rechargeRow(a1.id, w.agentA1, 999, new Date(start.getTime() - 1)), // yesterday 23:59:59.999 local
    rechargeRow(a1.id, w.agentA1, 777, null, PAY_STATUS.processing), // not paid
    rechargeRow(b.id, w.agentB, 400_000, now),
  ]);
  await db.insert(withdrawals).values([
    withdrawalRow(a1.id, w.agentA1, 20_000, now),
    withdrawalRow(a1.id, w.agentA1, 555, null, false),
    withdrawalRow(b.id, w.agentB, 100_000, now),
  ]);

  // Two matches with exposure of both branches.
  const feedRow = (eventId: string, sportId: number, startTime: Date) => ({
    eventId, sportId, leagueId: 'L1', leagueName: 'Ligi Kuu', homeTeam: `Home ${eventId}`, awayTeam: `Away ${eventId}`, startTime, eventStatus: 1, updatedTs: 1,
  });
  await db.insert(feedEvents).values([feedRow('sr:match:1', 1, new Date(now.getTime() + 2 * H)), feedRow('sr:match:2', 2, new Date(now.getTime() - 3 * DAY))]);
  await db.insert(selectionExposure).values([
    { eventId: 'sr:match:1', marketKey: '1', outcomeId: '1', agentId: w.agentA1, orders: 3, stake: 30_000, liability: 60_000, payouts: 0 },
    { eventId: 'sr:match:1', marketKey: '1', outcomeId: '2', agentId: w.agentA1, orders: 1, stake: 10_000, liability: 35_000, payouts: 0 },
    { eventId: 'sr:match:1', marketKey: '1', outcomeId: '1', agentId: w.agentB, orders: 2, stake: 500_000, liability: 900_000, payouts: 0 },
    { eventId: 'sr:match:1', marketKey: '18|total=2.5', outcomeId: '12', agentId: w.agentA, orders: 1, stake: 5_000, liability: 9_000, payouts: 0 },
    { eventId: 'sr:match:2', marketKey: '1', outcomeId: '1', agentId: w.agentA1, orders: 4, stake: 40_000, liability: 0, payouts: 70_000, settledStake: 40_000 },
  ]);
  await db.insert(orderLines).values({
    orderId: 1, eventId: 'sr:match:1', marketKey: '1', outcomeId: '1', marketTypeId: 1, marketName: '1x2', selectionName: 'Home', odds: '2.00',
    sportId: 1, fixtureDate: now, eventStatusAtBet: 1,
  });
});
afterAll(async () => {
  await t?.close();
  vi.useRealTimers();
});

describe('today_statistics', () => {
  it('sums the whole book for the super admin, by Dar es Salaam hour', async () => {
    const res = await t.call('GET', '/api/v1/statistics/today', { token: superToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const b = res.body;
    expect(b.day).toBe(today);
    expect(b.time_zone).toBe('Africa/Dar_es_Salaam');
    expect(b.from).toBe(start.toISOString());
    expect(new Date(b.from).getUTCHours()).toBe(21); // local midnight = 21:00 UTC
    const early = currentHour.getTime() !== start.getTime() ? 1 : 0;
    expect(b.totals.turnover).toBe(1_100_000 + early * 20_000);
    expect(b.totals.orders).toBe(13 + early * 2);
    expect(b.totals.payouts).toBe(40_000 + early * 10_000);
    expect(b.totals.tax).toBe(1_000 + early * 200);
    expect(b.totals.bonuses).toBe(500);
    expect(b.totals.cashouts).toBe(5_000);
    expect(b.totals.ggr).toBe(b.totals.settled_stake - b.totals.payouts);
    expect(b.totals.ngr).toBe(b.totals.ggr - 500);
    expect(b.totals.bettors).toBe(3);
    expect(b.totals.deposits).toBe(480_000);
    expect(b.totals.deposit_count).toBe(3);
    expect(b.totals.withdrawals).toBe(120_000);
    expect(b.totals.new_bettors).toBe(2);
    expect(b.totals.online_bettors).toBe(2);
    expect(b.hours).toHaveLength(24);
    const h = Math.floor((currentHour.getTime() - start.getTime()) / H);
    expect(b.current_hour).toBe(h);
    // The current hour holds its own two rows; the early row (when there is one) is in hour 0, not here.
    expect(b.hours[h].turnover).toBe(1_100_000);
    expect(b.hours[0].turnover).toBe(early ? 20_000 : 1_100_000);
    expect(b.hours[0].bettors).toBe(3);
    // The hours add up to the totals.
    const sum = (k: string) => b.hours.reduce((s: number, x: Record<string, number>) => s + x[k], 0);
    for (const k of ['turnover', 'payouts', 'orders', 'deposits', 'withdrawals', 'new_bettors', 'ggr', 'ngr']) expect(sum(k), k).toBe(b.totals[k]);
  });

  it("shows an agent only their subtree's figures", async () => {
    const res = await t.call('GET', '/api/v1/statistics/today', { token: tokA });
    expect(res.status).toBe(200);
    const early = currentHour.getTime() !== start.getTime() ? 1 : 0;
    expect(res.body.totals.turnover).toBe(100_000 + early * 20_000);
    expect(res.body.totals.bettors).toBe(2);
    expect(res.body.totals.deposits).toBe(80_000);
    expect(res.body.totals.withdrawals).toBe(20_000);
    expect(res.body.totals.new_bettors).toBe(1);
    expect(res.body.totals.online_bettors).toBe(1);
  });

  it('refuses an admin without the page', async () => {
    expect((await t.call('GET', '/api/v1/statistics/today', { token: tokNone })).status).toBe(403);
    expect((await t.call('GET', '/api/v1/statistics/today')).status).toBe(401);
  });
});

describe('history_statistics', () => {
  it('splits days at local midnight (21:00 UTC)', async () => {
    const res = await t.call('GET', `/api/v1/statistics/history?date_from=${yesterday}&date_to=${today}`, { token: superToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [y, d] = res.body.items;
    expect(y.day).toBe(yesterday);
    expect(d.day).toBe(today);
    expect(y.turnover).toBe(7_000_000);
    expect(y.orders).toBe(70);
    expect(y.deposits).toBe(999);
    expect(y.new_bettors).toBe(1);
    expect(y.bettors).toBe(2);
    expect(d.deposits).toBe(480_000);
    expect(d.bettors).toBe(3);
    expect(res.body.totals.turnover).toBe(y.turnover + d.turnover);
    // Bettor 1 bet on both days: counted once over the span.
    expect(res.body.totals.bettors).toBe(4);
    expect(res.body.totals.ggr).toBe(res.body.totals.settled_stake - res.body.totals.payouts);
  });

  it('scopes per day too', async () => {
    const res = await t.call('GET', `/api/v1/statistics/history?date_from=${yesterday}&date_to=${today}`, { token: tokA });
    expect(res.status).toBe(200);
    expect(res.body.items[1].deposits).toBe(80_000);
    expect(res.body.items[1].bettors).toBe(2);
    expect(res.body.totals.bettors).toBe(3);
  });

  it('checks the dates: format, order, at most 92 days', async () => {
    const bad = async (qs: string) => {
      const res = await t.call('GET', `/api/v1/statistics/history?${qs}`, { token: superToken });
      expect(res.status, qs).toBe(400);
      expect(res.body.code).toBe('PARAM_INVALID');
    };
    await bad('date_from=2026-01-01');
    await bad('date_from=2026-13-01&date_to=2026-12-31');
    await bad('date_from=2026-02-30&date_to=2026-03-01');
    await bad('date_from=2026-03-02&date_to=2026-03-01');
    await bad('date_from=2026-01-01&date_to=2026-04-03'); // 93 days
    const ok = await t.call('GET', '/api/v1/statistics/history?date_from=2026-01-01&date_to=2026-04-02', { token: superToken });
    expect(ok.status).toBe(200);
    expect(ok.body.items).toHaveLength(92);
  });
});

describe('match_statistics', () => {
  it('lists matches with turnover, GGR and the worst outcome', async () => {
    const res = await t.call('GET', '/api/v1/statistics/matches?sort=-turnover', { token: superToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(2);
    const [m1, m2] = res.body.items;
    expect(m1.event_id).toBe('sr:match:1');
    expect(m1.turnover).toBe(545_000);
    expect(m1.orders).toBe(7);
    expect(m1.liability).toBe(1_004_000);
    expect(m1.max_liability).toBe(960_000);
    expect(m1.max_liability_outcome_id).toBe('1');
    expect(m1.home_team).toBe('Home sr:match:1');
    // Nothing of sr:match:1 is settled: no GGR yet, its stakes open beside it (issue 23; it read the turnover).
    expect(m1).toMatchObject({ settled_stake: 0, open_stakes: 545_000, payouts: 0, ggr: 0 });
    expect(m2).toMatchObject({ turnover: 40_000, settled_stake: 40_000, open_stakes: 0, payouts: 70_000, ggr: -30_000 });
    const byGgr = await t.call('GET', '/api/v1/statistics/matches?sort=ggr', { token: superToken });
    expect(byGgr.body.items.map((i: { event_id: string }) => i.event_id)).toEqual(['sr:match:2', 'sr:match:1']);
  });

  it('filters by sport, start time and event id', async () => {
    const bySport = await t.call('GET', '/api/v1/statistics/matches?sport_id=2', { token: superToken });
    expect(bySport.body.items.map((i: { event_id: string }) => i.event_id)).toEqual(['sr:match:2']);
    const from = new Date(now.getTime() - DAY).toISOString();
    const byStart = await t.call('GET', `/api/v1/statistics/matches?start_from=${encodeURIComponent(from)}`, { token: superToken });
    expect(byStart.body.items.map((i: { event_id: string }) => i.event_id)).toEqual(['sr:match:1']);
    const byId = await t.call('GET', '/api/v1/statistics/matches?event_id=sr:match:2', { token: superToken });
    expect(byId.body.total).toBe(1);
    const paged = await t.call('GET', '/api/v1/statistics/matches?page=2&page_size=1&sort=start_time', { token: superToken });
    expect(paged.body.items.map((i: { event_id: string }) => i.event_id)).toEqual(['sr:match:1']);
    expect((await t.call('GET', '/api/v1/statistics/matches?sort=nope', { token: superToken })).status).toBe(400);
    expect((await t.call('GET', '/api/v1/statistics/matches?start_from=yesterday', { token: superToken })).status).toBe(400);
  });

  it('scopes the list and the detail to the agent', async () => {
    const res = await t.call('GET', '/api/v1/statistics/matches', { token: tokA });
    const m1 = res.body.items.find((i: { event_id: string }) => i.event_id === 'sr:match:1');
    expect(m1.turnover).toBe(45_000);
    expect(m1.max_liability).toBe(60_000);
    const d = await t.call('GET', '/api/v1/statistics/matches/sr:match:1', { token: tokA });
    expect(d.status).toBe(200);
    expect(d.body.totals).toMatchObject({ turnover: 45_000, settled_stake: 0, open_stakes: 45_000, ggr: 0, liability: 104_000 });
    const m = d.body.markets.find((x: { market_key: string }) => x.market_key === '1');
    expect(m.market_name).toBe('1x2');
    expect(m.outcomes).toEqual([
      { outcome_id: '1', selection_name: 'Home', orders: 3, stake: 30_000, settled_stake: 0, liability: 60_000, payouts: 0 },
      { outcome_id: '2', selection_name: '', orders: 1, stake: 10_000, settled_stake: 0, liability: 35_000, payouts: 0 },
    ]);
  });

  it('answers 404 for a match nobody knows', async () => {
    expect((await t.call('GET', '/api/v1/statistics/matches/sr:match:404', { token: superToken })).status).toBe(404);
  });

  it('exports the list in the asker\'s scope', async () => {
    const res = await t.call('POST', '/api/v1/exports', { token: tokA, body: { type: 'match_statistics', format: 1, params: {} } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    // Polls the job's state until it leaves "running" (the test's timeout bounds a job that never ends).
    let row;
    for (;;) {
      [row] = await t.database.db.select().from(asyncOperations).where(eq(asyncOperations.id, res.body.id));
      if (row.status !== 1) break;
      // The job queue takes a job once the clock has passed its start time, and the frozen clock is PGlite's
      // too: let it move on a little (seconds, within the frozen half hour).
      vi.setSystemTime(Date.now() + 200);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(row!.status, row!.errorMessage ?? '').toBe(2);
    expect(row!.rowCount).toBe(2);
    const text = fs.readFileSync(exportJobsOf(t.ctx)!.pathOf(row!.filePath!), 'utf8');
    expect(text).toContain('450.00'); // sr:match:1 turnover of A's branch, in TSh
    expect(text).not.toContain('5450.00');
  });
});
