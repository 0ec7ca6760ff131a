/**
 * Daily close benchmark (issue 30): "the daily close over 1M bills and 500k orders of one day on PostgreSQL,
 * well inside a minute".
 *
 * On a fresh PostgreSQL database (created, migrated, dropped at the end unless BENCH_KEEP=1) it writes, with
 * INSERT ... SELECT generate_series, a consistent ledger (every bill chained from its account's previous one,
 * every balance the sum of its bills, every journal transaction summing to zero):
 *  - 100,000 bettors, each with an opening deposit the day before (bill 4 on an operator's clearing account);
 *  - yesterday (Dar es Salaam) 1,000,000 bills: 500,000 sports orders (one stake bill each: 40 % won and paid
 *    net of 10 % withholding tax, with the tax's move to `withholding_tax_payable`, 40 % lost, 20 % still
 *    open), casino bets and wins, and deposits over the five operators (USDT included);
 *  - the orders themselves (status, stake, potential payout, payout and tax).
 * Then it times the close of yesterday from the ledger (`computeClose`, modules/reports/close/figures.ts: the
 * products, the balances at the close from each account's last bill, the open bets, the operators, and the
 * ledger check over every bill), the ledger check alone (`runLedgerCheck`), and one stored run (`closeDay`:
 * the figures, the comparison with the day's latest run and the insert). It checks the figures against
 * direct sums over the orders, the bills and the bettors.
 *
 * Run: `node --import tsx bench/daily-close.ts` (BENCH_URL; BENCH_BILLS, BENCH_ORDERS, BENCH_BETTORS change
 * the sizes; BENCH_KEEP=1 keeps and reuses the database). Prints figures; never a gate.
 *
 * Figures: the lead runs it at full size (a small run, BENCH_BILLS=20000 BENCH_ORDERS=10000
 * BENCH_BETTORS=2000, only checks that it works).
 */
import pg from 'pg';
import { addDays, dayStart, localDay } from '@dau/domain';
import { computeClose } from '../apps/server/src/modules/reports/close/figures.js';
import { closeDay, runLedgerCheck } from '../apps/server/src/modules/reports/close/service.js';
import { BENCH_URL, pct, scratchDatabase } from './support';

const DB = 'dau_bench_daily_close';
const { url: dbUrl, admin: adminQuery, open: openDb } = scratchDatabase(DB, BENCH_URL);
const BILLS = Number(process.env.BENCH_BILLS ?? 1_000_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 500_000);
const BETTORS = Number(process.env.BENCH_BETTORS ?? 100_000);
const RUNS = 3;

const DAY = addDays(localDay(Date.now()), -1);
const START = dayStart(DAY).toISOString();
const OPENING = dayStart(addDays(DAY, -1)).toISOString();

const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(9);

