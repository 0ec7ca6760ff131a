/**
 * Crash and multi-process tests: real server processes (the server compiled once for the run by
 * test/global-setup.ts, as `npm run serve` starts it; else `node --import tsx apps/server/src/main.ts`) on one PostgreSQL database of their own, that a test can kill -9, restart,
 * and run side by side.
 *
 * - `processDatabase()`: a fresh database next to TEST_DATABASE_URL (or another base address), a copy of
 *   the run's seeded template (else migrated and seeded here) with the super admin (`admin` / ADMIN_PASSWORD) so a test can write its data by SQL
 *   before a server starts; `database` is a pool on it for those writes and for assertions.
 * - `startServerProcess(url)`: a server on a free port with DATABASE_URL = url, no demo data, no
 *   simulator, sandbox routes on, a job expiry of an hour (`DAU_JOB_EXPIRE_SECONDS`): a job whose process
 *   was killed must be freed by its process's death (platform/jobs.ts, `recover`), which a test's hang
 *   guard (minutes) would miss otherwise; resolves when /api/health answers.
 *   `kill()` is SIGKILL of its process group (no shutdown code runs), `restart()` starts it again on
 *   the same database and port, `stop()` is a graceful SIGTERM.
 * - `waitFor(what, probe)`: polls a state until the probe answers something truthy; the hang guard is
 *   generous (a busy 2-core machine is slow, not wrong) and its failure names what it waited for.
 *
 * Every wait polls for a state; the limits are hang guards, never time budgets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres, type Database } from '../../src/platform/db.js';
import { seed } from '../../src/seed.js';
import { ADMIN_PASSWORD } from '../helpers.js';
import type { Templates } from '../global-setup.js';
import { callJson, freePort, killGroup, type ApiAnswer } from './spawn.js';

export { ADMIN_PASSWORD, callJson, freePort, killGroup, type ApiAnswer };
export const ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = 'apps/server/src/main.ts';
/** The compiled server (`npm run build`): what benches start when no test run provided one. */
const BUILT_MAIN = path.join(ROOT, 'apps/server/dist/main.js');

/** What the test run's global set-up provided; outside a test run (benches) nothing. */
function provided<K extends 'dauTemplates' | 'dauServerMain'>(key: K) {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ProcessDatabase {
  /** The database's address (DATABASE_URL of the server processes). */
  url: string;
  name: string;
  /** A pool on it, for the test's own writes and checks. */
  database: Database;
  /** Closes the pool and drops the database (WITH FORCE: server processes still connected are cut off). */
  dispose(): Promise<void>;
}

/** Whether two addresses name the same PostgreSQL server (host, port and user). */
function sameServer(a: string, b: string): boolean {
  const [x, y] = [new URL(a), new URL(b)];
  return x.host === y.host && x.username === y.username;
}

/** One statement on the base address's database (CREATE / DROP DATABASE). */
async function onServer(base: string, statement: string) {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end().catch(() => {});
  }
}

/**
 * A fresh PostgreSQL database for server processes, migrated and seeded (super admin with
 * ADMIN_PASSWORD, no demo data). `base` defaults to TEST_DATABASE_URL.
 */
