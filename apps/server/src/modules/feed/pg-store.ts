/**
 * The feed engine's store on PostgreSQL (or PGlite): tables of ./schema.ts.
 *
 * - One message, one transaction: FeedEngine calls `transaction(fn)` around each message; every store
 *   method called inside joins it (AsyncLocalStorage carries the transaction), so the fingerprint, the
 *   reads and the batched upserts of a message commit or roll back together.
 * - Re-delivery is idempotent by a database key: `markSeen` is INSERT … ON CONFLICT DO NOTHING RETURNING
 *   on feed_fingerprints' primary key. Two processes receiving the same message: the second one waits on
 *   the key until the first commits, then finds it and changes nothing.
 * - Read-modify-write of an event's markets is serialised across processes by a transaction-scoped
 *   advisory lock on the event id, taken on the message's first read of that event.
 * - History is append-only: entries are inserted with their position in the market's history (pk
 *   event, market, seq) and never updated or deleted.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db.js';
import type { CancelRecord, FeedStore, MarketHistoryEntry, SettlementRecord, StoredEvent, StoredMarket, StoredOutcome } from './engine.js';
import { marketKey } from './messages.js';
import { feedEvents, feedFingerprints, feedMarketHistory, feedMarkets, feedOutcomes } from './schema.js';

/** A row of getMarkets' statement (outcomes and history aggregated as json). */
interface MarketRow {
  market_key: string;
  type_id: number;
  specifiers: string;
  producer: number;
  status: number;
  suspended_by_operator: boolean;
  suspended_by_bet_stop: boolean;
  suspended_by_producer: boolean;
  last_odds_ts: number;
  last_bet_stop_ts: number;
  settlement: SettlementRecord | null;
  status_before_settlement: number | null;
  cancel: CancelRecord | null;
  updated_ts: number;
  outcomes: StoredOutcome[] | null;
  history: MarketHistoryEntry[] | null;
}

interface TxContext {
  tx: Executor;
  /** Events whose advisory lock this transaction holds. */
  locked: Set<string>;
}

/** Markets per statement (columns go as array parameters, so this only bounds a statement's size). */
const CHUNK = 2000;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

/** One array-valued bind parameter (node-postgres and PGlite both send a JS array as a PostgreSQL array). */
const arr = (values: readonly unknown[]): SQL => sql`${sql.param(values)}`;

/**
 * Rows of the same shape as one array per field (what `unnest` takes back to rows). No rows: every field
 * is an empty array (a market's outcomes may be none).
 */
function columns<T extends Record<string, unknown>>(rows: readonly T[]): { [K in keyof T]: T[K][] } {
  if (!rows.length) return new Proxy({} as { [K in keyof T]: T[K][] }, { get: () => [] });
  const out = {} as { [K in keyof T]: T[K][] };
  for (const k of Object.keys(rows[0]) as (keyof T)[]) out[k] = rows.map((r) => r[k]);
  return out;
}

/**
 * Markets as the engine holds them, from rows of feed_markets, feed_outcomes and feed_market_history (or of
 * the archive's tables, which have the same columns: ./archive.ts).
 */
export function storedMarkets(
  rows: (typeof feedMarkets.$inferSelect)[],
  outcomes: (typeof feedOutcomes.$inferSelect)[],
  history: (typeof feedMarketHistory.$inferSelect)[],
): StoredMarket[] {
  const byKey = new Map<string, StoredMarket>();
  const id = (eventId: string, key: string) => `${eventId}\u0000${key}`;
  const out: StoredMarket[] = [];
  for (const r of rows) {
    const m: StoredMarket = {
      eventId: r.eventId,
      typeId: r.typeId,
      specifiers: r.specifiers,
      key: r.marketKey,
      producer: r.producer,
      status: r.status,
      suspendedByOperator: r.suspendedByOperator,
      suspendedByBetStop: r.suspendedByBetStop,
      suspendedByProducer: r.suspendedByProducer,
      lastOddsTs: r.lastOddsTs,
      lastBetStopTs: r.lastBetStopTs,
      outcomes: {},
      settlement: r.settlement ?? null,
      statusBeforeSettlement: r.statusBeforeSettlement,
      cancel: r.cancel ?? null,
      history: [],
      updatedTs: r.updatedTs,
    };
    byKey.set(id(r.eventId, r.marketKey), m);
    out.push(m);
  }
  for (const o of outcomes) {
    const m = byKey.get(id(o.eventId, o.marketKey));
    if (!m) continue;
    const so: StoredOutcome = {
      id: o.outcomeId,
      originalPrice: o.originalPrice,
      price: o.price,
      active: o.active,
      suspendedByOperator: o.suspendedByOperator,
      settlement: o.settlement ?? null,
      outcomeStatus: o.outcomeStatus,
      selectionOutcome: o.selectionOutcome,
      updatedTs: o.updatedTs,
    };
    m.outcomes[o.outcomeId] = so;
  }
  for (const h of history) byKey.get(id(h.eventId, h.marketKey))?.history.push(h.entry);
  return out;
}

