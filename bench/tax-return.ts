/**
 * A month's tax return at scale (issue 30: "a month's tax return ... well inside a minute").
 *
 * On a fresh PostgreSQL database (created, migrated, dropped at the end unless BENCH_KEEP=1) it writes, with
 * INSERT ... SELECT generate_series, one month of activity (the last complete month in Dar es Salaam), as
 * the ledger books it:
 *  - BENCH_BETTORS bettors (default 500,000) in 50 agents;
 *  - BENCH_ORDERS sports orders (default 15,000,000: 500,000 a day), each with its stake bill (1) and house
 *    entry; 35 % won at 2.00: a payout bill (2) net of the 10 % withholding tax and the tax moved from
 *    `payouts` to `withholding_tax_payable` in the same journal transaction; 1 % of the winners rolled back
 *    an hour later (bill 8, the tax moved back);
 *  - BENCH_ROUNDS casino rounds (default 5,000,000): a bet bill (23), and a win (24) for 45 % of them.
 * With the defaults that is about 35 million bills and 26 million journal lines. Secondary indexes are dropped
 * during the load and built afterwards, then VACUUM ANALYZE.
 *
 * Then it times `computeReturn` (reports/tax/compute.ts, what the `reports.tax-return` job runs) cold (no day
 * of the month stored: every day's pieces computed in the run) and as the product meets it at a month's end
 * (every day already computed by the hourly `reports.tax-days`: the run sums the stored days into the
 * per-bettor rows, the Gaming Board's lines and the header), and `computeDay` (one day's pieces: its tax per
 * order and bettor, its product figures). It checks the per-order and per-bettor sums against the journal's
 * tax entries and against the orders' own tax, and times the first page of each list as the screen reads it.
 *
 * Run: `node --import tsx bench/tax-return.ts` (BENCH_URL, BENCH_ORDERS, BENCH_BETTORS, BENCH_ROUNDS; BENCH_KEEP=1
 * keeps and reuses the database). Prints figures; never a gate.
 *
 * Figures: see docs/architecture.md "Reports" (the lead's full run); a small run on this shared machine
 * (BENCH_ORDERS=200000 BENCH_BETTORS=20000 BENCH_ROUNDS=100000) is in the closing note of issue 30.
 */
import pg from 'pg';
import { addDays, dayStart } from '@dau/domain';
import { computeDay, computeReturn, daysOf, productFigures } from '../apps/server/src/modules/reports/tax/compute.js';
import { monthOf, monthRange, previousMonth } from '../apps/server/src/modules/reports/tax/month.js';
import { BENCH_URL, pct, scratchDatabase } from './support';

const DB = 'dau_bench_tax_return';
const { url: dbUrl, admin: adminQuery, open: openDb } = scratchDatabase(DB, BENCH_URL);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 15_000_000);
const BETTORS = Number(process.env.BENCH_BETTORS ?? 500_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5_000_000);
const AGENTS = 50;
const AGENT0 = 1000;
const BATCH = 1_000_000;
const MONTH = previousMonth(monthOf(Date.now()));
const { from, to } = monthRange(MONTH);
/** Placements spread over the month, each decided an hour later and (1 %) rolled back an hour after that: all inside it. */
const SPAN = Math.floor((to.getTime() - from.getTime()) / 1000) - 3 * 3600;

const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const fmt = (ms: number) => `${ms.toFixed(1).padStart(9)} ms`;
const tables = ['bills', 'house_entries', 'orders'];
/** Tables whose autovacuum is paused during the load (not a partitioned table's own setting). */
const plain = ['house_entries', 'orders'];

