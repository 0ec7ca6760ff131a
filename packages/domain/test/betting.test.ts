import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  OUTCOME_STATUS,
  SELECTION_OUTCOME,
  accumulatorBonusCents,
  cashoutOffer,
  checkSlip,
  combinedOdds,
  combinedOddsDisplay,
  formatAmount,
  inviterRewardCents,
  isMessageCode,
  legFactor,
  message,
  potentialPayoutCents,
  settleOrder,
  withholdingTaxCents,
  settlementForStatus,
  statusForSettlement,
  type AccumulatorBonusConfig,
  type BetLimits,
  type LegSettlement,
  type OrderToSettle,
  type OutcomeStatus,
  type SlipLeg,
} from '../src';

// ---------------------------------------------------------------------------------------------
// An independent oracle: exact fractions with BigInt, written from the rules, not from betting.ts.

type Frac = { n: bigint; d: bigint };
const frac = (n: bigint, d = 1n): Frac => ({ n, d });
const mul = (a: Frac, b: Frac): Frac => ({ n: a.n * b.n, d: a.d * b.d });
const add = (a: Frac, b: Frac): Frac => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
const sub = (a: Frac, b: Frac): Frac => add(a, { n: -b.n, d: b.d });
/** '1.80' -> 180/100 */
function fracOf(decimal: string | number): Frac {
  const s = String(decimal);
  const [w, f = ''] = s.split('.');
  return { n: BigInt(w + f), d: 10n ** BigInt(f.length) };
}
const floorTimes = (cents: number, f: Frac): number => Number((BigInt(cents) * f.n) / f.d);
const fracEqDecimal = (f: Frac, s: string) => {
  const g = fracOf(s);
  return f.n * g.d === g.n * f.d;
};
function oracleFactor(odds: string, s: LegSettlement): Frac {
  const vf = fracOf(s.voidFactor);
  const dhf = s.deadHeatFactor === null ? frac(1n) : fracOf(s.deadHeatFactor);
  return add(vf, mul(mul(mul(sub(frac(1n), vf), frac(BigInt(s.result))), dhf), fracOf(odds)));
}

// Generators
const oddsArb = fc.integer({ min: 100, max: 5000 }).map((h) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`);
const smallOddsArb = fc.integer({ min: 100, max: 800 }).map((h) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`);
const settlementArb: fc.Arbitrary<LegSettlement> = fc.record({
  result: fc.constantFrom<0 | 1>(0, 1),
  voidFactor: fc.constantFrom(0, 0.5, 1),
  deadHeatFactor: fc.constantFrom<number | null>(null, null, null, 0.5, 0.25, 1),
});
const legArb = fc.record({ odds: oddsArb, settlement: settlementArb });
const stakeArb = fc.integer({ min: 1, max: 1_000_000_000 });
const voidLeg = (odds: string) => ({ odds, settlement: { result: 0 as const, voidFactor: 1, deadHeatFactor: null } });

const S = (status: OutcomeStatus): LegSettlement => {
  const s = settlementForStatus(status);
  if (!s) throw new Error(`status ${status} is pending`);
  return s;
};
const WON = S(OUTCOME_STATUS.won);
const LOST = S(OUTCOME_STATUS.lost);
const VOID = S(OUTCOME_STATUS.void);
const HALF_WON = S(OUTCOME_STATUS.half_won);
const HALF_LOST = S(OUTCOME_STATUS.half_lost);

const order = (legs: OrderToSettle['legs'], stakeCents: number, extra: Partial<OrderToSettle> = {}): OrderToSettle => ({
  stakeCents,
  bonusFundedCents: 0,
  legs,
  taxBps: 1000,
  ...extra,
});

// ---------------------------------------------------------------------------------------------

describe('the worked case of the issue', () => {
  it('stake 1,000.00: won 1.80, void 2.10, half won 1.90, half lost 2.00 pays 1,305.00, tax 30.50, paid 1,274.50', () => {
    const r = settleOrder(
      order(
        [
          { odds: '1.80', settlement: WON },
          { odds: '2.10', settlement: VOID },
          { odds: '1.90', settlement: HALF_WON },
          { odds: '2.00', settlement: HALF_LOST },
        ],
        100000,
      ),
    );
    expect(r.resolved).toBe(true);
    expect(new Decimal(r.factor).eq('1.305')).toBe(true);
    expect(formatAmount(r.payoutCents)).toBe('1,305.00');
    expect(formatAmount(r.netWinningsCents)).toBe('305.00');
    expect(formatAmount(r.taxCents)).toBe('30.50');
    expect(formatAmount(r.cashCreditCents)).toBe('1,274.50');
    expect(r.bonusCents).toBe(0);
    expect(r.creditRefundCents).toBe(0);
    expect(r.outcome).toBe('won');
    expect(r.voidLegs).toBe(1);
  });
});

