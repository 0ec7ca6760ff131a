import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { approved, ADMIN_PASSWORD, PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { subscriberConfig } from '../src/modules/system/schema.js';
import { admins, systemLogs } from '../src/platform/schema.js';
import { sessions } from '../src/platform/schema.js';

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
});
afterAll(() => t?.close());

const login = (body: Record<string, unknown>, ip = '127.0.0.1') => t.call('POST', '/api/v1/auth/login', { body, ip });

describe('sign-in', () => {
  it('signs in with the right password and answers token and user info', async () => {
    const r = await login({ account: 'admin', password: ADMIN_PASSWORD });
    expect(r.status).toBe(200);
    expect(r.body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(r.body.user_info).toMatchObject({ account: 'admin', is_super: true });
    expect(r.body.ws_key).toHaveLength(44);
    const me = await t.call('GET', '/api/v1/auth/me', { token: r.body.token });
    expect(me.status).toBe(200);
    expect(me.body.user_info.id).toBe(r.body.user_info.id);
    expect(me.body.menus.length).toBeGreaterThan(5);
  });

  it('sends the console its pages, not the buttons (those are the permissions it holds)', async () => {
    const r = await login({ account: 'admin', password: ADMIN_PASSWORD });
    const me = await t.call('GET', '/api/v1/auth/me', { token: r.body.token });
    const nodes: { type: number; path: string; children: unknown[] }[] = [];
    const walk = (list: typeof nodes) => list.forEach((n) => (nodes.push(n), walk(n.children as typeof nodes)));
    walk(me.body.menus);
    expect(nodes.length).toBeGreaterThan(50);
    expect(nodes.filter((n) => n.type !== 1)).toEqual([]);
    // The catalogue a role is edited from still has the buttons.
    const catalogue = await t.call('GET', `/api/v1/system/roles/${me.body.user_info.role_id}/permissions`, { token: r.body.token });
    expect(JSON.stringify(catalogue.body)).toContain('"type":2');
  });

  it('stores only the hash of the token', async () => {
    const r = await login({ account: 'agent_a', password: PASSWORD });
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.id, r.body.session_id));
    expect(rows[0].tokenHash).not.toContain(r.body.token);
    expect(rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a wrong password with "Login failed" and logs it', async () => {
    const r = await login({ account: 'agent_a1', password: 'wrong-password' });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: 'LOGIN_FAILED', message: 'Login failed' });
    const logs = await t.database.db.select().from(systemLogs).where(eq(systemLogs.account, 'agent_a1'));
    expect(logs.some((l) => l.type === 2 && l.content.includes('Failed sign-in'))).toBe(true);
  });

  it('answers the same for an unknown account', async () => {
    const r = await login({ account: 'nobody_here', password: 'whatever1' });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('LOGIN_FAILED');
  });

  it('gives the spec messages for a missing username or password', async () => {
    const a = await login({ account: '', password: 'x' });
    expect(a.status).toBe(400);
    expect(a.body.message).toBe('Please input Username');
    const b = await login({ account: 'admin', password: '' });
    expect(b.status).toBe(400);
    expect(b.body.message).toBe('Please enter password');
  });

  it('answers errors in the caller language', async () => {
    const r = await t.call('POST', '/api/v1/auth/login', { body: { account: 'x', password: 'y' }, headers: { 'x-locale': 'zh-CN' } });
    expect(r.body.code).toBe('LOGIN_FAILED');
    expect(r.body.message).not.toBe('Login failed');
  });

  it('rejects unknown body fields as invalid parameters', async () => {
    const r = await login({ account: 'admin', password: ADMIN_PASSWORD, role: 'super' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('PARAM_INVALID');
    expect(r.body.message).toBe('The parameter is invalid');
  });

  it('refuses a disabled admin even with the right password', async () => {
    const r = await login({ account: 'disabled', password: PASSWORD });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('ACCOUNT_DISABLED');
  });
});

// Lockout, back-off and limits: auth-throttle.test.ts. Google codes: auth-totp.test.ts.

describe('IP blacklist', () => {
  it('refuses every request from a blacklisted address, including sign-in, and logs it', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const add = await approved(t, 'POST', '/api/v1/system/ip_black', { token, body: { ip: '203.0.113.0/24', remark: 'abuse' } });
    expect(add.status).toBe(201);
    const r = await login({ account: 'admin', password: ADMIN_PASSWORD }, '203.0.113.77');
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('IP_BLACKLISTED');
    const other = await login({ account: 'admin', password: ADMIN_PASSWORD }, '198.51.100.1');
    expect(other.status).toBe(200);
    const logs = await t.database.db.select().from(systemLogs).where(eq(systemLogs.type, 3));
    expect(logs.some((l) => l.ip === '203.0.113.77')).toBe(true);
    await approved(t, 'DELETE', `/api/v1/system/ip_black/${add.body.id}`, { token });
    expect((await login({ account: 'admin', password: ADMIN_PASSWORD }, '203.0.113.77')).status).toBe(200);
  });

  it('does not let an operator blacklist their own address', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const r = await approved(t, 'POST', '/api/v1/system/ip_black', { token, body: { ip: '127.0.0.1' } });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('IP_SELF_BLOCK');
  });
});

