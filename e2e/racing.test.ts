import { beforeAll, describe, expect, test } from 'vitest';
import { formatTsh } from '@dau/domain';
import { logOf, missingKeys, openMenuGroup, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { rowByKey, settled, until } from './support/ui';
import { openInLanguage, openScreen, shot, shots } from './support/screens';

/**
 * Issue 23 in the browser: virtual racing has its own menu section. The operator opens the racing bets and
 * finds a bettor's bet (runner, stake, odds, state), opens it (the race's runners with the pick marked),
 * follows the bet to its race and to its bettor, opens a finished race (the finishing order with the
 * winner), reads the racing figures of the day, sees the settings, and the empty state of a filter that
 * matches nothing; some texts in sw-KE and zh-CN.
 *
 * Data: no demo data and no simulator. The sandbox routes (DAU_SANDBOX_ROUTES=1) give a funded bettor
 * (POST /sandbox/betting/orders) and the bettor app's racing bet on the next open race (POST
 * /sandbox/racing/bets). The racing provider's job lists the races of the last 10 minutes at start and
 * settles them: the test waits for a finished race on the list, not for a time.
 */
const e2e = useE2e({ server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } } });
let adminToken = '';
let bettor: { id: number; phone: string };
let bet: { id: number; race_id: number; race_ref: string; runner: number; runner_name: string; odds: string; stake: number };
const STAKE = 2_000_00;

const api = <T = any>(method: string, p: string, body?: unknown, token = adminToken) => e2e.server.api<T>(method, p, body, token);

beforeAll(async () => {
  adminToken = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  const order = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 1_000_00 }), 201, 'sandbox bettor');
  bettor = { id: order.bettor_id, phone: order.phone };
  // A race starting in 10 minutes or more: it is still open for bets while the test looks at it.
  bet = expectStatus(await api('POST', '/sandbox/racing/bets', { bettor_id: bettor.id, stake: STAKE, lead_seconds: 600 }), 201, 'racing bet');
  expect(bet).toMatchObject({ bettor_id: bettor.id, stake: STAKE, status: 1 });
});

