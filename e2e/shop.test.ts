import { describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, field, rowByKey, rowWithText, settled, toastAfter, until } from './support/ui';
import { choose, openScreen, shot, shots } from './support/screens';

/**
 * Issue 16 (SHOP) in the browser: an operator builds a branch of the shop's category tree (a category
 * under a superior picked in a tree), creates a product with two cover pictures uploaded from the form,
 * its category picked among the shown categories (fetched at start, spec §7), a brand, a property pair
 * and a colour, and sees it on the list; then reads the visitor charts (the simulator's 30 days of
 * history and its live visits) and the visits list; some texts in en-US, sw-KE and zh-CN; screenshots in
 * both themes, at 1280 px and on a phone.
 *
 * Data: no demo data; the simulator runs for its visitors (it gives a fresh install 30 days of visits and
 * a demo shop before its first live visits; its other activity needs the demo's agents and does nothing).
 */
const e2e = useE2e({ server: { demo: false, simulator: true } });
const api = <T = any>(method: string, p: string, body?: unknown, token?: string) => e2e.server.api<T>(method, p, body, token);

/** Two different 1×1 PNG pictures. */
const PNG_A = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const PNG_B = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const itemOf = (scope: Locator, label: string) => scope.locator('.ant-form-item', { has: scope.page().locator('.ant-form-item-label label', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) });

