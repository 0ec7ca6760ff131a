import { describe, expect, test } from 'vitest';
import { authenticator } from 'otplib';
import { logOf, missingKeys, screenshot, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, STAFF_PASSWORD, expectStatus } from './support/server';
import { until } from './support/ui';

/** The public pages: sign-in (with its Google step), forgotten password, registration, maintenance. */
const e2e = useE2e();

describe('login', () => {
  test('an empty form asks for the username and the password', async () => {
    const page = await e2e.newPage();
    await page.goto('/#/admin_login');
    await page.getByTestId('login-submit').click();
    const errors = page.locator('.ant-form-item-explain-error');
    await errors.filter({ hasText: 'Please input Username' }).waitFor({ state: 'visible' });
    await errors.filter({ hasText: 'Please enter password' }).waitFor({ state: 'visible' });
    expect(page.url()).toMatch(/#\/admin_login$/);
    await expect(page.evaluate(() => localStorage.getItem('token'))).resolves.toBeNull();
    await screenshot(page, 'login-empty');
  });

  test('a wrong password says "Login failed" and stays on the sign-in page', async () => {
    const page = await e2e.newPage();
    await page.goto('/#/admin_login');
    await page.getByTestId('login-account').fill(ADMIN_ACCOUNT);
    await page.getByTestId('login-password').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    const error = page.getByTestId('login-error');
    await error.waitFor({ state: 'visible' });
    await expect(error.innerText()).resolves.toContain('Login failed');
    expect(page.url()).toMatch(/#\/admin_login$/);
    expect(await page.getByTestId('side-menu').count()).toBe(0);
    await screenshot(page, 'login-failed');

    // The right password then signs in.
    await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/#\/customer\//);
    await page.getByTestId('side-menu').waitFor({ state: 'visible' });
  });

  test('an admin with Google bound gets the code step, and the right code signs in', { timeout: 120_000 }, async () => {
    const { server } = e2e;
    const root = await server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    const roles = expectStatus(await server.api('GET', '/system/roles/options', undefined, root), 200, 'role options');
    const roleId = roles.items.find((r: { name: string }) => r.name === 'Default')?.id;
    expect(roleId, 'the seeded Default role').toBeTruthy();
    expectStatus(await server.api('POST', '/system/administrators', { account: 'googler', password: STAFF_PASSWORD, role_id: roleId }, root), 201, 'create admin');
    const own = await server.loginApi('googler', STAFF_PASSWORD);
    const setup = expectStatus(await server.api('POST', '/auth/google/setup', undefined, own), 200, 'google setup');
    expect(setup.secret).toMatch(/^[A-Z2-7]+$/);
    expectStatus(await server.api('POST', '/auth/google/bind', { code: authenticator.generate(setup.secret) }, own), 200, 'google bind');
    // A code works once: the binding used this 30 s step's code, the sign-in needs a later one.
    const bindStep = Math.floor(Date.now() / 30_000);
    // The API now wants the code.
    expect((await server.api('POST', '/auth/login', { account: 'googler', password: STAFF_PASSWORD })).body.code).toBe('GOOGLE_CODE_REQUIRED');

    const page = await e2e.newPage();
    await page.goto('/#/admin_login');
    await page.getByTestId('login-account').fill('googler');
    await page.getByTestId('login-password').fill(STAFF_PASSWORD);
    await page.getByTestId('login-submit').click();
    const code = page.getByTestId('login-google-code');
    await code.waitFor({ state: 'visible' });
    expect(page.url()).toMatch(/#\/admin_login$/);
    await screenshot(page, 'login-google-step');

    // A wrong code is refused under the input.
    const valid = authenticator.generate(setup.secret);
    const wrong = String((Number(valid) + 500_000) % 1_000_000).padStart(6, '0');
    await code.fill(wrong);
    await page.getByTestId('login-submit').click();
    await page.locator('.ant-form-item-explain-error', { hasText: 'The Google verification code is wrong' }).waitFor({ state: 'visible' });
    expect(page.url()).toMatch(/#\/admin_login$/);

    await until(() => Math.floor(Date.now() / 30_000) > bindStep, 'the next Google code step', 35_000);
    await code.fill(authenticator.generate(setup.secret));
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/#\/customer\//);
    await page.getByTestId('side-menu').waitFor({ state: 'visible' });
    await until(async () => (await page.evaluate(() => localStorage.getItem('token'))) !== null, 'a stored session');
    expect(logOf(page).pageErrors).toEqual([]);
  });

  test('"forgot password" tells to contact an administrator', async () => {
    const page = await e2e.newPage();
    await page.goto('/#/admin_login');
    await page.getByTestId('login-forgot').click();
    const box = page.locator('.ant-modal:visible');
    await box.waitFor();
    await expect(box.innerText()).resolves.toContain('Please contact an administrator to reset your password');
    await box.getByRole('button', { name: 'OK' }).click();
    await box.waitFor({ state: 'hidden' });
  });

  test('registration says it is disabled', async () => {
    const page = await e2e.newPage();
    await page.goto('/#/admin_register');
    const disabled = page.getByTestId('register-disabled');
    await disabled.waitFor({ state: 'visible' });
    const text = await disabled.innerText();
    expect(text).toContain('Registration is disabled');
    expect(text).toContain('Ask an administrator for an account');
    expect(await page.getByTestId('register-account').count()).toBe(0);
    // The registration endpoint refuses too.
    const r = await e2e.server.api('POST', '/auth/register', { account: 'walkin', password: STAFF_PASSWORD, confirm_password: STAFF_PASSWORD });
    expect(r.status).toBe(403);
    await page.getByTestId('register-back').click();
    await page.waitForURL(/#\/admin_login$/);
  });

  test('a language saved by another tab while this one starts: this tab starts in the language it loaded', async () => {
    const page = await e2e.newPage();
    // The console renders once the start language's catalogues (its en-US-*.js chunks) arrive: hold them
    // until another tab of the same browser has saved Chinese.
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/en-US-[^/]+\.js$/, async (route) => {
      arrived();
      await released;
      await route.continue();
    });
    await page.goto('/#/admin_login', { waitUntil: 'domcontentloaded' });
    await held;
    await page.evaluate(() => localStorage.setItem('language', 'zh-CN'));
    release();
    const submit = page.getByTestId('login-submit');
    await submit.waitFor({ state: 'visible' });
    expect(await submit.innerText()).toContain('Sign in');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    expect(missingKeys(page)).toEqual([]);
    // The next start reads the new choice.
    await page.unroute(/\/assets\/en-US-[^/]+\.js$/);
    await page.reload();
    await until(async () => (await page.evaluate(() => document.documentElement.lang)) === 'zh-CN', 'the Chinese start');
    await until(async () => /[\u4e00-\u9fff]/.test(await submit.innerText()), 'the Chinese sign-in button');
    expect(missingKeys(page)).toEqual([]);
  });

  test('the maintenance page shows the maintenance message', async () => {
    const page = await e2e.newPage();
    await page.goto('/#/maintain');
    const box = page.getByTestId('maintain');
    await box.waitFor({ state: 'visible' });
    await expect(box.innerText()).resolves.toContain('The site is under maintenance. Recovery will be announced in the group chat.');
    await screenshot(page, 'maintain');
  });
});
