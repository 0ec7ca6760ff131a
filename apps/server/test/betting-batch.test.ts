/**
 * The feed's batched settlement (issue 5 benchmark work): ~300 orders of six bettors (singles and
 * accumulators, some partly paid with bonus funds, one bettor invited by another) placed through
 * `placeOrder`, then one match settled by `refreshFromFeed` in small chunks (each bettor has several
 * orders in every chunk, so its bills chain inside one statement). Checks every order against the
 * per-order rule (`reconcileOrder` finds nothing left to post), each bettor's balances against the
 * sum of its orders' credits, the bills per order, statistics and exposure, and the ledger invariants;
 * a second run changes nothing; a rollback gives every balance back; a resettlement pays again.
 * Runs on PGlite and on PostgreSQL (with concurrent chunks there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BETTING_OFFER_STATUS, BILL_TYPE, CREDIT_BILL_TYPE, EVENT_STATUS, ORDER_STATUS, ORDER_TYPE, SPORT } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { FeedEngine } from '../src/modules/feed/engine';
import { PgFeedStore } from '../src/modules/feed/pg-store';
import { bettors, bills } from '../src/schema.js';
import { checkInvariants, HOUSE, post } from '../src/modules/money/ledger';
import { orderEvents, orders } from '../src/modules/betting/schema';
import { placeOrder, type SlipSelection } from '../src/modules/betting/placement';
import { reconcileOrder, refreshFromFeed, type OrderCursor } from '../src/modules/betting/settlement';
import { admins } from '../src/platform/schema';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';

let t: TestApp;
let quiet: FeedEngine;
let clock = Date.now();
const tick = () => (clock += 1000);
const X12 = '1|';
const T = 'sr:match:batch_t';
const other = (n: number) => `sr:match:batch_o${n}`;
const PG = !!process.env.TEST_DATABASE_URL;
const N = 300;

/** Through the app's engine: its betting hook follows (default chunk size). */
async function send(m: FeedMessageInput) {
  expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  await t.betting.drain();
}
/** Through an engine without the hook: the test runs `refreshFromFeed` itself with its own chunk size. */
async function store(m: FeedMessageInput) {
  expect(await quiet.ingest(m)).toMatchObject({ ok: true });
}
async function match(id: string, prices: string[]) {
  await send({
    type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, sport_id: SPORT.football,
    league_id: 'sr:tournament:batch', league_name: 'Batch League', home_team: `Home ${id}`, away_team: `Away ${id}`,
    start_time: Date.now() + 3_600_000, status: EVENT_STATUS.not_started,
  });
  await send({
    type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, event_status: EVENT_STATUS.not_started,
    markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: prices.map((p, i) => ({ id: String(i + 1), price: p, active: true })) }],
  });
}
const settle = (id: string, outcomes: { id: string; result: 0 | 1; void_factor?: 0 | 0.5 | 1 }[]): FeedMessageInput => ({
  type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, markets: [{ id: 1, outcomes }],
});

type Balances = Map<number, { cash: number; credit: number }>;
async function balances(ids: number[]): Promise<Balances> {
  const rows = await t.database.db.select({ id: bettors.id, cash: bettors.cashBalance, credit: bettors.creditBalance }).from(bettors).where(inArray(bettors.id, ids));
  return new Map(rows.map((r) => [r.id, { cash: r.cash, credit: r.credit }]));
}

let people: { id: number; inviterId: number | null }[] = [];
let orderIds: number[] = [];
let placed: Balances;