export class PgFeedStore implements FeedStore {
  private readonly als = new AsyncLocalStorage<TxContext>();
  /** How many history entries each loaded market already has in the database (append the rest). */
  private readonly storedHistory = new WeakMap<StoredMarket, number>();

  constructor(private readonly db: Db) {}

  private get ex(): Executor {
    return this.als.getStore()?.tx ?? this.db;
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.als.getStore()) return fn();
    return this.db.transaction((tx) => this.als.run({ tx, locked: new Set() }, fn));
  }

  private async lockEvent(eventId: string) {
    const ctx = this.als.getStore();
    if (!ctx || ctx.locked.has(eventId)) return;
    ctx.locked.add(eventId);
    await ctx.tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`feed:${eventId}`}))`);
  }

  /** Runs `fn` in the store's transaction (joining one already open) with its executor: a control's change and its audit row commit together. */
  async withTx<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    return this.transaction(() => fn(this.ex));
  }

  async markSeen(fingerprint: string, ts: number): Promise<boolean> {
    const rows = await this.ex
      .insert(feedFingerprints)
      .values({ fingerprint, ts })
      .onConflictDoNothing()
      .returning({ fingerprint: feedFingerprints.fingerprint });
    return rows.length === 1;
  }

  async getEvent(eventId: string): Promise<StoredEvent | undefined> {
    await this.lockEvent(eventId);
    const [r] = await this.ex.select().from(feedEvents).where(eq(feedEvents.eventId, eventId));
    if (!r) return undefined;
    return {
      eventId: r.eventId,
      sportId: r.sportId,
      leagueId: r.leagueId,
      leagueName: r.leagueName,
      homeTeam: r.homeTeam,
      awayTeam: r.awayTeam,
      startTime: r.startTime.getTime(),
      status: r.eventStatus,
      updatedTs: r.updatedTs,
    };
  }

  async upsertEvent(e: StoredEvent): Promise<void> {
    const feedFields = {
      sportId: e.sportId,
      leagueId: e.leagueId,
      leagueName: e.leagueName,
      homeTeam: e.homeTeam,
      awayTeam: e.awayTeam,
      startTime: new Date(e.startTime),
      eventStatus: e.status,
      updatedTs: e.updatedTs,
    };
    // The operator's columns (visibility, suspension, delay, …) are never written by the feed.
    await this.ex
      .insert(feedEvents)
      .values({ eventId: e.eventId, matchStatus: e.status, ...feedFields })
      .onConflictDoUpdate({
        target: feedEvents.eventId,
        set: {
          ...feedFields,
          // The back office's match status follows the provider until an operator cancels the match.
          matchStatus: sql`case when ${feedEvents.cancelReason} = '' then excluded."event_status" else ${feedEvents.matchStatus} end`,
          objectVersion: sql`${feedEvents.objectVersion} + 1`,
          updatedAt: sql`now()`,
        },
      });
  }

  async getMarkets(eventId: string, keys?: readonly string[]): Promise<StoredMarket[]> {
    if (keys && keys.length === 0) return [];
    await this.lockEvent(eventId);
    // One statement: the markets with their outcomes and history aggregated per market (an odds change
    // reads 50 markets, 150 outcomes in one round trip instead of three). Bigints as float8 (epoch ms are
    // exact below 2^53) and prices as text, so both drivers hand back the same JS values.
    const res = await this.ex.execute(sql`
      SELECT m.market_key, m.type_id, m.specifiers, m.producer, m.status, m.suspended_by_operator,
        m.suspended_by_bet_stop, m.suspended_by_producer, m.last_odds_ts::float8 AS last_odds_ts,
        m.last_bet_stop_ts::float8 AS last_bet_stop_ts, m.settlement, m.status_before_settlement, m.cancel,
        m.updated_ts::float8 AS updated_ts,
        (SELECT json_agg(json_build_object('id', o.outcome_id, 'originalPrice', o.original_price::text, 'price', o.price::text,
            'active', o.active, 'suspendedByOperator', o.suspended_by_operator, 'settlement', o.settlement,
            'outcomeStatus', o.outcome_status, 'selectionOutcome', o.selection_outcome, 'updatedTs', o.updated_ts))
          FROM feed_outcomes o WHERE o.event_id = m.event_id AND o.market_key = m.market_key) AS outcomes,
        (SELECT json_agg(h.entry ORDER BY h.seq)
          FROM feed_market_history h WHERE h.event_id = m.event_id AND h.market_key = m.market_key) AS history
      FROM feed_markets m
      WHERE m.event_id = ${eventId}${keys ? sql` AND m.market_key = ANY(${arr(keys)}::text[])` : sql``}`);
    const out: StoredMarket[] = [];
    for (const r of (res as unknown as { rows: MarketRow[] }).rows) {
      const outcomes: Record<string, StoredOutcome> = {};
      for (const o of r.outcomes ?? []) outcomes[o.id] = { ...o, updatedTs: Number(o.updatedTs) };
      const m: StoredMarket = {
        eventId,
        typeId: r.type_id,
        specifiers: r.specifiers,
        key: r.market_key,
        producer: r.producer,
        status: r.status,
        suspendedByOperator: r.suspended_by_operator,
        suspendedByBetStop: r.suspended_by_bet_stop,
        suspendedByProducer: r.suspended_by_producer,
        lastOddsTs: Number(r.last_odds_ts),
        lastBetStopTs: Number(r.last_bet_stop_ts),
        outcomes,
        settlement: r.settlement ?? null,
        statusBeforeSettlement: r.status_before_settlement,
        cancel: r.cancel ?? null,
        history: r.history ?? [],
        updatedTs: Number(r.updated_ts),
      };
      this.storedHistory.set(m, m.history.length);
      out.push(m);
    }
    return out;
  }

  async marketsOfProducer(producer: number): Promise<StoredMarket[]> {
    const rows = await this.ex.select().from(feedMarkets).where(eq(feedMarkets.producer, producer));
    if (!rows.length) return [];
    const same = (t: typeof feedOutcomes | typeof feedMarketHistory) =>
      and(eq(feedMarkets.eventId, t.eventId), eq(feedMarkets.marketKey, t.marketKey), eq(feedMarkets.producer, producer));
    const outcomes = await this.ex
      .select({ o: feedOutcomes })
      .from(feedOutcomes)
      .innerJoin(feedMarkets, same(feedOutcomes));
    const history = await this.ex
      .select({ h: feedMarketHistory })
      .from(feedMarketHistory)
      .innerJoin(feedMarkets, same(feedMarketHistory))
      .orderBy(asc(feedMarketHistory.seq));
    return this.assemble(
      rows,
      outcomes.map((r) => r.o),
      history.map((r) => r.h),
    );
  }

  private assemble(
    rows: (typeof feedMarkets.$inferSelect)[],
    outcomes: (typeof feedOutcomes.$inferSelect)[],
    history: (typeof feedMarketHistory.$inferSelect)[],
  ): StoredMarket[] {
    const out = storedMarkets(rows, outcomes, history);
    for (const m of out) this.storedHistory.set(m, m.history.length);
    return out;
  }

  async upsertMarkets(markets: readonly StoredMarket[]): Promise<void> {
    if (!markets.length) return;
    const ex = this.ex;
    // One statement whatever the number of rows: each column goes as one array parameter and unnest()
    // turns them back into rows. The SQL text is constant and no per-row query building happens here
    // (drizzle's multi-row VALUES builder cost more CPU than the database's own work for a 50-market
    // odds change: bench/feed-pg.ts).
    for (const part of chunks(markets)) {
      const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
      const c = columns(
        part.map((m) => ({
          eventId: m.eventId, key: m.key, typeId: m.typeId, specifiers: m.specifiers, producer: m.producer, status: m.status,
          byOperator: m.suspendedByOperator, byBetStop: m.suspendedByBetStop, byProducer: m.suspendedByProducer,
          lastOddsTs: m.lastOddsTs, lastBetStopTs: m.lastBetStopTs, settlement: json(m.settlement),
          statusBefore: m.statusBeforeSettlement, cancel: json(m.cancel), updatedTs: m.updatedTs,
        })),
      );
      const upsertMarkets = sql`
        INSERT INTO feed_markets (event_id, market_key, type_id, specifiers, producer, status, suspended_by_operator,
          suspended_by_bet_stop, suspended_by_producer, last_odds_ts, last_bet_stop_ts, settlement, status_before_settlement,
          cancel, updated_ts)
        SELECT event_id, market_key, type_id, specifiers, producer, status, suspended_by_operator, suspended_by_bet_stop,
          suspended_by_producer, last_odds_ts, last_bet_stop_ts, settlement::jsonb, status_before_settlement, cancel::jsonb, updated_ts
        FROM unnest(${arr(c.eventId)}::text[], ${arr(c.key)}::text[], ${arr(c.typeId)}::int[], ${arr(c.specifiers)}::text[],
          ${arr(c.producer)}::smallint[], ${arr(c.status)}::smallint[], ${arr(c.byOperator)}::bool[], ${arr(c.byBetStop)}::bool[],
          ${arr(c.byProducer)}::bool[], ${arr(c.lastOddsTs)}::bigint[], ${arr(c.lastBetStopTs)}::bigint[], ${arr(c.settlement)}::text[],
          ${arr(c.statusBefore)}::smallint[], ${arr(c.cancel)}::text[], ${arr(c.updatedTs)}::bigint[])
          AS u(event_id, market_key, type_id, specifiers, producer, status, suspended_by_operator, suspended_by_bet_stop,
            suspended_by_producer, last_odds_ts, last_bet_stop_ts, settlement, status_before_settlement, cancel, updated_ts)
        ON CONFLICT (event_id, market_key) DO UPDATE SET
          type_id = excluded.type_id, specifiers = excluded.specifiers, producer = excluded.producer, status = excluded.status,
          suspended_by_operator = excluded.suspended_by_operator, suspended_by_bet_stop = excluded.suspended_by_bet_stop,
          suspended_by_producer = excluded.suspended_by_producer, last_odds_ts = excluded.last_odds_ts,
          last_bet_stop_ts = excluded.last_bet_stop_ts, settlement = excluded.settlement,
          status_before_settlement = excluded.status_before_settlement, cancel = excluded.cancel,
          updated_ts = excluded.updated_ts, updated_at = now()`;

      const o = columns(
        part.flatMap((m) =>
          Object.values(m.outcomes).map((so) => ({
            eventId: m.eventId, key: m.key, id: so.id, originalPrice: so.originalPrice, price: so.price, active: so.active,
            byOperator: so.suspendedByOperator ?? false, settlement: json(so.settlement), outcomeStatus: so.outcomeStatus,
            selectionOutcome: so.selectionOutcome, updatedTs: so.updatedTs,
          })),
        ),
      );
      // Markets and their outcomes in one statement (the market upsert as a data-modifying WITH, which
      // runs to completion whether or not it is read). Unchanged outcomes (a producer down flipping only
      // the market's flag) are not rewritten.
      await ex.execute(sql`
        WITH upserted_markets AS (${upsertMarkets})
        INSERT INTO feed_outcomes AS o (event_id, market_key, outcome_id, original_price, price, active, suspended_by_operator,
          settlement, outcome_status, selection_outcome, updated_ts)
        SELECT event_id, market_key, outcome_id, original_price::numeric, price::numeric, active, suspended_by_operator,
          settlement::jsonb, outcome_status, selection_outcome, updated_ts
        FROM unnest(${arr(o.eventId)}::text[], ${arr(o.key)}::text[], ${arr(o.id)}::text[], ${arr(o.originalPrice)}::text[],
          ${arr(o.price)}::text[], ${arr(o.active)}::bool[], ${arr(o.byOperator)}::bool[], ${arr(o.settlement)}::text[],
          ${arr(o.outcomeStatus)}::smallint[], ${arr(o.selectionOutcome)}::smallint[], ${arr(o.updatedTs)}::bigint[])
          AS u(event_id, market_key, outcome_id, original_price, price, active, suspended_by_operator, settlement,
            outcome_status, selection_outcome, updated_ts)
        ON CONFLICT (event_id, market_key, outcome_id) DO UPDATE SET
          original_price = excluded.original_price, price = excluded.price, active = excluded.active,
          suspended_by_operator = excluded.suspended_by_operator, settlement = excluded.settlement,
          outcome_status = excluded.outcome_status, selection_outcome = excluded.selection_outcome,
          updated_ts = excluded.updated_ts, updated_at = now()
        WHERE (o.original_price, o.price, o.active, o.suspended_by_operator, o.settlement, o.outcome_status,
            o.selection_outcome, o.updated_ts)
          IS DISTINCT FROM (excluded.original_price, excluded.price, excluded.active, excluded.suspended_by_operator,
            excluded.settlement, excluded.outcome_status, excluded.selection_outcome, excluded.updated_ts)`);
    }

    const historyRows = markets.flatMap((m) => {
      const from = this.storedHistory.get(m) ?? 0;
      return m.history.slice(from).map((entry, i) => ({
        eventId: m.eventId,
        marketKey: m.key,
        seq: from + i,
        kind: entry.kind,
        ts: entry.ts,
        entry,
      }));
    });
    for (const part of chunks(historyRows)) await ex.insert(feedMarketHistory).values(part).onConflictDoNothing();
    for (const m of markets) this.storedHistory.set(m, m.history.length);
  }

  // -------------------------------------------------------------------------------------------
  // Inspection (tests, tools)

  async market(eventId: string, typeId: number, specifiers = ''): Promise<StoredMarket | undefined> {
    const [m] = await this.getMarkets(eventId, [marketKey(typeId, specifiers)]);
    return m;
  }

  /** Forget every fingerprint (the rules must stay idempotent without them). */
  async clearSeen(): Promise<void> {
    await this.ex.delete(feedFingerprints);
  }
}
