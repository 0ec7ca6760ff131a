import { beforeAll, describe, expect, test } from 'vitest';
import { formatTsh } from '@dau/domain';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { shots } from './support/screens';
import { until } from './support/ui';

/**
 * Issue 29, the landing page a shift lead opens: each figure says its change against yesterday and the
 * same weekday last week; the live exposure table changes when an order is placed (the server's orders
 * push, no reload), and one click leads to the match's odds and to its open orders.
 *
 * Data: a server without demo data, with the sandbox routes; POST /sandbox/betting/orders creates a match
 * of its own, a funded bettor and an open single on the home side, through the placement service (which
 * announces the order to the consoles as a bettor's does).
 */
const e2e = useE2e({ server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } } });
let adminToken = '';
type SandboxOrder = { id: number; order_no: string; potential_payout: number; event_ids: string[] };
let first: SandboxOrder;

const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, adminToken);

beforeAll(async () => {
  adminToken = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  first = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 1_000_00 }), 201, 'first sandbox order');
});

describe('the landing page', () => {
  test('figures with their change; the exposure table changes when an order is placed; one click to the odds and the orders', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await page.waitForURL(/#\/customer\/today_statistics/);

    // Today's turnover is the first order's stake; nothing yesterday or last week: "new" against both.
    const turnover = page.getByTestId('figure-turnover');
    await until(async () => (await turnover.getByTestId('figure-delta').count()) > 0, 'the turnover card with its change');
    expect(await turnover.getByTestId('figure-delta').innerText()).toBe('new vs yesterday · new vs last week');
    expect(await turnover.getByTestId('delta-yesterday').getAttribute('data-dir')).toBe('new');
    // Nothing paid today nor before: no change to speak of.
    expect(await page.getByTestId('figure-payouts').getByTestId('figure-delta').innerText()).toBe('— vs yesterday · — vs last week');
    // The open book is a state of now: no history, no change.
    expect(await page.getByTestId('figure-open_stakes').getByTestId('figure-delta').count()).toBe(0);

    // The first order's match is in the table, its home side the worst outcome, what it pays its payout.
    const { items } = expectStatus(await api('GET', '/statistics/exposure'), 200, 'exposure');
    expect(items).toHaveLength(1);
    const key = items[0].market_key as string;
    // Below the charts, the table is fetched as it comes into view.
    await page.getByTestId('exposure-slot').scrollIntoViewIfNeeded();
    const table = page.getByTestId('exposure');
    const row = (o: SandboxOrder) => table.getByTestId(`exposure-row-${o.event_ids[0]}-${key}`);
    await row(first).waitFor({ state: 'visible' });
    const worst = row(first).locator('[data-worst]');
    expect(await worst.getByTestId('exposure-payout').innerText()).toBe(formatTsh(first.potential_payout));
    expect(await worst.innerText()).toContain('1 order');
    await until(async () => (await table.getByTestId('exposure-summary').innerText()).startsWith('1 markets with open orders on 1 matches'), 'the summary');

    // A larger order on another match, placed while the page is open: its row comes first, riskier, with no reload.
    const second: SandboxOrder = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 5_000_00 }), 201, 'second sandbox order');
    await row(second).waitFor({ state: 'visible' });
    await until(
      async () => (await table.locator('tbody tr').first().getAttribute('data-testid')) === `exposure-row-${second.event_ids[0]}-${key}`,
      'the new, riskier market first',
    );
    expect(await row(second).locator('[data-worst]').getByTestId('exposure-payout').innerText()).toBe(formatTsh(second.potential_payout));
    expect(await row(second).getByTestId('exposure-net-loss').innerText()).toBe(formatTsh(second.potential_payout - 5_000_00));
    expect(await table.locator('tbody tr').count()).toBe(2);

    await shots(page, 'exposure-01-landing');

    // No match is under way: the live filter shows the empty state; back to all.
    await table.getByTestId('exposure-filter-live').click();
    await table.getByTestId('exposure-empty').waitFor({ state: 'visible' });
    expect(await table.getByTestId('exposure-filter-live').getAttribute('aria-pressed')).toBe('true');
    await table.getByTestId('exposure-filter-all').click();
    await row(second).waitFor({ state: 'visible' });

    // One click to the match's odds: the match list's drawer, here.
    const shown = expectStatus(await api('GET', '/statistics/exposure'), 200, 'exposure').items[0];
    expect(shown.event_id).toBe(second.event_ids[0]);
    await row(second).getByTestId('exposure-odds').click();
    const drawer = page.getByTestId('odds-drawer');
    await until(async () => (await drawer.innerText().catch(() => '')).includes(`Odds · ${shown.home_team} vs ${shown.away_team}`), 'the odds drawer of the match');
    await drawer.locator('.ant-card').first().waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // One click to its open orders: the order list filtered by the match, the second order in it.
    await row(second).getByTestId('exposure-orders').click();
    await page.waitForURL(new RegExp(`/customer/order_list\\?event_id=${encodeURIComponent(second.event_ids[0]).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}&status=2`));
    await until(async () => (await page.locator('tr.ant-table-row').count()) === 1 && (await page.locator('tr.ant-table-row').innerText()).includes(second.order_no), 'the match\'s open order');

    expect(missingKeys(page)).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });
});
