import crypto from 'node:crypto';
import fs from 'node:fs';
import { inject } from 'vitest';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type DauApp } from '../src/app.js';
import { openPglite, openPostgres, type Database } from '../src/platform/db.js';
import { seed } from '../src/seed.js';
import type { Templates } from './global-setup.js';
import { hashPassword } from '../src/platform/crypto.js';
import { admins, menuItems, roleMenus, roles } from '../src/platform/schema.js';
import { asyncOperations } from '../src/schema.js';
import { ADMIN_PASSWORD, PASSWORD } from './constants.js';

export { ADMIN_PASSWORD, PASSWORD };

/**
 * A fresh database for one test file: in-memory PGlite by default; with TEST_DATABASE_URL a new
 * PostgreSQL database created for the file and dropped after. It starts from the run's template
 * (./global-setup.ts: migrated once, and seeded once for `seeded`), so a file does not wait for the
 * migrations; run outside that setup, it migrates (and seeds) itself.
 */
export async function freshDatabase(kind: 'migrated' | 'seeded' = 'migrated'): Promise<Database & { dispose(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  const templates = inject('dauTemplates') as Templates | undefined;
  if (!url) {
    const tar = templates?.pglite?.[kind];
    const d = tar ? await openPglite(undefined, { from: new Blob([fs.readFileSync(tar)]) }) : await openPglite();
    if (!tar) await fresh(d, kind);
    return { ...d, dispose: () => d.close() };
  }
  const name = `dau_t_${crypto.randomBytes(6).toString('hex')}`;
  const template = templates?.pg?.url === url ? templates.pg[kind] : undefined;
  const adminClient = new pg.Client({ connectionString: url });
  await adminClient.connect();
  await adminClient.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await adminClient.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const d = await openPostgres(u.toString(), { max: 30 });
  if (!template) await fresh(d, kind);
  return {
    ...d,
    dispose: async () => {
      await d.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestApp extends DauApp {
  database: Database;
  close(): Promise<void>;
  /** JSON call with an optional bearer token; answers status and parsed body. */
  call(method: string, url: string, opts?: { token?: string; body?: unknown; ip?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; res: LightMyRequestResponse }>;
  login(account: string, password?: string, extra?: Record<string, unknown>): Promise<string>;
}

/** What the template would have given: the migrations, and for `seeded` the seed. */
async function fresh(d: Database, kind: 'migrated' | 'seeded') {
  await d.migrate();
  if (kind === 'seeded') await seed(d.db, { adminPassword: ADMIN_PASSWORD, demo: false });
}

export async function createTestApp(opts: { sandboxRoutes?: boolean } = {}): Promise<TestApp> {
  const database = await freshDatabase('seeded');
  const built = await buildApp({ database, sandboxRoutes: opts.sandboxRoutes });
  await built.app.ready();
  const call: TestApp['call'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await built.app.inject({
      method: method as never,
      url,
      headers,
      remoteAddress: opts.ip ?? '127.0.0.1',
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
    let body: any = res.body;
    try {
      body = res.body ? JSON.parse(res.body) : null;
    } catch {
      /* CSV and other text answers */
    }
    return { status: res.statusCode, body, res };
  };
  const login: TestApp['login'] = async (account, password = PASSWORD, extra = {}) => {
    const r = await call('POST', '/api/v1/auth/login', { body: { account, password, ...extra } });
    if (r.status !== 200) throw new Error(`login ${account} failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.token as string;
  };
  return {
    ...built,
    database,
    call,
    login,
    close: async () => {
      await built.app.close();
      await database.dispose();
    },
  };
}

/** Creates a role holding exactly these catalogue keys. */
export async function makeRole(t: TestApp, name: string, keys: string[]): Promise<number> {
  const db = t.database.db;
  const [r] = await db.insert(roles).values({ name, remarks: 'test' }).returning({ id: roles.id });
  for (const key of keys) {
    const [m] = await db.select({ id: menuItems.id }).from(menuItems).where(eq(menuItems.key, key));
    if (!m) throw new Error(`no catalogue key ${key}`);
    await db.insert(roleMenus).values({ roleId: r.id, menuId: m.id });
  }
  return r.id;
}

let staffHash: Promise<string> | null = null;

/** Creates an admin below a superior (by id) with the test password. */
export async function makeAdmin(t: TestApp, account: string, roleId: number, superiorId: number | null, extra: Partial<typeof admins.$inferInsert> = {}) {
  const db = t.database.db;
  let path = '/';
  if (superiorId) {
    const [s] = await db.select({ path: admins.path }).from(admins).where(eq(admins.id, superiorId));
    path = `${s.path}${superiorId}/`;
  }
  const [row] = await db
    .insert(admins)
    .values({ account, name: account, roleId, superiorId, path, passwordHash: await (staffHash ??= hashPassword(PASSWORD)), ...extra })
    .returning({ id: admins.id });
  return row.id;
}

export const AGENT_KEYS = [
  'system', 'administrators', 'administrators:create', 'administrators:edit', 'administrators:disable',
  'administrators:reset_password', 'administrators:unbind_google', 'administrators:notify', 'administrators:export',
  'role', 'role:create', 'role:edit', 'role:delete', 'role:permissions', 'log', 'log:export',
];
export const LIMITED_KEYS = ['system', 'log', 'ip_black', 'language_list'];

/**
 * Two branches under the super admin: agent A (with sub-agent A1) and agent B (with sub-agent B1), a
 * limited admin, and a disabled admin.
 */
export async function makeWorld(t: TestApp) {
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  const agentRole = await makeRole(t, 'Agent', AGENT_KEYS);
  const limitedRole = await makeRole(t, 'Limited', LIMITED_KEYS);
  const agentA = await makeAdmin(t, 'agent_a', agentRole, root.id);
  const agentA1 = await makeAdmin(t, 'agent_a1', agentRole, agentA);
  const agentB = await makeAdmin(t, 'agent_b', agentRole, root.id);
  const agentB1 = await makeAdmin(t, 'agent_b1', agentRole, agentB);
  const limited = await makeAdmin(t, 'limited', limitedRole, root.id);
  const disabled = await makeAdmin(t, 'disabled', agentRole, root.id, { disabled: 2 });
  return { rootId: root.id, agentRole, limitedRole, agentA, agentA1, agentB, agentB1, limited, disabled };
}

/** Polls `read` until `pred` holds (state, not time: a slow machine only waits longer; `ms` is a hang guard). */
export async function until<T>(read: () => Promise<T>, pred: (v: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (pred(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The row of a background export once it has finished (done or failed), polled; the wait is a hang guard. */
export async function exportFinished(t: Pick<TestApp, 'database'>, id: number) {
  const rows = await until(
    () => t.database.db.select().from(asyncOperations).where(eq(asyncOperations.id, id)),
    (r) => !!r[0] && r[0].status !== 1,
    `export ${id} to finish`,
    120_000,
  );
  return rows[0]!;
}

const checkers = new WeakMap<TestApp, Promise<string>>();
/** A second super administrator ('checker'), signed in: the second pair of eyes of pending changes. */
export function checkerToken(t: TestApp): Promise<string> {
  let token = checkers.get(t);
  if (!token) {
    token = (async () => {
      const [superRole] = await t.database.db.select({ id: roles.id }).from(roles).where(eq(roles.isSuper, true));
      const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
      await makeAdmin(t, 'checker', superRole!.id, root!.id);
      return t.login('checker');
    })();
    checkers.set(t, token);
  }
  return token;
}

/**
 * A call of a setting that may wait for a second admin (DESIGN "Duties"): when it answers 202 with a
 * pending change, the checker approves it; answers what the route answered when the change was applied.
 */
export async function approved(t: TestApp, method: string, url: string, opts: Parameters<TestApp['call']>[2] = {}) {
  const first = await t.call(method, url, opts);
  if (first.status !== 202 || !first.body?.pending_change) return first;
  const a = await t.call('POST', `/api/v1/system/pending_changes/${first.body.pending_change.id}/approve`, { token: await checkerToken(t), body: {}, headers: opts.headers });
  if (a.status !== 200) throw new Error(`approval of ${method} ${url} failed: ${a.status} ${JSON.stringify(a.body)}`);
  return { status: a.body.pending_change.result_status as number, body: a.body.result, res: a.res };
}
