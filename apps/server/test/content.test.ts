import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.js';
import { articles, bannerClicked, banners, isJumpUrl, sanitizeArticle } from '../src/modules/content/index.js';
import { simulateContent } from '../src/simulator/content.js';
import { Rng } from '../src/simulator/rng.js';
import { rotations } from '../src/modules/content/schema.js';

/**
 * Content (issue 16): banner groups and pictures (rotation_type, rotation), article types and articles
 * (image_text_type, image_text) through the resource layer, with their checks, and the bettor-facing
 * services: banners shown, in schedule, larger sorting first; clicks counted; articles by type and language,
 * their bodies cleaned to an allow-list. Every case makes the groups, types, banners and articles it reads
 * (the helpers below), so each passes alone and in any order.
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

let made = 0;
/** A type of the case's own (`api`: the banner groups or the article types): the services answer by type, and other cases fill theirs. */
async function ownType(api: 'rotation_types' | 'image_text_types', prefix: string, name: string) {
  made += 1;
  const code = `${prefix}_${made}`;
  const r = await create(api, { code, name: `${name} ${made}` });
  expect(r.status).toBe(201);
  return { id: r.body.id as number, code };
}
const bannerGroup = () => ownType('rotation_types', 'group', 'Group');
const articleType = () => ownType('image_text_types', 'guides', 'Guides');
/** The articles of a type that the article cases read: three in English (the largest sort hidden), one in Chinese. */
async function guides(typeId: number) {
  for (const a of [
    { title: 'First', body: '<p>1</p>', language: 'en-US', sort: 10 },
    { title: 'Second', body: '<p>2</p>', language: 'en-US', sort: 20 },
    { title: 'Hidden', body: '<p>3</p>', language: 'en-US', sort: 30, shown: false },
    { title: '中文', body: '<p>4</p>', language: 'zh-CN' },
  ]) {
    expect((await create('image_texts', { type_id: typeId, ...a })).status).toBe(201);
  }
}

