/**
 * The per-process session cache (platform/access.ts SessionCache, issue 11 "the request path") stays
 * correct: a signed-out session is refused at once by the process that ended it, and by another process
 * on the same PostgreSQL through the bus (before its cached entry would be read again, 60 s); a change
 * made in the database by anyone (a role losing a page, an admin disabled) reaches the cache through the
 * database's own notice. Every wait polls for a state; the test's timeout (30 s, below the cache's 60 s
 * lifetime) is what makes a missed invalidation fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type DauApp } from '../src/app.js';
import { openPostgres, type Database } from '../src/platform/db.js';
import { createTestApp, makeAdmin, makeRole, PASSWORD, type TestApp } from './helpers.js';

let t: TestApp;
let rootId: number;

beforeAll(async () => {
  t = await createTestApp();
  const [root] = (await t.database.query!('SELECT id FROM admins WHERE account = $1', ['admin'])).rows as { id: number }[];
  rootId = root.id;
});
afterAll(() => t?.close());

const LIST = '/api/v1/money/bettors?page=1&page_size=5';

/** Polls until `probe` answers true (the test's timeout bounds the wait). */
async function until(probe: () => Promise<boolean>) {
  while (!(await probe())) await new Promise((r) => setTimeout(r, 50));
}

async function staff(account: string, keys = ['user']) {
  const role = await makeRole(t, `Role ${account}`, keys);
  await makeAdmin(t, account, role, rootId);
  return { role, token: await t.login(account, PASSWORD) };
}

describe('session cache', () => {
  it('refuses a signed-out session at once in the same process', async () => {
    const { token } = await staff('cache_same');
    for (let i = 0; i < 3; i++) expect((await t.call('GET', LIST, { token })).status).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/logout', { token })).status).toBe(200);
    expect((await t.call('GET', LIST, { token })).status).toBe(401);
  });

  it('follows changes made in the database by anyone: a role losing a page, an admin disabled', async () => {
    const { role, token } = await staff('cache_db');
    expect((await t.call('GET', LIST, { token })).status).toBe(200);
    await t.database.exec(`DELETE FROM role_menus WHERE role_id = ${role}; UPDATE roles SET version = version + 1 WHERE id = ${role}`);
    await until(async () => (await t.call('GET', LIST, { token })).status === 403);
    await t.database.exec(`UPDATE admins SET disabled = 2 WHERE account = 'cache_db'`);
    await until(async () => (await t.call('GET', LIST, { token })).status === 401);
  }, 30_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('session cache across processes (PostgreSQL)', () => {
  let other: Database;
  let b: DauApp;

  beforeAll(async () => {
    // A second server process on the same database: its own pool, bus listener and session cache.
    other = await openPostgres(t.database.url!, { max: 5 });
    b = await buildApp({ database: other });
    await b.app.ready();
    await until(async () => other.bus.live());
  });
  afterAll(async () => {
    await b?.app.close();
    await other?.close();
  });

  const callB = async (token: string) => (await b.app.inject({ method: 'GET', url: LIST, headers: { authorization: `Bearer ${token}` } })).statusCode;

  it('a session signed out on one process is refused by the other', async () => {
    const { token } = await staff('cache_two');
    // B has the session in its cache.
    for (let i = 0; i < 3; i++) expect(await callB(token)).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/logout', { token })).status).toBe(200);
    await until(async () => (await callB(token)) === 401);
    expect(await callB(token)).toBe(401);
  }, 30_000);
});
