/**
 * Selections open for betting right now, as the feed and the operators left them: the match visible,
 * not suspended, not in maintenance, not cancelled, not over; the market bettable (offer status 1 or 2)
 * and suspended by no one, not settled, not cancelled; the outcome active, not suspended, with a price.
 * One definition for the placement service's check and for the tools that pick selections (random bets,
 * the simulator).
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db.js';
import { feedEvents, feedMarkets, feedOutcomes } from '../feed/index.js';

/** The market takes bets (SQL over feed_markets). */
export const OPEN_MARKET = sql`${feedMarkets.status} in (1, 2) and not ${feedMarkets.suspendedByOperator} and not ${feedMarkets.suspendedByBetStop}
  and not ${feedMarkets.suspendedByProducer} and ${feedMarkets.settlement} is null and ${feedMarkets.cancel} is null`;

/** The match takes bets (SQL over feed_events). */
export const OPEN_MATCH = sql`${feedEvents.eventStatus} in (1, 2) and ${feedEvents.isVisible} and not ${feedEvents.isSuspended}
  and not ${feedEvents.isMaintain} and ${feedEvents.cancelReason} = ''`;

/** The outcome takes bets (SQL over feed_outcomes). */
export const OPEN_OUTCOME = sql`${feedOutcomes.active} and not ${feedOutcomes.suspendedByOperator} and ${feedOutcomes.price} is not null`;

/** Open selections matching `where` (over the three feed tables), in random order, at most `limit`. */
export function openSelections(ex: Executor, where: SQL | undefined, limit: number) {
  return ex
    .select({ eventId: feedOutcomes.eventId, marketKey: feedOutcomes.marketKey, outcomeId: feedOutcomes.outcomeId, price: feedOutcomes.price })
    .from(feedOutcomes)
    .innerJoin(feedMarkets, and(eq(feedMarkets.eventId, feedOutcomes.eventId), eq(feedMarkets.marketKey, feedOutcomes.marketKey)))
    .innerJoin(feedEvents, eq(feedEvents.eventId, feedOutcomes.eventId))
    .where(and(OPEN_MATCH, OPEN_MARKET, OPEN_OUTCOME, where))
    .orderBy(sql`random()`)
    .limit(limit);
}
