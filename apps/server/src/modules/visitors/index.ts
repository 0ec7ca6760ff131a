/**
 * Visitors (issue 16, spec §2 System › visitor): GET /visitors/stats (the charts, from the hourly
 * totals), GET /visitors/visits (the visits list; exported in the background as list `visitor`), and the
 * periodic prune of visits older than 90 days. The visits are site traffic, not a bettor's money: an
 * admin holding the page sees all of them (no branch scope).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, eq } from 'drizzle-orm';
import { VISITOR_STATS_MAX_DAYS, answerRow, text, visitorStatsAnswer } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { defineList, isoDate, registerList, withinDates, type ExportColumn } from '../../platform/listing.js';
import type { Executor } from '../../platform/db.js';
import { darDay, pruneVisits, visitorStats } from './service.js';
import { visits } from './schema.js';

export const VISITS_PRUNE_JOB = 'visitors.prune';

const enumFilter = (max: number) => z.coerce.number().int().min(1).max(max).optional();

export const visitFilters = z.object({
  visited_at_from: isoDate,
  visited_at_to: isoDate,
  visitor_id: text(64).optional(),
  kind: enumFilter(2),
  device: enumFilter(4),
  source: enumFilter(5),
  country: z.string().regex(/^[A-Za-z]{2}$/).optional(),
});

const visitAnswer = answerRow({
  id: 'number', visited_at: 'string', visitor_id: 'string', kind: 'number', device: 'number', source: 'number', country: 'string', path: 'string',
});

const VISIT_COLUMNS: readonly ExportColumn[] = [
  { key: 'id' }, { key: 'visited_at' }, { key: 'visitor_id' }, { key: 'kind', enum: 'visitor_kind' }, { key: 'device', enum: 'visit_device' },
  { key: 'source', enum: 'visit_source' }, { key: 'country' }, { key: 'path' },
];

export const visitListSpec = defineList({
  name: 'visitor',
  page: 'visitor',
  path: '/api/v1/visitors/visits',
  summary: 'List the visits of the bettor-facing site and app, filtered, sorted and paged (90 days kept)',
  filters: visitFilters,
  where: (q) =>
    and(
      withinDates(visits.visitedAt, q.visited_at_from, q.visited_at_to),
      q.visitor_id ? eq(visits.visitorKey, q.visitor_id) : undefined,
      q.kind ? eq(visits.kind, q.kind) : undefined,
      q.device ? eq(visits.device, q.device) : undefined,
      q.source ? eq(visits.source, q.source) : undefined,
      q.country ? eq(visits.country, q.country.toUpperCase()) : undefined,
    ),
  select: (ex: Executor) => ex.select().from(visits),
  idColumn: visits.id,
  sortable: { id: visits.id, visited_at: visits.visitedAt },
  defaultSort: '-id',
  toRow: (r: typeof visits.$inferSelect) => ({
    id: r.id, visited_at: r.visitedAt.toISOString(), visitor_id: r.visitorKey, kind: r.kind, device: r.device, source: r.source, country: r.country, path: r.path,
  }),
  columns: VISIT_COLUMNS,

  row: visitAnswer,
});

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'a real day');

export function visitorRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  registerList(app, db, visitListSpec as never);
  ctx.jobs.every(VISITS_PRUNE_JOB, 3600, async () => void (await pruneVisits(db)));

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/visitors/stats',
    {
      config: { access: { page: 'visitor' } },
      schema: {
        tags: ['visitor'],
        summary: 'Visits and visitors per day, hour of day, device, source and country over Dar es Salaam days (the last 7 by default, at most 92)',
        querystring: z.object({ date_from: day.optional(), date_to: day.optional() }),
        response: { 200: visitorStatsAnswer },
      },
    },
    async (req) => {
      const to = req.query.date_to ?? darDay(Date.now());
      const from = req.query.date_from ?? darDay(Date.parse(`${to}T00:00:00Z`) - 6 * 86_400_000);
      const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
      if (days < 1) throw badRequest('PARAM_INVALID', [{ field: 'date_from', message: 'after date_to' }]);
      if (days > VISITOR_STATS_MAX_DAYS) throw badRequest('PARAM_INVALID', [{ field: 'date_from', message: `at most ${VISITOR_STATS_MAX_DAYS} days` }]);
      return visitorStats(db, from, to);
    },
  );
}

export { recordVisit, visitorStats, seedVisitHistory, demoVisit, pruneVisits, darDay, type VisitInput } from './service.js';
export { visitHourly, visitorProfiles, visits } from './schema.js';
