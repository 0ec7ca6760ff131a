/**
 * Settlement through the Unified Odds Feed (issue 27): the same orders on two identical matches, one settled
 * by the engine's JSON messages, the other by the UOF XML documents a Betradar broker carries (over the local
 * RabbitMQ, through the app's own engine and betting hook). Each order of the XML match ends exactly as its
 * twin of the JSON match: status, payout, what was credited, and its bills to the cent; with a dead-heat
 * factor, half-void factors, a rollback and a re-settlement, and a cancel whose window voids only the
 * bets placed inside it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { BETTING_OFFER_STATUS, EVENT_STATUS, ORDER_STATUS, ORDER_TYPE, SPORT } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { orders } from '../src/modules/betting/schema';
import { placeOrder } from '../src/modules/betting/placement';
import { bills } from '../src/schema.js';
import { admins } from '../src/platform/schema';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';
import { sender, startFeed, stopFeeds } from './support/uof';

let t: TestApp;
let bettorId: number;
const JSON_MATCH = 'sr:match:7001';
const XML_MATCH = 'sr:match:7002';
let clock = Date.now() - 600_000;
const tick = () => (clock += 1000);

beforeAll(async () => {
  t = await createTestApp();
  const token = await t.login('admin', ADMIN_PASSWORD);
  expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  bettorId = (await makeBettor(t, root.id, { cash: 100_000_000 })).id;
}, 120_000);
afterEach(() => stopFeeds());
afterAll(async () => {
  await t?.close();
});

/** Through the app's engine as JSON (what the engine's tests and the sandbox route do). */
async function json(m: FeedMessageInput) {
  expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  await t.betting.drain();
}

const fixture = (id: string): FeedMessageInput => ({
  type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, sport_id: SPORT.football,
  league_id: 'sr:tournament:uof', league_name: 'UOF League', home_team: `Home ${id}`, away_team: `Away ${id}`,
  start_time: Date.now() + 3_600_000, status: EVENT_STATUS.not_started,
});
const odds = (id: string): FeedMessageInput => ({
  type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, event_status: EVENT_STATUS.not_started,
  markets: [
    { id: 1, specifiers: '', status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '1', price: '2.50', active: true }, { id: '2', price: '3.10', active: true }, { id: '3', price: '2.85', active: true }] },
    { id: 18, specifiers: 'total=2.5', status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '12', price: '1.95', active: true }, { id: '13', price: '1.87', active: true }] },
  ],
});
/** Dead heat on the home win, half void on the totals. */
const settlement = (id: string): FeedMessageInput => ({
  type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: id,
  markets: [
    { id: 1, outcomes: [{ id: '1', result: 1, dead_heat_factor: 0.5 }, { id: '2', result: 0 }, { id: '3', result: 0 }] },
    { id: 18, specifiers: 'total=2.5', outcomes: [{ id: '12', result: 1, void_factor: 0.5 }, { id: '13', result: 0, void_factor: 0.5 }] },
  ],
});
const resettlement = (id: string): FeedMessageInput => ({
  type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: id,
  markets: [{ id: 1, outcomes: [{ id: '1', result: 0 }, { id: '2', result: 0 }, { id: '3', result: 1 }] }],
});

/** The same slip on a match: singles on every selection, with stakes that make rounding show. */
async function bets(id: string) {
  const picks = [['1|', '1', '2.50'], ['1|', '2', '3.10'], ['1|', '3', '2.85'], ['18|total=2.5', '12', '1.95'], ['18|total=2.5', '13', '1.87']] as const;
  const ids: number[] = [];
  for (const [i, [marketKey, outcomeId, price]] of picks.entries()) {
    const o = await placeOrder(t.database.db, { bettorId, type: ORDER_TYPE.user_bet, stakeCents: 10_001 + i * 333, creditStakeCents: 0, legs: [{ eventId: id, marketKey, outcomeId, odds: price }], skipLiveDelay: true });
    ids.push(o.id);
  }
  return ids;
}

