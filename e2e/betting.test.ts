import zlib from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ORDER_TYPE, formatTsh } from '@dau/domain';
import { logOf, missingKeys, screenshot, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { openScreen, setTheme, shot, shots } from './support/screens';
import { dialog, field, rowByKey, settled, toastAfter, until } from './support/ui';

/**
 * Issue 5 in the browser: an operator finds an order on the order list by its number, opens its details,
 * changes a selection's result with a reason, reads the preview (payout, tax, balance change), confirms,
 * and sees the new payout, the bills the settlement caused and the history entry with the reason.
 *
 * Data: the server starts without demo data, with the sandbox-only routes (DAU_SANDBOX_ROUTES=1); the
 * betting sandbox route creates a match through the feed engine, a bettor funded through the ledger and an
 * open single on the home win (POST /sandbox/betting/orders).
 */
const e2e = useE2e({ server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } } });
let adminToken = '';
const STAKE = 1_000_00;
let order: { id: number; order_no: string; serial_number: string; bettor_id: number; phone: string };

const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, adminToken);

beforeAll(async () => {
  adminToken = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  order = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: STAKE }), 201, 'sandbox order');
  expect(order.order_no).toMatch(/^O/);
});


describe('betting screens', () => {
  test('an operator changes a selection result with a reason: preview, confirm, new payout, bills and history', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // Bet orders: a filter first, then the order by its number, and its details.
    await openScreen(page, 'order_list', 'Bet orders');
    const search = page.getByTestId('resource-search');
    await field(search, 'Order number').fill(order.order_no);
    await page.getByTestId('resource-search-submit').click();
    await page.waitForURL(new RegExp(`order_no=${order.order_no}`));
    await settled(page);
    const row = rowByKey(page, order.id);
    await row.waitFor({ state: 'visible' });
    await page.getByTestId(`order-detail-${order.id}`).click();
    await page.waitForURL(new RegExp(`/customer/order_detailed\\?id=${order.id}$`));
    await until(async () => (await page.getByTestId('order-title').innerText()).includes(order.order_no), 'the order detail');
    await settled(page);

    const detail = expectStatus(await api('GET', `/betting/orders/${order.id}`), 200, 'order detail');
    const line = detail.lines[0];
    expect(await page.getByTestId('order-status').innerText()).toBe('Pending');
    expect((await page.getByTestId('order-detail').innerText())).toContain(order.serial_number);
    expect(await page.getByTestId('order-lines').innerText()).toContain(line.teams_home_name);
    expect(await page.getByTestId('order-history').innerText()).toContain('Placed');
    // The stake's bill is there already.
    expect(await page.getByTestId('order-bills').locator('tr.ant-table-row').count()).toBe(1);

    // Copy serial number.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await toastAfter(page, 'Copied successfully', () => page.getByTestId('order-serial').locator('.ant-typography-copy').click());

    await shots(page, 'betting-01-order-detail');

    // Change result: the result and the reason are required; the preview comes first.
    await page.getByTestId(`line-change-result-${line.id}`).click();
    const change = dialog(page, 'Change result');
    await change.waitFor();
    await change.getByTestId('change-preview-submit').click();
    await until(async () => (await change.innerText()).includes('A result must be selected') && (await change.innerText()).includes('Please enter a reason'), 'the required messages');

    const reason = `E2E: the home side won ${Date.now()}`;
    // The dropdown opens with an animation: choose again until the select shows the choice.
    await until(async () => {
      const select = change.getByTestId('change-result');
      if ((await select.innerText()).trim() === 'Won') return true;
      await select.click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^Won$/ }).click({ timeout: 3_000 });
      return (await select.innerText()).trim() === 'Won';
    }, 'Won chosen');
    await change.getByTestId('change-reason').fill(reason);
    await change.getByTestId('change-preview-submit').click();
    const preview = change.getByTestId('change-preview');
    await until(async () => (await preview.isVisible()) || `dialog: ${await change.innerText()}`.includes('never'), 'the preview', 15_000).catch(async (e) => {
      throw new Error(`${e instanceof Error ? e.message : e}; dialog: ${await change.innerText()}; toasts: ${await page.locator('.ant-message').innerText().catch(() => '')}`);
    });

    // payout = stake x odds (rounded down to the cent); tax 10 % of the net winnings.
    const payout = Math.floor((STAKE * Math.round(Number(line.odds) * 10_000)) / 10_000);
    const tax = Math.floor(((payout - STAKE) * 1000) / 10_000);
    const previewPayout = await change.getByTestId(`preview-payout-${order.id}`).innerText();
    expect(previewPayout).toContain(formatTsh(0));
    expect(previewPayout).toContain(formatTsh(payout));
    const previewText = await preview.innerText();
    expect(previewText).toContain(order.order_no);
    expect(previewText).toContain(formatTsh(tax));
    expect(previewText).toContain(`+${formatTsh(payout - tax)}`);
    expect(await change.getByTestId('change-preview-totals').innerText()).toContain('1 order(s)');
    // Nothing has changed yet.
    expect(expectStatus(await api('GET', `/betting/orders/${order.id}`), 200, 'order after the preview').order.payout).toBe(0);

    await shots(page, 'betting-02-result-preview');

    await toastAfter(page, 'Result changed on 1 order(s)', () => change.getByTestId('change-confirm').click());
    await change.waitFor({ state: 'hidden' });

    // The new payout, status, line result, bills and history entry.
    await until(async () => (await page.getByTestId('order-payout').innerText()) === formatTsh(payout), 'the new payout');
    expect(await page.getByTestId('order-status').innerText()).toBe('Settled');
    expect(await page.getByTestId(`line-status-${line.id}`).innerText()).toBe('Won');
    await until(async () => (await page.getByTestId('order-bills').locator('tr.ant-table-row').count()) >= 2, 'the settlement bill');
    expect(await page.getByTestId('order-bills').innerText()).toContain(formatTsh(payout - tax));
    const history = page.getByTestId('history-result_changed');
    await history.waitFor();
    const historyText = await history.innerText();
    expect(historyText).toContain('Result changed');
    expect(historyText).toContain(reason);
    expect(historyText).toContain('by admin');
    expect(historyText).toContain(formatTsh(payout));
    await shot(page, 'betting-03-order-settled');

    const after = expectStatus(await api('GET', `/betting/orders/${order.id}`), 200, 'order after the change');
    expect(after.order.payout).toBe(payout);
    expect(after.order.tax_deduction_amount).toBe(tax);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});

