/**
 * Casino (issue 13): the game math of the sandbox game provider and the RTP band of the RTP watch. Pure:
 * no I/O, no clock, no global randomness; a round draws from the `rng` it is given (a function answering
 * a uniform number in [0, 1), such as the simulator's seeded mulberry32), so a seed replays a session.
 *
 * Readings:
 *  - RTP (return to player) is payouts / stakes, in basis points (9600 = 96 %). A round's payout is
 *    `multiplier` x its stake; a game's theoretical RTP is the expected multiplier.
 *  - Volatility (enumeration casino_volatility: 1 low, 2 medium, 3 high) is the spread of one round's
 *    payout. The RTP band assumes a per-round payout standard deviation of PAYOUT_SD[volatility] times
 *    the stake: low 1.5, medium 4, high 10. Every game of `playRound` stays at or below that figure for
 *    any RTP up to 100 % (tested exactly from `roundDistribution`), so the band is never too narrow for
 *    them; a real provider's game declared with a volatility is held to the same figure.
 *  - Roulette's expected value is rtpBps x (36/37) / 0.973, i.e. 0.003 % below the configured figure
 *    (0.27 bps at 9730), so that 9730 pays the real European table.
 */
import { CASINO_GAME_KIND, CASINO_VOLATILITY } from './enums';

export type CasinoGameKind = keyof typeof CASINO_GAME_KIND;
export type Volatility = (typeof CASINO_VOLATILITY)[keyof typeof CASINO_VOLATILITY];
/** A uniform random number in [0, 1). */
export type CasinoRng = () => number;

export const CASINO_GAME_KINDS: readonly CasinoGameKind[] = ['slot', 'crash', 'roulette'];

/** Per-round payout standard deviation, in stakes, by volatility (1 low, 2 medium, 3 high). */
export const PAYOUT_SD: Readonly<Record<Volatility, number>> = { 1: 1.5, 2: 4, 3: 10 };

/** European roulette's own RTP: 36/37 = 97.30 %. */
export const ROULETTE_RTP_BPS = 9730;

// ------------------------------------------------------------------------------------------------
// Input checks

function checkRtp(rtpBps: unknown): asserts rtpBps is number {
  if (typeof rtpBps !== 'number' || !Number.isInteger(rtpBps) || rtpBps < 1 || rtpBps > 10_000) {
    throw new RangeError(`rtpBps must be an integer in 1..10000 (got ${String(rtpBps)})`);
  }
}

function checkVolatility(v: unknown): asserts v is Volatility {
  if (v !== 1 && v !== 2 && v !== 3) throw new RangeError(`volatility must be 1, 2 or 3 (got ${String(v)})`);
}

function checkKind(kind: unknown): asserts kind is CasinoGameKind {
  if (!CASINO_GAME_KINDS.includes(kind as CasinoGameKind)) throw new RangeError(`kind must be slot, crash or roulette (got ${String(kind)})`);
}

function draw(rng: CasinoRng): number {
  const u = rng();
  if (typeof u !== 'number' || !(u >= 0 && u < 1)) throw new RangeError(`rng must answer a number in [0, 1) (got ${String(u)})`);
  return u;
}

// ------------------------------------------------------------------------------------------------
// The games

/**
 * Slot pay tables by volatility: [weight, multiplier] over 10,000 stops of a virtual reel. The
 * multipliers are scaled by rtp / (the table's own expected multiplier), so the expected multiplier is
 * exactly the game's RTP. At 100 % RTP the standard deviations are 1.46 (low), 3.77 (medium) and 9.38
 * (high) stakes; at a lower RTP they shrink in proportion.
 */
export const SLOT_TABLES: Readonly<Record<Volatility, readonly (readonly [weight: number, multiplier: number])[]>> = {
  1: [[4500, 0], [1500, 0.5], [1700, 1], [1200, 1.5], [600, 2], [300, 3], [160, 5], [40, 10]],
  2: [[6300, 0], [1200, 0.5], [1000, 1], [700, 2], [460, 4], [250, 8], [65, 20], [22, 50], [3, 100]],
  3: [[7500, 0], [900, 0.5], [700, 1], [450, 3], [250, 6], [120, 15], [60, 40], [15, 100], [4, 250], [1, 800]],
};
const SLOT_STOPS = 10_000;
const slotBase = (v: Volatility) => SLOT_TABLES[v].reduce((s, [w, m]) => s + (w / SLOT_STOPS) * m, 0);

/**
 * Crash cash-out targets by volatility: the bettor's auto cash-out is one of them, chosen evenly. The
 * multiplier rises from 1 and crashes at X with P(X >= x) = rtp / x (x >= rtp): a target t is reached
 * with probability rtp / t and pays t, so every target returns exactly the RTP, with a standard
 * deviation of sqrt(rtp t - rtp^2) <= sqrt(t - 1): at most 1.41 (low), 3.74 (medium), 9.95 (high).
 */
export const CRASH_TARGETS: Readonly<Record<Volatility, readonly number[]>> = { 1: [1.5, 2, 3], 2: [5, 10, 15], 3: [25, 50, 100] };

