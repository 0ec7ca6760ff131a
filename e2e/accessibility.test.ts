import fs from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { animationsDone, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, settled, until } from './support/ui';

/**
 * Accessibility (WCAG 2.1 A and AA): axe-core runs on the login page, the main screens, a drawer and a
 * dialog, in the light and the dark theme; any serious or critical violation fails the test, listed with
 * the elements axe names.
 *
 * Data: the demo back office (bettors, bills, recharges, withdrawals, staff, roles, the system log) and
 * one sandbox order, whose match has odds for the odds drawer and which the order list finds by number.
 */
// The demo data takes a while to seed on a busy machine: a longer start-up allowance than the default.
const e2e = useE2e({ server: { demo: true, simulator: false, timeoutMs: 150_000, env: { DAU_SANDBOX_ROUTES: '1' } } });
// Evaluated through the browser's debugging protocol rather than added as a <script>: the console's
// Content-Security-Policy (script-src 'self') rightly refuses inline scripts.
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
let order: { id: number; order_no: string };

beforeAll(async () => {
  const token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  order = expectStatus(await e2e.server.api('POST', '/sandbox/betting/orders', {}, token), 201, 'sandbox order');
});

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: AxeNode[];
}

/** axe-core's WCAG 2.1 A+AA violations on the page as it is now (axe loaded once per document). */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const { violations } = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })) }));
  }, WCAG_TAGS);
}

interface Screen {
  name: string;
  /** Route under /customer/ (none: the login page). */
  route?: string;
  title?: string;
  /** The test id of the element that shows the screen has loaded (default: the resource table). */
  ready?: string;
  /** What to do once the screen has loaded (a filter, a drawer, a dialog); resolves when it is shown. */
  then?(page: Page): Promise<void>;
}

/** The drawer or dialog that just opened, once it has finished loading and sliding in. */
async function shown(page: Page, overlay: Locator) {
  await overlay.waitFor({ state: 'visible' });
  await settled(page);
  await animationsDone(page);
}

/**
 * A step that opens the first row's drawer with the button whose test id starts with `button`, and waits
 * for `content` (a selector inside the drawer) to show.
 */
const rowDrawer = (button: string, content: string) => async (page: Page) => {
  await page.locator(`[data-testid^="${button}"]`).first().click();
  const drawer = page.locator('.ant-drawer-open .ant-drawer-section');
  await shown(page, drawer);
  await drawer.locator(content).first().waitFor({ state: 'visible' });
};

const SCREENS: Screen[] = [
  { name: 'login' },
  { name: 'today_statistics', route: 'today_statistics', title: "Today's statistics", ready: 'today-statistics' },
  {
    name: 'order_list (filtered by order number)',
    route: 'order_list',
    title: 'Bet orders',
    async then(page) {
      const search = page.getByTestId('resource-search');
      await search.locator('.ant-form-item').filter({ hasText: 'Order number' }).locator('input').first().fill(order.order_no);
      await page.getByTestId('resource-search-submit').click();
      await page.waitForURL(new RegExp(`order_no=${order.order_no}`));
      await page.getByTestId('resource-table').locator(`tr.ant-table-row[data-row-key="${order.id}"]`).waitFor({ state: 'visible' });
      await settled(page);
    },
  },
  {
    name: 'match_list + odds drawer',
    route: 'match_list',
    title: 'Matches',
    then: rowDrawer('match-odds-', '[data-testid^="odds-price-"]'),
  },
  { name: 'user (bettors)', route: 'user', title: 'User management' },
  {
    name: 'user + detail drawer (tabs)',
    route: 'user',
    title: 'User management',
    then: rowDrawer('row-view-', '[role="tab"][aria-selected="true"]'),
  },
  { name: 'withdraw_list', route: 'withdraw_list', title: 'Withdrawals' },
  { name: 'recharge_list', route: 'recharge_list', title: 'Recharges' },
  { name: 'bill', route: 'bill', title: 'Bills' },
  { name: 'administrators', route: 'administrators', title: 'Administrators' },
  {
    name: 'administrators + create dialog',
    route: 'administrators',
    title: 'Administrators',
    async then(page) {
      await page.getByTestId('admin-create').click();
      await shown(page, dialog(page));
    },
  },
  {
    name: 'role + permission drawer',
    route: 'role',
    title: 'Roles & permissions',
    then: rowDrawer('row-permissions-', '.ant-tree-treenode:not([aria-hidden])'),
  },
  { name: 'log', route: 'log', title: 'System log' },
  { name: 'bet_config', route: 'bet_config', title: 'Bet settings', ready: 'resource-settings' },
  { name: 'league_list', route: 'league_list', title: 'Leagues' },
  { name: 'history_statistics', route: 'history_statistics', title: 'Historical statistics', ready: 'history-statistics' },
];

