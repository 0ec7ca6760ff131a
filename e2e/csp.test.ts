import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { MenuNode } from '@dau/contract';
import { logOf, openRoute, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { settled, until } from './support/ui';

/**
 * The console works under the server's Content-Security-Policy: every screen of the super admin's menu
 * (demo data, so tables and ECharts charts have something to draw), the public pages, the socket and the
 * Swagger UI at /api/docs. Any CSP violation (the browser's `securitypolicyviolation` event, or its
 * "Content Security Policy" console message) fails the test.
 */
const e2e = useE2e({ server: { demo: true, timeoutMs: 170_000 } });

interface Watch {
  /** The violations since the last call (each screen is judged on its own). */
  violations: () => Promise<string[]>;
  sockets: string[];
}

/** Records CSP violations (event and console) and opened WebSockets of the page, from its first document on. */
async function watch(page: Page): Promise<Watch> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
  });
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  let seenConsole = 0;
  return {
    sockets,
    violations: async () => {
      const fromEvents = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp?.splice(0) ?? []).catch(() => [] as string[]);
      const errors = logOf(page).consoleErrors;
      const fromConsole = errors.slice(seenConsole).filter((m) => /Content.Security.Policy/i.test(m));
      seenConsole = errors.length;
      return [...fromEvents, ...fromConsole];
    },
  };
}

/** The visible pages of the menu tree (groups and buttons left out). */
function pagesOf(nodes: MenuNode[], depth = 0): string[] {
  return nodes.flatMap((n) => {
    const children = n.children.filter((c) => c.type === 1);
    if (depth > 0 && n.type === 1 && !n.hidden && children.length === 0) return [n.path];
    return pagesOf(children, depth + 1);
  });
}

describe('Content-Security-Policy', () => {
  test('the public pages have no violation', async () => {
    const page = await e2e.newPage();
    const w = await watch(page);
    for (const route of ['/admin_login', '/admin_register', '/maintain']) {
      await openRoute(page, route);
      await settled(page);
    }
    expect(await w.violations()).toEqual([]);
  });

  test('every screen of the menu, its charts and the socket work without a violation', { timeout: 900_000 }, async () => {
    const token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    const me = expectStatus(await e2e.server.api('GET', '/auth/me', undefined, token), 200, 'me');
    const paths = pagesOf(me.menus as MenuNode[]);
    expect(paths.length).toBeGreaterThan(40);

    const page = await e2e.newPage();
    const w = await watch(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await until(() => w.sockets.length > 0, 'the console socket to open');
    const perScreen: string[] = (await w.violations()).map((v) => `sign-in and landing: ${v}`);
    let charts = 0;
    for (const p of paths) {
      await openRoute(page, `/customer/${p}`);
      await settled(page, 30_000);
      charts += await page.locator('canvas').count();
      const v = await w.violations();
      if (v.length) perScreen.push(`${p}: ${v.join(' | ')}`);
    }
    expect(perScreen).toEqual([]);
    expect(charts, 'ECharts drew at least one chart').toBeGreaterThan(0);
    expect(w.sockets.every((u) => u.startsWith(e2e.server.baseUrl.replace(/^http/, 'ws')))).toBe(true);
    expect(logOf(page).pageErrors).toEqual([]);
    console.info(`CSP: ${paths.length} screens checked, ${charts} chart canvases seen, ${w.sockets.length} socket(s).`);
  });

  test('the Swagger UI works for a signed-in admin, and its document is refused to strangers', async () => {
    expect((await fetch(`${e2e.server.baseUrl}/api/docs/json`)).status).toBe(401);
    const page = await e2e.newPage();
    const w = await watch(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await page.goto('/api/docs');
    // Swagger UI parses the whole document first: on a busy machine that takes a while; the test's own limit bounds it.
    await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 0 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(100);
    expect(await w.violations()).toEqual([]);
  });
});
