/**
 * today_statistics benchmark (issue 5): "today_statistics over 10,000,000 orders: under 200 ms".
 *
 * On a fresh PostgreSQL database (created, migrated, dropped at the end) it writes:
 *  - 10,000,000 rows in `orders` (INSERT ... SELECT generate_series, 1M per batch), spread evenly over the
 *    last 365 days (~27,400 a day, so today holds the share of the day gone so far), 100,000 bettors in 50
 *    agents of 5 branches; orders older than a day settled with payouts, tax and accumulator bonuses;
 *  - the statistics the betting service keeps beside them, computed FROM those orders: `stats_hourly`
 *    (turnover and orders by the hour of placement, payouts/tax/bonuses/settled by the hour of settlement)
 *    and `stats_bettor_day` (each bettor's first order of each Dar es Salaam day);
 *  - 1,000,000 paid recharges and 300,000 paid withdrawals over the year (deposits and withdrawals are
 *    figures of today_statistics, read from those tables by `paid_at`).
 * Then it times GET /api/v1/statistics/today through the app (buildApp + app.inject, server time) as the
 * super admin and as a branch admin (scope: 10 agents): median and p95 of 20 calls each, after 2 warm-up
 * calls. It checks the answer against a direct sum over `orders` of today, so the figures are right too.
 * A second round runs with the indexes proposed for recharges and withdrawals (pay_status, paid_at),
 * which the schema does not have yet (without them those two sums scan the tables).
 *
 * Run: `npm run bench:statistics` (BENCH_URL, BENCH_ORDERS to change; BENCH_KEEP=1 keeps the database).
 * Prints figures; never a gate.
 *
 * Figures (this machine, local PostgreSQL, 2026-11-21; generating the data took 29 minutes, 24 of them
 * the 10M orders with their six indexes; 438,047 stats_hourly rows, 4,715,394 stats_bettor_day rows;
 * today so far: 13,456 orders):
 *   GET /api/v1/statistics/today           median     p95
 *     super admin (whole book)            133.5 ms  157.3 ms
 *     branch admin (10 agents)             60.4 ms   70.1 ms
 *   with indexes recharges/withdrawals (pay_status, paid_at):
 *     super admin (whole book)             25.4 ms   36.8 ms
 *     branch admin (10 agents)             14.0 ms   18.7 ms
 *   The orders themselves are never read: without the two indexes the time goes to scanning 1M recharges
 *   and 300k withdrawals for today's paid ones (it grows with those tables, not with orders).
 *   An earlier run counting distinct bettors per hour with count(distinct) took 217 / 265 ms (super admin).
 */
import pg from 'pg';
import { openPostgres } from '../apps/server/src/platform/db.js';
import { seed } from '../apps/server/src/seed.js';
import { buildApp } from '../apps/server/src/app.js';
import { scratchDatabase } from './support';

