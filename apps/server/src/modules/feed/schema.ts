import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import type { CancelRecord, MarketHistoryEntry, OutcomeSettlement, SettlementRecord } from './engine.js';

/**
 * What the odds feed engine (./engine.ts) stores on PostgreSQL: PgFeedStore (./pg-store.ts).
 *
 * Provider timestamps (`*_ts`) are epoch milliseconds of the provider's clock, as bigint; `updated_at`
 * is our wall clock. Prices are `numeric` without a scale so the provider's string comes back exactly
 * as sent ('1.80' stays '1.80').
 *
 * Outcomes are rows of their own (feed_outcomes), not a jsonb column on the market: a price is then a
 * typed `numeric` the database checks, the betting engine can read or lock one selection by its key,
 * and an odds change rewrites only the outcomes it names. The engine never removes an outcome from a
 * market, so "replace the market" is exactly "upsert the market row and upsert each of its outcomes";
 * both happen in the one transaction of the message, so a reader never sees half a market.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const ms = (name: string) => bigint(name, { mode: 'number' });

/**
 * The columns of a match after its two keys, shared by the live table, its archive and the view over both:
 * the three must keep one column list (the archive job moves rows by these names, ./archive.ts). The view is
 * declared in ./archive.ts: drizzle-kit reads every schema.ts and would take the view re-exported by
 * src/schema.ts for a second view of the same name.
 */
