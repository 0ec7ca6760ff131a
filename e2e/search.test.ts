import { beforeAll, describe, expect, test } from 'vitest';
import { networkOf } from '@dau/domain';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { localPhone } from './support/bettors';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { until } from './support/ui';
import { shots } from './support/screens';

/**
 * Search everywhere in the browser (issue 29): Ctrl+K anywhere opens the dialog; a bettor is found by the
 * phone as a customer reads it out (0712 345 678), an order by its serial number and a withdrawal by the
 * mobile-money operator's reference; Enter opens each one's detail (the bettor's drawer on the user list,
 * the order's page, the withdrawal's drawer on the review list). Nothing found says so; Esc closes. (Each
 * kind's forms, the branch scope and the pages a role holds are held by apps/server/test/search.test.ts.)
 *
 * Data: no demo data, no simulator: a sandbox bettor with an open order (betting sandbox route), funded by
 * an admin correction, asks withdrawals (payments sandbox route) that the admin approves; the sandbox
 * operator pays them and gives its reference.
 */
const e2e = useE2e({ server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1', PAYMENTS_SANDBOX_SEED: '2026' } } });
let token = '';
/** Pay types of the mobile-money networks (the sandbox operators). */
const MOBILE = [3, 4, 6, 7];
const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, token);
let order: { id: number; serial_number: string; bettor_id: number; phone: string };
let paid: { id: number; serial_number: string; carrier_order_number: string };

beforeAll(async () => {
  token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  // A sandbox bettor's number is drawn: one of a network we pay out to (mobile money) is taken.
  let made: typeof order | undefined;
  for (let i = 0; i < 20 && !MOBILE.includes(networkOf(made?.phone ?? '')?.payType ?? 0); i++) {
    made = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 100_00 }), 201, 'sandbox order');
  }
  if (!made || !MOBILE.includes(networkOf(made.phone)?.payType ?? 0)) throw new Error('no sandbox bettor of a mobile-money network in 20');
  order = made;
  expectStatus(await api('POST', `/money/bettors/${order.bettor_id}/balance`, { amount: 100_000_00, remark: 'E2E search funds' }), 200, 'funding');
  const payType = networkOf(order.phone)!.payType;
  // Three withdrawals approved: the sandbox operator fails some payments; one it pays is enough.
  const asked: { id: number; serial_number: string }[] = [];
  for (const amount of [1_000_00, 1_100_00, 1_200_00]) {
    const w = expectStatus(await api('POST', '/sandbox/withdrawals', { bettor_id: order.bettor_id, pay_type: payType, amount }), 201, 'withdrawal request');
    expectStatus(await api('POST', `/money/withdrawals/${w.id}/approve`), 200, 'approval');
    asked.push(w);
  }
  paid = await until(async () => {
    for (const w of asked) {
      const row = expectStatus(await api('GET', `/money/withdrawals?serial_number=${w.serial_number}`), 200, 'withdrawal').items[0];
      if (row?.carrier_order_number) return row;
    }
    return null;
  }, 'a withdrawal paid with the operator reference');
});

describe('search everywhere', () => {
  test('Ctrl+K finds a bettor by a local phone, an order by serial and a withdrawal by operator reference; Enter opens each', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    const dialog = page.getByTestId('search-dialog');
    const input = page.getByTestId('search-input');
    /** Ctrl+K, the query typed, and the option that must come first once the results are in. */
    const find = async (q: string, option: string) => {
      await page.keyboard.press('Control+K');
      await input.waitFor({ state: 'visible' });
      await until(async () => input.evaluate((el) => el === document.activeElement), 'the search box focused');
      await input.fill(q);
      await page.getByTestId(option).waitFor({ state: 'visible' });
      await until(async () => (await page.getByTestId(option).getAttribute('data-active')) === 'true', `${option} highlighted`);
    };

    // A bettor by the phone as the customer reads it out: Enter opens the drawer on the user list.
    await find(localPhone(order.phone), `search-option-bettor-${order.bettor_id}`);
    await shots(page, 'search-01-bettor');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/customer\/user\?/);
    const drawer = page.locator('.ant-drawer:visible');
    await until(async () => (await drawer.innerText({ timeout: 5_000 })).includes(order.phone), 'the bettor drawer');
    expect(await dialog.isVisible()).toBe(false);
    // The drawer opened once: `open` has left the address.
    expect(page.url()).not.toContain('open=');
    await drawer.locator('.ant-drawer-close').click();

    // An order by its serial number, typed in lower case: Enter opens the order's page.
    await find(order.serial_number.toLowerCase(), `search-option-order-${order.id}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`#/customer/order_detailed\\?id=${order.id}$`));
    await until(async () => (await page.getByTestId('order-serial').innerText({ timeout: 5_000 })).includes(order.serial_number), 'the order page');

    // Nothing found says so, and Esc closes the dialog.
    await page.keyboard.press('Control+K');
    await input.fill('zz nothing like this');
    await page.getByTestId('search-empty').waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // A withdrawal by the operator's reference, through the top bar's box; the arrows move over the results.
    await page.getByTestId('search-box').click();
    await input.waitFor({ state: 'visible' });
    await input.fill(paid.carrier_order_number);
    const option = page.getByTestId(`search-option-withdrawal-${paid.id}`);
    await option.waitFor({ state: 'visible' });
    expect(await page.getByTestId('search-results').innerText()).toContain(paid.serial_number);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await until(async () => (await option.getAttribute('data-active')) === 'true', 'the withdrawal highlighted');
    await shots(page, 'search-02-withdrawal');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/customer\/withdraw_list\?/);
    await until(async () => (await page.locator('.ant-drawer:visible').innerText({ timeout: 5_000 })).includes(paid.carrier_order_number), 'the withdrawal drawer');

    expect(missingKeys(page)).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });
});
