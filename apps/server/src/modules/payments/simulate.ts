import { and, eq, gte, sql } from 'drizzle-orm';
import { networkOf } from '@dau/domain';
import { bettors } from '../money/index.js';
import type { AppContext } from '../../platform/context.js';
import { PAY_TYPES } from './operators.js';
import { paymentSettings } from './shared.js';
import { startRecharge } from './recharges.js';
import { requestWithdrawal } from './withdrawals.js';

/** The part of the simulator's Rng this needs (simulator/rng.ts). */
interface Rng {
  next(): number;
  pick<T>(xs: readonly T[]): T;
}

/**
 * The simulator's payment activity (plug into `startSimulator(ctx, { activities: [simulatePayments] })`):
 * bettors deposit through all four operator sandboxes (about a third by the operators' USSD push prompt,
 * bill 11, which some bettors cancel or leave unanswered) and ask for withdrawals, through the same services a
 * bettor-facing app calls. The sandboxes make some of them fail, some duplicate their callbacks and some
 * never call back (stuck, for the re-query queue, which the periodic `payments.requery-stuck` job sweeps);
 * withdrawals wait in the review queue for an operator.
 */
export async function simulatePayments(ctx: AppContext, rng: Rng): Promise<void> {
  const { db } = ctx;
  const roll = rng.next();
  if (roll < 0.7) {
    const [b] = await db.select({ id: bettors.id }).from(bettors).where(eq(bettors.disabled, 1)).orderBy(sql`random()`).limit(1);
    if (!b) return;
    const amount = rng.pick([1_000_00, 2_000_00, 5_000_00, 10_000_00, 20_000_00, 50_000_00]);
    await startRecharge(db, { bettorId: b.id, payType: rng.pick(PAY_TYPES), amount, channel: rng.next() < 0.35 ? 'ussd' : 'app' });
    return;
  }
  const cfg = await paymentSettings(db);
  const [b] = await db
    .select({ id: bettors.id, cash: bettors.cashBalance, phone: bettors.phone })
    .from(bettors)
    .where(and(eq(bettors.disabled, 1), gte(bettors.cashBalance, cfg.minWithdrawal)))
    .orderBy(sql`random()`)
    .limit(1);
  if (!b) return;
  const share = rng.pick([0.2, 0.5, 0.8, 1]);
  const amount = Math.min(cfg.maxWithdrawal, Math.max(cfg.minWithdrawal, Math.floor((b.cash * share) / 100) * 100));
  // The number decides the network (a withdrawal through another operator is refused); a bettor on a network
  // we do not pay to (TTCL) asks anyway and is refused, as a real one would be.
  const payType = networkOf(b.phone)?.payType ?? rng.pick(PAY_TYPES);
  await requestWithdrawal(db, { bettorId: b.id, payType, amount }).catch(() => undefined);
}
