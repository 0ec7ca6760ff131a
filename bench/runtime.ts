/**
 * Production runtime (issue 25): the built server as `npm start` runs it (`node apps/server/dist/main.js`),
 * on the embedded database and on PostgreSQL, against floors in the same run.
 *
 * - Start-up on existing data: spawn to the first `/api/health` that answers ok (BENCH_RUNS starts each,
 *   min / median / max). The first start on a new data folder or database (migrate, seed) is printed
 *   apart.
 * - Idle RSS: BENCH_IDLE seconds (default 15) after the start, simulator off (`DAU_SIMULATOR=0`),
 *   `/proc/<pid>/status` VmRSS; with the process's own figures from /metrics (V8 heap used and total,
 *   external memory) to say what holds it.
 * - Floors: a Fastify server with a `pg` pool (`SELECT 1` per /health), and one with PGlite opening a copy
 *   of the same data folder: what any server on these engines costs.
 * - Transfer (BENCH_BROWSER=1, Chromium): bytes on the wire for the login page and for the landing page
 *   (complete, charts included) after sign-in, with the compression the browser negotiates; then a
 *   reload: how many assets went to the network (a warm reload should fetch none).
 *
 * Run: `npm run build && node --import tsx bench/runtime.ts` (BENCH_URL: the PostgreSQL server,
 * BENCH_ENGINES=embedded,pg, BENCH_RUNS=5, BENCH_IDLE=15, BENCH_BROWSER=1). Prints figures; never a gate.
 *
 * Figures, this machine (2 cores, node 20, 2026-12-04, load average ~1.3; 5 starts each):
 *   embedded: first start 10.9 s; start-up on existing data 3.7 / 3.9 / 4.4 s (min / median / max); idle
 *     RSS 427 / 449 / 500 MB (V8 heap 96 MB used, external 200 MB: PGlite's WebAssembly memory).
 *     Floor Fastify + PGlite on the same data: 1.5 / 1.6 / 1.8 s, 318 / 323 / 324 MB.
 *   With PGlite's shared buffers at 32MB (platform/db.ts; PostgreSQL's default 128MB before): start-up
 *     3.5 / 3.6 / 3.7 s; idle RSS 312 / 325 / 366 MB (external 140 MB instead of 200).
 *   PostgreSQL: first start 4.4 s; start-up 2.1 / 2.4 / 2.8 s; idle RSS 194 / 203 / 221 MB (V8 heap 98 MB
 *     used). Floor Fastify + pg: 0.35 s, 69 MB.
 *   Before issue 25 (tsx): start-up 6 s; idle RSS 211-232 MB on PostgreSQL, 473-632 MB embedded.
 *   Where the start goes (CPU profile, PostgreSQL): loading node_modules' modules ~1.4 s (tronweb with
 *   ethers 0.43 s alone, loaded at start by the TRON watcher and sandbox node), building the app's routes
 *   and schemas ~0.6 s. Bundling every npm package into main.js: 0.4 s sooner, 25 MB more RSS (not done).
 * Later the same day (load average ~1.4; 5 starts each), after TronWeb moved to first use (the watcher
 * converts addresses without it), /auth/me lost its buttons and `serve` dropped --enable-source-maps:
 *   PostgreSQL: start-up 0.86 / 1.05 / 1.14 s; idle RSS 171 / 173 / 180 MB (the five sandboxes running).
 *   PostgreSQL, no sandbox (production: every outside party configured): start-up 0.85 / 0.94 / 0.98 s;
 *     idle RSS 151 / 158 / 162 MB (V8 heap 72 MB used). Floor Fastify + pg: 0.19-0.22 s, 67-70 MB.
 *   embedded: start-up 1.62 / 1.90 / 1.98 s; idle RSS 313 / 334 / 368 MB (external 140 MB). Floor
 *     Fastify + PGlite: 0.57-0.67 s, 285-324 MB. PGlite's shared buffers at 16MB: 310 / 322 / 332 MB.
 *   With --enable-source-maps (BENCH_NODE_FLAGS): V8 heap about 20 MB more.
 *   Bytes on the wire (Chromium, brotli): login page 292.4 KB in 37 files; the landing after sign-in
 *   100.5 KB more in 25 files (392.9 KB for the whole sign-in path; before: 896 KB and 1.65 MB raw); warm
 *   reload: index.html only (0.9 KB, no-cache), 50 assets from the cache; GET / with br: brotli.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../apps/server/test/support/spawn.js';
import { BENCH_URL, scratchDatabase } from './support';

const ROOT = path.resolve(import.meta.dirname, '..');
const MAIN = path.join(ROOT, 'apps/server/dist/main.js');
const PASSWORD = 'Bench#2026pass';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE = Number(process.env.BENCH_IDLE ?? 15);
const ENGINES = (process.env.BENCH_ENGINES ?? 'embedded,pg').split(',');
const BROWSER = process.env.BENCH_BROWSER !== '0';
/** Node's flags for the server (BENCH_NODE_FLAGS, space-separated, e.g. --enable-source-maps; default none, as `npm run serve`). */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stats = (xs: number[], unit: string, digits = 0) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => `${x.toFixed(digits)}${unit}`;
  return `min ${f(s[0])}  median ${f(s[Math.floor(s.length / 2)])}  max ${f(s[s.length - 1])}`;
};
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