describe('banners', () => {
  it('seeds the home page group and refuses a second type with the same code', async () => {
    const list = await t.call('GET', '/api/v1/content/rotation_types?page=1&page_size=20', { token });
    expect(list.body.items.map((r: { code: string }) => r.code)).toContain('home_top');
    const g = await create('rotation_types', { code: 'promo_strip', name: 'Promotions strip' });
    expect(g.status).toBe(201);
    const dup = await create('rotation_types', { code: 'promo_strip', name: 'Again' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONTENT_CODE_EXISTS');
    expect((await create('rotation_types', { code: 'Bad Code', name: 'x' })).status).toBe(400);
  });

  it('shows the shown banners of a group within their schedule, larger sorting first, and counts clicks', async () => {
    const group = await bannerGroup();
    const hour = 3600_000;
    const now = Date.now();
    const mk = (title: string, extra: Record<string, unknown> = {}) =>
      create('rotations', { type_id: group.id, picture: PIC, title, jump_type: 1, jump_url: '/sports', ...extra });
    const low = await mk('Low', { sort: 1 });
    const high = await mk('High', { sort: 9, jump_type: 2, jump_url: 'https://example.com/promo' });
    await mk('Hidden', { sort: 50, shown: false });
    await mk('Later', { sort: 40, start_at: new Date(now + hour).toISOString() });
    await mk('Over', { sort: 30, start_at: new Date(now - 2 * hour).toISOString(), end_at: new Date(now - hour).toISOString() });
    const running = await mk('Running', { sort: 5, start_at: new Date(now - hour).toISOString(), end_at: new Date(now + hour).toISOString() });
    expect([low.status, high.status, running.status]).toEqual([201, 201, 201]);

    const shown = await banners(t.database.db, group.code);
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
    // An existing group: each refusal below is for the one field it changes.
    const base = { type_id: (await bannerGroup()).id, picture: PIC, title: 'x', jump_type: 1 };
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
    const group = await bannerGroup();
    expect((await create('rotations', { type_id: group.id, picture: PIC, title: 'Still here', jump_type: 1, jump_url: '/sports' })).status).toBe(201);
    const del = await t.call('DELETE', `/api/v1/content/rotation_types/${group.id}`, { token });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('CONTENT_TYPE_IN_USE');
    const empty = await create('rotation_types', { code: 'empty_group', name: 'Empty' });
    expect((await t.call('DELETE', `/api/v1/content/rotation_types/${empty.body.id}`, { token })).status).toBe(200);
  });
});

describe('articles', () => {
  it('cleans the body to an allow-list of tags and attributes', async () => {
    const { id: typeId } = await articleType();
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
    const type = await articleType();
    await guides(type.id);
    expect((await articles(t.database.db, type.code, 'en-US')).map((a) => a.title)).toEqual(['Second', 'First']);
    expect((await articles(t.database.db, type.code, 'zh-CN')).map((a) => a.title)).toEqual(['中文']);
    expect(await articles(t.database.db, type.code, 'fr-FR')).toEqual([]);
  });

  it('takes only languages of the language list and existing types', async () => {
    // A type with articles: it cannot be deleted.
    const { id: typeId } = await articleType();
    await guides(typeId);
    const r = await create('image_texts', { type_id: typeId, title: 'x', body: '<p>x</p>', language: 'fr-FR' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('CONTENT_LANGUAGE_UNKNOWN');
    expect((await create('image_texts', { type_id: 999_999, title: 'x', body: '<p>x</p>', language: 'en-US' })).status).toBe(400);
    const del = await t.call('DELETE', `/api/v1/content/image_text_types/${typeId}`, { token });
    expect(del.status).toBe(409);
  });

  it('lists, filters by language and edits (the body is cleaned on edit too)', async () => {
    // A type of its own with English and Chinese articles, listed by type (other cases and the simulator write
    // Chinese articles too), then by language.
    const { id: typeId } = await articleType();
    await guides(typeId);
    const list = await t.call('GET', `/api/v1/content/image_texts?page=1&page_size=50&type_id=${typeId}&language=zh-CN`, { token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((a: { title: string }) => a.title)).toEqual(['中文']);
    const id = list.body.items[0].id;
    const put = await t.call('PUT', `/api/v1/content/image_texts/${id}`, { token, body: { body: '<p onmouseover="x()">更新</p>' } });
    expect(put.status).toBe(200);
    expect(put.body.body).toBe('<p>更新</p>');
  });
});

describe('the simulator', () => {
  it('gives a fresh install demo banners with uploaded pictures and articles in three languages, then clicks banners', async () => {
    const db = t.database.db;
    // As on a fresh install: no banner yet (the other cases make some).
    await db.delete(rotations);
    const rng = new Rng(16);
    await simulateContent(t.ctx, rng);
    const home = await banners(db, 'home_top');
    expect(home.map((b) => b.title)).toEqual(['Welcome bonus', 'Jackpot of the week', 'Live football']);
    for (const b of home) {
      expect(b.picture).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
      const res = await t.app.inject({ method: 'GET', url: b.picture });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
    }
    for (const lang of ['en-US', 'sw-KE', 'zh-CN']) expect(await articles(db, 'news', lang)).toHaveLength(1);
    // Ticks until a visitor has clicked (one tick in four on average); the demo content is made once.
    let clicks = 0;
    for (let i = 0; i < 200 && clicks === 0; i++) {
      await simulateContent(t.ctx, rng);
      const list = await t.call('GET', '/api/v1/content/rotations?type_id=1&page=1&page_size=50', { token });
      clicks = list.body.items.reduce((s: number, r: { clicks: number }) => s + r.clicks, 0);
    }
    expect(clicks).toBeGreaterThan(0);
    expect(await banners(db, 'home_top')).toHaveLength(3);
  });
});
