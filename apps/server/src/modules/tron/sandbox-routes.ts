import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { scopeOf } from '../../platform/listing.js';
import { scopedBettor } from '../money/index.js';
import { requestUsdtWithdrawal } from './withdrawals.js';

/**
 * SANDBOX ONLY (registered when DAU_SANDBOX_ROUTES=1, never by default): the bettor app's USDT withdrawal
 * request (issue 29: browser tests and demos make a held one on demand), through the same service, for a
 * bettor of the caller's scope (404 / 403 OUT_OF_SCOPE otherwise).
 */
export function tronSandboxRoutes(app: FastifyInstance, { db }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v1/sandbox/tron/withdrawals',
    {
      config: { access: { page: 'withdraw_list' } },
      schema: {
        tags: ['sandbox'],
        summary: "Request a USDT withdrawal to an address for a bettor of the caller's scope (sandbox only)",
        body: z.strictObject({ bettor_id: z.number().int().positive().max(2_147_483_647), amount: z.number().int().positive().max(100_000_000_00), to_address: z.string().trim().max(64) }),
        response: { 201: z.object({ id: z.number(), serial_number: z.string(), status: z.number(), amount: z.number(), held: z.boolean() }) },
      },
    },
    async (req, reply) => {
      await scopedBettor(db, await scopeOf(db, authOf(req)), req.body.bettor_id);
      const { withdrawal: w, sweep } = await requestUsdtWithdrawal(db, { bettorId: req.body.bettor_id, amount: req.body.amount, toAddress: req.body.to_address });
      return reply.status(201).send({ id: w.id, serial_number: w.serialNumber, status: w.status, amount: Number(w.amount), held: !!sweep.remark?.startsWith('HELD: ') });
    },
  );
}
