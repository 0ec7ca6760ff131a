import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.js';
import { articles, bannerClicked, banners, isJumpUrl, sanitizeArticle } from '../src/modules/content/index.js';

/**
 * Content (issue 16): banner groups and pictures (rotation_type, rotation), article types and articles
 * (image_text_type, image_text) through the resource layer, with their checks, and the bettor-facing
 * services: banners shown, in schedule, larger sorting first; clicks counted; articles by type and language,
 * their bodies cleaned to an allow-list.
 */

let t: TestApp;
let token: string;
const PIC = 'https://cdn.example.com/banner.png';

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const create = async (api: string, body: Record<string, unknown>) => t.call('POST', `/api/v1/content/${api}`, { token, body });

describe('banners', () => {
  let groupId: number;

  it('seeds the home page group and refuses a second type with the same code', async () => {
    const list = await t.call('GET', '/api/v1/content/rotation_types?page=1&page_size=20', { token });
    expect(list.body.items.map((r: { code: string }) => r.code)).toContain('home_top');
    const g = await create('rotation_types', { code: 'promo_strip', name: 'Promotions strip' });
    expect(g.status).toBe(201);
    groupId = g.body.id;
    const dup = await create('rotation_types', { code: 'promo_strip', name: 'Again' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONTENT_CODE_EXISTS');
    expect((await create('rotation_types', { code: 'Bad Code', name: 'x' })).status).toBe(400);
  });

  it('shows the shown banners of a group within their schedule, larger sorting first, and counts clicks', async () => {
    const hour = 3600_000;
    const now = Date.now();
    const mk = (title: string, extra: Record<string, unknown> = {}) =>
      create('rotations', { type_id: groupId, picture: PIC, title, jump_type: 1, jump_url: '/sports', ...extra });
    const low = await mk('Low', { sort: 1 });
    const high = await mk('High', { sort: 9, jump_type: 2, jump_url: 'https://example.com/promo' });
    await mk('Hidden', { sort: 50, shown: false });
    await mk('Later', { sort: 40, start_at: new Date(now + hour).toISOString() });
    await mk('Over', { sort: 30, start_at: new Date(now - 2 * hour).toISOString(), end_at: new Date(now - hour).toISOString() });
    const running = await mk('Running', { sort: 5, start_at: new Date(now - hour).toISOString(), end_at: new Date(now + hour).toISOString() });
    expect([low.status, high.status, running.status]).toEqual([201, 201, 201]);

    const shown = await banners(t.database.db, 'promo_strip');
    expect(shown.map((b) => b.title)).toEqual(['High', 'Running', 'Low']);
    expect(shown[0]).toMatchObject({ picture: PIC, jump_type: 2, jump_url: 'https://example.com/promo' });
    expect(await banners(t.database.db, 'no_such_group')).toEqual([]);

    expect(await bannerClicked(t.database.db, high.body.id)).toBe(true);
    await Promise.all([bannerClicked(t.database.db, high.body.id), bannerClicked(t.database.db, high.body.id)]);
    expect(await bannerClicked(t.database.db, 999_999)).toBe(false);
    const row = await t.call('GET', `/api/v1/content/rotations/${high.body.id}`, { token });
    expect(row.body.clicks).toBe(3);
  });

  it('checks the picture, the jump address, the type and the schedule', async () => {
    const base = { type_id: groupId, picture: PIC, title: 'x', jump_type: 1 };
    expect((await create('rotations', { ...base, picture: 'javascript:alert(1)' })).status).toBe(400);
    expect((await create('rotations', { ...base, jump_url: 'javascript:alert(1)' })).status).toBe(400);
    expect((await create('rotations', { ...base, jump_url: '//evil.example.com' })).status).toBe(400);
    expect((await create('rotations', { ...base, jump_url: 'http://example.com' })).status).toBe(400);
    expect((await create('rotations', { ...base, jump_type: 9 })).status).toBe(400);
    expect((await create('rotations', { ...base, type_id: 999_999 })).status).toBe(400);
    const now = Date.now();
    expect((await create('rotations', { ...base, start_at: new Date(now).toISOString(), end_at: new Date(now - 1000).toISOString() })).status).toBe(400);
    expect((await create('rotations', { ...base, clicks: 1000 })).status).toBe(400);
    expect(isJumpUrl('/casino/lobby?tab=hot')).toBe(true);
    expect(isJumpUrl('https://example.com/a')).toBe(true);
  });

  it('refuses to delete a group that still has pictures', async () => {
    const del = await t.call('DELETE', `/api/v1/content/rotation_types/${groupId}`, { token });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('CONTENT_TYPE_IN_USE');
    const empty = await create('rotation_types', { code: 'empty_group', name: 'Empty' });
    expect((await t.call('DELETE', `/api/v1/content/rotation_types/${empty.body.id}`, { token })).status).toBe(200);
  });
});

describe('articles', () => {
  let typeId: number;

  beforeAll(async () => {
    const k = await create('image_text_types', { code: 'guides', name: 'Guides' });
    typeId = k.body.id;
  });

  it('cleans the body to an allow-list of tags and attributes', async () => {
    const dirty =
      '<h2 onclick="x()">Deposit</h2><script>alert(1)</script><p style="color:red">Dial <b>*150*01#</b> ' +
      '<a href="javascript:alert(1)">bad</a> <a href="https://example.com" target="_blank">ok</a></p>' +
      '<img src="x" onerror="alert(1)"><img src="https://cdn.example.com/a.png" alt="A"><iframe src="https://evil"></iframe><svg><script>1</script></svg>';
    const r = await create('image_texts', { type_id: typeId, title: 'How to deposit', body: dirty, language: 'sw-KE' });
    expect(r.status).toBe(201);
    const body = String(r.body.body);
    expect(body).not.toMatch(/script|onclick|onerror|javascript:|iframe|style=|<svg/i);
    expect(body).toContain('<h2>Deposit</h2>');
    expect(body).toContain('<b>*150*01#</b>');
    expect(body).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">ok</a>');
    expect(body).toContain('<img src="https://cdn.example.com/a.png" alt="A" />');
    expect(body).not.toContain('src="x"');
    expect(sanitizeArticle('<p>a<br>b</p>')).toBe('<p>a<br />b</p>');
    // A body that is nothing but code is refused.
    expect((await create('image_texts', { type_id: typeId, title: 'Empty', body: '<script>alert(1)</script>', language: 'en-US' })).status).toBe(400);
  });

  it('answers the shown articles of a type in one language, larger sort first', async () => {
    await create('image_texts', { type_id: typeId, title: 'First', body: '<p>1</p>', language: 'en-US', sort: 10 });
    await create('image_texts', { type_id: typeId, title: 'Second', body: '<p>2</p>', language: 'en-US', sort: 20 });
    await create('image_texts', { type_id: typeId, title: 'Hidden', body: '<p>3</p>', language: 'en-US', sort: 30, shown: false });
    await create('image_texts', { type_id: typeId, title: '中文', body: '<p>4</p>', language: 'zh-CN' });
    expect((await articles(t.database.db, 'guides', 'en-US')).map((a) => a.title)).toEqual(['Second', 'First']);
    expect((await articles(t.database.db, 'guides', 'zh-CN')).map((a) => a.title)).toEqual(['中文']);
    expect(await articles(t.database.db, 'guides', 'fr-FR')).toEqual([]);
  });

  it('takes only languages of the language list and existing types', async () => {
    const r = await create('image_texts', { type_id: typeId, title: 'x', body: '<p>x</p>', language: 'fr-FR' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('CONTENT_LANGUAGE_UNKNOWN');
    expect((await create('image_texts', { type_id: 999_999, title: 'x', body: '<p>x</p>', language: 'en-US' })).status).toBe(400);
    const del = await t.call('DELETE', `/api/v1/content/image_text_types/${typeId}`, { token });
    expect(del.status).toBe(409);
  });

  it('lists, filters by language and edits (the body is cleaned on edit too)', async () => {
    const list = await t.call('GET', `/api/v1/content/image_texts?page=1&page_size=50&language=zh-CN`, { token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((a: { title: string }) => a.title)).toEqual(['中文']);
    const id = list.body.items[0].id;
    const put = await t.call('PUT', `/api/v1/content/image_texts/${id}`, { token, body: { body: '<p onmouseover="x()">更新</p>' } });
    expect(put.status).toBe(200);
    expect(put.body.body).toBe('<p>更新</p>');
  });
});