beforeAll(async () => {
  t = await createTestApp();
  quiet = new FeedEngine(new PgFeedStore(t.database.db));
  const token = await t.login('admin', ADMIN_PASSWORD);
  expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  await match(T, ['1.80', '3.40', '4.20']);
  for (const n of [1, 2, 3]) await match(other(n), ['2.00', '3.00', '4.00']);
  // Six bettors with cash and bonus funds; the last one invited by the first.
  for (let i = 0; i < 6; i++) {
    const b = await makeBettor(t, root.id, { cash: 100_000_000 });
    await t.database.db.transaction((tx) =>
      post(tx, { bettorId: b.id, account: ACCOUNT_KIND.credit, amount: 1_000_000, type: CREDIT_BILL_TYPE.activity_credit_granted, cause: { type: 'promotion', id: `batch-${b.id}` }, house: HOUSE.creditIssued }),
    );
    people.push({ id: b.id, inviterId: null });
  }
  await t.database.db.update(bettors).set({ inviterId: people[0].id }).where(eq(bettors.id, people[5].id));
  people[5].inviterId = people[0].id;
  // 70 % singles on T, 30 % accumulators of 2-4 legs including T; every tenth order partly paid with bonus funds.
  for (let i = 0; i < N; i++) {
    const outcome = String(1 + (i % 3));
    const legs: SlipSelection[] = [{ eventId: T, marketKey: X12, outcomeId: outcome, odds: ['1.80', '3.40', '4.20'][i % 3] }];
    if (i % 10 >= 7) for (let k = 1; k <= 1 + (i % 3); k++) legs.push({ eventId: other(k), marketKey: X12, outcomeId: '1', odds: '2.00' });
    const o = await placeOrder(t.database.db, {
      bettorId: people[(i + Math.floor(i / 6)) % 6].id, type: ORDER_TYPE.user_bet, stakeCents: 10_000 + (i % 17) * 5_000, creditStakeCents: i % 10 === 4 ? 5_000 : 0, legs, skipLiveDelay: true,
    });
    orderIds.push(o.id);
  }
  // The accumulators' other legs win (the hook moves their lines; the orders stay open).
  for (const n of [1, 2, 3]) await send(settle(other(n), [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }]));
  placed = await balances(people.map((p) => p.id));
}, 300_000);
afterAll(async () => {
  await t?.close();
});

/** Every order settled as the per-order rule wants it, balances = placement + credits, bills per order, statistics. */
async function expectSettled(status: number) {
  const db = t.database.db;
  const rows = await db.select().from(orders).where(inArray(orders.id, orderIds));
  expect(rows.every((o) => o.status === status)).toBe(true);
  // The per-order rule finds nothing left to post on any of them.
  const left = await db.transaction(async (tx) => {
    let n = 0;
    for (const id of orderIds) if (await reconcileOrder(tx, id, { kind: 'settled', source: 'feed' })) n++;
    return n;
  });
  expect(left).toBe(0);
  const want = new Map(people.map((p) => [p.id, { ...placed.get(p.id)! }]));
  for (const o of rows) {
    want.get(o.bettorId)!.cash += o.creditedCash;
    want.get(o.bettorId)!.credit += o.creditedCredit;
    const inviter = people.find((p) => p.id === o.bettorId)!.inviterId;
    if (inviter) want.get(inviter)!.cash += o.inviterReward;
    else expect(o.inviterReward).toBe(0);
  }
  expect(await balances(people.map((p) => p.id))).toEqual(want);
  // Per order: the bills of its settlements sum to what it shows as credited.
  const sums = (await db.execute(sql`
    SELECT cause_id, account_kind, sum(amount)::bigint AS total FROM bills
    WHERE cause_type = 'order' AND type NOT IN (${BILL_TYPE.bet}, ${CREDIT_BILL_TYPE.credit_bet}, ${BILL_TYPE.inviter_profit_reward})
      AND NOT (type = ${BILL_TYPE.amount_rolled_back} AND coalesce(remark_params->>'part', '') = 'inviter_reward')
    GROUP BY cause_id, account_kind`)) as unknown as { rows: { cause_id: string; account_kind: number; total: string }[] };
  const byOrder = new Map(sums.rows.map((r) => [`${r.cause_id}:${r.account_kind}`, Number(r.total)]));
  for (const o of rows) {
    expect(byOrder.get(`${o.id}:${ACCOUNT_KIND.cash}`) ?? 0, `order ${o.id} cash`).toBe(o.creditedCash);
    expect(byOrder.get(`${o.id}:${ACCOUNT_KIND.credit}`) ?? 0, `order ${o.id} credit`).toBe(o.creditedCredit);
  }
  // Statistics: settled orders counted once; the match's liability gone once everything on it is settled.
  const [{ settled }] = ((await db.execute(sql`SELECT coalesce(sum(settled), 0)::int AS settled FROM stats_hourly`)) as unknown as { rows: { settled: number }[] }).rows;
  const [{ n: settledOrders }] = ((await db.execute(sql`SELECT count(*)::int AS n FROM orders WHERE status = ${ORDER_STATUS.settled}`)) as unknown as { rows: { n: number }[] }).rows;
  expect(settled).toBe(settledOrders);
  const exposure = ((await db.execute(sql`SELECT outcome_id, sum(liability)::bigint AS liability FROM selection_exposure WHERE event_id = ${T} GROUP BY outcome_id`)) as unknown as { rows: { liability: string }[] }).rows;
  if (status === ORDER_STATUS.settled) expect(exposure.map((e) => Number(e.liability))).toEqual([0, 0, 0]);
  expect(await checkInvariants(db)).toEqual([]);
  return rows;
}

