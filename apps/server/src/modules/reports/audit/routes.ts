import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../../platform/context.js';
import { authOf } from '../../../platform/access.js';
import { registerList, scopeOf } from '../../../platform/listing.js';
import { significantEventsSpec } from './events.js';
import { resettlementChangesSpec, resettlementSummary, summaryAnswer, summaryQuery } from './resettlements.js';

/**
 * The auditors' reports (issue 30): GET /reports/significant_events (./events.ts) and the void and
 * resettlement report, GET /reports/resettlements (one row per match and market, with the totals) and
 * GET /reports/resettlements/changes (the orders of a row; its export is the report's). Reads only, of the
 * whole book (./scope.ts); exports through the exports module (types `significant_events` and
 * `resettlement_changes`).
 */
export function auditRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  registerList(app, db, significantEventsSpec as never);
  registerList(app, db, resettlementChangesSpec as never);

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/reports/resettlements',
    {
      config: { access: { page: 'resettlement_report' } },
      schema: {
        tags: ['resettlement_report'],
        summary: 'The void and resettlement report: per match and market, the orders changed after the fact and the money moved, with the totals of the filtered changes',
        querystring: summaryQuery,
        response: { 200: summaryAnswer },
      },
    },
    async (req) => resettlementSummary(db, req.query, await scopeOf(db, authOf(req))),
  );
}
