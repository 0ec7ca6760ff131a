import { and, eq, inArray, sql } from 'drizzle-orm';
import { MATCH_STATUS, ORDER_STATUS, OUTCOME_STATUS } from '@dau/domain';
import { orderLines, orders } from '../betting/index.js';
import { feedEvents } from '../feed/index.js';
import { scopeCondition, type Scope } from '../../platform/listing.js';
import type { Executor } from '../../platform/db.js';

/**
 * Live exposure (issue 29, the landing page): per live and upcoming match, market and outcome, what the
 * open orders of the admin's scope pay if that outcome wins.
 *
 * - Open: the order is pending (ORDER_STATUS.pending, as the open book counts it) and its line on the
 *   outcome is undecided (OUTCOME_STATUS.pending): settled, cashed-out and cancelled orders are out, and so
 *   is a market already settled inside a live match.
 * - Live: the match is in progress or paused; upcoming: not started (the back office's match status, so a
 *   match the operator cancelled is neither). Matches moved to the archive are over.
 * - Per outcome: the open orders holding it, their stakes and `payout`, the sum of their potential payouts
 *   (stake x odds, as placed): what the book pays if that outcome wins.
 * - Accumulators count conservatively: an accumulator's whole potential payout is counted on each of its
 *   legs' outcomes, as if its other legs had already won, and its stake on each leg's market. So an
 *   outcome's payout is an upper bound of what its winning can cost (`accumulators` says how many of the
 *   orders are accumulators); it is exact for singles.
 * - Per market: `stakes` = the open stakes taken on the market (all its outcomes), the worst outcome = the
 *   one with the largest payout, and `net_loss` = worst payout - stakes: what the book loses on the market
 *   if that outcome wins (negative: the book wins whatever happens). Markets are sorted by it, worst first.
 *
 * Three reads: the live and upcoming matches (a few hundred rows), one aggregate statement over the
 * undecided lines of those matches joined with the open orders (the partial indexes of migration 0045
 * hold only those, so it reads what is open, never the settled history; bench/exposure.ts times it on
 * 10M orders), and the names of the selections of the markets shown. Nothing is cached: every call
 * answers the orders committed so far (the console refetches on the orders push, throttled).
 */

export type ExposureState = 'live' | 'upcoming' | 'all';

export const LIVE_STATUSES: number[] = [MATCH_STATUS.in_progress, MATCH_STATUS.paused];
const UPCOMING_STATUSES: number[] = [MATCH_STATUS.not_started];

export interface ExposureOutcome {
  outcome_id: string;
  selection_name: string;
  orders: number;
  accumulators: number;
  stake: number;
  payout: number;
  /** What the book loses on the market if this outcome wins: payout - the market's stakes. */
  net: number;
  worst: boolean;
}

export interface ExposureMarket {
  event_id: string;
  sport_id: number;
  league_name: string;
  home_team: string;
  away_team: string;
  start_time: string;
  match_status: number;
  live: boolean;
  market_key: string;
  market_name: string;
  orders: number;
  stakes: number;
  worst_outcome_id: string;
  worst_payout: number;
  net_loss: number;
  outcomes: ExposureOutcome[];
}