describe('leg factor', () => {
  it('won = odds, lost = 0, void / cancelled / admin-cancelled = 1', () => {
    fc.assert(
      fc.property(oddsArb, (odds) => {
        expect(new Decimal(legFactor(odds, WON)).eq(odds)).toBe(true);
        expect(new Decimal(legFactor(odds, LOST)).isZero()).toBe(true);
        for (const st of [OUTCOME_STATUS.void, OUTCOME_STATUS.cancelled, OUTCOME_STATUS.admin_cancelled] as const) {
          expect(new Decimal(legFactor(odds, S(st))).eq(1), `status ${st}`).toBe(true);
        }
      }),
    );
  });

  it('half won = (odds + 1) / 2, half lost = 0.5', () => {
    fc.assert(
      fc.property(oddsArb, (odds) => {
        expect(new Decimal(legFactor(odds, HALF_WON)).eq(new Decimal(odds).plus(1).div(2))).toBe(true);
        expect(new Decimal(legFactor(odds, HALF_LOST)).eq(0.5)).toBe(true);
      }),
    );
  });

  it('dead heat 0.5 = odds x 0.5; a dead heat that did not happen is lost', () => {
    fc.assert(
      fc.property(oddsArb, (odds) => {
        expect(new Decimal(legFactor(odds, { result: 1, voidFactor: 0, deadHeatFactor: 0.5 })).eq(new Decimal(odds).div(2))).toBe(true);
        expect(new Decimal(legFactor(odds, { result: 0, voidFactor: 0, deadHeatFactor: 0.5 })).isZero()).toBe(true);
      }),
    );
  });

  it('follows F = vf + (1 - vf) x result x dhf x odds for every settlement, as a plain decimal string', () => {
    fc.assert(
      fc.property(oddsArb, settlementArb, (odds, s) => {
        const f = legFactor(odds, s);
        expect(f).toMatch(/^\d+(\.\d+)?$/);
        expect(fracEqDecimal(oracleFactor(odds, s), f)).toBe(true);
      }),
    );
  });

  it('refuses impossible inputs', () => {
    expect(() => legFactor('0.90', WON)).toThrow(RangeError);
    expect(() => legFactor('abc', WON)).toThrow(RangeError);
    expect(() => legFactor('1.80', { result: 1, voidFactor: 2, deadHeatFactor: null })).toThrow(RangeError);
    expect(() => legFactor('1.80', { result: 1, voidFactor: 0, deadHeatFactor: 1.5 })).toThrow(RangeError);
    expect(() => legFactor('1.80', { result: 2 as 1, voidFactor: 0, deadHeatFactor: null })).toThrow(RangeError);
  });
});

describe('outcome status <-> settlement', () => {
  it('maps pending statuses to null', () => {
    for (const st of [OUTCOME_STATUS.pending, OUTCOME_STATUS.unknown_resolved, OUTCOME_STATUS.unknown] as const) {
      expect(settlementForStatus(st)).toBeNull();
    }
    expect(() => settlementForStatus(99 as OutcomeStatus)).toThrow(RangeError);
  });

  it('round-trips every resolved status (void, cancelled and admin-cancelled display as void / refunded)', () => {
    const expected: [OutcomeStatus, OutcomeStatus, number][] = [
      [OUTCOME_STATUS.won, OUTCOME_STATUS.won, SELECTION_OUTCOME.won],
      [OUTCOME_STATUS.lost, OUTCOME_STATUS.lost, SELECTION_OUTCOME.lost],
      [OUTCOME_STATUS.half_won, OUTCOME_STATUS.half_won, SELECTION_OUTCOME.half_won],
      [OUTCOME_STATUS.half_lost, OUTCOME_STATUS.half_lost, SELECTION_OUTCOME.half_lost],
      [OUTCOME_STATUS.void, OUTCOME_STATUS.void, SELECTION_OUTCOME.refunded],
      [OUTCOME_STATUS.cancelled, OUTCOME_STATUS.void, SELECTION_OUTCOME.refunded],
      [OUTCOME_STATUS.admin_cancelled, OUTCOME_STATUS.void, SELECTION_OUTCOME.refunded],
    ];
    for (const [status, shown, selection] of expected) {
      expect(statusForSettlement(S(status))).toEqual({ outcomeStatus: shown, selectionOutcome: selection });
    }
  });

  it('shows a dead heat with result 1 as won', () => {
    expect(statusForSettlement({ result: 1, voidFactor: 0, deadHeatFactor: 0.5 }).outcomeStatus).toBe(OUTCOME_STATUS.won);
  });
});