async function generate(c: pg.Client) {
  const t0 = performance.now();
  const defs = (
    await c.query(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
      [tables],
    )
  ).rows as { indexname: string; indexdef: string }[];
  for (const d of defs) await c.query(`DROP INDEX ${d.indexname}`);
  for (const t of plain) await c.query(`ALTER TABLE ${t} SET (autovacuum_enabled = false)`);
  await c.query(`
    INSERT INTO bettors (phone, name, agent_id, invitation_code)
    SELECT '2556' || lpad(g::text, 8, '0'), 'Bettor ' || g, ${AGENT0} + g % ${AGENTS}, 'TX' || g FROM generate_series(1, ${BETTORS}) g`);
  console.log(`bettors: ${BETTORS} (${secs(t0)})`);
  const at = `'${from.toISOString()}'::timestamptz`;
  for (let lo = 1; lo <= ORDERS; lo += BATCH) {
    const hi = Math.min(ORDERS, lo + BATCH - 1);
    // x: an order's figures. Won: i % 20 < 7; rolled back: a winner with i % 100 = 3.
    const x = `(SELECT i, 1 + (i * 7919) % ${BETTORS} AS b, (1000 + (i * 104729) % 99000)::bigint AS stake,
        ${at} + ((i * ${SPAN}::bigint) / ${ORDERS}) * interval '1 second' AS placed,
        i % 20 < 7 AS won, i % 100 = 3 AS rolled
      FROM generate_series(${lo}::bigint, ${hi}::bigint) i) x`;
    await c.query(`
      INSERT INTO orders (id, order_no, serial_number, bettor_id, agent_id, type, status, stake, cash_stake, total_odds, potential_payout, leg_count,
        payout, tax_rate, tax_amount, credited_cash, last_match_at, created_at, settled_at)
      SELECT i, 'TX' || i, 'S' || i, b, ${AGENT0} + b % ${AGENTS}, 1, CASE WHEN rolled THEN 2 ELSE 4 END, stake, stake, 2.00, stake * 2, 1,
        CASE WHEN won AND NOT rolled THEN stake * 2 ELSE 0 END, 1000, CASE WHEN won AND NOT rolled THEN stake / 10 ELSE 0 END,
        CASE WHEN won AND NOT rolled THEN stake * 2 - stake / 10 ELSE 0 END, placed, placed, CASE WHEN rolled THEN NULL ELSE placed + interval '1 hour' END
      FROM ${x}`);
    // Bills: the stake; a winner's payout net of tax; a rolled-back winner's payout taken back.
    await c.query(`
      INSERT INTO bills (created_at, serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, txn_id)
      SELECT t, 'B' || k || i, b, ${AGENT0} + b % ${AGENTS}, 1, type, amount, 0, amount, 'order', i::text, k || i
      FROM ${x}, LATERAL (VALUES ('S', placed, 1, -stake, true), ('P', placed + interval '1 hour', 2, stake * 2 - stake / 10, won),
                                 ('R', placed + interval '2 hours', 8, -(stake * 2 - stake / 10), won AND rolled)) v(k, t, type, amount, yes)
      WHERE yes`);
    await c.query(`
      INSERT INTO house_entries (txn_id, account, amount, bill_type, created_at)
      SELECT k || i, account, amount, type, t
      FROM ${x}, LATERAL (VALUES
          ('S', placed, 'stakes_held', stake, 1, true),
          ('P', placed + interval '1 hour', 'payouts', -(stake * 2 - stake / 10), 2, won),
          ('P', placed + interval '1 hour', 'payouts', -(stake / 10), 2, won),
          ('P', placed + interval '1 hour', 'withholding_tax_payable', stake / 10, 2, won),
          ('R', placed + interval '2 hours', 'payouts', stake * 2 - stake / 10, 8, won AND rolled),
          ('R', placed + interval '2 hours', 'withholding_tax_payable', -(stake / 10), 8, won AND rolled),
          ('R', placed + interval '2 hours', 'payouts', stake / 10, 8, won AND rolled)) v(k, t, account, amount, type, yes)
      WHERE yes`);
    console.log(`orders ${hi.toLocaleString('en')} (${secs(t0)})`);
  }
  await c.query(`SELECT setval(pg_get_serial_sequence('orders', 'id'), ${ORDERS})`);
  for (let lo = 1; lo <= ROUNDS; lo += BATCH) {
    const hi = Math.min(ROUNDS, lo + BATCH - 1);
    const x = `(SELECT j, 1 + (j * 104723) % ${BETTORS} AS b, (100 + (j * 7907) % 20000)::bigint AS amt,
        ${at} + ((j * ${SPAN}::bigint) / ${ROUNDS}) * interval '1 second' AS t0, j % 20 < 9 AS won
      FROM generate_series(${lo}::bigint, ${hi}::bigint) j) x`;
    await c.query(`
      INSERT INTO bills (created_at, serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, txn_id)
      SELECT t, 'C' || k || j, b, ${AGENT0} + b % ${AGENTS}, 1, type, amount, 0, amount, 'casino', j::text, 'C' || k || j
      FROM ${x}, LATERAL (VALUES ('B', t0, 23, -amt, true), ('W', t0 + interval '5 seconds', 24, amt * 2, won)) v(k, t, type, amount, yes) WHERE yes`);
    await c.query(`
      INSERT INTO house_entries (txn_id, account, amount, bill_type, created_at)
      SELECT 'C' || k || j, 'casino', amount, type, t
      FROM ${x}, LATERAL (VALUES ('B', t0, 23, amt, true), ('W', t0 + interval '5 seconds', 24, -amt * 2, won)) v(k, t, type, amount, yes) WHERE yes`);
    console.log(`casino rounds ${hi.toLocaleString('en')} (${secs(t0)})`);
  }
  for (const d of defs) {
    const t1 = performance.now();
    // A partitioned table's index is listed `ON ONLY` (the parent alone): built here on every partition.
    await c.query(d.indexdef.replace(' ON ONLY ', ' ON '));
    console.log(`index ${d.indexname} (${secs(t1)})`);
  }
  for (const t of plain) await c.query(`ALTER TABLE ${t} RESET (autovacuum_enabled)`);
  await c.query('VACUUM ANALYZE');
  console.log(`data ready in ${secs(t0)}`);
}

