/**
 * Live exposure benchmark (issue 29): "exposure recomputation on the 1M-bettor / 10M-order data set".
 *
 * On a fresh PostgreSQL database (created, migrated, dropped at the end unless BENCH_KEEP=1) it writes
 * with INSERT ... SELECT generate_series:
 *  - 1,000,000 bettors in 50 agents (10 of them make the branch below);
 *  - 20,000 matches: 19,600 over (ended), 100 live, 300 upcoming, five markets each (1X2, double chance,
 *    two totals, both teams to score: two or three outcomes);
 *  - 10,000,000 orders over the last year, 70 % singles and 30 % accumulators of three legs (16,000,000
 *    lines): the newest 3 % (300,000) open on the live and upcoming matches, the rest settled on the
 *    matches that are over; 1 % of the settled accumulators lost early with a leg still undecided on an
 *    upcoming match (decided orders the exposure must leave out although their line is open);
 *  - `selection_exposure` as the betting service keeps it beside those orders (one row per selection and
 *    agent: orders and stakes taken, the open orders' potential payouts, the settled stakes), computed
 *    from them in one statement.
 * Secondary indexes are dropped during the load and built afterwards, then VACUUM ANALYZE.
 *
 * Then it times `computeExposure` (modules/statistics/exposure.ts, what GET /api/v1/statistics/exposure
 * answers: the live and upcoming matches, the aggregate of their selections in scope, the worst outcome
 * per market, sorted) for the whole book and for a branch of 10 agents: p50 and p95 of 30 runs after 3
 * warm-ups. It checks the whole book's payouts against a direct sum over the open orders' lines. For
 * comparison it also times that direct sum (what a recomputation from the orders costs).
 *
 * Run: `node --import tsx bench/exposure.ts` (BENCH_URL, BENCH_ORDERS, BENCH_BETTORS; BENCH_KEEP=1 keeps
 * and reuses the database). Prints figures; never a gate.
 *
 * Figures (2026-12-05, this machine: 2 cores shared with seven other sessions, load average 6-10, local
 * PostgreSQL 15; generating the data took 12.5 minutes and selection_exposure 76 s, 95,412 rows; 300,000
 * open orders, 577,000 open lines, 1,440 markets with open orders on 400 matches):
 *   computeExposure (50 riskiest markets)          p50        p95
 *     whole book, live + upcoming               125.3 ms   249.2 ms
 *     whole book, live                           47.9 ms   118.5 ms
 *     branch (10 agents), live + upcoming        48.3 ms    79.5 ms
 *   summed from the open orders' lines instead 7,669.5 ms 8,892.8 ms
 *
 * The first design summed the open orders' lines on every call, on two partial indexes holding only open
 * orders and undecided lines (index-only scans, a parallel hash join): 3,829 ms p50, 4,993 ms p95 for the
 * whole book (773 / 1,364 ms live only; 2,256 / 2,704 ms for the branch), 9.8 s without those indexes.
 * Far too slow for a table refetched whenever orders arrive, so it reads the maintained aggregate.
 */
import pg from 'pg';
import { computeExposure, type ExposureState } from '../apps/server/src/modules/statistics/exposure.js';
import type { Scope } from '../apps/server/src/platform/ownership.js';
import { BENCH_URL, pct, scratchDatabase } from './support';

const DB = 'dau_bench_exposure';
const { url: dbUrl, admin: adminQuery, open: openDb } = scratchDatabase(DB, BENCH_URL);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000_000);
const BETTORS = Number(process.env.BENCH_BETTORS ?? 1_000_000);
const AGENTS = 50;
const AGENT0 = 1000;
const PAST = 19_600;
const LIVE = 100;
const UPCOMING = 300;
const OPEN_SHARE = 0.03;
const RUNS = 30;
const BATCH = 1_000_000;

const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(0)} s`;
const fmt = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`;

