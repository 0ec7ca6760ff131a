import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { logOf, missingKeys, screenshot, signIn, useE2e } from './support/browser';
import { openMenuGroup } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, STAFF_PASSWORD, expectStatus } from './support/server';
import { fullyShown, luminance, settled, until } from './support/ui';

/** The signed-in console: menu by role, page and button permissions, theme, languages, live notices. */
const e2e = useE2e();

const menuItem = (page: Page, path: string) => page.getByTestId(`menu-${path}`);

describe('shell', () => {
  test('the menu and the buttons follow the role; pages and calls the role lacks are refused', async () => {
    const { server } = e2e;

    // Super admin: lands in the console, the System group lists every system screen.
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    expect(page.url()).toMatch(/#\/customer\/[a-z_]+/);
    const menu = page.getByTestId('side-menu');
    await expect(menu.innerText()).resolves.toContain('System');
    for (const [path, label] of [
      ['administrators', 'Administrators'],
      ['role', 'Roles & permissions'],
      ['log', 'System log'],
      ['ip_black', 'IP blacklist'],
      ['configuration', 'Site settings'],
      ['language_list', 'Languages'],
    ]) {
      await expect(menuItem(page, path).innerText(), `menu item ${path}`).resolves.toBe(label);
    }
    await menuItem(page, 'ip_black').click();
    await page.waitForURL(/#\/customer\/ip_black/);
    await page.getByTestId('resource-create').waitFor({ state: 'visible' });

    // A role holding only the system group, the system log and the IP blacklist page (no button).
    const adminToken = await server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    const role = expectStatus(await server.api('POST', '/system/roles', { name: 'Log readers', remarks: 'e2e' }, adminToken), 201, 'create role');
    const granted = expectStatus(
      await server.api('PUT', `/system/roles/${role.id}/permissions`, { keys: ['system', 'log', 'ip_black'] }, adminToken),
      200,
      'grant permissions',
    );
    expect([...granted.keys].sort()).toEqual(['ip_black', 'log', 'system']);
    const created = expectStatus(
      await server.api('POST', '/system/administrators', { account: 'logreader', name: 'Log reader', password: STAFF_PASSWORD, role_id: role.id }, adminToken),
      201,
      'create admin',
    );
    expect(created.admin.account).toBe('logreader');

    // That admin, in a browser of their own.
    const limited = await e2e.newPage();
    await signIn(limited, 'logreader', STAFF_PASSWORD);
    expect(limited.url()).toMatch(/#\/customer\/(log|ip_black)\b/);
    await menuItem(limited, 'log').waitFor({ state: 'visible' });
    await menuItem(limited, 'ip_black').waitFor({ state: 'visible' });
    await expect(limited.getByTestId('side-menu').innerText()).resolves.toContain('System');
    expect(await menuItem(limited, 'administrators').count(), 'Administrators in the limited menu').toBe(0);
    expect(await menuItem(limited, 'role').count(), 'Roles in the limited menu').toBe(0);
    expect(await menuItem(limited, 'configuration').count(), 'Site settings in the limited menu').toBe(0);

    // The IP blacklist screen without its create button...
    await menuItem(limited, 'ip_black').click();
    await limited.waitForURL(/#\/customer\/ip_black/);
    await limited.getByTestId('resource-table').waitFor({ state: 'visible' });
    await settled(limited);
    await expect(limited.getByTestId('page-title').innerText()).resolves.toBe('IP blacklist');
    expect(await limited.getByTestId('resource-create').count(), 'create button for a role without ip_black:create').toBe(0);
    await screenshot(limited, 'shell-limited-ip-black');

    // ...and the call that button would make is refused, while reading the list is allowed.
    const limitedToken = await server.loginApi('logreader', STAFF_PASSWORD);
    expect((await server.api('GET', '/system/ip_black', undefined, limitedToken)).status).toBe(200);
    const refused = await server.api('POST', '/system/ip_black', { ip: '198.51.100.9', remark: 'should not exist' }, limitedToken);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const after = expectStatus(await server.api('GET', '/system/ip_black?ip=198.51.100.9', undefined, adminToken), 200, 'list ip_black');
    expect(after.total).toBe(0);

    // A page the role does not grant, typed into the address bar: 403, not the screen.
    await limited.goto('/#/customer/administrators');
    await limited.getByTestId('result-403').waitFor({ state: 'visible' });
    await expect(limited.getByTestId('result-403').innerText()).resolves.toContain('You do not have permission');
    expect(await limited.getByTestId('admin-create').count()).toBe(0);
    expect(await limited.getByTestId('resource-table').count()).toBe(0);
    expect(logOf(limited).pageErrors).toEqual([]);
  });

  test('the dark theme applies at once and survives a reload', async () => {
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await settled(page);
    const layoutBg = () => page.locator('.ant-layout').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    const cardBg = () => page.locator('.ant-layout-content > div').last().evaluate((el) => getComputedStyle(el).backgroundColor);
    const stored = () => page.evaluate(() => localStorage.getItem('theme'));

    expect(luminance(await layoutBg()), 'light layout background').toBeGreaterThan(0.6);
    expect(luminance(await cardBg()), 'light content background').toBeGreaterThan(0.6);
    expect(await stored()).not.toBe('2');
    await screenshot(page, 'theme-light');

    await page.getByTestId('theme-toggle').click();
    await until(async () => luminance(await layoutBg()) < 0.1, 'a dark layout background');
    expect(luminance(await cardBg()), 'dark content background').toBeLessThan(0.1);
    expect(await stored()).toBe('2');

    await page.reload();
    await page.getByTestId('side-menu').waitFor({ state: 'visible' });
    await openMenuGroup(page, 'system');
    await settled(page);
    expect(await stored()).toBe('2');
    expect(luminance(await layoutBg()), 'dark layout background after reload').toBeLessThan(0.1);
    expect(luminance(await cardBg()), 'dark content background after reload').toBeLessThan(0.1);
    // Text stays readable: the menu labels are light on the dark background.
    const menuColor = await page.getByTestId('menu-ip_black').evaluate((el) => getComputedStyle(el).color);
    expect(luminance(menuColor), 'menu text colour in dark mode').toBeGreaterThan(0.4);
    await screenshot(page, 'theme-dark');

    await page.getByTestId('theme-toggle').click();
    await until(async () => luminance(await layoutBg()) > 0.6, 'the light layout background again');
    expect(await stored()).toBe('1');
    expect(logOf(page).pageErrors).toEqual([]);
  });

  test('each language translates the menu and the system screens with no missing text', async () => {
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await settled(page);
    const english = await menuItem(page, 'ip_black').innerText();
    expect(english).toBe('IP blacklist');
    const englishSystem = await page.getByTestId('side-menu').locator('.ant-menu-submenu-title').first().innerText();

    const screens = ['administrators', 'role', 'log', 'ip_black', 'configuration'];
    for (const lng of ['sw-KE', 'zh-CN', 'en-US'] as const) {
      await page.getByTestId('language-switch').click();
      await page.getByTestId(`language-option-${lng}`).click();
      await until(async () => (await page.getByTestId('language-switch').innerText()) !== '' && (await page.evaluate(() => localStorage.getItem('language'))) === lng, `language ${lng} chosen`);

      // The texts of a language are fetched when it is chosen: the menu shows the previous language until
      // they arrive, so wait for this language's own script (Chinese characters for zh-CN, none for sw-KE).
      const cjk = /[\u4e00-\u9fff]/;
      const label = await until(async () => {
        const text = await menuItem(page, 'ip_black').innerText();
        if (lng === 'en-US') return text === english && text;
        if (lng === 'zh-CN') return cjk.test(text) && text;
        return text !== english && !cjk.test(text) && text;
      }, `the menu in ${lng}`);
      const group = await page.getByTestId('side-menu').locator('.ant-menu-submenu-title').first().innerText();
      if (lng === 'zh-CN') {
        expect(label, 'zh-CN menu label').toMatch(/[\u4e00-\u9fff]/);
        expect(group, 'zh-CN group label').toMatch(/[\u4e00-\u9fff]/);
      } else if (lng === 'sw-KE') {
        expect(label, 'sw-KE menu label').not.toBe(english);
        expect(label).not.toMatch(/[\u4e00-\u9fff]/);
        expect(group, 'sw-KE group label').not.toBe(englishSystem);
      } else {
        expect(group).toBe(englishSystem);
      }

      for (const screen of screens) {
        await menuItem(page, screen).click();
        await page.waitForURL(new RegExp(`#/customer/${screen}\\b`));
        // The previous screen stays until the next one has loaded (a transition): wait for the title.
        const title = await menuItem(page, screen).innerText();
        await until(async () => (await page.getByTestId('page-title').innerText()) === title, `the ${screen} screen's title "${title}"`);
        await page.getByTestId(screen === 'configuration' ? 'resource-settings' : 'resource-table').waitFor({ state: 'visible' });
        await settled(page);
        const heading = await page.locator('.ant-layout-content h4').first().innerText();
        expect(heading, `${screen} heading in ${lng}`).not.toBe('');
        if (lng === 'zh-CN') expect(heading, `${screen} heading in zh-CN`).toMatch(/[\u4e00-\u9fff]/);
      }
      // The create dialog's field labels too.
      await menuItem(page, 'ip_black').click();
      await page.getByTestId('resource-create').click();
      await page.locator('.ant-modal:visible').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('.ant-modal:visible').waitFor({ state: 'hidden' });
      await menuItem(page, 'administrators').click();
      await page.getByTestId('resource-table').waitFor({ state: 'visible' });
      await settled(page);
      await screenshot(page, `language-${lng}`);
      expect(missingKeys(page), `missing texts in ${lng}`).toEqual([]);
    }
    expect(logOf(page).pageErrors).toEqual([]);
  });

  test('a notice sent to a signed-in admin shows at once as a toast and is marked viewed', async () => {
    const { server } = e2e;
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    // The super admin lands on today's statistics.
    await page.getByTestId('today-statistics').waitFor({ state: 'visible' });
    await settled(page);
    const apiToken = await server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    const me = expectStatus(await server.api('GET', '/auth/me', undefined, apiToken), 200, 'me');

    // The console's socket is signed in once the server sees the admin online.
    await until(
      async () => (await server.api('GET', `/system/administrators/${me.user_info.id}`, undefined, apiToken)).body?.online_status === 2,
      'the admin to be online over the socket',
    );
    expect(await page.getByTestId('notice-toast').count()).toBe(0);
    await page.evaluate(() => ((window as unknown as { __e2eSamePage: boolean }).__e2eSamePage = true));

    const content = `Match feed delayed, check odds (${Date.now()})`;
    const sent = expectStatus(await server.api('POST', '/system/administrators/notify', { admin_ids: [me.user_info.id], content }, apiToken), 200, 'notify');
    expect(sent.sent).toBe(1);

    const toastEl = page.getByTestId('notice-toast').filter({ hasText: content });
    await fullyShown(toastEl);
    // Shown centred at the top, over the console.
    const box = (await toastEl.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - 720), 'toast centred').toBeLessThan(60);
    expect(box.y, 'toast at the top').toBeLessThan(120);
    expect(await page.evaluate(() => (window as unknown as { __e2eSamePage?: boolean }).__e2eSamePage), 'the page was not reloaded').toBe(true);
    await screenshot(page, 'notice-toast');

    // Viewed: no unviewed notice left, and the notice is in the full list.
    await until(async () => {
      const unread = await server.api('GET', '/notices?notify_status=1', undefined, apiToken);
      return unread.status === 200 && unread.body.total === 0 && unread.body.items.length === 0;
    }, 'the notice to be marked viewed');
    const all = expectStatus(await server.api('GET', '/notices', undefined, apiToken), 200, 'notices');
    expect(all.items.map((n: { content: string }) => n.content)).toContain(content);

    // It stays until closed: still there past the 3 s an ordinary toast lasts (a duration is what is
    // tested here, so this one wait is on the clock).
    await page.waitForTimeout(3500);
    expect(await toastEl.isVisible()).toBe(true);

    // A newer notice takes the place of the one on screen: one notice toast at a time.
    const newer = `Producer down, markets suspended (${Date.now()})`;
    expectStatus(await server.api('POST', '/system/administrators/notify', { admin_ids: [me.user_info.id], content: newer }, apiToken), 200, 'notify');
    await fullyShown(page.getByTestId('notice-toast').filter({ hasText: newer }));
    expect(await page.getByTestId('notice-toast').count(), 'one notice toast at a time').toBe(1);
    await page.getByTestId('notice-close').click();
    await page.getByTestId('notice-toast').first().waitFor({ state: 'hidden' });
    // Closed is closed: another screen, and a reload, do not bring it back (both were marked viewed).
    await until(async () => (await server.api('GET', '/notices?notify_status=1', undefined, apiToken)).body?.total === 0, 'both notices viewed');
    await page.reload();
    await page.getByTestId('today-statistics').waitFor({ state: 'visible' });
    await settled(page);
    expect(await page.getByTestId('notice-toast').count()).toBe(0);
    expect(logOf(page).pageErrors).toEqual([]);
  });
});