interface Started {
  child: ChildProcess;
  ms: number;
  port: number;
  stop(): Promise<void>;
}

/** Spawns `args` with `env`, answers once GET {healthPath} is ok. */
async function start(args: string[], env: NodeJS.ProcessEnv, healthPath = '/api/health'): Promise<Started> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  let exited = false;
  const exit = new Promise<void>((r) => child.on('exit', () => ((exited = true), r())));
  for (;;) {
    if (exited) throw new Error(`${args.join(' ')} exited before answering:\n${err}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}${healthPath}`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    await sleep(10);
  }
  const ms = performance.now() - t0;
  return {
    child,
    ms,
    port,
    async stop() {
      if (!exited) process.kill(-child.pid!, 'SIGTERM');
      await Promise.race([exit, sleep(15_000).then(() => !exited && process.kill(-child.pid!, 'SIGKILL'))]);
      await exit;
    },
  };
}

/** The server's own memory figures (Prometheus text of /metrics). */
async function ownMemory(port: number) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const v = (name: string, label = '') => {
    const m = new RegExp(`^dau_${name}${label ? `\\{[^}]*${label}[^}]*\\}` : ''} ([0-9.e+]+)$`, 'm').exec(text);
    return m ? Number(m[1]) / 1024 / 1024 : NaN;
  };
  return { heapUsed: v('nodejs_heap_size_used_bytes'), heapTotal: v('nodejs_heap_size_total_bytes'), external: v('nodejs_external_memory_bytes') };
}

/** Environment of the built server: no simulator, no demo, sandboxes on free ports, metrics readable. */
async function serverEnv(extra: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DAU_ADMIN_PASSWORD: PASSWORD,
    DAU_SIMULATOR: '0',
    DAU_DEMO: '0',
    DAU_METRICS_TOKEN: METRICS_TOKEN,
    DAU_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
    DAU_CASINO_SANDBOX_PORT: String(await freePort()),
    TRON_SANDBOX_PORT: String(await freePort()),
    DAU_SMS_SANDBOX_PORT: String(await freePort()),
    DAU_PUSH_SANDBOX_PORT: String(await freePort()),
    DAU_TELEGRAM_SANDBOX_PORT: String(await freePort()),
    ...extra,
  };
}

/** Cold start once, then RUNS starts on the existing data: start-up and idle RSS. */
async function measureServer(label: string, extra: NodeJS.ProcessEnv) {
  const env = await serverEnv(extra);
  const cold = await start([...NODE_FLAGS, MAIN], env);
  await cold.stop();
  console.log(`${label}: first start (migrate, seed) ${cold.ms.toFixed(0)} ms`);
  const times: number[] = [];
  const rss: number[] = [];
  let memory = { heapUsed: NaN, heapTotal: NaN, external: NaN };
  for (let i = 0; i < RUNS; i++) {
    const s = await start([...NODE_FLAGS, MAIN], env);
    times.push(s.ms);
    await sleep(IDLE * 1000);
    rss.push(rssMb(s.child.pid!));
    memory = await ownMemory(s.port);
    await s.stop();
  }
  console.log(`${label}: start-up on existing data to /api/health (${RUNS} runs): ${stats(times, ' ms')}`);
  console.log(`${label}: idle RSS after ${IDLE} s: ${stats(rss, ' MB', 1)}; last run's V8 heap used ${memory.heapUsed.toFixed(1)} of ${memory.heapTotal.toFixed(1)} MB, external ${memory.external.toFixed(1)} MB`);
}

/** A floor: a script run through `node -e` that serves /health. */
async function measureFloor(label: string, script: string, env: NodeJS.ProcessEnv) {
  const times: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = await start(['--input-type=module', '-e', script], env, '/health');
    times.push(s.ms);
    await sleep(Math.min(IDLE, 5) * 1000);
    rss.push(rssMb(s.child.pid!));
    await s.stop();
  }
  console.log(`${label}: start-up ${stats(times, ' ms')}; idle RSS ${stats(rss, ' MB', 1)}`);
}

