/**
 * The betting rules (issue 5, spec §4 outcome status / selection outcome / cashout, §9 tax): leg
 * factors, order settlement (payout, withholding tax, accumulator bonus, bonus-funded stakes),
 * cashout offers, inviter rewards and the bet-slip checks of the placement service.
 *
 * Pure: no I/O, no clock, no randomness; the same input always gives the same output.
 *
 * Arithmetic:
 *  - Odds and factors are decimal strings ('1.80') computed with decimal.js at 1,000 significant
 *    digits, so a product of any realistic number of legs is exact (2-decimal odds add 2 digits per
 *    leg); nothing is rounded until the final amount in cents.
 *  - Money is integer cents (`Cents`). Every amount derived from a factor or a rate is rounded DOWN
 *    to the cent (floor; amounts are never negative here, so floor = truncate). Basis-point shares of
 *    cents are computed with BigInt, exact for every safe integer.
 *  - Stored inputs that cannot be right throw a RangeError (odds below 1 or not a number, a void
 *    factor outside [0, 1], a dead-heat factor outside [0, 1], a stake that is not a non-negative
 *    safe integer, a bonus-funded part above the stake, rates outside [0, 10000] bps): settling on
 *    bad data must fail loudly, never pay a wrong amount.
 */
import { Decimal } from 'decimal.js';
import { OUTCOME_STATUS, SELECTION_OUTCOME, type OutcomeStatus, type SelectionOutcome } from './enums';
import type { MessageCode } from './messages';
import { assertCents, formatAmount, type Cents } from './money';

/** A private decimal.js constructor: enough precision to keep every product exact, never exponent notation. */
const D = Decimal.clone({ precision: 1000, rounding: Decimal.ROUND_DOWN, toExpNeg: -9e15, toExpPos: 9e15 });
type Dec = InstanceType<typeof D>;

const BPS = 10_000;
const BPS_N = 10_000n;

// ---------------------------------------------------------------------------------------------
// Helpers

function parseDecimal(value: string, what: string): Dec {
  if (typeof value !== 'string' || !/^\s*\d+(\.\d+)?\s*$/.test(value)) {
    throw new RangeError(`${what} must be a non-negative decimal string, got ${String(value)}`);
  }
  return new D(value.trim());
}

/** Decimal odds: a decimal string >= 1 ('1.80', '2', '1.005'). */
function parseOdds(odds: string, what = 'odds'): Dec {
  const d = parseDecimal(odds, what);
  if (d.lt(1)) throw new RangeError(`${what} must be at least 1, got ${odds}`);
  return d;
}

/** Full-precision plain string (no exponent, no trailing zeros): '1.305', '0', '2'. */
function str(d: Dec): string {
  return d.toFixed();
}

/** floor(amount x factor) to the cent, for a non-negative amount and factor. */
function floorTimes(cents: Cents, factor: Dec): Cents {
  const out = new D(cents).times(factor).floor().toNumber();
  assertCents(out, 'computed amount');
  return out;
}

function assertBps(bps: number, what: string): void {
  if (!Number.isInteger(bps) || bps < 0 || bps > BPS) throw new RangeError(`${what} must be an integer in [0, 10000], got ${bps}`);
}

function assertNonNegativeCents(value: number, what: string): void {
  assertCents(value, what);
  if (value < 0) throw new RangeError(`${what} must not be negative, got ${value}`);
}

/** floor(cents x bps / 10000), exact (BigInt), for non-negative cents. */
export function bpsOfCents(cents: Cents, bps: number): Cents {
  assertNonNegativeCents(cents, 'amount');
  if (!Number.isInteger(bps) || bps < 0) throw new RangeError(`rate must be a non-negative integer of basis points, got ${bps}`);
  return Number((BigInt(cents) * BigInt(bps)) / BPS_N);
}

// ---------------------------------------------------------------------------------------------
// Leg factor

/** The feed's per-outcome settlement (same shape the feed engine stores). */
export interface LegSettlement {
  /** 1 = the outcome happened, 0 = it did not. */
  result: 0 | 1;
  /** Share of the stake returned as void: 0, 0.5 (half won / half lost) or 1 (void). Any value in [0, 1] is accepted. */
  voidFactor: number;
  /** Dead-heat factor in [0, 1]; null means 1 (no dead heat). */
  deadHeatFactor: number | null;
}

