/**
 * Placing a bet (issue 5): one service for the bettor-facing path (the simulator), admin bets and random
 * bets. Everything is checked in the transaction that debits the stake, with the bettor's row locked:
 * the bettor may bet (bet status, risk level, not disabled), every match is visible, not suspended, not
 * in maintenance, not cancelled, not over; every selection is bettable now (offer status 1 or 2, market
 * open, outcome active, not suspended by an operator, a price); the bet_config limits and the price
 * change policy (domain `checkSlip`); the bonus-funds share; balance and credit enough.
 *
 * Live matches with a live delay: the slip waits the longest delay of its live matches before the
 * transaction, and is then checked against the prices of that moment (a price that moved in between
 * follows the price change policy). That is what a live delay is for: a bettor who saw a goal first
 * cannot beat the odds feed.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  ACCOUNT_KIND, BET_STATUS, BILL_TYPE, CREDIT_BILL_TYPE, EVENT_STATUS, MATCH_STATUS, ORDER_STATUS, ORDER_TYPE, RISK_LEVEL, USER_DISABLED,
  bpsOfCents, checkSlip, combinedOdds, potentialPayoutCents, type MessageCode, type OrderType,
} from '@dau/domain';
import type { Bus, Db, Executor } from '../../platform/db.js';
import { PUSH, PUSH_TO_ADMINS } from '../../platform/socket.js';
import { AppError } from '../../platform/errors.js';
import { bettors, countBet, HOUSE, newSerial, newTxnId, post } from '../money/index.js';
import { bettingTypes } from '../sports/index.js';
import { feedEvents, feedMarkets, feedOutcomes } from '../feed/index.js';
import { marketName, selectionName } from '../feed/index.js';
import { orderEvents, orderLines, orders } from './schema.js';
import { promotionEvent } from '../promotions/index.js';
import { OPEN_MARKET } from './selections.js';
import { loadSettings } from './settings.js';
import { bumpExposure, bumpHour, markBettorDay } from './stats.js';

export interface SlipSelection {
  eventId: string;
  marketKey: string;
  outcomeId: string;
  /** The price the bettor saw (decimal string). */
  odds: string;
}

export interface PlaceInput {
  bettorId: number;
  type: OrderType;
  /** Whole stake in cents. */
  stakeCents: number;
  /** Part of the stake paid from bonus funds (credit account); 0 by default. */
  creditStakeCents?: number;
  legs: SlipSelection[];
  /** Who placed an admin or random bet. */
  adminId?: number | null;
  note?: string;
  /** Skip the live delay wait (tests and the random-bet tool, which places on pre-match or already-delayed prices). */
  skipLiveDelay?: boolean;
}

export type PlacedOrder = typeof orders.$inferSelect;

const refuse = (code: MessageCode, params?: Record<string, string | number>) => new AppError(422, code, params);


/** The feed's state of each selection of the slip: event, market, outcome, current bettable price or null. */
async function readSelections(ex: Executor, legs: SlipSelection[]) {
  const eventIds = [...new Set(legs.map((l) => l.eventId))];
  const events = new Map((await ex.select().from(feedEvents).where(inArray(feedEvents.eventId, eventIds))).map((e) => [e.eventId, e]));
  const rows = await ex
    .select({
      eventId: feedOutcomes.eventId,
      marketKey: feedOutcomes.marketKey,
      outcomeId: feedOutcomes.outcomeId,
      price: feedOutcomes.price,
      active: feedOutcomes.active,
      outcomeSuspended: feedOutcomes.suspendedByOperator,
      typeId: feedMarkets.typeId,
      specifiers: feedMarkets.specifiers,
      lastOddsTs: feedMarkets.lastOddsTs,
      open: sql<boolean>`(${OPEN_MARKET})`,
    })
    .from(feedOutcomes)
    .innerJoin(feedMarkets, and(eq(feedMarkets.eventId, feedOutcomes.eventId), eq(feedMarkets.marketKey, feedOutcomes.marketKey)))
    .where(inArray(feedOutcomes.eventId, eventIds));
  const byKey = new Map(rows.map((r) => [`${r.eventId}\u0000${r.marketKey}\u0000${r.outcomeId}`, r]));
  return legs.map((l) => ({ leg: l, event: events.get(l.eventId), sel: byKey.get(`${l.eventId}\u0000${l.marketKey}\u0000${l.outcomeId}`) }));
}

type Read = Awaited<ReturnType<typeof readSelections>>[number];

