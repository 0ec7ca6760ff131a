import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { logOf, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { shots } from './support/screens';
import { settled, until } from './support/ui';

/**
 * The tabs of open pages (issue 29): each screen opened is a tab that keeps its state while the operator
 * is on another (list page and scroll, filters, an open drawer), given back when the tab is chosen in the
 * bar (entered from the menu or a link, it shows what was asked for, afresh); the bar survives a reload; tabs close,
 * close the others, reopen with Ctrl+Shift+T, move by dragging; the back button walks through them.
 *
 * Data: 45 roles (the role list has a full second page, longer than the window).
 */
const e2e = useE2e();

const tab = (page: Page, path: string) => page.getByTestId(`tab-${path}`);
/** The tabs in the bar, left to right, by page. */
const tabOrder = (page: Page) => page.locator('.dau-tab').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('tab-'.length)));
const activeTab = (page: Page) => page.locator('.dau-tab[data-active]').getAttribute('data-testid');
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

async function waitTitle(page: Page, title: string) {
  await until(async () => (await page.getByTestId('page-title').innerText()) === title, `the screen "${title}"`);
  await settled(page);
}

async function openFromMenu(page: Page, path: string, title: string) {
  await page.getByTestId(`menu-${path}`).click();
  await page.waitForURL(new RegExp(`#/customer/${path}\\b`));
  await waitTitle(page, title);
}