function validateSettlement(s: LegSettlement): { vf: Dec; dhf: Dec } {
  if (s.result !== 0 && s.result !== 1) throw new RangeError(`result must be 0 or 1, got ${String(s.result)}`);
  if (typeof s.voidFactor !== 'number' || !(s.voidFactor >= 0 && s.voidFactor <= 1)) {
    throw new RangeError(`voidFactor must be in [0, 1], got ${String(s.voidFactor)}`);
  }
  const dh = s.deadHeatFactor;
  if (dh !== null && (typeof dh !== 'number' || !(dh >= 0 && dh <= 1))) {
    throw new RangeError(`deadHeatFactor must be null or in [0, 1], got ${String(dh)}`);
  }
  return { vf: new D(s.voidFactor), dhf: dh === null ? new D(1) : new D(dh) };
}

function legFactorDec(odds: Dec, s: LegSettlement): Dec {
  const { vf, dhf } = validateSettlement(s);
  return vf.plus(new D(1).minus(vf).times(s.result).times(dhf).times(odds));
}

/** True when the leg is fully void (void factor 1): its factor is 1 whatever the odds. */
export function isVoidLeg(s: LegSettlement): boolean {
  return s.voidFactor === 1;
}

/**
 * F = vf + (1 - vf) x result x dhf x odds, as a Decimal-safe string with full precision.
 * Won = odds; lost = 0; void = 1; half won = (odds + 1) / 2; half lost = 0.5; dead heat = odds x dhf.
 * Throws a RangeError on odds below 1 or a settlement outside its ranges.
 */
export function legFactor(odds: string, s: LegSettlement): string {
  return str(legFactorDec(parseOdds(odds), s));
}

/**
 * The settlement an operator's chosen outcome status means: won (1,0,1), lost (0,0,1), half won
 * (1,0.5,1), half lost (0,0.5,1), void / cancelled / admin-cancelled (0,1,1); dead-heat factor null
 * (= 1) in every case. Pending statuses (1 pending, 4 unknown-but-resolved, 5 unknown) -> null: the
 * leg stays unresolved. Throws a RangeError on an id that is not an outcome status.
 */
export function settlementForStatus(status: OutcomeStatus): LegSettlement | null {
  switch (status) {
    case OUTCOME_STATUS.won:
      return { result: 1, voidFactor: 0, deadHeatFactor: null };
    case OUTCOME_STATUS.lost:
      return { result: 0, voidFactor: 0, deadHeatFactor: null };
    case OUTCOME_STATUS.half_won:
      return { result: 1, voidFactor: 0.5, deadHeatFactor: null };
    case OUTCOME_STATUS.half_lost:
      return { result: 0, voidFactor: 0.5, deadHeatFactor: null };
    case OUTCOME_STATUS.void:
    case OUTCOME_STATUS.cancelled:
    case OUTCOME_STATUS.admin_cancelled:
      return { result: 0, voidFactor: 1, deadHeatFactor: null };
    case OUTCOME_STATUS.pending:
    case OUTCOME_STATUS.unknown_resolved:
    case OUTCOME_STATUS.unknown:
      return null;
    default:
      throw new RangeError(`not an outcome status: ${String(status)}`);
  }
}

/**
 * The reverse, for display: OUTCOME_STATUS and SELECTION_OUTCOME of a settlement (same mapping as the
 * feed engine). vf = 1 -> void (8) / refunded (2); 0 < vf < 1 -> half won (6/5) or half lost (7/6) by
 * result; vf = 0 -> won (2/4) or lost (3/3) by result. A dead heat with result 1 counts as won (its
 * reduced price is in the factor, not in the status). A void is shown as 8 void, never as 9/10: the
 * settlement does not carry who cancelled.
 */
export function statusForSettlement(s: LegSettlement): { outcomeStatus: OutcomeStatus; selectionOutcome: SelectionOutcome } {
  validateSettlement(s);
  if (s.voidFactor === 1) return { outcomeStatus: OUTCOME_STATUS.void, selectionOutcome: SELECTION_OUTCOME.refunded };
  if (s.voidFactor > 0) {
    return s.result === 1
      ? { outcomeStatus: OUTCOME_STATUS.half_won, selectionOutcome: SELECTION_OUTCOME.half_won }
      : { outcomeStatus: OUTCOME_STATUS.half_lost, selectionOutcome: SELECTION_OUTCOME.half_lost };
  }
  return s.result === 1
    ? { outcomeStatus: OUTCOME_STATUS.won, selectionOutcome: SELECTION_OUTCOME.won }
    : { outcomeStatus: OUTCOME_STATUS.lost, selectionOutcome: SELECTION_OUTCOME.lost };
}