describe('betting screens: cancel, customer service, random bets, the bettor\'s bets', () => {
  test('cancel with a preview; the customer-service detail is read-only; random bets; the user\'s Bets tab', async () => {
    const second = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 2_000_00 }), 201, 'second sandbox order');
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // Cancel: reason required, preview (the stake comes back), confirm.
    await page.goto(`/#/customer/order_detailed?id=${second.id}`);
    await until(async () => (await page.getByTestId('order-title').innerText()).includes(second.order_no), 'the second order');
    await settled(page);
    await page.getByTestId('order-cancel').click();
    const cancel = dialog(page, `Cancel order ${second.order_no}`);
    await cancel.waitFor();
    await cancel.getByTestId('change-preview-submit').click();
    await until(async () => (await cancel.innerText()).includes('Please enter a reason'), 'the reason is required');
    await cancel.getByTestId('change-reason').fill('E2E: placed by mistake');
    await cancel.getByTestId('change-preview-submit').click();
    await cancel.getByTestId('change-preview').waitFor();
    expect(await cancel.getByTestId(`preview-payout-${second.id}`).innerText()).toContain(formatTsh(2_000_00));
    await toastAfter(page, 'Order cancelled', () => cancel.getByTestId('change-confirm').click());
    await until(async () => (await page.getByTestId('order-payout').innerText()) === formatTsh(2_000_00), 'the refunded stake as payout');
    expect(await page.getByTestId('history-cancelled').innerText()).toContain('E2E: placed by mistake');
    // The refund is bill 8 "Amount rolled back", its remark in the operator's language with the typed reason after it (issue 23).
    const orderBills = page.getByTestId('order-bills');
    await until(async () => (await orderBills.innerText()).includes(`Order ${second.order_no}: cancelled — E2E: placed by mistake`), 'the refund bill\'s remark');
    expect(await orderBills.innerText()).toContain('Amount rolled back');
    expect(await orderBills.innerText()).toContain(`Stake of order ${second.order_no}`);
    await page.evaluate(() => localStorage.setItem('language', 'sw-KE'));
    await page.reload();
    await until(async () => (await page.getByTestId('order-bills').innerText()).includes(`Oda ${second.order_no}: imeghairiwa — E2E: placed by mistake`), 'the remark in Swahili');
    expect(await page.getByTestId('order-bills').innerText()).toContain('Kiasi kilichorejeshwa');
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    await page.reload();
    await until(async () => (await page.getByTestId('order-bills').innerText()).includes('Amount rolled back'), 'back in English');

    // Customer service: the same order, read-only.
    await page.goto(`/#/customer/cs_order_detailed?id=${second.id}`);
    await until(async () => (await page.getByTestId('order-title').innerText()).includes(second.order_no), 'the cs order detail');
    await settled(page);
    expect(await page.getByTestId('order-detail').innerText()).toContain('Read-only');
    expect(await page.getByTestId('order-cancel').count()).toBe(0);
    expect(await page.locator('[data-testid^="line-change-"]').count()).toBe(0);

    // Random bets for the first order's bettor on a match open to random betting.
    const detail = expectStatus(await api('GET', `/betting/orders/${second.id}`), 200, 'second order');
    expectStatus(await api('POST', `/sports/matches/${encodeURIComponent(detail.lines[0].match_id)}/random-bet`, { random_bet: true }), 200, 'random betting on');
    // A bettor with an open order, to bet for and to look at.
    const third = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 1_500_00 }), 201, 'third sandbox order');

    // Match statistics: an open match has no GGR yet, its stakes stand open beside it (issue 23: GGR read the turnover).
    const eventId = expectStatus(await api('GET', `/betting/orders/${third.id}`), 200, 'third order').lines[0].match_id as string;
    const stats = expectStatus(await api('GET', `/statistics/matches?event_id=${encodeURIComponent(eventId)}`), 200, 'match statistics').items[0];
    expect(stats).toMatchObject({ settled_stake: 0, ggr: 0, open_stakes: stats.turnover });
    expect(stats.open_stakes).toBeGreaterThanOrEqual(1_500_00);
    await page.goto(`/#/customer/match_statistics?event_id=${encodeURIComponent(eventId)}`);
    const matchRow = page.getByTestId('match-table').locator(`tr.ant-table-row[data-row-key="${eventId}"]`);
    await until(async () => (await matchRow.count()) === 1 && (await matchRow.innerText()).includes(formatTsh(stats.open_stakes)), 'the match with its open stakes');
    const head = await page.getByTestId('match-table').locator('thead').innerText();
    expect(head).toContain('GGR');
    expect(head).toContain('Open stakes');
    const cells = await matchRow.locator('td').allInnerTexts();
    const column = async (title: string) => (await page.getByTestId('match-table').locator('thead th').allInnerTexts()).findIndex((h) => h.trim() === title);
    expect(cells[await column('GGR')]).toBe(formatTsh(0));
    expect(cells[await column('Open stakes')]).toBe(formatTsh(stats.open_stakes));
    await openScreen(page, 'order_list', 'Bet orders');
    await page.getByTestId('random-bet-open').click();
    const random = dialog(page, 'Random bets');
    await random.waitFor();
    const bettors = random.getByTestId('random-bet-bettors').locator('input');
    await bettors.fill(String(third.bettor_id));
    await bettors.press('Enter');
    // Two orders for the one bettor (stakes 1,000 to 5,000 TSh out of a 50,000 TSh sandbox balance): both placed.
    await field(random, 'Orders per bettor').fill('2');
    await random.getByTestId('random-bet-submit').click();
    await until(async () => /\d+ bet\(s\) placed, \d+ refused/.test(await random.getByTestId('random-bet-result').innerText()), 'the random bets result');
    const placedText = await random.getByTestId('random-bet-result').innerText();
    expect(placedText.trim()).toBe('2 bet(s) placed, 0 refused');
    const randomOrders = expectStatus(await api('GET', `/betting/orders?bettor_id=${third.bettor_id}&page_size=50`), 200, 'the bettor\'s orders');
    expect(randomOrders.items.filter((o: { type: number }) => o.type === ORDER_TYPE.random_bet)).toHaveLength(2);
    await screenshot(page, 'betting-04-random-bets');
    await random.locator('.ant-modal-close').click();

    // The bettor's bets on the user's detail: Open and Settled.
    await openScreen(page, 'user', 'User management');
    await field(page.getByTestId('resource-search'), 'Phone').fill(third.phone);
    await page.getByTestId('resource-search-submit').click();
    await settled(page);
    const userRow = rowByKey(page, third.bettor_id);
    await userRow.waitFor({ state: 'visible' });
    await page.getByTestId(`row-view-${third.bettor_id}`).click();
    const drawer = page.getByTestId('resource-detail');
    await drawer.waitFor();
    await drawer.getByRole('tab', { name: 'Bets' }).click();
    const bets = drawer.getByTestId('user-bets');
    await until(async () => (await bets.innerText()).includes(third.order_no), 'the open bet in the Bets tab');
    expect(await bets.innerText()).toContain(third.serial_number);
    await bets.getByRole('tab', { name: 'Settled' }).click();
    await settled(page);
    expect(await bets.innerText()).not.toContain(third.order_no);
    await screenshot(page, 'betting-05-user-bets');
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});