export async function processDatabase(opts: { base?: string; prefix?: string; poolSize?: number } = {}): Promise<ProcessDatabase> {
  const base = opts.base ?? process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('processDatabase needs a PostgreSQL address (TEST_DATABASE_URL)');
  const name = `${opts.prefix ?? 'dau_p'}_${crypto.randomBytes(6).toString('hex')}`;
  // The run's seeded template (test/global-setup.ts) when it lives on this server: a copy, not a migration.
  const templates = (provided('dauTemplates') as Templates | undefined)?.pg;
  const template = templates && sameServer(templates.url, base) ? templates.seeded : undefined;
  await onServer(base, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = u.toString();
  const database = await openPostgres(url, { max: opts.poolSize ?? 10 });
  try {
    if (!template) {
      await database.migrate();
      await seed(database.db, { adminPassword: ADMIN_PASSWORD, demo: false });
    }
  } catch (err) {
    await database.close().catch(() => {});
    await onServer(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    throw err;
  }
  return {
    url,
    name,
    database,
    dispose: async () => {
      await database.close().catch(() => {});
      await onServer(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export interface ServerProcessOptions {
  /** A name in failure messages (default `server`). */
  name?: string;
  /** `DAU_SIMULATOR=1`: the demo simulator and the sandbox odds feed, on the leader (default off). */
  simulator?: boolean;
  /** Expiry of an active job, the last resort for a hung process (default an hour: a killed process's jobs are freed by its death). */
  jobExpireSeconds?: number;
  /** LOG_LEVEL (default `warn`; `info` prints the leader's "this process runs the simulator" line). */
  logLevel?: string;
  /** More environment. */
  env?: Record<string, string>;
  /** Hang guard for /api/health after a start (default 240 s; a process that exits fails at once). */
  startTimeoutMs?: number;
}

export interface ServerProcess {
  readonly name: string;
  readonly port: number;
  readonly baseUrl: string;
  /** The running child's pid (undefined between a kill and a restart). */
  pid(): number | undefined;
  running(): boolean;
  /** JSON call to `{baseUrl}{path}` (`/api/v1/...`); answers the status and the parsed body (text when not JSON). */
  api<T = any>(method: string, path: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<ApiAnswer<T>>;
  /** Signs in through the API and answers the whole sign-in body (token, session_id, ws_key, ...). */
  signIn(account?: string, password?: string): Promise<{ token: string; session_id: string; ws_key: string } & Record<string, any>>;
  /** Signs in and answers the token. */
  login(account?: string, password?: string): Promise<string>;
  /** Everything every run of this server printed (stdout and stderr), for failure messages. */
  output(): string;
  /** kill -9 of the process group; resolves when the process is gone. */
  kill(): Promise<void>;
  /** Starts the server again on the same database and port (killing it first if it runs). */
  restart(): Promise<void>;
  /** Graceful SIGTERM (SIGKILL after 10 s); resolves when it is gone. */
  stop(): Promise<void>;
}

/** A Dau server process on the database `url`; resolves when it answers /api/health. */
export async function startServerProcess(url: string, opts: ServerProcessOptions = {}): Promise<ServerProcess> {
  const name = opts.name ?? 'server';
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    PORT: String(port),
    HOST: '127.0.0.1',
    DAU_ADMIN_PASSWORD: ADMIN_PASSWORD,
    DAU_DEMO: '0',
    DAU_SIMULATOR: opts.simulator ? '1' : '0',
    DAU_SANDBOX_ROUTES: '1',
    DAU_JOB_EXPIRE_SECONDS: String(opts.jobExpireSeconds ?? 3600),
    LOG_LEVEL: opts.logLevel ?? 'warn',
    NODE_ENV: 'test',
    ...opts.env,
  };
  delete env.TEST_DATABASE_URL;
  delete env.DAU_WEB_DIST;

  let out = '';
  let child: ChildProcess | null = null;
  let exit: Promise<void> = Promise.resolve();
  let exited = true;
  const onTestExit = () => child && killGroup(child, 'SIGKILL');
  process.on('exit', onTestExit);

  const api: ServerProcess['api'] = (method, p, body, token, headers) => callJson(baseUrl, method, p, body, token, headers);

  const launch = async () => {
    const main = provided('dauServerMain') ?? (process.env.VITEST ? undefined : fs.existsSync(BUILT_MAIN) ? BUILT_MAIN : undefined);
    const run = spawn(process.execPath, main ? ['--enable-source-maps', main] : ['--import', 'tsx', MAIN], {
      cwd: ROOT,
      env,
      detached: true, // its own process group: kill() takes tsx's children with it
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = run;
    exited = false;
    out += `--- ${name}: start (pid ${run.pid}) ---\n`;
    run.stdout!.on('data', (d) => (out += d));
    run.stderr!.on('data', (d) => (out += d));
    let code: number | null = null;
    let signal: NodeJS.Signals | null = null;
    exit = new Promise<void>((resolve) =>
      run.on('exit', (c, s) => {
        exited = true;
        code = c;
        signal = s;
        out += `--- ${name}: exit (code ${c}, signal ${s}) ---\n`;
        resolve();
      }),
    );
    const limit = opts.startTimeoutMs ?? 240_000;
    const deadline = Date.now() + limit;
    for (;;) {
      if (exited) throw new Error(`${name} exited (code ${code}, signal ${signal}) before it was ready:\n${out}`);
      try {
        const res = await fetch(`${baseUrl}/api/health`);
        if (res.ok && ((await res.json()) as { status?: string }).status === 'ok') return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) {
        killGroup(run, 'SIGKILL');
        throw new Error(`${name} did not answer /api/health within ${limit} ms (hang guard):\n${out}`);
      }
      await sleep(100);
    }
  };

  const kill = async () => {
    if (!child || exited) return;
    out += `--- ${name}: kill -9 ---\n`;
    killGroup(child, 'SIGKILL');
    await exit;
  };

  const stop = async () => {
    if (child && !exited) {
      killGroup(child, 'SIGTERM');
      const done = await Promise.race([exit.then(() => true), sleep(10_000).then(() => false)]);
      if (!done) await kill();
    }
    process.off('exit', onTestExit);
  };

  const signIn: ServerProcess['signIn'] = async (account = 'admin', password = ADMIN_PASSWORD) => {
    const r = await api('POST', '/api/v1/auth/login', { account, password });
    if (r.status !== 200 || typeof r.body?.token !== 'string') throw new Error(`${name}: sign-in of ${account} failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  await launch();
  return {
    name,
    port,
    baseUrl,
    pid: () => (child && !exited ? child.pid : undefined),
    running: () => !exited,
    api,
    signIn,
    login: async (account, password) => (await signIn(account, password)).token,
    output: () => out,
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    stop,
  };
}

export interface WaitOptions {
  /** Hang guard (default 240 s): a state that never comes fails the test with `what` and `output()`. */
  timeoutMs?: number;
  /** Pause between probes (default 100 ms). */
  intervalMs?: number;
  /** Appended to the failure message (e.g. the servers' output). */
  output?: () => string;
}

/** Polls `probe` until it answers something truthy, and answers that. */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, opts: WaitOptions = {}): Promise<T> {
  const limit = opts.timeoutMs ?? 240_000;
  const deadline = Date.now() + limit;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`waited ${limit} ms (hang guard) for ${what}${last ? `; last error: ${String(last)}` : ''}${opts.output ? `\n${opts.output()}` : ''}`);
    }
    await sleep(opts.intervalMs ?? 100);
  }
}

/** Expects an HTTP status; answers the body, or fails with the answer and the server's output. */
export function expectStatus<T = any>(answer: ApiAnswer<T>, status: number, what: string, server?: ServerProcess): T {
  if (answer.status !== status) throw new Error(`${what}: expected HTTP ${status}, got ${answer.status} ${JSON.stringify(answer.body)}${server ? `\n${server.output()}` : ''}`);
  return answer.body;
}
