/**
 * The match archive (issue 25): the feed's tables only grew, so a match that is over, started more than
 * DAU_MATCH_RETENTION_DAYS ago (default 90) and that no bet waits on moves, with its markets and outcomes,
 * to feed_events_archive, feed_markets_archive and feed_outcomes_archive (./schema.ts), row for row.
 *
 * - Who reads what. The live paths (the engine's store, placement, cashout, random bets, the jackpot's
 *   choice of matches, the reminders) read only the live tables, so an archived match is never open and
 *   a late feed message on it is taken as one on an unknown match. The history screens read both: the
 *   matches list, a match's odds and the match statistics through `feed_events_all`; settlement and the
 *   jackpot's feed results fall back on the archive for a market no longer live (`archivedSelections`,
 *   match-source `settled1x2`), so a resettlement months later still finds the feed's results. The
 *   operator's controls answer 409 MATCH_ARCHIVED on an archived match (`notLive`).
 * - Who holds a match live. The modules that wait on matches say so with an `ArchiveHold` (a condition on
 *   the event id), handed in by the composition root: betting (an order on it not settled or cashed out),
 *   jackpot (an issue on it not settled). The feed does not know their tables.
 * - Crash-safe and idempotent. Each batch of BATCH matches is one transaction: the matches are locked
 *   (`FOR UPDATE SKIP LOCKED`, so two runs share the work), and each table's rows move with one
 *   `WITH moved AS (DELETE … RETURNING …) INSERT INTO …_archive SELECT … FROM moved`, so a killed run
 *   leaves the whole batch moved or none of it, and a second run finds nothing more to move. A match the
 *   engine is writing (its advisory lock, ./pg-store.ts) is skipped until the next run.
 * - A run stops after RUN_SECONDS, well inside the job's expiry (DAU_JOB_EXPIRE_SECONDS, 120 s), and the
 *   next hour goes on: a first run on years of matches drains them over a few hours.
 */
import { and, asc, eq, inArray, lt, not, notInArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { boolean, getTableConfig, integer, pgView, text, type PgTable } from 'drizzle-orm/pg-core';
import { EVENT_STATUS } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Db, Executor } from '../../platform/db.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { CancelRecord, OutcomeSettlement, StoredMarket } from './engine.js';
import { storedMarkets } from './pg-store.js';
import {
  eventColumns, feedEvents, feedEventsArchive, feedMarkets, feedMarketsArchive, feedOutcomes, feedOutcomesArchive,
} from './schema.js';

export const MATCH_ARCHIVE_JOB = 'feed.archive-matches';
/** How often the archive job runs (one process at a time). */
const MATCH_ARCHIVE_SECONDS = 3600;
/** Matches per transaction (with their markets and outcomes: about 10,000 markets, 30,000 outcomes). */
const BATCH = 200;
/** A run's work, well inside the job's expiry. */
const RUN_SECONDS = 60;

/** Days a match stays live after its start (DAU_MATCH_RETENTION_DAYS, default 90). */
export const matchRetentionDays = () => Math.max(1, Math.floor(Number(process.env.DAU_MATCH_RETENTION_DAYS ?? 90)) || 90);

/**
 * Every match, live or archived (`archived`): what the history screens read. A plain UNION ALL of the two
 * tables (migration 0035), so PostgreSQL merges their (start_time, id) indexes under a list's ORDER BY …
 * LIMIT (Merge Append) and probes both primary keys in a join. A match the feed brought back after it was
 * archived shows twice until the next run archives it again (then the live rows replace the archived ones).
 * Declared here, not in ./schema.ts: drizzle-kit reads every schema.ts and would take the view re-exported
 * by src/schema.ts for a second view of the same name.
 */
export const feedEventsAll = pgView('feed_events_all', {
  eventId: text('event_id').notNull(),
  id: integer('id').notNull(),
  ...eventColumns(),
  archived: boolean('archived').notNull(),
}).existing();

/** A condition, over a match's event id, under which a module still needs the match live. */
export type ArchiveHold = (eventId: SQLWrapper) => SQL;

/** Each live table with its archive and the key a row has in both (children first: outcomes, markets, the match). */
const MOVES: readonly { live: PgTable; archive: PgTable; key: readonly string[] }[] = [
  { live: feedOutcomes, archive: feedOutcomesArchive, key: ['event_id', 'market_key', 'outcome_id'] },
  { live: feedMarkets, archive: feedMarketsArchive, key: ['event_id', 'market_key'] },
  { live: feedEvents, archive: feedEventsArchive, key: ['event_id'] },
];

const ids = (values: readonly string[]) => sql`${sql.param(values)}::text[]`;
const list = (names: readonly string[], prefix?: string) =>
  sql.join(names.map((n) => (prefix ? sql`${sql.identifier(prefix)}.${sql.identifier(n)}` : sql.identifier(n))), sql`, `);
const rowsOf = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;

/** Moves these matches' rows, table by table; the caller's transaction holds their event rows. */
async function moveMatches(tx: Executor, eventIds: readonly string[]) {
  // A match archived before that the feed brought back: its live rows are the newer, they replace the archived ones.
  const again = rowsOf(await tx.execute(sql`SELECT event_id FROM ${feedEventsArchive} WHERE event_id = ANY(${ids(eventIds)})`)).map((r) => String(r.event_id));
  for (const { live, archive, key } of MOVES) {
    // Every column by name, from the live table's declaration: a column its archive lacks fails the move, never a row.
    const names = getTableConfig(live).columns.map((c) => c.name);
    if (again.length)
      await tx.execute(sql`
        DELETE FROM ${archive} a USING ${live} l
        WHERE l.event_id = ANY(${ids(again)}) AND (${list(key, 'a')}) = (${list(key, 'l')})`);
    await tx.execute(sql`
      WITH moved AS (DELETE FROM ${live} WHERE event_id = ANY(${ids(eventIds)}) RETURNING ${list(names)})
      INSERT INTO ${archive} (${list(names)}) SELECT ${list(names)} FROM moved`);
  }
}

