/**
 * What other modules read of the feed's football matches for a pool product (the jackpot, issue 12):
 * upcoming matches with their 1X2 prices, the matches of given ids, the settled 1X2 result of each and
 * the current 1X2 prices. The 1X2 market is type 1 without specifiers ('1|'), outcomes '1' home, '2'
 * draw, '3' away (./names.ts).
 */
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { EVENT_STATUS, MATCH_STATUS, SPORT } from '@dau/domain';
import type { Executor } from '../../platform/db.js';
import { leagues } from '../sports/index.js';
import { feedEvents, feedMarkets, feedMarketsArchive, feedOutcomes } from './schema.js';
import { feedEventsAll } from './archive.js';

const X12 = '1|';

export interface FeedMatch {
  eventId: string;
  homeTeam: string;
  awayTeam: string;
  leagueId: string;
  leagueName: string;
  /** The catalogue location (country) of the league, when the league is in the catalogue. */
  categoryId: number | null;
  startTime: Date;
  eventStatus: number;
  matchStatus: number;
  /** Open for betting by the operator's controls (visible, not suspended, not in maintenance, not cancelled). */
  open: boolean;
  /** [home, draw, away] prices of the 1X2 market (decimal strings), null where none. */
  prices: [string | null, string | null, string | null];
}

function pricesOf(rows: { eventId: string; outcomeId: string; price: string | null; active: boolean }[]) {
  const out = new Map<string, [string | null, string | null, string | null]>();
  for (const r of rows) {
    const i = ['1', '2', '3'].indexOf(r.outcomeId);
    if (i < 0) continue;
    const p = out.get(r.eventId) ?? [null, null, null];
    p[i] = r.active ? r.price : null;
    out.set(r.eventId, p);
  }
  return out;
}

/** The current 1X2 prices of these matches ([home, draw, away], null where none or inactive). */
export async function prices1x2(ex: Executor, eventIds: readonly string[]) {
  if (!eventIds.length) return new Map<string, [string | null, string | null, string | null]>();
  const rows = await ex
    .select({ eventId: feedOutcomes.eventId, outcomeId: feedOutcomes.outcomeId, price: feedOutcomes.price, active: feedOutcomes.active })
    .from(feedOutcomes)
    .where(and(inArray(feedOutcomes.eventId, [...eventIds]), eq(feedOutcomes.marketKey, X12)));
  return pricesOf(rows);
}

const selectMatches = (ex: Executor) =>
  ex
    .select({
      eventId: feedEvents.eventId, homeTeam: feedEvents.homeTeam, awayTeam: feedEvents.awayTeam, leagueId: feedEvents.leagueId,
      leagueName: feedEvents.leagueName, categoryId: leagues.locationId, startTime: feedEvents.startTime, eventStatus: feedEvents.eventStatus,
      matchStatus: feedEvents.matchStatus,
      open: sql<boolean>`(${feedEvents.isVisible} and not ${feedEvents.isSuspended} and not ${feedEvents.isMaintain} and ${feedEvents.cancelReason} = '')`,
    })
    .from(feedEvents)
    .leftJoin(leagues, eq(leagues.providerId, feedEvents.leagueId));

/** Football matches not started yet and open, from `from` (default now), with their 1X2 prices, by kick-off. */
export async function upcomingMatches(
  ex: Executor,
  f: { from?: Date; to?: Date; categoryId?: number; leagueId?: string; limit?: number },
): Promise<FeedMatch[]> {
  const where: (SQL | undefined)[] = [
    eq(feedEvents.sportId, SPORT.football),
    eq(feedEvents.eventStatus, EVENT_STATUS.not_started),
    eq(feedEvents.matchStatus, MATCH_STATUS.not_started),
    sql`${feedEvents.isVisible} and not ${feedEvents.isSuspended} and not ${feedEvents.isMaintain} and ${feedEvents.cancelReason} = ''`,
    gte(feedEvents.startTime, f.from ?? new Date()),
    f.to ? lte(feedEvents.startTime, f.to) : undefined,
    f.categoryId ? eq(leagues.locationId, f.categoryId) : undefined,
    f.leagueId ? eq(feedEvents.leagueId, f.leagueId) : undefined,
  ];
  const rows = await selectMatches(ex).where(and(...where)).orderBy(asc(feedEvents.startTime), asc(feedEvents.id)).limit(f.limit ?? 200);
  const prices = await prices1x2(ex, rows.map((r) => r.eventId));
  return rows.map((r) => ({ ...r, prices: prices.get(r.eventId) ?? [null, null, null] }));
}

