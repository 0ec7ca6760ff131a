import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bettorNetworkAnswer, portedBody } from '@dau/contract';
import { authOf } from '../../platform/access.js';
import { scopeOf } from '../../platform/listing.js';
import type { AppContext } from '../../platform/context.js';
import { markPorted, unmarkPorted } from './network.js';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * The admin's record of a bettor's number ported to another network (issue 28), on the user screen
 * behind its `ported` button; the bettor must be in the admin's scope (403 OUT_OF_SCOPE otherwise, 404
 * for no such bettor). Each answers the number's network as the bettor's detail shows it.
 */
export function networkRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['user'];
  const access = { access: { page: 'user', button: 'ported' } };
  const actor = async (req: Parameters<typeof authOf>[0]) => {
    const auth = authOf(req);
    return { adminId: auth.admin.id, scope: await scopeOf(db, auth), req };
  };

  r.post(
    '/api/v1/money/bettors/:id/ported',
    {
      config: access,
      schema: {
        tags, summary: 'Mark the number of a bettor of the caller\'s scope as ported to the network of a mobile-money pay type',
        params: idParams, body: portedBody, response: { 200: bettorNetworkAnswer },
      },
    },
    async (req) => markPorted(db, await actor(req), req.params.id, { payType: req.body.pay_type, remark: req.body.remark }),
  );

  r.delete(
    '/api/v1/money/bettors/:id/ported',
    {
      config: access,
      schema: { tags, summary: 'Remove the ported mark of the number of a bettor of the caller\'s scope (the prefix decides again)', params: idParams, response: { 200: bettorNetworkAnswer } },
    },
    async (req) => unmarkPorted(db, await actor(req), req.params.id),
  );
}
