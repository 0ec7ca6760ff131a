/**
 * The 13-match jackpot ("13 string 1", issue 12): pure rules shared by the server, the console and the
 * benchmarks. Money is in integer cents everywhere; every function refuses (RangeError) an amount that
 * is not a safe integer rather than round it.
 *
 * Readings (docs/architecture.md, "The jackpot"):
 *  - A pick for one match is a bit mask: 1 = home win ("1"), 2 = draw ("X"), 4 = away win ("2"); a
 *    ticket is one mask per match, in the issue's match order. popcount 1 = single, 2 = double,
 *    3 = triple; lines = 2^doubles x 3^triples.
 *  - A match result is 0 = home, 1 = draw, 2 = away, 3 = cancelled / abandoned (every pick hits).
 *  - A line wins the tier whose `hits` equals its exact number of hits.
 */
import { JACKPOT_MATCHES, JACKPOT_ODDS_RISE_CHECKS } from './constants';
import { JACKPOT_RESULT_KIND } from './enums';

export const PICK = { home: 1, draw: 2, away: 4 } as const;
/** Match results (the enumeration jackpot_result): 0 home, 1 draw, 2 away, 3 cancelled. */
export const JACKPOT_RESULT = JACKPOT_RESULT_KIND;

export interface JackpotRules {
  maxDoubles: number;
  maxTriples: number;
  guessNumber: number;
  /** Number of matches of a ticket; default JACKPOT_MATCHES (13). */
  matches?: number;
}

export type TicketCheckCode =
  | 'SELECT_RESULT'
  | 'LIMIT_DOUBLES'
  | 'TRIPLES_NOT_ALLOWED'
  | 'EXCEEDED_MAX_SELECTABLE'
  | 'RESULTS_PER_MATCH_LIMIT'
  | 'JACKPOT_TRIPLES_LIMIT';

export type TicketCheck =
  | { ok: true; lines: number; doubles: number; triples: number; picked: number }
  | { ok: false; code: TicketCheckCode; match?: number };

/** Number of results in a mask (0..3 for masks 0..7). */
const POPCOUNT = [0, 1, 1, 2, 1, 2, 2, 3] as const;

/** popcount of a pick mask, i.e. how many results it chooses. */
export function pickCount(mask: number): number {
  return POPCOUNT[mask & 7];
}

/** True when `mask` is a valid pick: an integer 1..7 (at least one result, only the three results). */
export function isValidPick(mask: unknown): mask is number {
  return typeof mask === 'number' && Number.isInteger(mask) && mask >= 1 && mask <= 7;
}

/** The results (0 home, 1 draw, 2 away) a mask picks, ascending. */
export function pickResults(mask: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < 3; r++) if (mask & (1 << r)) out.push(r);
  return out;
}

