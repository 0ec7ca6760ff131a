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
 *
 * The money rule exists once: `planOrder` (pure) computes what an order needs posted; `applyPlans` writes
 * any number of plans with one set-based statement per table. `reconcileOrder` (operator actions) plans
 * and applies one order; `refreshFromFeed` settles an event's orders in chunks (500 per transaction by
 * default): orders locked in id order, lines and feed outcomes read in one query, lines moved with one
 * UPDATE, every order planned in memory, then `applyPlans` (bettors locked in id order and updated once
 * with their summed delta; each bill's before / after computed in posting order so the chain holds).
 */
import { and, asc, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import {
  ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE, ORDER_STATUS, OUTCOME_STATUS, SELECTION_OUTCOME,
  inviterRewardCents, settleOrder, settlementForStatus, statusForSettlement, type AccountKind, type LegSettlement, type OutcomeStatus,
} from '@dau/domain';
import type { Db, Executor } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { bettors, HOUSE, insertHouseEntries, newTxnId, postBatch, type Remark } from '../money/index.js';
import { settledOrders } from '../../platform/metrics.js';
import { feedMarkets, feedOutcomes } from '../feed/index.js';
import { archivedSelections, type CancelRecord, type OutcomeSettlement } from '../feed/index.js';
import { orderEvents, orderLines, orders } from './schema.js';
import { promotionEvent } from '../promotions/index.js';
import { loadSettings, type BettingSettings } from './settings.js';
import type { HourDelta } from './stats.js';

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

/** Orders that still wait on their matches' results: every status but settled and cashed out (a new one waits too). */
const WAITING = Object.values(ORDER_STATUS).filter((s) => s !== ORDER_STATUS.settled && !FINAL.has(s));

/**
 * The feed's archive keeps a match live while an order on it waits (feed/archive.ts `ArchiveHold`). A
 * settled order may still be resettled after its match is archived: settlement then reads the archive.
 */
export const ordersWaitingOn = (eventId: SQLWrapper) =>
  sql`exists (select 1 from ${orderLines} join ${orders} on ${orders.id} = ${orderLines.orderId}
    where ${orderLines.eventId} = ${eventId} and ${inArray(orders.status, WAITING)})`;

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
 * Money rule and executor. `planOrder` (pure) prices one order from its lines and says what must be
 * posted for it: the bills (with their house account), the house-only transfers (tax), the order's new
 * amounts, its history row and the statistics deltas, or null when nothing changes. `applyPlans` writes
 * any number of plans with set-based statements (one per table); the per-order path (`reconcileOrder`,
 * operator actions) and the feed's chunked path (`refreshFromFeed`) both go through it, so the money
 * logic exists once.
 */
interface PlannedBill {
  bettorId: number;
  account: AccountKind;
  /** Cents; positive credits the bettor. */
  amount: number;
  type: number;
  /** The house account taking the other side. */
  house: string;
  remark: Remark;
  /** Corrections only (see ledger `Posting.allowNegative`). */
  allowNegative: boolean;
}

interface Plan {
  order: OrderRow;
  lines: { eventId: string; marketKey: string; outcomeId: string }[];
  txnId: string;
  adminId: number | null;
  /** In posting order: reversals first, then the new credits (the bills chain in this order). */
  bills: PlannedBill[];
  /** House-only movements (withholding tax), as ledger `houseTransfer`. */
  transfers: { from: string; to: string; amount: number; billType: number }[];
  after: OrderMoney;
  bonusRate: number;
  event: { kind: string; source: string; reason: string; before: OrderMoney; after: OrderMoney };
  hour: Required<Pick<HourDelta, 'payouts' | 'tax' | 'bonuses' | 'settled' | 'settled_stake'>>;
  liability: number;
  change: OrderChange;
}

/** What must change for one order (see above); null when its money already matches its lines. */
function planOrder(
  order: OrderRow,
  lines: Pick<LineRow, 'odds' | 'settlement' | 'eventId' | 'marketKey' | 'outcomeId'>[],
  inviterId: number | null,
  trigger: Trigger,
  s: BettingSettings,
): Plan | null {
  if (isFinal(order.status)) return null;
  const res = settleOrder({
    stakeCents: order.stake,
    bonusFundedCents: order.creditStake,
    legs: lines.map((l) => ({ odds: l.odds, settlement: l.settlement ?? null })),
    taxBps: order.taxRate,
    bonus: order.legCount > 1 ? s.bonus : undefined,
  });
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

  const adminId = trigger.adminId ?? null;
  const resolvedBefore = before.status === ORDER_STATUS.settled;
  const resolvedAfter = after.status === ORDER_STATUS.settled;
  const kind = trigger.kind !== 'settled' ? trigger.kind : !resolvedAfter ? 'rolled_back' : resolvedBefore ? 'resettled' : 'settled';
  // What the bills say, in the reader's language (domain remarks.ts); the operator's reason is free text.
  const text = trigger.reason || undefined;
  const remark: Remark = { kind: 'order_change', params: { order_no: order.orderNo, change: kind }, text };
  const partRemark = (part: 'accumulator_bonus' | 'inviter_reward'): Remark => ({ kind: 'order_change_part', params: { order_no: order.orderNo, change: kind, part }, text });
  // Every line void (a cancelled match, an operator's cancel, a market the feed voids): the money back is a
  // refund, bill 8 "amount rolled back", not a payout (issue 23).
  const creditType = res.outcome === 'void' ? BILL_TYPE.amount_rolled_back : BILL_TYPE.bet_payout;
  const bills: PlannedBill[] = [];
  const transfers: Plan['transfers'] = [];
  const bill = (b: Omit<PlannedBill, 'bettorId' | 'account' | 'allowNegative'> & Partial<PlannedBill>) =>
    bills.push({ bettorId: order.bettorId, account: ACCOUNT_KIND.cash, allowNegative: false, ...b });
  // Cash: reverse what was credited, then credit what is due now.
  if (before.credited_cash !== after.credited_cash || before.tax !== after.tax || before.bonus !== after.bonus) {
    if (before.credited_cash > 0) {
      const old = split(before.credited_cash, before.bonus);
      if (old.payoutPart > 0) bill({ amount: -old.payoutPart, type: BILL_TYPE.amount_rolled_back, house: HOUSE.payouts, remark, allowNegative: true });
      if (old.bonusPart > 0) bill({ amount: -old.bonusPart, type: BILL_TYPE.amount_rolled_back, house: HOUSE.bonuses, remark: partRemark('accumulator_bonus'), allowNegative: true });
    }
    if (before.tax !== 0) transfers.push({ from: HOUSE.taxPayable, to: HOUSE.payouts, amount: before.tax, billType: BILL_TYPE.amount_rolled_back });
    if (after.credited_cash > 0) {
      const now = split(after.credited_cash, after.bonus);
      if (now.payoutPart > 0) bill({ amount: now.payoutPart, type: creditType, house: HOUSE.payouts, remark });
      if (now.bonusPart > 0) bill({ amount: now.bonusPart, type: BILL_TYPE.bet_payout, house: HOUSE.bonuses, remark: partRemark('accumulator_bonus') });
    }
    if (after.tax !== 0) transfers.push({ from: HOUSE.payouts, to: HOUSE.taxPayable, amount: after.tax, billType: BILL_TYPE.bet_payout });
  }
  // Bonus funds given back on a void order (or taken back when it is no longer void).
  const creditDelta = after.credited_credit - before.credited_credit;
  if (creditDelta !== 0) {
    bill({ account: ACCOUNT_KIND.credit, amount: creditDelta, type: CREDIT_BILL_TYPE.credit_refund, house: HOUSE.stakesHeld, remark, allowNegative: creditDelta < 0 });
  }
  const inviterDelta = after.inviter_reward - before.inviter_reward;
  if (inviterDelta !== 0 && inviterId) {
    bill({
      bettorId: inviterId,
      amount: inviterDelta,
      type: inviterDelta > 0 ? BILL_TYPE.inviter_profit_reward : BILL_TYPE.amount_rolled_back,
      house: HOUSE.bonuses,
      remark: partRemark('inviter_reward'),
      allowNegative: inviterDelta < 0,
    });
  }

  return {
    order,
    lines: lines.map((l) => ({ eventId: l.eventId, marketKey: l.marketKey, outcomeId: l.outcomeId })),
    txnId: newTxnId(),
    adminId,
    bills,
    transfers,
    after,
    bonusRate: res.bonusCents > 0 && res.payoutCents > order.stake ? Math.round((res.bonusCents * 10_000) / Math.max(1, res.payoutCents - order.stake)) : 0,
    event: { kind, source: trigger.source, reason: trigger.reason ?? '', before, after },
    hour: {
      payouts: after.payout - before.payout,
      tax: after.tax - before.tax,
      bonuses: after.bonus - before.bonus,
      settled: Number(resolvedAfter) - Number(resolvedBefore),
      settled_stake: (Number(resolvedAfter) - Number(resolvedBefore)) * order.stake,
    },
    liability: (resolvedBefore ? order.potentialPayout : 0) - (resolvedAfter ? order.potentialPayout : 0),
    change: {
      order_id: order.id,
      order_no: order.orderNo,
      bettor_id: order.bettorId,
      before,
      after,
      balance_delta: { cash: after.credited_cash - before.credited_cash, credit: creditDelta },
    },
  };
}

/** A set of rows as one parameter (works the same on node-postgres and PGlite). */
const recordset = (rows: unknown[]) => sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`;

/**
 * Writes plans inside the caller's transaction (their orders locked by it), one statement per table:
 * orders, history, bettors (locked in id order, one UPDATE with each bettor's summed delta; each bill's
 * before / after computed here in posting order so a bettor's bills chain), bills, house entries,
 * stats_hourly and selection_exposure (aggregated, upserted once). The hot shared rows come last so
 * they are held for the shortest time. Same checks as ledger `post`: amounts are non-zero safe integers,
 * allowNegative only on the correction types, no other debit below zero (422 INSUFFICIENT_BALANCE).
 */
async function applyPlans(tx: Executor, plans: Plan[]): Promise<void> {
  if (!plans.length) return;
  await tx.execute(sql`
    UPDATE orders o SET status = v.status, payout = v.payout, profit = v.profit, tax_amount = v.tax, bonus_amount = v.bonus,
      bonus_rate = v.bonus_rate, credited_cash = v.credited_cash, credited_credit = v.credited_credit, inviter_reward = v.inviter_reward,
      settled_at = CASE WHEN v.status = ${ORDER_STATUS.settled} THEN now() ELSE NULL END, version = o.version + 1, updated_at = now()
    FROM ${recordset(plans.map((p) => ({ id: p.order.id, ...p.after, bonus_rate: p.bonusRate })))} AS v(id bigint, status smallint, payout bigint,
      profit bigint, tax bigint, bonus bigint, bonus_rate integer, credited_cash bigint, credited_credit bigint, inviter_reward bigint)
    WHERE o.id = v.id`);
  // Promotions: bet-to-get recounts the settled bettors; bonus wagering reads every order that moved (a void or a rollback takes its stake back).
  await promotionEvent(tx, { kind: 'settled', bettorIds: plans.filter((p) => p.after.status === ORDER_STATUS.settled).map((p) => p.order.bettorId), orderIds: plans.map((p) => p.order.id) });
  await tx.execute(sql`
    INSERT INTO order_events (order_id, kind, source, admin_id, reason, before, after)
    SELECT v.order_id, v.kind, v.source, v.admin_id, v.reason, v.before, v.after
    FROM ${recordset(plans.map((p) => ({ order_id: p.order.id, admin_id: p.adminId, ...p.event })))} AS v(order_id bigint, kind text, source text,
      admin_id integer, reason text, before jsonb, after jsonb)`);

  // Bills through the ledger's set-based poster; a correction (allowNegative) may leave a debt, with its own type.
  const house = await postBatch(
    tx,
    plans.flatMap((p) =>
      p.bills.map((b) => {
        if (b.allowNegative && !(b.account === ACCOUNT_KIND.cash ? b.type === BILL_TYPE.amount_rolled_back : b.type === CREDIT_BILL_TYPE.credit_refund)) {
          throw new AppError(400, 'AMOUNT_INVALID');
        }
        return {
          bettorId: b.bettorId, account: b.account, amount: b.amount, type: b.type, house: b.house, causeId: String(p.order.id),
          adminId: p.adminId, remark: b.remark, txnId: p.txnId, debtType: b.allowNegative ? b.type : undefined,
        };
      }),
    ),
    'order',
  );
  for (const p of plans) {
    for (const t of p.transfers) {
      house.push({ txn_id: p.txnId, account: t.from, amount: -t.amount, bill_type: t.billType }, { txn_id: p.txnId, account: t.to, amount: t.amount, bill_type: t.billType });
    }
  }
  await insertHouseEntries(tx, house);

  // Statistics: the sum of what one upsert per order would have added, in key order.
  const hours = new Map<number, Plan['hour']>();
  for (const p of plans) {
    // An order that moves nothing is skipped (as bumpHour does), before summing.
    if (Object.values(p.hour).every((x) => x === 0)) continue;
    const h = hours.get(p.order.agentId) ?? { payouts: 0, tax: 0, bonuses: 0, settled: 0, settled_stake: 0 };
    for (const k of Object.keys(h) as (keyof Plan['hour'])[]) h[k] += p.hour[k];
    hours.set(p.order.agentId, h);
  }
  const hourRows = [...hours].sort(([a], [b]) => a - b).map(([agent_id, h]) => ({ agent_id, ...h }));
  if (hourRows.length) {
    await tx.execute(sql`
      INSERT INTO stats_hourly (hour, agent_id, payouts, tax, bonuses, settled, settled_stake)
      SELECT date_trunc('hour', now()), v.agent_id, v.payouts, v.tax, v.bonuses, v.settled, v.settled_stake
      FROM ${recordset(hourRows)} AS v(agent_id integer, payouts bigint, tax bigint, bonuses bigint, settled integer, settled_stake bigint)
      ON CONFLICT (hour, agent_id) DO UPDATE SET
        payouts = stats_hourly.payouts + excluded.payouts, tax = stats_hourly.tax + excluded.tax,
        bonuses = stats_hourly.bonuses + excluded.bonuses, settled = stats_hourly.settled + excluded.settled,
        settled_stake = stats_hourly.settled_stake + excluded.settled_stake`);
  }
  type ExposureRow = { event_id: string; market_key: string; outcome_id: string; agent_id: number; liability: number; payouts: number; settled_stake: number };
  const exposure = new Map<string, ExposureRow>();
  for (const p of plans) {
    const { payouts, settled_stake } = p.hour;
    // Rows that move nothing are skipped (as bumpExposure does), before summing.
    if (!p.liability && !payouts && !settled_stake) continue;
    for (const l of p.lines) {
      const key = JSON.stringify([l.eventId, l.marketKey, l.outcomeId, p.order.agentId]);
      const e = exposure.get(key) ?? { event_id: l.eventId, market_key: l.marketKey, outcome_id: l.outcomeId, agent_id: p.order.agentId, liability: 0, payouts: 0, settled_stake: 0 };
      e.liability += p.liability;
      e.payouts += payouts;
      e.settled_stake += settled_stake;
      exposure.set(key, e);
    }
  }
  const exposureRows = [...exposure].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
  if (exposureRows.length) {
    await tx.execute(sql`
      INSERT INTO selection_exposure (event_id, market_key, outcome_id, agent_id, liability, payouts, settled_stake)
      SELECT v.event_id, v.market_key, v.outcome_id, v.agent_id, v.liability, v.payouts, v.settled_stake
      FROM ${recordset(exposureRows)} AS v(event_id text, market_key text, outcome_id text, agent_id integer, liability bigint, payouts bigint, settled_stake bigint)
      ON CONFLICT (event_id, market_key, outcome_id, agent_id) DO UPDATE SET
        liability = selection_exposure.liability + excluded.liability, payouts = selection_exposure.payouts + excluded.payouts,
        settled_stake = selection_exposure.settled_stake + excluded.settled_stake`);
  }
}

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
  const [bettor] = await tx.select({ inviterId: bettors.inviterId }).from(bettors).where(eq(bettors.id, order.bettorId));
  const plan = planOrder(order, lines, bettor?.inviterId ?? null, trigger, s);
  if (!plan) return null;
  await applyPlans(tx, [plan]);
  return plan.change;
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

/** A line's new result, as `writeLines` takes it. */
interface MovedLine {
  id: number;
  settlement: LegSettlement | null;
  settled_by: 'feed' | 'operator' | null;
  os: number;
  so: number;
}

/** The moved lines written with one UPDATE (settlement time and the match minute with them). */
async function writeLines(tx: Executor, moved: MovedLine[]): Promise<void> {
  if (!moved.length) return;
  await tx.execute(sql`
    UPDATE order_lines l SET settlement = v.settlement, settled_by = v.settled_by, outcome_status = v.os, selection_outcome = v.so,
      settled_at = CASE WHEN v.settlement IS NULL THEN NULL ELSE now() END,
      minutes_at_settlement = CASE WHEN v.settlement IS NULL THEN NULL ELSE greatest(0, floor(extract(epoch from now() - l.fixture_date) / 60))::int END
    FROM ${recordset(moved)} AS v(id bigint, settlement jsonb, settled_by text, os smallint, so smallint)
    WHERE l.id = v.id`);
}

/** An operator's result on a line: the settlement of the chosen status, kept against the feed. */
const operatorLine = (id: number, s: LegSettlement, status: number): MovedLine => ({
  id, settlement: s, settled_by: 'operator', os: status, so: lineStatus(s).selectionOutcome,
});

/**
 * Re-prices locked orders from their lines (the bettors' inviters read at once) and posts every plan
 * with one `applyPlans`. Answers the plans (orders whose money changed).
 */
async function settleLocked(tx: Executor, locked: OrderRow[], byOrder: Map<number, LineRow[]>, trigger: Trigger, settings: BettingSettings): Promise<Plan[]> {
  if (!locked.length) return [];
  const bettorIds = [...new Set(locked.map((o) => o.bettorId))];
  const inviters = new Map(
    (await tx.select({ id: bettors.id, inviterId: bettors.inviterId }).from(bettors).where(inArray(bettors.id, bettorIds))).map((b) => [b.id, b.inviterId]),
  );
  const plans: Plan[] = [];
  for (const o of locked) {
    const p = planOrder(o, byOrder.get(o.id) ?? [], inviters.get(o.bettorId) ?? null, trigger, settings);
    if (p) plans.push(p);
  }
  await applyPlans(tx, plans);
  settledOrders.inc(plans.length);
  return plans;
}

function cancelCovers(c: CancelRecord | null | undefined, placedAt: number): boolean {
  if (!c) return false;
  return (c.startTime === null || placedAt >= c.startTime) && (c.endTime === null || placedAt < c.endTime);
}

/** Orders holding a selection of the event that are not final: what a feed message on it may move. By bettor, then id. */
async function ordersOnEvent(db: Executor, eventId: string): Promise<{ id: number; bettorId: number }[]> {
  const rows = await db
    .selectDistinct({ id: orders.id, bettorId: orders.bettorId })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(eq(orderLines.eventId, eventId), inArray(orders.status, [ORDER_STATUS.pending, ORDER_STATUS.settled])));
  return rows.sort((a, b) => a.bettorId - b.bettorId || a.id - b.id);
}

/**
 * One chunk of orders following the feed, inside one transaction: the orders locked (id order), all
 * their lines with their feed outcome and market cancel read at once, the feed-settled lines that moved
 * written with one UPDATE, every order re-priced in memory (`planOrder`) and the postings written by
 * `applyPlans`. Answers how many orders changed.
 */
async function settleChunk(tx: Executor, ids: number[], settings: BettingSettings): Promise<number> {
  const locked = await tx.select().from(orders).where(inArray(orders.id, ids)).orderBy(asc(orders.id)).for('update');
  if (!locked.length) return 0;
  const rows = await tx
    .select({ line: orderLines, feedSettlement: feedOutcomes.settlement, cancel: feedMarkets.cancel, liveMarket: feedMarkets.eventId })
    .from(orderLines)
    .leftJoin(feedMarkets, and(eq(feedMarkets.eventId, orderLines.eventId), eq(feedMarkets.marketKey, orderLines.marketKey)))
    .leftJoin(
      feedOutcomes,
      and(eq(feedOutcomes.eventId, orderLines.eventId), eq(feedOutcomes.marketKey, orderLines.marketKey), eq(feedOutcomes.outcomeId, orderLines.outcomeId)),
    )
    .where(inArray(orderLines.orderId, locked.map((o) => o.id)))
    .orderBy(asc(orderLines.orderId), asc(orderLines.id));
  // A line whose market is no longer live follows the archive (feed/archive.ts): an order with a line on a
  // match archived since is resettled from the feed's results all the same, never taken back to pending.
  const gone = rows.filter((r) => r.liveMarket === null).map((r) => r.line);
  const archived = gone.length ? await archivedSelections(tx, gone) : undefined;
  const byOrder = new Map<number, LineRow[]>();
  const placedAt = new Map(locked.map((o) => [o.id, o.createdAt.getTime()]));
  const moved: MovedLine[] = [];
  for (const r of rows) {
    const line = r.line;
    (byOrder.get(line.orderId) ?? byOrder.set(line.orderId, []).get(line.orderId)!).push(line);
    // Lines an operator settled keep the operator's result.
    if (line.settledBy !== null && line.settledBy !== 'feed') continue;
    const feed = (r.liveMarket === null ? archived?.(line) : undefined) ?? r;
    const wanted = cancelCovers(feed.cancel, placedAt.get(line.orderId)!) ? VOID : toLeg(feed.feedSettlement);
    if (sameLeg(line.settlement ?? null, wanted)) continue;
    const st = lineStatus(wanted);
    const outcomeStatus = wanted === VOID ? OUTCOME_STATUS.cancelled : st.outcomeStatus;
    moved.push({ id: line.id, settlement: wanted, settled_by: wanted ? 'feed' : null, os: outcomeStatus, so: st.selectionOutcome });
    Object.assign(line, { settlement: wanted, settledBy: wanted ? 'feed' : null, outcomeStatus, selectionOutcome: st.selectionOutcome });
  }
  await writeLines(tx, moved);
  return (await settleLocked(tx, locked, byOrder, { kind: 'settled', source: 'feed' }, settings)).length;
}

export interface SettleRun {
  orders: number;
  changed: number;
  failed: number;
}

/**
 * Orders per transaction of the feed's settlement. bench:settle on 2 cores: 500 gave 6,025 orders/s at
 * concurrency 4, 2,000 gave 8,432 (5,000 no more: the machine is CPU-bound by then), while the order
 * list stayed under 200 ms p95.
 */
export const SETTLE_CHUNK = 2_000;

/**
 * After a settlement, cancel or rollback message of the event: every order on it follows the feed, in
 * chunks of `chunkSize` orders (grouped by bettor, so a bettor's orders mostly share a chunk), one
 * transaction per chunk, `concurrency` chunks at a time on PostgreSQL. A chunk that fails (e.g. a
 * deadlock) is retried once, then its orders are taken one per transaction (each retried once) so one
 * bad order does not hold the others back; those that still fail are counted in `failed` and the next
 * message or the sweeper takes them again. Running it twice changes nothing the second time.
 */
/** Where a bounded run stopped: the last order it took, in the run's order (bettor, then order id). */
export interface OrderCursor {
  bettorId: number;
  id: number;
}

export async function refreshFromFeed(
  db: Db,
  eventId: string,
  opts: { concurrency?: number; chunkSize?: number; after?: OrderCursor; limit?: number } = {},
): Promise<SettleRun & { next?: OrderCursor }> {
  let list = await ordersOnEvent(db, eventId);
  // A bounded run (one durable job) takes the orders after `after`, at most `limit`; `next` says where to go on.
  const after = opts.after;
  if (after) list = list.filter((o) => o.bettorId > after.bettorId || (o.bettorId === after.bettorId && o.id > after.id));
  let rest: OrderCursor | undefined;
  if (opts.limit && list.length > opts.limit) {
    list = list.slice(0, opts.limit);
    const last = list[list.length - 1]!;
    rest = { bettorId: last.bettorId, id: last.id };
  }
  const settings = await loadSettings(db);
  const size = Math.max(1, opts.chunkSize ?? SETTLE_CHUNK);
  const chunks: number[][] = [];
  for (let i = 0; i < list.length; i += size) chunks.push(list.slice(i, i + size).map((o) => o.id));
  let changed = 0;
  let failed = 0;
  let next = 0;
  const run = (ids: number[]) => db.transaction((tx) => settleChunk(tx, ids, settings));
  const worker = async () => {
    while (next < chunks.length) {
      const ids = chunks[next++];
      try {
        const n = await run(ids).catch(() => run(ids));
        changed += n; // after the await: workers add concurrently
      } catch {
        if (ids.length === 1) {
          failed++;
          continue;
        }
        for (const id of ids) {
          try {
            const n = await run([id]).catch(() => run([id]));
            changed += n;
          } catch {
            failed++;
          }
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, chunks.length)) }, worker));
  return { orders: list.length, changed, failed, ...(rest ? { next: rest } : {}) };
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

/** Outcome statuses an operator may set as a result (pending ones are not results); 10 is the operator's own cancellation. */
export const RESULT_STATUSES: OutcomeStatus[] = [
  OUTCOME_STATUS.won, OUTCOME_STATUS.lost, OUTCOME_STATUS.half_won, OUTCOME_STATUS.half_lost, OUTCOME_STATUS.void, OUTCOME_STATUS.cancelled,
  OUTCOME_STATUS.admin_cancelled,
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
  // Lock every order concerned in id order (as settlements do), then move their lines at once.
  const ids = [...new Set(lines.filter((l) => !isFinal(l.status)).map((l) => l.line.orderId))];
  if (!ids.length) return [];
  const locked = (await tx.select().from(orders).where(inArray(orders.id, ids)).orderBy(asc(orders.id)).for('update')).filter((o) => !isFinal(o.status));
  const open = new Set(locked.map((o) => o.id));
  const targets = lines.filter((l) => open.has(l.line.orderId)).map((l) => l.line);
  await writeLines(tx, targets.map((l) => operatorLine(l.id, s, status)));
  const byOrder = new Map<number, LineRow[]>();
  for (const line of await tx.select().from(orderLines).where(inArray(orderLines.orderId, [...open])).orderBy(asc(orderLines.orderId), asc(orderLines.id))) {
    (byOrder.get(line.orderId) ?? byOrder.set(line.orderId, []).get(line.orderId)!).push(line);
  }
  const plans = await settleLocked(tx, locked, byOrder, trigger, await loadSettings(tx));
  // A result that moves no money (e.g. lost on an order already lost) still goes into the order's history.
  const priced = new Set(plans.map((p) => p.order.id));
  const quiet = targets.filter((l) => !priced.has(l.orderId));
  if (quiet.length) {
    await tx.insert(orderEvents).values(
      quiet.map((l) => ({
        orderId: l.orderId, kind: trigger.kind, source: trigger.source, adminId: trigger.adminId ?? null, reason: trigger.reason ?? '',
        before: { line_id: l.id, outcome_status: l.outcomeStatus }, after: { line_id: l.id, outcome_status: status },
      })),
    );
  }
  return plans.map((p) => p.change);
}

/** An operator cancels an order: every line admin-cancelled (void), the stake refunded. */
export async function cancelOrder(tx: Executor, orderId: number, trigger: Trigger): Promise<OrderChange | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw new AppError(404, 'NOT_FOUND');
  if (isFinal(order.status)) throw new AppError(409, 'CASHOUT_FINAL');
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId));
  if (lines.every((l) => l.outcomeStatus === OUTCOME_STATUS.admin_cancelled)) throw new AppError(409, 'ORDER_NOT_OPEN');
  await writeLines(tx, lines.map((l) => operatorLine(l.id, VOID, OUTCOME_STATUS.admin_cancelled)));
  return reconcileOrder(tx, orderId, trigger);
}

/**
 * An operator cancelled the match: every selection of the event still open on an order gets the
 * operator's result 10 (admin-cancelled, void), and the orders are re-priced (a single's stake comes back;
 * an accumulator goes on with that leg at 1.00). The operator's result stands against the feed, so a
 * settlement the feed sends later does not undo it. Cashed-out orders are final and skipped.
 */
export async function voidEventOrders(tx: Executor, eventId: string, trigger: Trigger): Promise<OrderChange[]> {
  const open = await tx
    .selectDistinct({ marketKey: orderLines.marketKey, outcomeId: orderLines.outcomeId })
    .from(orderLines)
    .where(and(eq(orderLines.eventId, eventId), eq(orderLines.outcomeStatus, OUTCOME_STATUS.pending)))
    .orderBy(orderLines.marketKey, orderLines.outcomeId);
  const changes: OrderChange[] = [];
  for (const sel of open) changes.push(...(await changeResults(tx, { eventId, marketKey: sel.marketKey, outcomeId: sel.outcomeId }, OUTCOME_STATUS.admin_cancelled, trigger)));
  return changes;
}

/** The money a set of order changes moves, as previews and answers state it. */
export const changeTotals = (changes: OrderChange[]) => ({
  orders: new Set(changes.map((c) => c.order_id)).size,
  cash: changes.reduce((a, c) => a + c.balance_delta.cash, 0),
  credit: changes.reduce((a, c) => a + c.balance_delta.credit, 0),
});