describe('batched settlement from the feed', () => {
  it('settles ~300 orders of several bettors in chunks, pays once, rolls back and resettles', async () => {
    const db = t.database.db;
    const opts = { chunkSize: 40, concurrency: PG ? 3 : 1 };
    // Outcome 1 wins, 2 loses, 3 is void (the bonus-funded part comes back as bonus funds).
    await store(settle(T, [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0, void_factor: 1 }]));
    const run = await refreshFromFeed(db, T, opts);
    expect(run).toEqual({ orders: N, changed: N, failed: 0 });
    const rows = await expectSettled(ORDER_STATUS.settled);
    expect(rows.filter((o) => o.creditedCredit > 0).length).toBeGreaterThan(0);
    expect(rows.filter((o) => o.bonusAmount > 0).length).toBeGreaterThan(0);
    expect(rows.filter((o) => o.inviterReward > 0).length).toBeGreaterThan(0);
    // A bettor's bills of one chunk chain (the invariants check it); the inviter got the reward bills.
    const payouts = await db.select().from(bills).where(and(eq(bills.bettorId, people[0].id), eq(bills.type, BILL_TYPE.inviter_profit_reward)));
    expect(payouts.length).toBeGreaterThan(0);
    const history = await db.select({ kind: orderEvents.kind }).from(orderEvents).where(inArray(orderEvents.orderId, orderIds));
    expect(history.filter((h) => h.kind === 'settled').length).toBe(N);

    // Again: nothing changes.
    const before = await balances(people.map((p) => p.id));
    expect(await refreshFromFeed(db, T, opts)).toEqual({ orders: N, changed: 0, failed: 0 });
    expect(await balances(people.map((p) => p.id))).toEqual(before);

    // Rolled back: every balance as after placement, every order open again.
    // Here in bounded parts (as the settlement job runs them): each part goes on after the last order of
    // the previous one, and together they take every order once.
    await store({ type: 'rollback_bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: T, markets: [{ id: 1 }] });
    const parts: { orders: number; changed: number }[] = [];
    let after: OrderCursor | undefined;
    do {
      const part = await refreshFromFeed(db, T, { ...opts, after, limit: 70 });
      expect(part.failed).toBe(0);
      parts.push({ orders: part.orders, changed: part.changed });
      after = part.next;
    } while (after);
    expect(parts.length).toBe(Math.ceil(N / 70));
    expect(parts.every((p) => p.orders <= 70)).toBe(true);
    expect(parts.reduce((s, p) => s + p.orders, 0)).toBe(N);
    expect(parts.reduce((s, p) => s + p.changed, 0)).toBe(N);
    expect(await balances(people.map((p) => p.id))).toEqual(placed);
    const open = await db.select().from(orders).where(inArray(orders.id, orderIds));
    expect(open.every((o) => o.status === ORDER_STATUS.pending && o.creditedCash === 0 && o.creditedCredit === 0 && o.inviterReward === 0)).toBe(true);
    expect(await checkInvariants(db)).toEqual([]);

    // Resettled differently through the app's hook (default chunk size: each bettor's 50 orders in one chunk).
    await send(settle(T, [{ id: '1', result: 0 }, { id: '2', result: 1 }, { id: '3', result: 1, void_factor: 0.5 }]));
    await expectSettled(ORDER_STATUS.settled);
    const kinds = await db.select({ kind: orderEvents.kind }).from(orderEvents).where(eq(orderEvents.orderId, orderIds[1])).orderBy(orderEvents.id);
    expect(kinds.map((k) => k.kind)).toEqual(['placed', 'settled', 'rolled_back', 'settled']);
  }, 300_000);
});
