import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { approved, ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { systemLogs } from '../src/platform/schema.js';

let t: TestApp;
let root: string;

beforeAll(async () => {
  t = await createTestApp();
  await makeWorld(t);
  root = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

describe('IP blacklist resource', () => {
  it('creates, normalises, filters, edits, exports and deletes', async () => {
    const a = await approved(t, 'POST', '/api/v1/system/ip_black', { token: root, body: { ip: '10.1.2.3/16', remark: 'office scan' } });
    expect(a.status).toBe(201);
    expect(a.body.ip).toBe('10.1.0.0/16');
    const bad = await approved(t, 'POST', '/api/v1/system/ip_black', { token: root, body: { ip: '999.1.1.1' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('ip');
    const dup = await approved(t, 'POST', '/api/v1/system/ip_black', { token: root, body: { ip: '10.1.9.9/16' } });
    expect(dup.status).toBe(409);
    await approved(t, 'POST', '/api/v1/system/ip_black', { token: root, body: { ip: '198.51.100.7', remark: '=cmd|calc' } });
    const filtered = await t.call('GET', '/api/v1/system/ip_black?remark=scan', { token: root });
    expect(filtered.body.items.map((i: { ip: string }) => i.ip)).toEqual(['10.1.0.0/16']);
    const edited = await approved(t, 'PUT', `/api/v1/system/ip_black/${a.body.id}`, { token: root, body: { remark: 'office' } });
    expect(edited.body.remark).toBe('office');
    const unknownField = await approved(t, 'PUT', `/api/v1/system/ip_black/${a.body.id}`, { token: root, body: { created_by: 5 } });
    expect(unknownField.status).toBe(400);
    const csv = await t.call('GET', '/api/v1/system/ip_black/export', { token: root });
    expect(csv.res.headers['content-disposition']).toContain('ip_black-');
    expect(csv.res.body).toContain('10.1.0.0/16');
    // A cell a spreadsheet would run as a formula is defused.
    expect(csv.res.body).toContain("'=cmd|calc");
    expect((await approved(t, 'DELETE', `/api/v1/system/ip_black/${a.body.id}`, { token: root })).status).toBe(200);
    expect((await t.call('GET', `/api/v1/system/ip_black/${a.body.id}`, { token: root })).status).toBe(404);
    const trail = await t.database.db.select().from(systemLogs).where(eq(systemLogs.type, 3));
    expect(trail.map((r) => r.content)).toEqual(expect.arrayContaining([expect.stringContaining('Created ip_black'), expect.stringContaining('Deleted ip_black')]));
  });

  it('pages and sorts with limits', async () => {
    for (let i = 1; i <= 5; i++) await approved(t, 'POST', '/api/v1/system/ip_black', { token: root, body: { ip: `192.0.2.${i}` } });
    const p = await t.call('GET', '/api/v1/system/ip_black?page=2&page_size=2&sort=id', { token: root });
    expect(p.body.page).toBe(2);
    expect(p.body.items).toHaveLength(2);
    expect(p.body.total).toBeGreaterThanOrEqual(6);
    expect((await t.call('GET', '/api/v1/system/ip_black?sort=remark', { token: root })).status).toBe(400);
  });
});

describe('log configuration', () => {
  it('answers "Conversion failed" for options that are not a JSON object', async () => {
    const list = await t.call('GET', '/api/v1/system/log_config', { token: root });
    const id = list.body.items[0].id;
    const bad = await t.call('PUT', `/api/v1/system/log_config/${id}`, { token: root, body: { options: '{not json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Conversion failed');
    const arr = await t.call('PUT', `/api/v1/system/log_config/${id}`, { token: root, body: { options: '[1,2]' } });
    expect(arr.body.code).toBe('CONVERSION_FAILED');
    const ok = await t.call('PUT', `/api/v1/system/log_config/${id}`, { token: root, body: { options: '{"redact":["phone"]}', level: 4 } });
    expect(ok.status).toBe(200);
    expect(ok.body.level).toBe(4);
    const badLevel = await t.call('PUT', `/api/v1/system/log_config/${id}`, { token: root, body: { level: 9 } });
    expect(badLevel.status).toBe(400);
  });
});

describe('site configuration and subscriber config', () => {
  it('website info is public and follows the configuration', async () => {
    const before = await t.call('GET', '/api/v1/site');
    expect(before.body).toMatchObject({ title: 'Dau', color: '#f5ca47' });
    const bad = await t.call('PUT', '/api/v1/system/configuration', { token: root, body: { color: 'yellow' } });
    expect(bad.status).toBe(400);
    const ok = await t.call('PUT', '/api/v1/system/configuration', { token: root, body: { title: 'Dau Bet Back Office', color: '#1677ff' } });
    expect(ok.status).toBe(200);
    expect((await t.call('GET', '/api/v1/site')).body).toMatchObject({ title: 'Dau Bet Back Office', color: '#1677ff' });
  });

  it('subscriber config validates and drives registration', async () => {
    const bad = await approved(t, 'PUT', '/api/v1/system/subscriber_config', { token: root, body: { share_ratio: -0.5 } });
    expect(bad.status).toBe(400);
    const ok = await approved(t, 'PUT', '/api/v1/system/subscriber_config', { token: root, body: { allow_registration: true, login_failure_limit: 7 } });
    expect(ok.body).toMatchObject({ allow_registration: true, login_failure_limit: 7 });
    expect((await t.call('GET', '/api/v1/auth/register-config')).body.allow_registration).toBe(true);
  });
});

describe('languages', () => {
  it('lists, creates with a valid code, keeps one default, refuses to delete the default', async () => {
    const pub = await t.call('GET', '/api/v1/languages?show_status=2');
    expect(pub.body.items.map((l: { code: string }) => l.code)).toEqual(['en-US', 'sw-KE', 'zh-CN']);
    expect((await t.call('POST', '/api/v1/system/languages', { token: root, body: { code: 'French!', title: 'Français' } })).status).toBe(400);
    const fr = await t.call('POST', '/api/v1/system/languages', { token: root, body: { code: 'fr-FR', title: 'Français', show_status: 1 } });
    // The same code again is a conflict (it was a 500 from the unique key).
    const again = await t.call('POST', '/api/v1/system/languages', { token: root, body: { code: 'fr-FR', title: 'Français encore', show_status: 1 } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    expect(fr.status).toBe(201);
    const makeDefault = await t.call('PUT', `/api/v1/system/languages/${fr.body.id}`, { token: root, body: { default_language: 2 } });
    expect(makeDefault.body.default_language).toBe(2);
    const all = await t.call('GET', '/api/v1/system/languages?default_language=2', { token: root });
    expect(all.body.items.map((l: { code: string }) => l.code)).toEqual(['fr-FR']);
    expect((await t.call('DELETE', `/api/v1/system/languages/${fr.body.id}`, { token: root })).status).toBe(409);
    expect((await t.call('PUT', `/api/v1/system/languages/${fr.body.id}`, { token: root, body: { code: 'de-DE' } })).status).toBe(400);
  });
});

describe('system log', () => {
  it('is read-only through the API and filterable', async () => {
    const list = await t.call('GET', '/api/v1/system/logs?type=2&page_size=5', { token: root });
    expect(list.status).toBe(200);
    expect(list.body.items.every((i: { type: number }) => i.type === 2)).toBe(true);
    const id = list.body.items[0].id;
    expect((await t.call('PUT', `/api/v1/system/logs/${id}`, { token: root, body: { content: 'x' } })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/system/logs/${id}`, { token: root })).status).toBe(404);
    expect((await t.call('POST', '/api/v1/system/logs', { token: root, body: { content: 'x' } })).status).toBe(404);
    const range = await t.call('GET', `/api/v1/system/logs?created_at_from=${new Date(Date.now() - 60_000).toISOString()}`, { token: root });
    expect(range.body.total).toBeGreaterThan(0);
    const future = await t.call('GET', `/api/v1/system/logs?created_at_from=${new Date(Date.now() + 60_000).toISOString()}`, { token: root });
    expect(future.body.total).toBe(0);
  });

  it('a sub-admin reads only the trail of their own branch', async () => {
    const a = await t.login('agent_a');
    await t.login('agent_b');
    const list = await t.call('GET', '/api/v1/system/logs?page_size=200', { token: a });
    const accounts = new Set(list.body.items.map((i: { account: string }) => i.account));
    expect(accounts.has('agent_a')).toBe(true);
    expect(accounts.has('agent_b')).toBe(false);
    expect(accounts.has('admin')).toBe(false);
  });

  it('log types are seeded from spec §4 and editable', async () => {
    const types = await t.call('GET', '/api/v1/system/log_types?page_size=50', { token: root });
    expect(types.body.total).toBe(16);
    expect(types.body.items.find((x: { id: number }) => x.id === 3).code).toBe('ip_blacklist');
    const ed = await t.call('PUT', '/api/v1/system/log_types/6', { token: root, body: { enabled: false } });
    expect(ed.body.enabled).toBe(false);
    const guarded = await t.call('PUT', '/api/v1/system/log_types/2', { token: root, body: { enabled: false } });
    expect(guarded.status).toBe(422);
    expect(guarded.body.code).toBe('LOG_TYPE_PROTECTED');
  });
});

describe('errors', () => {
  it('never leaks a stack trace: malformed JSON is a 400 with the spec message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/system/ip_black', headers: { authorization: `Bearer ${root}`, 'content-type': 'application/json' }, payload: '{"ip":' });
    expect(res.statusCode).toBe(400);
    const body = JSON.parse(res.body);
    expect(body.code).toBe('PARAM_INVALID');
    expect(res.body).not.toContain('at ');
  });
  it('unknown API path is a JSON 404', async () => {
    const r = await t.call('GET', '/api/v1/nope', { token: root });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('NOT_FOUND');
  });
  it('serves the OpenAPI document to a signed-in admin', async () => {
    const r = await t.call('GET', '/api/docs/json', { token: root });
    expect(r.body.openapi).toMatch(/^3\./);
    expect(Object.keys(r.body.paths)).toContain('/api/v1/auth/login');
  });
});