/** The matches of these ids (any state), with their 1X2 prices; unknown ids are absent. */
export async function matchesByIds(ex: Executor, eventIds: readonly string[]): Promise<Map<string, FeedMatch>> {
  if (!eventIds.length) return new Map();
  const rows = await selectMatches(ex).where(inArray(feedEvents.eventId, [...eventIds]));
  const prices = await prices1x2(ex, rows.map((r) => r.eventId));
  return new Map(rows.map((r) => [r.eventId, { ...r, prices: prices.get(r.eventId) ?? [null, null, null] }]));
}

const CANCELLED_EVENT: readonly number[] = [EVENT_STATUS.cancelled, EVENT_STATUS.abandoned];
const CANCELLED_MATCH: readonly number[] = [
  MATCH_STATUS.cancelled, MATCH_STATUS.cancelled_before_start, MATCH_STATUS.cancelled_after_start, MATCH_STATUS.abandoned_after_start,
];

/**
 * The settled 1X2 result of each match: 0 home, 1 draw, 2 away, 3 cancelled or abandoned (the match
 * cancelled, or its 1X2 market cancelled / settled void), null while unknown. Archived matches too
 * (./archive.ts): a settled issue is resettled, and its results refreshed, after its matches are archived.
 * A live row wins over an archived one (a match or market the feed brought back).
 */
export async function settled1x2(ex: Executor, eventIds: readonly string[]): Promise<Map<string, 0 | 1 | 2 | 3 | null>> {
  const out = new Map<string, 0 | 1 | 2 | 3 | null>();
  if (!eventIds.length) return out;
  const all = feedEventsAll;
  const rows = await ex
    .select({ eventId: all.eventId, eventStatus: all.eventStatus, matchStatus: all.matchStatus, cancelReason: all.cancelReason, archived: all.archived })
    .from(all)
    .where(inArray(all.eventId, [...eventIds]))
    .orderBy(desc(all.archived));
  const events = new Map(rows.map((r) => [r.eventId, r]));
  const archived = rows.filter((r) => r.archived).map((r) => r.eventId);
  const x12 = (m: typeof feedMarkets | typeof feedMarketsArchive, ids: readonly string[]) =>
    ids.length
      ? ex.select({ eventId: m.eventId, settlement: m.settlement, cancel: m.cancel }).from(m).where(and(inArray(m.eventId, [...ids]), eq(m.marketKey, X12)))
      : [];
  const markets = new Map([...(await x12(feedMarketsArchive, archived)), ...(await x12(feedMarkets, eventIds))].map((m) => [m.eventId, m]));
  for (const e of events.values()) {
    if (CANCELLED_EVENT.includes(e.eventStatus) || CANCELLED_MATCH.includes(e.matchStatus) || e.cancelReason !== '') {
      out.set(e.eventId, 3);
      continue;
    }
    const m = markets.get(e.eventId);
    // A cancel of the whole market (no time window) voids every bet on it: the match counts as cancelled.
    if (m?.cancel && m.cancel.startTime === null && m.cancel.endTime === null) {
      out.set(e.eventId, 3);
      continue;
    }
    const s = m?.settlement?.outcomes;
    if (!s) {
      out.set(e.eventId, null);
      continue;
    }
    const won = ['1', '2', '3'].findIndex((id) => s[id]?.result === 1 && (s[id]?.voidFactor ?? 0) === 0);
    const allVoid = ['1', '2', '3'].every((id) => (s[id]?.voidFactor ?? 0) === 1);
    out.set(e.eventId, won >= 0 ? (won as 0 | 1 | 2) : allVoid ? 3 : null);
  }
  return out;
}

/** States in which a match has not kicked off (a match cancelled before its start has not either). */
const NOT_STARTED_EVENT: readonly number[] = [EVENT_STATUS.not_started, EVENT_STATUS.cancelled];
const NOT_STARTED_MATCH: readonly number[] = [MATCH_STATUS.not_started, MATCH_STATUS.cancelled, MATCH_STATUS.cancelled_before_start];

/**
 * The feed's kick-off of each match and whether it has kicked off: its kick-off time has passed, or the
 * feed says it is under way, ended, interrupted, abandoned... (a postponed match has its new time).
 * Unknown ids are absent.
 */
export async function kickOffs(ex: Executor, eventIds: readonly string[], now = new Date()): Promise<Map<string, { startTime: Date; started: boolean }>> {
  if (!eventIds.length) return new Map();
  const rows = await ex
    .select({ eventId: feedEvents.eventId, startTime: feedEvents.startTime, eventStatus: feedEvents.eventStatus, matchStatus: feedEvents.matchStatus })
    .from(feedEvents)
    .where(inArray(feedEvents.eventId, [...eventIds]));
  return new Map(
    rows.map((r) => [
      r.eventId,
      {
        startTime: r.startTime,
        started: r.startTime.getTime() <= now.getTime() || !NOT_STARTED_EVENT.includes(r.eventStatus) || !NOT_STARTED_MATCH.includes(r.matchStatus),
      },
    ]),
  );
}
