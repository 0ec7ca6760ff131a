import type { Locator, Page } from 'playwright-core';
import { logOf, screenshot, SHOTS } from './browser';
import { settled, until } from './ui';

/** Opening screens, screenshots in both themes and antd Selects: shared by the browser tests of the screens. */

/**
 * Opens a screen and waits for its title. The console's build is shared by the browser tests running on
 * this machine: when another run rebuilds it meanwhile, this page's lazily loaded chunks are gone (the
 * import fails); the page is then reloaded, which fetches the new build's.
 */
export async function openScreen(page: Page, route: string, title: string) {
  const failedImports = () => logOf(page).consoleErrors.filter((e) => e.includes('Failed to fetch dynamically imported module')).length;
  let before = failedImports();
  await page.goto(`/#/customer/${route}`);
  for (let attempt = 0; ; attempt++) {
    await until(async () => (await page.getByTestId('page-title').innerText({ timeout: 5_000 })) === title, `the ${route} screen`);
    await settled(page);
    if (failedImports() === before || attempt >= 3) break;
    before = failedImports();
    await page.reload();
  }
}

export async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(1, 1);
  await screenshot(page, name);
}

export async function setTheme(page: Page, theme: 'light' | 'dark') {
  const dark = () => page.evaluate(() => localStorage.getItem('theme') === '2');
  if ((await dark()) !== (theme === 'dark')) await page.getByTestId('theme-toggle').evaluate((el) => (el as HTMLElement).click());
  await until(async () => (await dark()) === (theme === 'dark'), `the ${theme} theme`);
}

/** Screenshots in both themes, back to light (only when screenshots are taken: DAU_E2E_SHOTS=1). */
export async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await shot(page, `${name}-${theme}`);
  }
  await setTheme(page, 'light');
}

/** Chooses an option of an antd Select (the dropdown opens with an animation: again until it shows the choice). */
export async function choose(page: Page, select: Locator, option: string | RegExp, typed?: string) {
  const want = typeof option === 'string' ? new RegExp(option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : option;
  await until(async () => {
    if (want.test(await select.innerText())) return true;
    await select.click();
    if (typed) await select.locator('input').fill(typed);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: want }).first().click({ timeout: 5_000 });
    return want.test(await select.innerText());
  }, `option ${String(option)} chosen`);
}

/** Switches the console's language (stored, then a reload) and opens a screen in it, waiting for its title. */
export async function openInLanguage(page: Page, lng: string, route: string, title: string) {
  await page.evaluate((l) => localStorage.setItem('language', l), lng);
  await page.goto(`/#/customer/${route}`);
  await page.reload();
  await until(async () => (await page.getByTestId('page-title').innerText()) === title, `${lng}: the ${route} screen`);
  await settled(page);
}