// ---------------------------------------------------------------------------------------------
// Odds helpers

/** Product of the odds, full precision ('1.8' x '2.10' -> '3.78'). The empty product is '1'. */
export function combinedOdds(odds: string[]): string {
  return str(odds.reduce<Dec>((acc, o) => acc.times(parseOdds(o)), new D(1)));
}

/** Combined odds for display: 2 decimals, rounded DOWN so the shown price is never above the real one ('3.7825' -> '3.78'). */
export function combinedOddsDisplay(odds: string[]): string {
  return new D(combinedOdds(odds)).toFixed(2, Decimal.ROUND_DOWN);
}

/**
 * floor(stake x product of odds) in cents: what the order pays if every leg wins (no bonus, before
 * tax). Throws a RangeError when that is beyond a safe integer (checkSlip compares without converting,
 * so such a slip is refused with BET_PAYOUT_TOO_HIGH or BET_PAYOUT_OUT_OF_RANGE instead).
 */
export function potentialPayoutCents(stakeCents: number, odds: string[]): number {
  assertNonNegativeCents(stakeCents, 'stakeCents');
  return floorTimes(stakeCents, new D(combinedOdds(odds)));
}

/** True when `a` and `b` are the same price ('1.8' = '1.80'). */
export function sameOdds(a: string, b: string): boolean {
  return parseOdds(a).eq(parseOdds(b));
}

// ---------------------------------------------------------------------------------------------
// Accumulator bonus

export interface AccumulatorBonusConfig {
  enabled: boolean;
  /** Bonus rate (basis points) by number of qualifying legs, e.g. [{legs:3, rateBps:300},{legs:5,rateBps:1000}]; the highest tier whose legs <= count applies. Order does not matter. */
  tiers: { legs: number; rateBps: number }[];
  /** A leg qualifies when its odds >= minOdds and it is not void (vf = 1). '0' or '1' = any odds. */
  minOdds: string;
  /** Largest bonus of one order in cents; 0 = no cap. */
  capCents: number;
  /** Rate applied to net winnings (payout - stake) or to the payout. */
  base: 'net' | 'payout';
  /** Grant the bonus on an early cashout (see accumulatorBonusCents `cashout`). */
  allowOnCashout: boolean;
  /** Grant the bonus on an order paid partly or wholly with bonus funds (bonusFundedCents > 0). */
  allowOnBonusFunds: boolean;
}

/**
 * The accumulator bonus (`string_rewards`) of one order, in cents.
 *
 * Decisions:
 *  - Granted only on a winning order: payoutCents > stakeCents (net winnings > 0). A "partial" order
 *    (some money back but no more than the stake) and a lost or void order get no bonus, even with
 *    base 'payout' (a bonus on the payout of an order that lost money would reward losing).
 *  - A winning order with half-won / half-lost / dead-heat legs still gets the bonus; those legs count
 *    as qualifying (they are not void). Only void legs (vf = 1) drop out of the count.
 *  - Qualifying legs: settlement null (an open leg, only meaningful for a cashout) or not void, and
 *    odds >= minOdds. The rate is the one of the tier with the most legs <= that count; none -> 0.
 *  - Amount: floor(base x rateBps / 10000), base = payout - stake ('net') or payout ('payout'), then
 *    capped at capCents when capCents > 0.
 *  - Not granted when `cashout` is true unless allowOnCashout (then payoutCents is the cashout amount),
 *    nor when bonusFundedCents > 0 unless allowOnBonusFunds.
 *  - The bonus is not taxed: withholding tax is on payout - stake only; the bonus is paid on top.
 */