describe('tabs of open pages', () => {
  test('five screens keep their state across tabs, a reload, closing and reopening, and the back button', async () => {
    const { server } = e2e;
    const token = await server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    for (let i = 1; i <= 45; i++) expectStatus(await server.api('POST', '/system/roles', { name: `Tabs role ${String(i).padStart(2, '0')}`, remarks: 'e2e' }, token), 201, 'create role');
    const me = expectStatus(await server.api('GET', '/auth/me', undefined, token), 200, 'me');

    const page = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    // The landing screen (its panels are not this test's: only its title is waited for).
    await until(async () => (await page.getByTestId('page-title').innerText()) === "Today's statistics", 'the landing screen');
    expect(await tabOrder(page)).toEqual(['today_statistics']);
    // A single tab cannot be closed.
    expect(await page.getByTestId('tab-close-today_statistics').count()).toBe(0);

    // Roles: the second page, scrolled down.
    await openFromMenu(page, 'role', 'Roles & permissions');
    const firstRole = () => page.getByTestId('resource-table').locator('tr.ant-table-row').first().innerText();
    const rolesPage1 = await firstRole();
    await page.getByTestId('resource-table').locator('.ant-pagination-item-2').click();
    await page.waitForURL(/#\/customer\/role\?(.*&)?page=2\b/);
    // The first page stays on screen until the second has come.
    const rolesPage2 = await until(async () => ((await firstRole()) !== rolesPage1 ? firstRole() : ''), 'the second page of roles');
    await settled(page);
    await page.evaluate(() => window.scrollTo(0, 300));
    await until(async () => (await scrollY(page)) === 300, 'the role list scrolled down');

    // The system log, filtered by account.
    await openFromMenu(page, 'log', 'System log');
    await page.locator('#search_account').fill(ADMIN_ACCOUNT);
    await page.getByTestId('resource-search-submit').click();
    await page.waitForURL(/#\/customer\/log\?(.*&)?account=admin\b/);
    await settled(page);
    // A new tab starts at the top.
    expect(await scrollY(page)).toBe(0);

    await openFromMenu(page, 'ip_black', 'IP blacklist');
    await openFromMenu(page, 'language_list', 'Languages');

    // Administrators, with the drawer of the super admin open.
    await openFromMenu(page, 'administrators', 'Administrators');
    await shots(page, 'tabs-1280');
    await page.getByTestId(`row-view-${me.user_info.id}`).click();
    const drawer = page.getByTestId('resource-detail');
    await drawer.waitFor({ state: 'visible' });
    await settled(page);
    expect(await drawer.innerText()).toContain(ADMIN_ACCOUNT);

    expect(await tabOrder(page)).toEqual(['today_statistics', 'role', 'log', 'ip_black', 'language_list', 'administrators']);
    expect(await activeTab(page)).toBe('tab-administrators');
    // One screen in the page at a time: the hidden tabs' elements are not in the document.
    expect(await page.getByTestId('resource-table').count()).toBe(1);

    // Back: the previous tab, without the drawer (it belongs to the administrators' tab)...
    await page.goBack();
    await page.waitForURL(/#\/customer\/language_list\b/);
    await waitTitle(page, 'Languages');
    expect(await activeTab(page)).toBe('tab-language_list');
    expect(await drawer.count()).toBe(0);
    // ...and back to the administrators from the tab bar: the drawer still open.
    await tab(page, 'administrators').click();
    await page.waitForURL(/#\/customer\/administrators\b/);
    await drawer.waitFor({ state: 'visible' });
    expect(await drawer.innerText()).toContain(ADMIN_ACCOUNT);
    // Entered from elsewhere (the menu, a link, the back button), a tab shows what was asked for, afresh.
    await page.goBack();
    await page.waitForURL(/#\/customer\/language_list\b/);
    await waitTitle(page, 'Languages');
    await page.getByTestId('menu-administrators').click();
    await page.waitForURL(/#\/customer\/administrators\b/);
    await waitTitle(page, 'Administrators');
    expect(await drawer.count()).toBe(0);
    expect(await tabOrder(page)).toEqual(['today_statistics', 'role', 'log', 'ip_black', 'language_list', 'administrators']);

    // The roles' tab: its second page, its scroll.
    await tab(page, 'role').click();
    await page.waitForURL(/#\/customer\/role\?(.*&)?page=2\b/);
    await waitTitle(page, 'Roles & permissions');
    expect(await page.getByTestId('resource-table').locator('.ant-pagination-item-active').innerText()).toBe('2');
    expect(await firstRole()).toBe(rolesPage2);
    expect(await scrollY(page)).toBe(300);

    // The log's tab: its filter, in the address and in the form.
    await tab(page, 'log').click();
    await page.waitForURL(/#\/customer\/log\?(.*&)?account=admin\b/);
    await waitTitle(page, 'System log');
    expect(await page.locator('#search_account').inputValue()).toBe(ADMIN_ACCOUNT);
    expect(await scrollY(page)).toBe(0);

    // The back button walks back through the tabs, each at its own address.
    await page.goBack();
    await page.waitForURL(/#\/customer\/role\?(.*&)?page=2\b/);
    await waitTitle(page, 'Roles & permissions');
    expect(await activeTab(page)).toBe('tab-role');
    await page.goBack();
    await page.waitForURL(/#\/customer\/administrators\b/);
    expect(await activeTab(page)).toBe('tab-administrators');
    await tab(page, 'log').click();
    await page.waitForURL(/#\/customer\/log\?(.*&)?account=admin\b/);

    // Dragged onto the roles' tab, the languages' tab takes its place.
    await tab(page, 'language_list').dragTo(tab(page, 'role'), { targetPosition: { x: 4, y: 12 } });
    await until(async () => (await tabOrder(page))[1] === 'language_list', 'the languages tab moved');
    expect(await tabOrder(page)).toEqual(['today_statistics', 'language_list', 'role', 'log', 'ip_black', 'administrators']);

    // A reload gives back the bar, in its order; each tab opens at its address.
    await page.reload();
    await waitTitle(page, 'System log');
    expect(await tabOrder(page)).toEqual(['today_statistics', 'language_list', 'role', 'log', 'ip_black', 'administrators']);
    expect(await activeTab(page)).toBe('tab-log');
    expect(await page.locator('#search_account').inputValue()).toBe(ADMIN_ACCOUNT);
    await tab(page, 'role').click();
    await page.waitForURL(/#\/customer\/role\?(.*&)?page=2\b/);
    await waitTitle(page, 'Roles & permissions');
    expect(await page.getByTestId('resource-table').locator('.ant-pagination-item-active').innerText()).toBe('2');

    // Close: the × of a tab, a middle click.
    await page.getByTestId('tab-close-ip_black').click();
    await tab(page, 'language_list').click({ button: 'middle' });
    await until(async () => (await tabOrder(page)).join() === 'today_statistics,role,log,administrators', 'two tabs closed');
    expect(page.url()).toMatch(/#\/customer\/role\?/);
    // Closing the active tab shows its right neighbour.
    await page.getByTestId('tab-close-role').click();
    await page.waitForURL(/#\/customer\/log\?(.*&)?account=admin\b/);
    await waitTitle(page, 'System log');

    // Close the others, from the tab's menu (right click).
    await tab(page, 'log').click({ button: 'right' });
    await page.locator('.ant-dropdown:visible [data-testid="tab-menu-close-others"]').click();
    await until(async () => (await tabOrder(page)).join() === 'log', 'only the log tab left');

    // Ctrl+Shift+T reopens the last closed tab (administrators), then the ones before, at their addresses.
    await page.keyboard.press('Control+Shift+T');
    await page.waitForURL(/#\/customer\/administrators\b/);
    await waitTitle(page, 'Administrators');
    await page.keyboard.press('Control+Shift+T');
    await page.waitForURL(/#\/customer\/today_statistics\b/);
    // Alt+Shift+T too (a browser window keeps Ctrl+Shift+T for its own tabs).
    await page.keyboard.press('Alt+Shift+T');
    await page.waitForURL(/#\/customer\/role\?(.*&)?page=2\b/);
    await waitTitle(page, 'Roles & permissions');
    // Each back at its place: the bar as it was.
    expect(await tabOrder(page)).toEqual(['today_statistics', 'role', 'log', 'administrators']);
    expect(await activeTab(page)).toBe('tab-role');

    // On a phone: the bar is a strip that scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await settled(page);
    const strip = await page.locator('.dau-tabs-list').evaluate((el) => ({ overflow: getComputedStyle(el).overflowX, width: el.getBoundingClientRect().right }));
    expect(strip.overflow).toBe('auto');
    expect(strip.width).toBeLessThanOrEqual(390);
    await shots(page, 'tabs-390');
    await page.setViewportSize({ width: 1280, height: 720 });
    await settled(page);
    await shots(page, 'tabs-1280-role');

    expect(logOf(page).pageErrors).toEqual([]);
    expect(logOf(page).consoleErrors).toEqual([]);
  });
});
