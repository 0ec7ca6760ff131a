import { and, inArray, sql } from 'drizzle-orm';
import { MATCH_STATUS } from '@dau/domain';
import { selectionExposure } from '../betting/index.js';
import { feedEvents, marketName, selectionName } from '../feed/index.js';
import { scopeCondition, type Scope } from '../../platform/listing.js';
import type { Executor } from '../../platform/db.js';

/**
 * Live exposure (issue 29, the landing page): per live and upcoming match, market and outcome, what the
 * open orders of the admin's scope pay if that outcome wins.
 *
 * It reads `selection_exposure`, the aggregate per selection and agent that placement, settlement,
 * cashout and cancel keep by deltas in their own transactions (betting/stats.ts, settlement.ts: the one
 * the match statistics read), never the orders:
 * - `payout` of an outcome = its `liability`: the potential payouts (stake x odds as placed) of the open
 *   orders holding it. An order leaves it when it is decided (settled, cashed out, cancelled or voided).
 * - Accumulators count conservatively: an accumulator's whole potential payout is counted on each of its
 *   legs' outcomes, as if its other legs had already won, and its stake on each leg's market. So an
 *   outcome's payout is an upper bound of what its winning can cost; it is exact for singles. An
 *   accumulator whose leg on a match was settled while the order is still open keeps counting on that
 *   leg's outcome until the order is decided.
 * - `stake` = the stakes of the open orders holding it (stake taken - stake settled); `orders` = the
 *   orders (legs) ever placed on it, decided ones included: the aggregate keeps no count of the open ones.
 * - Live: the match is in progress or paused; upcoming: not started (the back office's match status, so a
 *   match the operator cancelled is neither). Matches moved to the archive are over.
 * - Per market: `stakes` = the open stakes taken on the market (all its outcomes), the worst outcome = the
 *   one with the largest payout, and `net_loss` = worst payout - stakes: what the book loses on the market
 *   if that outcome wins (negative: the book wins whatever happens). Markets are sorted by it, worst first.
 *
 * Why not sum the open orders' lines each time: on the benchmark's book (10M orders, 300,000 of them open
 * on 400 live and upcoming matches, 577,000 open lines) that aggregate took seconds even on partial
 * indexes of only the open rows (bench/exposure.ts), and the table is refetched whenever orders arrive.
 * This reads one row per selection and agent of the matches (the primary key's range per match).
 * Names: the feed's (descriptions, or the sandbox's ids), as placement names a line; the console names
 * the markets it knows in the operator's language.
 */

import type { Exposure, ExposureMarket, ExposureOutcome, ExposureState } from '@dau/contract';
export type { Exposure, ExposureMarket, ExposureOutcome, ExposureState };

export const LIVE_STATUSES: number[] = [MATCH_STATUS.in_progress, MATCH_STATUS.paused];
const UPCOMING_STATUSES: number[] = [MATCH_STATUS.not_started];

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

/** Per outcome of some matches, summed over the agents of the scope: what is still open on it. */
export function exposureRows(ex: Executor, scope: Scope, eventIds: string[]) {
  const sx = selectionExposure;
  return ex
    .select({
      eventId: sx.eventId,
      marketKey: sx.marketKey,
      outcomeId: sx.outcomeId,
      orders: sql<string>`sum(${sx.orders})`,
      stake: sql<string>`sum(${sx.stake} - ${sx.settledStake})`,
      payout: sql<string>`sum(${sx.liability})`,
    })
    .from(sx)
    .where(and(inArray(sx.eventId, eventIds), scopeCondition(scope, sx.agentId)))
    .groupBy(sx.eventId, sx.marketKey, sx.outcomeId)
    .having(sql`sum(${sx.liability}) <> 0 or sum(${sx.stake} - ${sx.settledStake}) <> 0`);
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
    const o: ExposureOutcome = { outcome_id: r.outcomeId, selection_name: '', orders: num(r.orders), stake: num(r.stake), payout: num(r.payout), net: 0, worst: false };
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
  const events = new Map(matches.map((e) => [e.eventId, e]));
  return {
    generated_at,
    markets: markets.size,
    matches: new Set(sorted.map((m) => m.event_id)).size,
    items: shown.map((m) => {
      const e = events.get(m.event_id)!;
      m.net_loss = m.worst_payout - m.stakes;
      m.outcomes.sort((a, b) => byId(a.outcome_id, b.outcome_id));
      const cut = m.market_key.indexOf('|');
      const typeId = Number(m.market_key.slice(0, cut < 0 ? undefined : cut));
      const specifiers = cut < 0 ? '' : m.market_key.slice(cut + 1);
      const teams = { home: e.homeTeam, away: e.awayTeam };
      m.market_name = Number.isInteger(typeId) ? marketName(typeId, null, specifiers, teams) : m.market_key;
      for (const o of m.outcomes) {
        o.selection_name = Number.isInteger(typeId) ? selectionName(o.outcome_id, { ...teams, specifiers, typeId }) : o.outcome_id;
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
