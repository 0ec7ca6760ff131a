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

// A read-only face of the tickets (platform/read-model.ts): search everywhere finds a ticket by its serial.
import { readModel } from '../../platform/read-model.js';
import { jackpotTickets as jackpotTicketsTable } from './schema.js';
export const jackpotTickets = readModel(jackpotTicketsTable);
