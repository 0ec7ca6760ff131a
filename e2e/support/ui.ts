import type { Locator, Page } from 'playwright-core';
import { UI_TIMEOUT } from './browser';

/** Small waits on what the operator sees, shared by the browser tests. */

/** A toast (antd message) whose text contains `text`. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.ant-message-notice').filter({ hasText: text });
}

/** The open dialog (antd Modal) whose title contains `title`, or the last open one. */
export function dialog(page: Page, title?: string | RegExp): Locator {
  const all = page.locator('.ant-modal:visible');
  return title ? all.filter({ has: page.locator('.ant-modal-title', { hasText: title }) }) : all.last();
}

/** The table row (antd Table, `data-row-key`) of the row with this key. */
export function rowByKey(page: Page, key: string | number): Locator {
  return page.getByTestId('resource-table').locator(`tr.ant-table-row[data-row-key="${key}"]`);
}

/** The first table row whose text contains `text`. */
export function rowWithText(page: Page, text: string | RegExp): Locator {
  return page.getByTestId('resource-table').locator('tr.ant-table-row').filter({ hasText: text });
}

/** Waits until the screen has finished loading: no spinner, skeleton or loading placeholder left. */
export async function settled(page: Page, timeout = UI_TIMEOUT) {
  await page.waitForFunction(
    () =>
      !document.querySelector(
        '[data-testid="page-loading"], [data-testid="screen-loading"], .ant-spin-spinning, .ant-skeleton, .ant-table-placeholder .ant-spin',
      ),
    undefined,
    { timeout },
  );
}

/** Resolves when `fn` returns a truthy value (polled), or fails with `what`. */
export async function until<T>(fn: () => Promise<T> | T, what: string, timeout = UI_TIMEOUT): Promise<T> {
  const end = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`Timed out after ${timeout} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Relative luminance (0 black … 1 white) of a CSS `rgb()/rgba()` colour. */
export function luminance(css: string): number {
  const m = css.match(/rgba?\(([^)]+)\)/);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  const [r, g, b] = m[1]
    .split(/[ ,/]+/)
    .filter(Boolean)
    .slice(0, 3)
    .map((x) => Number(x) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The input of the form item labelled `label` inside `scope` (a dialog, a drawer, a card). Found through
 * the item rather than the label's `for`: the search form and the dialog's form give their inputs the
 * same ids (the field keys), so `getByLabel` would point at the search form's input.
 */
export function field(scope: Locator, label: string | RegExp): Locator {
  const text = typeof label === 'string' ? new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) : label;
  return scope
    .locator('.ant-form-item')
    .filter({ has: scope.page().locator('.ant-form-item-label label', { hasText: text }) })
    .locator('input:not([type="hidden"]), textarea')
    .first();
}
