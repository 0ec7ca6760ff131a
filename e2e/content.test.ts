import zlib from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, field, rowByKey, settled, toastAfter, until } from './support/ui';
import { choose, openScreen, shot, shots } from './support/screens';

/**
 * Issue 16 (FILES) in the browser: an operator uploads a banner picture from the form (POST
 * /api/v1/file/add) and sees it in the banner list; writes an article whose unsafe markup the preview
 * never runs and the server removes; the language switch offers the shown languages of the language list,
 * one without a translation disabled with a message; the screens in en-US, sw-KE and zh-CN, both themes,
 * 1280 px and a phone.
 */
const e2e = useE2e({ server: { demo: false, simulator: false } });
let token = '';
const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, token);

/** A real PNG of w x h pixels in one colour (stored uncompressed rows, zlib-deflated as PNG wants). */
function solidPng(w: number, h: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const x of buf) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const BANNER = solidPng(320, 120, [22, 119, 255]);

const itemOf = (scope: Locator, label: string) =>
  scope.locator('.ant-form-item', { has: scope.page().locator('.ant-form-item-label label', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) });

beforeAll(async () => {
  token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  // A language of the list the console has no translation for, shown.
  expectStatus(await api('POST', '/system/languages', { code: 'fr-FR', title: 'Français', show_status: 2, sort: 5 }), 201, 'a French language');
});

describe('content screens', () => {
  test('upload a banner and see it in the list; an article cleaned on save; the language menu; three languages', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // ------------------------------------------------------------------------------------ a banner
    await openScreen(page, 'rotation', 'Banners');
    await page.getByTestId('resource-create').click();
    let form = dialog(page);
    await form.waitFor();
    await choose(page, itemOf(form, 'Type').locator('.ant-select'), 'home_top');
    await itemOf(form, 'Picture').locator('input[type="file"]').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: BANNER });
    await until(async () => (await itemOf(form, 'Picture').locator('.ant-image img').count()) === 1, 'the uploaded picture previewed');
    await field(form, 'Title').fill('E2E Welcome bonus');
    await field(form, 'Jump address').fill('/promotions');
    await field(form, 'Sort order').fill('50');
    await shots(page, 'content-01-banner-form');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    const banner = expectStatus(await api('GET', '/content/rotations?title=E2E'), 200, 'banners').items[0];
    expect(banner).toMatchObject({ title: 'E2E Welcome bonus', jump_url: '/promotions', jump_type: 1, sort: 50, shown: true, clicks: 0 });
    expect(banner.picture).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    // In the list with its picture, served as uploaded.
    const row = rowByKey(page, banner.id);
    await row.waitFor();
    expect(await row.innerText()).toContain('E2E Welcome bonus');
    await until(async () => (await row.locator(`img[src="${banner.picture}"]`).count()) === 1, 'the banner thumbnail in its row');
    await until(() => row.locator('img').first().evaluate((img) => (img as HTMLImageElement).naturalWidth === 320), 'the thumbnail loaded');
    const pic = await page.request.get(banner.picture);
    expect(pic.status()).toBe(200);
    expect(pic.headers()['content-type']).toBe('image/png');
    expect(Buffer.from(await pic.body()).equals(BANNER)).toBe(true);
    await shots(page, 'content-02-banners');

    // ----------------------------------------------------------------------------------- an article
    await openScreen(page, 'image_text', 'Picture & text');
    await page.getByTestId('resource-create').click();
    form = dialog(page);
    await form.waitFor();
    await choose(page, itemOf(form, 'Type').locator('.ant-select'), 'news');
    await field(form, 'Title').fill('E2E How to deposit');
    await choose(page, itemOf(form, 'Language').locator('.ant-select'), 'Kiswahili');
    const body = '<h2>Weka pesa</h2><p>Piga <b>*150*01#</b></p><img src="x" onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    await form.getByLabel('Body').fill(body);
    // The preview shows the markup in a sandboxed frame: nothing of it runs in the console.
    const preview = form.getByTestId('article-preview');
    await preview.waitFor();
    expect(await preview.getAttribute('sandbox')).toBe('');
    await until(async () => ((await page.frameLocator('[data-testid="article-preview"]').locator('h2').innerText({ timeout: 2_000 }).catch(() => '')) === 'Weka pesa'), 'the preview');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await shots(page, 'content-03-article-form');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    const article = expectStatus(await api('GET', '/content/image_texts?title=E2E'), 200, 'articles').items[0];
    expect(article.language).toBe('sw-KE');
    const stored = expectStatus(await api('GET', `/content/image_texts/${article.id}`), 200, 'article');
    expect(stored.body).toBe('<h2>Weka pesa</h2><p>Piga <b>*150*01#</b></p>');
    await rowByKey(page, article.id).waitFor();
    await shots(page, 'content-04-articles');

    // --------------------------------------------------------------------------- the language menu
    await page.getByTestId('language-switch').click();
    const french = page.getByTestId('language-option-fr-FR');
    await french.waitFor();
    expect(await french.isDisabled()).toBe(true);
    expect(await french.innerText()).toContain('Français');
    await page.getByTestId('language-untranslated-fr-FR').hover();
    await page.getByText('The console has no translation in this language yet').waitFor();
    await shot(page, 'content-05-language-menu');

    // ---------------------------------------------------------------------------- three languages
    for (const [code, title, describe] of [
      ['sw-KE', 'Mabango', 'Mabango ya kila kikundi'],
      ['zh-CN', '轮播图', '各分组的轮播图'],
    ] as const) {
      await page.keyboard.press('Escape');
      await page.getByTestId('language-switch').click();
      await page.getByTestId(`language-option-${code}`).click();
      await until(async () => (await page.getByTestId('language-switch').getAttribute('data-language')) === code, `the console in ${code}`);
      await openScreen(page, 'rotation', title);
      expect(await page.locator('body').innerText()).toContain(describe);
      await page.getByTestId('language-switch').click();
      await page.getByTestId('language-untranslated-fr-FR').hover();
      await page.getByText(code === 'sw-KE' ? 'Dashibodi bado haina tafsiri ya lugha hii' : '控制台暂未提供该语言的翻译').waitFor();
      await page.keyboard.press('Escape');
      await shots(page, `content-06-banners-${code}`);
    }

    // ------------------------------------------------------------------------------ on a phone
    await page.setViewportSize({ width: 390, height: 844 });
    await openScreen(page, 'image_config', '文件存储配置');
    await settled(page);
    await shots(page, 'content-07-storage-390');

    expect(missingKeys(page)).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });
});
