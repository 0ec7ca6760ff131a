/**
 * Open orders by the thousand, fast: written by bulk SQL (`INSERT ... SELECT generate_series`), not
 * `placeOrder`, for the settlement benchmark (bench/betting-settle.ts) and the settlement crash tests.
 *
 * - `bettors` bettors (10 % invited by the first 100), under the super admin;
 * - the target matches and `others` other matches, created and priced through a `FeedEngine` of its own
 *   (no betting hook: nothing settles behind the caller's back); the other matches settled (outcome 1
 *   won) before the orders exist;
 * - per target `orders` open orders: ~70 % singles on it, ~30 % accumulators of 2-4 legs whose other
 *   legs are already settled as won, so the target decides them; the target leg on outcome 1 (won at
 *   1.80), 2 (lost, 3.40) or 3 (lost, 4.20), by thirds;
 * - the ledger whole: per bettor one recharge bill (house entry on the clearing account) and per order one
 *   stake bill (type 1, house entry on stakes_held), balances chained, so `checkInvariants` checks all of
 *   it. Not written: stats_hourly / selection_exposure rows of placement (settlement moves them by deltas).
 *
 * `settleMessage(eventId)` is the `bet_settlement` that decides a target (outcome 1 won, 2 and 3 lost).
 */
import { BETTING_OFFER_STATUS, BILL_TYPE, EVENT_STATUS, ORDER_STATUS, SPORT } from '@dau/domain';
import type { Database } from '../../src/platform/db.js';
import { FeedEngine } from '../../src/modules/feed/engine.js';
import { PgFeedStore } from '../../src/modules/feed/pg-store.js';
import { PRODUCER, type FeedMessageInput } from '../../src/modules/feed/messages.js';
import { HOUSE } from '../../src/modules/money/ledger.js';

export interface BulkOrdersOptions {
  /** Event ids of the matches that get the orders (`orders` each). */
  targets: string[];
  /** Open orders per target. */
  orders: number;
  /** Bettors the orders are spread over. */
  bettors: number;
  /** Other matches, the accumulators' already-won legs (default 5). */
  others?: number;
  /** A prefix for event ids, order numbers and phones (default `bulk`), so that two writes do not collide. */
  tag?: string;
}

export interface BulkOrders {
  rootId: number;
  /** The smallest bettor id written. */
  firstBettorId: number;
  /** The `bet_settlement` of a target: outcome 1 won, 2 and 3 lost; a fresh timestamp each call. */
  settleMessage(eventId: string): FeedMessageInput;
  /** Applies a message through this writer's own feed engine (no betting hook). */
  send(m: FeedMessageInput): Promise<void>;
  counts: { orders: number; lines: number; bills: number };
}