export const eventColumns = () => ({
  sportId: smallint('sport_id').notNull(),
  leagueId: text('league_id').notNull(),
  leagueName: text('league_name').notNull().default(''),
  homeTeam: text('home_team').notNull(),
  awayTeam: text('away_team').notNull(),
  startTime: ts('start_time').notNull(),
  /** EVENT_STATUS as the provider sent it. */
  eventStatus: smallint('event_status').notNull(),
  /** MATCH_STATUS of the back office (operator view): follows the provider's status until an operator cancels the match (cancel_reason set). */
  matchStatus: smallint('match_status').notNull().default(1),
  // Operator controls (spec §3 match_list): the feed never writes these.
  isVisible: boolean('is_visible').notNull().default(true),
  isSuspended: boolean('is_suspended').notNull().default(false),
  isMaintain: boolean('is_maintain').notNull().default(false),
  liveDelaySeconds: integer('live_delay_seconds').notNull().default(0),
  randomBet: boolean('random_bet').notNull().default(false),
  popularity: integer('popularity').notNull().default(0),
  sequence: integer('sequence').notNull().default(0),
  cancelReason: text('cancel_reason').notNull().default(''),
  /** Provider timestamp of the last fixture change / odds change that set the status. */
  updatedTs: ms('updated_ts').notNull(),
  /** Bumped on every write: optimistic concurrency for the operator controls and change detection for views. */
  objectVersion: integer('object_version').notNull().default(1),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const feedEvents = pgTable(
  'feed_events',
  {
    eventId: text('event_id').primaryKey(),
    /** Our own monotonic number: list order and keyset paging of exports (the provider id is text). */
    id: serial('id').notNull().unique(),
    ...eventColumns(),
  },
  (t) => [
    // The matches list's default order (start time, then id): its first and deepest pages read the index.
    index('feed_events_start_idx').on(t.startTime, t.id),
    index('feed_events_sport_start_idx').on(t.sportId, t.startTime),
    index('feed_events_league_start_idx').on(t.leagueId, t.startTime),
    index('feed_events_status_idx').on(t.eventStatus),
  ],
);

const marketColumns = () => ({
  eventId: text('event_id').notNull(),
  /** marketKey(typeId, specifiers). */
  marketKey: text('market_key').notNull(),
  typeId: integer('type_id').notNull(),
  specifiers: text('specifiers').notNull().default(''),
  /** The producer that last fed the market. */
  producer: smallint('producer').notNull(),
  /** BETTING_OFFER_STATUS. */
  status: smallint('status').notNull(),
  suspendedByOperator: boolean('suspended_by_operator').notNull().default(false),
  suspendedByBetStop: boolean('suspended_by_bet_stop').notNull().default(false),
  suspendedByProducer: boolean('suspended_by_producer').notNull().default(false),
  lastOddsTs: ms('last_odds_ts').notNull().default(0),
  lastBetStopTs: ms('last_bet_stop_ts').notNull().default(0),
  settlement: jsonb('settlement').$type<SettlementRecord | null>(),
  /** Offer status before the settlement, restored by its rollback. */
  statusBeforeSettlement: smallint('status_before_settlement'),
  cancel: jsonb('cancel').$type<CancelRecord | null>(),
  updatedTs: ms('updated_ts').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const feedMarkets = pgTable('feed_markets', marketColumns(), (t) => [
  primaryKey({ columns: [t.eventId, t.marketKey] }),
  index('feed_markets_producer_idx').on(t.producer),
]);

const outcomeColumns = () => ({
  eventId: text('event_id').notNull(),
  marketKey: text('market_key').notNull(),
  outcomeId: text('outcome_id').notNull(),
  /** Provider price without margin; null when the provider sent none. */
  originalPrice: numeric('original_price'),
  /** Price with margin (2 decimals). */
  price: numeric('price'),
  active: boolean('active').notNull().default(true),
  /** Suspended by an operator (match list control); the feed never clears it. */
  suspendedByOperator: boolean('suspended_by_operator').notNull().default(false),
  /** Per-outcome settlement: result, void factor, dead-heat factor (what the betting engine settles from). */
  settlement: jsonb('settlement').$type<OutcomeSettlement | null>(),
  /** OUTCOME_STATUS. */
  outcomeStatus: smallint('outcome_status').notNull(),
  /** SELECTION_OUTCOME. */
  selectionOutcome: smallint('selection_outcome').notNull(),
  updatedTs: ms('updated_ts').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const feedOutcomes = pgTable('feed_outcomes', outcomeColumns(), (t) => [primaryKey({ columns: [t.eventId, t.marketKey, t.outcomeId] })]);

/**
 * The archive (issue 25, ./archive.ts): matches over, older than the retention window and waited on by no
 * bet, moved here with their markets and outcomes, row for row, by the periodic `feed.archive-matches`
 * job. Live paths (the engine's store, placement, cashout, random bets) read only the live tables, so an
 * archived match is never open; the history screens read `feed_events_all`. Created `LIKE` the live tables
 * (migration 0035), so a column added to a live table must be added to its archive in the same migration:
 * the move names every column and fails loudly otherwise.
 */
export const feedEventsArchive = pgTable(
  'feed_events_archive',
  {
    eventId: text('event_id').primaryKey(),
    /** The id the live table gave: the archive never makes one. */
    id: integer('id').notNull().unique(),
    ...eventColumns(),
  },
  (t) => [
    // The history lists' orders and filters: a list over feed_events_all merges the two tables' indexes.
    index('feed_events_archive_start_idx').on(t.startTime, t.id),
    index('feed_events_archive_sport_start_idx').on(t.sportId, t.startTime),
    index('feed_events_archive_league_start_idx').on(t.leagueId, t.startTime),
  ],
);

export const feedMarketsArchive = pgTable('feed_markets_archive', marketColumns(), (t) => [primaryKey({ columns: [t.eventId, t.marketKey] })]);

export const feedOutcomesArchive = pgTable('feed_outcomes_archive', outcomeColumns(), (t) => [primaryKey({ columns: [t.eventId, t.marketKey, t.outcomeId] })]);

/** Append-only: settlements, cancels and their rollbacks, in order (`seq` 0, 1, 2 … per market). */
export const feedMarketHistory = pgTable(
  'feed_market_history',
  {
    eventId: text('event_id').notNull(),
    marketKey: text('market_key').notNull(),
    seq: integer('seq').notNull(),
    kind: text('kind').$type<MarketHistoryEntry['kind']>().notNull(),
    ts: ms('ts').notNull(),
    entry: jsonb('entry').$type<MarketHistoryEntry>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.marketKey, t.seq] })],
);

/** Fingerprints of applied messages: re-delivery is idempotent by this key. */
export const feedFingerprints = pgTable(
  'feed_fingerprints',
  {
    fingerprint: text('fingerprint').primaryKey(),
    /** Provider timestamp of the message (purging old fingerprints is safe: every rule is idempotent on its own). */
    ts: ms('ts').notNull(),
    seenAt: ts('seen_at').notNull().defaultNow(),
  },
  (t) => [index('feed_fingerprints_ts_idx').on(t.ts)],
);

/**
 * The feed's producers (issue 27, Sportradar UOF): what `/v1/descriptions/producers.xml` says of each, its
 * state as the UOF client last saw it, the timestamp recovery starts from (`last_processed_ts`: the last
 * alive the producer sent while up, all before it processed) and the recovery in progress.
 */
export const feedProducers = pgTable('feed_producers', {
  producer: integer('producer').primaryKey(),
  name: text('name').notNull().default(''),
  description: text('description').notNull().default(''),
  /** The product path of recovery URLs: 'liveodds', 'pre'. */
  product: text('product').notNull().default(''),
  recoveryWindowMinutes: integer('recovery_window_minutes').notNull().default(4320),
  state: text('state').$type<'up' | 'down' | 'recovering'>().notNull().default('down'),
  lastProcessedTs: ms('last_processed_ts'),
  lastAliveAt: ts('last_alive_at'),
  lastMessageAt: ts('last_message_at'),
  recoveryRequestId: bigint('recovery_request_id', { mode: 'number' }),
  recoverySince: ts('recovery_since'),
  recoveryAfterTs: ms('recovery_after_ts'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Each time a producer stopped being up in this product (issue 30, the significant events): when and why
 * (alive timeout, the broker lost, alive subscribed=0, a recovery asked while up), and when it was up again
 * (null while the outage lasts). Written by the UOF client on its state changes.
 */
export const feedProducerOutages = pgTable(
  'feed_producer_outages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    producer: integer('producer').notNull(),
    downAt: ts('down_at').notNull().defaultNow(),
    upAt: ts('up_at'),
    reason: text('reason').notNull().default(''),
  },
  (t) => [index('feed_producer_outages_down').on(t.downAt), index('feed_producer_outages_open').on(t.producer).where(sql`up_at IS NULL`)],
);

/** The feed's market descriptions per language (`/v1/descriptions/{lang}/markets.xml`), refreshed by the UOF client. */
export const feedMarketDescriptions = pgTable(
  'feed_market_descriptions',
  {
    lang: text('lang').notNull(),
    marketId: integer('market_id').notNull(),
    description: jsonb('description').$type<import('./uof/types.js').UofMarketDescription>().notNull(),
    fetchedAt: ts('fetched_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'feed_market_descriptions_pk', columns: [t.lang, t.marketId] })],
);