/** Why the match of a leg takes no bets now, or null. */
function matchClosed(r: Read): MessageCode | null {
  const e = r.event;
  if (!e) return 'BET_MATCH_CLOSED';
  if (!e.isVisible || e.isSuspended || e.isMaintain || e.cancelReason !== '') return 'BET_MATCH_CLOSED';
  if (e.eventStatus !== EVENT_STATUS.not_started && e.eventStatus !== EVENT_STATUS.in_progress) return 'BET_MATCH_CLOSED';
  if (e.matchStatus !== MATCH_STATUS.not_started && e.matchStatus !== MATCH_STATUS.in_progress) return 'BET_MATCH_CLOSED';
  return null;
}

const currentPrice = (r: Read): string | null =>
  r.sel && r.sel.open && r.sel.active && !r.sel.outcomeSuspended && r.sel.price !== null ? r.sel.price : null;

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

/** The longest live delay (seconds) among the slip's matches that are in play. */
async function liveDelaySeconds(db: Executor, legs: SlipSelection[]): Promise<number> {
  const ids = [...new Set(legs.map((l) => l.eventId))];
  const rows = await db
    .select({ delay: feedEvents.liveDelaySeconds, status: feedEvents.eventStatus })
    .from(feedEvents)
    .where(inArray(feedEvents.eventId, ids));
  return Math.max(0, ...rows.filter((r) => r.status === EVENT_STATUS.in_progress).map((r) => r.delay));
}

/** The socket nudge that new orders arrived (the bet ticker refetches its own branch's). */
export const ORDERS_PUSH = { status: true, type: PUSH.orders, content: { kind: 'orders' } };

/** Places one order; throws AppError 422 with the refusal's message code. */
export async function placeOrder(db: Db, input: PlaceInput, opts: { bus?: Bus } = {}): Promise<PlacedOrder> {
  if (!input.legs.length) throw refuse('BET_SLIP_EMPTY');
  if (!input.skipLiveDelay) {
    const delay = await liveDelaySeconds(db, input.legs);
    if (delay > 0) await sleep(delay * 1000);
  }
  const order = await db.transaction((tx) => placeIn(tx, input));
  // The live bet ticker: a nudge to every console; each asks for the orders of its own branch.
  void opts.bus?.publish(PUSH_TO_ADMINS, { adminIds: 'all', message: ORDERS_PUSH }).catch(() => {});
  return order;
}


