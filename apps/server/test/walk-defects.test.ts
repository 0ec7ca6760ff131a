/**
 * Issue 29, defects of the walk whose rule is on the server: the log configuration is applied (every
 * process), an expired administrator is told so and when, an image size below the bound is refused (not
 * saved as the bound), an administrator's phone is stored in the bettors' form, a shop category's language
 * is one of the language list.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { eq } from 'drizzle-orm';
import { ADMIN_PASSWORD, PASSWORD, approved, createTestApp, makeAdmin, makeRole, type TestApp } from './helpers.js';
import { admins } from '../src/platform/schema.js';
import { openPostgres, type Database } from '../src/platform/db.js';
import { ServerLogLevels } from '../src/modules/system/index.js';

let t: TestApp;
let root: string;

beforeAll(async () => {
  t = await createTestApp();
  root = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

/** Waits until `probe` answers something truthy (state, not time). */
async function until<T>(probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string): Promise<T> {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('log configuration', () => {
  const rowOf = async (logger: string) => {
    const list = await t.call('GET', `/api/v1/system/log_config?logger=${logger}`, { token: root });
    return (list.body.items as { id: number; logger: string; level: number }[]).find((r) => r.logger === logger)!;
  };

  it("the request log's level applies to the server's logger at once", async () => {
    const http = await rowOf('http');
    const warn = await approved(t, 'PUT', `/api/v1/system/log_config/${http.id}`, { token: root, body: { level: 4 } });
    expect(warn.status).toBe(200);
    expect(t.app.log.level).toBe('warn');
    expect((await approved(t, 'PUT', `/api/v1/system/log_config/${http.id}`, { token: root, body: { level: 2 } })).status).toBe(200);
    expect(t.app.log.level).toBe('debug');
    await approved(t, 'PUT', `/api/v1/system/log_config/${http.id}`, { token: root, body: { level: 3 } });
    expect(t.app.log.level).toBe('info');
  });

  it('a named logger gets its own level; what the server cannot apply is not offered', async () => {
    const logger = pino({ level: 'info' }, pino.destination('/dev/null'));
    const levels = new ServerLogLevels(t.database.db, logger);
    const feed = await rowOf('feed');
    await approved(t, 'PUT', `/api/v1/system/log_config/${feed.id}`, { token: root, body: { level: 5 } });
    await levels.reload();
    expect(levels.of('feed').level).toBe('error');
    expect(levels.of('jobs').level).toBe('info');
    expect(logger.level).toBe('info');
    // No table keeps the server's log (it goes to standard output, kept by the host): no retention to set;
    // no logger the server does not have.
    const list = await t.call('GET', '/api/v1/system/log_config', { token: root });
    expect(list.body.items[0]).not.toHaveProperty('retention_days');
    expect(list.body.items.map((r: { logger: string }) => r.logger).sort()).toEqual(['feed', 'http', 'jobs', 'payments']);
    expect((await t.call('PUT', `/api/v1/system/log_config/${feed.id}`, { token: root, body: { retention_days: 30 } })).status).toBe(400);
    await approved(t, 'PUT', `/api/v1/system/log_config/${feed.id}`, { token: root, body: { level: 3 } });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('a change made through one process applies in another (the bus)', async () => {
    const other: Database = await openPostgres(t.database.url!, { max: 2 });
    const logger = pino({ level: 'info' }, pino.destination('/dev/null'));
    // The other process's periodic reload is out of reach: only the bus can tell it.
    const there = await new ServerLogLevels(other.db, logger, other.bus, 3_600_000).start();
    try {
      await until(() => other.bus.live(), 'the other process listening');
      const http = await rowOf('http');
      await approved(t, 'PUT', `/api/v1/system/log_config/${http.id}`, { token: root, body: { level: 5 } });
      await until(() => logger.level === 'error', 'the other process at error');
      await approved(t, 'PUT', `/api/v1/system/log_config/${http.id}`, { token: root, body: { level: 3 } });
      await until(() => logger.level === 'info', 'the other process back at info');
    } finally {
      there.stop();
      await other.close();
    }
  });
});

describe('sign-in of an expired administrator', () => {
  it('says the account expired, and when; a disabled one is still told it is disabled', async () => {
    const role = await makeRole(t, 'Walk expired', ['system', 'log']);
    const [top] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    await makeAdmin(t, 'walk_expired', role, top!.id, { memberExpiry: new Date('2026-03-01T09:30:00Z') });
    const r = await t.call('POST', '/api/v1/auth/login', { body: { account: 'walk_expired', password: PASSWORD } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('ACCOUNT_EXPIRED');
    expect(r.body.message).toContain('2026-03-01');
    expect(r.body.message).not.toMatch(/disabled/i);
    const sw = await t.call('POST', '/api/v1/auth/login', { body: { account: 'walk_expired', password: PASSWORD }, headers: { 'x-locale': 'sw-KE' } });
    expect(sw.body.message).toContain('2026-03-01');
    await makeAdmin(t, 'walk_disabled', role, top!.id, { disabled: 2 });
    const d = await t.call('POST', '/api/v1/auth/login', { body: { account: 'walk_disabled', password: PASSWORD } });
    expect(d.status).toBe(403);
    expect(d.body.code).toBe('ACCOUNT_DISABLED');
  });
});

describe('image size limit', () => {
  it('a size below the bound is refused, naming the bound, and nothing is saved', async () => {
    const before = (await t.call('GET', '/api/v1/system/image_config', { token: root })).body;
    const r = await approved(t, 'PUT', '/api/v1/system/image_config', { token: root, body: { max_size: 200 } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.details)).toContain('max_size');
    expect(JSON.stringify(r.body.details)).toContain('1024');
    expect((await t.call('GET', '/api/v1/system/image_config', { token: root })).body.max_size).toBe(before.max_size);
    const ok = await approved(t, 'PUT', '/api/v1/system/image_config', { token: root, body: { max_size: 1024 } });
    expect(ok.body.max_size).toBe(1024);
    await approved(t, 'PUT', '/api/v1/system/image_config', { token: root, body: { max_size: before.max_size } });
  });
});

describe("an administrator's phone", () => {
  it('is stored in the form bettors\' phones are, whatever form was typed; a number that is none is refused', async () => {
    const roles = (await t.call('GET', '/api/v1/system/roles?name=Administrator', { token: root })).body.items;
    const made = await t.call('POST', '/api/v1/system/administrators', { token: root, body: { account: 'walk_phone', phone: '0712000111', role_id: roles[0].id } });
    expect(made.status).toBe(201);
    expect(made.body.admin.phone).toBe('255712000111');
    const id = made.body.admin.id;
    for (const typed of ['+255 712-000-222', '712000222', '0712 000 222']) {
      const r = await t.call('PUT', `/api/v1/system/administrators/${id}`, { token: root, body: { phone: typed } });
      expect(r.status, typed).toBe(200);
      expect(r.body.phone).toBe('255712000222');
    }
    // Another country's number, written with its country code, keeps it (digits only, as bettors' numbers).
    expect((await t.call('PUT', `/api/v1/system/administrators/${id}`, { token: root, body: { phone: '+86 138 0013 8000' } })).body.phone).toBe('8613800138000');
    const bad = await t.call('PUT', `/api/v1/system/administrators/${id}`, { token: root, body: { phone: '12ab' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('PHONE_INVALID');
    expect((await t.call('PUT', `/api/v1/system/administrators/${id}`, { token: root, body: { phone: '' } })).body.phone).toBe('');
    // The list finds an admin by the number in any form.
    await t.call('PUT', `/api/v1/system/administrators/${id}`, { token: root, body: { phone: '0712000333' } });
    for (const q of ['0712000333', '255712000333', '0712 000']) {
      const found = await t.call('GET', `/api/v1/system/administrators?phone=${encodeURIComponent(q)}`, { token: root });
      expect(found.body.items.map((a: { id: number }) => a.id), q).toContain(id);
    }
  });
});

describe('migration 0042', () => {
  it("puts the phones admins already have in the bettors' form, and leaves what is no number", async () => {
    const role = await makeRole(t, 'Walk phones', ['system']);
    const [top] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    const typed: Record<string, [string, string]> = {
      walk_m1: ['0712000111', '255712000111'], walk_m2: ['+255 712 000 112', '255712000112'], walk_m3: ['255712000113', '255712000113'],
      walk_m4: ['+86 138-0013-8000', '8613800138000'], walk_m5: ['ask the desk', 'ask the desk'], walk_m6: ['', ''],
    };
    for (const [account, [phone]] of Object.entries(typed)) await makeAdmin(t, account, role, top!.id, { phone });
    const text = fs.readFileSync(new URL('../drizzle/0042_admin_phone.sql', import.meta.url), 'utf8');
    for (const statement of text.split('--> statement-breakpoint')) await t.database.query(statement);
    for (const [account, [, stored]] of Object.entries(typed)) {
      const [a] = await t.database.db.select({ phone: admins.phone }).from(admins).where(eq(admins.account, account));
      expect(a!.phone, account).toBe(stored);
    }
  });
});

describe('shop category language', () => {
  it('is one of the language list', async () => {
    const bad = await t.call('POST', '/api/v1/shop/categories', { token: root, body: { title: 'Walk', show_status: 1, language: 'xx-YY' } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('CONTENT_LANGUAGE_UNKNOWN');
    const ok = await t.call('POST', '/api/v1/shop/categories', { token: root, body: { title: 'Walk', show_status: 1, language: 'sw-KE' } });
    expect(ok.status).toBe(201);
    expect((await t.call('PUT', `/api/v1/shop/categories/${ok.body.id}`, { token: root, body: { language: 'fr-FR' } })).status).toBe(422);
  });
});