describe('settleOrder', () => {
  it('a single pays stake x F, floored', () => {
    fc.assert(
      fc.property(stakeArb, legArb, (stake, leg) => {
        const r = settleOrder(order([leg], stake));
        expect(r.payoutCents).toBe(floorTimes(stake, oracleFactor(leg.odds, leg.settlement)));
      }),
    );
  });

  it('an accumulator with void and half legs pays stake x product of F, floored', () => {
    const legs = [
      { odds: '2.35', settlement: WON },
      { odds: '3.10', settlement: VOID },
      { odds: '1.75', settlement: HALF_WON },
      { odds: '1.95', settlement: HALF_LOST },
      { odds: '4.20', settlement: { result: 1 as const, voidFactor: 0, deadHeatFactor: 0.5 } },
    ];
    const f = legs.reduce((acc, l) => mul(acc, oracleFactor(l.odds, l.settlement)), frac(1n));
    const stake = 123_457;
    const r = settleOrder(order(legs, stake));
    expect(fracEqDecimal(f, r.factor)).toBe(true);
    expect(r.payoutCents).toBe(floorTimes(stake, f));
    expect(r.netWinningsCents).toBe(Math.max(0, r.payoutCents - stake));
    expect(r.taxCents).toBe(Math.floor(((r.payoutCents - stake) * 1000) / 10000));
    expect(r.cashCreditCents).toBe(r.payoutCents - r.taxCents);
    expect(r.voidLegs).toBe(1);
  });

  it('any lost leg loses the order', () => {
    fc.assert(
      fc.property(fc.array(legArb, { maxLength: 6 }), oddsArb, fc.nat(6), stakeArb, (legs, odds, at, stake) => {
        const all = [...legs];
        all.splice(Math.min(at, all.length), 0, { odds, settlement: LOST });
        const r = settleOrder(order(all, stake));
        expect(r.outcome).toBe('lost');
        expect([r.payoutCents, r.taxCents, r.bonusCents, r.cashCreditCents, r.creditRefundCents]).toEqual([0, 0, 0, 0, 0]);
      }),
    );
  });

  it('an order with an unresolved leg is pending with every amount 0; its factor shows an early loss', () => {
    const open = settleOrder(order([{ odds: '1.80', settlement: WON }, { odds: '2.00', settlement: null }], 10000));
    expect(open.resolved).toBe(false);
    expect(open.outcome).toBe('pending');
    expect([open.payoutCents, open.netWinningsCents, open.taxCents, open.bonusCents, open.cashCreditCents, open.creditRefundCents]).toEqual([
      0, 0, 0, 0, 0, 0,
    ]);
    expect(new Decimal(open.factor).eq('1.80')).toBe(true);
    const doomed = settleOrder(order([{ odds: '1.80', settlement: LOST }, { odds: '2.00', settlement: null }], 10000));
    expect(doomed.resolved).toBe(false);
    expect(new Decimal(doomed.factor).isZero()).toBe(true);
  });

  it('all legs void return the stake: the cash part as cash, the bonus-funded part to the credit account, untaxed', () => {
    fc.assert(
      fc.property(fc.array(oddsArb, { minLength: 1, maxLength: 8 }), stakeArb, fc.double({ min: 0, max: 1, noNaN: true }), (odds, stake, share) => {
        const bonusFunded = Math.floor(stake * share);
        const r = settleOrder(order(odds.map(voidLeg), stake, { bonusFundedCents: bonusFunded }));
        expect(r.outcome).toBe('void');
        expect(r.payoutCents).toBe(stake);
        expect(r.taxCents).toBe(0);
        expect(r.cashCreditCents).toBe(stake - bonusFunded);
        expect(r.creditRefundCents).toBe(bonusFunded);
      }),
    );
  });

  it('a partial return (half lost) is untaxed and not a win', () => {
    const stake = 50_001;
    const r = settleOrder(order([{ odds: '1.90', settlement: HALF_LOST }], stake));
    expect(r.outcome).toBe('partial');
    expect(r.payoutCents).toBe(Math.floor(stake / 2));
    expect(r.netWinningsCents).toBe(0);
    expect(r.taxCents).toBe(0);
    expect(r.cashCreditCents).toBe(r.payoutCents);
  });

  it('tax is the configured rate of payout - stake, never of the stake', () => {
    const stake = 20_000;
    for (const taxBps of [0, 1000, 1500, 10000]) {
      const r = settleOrder(order([{ odds: '2.50', settlement: WON }], stake, { taxBps }));
      const net = floorTimes(stake, fracOf('2.50')) - stake;
      expect(r.netWinningsCents).toBe(net);
      expect(r.taxCents).toBe(Math.floor((net * taxBps) / 10000));
      expect(r.cashCreditCents).toBe(stake + net - r.taxCents);
    }
  });

  it('does not pay the bonus-funded part of the stake back as cash on a win', () => {
    const stake = 100_000;
    const bonusFunded = 40_000;
    const base = settleOrder(order([{ odds: '3.00', settlement: WON }], stake));
    const r = settleOrder(order([{ odds: '3.00', settlement: WON }], stake, { bonusFundedCents: bonusFunded }));
    expect(r.payoutCents).toBe(base.payoutCents);
    expect(r.taxCents).toBe(base.taxCents);
    expect(r.cashCreditCents).toBe(base.cashCreditCents - bonusFunded);
    expect(r.creditRefundCents).toBe(0);
    // a wholly bonus-funded order that lost half: the return does not cover the bonus stake, nothing negative
    const half = settleOrder(order([{ odds: '3.00', settlement: HALF_LOST }], stake, { bonusFundedCents: stake }));
    expect(half.cashCreditCents).toBe(0);
  });

  it('refuses impossible orders', () => {
    expect(() => settleOrder(order([], 100))).toThrow(RangeError);
    expect(() => settleOrder(order([{ odds: '2.00', settlement: WON }], 100, { bonusFundedCents: 101 }))).toThrow(RangeError);
    expect(() => settleOrder(order([{ odds: '2.00', settlement: WON }], 10.5))).toThrow(RangeError);
    expect(() => settleOrder(order([{ odds: '2.00', settlement: WON }], 100, { taxBps: -1 }))).toThrow(RangeError);
  });
});

