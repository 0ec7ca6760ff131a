/**
 * Settling, resettling, rolling back and cancelling orders (issue 5).
 *
 * One rule does all of it: `reconcileOrder` prices the order from its lines as they are now (domain
 * `settleOrder`) and compares the wanted amounts with what the ledger already credited for it
 * (orders.credited_cash / credited_credit / inviter_reward). Equal: nothing happens (settling twice,
 * re-delivered messages and concurrent settlements pay once: the order row is locked first). Different:
 * the earlier credit is reversed with a bill of its own (type 8 "amount rolled back", which may leave a
 * debt when the winnings were spent) and the new one is posted, tax and bonus with their house entries,
 * the order's history gets a row with before / after, and the statistics move by the difference.
 *
 * Where the lines' results come from:
 *  - the feed (`refreshFromFeed`): each line follows its feed outcome's settlement, or void when the
 *    market's cancel covers the time the order was placed; a rollback clears them again;
 *  - an operator (`changeResults`, `cancelOrder`): the line gets the settlement of the chosen outcome
 *    status and `settled_by = 'operator'`; the feed no longer moves it (an operator's result stands).
 * Cashed-out orders are final: nothing here changes them.
 */
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE, ORDER_STATUS, OUTCOME_STATUS, SELECTION_OUTCOME,
  inviterRewardCents, settleOrder, settlementForStatus, statusForSettlement, type LegSettlement, type OutcomeStatus,
} from '@dau/domain';
import type { Db, Executor } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { bettors } from '../money/schema.js';
import { HOUSE, houseTransfer, newTxnId, post } from '../money/ledger.js';
import { feedMarkets, feedOutcomes } from '../feed/schema.js';
import type { CancelRecord, OutcomeSettlement } from '../feed/engine.js';
import { orderEvents, orderLines, orders } from './schema.js';
import { loadSettings, type BettingSettings } from './settings.js';
import { bumpExposure, bumpHour } from './stats.js';

export type OrderRow = typeof orders.$inferSelect;
type LineRow = typeof orderLines.$inferSelect;

export interface Trigger {
  kind: 'settled' | 'resettled' | 'rolled_back' | 'cancelled' | 'result_changed';
  source: 'feed' | 'operator' | 'system';
  adminId?: number | null;
  reason?: string;
}

/** What an order's money looks like (history before / after, previews). */
export interface OrderMoney {
  status: number;
  payout: number;
  tax: number;
  bonus: number;
  profit: number;
  credited_cash: number;
  credited_credit: number;
  inviter_reward: number;
}

export interface OrderChange {
  order_id: number;
  order_no: string;
  bettor_id: number;
  before: OrderMoney;
  after: OrderMoney;
  /** Movement of the bettor's balances this change causes. */
  balance_delta: { cash: number; credit: number };
}

const FINAL = new Set<number>([ORDER_STATUS.early_settlement, ORDER_STATUS.auto_cash_out]);
export const isFinal = (status: number) => FINAL.has(status);

const moneyOf = (o: OrderRow): OrderMoney => ({
  status: o.status,
  payout: o.payout,
  tax: o.taxAmount,
  bonus: o.bonusAmount,
  profit: o.profit,
  credited_cash: o.creditedCash,
  credited_credit: o.creditedCredit,
  inviter_reward: o.inviterReward,
});

const sameMoney = (a: OrderMoney, b: OrderMoney) => (Object.keys(a) as (keyof OrderMoney)[]).every((k) => a[k] === b[k]);

/** The cash credit splits into the part paid by the book (payouts) and the accumulator bonus (bonuses). */
const split = (cash: number, bonus: number) => {
  const bonusPart = Math.min(bonus, cash);
  return { payoutPart: cash - bonusPart, bonusPart };
};

/**
 * Re-prices one order from its lines and posts the difference (see the file comment). Runs inside the
 * caller's transaction; locks the order row first. Answers the change, or null when nothing changed.
 */
