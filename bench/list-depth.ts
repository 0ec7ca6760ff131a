/**
 * Lists at a production's size (issue 25): the first page and the deepest page a list offers, through the
 * server with request logging as in production (pino at `info`, one line per request, to a file), for the
 * bills (BENCH_BILLS, 1,000,000), casino rounds (BENCH_ROUNDS, 1,000,000) and matches (BENCH_MATCHES,
 * 200,000) on PostgreSQL. The deepest page is the last within LIST_MAX_ROWS (page 500 at 20 a page);
 * one beyond must be 422. Each figure: BENCH_REPEAT (30) sequential requests, median and p95, after 3
 * unmeasured ones; beside it the same page's rows and count as plain SQL on a `pg` client (the floor).
 *
 * Setup (not timed): a fresh database dau_bench_ld_<pid> next to BENCH_URL, migrated and seeded with the
 * demo accounts and money, the app built (its start seeds the sandbox game provider), the rows
 * written by `INSERT ... SELECT generate_series` (bills of one bettor chain spread over the last 30 days,
 * rounds of the sandbox provider's first game, matches a minute apart), ANALYZE; dropped at the end.
 *
 * Run: `node --import tsx bench/list-depth.ts`. Prints figures; never a gate.
 *
 * Figures, this machine (2 cores, 2026-12-04, load average 1.0-1.5; median of 30, p95 in brackets):
 *   bills (1,000,876):        page 1 12.0 ms (17.7), page 500 14.3 ms (22.6)  x1.19; plain SQL 6.2 / 8.8 ms
 *   casino rounds (1,000,000): page 1  8.0 ms (13.2), page 500 14.1 ms (25.2) x1.76; plain SQL 3.7 / 5.3 ms
 *   matches (200,000):        page 1  8.3 ms (17.5), page 500 10.5 ms (22.8)  x1.27; plain SQL 2.2 / 2.9 ms
 *   page 501 of each: 422 LIST_TOO_DEEP. Before (issue 25's review): page 50,000 of 1M casino rounds 3.7 s;
 *   the bettors list counted up to 100,001 rows on every first page; the matches list counted every row
 *   and had no index on its order (71 ms of SQL at 200,000 matches).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { openPostgres } from '../apps/server/src/platform/db.js';
import { LIST_MAX_ROWS } from '../apps/server/src/platform/paging.js';
import { seed } from '../apps/server/src/seed.js';
import { seedDemoMoney } from '../apps/server/src/simulator/demo-money.js';
import { growToProductionSize, pct, PRODUCTION_ROWS, scratchDatabase } from './support.js';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const PAGE_SIZE = 20;
const DEEPEST = LIST_MAX_ROWS / PAGE_SIZE;
const PASSWORD = 'Bench#2026pass';

const name = `dau_bench_ld_${process.pid}`;
const scratch = scratchDatabase(name);
await scratch.admin(`CREATE DATABASE ${name}`);
const database = await openPostgres(scratch.url());
const raw = new pg.Client({ connectionString: scratch.url() });
const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dau-bench-ld-')), 'requests.log');
const logStream = fs.createWriteStream(logFile);
let close = async () => {};
try {
  await database.migrate();
  await seed(database.db, { adminPassword: PASSWORD, demo: true });
  await seedDemoMoney(database.db);
  // The app first: its start seeds the sandbox game provider and its games.
  const built = await buildApp({ database, logger: { level: 'info', stream: logStream } });
  close = () => built.app.close();
  const t0 = performance.now();
  const sizes = await growToProductionSize((q) => database.exec(q), (q) => database.query(q), { ...PRODUCTION_ROWS, bettors: 0 });
  console.log(`wrote the rows in ${((performance.now() - t0) / 1000).toFixed(1)} s; the tables hold ${JSON.stringify(sizes)}`);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`;
  const { token } = (await (await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: 'admin', password: PASSWORD }) })).json()) as { token: string };
  await raw.connect();

  const time = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < 3; i++) await fn();
    const xs: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const s = performance.now();
      await fn();
      xs.push(performance.now() - s);
    }
    return `${pct(xs, 50).toFixed(1)} ms (p95 ${pct(xs, 95).toFixed(1)})`;
  };
  const get = (url: string, status = 200) => async () => {
    const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== status) throw new Error(`${url}: ${res.status}, expected ${status}`);
  };
  const lists: [string, string, string][] = [
    ['bills', '/api/v1/money/bills', `SELECT * FROM bills WHERE account_kind = 1 ORDER BY created_at DESC, id DESC`],
    ['casino rounds', '/api/v1/casino/rounds', `SELECT * FROM casino_rounds ORDER BY id DESC`],
    ['matches', '/api/v1/sports/matches', `SELECT * FROM feed_events ORDER BY start_time, id`],
  ];
  for (const [label, url, order] of lists) {
    const server1 = await time(get(`${url}?page=1&page_size=${PAGE_SIZE}`));
    const serverDeep = await time(get(`${url}?page=${DEEPEST}&page_size=${PAGE_SIZE}`));
    await get(`${url}?page=${DEEPEST + 1}&page_size=${PAGE_SIZE}`, 422)();
    const count = `SELECT count(*) FROM (${order.replace(/ ORDER BY .*$/, '')} LIMIT ${LIST_MAX_ROWS + 1}) x`;
    const sql1 = await time(() => Promise.all([raw.query(`${order} LIMIT ${PAGE_SIZE}`), raw.query(count)]));
    const sqlDeep = await time(() => Promise.all([raw.query(`${order} LIMIT ${PAGE_SIZE} OFFSET ${LIST_MAX_ROWS - PAGE_SIZE}`), raw.query(count)]));
    console.log(`${label}: server page 1 ${server1}, page ${DEEPEST} ${serverDeep}; plain SQL (rows + capped count) page 1 ${sql1}, page ${DEEPEST} ${sqlDeep}; page ${DEEPEST + 1}: 422`);
  }
  console.log(`request log: ${fs.readFileSync(logFile, 'utf8').split('\n').length - 1} lines (${logFile}); load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await close();
  await raw.end().catch(() => {});
  await database.close();
  await scratch.admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