/**
 * Issue 11: what the console makes a browser download, in gzip bytes of its JS and CSS (the server sends
 * them uncompressed: each body is gzipped here, as `bench/console-bundle.ts` does from the build). Sizes,
 * not timings. The sign-in page stays within the 300 KB. The landing page after sign-in (today's
 * statistics, opened afresh by a signed-in admin on a 1280×900 screen) was 795 KB; as first seen, until
 * its figures show, it stays within the 500 KB (359 KB measured): ECharts (183 KB) is fetched by
 * the charts once they are near the viewport and the browser is idle after showing the figures, so it is
 * held back here until the figures are on screen. The complete page with its charts (542 KB measured) was
 * held at 550 KB so that the gain does not creep back; issue 29 moved the console's messages (6 KB) from
 * the sign-in page to the shell and added the tabs and the search box to it: 557 KB measured, held at
 * 565 KB. On a phone the charts are far below the figures and load only when scrolled to.
 */
const LOGIN_LIMIT = 300_000;
const LANDING_FIRST_SEEN_LIMIT = 500_000;
const LANDING_COMPLETE_LIMIT = 565_000;
const ECHARTS_CHUNK = /\/assets\/echarts-[^/]+\.js$/;

/** Pixels a chart has drawn on its canvas (none when ECharts lacks the chart or component it is given). */
const drawnPixels = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .locator('canvas')
    .first()
    .evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
      return n;
    });

