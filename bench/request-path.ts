/**
 * The request path (issue 11): what a list request costs through the real server compared with the same
 * statements run from a plain `pg` loop, on PostgreSQL.
 *
 * Setup (not timed): a fresh database dau_bench_rp_<pid> next to DATABASE_URL (or BENCH_URL, or the local
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end; migrated and seeded as `npm run serve`
 * seeds a demo database (`seed` with the demo accounts, `seedDemoMoney`), with the sandbox provider's
 * fixtures ingested through the feed engine; then (BENCH_DATA=production, the default; `demo` skips it)
 * grown to a production's size (bench/support.ts `growToProductionSize`), then ANALYZE. The server logs
 * every request at info to a file, as in production. The server is built with `buildApp` and listens
 * in this process on a random port; autocannon (its CLI, in a child process) calls it signed in as the
 * super admin.
 *
 * Cells: the bill, bettor and match lists (page 1, default sort and page size) at 10, 50 and 200
 * connections, BENCH_SECONDS (20) each. The plain loop runs, with as many concurrent workers, the
 * statements the list needs on a `pg.Pool` of the server's size (20): the rows of the page and the count,
 * built from the list's own declaration, sent as plain text queries (what the server sent before issue
 * 11). Server and loop run in alternating slices of BENCH_SLICE (5) seconds, so that whatever else loads
 * the machine weighs on both alike. Two ratios: the loop's rate over the server's, and the server's Node
 * CPU time per request over the loop's (this process's CPU: autocannon runs elsewhere).
 *
 * Run: `node --import tsx bench/request-path.ts` (BENCH_SECONDS=6 BENCH_SLICE=3 for a quick run;
 * BENCH_CONNECTIONS=10,50,200; BENCH_LISTS=bills,bettors,matches). Prints figures; never a gate.
 *
 * Figures, this machine (2 cores shared by Node, PostgreSQL and several other sessions' tests: load
 * average 8-11, so the absolute rates are low and noisy; BENCH_SECONDS=6 BENCH_SLICE=3; demo data: 60
 * bettors, ~600 bills, 36 matches; ratio of rates, then of Node CPU per request, at 10 / 50 / 200 conn):
 *
 * Before (git 5e68211: drizzle builds every statement per request, session read per request, count always):
 *   bills    4.60x 3.60x 2.78x   cpu 9.19x 7.36x 3.92x   server 3.4-5.3 cpu-ms/req
 *   bettors  2.74x 5.87x 3.58x   cpu 5.70x 6.88x 4.31x   server 3.2-5.8 cpu-ms/req
 *   matches  6.31x 6.07x 5.07x   cpu 6.66x 6.25x 6.20x   server 2.7-3.3 cpu-ms/req
 *   median 4.60x (rates), 6.25x (CPU)
 * After (sessions cached, statements prepared per shape, no count on a short first page):
 *   bills    2.83x 2.52x 2.10x   cpu 5.14x 4.53x 3.19x   server 1.9-3.0 cpu-ms/req
 *   bettors  2.28x 1.99x 1.39x   cpu 3.31x 2.72x 2.19x   server 1.1-1.5 cpu-ms/req
 *   matches  2.26x 1.76x 2.71x   cpu 2.76x 2.20x 2.66x   server 0.8-0.9 cpu-ms/req
 *   median 2.26x (rates), 2.76x (CPU)
 * Production data (issue 25; BENCH_DATA=production, the default now: 100,060 bettors, 1,000,876 bills,
 * 200,036 matches; request logging at info to a file; 20 s a cell, load average ~1-2; rates, then Node CPU):
 *   bills    1.51x 1.35x 1.49x   cpu 4.56x 3.12x 3.63x   server 549-604 req/s, 0.74-1.03 cpu-ms/req
 *   bettors  1.43x 1.33x 1.39x   cpu 3.01x 2.49x 2.71x   server 740-844 req/s (30-46 req/s at 100k
 *            bettors before the 10,000-row count cap)
 *   matches  1.45x 1.46x 1.45x   cpu 3.17x 2.73x 2.80x   server 777-812 req/s (through feed_events_all)
 *   median 1.45x (rates), 3.01x (CPU); p99 at 200 connections 1.8-2.6 s against the loop's 0.3-0.4 s (the
 *   server's CPU per request is 3x the loop's, and the 2 cores are shared with PostgreSQL and autocannon).
 * What is left: the bills list's rows (joins, 18 columns) mapped by drizzle and serialised; fastify and
 * helmet per request.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { buildApp } from '../apps/server/src/app.js';
import { openPostgres } from '../apps/server/src/platform/db.js';
import { seed } from '../apps/server/src/seed.js';
import { seedDemoMoney } from '../apps/server/src/simulator/demo-money.js';
import { SandboxProvider } from '../apps/server/src/modules/feed/simulator.js';
import { countInner, type ListSpec } from '../apps/server/src/platform/listing.js';
import { BILL_LISTS } from '../apps/server/src/modules/money/bills-routes.js';
import { BETTOR_LISTS } from '../apps/server/src/modules/money/bettors-routes.js';
import { matchListSpec } from '../apps/server/src/modules/feed/routes.js';
import { growToProductionSize, pct, scratchDatabase } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const SLICE = Number(process.env.BENCH_SLICE ?? 5);
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50,200').split(',').map(Number);
const PASSWORD = 'Bench#2026pass';
const PAGE_SIZE = 20;
/** BENCH_DATA=production (default: the demo grown to 100k bettors, 1M bills, 1M rounds, 200k matches) or demo. */
const DATA = process.env.BENCH_DATA === 'demo' ? 'demo' : 'production';
const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dau-bench-rp-')), 'requests.log');
const logStream = fs.createWriteStream(logFile);