/** The markets of every match: key, outcomes (ids), type id. */
const MARKETS = [
  { key: '1|', type: 1, outcomes: ['1', '2', '3'] },
  { key: '10|', type: 10, outcomes: ['9', '10', '11'] },
  { key: '18|total=1.5', type: 18, outcomes: ['12', '13'] },
  { key: '18|total=2.5', type: 18, outcomes: ['12', '13'] },
  { key: '29|', type: 29, outcomes: ['74', '76'] },
];
// Flattened (market, outcome) pairs, picked by a number modulo their count.
const PAIRS = MARKETS.flatMap((m) => m.outcomes.map((o) => ({ ...m, outcome: o })));
const pairsSql = `(VALUES ${PAIRS.map((p, i) => `(${i}, '${p.key}', '${p.outcome}', ${p.type})`).join(', ')}) AS p(n, market_key, outcome_id, type_id)`;

const SECONDARY = ['orders_created', 'orders_bettor', 'orders_agent', 'orders_open_match', 'order_lines_order', 'order_lines_selection'];

/** selection_exposure from the orders, as placement, settlement and cashout leave it (betting/stats.ts). */
async function buildSelectionExposure(c: pg.Client) {
  const t0 = performance.now();
  await c.query('TRUNCATE selection_exposure');
  await c.query(`SET work_mem = '256MB'`);
  await c.query(`
    INSERT INTO selection_exposure (event_id, market_key, outcome_id, agent_id, orders, stake, liability, payouts, settled_stake)
    SELECT l.event_id, l.market_key, l.outcome_id, o.agent_id, count(*), sum(o.stake),
      coalesce(sum(o.potential_payout) FILTER (WHERE o.status = 2), 0), coalesce(sum(o.payout) FILTER (WHERE o.status <> 2), 0),
      coalesce(sum(o.stake) FILTER (WHERE o.status <> 2), 0)
    FROM orders o JOIN order_lines l ON l.order_id = o.id
    GROUP BY 1, 2, 3, 4`);
  await c.query('RESET work_mem');
  await c.query('VACUUM ANALYZE selection_exposure');
  console.log(`selection_exposure: ${(await c.query('SELECT count(*)::int AS n FROM selection_exposure')).rows[0].n} rows (${secs(t0)})`);
}

