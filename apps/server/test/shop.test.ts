import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, type TestApp } from './helpers.js';
import { seedShop, shownProducts } from '../src/modules/shop/index.js';

let t: TestApp;
let root: string;

const PNG = `/uploads/${'a'.repeat(64)}.png`;
const JPG = `/uploads/${'b'.repeat(64)}.jpg`;

beforeAll(async () => {
  t = await createTestApp();
  root = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

const post = (path: string, body: unknown, token = root) => t.call('POST', `/api/v1/shop/${path}`, { token, body });
const put = (path: string, body: unknown, token = root) => t.call('PUT', `/api/v1/shop/${path}`, { token, body });

describe('shop categories', () => {
  it('builds a tree, refuses cycles and unknown superiors, and keeps a category in use', async () => {
    const top = await post('categories', { title: 'Sport', icon: PNG, show_status: 1, language: 'en-US', sort: 5 });
    expect(top.status).toBe(201);
    expect(top.body.icon).toBe(PNG);
    const child = await post('categories', { title: 'Jerseys', parent_id: top.body.id, show_status: 1, language: 'sw-KE' });
    expect(child.status).toBe(201);
    const grandchild = await post('categories', { title: 'Home kits', parent_id: child.body.id, show_status: 2, language: 'en-US' });
    expect(grandchild.status).toBe(201);

    // Under itself, or under its own descendant: a cycle.
    const self = await put(`categories/${top.body.id}`, { parent_id: top.body.id });
    expect(self.status).toBe(422);
    expect(self.body.code).toBe('SHOP_CATEGORY_CYCLE');
    const loop = await put(`categories/${top.body.id}`, { parent_id: grandchild.body.id });
    expect(loop.status).toBe(422);
    expect(loop.body.message).toContain('subcategories');
    expect((await put(`categories/${grandchild.body.id}`, { parent_id: top.body.id })).status).toBe(200);
    // 0 clears the superior: a top-level category again.
    const lifted = await put(`categories/${grandchild.body.id}`, { parent_id: 0 });
    expect(lifted.status).toBe(200);
    expect(lifted.body.parent_id).toBe(null);
    expect((await put(`categories/${grandchild.body.id}`, { parent_id: top.body.id })).body.parent_id).toBe(top.body.id);
    const unknown = await post('categories', { title: 'Orphan', parent_id: 999_999, show_status: 1, language: 'en-US' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe('parent_id');
    expect((await post('categories', { title: 'Bad', show_status: 3, language: 'en-US' })).status).toBe(400);
    // A language not in the language list (issue 29: any well-formed code was taken).
    expect((await post('categories', { title: 'Bad', show_status: 1, language: 'english' })).body.code).toBe('CONTENT_LANGUAGE_UNKNOWN');
    // An icon that is neither our upload nor https is refused by the image field.
    expect((await post('categories', { title: 'Bad', show_status: 1, language: 'en-US', icon: 'javascript:alert(1)' })).status).toBe(400);

    const del = await t.call('DELETE', `/api/v1/shop/categories/${top.body.id}`, { token: root });
    expect(del.status).toBe(422);
    expect(del.body.code).toBe('SHOP_CATEGORY_HAS_CHILDREN');

    // Spec §7: the console fetches the shown categories at start.
    const shown = await t.call('GET', '/api/v1/shop/categories/all?show_status=1', { token: root });
    expect(shown.status).toBe(200);
    const ids = shown.body.items.map((c: { id: number }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([top.body.id, child.body.id]));
    expect(ids).not.toContain(grandchild.body.id);
    expect(shown.body.items.find((c: { id: number }) => c.id === child.body.id).parent_id).toBe(top.body.id);
    const all = await t.call('GET', '/api/v1/shop/categories/all', { token: root });
    expect(all.body.items.map((c: { id: number }) => c.id)).toContain(grandchild.body.id);
  });
});

describe('shop products and brands', () => {
  it('creates a product with pictures, properties and colours, and checks its references and prices', async () => {
    const cat = await post('categories', { title: 'Phones', show_status: 1, language: 'en-US' });
    const brand = await post('brands', { name: 'Simba', logo: PNG, sort: 3, shown: true });
    expect(brand.status).toBe(201);
    const body = {
      title: 'Smartphone S2', category_id: cat.body.id, brand_id: brand.body.id, model: 'S2', source: 'Partner shop', price: 250_000_00, lowest_price: 230_000_00,
      stock: 10, purchase_count: 0, ranking: 9, home_recommend: true, shown: true, cover_images: [PNG, JPG], detail_images: [JPG],
      properties: JSON.stringify([{ name: 'Storage', value: '128 GB' }, { name: 'RAM', value: '6 GB' }]), colours: 'black, silver,black',
    };
    const p = await post('products', body);
    expect(p.status).toBe(201);
    expect(p.body.price).toBe(250_000_00);
    expect(p.body.cover_images).toEqual([PNG, JPG]);
    expect(p.body.detail_images).toEqual([JPG]);
    expect(JSON.parse(p.body.properties)).toEqual([{ name: 'Storage', value: '128 GB' }, { name: 'RAM', value: '6 GB' }]);
    expect(p.body.colours).toBe('black, silver');

    const noBrand = await put(`products/${p.body.id}`, { brand_id: 0 });
    expect(noBrand.body.brand_id).toBe(null);
    expect((await put(`products/${p.body.id}`, { brand_id: brand.body.id })).body.brand_id).toBe(brand.body.id);
    const got = await t.call('GET', `/api/v1/shop/products/${p.body.id}`, { token: root });
    expect(got.body.cover_images).toEqual([PNG, JPG]);
    const listed = await t.call('GET', `/api/v1/shop/products?category_id=${cat.body.id}&home_recommend=true`, { token: root });
    expect(listed.body.items.map((r: { id: number }) => r.id)).toEqual([p.body.id]);

    // Money is integer cents; the lowest price is not above the price.
    expect((await post('products', { ...body, price: 12.5 })).status).toBe(400);
    const above = await put(`products/${p.body.id}`, { lowest_price: 260_000_00 });
    expect(above.status).toBe(400);
    expect(above.body.details[0].field).toBe('lowest_price');
    expect((await post('products', { ...body, category_id: 999_999 })).status).toBe(400);
    expect((await post('products', { ...body, brand_id: 999_999 })).status).toBe(400);
    expect((await post('products', { ...body, properties: '{"name":"x"}' })).status).toBe(400);
    expect((await post('products', { ...body, properties: '[{"name":"x","value":"y","extra":1}]' })).status).toBe(400);
    expect((await post('products', { ...body, cover_images: Array.from({ length: 10 }, () => PNG) })).status).toBe(400);
    expect((await post('products', { ...body, cover_images: ['http://example.com/a.png'] })).status).toBe(400);

    // A brand or category with products stays.
    const brandDel = await t.call('DELETE', `/api/v1/shop/brands/${brand.body.id}`, { token: root });
    expect(brandDel.status).toBe(422);
    expect(brandDel.body.code).toBe('SHOP_BRAND_HAS_PRODUCTS');
    expect((await t.call('DELETE', `/api/v1/shop/categories/${cat.body.id}`, { token: root })).body.code).toBe('SHOP_CATEGORY_HAS_PRODUCTS');
    expect((await t.call('DELETE', `/api/v1/shop/products/${p.body.id}`, { token: root })).status).toBe(200);
    expect((await t.call('DELETE', `/api/v1/shop/brands/${brand.body.id}`, { token: root })).status).toBe(200);
    expect((await t.call('DELETE', `/api/v1/shop/categories/${cat.body.id}`, { token: root })).status).toBe(200);
  });

  it('answers in the caller language and needs the pages', async () => {
    const cat = await post('categories', { title: 'Busy', show_status: 1, language: 'en-US' });
    await post('categories', { title: 'Kid', show_status: 1, language: 'en-US', parent_id: cat.body.id });
    const sw = await t.call('DELETE', `/api/v1/shop/categories/${cat.body.id}`, { token: root, headers: { 'accept-language': 'sw-KE' } });
    expect(sw.body.message).toBe('Kundi hili lina makundi madogo: yahamishe au uyafute kwanza');
    const zh = await t.call('DELETE', `/api/v1/shop/categories/${cat.body.id}`, { token: root, headers: { 'accept-language': 'zh-CN' } });
    expect(zh.body.message).toBe('该分类下还有子分类，请先移动或删除子分类');

    const role = await makeRole(t, 'Brands only', ['system', 'mall_brand_list']);
    await makeAdmin(t, 'brand_viewer', role, null);
    const token = await t.login('brand_viewer');
    expect((await t.call('GET', '/api/v1/shop/brands', { token })).status).toBe(200);
    expect((await post('brands', { name: 'x' }, token)).status).toBe(403);
    expect((await t.call('GET', '/api/v1/shop/products', { token })).status).toBe(403);
    // The category tree is for holders of a category or product page: others get none.
    const none = await t.call('GET', '/api/v1/shop/categories/all', { token });
    expect(none.status).toBe(200);
    expect(none.body.items).toEqual([]);
  });

  it('leaves an operator\'s shop alone when seeding the demo, and serves the shown products to the bettor app', async () => {
    const cats = await t.call('GET', '/api/v1/shop/categories/all', { token: root });
    const cat = cats.body.items[0].id;
    const shown = await post('products', { title: 'Scarf', category_id: cat, price: 5_000_00, home_recommend: true, shown: true, ranking: 3 });
    const hidden = await post('products', { title: 'Old scarf', category_id: cat, price: 4_000_00, home_recommend: true, shown: false });
    expect(hidden.status).toBe(201);
    await seedShop(t.database.db);
    const after = await t.call('GET', '/api/v1/shop/categories/all', { token: root });
    expect(after.body.items.length).toBe(cats.body.items.length);
    const home = await shownProducts(t.database.db, { home: true });
    expect(home.map((p) => p.id)).toEqual([shown.body.id]);
  });
});
