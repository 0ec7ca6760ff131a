import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  JACKPOT_MATCHES,
  JACKPOT_RESULT,
  PICK,
  cancelledOutcome,
  checkTicket,
  enumLabel,
  hitCounts,
  hitCountsBruteForce,
  isMessageCode,
  message,
  oddsRose,
  pickResults,
  planIssue,
  riskVector,
  riskView,
  ticketLines,
  ticketPrize,
  type JackpotRules,
  type JackpotTier,
  type TicketCheck,
} from '../src';

const H = PICK.home;
const X = PICK.draw;
const A = PICK.away;
const HX = H | X; // 3
const HXA = H | X | A; // 7

const RULES: JackpotRules = { maxDoubles: 13, maxTriples: 13, guessNumber: 39 };
const TIERS: JackpotTier[] = [
  { hits: 13, proportionBps: 6000 },
  { hits: 12, proportionBps: 2000 },
  { hits: 11, proportionBps: 1200 },
  { hits: 10, proportionBps: 800 },
];

/** 3 doubles (home or draw) on matches 0-2, 2 triples on 3-4, home singles on 5-12. */
const WORKED = [HX, HX, HX, HXA, HXA, H, H, H, H, H, H, H, H];

/** Every line of a ticket, as the result chosen for each match. */
function lines(picks: readonly number[]): number[][] {
  let out: number[][] = [[]];
  for (const m of picks) out = out.flatMap((l) => pickResults(m).map((r) => [...l, r]));
  return out;
}

/** A mask, mostly singles, some doubles, few triples. */
const maskArb = fc.oneof(
  { arbitrary: fc.constantFrom(1, 2, 4), weight: 6 },
  { arbitrary: fc.constantFrom(3, 5, 6), weight: 3 },
  { arbitrary: fc.constant(7), weight: 1 },
);
const ticketArb = (n: number) => fc.array(maskArb, { minLength: n, maxLength: n });
const resultArb = fc.oneof({ arbitrary: fc.constantFrom(0, 1, 2), weight: 9 }, { arbitrary: fc.constant(3), weight: 1 });
const resultsArb = (n: number) => fc.array(resultArb, { minLength: n, maxLength: n });

