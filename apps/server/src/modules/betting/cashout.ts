/**
 * Cashout (spec §4 Cashout, issue 5). The offer comes from the current prices of the order's open legs
 * (domain `cashoutOffer`: stake x placed odds / current odds x (1 - margin), capped at the potential
 * payout); none while a leg is suspended ("Cashout currently locked."). States as the spec names them:
 * request (the bettor asks), requesting / retrieving update (the offer is being priced), locked, offer,
 * accept (paid). An acceptance waits `cashout_delay_seconds` and prices again: when the offer fell
 * below what the bettor accepted, nothing is paid and the new offer is answered instead. A cashout is
 * final: settlement never touches the order again.
 *
 * Auto cashout: a rule with a target amount; when an odds change of one of its matches makes the offer
 * reach the target, the order is cashed out at the offer (status 8 auto cash out). Cancellable before.
 *
 * The early-cashout fee recorded on the order is what the margin kept: the fair offer (margin 0) minus
 * the offer paid.
 *
 * Withholding tax (issue 23): a cashout is taxed as a settlement is (domain `withholdingTaxCents`, the
 * order's own tax rate): on its net winnings, the amount minus the stake when positive. The offer and the
 * order's payout are the gross amount; the bettor is credited the amount less the tax, and the tax moves
 * from `payouts` to `withholding_tax_payable` in the same journal transaction, as settlement posts it.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, CASHOUT_STATE, ORDER_STATUS, cashoutOffer, withholdingTaxCents, type LegSettlement } from '@dau/domain';
import type { Db, Executor } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { HOUSE, houseTransfer, newTxnId, post } from '../money/index.js';
import { feedEvents, feedMarkets, feedOutcomes } from '../feed/index.js';
import { cashoutRules, orderEvents, orderLines, orders } from './schema.js';
import { loadSettings } from './settings.js';
import { promotionEvent } from '../promotions/index.js';
import { OPEN_MARKET, OPEN_MATCH } from './selections.js';
import { bumpExposure, bumpHour } from './stats.js';

export interface Offer {
  state: number;
  amount: number | null;
  /** The fair value without margin (what the fee is measured against). */
  fair: number | null;
}

/** Prices the cashout of one order from the feed as it is now (inside `ex`). */
export async function priceCashout(ex: Executor, orderId: number): Promise<Offer> {
  const [order] = await ex.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new AppError(404, 'NOT_FOUND');
  const settings = await loadSettings(ex);
  if (order.status !== ORDER_STATUS.pending || !settings.cashoutEnabled) return { state: CASHOUT_STATE.locked, amount: null, fair: null };
  const rows = await ex
    .select({
      line: orderLines,
      price: feedOutcomes.price,
      active: feedOutcomes.active,
      outcomeSuspended: feedOutcomes.suspendedByOperator,
      open: sql<boolean>`coalesce((${OPEN_MARKET}), false)`,
      eventOpen: sql<boolean>`coalesce((${OPEN_MATCH}), false)`,
    })
    .from(orderLines)
    .leftJoin(feedEvents, eq(feedEvents.eventId, orderLines.eventId))
    .leftJoin(feedMarkets, and(eq(feedMarkets.eventId, orderLines.eventId), eq(feedMarkets.marketKey, orderLines.marketKey)))
    .leftJoin(
      feedOutcomes,
      and(eq(feedOutcomes.eventId, orderLines.eventId), eq(feedOutcomes.marketKey, orderLines.marketKey), eq(feedOutcomes.outcomeId, orderLines.outcomeId)),
    )
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  const legs = rows.map((r) => ({
    placedOdds: r.line.odds,
    currentOdds: r.price,
    suspended: !r.open || !r.eventOpen || !r.active || !!r.outcomeSuspended,
    settlement: (r.line.settlement ?? null) as LegSettlement | null,
  }));
  const offer = cashoutOffer({ stakeCents: order.stake, legs, marginBps: settings.cashoutMarginBps });
  if (offer.state === 'locked') return { state: CASHOUT_STATE.locked, amount: null, fair: null };
  const fair = cashoutOffer({ stakeCents: order.stake, legs, marginBps: 0 });
  return { state: CASHOUT_STATE.offer, amount: offer.amountCents, fair: fair.state === 'offer' ? fair.amountCents : offer.amountCents };
}