describe('shop and visitors', () => {
  test('a category tree, a product with uploaded pictures, the visitor charts and visits; three languages', async () => {
    const token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    const brand = expectStatus(await api('POST', '/shop/brands', { name: 'E2E Brand', sort: 99, shown: true }, token), 201, 'brand');
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // ---------------------------------------------------------------------------------- categories
    await openScreen(page, 'mall_category_list', 'Shop categories');
    await page.getByTestId('resource-create').click();
    let form = dialog(page);
    await form.waitFor();
    await field(form, 'Title').fill('E2E Phones');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    await rowWithText(page, 'E2E Phones').waitFor();
    await page.getByTestId('resource-create').click();
    form = dialog(page);
    await form.waitFor();
    await field(form, 'Title').fill('E2E Cases');
    // The superior, picked in the tree of categories.
    await until(async () => {
      await form.getByTestId('category-parent').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: /^E2E Phones$/ }).first().click({ timeout: 5_000 });
      return (await itemOf(form, 'Superior category').innerText()).includes('E2E Phones');
    }, 'the superior chosen');
    await shots(page, 'shop-01-category-form');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    const cats = expectStatus(await api('GET', '/shop/categories?title=E2E', undefined, token), 200, 'categories').items;
    const phones = cats.find((c: any) => c.title === 'E2E Phones');
    const cases = cats.find((c: any) => c.title === 'E2E Cases');
    expect(cases.parent_id).toBe(phones.id);
    expect(await rowByKey(page, cases.id).innerText()).toContain('E2E Phones');
    await shots(page, 'shop-02-categories');

    // Issue 29: a category's superior is never itself nor one of its descendants; its language is picked in the language list.
    await page.getByTestId(`row-edit-${phones.id}`).click();
    form = dialog(page);
    await form.waitFor();
    await form.getByTestId('category-parent').click();
    const offered = page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper');
    await offered.first().waitFor();
    const titles = await offered.allInnerTexts();
    expect(titles).not.toContain('E2E Phones');
    expect(titles).not.toContain('E2E Cases');
    await page.keyboard.press('Escape');
    await choose(page, itemOf(form, 'Language').locator('.ant-select'), 'Kiswahili (sw-KE)');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    expect(expectStatus(await api('GET', `/shop/categories/${phones.id}`, undefined, token), 200, 'the edited category')).toMatchObject({ language: 'sw-KE', parent_id: null });

    // ------------------------------------------------------------------------------------ product
    await openScreen(page, 'mall_product_list', 'Shop products');
    await page.getByTestId('resource-create').click();
    form = dialog(page);
    await form.waitFor();
    await field(form, 'Title').fill('E2E Phone case');
    await until(async () => {
      await form.getByTestId('product-category').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: /^E2E Cases$/ }).first().click({ timeout: 5_000 });
      return (await itemOf(form, 'Category').innerText()).includes('E2E Cases');
    }, 'the category chosen in the tree');
    await choose(page, itemOf(form, 'Brand').locator('.ant-select'), 'E2E Brand');
    await field(form, 'Price').fill('12,500');
    await field(form, 'Lowest price').fill('9,900.50');
    await field(form, 'Stock').fill('40');
    // Two cover pictures, uploaded from the form (POST /api/v1/file/add).
    await itemOf(form, 'Cover images').locator('input[type="file"]').setInputFiles([
      { name: 'front.png', mimeType: 'image/png', buffer: PNG_A },
      { name: 'back.png', mimeType: 'image/png', buffer: PNG_B },
    ]);
    await until(async () => (await itemOf(form, 'Cover images').locator('.ant-image img').count()) === 2, 'two cover thumbnails');
    await form.getByTestId('product-property-add').click();
    await form.getByTestId('product-properties').locator('input').nth(0).fill('Material');
    await form.getByTestId('product-properties').locator('input').nth(1).fill('Silicone');
    await form.getByTestId('product-colours').locator('input').fill('black');
    await form.getByTestId('product-colours').locator('input').press('Enter');
    await shots(page, 'shop-03-product-form');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    const product = expectStatus(await api('GET', '/shop/products?title=E2E%20Phone', undefined, token), 200, 'products').items[0];
    expect(product).toMatchObject({ category_id: cases.id, brand_id: brand.id, price: 12_500_00, lowest_price: 9_900_50, stock: 40, colours: 'black' });
    expect(product.cover_images).toHaveLength(2);
    for (const url of product.cover_images) expect(url).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    expect(JSON.parse(product.properties)).toEqual([{ name: 'Material', value: 'Silicone' }]);
    const row = rowByKey(page, product.id);
    await row.waitFor();
    expect(await row.innerText()).toContain('E2E Phones / E2E Cases');
    expect(await row.innerText()).toContain('12,500');
    // The picture is served as uploaded.
    const pic = await page.request.get(product.cover_images[0]);
    expect(pic.status()).toBe(200);
    expect(pic.headers()['content-type']).toBe('image/png');
    await shots(page, 'shop-04-products');
    await page.setViewportSize({ width: 390, height: 844 });
    await settled(page);
    await shot(page, 'shop-05-products-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // ----------------------------------------------------------------------------------- visitors
    // The simulator's first tick writes 30 days of history; then live visits arrive.
    await until(async () => {
      const s = expectStatus(await api('GET', '/visitors/stats', undefined, token), 200, 'visitor stats');
      return s.totals.visits > 0 && s.days.filter((d: any) => d.visits > 0).length >= 6;
    }, 'the visit history');
    await openScreen(page, 'visitor', 'Visitors');
    const visits = Number((await page.getByTestId('visitor-figure-visits').innerText()).replace(/\D/g, ''));
    expect(visits).toBeGreaterThan(0);
    for (const chart of ['days', 'hours', 'devices', 'sources', 'countries']) {
      const box = page.getByTestId(`visitor-chart-${chart}`);
      await box.scrollIntoViewIfNeeded();
      await until(async () => (await box.getAttribute('data-chart-state')) === 'drawn' && (await box.locator('canvas').count()) > 0, `the ${chart} chart drawn`);
    }
    expect(await page.getByTestId('visitor-day-table').locator('tr.ant-table-row').count()).toBe(7);
    await until(async () => (await page.getByTestId('resource-table').locator('tr.ant-table-row').count()) > 0, 'the visits list');
    await shots(page, 'shop-06-visitors');
    await page.setViewportSize({ width: 390, height: 844 });
    await settled(page);
    await shot(page, 'shop-07-visitors-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // ----------------------------------------------------------------------------------- languages
    for (const [lng, visitorsTitle, chartTitle, productsTitle, fieldLabel] of [
      ['sw-KE', 'Wageni', 'Wageni kwa siku', 'Bidhaa za duka', 'Bei ya chini kabisa'],
      ['zh-CN', '访客', '每日访客', '商城商品', '最低价'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('language', l), lng);
      await page.goto('/#/customer/visitor');
      await page.reload();
      await until(async () => (await page.getByTestId('page-title').innerText()) === visitorsTitle, `${lng}: the visitors title`);
      await settled(page);
      expect(await page.locator('body').innerText(), `${lng}: chart title`).toContain(chartTitle);
      await shot(page, `shop-08-visitors-${lng}`);
      await openScreen(page, 'mall_product_list', productsTitle);
      await page.getByTestId(`row-edit-${product.id}`).click();
      form = dialog(page);
      await form.waitFor();
      expect(await form.innerText(), `${lng}: form label`).toContain(fieldLabel);
      await shot(page, `shop-09-product-form-${lng}`);
      await form.locator('.ant-modal-close').click();
      await form.waitFor({ state: 'hidden' });
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    expect(missingKeys(page), 'no missing text').toEqual([]);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});