export function accumulatorBonusCents(input: {
  config: AccumulatorBonusConfig | undefined;
  legs: { odds: string; settlement: LegSettlement | null }[];
  stakeCents: number;
  payoutCents: number;
  bonusFundedCents: number;
  cashout?: boolean;
}): number {
  const c = input.config;
  if (!c || !c.enabled) return 0;
  assertNonNegativeCents(input.stakeCents, 'stakeCents');
  assertNonNegativeCents(input.payoutCents, 'payoutCents');
  assertNonNegativeCents(c.capCents, 'capCents');
  if (input.payoutCents <= input.stakeCents) return 0;
  if (input.cashout && !c.allowOnCashout) return 0;
  if (input.bonusFundedCents > 0 && !c.allowOnBonusFunds) return 0;
  const min = parseDecimal(c.minOdds, 'minOdds');
  const count = input.legs.filter((l) => (l.settlement === null || !isVoidLeg(l.settlement)) && parseOdds(l.odds).gte(min)).length;
  let rateBps = 0;
  let best = -1;
  for (const t of c.tiers) {
    assertBps(t.rateBps, 'tier rateBps');
    if (t.legs <= count && t.legs > best) {
      best = t.legs;
      rateBps = t.rateBps;
    }
  }
  if (rateBps === 0) return 0;
  const base = c.base === 'net' ? input.payoutCents - input.stakeCents : input.payoutCents;
  const bonus = bpsOfCents(base, rateBps);
  return c.capCents > 0 ? Math.min(bonus, c.capCents) : bonus;
}

// ---------------------------------------------------------------------------------------------
// Settlement

export interface OrderToSettle {
  /** Whole stake in cents = cash part + bonus-funded part. */
  stakeCents: number;
  /** virtual_pay_amount: the part of the stake paid from the credit account (0..stake). */
  bonusFundedCents: number;
  /** One entry per leg (a single has one); settlement null = unresolved. */
  legs: { odds: string; settlement: LegSettlement | null }[];
  /** Withholding tax in basis points, 1000 = 10 % (spec §9). */
  taxBps: number;
  bonus?: AccumulatorBonusConfig;
}

export type OrderOutcome = 'pending' | 'won' | 'lost' | 'void' | 'partial';

export interface OrderSettlement {
  /** False while any leg is unresolved: then outcome is 'pending' and every amount below is 0. */
  resolved: boolean;
  /**
   * Product of the leg factors (full-precision Decimal string). While unresolved: the product over the
   * legs resolved so far ('0' = already lost, whatever the open legs do; '1' when none is resolved).
   */
  factor: string;
  /** floor(stake x factor) to the cent. */
  payoutCents: number;
  /** max(0, payout - stake). */
  netWinningsCents: number;
  /** floor(net x taxBps / 10000): never of the stake, never negative. */
  taxCents: number;
  /** Accumulator bonus (0 when not granted), capped; not taxed. See accumulatorBonusCents. */
  bonusCents: number;
  /**
   * What goes to the cash wallet: max(0, payout - tax + bonus - bonusFunded). The bonus-funded part of
   * the stake is never paid out as cash ("stake not returned", like a free bet): on a win the bettor
   * gets the winnings of the whole stake but not the bonus-funded stake back; on a partial return the
   * money back first covers the bonus-funded part. On a fully void order this is the cash part of the
   * stake.
   */
  cashCreditCents: number;
  /** Bonus funds given back to the credit account: bonusFunded when the order is void (every leg void), else 0. */
  creditRefundCents: number;
  /**
   * - 'pending': some leg unresolved.
   * - 'lost': factor 0 (some leg lost); payout 0.
   * - 'void': every leg void (factor exactly 1); the stake comes back, cash part as cash, bonus part as credit.
   * - 'won': factor > 1 (the order pays more than the stake; after flooring net may be 0 on tiny stakes).
   * - 'partial': 0 < factor <= 1 with some leg not void: part (or, at exactly 1, all) of the stake
   *   comes back and nothing more, e.g. a half lost single or a half lost leg times a won 2.00.
   */
  outcome: OrderOutcome;
  /** Number of void legs (vf = 1). */
  voidLegs: number;
}

/**
 * Settles one order (single or accumulator): payout = floor(stake x product of leg factors); any lost
 * leg loses the order; all legs void return the stake; tax = floor((payout - stake) x taxBps / 10000)
 * when positive; accumulator bonus on top, untaxed. Deterministic; throws a RangeError on bad input.
 *
 * Worked case: stake 100000 with 1.80 won, 2.10 void, 1.90 half won, 2.00 half lost: factor 1.305,
 * payout 130500, net 30500, tax 3050, cash credit 127450.
 */
