import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { PASSWORD, createTestApp, makeAdmin, makeWorld, type TestApp } from './helpers.js';
import { loginAttempts } from '../src/modules/auth/schema.js';
import { TOTP_STEP_SECONDS, totpAt, totpStepAt } from '../src/modules/auth/totp.js';

/**
 * The Google authenticator: a code is good for the current 30 s step only, once (sign-in, binding and
 * unbinding share the admin's last used step), and the second factor is asked without telling whether
 * the password was right. The clock of the server (Date only) is set by the test.
 */
let t: TestApp;
let world: Awaited<ReturnType<typeof makeWorld>>;
const STEP_MS = TOTP_STEP_SECONDS * 1000;
/** The start of the next case's first step: each case gets steps of its own, later than any used before. */
let nextStepStart = 0;
let bound = 0;

beforeAll(async () => {
  t = await createTestApp();
  world = await makeWorld(t);
  nextStepStart = (totpStepAt(Date.now()) + 2) * STEP_MS;
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => t.database.exec('delete from login_attempts'));
afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

const login = (body: Record<string, unknown>, ip = '10.2.0.1') => t.call('POST', '/api/v1/auth/login', { body, ip });
const otherThan = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
const failures = async (account: string) =>
  Number((await t.database.db.select({ n: count() }).from(loginAttempts).where(and(eq(loginAttempts.account, account), eq(loginAttempts.success, false))))[0]!.n);

/**
 * An admin of its own for one case, who bound the authenticator 5 s into step 0 of the case's own steps
 * (so cases run in any order: each has its admin's last used step and its own stretch of the clock).
 * `atStep(n, s)` sets the server clock to s seconds into step n; `codeAt(n)` is the code of step n.
 */
async function boundAdmin() {
  const account = `totp_${++bound}`;
  await makeAdmin(t, account, world.agentRole, world.rootId);
  const stepStart = nextStepStart;
  nextStepStart += 100 * STEP_MS;
  const atStep = (n: number, seconds = 5) => vi.setSystemTime(stepStart + n * STEP_MS + seconds * 1000);
  atStep(0);
  const secret = await (async () => {
    const token = await t.login(account);
    const setup = await t.call('POST', '/api/v1/auth/google/setup', { token });
    expect(setup.status).toBe(200);
    const bind = await t.call('POST', '/api/v1/auth/google/bind', { token, body: { code: totpAt(setup.body.secret, Date.now()) } });
    expect(bind.status).toBe(200);
    return setup.body.secret as string;
  })();
  const codeAt = (n: number) => totpAt(secret, stepStart + n * STEP_MS + 1000);
  return { account, atStep, codeAt };
}

describe('one code, one use, current step only', () => {
  it('refuses the code used to bind, then accepts the next step once and refuses its replay', async () => {
    const { account, atStep, codeAt } = await boundAdmin();
    atStep(0, 20);
    const bindCode = await login({ account, password: PASSWORD, google_code: codeAt(0) });
    expect(bindCode.status).toBe(401);
    atStep(1);
    const ok = await login({ account, password: PASSWORD, google_code: codeAt(1) });
    expect(ok.status).toBe(200);
    const replay = await login({ account, password: PASSWORD, google_code: codeAt(1) }, '10.2.0.2');
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('LOGIN_CODE_FAILED');
  });

  it('refuses the previous step and the next step, accepts the current one', async () => {
    const { account, atStep, codeAt } = await boundAdmin();
    atStep(3, 2);
    expect((await login({ account, password: PASSWORD, google_code: codeAt(2) })).status).toBe(401);
    expect((await login({ account, password: PASSWORD, google_code: codeAt(4) })).status).toBe(401);
    expect((await login({ account, password: PASSWORD, google_code: codeAt(3) })).status).toBe(200);
  });

  it('lets only one of two concurrent sign-ins with the same code through', async () => {
    const { account, atStep, codeAt } = await boundAdmin();
    atStep(5);
    const both = await Promise.all([
      login({ account, password: PASSWORD, google_code: codeAt(5) }, '10.2.0.3'),
      login({ account, password: PASSWORD, google_code: codeAt(5) }, '10.2.0.4'),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});

describe('the second factor does not reveal the password', () => {
  it('answers the same to the right and to a wrong password without a code, and counts both', async () => {
    const { account, atStep } = await boundAdmin();
    atStep(6);
    const right = await login({ account, password: PASSWORD });
    const wrong = await login({ account, password: 'not-the-password-1' });
    expect(right.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(right.body).toEqual(wrong.body);
    expect(right.body.code).toBe('GOOGLE_CODE_REQUIRED');
    expect(await failures(account)).toBe(2);
  });

  it('answers the same to a wrong password with the right code and to the right password with a wrong code', async () => {
    const { account, atStep, codeAt } = await boundAdmin();
    atStep(7);
    const wrongCode = await login({ account, password: PASSWORD, google_code: otherThan(codeAt(7)) });
    const wrongPassword = await login({ account, password: 'not-the-password-1', google_code: codeAt(7) });
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.body).toEqual(wrongPassword.body);
    expect(wrongCode.body.code).toBe('LOGIN_CODE_FAILED');
    expect(await failures(account)).toBe(2);
    // The wrong password did not use up the step: the right pair still signs in.
    expect((await login({ account, password: PASSWORD, google_code: codeAt(7) })).status).toBe(200);
  });

  it('unbinds with a fresh code only, then signs in with the password alone', async () => {
    const { account, atStep, codeAt } = await boundAdmin();
    atStep(8);
    const token = (await login({ account, password: PASSWORD, google_code: codeAt(8) })).body.token as string;
    expect((await t.call('POST', '/api/v1/auth/google/unbind', { token, body: { code: codeAt(8) } })).status).toBe(422);
    atStep(9);
    expect((await t.call('POST', '/api/v1/auth/google/unbind', { token, body: { code: codeAt(9) } })).status).toBe(200);
    expect((await login({ account, password: PASSWORD })).status).toBe(200);
  });
});