export async function reconcileOrder(tx: Executor, orderId: number, trigger: Trigger, settings?: BettingSettings): Promise<OrderChange | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw new AppError(404, 'NOT_FOUND');
  if (isFinal(order.status)) return null;
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id));
  const s = settings ?? (await loadSettings(tx));
  const res = settleOrder({
    stakeCents: order.stake,
    bonusFundedCents: order.creditStake,
    legs: lines.map((l) => ({ odds: l.odds, settlement: l.settlement ?? null })),
    taxBps: order.taxRate,
    bonus: order.legCount > 1 ? s.bonus : undefined,
  });
  const [bettor] = await tx.select({ inviterId: bettors.inviterId }).from(bettors).where(eq(bettors.id, order.bettorId));
  const inviterId = bettor?.inviterId ?? null;
  const inviter = res.resolved && inviterId ? inviterRewardCents(order.cashStake - res.cashCreditCents, s.inviterShareBps) : 0;
  const before = moneyOf(order);
  const after: OrderMoney = {
    status: res.resolved ? ORDER_STATUS.settled : ORDER_STATUS.pending,
    payout: res.payoutCents,
    tax: res.taxCents,
    bonus: res.bonusCents,
    profit: res.resolved ? res.cashCreditCents + res.creditRefundCents - order.stake : 0,
    credited_cash: res.cashCreditCents,
    credited_credit: res.creditRefundCents,
    inviter_reward: inviter,
  };
  if (sameMoney(before, after)) return null;

  const txnId = newTxnId();
  const cause = { type: 'order' as const, id: order.id };
  const adminId = trigger.adminId ?? null;
  const remark = `order ${order.orderNo}: ${trigger.kind}${trigger.reason ? ` (${trigger.reason})` : ''}`;
  // Cash: reverse what was credited, then credit what is due now.
  if (before.credited_cash !== after.credited_cash || before.tax !== after.tax || before.bonus !== after.bonus) {
    if (before.credited_cash > 0) {
      const old = split(before.credited_cash, before.bonus);
      if (old.payoutPart > 0) {
        await post(tx, { bettorId: order.bettorId, account: ACCOUNT_KIND.cash, amount: -old.payoutPart, type: BILL_TYPE.amount_rolled_back, cause, house: HOUSE.payouts, adminId, remark, txnId, allowNegative: true });
      }
      if (old.bonusPart > 0) {
        await post(tx, { bettorId: order.bettorId, account: ACCOUNT_KIND.cash, amount: -old.bonusPart, type: BILL_TYPE.amount_rolled_back, cause, house: HOUSE.bonuses, adminId, remark: `${remark}, bonus`, txnId, allowNegative: true });
      }
    }
    await houseTransfer(tx, txnId, HOUSE.taxPayable, HOUSE.payouts, before.tax, BILL_TYPE.amount_rolled_back);
    if (after.credited_cash > 0) {
      const now = split(after.credited_cash, after.bonus);
      if (now.payoutPart > 0) {
        await post(tx, { bettorId: order.bettorId, account: ACCOUNT_KIND.cash, amount: now.payoutPart, type: BILL_TYPE.bet_payout, cause, house: HOUSE.payouts, adminId, remark, txnId });
      }
      if (now.bonusPart > 0) {
        await post(tx, { bettorId: order.bettorId, account: ACCOUNT_KIND.cash, amount: now.bonusPart, type: BILL_TYPE.bet_payout, cause, house: HOUSE.bonuses, adminId, remark: `${remark}, accumulator bonus`, txnId });
      }
    }
    await houseTransfer(tx, txnId, HOUSE.payouts, HOUSE.taxPayable, after.tax, BILL_TYPE.bet_payout);
  }
  // Bonus funds given back on a void order (or taken back when it is no longer void).
  const creditDelta = after.credited_credit - before.credited_credit;
  if (creditDelta !== 0) {
    await post(tx, { bettorId: order.bettorId, account: ACCOUNT_KIND.credit, amount: creditDelta, type: CREDIT_BILL_TYPE.credit_refund, cause, house: HOUSE.stakesHeld, adminId, remark, txnId, allowNegative: creditDelta < 0 });
  }
  const inviterDelta = after.inviter_reward - before.inviter_reward;
  if (inviterDelta !== 0 && inviterId) {
    await post(tx, {
      bettorId: inviterId,
      account: ACCOUNT_KIND.cash,
      amount: inviterDelta,
      type: inviterDelta > 0 ? BILL_TYPE.inviter_profit_reward : BILL_TYPE.amount_rolled_back,
      cause,
      house: HOUSE.bonuses,
      adminId,
      remark: `${remark}, inviter reward`,
      txnId,
      allowNegative: inviterDelta < 0,
    });
  }

  const resolvedBefore = before.status === ORDER_STATUS.settled;
  const resolvedAfter = after.status === ORDER_STATUS.settled;
  await tx
    .update(orders)
    .set({
      status: after.status,
      payout: after.payout,
      profit: after.profit,
      taxAmount: after.tax,
      bonusAmount: after.bonus,
      bonusRate: res.bonusCents > 0 && res.payoutCents > order.stake ? Math.round((res.bonusCents * 10_000) / Math.max(1, res.payoutCents - order.stake)) : 0,
      creditedCash: after.credited_cash,
      creditedCredit: after.credited_credit,
      inviterReward: after.inviter_reward,
      settledAt: resolvedAfter ? sql`now()` : null,
      version: sql`${orders.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(orders.id, order.id));
  const kind = trigger.kind !== 'settled' ? trigger.kind : !resolvedAfter ? 'rolled_back' : resolvedBefore ? 'resettled' : 'settled';
  await tx.insert(orderEvents).values({ orderId: order.id, kind, source: trigger.source, adminId, reason: trigger.reason ?? '', before, after });
  await bumpHour(tx, order.agentId, {
    payouts: after.payout - before.payout,
    tax: after.tax - before.tax,
    bonuses: after.bonus - before.bonus,
    settled: Number(resolvedAfter) - Number(resolvedBefore),
  });
  const liability = (resolvedBefore ? order.potentialPayout : 0) - (resolvedAfter ? order.potentialPayout : 0);
  await bumpExposure(
    tx,
    order.agentId,
    lines.map((l) => ({ eventId: l.eventId, marketKey: l.marketKey, outcomeId: l.outcomeId, liability, payouts: after.payout - before.payout })),
  );
  return {
    order_id: order.id,
    order_no: order.orderNo,
    bettor_id: order.bettorId,
    before,
    after,
    balance_delta: { cash: after.credited_cash - before.credited_cash, credit: creditDelta },
  };
}

// ---------------------------------------------------------------------------------------------
// Lines from the feed

const toLeg = (s: OutcomeSettlement | null | undefined): LegSettlement | null =>
  s ? { result: s.result, voidFactor: s.voidFactor, deadHeatFactor: s.deadHeatFactor } : null;

const VOID: LegSettlement = { result: 0, voidFactor: 1, deadHeatFactor: null };

const sameLeg = (a: LegSettlement | null, b: LegSettlement | null) =>
  a === b || (!!a && !!b && a.result === b.result && a.voidFactor === b.voidFactor && (a.deadHeatFactor ?? 1) === (b.deadHeatFactor ?? 1));

function lineStatus(s: LegSettlement | null) {
  if (!s) return { outcomeStatus: OUTCOME_STATUS.pending as number, selectionOutcome: SELECTION_OUTCOME.pending as number };
  return statusForSettlement(s);
}

async function setLine(tx: Executor, line: LineRow, s: LegSettlement | null, by: 'feed' | 'operator' | null, outcomeStatus?: number) {
  const st = lineStatus(s);
  await tx
    .update(orderLines)
    .set({
      settlement: s,
      settledBy: by,
      outcomeStatus: outcomeStatus ?? st.outcomeStatus,
      selectionOutcome: st.selectionOutcome,
      settledAt: s ? sql`now()` : null,
      minutesAtSettlement: s ? sql`greatest(0, floor(extract(epoch from now() - ${orderLines.fixtureDate}) / 60))::int` : null,
    })
    .where(eq(orderLines.id, line.id));
}

/** Brings the feed-settled lines of one order in line with the feed (inside its transaction). True when a line moved. */
async function refreshOrderLines(tx: Executor, order: { id: number; createdAt: Date }): Promise<boolean> {
  const lines = await tx
    .select({
      line: orderLines,
      feedSettlement: feedOutcomes.settlement,
      cancel: feedMarkets.cancel,
    })
    .from(orderLines)
    .leftJoin(feedMarkets, and(eq(feedMarkets.eventId, orderLines.eventId), eq(feedMarkets.marketKey, orderLines.marketKey)))
    .leftJoin(
      feedOutcomes,
      and(eq(feedOutcomes.eventId, orderLines.eventId), eq(feedOutcomes.marketKey, orderLines.marketKey), eq(feedOutcomes.outcomeId, orderLines.outcomeId)),
    )
    .where(and(eq(orderLines.orderId, order.id), or(isNull(orderLines.settledBy), eq(orderLines.settledBy, 'feed'))));
  let moved = false;
  for (const r of lines) {
    const wanted = cancelCovers(r.cancel, order.createdAt.getTime()) ? VOID : toLeg(r.feedSettlement);
    const cancelled = wanted === VOID;
    if (sameLeg(r.line.settlement ?? null, wanted)) continue;
    await setLine(tx, r.line, wanted, wanted ? 'feed' : null, cancelled ? OUTCOME_STATUS.cancelled : undefined);
    moved = true;
  }
  return moved;
}

function cancelCovers(c: CancelRecord | null | undefined, placedAt: number): boolean {
  if (!c) return false;
  return (c.startTime === null || placedAt >= c.startTime) && (c.endTime === null || placedAt < c.endTime);
}

/** Orders holding a selection of the event that are not final: what a feed message on it may move. */
async function ordersOnEvent(db: Executor, eventId: string): Promise<{ id: number; createdAt: Date }[]> {
  const rows = await db
    .selectDistinct({ id: orders.id, createdAt: orders.createdAt })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(eq(orderLines.eventId, eventId), inArray(orders.status, [ORDER_STATUS.pending, ORDER_STATUS.settled])));
  return rows;
}

export interface SettleRun {
  orders: number;
  changed: number;
  failed: number;
}

/**
 * After a settlement, cancel or rollback message of the event: every order on it follows the feed, one
 * transaction per order (`concurrency` of them at a time on PostgreSQL). An order that fails (e.g. a
 * deadlock) is retried once, then counted in `failed`; the next message or the sweeper takes it again.
 */
export async function refreshFromFeed(db: Db, eventId: string, opts: { concurrency?: number } = {}): Promise<SettleRun> {
  const list = await ordersOnEvent(db, eventId);
  const settings = await loadSettings(db);
  let changed = 0;
  let failed = 0;
  let next = 0;
  const one = async (o: { id: number; createdAt: Date }) =>
    db.transaction(async (tx) => {
      // Lock the order before touching its lines: a concurrent settlement waits here and then sees ours.
      await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, o.id)).for('update');
      await refreshOrderLines(tx, o);
      // Reconciled even when no line moved: it is a no-op when the order already matches its lines.
      return reconcileOrder(tx, o.id, { kind: 'settled', source: 'feed' }, settings);
    });
  const worker = async () => {
    while (next < list.length) {
      const o = list[next++];
      try {
        if (await one(o).catch(() => one(o))) changed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, list.length)) }, worker));
  return { orders: list.length, changed, failed };
}

// ---------------------------------------------------------------------------------------------
// Operator corrections

/** Thrown to roll a preview's transaction back after collecting what it would change. */
class PreviewRollback extends Error {
  constructor(readonly changes: OrderChange[]) {
    super('preview');
  }
}

/** Runs `fn` in a transaction; in preview mode rolls it back and answers the changes it would make. */
export async function withPreview(db: Db, preview: boolean, fn: (tx: Executor) => Promise<OrderChange[]>): Promise<OrderChange[]> {
  try {
    return await db.transaction(async (tx) => {
      const changes = await fn(tx);
      if (preview) throw new PreviewRollback(changes);
      return changes;
    });
  } catch (e) {
    if (e instanceof PreviewRollback) return e.changes;
    throw e;
  }
}

/** Outcome statuses an operator may set as a result (pending ones are not results). */
export const RESULT_STATUSES: OutcomeStatus[] = [
  OUTCOME_STATUS.won, OUTCOME_STATUS.lost, OUTCOME_STATUS.half_won, OUTCOME_STATUS.half_lost, OUTCOME_STATUS.void, OUTCOME_STATUS.cancelled,
];

/**
 * Sets the result of lines (one line of an order, or one selection across every order holding it) and
 * re-prices their orders. Cashed-out orders are skipped (final).
 */
export async function changeResults(
  tx: Executor,
  target: { lineId: number } | { eventId: string; marketKey: string; outcomeId: string },
  status: OutcomeStatus,
  trigger: Trigger,
): Promise<OrderChange[]> {
  const s = settlementForStatus(status);
  if (!s) throw new AppError(400, 'RESULT_REQUIRED');
  const where =
    'lineId' in target
      ? eq(orderLines.id, target.lineId)
      : and(eq(orderLines.eventId, target.eventId), eq(orderLines.marketKey, target.marketKey), eq(orderLines.outcomeId, target.outcomeId));
  const lines = await tx
    .select({ line: orderLines, status: orders.status })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(where)
    .orderBy(asc(orderLines.orderId));
  if ('lineId' in target && !lines.length) throw new AppError(404, 'NOT_FOUND');
  if ('lineId' in target && isFinal(lines[0].status)) throw new AppError(409, 'CASHOUT_FINAL');
  const settings = await loadSettings(tx);
  const changes: OrderChange[] = [];
  for (const { line, status: orderStatus } of lines) {
    if (isFinal(orderStatus)) continue;
    // Lock the order first (same order as settlements), then move its line.
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, line.orderId)).for('update');
    await setLine(tx, line, s, 'operator', status);
    const c = await reconcileOrder(tx, line.orderId, trigger, settings);
    if (c) changes.push(c);
    else
      await tx.insert(orderEvents).values({
        orderId: line.orderId, kind: trigger.kind, source: trigger.source, adminId: trigger.adminId ?? null, reason: trigger.reason ?? '',
        before: { line_id: line.id, outcome_status: line.outcomeStatus }, after: { line_id: line.id, outcome_status: status },
      });
  }
  return changes;
}

/** An operator cancels an order: every line admin-cancelled (void), the stake refunded. */
export async function cancelOrder(tx: Executor, orderId: number, trigger: Trigger): Promise<OrderChange | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw new AppError(404, 'NOT_FOUND');
  if (isFinal(order.status)) throw new AppError(409, 'CASHOUT_FINAL');
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId));
  if (lines.every((l) => l.outcomeStatus === OUTCOME_STATUS.admin_cancelled)) throw new AppError(409, 'ORDER_NOT_OPEN');
  for (const l of lines) await setLine(tx, l, VOID, 'operator', OUTCOME_STATUS.admin_cancelled);
  return reconcileOrder(tx, orderId, trigger);
}