/** Scrolls to each chart of the screen and waits until it has drawn (axes, legend, bars and lines). */
async function chartsDrawn(page: Page, what: string) {
  // Thousands of pixels (none if the charts were not registered); the cash chart of this test's day has
  // no deposit or withdrawal, only its axes and legend.
  for (const [chart, pixels] of [['chart-money', 5_000], ['chart-activity', 5_000], ['chart-cash', 500]] as const) {
    const box = page.getByTestId(chart);
    if ((await box.count()) === 0) continue;
    await box.scrollIntoViewIfNeeded();
    await box.locator('canvas').waitFor({ state: 'visible' });
    await until(async () => (await drawnPixels(page, chart)) > pixels, `${what}: ${chart} drawn`);
  }
}

function downloads(page: Page) {
  const sizes = new Map<string, Promise<number>>();
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (/\.(js|css)$/.test(path) && !sizes.has(path)) sizes.set(path, r.body().then((b) => zlib.gzipSync(b).length));
  });
  return async () => {
    const each = await Promise.all([...sizes].map(async ([path, gzip]) => ({ path, gzip: await gzip })));
    return { files: each.length, gzip: each.reduce((sum, f) => sum + f.gzip, 0), each };
  };
}

/** A page of a fresh context signed in as the admin of `session` (nothing cached), at the given size. */
async function signedInPage(session: Record<string, string>, width: number, height: number) {
  const page = await e2e.newPage();
  await page.setViewportSize({ width, height });
  await page.context().addInitScript((s: Record<string, string>) => {
    for (const [k, v] of Object.entries(s)) localStorage.setItem(k, v);
  }, session);
  return page;
}

const figuresShown = (page: Page) =>
  until(async () => /TSh/.test(await page.getByTestId('figure-turnover').innerText()), 'today\'s figures shown');

