import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../platform/errors.js';
import type { FeedEngine } from './engine.js';

/**
 * SANDBOX ONLY (registered when DAU_SANDBOX_ROUTES=1, never by default): hands one provider message
 * (fixture change, odds change, bet stop, ...; the shapes of ./messages.ts) to the feed engine, exactly as
 * a provider adapter would, so demos and browser tests can create matches and move prices on demand
 * instead of running the random sandbox feed. Needs a signed-in admin with the match list page.
 */
export function feedSandboxRoutes(app: FastifyInstance, engine: FeedEngine) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v1/sandbox/feed/messages',
    {
      config: { access: { page: 'match_list' } },
      schema: {
        tags: ['sandbox'],
        summary: 'Apply one feed message (sandbox only)',
        description: 'Applies one feed message (sandbox only). Answers whether it changed anything (a repeat does not).',
        response: { 201: z.object({ type: z.string(), applied: z.boolean() }) },
        body: z.object({ type: z.string().min(1).max(64) }).passthrough(),
      },
    },
    async (req, reply) => {
      const res = await engine.ingest(req.body);
      if (!res.ok) throw badRequest('PARAM_INVALID', [{ field: 'message', message: res.error }]);
      return reply.status(201).send({ type: res.type, applied: res.applied });
    },
  );
}
