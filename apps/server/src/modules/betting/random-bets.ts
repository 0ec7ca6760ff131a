/**
 * Random bets (spec §2 "Random bet settings"): for chosen bettors, N orders each with a stake between
 * min and max, on matches starting within the next `days` days (or live ones only), on selections whose
 * price is at least `min_odds` (0 = any) and at most `max_odds` (0 = no cap). Each order is a single
 * placed through the same placement service as any bet (type random bet), so every rule applies; an
 * order the rules refuse is reported, not forced. One transaction for the batch (the caller's, so an
 * Idempotency-Key makes a retried request answer the first batch instead of placing another).
 */
import { z } from 'zod';
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { EVENT_STATUS, ORDER_TYPE } from '@dau/domain';
import type { Tx } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { feedEvents, feedOutcomes } from '../feed/index.js';
import { openSelections } from './selections.js';
import { placeIn } from './placement.js';

export const randomBetBody = z
  .object({
    bettor_ids: z.array(z.number().int().positive()).min(1).max(100),
    orders: z.number().int().min(1).max(100),
    min_amount: z.number().int().positive(),
    max_amount: z.number().int().positive(),
    days: z.number().int().min(0).max(30),
    live_only: z.boolean().default(false),
    min_odds: z.number().min(0).max(1000).default(0),
    max_odds: z.number().min(0).max(1000).default(0),
  })
  .strict()
  .refine((b) => b.max_amount >= b.min_amount, { message: 'max_amount below min_amount', path: ['max_amount'] })
  .refine((b) => b.max_odds === 0 || b.max_odds >= b.min_odds, { message: 'max_odds below min_odds', path: ['max_odds'] });

export type RandomBetInput = z.infer<typeof randomBetBody>;

export async function placeRandomBets(tx: Tx, input: RandomBetInput, adminId: number, random: () => number = Math.random) {
  const now = new Date();
  const until = new Date(now.getTime() + Math.max(1, input.days) * 86_400_000);
  const candidates = await openSelections(
    tx,
    and(
      input.live_only ? eq(feedEvents.eventStatus, EVENT_STATUS.in_progress) : and(gte(feedEvents.startTime, now), lte(feedEvents.startTime, until)),
      eq(feedEvents.randomBet, true),
      input.min_odds > 0 ? sql`${feedOutcomes.price} >= ${input.min_odds}` : undefined,
      input.max_odds > 0 ? sql`${feedOutcomes.price} <= ${input.max_odds}` : undefined,
    ),
    5_000,
  );
  if (!candidates.length) throw new AppError(422, 'BET_MATCH_CLOSED');
  const placed: { order_no: string; bettor_id: number; stake: number }[] = [];
  const refused: { bettor_id: number; code: string }[] = [];
  const step = 100; // whole shillings
  for (const bettorId of input.bettor_ids) {
    for (let i = 0; i < input.orders; i++) {
      const pick = candidates[Math.floor(random() * candidates.length)];
      const span = Math.floor((input.max_amount - input.min_amount) / step);
      const stake = input.min_amount + Math.floor(random() * (span + 1)) * step;
      try {
        // A savepoint per order: a refused one leaves the others of the batch in place.
        const o = await tx.transaction((sp) =>
          placeIn(sp, {
            bettorId, type: ORDER_TYPE.random_bet, stakeCents: stake, adminId,
            legs: [{ eventId: pick.eventId, marketKey: pick.marketKey, outcomeId: pick.outcomeId, odds: pick.price as string }],
          }),
        );
        placed.push({ order_no: o.orderNo, bettor_id: bettorId, stake });
      } catch (e) {
        if (e instanceof AppError) refused.push({ bettor_id: bettorId, code: e.code });
        else throw e;
      }
    }
  }
  return { placed, refused };
}