export function settleOrder(o: OrderToSettle): OrderSettlement {
  assertNonNegativeCents(o.stakeCents, 'stakeCents');
  assertNonNegativeCents(o.bonusFundedCents, 'bonusFundedCents');
  if (o.bonusFundedCents > o.stakeCents) throw new RangeError('bonusFundedCents must not exceed stakeCents');
  assertBps(o.taxBps, 'taxBps');
  if (o.legs.length === 0) throw new RangeError('an order has at least one leg');

  let factor = new D(1);
  let resolved = true;
  let voidLegs = 0;
  for (const leg of o.legs) {
    const odds = parseOdds(leg.odds);
    if (leg.settlement === null) {
      resolved = false;
      continue;
    }
    if (isVoidLeg(leg.settlement)) voidLegs++;
    factor = factor.times(legFactorDec(odds, leg.settlement));
  }
  const zero = { payoutCents: 0, netWinningsCents: 0, taxCents: 0, bonusCents: 0, cashCreditCents: 0, creditRefundCents: 0 };
  if (!resolved) return { resolved, factor: str(factor), ...zero, outcome: 'pending', voidLegs };

  const allVoid = voidLegs === o.legs.length;
  const outcome: OrderOutcome = factor.isZero() ? 'lost' : allVoid ? 'void' : factor.gt(1) ? 'won' : 'partial';
  const payoutCents = floorTimes(o.stakeCents, factor);
  const netWinningsCents = Math.max(0, payoutCents - o.stakeCents);
  const taxCents = withholdingTaxCents(payoutCents, o.stakeCents, o.taxBps);
  const bonusCents = accumulatorBonusCents({
    config: o.bonus,
    legs: o.legs,
    stakeCents: o.stakeCents,
    payoutCents,
    bonusFundedCents: o.bonusFundedCents,
  });
  const cashCreditCents = Math.max(0, payoutCents - taxCents + bonusCents - o.bonusFundedCents);
  const creditRefundCents = outcome === 'void' ? o.bonusFundedCents : 0;
  return {
    resolved,
    factor: str(factor),
    payoutCents,
    netWinningsCents,
    taxCents,
    bonusCents,
    cashCreditCents,
    creditRefundCents,
    outcome,
    voidLegs,
  };
}

/**
 * Withholding tax on a payout (settlement or cashout): floor((payout - stake) x taxBps / 10000) on the net
 * winnings when positive; never of the stake, never negative. A cashout is taxed as a settlement is: its
 * amount stands for the payout.
 */
export function withholdingTaxCents(payoutCents: number, stakeCents: number, taxBps: number): number {
  assertNonNegativeCents(payoutCents, 'payoutCents');
  assertNonNegativeCents(stakeCents, 'stakeCents');
  assertBps(taxBps, 'taxBps');
  return bpsOfCents(Math.max(0, payoutCents - stakeCents), taxBps);
}

// ---------------------------------------------------------------------------------------------
// Cashout

export type CashoutOfferResult = { state: 'locked' } | { state: 'offer'; amountCents: number };

/**
 * Cashout offer: floor(stake x product over resolved legs of F x product over open legs of
 * (placed odds / current odds) x (1 - marginBps/10000)), never above the potential payout (stake x
 * placed combined odds), nor above what the order can still pay (stake x resolved F x open placed odds).
 *
 * - Any resolved leg lost (F = 0) -> { offer, 0 } (checked first: a lost order is decided even while another leg is suspended).
 * - Locked when any open leg is suspended, has no current price (null), or a current price that is not
 *   a price (unparsable or below 1).
 * - Locked when no leg is open: the order is due for settlement, not for a cashout.
 * - The accumulator bonus is not part of the offer (see accumulatorBonusCents `cashout`).
 * Throws a RangeError on a bad stake, placed odds or margin.
 */