/**
 * Archives the matches over and started before `now` minus the retention, that no hold keeps, BATCH per
 * transaction until none is left (or the run's time is up). Answers how many matches moved.
 */
export async function archiveMatches(db: Db, holds: readonly ArchiveHold[], opts: { now?: Date; batch?: number; seconds?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - matchRetentionDays() * 86_400_000);
  const batch = opts.batch ?? BATCH;
  const until = Date.now() + (opts.seconds ?? RUN_SECONDS) * 1000;
  // Over: the feed ended it (any state but not started or under way), or an operator cancelled it.
  const over = or(notInArray(feedEvents.eventStatus, [EVENT_STATUS.not_started, EVENT_STATUS.in_progress]), sql`${feedEvents.cancelReason} <> ''`);
  const where = and(lt(feedEvents.startTime, cutoff), over, ...holds.map((hold) => not(hold(feedEvents.eventId))));
  let moved = 0;
  for (;;) {
    const { taken, done } = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ eventId: feedEvents.eventId })
        .from(feedEvents)
        .where(where)
        .orderBy(asc(feedEvents.startTime), asc(feedEvents.id))
        .limit(batch)
        .for('update', { skipLocked: true });
      if (!rows.length) return { taken: 0, done: 0 };
      // The engine's messages on a match hold its advisory lock (./pg-store.ts): one under way keeps its match for the next run.
      const free = rowsOf(
        await tx.execute(sql`SELECT id FROM unnest(${ids(rows.map((r) => r.eventId))}) AS id WHERE pg_try_advisory_xact_lock(hashtext('feed:' || id))`),
      ).map((r) => String(r.id));
      if (free.length) await moveMatches(tx, free);
      return { taken: rows.length, done: free.length };
    });
    moved += done;
    if (taken < batch || done === 0 || Date.now() > until) return moved;
  }
}

/** The periodic archive job (one process at a time), with the holds of the modules that wait on matches. */
export function defineMatchArchive(ctx: AppContext, holds: readonly ArchiveHold[]) {
  ctx.jobs.every(MATCH_ARCHIVE_JOB, MATCH_ARCHIVE_SECONDS, async () => void (await archiveMatches(ctx.db, holds)));
}

// ---------------------------------------------------------------------------------------------------
// Readers of the archive

/** A match's markets and outcomes in the archive, as the engine held them (the odds drawer of an archived match). */
export async function archivedMarkets(ex: Executor, eventId: string): Promise<StoredMarket[]> {
  const [rows, outcomes] = await Promise.all([
    ex.select().from(feedMarketsArchive).where(eq(feedMarketsArchive.eventId, eventId)),
    ex.select().from(feedOutcomesArchive).where(eq(feedOutcomesArchive.eventId, eventId)),
  ]);
  return storedMarkets(rows, outcomes, []);
}

export interface ArchivedSelection {
  /** The outcome's settlement by the feed (null while none, or no such outcome). */
  feedSettlement: OutcomeSettlement | null;
  cancel: CancelRecord | null;
}

const selectionKey = (eventId: string, marketKey: string, outcomeId: string) => `${eventId}\u0000${marketKey}\u0000${outcomeId}`;

/**
 * What settlement reads of the feed for selections whose market is not live: the archived outcome's
 * settlement and its market's cancel. A selection whose market is not in the archive either is absent.
 */
export async function archivedSelections(
  ex: Executor,
  selections: readonly { eventId: string; marketKey: string; outcomeId: string }[],
): Promise<(s: { eventId: string; marketKey: string; outcomeId: string }) => ArchivedSelection | undefined> {
  const m = feedMarketsArchive;
  const o = feedOutcomesArchive;
  const rows = selections.length
    ? await ex
        .select({ eventId: m.eventId, marketKey: m.marketKey, cancel: m.cancel, outcomeId: o.outcomeId, settlement: o.settlement })
        .from(m)
        .leftJoin(o, and(eq(o.eventId, m.eventId), eq(o.marketKey, m.marketKey)))
        .where(inArray(m.eventId, [...new Set(selections.map((s) => s.eventId))]))
    : [];
  const markets = new Map(rows.map((r) => [selectionKey(r.eventId, r.marketKey, ''), r.cancel ?? null]));
  const outcomes = new Map(rows.filter((r) => r.outcomeId !== null).map((r) => [selectionKey(r.eventId, r.marketKey, r.outcomeId!), r.settlement ?? null]));
  return (s) => {
    const cancel = markets.get(selectionKey(s.eventId, s.marketKey, ''));
    if (cancel === undefined) return undefined;
    return { cancel, feedSettlement: outcomes.get(selectionKey(s.eventId, s.marketKey, s.outcomeId)) ?? null };
  };
}

/**
 * Why an operator's control found no live match: 409 MATCH_ARCHIVED when the match is in the archive
 * (it can be read, never changed), 404 otherwise.
 */
export async function notLive(ex: Executor, eventId: string): Promise<AppError> {
  const [row] = await ex.select({ eventId: feedEventsArchive.eventId }).from(feedEventsArchive).where(eq(feedEventsArchive.eventId, eventId));
  return row ? new AppError(409, 'MATCH_ARCHIVED') : notFound();
}

