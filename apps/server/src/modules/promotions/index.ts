/**
 * Promotions (issue 17): campaigns, qualification from events, approval, bonus funds (./service.ts),
 * console routes (./routes.ts). Jobs:
 *  - `promotions.events` (every few seconds, singleton): evaluates the outbox of promotion events;
 *  - `promotions.expire-bonus` (every minute, singleton): removes expired bonus funds (credit bill 105),
 *    ends campaigns past their end and prunes events evaluated more than a week ago.
 * Other modules record events with `promotionEvent(tx, …)` in their own transaction.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { registerPromotionRoutes } from './routes.js';
import { drainPromotionEvents, endCampaigns, expireBonusGrants, pruneEvents } from './service.js';

export const EVENTS_JOB = 'promotions.events';
export const EXPIRE_JOB = 'promotions.expire-bonus';

/** Seconds between two evaluations of the events outbox (DAU_PROMOTION_EVENTS_SECONDS, default 5). */
const eventsSeconds = () => Math.max(1, Number(process.env.DAU_PROMOTION_EVENTS_SECONDS ?? 5) || 5);

export async function promotionsRoutes(app: FastifyInstance, ctx: AppContext) {
  ctx.jobs.every(EVENTS_JOB, eventsSeconds(), async () => {
    await drainPromotionEvents(ctx.db);
  }, { policy: 'singleton' });
  ctx.jobs.every(EXPIRE_JOB, 60, async () => {
    await expireBonusGrants(ctx.db);
    await endCampaigns(ctx.db);
    await pruneEvents(ctx.db);
  }, { policy: 'singleton' });
  registerPromotionRoutes(app, ctx);
}

export { approveQualification, bonusWageringLeft, drainPromotionEvents, expireBonusGrants, endCampaigns, processPromotionEvents, promotionEvent, qualify, recordBettorSignIn, refuseWithdrawalWhileWagering } from './service.js';
export type { PromotionEvent } from './service.js';
