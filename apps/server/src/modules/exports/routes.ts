import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import { ASYNC_OPERATION_STATUS, EXPORT_FORMAT, LOG_TYPE } from '@dau/domain';
import { asyncOperations } from './schema.js';
import { admins } from '../../platform/schema.js';
import { authOf, type AuthContext } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { localeOf } from '../../platform/http.js';
import { timeZoneOf } from '../../platform/csv.js';
import { listSpecs, parseListQuery, scopeOf, withinDates } from '../../platform/listing.js';
import { pageQuery, pageOffset } from '../../platform/paging.js';
import { answerRow, pageAnswer } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { ExportJobs, type AsyncOperation, type ExportJobsOptions } from './jobs.js';
import { CONTENT_TYPE, EXTENSION, type ExportFormat } from './run.js';

const PAGE = 'async_operations';
const BASE = '/api/v1/system/async_operations';
const TAGS = [PAGE];

const isoDate = z.string().datetime({ offset: true }).optional();
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const exportBody = z.object({
  /** The name of the list (ListSpec), e.g. `bill`. */
  type: z.string().trim().min(1).max(64),
  /** 1 CSV, 2 XLSX (domain EXPORT_FORMAT). */
  format: z.union([z.literal(EXPORT_FORMAT.csv), z.literal(EXPORT_FORMAT.xlsx)]),
  /** The list's filters as the list screen sends them (page, page_size and sort are ignored: exports run newest first). */
  params: z.record(z.string(), z.unknown()).default({}),
  /** Language of the enum labels in the file; the caller's language by default. */
  locale: z.string().max(20).optional(),
  /** The column headers, by column key, as the list screen labels its columns in the caller's language (the keys where missing). */
  labels: z.record(z.string().max(64), z.string().trim().min(1).max(100)).optional(),
});

const listQuery = pageQuery.extend({
  type: z.string().trim().max(64).optional(),
  status: z.coerce.number().int().min(1).max(3).optional(),
  format: z.coerce.number().int().min(1).max(2).optional(),
  created_from: isoDate,
  created_to: isoDate,
});

const SORTABLE = {
  id: asyncOperations.id,
  created_at: asyncOperations.createdAt,
  updated_at: asyncOperations.updatedAt,
  row_count: asyncOperations.rowCount,
} as const;

type Row = { op: AsyncOperation; account: string | null };

/** An export job as the console lists it (what toItem builds); `params` are the list filters it was asked with. */
const jobAnswer = answerRow({
  id: 'number', admin_id: 'number?', account: 'string?', type: 'string', format: 'number', status: 'number', row_count: 'number?',
  file_name: 'string?', error_message: 'string?', created_at: 'string', updated_at: 'string', download_url: 'string?',
}).extend({ params: z.unknown() });

function toItem({ op, account }: Row) {
  return {
    id: op.id,
    admin_id: op.adminId,
    account,
    type: op.type,
    format: op.format,
    status: op.status,
    params: op.params,
    row_count: op.rowCount,
    file_name: op.fileName,
    error_message: op.errorMessage,
    created_at: op.createdAt.toISOString(),
    updated_at: op.updatedAt.toISOString(),
    download_url: op.status === ASYNC_OPERATION_STATUS.completed ? `${BASE}/${op.id}/download` : null,
  };
}

/** Own jobs; the super admin's are everyone's. */
const ownCondition = (auth: AuthContext): SQL | undefined => (auth.isSuper ? undefined : eq(asyncOperations.adminId, auth.admin.id));

/** Only the admin who asked, or a super admin: 404 when there is no such job, 403 OUT_OF_SCOPE when it is someone else's. */
function assertOwn(auth: AuthContext, op: AsyncOperation) {
  if (!auth.isSuper && op.adminId !== auth.admin.id) throw new AppError(403, 'OUT_OF_SCOPE');
}

/** The filters of a list, as sent, restricted to the keys the list knows (validated with parseListQuery). */
function pickFilters(shape: Record<string, unknown>, raw: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (k in shape && v !== undefined) out[k] = v;
  return out;
}

const runners = new WeakMap<AppContext, ExportJobs>();
/** The export runner of an app (tests, maintenance scripts). */
export const exportJobsOf = (ctx: AppContext) => runners.get(ctx);

/**
 * Exports as background jobs (spec §3 Async operation): POST /api/v1/exports queues one on the durable
 * job queue, the runner writes the file under `<dataDir>/exports`, the `async_operations` page lists,
 * downloads and deletes them. When the app closes, running exports go back to the queue before the
 * job workers stop.
 */