async function generate(c: pg.Client) {
  const t0 = performance.now();
  // Keep the definitions, drop the indexes during the load, build them again at the end.
  const defs = (await c.query(`SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY($1)`, [SECONDARY])).rows as { indexname: string; indexdef: string }[];
  for (const d of defs) await c.query(`DROP INDEX ${d.indexname}`);
  await c.query('ALTER TABLE orders SET (autovacuum_enabled = false)');
  await c.query('ALTER TABLE order_lines SET (autovacuum_enabled = false)');
  await c.query(`
    INSERT INTO bettors (phone, name, agent_id, invitation_code, created_at)
    SELECT '2556' || lpad(g::text, 8, '0'), 'Bettor ' || g, ${AGENT0} + g % ${AGENTS}, 'EX' || g, now() - (g % 31536000) * interval '1 second'
    FROM generate_series(1, ${BETTORS}) g`);
  console.log(`bettors: ${BETTORS} (${secs(t0)})`);
  // Matches 1..PAST over, then LIVE live, then UPCOMING upcoming.
  await c.query(`
    INSERT INTO feed_events (event_id, sport_id, league_id, league_name, home_team, away_team, start_time, event_status, match_status, updated_ts)
    SELECT 'sr:match:x' || g, 1, 'sr:tournament:x' || (g % 40), 'League ' || (g % 40), 'Home ' || g, 'Away ' || g,
      CASE WHEN g <= ${PAST} THEN now() - ((${PAST} - g) * 1600 + 7200) * interval '1 second'
           WHEN g <= ${PAST + LIVE} THEN now() - ((g - ${PAST}) * 50) * interval '1 second'
           ELSE now() + ((g - ${PAST + LIVE}) * 900) * interval '1 second' END,
      CASE WHEN g <= ${PAST} THEN 3 WHEN g <= ${PAST + LIVE} THEN 2 ELSE 1 END,
      CASE WHEN g <= ${PAST} THEN 3 WHEN g <= ${PAST + LIVE} THEN 2 ELSE 1 END, 0
    FROM generate_series(1, ${PAST + LIVE + UPCOMING}) g`);
  const open = Math.round(ORDERS * OPEN_SHARE);
  const firstOpen = ORDERS - open + 1;
  for (let from = 1; from <= ORDERS; from += BATCH) {
    const to = Math.min(ORDERS, from + BATCH - 1);
    // Status 2 pending (the newest), else 4 settled. Odds 1.50..4.99 per leg; an accumulator's product.
    await c.query(`
      INSERT INTO orders (id, order_no, serial_number, bettor_id, agent_id, type, status, stake, cash_stake, total_odds, potential_payout, leg_count,
        payout, tax_rate, last_match_at, created_at, settled_at)
      SELECT i, 'EX' || i, 'S' || i, b, ${AGENT0} + b % ${AGENTS}, 1, CASE WHEN i >= ${firstOpen} THEN 2 ELSE 4 END, stake, stake, odds,
        floor(stake * odds)::bigint, legs, CASE WHEN i >= ${firstOpen} OR i % 3 <> 0 THEN 0 ELSE floor(stake * odds)::bigint END, 1000,
        now(), now() - ((${ORDERS} - i)::bigint * 31536000 / ${ORDERS}) * interval '1 second',
        CASE WHEN i >= ${firstOpen} THEN NULL ELSE now() - ((${ORDERS} - i)::bigint * 31536000 / ${ORDERS}) * interval '1 second' END
      FROM (SELECT i, 1 + (i * 7919) % ${BETTORS} AS b, (1000 + (i * 104729) % 99000)::bigint AS stake,
              CASE WHEN i % 10 < 7 THEN 1 ELSE 3 END AS legs,
              CASE WHEN i % 10 < 7 THEN round(1.5 + (i % 350) / 100.0, 2) ELSE round(power(1.5 + (i % 350) / 100.0, 3)::numeric, 2) END AS odds
            FROM generate_series(${from}::bigint, ${to}::bigint) i) x`);
    // Lines: an open order's on the live and upcoming matches; a settled one's on the matches over, except
    // 1 % of the settled accumulators, whose last leg waits on an upcoming match (lost early elsewhere).
    await c.query(`
      INSERT INTO order_lines (order_id, event_id, market_key, outcome_id, market_type_id, market_name, selection_name, odds, outcome_status,
        selection_outcome, sport_id, fixture_date, event_status_at_bet)
      SELECT o.id, 'sr:match:x' || ev, p.market_key, p.outcome_id, p.type_id, 'Market ' || p.market_key, 'Outcome ' || p.outcome_id, 2.00,
        CASE WHEN open_line THEN 1 WHEN (o.id + k) % 2 = 0 THEN 2 ELSE 3 END, CASE WHEN open_line THEN 0 WHEN (o.id + k) % 2 = 0 THEN 4 ELSE 3 END,
        1, now(), 1
      FROM orders o, generate_series(1, o.leg_count) k,
        LATERAL (SELECT o.status = 2 OR (o.leg_count = 3 AND k = 3 AND o.id % 100 = 7) AS open_line) ol,
        LATERAL (SELECT CASE WHEN open_line THEN ${PAST} + 1 + (o.id * 31 + k * 97) % ${LIVE + UPCOMING} ELSE 1 + (o.id * 13 + k * 7) % ${PAST} END AS ev) e,
        ${pairsSql}
      WHERE o.id BETWEEN ${from} AND ${to} AND p.n = (o.id * 7 + k * 3) % ${PAIRS.length}`);
    console.log(`orders ${to.toLocaleString('en')} (${secs(t0)})`);
  }
  await c.query(`SELECT setval(pg_get_serial_sequence('orders', 'id'), ${ORDERS})`);
  for (const d of defs) {
    const t1 = performance.now();
    await c.query(d.indexdef);
    console.log(`index ${d.indexname} (${secs(t1)})`);
  }
  await c.query('ALTER TABLE orders RESET (autovacuum_enabled)');
  await c.query('ALTER TABLE order_lines RESET (autovacuum_enabled)');
  await c.query('VACUUM ANALYZE');
  await buildSelectionExposure(c);
  console.log(`data ready in ${secs(t0)}`);
}