/** Roulette bets by volatility: low = a colour (18 pockets, pays 2), medium = a street (3, pays 12), high = a number (1, pays 36). */
export const ROULETTE_BETS: Readonly<Record<Volatility, { name: 'colour' | 'street' | 'number'; pockets: number; pays: number }>> = {
  1: { name: 'colour', pockets: 18, pays: 2 },
  2: { name: 'street', pockets: 3, pays: 12 },
  3: { name: 'number', pockets: 1, pays: 36 },
};
const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
/**
 * Roulette payouts are scaled by rtpBps / 9730: a game configured at 97.30 % (the usual configuration)
 * pays the European table exactly (expected value 36/37 = 97.297 %, 0.27 bps under the rounded figure);
 * another configured RTP pays the table in proportion.
 */
const rouletteScale = (rtpBps: number) => rtpBps / ROULETTE_RTP_BPS;

export type RoundDetail =
  | { kind: 'slot'; stop: number; line: number }
  | { kind: 'crash'; target: number; crashPoint: number }
  | { kind: 'roulette'; bet: 'colour' | 'street' | 'number'; pick: number | 'red' | 'black'; pocket: number };

export interface RoundOutcome {
  /** Payout / stake (0 = lost). Its expected value over rounds is rtpBps / 10,000. */
  multiplier: number;
  detail: RoundDetail;
}

/**
 * Plays one round of a game: `kind` slot, crash or roulette at `rtpBps` and `volatility`, drawing from
 * `rng`. Answers the multiplier (payout = floor(stake x multiplier) cents) and what happened.
 * Bad input (unknown kind, RTP outside 1..10000, volatility not 1/2/3, an rng answer outside [0, 1))
 * throws a RangeError.
 */
export function playRound(kind: CasinoGameKind, rtpBps: number, volatility: Volatility, rng: CasinoRng): RoundOutcome {
  checkKind(kind);
  checkRtp(rtpBps);
  checkVolatility(volatility);
  const r = rtpBps / 10_000;
  if (kind === 'slot') {
    const stop = Math.floor(draw(rng) * SLOT_STOPS);
    const table = SLOT_TABLES[volatility];
    let acc = 0;
    for (let line = 0; line < table.length; line++) {
      acc += table[line][0];
      if (stop < acc) return { multiplier: (table[line][1] * r) / slotBase(volatility), detail: { kind, stop, line } };
    }
    throw new RangeError('slot table does not cover its stops'); // unreachable: the weights add up to SLOT_STOPS
  }
  if (kind === 'crash') {
    const targets = CRASH_TARGETS[volatility];
    const target = targets[Math.floor(draw(rng) * targets.length)];
    const u = 1 - draw(rng); // (0, 1]
    // Reached iff rtp / u >= target, i.e. with probability rtp / target. Shown to the hundredth, floored,
    // which keeps "shown >= target" equivalent to "reached" (targets are whole hundredths).
    const crashPoint = Math.min(1_000_000, Math.max(1, Math.floor((100 * r) / u) / 100));
    return { multiplier: r / u >= target ? target : 0, detail: { kind, target, crashPoint } };
  }
  const bet = ROULETTE_BETS[volatility];
  const pocket = Math.floor(draw(rng) * 37);
  const choice = draw(rng);
  let won: boolean;
  let pick: number | 'red' | 'black';
  if (bet.name === 'colour') {
    pick = choice < 0.5 ? 'red' : 'black';
    won = pocket !== 0 && RED.has(pocket) === (pick === 'red');
  } else if (bet.name === 'street') {
    pick = 1 + 3 * Math.floor(choice * 12); // first number of the street: 1, 4, ..., 34
    won = pocket >= pick && pocket < pick + 3;
  } else {
    pick = 1 + Math.floor(choice * 36);
    won = pocket === pick;
  }
  return { multiplier: won ? bet.pays * rouletteScale(rtpBps) : 0, detail: { kind, bet: bet.name, pick, pocket } };
}

/**
 * The exact distribution of one round's multiplier (probabilities adding to 1), the same as `playRound`
 * draws from: for the tests (expected value = RTP, spread within PAYOUT_SD) and for a provider's
 * documentation.
 */
export function roundDistribution(kind: CasinoGameKind, rtpBps: number, volatility: Volatility): { p: number; multiplier: number }[] {
  checkKind(kind);
  checkRtp(rtpBps);
  checkVolatility(volatility);
  const r = rtpBps / 10_000;
  if (kind === 'slot') return SLOT_TABLES[volatility].map(([w, m]) => ({ p: w / SLOT_STOPS, multiplier: (m * r) / slotBase(volatility) }));
  if (kind === 'crash') {
    const targets = CRASH_TARGETS[volatility];
    return targets.flatMap((t) => [
      { p: r / t / targets.length, multiplier: t },
      { p: (1 - r / t) / targets.length, multiplier: 0 },
    ]);
  }
  const bet = ROULETTE_BETS[volatility];
  return [
    { p: bet.pockets / 37, multiplier: bet.pays * rouletteScale(rtpBps) },
    { p: 1 - bet.pockets / 37, multiplier: 0 },
  ];
}

