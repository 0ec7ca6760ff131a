import type { Locator, Page } from 'playwright-core';
import { UI_TIMEOUT } from './browser';

/** Small waits on what the operator sees, shared by the browser tests. */

/** A toast (antd message) whose text contains `text`. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.ant-message-notice').filter({ hasText: text });
}

/** The texts of every toast the page has shown so far, in order (recorded by the browser support's init script). */
export async function toastsShown(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as unknown as { __dauToasts?: string[] }).__dauToasts ?? [])]);
}

/**
 * Runs `action` and waits until a toast containing `text` has appeared since it started, whether or not it
 * is still on screen (toasts leave after a few seconds). Answers the toast's text.
 */
export async function toastAfter(page: Page, text: string | RegExp, action: () => Promise<unknown>): Promise<string> {
  const before = (await toastsShown(page)).length;
  await action();
  const matches = (t: string) => (typeof text === 'string' ? t.includes(text) : text.test(t));
  return until(async () => (await toastsShown(page)).slice(before).find(matches), `a toast "${String(text)}"`);
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

/**
 * Waits until the screen has finished loading: no spinner, skeleton, blurred table or loading placeholder,
 * twice in a row (a lazy screen may start loading just after a first look).
 */
export async function settled(page: Page, timeout = UI_TIMEOUT) {
  const busy = () =>
    page.evaluate(
      () =>
        !!document.querySelector(
          '[data-testid="page-loading"], [data-testid="screen-loading"], .ant-spin-spinning, .ant-spin-blur, .ant-skeleton',
        ),
    );
  let calm = 0;
  await until(async () => {
    calm = (await busy()) ? 0 : calm + 1;
    return calm >= 2;
  }, 'the screen to finish loading', timeout);
}

/** Waits until the element and its ancestors are fully opaque (an appearing toast has finished fading in). */
export async function fullyShown(locator: Locator) {
  await locator.waitFor({ state: 'visible' });
  await until(
    () =>
      locator.evaluate((el) => {
        for (let e: Element | null = el; e && e !== document.body; e = e.parentElement) if (getComputedStyle(e).opacity !== '1') return false;
        return true;
      }),
    'the element to be fully shown',
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