/** Pays a cashout at `amount` (already re-priced by the caller) and closes the order for good. */
async function payCashout(tx: Executor, orderId: number, offer: Offer & { amount: number }, auto: boolean, adminId: number | null) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw new AppError(404, 'NOT_FOUND');
  if (order.status !== ORDER_STATUS.pending) throw new AppError(409, 'CASHOUT_FINAL');
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId));
  const txnId = newTxnId();
  const tax = withholdingTaxCents(offer.amount, order.stake, order.taxRate);
  const credited = offer.amount - tax;
  if (credited > 0) {
    await post(tx, {
      bettorId: order.bettorId, account: ACCOUNT_KIND.cash, amount: credited, type: BILL_TYPE.bet_payout, cause: { type: 'order', id: order.id },
      house: HOUSE.payouts, adminId, remark: { kind: 'order_change', params: { order_no: order.orderNo, change: auto ? 'auto_cashout' : 'cashout' } }, txnId,
    });
  }
  await houseTransfer(tx, txnId, HOUSE.payouts, HOUSE.taxPayable, tax, BILL_TYPE.bet_payout);
  const fee = Math.max(0, (offer.fair ?? offer.amount) - offer.amount);
  const status = auto ? ORDER_STATUS.auto_cash_out : ORDER_STATUS.early_settlement;
  await tx
    .update(orders)
    .set({
      status, payout: offer.amount, cashoutAmount: offer.amount, earlyCashoutFee: fee, creditedCash: credited, taxAmount: tax,
      profit: credited - order.stake, settledAt: sql`now()`, version: sql`${orders.version} + 1`, updatedAt: sql`now()`,
    })
    .where(eq(orders.id, order.id));
  // Early-settlement odds: the current price of each open leg at the moment of the cashout.
  await tx.execute(sql`
    UPDATE order_lines l SET cashout_odds = o.price FROM feed_outcomes o
    WHERE l.order_id = ${order.id} AND o.event_id = l.event_id AND o.market_key = l.market_key AND o.outcome_id = l.outcome_id AND l.settlement IS NULL`);
  await tx.insert(orderEvents).values({
    orderId: order.id, kind: 'cashout', source: auto ? 'system' : 'bettor', adminId,
    before: { status: order.status }, after: { status, cashout_amount: offer.amount, early_cashout_fee: fee, tax, credited_cash: credited },
  });
  await tx.update(cashoutRules).set({ state: auto ? 'fired' : 'cancelled', updatedAt: sql`now()` }).where(and(eq(cashoutRules.orderId, order.id), eq(cashoutRules.state, 'active')));
  // Promotions: a cashed-out stake is settled (bet-to-get, campaign GGR, bonus wagering).
  await promotionEvent(tx, { kind: 'settled', bettorIds: [order.bettorId], orderIds: [order.id] });
  await bumpHour(tx, order.agentId, { payouts: offer.amount, cashouts: offer.amount, tax, settled: 1, settled_stake: order.stake });
  await bumpExposure(
    tx,
    order.agentId,
    lines.map((l) => ({ eventId: l.eventId, marketKey: l.marketKey, outcomeId: l.outcomeId, liability: -order.potentialPayout, payouts: offer.amount, settled_stake: order.stake })),
  );
  return { state: CASHOUT_STATE.accept, amount: offer.amount, fee, tax, credited, status };
}

/**
 * The bettor accepts an offer of `accepted` cents: after the acceptance delay the order is priced again;
 * paid at the new offer when it is at least the accepted one (a better price is the bettor's), else the
 * new offer is answered with state offer (or locked) and nothing is paid.
 */