function nonNegativeInt(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative safe integer, got ${value}`);
}

/**
 * Validates a ticket's picks against a bet type's limits. Checks, in this order (the first failure
 * answers; `match` is the 0-based index of the match concerned, i.e. position - 1):
 *  1. length other than `rules.matches` (13) → SELECT_RESULT (match = the first missing index when the
 *     ticket is short, absent when it is long);
 *  2. any mask that is not an integer 1..7 (0 = nothing chosen) → SELECT_RESULT with that match;
 *  3. a triple (mask 7) when `rules.maxTriples` is 0 → TRIPLES_NOT_ALLOWED with that match.
 *     Choice: the spec has both "Triples not allowed" and "no more than 2 results for one match unless
 *     the bet type allows triples"; they describe the same refusal, and this function answers the
 *     former. RESULTS_PER_MATCH_LIMIT stays in the code union for the bet slip's wording but is never
 *     returned here: a mask cannot hold more than three results, so no other case fits it;
 *  4. doubles > maxDoubles → LIMIT_DOUBLES (match = the first double over the limit);
 *  5. triples > maxTriples (maxTriples > 0) → JACKPOT_TRIPLES_LIMIT (match = the first triple over);
 *  6. total results picked (sum of popcounts) > guessNumber → EXCEEDED_MAX_SELECTABLE (match = where
 *     the running total first passes it). guessNumber is taken literally: 0 refuses every ticket.
 * Rules must be non-negative integers (RangeError otherwise: a configuration error, not a bettor's).
 */
export function checkTicket(picks: readonly number[], rules: JackpotRules): TicketCheck {
  const matches = rules.matches ?? JACKPOT_MATCHES;
  nonNegativeInt('matches', matches);
  nonNegativeInt('maxDoubles', rules.maxDoubles);
  nonNegativeInt('maxTriples', rules.maxTriples);
  nonNegativeInt('guessNumber', rules.guessNumber);
  if (!Array.isArray(picks) || picks.length !== matches) {
    const short = Array.isArray(picks) && picks.length < matches;
    return short ? { ok: false, code: 'SELECT_RESULT', match: picks.length } : { ok: false, code: 'SELECT_RESULT' };
  }
  for (let i = 0; i < matches; i++) {
    if (!isValidPick(picks[i])) return { ok: false, code: 'SELECT_RESULT', match: i };
  }
  if (rules.maxTriples === 0) {
    for (let i = 0; i < matches; i++) {
      if (POPCOUNT[picks[i]] === 3) return { ok: false, code: 'TRIPLES_NOT_ALLOWED', match: i };
    }
  }
  let doubles = 0;
  let triples = 0;
  let picked = 0;
  let doublesOver = -1;
  let triplesOver = -1;
  let pickedOver = -1;
  for (let i = 0; i < matches; i++) {
    const c = POPCOUNT[picks[i]];
    picked += c;
    if (c === 2 && ++doubles > rules.maxDoubles && doublesOver < 0) doublesOver = i;
    if (c === 3 && ++triples > rules.maxTriples && triplesOver < 0) triplesOver = i;
    if (picked > rules.guessNumber && pickedOver < 0) pickedOver = i;
  }
  if (doublesOver >= 0) return { ok: false, code: 'LIMIT_DOUBLES', match: doublesOver };
  if (triplesOver >= 0) return { ok: false, code: 'JACKPOT_TRIPLES_LIMIT', match: triplesOver };
  if (pickedOver >= 0) return { ok: false, code: 'EXCEEDED_MAX_SELECTABLE', match: pickedOver };
  return { ok: true, lines: 2 ** doubles * 3 ** triples, doubles, triples, picked };
}

/** Lines of a ticket: the product of the popcounts of its masks. Throws RangeError on a mask outside 1..7. */
export function ticketLines(picks: readonly number[]): number {
  let lines = 1;
  for (let i = 0; i < picks.length; i++) {
    if (!isValidPick(picks[i])) throw new RangeError(`Invalid pick at match ${i}: ${picks[i]}`);
    lines *= POPCOUNT[picks[i]];
  }
  return lines;
}

function checkResults(picks: readonly number[], results: readonly (number | null | undefined)[]): void {
  if (picks.length !== results.length) {
    throw new RangeError(`${picks.length} picks but ${results.length} results`);
  }
  for (let i = 0; i < picks.length; i++) {
    if (!isValidPick(picks[i])) throw new RangeError(`Invalid pick at match ${i}: ${picks[i]}`);
    const r = results[i];
    if (r === null || r === undefined) throw new RangeError(`Result of match ${i} is not known yet`);
    if (!Number.isInteger(r) || r < 0 || r > 3) throw new RangeError(`Invalid result at match ${i}: ${r}`);
  }
}

/**
 * counts[k] = lines of the ticket with exactly k hits (k = 0..n, n = number of matches, 13).
 * Computed as the product over matches of (miss + hit x), where hit = how many of the match's picks
 * equal its result (every pick when the result is 3, cancelled) and miss = popcount - hit.
 * A result null/undefined (not known yet) or a length mismatch throws RangeError.
 */
export function hitCounts(picks: readonly number[], results: readonly (number | null)[]): number[] {
  checkResults(picks, results);
  const n = picks.length;
  const counts = new Array<number>(n + 1).fill(0);
  counts[0] = 1;
  let degree = 0;
  for (let i = 0; i < n; i++) {
    const mask = picks[i];
    const r = results[i] as number;
    const total = POPCOUNT[mask];
    const hit = r === 3 ? total : (mask >> r) & 1;
    const miss = total - hit;
    // multiply by (miss + hit x), highest degree first so counts[k-1] is still the old value
    for (let k = degree + 1; k >= 1; k--) counts[k] = counts[k] * miss + counts[k - 1] * hit;
    counts[0] *= miss;
    degree++;
  }
  return counts;
}

/** The same as hitCounts, by enumerating every line of the ticket (for tests and audits). */
export function hitCountsBruteForce(picks: readonly number[], results: readonly (number | null)[]): number[] {
  checkResults(picks, results);
  const n = picks.length;
  const counts = new Array<number>(n + 1).fill(0);
  const options = picks.map(pickResults);
  const at = new Array<number>(n).fill(0); // odometer: which option of each match this line takes
  for (;;) {
    let hits = 0;
    for (let i = 0; i < n; i++) {
      const r = results[i] as number;
      if (r === 3 || options[i][at[i]] === r) hits++;
    }
    counts[hits]++;
    let i = 0;
    while (i < n && ++at[i] === options[i].length) at[i++] = 0;
    if (i === n) break;
  }
  return counts;
}

export interface JackpotTier {
  hits: number;
  proportionBps: number;
}

export interface IssuePlanTier {
  hits: number;
  /** floor(pool x proportion / 10000). */
  share: number;
  winningLines: number;
  prizePerLine: number;
  paid: number;
  rollover: number;
  /**
   * Shared reward type: what the tier's lines did not get because a line may not pay more than a line of
   * a tier with more hits (prize per line capped at that tier's); included in `rollover`. 0 otherwise.
   */
  capped: number;
}

export interface IssuePlan {
  tiers: IssuePlanTier[];
  /**
   * Total not paid out of the pool, carried to the next issue: the pool's part no tier takes
   * (proportions below 100 %) + each tier's rollover (no winner, or the shared rounding dust).
   */
  rollover: number;
  /** The pool the plan was made for. */
  pool: number;
  /** Sum of the tiers' paid. */
  paid: number;
  /** pool - sum of the shares (proportions below 100 %), included in `rollover`. */
  unallocated: number;
  /**
   * What the house pays beyond the pool (fixed reward type only: a tier with L >= 1 winning lines pays
   * L x share from a share of the pool). Always pool = paid + rollover - houseFunded.
   */
  houseFunded: number;
}

function safeProduct(a: number, b: number, what: string): number {
  const p = a * b;
  if (!Number.isSafeInteger(p)) throw new RangeError(`${what} is not a safe integer (${a} x ${b})`);
  return p;
}

/** floor(amount x bps / 10000) exactly (BigInt product), for amount and bps non-negative safe integers. */
export function bpsOf(amount: number, bps: number): number {
  nonNegativeInt('amount', amount);
  nonNegativeInt('bps', bps);
  return Number((BigInt(amount) * BigInt(bps)) / 10000n);
}

function checkTiers(tiers: readonly JackpotTier[]): void {
  let sum = 0;
  const seen = new Set<number>();
  for (const t of tiers) {
    nonNegativeInt('tier hits', t.hits);
    nonNegativeInt('tier proportion', t.proportionBps);
    if (seen.has(t.hits)) throw new RangeError(`Two tiers for ${t.hits} hits`);
    seen.add(t.hits);
    sum += t.proportionBps;
  }
  if (sum > 10_000) throw new RangeError(`Tier proportions add up to ${sum} bps, more than 10000`);
}

/**
 * Settlement plan of an issue (also the preview). For each tier: share = floor(pool x bps / 10000);
 *  - shared (1): prizePerLine = floor(share / lines), but never more than the prize per line of a tier with
 *    more hits that has winners (a 10-hit line never pays more than an 11-hit line: few 10-hit winners
 *    against many 11-hit ones would invert them); paid = prizePerLine x lines, rollover = share - paid
 *    (the whole share when nobody won the tier; the capped part, `capped`, rolls over too);
 *  - fixed (2): prizePerLine = share, paid = share x lines, rollover = share when nobody won, else 0.
 * Tier proportions must add up to at most 10000 bps and tiers' hits be distinct; every amount must be a
 * non-negative safe integer (RangeError otherwise, also when a fixed payout would not be one).
 */
export function planIssue(
  poolCents: number,
  tiers: readonly JackpotTier[],
  winningLinesPerTier: readonly number[],
  rewardType: 1 | 2,
): IssuePlan {
  nonNegativeInt('pool', poolCents);
  checkTiers(tiers);
  if (winningLinesPerTier.length !== tiers.length) {
    throw new RangeError(`${tiers.length} tiers but ${winningLinesPerTier.length} winning-line counts`);
  }
  if (rewardType !== 1 && rewardType !== 2) throw new RangeError(`Unknown reward type ${rewardType}`);
  for (const lines of winningLinesPerTier) nonNegativeInt('winning lines', lines);
  // Shared: the cap of each tier's prize per line, the lowest prize per line of the tiers with more hits
  // that have winners (tiers taken from the most hits down, whatever their order here).
  const caps = new Array<number>(tiers.length).fill(Infinity);
  if (rewardType === 1) {
    let cap = Infinity;
    for (const i of tiers.map((_, k) => k).sort((a, b) => tiers[b].hits - tiers[a].hits)) {
      caps[i] = cap;
      const lines = winningLinesPerTier[i];
      if (lines > 0) cap = Math.min(cap, Math.floor(bpsOf(poolCents, tiers[i].proportionBps) / lines));
    }
  }
  let shares = 0;
  let paidTotal = 0;
  let rollover = 0;
  let houseFunded = 0;
  const out: IssuePlanTier[] = tiers.map((t, i) => {
    const lines = winningLinesPerTier[i];
    const share = bpsOf(poolCents, t.proportionBps);
    let prizePerLine: number;
    let paid: number;
    let tierRollover: number;
    let capped = 0;
    if (rewardType === 1) {
      const even = lines > 0 ? Math.floor(share / lines) : 0;
      prizePerLine = Math.min(even, caps[i]);
      capped = (even - prizePerLine) * lines;
      paid = prizePerLine * lines;
      tierRollover = share - paid;
    } else {
      prizePerLine = share;
      paid = safeProduct(share, lines, 'fixed tier payout');
      tierRollover = lines > 0 ? 0 : share;
      houseFunded += Math.max(0, paid - share);
    }
    shares += share;
    paidTotal += paid;
    rollover += tierRollover;
    return { hits: t.hits, share, winningLines: lines, prizePerLine, paid, rollover: tierRollover, capped };
  });
  const unallocated = poolCents - shares;
  rollover += unallocated;
  if (!Number.isSafeInteger(paidTotal) || !Number.isSafeInteger(houseFunded)) {
    throw new RangeError('Total payout is not a safe integer');
  }
  return { tiers: out, rollover, pool: poolCents, paid: paidTotal, unallocated, houseFunded };
}

export interface TicketPrize {
  gross: number;
  tax: number;
  net: number;
  credited: number;
  withheld: number;
  bestHits: number;
  winningLines: number;
}

/**
 * A ticket's money given the plan: gross = sum over tiers of counts[tier.hits] x prizePerLine;
 * tax = floor(max(0, gross - stake) x taxBps / 10000) (withholding on net winnings, as sports orders);
 * net = gross - tax; credited = min(net, cap) when cap > 0 else net; withheld = net - credited (held for
 * a manual payout). bestHits = the highest k with counts[k] > 0 (0 for an empty counts array);
 * winningLines = the ticket's lines whose hit count is one of the plan's tiers (whatever the prize per
 * line, which may be 0 when a shared tier has more lines than cents).
 */
export function ticketPrize(
  counts: readonly number[],
  plan: IssuePlan,
  stakeCents: number,
  taxBps: number,
  maxAddBalanceCents: number,
): TicketPrize {
  nonNegativeInt('stake', stakeCents);
  nonNegativeInt('tax rate', taxBps);
  nonNegativeInt('max add balance', maxAddBalanceCents);
  if (taxBps > 10_000) throw new RangeError(`Tax rate ${taxBps} bps is above 100 %`);
  for (const c of counts) nonNegativeInt('line count', c);
  let gross = 0;
  let winningLines = 0;
  for (const t of plan.tiers) {
    const lines = counts[t.hits] ?? 0;
    gross += safeProduct(lines, t.prizePerLine, 'ticket prize');
    winningLines += lines;
  }
  if (!Number.isSafeInteger(gross)) throw new RangeError('Ticket gross prize is not a safe integer');
  const tax = bpsOf(Math.max(0, gross - stakeCents), taxBps);
  const net = gross - tax;
  const credited = maxAddBalanceCents > 0 ? Math.min(net, maxAddBalanceCents) : net;
  let bestHits = 0;
  for (let k = counts.length - 1; k >= 0; k--) {
    if (counts[k] > 0) {
      bestHits = k;
      break;
    }
  }
  return { gross, tax, net, credited, withheld: net - credited, bestHits, winningLines };
}

/**
 * Cancelled-match rule: 1 = a cancelled match counts as won for every line → always 'settle';
 * 2 = 'void' (refund every ticket) when MORE than `threshold` matches are cancelled (result 3), else
 * 'settle' (the cancelled ones count as won).
 */
export function cancelledOutcome(results: readonly (number | null)[], rule: 1 | 2, threshold: number): 'settle' | 'void' {
  if (rule !== 1 && rule !== 2) throw new RangeError(`Unknown cancel rule ${rule}`);
  nonNegativeInt('threshold', threshold);
  if (rule === 1) return 'settle';
  let cancelled = 0;
  for (const r of results) if (r === JACKPOT_RESULT.cancelled) cancelled++;
  return cancelled > threshold ? 'void' : 'settle';
}

/**
 * Odds-rise rule: given one outcome's prices at successive checks (oldest first), true when the last
 * `checks` (JACKPOT_ODDS_RISE_CHECKS = 5) prices rise strictly at every step (each check higher than the
 * one before) and the last is at least `step` above the first of them. Fewer than `checks` prices →
 * false. Compared with a tolerance of 1e-9 on the total so 2.00 → 2.50 is a rise of 0.50.
 */
export function oddsRose(prices: readonly number[], step: number, checks: number = JACKPOT_ODDS_RISE_CHECKS): boolean {
  if (!Number.isInteger(checks) || checks < 2) throw new RangeError(`checks must be an integer >= 2, got ${checks}`);
  if (!Number.isFinite(step) || step < 0) throw new RangeError(`step must be a non-negative number, got ${step}`);
  if (prices.length < checks) return false;
  const from = prices.length - checks;
  for (let i = from; i < prices.length; i++) {
    if (!Number.isFinite(prices[i])) return false;
    if (i > from && !(prices[i] > prices[i - 1])) return false;
  }
  return prices[prices.length - 1] - prices[from] >= step - 1e-9;
}

export interface RiskTop {
  /** The outcome vector: result (0 home, 1 draw, 2 away) of each match. */
  vector: number[];
  /** Winning lines of each tier (in the order of `tiers`) under this vector. */
  lines: number[];
  topPayout: number;
}

export interface RiskView {
  vectors: number;
  linesSold: number;
  perTier: { hits: number; maxLines: number; vectorsWithWinner: number }[];
  top: RiskTop[];
  coverage: { home: number; draw: number; away: number }[];
  /** Per tier (order of `tiers`), the winning lines of every vector, index = sum result_i x 3^i. */
  table?: Uint32Array[];
}

/** The outcome vector (results 0..2 per match) of a table index. */
export function riskVector(index: number, matches: number = JACKPOT_MATCHES): number[] {
  const v = new Array<number>(matches);
  for (let i = 0; i < matches; i++) {
    v[i] = index % 3;
    index = (index - v[i]) / 3;
  }
  return v;
}

/**
 * The operator's risk view before kick-off. `picks` holds the sold tickets as a flat array, `matches`
 * masks each. Over all 3^matches outcome vectors (no cancellation), answers per tier the winning lines
 * of each vector (`table`), the largest and the number of vectors with a winner; the ten vectors with
 * the largest top-tier payout (top tier = the tier with the most hits; shared: its share if it has at
 * least one line else 0; fixed: lines x share; ties → more top-tier lines, then the lower index; only
 * vectors where the top tier has a winner); and per match the lines picking each result.
 *
 * Algorithm: each ticket's lines are added into A_0[index] (work = lines sold). Then a per-coordinate
 * Hamming transform: for each match i, for d from D down to 1 (D = matches - lowest tier hits),
 * A_d[v] += sum over the two other values u of coordinate i of A_{d-1}[v with coordinate i = u]. After
 * all coordinates A_d[v] = lines at Hamming distance exactly d from v, i.e. with matches - d hits.
 * Work: 3^matches x matches x D. Lines sold must fit in 32 bits (RangeError otherwise).
 */
export function riskView(
  picks: Uint8Array,
  tiers: readonly JackpotTier[],
  poolCents: number,
  rewardType: 1 | 2,
  matches: number = JACKPOT_MATCHES,
): RiskView {
  if (!Number.isInteger(matches) || matches < 1 || matches > 15) throw new RangeError(`matches must be 1..15, got ${matches}`);
  if (picks.length % matches !== 0) throw new RangeError(`picks length ${picks.length} is not a multiple of ${matches}`);
  nonNegativeInt('pool', poolCents);
  checkTiers(tiers);
  if (rewardType !== 1 && rewardType !== 2) throw new RangeError(`Unknown reward type ${rewardType}`);
  for (const t of tiers) if (t.hits > matches) throw new RangeError(`Tier of ${t.hits} hits with ${matches} matches`);

  const tickets = picks.length / matches;
  const size = 3 ** matches;
  const pow3 = new Int32Array(matches + 1);
  pow3[0] = 1;
  for (let i = 1; i <= matches; i++) pow3[i] = pow3[i - 1] * 3;

  // Validate, count lines, coverage.
  const coverage = new Float64Array(matches * 3);
  let linesSold = 0;
  let maxTicketLines = 1;
  for (let t = 0, o = 0; t < tickets; t++, o += matches) {
    let lines = 1;
    for (let i = 0; i < matches; i++) {
      const m = picks[o + i];
      if (m < 1 || m > 7) throw new RangeError(`Invalid pick at ticket ${t}, match ${i}: ${m}`);
      lines *= POPCOUNT[m];
    }
    linesSold += lines;
    if (lines > maxTicketLines) maxTicketLines = lines;
    for (let i = 0; i < matches; i++) {
      const m = picks[o + i];
      const each = lines / POPCOUNT[m];
      if (m & 1) coverage[i * 3] += each;
      if (m & 2) coverage[i * 3 + 1] += each;
      if (m & 4) coverage[i * 3 + 2] += each;
    }
  }
  if (linesSold > 0xffffffff) throw new RangeError(`${linesSold} lines do not fit the risk table`);

  let minHits = matches;
  for (const t of tiers) if (t.hits < minHits) minHits = t.hits;
  const D = tiers.length > 0 ? matches - minHits : 0;
  const A: Uint32Array[] = [];
  for (let d = 0; d <= D; d++) A.push(new Uint32Array(size));

  // A_0: every line of every ticket. Singles add a constant; doubles/triples expand in place.
  const A0 = A[0];
  const buf = new Int32Array(maxTicketLines);
  for (let t = 0, o = 0; t < tickets; t++, o += matches) {
    let base = 0;
    let n = 1;
    buf[0] = 0;
    for (let i = 0; i < matches; i++) {
      const m = picks[o + i];
      const p = pow3[i];
      switch (m) {
        case 1: break;
        case 2: base += p; break;
        case 4: base += 2 * p; break;
        case 3: // home or draw
          for (let j = n - 1; j >= 0; j--) { const x = buf[j]; buf[2 * j] = x; buf[2 * j + 1] = x + p; }
          n *= 2;
          break;
        case 5: // home or away
          for (let j = n - 1; j >= 0; j--) { const x = buf[j]; buf[2 * j] = x; buf[2 * j + 1] = x + 2 * p; }
          n *= 2;
          break;
        case 6: // draw or away
          for (let j = n - 1; j >= 0; j--) { const x = buf[j] + p; buf[2 * j] = x; buf[2 * j + 1] = x + p; }
          n *= 2;
          break;
        default: // 7: all three
          for (let j = n - 1; j >= 0; j--) { const x = buf[j]; buf[3 * j] = x; buf[3 * j + 1] = x + p; buf[3 * j + 2] = x + 2 * p; }
          n *= 3;
      }
    }
    for (let j = 0; j < n; j++) A0[base + buf[j]]++;
  }

  // Hamming transform, one coordinate at a time; d high to low so A_{d-1} is still the old one.
  for (let i = 0; i < matches; i++) {
    const s = pow3[i];
    const block = 3 * s;
    for (let d = D; d >= 1; d--) {
      const X = A[d - 1];
      const Y = A[d];
      for (let b0 = 0; b0 < size; b0 += block) {
        const end = b0 + s;
        for (let a = b0; a < end; a++) {
          const b = a + s;
          const c = b + s;
          const xa = X[a], xb = X[b], xc = X[c];
          Y[a] += xb + xc;
          Y[b] += xa + xc;
          Y[c] += xa + xb;
        }
      }
    }
  }

  const table = tiers.map((t) => A[matches - t.hits]);
  const perTier = tiers.map((t, k) => {
    const T = table[k];
    let maxLines = 0;
    let withWinner = 0;
    for (let v = 0; v < size; v++) {
      const x = T[v];
      if (x > 0) {
        withWinner++;
        if (x > maxLines) maxLines = x;
      }
    }
    return { hits: t.hits, maxLines, vectorsWithWinner: withWinner };
  });

  // Top ten by top-tier lines (= by payout, see above), ties → lower index.
  const top: RiskTop[] = [];
  if (tiers.length > 0) {
    let topK = 0;
    for (let k = 1; k < tiers.length; k++) if (tiers[k].hits > tiers[topK].hits) topK = k;
    const share = bpsOf(poolCents, tiers[topK].proportionBps);
    const T = table[topK];
    const LIMIT = 10;
    const bestIdx: number[] = [];
    const bestVal: number[] = [];
    for (let v = 0; v < size; v++) {
      const x = T[v];
      if (x === 0 || (bestVal.length === LIMIT && x <= bestVal[LIMIT - 1])) continue;
      let pos = bestVal.length;
      while (pos > 0 && bestVal[pos - 1] < x) pos--; // equal values keep the earlier (lower) index first
      bestVal.splice(pos, 0, x);
      bestIdx.splice(pos, 0, v);
      if (bestVal.length > LIMIT) {
        bestVal.pop();
        bestIdx.pop();
      }
    }
    for (let j = 0; j < bestIdx.length; j++) {
      const v = bestIdx[j];
      const lines = table.map((T2) => T2[v]);
      const topPayout = rewardType === 1 ? share : safeProduct(bestVal[j], share, 'top-tier payout');
      top.push({ vector: riskVector(v, matches), lines, topPayout });
    }
  }

  const cov = Array.from({ length: matches }, (_, i) => ({
    home: coverage[i * 3],
    draw: coverage[i * 3 + 1],
    away: coverage[i * 3 + 2],
  }));
  return { vectors: size, linesSold, perTier, top, coverage: cov, table };
}