export function cashoutOffer(input: {
  stakeCents: number;
  legs: { placedOdds: string; currentOdds: string | null; suspended: boolean; settlement: LegSettlement | null }[];
  marginBps: number;
}): CashoutOfferResult {
  assertNonNegativeCents(input.stakeCents, 'stakeCents');
  assertBps(input.marginBps, 'marginBps');
  if (input.legs.length === 0) throw new RangeError('an order has at least one leg');
  const placed = input.legs.map((l) => parseOdds(l.placedOdds, 'placedOdds'));

  let resolvedFactor = new D(1);
  input.legs.forEach((l, i) => {
    if (l.settlement !== null) resolvedFactor = resolvedFactor.times(legFactorDec(placed[i]!, l.settlement));
  });
  if (resolvedFactor.isZero()) return { state: 'offer', amountCents: 0 };

  let ratio = new D(1);
  let remaining = resolvedFactor;
  let open = 0;
  for (let i = 0; i < input.legs.length; i++) {
    const l = input.legs[i]!;
    if (l.settlement !== null) continue;
    open++;
    if (l.suspended || l.currentOdds === null) return { state: 'locked' };
    let current: Dec;
    try {
      current = parseOdds(l.currentOdds, 'currentOdds');
    } catch {
      return { state: 'locked' };
    }
    ratio = ratio.times(placed[i]!).div(current);
    remaining = remaining.times(placed[i]!);
  }
  if (open === 0) return { state: 'locked' };

  const margin = new D(BPS - input.marginBps).div(BPS);
  const potential = placed.reduce<Dec>((a, p) => a.times(p), new D(1));
  const factor = D.min(resolvedFactor.times(ratio).times(margin), potential, remaining);
  return { state: 'offer', amountCents: floorTimes(input.stakeCents, factor) };
}

// ---------------------------------------------------------------------------------------------
// Inviter reward

/**
 * Inviter reward: floor(houseWin x shareBps / 10000) when the house's result on the order (cash stake
 * - cash credited) is positive; 0 otherwise (the inviter never shares a loss). shareBps in [0, 10000].
 */
export function inviterRewardCents(houseWinCents: number, shareBps: number): number {
  assertCents(houseWinCents, 'houseWinCents');
  assertBps(shareBps, 'shareBps');
  return houseWinCents > 0 ? bpsOfCents(houseWinCents, shareBps) : 0;
}

// ---------------------------------------------------------------------------------------------
// Bet slip

/**
 * `bet_config` limits. 0 means "no limit" for maxStakeCents, maxPayoutCents, maxLegs and
 * maxStakePerMatchCents, and '0' for maxOdds (a limit of 0 would forbid every bet, so it can only
 * mean unset). minStakeCents 0 = no minimum beyond a positive stake.
 */
export interface BetLimits {
  minStakeCents: number;
  maxStakeCents: number;
  maxPayoutCents: number;
  maxLegs: number;
  /** Combined odds (at the placement prices); '0' = none. */
  maxOdds: string;
  /** Stake of one bettor on one match over all their orders, this one included; 0 = none. */
  maxStakePerMatchCents: number;
}

export interface SlipLeg {
  eventId: string;
  marketKey: string;
  outcomeId: string;
  /** The price the bettor saw. */
  odds: string;
  /** The price now; null = the selection is not bettable now (closed, suspended, removed). */
  currentOdds: string | null;
  /** The market may be combined with other markets of the same match. */
  allowSameMatch: boolean;
}

export type PriceChangePolicy = 'refuse' | 'accept_any' | 'accept_higher';

export type SlipCheck =
  | { ok: true; odds: string[] }
  | { ok: false; code: MessageCode; params?: Record<string, string | number> };

/**
 * The slip checks of the placement service that need no database, in this order (the first failure
 * is returned):
 *  1. BET_SLIP_EMPTY: no legs. PARAM_INVALID: a stake that is not a positive safe integer of cents.
 *  2. BET_TOO_MANY_LEGS {max}: more legs than maxLegs (when maxLegs > 0).
 *  3. BET_SAME_MATCH {eventId}: two legs of one match, unless both legs' markets allow it; the same
 *     outcome twice, or two outcomes of the same market of one match, are refused always.
 *  4. BET_SELECTION_CLOSED {outcomeId}: a leg without a current price.
 *  5. BET_PRICE_CHANGED {outcomeId, odds (seen), currentOdds}: a price differs from the one seen and
 *     the policy refuses it ('refuse': any change; 'accept_higher': a lower price; 'accept_any': never).
 *     An accepted change is placed at the current price; unchanged legs at the seen (= current) price.
 *  6. BET_STAKE_TOO_LOW {min} / BET_STAKE_TOO_HIGH {max}: amounts as formatAmount ('1,000.00').
 *  7. BET_ODDS_TOO_HIGH {max}: combined placement odds above maxOdds (2-decimal display of the limit).
 *  8. BET_PAYOUT_TOO_HIGH {max}: floor(stake x combined placement odds) above maxPayoutCents;
 *     BET_PAYOUT_OUT_OF_RANGE: that payout beyond a safe integer of cents (maxPayoutCents 0, no limit).
 *  9. BET_MATCH_LIMIT {max, remaining}: for any match of the slip, stakeAlreadyOnMatchCents[eventId] +
 *     stake above maxStakePerMatchCents (the whole stake of an accumulator counts against each match).
 * On success `odds` are the prices to place at, one per leg in slip order.
 */