export async function acceptCashout(db: Db, orderId: number, accepted: number, opts: { delayMs?: number } = {}) {
  const settings = await loadSettings(db);
  const delay = opts.delayMs ?? settings.cashoutDelaySeconds * 1000;
  if (delay > 0) await new Promise((r) => setTimeout(r, delay));
  return db.transaction(async (tx) => {
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
    const offer = await priceCashout(tx, orderId);
    if (offer.state === CASHOUT_STATE.locked || offer.amount === null) {
      const [o] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
      if (o && o.status !== ORDER_STATUS.pending) throw new AppError(409, 'CASHOUT_FINAL');
      throw new AppError(409, 'CASHOUT_LOCKED');
    }
    if (offer.amount < accepted) return { state: CASHOUT_STATE.offer, amount: offer.amount, paid: false };
    const paid = await payCashout(tx, orderId, { ...offer, amount: offer.amount }, false, null);
    return { ...paid, paid: true };
  });
}

/** Sets (or replaces) the auto-cashout target of an open order. */
export async function setCashoutRule(db: Db, orderId: number, target: number) {
  return db.transaction(async (tx) => {
    const [o] = await tx.select({ status: orders.status, potential: orders.potentialPayout }).from(orders).where(eq(orders.id, orderId)).for('update');
    if (!o) throw new AppError(404, 'NOT_FOUND');
    if (o.status !== ORDER_STATUS.pending) throw new AppError(409, 'CASHOUT_FINAL');
    if (!Number.isSafeInteger(target) || target <= 0 || target > o.potential) throw new AppError(400, 'PARAM_INVALID');
    await tx
      .insert(cashoutRules)
      .values({ orderId, target })
      .onConflictDoUpdate({ target: cashoutRules.orderId, set: { target, state: 'active', updatedAt: sql`now()` } });
    await tx.insert(orderEvents).values({ orderId, kind: 'cashout_rule', source: 'bettor', after: { target, state: 'active' } });
  });
}

export async function cancelCashoutRule(db: Db, orderId: number) {
  return db.transaction(async (tx) => {
    const [r] = await tx.select().from(cashoutRules).where(and(eq(cashoutRules.orderId, orderId), eq(cashoutRules.state, 'active'))).for('update');
    if (!r) throw new AppError(404, 'NOT_FOUND');
    await tx.update(cashoutRules).set({ state: 'cancelled', updatedAt: sql`now()` }).where(eq(cashoutRules.orderId, orderId));
    await tx.insert(orderEvents).values({ orderId, kind: 'cashout_rule', source: 'bettor', before: { target: r.target, state: 'active' }, after: { state: 'cancelled' } });
  });
}

/** After odds changes of an event: fire the active auto-cashout rules of its orders whose offer reached the target. */
export async function checkCashoutRules(db: Db, eventId: string): Promise<number> {
  const candidates = await db
    .selectDistinct({ orderId: cashoutRules.orderId, target: cashoutRules.target })
    .from(cashoutRules)
    .innerJoin(orderLines, eq(orderLines.orderId, cashoutRules.orderId))
    .where(and(eq(cashoutRules.state, 'active'), eq(orderLines.eventId, eventId)));
  let fired = 0;
  for (const c of candidates) {
    await db.transaction(async (tx) => {
      const [o] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, c.orderId)).for('update');
      const [rule] = await tx.select().from(cashoutRules).where(eq(cashoutRules.orderId, c.orderId));
      if (!o || o.status !== ORDER_STATUS.pending || rule?.state !== 'active') return;
      const offer = await priceCashout(tx, c.orderId);
      if (offer.amount === null || offer.amount < rule.target) return;
      await payCashout(tx, c.orderId, { ...offer, amount: offer.amount }, true, null);
      fired++;
    });
  }
  return fired;
}

/** Orders that have an active auto-cashout rule (for the order screens). */
export async function activeRules(ex: Executor, orderIds: number[]) {
  if (!orderIds.length) return new Map<number, number>();
  const rows = await ex.select().from(cashoutRules).where(and(inArray(cashoutRules.orderId, orderIds), eq(cashoutRules.state, 'active')));
  return new Map(rows.map((r) => [r.orderId, r.target]));
}