/** The placement inside the caller's transaction (random bets place many in one). */
export async function placeIn(tx: Executor, input: PlaceInput): Promise<PlacedOrder> {
  const stake = input.stakeCents;
  const creditStake = input.creditStakeCents ?? 0;
  if (!Number.isSafeInteger(stake) || stake <= 0 || !Number.isSafeInteger(creditStake) || creditStake < 0 || creditStake > stake) {
    throw new AppError(400, 'PARAM_INVALID');
  }
  const [bettor] = await tx.select().from(bettors).where(eq(bettors.id, input.bettorId)).for('update');
  if (!bettor) throw new AppError(404, 'NOT_FOUND');
  if (bettor.disabled === USER_DISABLED.disabled || bettor.betStatus !== BET_STATUS.allowed) throw refuse('BET_USER_BLOCKED');
  if (bettor.riskLevel === RISK_LEVEL.no_betting) throw refuse('BET_RISK_BLOCKED');

  const settings = await loadSettings(tx);
  const reads = await readSelections(tx, input.legs);
  for (const r of reads) {
    const closed = matchClosed(r);
    if (closed) throw refuse(closed, { eventId: r.leg.eventId });
  }
  const typeIds = [...new Set(reads.map((r) => r.sel?.typeId).filter((x): x is number => x !== undefined))];
  const types = new Map(
    (typeIds.length ? await tx.select({ id: bettingTypes.providerId, name: bettingTypes.name }).from(bettingTypes).where(inArray(bettingTypes.providerId, typeIds)) : []).map(
      (t) => [t.id as number, t.name],
    ),
  );

  // Stake already on each match by this bettor (open orders), for the per-match limit.
  let already: Record<string, number> = {};
  if (settings.limits.maxStakePerMatchCents > 0) {
    const rows = (await tx.execute(sql`
      SELECT l.event_id, sum(o.stake)::bigint AS stake FROM orders o JOIN order_lines l ON l.order_id = o.id
      WHERE o.bettor_id = ${bettor.id} AND o.status = ${ORDER_STATUS.pending} AND l.event_id IN (${sql.join(
        [...new Set(input.legs.map((l) => l.eventId))].map((e) => sql`${e}`),
        sql`, `,
      )})
      GROUP BY l.event_id`)) as unknown as { rows: { event_id: string; stake: string }[] };
    already = Object.fromEntries(rows.rows.map((r) => [r.event_id, Number(r.stake)]));
  }
  const check = checkSlip({
    stakeCents: stake,
    legs: reads.map((r) => ({ ...r.leg, currentOdds: currentPrice(r), allowSameMatch: settings.allowSameMatch })),
    limits: settings.limits,
    priceChange: settings.priceChange,
    stakeAlreadyOnMatchCents: already,
  });
  if (!check.ok) throw refuse(check.code, check.params);
  if (creditStake > bpsOfCents(stake, settings.bonusFundsShareBps)) throw refuse('BET_BONUS_FUNDS_LIMIT');

  const cashStake = stake - creditStake;
  if (bettor.cashBalance < cashStake || bettor.creditBalance < creditStake) throw refuse('BET_BALANCE_LOW');

  const total = combinedOdds(check.odds);
  const potential = potentialPayoutCents(stake, check.odds);
  const lastMatchAt = new Date(Math.max(...reads.map((r) => r.event!.startTime.getTime())));
  const [order] = await tx
    .insert(orders)
    .values({
      orderNo: newSerial('O'),
      serialNumber: newSerial('S'),
      bettorId: bettor.id,
      agentId: bettor.agentId,
      type: input.type,
      status: ORDER_STATUS.pending,
      stake,
      cashStake,
      creditStake,
      totalOdds: total,
      potentialPayout: potential,
      legCount: input.legs.length,
      taxRate: settings.taxBps,
      adminId: input.adminId ?? null,
      note: input.note ?? '',
      lastMatchAt,
    })
    .returning();
  await tx.insert(orderLines).values(
    reads.map((r, i) => {
      const e = r.event!;
      const s = r.sel!;
      return {
        orderId: order.id,
        eventId: r.leg.eventId,
        marketKey: r.leg.marketKey,
        outcomeId: r.leg.outcomeId,
        marketTypeId: s.typeId,
        specifiers: s.specifiers,
        marketName: marketName(s.typeId, types.get(s.typeId)),
        selectionName: selectionName(r.leg.outcomeId, { home: e.homeTeam, away: e.awayTeam, specifiers: s.specifiers, typeId: s.typeId }),
        odds: check.odds[i],
        sportId: e.sportId,
        competitionName: e.leagueName,
        homeTeam: e.homeTeam,
        awayTeam: e.awayTeam,
        fixtureDate: e.startTime,
        eventStatusAtBet: e.eventStatus,
        objectVersion: s.lastOddsTs,
      };
    }),
  );

  const txnId = newTxnId();
  const cause = { type: 'order' as const, id: order.id };
  const remark = { kind: 'order_stake', params: { order_no: order.orderNo } } as const;
  if (cashStake > 0) {
    await post(tx, { bettorId: bettor.id, account: ACCOUNT_KIND.cash, amount: -cashStake, type: BILL_TYPE.bet, cause, house: HOUSE.stakesHeld, adminId: input.adminId, remark, txnId });
  }
  if (creditStake > 0) {
    await post(tx, { bettorId: bettor.id, account: ACCOUNT_KIND.credit, amount: -creditStake, type: CREDIT_BILL_TYPE.credit_bet, cause, house: HOUSE.stakesHeld, adminId: input.adminId, remark, txnId });
    await promotionEvent(tx, { kind: 'credit_bet', bettorId: bettor.id, stake, creditStake, orderId: order.id });
  }
  await countBet(tx, bettor.id, stake);
  await tx.insert(orderEvents).values({
    orderId: order.id,
    kind: 'placed',
    source: input.type === ORDER_TYPE.user_bet ? 'bettor' : 'operator',
    adminId: input.adminId ?? null,
    after: { status: order.status, stake, cash_stake: cashStake, credit_stake: creditStake, total_odds: total, odds: check.odds },
  });
  await bumpHour(tx, bettor.agentId, { turnover: stake, orders: 1 });
  await markBettorDay(tx, bettor.agentId, bettor.id);
  await bumpExposure(
    tx,
    bettor.agentId,
    input.legs.map((l) => ({ eventId: l.eventId, marketKey: l.marketKey, outcomeId: l.outcomeId, orders: 1, stake, liability: potential })),
  );
  return order;
}
