/**
 * The shop (issue 16): categories (a tree), brands and products through the resource layer, with the
 * checks it needs (./resources.ts), and GET /shop/categories/all, the categories as the console fetches
 * them at start (spec §7, show_status=1). Bettor-facing reads go through the services exported here.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import { answerRow } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import type { Executor } from '../../platform/db.js';
import { shopResources } from './resources.js';
import { mallCategories, mallProducts } from './schema.js';

/** The most categories GET /shop/categories/all answers (a shop's tree is far smaller). */
export const CATEGORY_TREE_CAP = 2000;

const categoryNode = answerRow({ id: 'number', parent_id: 'number?', title: 'string', icon: 'string?', language: 'string', show_status: 'number', sort: 'number' });

/** Every category (or only shown / hidden ones), larger sort first, as flat nodes with their parent. */
export async function categoryTree(ex: Executor, showStatus?: number) {
  const rows = await ex
    .select()
    .from(mallCategories)
    .where(showStatus ? eq(mallCategories.showStatus, showStatus) : undefined)
    .orderBy(desc(mallCategories.sort), asc(mallCategories.id))
    .limit(CATEGORY_TREE_CAP);
  return rows.map((r) => ({ id: r.id, parent_id: r.parentId, title: r.title, icon: r.icon, language: r.language, show_status: r.showStatus, sort: r.sort }));
}

/** The products a bettor app shows: shown ones, optionally of a category or recommended on the home page. */
export async function shownProducts(ex: Executor, opts: { categoryId?: number; home?: boolean; limit?: number } = {}) {
  const where: (SQL | undefined)[] = [eq(mallProducts.shown, true)];
  if (opts.categoryId) where.push(eq(mallProducts.categoryId, opts.categoryId));
  if (opts.home) where.push(eq(mallProducts.homeRecommend, true));
  return ex.select().from(mallProducts).where(and(...where)).orderBy(desc(mallProducts.ranking), desc(mallProducts.id)).limit(opts.limit ?? 50);
}

export function shopRoutes(app: FastifyInstance, ctx: AppContext) {
  shopResources(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Asked by the shell after sign-in (spec §7); read by the product form's category picker and the category tree.
  r.get(
    '/api/v1/shop/categories/all',
    {
      config: { access: { signedIn: true } },
      schema: {
        tags: ['mall_category_list'],
        summary: 'Every shop category as a flat tree (spec §7: fetched at start with show_status=1)',
        querystring: z.object({ show_status: z.coerce.number().int().min(1).max(2).optional() }),
        response: { 200: z.object({ items: z.array(categoryNode) }) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      // The shell asks for every signed-in admin; one without a shop page gets no categories.
      if (!auth.can('mall_category_list') && !auth.can('mall_product_list')) return { items: [] };
      return { items: await categoryTree(ctx.db, req.query.show_status) };
    },
  );
}

export { mallBrands, mallCategories, mallProducts } from './schema.js';
export { seedShop } from './seed.js';