const LISTS: Record<string, ListSpec> = {
  bills: BILL_LISTS.find((s) => s.name === 'bill')!,
  bettors: BETTOR_LISTS.find((s) => s.name === 'user')!,
  matches: matchListSpec as unknown as ListSpec,
};
const chosen = (process.env.BENCH_LISTS ?? 'bills,bettors,matches').split(',');

const base = process.env.BENCH_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = scratchDatabase(`dau_bench_rp_${process.pid}`, base);
await scratch.admin(`DROP DATABASE IF EXISTS dau_bench_rp_${process.pid}`);
await scratch.admin(`CREATE DATABASE dau_bench_rp_${process.pid}`);

const database = await openPostgres(scratch.url());
const raw = new pg.Pool({ connectionString: scratch.url(), max: 20 });
let closeApp: () => Promise<void> = async () => {};
try {
  // --- setup, as `npm run serve` on a demo database ---
  await database.migrate();
  await seed(database.db, { adminPassword: PASSWORD, demo: true });
  await seedDemoMoney(database.db);
  // Request logging as in production: pino at info, one line per request, here to a file.
  const built = await buildApp({ database, logger: { level: 'info', stream: logStream } });
  closeApp = () => built.app.close();
  let ingest: Promise<unknown> = Promise.resolve();
  const provider = new SandboxProvider({
    seed: 2026,
    startTime: Date.now(),
    emit: (m) => {
      ingest = ingest.then(() => built.feed.ingest(m));
    },
  });
  provider.start();
  await ingest;
  if (DATA === 'production') await growToProductionSize((q) => database.exec(q), (q) => database.query(q));
  await database.exec('ANALYZE');
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (built.app.server.address() as { port: number }).port;
  const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const sizes = await raw.query(
    `SELECT (SELECT count(*) FROM bills) AS bills, (SELECT count(*) FROM bettors) AS bettors, (SELECT count(*) FROM feed_events) AS matches`,
  );
  console.log(`${DATA} data: ${JSON.stringify(sizes.rows[0])}; ${SECONDS} s per cell; request log ${logFile}; node ${process.version}`);

  /** The page's rows and its count as plain SQL, built from the list's declaration (super admin: no scope). */
  const statements = (spec: ListSpec) => {
    const where = spec.where(spec.filters.parse({}) as never, { all: true });
    const key = spec.defaultSort.replace(/^-/, '');
    const dir = spec.defaultSort.startsWith('-') ? desc : asc;
    const col = spec.sortable[key] as PgColumn;
    const order = col === spec.idColumn ? [dir(col)] : [dir(col), dir(spec.idColumn)];
    const rows = spec.select(database.db).where(where).orderBy(...order).limit(PAGE_SIZE).offset(0).toSQL() as { sql: string; params: unknown[] };
    const inner = countInner(database.db, spec, where);
    const dialect = (database.db as unknown as { dialect: { sqlToQuery(s: SQL): { sql: string; params: unknown[] } } }).dialect;
    const count = dialect.sqlToQuery(sql`select count(*)::bigint as n from (${inner}) x`);
    return [rows, count];
  };

  /** autocannon in a child process, so that this process's CPU time is the server's alone. */
  const server = async (path: string, connections: number, seconds: number) => {
    const cpu0 = process.cpuUsage();
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [AUTOCANNON, '--json', '-c', String(connections), '-d', String(seconds), '-H', `authorization=Bearer ${token}`, `http://127.0.0.1:${port}${path}`], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.on('error', reject);
      child.on('close', () => resolve(text));
    });
    const cpu = process.cpuUsage(cpu0);
    const r = JSON.parse(out) as { requests: { total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number };
    if (r.non2xx || r.errors) throw new Error(`${path}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    return { n: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, cpuMs: (cpu.user + cpu.system) / 1000 };
  };

  const loop = async (stmts: { sql: string; params: unknown[] }[], connections: number, seconds: number) => {
    const lat: number[] = [];
    const cpu0 = process.cpuUsage();
    const end = performance.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < end) {
          const t0 = performance.now();
          await Promise.all(stmts.map((s) => raw.query(s.sql, s.params)));
          lat.push(performance.now() - t0);
          done++;
        }
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    return { n: done, p50: pct(lat, 50), p99: pct(lat, 99), cpuMs: (cpu.user + cpu.system) / 1000 };
  };

  /**
   * One cell: the server and the plain loop in alternating slices (BENCH_SLICE seconds, default 5), so
   * that the load of anything else on the machine falls on both alike.
   */
  const cell = async (path: string, stmts: { sql: string; params: unknown[] }[], connections: number) => {
    const slices = Math.max(1, Math.round(SECONDS / SLICE));
    const sum = { s: { n: 0, cpuMs: 0, p50: [] as number[], p99: [] as number[] }, p: { n: 0, cpuMs: 0, p50: [] as number[], p99: [] as number[] } };
    for (let i = 0; i < slices; i++) {
      const s = await server(path, connections, SECONDS / slices);
      const p = await loop(stmts, connections, SECONDS / slices);
      for (const [k, v] of [['s', s], ['p', p]] as const) {
        sum[k].n += v.n;
        sum[k].cpuMs += v.cpuMs;
        sum[k].p50.push(v.p50);
        sum[k].p99.push(v.p99);
      }
    }
    const fig = (x: typeof sum.s) => ({ rps: x.n / SECONDS, p50: pct(x.p50, 50), p99: Math.max(...x.p99), cpuPerReq: x.cpuMs / x.n });
    return { s: fig(sum.s), p: fig(sum.p) };
  };

  const results: string[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (const name of chosen) {
    const spec = LISTS[name];
    const path = `${spec.path}?page=1&page_size=${PAGE_SIZE}`;
    const check = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await check.json()) as { items: unknown[]; total: number };
    console.log(`${name}: ${path} answers ${body.items.length} rows of ${body.total}`);
    const stmts = statements(spec);
    for (const c of CONNECTIONS) {
      const { s, p } = await cell(path, stmts, c);
      const ratio = p.rps / s.rps;
      const cpuRatio = s.cpuPerReq / p.cpuPerReq;
      ratios.push(ratio);
      cpuRatios.push(cpuRatio);
      const line =
        `${name.padEnd(8)} ${String(c).padStart(3)} conn  server ${s.rps.toFixed(0).padStart(5)} req/s p50 ${s.p50.toFixed(0)} ms p99 ${s.p99.toFixed(0)} ms ${s.cpuPerReq.toFixed(2)} cpu-ms/req` +
        ` | pg loop ${p.rps.toFixed(0).padStart(5)} /s p50 ${p.p50.toFixed(0)} ms p99 ${p.p99.toFixed(0)} ms ${p.cpuPerReq.toFixed(2)} cpu-ms/req | ratio ${ratio.toFixed(2)}x (cpu ${cpuRatio.toFixed(2)}x)`;
      console.log(line);
      results.push(line);
    }
  }
  const range = (xs: number[]) => `${pct(xs, 50).toFixed(2)}x (min ${Math.min(...xs).toFixed(2)}x, max ${Math.max(...xs).toFixed(2)}x)`;
  console.log(`\n${results.join('\n')}\nmedian ratio of rates ${range(ratios)}; of Node CPU per request ${range(cpuRatios)}`);
} finally {
  await closeApp().catch(() => {});
  await raw.end();
  await database.close();
  await scratch.admin(`DROP DATABASE IF EXISTS dau_bench_rp_${process.pid} WITH (FORCE)`);
}