describe('settleOrder properties', () => {
  const orderArb = fc
    .record({
      stakeCents: fc.integer({ min: 1, max: 100_000_000 }),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
      // kept within safe integers: at most 10 legs at odds up to 8.00 on at most 1,000,000.00
      legs: fc.array(fc.record({ odds: smallOddsArb, settlement: fc.option(settlementArb, { freq: 8 }) }), { minLength: 1, maxLength: 10 }),
      taxBps: fc.integer({ min: 0, max: 3000 }),
      bonus: fc.option(
        fc.record({
          enabled: fc.boolean(),
          tiers: fc.array(fc.record({ legs: fc.integer({ min: 1, max: 12 }), rateBps: fc.integer({ min: 0, max: 10000 }) }), { maxLength: 4 }),
          minOdds: oddsArb,
          capCents: fc.integer({ min: 0, max: 10_000_000 }),
          base: fc.constantFrom<'net' | 'payout'>('net', 'payout'),
          allowOnCashout: fc.boolean(),
          allowOnBonusFunds: fc.boolean(),
        }),
        { nil: undefined },
      ),
    })
    .map(({ share, ...o }): OrderToSettle => ({ ...o, bonusFundedCents: Math.floor(o.stakeCents * share) }));

  it('pays exactly floor(stake x product of F), an integer never above stake x product of odds (plus bonus)', () => {
    fc.assert(
      fc.property(orderArb, (o) => {
        const r = settleOrder(o);
        for (const v of [r.payoutCents, r.netWinningsCents, r.taxCents, r.bonusCents, r.cashCreditCents, r.creditRefundCents]) {
          expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
        }
        if (!r.resolved) return;
        const f = o.legs.reduce((acc, l) => mul(acc, oracleFactor(l.odds, l.settlement!)), frac(1n));
        expect(r.payoutCents).toBe(floorTimes(o.stakeCents, f));
        const maxPayout = floorTimes(o.stakeCents, o.legs.reduce((acc, l) => mul(acc, fracOf(l.odds)), frac(1n)));
        expect(r.payoutCents).toBeLessThanOrEqual(maxPayout);
        expect(r.cashCreditCents + r.creditRefundCents).toBeLessThanOrEqual(maxPayout + r.bonusCents);
      }),
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(orderArb, (o) => {
        expect(settleOrder(structuredClone(o))).toEqual(settleOrder(o));
      }),
    );
  });

  it('taxes at most the rate of payout - stake, never negative, never when payout <= stake', () => {
    fc.assert(
      fc.property(orderArb, (o) => {
        const r = settleOrder(o);
        expect(r.taxCents).toBeGreaterThanOrEqual(0);
        expect(r.taxCents * 10000).toBeLessThanOrEqual(Math.max(0, r.payoutCents - o.stakeCents) * o.taxBps);
        if (r.payoutCents <= o.stakeCents) expect(r.taxCents).toBe(0);
      }),
    );
  });

  it('all-void orders pay the stake back', () => {
    fc.assert(
      fc.property(fc.array(oddsArb, { minLength: 1, maxLength: 10 }), stakeArb, (odds, stake) => {
        expect(settleOrder(order(odds.map(voidLeg), stake)).payoutCents).toBe(stake);
      }),
    );
  });

  it('cash credited is payout - tax + bonus - bonus-funded stake, never negative; credit refunded only when void', () => {
    fc.assert(
      fc.property(orderArb, (o) => {
        const r = settleOrder(o);
        if (!r.resolved) return;
        expect(r.cashCreditCents).toBe(Math.max(0, r.payoutCents - r.taxCents + r.bonusCents - o.bonusFundedCents));
        expect(r.creditRefundCents).toBe(r.outcome === 'void' ? o.bonusFundedCents : 0);
      }),
    );
  });
});

