/**
 * The shop's declared screens through the resource layer (issue 16): categories, brands, products. The
 * checks the declarations cannot say: a category's superior exists and is not the category or one of its
 * descendants (no cycle), its language is one of the language list, a category with subcategories or products and a brand with products are not
 * deleted (422 with the reason), a product's category and brand exist, its lowest price is not above its
 * price, its properties are a list of { name, value } and its colours a short list.
 */
import type { FastifyInstance } from 'fastify';
import { count, eq, sql } from 'drizzle-orm';
import { MALL_COLOURS_MAX, MALL_PROPERTIES_MAX, mallBrandResource, mallCategoryResource, mallProductResource } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { badRequest, unprocessable } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource.js';
import { assertListedLanguage } from '../system/index.js';
import { mallBrands, mallCategories, mallProducts } from './schema.js';

const invalid = (field: string, message: string) => badRequest('PARAM_INVALID', [{ field, message }]);

/** Whether placing category `id` under `newParent` makes a cycle: `id` is the new parent or one of its superiors. */
export async function wouldCycle(ex: Executor, id: number, newParent: number): Promise<boolean> {
  if (id === newParent) return true;
  // The superiors of the new parent, up to the root (a bounded walk: a tree deeper than 64 is refused too).
  const rows = await ex.execute(sql`
    WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT id, parent_id, 1 FROM mall_categories WHERE id = ${newParent}
      UNION ALL
      SELECT c.id, c.parent_id, up.depth + 1 FROM mall_categories c JOIN up ON c.id = up.parent_id WHERE up.depth < 64
    )
    SELECT id FROM up`);
  const list = (rows as unknown as { rows: { id: number }[] }).rows;
  return list.some((r) => Number(r.id) === id) || list.length >= 64;
}

/** Properties as sent (a JSON text): a list of at most MALL_PROPERTIES_MAX { name, value } pairs, both short texts. */
export function parseProperties(raw: unknown): { name: string; value: string }[] {
  if (raw === null || raw === undefined || raw === '') return [];
  let v: unknown;
  try {
    v = JSON.parse(String(raw));
  } catch {
    throw invalid('properties', 'a JSON list of { "name", "value" }');
  }
  if (!Array.isArray(v) || v.length > MALL_PROPERTIES_MAX) throw invalid('properties', `a list of at most ${MALL_PROPERTIES_MAX} { "name", "value" }`);
  return v.map((p, i) => {
    const o = p as Record<string, unknown>;
    if (!o || typeof o !== 'object' || Array.isArray(o) || typeof o.name !== 'string' || typeof o.value !== 'string' || Object.keys(o).some((k) => k !== 'name' && k !== 'value')) {
      throw invalid('properties', `item ${i + 1}: { "name": text, "value": text }`);
    }
    const name = o.name.trim();
    const value = o.value.trim();
    if (!name || name.length > 64 || value.length > 200 || /\0/.test(name + value)) throw invalid('properties', `item ${i + 1}: a name (1-64 characters) and a value (up to 200)`);
    return { name, value };
  });
}

/** Colours as typed ("red, blue"): at most MALL_COLOURS_MAX distinct names of up to 32 characters. */
export function parseColours(raw: unknown): string[] {
  const list = [...new Set(String(raw ?? '').split(/[,，\n]+/).map((s) => s.trim()).filter(Boolean))];
  if (list.length > MALL_COLOURS_MAX || list.some((c) => c.length > 32)) throw invalid('colours', `at most ${MALL_COLOURS_MAX} colours of up to 32 characters`);
  return list;
}

async function exists(ex: Executor, table: typeof mallCategories | typeof mallBrands, id: number) {
  const [row] = await ex.select({ id: table.id }).from(table).where(eq(table.id, id)).limit(1);
  return !!row;
}

export function shopResources(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerResource(app, db, {
    def: mallCategoryResource,
    table: mallCategories,
    prepare: async (v, { mode, ex, before }) => {
      // One of the language list (the form picks it there), as an article's.
      if (v.language !== undefined) await assertListedLanguage(ex, String(v.language));
      // 0 is "no superior" (the resource layer takes no null for a number): a top-level category.
      if (v.parent_id === 0) v.parent_id = null;
      if (v.parent_id !== undefined && v.parent_id !== null) {
        const parent = Number(v.parent_id);
        if (!(await exists(ex, mallCategories, parent))) throw invalid('parent_id', 'no such category');
        if (mode === 'edit' && before && (await wouldCycle(ex, Number(before.id), parent))) throw unprocessable('SHOP_CATEGORY_CYCLE');
      }
    },
    beforeDelete: async (row, ex) => {
      const id = Number(row.id);
      const [children] = await ex.select({ n: count() }).from(mallCategories).where(eq(mallCategories.parentId, id));
      if (Number(children?.n ?? 0) > 0) throw unprocessable('SHOP_CATEGORY_HAS_CHILDREN');
      const [products] = await ex.select({ n: count() }).from(mallProducts).where(eq(mallProducts.categoryId, id));
      if (Number(products?.n ?? 0) > 0) throw unprocessable('SHOP_CATEGORY_HAS_PRODUCTS');
    },
  });

  registerResource(app, db, {
    def: mallBrandResource,
    table: mallBrands,
    beforeDelete: async (row, ex) => {
      const [products] = await ex.select({ n: count() }).from(mallProducts).where(eq(mallProducts.brandId, Number(row.id)));
      if (Number(products?.n ?? 0) > 0) throw unprocessable('SHOP_BRAND_HAS_PRODUCTS');
    },
  });

  registerResource(app, db, {
    def: mallProductResource,
    table: mallProducts,
    prepare: async (v, { ex, before }) => {
      // 0 is "no brand" (the resource layer takes no null for a number).
      if (v.brand_id === 0) v.brand_id = null;
      if (v.category_id !== undefined && !(await exists(ex, mallCategories, Number(v.category_id)))) throw invalid('category_id', 'no such category');
      if (v.brand_id !== undefined && v.brand_id !== null && !(await exists(ex, mallBrands, Number(v.brand_id)))) throw invalid('brand_id', 'no such brand');
      const price = v.price ?? before?.price;
      const lowest = v.lowest_price ?? before?.lowest_price;
      if (lowest !== null && lowest !== undefined && price !== null && price !== undefined && Number(lowest) > Number(price)) {
        throw invalid('lowest_price', 'the lowest price is above the price');
      }
      if (v.properties !== undefined) v.properties = parseProperties(v.properties) as never;
      if (v.colours !== undefined) v.colours = parseColours(v.colours) as never;
    },
  });
}
