/**
 * Issue 29, the landing page a shift lead opens: the live exposure (GET /api/v1/statistics/exposure,
 * modules/statistics/exposure.ts) through the real placement, cashout, cancel and settlement paths, and
 * today's figures against yesterday and the same weekday last week up to the same time (`compare` of
 * GET /api/v1/statistics/today) over fixed hourly rows.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { BETTING_OFFER_STATUS, EVENT_STATUS, ORDER_STATUS, ORDER_TYPE, SPORT } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { placeOrder, type SlipSelection } from '../src/modules/betting/placement';
import { acceptCashout } from '../src/modules/betting/cashout';
import { cancelOrder } from '../src/modules/betting/settlement';
import { orders, statsHourly } from '../src/modules/betting/schema';
import { addDays, dayStart, localDay } from '../src/modules/statistics/figures';
import { admins } from '../src/platform/schema';
import { approved, ADMIN_PASSWORD, createTestApp, makeRole, makeWorld, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';

const H = 3_600_000;
let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let superToken: string;
let tokA: string;
let clock = Date.now();
const tick = () => (clock += 1000);
const ev = (n: number) => `sr:match:exp${n}`;

async function send(m: FeedMessageInput) {
  expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  await t.betting.drain();
}

/** A football match with a bettable 1X2 at 2.00 / 3.00 / 4.00, not started or under way. */
async function match(n: number, status: number = EVENT_STATUS.not_started) {
  await send({
    type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), sport_id: SPORT.football,
    league_id: 'sr:tournament:exp', league_name: 'Exposure League', home_team: `Home ${n}`, away_team: `Away ${n}`,
    start_time: status === EVENT_STATUS.not_started ? Date.now() + 3_600_000 : Date.now() - 600_000, status,
  });
  await send({
    type: 'odds_change', producer: status === EVENT_STATUS.not_started ? PRODUCER.prematch : PRODUCER.live, timestamp: tick(), event_id: ev(n), event_status: status,
    markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: ['2.00', '3.00', '4.00'].map((p, i) => ({ id: String(i + 1), price: p, active: true })) }],
  });
}
const pick = (n: number, outcome: 1 | 2 | 3): SlipSelection => ({ eventId: ev(n), marketKey: '1|', outcomeId: String(outcome), odds: ['2.00', '3.00', '4.00'][outcome - 1] });