/**
 * Opens the screen from the address bar, in the same document: a screen entered other than from the bar of
 * open pages starts afresh, and the last screen's drawer or dialog stays in its own (hidden) tab. No reload:
 * a new document per screen cost more than the checks themselves.
 */
async function open(page: Page, screen: Screen) {
  await page.goto(screen.route ? `/#/customer/${screen.route}` : '/#/admin_login');
  if (!screen.route) {
    await page.getByTestId('login-submit').waitFor({ state: 'visible' });
  } else {
    await until(async () => (await page.getByTestId('page-title').innerText().catch(() => '')) === screen.title, `the ${screen.name} screen`);
    // The screen itself, not an error page in its place.
    await page.getByTestId(screen.ready ?? 'resource-table').waitFor({ state: 'visible' });
  }
  await settled(page);
  await screen.then?.(page);
  await animationsDone(page);
}

function describeViolation(v: AxeViolation): string {
  const nodes = v.nodes.slice(0, 4).map((n) => `    ${JSON.stringify(n.target)} ${n.html.slice(0, 160)}\n      ${(n.failureSummary ?? '').replace(/\n/g, ' ').slice(0, 240)}`);
  return `  ${v.id} (${v.impact}, ${v.nodes.length} element(s)): ${v.help}\n${nodes.join('\n')}${v.nodes.length > 4 ? '\n    …' : ''}`;
}

describe('accessibility (axe-core, WCAG 2.1 A+AA)', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`no serious or critical violation on the main screens, a drawer and a dialog: ${theme} theme`, { timeout: 900_000 }, async () => {
      const page = await e2e.newPage();
      // The theme is chosen before the console starts (the stored preference, key `theme`: '1' light, '2' dark).
      await page.context().addInitScript((t) => localStorage.setItem('theme', t), theme === 'dark' ? '2' : '1');
      await page.goto('/#/admin_login');
      await page.getByTestId('login-submit').waitFor({ state: 'visible' });
      await until(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === theme, `the ${theme} theme`);

      const failures: string[] = [];
      const counts: Record<string, number> = {};
      let signedIn = false;
      for (const screen of SCREENS) {
        if (screen.route && !signedIn) {
          // Sign in once, through the form, after the login page has been checked.
          await page.getByTestId('login-account').fill(ADMIN_ACCOUNT);
          await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
          await page.getByTestId('login-submit').click();
          await page.waitForURL(/#\/customer\/[a-z_]+/); // the landing screen, which would overtake the next navigation
          await page.getByTestId('side-menu').waitFor({ state: 'visible' });
          signedIn = true;
        }
        await open(page, screen);
        const bad = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        for (const v of bad) counts[v.id] = (counts[v.id] ?? 0) + v.nodes.length;
        if (bad.length > 0) failures.push(`${screen.name} [${theme}]:\n${bad.map(describeViolation).join('\n')}`);
      }
      console.log(`axe ${theme}: ${JSON.stringify(counts)}`);
      expect(failures.join('\n\n'), `serious/critical WCAG violations (${theme})`).toBe('');
    });
  }
});
