import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { BETTING_RESOURCES, MONEY_RESOURCES, SPORTS_RESOURCES, SYSTEM_RESOURCES, type ResourceDef } from '@dau/contract';
import { logOf, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { settled } from './support/ui';

/**
 * Every list screen with a view (eye) drawer: the drawer of its first row shows the row's values, not "-"
 * (the order lists read `{ order, lines }` as if it were the order), and opening it logs no console error
 * (the archives have no GET /:id: the drawer must not ask for one).
 *
 * Data: demo data (bettors with 60 days of bills, recharges and withdrawals, staff, catalogues), and an
 * open order from the betting sandbox route. The order archives hold orders older than 30 days, which no
 * route can create: their list answer is the recent order's row, served through the browser (page.route).
 */
const e2e = useE2e({ server: { demo: true, simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } } });
let token = '';
let order: { id: number; order_no: string; bettor_id: number; phone: string };
/** A demo bettor with money history (bills, recharges, withdrawals). */
let bettor: { id: number; phone: string };

const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, token);

beforeAll(async () => {
  token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  order = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 2_000_00 }), 201, 'sandbox order');
  const users = expectStatus(await api('GET', '/money/bettors?page_size=50&sort=-id'), 200, 'bettors');
  const withBills = [];
  for (const u of users.items as { id: number; phone: string }[]) {
    const bills = expectStatus(await api('GET', `/money/bills/archive?bettor_id=${u.id}&page_size=1`), 200, 'archive bills');
    const withdrawals = expectStatus(await api('GET', `/money/withdrawals?bettor_id=${u.id}&page_size=1`), 200, 'withdrawals');
    if (bills.items.length && withdrawals.items.length) withBills.push(u);
    if (withBills.length) break;
  }
  expect(withBills.length, 'a demo bettor with old bills and withdrawals').toBe(1);
  bettor = withBills[0];
}, 120_000);

/** Screens whose drawer is not the declaration's generic one, or that have no eye button. */
const NOT_GENERIC = new Set(['user', 'user_list', 'cs_user', 'online_statistical', 'activity_qualification', 'match_list']);

const ORDER_SCREENS = new Set(['order_list', 'cs_order', 'order_archive', 'cs_order_archive', 'bet_remind']);

const LISTS: ResourceDef[] = [...SYSTEM_RESOURCES, ...SPORTS_RESOURCES, ...BETTING_RESOURCES, ...MONEY_RESOURCES].filter(
  (d) => d.kind === 'list' && !NOT_GENERIC.has(d.name),
);

/** The filter a query screen needs, for the order's bettor (order lists) or the demo bettor (money lists). */
function queryOf(def: ResourceDef): Record<string, string> {
  const anyOf = def.requiredFilters?.anyOf ?? [];
  const who = ORDER_SCREENS.has(def.name) ? { id: order.bettor_id, phone: order.phone } : bettor;
  if (anyOf.includes('bettor_id')) return { bettor_id: String(who.id) };
  if (anyOf.includes('phone')) return { phone: who.phone };
  if (anyOf.length) throw new Error(`${def.name}: no bettor filter among ${anyOf.join(', ')}`);
  return {};
}

/** Text values of the row that the drawer must show as they are (no enumeration labels, no codes). */
function shownTexts(def: ResourceDef, row: Record<string, unknown>): string[] {
  return def.fields
    .filter((f) => f.type === 'text' && !f.labels && f.detail !== false)
    .map((f) => row[f.key])
    // Codes (`recharge`, `feed`) are shown by their label: only free text is looked for as it is.
    .filter((v): v is string => typeof v === 'string' && v.trim().length > 0 && v.length <= 60 && !/^[a-z_]+$/.test(v));
}

async function openDrawer(page: Page, def: ResourceDef, query: Record<string, string>, row: Record<string, unknown>) {
  const qs = new URLSearchParams(query).toString();
  await page.goto(`/#/customer/${def.name}${qs ? `?${qs}` : ''}`);
  await page.getByTestId('page-title').waitFor({ state: 'visible' });
  await settled(page);
  const view = page.getByTestId(`row-view-${String(row.id)}`);
  await view.waitFor({ state: 'visible' });
  await view.click();
  const drawer = page.getByTestId('resource-detail');
  await drawer.waitFor({ state: 'visible' });
  await settled(page);
  return drawer;
}

describe('view drawers of every list', () => {
  test('each list drawer shows the row it was opened on, and logs no error', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // The archives: the recent order stands for an old one (no route creates orders older than 30 days).
    const recent = expectStatus(await api('GET', `/betting/orders?id=${order.id}`), 200, 'the order').items;
    expect(recent).toHaveLength(1);
    await page.route(/\/api\/v1\/betting\/(cs\/)?orders\/archive\?/, (route) =>
      route.fulfill({ json: { items: recent, total: 1, total_exact: true, page: 1, page_size: 20 } }),
    );

    const checked: string[] = [];
    const empty: string[] = [];
    for (const def of LISTS) {
      const query = queryOf(def);
      const isArchive = /^(cs_)?order_archive$/.test(def.name);
      const qs = new URLSearchParams({ ...query, page_size: '20', ...(def.defaultSort ? { sort: def.defaultSort } : {}) });
      const items = isArchive ? recent : expectStatus(await api('GET', `${def.api}?${qs}`), 200, `${def.name} list`).items;
      if (!items.length) {
        empty.push(def.name);
        continue;
      }
      const row = items[0];
      const texts = shownTexts(def, row);
      const errorsBefore = log.consoleErrors.length;
      const drawer = await openDrawer(page, def, query, row);
      // The drawer's own values: as many "-" as the row has empty fields, never all of them.
      const values = await drawer.locator('.ant-descriptions-item-content').allInnerTexts();
      expect(values.length, `${def.name}: fields in the drawer`).toBeGreaterThan(1);
      const dashes = values.filter((v) => v.trim() === '-').length;
      expect(dashes, `${def.name}: "-" in ${values.length} fields`).toBeLessThan(values.length / 2);
      const text = await drawer.innerText();
      for (const v of texts) expect(text, `${def.name}: ${v}`).toContain(v);
      expect(log.consoleErrors.slice(errorsBefore), `${def.name}: console errors`).toEqual([]);
      checked.push(def.name);
      await drawer.locator('.ant-drawer-close').click();
      await drawer.waitFor({ state: 'hidden' });
    }
    // The screens of the issue are among those checked; no screen is left without data unnoticed.
    for (const name of ['order_list', 'cs_order', 'order_archive', 'cs_order_archive', 'withdraw_list', 'recharge_list', 'bill', 'bill_archive', 'log']) {
      expect(checked, `${name} checked`).toContain(name);
    }
    console.info(`drawers checked: ${checked.length}; lists without a row in the test data: ${empty.join(', ') || 'none'}`);
    expect(log.pageErrors).toEqual([]);
  }, 300_000);
});
