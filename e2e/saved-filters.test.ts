import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useE2e } from './support/browser';
import { useSandboxBettors } from './support/bettors';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, STAFF_PASSWORD, expectStatus } from './support/server';
import { dialog, field, settled, toastAfter, until } from './support/ui';
import { choose, openScreen } from './support/screens';

/**
 * Issue 29, saved filters, in the browser: the super admin narrows the bettor list to one phone, saves it
 * under a name shared with their role and pinned as their default; the list opened afresh applies the
 * default; another admin of that role, in another browser session, finds it under "Shared with my role"
 * and applies it with one click.
 *
 * Data: no demo data; three bettors made through the betting sandbox; a second admin of the super role.
 */
const e2e = useE2e({ server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } } });
const { api, bettors } = useSandboxBettors(e2e, 3);
let superRole = { id: 0, name: '' };

beforeAll(async () => {
  const roles = expectStatus(await api('GET', '/system/roles?page_size=100'), 200, 'roles');
  superRole = (roles.items as { id: number; name: string; is_super: boolean }[]).find((r) => r.is_super)!;
  expectStatus(await api('POST', '/system/administrators', { account: 'desk_lead', name: 'Desk lead', password: STAFF_PASSWORD, role_id: superRole.id }), 201, 'second admin');
});

const rows = (page: Page) => page.getByTestId('resource-table').locator('tr.ant-table-row');
const rowIds = async (page: Page) => (await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')))).map(Number);

describe('saved filters', () => {
  test('a filter saved, shared and pinned in one session applies on open, and from another session with one click', async () => {
    const target = bettors[1];
    const name = 'One bettor by phone';

    // Session 1: the bettor list narrowed to one phone, then saved (shared with the role, pinned).
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openScreen(page, 'user', 'User management');
    await until(async () => (await rows(page).count()) === 3, 'the three bettors listed');
    await field(page.getByTestId('resource-search'), 'Phone').fill(target.phone);
    await page.getByTestId('resource-search-submit').click();
    await page.waitForURL(new RegExp(`phone=${target.phone}`));
    await until(async () => JSON.stringify(await rowIds(page)) === JSON.stringify([target.id]), 'only the bettor listed');

    await page.getByTestId('saved-filters').click();
    await page.getByTestId('saved-filters-save').click();
    const form = dialog(page, 'Save current filters');
    await form.waitFor();
    await form.getByTestId('saved-filter-name').fill(name);
    await choose(page, form.getByTestId('saved-filter-role'), superRole.name);
    await form.getByTestId('saved-filter-default').check();
    await toastAfter(page, `Filter "${name}" saved`, () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    // The list's button names the view it shows.
    await until(async () => (await page.getByTestId('saved-filters').innerText()).includes(name), 'the saved filter named on its button');

    // The list opened afresh, without a query: the pinned default is applied.
    await page.goto('/#/customer/user');
    await page.reload();
    await page.waitForURL(new RegExp(`phone=${target.phone}`));
    await settled(page);
    await until(async () => JSON.stringify(await rowIds(page)) === JSON.stringify([target.id]), 'the default applied on open');

    // Session 2: another admin of the role, another browser context; the filter is theirs to apply, not to edit.
    const other = await e2e.newPage();
    await signIn(other, 'desk_lead', STAFF_PASSWORD);
    await openScreen(other, 'user', 'User management');
    await until(async () => (await rows(other).count()) === 3, 'all bettors before the filter');
    await other.getByTestId('saved-filters').click();
    const menu = other.locator('.ant-dropdown:visible');
    await until(async () => (await menu.innerText()).includes('Shared with my role'), 'the shared group');
    await toastAfter(other, `Filter "${name}" applied`, () => menu.getByText(name, { exact: true }).click());
    await other.waitForURL(new RegExp(`phone=${target.phone}`));
    await until(async () => JSON.stringify(await rowIds(other)) === JSON.stringify([target.id]), 'the shared filter applied');
    expect(await field(other.getByTestId('resource-search'), 'Phone').inputValue()).toBe(target.phone);

    // Read-only for them: the manage dialog lists it without actions.
    await other.getByTestId('saved-filters').click();
    await other.getByTestId('saved-filters-manage').click();
    const manage = dialog(other, 'Saved filters of this list');
    await manage.waitFor();
    expect(await manage.innerText()).toContain('Read-only');
    expect(await manage.locator('[data-testid^="saved-filter-delete-"]').count()).toBe(0);
  });
});