const FLOOR_PG = `
import Fastify from 'fastify';
import pg from 'pg';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const app = Fastify();
app.get('/health', async () => (await pool.query('SELECT 1 AS ok')).rows[0]);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });`;

const FLOOR_PGLITE = `
import Fastify from 'fastify';
import { PGlite } from '@electric-sql/pglite';
const db = new PGlite(process.env.DAU_DATA_DIR + '/pgdata');
await db.waitReady;
const app = Fastify();
app.get('/health', async () => (await db.query('SELECT 1 AS ok')).rows[0]);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });`;

/** Bytes on the wire and a warm reload, in Chromium over CDP. */
async function measureTransfer() {
  const { chromium } = await import('playwright-core');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-bench-transfer-'));
  const s = await start([...NODE_FLAGS, MAIN], await serverEnv({ DAU_DATA_DIR: dataDir }));
  const base = `http://127.0.0.1:${s.port}`;
  const executablePath = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => fs.existsSync(p));
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const requests = new Map<string, string>();
    let bytes = 0;
    let fetched = 0;
    let cached = 0;
    const fromCache = new Set<string>();
    cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, e.request.url));
    cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
    cdp.on('Network.responseReceived', (e) => {
      if (e.response.fromDiskCache || e.response.fromPrefetchCache) fromCache.add(e.requestId);
    });
    cdp.on('Network.loadingFinished', (e) => {
      const url = requests.get(e.requestId) ?? '';
      if (!url.startsWith(base) || url.includes('/api/') || url.includes('/ws')) return;
      if (fromCache.has(e.requestId)) cached++;
      else {
        fetched++;
        bytes += e.encodedDataLength;
      }
    });
    const measure = async (what: string, action: () => Promise<void>) => {
      bytes = 0;
      fetched = 0;
      cached = 0;
      await action();
      await page.waitForLoadState('networkidle');
      console.log(`${what}: ${(bytes / 1024).toFixed(1)} KB transferred in ${fetched} files from the network, ${cached} from the cache`);
    };
    await measure('login page', async () => {
      await page.goto(`${base}/#/admin_login`);
      await page.getByTestId('login-submit').waitFor();
    });
    await measure('landing page after sign-in (complete, charts included)', async () => {
      await page.getByTestId('login-account').fill('admin');
      await page.getByTestId('login-password').fill(PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('side-menu').waitFor();
      await page.locator('canvas').first().waitFor({ timeout: 60_000 }).catch(() => {});
    });
    await measure('warm reload of the landing page', async () => {
      await page.reload();
      await page.getByTestId('side-menu').waitFor();
      await page.locator('canvas').first().waitFor({ timeout: 60_000 }).catch(() => {});
    });
    const br = await fetch(`${base}/`, { headers: { 'accept-encoding': 'br' } });
    console.log(`GET / with accept-encoding br: content-encoding ${br.headers.get('content-encoding')}, cache-control ${br.headers.get('cache-control')}`);
  } finally {
    await browser.close();
    await s.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!fs.existsSync(MAIN)) throw new Error('run `npm run build` first');
console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
if (ENGINES.includes('embedded')) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-bench-runtime-'));
  try {
    await measureServer('embedded (PGlite)', { DAU_DATA_DIR: dataDir });
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-bench-floor-'));
    fs.cpSync(dataDir, copy, { recursive: true });
    await measureFloor('floor: Fastify + PGlite on the same data', FLOOR_PGLITE, { DAU_DATA_DIR: copy });
    fs.rmSync(copy, { recursive: true, force: true });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
if (ENGINES.includes('pg')) {
  const name = `dau_bench_runtime_${process.pid}`;
  const { url, admin } = scratchDatabase(name, BENCH_URL);
  await admin(`CREATE DATABASE ${name}`);
  try {
    await measureServer('PostgreSQL', { DATABASE_URL: url() });
    // Production: every outside party at an address of its own (here a closed local port: each call fails
    // fast), so the process runs no sandbox; the TRON watcher still loads TronWeb on its first block.
    const away = `http://127.0.0.1:${await freePort()}`;
    await measureServer('PostgreSQL, no sandbox (outside parties configured)', {
      DATABASE_URL: url(), TRON_FULL_NODE_URL: away, DAU_SMS_API_URL: `${away}/version1`, DAU_FCM_BASE_URL: away, DAU_TELEGRAM_API_ROOT: away, DAU_CASINO_SANDBOX: '0',
    });
    await measureFloor('floor: Fastify + pg pool', FLOOR_PG, { DATABASE_URL: url() });
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
if (BROWSER) await measureTransfer();
console.log(`load average at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
