import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { ADMIN_PASSWORD, PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { subscriberConfig } from '../src/modules/system/schema.js';
import { systemLogs } from '../src/platform/schema.js';
import { loginAttempts } from '../src/modules/auth/schema.js';
import { backoffSeconds, placeOf } from '../src/modules/auth/service.js';
import { buildApp } from '../src/app.js';

/**
 * Guessing: per address, per account + address (the subscriber config's limit and window) and an
 * account-wide back-off that a known place skips. Time is moved by moving the recorded attempts back.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await makeWorld(t);
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.database.exec('delete from login_attempts');
  await setLimits(5, 15);
});

const login = (body: Record<string, unknown>, ip: string) => t.call('POST', '/api/v1/auth/login', { body, ip });
const setLimits = (limit: number, windowMinutes: number) =>
  t.database.db.update(subscriberConfig).set({ loginFailureLimit: limit, failureWindowMinutes: windowMinutes }).where(eq(subscriberConfig.id, 1));
/** Moves every recorded attempt `seconds` into the past (as if that much time had gone by). */
const elapse = (seconds: number) => t.database.exec(`update login_attempts set created_at = created_at - interval '${seconds} seconds'`);
const checkedFailures = async (account: string) => {
  const [{ n }] = await t.database.db.select({ n: count() }).from(loginAttempts).where(and(eq(loginAttempts.account, account), eq(loginAttempts.success, false)));
  return Number(n);
};
const stranger = (i: number) => `198.51.100.${i}`;

describe('a stranger cannot lock the owner out', () => {
  it('after many failures from many addresses the owner still signs in from a known place; a new place waits a short, bounded time', async () => {
    expect((await login({ account: 'admin', password: ADMIN_PASSWORD }, '10.1.1.1')).status).toBe(200);
    const answers: number[] = [];
    for (let i = 1; i <= 40; i++) answers.push((await login({ account: 'admin', password: `guess-${i}-wrong` }, stranger(i))).status);
    expect(answers.filter((s) => s === 401).length).toBeGreaterThanOrEqual(5);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(20);
    // The owner, from where they signed in before: in at once.
    const owner = await login({ account: 'admin', password: ADMIN_PASSWORD }, '10.1.1.1');
    expect(owner.status).toBe(200);
    // The owner's success resets the account's back-off; strangers start over from the limit.
    for (let i = 1; i <= 5; i++) expect((await login({ account: 'admin', password: 'still-wrong-1' }, stranger(100 + i))).status).toBe(401);
    const slowed = await login({ account: 'admin', password: ADMIN_PASSWORD }, '10.9.9.9');
    expect(slowed.status).toBe(429);
    expect(slowed.body.code).toBe('LOGIN_THROTTLED');
    const retry = Number(slowed.res.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    expect(slowed.body.message).toContain(String(retry));
    // Once the back-off has passed, the right password from the new place gets in.
    await elapse(retry);
    expect((await login({ account: 'admin', password: ADMIN_PASSWORD }, '10.9.9.9')).status).toBe(200);
  });

  it('the back-off doubles with each failure and never exceeds the window; requests it refuses are not checked', async () => {
    await setLimits(3, 2);
    const waits: number[] = [];
    let ip = 1;
    while (waits.length < 10) {
      const r = await login({ account: 'agent_b', password: 'wrong-password-1' }, stranger(ip++));
      if (r.status === 429) {
        const retry = Number(r.res.headers['retry-after']);
        waits.push(retry);
        const before = await checkedFailures('agent_b');
        // A second try at once is refused again and not checked against the password.
        expect((await login({ account: 'agent_b', password: 'wrong-password-2' }, stranger(ip++))).status).toBe(429);
        expect(await checkedFailures('agent_b')).toBe(before);
        await elapse(retry);
      } else {
        expect(r.status).toBe(401);
      }
    }
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits[0]).toBeLessThanOrEqual(1);
    expect(waits.at(-1)).toBe(2 * 60);
    expect(backoffSeconds(2, { limit: 3, windowMinutes: 2 })).toBe(0);
    expect([3, 4, 5, 6, 20].map((n) => backoffSeconds(n, { limit: 3, windowMinutes: 2 }))).toEqual([1, 2, 4, 8, 120]);
  });
});

describe('per address', () => {
  it('refuses an address after 20 failures over any account names, with Retry-After; other addresses are not affected', async () => {
    const ip = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await login({ account: `someone_${i}`, password: 'wrong-password-1' }, ip)).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    const refused = await login({ account: 'agent_a', password: PASSWORD }, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.res.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect((await login({ account: 'someone_0', password: 'wrong-password-1' }, '203.0.113.51')).status).toBe(401);
    // After the window the address is checked again.
    await elapse(15 * 60 + 1);
    expect((await login({ account: 'agent_a', password: PASSWORD }, ip)).status).toBe(200);
  });

  it('counts an IPv6 /64 as one place', async () => {
    expect(placeOf('2001:db8:1:2:aaaa::1')).toBe(placeOf('2001:db8:1:2:bbbb::2'));
    expect(placeOf('2001:db8:1:3::1')).not.toBe(placeOf('2001:db8:1:2::1'));
    expect(placeOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });
});

describe('per account and address: the subscriber config governs', () => {
  it('refuses the account from that address after the configured limit, for the configured window', async () => {
    await setLimits(3, 1);
    const ip = '192.0.2.10';
    // A known place (signed in before) is not slowed by the account back-off, but its own limit holds.
    expect((await login({ account: 'agent_b1', password: PASSWORD }, ip)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login({ account: 'agent_b1', password: 'bad-password-1' }, ip)).status).toBe(401);
    const locked = await login({ account: 'agent_b1', password: PASSWORD }, ip);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('LOGIN_THROTTLED');
    expect(Number(locked.res.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another account from the same address is not affected.
    expect((await login({ account: 'agent_b', password: PASSWORD }, ip)).status).toBe(200);
    // After the configured window (1 min) the account signs in from there again.
    await elapse(61);
    expect((await login({ account: 'agent_b1', password: PASSWORD }, ip)).status).toBe(200);

    // A higher limit lets more failures through before the refusal.
    await setLimits(6, 1);
    for (let i = 0; i < 6; i++) expect((await login({ account: 'agent_b1', password: 'bad-password-1' }, ip)).status).toBe(401);
    expect((await login({ account: 'agent_b1', password: PASSWORD }, ip)).status).toBe(429);
  });

  it('logs the failures and tells the super admins when the account starts being slowed', async () => {
    await setLimits(3, 15);
    for (let i = 0; i < 3; i++) await login({ account: 'limited', password: 'bad-password-1' }, stranger(200 + i));
    const contents = (await t.database.db.select().from(systemLogs).where(eq(systemLogs.account, 'limited'))).map((l) => l.content);
    expect(contents.filter((c) => c.includes('Failed sign-in')).length).toBe(3);
    expect(contents.some((c) => c.includes('slowed down'))).toBe(true);
    const notices = await t.call('GET', '/api/v1/notices?notify_status=1&page=1&page_size=50', { token: await t.login('admin', ADMIN_PASSWORD) });
    expect(notices.body.items.some((n: { content: string }) => n.content.includes('"limited"') && n.content.includes('slowed down'))).toBe(true);
  });
});

describe('several server processes, concurrent attempts', () => {
  it('two app instances on one database share the counts, and a burst of parallel guesses gets no more checks than the limit', async () => {
    await setLimits(3, 15);
    const other = await buildApp({ database: t.database, feedMargin: () => 0 });
    try {
      const via = (i: number, ip: string) =>
        (i % 2 ? other.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { account: 'agent_a1', password: `wrong-${i}-pass` }, remoteAddress: ip }) :
          t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { account: 'agent_a1', password: `wrong-${i}-pass` }, remoteAddress: ip })).then((r) => r.statusCode);
      const serial: number[] = [];
      for (let i = 0; i < 5; i++) serial.push(await via(i, '192.0.2.80'));
      expect(serial).toEqual([401, 401, 401, 429, 429]);
      await t.database.exec('delete from login_attempts');
      const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => via(i, '192.0.2.81')));
      expect(burst.filter((s) => s === 401).length).toBeLessThanOrEqual(3);
      expect(burst.filter((s) => s === 429).length).toBeGreaterThanOrEqual(9);
    } finally {
      await other.app.close();
    }
  });
});
