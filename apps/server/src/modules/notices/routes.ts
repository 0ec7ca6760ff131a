import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, count, desc, eq } from 'drizzle-orm';
import { notifications } from './schema.js';
import { authOf } from '../../platform/access.js';
import { notFound } from '../../platform/errors.js';
import { pageQuery, pageOffset } from '../../platform/paging.js';
import type { AppContext } from '../../platform/context.js';
import { notice, okAnswer, pageAnswer, queryId } from '@dau/contract';

/** Spec §7: unread notice fetch (notify_status=1, page 1, size 1) and mark viewed. Own notices only. */
export function noticeRoutes(app: FastifyInstance, { db }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/notices',
    {
      config: { access: { signedIn: true } },
      schema: {
        tags: ['notices'], summary: 'My notices, newest first',
        querystring: pageQuery.extend({ notify_status: z.coerce.number().int().min(1).max(2).optional() }),
        response: { 200: pageAnswer(notice) },
      },
    },
    async (req) => {
      const me = authOf(req).admin.id;
      const q = req.query;
      const where = and(eq(notifications.adminId, me), q.notify_status ? eq(notifications.notifyStatus, q.notify_status) : undefined);
      const [rows, [{ n }]] = await Promise.all([
        db.select().from(notifications).where(where).orderBy(desc(notifications.id)).limit(q.page_size).offset(pageOffset(q)),
        db.select({ n: count() }).from(notifications).where(where),
      ]);
      return {
        items: rows.map((x) => ({ id: x.id, content: x.content, notify_status: x.notifyStatus, create_time: x.createdAt.toISOString() })),
        total: Number(n),
        page: q.page,
        page_size: q.page_size,
      };
    },
  );
  r.post(
    '/api/v1/notices/:id/viewed',
    { config: { access: { signedIn: true } }, schema: { tags: ['notices'], summary: 'Mark one of my notices as viewed', params: z.object({ id: queryId() }), response: { 200: okAnswer } } },
    async (req) => {
      const me = authOf(req).admin.id;
      const rows = await db
        .update(notifications)
        .set({ notifyStatus: 2, viewedAt: new Date() })
        .where(and(eq(notifications.id, req.params.id), eq(notifications.adminId, me)))
        .returning({ id: notifications.id });
      if (!rows.length) throw notFound();
      return { ok: true };
    },
  );
}