describe('accumulator bonus', () => {
  const cfg = (c: Partial<AccumulatorBonusConfig> = {}): AccumulatorBonusConfig => ({
    enabled: true,
    tiers: [
      { legs: 5, rateBps: 1000 },
      { legs: 3, rateBps: 300 },
    ],
    minOdds: '1.50',
    capCents: 0,
    base: 'net',
    allowOnCashout: false,
    allowOnBonusFunds: false,
    ...c,
  });
  const won = (n: number, odds = '1.60') => Array.from({ length: n }, () => ({ odds, settlement: WON }));
  const stake = 100_000;
  const settle = (legs: OrderToSettle['legs'], c: Partial<AccumulatorBonusConfig> = {}, extra: Partial<OrderToSettle> = {}) =>
    settleOrder(order(legs, stake, { bonus: cfg(c), ...extra }));

  it('uses the highest tier whose legs <= the count of qualifying legs, on net winnings, untaxed', () => {
    for (const [n, rate] of [
      [2, 0],
      [3, 300],
      [4, 300],
      [5, 1000],
      [7, 1000],
    ] as const) {
      const r = settle(won(n));
      expect(r.bonusCents, `${n} legs`).toBe(Math.floor((r.netWinningsCents * rate) / 10000));
      expect(r.taxCents).toBe(Math.floor((r.netWinningsCents * 1000) / 10000));
      expect(r.cashCreditCents).toBe(r.payoutCents - r.taxCents + r.bonusCents);
    }
  });

  it('applies to the payout when configured', () => {
    const r = settle(won(3), { base: 'payout' });
    expect(r.bonusCents).toBe(Math.floor((r.payoutCents * 300) / 10000));
  });

  it('counts only legs at or above the minimum odds', () => {
    const legs = [...won(2), ...won(1, '1.49')];
    expect(settle(legs).bonusCents).toBe(0);
    expect(settle(legs, { minOdds: '1.49' }).bonusCents).toBeGreaterThan(0);
  });

  it('void legs drop out of the count', () => {
    const legs = [...won(3), voidLeg('1.80')];
    const withVoid = settle([...won(4), voidLeg('1.80')]);
    const five = settle(won(5));
    expect(five.bonusCents).toBe(Math.floor((five.netWinningsCents * 1000) / 10000));
    expect(withVoid.bonusCents).toBe(Math.floor((withVoid.netWinningsCents * 300) / 10000));
    expect(settle([...won(2), voidLeg('1.80')]).bonusCents).toBe(0);
    expect(settle(legs).bonusCents).toBe(Math.floor((settle(legs).netWinningsCents * 300) / 10000));
  });

  it('is capped', () => {
    const uncapped = settle(won(5)).bonusCents;
    expect(uncapped).toBeGreaterThan(1000);
    expect(settle(won(5), { capCents: 1000 }).bonusCents).toBe(1000);
    expect(settle(won(5), { capCents: uncapped + 1 }).bonusCents).toBe(uncapped);
  });

  it('is not granted on a losing, partial or void order, nor when disabled', () => {
    expect(settle([...won(4), { odds: '1.60', settlement: LOST }]).bonusCents).toBe(0);
    const partial = settle([...won(3, '1.50'), { odds: '1.60', settlement: HALF_LOST }, { odds: '1.60', settlement: HALF_LOST }], { base: 'payout', minOdds: '1.01' });
    expect(partial.outcome).toBe('partial');
    expect(partial.bonusCents).toBe(0);
    expect(settle(won(5), { enabled: false }).bonusCents).toBe(0);
    expect(settleOrder(order(won(5), stake)).bonusCents).toBe(0);
  });

  it('is not granted on bonus-funded orders unless allowed', () => {
    expect(settle(won(5), {}, { bonusFundedCents: 1 }).bonusCents).toBe(0);
    expect(settle(won(5), { allowOnBonusFunds: true }, { bonusFundedCents: 1 }).bonusCents).toBe(settle(won(5)).bonusCents);
  });

  it('is not granted on a cashout unless allowed', () => {
    const legs = [...won(2), { odds: '1.60', settlement: null }, { odds: '1.60', settlement: null }, { odds: '1.60', settlement: null }];
    const input = { legs, stakeCents: stake, payoutCents: 300_000, bonusFundedCents: 0, cashout: true };
    expect(accumulatorBonusCents({ ...input, config: cfg() })).toBe(0);
    expect(accumulatorBonusCents({ ...input, config: cfg({ allowOnCashout: true }) })).toBe(Math.floor((200_000 * 1000) / 10000));
    expect(accumulatorBonusCents({ ...input, config: undefined })).toBe(0);
  });
});

