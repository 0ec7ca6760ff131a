import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ADMIN_PASSWORD, PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { subscriberConfig } from '../src/modules/system/schema.js';
import { checkPassword, isCommonPassword } from '../src/platform/password-policy.js';
import { loadConfig } from '../src/platform/config.js';

/** Passwords of admins: at least 10 characters and not one of the common passwords, on every way in. */
let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root = '';

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  root = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

const WEAK: [string, string][] = [
  ['12345678', 'PASSWORD_TOO_WEAK'],
  ['Short#1', 'PASSWORD_TOO_WEAK'],
  ['123456789', 'PASSWORD_TOO_WEAK'],
  ['1234567890', 'PASSWORD_COMMON'],
  ['password123', 'PASSWORD_COMMON'],
  ['Qwertyuiop', 'PASSWORD_COMMON'],
];

describe('password policy', () => {
  it('knows the common passwords of the shipped list, whatever the case', () => {
    expect(isCommonPassword('iloveyou12')).toBe(true);
    expect(isCommonPassword('PASSWORD1234')).toBe(true);
    expect(isCommonPassword('Staff#2026pass')).toBe(false);
    expect(checkPassword('kilimo-2026-chai')).toEqual({ ok: true, value: 'kilimo-2026-chai' });
  });

  it('refuses short and common passwords when creating an admin', async () => {
    for (const [password, code] of WEAK) {
      const r = await t.call('POST', '/api/v1/system/administrators', { token: root, body: { account: 'weakling', password, role_id: w.agentRole } });
      expect(r.status, password).toBe(400);
      expect(r.body.code, password).toBe(code);
    }
    const ok = await t.call('POST', '/api/v1/system/administrators', { token: root, body: { account: 'strongling', password: 'kilimo-2026-chai', role_id: w.agentRole } });
    expect(ok.status).toBe(201);
    const generated = await t.call('POST', '/api/v1/system/administrators', { token: root, body: { account: 'generated', role_id: w.agentRole } });
    expect(generated.status).toBe(201);
    expect(checkPassword(generated.body.password).ok).toBe(true);
  });

  it('refuses them on a reset; a blank reset answers a generated password that passes the policy', async () => {
    for (const [password, code] of WEAK) {
      const r = await t.call('POST', `/api/v1/system/administrators/${w.agentA1}/reset-password`, { token: root, body: { password } });
      expect(r.status, password).toBe(400);
      expect(r.body.code, password).toBe(code);
    }
    const blank = await t.call('POST', `/api/v1/system/administrators/${w.agentA1}/reset-password`, { token: root, body: {} });
    expect(blank.status).toBe(200);
    expect(checkPassword(blank.body.password).ok).toBe(true);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { account: 'agent_a1', password: blank.body.password } })).status).toBe(200);
  });

  it('refuses them when changing one\'s own password', async () => {
    const token = await t.login('limited');
    for (const [password, code] of WEAK) {
      const r = await t.call('POST', '/api/v1/auth/password', { token, body: { old_password: PASSWORD, new_password: password, confirm_password: password } });
      expect(r.status, password).toBe(400);
      expect(r.body.code, password).toBe(code);
    }
  });

  it('refuses them at registration, in the caller language', async () => {
    await t.database.db.update(subscriberConfig).set({ allowRegistration: true }).where(eq(subscriberConfig.id, 1));
    for (const [password, code] of WEAK) {
      const r = await t.call('POST', '/api/v1/auth/register', { body: { account: 'newcomer', password, confirm_password: password } });
      expect(r.status, password).toBe(400);
      expect(r.body.code, password).toBe(code);
    }
    const zh = await t.call('POST', '/api/v1/auth/register', { body: { account: 'newcomer', password: 'password123', confirm_password: 'password123' }, headers: { 'x-locale': 'sw-KE' } });
    expect(zh.body.message).toContain('Nenosiri');
    await t.database.db.update(subscriberConfig).set({ allowRegistration: false }).where(eq(subscriberConfig.id, 1));
  });

  it('refuses a weak DAU_ADMIN_PASSWORD at start', () => {
    expect(() => loadConfig({ DAU_ADMIN_PASSWORD: '12345678' })).toThrow(/DAU_ADMIN_PASSWORD/);
    expect(() => loadConfig({ DAU_ADMIN_PASSWORD: 'password123' })).toThrow(/common/);
    expect(loadConfig({ DAU_ADMIN_PASSWORD: ADMIN_PASSWORD }).adminPassword).toBe(ADMIN_PASSWORD);
  });
});