describe('checkTicket', () => {
  it('accepts a valid ticket: lines = 2^doubles x 3^triples (worked example: 3 doubles + 2 triples = 72)', () => {
    expect(checkTicket(WORKED, RULES)).toEqual({ ok: true, lines: 72, doubles: 3, triples: 2, picked: 3 * 2 + 2 * 3 + 8 });
    expect(ticketLines(WORKED)).toBe(72);
    expect(lines(WORKED)).toHaveLength(72);
    expect(checkTicket(Array(13).fill(A), RULES)).toEqual({ ok: true, lines: 1, doubles: 0, triples: 0, picked: 13 });
  });

  it('refuses a missing result (mask 0 or outside 1..7) with SELECT_RESULT and the match index', () => {
    for (const bad of [0, 8, -1, 1.5, NaN]) {
      const picks = [...WORKED];
      picks[4] = bad;
      expect(checkTicket(picks, RULES)).toEqual({ ok: false, code: 'SELECT_RESULT', match: 4 });
    }
    expect(checkTicket(WORKED.slice(0, 12), RULES)).toEqual({ ok: false, code: 'SELECT_RESULT', match: 12 });
    expect(checkTicket([...WORKED, H], RULES)).toEqual({ ok: false, code: 'SELECT_RESULT' });
    expect(checkTicket([], RULES)).toEqual({ ok: false, code: 'SELECT_RESULT', match: 0 });
    expect(checkTicket([H, X, A], { ...RULES, matches: 3 })).toMatchObject({ ok: true, lines: 1 });
  });

  it('refuses a triple with TRIPLES_NOT_ALLOWED when the bet type allows none', () => {
    expect(checkTicket(WORKED, { ...RULES, maxTriples: 0 })).toEqual({ ok: false, code: 'TRIPLES_NOT_ALLOWED', match: 3 });
  });

  it('refuses doubles over the limit (LIMIT_DOUBLES), triples over it (JACKPOT_TRIPLES_LIMIT), picks over guess_number', () => {
    expect(checkTicket(WORKED, { ...RULES, maxDoubles: 2 })).toEqual({ ok: false, code: 'LIMIT_DOUBLES', match: 2 });
    expect(checkTicket(WORKED, { ...RULES, maxDoubles: 3 })).toMatchObject({ ok: true });
    expect(checkTicket(WORKED, { ...RULES, maxTriples: 1 })).toEqual({ ok: false, code: 'JACKPOT_TRIPLES_LIMIT', match: 4 });
    expect(checkTicket(WORKED, { ...RULES, maxTriples: 2 })).toMatchObject({ ok: true });
    // picked = 20: over 19, running total passes 19 at the last match
    expect(checkTicket(WORKED, { ...RULES, guessNumber: 19 })).toEqual({ ok: false, code: 'EXCEEDED_MAX_SELECTABLE', match: 12 });
    expect(checkTicket(WORKED, { ...RULES, guessNumber: 20 })).toMatchObject({ ok: true, picked: 20 });
  });

  it('checks in the documented order', () => {
    const zeroAndTriple = [...WORKED];
    zeroAndTriple[12] = 0;
    expect(checkTicket(zeroAndTriple, { ...RULES, maxTriples: 0 })).toMatchObject({ code: 'SELECT_RESULT' });
    expect(checkTicket(WORKED, { maxDoubles: 0, maxTriples: 0, guessNumber: 0 })).toMatchObject({ code: 'TRIPLES_NOT_ALLOWED' });
    expect(checkTicket(WORKED, { maxDoubles: 0, maxTriples: 1, guessNumber: 0 })).toMatchObject({ code: 'LIMIT_DOUBLES' });
    expect(checkTicket(WORKED, { maxDoubles: 3, maxTriples: 1, guessNumber: 0 })).toMatchObject({ code: 'JACKPOT_TRIPLES_LIMIT' });
    expect(checkTicket(WORKED, { maxDoubles: 3, maxTriples: 2, guessNumber: 0 })).toMatchObject({ code: 'EXCEEDED_MAX_SELECTABLE' });
  });

  it('answers only codes of the message catalogue; the jackpot messages exist in three languages', () => {
    for (const code of ['SELECT_RESULT', 'LIMIT_DOUBLES', 'TRIPLES_NOT_ALLOWED', 'EXCEEDED_MAX_SELECTABLE', 'RESULTS_PER_MATCH_LIMIT', 'JACKPOT_TRIPLES_LIMIT']) {
      expect(isMessageCode(code), code).toBe(true);
    }
    expect(message('JACKPOT_TRIPLES_LIMIT', 'en-US')).toBe('Limit of triples reached');
    expect(message('JACKPOT_BETS_CLOSED', 'en-US')).toBe('Betting on this jackpot issue is closed');
    expect(message('JACKPOT_PREVIEW_STALE', 'en-US')).toBe('The results or tickets changed since the preview: preview again');
    expect(message('JACKPOT_MATCHES_REQUIRED', 'zh-CN')).toContain('13');
    expect(message('JACKPOT_REASON_REQUIRED', 'sw-KE')).toBe('Tafadhali toa sababu');
    expect(enumLabel('jackpot_result', JACKPOT_RESULT.draw, 'en-US')).toBe('Draw (X)');
    expect(enumLabel('jackpot_settle_status', 5, 'zh-CN')).toBe('已作废（已退款）');
  });

  it('property: a valid ticket has lines = product of popcounts and is refused exactly when a limit is passed', () => {
    const rulesArb = fc.record({ maxDoubles: fc.integer({ min: 0, max: 13 }), maxTriples: fc.integer({ min: 0, max: 13 }), guessNumber: fc.integer({ min: 0, max: 39 }) });
    fc.assert(
      fc.property(ticketArb(JACKPOT_MATCHES), rulesArb, (picks, rules) => {
        const d = picks.filter((m) => m === 3 || m === 5 || m === 6).length;
        const t = picks.filter((m) => m === 7).length;
        const picked = d * 2 + t * 3 + (13 - d - t);
        const c: TicketCheck = checkTicket(picks, rules);
        const expected = !(t > 0 && rules.maxTriples === 0) && d <= rules.maxDoubles && t <= rules.maxTriples && picked <= rules.guessNumber;
        expect(c.ok).toBe(expected);
        expect(ticketLines(picks)).toBe(2 ** d * 3 ** t);
        if (c.ok) expect(c).toEqual({ ok: true, lines: 2 ** d * 3 ** t, doubles: d, triples: t, picked });
      }),
      { numRuns: 500 },
    );
  });

  it('ticketLines refuses an invalid mask', () => {
    expect(() => ticketLines([1, 0, 2])).toThrow(RangeError);
  });
});

