import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT, startServer, type DauServer, type ServerOptions } from './server';

/**
 * Debian's Chromium driven by playwright-core: one browser per test file, a new context (1440x900) per
 * test, and per page the console errors and uncaught page errors (the console logs
 * `[i18n] missing key: <key>` for a text missing in the current language).
 */

/**
 * Debian's Chromium headless shell (package chromium-headless-shell: the same Chromium build without the
 * browser's own window layers) when installed, else Debian's chromium. Measured on the browser phase: the
 * Chromium processes took 890 of its 1,666 CPU-seconds; the headless shell does the same pages with
 * about a quarter less. `DAU_CHROMIUM` names another binary.
 */
export const CHROMIUM = process.env.DAU_CHROMIUM ?? (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
export const SHOTS_DIR = path.join(ROOT, 'e2e/.shots');
/**
 * The bound of a wait on something the operator should see. Not a performance budget: waits poll for a
 * state and this only turns a state that never comes into a failure that names it (a loaded CI machine
 * may take tens of seconds for what takes one here). `DAU_E2E_WAIT_MS` overrides it.
 */
export const UI_TIMEOUT = Number(process.env.DAU_E2E_WAIT_MS) || 120_000;

export interface PageLog {
  /** Text of every console message of type error. */
  consoleErrors: string[];
  /** Uncaught exceptions of the page. */
  pageErrors: string[];
}

const logs = new WeakMap<Page, PageLog>();

export function logOf(page: Page): PageLog {
  let log = logs.get(page);
  if (!log) {
    log = { consoleErrors: [], pageErrors: [] };
    logs.set(page, log);
  }
  return log;
}

function track(page: Page) {
  const log = logOf(page);
  page.on('console', (m) => {
    if (m.type() === 'error') log.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => log.pageErrors.push(`${e.name}: ${e.message}`));
  page.setDefaultTimeout(UI_TIMEOUT);
}

/** The `[i18n] missing key` messages the page printed. */
export function missingKeys(page: Page): string[] {
  return logOf(page).consoleErrors.filter((t) => t.includes('[i18n] missing key'));
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium-headless-shell fonts-noto-cjk (or run \`npm run test:e2e\`).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Installed in every page before its scripts: records the text of each toast (antd message) as it
 * appears, so a test can wait for a toast it may have missed on screen (a toast leaves after 3 s; a busy
 * machine may not look in time). Read by `toastSeen` (./ui).
 */
function recordToasts() {
  const w = window as unknown as { __dauToasts?: string[] };
  if (w.__dauToasts) return;
  const seen: string[] = (w.__dauToasts = []);
  // A toast with a key is one element whose text changes (a "Saving..." that becomes "Successful
  // operation"): each text an element shows is recorded, not only its first.
  const shown = new WeakMap<Element, string>();
  const scan = () => {
    for (const el of Array.from(document.querySelectorAll('.ant-message-notice'))) {
      const text = (el.textContent ?? '').trim();
      if (text && shown.get(el) !== text) {
        shown.set(el, text);
        seen.push(text);
      }
    }
  };
  new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true });
}

/**
 * What every test context asks of the console: the system's "reduce motion" (the console then turns off
 * antd's fades and slides, app/theme.ts), so a drawer or a dialog is there at once and no frame is spent
 * animating on a busy machine.
 */
export const CONTEXT_DEFAULTS = { reducedMotion: 'reduce' } as const;

export async function newContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({ ...CONTEXT_DEFAULTS, viewport: { width: 1440, height: 900 }, baseURL: baseUrl, locale: 'en-US' });
  await context.addInitScript(recordToasts);
  context.on('page', track);
  return context;
}

/** A new page of the context; its console is tracked (`context.on('page')`). */
export async function newPage(context: BrowserContext): Promise<Page> {
  return context.newPage();
}

/** Opens a hash route of the console (`/admin_login`, `/customer/ip_black`...). */
export async function openRoute(page: Page, route: string) {
  await page.goto(`/#${route.startsWith('/') ? route : `/${route}`}`);
}

/** Signs in through the real login form; resolves when the console shows its menu. */
export async function signIn(page: Page, account: string, password: string) {
  await page.goto('/#/admin_login');
  await page.getByTestId('login-account').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  // The console goes on to the landing screen by itself after signing in: wait for it, or it overtakes the next navigation.
  await page.waitForURL(/#\/customer\/[a-z_]+/);
  await page.getByTestId('side-menu').waitFor({ state: 'visible' });
  await openMenuGroup(page, 'system');
}

/** Opens a group of the side menu (the landing page opens its own group only), if the admin has it. */
export async function openMenuGroup(page: Page, group: string) {
  const title = page.getByTestId(`menu-group-${group}`);
  if ((await title.count()) === 0) return;
  const submenu = page.locator('.ant-menu-submenu', { has: title });
  if (await submenu.evaluate((el) => el.classList.contains('ant-menu-submenu-open'))) return;
  await title.click();
  await page.waitForFunction(
    (g) => document.querySelector(`[data-testid="menu-group-${g}"]`)?.closest('.ant-menu-submenu')?.classList.contains('ant-menu-submenu-open'),
    group,
  );
  await animationsDone(page);
}

/** Waits (up to `timeout`) until no finite CSS animation or transition is running (fades, slides). */
export async function animationsDone(page: Page, timeout = 3_000) {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout, polling: 100 },
    )
    .catch(() => undefined);
}

/**
 * Screenshots to look at are taken with `DAU_E2E_SHOTS=1` (no assertion reads them: an ordinary run skips
 * them); every page of a test that failed is captured whatever the setting (useE2e).
 */
export const SHOTS = process.env.DAU_E2E_SHOTS === '1';

/** With DAU_E2E_SHOTS=1: saves a full-page PNG under e2e/.shots/<name>.png and returns its path ('' otherwise). */
export async function screenshot(page: Page, name: string): Promise<string> {
  return SHOTS ? capture(page, name) : '';
}

async function capture(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  await animationsDone(page);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** What the pages of a failed test showed: e2e/.shots/failed-<test>-<n>.png. */
export async function captureFailure(contexts: readonly BrowserContext[], test: string) {
  const pages = contexts.flatMap((c) => c.pages());
  for (const [i, page] of pages.entries()) {
    const file = await capture(page, `failed-${test.slice(0, 80)}-${i + 1}`).catch(() => '');
    if (file) console.error(`screenshot of the failed test: ${file}`);
  }
}

export interface E2e {
  readonly server: DauServer;
  readonly browser: Browser;
  /** A fresh context (own storage) and its first page; closed after the test. */
  newPage(): Promise<Page>;
}

/**
 * The usual set-up of a browser test file: a fresh server and one Chromium for the file, the contexts
 * of each test closed after it. Call at the top level of the file. `server` chooses how the file's server
 * starts (default: no demo data).
 */
export function useE2e(opts: { server?: ServerOptions } = {}): E2e {
  let server: DauServer | undefined;
  let browser: Browser | undefined;
  const open: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startServer(opts.server);
    browser = await launchBrowser();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await captureFailure(open, ctx.task.name);
    await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  return {
    get server() {
      if (!server) throw new Error('the server is not started (beforeAll failed)');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not launched (beforeAll failed)');
      return browser;
    },
    async newPage() {
      const context = await newContext(this.browser, this.server.baseUrl);
      open.push(context);
      return newPage(context);
    },
  };
}