async function generate(c: pg.Client) {
  const t0 = performance.now();
  const deposits = Math.round(BILLS * 0.05);
  const casino = Math.max(0, BILLS - Math.round(ORDERS * 1.4) - deposits);
  const casinoBets = Math.ceil(casino * 0.6);
  const casinoWins = casino - casinoBets;
  await c.query(`
    INSERT INTO bettors (id, phone, name, agent_id, invitation_code)
    SELECT b, '2557' || lpad(b::text, 8, '0'), 'Bettor ' || b, 1 + b % 5, 'DC' || b FROM generate_series(1, ${BETTORS}) b`);
  await c.query(`SELECT setval(pg_get_serial_sequence('bettors', 'id'), ${BETTORS})`);
  // The day's orders: placed in its first 20 hours, decided two hours later (won: o % 5 in 0, 1; lost: 2, 3; open: 4).
  await c.query(`
    INSERT INTO orders (id, order_no, serial_number, bettor_id, agent_id, type, status, stake, cash_stake, total_odds, potential_payout, leg_count,
                        payout, profit, tax_rate, tax_amount, credited_cash, last_match_at, created_at, settled_at, updated_at)
    SELECT o, 'DC' || o, 'DS' || o, x.bettor, 1 + x.bettor % 5, 1, CASE WHEN o % 5 = 4 THEN 2 ELSE 4 END, x.stake, x.stake, x.odds, floor(x.stake * x.odds)::bigint, 1,
           y.payout, CASE WHEN o % 5 = 4 THEN 0 ELSE y.payout - y.tax - x.stake END, 1000, y.tax, y.payout - y.tax, x.at + interval '2 hours', x.at,
           CASE WHEN o % 5 = 4 THEN NULL ELSE x.at + interval '2 hours' END, CASE WHEN o % 5 = 4 THEN x.at ELSE x.at + interval '2 hours' END
    FROM generate_series(1, ${ORDERS}) o
    CROSS JOIN LATERAL (SELECT 1 + (o::bigint * 31) % ${BETTORS} AS bettor, '${START}'::timestamptz + ((o::bigint * 7919) % 72000) * interval '1 second' AS at,
                               (1000 + (o % 50) * 1000)::bigint AS stake, (1.5 + (o % 7) * 0.5)::numeric AS odds) x
    CROSS JOIN LATERAL (SELECT CASE WHEN o % 5 IN (0, 1) THEN floor(x.stake * x.odds)::bigint ELSE 0 END AS payout) p
    CROSS JOIN LATERAL (SELECT p.payout, CASE WHEN p.payout > x.stake THEN (p.payout - x.stake) / 10 ELSE 0 END AS tax) y`);
  await c.query(`SELECT setval(pg_get_serial_sequence('orders', 'id'), ${ORDERS})`);
  console.log(`bettors ${BETTORS}, orders ${ORDERS} (${secs(t0)})`);

  // Every movement, then the bills in time order with their running balances, and their counter-entries.
  await c.query(`CREATE TEMP TABLE g (bettor integer, at timestamptz, type smallint, amount bigint, cause text, cause_id text, house text, txn text)`);
  await c.query(`
    INSERT INTO g SELECT b, '${OPENING}'::timestamptz + (b % 80000) * interval '1 second', 4, 1000000, 'recharge', 'open-' || b,
      'clearing:pay_type_' || (ARRAY[3, 4, 6, 7])[1 + b % 4], 'dc-open-' || b FROM generate_series(1, ${BETTORS}) b`);
  await c.query(`INSERT INTO g SELECT bettor_id, created_at, 1, -stake, 'order', id::text, 'stakes_held', 'dc-o' || id || 's' FROM orders`);
  await c.query(`
    INSERT INTO g SELECT bettor_id, settled_at, 2, payout - tax_amount, 'order', id::text, 'payouts', 'dc-o' || id || 'p' FROM orders WHERE payout > 0`);
  await c.query(`
    INSERT INTO g SELECT 1 + (r::bigint * 37) % ${BETTORS}, '${START}'::timestamptz + ((r::bigint * 104729) % 80000) * interval '1 second', 23,
      -(1000 + (r % 50) * 1000), 'casino', 'r' || r, 'casino', 'dc-cb' || r FROM generate_series(1, ${casinoBets}) r`);
  await c.query(`
    INSERT INTO g SELECT 1 + (r::bigint * 37) % ${BETTORS}, '${START}'::timestamptz + ((r::bigint * 104729) % 80000) * interval '1 second' + interval '30 seconds', 24,
      (1 + r % 3) * (1000 + (r % 50) * 1000), 'casino', 'r' || r, 'casino', 'dc-cw' || r FROM generate_series(1, ${casinoWins}) r`);
  await c.query(`
    INSERT INTO g SELECT 1 + (k::bigint * 53) % ${BETTORS}, '${START}'::timestamptz + ((k::bigint * 6133) % 86000) * interval '1 second', 4,
      500000 + (k % 20) * 100000, 'recharge', 'dep-' || k, CASE WHEN k % 5 = 4 THEN 'clearing:usdt' ELSE 'clearing:pay_type_' || (ARRAY[3, 4, 6, 7])[1 + k % 4] END,
      'dc-d' || k FROM generate_series(1, ${deposits}) k`);
  await c.query(`
    INSERT INTO bills (id, created_at, serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, txn_id)
    SELECT x.id, x.at, 'DCB' || x.id, x.bettor, 1 + x.bettor % 5, 1, x.type, x.amount, x.bal - x.amount, x.bal, x.cause, x.cause_id, x.txn
    FROM (SELECT g.*, row_number() OVER (ORDER BY at, txn) AS id, sum(amount) OVER (PARTITION BY bettor ORDER BY at, txn ROWS UNBOUNDED PRECEDING) AS bal FROM g) x`);
  await c.query(`SELECT setval(pg_get_serial_sequence('bills', 'id'), (SELECT max(id) FROM bills))`);
  await c.query(`INSERT INTO house_entries (txn_id, account, amount, bill_type, created_at) SELECT txn, house, -amount, type, at FROM g`);
  await c.query(`
    INSERT INTO house_entries (txn_id, account, amount, bill_type, created_at)
    SELECT 'dc-o' || id || 'p', a.account, a.sign * tax_amount, 2, settled_at FROM orders
    CROSS JOIN (VALUES ('payouts', -1), ('withholding_tax_payable', 1)) AS a(account, sign) WHERE tax_amount > 0`);
  await c.query(`UPDATE bettors b SET cash_balance = s.total FROM (SELECT bettor_id, sum(amount) AS total FROM bills GROUP BY 1) s WHERE b.id = s.bettor_id`);
  await c.query('VACUUM ANALYZE');
  const n = (await c.query(`SELECT count(*)::int AS n FROM bills WHERE created_at >= $1`, [START])).rows[0].n;
  console.log(`bills of ${DAY}: ${n} (+${BETTORS} opening deposits the day before); data ready in ${secs(t0)}`);
}

