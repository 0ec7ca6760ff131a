import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SEARCH_KINDS, SEARCH_MAX, text } from '@dau/contract';
import { authOf } from '../../platform/access.js';
import type { AppContext } from '../../platform/context.js';
import { searchEverywhere } from './service.js';

const searchQuery = z.object({ q: text(SEARCH_MAX).min(1) });

const searchItem = z.object({
  kind: z.enum(SEARCH_KINDS),
  id: z.number(),
  title: z.string(),
  subtitle: z.string(),
  amount: z.number().nullable(),
  time: z.string().nullable(),
  page: z.string(),
  params: z.record(z.string(), z.string()),
});
const searchAnswer = z.object({
  q: z.string(),
  groups: z.array(z.object({ kind: z.enum(SEARCH_KINDS), items: z.array(searchItem) })),
});

/**
 * GET /api/v1/search?q=… (issue 29): any signed-in admin; each kind is searched only when the admin holds a
 * page that shows it, within their branch (./service.ts). Every kind answers a group, empty when nothing
 * matched, in a fixed order.
 */
export function searchRoutes(app: FastifyInstance, { db }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/search',
    {
      config: { access: { signedIn: true } },
      schema: {
        tags: ['search'],
        summary: 'Search everywhere: bettors, orders, payments, jackpot tickets, TRON, admins, grouped by kind, within the caller\'s pages and branch',
        querystring: searchQuery,
        response: { 200: searchAnswer },
      },
    },
    async (req) => ({ q: req.query.q, groups: await searchEverywhere(db, authOf(req), req.query.q) }),
  );
}
