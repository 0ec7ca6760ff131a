import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { callJson, freePort, killGroup, type ApiAnswer } from '../../apps/server/test/support/spawn.js';

/**
 * One real Dau server per test file: what `npm start` runs (the compiled server, apps/server/dist/main.js)
 * on a fresh embedded database in a temporary directory and a free port, serving the built console
 * (apps/web/dist). `npm run build` makes both.
 */

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const ADMIN_ACCOUNT = 'admin';
export const ADMIN_PASSWORD = 'Admin#2026pass';
/** Password used for the admins the tests create. */
export const STAFF_PASSWORD = 'Staff#2026pass';

const WEB_INDEX = path.join(ROOT, 'apps/web/dist/index.html');
const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');

/** The built server's start, as `npm run serve` runs it; throws when `npm run build` has not run. */
export function serverCommand(): string[] {
  for (const built of [WEB_INDEX, SERVER_MAIN]) {
    if (!fs.existsSync(built)) {
      throw new Error(`The console or the server is not built (${path.relative(ROOT, built)} is missing): run \`npm run build\` first (or \`npm run test:e2e\`, which builds them).`);
    }
  }
  return ['--enable-source-maps', SERVER_MAIN];
}

export type { ApiAnswer };

export interface DauServer {
  baseUrl: string;
  dataDir: string;
  /** JSON call to /api/v1{path}; answers the status and the parsed body (text when not JSON). */
  api<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<ApiAnswer<T>>;
  /** Signs in through the API and returns the token (throws when the sign-in fails). */
  loginApi(account: string, password: string, googleCode?: string): Promise<string>;
  /** What the server printed (stdout and stderr), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ServerOptions {
  /**
   * How long the server may take to answer /api/health (default 540 s, under the hook's 600 s): a hang
   * guard, not a budget (a fresh server with the demo data takes minutes on a busy 2-core machine). A
   * server that exits fails at once.
   */
  timeoutMs?: number;
  /**
   * Demo data (`DAU_DEMO=1`): the demo staff and agents, ~60 bettors with 60 days of money history. Off by
   * default: a test file starts from an empty back office (only the super admin).
   */
  demo?: boolean;
  /**
   * The built-in bettor activity (`DAU_SIMULATOR`): registrations, bets, deposits and withdrawal requests
   * every few seconds (it needs the demo's agents to do anything). Unset: the server's default.
   */
  simulator?: boolean;
  /** More environment for the server (e.g. `PAYMENTS_SANDBOX_SEED`). */
  env?: Record<string, string>;
  /** PostgreSQL instead of the embedded database (several processes on one database, e.g. the server list). */
  databaseUrl?: string;
  /** The console's files from this folder (a copy of the build, safe from a rebuild running meanwhile). */
  webDist?: string;
}

export async function startServer(opts: ServerOptions = {}): Promise<DauServer> {
  const command = serverCommand();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-e2e-'));
  // The run's prepared data folder (./global-setup.ts), copied: the server finds its database migrated
  // and seeded, with or without the demo data. Without that setup, the server prepares its own.
  const prepared = opts.databaseUrl ? undefined : (inject('dauDataDirs') as { plain: string; demo: string } | undefined)?.[opts.demo ? 'demo' : 'plain'];
  if (prepared) fs.cpSync(prepared, dataDir, { recursive: true });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The sandboxes the server runs (game provider, TRON node, SMS gateway, FCM, Telegram) on free ports of
  // their own: two browser files' servers may run side by side.
  const sandboxPorts: Record<string, string> = {};
  for (const name of ['DAU_CASINO_SANDBOX_PORT', 'TRON_SANDBOX_PORT', 'DAU_SMS_SANDBOX_PORT', 'DAU_PUSH_SANDBOX_PORT', 'DAU_TELEGRAM_SANDBOX_PORT']) {
    sandboxPorts[name] = String(await freePort());
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DAU_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    DAU_ADMIN_PASSWORD: ADMIN_PASSWORD,
    DAU_DEMO: opts.demo ? '1' : '0',
    LOG_LEVEL: 'warn',
    // No random background activity unless a file asks for it: tests control their own data.
    DAU_SIMULATOR: opts.simulator ? '1' : '0',
    ...sandboxPorts,
    ...opts.env,
  };
  // Always the embedded database: a fresh one per file.
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  if (opts.webDist) env.DAU_WEB_DIST = opts.webDist;
  delete env.DAU_WEB_DIST;

  let out = '';
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env,
    detached: true, // its own process group, killed as a whole on teardown
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  let exited: number | null | undefined;
  const exitPromise = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exited = code;
      resolve();
    }),
  );

  // If the test process ends without teardown (a crash, a killed worker), take the server with it.
  const onExit = () => killGroup(child, 'SIGKILL');
  process.on('exit', onExit);

  const cleanup = async () => {
    process.off('exit', onExit);
    if (exited === undefined) {
      killGroup(child, 'SIGTERM');
      const done = await Promise.race([exitPromise.then(() => true), sleep(10_000).then(() => false)]);
      if (!done) {
        killGroup(child, 'SIGKILL');
        await Promise.race([exitPromise, sleep(3_000)]);
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const limit = opts.timeoutMs ?? 540_000;
  const deadline = Date.now() + limit;
  for (;;) {
    if (exited !== undefined) {
      await cleanup();
      throw new Error(`The Dau server exited (code ${exited}) before it was ready:\n${out}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok && ((await res.json()) as { status?: string }).status === 'ok') break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await cleanup();
      throw new Error(`The Dau server did not answer /api/health within ${limit} ms:\n${out}`);
    }
    await sleep(200);
  }

  const api: DauServer['api'] = (method, p, body, token) => callJson(baseUrl, method, `/api/v1${p}`, body, token);

  const loginApi: DauServer['loginApi'] = async (account, password, googleCode) => {
    const r = await api('POST', '/auth/login', { account, password, ...(googleCode ? { google_code: googleCode } : {}) });
    if (r.status !== 200 || typeof r.body?.token !== 'string') {
      throw new Error(`API sign-in of ${account} failed: ${r.status} ${JSON.stringify(r.body)}`);
    }
    return r.body.token as string;
  };

  return { baseUrl, dataDir, api, loginApi, output: () => out, stop: cleanup };
}

/** Fails with the server's answer when the status is not the expected one; returns the body. */
export function expectStatus<T = any>(answer: ApiAnswer<T>, status: number, what: string): T {
  if (answer.status !== status) throw new Error(`${what}: expected HTTP ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}