export interface Exposure {
  generated_at: string;
  /** Markets with open orders (before the limit), and matches. */
  markets: number;
  matches: number;
  items: ExposureMarket[];
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
/** Outcome ids in their natural order ('2' before '10'). */
const byId = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** The live and/or upcoming matches (the feed's current matches; the archive holds only matches that are over). */
function matchesIn(ex: Executor, state: ExposureState) {
  const statuses = state === 'live' ? LIVE_STATUSES : state === 'upcoming' ? UPCOMING_STATUSES : [...LIVE_STATUSES, ...UPCOMING_STATUSES];
  const e = feedEvents;
  return ex
    .select({
      eventId: e.eventId, sportId: e.sportId, leagueName: e.leagueName, homeTeam: e.homeTeam, awayTeam: e.awayTeam, startTime: e.startTime, matchStatus: e.matchStatus,
    })
    .from(e)
    .where(inArray(e.matchStatus, statuses));
}

/**
 * The open selections of the scope's orders on some matches, one row per outcome: the aggregate. It reads
 * the two partial indexes of migration 0045 only (index-only scans: the undecided lines of the matches,
 * hash-joined with the open orders), nothing of the settled history.
 */
export function exposureRows(ex: Executor, scope: Scope, eventIds: string[]) {
  const l = orderLines;
  const o = orders;
  return ex
    .select({
      eventId: l.eventId,
      marketKey: l.marketKey,
      outcomeId: l.outcomeId,
      orders: sql<string>`count(*)`,
      accumulators: sql<string>`count(*) filter (where ${o.legCount} > 1)`,
      stake: sql<string>`sum(${o.stake})::bigint`,
      payout: sql<string>`sum(${o.potentialPayout})::bigint`,
    })
    .from(l)
    .innerJoin(o, eq(o.id, l.orderId))
    .where(and(inArray(l.eventId, eventIds), eq(l.outcomeStatus, OUTCOME_STATUS.pending), eq(o.status, ORDER_STATUS.pending), scopeCondition(scope, o.agentId)))
    .groupBy(l.eventId, l.marketKey, l.outcomeId);
}

/** Market and selection names as the bettors saw them (one line of each selection): only for the markets shown. */
async function namesOf(ex: Executor, selections: { eventId: string; marketKey: string; outcomeId: string }[]) {
  const out = new Map<string, { marketName: string; selectionName: string }>();
  if (!selections.length) return out;
  const l = orderLines;
  const rows = await ex
    .selectDistinctOn([l.eventId, l.marketKey, l.outcomeId], { eventId: l.eventId, marketKey: l.marketKey, outcomeId: l.outcomeId, marketName: l.marketName, selectionName: l.selectionName })
    .from(l)
    .where(
      and(
        inArray(l.eventId, [...new Set(selections.map((s) => s.eventId))]),
        eq(l.outcomeStatus, OUTCOME_STATUS.pending),
        sql`(${l.eventId}, ${l.marketKey}, ${l.outcomeId}) in (${sql.join(selections.map((s) => sql`(${s.eventId}, ${s.marketKey}, ${s.outcomeId})`), sql`, `)})`,
      ),
    )
    .orderBy(l.eventId, l.marketKey, l.outcomeId);
  for (const r of rows) out.set(`${r.eventId}\u0000${r.marketKey}\u0000${r.outcomeId}`, r);
  return out;
}

/** Exposure per market (see the file comment), riskiest first, at most `limit` markets. */
export async function computeExposure(ex: Executor, scope: Scope, opts: { state: ExposureState; limit: number; now?: Date }): Promise<Exposure> {
  const generated_at = (opts.now ?? new Date()).toISOString();
  const matches = await matchesIn(ex, opts.state);
  if (!matches.length) return { generated_at, markets: 0, matches: 0, items: [] };
  const rows = await exposureRows(ex, scope, matches.map((m) => m.eventId));
  type Acc = Omit<ExposureMarket, 'sport_id' | 'league_name' | 'home_team' | 'away_team' | 'start_time' | 'match_status' | 'live'>;
  const markets = new Map<string, Acc>();
  for (const r of rows) {
    const key = `${r.eventId}\u0000${r.marketKey}`;
    let m = markets.get(key);
    if (!m) {
      m = { event_id: r.eventId, market_key: r.marketKey, market_name: '', orders: 0, stakes: 0, worst_outcome_id: '', worst_payout: -1, net_loss: 0, outcomes: [] };
      markets.set(key, m);
    }
    const o: ExposureOutcome = {
      outcome_id: r.outcomeId, selection_name: '', orders: num(r.orders), accumulators: num(r.accumulators), stake: num(r.stake), payout: num(r.payout), net: 0, worst: false,
    };
    m.outcomes.push(o);
    m.orders += o.orders;
    m.stakes += o.stake;
    // Ties go to the first outcome in id order, so the answer is the same on every call.
    if (o.payout > m.worst_payout || (o.payout === m.worst_payout && byId(o.outcome_id, m.worst_outcome_id) < 0)) {
      m.worst_payout = o.payout;
      m.worst_outcome_id = o.outcome_id;
    }
  }
  const sorted = [...markets.values()].sort(
    (a, b) => b.worst_payout - b.stakes - (a.worst_payout - a.stakes) || b.worst_payout - a.worst_payout || a.event_id.localeCompare(b.event_id) || a.market_key.localeCompare(b.market_key),
  );
  const shown = sorted.slice(0, opts.limit);
  const names = await namesOf(ex, shown.flatMap((m) => m.outcomes.map((o) => ({ eventId: m.event_id, marketKey: m.market_key, outcomeId: o.outcome_id }))));
  const events = new Map(matches.map((e) => [e.eventId, e]));
  return {
    generated_at,
    markets: markets.size,
    matches: new Set(sorted.map((m) => m.event_id)).size,
    items: shown.map((m) => {
      const e = events.get(m.event_id)!;
      m.net_loss = m.worst_payout - m.stakes;
      m.outcomes.sort((a, b) => byId(a.outcome_id, b.outcome_id));
      for (const o of m.outcomes) {
        const n = names.get(`${m.event_id}\u0000${m.market_key}\u0000${o.outcome_id}`);
        if (n) {
          m.market_name ||= n.marketName;
          o.selection_name = n.selectionName;
        }
        o.net = o.payout - m.stakes;
        o.worst = o.outcome_id === m.worst_outcome_id;
      }
      return {
        ...m,
        sport_id: e.sportId,
        league_name: e.leagueName,
        home_team: e.homeTeam,
        away_team: e.awayTeam,
        start_time: e.startTime.toISOString(),
        match_status: e.matchStatus,
        live: LIVE_STATUSES.includes(e.matchStatus),
      };
    }),
  };
}
