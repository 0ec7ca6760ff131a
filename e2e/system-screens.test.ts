import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { logOf, screenshot, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, field, rowByKey, rowWithText, settled, toastsShown, until } from './support/ui';

/** The system screens the way an operator uses them: open, fill the form, save, see the toast and the row. */
const e2e = useE2e();
let adminToken = '';

beforeAll(async () => {
  adminToken = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
});

async function openScreen(page: Page, path: string, title: string) {
  await page.getByTestId(`menu-${path}`).click();
  await page.waitForURL(new RegExp(`#/customer/${path}\\b`));
  await until(async () => (await page.getByTestId('page-title').innerText()) === title, `the ${path} screen`);
  await page.getByTestId('resource-table').waitFor({ state: 'visible' });
  await settled(page);
}

async function openPendingChanges(page: Page) {
  await page.goto(`${e2e.server.baseUrl}/#/customer/pending_change`);
  await until(async () => (await page.getByTestId('page-title').innerText()) === 'Pending changes', 'the pending changes screen');
  await page.getByTestId('resource-table').waitFor({ state: 'visible' });
  await settled(page);
}

/** "Successful operation" toasts already accounted for, per page: each call waits for one more. */
const successToasts = new WeakMap<Page, number>();

/**
 * Waits until the page has shown one more "Successful operation" toast than the ones already awaited
 * (recorded as they appear: a toast gone before a busy machine looked is still counted).
 */
async function expectSuccessToast(page: Page, what: string) {
  const seen = successToasts.get(page) ?? 0;
  await until(async () => (await toastsShown(page)).filter((t) => t.includes('Successful operation')).length > seen, `a "Successful operation" toast after ${what}`);
  successToasts.set(page, seen + 1);
}