const BASE = process.env.BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'dau_bench_statistics';
const { url: dbUrl, admin: adminQuery, prepare: prepareDb } = scratchDatabase(DB, BASE);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000_000);
const BETTORS = 100_000;
const RECHARGES = 1_000_000;
const WITHDRAWALS = 300_000;
const PASSWORD = 'Bench#2026pass';
const CALLS = 20;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(0)} s`;



async function generate(c: pg.Client) {
  const t0 = performance.now();
  // 5 branches below the super admin, 9 agents each; a role holding today_statistics for the branch admin.
  await c.query(`
    INSERT INTO admins (account, name, password_hash, role_id, superior_id, path)
    SELECT 'bench_branch_' || b, 'Branch ' || b, (SELECT password_hash FROM admins WHERE account = 'admin'),
           (SELECT role_id FROM admins WHERE account = 'admin'), 1, '/1/'
    FROM generate_series(1, 5) b`);
  await c.query(`
    INSERT INTO admins (account, name, password_hash, role_id, superior_id, path)
    SELECT 'bench_agent_' || b || '_' || a, 'Agent ' || b || '.' || a, (SELECT password_hash FROM admins WHERE account = 'admin'),
           (SELECT role_id FROM admins WHERE account = 'admin'), br.id, '/1/' || br.id || '/'
    FROM generate_series(1, 5) b, generate_series(1, 9) a, LATERAL (SELECT id FROM admins WHERE account = 'bench_branch_' || b) br`);
  await c.query(`INSERT INTO roles (name, remarks) VALUES ('BenchStats', 'bench')`);
  await c.query(`INSERT INTO role_menus (role_id, menu_id) SELECT r.id, m.id FROM roles r, menu_items m WHERE r.name = 'BenchStats' AND m.key = 'today_statistics'`);
  await c.query(`UPDATE admins SET role_id = (SELECT id FROM roles WHERE name = 'BenchStats') WHERE account = 'bench_branch_1'`);
  await c.query(`CREATE TEMP TABLE agent_ids AS SELECT row_number() OVER (ORDER BY id) - 1 AS i, id FROM admins WHERE account LIKE 'bench_%'`);
  const agents = Number((await c.query('SELECT count(*) n FROM agent_ids')).rows[0].n);
  await c.query(`
    INSERT INTO bettors (phone, name, agent_id, invitation_code, online_status, created_at)
    SELECT '2557' || lpad(g::text, 8, '0'), 'Bettor ' || g, a.id, 'BX' || g, CASE WHEN g % 50 = 0 THEN 2 ELSE 1 END,
           now() - ((g::bigint * 104729) % (365 * 86400)) * interval '1 second'
    FROM generate_series(1, ${BETTORS}) g JOIN agent_ids a ON a.i = g % ${agents}`);
  console.log(`admins: ${agents} agents and branches; bettors: ${BETTORS} (${secs(t0)})`);

  // Orders: created uniformly over 365 days; older than one day settled (a third won at their odds,
  // 10 % tax on net winnings, a 5 % accumulator bonus on won accumulators), the rest open.
  const chunk = 1_000_000;
  await c.query('ALTER TABLE orders SET (autovacuum_enabled = false)');
  for (let done = 0; done < ORDERS; done += chunk) {
    const n = Math.min(chunk, ORDERS - done);
    await c.query(`
      INSERT INTO orders (order_no, serial_number, bettor_id, agent_id, type, status, stake, cash_stake, total_odds, potential_payout,
                          leg_count, payout, profit, tax_rate, tax_amount, bonus_rate, bonus_amount, last_match_at, created_at, settled_at, updated_at)
      SELECT 'O' || g, 'S' || g, b.id, b.agent_id, 1, o.status, o.stake, o.stake, o.odds, (o.stake * o.odds)::bigint,
             o.legs, o.payout, o.payout - o.tax + o.bonus - o.stake, 1000, o.tax, CASE WHEN o.bonus > 0 THEN 500 ELSE 0 END, o.bonus,
             o.created + interval '2 hours', o.created, o.settled, coalesce(o.settled, o.created)
      FROM generate_series(${done + 1}, ${done + n}) g
      JOIN bettors b ON b.id = 1 + (g::bigint * 31) % ${BETTORS}
      CROSS JOIN LATERAL (SELECT now() - ((g::bigint * 7919) % (365 * 86400)) * interval '1 second' AS created,
                                 (1000 + (g % 50) * 1000)::bigint AS stake, 1 + (g % 4)::int AS legs,
                                 (1.5 + (g % 7) * 0.5)::numeric AS odds) x
      CROSS JOIN LATERAL (SELECT x.created, x.stake, x.legs, x.odds,
                                 CASE WHEN x.created < now() - interval '1 day' THEN 4 ELSE 2 END AS status,
                                 CASE WHEN x.created < now() - interval '1 day' THEN x.created + interval '3 hours' END AS settled,
                                 CASE WHEN x.created < now() - interval '1 day' AND g % 3 = 0 THEN (x.stake * x.odds)::bigint ELSE 0 END AS payout) y
      CROSS JOIN LATERAL (SELECT y.*, (y.payout - y.stake) / 10 * (y.payout > y.stake)::int AS tax,
                                 CASE WHEN y.payout > 0 AND y.legs > 1 THEN (y.payout - y.stake) / 20 ELSE 0 END AS bonus) o`);
    console.log(`orders: ${done + n} (${secs(t0)})`);
  }
  // The hourly statistics, from the orders: placements by creation hour, settlements by settlement hour.
  await c.query(`
    INSERT INTO stats_hourly (hour, agent_id, turnover, orders)
    SELECT date_trunc('hour', created_at), agent_id, sum(stake), count(*) FROM orders GROUP BY 1, 2`);
  await c.query(`
    INSERT INTO stats_hourly (hour, agent_id, payouts, tax, bonuses, settled)
    SELECT date_trunc('hour', settled_at), agent_id, sum(payout), sum(tax_amount), sum(bonus_amount), count(*)
    FROM orders WHERE settled_at IS NOT NULL GROUP BY 1, 2
    ON CONFLICT (hour, agent_id) DO UPDATE SET payouts = EXCLUDED.payouts, tax = EXCLUDED.tax, bonuses = EXCLUDED.bonuses, settled = EXCLUDED.settled`);
  console.log(`stats_hourly: ${(await c.query('SELECT count(*) n FROM stats_hourly')).rows[0].n} rows (${secs(t0)})`);
  // Distinct bettors per Dar es Salaam day (UTC+3), with the local hour of their first order.
  await c.query(`
    INSERT INTO stats_bettor_day (day, agent_id, bettor_id, hour)
    SELECT to_char(created_at AT TIME ZONE 'UTC' + interval '3 hours', 'YYYY-MM-DD'), agent_id, bettor_id,
           min(extract(hour FROM created_at AT TIME ZONE 'UTC' + interval '3 hours'))::smallint
    FROM orders GROUP BY 1, 2, 3`);
  console.log(`stats_bettor_day: ${(await c.query('SELECT count(*) n FROM stats_bettor_day')).rows[0].n} rows (${secs(t0)})`);
  await c.query(`
    INSERT INTO recharges (serial_number, bettor_id, agent_id, amount, pay_type, phone, pay_status, created_at, paid_at)
    SELECT 'R' || g, b.id, b.agent_id, (1 + g % 100) * 100000, 6, b.phone, 2, t.at, t.at + interval '20 seconds'
    FROM generate_series(1, ${RECHARGES}) g JOIN bettors b ON b.id = 1 + (g::bigint * 37) % ${BETTORS}
    CROSS JOIN LATERAL (SELECT now() - ((g::bigint * 6133) % (365 * 86400)) * interval '1 second' - interval '20 seconds' AS at) t`);
  await c.query(`
    INSERT INTO withdrawals (serial_number, bettor_id, agent_id, amount, pay_type, phone, status, pay_status, created_at, paid_at)
    SELECT 'W' || g, b.id, b.agent_id, (1 + g % 50) * 200000, 6, b.phone, 4, 2, t.at - interval '1 hour', t.at
    FROM generate_series(1, ${WITHDRAWALS}) g JOIN bettors b ON b.id = 1 + (g::bigint * 41) % ${BETTORS}
    CROSS JOIN LATERAL (SELECT now() - ((g::bigint * 5347) % (365 * 86400)) * interval '1 second' AS at) t`);
  console.log(`recharges: ${RECHARGES}, withdrawals: ${WITHDRAWALS} (${secs(t0)})`);
  await c.query('ALTER TABLE orders RESET (autovacuum_enabled)');
  await c.query('VACUUM ANALYZE');
  console.log(`data ready in ${secs(t0)}`);
}

async function main() {
  const keep = process.env.BENCH_KEEP === '1';
  const fresh = await prepareDb();
  const database = await openPostgres(dbUrl(), { max: 10 });
  await database.migrate();
  const c = new pg.Client({ connectionString: dbUrl() });
  await c.connect();
  if (fresh) {
    await seed(database.db, { adminPassword: PASSWORD, demo: false });
    await generate(c);
  }
  const { app } = await buildApp({ database });
  await app.ready();
  const login = async (account: string) => {
    const r = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { account, password: PASSWORD } });
    if (r.statusCode !== 200) throw new Error(`login ${account}: ${r.statusCode} ${r.body}`);
    return JSON.parse(r.body).token as string;
  };
  const superToken = await login('admin');
  const branchToken = await login('bench_branch_1');

  // The expected totals of today, straight from the orders (Dar es Salaam day: from 21:00 UTC).
  const start = new Date(Date.parse(new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10) + 'T00:00:00Z') - 3 * 3_600_000);
  const truth = (
    await c.query(
      `SELECT count(*)::bigint AS orders, coalesce(sum(stake), 0)::bigint AS turnover, count(DISTINCT bettor_id)::bigint AS bettors
       FROM orders WHERE created_at >= $1`,
      [start],
    )
  ).rows[0];
  const [{ n: total }] = (await c.query('SELECT count(*)::bigint AS n FROM orders')).rows;

  const time = async (token: string) => {
    const times: number[] = [];
    let body: any;
    for (let i = 0; i < CALLS + 2; i++) {
      const t0 = performance.now();
      const r = await app.inject({ method: 'GET', url: '/api/v1/statistics/today', headers: { authorization: `Bearer ${token}` } });
      const ms = performance.now() - t0;
      if (r.statusCode !== 200) throw new Error(`today: ${r.statusCode} ${r.body}`);
      body = JSON.parse(r.body);
      if (i >= 2) times.push(ms);
    }
    return { times, body };
  };
  const report = (label: string, times: number[]) =>
    console.log(`  ${label.padEnd(36)} median ${fmt(pct(times, 50)).padStart(9)}   p95 ${fmt(pct(times, 95)).padStart(9)}   max ${fmt(Math.max(...times)).padStart(9)}`);

  console.log(`\nGET /api/v1/statistics/today, server time through app.inject, ${CALLS} calls after 2 warm-up (${Number(total).toLocaleString('en')} orders, today so far: ${Number(truth.orders).toLocaleString('en')}):`);
  const s1 = await time(superToken);
  report('super admin (whole book)', s1.times);
  const b1 = await time(branchToken);
  report('branch admin (10 agents)', b1.times);
  const ok = s1.body.totals.orders === Number(truth.orders) && s1.body.totals.turnover === Number(truth.turnover) && s1.body.totals.bettors === Number(truth.bettors);
  console.log(`  answer matches the orders of today: ${ok ? 'yes' : `NO (${JSON.stringify(s1.body.totals)} vs ${JSON.stringify(truth)})`}`);

  console.log('\nwith the proposed indexes recharges(pay_status, paid_at) and withdrawals(pay_status, paid_at):');
  await c.query('CREATE INDEX IF NOT EXISTS bench_recharges_paid ON recharges (pay_status, paid_at)');
  await c.query('CREATE INDEX IF NOT EXISTS bench_withdrawals_paid ON withdrawals (pay_status, paid_at)');
  await c.query('ANALYZE recharges; ANALYZE withdrawals');
  report('super admin (whole book)', (await time(superToken)).times);
  report('branch admin (10 agents)', (await time(branchToken)).times);
  await c.query('DROP INDEX bench_recharges_paid; DROP INDEX bench_withdrawals_paid');

  await c.end();
  await app.close();
  await database.close();
  if (!keep) {
    await adminQuery(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    console.log(`\ndropped ${DB}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