describe('sessions', () => {
  it('refuses requests without or with a bad token', async () => {
    expect((await t.call('GET', '/api/v1/auth/me')).status).toBe(401);
    expect((await t.call('GET', '/api/v1/auth/me', { token: 'not-a-token' })).status).toBe(401);
  });

  it('ends at the idle expiry and at the absolute expiry', async () => {
    const a = await login({ account: 'agent_a1', password: PASSWORD });
    await t.database.db.update(sessions).set({ idleExpiresAt: sql`now() - interval '1 second'` }).where(eq(sessions.id, a.body.session_id));
    expect((await t.call('GET', '/api/v1/auth/me', { token: a.body.token })).status).toBe(401);
    const b = await login({ account: 'agent_a1', password: PASSWORD });
    await t.database.db.update(sessions).set({ absoluteExpiresAt: sql`now() - interval '1 second'` }).where(eq(sessions.id, b.body.session_id));
    expect((await t.call('GET', '/api/v1/auth/me', { token: b.body.token })).status).toBe(401);
  });

  it('is revoked by sign-out', async () => {
    const token = await t.login('agent_b');
    expect((await t.call('POST', '/api/v1/auth/logout', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token })).status).toBe(401);
  });

  it('is revoked when the admin is disabled, and when their role changes', async () => {
    const root = await t.login('admin', ADMIN_PASSWORD);
    const token = await t.login('agent_b1');
    expect((await t.call('POST', `/api/v1/system/administrators/${w.agentB1}/disable`, { token: root, body: { disabled: 2 } })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token })).status).toBe(401);
    await t.call('POST', `/api/v1/system/administrators/${w.agentB1}/disable`, { token: root, body: { disabled: 1 } });
    const again = await t.login('agent_b1');
    expect((await t.call('PUT', `/api/v1/system/administrators/${w.agentB1}`, { token: root, body: { role_id: w.limitedRole } })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token: again })).status).toBe(401);
    await t.call('PUT', `/api/v1/system/administrators/${w.agentB1}`, { token: root, body: { role_id: w.agentRole } });
  });
});

describe('change password', () => {
  it('gives the spec messages and revokes every session on success', async () => {
    const token = await t.login('limited');
    const other = await t.login('limited');
    const call = (body: Record<string, string>) => t.call('POST', '/api/v1/auth/password', { token, body: { old_password: '', new_password: '', confirm_password: '', ...body } });
    expect((await call({})).body.message).toBe('Please enter old password');
    expect((await call({ old_password: PASSWORD })).body.message).toBe('Please enter a new password');
    expect((await call({ old_password: PASSWORD, new_password: 'NewPass#2026', confirm_password: 'Other#2026' })).body.message).toBe(
      'The passwords entered twice are inconsistent, please try again.',
    );
    expect((await call({ old_password: 'wrong-old-1', new_password: 'NewPass#2026', confirm_password: 'NewPass#2026' })).status).toBe(422);
    const ok = await call({ old_password: PASSWORD, new_password: 'NewPass#2026', confirm_password: 'NewPass#2026' });
    expect(ok.status).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token })).status).toBe(401);
    expect((await t.call('GET', '/api/v1/auth/me', { token: other })).status).toBe(401);
    expect((await login({ account: 'limited', password: PASSWORD })).status).toBe(401);
    expect((await login({ account: 'limited', password: 'NewPass#2026' })).status).toBe(200);
    const logs = await t.database.db.select().from(systemLogs).where(eq(systemLogs.type, 7));
    expect(logs.length).toBe(1);
    expect(JSON.stringify(logs)).not.toContain('NewPass#2026');
  });
});

describe('registration', () => {
  it('answers that registration is disabled unless the subscriber config allows it', async () => {
    const cfg = await t.call('GET', '/api/v1/auth/register-config');
    expect(cfg.body.allow_registration).toBe(false);
    const r = await t.call('POST', '/api/v1/auth/register', { body: { account: 'newbie', password: 'Newbie#2026', confirm_password: 'Newbie#2026' } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('REGISTER_DISABLED');
  });

  it('when allowed: the two messages of the spec, an optional invitation code, the default role', async () => {
    await t.database.db.update(subscriberConfig).set({ allowRegistration: true }).where(eq(subscriberConfig.id, 1));
    const reg = (body: Record<string, string>) => t.call('POST', '/api/v1/auth/register', { body });
    expect((await reg({ account: 'newbie', password: 'Newbie#2026', confirm_password: 'Other#2026' })).body.message).toBe('Two passwords are inconsistent');
    expect((await reg({ account: 'Newbie2026', password: 'Newbie2026', confirm_password: 'Newbie2026' })).body.message).toBe(
      'The account number and password are not allowed to be the same',
    );
    const ok = await reg({ account: 'newbie', password: 'Newbie#2026', confirm_password: 'Newbie#2026' });
    expect(ok.status).toBe(201);
    const [a] = await t.database.db.select().from(admins).where(eq(admins.account, 'newbie'));
    expect(a.superiorId).toBeNull();
    await t.database.db.update(admins).set({ invitationCode: 'AGENTA' }).where(eq(admins.id, w.agentA));
    const invited = await reg({ account: 'invited', password: 'Invited#2026', confirm_password: 'Invited#2026', invitation_code: 'AGENTA' });
    expect(invited.status).toBe(201);
    const [b] = await t.database.db.select().from(admins).where(eq(admins.account, 'invited'));
    expect(b.superiorId).toBe(w.agentA);
    expect((await reg({ account: 'newbie', password: 'Newbie#2026', confirm_password: 'Newbie#2026' })).status).toBe(409);
    await t.database.db.update(subscriberConfig).set({ allowRegistration: false }).where(eq(subscriberConfig.id, 1));
  });
});