describe('system screens', () => {
  test('IP blacklist: create, edit the remark, delete with confirmation', async () => {
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openScreen(page, 'ip_black', 'IP blacklist');
    const ip = '203.0.113.77';
    expect(await rowWithText(page, ip).count()).toBe(0);

    // Create.
    await page.getByTestId('resource-create').click();
    const create = dialog(page, 'IP blacklist');
    await create.waitFor();
    await field(create, 'IP address').fill(ip);
    await field(create, 'Remarks').fill('Card fraud ring');
    await create.getByTestId('form-submit').click();
    await expectSuccessToast(page, 'create');
    await create.waitFor({ state: 'hidden' });
    const row = rowWithText(page, ip);
    await row.waitFor({ state: 'visible' });
    await expect(row.innerText()).resolves.toContain('Card fraud ring');
    const id = await row.getAttribute('data-row-key');
    expect(id).toMatch(/^\d+$/);

    // Edit the remark: the form opens with the row's values.
    await page.getByTestId(`row-edit-${id}`).click();
    const edit = dialog(page, 'IP blacklist');
    await edit.waitFor();
    await expect(field(edit, 'IP address').inputValue()).resolves.toBe(ip);
    const remark = field(edit, 'Remarks');
    await expect(remark.inputValue()).resolves.toBe('Card fraud ring');
    await remark.fill('Reviewed by risk desk');
    await edit.getByTestId('form-submit').click();
    await expectSuccessToast(page, 'edit');
    await edit.waitFor({ state: 'hidden' });
    await until(async () => (await rowByKey(page, id!).innerText()).includes('Reviewed by risk desk'), 'the edited remark in the row');
    expect(await rowByKey(page, id!).innerText()).not.toContain('Card fraud ring');
    await screenshot(page, 'ip-black-edited');

    // Delete: asks first; lifting a block waits for a second administrator (issue 22), so the row stays.
    await page.getByTestId(`row-delete-${id}`).click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.waitFor();
    expect(await rowByKey(page, id!).count(), 'row still there while confirming').toBe(1);
    await confirm.getByTestId('confirm-ok').click();
    await until(async () => (await toastsShown(page)).some((t) => t.includes('Saved as a pending change')), 'the toast saying the removal waits for a second administrator');
    expect((await e2e.server.api('GET', `/system/ip_black/${id}`, undefined, adminToken)).status).toBe(200);
    // The history drawer of no settings card here; the pending change is listed for its requester, who cannot approve it.
    await openPendingChanges(page);
    const mine = rowWithText(page, ip);
    await mine.waitFor({ state: 'visible' });
    expect(await mine.getByTestId(/change-approve-/).count()).toBe(0);
    await screenshot(page, 'pending-change-requester');

    // A second super administrator approves it on the Pending changes screen: then the row goes.
    const roles = expectStatus(await e2e.server.api('GET', '/system/roles?page_size=100', undefined, adminToken), 200, 'roles').items as { id: number; is_super: boolean }[];
    expectStatus(
      await e2e.server.api('POST', '/system/administrators', { account: 'checker', name: 'Second pair of eyes', password: ADMIN_PASSWORD, role_id: roles.find((r) => r.is_super)!.id }, adminToken),
      201,
      'the checker',
    );
    const checker = await e2e.newPage();
    await signIn(checker, 'checker', ADMIN_PASSWORD);
    await openPendingChanges(checker);
    const pending = rowWithText(checker, ip);
    await pending.waitFor({ state: 'visible' });
    await pending.getByTestId(/change-approve-/).click();
    await checker.locator('.ant-popconfirm:visible').getByTestId('confirm-ok').click();
    await screenshot(checker, 'pending-change-approving');
    await until(async () => (await toastsShown(checker)).some((t) => t.includes('the change is applied')), `the approval toast (${JSON.stringify(await toastsShown(checker))})`);
    await until(async () => (await e2e.server.api('GET', `/system/ip_black/${id}`, undefined, adminToken)).status === 404, 'the row removed once approved');
    await until(async () => (await pending.innerText()).includes('Applied'), 'the change shown as applied');
    await screenshot(checker, 'pending-change-approved');
    expect(logOf(page).pageErrors).toEqual([]);
    expect(logOf(checker).pageErrors).toEqual([]);
  });

  test('server log settings: invalid JSON in options is refused with "Conversion failed"', async () => {
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openScreen(page, 'log_config', 'Server log settings');
    const first = page.getByTestId('resource-table').locator('tr.ant-table-row').first();
    await first.waitFor();
    const id = await first.getAttribute('data-row-key');
    const before = expectStatus(await e2e.server.api('GET', `/system/log_config/${id}`, undefined, adminToken), 200, 'log_config row');

    await page.getByTestId(`row-edit-${id}`).click();
    const edit = dialog(page);
    await edit.waitFor();
    const options = field(edit, 'Options (JSON)');
    await options.fill('{"rotate": true,');
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.url().includes(`/system/log_config/${id}`)) saves.push(r.url());
    });
    await edit.getByTestId('form-submit').click();
    await edit.locator('.ant-form-item-explain-error', { hasText: 'Conversion failed' }).waitFor({ state: 'visible' });
    await screenshot(page, 'log-config-invalid-json');
    // Nothing was sent (a request is recorded when sent, before any answer could show an error) and the
    // dialog stays open.
    expect(saves).toEqual([]);
    expect(await edit.isVisible()).toBe(true);
    const unchanged = expectStatus(await e2e.server.api('GET', `/system/log_config/${id}`, undefined, adminToken), 200, 'log_config row');
    expect(unchanged.options).toBe(before.options);

    // Valid JSON is accepted.
    await options.fill('{"rotate": true}');
    await edit.locator('.ant-form-item-explain-error', { hasText: 'Conversion failed' }).waitFor({ state: 'detached' });
    await edit.getByTestId('form-submit').click();
    await expectSuccessToast(page, 'saving valid JSON');
    const saved = expectStatus(await e2e.server.api('GET', `/system/log_config/${id}`, undefined, adminToken), 200, 'log_config row');
    expect(JSON.parse(saved.options)).toEqual({ rotate: true });
    expect(logOf(page).pageErrors).toEqual([]);
  });

  test('administrators: a blank password gives a generated one, shown once', async () => {
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openScreen(page, 'administrators', 'Administrators');

    await page.getByTestId('admin-create').click();
    const create = dialog(page, 'Administrators');
    await create.waitFor();
    await field(create, 'Account').fill('cashier01');
    await field(create, 'Name').fill('Cashier one');
    await expect(field(create, 'Password').inputValue()).resolves.toBe('');
    await create.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: /^Role$/ }) }).locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^Default$/ }).click();
    await create.getByTestId('form-submit').click();

    const shown = page.getByTestId('generated-password');
    await shown.waitFor({ state: 'visible' });
    const password = (await shown.innerText()).trim();
    expect(password.length, 'generated password length').toBeGreaterThanOrEqual(8);
    await expect(dialog(page).innerText()).resolves.toContain('cashier01');
    await screenshot(page, 'admin-generated-password');
    // The password works.
    const token = await e2e.server.loginApi('cashier01', password);
    expect(token).toBeTruthy();

    await page.getByTestId('password-done').click();
    await shown.waitFor({ state: 'detached' });
    const row = rowWithText(page, 'cashier01');
    await row.waitFor({ state: 'visible' });
    await expect(row.innerText()).resolves.toContain('Default');
    // Shown once: nowhere on the page any more, and not in the row's detail.
    expect(await page.getByText(password).count()).toBe(0);
    const id = await row.getAttribute('data-row-key');
    await page.getByTestId(`row-view-${id}`).click();
    const detail = page.getByTestId('resource-detail');
    await detail.waitFor({ state: 'visible' });
    await until(async () => (await detail.innerText()).includes('cashier01'), 'the detail of cashier01');
    expect(await detail.innerText()).not.toContain(password);
    expect(logOf(page).pageErrors).toEqual([]);
  });

  test('roles: tick a page in the permission tree and save', async () => {
    const role = expectStatus(await e2e.server.api('POST', '/system/roles', { name: 'Risk desk', remarks: 'blocks addresses' }, adminToken), 201, 'create role');
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openScreen(page, 'role', 'Roles & permissions');
    const row = rowByKey(page, role.id);
    await row.waitFor();

    await page.getByTestId(`row-permissions-${role.id}`).click();
    const drawer = page.locator('.ant-drawer:visible');
    await drawer.waitFor();
    await until(async () => (await drawer.locator('.ant-drawer-title').innerText()).includes('Risk desk'), 'the drawer of Risk desk');
    const node = drawer.locator('.ant-tree-treenode').filter({ has: page.locator('.ant-tree-title', { hasText: /^IP blacklist$/ }) });
    await node.waitFor();
    const box = node.locator('.ant-tree-checkbox');
    expect(await box.getAttribute('class')).not.toContain('ant-tree-checkbox-checked');
    await box.click();
    await until(async () => (await box.getAttribute('class'))?.includes('ant-tree-checkbox-checked'), 'IP blacklist ticked');
    await screenshot(page, 'role-permissions');
    await drawer.getByTestId('permissions-save').click();
    await expectSuccessToast(page, 'saving permissions');
    await drawer.waitFor({ state: 'hidden' });

    const saved = expectStatus(await e2e.server.api('GET', `/system/roles/${role.id}/permissions`, undefined, adminToken), 200, 'role permissions');
    expect([...saved.keys].sort()).toEqual(['ip_black', 'ip_black:create', 'ip_black:delete', 'ip_black:edit', 'ip_black:export', 'system']);
    // The row's permission count follows.
    await until(async () => /\b6\b/.test(await rowByKey(page, role.id).innerText()), 'the permission count 6 in the row');

    // Opened again, the tree shows what was saved.
    await page.getByTestId(`row-permissions-${role.id}`).click();
    const again = page.locator('.ant-drawer:visible');
    const node2 = again.locator('.ant-tree-treenode').filter({ has: page.locator('.ant-tree-title', { hasText: /^IP blacklist$/ }) });
    await until(async () => (await node2.locator('.ant-tree-checkbox').getAttribute('class'))?.includes('ant-tree-checkbox-checked'), 'IP blacklist still ticked');
    expect(logOf(page).pageErrors).toEqual([]);
  });

  test('issue 29: an expired admin is told when; an image size below the bound is refused as typed; "UTC" is found in the time-zone picker', async () => {
    // An administrator whose account ran out: the sign-in page says so, and when (not "disabled").
    const roles = expectStatus(await e2e.server.api('GET', '/system/roles?page_size=100', undefined, adminToken), 200, 'roles').items as { id: number; is_super: boolean }[];
    expectStatus(
      await e2e.server.api('POST', '/system/administrators', { account: 'ran_out', name: 'Ran out', password: ADMIN_PASSWORD, role_id: roles.find((r) => !r.is_super)!.id, member_expiry: '2026-03-01T09:30:00Z' }, adminToken),
      201,
      'the expired admin',
    );
    const page = await e2e.newPage();
    await page.goto('/#/admin_login');
    await page.getByTestId('login-account').fill('ran_out');
    await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('login-submit').click();
    const refused = page.getByTestId('login-error');
    await refused.waitFor();
    expect(await refused.innerText()).toContain('This account expired on 2026-03-01 09:30 UTC');
    await screenshot(page, 'login-expired');

    // File storage: 200 bytes is below the bound: refused with the bounds, and the input keeps what was typed (it was turned into 1,024).
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await page.goto(`${e2e.server.baseUrl}/#/customer/image_config`);
    const settings = page.getByTestId('resource-settings');
    await settings.waitFor();
    await settled(page);
    const before = expectStatus(await e2e.server.api('GET', '/system/image_config', undefined, adminToken), 200, 'image config').max_size as number;
    await settings.getByTestId('resource-edit').click();
    const size = field(page.locator('body'), 'Largest upload (bytes)');
    await size.waitFor();
    await size.fill('200');
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.url().includes('/system/image_config')) saves.push(r.url());
    });
    await page.getByTestId('form-submit').click();
    await page.locator('.ant-form-item-explain-error', { hasText: 'Enter a number from 1024 to 52428800' }).waitFor({ state: 'visible' });
    await size.blur();
    expect(await size.inputValue()).toBe('200');
    expect(saves).toEqual([]);
    expect(expectStatus(await e2e.server.api('GET', '/system/image_config', undefined, adminToken), 200, 'image config').max_size).toBe(before);
    await screenshot(page, 'image-config-below-bound');

    // The time-zone picker: typing "UTC" offers UTC first (it was not offered at all).
    await page.goto(`${e2e.server.baseUrl}/#/customer/ip_black`);
    const select = page.getByTestId('time-zone-select');
    await until(async () => {
      if (await select.isVisible()) return true;
      if (!(await page.getByTestId('time-zone').isVisible())) await page.getByTestId('user-menu').click({ timeout: 2_000 }).catch(() => undefined);
      if (await select.isVisible()) return true;
      await page.getByTestId('time-zone').click({ timeout: 2_000 }).catch(() => undefined);
      return select.isVisible();
    }, 'the time zone dialog');
    await select.click();
    await page.keyboard.type('UTC');
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await until(async () => (await options.first().innerText().catch(() => '')).startsWith('UTC (UTC+00:00)'), 'UTC offered first');
    expect(await options.count()).toBeLessThan(5);
    await page.keyboard.press('Enter');
    expect(await select.innerText()).toContain('UTC (UTC+00:00)');
    await screenshot(page, 'time-zone-utc');
    expect(logOf(page).pageErrors).toEqual([]);
  });
});
