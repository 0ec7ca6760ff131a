/**
 * The 13-match jackpot (issue 12): bet types, issues, tickets, shares (./routes.ts), settlement
 * (./settle-routes.ts) and the queue of prizes held above the cap (./held-prizes.ts, issue 23). Other modules reach it through the services exported here.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { settleRoutes } from './settle-routes.js';
import { registerJackpotRoutes } from './routes.js';
import { heldPrizeRoutes } from './held-prizes.js';

export async function jackpotRoutes(app: FastifyInstance, ctx: AppContext) {
  registerJackpotRoutes(app, ctx);
  await settleRoutes(app, ctx);
  heldPrizeRoutes(app, ctx);
}

export { copyShare, issuesWaitingOn, placeTicket, quoteTicket, refreshFeedResults, shareTicket, poolOf, parseTiers, tiersOf } from './service.js';
