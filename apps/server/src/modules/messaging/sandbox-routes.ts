/**
 * Sandbox-only bettor requests of messaging (DAU_SANDBOX_ROUTES=1, never in production): what the bettor
 * app would do, for the browser tests and demos: write on the message board as a bettor of my branch, and
 * read a bettor's inbox (the replies and messages they got).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { BOARD_CONTENT_MAX, boardRow, id, inboxItem, queryId, text } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { AppError, notFound } from '../../platform/errors.js';
import { scopeOf } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { bettors } from '../money/index.js';
import { boardMessages } from './schema.js';
import { inbox, postBoardMessage } from './service.js';
import { toBoardRow } from './routes.js';

export function messagingSandboxRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const inBranch = async (req: Parameters<typeof authOf>[0], bettorId: number) => {
    const [b] = await db.select({ agentId: bettors.agentId }).from(bettors).where(eq(bettors.id, bettorId));
    if (!b) throw notFound();
    if (!agentInScope(await scopeOf(db, authOf(req)), b.agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
  };

  r.post(
    '/api/v1/sandbox/messaging/board',
    {
      config: { access: { page: 'message_board' } },
      schema: {
        tags: ['sandbox'], summary: 'A bettor of my branch writes on the message board, as the bettor app does (sandbox only)',
        body: z.strictObject({ bettor_id: id(), content: text(BOARD_CONTENT_MAX).pipe(z.string().min(1)) }), response: { 201: boardRow },
      },
    },
    async (req, reply) => {
      await inBranch(req, req.body.bettor_id);
      const row = await postBoardMessage(db, req.body.bettor_id, req.body.content);
      const [b] = await db.select({ name: bettors.name }).from(bettors).where(eq(bettors.id, row.bettorId));
      const [fresh] = await db.select().from(boardMessages).where(eq(boardMessages.id, row.id));
      return reply.status(201).send(toBoardRow({ b: fresh!, name: b?.name ?? null, replier: null }));
    },
  );

  r.get(
    '/api/v1/sandbox/messaging/inbox',
    {
      config: { access: { page: 'message_board' } },
      schema: {
        tags: ['sandbox'], summary: "A bettor of my branch's inbox, as the bettor app shows it (sandbox only)",
        querystring: z.object({ bettor_id: queryId(), page: queryId().optional() }),
        response: { 200: z.object({ items: z.array(inboxItem), total: z.number(), unread: z.number() }) },
      },
    },
    async (req) => {
      await inBranch(req, req.query.bettor_id);
      return inbox(db, req.query.bettor_id, req.query.page ?? 1);
    },
  );
}