describe('console bundle', () => {
  test('the sign-in page loads at most 300 KB gzip of JS and CSS, the landing page at most 500 KB until its figures show and ECharts only for charts near the viewport; the charts draw in both themes; texts load per language', async () => {
    const page = await e2e.newPage();
    const login = downloads(page);
    await page.goto('/#/admin_login');
    await page.getByTestId('login-submit').waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    const atLogin = await login();
    console.info(`console bundle: login ${atLogin.files} files, ${(atLogin.gzip / 1000).toFixed(1)} KB gzip`);
    expect(atLogin.gzip, `login page: ${JSON.stringify(atLogin.each)}`).toBeLessThanOrEqual(LOGIN_LIMIT);

    // A signed-in admin opens the console afresh on a 1280×900 screen. ECharts' chunk is held back: the
    // figures must show without it, and what has been downloaded by then is the page as first seen.
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    const session = await page.evaluate(() => ({ ...localStorage }));
    const landingPage = await signedInPage(session, 1280, 900);
    const landing = downloads(landingPage);
    let releaseCharts!: () => void;
    const chartsHeld = new Promise<void>((resolve) => (releaseCharts = resolve));
    let chartsAsked = false;
    await landingPage.route(ECHARTS_CHUNK, async (route) => {
      chartsAsked = true;
      await chartsHeld;
      await route.continue();
    });
    await landingPage.goto('/#/customer');
    await landingPage.waitForURL(/#\/customer\/today_statistics/);
    await figuresShown(landingPage);
    await landingPage.getByTestId('bet-ticker').getByTestId(`ticker-order-${order.id}`).waitFor({ state: 'visible' });
    // Until ECharts arrives a chart is a box of its size that says it is loading.
    expect(await landingPage.getByTestId('chart-money').getAttribute('aria-busy')).toBe('true');
    expect(await landingPage.getByTestId('chart-money').getByRole('status').innerText()).toBe('Loading the chart…');
    const firstSeen = await landing();
    console.info(`console bundle: landing as first seen ${firstSeen.files} files, ${(firstSeen.gzip / 1000).toFixed(1)} KB gzip`);
    expect(firstSeen.each.some((f) => ECHARTS_CHUNK.test(f.path)), 'the figures show without ECharts').toBe(false);
    expect(firstSeen.gzip, `landing page as first seen: ${JSON.stringify(firstSeen.each)}`).toBeLessThanOrEqual(LANDING_FIRST_SEEN_LIMIT);
    // On this screen the charts' top edge is in the first screen: they ask for ECharts right after the figures.
    await until(async () => chartsAsked, 'the charts ask for ECharts after the figures');
    releaseCharts();
    await landingPage.getByTestId('chart-money').locator('canvas').waitFor({ state: 'visible' });
    await until(async () => (await drawnPixels(landingPage, 'chart-money')) > 5_000, 'the money chart drawn');
    await landingPage.waitForLoadState('networkidle');
    const complete = await landing();
    console.info(`console bundle: landing complete ${complete.files} files, ${(complete.gzip / 1000).toFixed(1)} KB gzip`);
    expect(complete.each.some((f) => ECHARTS_CHUNK.test(f.path)), 'the charts\' code is counted').toBe(true);
    expect(complete.gzip, `landing page complete: ${JSON.stringify(complete.each)}`).toBeLessThanOrEqual(LANDING_COMPLETE_LIMIT);

    // On a phone (390 px) the charts are below the seventeen figures: no ECharts until one is scrolled to.
    const phone = await signedInPage(session, 390, 844);
    const onPhone = downloads(phone);
    await phone.goto('/#/customer/today_statistics');
    await figuresShown(phone);
    for (const chart of ['chart-money', 'chart-activity', 'chart-cash']) {
      expect(await phone.getByTestId(chart).getAttribute('data-chart-state'), `${chart} waits to be near`).toBe('waiting');
    }
    expect((await onPhone()).each.some((f) => ECHARTS_CHUNK.test(f.path)), 'no ECharts before a chart is near').toBe(false);
    await chartsDrawn(phone, 'phone, scrolled to');
    expect((await onPhone()).each.some((f) => ECHARTS_CHUNK.test(f.path)), 'ECharts once scrolled to').toBe(true);

    // The charts (ECharts from echarts/core with the bar and line charts only) draw in both themes, at
    // 1280 px and on the phone.
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(landingPage, theme);
      for (const route of ['today_statistics', 'history_statistics'] as const) {
        await landingPage.goto(`/#/customer/${route}`);
        await chartsDrawn(landingPage, `${route} (${theme})`);
        await settled(landingPage);
        await shot(landingPage, `bundle-${route}-${theme}`);
      }
      await phone.reload();
      await figuresShown(phone);
      await setTheme(phone, theme);
      await chartsDrawn(phone, `phone (${theme})`);
      await settled(phone);
      await shot(phone, `bundle-today_statistics-390-${theme}`);
    }

    // Texts load per language: a switch first fetches the new language's texts of the screens in use, a
    // reload in the saved language fetches them before the first render; no key is ever missing.
    const swahili = async (what: string) => {
      await until(async () => (await landingPage.getByTestId('page-title').innerText()) === 'Takwimu za leo', `${what}: the Swahili page title`);
      await until(async () => (await landingPage.getByTestId('today-live').innerText()).includes('Moja kwa moja'), `${what}: the Swahili live badge`);
    };
    await landingPage.goto('/#/customer/today_statistics');
    await landingPage.getByTestId('chart-money').locator('canvas').waitFor({ state: 'visible' });
    await landingPage.getByTestId('language-switch').click();
    await landingPage.getByTestId('language-option-sw-KE').click();
    await swahili('after the switch');
    await landingPage.reload();
    await swahili('after a reload');
    await landingPage.getByTestId('chart-money').locator('canvas').waitFor({ state: 'visible' });
    for (const p of [landingPage, phone]) {
      expect(missingKeys(p), 'no missing text').toEqual([]);
      expect(logOf(p).pageErrors, 'no page errors').toEqual([]);
    }
  });
});