export function exportRoutes(app: FastifyInstance, ctx: AppContext, opts: ExportJobsOptions = {}): ExportJobs {
  const { db } = ctx;
  const jobs = new ExportJobs(ctx, path.join(ctx.dataDir, 'exports'), app.log, opts);
  runners.set(ctx, jobs);
  app.addHook('preClose', async () => {
    await jobs.stop();
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  const loadRow = async (id: number): Promise<Row | undefined> => {
    const [row] = await db
      .select({ op: asyncOperations, account: admins.account })
      .from(asyncOperations)
      .leftJoin(admins, eq(admins.id, asyncOperations.adminId))
      .where(eq(asyncOperations.id, id))
      .limit(1);
    return row;
  };

  // Any signed-in admin may ask; the handler checks `<list page>:export` of the list asked for.
  r.post('/api/v1/exports', { config: { access: { signedIn: true } }, schema: { tags: ['exports'], summary: 'Ask for a list as a CSV or XLSX file, made in the background', body: exportBody, response: { 202: jobAnswer } } }, async (req, reply) => {
    const auth = authOf(req);
    const body = req.body;
    const spec = listSpecs().get(body.type);
    if (!spec) throw badRequest('PARAM_INVALID', [{ field: 'type', message: `no list named ${body.type}` }]);
    if (!auth.can(spec.page, 'export')) throw new AppError(403, 'FORBIDDEN', {}, { permission: `${spec.page}:export` });
    const filters = pickFilters(spec.filters.shape, body.params);
    // The list's own conditions with the asker's scope, built now: a list the asker's scope may not read
    // (a whole-book report asked by a branch admin: 403 WHOLE_BOOK_ONLY) is refused here, not queued to fail.
    spec.where(parseListQuery(spec, filters) as never, await scopeOf(db, auth));
    const locale = body.locale ?? localeOf(req);
    // Instants in the file are written in the asker's time zone, with its offset.
    const labels = body.labels ? Object.fromEntries(spec.columns.filter((c) => body.labels![c.key]).map((c) => [c.key, body.labels![c.key]!])) : undefined;
    const params = { ...filters, locale, time_zone: await timeZoneOf(db, auth.admin.id), ...(labels ? { labels } : {}) };
    const row = await db.transaction(async (tx) => {
      const [op] = await tx
        .insert(asyncOperations)
        .values({ adminId: auth.admin.id, type: spec.name, format: body.format, params, status: ASYNC_OPERATION_STATUS.in_progress })
        .returning();
      await writeAudit(tx, req, {
        type: LOG_TYPE.ordinary,
        content: `Requested export #${op.id}: ${spec.name} as ${EXTENSION[body.format as ExportFormat]}`,
        after: { id: op.id, type: spec.name, format: body.format, params },
      });
      await jobs.queue(tx, op.id);
      return op;
    });
    return reply.status(202).send(toItem({ op: row, account: auth.admin.account }));
  });

  r.get(BASE, { config: { access: { page: PAGE } }, schema: { tags: TAGS, summary: 'My export jobs (everyone\'s for the super admin)', querystring: listQuery, response: { 200: pageAnswer(jobAnswer) } } }, async (req) => {
    const auth = authOf(req);
    const q = req.query;
    const wanted = q.sort ?? '-id';
    const key = wanted.replace(/^-/, '') as keyof typeof SORTABLE;
    const col = SORTABLE[key];
    if (!col) throw badRequest('PARAM_INVALID', [{ field: 'sort', message: `cannot sort by ${key}` }]);
    const dir = wanted.startsWith('-') ? desc : asc;
    const where = and(
      ownCondition(auth),
      q.type ? eq(asyncOperations.type, q.type) : undefined,
      q.status ? eq(asyncOperations.status, q.status) : undefined,
      q.format ? eq(asyncOperations.format, q.format) : undefined,
      withinDates(asyncOperations.createdAt, q.created_from, q.created_to),
    );
    const [rows, [{ n }]] = await Promise.all([
      db
        .select({ op: asyncOperations, account: admins.account })
        .from(asyncOperations)
        .leftJoin(admins, eq(admins.id, asyncOperations.adminId))
        .where(where)
        .orderBy(...(col === asyncOperations.id ? [dir(col)] : [dir(col), dir(asyncOperations.id)]))
        .limit(q.page_size)
        .offset(pageOffset(q)),
      db.select({ n: count() }).from(asyncOperations).where(where),
    ]);
    return { items: rows.map(toItem), total: Number(n), page: q.page, page_size: q.page_size };
  });

  r.get(
    `${BASE}/:id/download`,
    {
      config: { access: { page: PAGE, button: 'download' } },
      schema: {
        tags: TAGS, summary: 'Download the file of a finished export job', params: idParams,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/zip'],
        response: { 200: z.string().describe('The export file (CSV, XLSX, or a ZIP of several)') },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const row = await loadRow(req.params.id);
      if (!row) throw notFound();
      assertOwn(auth, row.op);
      if (row.op.status !== ASYNC_OPERATION_STATUS.completed || !row.op.filePath) throw conflict();
      const file = jobs.pathOf(row.op.filePath);
      let size: number;
      try {
        size = (await fs.promises.stat(file)).size;
      } catch {
        throw notFound();
      }
      await writeAudit(db, req, { type: LOG_TYPE.ordinary, content: `Downloaded export #${row.op.id} (${row.op.type}, ${row.op.rowCount} rows)` });
      const name = row.op.fileName ?? path.basename(file);
      reply.header('content-type', CONTENT_TYPE[row.op.format as ExportFormat] ?? 'application/octet-stream');
      reply.header('content-length', size);
      reply.header('content-disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`);
      reply.header('cache-control', 'private, no-store');
      return reply.send(fs.createReadStream(file) as never); // piped as it is: the schema documents the file
    },
  );

  r.delete(`${BASE}/:id`, { config: { access: { page: PAGE, button: 'delete' } }, schema: { tags: TAGS, summary: 'Delete an export job and its file', params: idParams, response: { 200: z.object({ ok: z.boolean() }) } } }, async (req) => {
    const auth = authOf(req);
    const row = await loadRow(req.params.id);
    if (!row) throw notFound();
    assertOwn(auth, row.op);
    await db.transaction(async (tx) => {
      const gone = await tx.delete(asyncOperations).where(eq(asyncOperations.id, row.op.id)).returning({ id: asyncOperations.id });
      if (!gone.length) throw notFound();
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Deleted export #${row.op.id} (${row.op.type})`, before: toItem(row) });
    });
    // A job still running notices at its next progress update, stops and removes its partial file.
    if (row.op.filePath) await jobs.removeFiles(row.op.filePath);
    return { ok: true };
  });

  return jobs;
}