describe('hitCounts', () => {
  it('worked example, by hand: 3 doubles + 2 triples', () => {
    // Results: match 0 away (the double 1|X misses both lines: factor 2), matches 1-2 home (double: 1 + x),
    // matches 3-4 home (triple: 2 + x), match 5 draw (single home misses: 1), matches 6-12 home (x^7).
    // 2 (1 + x)^2 (2 + x)^2 x^7 = 2 (4 + 12x + 13x^2 + 6x^3 + x^4) x^7 = 8x^7 + 24x^8 + 26x^9 + 12x^10 + 2x^11.
    const results = [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    const expected = [0, 0, 0, 0, 0, 0, 0, 8, 24, 26, 12, 2, 0, 0];
    expect(hitCounts(WORKED, results)).toEqual(expected);
    expect(hitCountsBruteForce(WORKED, results)).toEqual(expected);
    // Match 0 cancelled: both its picks hit, factor 2x: everything one hit higher.
    const cancelled = [3, ...results.slice(1)];
    expect(hitCounts(WORKED, cancelled)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 8, 24, 26, 12, 2, 0]);
    expect(hitCountsBruteForce(WORKED, cancelled)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 8, 24, 26, 12, 2, 0]);
    // All cancelled: every line has 13 hits.
    expect(hitCounts(WORKED, Array(13).fill(3))).toEqual([...Array(13).fill(0), 72]);
  });

  it('refuses unknown results and mismatched lengths', () => {
    expect(() => hitCounts(WORKED, [null, ...Array(12).fill(0)])).toThrow(RangeError);
    expect(() => hitCounts(WORKED, Array(12).fill(0))).toThrow(RangeError);
    expect(() => hitCounts(WORKED, [4, ...Array(12).fill(0)])).toThrow(RangeError);
    expect(() => hitCountsBruteForce(WORKED, [null, ...Array(12).fill(0)])).toThrow(RangeError);
  });

  it('property: polynomial product = enumeration of lines, and the counts add up to the lines', () => {
    const caseArb = fc.integer({ min: 0, max: 13 }).chain((n) => fc.tuple(ticketArb(n), resultsArb(n)));
    fc.assert(
      fc.property(caseArb, ([picks, results]) => {
        fc.pre(picks.reduce((p: number, m) => p * pickResults(m).length, 1) <= 20_000);
        const counts = hitCounts(picks, results);
        expect(counts).toEqual(hitCountsBruteForce(picks, results));
        expect(counts).toHaveLength(picks.length + 1);
        expect(counts.reduce((a, b) => a + b, 0)).toBe(ticketLines(picks));
      }),
      { numRuns: 400 },
    );
  });
});

