import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { BILL_TYPE, formatTsh } from '@dau/domain';
import { captureFailure, CONTEXT_DEFAULTS, openMenuGroup, screenshot, UI_TIMEOUT, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { settled, until } from './support/ui';

/**
 * What an operator's walk through the console found, checked the way they saw it: at 1280 px and 390 px,
 * in en-US, sw-KE and zh-CN, with the browser in another time zone than the operator's.
 *
 * Data: demo data (bettors with bills, recharges, withdrawals), the sandbox feed's matches and an open
 * order on a 1X2 market from the betting sandbox route.
 */
const e2e = useE2e({ server: { demo: true, simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } } });
let token = '';
let order: { id: number; order_no: string };
const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, token);

beforeAll(async () => {
  token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  order = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 1_500_00 }), 201, 'sandbox order');
}, 120_000);

type Lang = 'en-US' | 'sw-KE' | 'zh-CN';
const contexts: BrowserContext[] = [];
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await captureFailure(contexts, ctx.task.name);
  await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => undefined)));
});


/**
 * A signed-in page at this width and language. The browser runs in New York time: every time on screen
 * must still be the operator's (Dar es Salaam unless they chose another zone).
 */
async function operator(width: number, lang: Lang = 'en-US'): Promise<{ page: Page; errors: string[] }> {
  const context = await e2e.browser.newContext({ ...CONTEXT_DEFAULTS, viewport: { width, height: 900 }, baseURL: e2e.server.baseUrl, locale: lang, timezoneId: 'America/New_York' });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(UI_TIMEOUT);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  // Which address a "Failed to load resource" was about.
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.request().method()} ${r.url()}`));
  await page.goto('/#/admin_login');
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
  await page.reload();
  await page.getByTestId('login-account').fill(ADMIN_ACCOUNT);
  await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  // Signed in once the landing screen is up: the console goes there itself after the sign-in, and a
  // navigation made before that would be overtaken by it.
  await page.waitForURL(/#\/customer\/[a-z_]+/);
  await page.getByTestId('page-title').waitFor({ state: 'visible' });
  return { page, errors };
}

async function open(page: Page, route: string) {
  await page.goto(`/#/customer/${route}`);
  await page.getByTestId('page-title').waitFor({ state: 'visible' });
  await settled(page);
  expect(page.url(), 'the screen asked for').toContain(`#/customer/${route}`);
}