describe('virtual racing screens', () => {
  test('the racing section: a bet with its race and bettor, a finished race, the figures, the settings, an empty filter; three languages', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // ------------------------------------------------------------------------------------------ menu
    await openMenuGroup(page, 'racing');
    for (const p of ['racing_race', 'racing_order', 'racing_coin', 'racing_config', 'racing_statistics']) await page.getByTestId(`menu-${p}`).waitFor();
    expect(await page.getByTestId('menu-group-racing').innerText()).toBe('Virtual racing');

    // ------------------------------------------------------------------------------------------ bets
    await page.getByTestId('menu-racing_order').click();
    await until(async () => (await page.getByTestId('page-title').innerText()) === 'Racing bets', 'the racing bets screen');
    await settled(page);
    const row = rowByKey(page, bet.id);
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain(bet.race_ref);
    expect(text).toContain(bettor.phone);
    expect(text).toContain(`#${bet.runner} ${bet.runner_name}`);
    expect(text).toContain(formatTsh(STAKE));
    expect(text).toContain(bet.odds);
    expect(await page.getByTestId(`bet-status-${bet.id}`).innerText()).toBe('Open');
    await shots(page, 'racing-01-bets');

    // The bet's detail: the race's runners, the bettor's pick marked, no result yet.
    await page.getByTestId(`row-view-${bet.id}`).click();
    const drawer = page.getByTestId('resource-detail');
    await drawer.getByTestId('runner-board').waitFor();
    const pick = drawer.getByTestId(`runner-${bet.runner}`);
    await until(async () => (await pick.innerText()).includes('Picked'), 'the picked runner marked');
    expect(await drawer.innerText()).toContain('No result yet');
    await shot(page, 'racing-02-bet-detail');
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    // The bet links to its race: the races list filtered to it, open for bets.
    await page.getByTestId(`bet-race-${bet.id}`).click();
    await page.waitForURL(new RegExp(`racing_race\\?race_ref=${bet.race_ref}$`));
    await rowByKey(page, bet.race_id).waitFor();
    expect(await page.getByTestId(`race-status-${bet.race_id}`).innerText()).toBe('Open for bets');
    expect(await page.getByTestId('resource-table').locator('tr.ant-table-row').count()).toBe(1);

    // And to its bettor: user management, filtered to them.
    await openScreen(page, 'racing_order', 'Racing bets');
    await page.getByTestId(`bettor-link-${bet.id}`).click();
    await page.waitForURL(new RegExp(`/customer/user\\?id=${bettor.id}$`));
    await rowByKey(page, bettor.id).waitFor();
    expect(await rowByKey(page, bettor.id).innerText()).toContain(bettor.phone);

    // ------------------------------------------------------------------------------- finished race
    // The provider's job settles the races of the last minutes after the start: wait for one on the list.
    await until(async () => expectStatus(await api('GET', '/racing/races?status=3'), 200, 'finished races').items.length > 0, 'a finished race', 300_000);
    const finished = expectStatus(await api('GET', '/racing/races?status=3'), 200, 'finished races').items[0];
    const winner = finished.runners.find((r: any) => r.number === finished.result[0]);
    await openScreen(page, 'racing_race?status=3', 'Races');
    await rowByKey(page, finished.id).waitFor();
    expect(await page.getByTestId(`race-status-${finished.id}`).innerText()).toBe('Finished');
    expect(await rowByKey(page, finished.id).innerText()).toContain(`#${winner.number} ${winner.name}`);
    await page.getByTestId(`row-view-${finished.id}`).click();
    await drawer.getByTestId('runner-board').waitFor();
    expect(await drawer.innerText()).toContain('Finishing order');
    // The winner first, with its place and odds; every runner listed.
    const first = drawer.getByTestId('runner-board').locator('tbody tr.ant-table-row').first();
    await until(async () => (await first.innerText()).includes(winner.name), 'the winner first');
    expect(await first.innerText()).toContain(winner.odds);
    expect(await drawer.getByTestId('runner-board').locator('tbody tr.ant-table-row').count()).toBe(finished.runners.length);
    await shots(page, 'racing-03-finished-race');
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    // ---------------------------------------------------------------------------------- statistics
    await openScreen(page, 'racing_statistics', 'Racing statistics');
    await until(async () => (await page.getByTestId('figure-turnover').innerText()).includes(formatTsh(STAKE)), 'the turnover of the bet');
    expect(await page.getByTestId('figure-open_stakes').innerText()).toContain(formatTsh(STAKE));
    expect(await page.getByTestId('figure-bets').innerText()).toContain('1');
    expect(await page.getByTestId('figure-bettors').innerText()).toContain('1');
    await shots(page, 'racing-04-statistics');

    // ------------------------------------------------------------------------ settings, empty states
    await openScreen(page, 'racing_config', 'Racing settings');
    const settings = page.getByTestId('resource-settings');
    await settings.waitFor();
    expect(await settings.innerText()).toContain('Racing open');
    expect(await settings.innerText()).toContain('100 coins per TSh 1');
    await page.getByTestId('resource-edit').waitFor();
    // A filter that matches nothing says so in racing's words (no bet has won yet).
    await openScreen(page, 'racing_order?status=2', 'Racing bets');
    await until(async () => (await page.getByTestId('racing-empty').innerText()).includes('No racing bet matches these filters'), 'the empty bets list');
    await openScreen(page, 'racing_coin', 'Racing coin moves');
    await until(async () => (await page.getByTestId('racing-empty').innerText()).includes('No coin conversion'), 'the empty coin moves');
    await shot(page, 'racing-05-coin-moves-empty');

    // ---------------------------------------------------------------------------------- languages
    for (const [lng, title, status] of [
      ['sw-KE', 'Madau ya mbio', 'Wazi'],
      ['zh-CN', '赛马注单', '未结算'],
    ] as const) {
      await openInLanguage(page, lng, 'racing_order', title);
      await rowByKey(page, bet.id).waitFor();
      expect(await page.getByTestId(`bet-status-${bet.id}`).innerText()).toBe(status);
      await shot(page, `racing-06-bets-${lng}`);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    expect(missingKeys(page), 'no missing text').toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });
});
