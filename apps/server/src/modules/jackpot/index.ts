/**
 * The 13-match jackpot (issue 12): bet types, issues, tickets, shares (./routes.ts) and settlement
 * (./settle-routes.ts). Other modules reach it through the services exported here.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { settleRoutes } from './settle-routes.js';
import { registerJackpotRoutes } from './routes.js';

export async function jackpotRoutes(app: FastifyInstance, ctx: AppContext) {
  registerJackpotRoutes(app, ctx);
  await settleRoutes(app, ctx);
}

export { copyShare, placeTicket, quoteTicket, refreshFeedResults, shareTicket, poolOf, parseTiers, tiersOf } from './service.js';