describe('cashout offer', () => {
  const open = (placedOdds: string, currentOdds: string | null, suspended = false) => ({ placedOdds, currentOdds, suspended, settlement: null });
  const done = (placedOdds: string, settlement: LegSettlement) => ({ placedOdds, currentOdds: null, suspended: false, settlement });
  const offer = (r: ReturnType<typeof cashoutOffer>) => {
    if (r.state !== 'offer') throw new Error('locked');
    return r.amountCents;
  };

  it('is stake x resolved F x (placed / current) over open legs x (1 - margin), floored', () => {
    const stake = 10_000;
    const legs = [done('1.80', WON), done('2.00', HALF_LOST), open('2.50', '1.60'), open('3.00', '3.40')];
    for (const marginBps of [0, 500, 10000]) {
      const f = [fracOf('1.80'), oracleFactor('2.00', HALF_LOST), { n: 250n, d: 160n }, { n: 300n, d: 340n }, { n: BigInt(10000 - marginBps), d: 10000n }].reduce(mul, frac(1n));
      expect(offer(cashoutOffer({ stakeCents: stake, legs, marginBps }))).toBe(floorTimes(stake, f));
    }
  });

  it('is locked while an open leg is suspended or has no price, or when no leg is open', () => {
    expect(cashoutOffer({ stakeCents: 1000, legs: [done('1.80', WON), open('2.00', '1.50', true)], marginBps: 500 })).toEqual({ state: 'locked' });
    expect(cashoutOffer({ stakeCents: 1000, legs: [open('1.80', null), open('2.00', '1.50')], marginBps: 500 })).toEqual({ state: 'locked' });
    expect(cashoutOffer({ stakeCents: 1000, legs: [open('1.80', '0')], marginBps: 500 })).toEqual({ state: 'locked' });
    expect(cashoutOffer({ stakeCents: 1000, legs: [done('1.80', WON)], marginBps: 500 })).toEqual({ state: 'locked' });
    // a suspended leg that is already resolved does not lock
    expect(cashoutOffer({ stakeCents: 1000, legs: [{ ...done('1.80', WON), suspended: true }, open('2.00', '1.50')], marginBps: 0 }).state).toBe('offer');
  });

  it('offers 0 once a leg lost, even while another leg is suspended', () => {
    expect(cashoutOffer({ stakeCents: 1000, legs: [done('1.80', LOST), open('2.00', '1.50', true)], marginBps: 500 })).toEqual({ state: 'offer', amountCents: 0 });
  });

  it('never offers more than the potential payout', () => {
    const legArb2 = fc.record({
      placedOdds: smallOddsArb,
      currentOdds: fc.option(smallOddsArb, { freq: 10 }),
      suspended: fc.constantFrom(false, false, false, true),
      settlement: fc.option(settlementArb, { freq: 2 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.array(legArb2, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 10000 }), (stake, legs, marginBps) => {
        const r = cashoutOffer({ stakeCents: stake, legs, marginBps });
        if (r.state === 'locked') return;
        expect(Number.isSafeInteger(r.amountCents) && r.amountCents >= 0).toBe(true);
        const potential = legs.reduce((acc, l) => mul(acc, fracOf(l.placedOdds)), frac(1n));
        expect(BigInt(r.amountCents)).toBeLessThanOrEqual((BigInt(stake) * potential.n) / potential.d);
      }),
    );
  });

  it('reaches the potential payout only when every current price is 1.00 and there is no margin', () => {
    const r = cashoutOffer({ stakeCents: 999, legs: [open('2.37', '1.00'), open('1.11', '1.00')], marginBps: 0 });
    expect(offer(r)).toBe(potentialPayoutCents(999, ['2.37', '1.11']));
  });
});

describe('odds helpers and inviter reward', () => {
  it('combines odds exactly and displays them rounded down', () => {
    fc.assert(
      fc.property(fc.array(oddsArb, { maxLength: 15 }), (odds) => {
        const f = odds.reduce((acc, o) => mul(acc, fracOf(o)), frac(1n));
        expect(fracEqDecimal(f, combinedOdds(odds))).toBe(true);
        const shown = combinedOddsDisplay(odds);
        expect(shown).toMatch(/^\d+\.\d\d$/);
        expect(new Decimal(shown).lte(combinedOdds(odds))).toBe(true);
        expect(new Decimal(combinedOdds(odds)).minus(shown).lt('0.01')).toBe(true);
      }),
    );
  });

  it('potential payout is floor(stake x combined odds)', () => {
    fc.assert(
      fc.property(stakeArb, fc.array(oddsArb, { minLength: 1, maxLength: 6 }), (stake, odds) => {
        const f = odds.reduce((acc, o) => mul(acc, fracOf(o)), frac(1n));
        const exact = (BigInt(stake) * f.n) / f.d;
        if (exact > BigInt(Number.MAX_SAFE_INTEGER)) expect(() => potentialPayoutCents(stake, odds)).toThrow(RangeError);
        else expect(potentialPayoutCents(stake, odds)).toBe(Number(exact));
      }),
    );
  });

  it('gives the inviter a floored share of a positive house result only', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.integer({ min: 0, max: 10000 }), (house, share) => {
        expect(inviterRewardCents(house, share)).toBe(house > 0 ? Math.floor((house * share) / 10000) : 0);
      }),
    );
    expect(() => inviterRewardCents(100, 10001)).toThrow(RangeError);
  });
});