/** Mean and standard deviation of a distribution of multipliers. */
export function distributionMoments(d: readonly { p: number; multiplier: number }[]): { mean: number; sd: number } {
  const mean = d.reduce((s, x) => s + x.p * x.multiplier, 0);
  const second = d.reduce((s, x) => s + x.p * x.multiplier * x.multiplier, 0);
  return { mean, sd: Math.sqrt(Math.max(0, second - mean * mean)) };
}

// ------------------------------------------------------------------------------------------------
// The RTP band

/**
 * The standard normal quantile Φ⁻¹(p) for 0 < p < 1 (Acklam's rational approximation, relative error
 * below 1.2e-9).
 */
export function normalQuantile(p: number): number {
  if (typeof p !== 'number' || !(p > 0 && p < 1)) throw new RangeError(`p must be in (0, 1) (got ${String(p)})`);
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/** Two-sided z for a confidence in basis points: 9990 (99.9 %) → 3.2905, 9500 → 1.96. */
export function confidenceZ(confidenceBps: number): number {
  if (typeof confidenceBps !== 'number' || !Number.isInteger(confidenceBps) || confidenceBps < 1 || confidenceBps > 9_999) {
    throw new RangeError(`confidenceBps must be an integer in 1..9999 (got ${String(confidenceBps)})`);
  }
  return normalQuantile(1 - (1 - confidenceBps / 10_000) / 2);
}

export interface RtpBandInput {
  /** Theoretical RTP of the game, basis points (1..10000). */
  rtpBps: number;
  /** 1 low, 2 medium, 3 high: the per-round standard deviation PAYOUT_SD (1.5, 4, 10 stakes). */
  volatility: Volatility;
  /** Rounds played (a positive integer). */
  rounds: number;
  /** Two-sided confidence, basis points (9990 = 99.9 %). */
  confidenceBps: number;
  /** Mean stake per round (cents). Alone it changes nothing: the band of a ratio does not depend on the stake's size. */
  turnoverPerRound?: number;
  /**
   * Mean of the squared stakes per round (cents²), with `turnoverPerRound`: unequal stakes make fewer
   * effective rounds, n x mean² / mean of squares (Kish), so the band widens. Must be >= turnoverPerRound².
   */
  stakeSquaresPerRound?: number;
}

export interface RtpBand {
  /** Lowest actual RTP inside the band, basis points (floored; never below 0). */
  lowBps: number;
  /** Highest actual RTP inside the band, basis points (ceiled). */
  highBps: number;
  /** The z used and the standard deviation of the actual RTP, in basis points. */
  z: number;
  sdBps: number;
  effectiveRounds: number;
}

/**
 * The band the actual RTP (payouts / turnover) of `rounds` rounds lies in with probability
 * `confidenceBps`, by the normal approximation of the mean of n rounds' multipliers:
 * rtp ± z · PAYOUT_SD[volatility] / √n_eff, z the two-sided normal quantile of the confidence
 * (99.9 % → 3.29), n_eff = rounds (equal stakes) or rounds × mean(stake)² / mean(stake²).
 * The band narrows as 1/√n. Bad input throws a RangeError.
 */
export function rtpBand(input: RtpBandInput): RtpBand {
  const { rtpBps, volatility, rounds, confidenceBps, turnoverPerRound, stakeSquaresPerRound } = input;
  checkRtp(rtpBps);
  checkVolatility(volatility);
  if (typeof rounds !== 'number' || !Number.isSafeInteger(rounds) || rounds < 1) throw new RangeError(`rounds must be a positive integer (got ${String(rounds)})`);
  const z = confidenceZ(confidenceBps);
  let n = rounds;
  if (turnoverPerRound !== undefined && (typeof turnoverPerRound !== 'number' || !Number.isFinite(turnoverPerRound) || turnoverPerRound <= 0)) {
    throw new RangeError(`turnoverPerRound must be a positive number (got ${String(turnoverPerRound)})`);
  }
  if (stakeSquaresPerRound !== undefined) {
    if (turnoverPerRound === undefined) throw new RangeError('stakeSquaresPerRound needs turnoverPerRound');
    if (typeof stakeSquaresPerRound !== 'number' || !Number.isFinite(stakeSquaresPerRound) || stakeSquaresPerRound < turnoverPerRound * turnoverPerRound * (1 - 1e-9)) {
      throw new RangeError('stakeSquaresPerRound must be at least turnoverPerRound²');
    }
    n = Math.min(rounds, (rounds * turnoverPerRound * turnoverPerRound) / stakeSquaresPerRound);
  }
  const sdBps = (PAYOUT_SD[volatility] * 10_000) / Math.sqrt(n);
  return {
    lowBps: Math.max(0, Math.floor(rtpBps - z * sdBps)),
    highBps: Math.ceil(rtpBps + z * sdBps),
    z,
    sdBps,
    effectiveRounds: n,
  };
}