export async function writeBulkOrders(database: Database, opts: BulkOrdersOptions): Promise<BulkOrders> {
  const { targets, orders: N, bettors: B } = opts;
  const tag = opts.tag ?? 'bulk';
  const others = Array.from({ length: opts.others ?? 5 }, (_, k) => `sr:match:${tag}_o${k + 1}`);
  const q = (text: string, values?: unknown[]) => database.query(text, values);
  let clock = Date.now();
  const tick = () => (clock = Math.max(clock + 1000, Date.now()));

  const rootId = (await q(`SELECT id FROM admins WHERE account = 'admin'`)).rows[0].id as number;
  const [{ lo: before }] = (await q(`SELECT coalesce(max(id), 0) AS lo FROM bettors`)).rows;
  await q(
    `INSERT INTO bettors (phone, name, agent_id, invitation_code, inviter_id)
     SELECT '2556' || lpad((${Number(before)} + g)::text, 8, '0'), 'Bettor ${tag} ' || g, $1, upper($2) || g, NULL FROM generate_series(1, ${B}) g`,
    [rootId, tag],
  );
  const [{ lo }] = (await q(`SELECT min(id) AS lo FROM bettors WHERE id > ${Number(before)}`)).rows;
  await q(`UPDATE bettors b SET inviter_id = ${lo} + ((b.id - ${lo}) % 100) WHERE b.id >= ${lo} + 100 AND b.id % 10 = 3`);

  // Matches through a feed engine of our own.
  const engine = new FeedEngine(new PgFeedStore(database.db));
  const send = async (m: FeedMessageInput) => {
    const r = await engine.ingest(m);
    if (!r.ok) throw new Error(`feed refused ${m.type}: ${JSON.stringify(r)}`);
  };
  const match = async (id: string, prices: string[]) => {
    await send({
      type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, sport_id: SPORT.football,
      league_id: `sr:tournament:${tag}`, league_name: 'Bulk League', home_team: `Home ${id}`, away_team: `Away ${id}`,
      start_time: Date.now() - 2 * 3_600_000, status: EVENT_STATUS.not_started,
    });
    await send({
      type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, event_status: EVENT_STATUS.not_started,
      markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: prices.map((p, i) => ({ id: String(i + 1), price: p, active: true })) }],
    });
  };
  const settleMessage = (id: string): FeedMessageInput => ({
    type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: id,
    markets: [{ id: 1, outcomes: [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }] }],
  });
  for (const id of others) await match(id, ['2.00', '3.20', '3.90']);
  for (const id of targets) await match(id, ['1.80', '3.40', '4.20']);
  for (const id of others) await send(settleMessage(id));

  // Orders: per target k (1-based), N orders; order g: bettor g*7919 mod B; 70 % singles, 30 % of 2-4 legs.
  const plan = `bulk_plan_${tag}`;
  const funding = `bulk_funding_${tag}`;
  await q(`CREATE TABLE ${plan} AS
    SELECT k, g, ${lo} + (g::bigint * 7919) % ${B} AS bettor_id,
           CASE WHEN g % 10 < 7 THEN 1 ELSE 2 + g % 3 END AS legs,
           1 + (g / 10) % 3 AS outcome, (100 + (g % 50) * 100) * 100 AS stake, 'O${tag}' || k || '-' || g AS order_no
    FROM generate_series(1, ${targets.length}) k, generate_series(1, ${N}) g`);
  await q(`
    INSERT INTO orders (order_no, serial_number, bettor_id, agent_id, type, status, stake, cash_stake, credit_stake, total_odds,
                        potential_payout, leg_count, tax_rate, last_match_at, created_at)
    SELECT p.order_no, 'S${tag}' || p.k || '-' || p.g, p.bettor_id, ${rootId}, 1, ${ORDER_STATUS.pending}, p.stake, p.stake, 0,
           x.odds, floor(p.stake * x.odds)::bigint, p.legs, 1000, now() - interval '2 hours', now() - interval '3 hours' + p.g * interval '1 ms'
    FROM ${plan} p
    CROSS JOIN LATERAL (SELECT (ARRAY[1.80, 3.40, 4.20])[p.outcome] * power(2.00, p.legs - 1)::numeric AS odds) x
    ORDER BY p.k, p.g`);
  // Lines: leg 0 on the target, legs 1.. on other matches (already settled as won by the feed).
  await q(
    `
    INSERT INTO order_lines (order_id, event_id, market_key, outcome_id, market_type_id, market_name, selection_name, odds, sport_id,
                             fixture_date, event_status_at_bet, settlement, settled_by, outcome_status, selection_outcome, settled_at, minutes_at_settlement)
    SELECT o.id, CASE WHEN leg = 0 THEN ($1::text[])[p.k] ELSE ($2::text[])[leg] END, '1|',
           CASE WHEN leg = 0 THEN p.outcome::text ELSE '1' END, 1, '1X2', CASE WHEN leg = 0 THEN p.outcome::text ELSE '1' END,
           CASE WHEN leg = 0 THEN (ARRAY['1.80', '3.40', '4.20'])[p.outcome] ELSE '2.00' END::numeric, ${SPORT.football},
           now() - interval '2 hours', ${EVENT_STATUS.not_started},
           CASE WHEN leg = 0 THEN NULL ELSE jsonb_build_object('result', 1, 'voidFactor', 0, 'deadHeatFactor', NULL) END,
           CASE WHEN leg = 0 THEN NULL ELSE 'feed' END, CASE WHEN leg = 0 THEN 1 ELSE 2 END, CASE WHEN leg = 0 THEN 0 ELSE 1 END,
           CASE WHEN leg = 0 THEN NULL ELSE now() END, CASE WHEN leg = 0 THEN NULL ELSE 100 END
    FROM orders o JOIN ${plan} p ON o.order_no = p.order_no
    CROSS JOIN LATERAL generate_series(0, p.legs - 1) leg
    ORDER BY o.id, leg`,
    [targets, others],
  );
  // Ledger: per bettor a recharge of its stakes + 1,000.00, then its stake bills chained in order id order.
  const mine = `o.order_no LIKE 'O${tag}%'`;
  await q(`
    CREATE TABLE ${funding} AS
    SELECT b.id AS bettor_id, coalesce(sum(o.cash_stake), 0) + 100000 AS amount, md5('fund${tag}' || b.id) AS txn_id
    FROM bettors b LEFT JOIN orders o ON o.bettor_id = b.id AND ${mine} WHERE b.id >= ${lo} GROUP BY b.id`);
  await q(`
    INSERT INTO bills (serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, txn_id)
    SELECT 'BR${tag}' || f.bettor_id, f.bettor_id, ${rootId}, 1, ${BILL_TYPE.user_recharge}, f.amount, 0, f.amount, 'recharge', f.bettor_id::text, f.txn_id
    FROM ${funding} f ORDER BY f.bettor_id`);
  await q(`INSERT INTO house_entries (txn_id, account, amount, bill_type) SELECT txn_id, $1, -amount, ${BILL_TYPE.user_recharge} FROM ${funding}`, [HOUSE.clearing(1)]);
  await q(`
    INSERT INTO bills (serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, txn_id)
    SELECT 'BS${tag}' || s.id, s.bettor_id, ${rootId}, 1, ${BILL_TYPE.bet}, -s.cash_stake, s.after + s.cash_stake, s.after, 'order', s.id::text, md5('stake${tag}' || s.id)
    FROM (
      SELECT o.id, o.bettor_id, o.cash_stake, f.amount - sum(o.cash_stake) OVER (PARTITION BY o.bettor_id ORDER BY o.id) AS after
      FROM orders o JOIN ${funding} f ON f.bettor_id = o.bettor_id WHERE ${mine}
    ) s ORDER BY s.bettor_id, s.id`);
  await q(`INSERT INTO house_entries (txn_id, account, amount, bill_type) SELECT md5('stake${tag}' || id), $1, cash_stake, ${BILL_TYPE.bet} FROM orders o WHERE ${mine}`, [HOUSE.stakesHeld]);
  await q(`UPDATE bettors b SET cash_balance = 100000, total_bets = x.s, bets_num = x.n FROM (SELECT bettor_id, sum(stake) s, count(*) n FROM orders o WHERE ${mine} GROUP BY bettor_id) x WHERE x.bettor_id = b.id`);
  await q(`UPDATE bettors SET cash_balance = 100000 WHERE id >= ${lo} AND cash_balance = 0`);
  await q(`INSERT INTO order_events (order_id, kind, source, after) SELECT id, 'placed', 'bettor', jsonb_build_object('status', status, 'stake', stake) FROM orders o WHERE ${mine}`);
  await q(`DROP TABLE ${plan}`);
  await q(`DROP TABLE ${funding}`);
  await q('VACUUM ANALYZE');
  const counts = (await q(`SELECT (SELECT count(*) FROM orders)::int AS orders, (SELECT count(*) FROM order_lines)::int AS lines, (SELECT count(*) FROM bills)::int AS bills`)).rows[0];
  return { rootId, firstBettorId: Number(lo), settleMessage, send, counts };
}