async function main() {
  const keep = process.env.BENCH_KEEP === '1';
  const { database, c } = await openDb(generate);

  const truth = (
    await c.query(
      `SELECT (SELECT coalesce(sum(stake), 0) FROM orders)::bigint AS stakes, (SELECT coalesce(sum(payout), 0) FROM orders)::bigint AS payouts,
              (SELECT coalesce(sum(tax_amount), 0) FROM orders)::bigint AS tax, (SELECT count(*) FROM orders WHERE status = 2)::int AS open,
              (SELECT coalesce(sum(cash_balance), 0) FROM bettors)::bigint AS balances,
              (SELECT coalesce(sum(-amount), 0) FROM bills WHERE type = 23 AND created_at >= $1)::bigint AS casino_stakes,
              (SELECT coalesce(sum(amount), 0) FROM bills WHERE type = 24 AND created_at >= $1)::bigint AS casino_payouts,
              (SELECT coalesce(sum(amount), 0) FROM bills WHERE type = 4 AND created_at >= $1)::bigint AS deposits`,
      [START],
    )
  ).rows[0];

  const ms: number[] = [];
  let f: Awaited<ReturnType<typeof computeClose>> | undefined;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    f = await computeClose(database.db, DAY);
    ms.push(performance.now() - t0);
  }
  const check: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await runLedgerCheck(database.db);
    check.push(performance.now() - t0);
  }
  const t0 = performance.now();
  const stored = await closeDay({ db: database.db, bus: database.bus }, DAY, { source: 'admin' });
  const storedMs = performance.now() - t0;

  const problems: string[] = [];
  const same = (what: string, got: number, want: unknown) => Number(want) !== got && problems.push(`${what}: close ${got}, direct ${want}`);
  same('sports stakes', f!.products.sports.stakes, truth.stakes);
  same('sports payouts', f!.products.sports.payouts, truth.payouts);
  same('sports tax', f!.products.sports.tax, truth.tax);
  same('casino stakes', f!.products.casino.stakes, truth.casino_stakes);
  same('casino payouts', f!.products.casino.payouts, truth.casino_payouts);
  same('deposits', f!.payments.deposits, truth.deposits);
  same('open orders', f!.open_bets.orders, truth.open);
  same('balances at the close', f!.liability.cash + f!.liability.cash_debts, truth.balances);
  if (!f!.ledger.ok) problems.push(`ledger check: ${f!.ledger.problems} problem(s)`);

  console.log(`\nclose of ${DAY} (Dar es Salaam), ${RUNS} runs each:`);
  console.log(`  computeClose (figures + ledger check)   p50 ${fmt(pct(ms, 50))}   max ${fmt(Math.max(...ms))}`);
  console.log(`  ledger check alone                       p50 ${fmt(pct(check, 50))}   max ${fmt(Math.max(...check))}`);
  console.log(`  closeDay (computed, compared, stored)         ${fmt(storedMs)}   (run ${stored.close.run}, changed ${stored.changed})`);
  console.log(`  GGR ${f!.total.ggr}, tax ${f!.total.tax}, owed to bettors ${f!.liability.total}, open bets ${f!.open_bets.orders}`);
  console.log(problems.length ? `  MISMATCH:\n    ${problems.join('\n    ')}` : '  figures match the direct sums over orders, bills and bettors; the ledger check is ok');

  await c.end();
  await database.close();
  if (!keep) await adminQuery(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  if (problems.length) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