describe('checkSlip', () => {
  const limits: BetLimits = {
    minStakeCents: 100_00,
    maxStakeCents: 1_000_000_00,
    maxPayoutCents: 50_000_000_00,
    maxLegs: 4,
    maxOdds: '500',
    maxStakePerMatchCents: 2_000_000_00,
  };
  const leg = (eventId: string, odds = '1.80', more: Partial<SlipLeg> = {}): SlipLeg => ({
    eventId,
    marketKey: '1x2',
    outcomeId: `${eventId}-home`,
    odds,
    currentOdds: odds,
    allowSameMatch: false,
    ...more,
  });
  const check = (legs: SlipLeg[], more: Partial<Parameters<typeof checkSlip>[0]> = {}) =>
    checkSlip({ stakeCents: 1_000_00, legs, limits, priceChange: 'refuse', ...more });

  it('accepts a valid slip at the seen prices', () => {
    expect(check([leg('e1', '1.80'), leg('e2', '2.10')])).toEqual({ ok: true, odds: ['1.80', '2.10'] });
    expect(check([leg('e1', '1.8', { currentOdds: '1.80' })])).toEqual({ ok: true, odds: ['1.8'] });
  });

  it('refuses an empty slip and a non-positive stake', () => {
    expect(check([])).toMatchObject({ ok: false, code: 'BET_SLIP_EMPTY' });
    expect(check([leg('e1')], { stakeCents: 0 })).toMatchObject({ ok: false, code: 'PARAM_INVALID' });
    expect(check([leg('e1')], { stakeCents: 10.5 })).toMatchObject({ ok: false, code: 'PARAM_INVALID' });
  });

  it('refuses a stake below the minimum or above the maximum', () => {
    expect(check([leg('e1')], { stakeCents: limits.minStakeCents - 1 })).toEqual({ ok: false, code: 'BET_STAKE_TOO_LOW', params: { min: formatAmount(limits.minStakeCents) } });
    expect(check([leg('e1')], { stakeCents: limits.minStakeCents }).ok).toBe(true);
    expect(check([leg('e1', '1.01')], { stakeCents: limits.maxStakeCents }).ok).toBe(true);
    expect(check([leg('e1')], { stakeCents: limits.maxStakeCents + 1 })).toEqual({ ok: false, code: 'BET_STAKE_TOO_HIGH', params: { max: formatAmount(limits.maxStakeCents) } });
  });

  it('refuses too many legs', () => {
    const legs = ['a', 'b', 'c', 'd', 'e'].map((e) => leg(e, '1.10'));
    expect(check(legs.slice(0, limits.maxLegs)).ok).toBe(true);
    expect(check(legs)).toEqual({ ok: false, code: 'BET_TOO_MANY_LEGS', params: { max: limits.maxLegs } });
    expect(check(legs, { limits: { ...limits, maxLegs: 0 } }).ok).toBe(true);
  });

  it('refuses combined odds above the maximum', () => {
    const legs = [leg('a', '10.00'), leg('b', '10.00'), leg('c', '5.00')];
    expect(check(legs)).toEqual({ ok: true, odds: ['10.00', '10.00', '5.00'] });
    expect(check([...legs, leg('d', '1.01')])).toMatchObject({ ok: false, code: 'BET_ODDS_TOO_HIGH', params: { max: '500.00' } });
    expect(check([...legs, leg('d', '1.01')], { limits: { ...limits, maxOdds: '0' } }).ok).toBe(true);
  });

  it('refuses a potential payout above the maximum', () => {
    const stake = 1_000_000_00;
    const odds = '50.00';
    const payout = potentialPayoutCents(stake, [odds]);
    expect(check([leg('a', odds)], { stakeCents: stake, limits: { ...limits, maxPayoutCents: payout } }).ok).toBe(true);
    expect(check([leg('a', odds)], { stakeCents: stake, limits: { ...limits, maxPayoutCents: payout - 1 } })).toEqual({
      ok: false,
      code: 'BET_PAYOUT_TOO_HIGH',
      params: { max: formatAmount(payout - 1) },
    });
  });

  it('refuses two legs of one match unless both markets allow it, and never two outcomes of one market', () => {
    const a = leg('m', '1.80', { marketKey: '1x2', outcomeId: 'home' });
    const b = leg('m', '1.90', { marketKey: 'total', outcomeId: 'over' });
    expect(check([a, b])).toMatchObject({ ok: false, code: 'BET_SAME_MATCH' });
    expect(check([{ ...a, allowSameMatch: true }, b])).toMatchObject({ ok: false, code: 'BET_SAME_MATCH' });
    expect(check([{ ...a, allowSameMatch: true }, { ...b, allowSameMatch: true }]).ok).toBe(true);
    const draw = leg('m', '3.20', { marketKey: '1x2', outcomeId: 'draw', allowSameMatch: true });
    expect(check([{ ...a, allowSameMatch: true }, draw])).toMatchObject({ ok: false, code: 'BET_SAME_MATCH' });
    expect(check([{ ...a, allowSameMatch: true }, { ...a, allowSameMatch: true }])).toMatchObject({ ok: false, code: 'BET_SAME_MATCH' });
  });

  it('refuses a selection without a current price', () => {
    expect(check([leg('a'), leg('b', '2.00', { currentOdds: null })])).toMatchObject({ ok: false, code: 'BET_SELECTION_CLOSED', params: { outcomeId: 'b-home' } });
  });

  it('handles a price change by policy and places at the current price when it accepts', () => {
    const up = leg('a', '1.80', { currentOdds: '1.95' });
    const down = leg('b', '2.10', { currentOdds: '2.00' });
    expect(check([up], { priceChange: 'refuse' })).toMatchObject({ ok: false, code: 'BET_PRICE_CHANGED', params: { odds: '1.80', currentOdds: '1.95' } });
    expect(check([up, down], { priceChange: 'accept_any' })).toEqual({ ok: true, odds: ['1.95', '2.00'] });
    expect(check([up], { priceChange: 'accept_higher' })).toEqual({ ok: true, odds: ['1.95'] });
    expect(check([up, down], { priceChange: 'accept_higher' })).toMatchObject({ ok: false, code: 'BET_PRICE_CHANGED' });
  });

  it('checks the limits at the placement prices', () => {
    const legs = [leg('a', '10.00'), leg('b', '10.00'), leg('c', '5.00', { currentOdds: '5.10' })];
    expect(check(legs, { priceChange: 'accept_any' })).toMatchObject({ ok: false, code: 'BET_ODDS_TOO_HIGH' });
  });

  it('refuses an astronomical payout without overflowing', () => {
    const legs = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((e) => leg(e, '999.00'));
    const wide = { ...limits, maxLegs: 0, maxOdds: '0', maxStakeCents: 0 };
    expect(check(legs, { limits: wide })).toMatchObject({ ok: false, code: 'BET_PAYOUT_TOO_HIGH' });
  });

  it('refuses a stake above the per-match limit, counting what the bettor already staked on each match', () => {
    const max = limits.maxStakePerMatchCents;
    expect(check([leg('a'), leg('b')], { stakeCents: 1_000_00, stakeAlreadyOnMatchCents: { b: max - 1_000_00 } }).ok).toBe(true);
    expect(check([leg('a'), leg('b')], { stakeCents: 1_000_00, stakeAlreadyOnMatchCents: { b: max - 1_000_00 + 1 } })).toEqual({
      ok: false,
      code: 'BET_MATCH_LIMIT',
      params: { max: formatAmount(max), remaining: formatAmount(1_000_00 - 1) },
    });
    expect(check([leg('a')], { stakeCents: 1_000_00, stakeAlreadyOnMatchCents: { a: max }, limits: { ...limits, maxStakePerMatchCents: 0 } }).ok).toBe(true);
  });
});