interface Outcome { outcome_id: string; selection_name: string; orders: number; stake: number; payout: number; net: number; worst: boolean }
interface Market { event_id: string; market_key: string; market_name: string; live: boolean; home_team: string; orders: number; stakes: number; worst_outcome_id: string; worst_payout: number; net_loss: number; outcomes: Outcome[] }
const exposure = async (token: string, query = '') => {
  const r = await t.call('GET', `/api/v1/statistics/exposure${query}`, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { markets: number; matches: number; items: Market[] };
};
const brief = (m: Market) => ({
  event: m.event_id, stakes: m.stakes, worst: m.worst_outcome_id, worst_payout: m.worst_payout, net_loss: m.net_loss,
  outcomes: Object.fromEntries(m.outcomes.map((o) => [o.outcome_id, [o.orders, o.stake, o.payout]])),
});

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  superToken = await t.login('admin', ADMIN_PASSWORD);
  const role = await makeRole(t, 'Shift lead', ['today_statistics']);
  await t.database.db.update(admins).set({ roleId: role }).where(eq(admins.id, w.agentA));
  tokA = await t.login('agent_a');
  expect((await t.call('PUT', '/api/v1/sports/margins', { token: superToken, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  expect((await approved(t, 'PUT', '/api/v1/betting/bet_config', { token: superToken, body: { tax_rate: 0, cashout_enabled: true } })).status).toBe(200);
  for (const n of [1, 2, 4]) await match(n);
  await match(3, EVENT_STATUS.in_progress);
});
afterAll(async () => {
  await t?.close();
});

describe('live exposure', () => {
  it('sums the open orders per outcome, counts an accumulator on each leg, leaves decided orders out of stakes and payouts, sorts by the net loss and keeps to the branch', async () => {
    const db = t.database.db;
    const a1 = await makeBettor(t, w.agentA1, { cash: 10_000_000 });
    const b = await makeBettor(t, w.agentB, { cash: 10_000_000 });
    const place = (bettorId: number, stake: number, legs: SlipSelection[]) =>
      placeOrder(db, { bettorId, type: ORDER_TYPE.user_bet, stakeCents: stake, legs, skipLiveDelay: true });

    expect((await exposure(superToken)).items, 'no open order: nothing to show').toEqual([]);

    // Singles on match 1: A1 home 1,000.00 (pays 2,000.00) and draw 500.00 (1,500.00); B home 2,000.00 (4,000.00).
    await place(a1.id, 100_000, [pick(1, 1)]);
    await place(a1.id, 50_000, [pick(1, 2)]);
    await place(b.id, 200_000, [pick(1, 1)]);
    // An accumulator of A1: match 1 away (4.00) and match 2 home (2.00), 100.00 at 8.00 pays 800.00 on both legs.
    await place(a1.id, 10_000, [pick(1, 3), pick(2, 1)]);
    // A live single of A1 on match 3: 300.00 pays 600.00.
    await place(a1.id, 30_000, [pick(3, 1)]);
    // Decided orders: one cancelled by an operator, one cashed out, one settled on match 4.
    const cancelled = await place(a1.id, 70_000, [pick(1, 3)]);
    await db.transaction((tx) => cancelOrder(tx, cancelled.id, { kind: 'cancelled', source: 'operator', adminId: w.rootId, reason: 'test' }));
    const cashed = await place(a1.id, 20_000, [pick(1, 2)]);
    expect(await acceptCashout(db, cashed.id, 1, { delayMs: 0 })).toMatchObject({ paid: true });
    await place(a1.id, 40_000, [pick(4, 1)]);
    await send({
      type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(4),
      markets: [{ id: 1, outcomes: [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }] }],
    });
    const decided = await db.select({ id: orders.id, status: orders.status }).from(orders);
    expect(decided.filter((o) => o.status !== ORDER_STATUS.pending)).toHaveLength(3);

    const all = await exposure(superToken);
    expect(all.matches).toBe(3);
    expect(all.markets).toBe(3);
    expect(all.items.map(brief)).toEqual([
      // Open stakes on the market 3,600.00; home pays 6,000.00: the book loses 2,400.00 if the home side wins.
      // The cashed-out draw and the cancelled away order count among the orders placed, not in stakes or payouts.
      { event: ev(1), stakes: 360_000, worst: '1', worst_payout: 600_000, net_loss: 240_000, outcomes: { 1: [2, 300_000, 600_000], 2: [2, 50_000, 150_000], 3: [2, 10_000, 80_000] } },
      { event: ev(2), stakes: 10_000, worst: '1', worst_payout: 80_000, net_loss: 70_000, outcomes: { 1: [1, 10_000, 80_000] } },
      { event: ev(3), stakes: 30_000, worst: '1', worst_payout: 60_000, net_loss: 30_000, outcomes: { 1: [1, 30_000, 60_000] } },
    ]);
    const m1 = all.items[0];
    expect(m1.home_team).toBe('Home 1');
    // The market's name as the catalogue spells it (a process-wide catalogue cache may hold '1x2' from another file).
    expect(m1.market_name).toMatch(/^1x2$/i);
    expect(m1.outcomes.map((o) => o.selection_name)).toEqual(['Home 1', 'Draw', 'Away 1']);
    expect(m1.live).toBe(false);
    expect(m1.outcomes.map((o) => [o.outcome_id, o.net, o.worst])).toEqual([['1', 240_000, true], ['2', -210_000, false], ['3', -280_000, false]]);

    // Live and upcoming apart.
    expect((await exposure(superToken, '?state=live')).items.map((m) => [m.event_id, m.live])).toEqual([[ev(3), true]]);
    expect((await exposure(superToken, '?state=upcoming')).items.map((m) => m.event_id)).toEqual([ev(1), ev(2)]);
    expect((await exposure(superToken, '?limit=1')).items.map((m) => m.event_id)).toEqual([ev(1)]);

    // Agent A sees A and A1's orders only: B's 2,000.00 on the home side is not theirs, and the order changes.
    const a = await exposure(tokA);
    expect(a.items.map(brief)).toEqual([
      { event: ev(2), stakes: 10_000, worst: '1', worst_payout: 80_000, net_loss: 70_000, outcomes: { 1: [1, 10_000, 80_000] } },
      { event: ev(1), stakes: 160_000, worst: '1', worst_payout: 200_000, net_loss: 40_000, outcomes: { 1: [1, 100_000, 200_000], 2: [2, 50_000, 150_000], 3: [2, 10_000, 80_000] } },
      { event: ev(3), stakes: 30_000, worst: '1', worst_payout: 60_000, net_loss: 30_000, outcomes: { 1: [1, 30_000, 60_000] } },
    ]);

    // A new order moves it at once (no cache): A1 backs the draw of match 1 with 1,000.00 (pays 3,000.00).
    await place(a1.id, 100_000, [pick(1, 2)]);
    const after = (await exposure(tokA)).items.find((m) => m.event_id === ev(1))!;
    expect(brief(after)).toMatchObject({ stakes: 260_000, worst: '2', worst_payout: 450_000, net_loss: 190_000 });
  });

  it('answers 403 without the landing page, 401 without a session and 400 on a bad filter', async () => {
    expect((await t.call('GET', '/api/v1/statistics/exposure', { token: await t.login('limited') })).status).toBe(403);
    expect((await t.call('GET', '/api/v1/statistics/exposure')).status).toBe(401);
    expect((await t.call('GET', '/api/v1/statistics/exposure?state=finished', { token: superToken })).status).toBe(400);
    expect((await t.call('GET', '/api/v1/statistics/exposure?limit=0', { token: superToken })).status).toBe(400);
    expect((await t.call('GET', '/api/v1/statistics/exposure?limit=201', { token: superToken })).status).toBe(400);
  });
});

describe('today against yesterday and last week', () => {
  it('sums the same hours of the other days, the hour under way in proportion, in the branch', async () => {
    // Half past an hour, frozen (only Date; the database runs for real).
    const now = new Date(Math.floor(Date.now() / H) * H + 30 * 60_000);
    vi.useFakeTimers({ toFake: ['Date'], now });
    try {
      const day = localDay(now);
      const h = Math.floor((now.getTime() - dayStart(day).getTime()) / H);
      const yStart = dayStart(addDays(day, -1)).getTime();
      const wStart = dayStart(addDays(day, -7)).getTime();
      const row = (at: number, agentId: number, turnover: number, orders: number, settledStake = 0, payouts = 0) => ({
        hour: new Date(at), agentId, turnover, orders, settledStake, payouts,
      });
      await t.database.db.insert(statsHourly).values([
        // Yesterday: an earlier hour in full, the same hour by half, the next hour not at all; B's in the same hour.
        ...(h > 0 ? [row(yStart, w.agentA1, 10_000, 1, 6_000, 2_000)] : []),
        row(yStart + h * H, w.agentA1, 40_000, 4, 20_000, 10_000),
        ...(h < 23 ? [row(yStart + (h + 1) * H, w.agentA1, 999_000, 99)] : []),
        row(yStart + h * H, w.agentB, 500_000, 50),
        // The same weekday last week: the same hour by half.
        row(wStart + h * H, w.agentA1, 8_000, 2),
      ]);
      const compare = async (token: string) => {
        const r = await t.call('GET', '/api/v1/statistics/today', { token });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body.compare as { yesterday: Record<string, number>; last_week: Record<string, number> };
      };
      const early = h > 0 ? 1 : 0;
      const a = await compare(tokA);
      expect(a.yesterday).toMatchObject({ turnover: early * 10_000 + 20_000, orders: early + 2, settled_stake: early * 6_000 + 10_000, payouts: early * 2_000 + 5_000 });
      expect(a.yesterday.ggr).toBe(a.yesterday.settled_stake - a.yesterday.payouts);
      expect(a.last_week).toMatchObject({ turnover: 4_000, orders: 1 });
      const all = await compare(superToken);
      expect(all.yesterday).toMatchObject({ turnover: early * 10_000 + 20_000 + 250_000, orders: early + 2 + 25 });
      expect(all.last_week.turnover).toBe(4_000);
    } finally {
      vi.useRealTimers();
    }
  });
});