export function checkSlip(input: {
  stakeCents: number;
  legs: SlipLeg[];
  limits: BetLimits;
  priceChange: PriceChangePolicy;
  stakeAlreadyOnMatchCents?: Record<string, number>;
}): SlipCheck {
  const { stakeCents, legs, limits } = input;
  if (legs.length === 0) return { ok: false, code: 'BET_SLIP_EMPTY' };
  if (!Number.isSafeInteger(stakeCents) || stakeCents <= 0) return { ok: false, code: 'PARAM_INVALID' };

  if (limits.maxLegs > 0 && legs.length > limits.maxLegs) return { ok: false, code: 'BET_TOO_MANY_LEGS', params: { max: limits.maxLegs } };

  const byEvent = new Map<string, SlipLeg[]>();
  for (const leg of legs) {
    const same = byEvent.get(leg.eventId) ?? [];
    for (const other of same) {
      const exclusive = other.outcomeId === leg.outcomeId || other.marketKey === leg.marketKey;
      if (exclusive || !other.allowSameMatch || !leg.allowSameMatch) {
        return { ok: false, code: 'BET_SAME_MATCH', params: { eventId: leg.eventId } };
      }
    }
    same.push(leg);
    byEvent.set(leg.eventId, same);
  }

  const placeAt: string[] = [];
  for (const leg of legs) {
    if (leg.currentOdds === null) return { ok: false, code: 'BET_SELECTION_CLOSED', params: { outcomeId: leg.outcomeId } };
    const seen = parseOdds(leg.odds);
    let current: Dec;
    try {
      current = parseOdds(leg.currentOdds, 'currentOdds');
    } catch {
      return { ok: false, code: 'BET_SELECTION_CLOSED', params: { outcomeId: leg.outcomeId } };
    }
    if (current.eq(seen)) {
      placeAt.push(leg.odds);
      continue;
    }
    const accepted = input.priceChange === 'accept_any' || (input.priceChange === 'accept_higher' && current.gt(seen));
    if (!accepted) {
      return { ok: false, code: 'BET_PRICE_CHANGED', params: { outcomeId: leg.outcomeId, odds: leg.odds, currentOdds: leg.currentOdds } };
    }
    placeAt.push(leg.currentOdds);
  }

  if (stakeCents < limits.minStakeCents) return { ok: false, code: 'BET_STAKE_TOO_LOW', params: { min: formatAmount(limits.minStakeCents) } };
  if (limits.maxStakeCents > 0 && stakeCents > limits.maxStakeCents) {
    return { ok: false, code: 'BET_STAKE_TOO_HIGH', params: { max: formatAmount(limits.maxStakeCents) } };
  }

  const combined = new D(combinedOdds(placeAt));
  const maxOdds = parseDecimal(limits.maxOdds, 'maxOdds');
  if (!maxOdds.isZero() && combined.gt(maxOdds)) {
    return { ok: false, code: 'BET_ODDS_TOO_HIGH', params: { max: maxOdds.toFixed(2, Decimal.ROUND_DOWN) } };
  }
  const payout = new D(stakeCents).times(combined).floor();
  if (limits.maxPayoutCents > 0 && payout.gt(limits.maxPayoutCents)) {
    return { ok: false, code: 'BET_PAYOUT_TOO_HIGH', params: { max: formatAmount(limits.maxPayoutCents) } };
  }
  // Without a configured maximum, a payout no amount of cents can hold (beyond 2^53) is still refused.
  if (payout.gt(Number.MAX_SAFE_INTEGER)) return { ok: false, code: 'BET_PAYOUT_OUT_OF_RANGE' };

  if (limits.maxStakePerMatchCents > 0) {
    for (const eventId of byEvent.keys()) {
      const already = input.stakeAlreadyOnMatchCents?.[eventId] ?? 0;
      if (already + stakeCents > limits.maxStakePerMatchCents) {
        return {
          ok: false,
          code: 'BET_MATCH_LIMIT',
          params: { max: formatAmount(limits.maxStakePerMatchCents), remaining: formatAmount(Math.max(0, limits.maxStakePerMatchCents - already)) },
        };
      }
    }
  }
  return { ok: true, odds: placeAt };
}