/** What an order ended as, and the bills of its settlements (types and amounts, in order). */
async function outcome(ids: number[]) {
  const rows = await t.database.db.select().from(orders).where(inArray(orders.id, ids)).orderBy(asc(orders.id));
  const out = [];
  for (const o of rows) {
    const b = await t.database.db
      .select({ type: bills.type, amount: bills.amount })
      .from(bills)
      .where(and(eq(bills.causeType, 'order'), eq(bills.causeId, String(o.id))))
      .orderBy(asc(bills.id));
    out.push({ status: o.status, payout: o.payout, creditedCash: o.creditedCash, bills: b });
  }
  return out;
}

describe('settlement through UOF XML over AMQP', () => {
  it('dead heat, half void, rollback and re-settlement: each XML order ends as its JSON twin, to the cent', async () => {
    const feed = await startFeed(t.database.db, t.feed);
    const xml = async (m: FeedMessageInput) => {
      expect(await sender(feed)(m)).toBe(true);
      await t.betting.drain();
    };
    for (const [send, id] of [[json, JSON_MATCH], [xml, XML_MATCH]] as const) {
      await send(fixture(id));
      await send(odds(id));
    }
    const jsonOrders = await bets(JSON_MATCH);
    const xmlOrders = await bets(XML_MATCH);

    await json(settlement(JSON_MATCH));
    await xml(settlement(XML_MATCH));
    const settled = await outcome(jsonOrders);
    expect(await outcome(xmlOrders)).toEqual(settled);
    // The worked figures: the dead-heat winner pays stake × odds × 0.5 (10,001 × 2.50 × 0.5, floored); the
    // half-void winner half at the odds and half back; the half-void loser half back.
    expect(settled.map((o) => o.payout)).toEqual([12_501, 0, 0, Math.floor(11_000 * 1.95 * 0.5) + 5_500, Math.floor(11_333 * 0.5)]);

    for (const [send, id] of [[json, JSON_MATCH], [xml, XML_MATCH]] as const) {
      await send({ type: 'rollback_bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, markets: [{ id: 1 }] });
      await send(resettlement(id));
    }
    const resettled = await outcome(jsonOrders);
    expect(await outcome(xmlOrders)).toEqual(resettled);
    expect(resettled[2]).toMatchObject({ status: ORDER_STATUS.settled, payout: Math.floor(10_667 * 2.85) });
  }, 300_000);

  it('a cancel with a time window voids only the bets placed inside it, as its JSON twin does', async () => {
    const feed = await startFeed(t.database.db, t.feed);
    const xml = async (m: FeedMessageInput) => {
      expect(await sender(feed)(m)).toBe(true);
      await t.betting.drain();
    };
    const ids = { json: 'sr:match:7101', xml: 'sr:match:7102' };
    for (const [send, id] of [[json, ids.json], [xml, ids.xml]] as const) {
      await send(fixture(id));
      await send(odds(id));
    }
    const before = { json: await bets(ids.json), xml: await bets(ids.xml) };
    // The window: from after the first bets to after the second ones (a few ms apart on both sides).
    await new Promise((r) => setTimeout(r, 20));
    const from = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    const inside = { json: await bets(ids.json), xml: await bets(ids.xml) };
    await new Promise((r) => setTimeout(r, 20));
    const to = Date.now();
    for (const [send, id] of [[json, ids.json], [xml, ids.xml]] as const)
      await send({ type: 'bet_cancel', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, start_time: from, end_time: to, markets: [{ id: 1 }, { id: 18, specifiers: 'total=2.5' }] });
    for (const [send, id] of [[json, ids.json], [xml, ids.xml]] as const) await send(settlement(id));
    const j = await outcome([...before.json, ...inside.json]);
    expect(await outcome([...before.xml, ...inside.xml])).toEqual(j);
    // Outside the window: settled by the result; inside: every stake back (the order voided).
    expect(j.slice(0, 5).map((o) => o.status)).toEqual(Array(5).fill(ORDER_STATUS.settled));
    expect(j.slice(5).map((o) => o.payout)).toEqual([10_001, 10_334, 10_667, 11_000, 11_333]);
  }, 300_000);
});