/** Wall time of an instant in a zone, as the console writes it (YYYY-MM-DD HH:mm:ss). */
function wallTime(iso: string, zone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/**
 * Header cells of a table that the fixed Actions column covers or that lie beyond the table's visible
 * width (a clipped column), with the table scrolled to its start.
 */
async function coveredColumns(page: Page, table: string): Promise<string[]> {
  return page.getByTestId(table).evaluate((root) => {
    const content = root.querySelector('.ant-table-content, .ant-table-body') as HTMLElement | null;
    if (content) content.scrollLeft = 0;
    const box = (content ?? root).getBoundingClientRect();
    const heads = [...root.querySelectorAll('thead th')] as HTMLElement[];
    const fixed = heads.filter((th) => th.className.includes('ant-table-cell-fix'));
    const fixedLeft = Math.min(...fixed.filter((th) => th.getBoundingClientRect().left > box.left + 100).map((th) => th.getBoundingClientRect().left), box.right);
    return heads
      .filter((th) => !fixed.includes(th) && th.innerText.trim())
      .filter((th) => th.getBoundingClientRect().right > Math.min(fixedLeft, box.right) + 1)
      .map((th) => th.innerText.trim());
  });
}

describe('console walk-through defects', () => {
  test('lists fit 1280 px: no column under the Actions column; what identifies a row and its state shown', async () => {
    const { page, errors } = await operator(1280);
    // Per list, the columns an operator reads a row by: who, what, when, and its state.
    const lists: [string, string[]][] = [
      ['withdraw_list', ['Withdrawal status', 'Phone', 'Operator', 'Created']],
      ['match_list', ['Match status', 'Home team', 'Away team', 'League', 'Start time', 'Suspended']],
      ['bill', ['Phone', 'Bill type', 'Time']],
    ];
    for (const [route, identifying] of lists) {
      await open(page, route);
      await page.getByTestId('resource-table').locator('tbody tr.ant-table-row').first().waitFor();
      expect(await coveredColumns(page, 'resource-table'), route).toEqual([]);
      const heads = await page.getByTestId('resource-table').locator('thead th').allInnerTexts();
      for (const h of identifying) expect(heads, route).toContain(h);
      await screenshot(page, `defects-${route}-1280`);
    }
    // The order's selections: "Settled by" and the match time are not under the line actions.
    await open(page, `order_detailed?id=${order.id}`);
    await page.getByTestId('order-lines').locator('tbody tr.ant-table-row').first().waitFor();
    expect(await coveredColumns(page, 'order-lines')).toEqual([]);
    expect(errors).toEqual([]);
  });

  test("times are the operator's zone, chosen per admin, not the browser's", async () => {
    const { page, errors } = await operator(1280);
    const first = expectStatus(await api('GET', '/money/withdrawals?page_size=1&sort=-id'), 200, 'withdrawals').items[0];
    await open(page, 'withdraw_list');
    const row = page.getByTestId('resource-table').locator(`tr[data-row-key="${first.id}"]`);
    await until(async () => (await row.innerText()).includes(wallTime(first.create_time, 'Africa/Dar_es_Salaam')), 'the Dar es Salaam time in the list');

    // The live figures say which zone their "as of" is in.
    await open(page, 'today_statistics');
    await until(async () => (await page.getByTestId('today-live').innerText()).includes('Dar es Salaam (UTC+03:00)'), 'the zone of "as of"');

    // Another zone for this admin: every time follows, and it stays with the admin.
    const select = page.getByTestId('time-zone-select');
    await until(async () => {
      if (await select.isVisible()) return true;
      // The account dropdown, then its time zone item (again if the dropdown closed before the click landed).
      // Short clicks: the dialog (its code loads on first use) may open meanwhile and cover the menu button.
      if (!(await page.getByTestId('time-zone').isVisible())) await page.getByTestId('user-menu').click({ timeout: 2_000 }).catch(() => undefined);
      if (await select.isVisible()) return true;
      await page.getByTestId('time-zone').click({ timeout: 2_000 }).catch(() => undefined);
      return select.isVisible();
    }, 'the time zone dialog');
    await select.click();
    await page.keyboard.type('Asia/Dubai');
    await page.keyboard.press('Enter');
    await page.getByTestId('time-zone-save').click();
    await until(async () => (await page.getByTestId('today-live').innerText()).includes('Dubai (UTC+04:00)'), 'the new zone');
    expect(expectStatus(await api('GET', '/auth/preferences'), 200, 'preferences')).toEqual({ time_zone: 'Asia/Dubai' });
    await open(page, 'withdraw_list');
    await until(async () => (await row.innerText()).includes(wallTime(first.create_time, 'Asia/Dubai')), 'the Dubai time in the list');
    expectStatus(await api('PUT', '/auth/preferences', { time_zone: 'Africa/Dar_es_Salaam' }), 200, 'back to Dar es Salaam');
    expect(errors).toEqual([]);
  });

  test('GGR counts settled orders; open stakes and liability beside it', async () => {
    const { page, errors } = await operator(1280);
    const today = expectStatus(await api('GET', '/statistics/today'), 200, 'today');
    expect(today.open.open_stakes).toBeGreaterThanOrEqual(1_500_00);
    await open(page, 'today_statistics');
    await until(async () => (await page.getByTestId('figure-open_stakes').innerText()).includes(formatTsh(today.open.open_stakes, 'en-US')), 'the open stakes');
    expect(await page.getByTestId('figure-open_liability').innerText()).toContain('Open liability');
    expect(await page.getByTestId('figure-ggr').innerText()).toContain('of settled stakes');
    expect(errors).toEqual([]);
  });

  test('order details: breadcrumb through the list, its menu item highlighted; zh-CN market names', async () => {
    const { page, errors } = await operator(1280);
    await open(page, `order_list?id=${order.id}`);
    await page.getByTestId(`order-detail-${order.id}`).click();
    await page.getByTestId('order-title').waitFor();
    expect(await page.getByTestId('breadcrumb-parent').innerText()).toBe('Bet orders');
    expect(await page.locator('.dau-side-menu .ant-menu-item-selected').innerText()).toBe('Bet orders');

    const zh = await operator(1280, 'zh-CN');
    await open(zh.page, `order_detailed?id=${order.id}`);
    const lines = zh.page.getByTestId('order-lines');
    await lines.locator('tbody tr.ant-table-row').first().waitFor();
    expect(await lines.innerText()).toContain('胜平负');
    expect(await lines.innerText()).not.toContain('1X2');
    await screenshot(zh.page, 'defects-order-detail-zh-CN');
    // The live ticker of the landing page names the market in the operator's language too.
    await open(zh.page, 'today_statistics');
    const ticked = zh.page.getByTestId('bet-ticker').getByTestId(`ticker-order-${order.id}`);
    await ticked.waitFor({ state: 'visible' });
    expect(await ticked.innerText()).toContain('胜平负');
    expect(await ticked.innerText()).not.toContain('1X2');
    expect([...errors, ...zh.errors]).toEqual([]);
  });

  test("a bill's drawer links to what caused it: the order, the withdrawal", async () => {
    const { page, errors } = await operator(1280);
    const bills = expectStatus(await api('GET', `/money/bills?bettor_id=${order.bettor_id}&page_size=50`), 200, 'bills').items as { id: number; cause_type: string; cause_id: string }[];
    const bet = bills.find((b) => b.cause_type === 'order' && b.cause_id === String(order.id));
    expect(bet, 'the stake bill of the sandbox order').toBeDefined();
    await open(page, `bill?bettor_id=${order.bettor_id}`);
    await page.getByTestId(`row-view-${bet!.id}`).click();
    const drawer = page.getByTestId('resource-detail');
    await drawer.waitFor({ state: 'visible' });
    await drawer.getByTestId('bill-cause-link').click();
    await page.waitForURL(new RegExp(`#/customer/order_detailed\\?id=${order.id}$`));
    await page.getByTestId('order-title').waitFor();

    // A withdrawal's bill (demo data) links to that withdrawal: the list shows it, and only it.
    const paid = expectStatus(await api('GET', `/money/bills?type=${BILL_TYPE.user_withdrawal}&page_size=1`), 200, 'withdrawal bills').items[0] as { id: number; bettor_id: number; cause_type: string; cause_id: string };
    expect(paid?.cause_type, 'a withdrawal bill in the demo data').toBe('withdrawal');
    await open(page, `bill?bettor_id=${paid.bettor_id}`);
    await page.getByTestId(`row-view-${paid.id}`).click();
    await page.getByTestId('resource-detail').getByTestId('bill-cause-link').click();
    await page.waitForURL(new RegExp(`#/customer/withdraw_list\\?id=${paid.cause_id}$`));
    await settled(page);
    const rows = page.getByTestId('resource-table').locator('tbody tr.ant-table-row');
    await until(async () => (await rows.count()) === 1 && (await rows.first().getAttribute('data-row-key')) === paid.cause_id, 'the one withdrawal');
    expect(errors).toEqual([]);
  });

  test('match statistics filters sit on one row like every list; the match drawer names the league once', async () => {
    const { page, errors } = await operator(1280);
    await open(page, 'match_statistics');
    const filters = page.getByTestId('match-filters');
    await filters.waitFor({ state: 'visible' });
    expect(await filters.locator('.ant-form-item-label').count()).toBe(3);
    // One row: the fields and the buttons end on the same line (the row aligns its columns at the bottom).
    const bottoms = await filters.locator(':scope > .ant-row > .ant-col').evaluateAll((cols) => cols.map((c) => Math.round(c.getBoundingClientRect().bottom)));
    expect(new Set(bottoms).size, `rows of the filter bar: ${bottoms}`).toBe(1);

    await open(page, 'match_list');
    const view = page.locator('[data-testid^="row-view-"]').first();
    await view.click();
    const drawer = page.getByTestId('resource-detail');
    await drawer.waitFor();
    const labels = await drawer.locator('.ant-descriptions-item-label').allInnerTexts();
    expect(labels.filter((l) => l.trim() === 'League')).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  test('sw-KE: every menu label is readable in the 210 px menu; exports are headed in Swahili', async () => {
    const { page, errors } = await operator(1280, 'sw-KE');
    const sider = page.locator('.ant-layout-sider');
    expect(Math.round((await sider.boundingBox())!.width)).toBe(210);
    for (const group of await page.locator('[data-testid^="menu-group-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('menu-group-'.length)))) {
      await openMenuGroup(page, group);
    }
    const cut = await page.locator('.dau-side-menu .ant-menu-title-content').evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1 || (e.firstElementChild && (e.firstElementChild as HTMLElement).scrollWidth > (e.firstElementChild as HTMLElement).clientWidth + 1)).map((e) => (e as HTMLElement).innerText),
    );
    expect(cut).toEqual([]);
    await screenshot(page, 'defects-menu-sw-KE');

    await open(page, 'withdraw_list');
    const request = page.waitForRequest((r) => r.url().endsWith('/api/v1/exports') && r.method() === 'POST');
    await page.getByTestId('export-async').click();
    await page.getByTestId('export-async-csv').click();
    const body = (await request).postDataJSON() as { labels?: Record<string, string> };
    expect(body.labels?.serial_number).toBe('Namba ya muamala');
    expect(body.labels?.create_time).toBe('Iliundwa');
    expect(errors).toEqual([]);
  });

  test('390 px: the filter form starts folded, one toggle away', async () => {
    const { page, errors } = await operator(390);
    await open(page, 'withdraw_list');
    const search = page.getByTestId('resource-search');
    await search.waitFor({ state: 'visible' });
    const visibleFields = () => search.locator('.ant-form-item:visible').filter({ has: page.locator('.ant-form-item-label') }).count();
    expect(await visibleFields()).toBeGreaterThanOrEqual(1);
    expect(await visibleFields()).toBeLessThanOrEqual(2);
    await screenshot(page, 'defects-withdraw_list-390');
    // Nothing on the screen is wider than the phone (the quick-filter views scroll inside their own row).
    await page.getByTestId('resource-quick-filters').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the page is no wider than the phone').toBeLessThanOrEqual(390);
    await page.getByTestId('resource-search-more').click();
    await until(async () => (await visibleFields()) > 4, 'every filter after the toggle');
    expect(errors).toEqual([]);
  });
});