describe('bet message codes', () => {
  it('exist in every language with their parameters', () => {
    const codes = [
      'BET_SLIP_EMPTY', 'BET_STAKE_TOO_LOW', 'BET_STAKE_TOO_HIGH', 'BET_PAYOUT_TOO_HIGH', 'BET_TOO_MANY_LEGS', 'BET_ODDS_TOO_HIGH',
      'BET_SAME_MATCH', 'BET_PRICE_CHANGED', 'BET_SELECTION_CLOSED', 'BET_MATCH_CLOSED', 'BET_LIVE_DELAY', 'BET_USER_BLOCKED',
      'BET_RISK_BLOCKED', 'BET_BALANCE_LOW', 'BET_MATCH_LIMIT', 'RESULT_REQUIRED', 'REASON_REQUIRED', 'ORDER_NOT_OPEN', 'CASHOUT_FINAL',
    ];
    for (const c of codes) expect(isMessageCode(c), c).toBe(true);
    expect(message('RESULT_REQUIRED', 'en-US')).toBe('A result must be selected');
    expect(message('BET_STAKE_TOO_LOW', 'sw-KE', { min: '100.00' })).toContain('TSh 100.00');
    expect(message('BET_MATCH_LIMIT', 'zh-CN', { max: '5.00' })).toContain('TSh 5.00');
  });
});

describe('withholdingTaxCents (settlement and cashout, issue 23)', () => {
  it('taxes the net winnings only, rounded down, never the stake', () => {
    expect(withholdingTaxCents(114_000, 100_000, 1_000)).toBe(1_400);
    expect(withholdingTaxCents(155_454, 100_000, 1_000)).toBe(5_545);
    expect(withholdingTaxCents(100_000, 100_000, 1_000)).toBe(0);
    expect(withholdingTaxCents(60_000, 100_000, 1_000)).toBe(0);
    expect(withholdingTaxCents(0, 100_000, 1_000)).toBe(0);
    expect(withholdingTaxCents(130_500, 100_000, 1_000)).toBe(settleOrder({
      stakeCents: 100_000, bonusFundedCents: 0, taxBps: 1_000,
      legs: [{ odds: '1.305', settlement: { result: 1, voidFactor: 0, deadHeatFactor: null } }],
    }).taxCents);
    expect(() => withholdingTaxCents(1, 0, 10_001)).toThrow(RangeError);
    expect(() => withholdingTaxCents(-1, 0, 1_000)).toThrow(RangeError);
  });
});