describe('planIssue', () => {
  const POOL = 1_000_000; // 10,000.00

  it('shared: floor of the share per line, dust and unwon tiers roll over', () => {
    const plan = planIssue(POOL, TIERS, [0, 3, 7, 1000], 1);
    expect(plan.tiers).toEqual([
      { hits: 13, share: 600_000, winningLines: 0, prizePerLine: 0, paid: 0, rollover: 600_000, capped: 0 },
      { hits: 12, share: 200_000, winningLines: 3, prizePerLine: 66_666, paid: 199_998, rollover: 2, capped: 0 },
      { hits: 11, share: 120_000, winningLines: 7, prizePerLine: 17_142, paid: 119_994, rollover: 6, capped: 0 },
      { hits: 10, share: 80_000, winningLines: 1000, prizePerLine: 80, paid: 80_000, rollover: 0, capped: 0 },
    ]);
    expect(plan).toMatchObject({ rollover: 600_008, paid: 399_992, pool: POOL, unallocated: 0, houseFunded: 0 });
    expect(plan.paid + plan.rollover).toBe(POOL);
  });

  it('shared: a lower tier never pays more per line than a higher one; the capped part rolls over (issue 23)', () => {
    // Issue 23's kind of case (there 555,686.11 a 10-hit line against 535,840.17 an 11-hit line): here the one
    // 10-hit line would get 555,660.00 while each of the 3 11-hit lines gets 529,200.00.
    const tiers: JackpotTier[] = [{ hits: 11, proportionBps: 6000 }, { hits: 10, proportionBps: 2100 }];
    const pool = 2_646_000_00;
    expect(planIssue(pool, tiers, [0, 1], 1).tiers[1]).toMatchObject({ prizePerLine: 555_660_00, capped: 0 });
    const plan = planIssue(pool, tiers, [3, 1], 1);
    const [t11, t10] = plan.tiers;
    expect(t11).toMatchObject({ winningLines: 3, prizePerLine: 529_200_00, capped: 0 });
    expect(t10).toMatchObject({ winningLines: 1, prizePerLine: 529_200_00, paid: 529_200_00, capped: 26_460_00, rollover: 26_460_00 });
    expect(plan.rollover).toBe(pool - 4 * 529_200_00);
    expect(plan.paid + plan.rollover).toBe(pool);
    // The cap comes from the nearest tier above that has winners (an unwon tier caps nothing), whatever the order given.
    const three = planIssue(1_000_000, [{ hits: 10, proportionBps: 3000 }, { hits: 13, proportionBps: 6000 }, { hits: 12, proportionBps: 1000 }], [2, 0, 4], 1);
    expect(three.tiers.map((t) => [t.hits, t.prizePerLine, t.capped])).toEqual([
      [10, 25_000, 250_000], // 150,000 a line evenly, capped at the 12-hit line's 25,000
      [13, 0, 0],
      [12, 25_000, 0],
    ]);
    expect(three.rollover).toBe(600_000 + 250_000);
    // A tier with more lines than cents pays 0 a line: the tiers below pay 0 too.
    const dust = planIssue(1_000, [{ hits: 13, proportionBps: 100 }, { hits: 12, proportionBps: 9900 }], [20, 1], 1);
    expect(dust.tiers.map((t) => t.prizePerLine)).toEqual([0, 0]);
    expect(dust.rollover).toBe(1_000);
  });

  it('property: per line, the shared tiers never invert and the pool is exactly paid or rolled over', () => {
    const tiersArb = fc.uniqueArray(fc.integer({ min: 8, max: 13 }), { minLength: 1, maxLength: 6 }).chain((hits) =>
      fc.array(fc.integer({ min: 0, max: Math.floor(10_000 / hits.length) }), { minLength: hits.length, maxLength: hits.length }).map((bps) => hits.map((h, i) => ({ hits: h, proportionBps: bps[i] }))),
    );
    fc.assert(
      fc.property(tiersArb, fc.integer({ min: 0, max: 1e12 }), fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 6, maxLength: 6 }), (tiers, pool, lines) => {
        const p = planIssue(pool, tiers, tiers.map((_, i) => lines[i]), 1);
        expect(p.paid + p.rollover).toBe(pool);
        const won = p.tiers.filter((t) => t.winningLines > 0).sort((a, b) => b.hits - a.hits);
        for (let i = 1; i < won.length; i++) expect(won[i].prizePerLine).toBeLessThanOrEqual(won[i - 1].prizePerLine);
        for (const t of p.tiers) {
          expect(t.paid).toBe(t.prizePerLine * t.winningLines);
          expect(t.capped).toBeGreaterThanOrEqual(0);
          expect(t.rollover).toBe(t.share - t.paid);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fixed: every winning line is paid the share; the house funds the excess', () => {
    const plan = planIssue(POOL, TIERS, [0, 3, 7, 1000], 2);
    expect(plan.tiers.map((t) => [t.prizePerLine, t.paid, t.rollover])).toEqual([
      [600_000, 0, 600_000],
      [200_000, 600_000, 0],
      [120_000, 840_000, 0],
      [80_000, 80_000_000, 0],
    ]);
    expect(plan).toMatchObject({ rollover: 600_000, paid: 81_440_000, houseFunded: 81_040_000 });
    expect(plan.paid + plan.rollover - plan.houseFunded).toBe(POOL);
  });

  it('rolls the unallocated part of the pool over and floors the shares', () => {
    const plan = planIssue(999, [{ hits: 13, proportionBps: 5000 }, { hits: 12, proportionBps: 3333 }], [1, 1], 1);
    expect(plan.tiers.map((t) => t.share)).toEqual([499, 332]); // 499.5 and 332.9667 floored
    expect(plan.unallocated).toBe(999 - 499 - 332);
    expect(plan.rollover).toBe(168);
    expect(plan.paid + plan.rollover).toBe(999);
  });

  it('refuses proportions over 100 %, duplicate tiers, unsafe or fractional amounts', () => {
    expect(() => planIssue(POOL, [{ hits: 13, proportionBps: 6000 }, { hits: 12, proportionBps: 4001 }], [0, 0], 1)).toThrow(RangeError);
    expect(planIssue(POOL, [{ hits: 13, proportionBps: 6000 }, { hits: 12, proportionBps: 4000 }], [0, 0], 1).rollover).toBe(POOL);
    expect(() => planIssue(POOL, [{ hits: 13, proportionBps: 1 }, { hits: 13, proportionBps: 1 }], [0, 0], 1)).toThrow(RangeError);
    expect(() => planIssue(2 ** 53, TIERS, [0, 0, 0, 0], 1)).toThrow(RangeError);
    expect(() => planIssue(10.5, TIERS, [0, 0, 0, 0], 1)).toThrow(RangeError);
    expect(() => planIssue(-1, TIERS, [0, 0, 0, 0], 1)).toThrow(RangeError);
    expect(() => planIssue(POOL, TIERS, [0, 0, 0], 1)).toThrow(RangeError);
    expect(() => planIssue(POOL, TIERS, [0, 0, 0, 1.5], 1)).toThrow(RangeError);
    expect(() => planIssue(Number.MAX_SAFE_INTEGER, TIERS, [0, 0, 0, 10_000], 2)).toThrow(RangeError);
    // exact share of a large pool (no float rounding): floor((2^53 - 1) x 6000 / 10000)
    const big = planIssue(Number.MAX_SAFE_INTEGER, TIERS, [1, 0, 0, 0], 1);
    expect(big.tiers[0].share).toBe(Number((BigInt(Number.MAX_SAFE_INTEGER) * 6000n) / 10000n));
  });
});

describe('ticketPrize', () => {
  const plan = planIssue(1_000_000, TIERS, [0, 3, 7, 1000], 1);
  const counts = [0, 0, 0, 0, 0, 0, 0, 8, 24, 26, 12, 2, 0, 0]; // the worked example

  it('gross from the tiers, tax on net winnings, cap with the remainder withheld', () => {
    // gross = 2 x 17,142 (11 hits) + 12 x 80 (10 hits) = 35,244; stake 72 lines x 100 = 7,200
    // tax = floor((35,244 - 7,200) x 10 %) = 2,804; net 32,440
    expect(ticketPrize(counts, plan, 7_200, 1_000, 0)).toEqual({
      gross: 35_244, tax: 2_804, net: 32_440, credited: 32_440, withheld: 0, bestHits: 11, winningLines: 14,
    });
    expect(ticketPrize(counts, plan, 7_200, 1_000, 30_000)).toMatchObject({ net: 32_440, credited: 30_000, withheld: 2_440 });
    expect(ticketPrize(counts, plan, 7_200, 1_000, 40_000)).toMatchObject({ credited: 32_440, withheld: 0 });
  });

  it('no tax when the prize does not exceed the stake; no prize for hits outside the tiers', () => {
    expect(ticketPrize([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0], plan, 100, 1_000, 0)).toEqual({
      gross: 80, tax: 0, net: 80, credited: 80, withheld: 0, bestHits: 10, winningLines: 1,
    });
    expect(ticketPrize([0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0], plan, 400, 1_000, 0)).toMatchObject({ gross: 0, bestHits: 9, winningLines: 0 });
    expect(() => ticketPrize(counts, plan, 1.5, 1_000, 0)).toThrow(RangeError);
    expect(() => ticketPrize(counts, plan, 100, 10_001, 0)).toThrow(RangeError);
  });

  it('property: the tickets gross add up to the plan paid (shared: never more than the pool)', () => {
    const caseArb = fc.tuple(
      fc.array(ticketArb(JACKPOT_MATCHES).filter((p) => ticketLines(p) <= 200), { minLength: 1, maxLength: 40 }),
      resultsArb(JACKPOT_MATCHES),
      fc.integer({ min: 0, max: 10_000_000 }),
      fc.constantFrom<1 | 2>(1, 2),
    );
    fc.assert(
      fc.property(caseArb, ([tickets, results, pool, rewardType]) => {
        // Lower tiers too, so that random tickets win something.
        const tiers: JackpotTier[] = [
          ...TIERS.slice(0, 3),
          { hits: 10, proportionBps: 500 },
          { hits: 9, proportionBps: 200 },
          { hits: 8, proportionBps: 100 },
        ];
        const all = tickets.map((p) => hitCounts(p, results));
        const winning = tiers.map((t) => all.reduce((s, c) => s + c[t.hits], 0));
        const p = planIssue(pool, tiers, winning, rewardType);
        const gross = all.reduce((s, c, i) => s + ticketPrize(c, p, ticketLines(tickets[i]) * 100, 1_000, 0).gross, 0);
        expect(gross).toBe(p.paid);
        if (rewardType === 1) {
          expect(gross).toBeLessThanOrEqual(pool);
          expect(p.paid + p.rollover).toBe(pool);
        } else {
          expect(p.paid + p.rollover - p.houseFunded).toBe(pool);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('cancelledOutcome', () => {
  const results = (cancelled: number) => [...Array(cancelled).fill(3), ...Array(13 - cancelled).fill(0)];
  it('rule 1 always settles (cancelled counts as won)', () => {
    expect(cancelledOutcome(results(13), 1, 3)).toBe('settle');
  });
  it('rule 2 voids when more than the threshold are cancelled', () => {
    expect(cancelledOutcome(results(3), 2, 3)).toBe('settle');
    expect(cancelledOutcome(results(4), 2, 3)).toBe('void');
    expect(cancelledOutcome(results(1), 2, 0)).toBe('void');
    expect(cancelledOutcome([null, 3, 3, 3], 2, 3)).toBe('settle');
    expect(() => cancelledOutcome(results(0), 3 as 1, 3)).toThrow(RangeError);
  });
});

describe('oddsRose', () => {
  it('flags a price that rose at each of the 5 checks by at least the step in total', () => {
    expect(oddsRose([2.0, 2.1, 2.2, 2.3, 2.5], 0.5)).toBe(true);
    expect(oddsRose([1.15, 1.2, 1.3, 1.4, 1.65], 0.5)).toBe(true); // 0.4999999999999998 in floating point
    expect(oddsRose([2.0, 2.1, 2.2, 2.3, 2.49], 0.5)).toBe(false);
  });
  it('needs a strict rise at every step and at least 5 checks; only the last 5 count', () => {
    expect(oddsRose([2.0, 2.1, 2.1, 2.3, 2.9], 0.5)).toBe(false);
    expect(oddsRose([2.0, 2.6, 2.5, 2.7, 2.9], 0.5)).toBe(false);
    expect(oddsRose([2.0, 2.2, 2.4, 2.9], 0.5)).toBe(false);
    expect(oddsRose([9.0, 1.0, 2.0, 2.2, 2.4, 2.6, 2.9], 0.5)).toBe(true);
    expect(oddsRose([2.0, 2.2, 2.4, 2.6, 2.9, 2.8], 0.5)).toBe(false);
    expect(oddsRose([2.0, 2.2, 2.4], 0.3, 3)).toBe(true);
    expect(() => oddsRose([1, 2], -1)).toThrow(RangeError);
  });
});

describe('riskView', () => {
  /** Per vector, per tier: winning lines by counting each ticket's hits directly. */
  function bruteTable(tickets: number[][], tiers: readonly JackpotTier[], matches: number): number[][] {
    const size = 3 ** matches;
    return tiers.map((t) => {
      const out: number[] = [];
      for (let v = 0; v < size; v++) {
        const res = riskVector(v, matches);
        out.push(tickets.reduce((s, p) => s + hitCounts(p, res)[t.hits], 0));
      }
      return out;
    });
  }

  function check(tickets: number[][], tiers: readonly JackpotTier[], matches: number, pool: number, rewardType: 1 | 2) {
    const flat = Uint8Array.from(tickets.flat());
    const view = riskView(flat, tiers, pool, rewardType, matches);
    const brute = bruteTable(tickets, tiers, matches);
    const size = 3 ** matches;
    expect(view.vectors).toBe(size);
    expect(view.linesSold).toBe(tickets.reduce((s, p) => s + ticketLines(p), 0));
    expect(view.table!.map((t) => Array.from(t))).toEqual(brute);
    expect(view.perTier).toEqual(
      tiers.map((t, k) => ({ hits: t.hits, maxLines: Math.max(0, ...brute[k]), vectorsWithWinner: brute[k].filter((x) => x > 0).length })),
    );
    // top ten by top-tier lines, ties → lower index, only vectors with a top-tier winner
    let topK = 0;
    tiers.forEach((t, k) => { if (t.hits > tiers[topK].hits) topK = k; });
    const share = Math.floor((pool * tiers[topK].proportionBps) / 10_000);
    const order = Array.from({ length: size }, (_, v) => v)
      .filter((v) => brute[topK][v] > 0)
      .sort((a, b) => brute[topK][b] - brute[topK][a] || a - b)
      .slice(0, 10);
    expect(view.top).toEqual(
      order.map((v) => ({
        vector: riskVector(v, matches),
        lines: tiers.map((_, k) => brute[k][v]),
        topPayout: rewardType === 1 ? share : brute[topK][v] * share,
      })),
    );
    // coverage: lines picking each result of each match, by enumerating lines
    const cov = Array.from({ length: matches }, () => ({ home: 0, draw: 0, away: 0 }));
    for (const p of tickets) {
      for (const line of lines(p)) line.forEach((r, i) => { cov[i][(['home', 'draw', 'away'] as const)[r]]++; });
    }
    expect(view.coverage).toEqual(cov);
    return view;
  }

  it('a hand-checked small case: 2 matches, one ticket 1X / 2', () => {
    const view = check([[HX, A]], [{ hits: 2, proportionBps: 5000 }, { hits: 1, proportionBps: 3000 }, { hits: 0, proportionBps: 0 }], 2, 1000, 1);
    // vectors (r0, r1): the lines are (0,2) and (1,2)
    const t = view.table!.map((x) => Array.from(x));
    const idx = (r0: number, r1: number) => r0 + 3 * r1;
    expect(t[0][idx(0, 2)]).toBe(1);
    expect(t[0][idx(2, 2)]).toBe(0);
    expect(t[1][idx(2, 2)]).toBe(2); // both lines hit match 1 only
    expect(t[1][idx(0, 0)]).toBe(1); // (0,2) hits match 0
    expect(t[2][idx(2, 0)]).toBe(2);
    expect(view.top.map((x) => x.vector)).toEqual([[0, 2], [1, 2]]);
    expect(view.coverage).toEqual([{ home: 1, draw: 1, away: 0 }, { home: 0, draw: 0, away: 2 }]);
  });

  it('property: equals per-vector hit counting on 4 matches (random tickets, tiers, reward type)', () => {
    const tiersArb = fc
      .uniqueArray(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 5 })
      .chain((hits) => fc.tuple(fc.constant(hits), fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: hits.length, maxLength: hits.length })))
      .map(([hits, bps]) => hits.map((h, i) => ({ hits: h, proportionBps: bps[i] })));
    fc.assert(
      fc.property(
        fc.array(ticketArb(4), { minLength: 0, maxLength: 25 }),
        tiersArb,
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom<1 | 2>(1, 2),
        (tickets, tiers, pool, rewardType) => {
          check(tickets, tiers, 4, pool, rewardType);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with 13 matches agrees with hitCounts on sample vectors', () => {
    const tickets = [WORKED, Array(13).fill(H), [A, ...Array(12).fill(X)], [HXA, HXA, HXA, ...Array(10).fill(H)]];
    const view = riskView(Uint8Array.from(tickets.flat()), TIERS, 1_000_000, 2);
    expect(view.vectors).toBe(1_594_323);
    expect(view.linesSold).toBe(72 + 1 + 1 + 27);
    const samples = [0, 1, 2, 3, 1_594_322, 797_161, 12_345, 3 ** 12 * 2];
    for (const v of samples) {
      const res = riskVector(v);
      TIERS.forEach((t, k) => {
        expect(view.table![k][v], `vector ${v} tier ${t.hits}`).toBe(tickets.reduce((s, p) => s + hitCounts(p, res)[t.hits], 0));
      });
    }
    // all home: WORKED has 1 line with 13 hits, the all-home single too, the triples ticket 1
    expect(view.table![0][0]).toBe(3);
    expect(view.top[0]).toEqual({ vector: Array(13).fill(0), lines: [3, view.table![1][0], view.table![2][0], view.table![3][0]], topPayout: 3 * 600_000 });
    expect(view.coverage[0]).toEqual({ home: 36 + 1 + 9, draw: 36 + 9, away: 1 + 9 });
  });

  it('refuses invalid masks and a ragged array', () => {
    expect(() => riskView(Uint8Array.from([1, 0, 1, 1]), TIERS.slice(0, 1).map((t) => ({ ...t, hits: 2 })), 0, 1, 2)).toThrow(RangeError);
    expect(() => riskView(Uint8Array.from([1, 2, 4]), [{ hits: 2, proportionBps: 1 }], 0, 1, 2)).toThrow(RangeError);
    expect(() => riskView(Uint8Array.from([1, 2]), [{ hits: 3, proportionBps: 1 }], 0, 1, 2)).toThrow(RangeError);
  });
});
