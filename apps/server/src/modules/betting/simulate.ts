/**
 * The simulator's betting activity (plugged into `startSimulator`): bettors with money place singles and
 * accumulators on the open selections the (sandbox) feed offers, through the same placement service a
 * bettor-facing app calls, so every rule applies and some slips are refused as in real life; now and
 * then one cashes out an open order or sets an auto-cashout target. Settlement follows from the feed.
 */
import { and, eq, gte, sql } from 'drizzle-orm';
import { ORDER_STATUS, ORDER_TYPE } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { bettors } from '../money/index.js';
import { feedMarkets } from '../feed/index.js';
import { openSelections } from './selections.js';
import { orders } from './schema.js';
import { placeOrder } from './placement.js';
import { acceptCashout, priceCashout, setCashoutRule } from './cashout.js';

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
}

const STAKES = [500_00, 1_000_00, 2_000_00, 5_000_00, 10_000_00];

export async function simulateBets(ctx: AppContext, rng: Rng): Promise<void> {
  const { db } = ctx;
  const roll = rng.next();
  if (roll < 0.08) return simulateCashout(ctx, rng);
  const [b] = await db
    .select({ id: bettors.id, cash: bettors.cashBalance })
    .from(bettors)
    .where(and(gte(bettors.cashBalance, 500_00), eq(bettors.disabled, 1), eq(bettors.betStatus, 1)))
    .orderBy(sql`random()`)
    .limit(1);
  if (!b) return;
  const legs = rng.next() < 0.55 ? 1 : rng.int(2, 5);
  // Bettable (offer status 1) selections, not the ones without odds.
  const open = await openSelections(db, eq(feedMarkets.status, 1), 40);
  const slip: typeof open = [];
  for (const s of open) {
    if (slip.length >= legs) break;
    if (!slip.some((x) => x.eventId === s.eventId)) slip.push(s);
  }
  if (!slip.length) return;
  const stake = Math.min(Math.floor(b.cash / 100) * 100, rng.pick(STAKES));
  try {
    await placeOrder(db, {
      bettorId: b.id,
      type: ORDER_TYPE.user_bet,
      stakeCents: stake,
      legs: slip.map((s) => ({ eventId: s.eventId, marketKey: s.marketKey, outcomeId: s.outcomeId, odds: s.price as string })),
    }, { bus: ctx.bus });
  } catch (e) {
    if (!(e instanceof AppError)) throw e; // a refusal is a normal outcome of a slip
  }
}

async function simulateCashout(ctx: AppContext, rng: Rng) {
  const [o] = await ctx.db.select({ id: orders.id }).from(orders).where(eq(orders.status, ORDER_STATUS.pending)).orderBy(sql`random()`).limit(1);
  if (!o) return;
  const offer = await priceCashout(ctx.db, o.id);
  if (offer.amount === null || offer.amount <= 0) return;
  try {
    if (rng.next() < 0.5) await acceptCashout(ctx.db, o.id, offer.amount);
    else await setCashoutRule(ctx.db, o.id, Math.floor((offer.amount * rng.int(110, 150)) / 100));
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
  }
}