async function main() {
  const keep = process.env.BENCH_KEEP === '1';
  const { database, c } = await openDb(generate);
  const range = [from.toISOString(), to.toISOString()];
  const sizes = (
    await c.query(
      `SELECT (SELECT count(*) FROM bills WHERE created_at >= $1 AND created_at < $2)::bigint AS bills,
         (SELECT count(*) FROM house_entries WHERE created_at >= $1 AND created_at < $2)::bigint AS journal_lines,
         (SELECT count(*) FROM house_entries WHERE account = 'withholding_tax_payable' AND created_at >= $1 AND created_at < $2)::bigint AS tax_entries,
         (SELECT count(*) FROM orders)::bigint AS orders`,
      range,
    )
  ).rows[0];
  console.log(`month ${MONTH}: ${JSON.stringify(sizes)}`);

  // A cold month (no day stored yet: every day computed in the run), then three runs of the month at its end as
  // the product meets it (every day already computed by the hourly job: the run sums the stored days), then
  // one day's pieces (what the hourly job computes after midnight), three times.
  await c.query(`INSERT INTO tax_returns (month, status, run) VALUES ($1, 'queued', 0) ON CONFLICT (month) DO NOTHING`, [MONTH]);
  const run = async () => {
    const { rows } = await c.query(`UPDATE tax_returns SET run = run + 1, status = 'queued' WHERE month = $1 RETURNING run`, [MONTH]);
    const t0 = performance.now();
    await computeReturn(database.db, MONTH, rows[0].run);
    return performance.now() - t0;
  };
  await c.query(`DELETE FROM tax_days WHERE month = $1`, [MONTH]);
  await c.query(`DELETE FROM tax_day_products WHERE day LIKE $1`, [`${MONTH}-%`]);
  await c.query(`DELETE FROM tax_return_orders WHERE month = $1`, [MONTH]);
  const cold = await run();
  console.log(`computeReturn, cold (all ${daysOf(MONTH, new Date()).length} days computed in the run)  ${fmt(cold)}`);
  const ms: number[] = [];
  for (let i = 0; i < 3; i++) ms.push(await run());
  console.log(`computeReturn, days stored (the month's run at its end)  p50 ${fmt(pct(ms, 50))}  max ${fmt(Math.max(...ms))}`);
  const busiest = (await c.query(`SELECT day FROM tax_return_orders WHERE month = $1 GROUP BY day ORDER BY count(*) DESC LIMIT 1`, [MONTH])).rows[0].day as string;
  const dayMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await database.db.transaction((tx) => computeDay(tx, busiest, new Date()), { isolationLevel: 'repeatable read' });
    dayMs.push(performance.now() - t0);
  }
  const perDay = (await c.query(`SELECT count(*)::int AS n FROM orders WHERE created_at >= $1 AND created_at < $2`, [dayStart(busiest), dayStart(addDays(busiest, 1))])).rows[0].n;
  console.log(`computeDay ${busiest} (~${perDay.toLocaleString('en')} orders placed that day)  p50 ${fmt(pct(dayMs, 50))}  max ${fmt(Math.max(...dayMs))}`);
  const tp = performance.now();
  const products = await productFigures(database.db, from, to);
  console.log(`  of which the Gaming Board's lines alone  ${fmt(performance.now() - tp)}  ${JSON.stringify(products)}`);

  // The figures agree: the journal's tax entries = Σ per order = Σ per bettor = the orders' own tax.
  const check = (
    await c.query(
      `SELECT (SELECT coalesce(sum(amount), 0) FROM house_entries WHERE account = 'withholding_tax_payable' AND created_at >= $1 AND created_at < $2)::bigint AS journal,
         (SELECT coalesce(sum(tax), 0) FROM tax_return_orders WHERE month = $3)::bigint AS per_order,
         (SELECT coalesce(sum(tax), 0) FROM tax_return_bettors WHERE month = $3)::bigint AS per_bettor,
         (SELECT coalesce(sum(tax_amount), 0) FROM orders)::bigint AS orders_tax,
         (SELECT wht_total FROM tax_returns WHERE month = $3) AS header,
         (SELECT count(*) FROM tax_return_orders WHERE month = $3)::bigint AS order_rows,
         (SELECT count(*) FROM tax_return_bettors WHERE month = $3)::bigint AS bettor_rows`,
      [...range, MONTH],
    )
  ).rows[0];
  const same = new Set([check.journal, check.per_order, check.per_bettor, check.orders_tax, String(check.header)].map(String));
  if (same.size !== 1) throw new Error(`the withholding tax does not agree: ${JSON.stringify(check)}`);
  console.log(`checked: ${JSON.stringify(check)}`);

  // The screen's first pages (as the list layer reads them: newest sort -tax, 20 rows).
  const page = async (label: string, q: string) => {
    const xs: number[] = [];
    for (let i = 0; i < 13; i++) {
      const t0 = performance.now();
      await c.query(q, [MONTH]);
      if (i >= 3) xs.push(performance.now() - t0);
    }
    console.log(`  ${label.padEnd(40)} p50 ${fmt(pct(xs, 50))}  p95 ${fmt(pct(xs, 95))}`);
  };
  await page('per bettor, first page (largest tax)', `SELECT * FROM tax_return_bettors b LEFT JOIN bettors u ON u.id = b.bettor_id WHERE month = $1 ORDER BY tax DESC, b.id DESC LIMIT 20`);
  const orderPage = (where: string) => `SELECT o.*, u.phone, r.order_no FROM tax_return_orders o LEFT JOIN bettors u ON u.id = o.bettor_id
    LEFT JOIN orders r ON o.product = 1 AND r.id = o.ref_id WHERE month = $1 ${where} ORDER BY tax DESC, o.id DESC LIMIT 20`;
  await page('per order, first page (largest tax)', orderPage(''));
  await page('per order, one bettor', orderPage('AND o.bettor_id = 77'));

  await c.end();
  await database.close();
  if (!keep) await adminQuery(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
