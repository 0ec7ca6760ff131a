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
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db.js';
import type { FeedStore, StoredEvent, StoredMarket, StoredOutcome } from './engine.js';
import { marketKey } from './messages.js';
import { feedEvents, feedFingerprints, feedMarketHistory, feedMarkets, feedOutcomes } from './schema.js';

interface TxContext {
  tx: Executor;
  /** Events whose advisory lock this transaction holds. */
  locked: Set<string>;
}

/** Rows per INSERT (well under PostgreSQL's 65,535 bind parameters). */
const CHUNK = 1000;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

const excluded = (column: string): SQL => sql.raw(`excluded."${column}"`);

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
    const where = keys
      ? and(eq(feedMarkets.eventId, eventId), inArray(feedMarkets.marketKey, [...keys]))
      : eq(feedMarkets.eventId, eventId);
    const rows = await this.ex.select().from(feedMarkets).where(where);
    if (!rows.length) return [];
    const found = rows.map((r) => r.marketKey);
    const outcomes = await this.ex
      .select()
      .from(feedOutcomes)
      .where(and(eq(feedOutcomes.eventId, eventId), inArray(feedOutcomes.marketKey, found)));
    const history = await this.ex
      .select()
      .from(feedMarketHistory)
      .where(and(eq(feedMarketHistory.eventId, eventId), inArray(feedMarketHistory.marketKey, found)))
      .orderBy(asc(feedMarketHistory.seq));
    return this.assemble(rows, outcomes, history);
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
    for (const m of out) this.storedHistory.set(m, m.history.length);
    return out;
  }

  async upsertMarkets(markets: readonly StoredMarket[]): Promise<void> {
    if (!markets.length) return;
    const ex = this.ex;
    const marketRows = markets.map((m) => ({
      eventId: m.eventId,
      marketKey: m.key,
      typeId: m.typeId,
      specifiers: m.specifiers,
      producer: m.producer,
      status: m.status,
      suspendedByOperator: m.suspendedByOperator,
      suspendedByBetStop: m.suspendedByBetStop,
      suspendedByProducer: m.suspendedByProducer,
      lastOddsTs: m.lastOddsTs,
      lastBetStopTs: m.lastBetStopTs,
      settlement: m.settlement,
      statusBeforeSettlement: m.statusBeforeSettlement,
      cancel: m.cancel,
      updatedTs: m.updatedTs,
    }));
    for (const part of chunks(marketRows))
      await ex
        .insert(feedMarkets)
        .values(part)
        .onConflictDoUpdate({
          target: [feedMarkets.eventId, feedMarkets.marketKey],
          set: {
            typeId: excluded('type_id'),
            specifiers: excluded('specifiers'),
            producer: excluded('producer'),
            status: excluded('status'),
            suspendedByOperator: excluded('suspended_by_operator'),
            suspendedByBetStop: excluded('suspended_by_bet_stop'),
            suspendedByProducer: excluded('suspended_by_producer'),
            lastOddsTs: excluded('last_odds_ts'),
            lastBetStopTs: excluded('last_bet_stop_ts'),
            settlement: excluded('settlement'),
            statusBeforeSettlement: excluded('status_before_settlement'),
            cancel: excluded('cancel'),
            updatedTs: excluded('updated_ts'),
            updatedAt: sql`now()`,
          },
        });

    const outcomeRows = markets.flatMap((m) =>
      Object.values(m.outcomes).map((o) => ({
        eventId: m.eventId,
        marketKey: m.key,
        outcomeId: o.id,
        originalPrice: o.originalPrice,
        price: o.price,
        active: o.active,
        suspendedByOperator: o.suspendedByOperator ?? false,
        settlement: o.settlement,
        outcomeStatus: o.outcomeStatus,
        selectionOutcome: o.selectionOutcome,
        updatedTs: o.updatedTs,
      })),
    );
    for (const part of chunks(outcomeRows))
      await ex
        .insert(feedOutcomes)
        .values(part)
        .onConflictDoUpdate({
          target: [feedOutcomes.eventId, feedOutcomes.marketKey, feedOutcomes.outcomeId],
          set: {
            originalPrice: excluded('original_price'),
            price: excluded('price'),
            active: excluded('active'),
            suspendedByOperator: excluded('suspended_by_operator'),
            settlement: excluded('settlement'),
            outcomeStatus: excluded('outcome_status'),
            selectionOutcome: excluded('selection_outcome'),
            updatedTs: excluded('updated_ts'),
            updatedAt: sql`now()`,
          },
          // Unchanged outcomes (a producer down flipping only the market's flag) are not rewritten.
          setWhere: sql`(${feedOutcomes.originalPrice}, ${feedOutcomes.price}, ${feedOutcomes.active}, ${feedOutcomes.suspendedByOperator}, ${feedOutcomes.settlement}, ${feedOutcomes.outcomeStatus}, ${feedOutcomes.selectionOutcome}, ${feedOutcomes.updatedTs})
            IS DISTINCT FROM (excluded."original_price", excluded."price", excluded."active", excluded."suspended_by_operator", excluded."settlement", excluded."outcome_status", excluded."selection_outcome", excluded."updated_ts")`,
        });

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