async function main() {
  const keep = process.env.BENCH_KEEP === '1';
  const { database, c } = await openDb(generate);
  // A database kept from before selection_exposure was built (or with the first design's indexes).
  await c.query('DROP INDEX IF EXISTS orders_open_exposure');
  await c.query('DROP INDEX IF EXISTS order_lines_open_selection');
  if (!(await c.query('SELECT 1 FROM selection_exposure LIMIT 1')).rowCount) await buildSelectionExposure(c);
  const sizes = (
    await c.query(`SELECT (SELECT count(*) FROM bettors)::int AS bettors, (SELECT count(*) FROM orders)::int AS orders, (SELECT count(*) FROM order_lines)::int AS lines,
      (SELECT count(*) FROM orders WHERE status = 2)::int AS open_orders`)
  ).rows[0];
  console.log(`data: ${JSON.stringify(sizes)}`);

  const branch: Scope = { all: false, agentIds: Array.from({ length: 10 }, (_, i) => AGENT0 + i) };
  const book: Scope = { all: true };
  const truth = (
    await c.query(`SELECT coalesce(sum(o.potential_payout), 0)::bigint AS payout FROM orders o JOIN order_lines l ON l.order_id = o.id
      JOIN feed_events e ON e.event_id = l.event_id WHERE o.status = 2 AND l.outcome_status = 1 AND e.match_status IN (1, 2, 4)`)
  ).rows[0];

  const time = async (label: string, scope: Scope, state: ExposureState) => {
    const ms: number[] = [];
    let last: Awaited<ReturnType<typeof computeExposure>> | undefined;
    for (let i = 0; i < RUNS + 3; i++) {
      const t0 = performance.now();
      last = await computeExposure(database.db, scope, { state, limit: 50 });
      if (i >= 3) ms.push(performance.now() - t0);
    }
    console.log(`  ${label.padEnd(34)} ${fmt(pct(ms, 50))} ${fmt(pct(ms, 95))}   (${last!.matches} matches, ${last!.markets} markets)`);
    return last!;
  };
  const round = async (title: string) => {
    console.log(`${title}\n  computeExposure (50 riskiest markets)        p50        p95`);
    await time('whole book, live + upcoming', book, 'all');
    await time('whole book, live', book, 'live');
    await time('branch (10 agents), live + upcoming', branch, 'all');
  };

  // The whole book's payouts add up to the direct sum (every market, not only the 50 shown).
  const everything = await computeExposure(database.db, book, { state: 'all', limit: 1_000_000 });
  const sum = everything.items.reduce((s, m) => s + m.outcomes.reduce((t, o) => t + o.payout, 0), 0);
  if (sum !== Number(truth.payout)) throw new Error(`exposure payouts ${sum} differ from the open orders' ${truth.payout}`);
  console.log(`checked: payouts over ${everything.markets} markets = ${sum} (the open orders' lines)`);

  await round('from selection_exposure');

  // For comparison: the same payouts summed from the open orders' lines (a recomputation from the orders).
  const direct: number[] = [];
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    await c.query(`SELECT l.event_id, l.market_key, l.outcome_id, count(*), sum(o.stake), sum(o.potential_payout)
      FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN feed_events e ON e.event_id = l.event_id
      WHERE o.status = 2 AND l.outcome_status = 1 AND e.match_status IN (1, 2, 4) GROUP BY 1, 2, 3`);
    if (i >= 1) direct.push(performance.now() - t0);
  }
  console.log(`  summed from the open orders' lines instead    ${fmt(pct(direct, 50))} ${fmt(pct(direct, 95))}`);

  await c.end();
  await database.close();
  if (!keep) await adminQuery(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
