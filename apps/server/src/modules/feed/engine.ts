/**
 * The feed engine: applies provider messages (./messages) to a FeedStore.
 *
 * Rules (each one has a test in apps/server/test/feed-engine.test.ts):
 *  - Idempotent re-delivery: every message's fingerprint (sha-1 of its canonical JSON) is recorded;
 *    a message already seen changes nothing. Independently of the fingerprint set, each rule is
 *    itself idempotent (per-market timestamps), so a purged fingerprint set stays safe.
 *  - Out-of-order odds: a market keeps the timestamp of the last odds change applied to it; an odds
 *    change not newer than it is ignored for that market (other markets of the message still apply).
 *  - A settlement may be the first message about a market: the market is created from it. The
 *    per-outcome result, void factor and dead-heat factor are stored, with the derived outcome status
 *    (OUTCOME_STATUS) and selection outcome (SELECTION_OUTCOME). A re-settlement (newer timestamp)
 *    replaces the previous one, which goes to the history; an older one is ignored.
 *  - A cancel stores its window per market ([start_time, end_time), either bound open): the betting
 *    engine voids only bets placed inside it (`isVoidedByCancel`). Without a window the outcomes are
 *    marked cancelled.
 *  - Rollback of a settlement / of a cancel puts the market back as it was before (unsettled /
 *    uncancelled) and appends to the market's history; nothing is deleted.
 *  - Bet stop suspends (suspendedByBetStop); the next newer odds change for the market lifts it.
 *  - Producer down (message, or `alive` with subscribed = false, or no alive for `aliveTimeoutMs`):
 *    every market last fed by that producer is flagged suspendedByProducer. Producer up (recovery)
 *    clears that flag only: operator and bet-stop suspensions stay.
 *  - Margin: `price = floor2(original / (1 + bps / 10000))`, never below 1.01 (decimal.js, no floats).
 *  - Statistics per producer: alive, last message time, counts per type, recoveries, errors
 *    (LOG_TYPE radar_data_error 13 / radar_unknown_type 14, reported through `onLog`).
 */
import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { BETTING_OFFER_STATUS, LOG_TYPE, OUTCOME_STATUS, SELECTION_OUTCOME, statusForSettlement } from '@dau/domain';
import {
  FEED_MESSAGE_TYPES,
  feedMessageSchema,
  marketKey,
  type BetCancel,
  type BetSettlement,
  type BetStop,
  type FeedMessage,
  type FeedMessageType,
  type FixtureChange,
  type MarketRef,
  type OddsChange,
  type RollbackBetCancel,
  type RollbackBetSettlement,
} from './messages';

// ---------------------------------------------------------------------------------------------
// Stored shapes (what the PostgreSQL tables of the next session hold)

export interface StoredEvent {
  eventId: string;
  sportId: number;
  leagueId: string;
  leagueName: string;
  homeTeam: string;
  awayTeam: string;
  startTime: number;
  /** EVENT_STATUS. */
  status: number;
  /** Provider timestamp of the last fixture change / odds change that set the status. */
  updatedTs: number;
}

export interface OutcomeSettlement {
  result: 0 | 1;
  voidFactor: 0 | 0.5 | 1;
  deadHeatFactor: number | null;
}

export interface StoredOutcome {
  id: string;
  /** Provider price without margin (decimal string); null when the provider sent none. */
  originalPrice: string | null;
  /** Price with margin (decimal string, 2 decimals); null when originalPrice is null. */
  price: string | null;
  active: boolean;
  /** Suspended by an operator (back office control): no feed message clears it. Absent = false. */
  suspendedByOperator?: boolean;
  settlement: OutcomeSettlement | null;
  /** OUTCOME_STATUS. */
  outcomeStatus: number;
  /** SELECTION_OUTCOME. */
  selectionOutcome: number;
  /** Provider timestamp of the last change. */
  updatedTs: number;
}

export interface SettlementRecord {
  ts: number;
  producer: number;
  outcomes: Record<string, OutcomeSettlement>;
}

export interface CancelRecord {
  ts: number;
  producer: number;
  /** Bets placed at or after this time are voided; null = open. */
  startTime: number | null;
  /** Bets placed before this time are voided; null = open. */
  endTime: number | null;
}

export type MarketHistoryEntry =
  | { kind: 'settled'; ts: number; settlement: SettlementRecord }
  | { kind: 'settlement_rolled_back'; ts: number; settlement: SettlementRecord }
  | { kind: 'cancelled'; ts: number; cancel: CancelRecord }
  | { kind: 'cancel_rolled_back'; ts: number; cancel: CancelRecord };

export interface StoredMarket {
  eventId: string;
  typeId: number;
  specifiers: string;
  /** marketKey(typeId, specifiers). */
  key: string;
  /** The producer that last fed the market (odds change or settlement). */
  producer: number;
  /** BETTING_OFFER_STATUS as sent by the provider. */
  status: number;
  suspendedByOperator: boolean;
  suspendedByBetStop: boolean;
  suspendedByProducer: boolean;
  /** Timestamp of the last odds change applied (0 = none yet). */
  lastOddsTs: number;
  /** Timestamp of the last bet stop applied (0 = none). */
  lastBetStopTs: number;
  outcomes: Record<string, StoredOutcome>;
  settlement: SettlementRecord | null;
  /** Offer status before the settlement, restored by its rollback. */
  statusBeforeSettlement: number | null;
  cancel: CancelRecord | null;
  history: MarketHistoryEntry[];
  /** Provider timestamp of the last change of any kind. */
  updatedTs: number;
}

/** Can a bettor back this market now (offer status bettable/no odds and no suspension of any kind). */
export function isMarketOpen(m: StoredMarket): boolean {
  return (
    (m.status === BETTING_OFFER_STATUS.bettable || m.status === BETTING_OFFER_STATUS.no_odds) &&
    !m.suspendedByOperator &&
    !m.suspendedByBetStop &&
    !m.suspendedByProducer &&
    m.settlement === null &&
    m.cancel === null
  );
}

/** Does the market's cancel void a bet placed at `placedAt` (epoch ms)? */
export function isVoidedByCancel(m: StoredMarket, placedAt: number): boolean {
  const c = m.cancel;
  if (!c) return false;
  return (c.startTime === null || placedAt >= c.startTime) && (c.endTime === null || placedAt < c.endTime);
}

// ---------------------------------------------------------------------------------------------
// The store (in memory here; PostgreSQL next session). Every method may be async.

export interface FeedStore {
  getEvent(eventId: string): Promise<StoredEvent | undefined>;
  upsertEvent(event: StoredEvent): Promise<void>;
  /** The markets of an event, all of them or those of `keys` (missing keys are simply absent). */
  getMarkets(eventId: string, keys?: readonly string[]): Promise<StoredMarket[]>;
  /** Insert or replace whole markets (one message's changes: one call, one transaction). */
  upsertMarkets(markets: readonly StoredMarket[]): Promise<void>;
  /** The markets last fed by a producer (producer down / up). */
  marketsOfProducer(producer: number): Promise<StoredMarket[]>;
  /** Record a message fingerprint; false when it was already recorded (re-delivery). */
  markSeen(fingerprint: string, ts: number): Promise<boolean>;
  /**
   * Optional: run `fn` (one message: its reads and its writes) as one transaction; the store's own
   * methods called inside `fn` join it. Without it each call stands alone (the in-memory store).
   */
  transaction?<T>(fn: () => Promise<T>): Promise<T>;
}

export class InMemoryFeedStore implements FeedStore {
  readonly events = new Map<string, StoredEvent>();
  /** eventId -> key -> market. */
  readonly markets = new Map<string, Map<string, StoredMarket>>();
  readonly seen = new Set<string>();

  async getEvent(eventId: string) {
    const e = this.events.get(eventId);
    return e ? structuredClone(e) : undefined;
  }
  async upsertEvent(event: StoredEvent) {
    this.events.set(event.eventId, structuredClone(event));
  }
  async getMarkets(eventId: string, keys?: readonly string[]) {
    const byKey = this.markets.get(eventId);
    if (!byKey) return [];
    const out: StoredMarket[] = [];
    if (keys) {
      for (const k of keys) {
        const m = byKey.get(k);
        if (m) out.push(cloneMarket(m));
      }
    } else for (const m of byKey.values()) out.push(cloneMarket(m));
    return out;
  }
  async upsertMarkets(markets: readonly StoredMarket[]) {
    for (const m of markets) {
      let byKey = this.markets.get(m.eventId);
      if (!byKey) this.markets.set(m.eventId, (byKey = new Map()));
      byKey.set(m.key, cloneMarket(m));
    }
  }
  async marketsOfProducer(producer: number) {
    const out: StoredMarket[] = [];
    for (const byKey of this.markets.values())
      for (const m of byKey.values()) if (m.producer === producer) out.push(cloneMarket(m));
    return out;
  }
  async markSeen(fingerprint: string) {
    if (this.seen.has(fingerprint)) return false;
    this.seen.add(fingerprint);
    return true;
  }
  /** Test/inspection helper: the stored market (a copy). */
  market(eventId: string, typeId: number, specifiers = ''): StoredMarket | undefined {
    const m = this.markets.get(eventId)?.get(marketKey(typeId, specifiers));
    return m ? cloneMarket(m) : undefined;
  }
}

/**
 * A copy deep enough that the engine never mutates what the store holds (what a database read gives).
 * History entries are immutable once written, so they are shared.
 */
function cloneMarket(m: StoredMarket): StoredMarket {
  const outcomes: Record<string, StoredOutcome> = {};
  for (const k in m.outcomes) outcomes[k] = { ...m.outcomes[k] };
  return { ...m, outcomes, history: m.history.slice() };
}

// ---------------------------------------------------------------------------------------------
// Margin

export const MIN_PRICE = new Decimal('1.01');

/**
 * The price offered to bettors: the provider price with a margin of `bps` basis points taken off the
 * implied probability's complement: original / (1 + bps/10000), rounded down to 2 decimals, never
 * below 1.01. A negative or non-finite margin counts as 0, so for any provider price >= 1.01 the
 * result lies in [1.01, original].
 */
export function applyMargin(original: string, bps: number): string {
  const o = new Decimal(original);
  const m = Number.isFinite(bps) && bps > 0 ? bps : 0;
  let p = o.div(new Decimal(m).div(10000).plus(1)).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  if (p.lt(MIN_PRICE)) p = MIN_PRICE; // provider prices below 1.01 are not offered anyway
  return p.toFixed(2);
}

export interface MarginContext {
  sportId: number | null;
  leagueId: string | null;
}
/** Basis points of margin for a sport/league (the operator's setting; the event may be unknown yet). */
export type MarginFn = (ctx: MarginContext) => number;

// ---------------------------------------------------------------------------------------------
// Statistics

export interface ProducerStats {
  producer: number;
  alive: boolean;
  /** Wall-clock (engine clock) time of the last message received from the producer, null = never. */
  lastMessageAt: number | null;
  lastAliveAt: number | null;
  messages: Record<FeedMessageType, number>;
  duplicates: number;
  /** Market updates ignored because older than the stored state. */
  outOfOrder: number;
  downs: number;
  recoveries: number;
  /** A recovery was asked and its producer_up has not arrived yet. */
  recovering: boolean;
  /** Selection (outcome) price/state updates applied. */
  selectionUpdates: number;
  errors: { dataError: number; unknownType: number };
  lastError: string | null;
}

export interface FeedLogEntry {
  /** LOG_TYPE.radar_data_error or LOG_TYPE.radar_unknown_type. */
  logType: number;
  producer: number | null;
  message: string;
}

export type IngestResult =
  | { ok: true; applied: boolean; type: FeedMessageType }
  | { ok: false; logType: number; error: string };

export interface FeedEngineOptions {
  margin?: MarginFn;
  /** Engine clock (epoch ms) for statistics and alive timeouts; inject in tests/simulations. */
  now?: () => number;
  /** No alive from a producer for this long (engine clock) → producer down. Default 20 s. */
  aliveTimeoutMs?: number;
  onLog?: (entry: FeedLogEntry) => void;
  /**
   * Called after a message changed something (never for a re-delivery), once its transaction has
   * committed: live views refresh from it and the betting engine settles from settlement messages.
   */
  onApplied?: (msg: FeedMessage) => void;
  /**
   * Called inside a message's transaction once it changed something, before the commit: work that must
   * follow the message (settling its orders) is enqueued here as a durable job, so the message and its
   * job commit together or not at all.
   */
  onApplying?: (msg: FeedMessage) => Promise<void>;
  /**
   * A producer that is down says it is alive (and subscribed) again: ask it to recover, i.e. send the
   * state of its events again and then `producer_up` (UOF: a recovery request, ended by snapshot_complete).
   * Asked once until the producer is up. Without it, an alive brings the producer up at once.
   */
  recover?: (producer: number) => void;
}

/** Outcome status and selection outcome of a settlement: the domain's rule, shared with the betting engine. */
const OUTCOME_BY_SETTLEMENT = (s: OutcomeSettlement) => statusForSettlement(s);

function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

export function fingerprint(msg: FeedMessage): string {
  return createHash('sha1').update(canonical(msg)).digest('hex');
}

function newMarket(eventId: string, ref: MarketRef, producer: number, ts: number, producerDown: boolean): StoredMarket {
  return {
    eventId,
    typeId: ref.id,
    specifiers: ref.specifiers,
    key: marketKey(ref.id, ref.specifiers),
    producer,
    status: BETTING_OFFER_STATUS.bettable,
    suspendedByOperator: false,
    suspendedByBetStop: false,
    suspendedByProducer: producerDown,
    lastOddsTs: 0,
    lastBetStopTs: 0,
    outcomes: {},
    settlement: null,
    statusBeforeSettlement: null,
    cancel: null,
    history: [],
    updatedTs: ts,
  };
}

/** Timestamp of the latest settlement / cancel the market ever had (rolled back or not), 0 = none. */
function lastTs(m: StoredMarket, kind: 'settled' | 'cancelled'): number {
  let t = 0;
  for (const h of m.history) if (h.kind === kind && h.ts > t) t = h.ts;
  return t;
}

function newOutcome(id: string, ts: number): StoredOutcome {
  return {
    id,
    originalPrice: null,
    price: null,
    active: true,
    settlement: null,
    outcomeStatus: OUTCOME_STATUS.pending,
    selectionOutcome: SELECTION_OUTCOME.pending,
    updatedTs: ts,
  };
}

// ---------------------------------------------------------------------------------------------

export class FeedEngine {
  private readonly producers = new Map<number, ProducerStats>();
  private readonly margin: MarginFn;
  private readonly now: () => number;
  private readonly aliveTimeoutMs: number;
  private readonly onLog: (e: FeedLogEntry) => void;

  constructor(
    readonly store: FeedStore,
    opts: FeedEngineOptions = {},
  ) {
    this.margin = opts.margin ?? (() => 0);
    this.now = opts.now ?? Date.now;
    this.aliveTimeoutMs = opts.aliveTimeoutMs ?? 20_000;
    this.onLog = opts.onLog ?? (() => {});
    this.onApplied = opts.onApplied ?? (() => {});
    this.onApplying = opts.onApplying ?? (async () => {});
    this.recover = opts.recover;
  }
  /** Set by the feed's runner (the sandbox's recovery, or the real feed's recovery request). */
  recover?: (producer: number) => void;
  /**
   * The operator's recoveries (the producer panel's and the match screen's buttons), set by the UOF client
   * while it runs in this process; absent elsewhere.
   */
  operatorRecovery?: {
    producer(producer: number): Promise<{ requestId: number; after: number | null }>;
    event(eventId: string): Promise<{ requestId: number }>;
  };
  /** Recoveries to ask for once the current message's transaction is over. */
  private readonly recoveries: number[] = [];
  private readonly onApplied: (msg: FeedMessage) => void;
  private readonly onApplying: (msg: FeedMessage) => Promise<void>;

  /** Validate and apply a raw payload (what the transport hands over). Never throws on bad input. */
  async ingest(raw: unknown): Promise<IngestResult> {
    const rawProducer =
      raw && typeof raw === 'object' && typeof (raw as { producer?: unknown }).producer === 'number'
        ? ((raw as { producer: number }).producer as number)
        : null;
    const rawType = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
    if (typeof rawType !== 'string' || !(FEED_MESSAGE_TYPES as readonly string[]).includes(rawType)) {
      return this.reject(LOG_TYPE.radar_unknown_type, rawProducer, `unknown message type: ${String(rawType)}`);
    }
    const parsed = feedMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.reject(
        LOG_TYPE.radar_data_error,
        rawProducer,
        `invalid ${rawType}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid payload'}`,
      );
    }
    const applied = await this.apply(parsed.data);
    return { ok: true, applied, type: parsed.data.type };
  }

  /** A payload the transport could not hand over (bad XML, an unknown message, an invalid one): counted and logged. */
  reject(logType: number, producer: number | null, message: string): IngestResult {
    if (producer !== null) {
      const s = this.stats0(producer);
      if (logType === LOG_TYPE.radar_unknown_type) s.errors.unknownType++;
      else s.errors.dataError++;
      s.lastError = message;
      s.lastMessageAt = this.now();
    } else this.unattributedErrors[logType === LOG_TYPE.radar_unknown_type ? 'unknownType' : 'dataError']++;
    this.onLog({ logType, producer, message });
    return { ok: false, logType, error: message };
  }

  /** Errors of payloads that did not even name a producer. */
  readonly unattributedErrors = { dataError: 0, unknownType: 0 };

  /** Apply a validated message. Returns false when it was a re-delivery (nothing changed). */
  async apply(msg: FeedMessage): Promise<boolean> {
    const s = this.stats0(msg.producer);
    s.lastMessageAt = this.now();
    s.messages[msg.type]++;
    const changed = await this.inTransaction(async () => {
      const done = await this.applyOnce(msg, s);
      if (done) await this.onApplying(msg);
      return done;
    });
    if (changed) this.onApplied(msg);
    for (const producer of this.recoveries.splice(0)) this.recover?.(producer);
    return changed;
  }

  /** One message, one transaction when the store has them (the fingerprint is recorded with the changes). */
  private inTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.store.transaction ? this.store.transaction(fn) : fn();
  }

  private async applyOnce(msg: FeedMessage, s: ProducerStats): Promise<boolean> {
    if (!(await this.store.markSeen(fingerprint(msg), msg.timestamp))) {
      s.duplicates++;
      return false;
    }
    switch (msg.type) {
      case 'fixture_change':
        await this.fixtureChange(msg);
        break;
      case 'odds_change':
        await this.oddsChange(msg, s);
        break;
      case 'bet_stop':
        await this.betStop(msg);
        break;
      case 'bet_settlement':
        await this.settlement(msg, s);
        break;
      case 'bet_cancel':
        await this.cancel(msg);
        break;
      case 'rollback_bet_settlement':
        await this.rollbackSettlement(msg);
        break;
      case 'rollback_bet_cancel':
        await this.rollbackCancel(msg);
        break;
      case 'alive':
        s.lastAliveAt = this.now();
        if (!msg.subscribed) await this.producerDown(msg.producer);
        else if (!s.alive) {
          // Down (silent, or unsubscribed) and alive again: it comes back through recovery, once.
          if (!this.recover) await this.producerUp(msg.producer);
          else if (!s.recovering) {
            // Asked once the message's transaction is over: what the recovery sends runs outside it.
            s.recovering = true;
            this.recoveries.push(msg.producer);
          }
        }
        break;
      case 'producer_down':
        await this.producerDown(msg.producer);
        break;
      case 'producer_up':
        await this.producerUp(msg.producer);
        break;
    }
    return true;
  }

  /** Call periodically: a producer silent (no alive) for longer than the timeout goes down. */
  async checkAlive(): Promise<number[]> {
    const now = this.now();
    const down: number[] = [];
    for (const s of this.producers.values()) {
      const last = s.lastAliveAt ?? s.lastMessageAt;
      if (s.alive && last !== null && now - last > this.aliveTimeoutMs) {
        await this.inTransaction(() => this.producerDown(s.producer));
        down.push(s.producer);
      }
    }
    return down;
  }

  /** Operator suspension of a market (the audited control of the odds view calls this). */
  /**
   * The operator's suspension of a market (or of one of its outcomes): a flag of its own that no feed
   * message clears (odds changes, bet stops and producer recovery touch only their own flags).
   */
  async setOperatorSuspension(eventId: string, typeId: number, specifiers: string, suspended: boolean): Promise<boolean> {
    return (await this.setOperatorSuspensionByKey(eventId, marketKey(typeId, specifiers), suspended)) !== null;
  }

  /**
   * Same, by market key, optionally for one outcome (`outcomeId`). Returns the flag before and the
   * market after the change, or null when the market (or the outcome) is unknown. Joins the caller's
   * store transaction when there is one.
   */
  async setOperatorSuspensionByKey(
    eventId: string,
    key: string,
    suspended: boolean,
    outcomeId?: string,
  ): Promise<{ before: boolean; market: StoredMarket } | null> {
    return this.inTransaction(async () => {
      const [m] = await this.store.getMarkets(eventId, [key]);
      if (!m) return null;
      let before: boolean;
      if (outcomeId !== undefined) {
        const o = m.outcomes[outcomeId];
        if (!o) return null;
        before = o.suspendedByOperator ?? false;
        o.suspendedByOperator = suspended;
      } else {
        before = m.suspendedByOperator;
        m.suspendedByOperator = suspended;
      }
      await this.store.upsertMarkets([m]);
      return { before, market: m };
    });
  }

  /** Operator suspension of every market of an event (a cancelled match). Returns the keys changed. */
  async suspendAllMarkets(eventId: string): Promise<string[]> {
    return this.inTransaction(async () => {
      const changed = (await this.store.getMarkets(eventId)).filter((m) => !m.suspendedByOperator);
      for (const m of changed) m.suspendedByOperator = true;
      await this.store.upsertMarkets(changed);
      return changed.map((m) => m.key);
    });
  }

  stats(): ProducerStats[] {
    return [...this.producers.values()].map((s) => ({
      ...s,
      messages: { ...s.messages },
      errors: { ...s.errors },
    }));
  }

  isProducerDown(producer: number): boolean {
    const s = this.producers.get(producer);
    return s !== undefined && !s.alive;
  }

  private stats0(producer: number): ProducerStats {
    let s = this.producers.get(producer);
    if (!s) {
      const messages = {} as Record<FeedMessageType, number>;
      for (const t of FEED_MESSAGE_TYPES) messages[t] = 0;
      s = {
        producer,
        alive: true,
        lastMessageAt: null,
        lastAliveAt: null,
        messages,
        duplicates: 0,
        outOfOrder: 0,
        downs: 0,
        recoveries: 0,
        recovering: false,
        selectionUpdates: 0,
        errors: { dataError: 0, unknownType: 0 },
        lastError: null,
      };
      this.producers.set(producer, s);
    }
    return s;
  }

  // -------------------------------------------------------------------------------------------

  private async fixtureChange(msg: FixtureChange) {
    const prev = await this.store.getEvent(msg.event_id);
    if (prev && prev.updatedTs > msg.timestamp) return; // older fixture: ignore
    await this.store.upsertEvent({
      eventId: msg.event_id,
      sportId: msg.sport_id,
      leagueId: msg.league_id,
      leagueName: msg.league_name,
      homeTeam: msg.home_team,
      awayTeam: msg.away_team,
      startTime: msg.start_time,
      status: msg.status,
      updatedTs: msg.timestamp,
    });
  }

  private async oddsChange(msg: OddsChange, s: ProducerStats) {
    const event = await this.store.getEvent(msg.event_id);
    if (event && event.updatedTs < msg.timestamp && event.status !== msg.event_status) {
      event.status = msg.event_status;
      event.updatedTs = msg.timestamp;
      await this.store.upsertEvent(event);
    }
    const bps = this.margin({ sportId: event?.sportId ?? null, leagueId: event?.leagueId ?? null });
    const keys = msg.markets.map((m) => marketKey(m.id, m.specifiers));
    const existing = new Map((await this.store.getMarkets(msg.event_id, keys)).map((m) => [m.key, m]));
    const down = this.isProducerDown(msg.producer);
    const changed: StoredMarket[] = [];
    msg.markets.forEach((mm, i) => {
      const key = keys[i];
      let m = existing.get(key);
      if (m && msg.timestamp <= m.lastOddsTs) {
        s.outOfOrder++;
        return;
      }
      if (!m) m = newMarket(msg.event_id, mm, msg.producer, msg.timestamp, down);
      m.producer = msg.producer;
      m.suspendedByProducer = down;
      m.status = mm.status;
      m.lastOddsTs = msg.timestamp;
      m.updatedTs = msg.timestamp;
      if (msg.timestamp > m.lastBetStopTs) m.suspendedByBetStop = false;
      for (const o of mm.outcomes) {
        const so = m.outcomes[o.id] ?? (m.outcomes[o.id] = newOutcome(o.id, msg.timestamp));
        so.originalPrice = o.price ?? null;
        so.price = o.price === undefined ? null : applyMargin(o.price, bps);
        so.active = o.active;
        so.updatedTs = msg.timestamp;
        s.selectionUpdates++;
      }
      changed.push(m);
    });
    if (changed.length) await this.store.upsertMarkets(changed);
  }

  private async betStop(msg: BetStop) {
    const markets = await this.store.getMarkets(
      msg.event_id,
      msg.markets?.map((m) => marketKey(m.id, m.specifiers)),
    );
    const changed: StoredMarket[] = [];
    for (const m of markets) {
      // A bet stop older than the odds that reopened the market is stale.
      if (msg.timestamp <= m.lastBetStopTs || msg.timestamp < m.lastOddsTs) continue;
      m.suspendedByBetStop = true;
      m.lastBetStopTs = msg.timestamp;
      m.updatedTs = Math.max(m.updatedTs, msg.timestamp);
      changed.push(m);
    }
    if (changed.length) await this.store.upsertMarkets(changed);
  }

  private async settlement(msg: BetSettlement, s: ProducerStats) {
    const keys = msg.markets.map((m) => marketKey(m.id, m.specifiers));
    const existing = new Map((await this.store.getMarkets(msg.event_id, keys)).map((m) => [m.key, m]));
    const down = this.isProducerDown(msg.producer);
    const changed: StoredMarket[] = [];
    msg.markets.forEach((mm, i) => {
      let m = existing.get(keys[i]);
      // Not newer than the current settlement, or than one already rolled back (a late re-delivery).
      if (m && msg.timestamp <= lastTs(m, 'settled')) {
        s.outOfOrder++;
        return;
      }
      if (!m) m = newMarket(msg.event_id, mm, msg.producer, msg.timestamp, down);
      const record: SettlementRecord = { ts: msg.timestamp, producer: msg.producer, outcomes: {} };
      for (const o of mm.outcomes) {
        const st: OutcomeSettlement = {
          result: o.result,
          voidFactor: o.void_factor,
          deadHeatFactor: o.dead_heat_factor ?? null,
        };
        record.outcomes[o.id] = st;
        const so = m.outcomes[o.id] ?? (m.outcomes[o.id] = newOutcome(o.id, msg.timestamp));
        so.settlement = st;
        Object.assign(so, OUTCOME_BY_SETTLEMENT(st));
        so.updatedTs = msg.timestamp;
      }
      if (m.settlement === null) m.statusBeforeSettlement = m.status;
      m.settlement = record;
      m.status = BETTING_OFFER_STATUS.resolved;
      m.history.push({ kind: 'settled', ts: msg.timestamp, settlement: record });
      m.updatedTs = Math.max(m.updatedTs, msg.timestamp);
      changed.push(m);
    });
    if (changed.length) await this.store.upsertMarkets(changed);
  }

  private async cancel(msg: BetCancel) {
    const markets = await this.store.getMarkets(
      msg.event_id,
      msg.markets?.map((m) => marketKey(m.id, m.specifiers)),
    );
    // A cancel naming markets we never saw still has to be stored: the betting engine may hold bets on them.
    const known = new Set(markets.map((m) => m.key));
    const down = this.isProducerDown(msg.producer);
    for (const ref of msg.markets ?? [])
      if (!known.has(marketKey(ref.id, ref.specifiers)))
        markets.push(newMarket(msg.event_id, ref, msg.producer, msg.timestamp, down));
    const changed: StoredMarket[] = [];
    for (const m of markets) {
      if (msg.timestamp <= lastTs(m, 'cancelled')) continue;
      const cancel: CancelRecord = {
        ts: msg.timestamp,
        producer: msg.producer,
        startTime: msg.start_time ?? null,
        endTime: msg.end_time ?? null,
      };
      m.cancel = cancel;
      if (cancel.startTime === null && cancel.endTime === null)
        for (const o of Object.values(m.outcomes)) {
          o.outcomeStatus = OUTCOME_STATUS.cancelled;
          o.selectionOutcome = SELECTION_OUTCOME.refunded;
          o.updatedTs = msg.timestamp;
        }
      m.history.push({ kind: 'cancelled', ts: msg.timestamp, cancel });
      m.updatedTs = Math.max(m.updatedTs, msg.timestamp);
      changed.push(m);
    }
    if (changed.length) await this.store.upsertMarkets(changed);
  }

  private async rollbackSettlement(msg: RollbackBetSettlement) {
    const markets = await this.store.getMarkets(
      msg.event_id,
      msg.markets.map((m) => marketKey(m.id, m.specifiers)),
    );
    const changed: StoredMarket[] = [];
    for (const m of markets) {
      if (!m.settlement || msg.timestamp < m.settlement.ts) continue;
      m.history.push({ kind: 'settlement_rolled_back', ts: msg.timestamp, settlement: m.settlement });
      m.settlement = null;
      m.status = m.statusBeforeSettlement ?? BETTING_OFFER_STATUS.bettable;
      m.statusBeforeSettlement = null;
      for (const o of Object.values(m.outcomes)) {
        o.settlement = null;
        o.outcomeStatus = m.cancel && m.cancel.startTime === null && m.cancel.endTime === null ? OUTCOME_STATUS.cancelled : OUTCOME_STATUS.pending;
        o.selectionOutcome = o.outcomeStatus === OUTCOME_STATUS.cancelled ? SELECTION_OUTCOME.refunded : SELECTION_OUTCOME.pending;
        o.updatedTs = msg.timestamp;
      }
      m.updatedTs = Math.max(m.updatedTs, msg.timestamp);
      changed.push(m);
    }
    if (changed.length) await this.store.upsertMarkets(changed);
  }

  private async rollbackCancel(msg: RollbackBetCancel) {
    const markets = await this.store.getMarkets(
      msg.event_id,
      msg.markets.map((m) => marketKey(m.id, m.specifiers)),
    );
    const changed: StoredMarket[] = [];
    for (const m of markets) {
      const c = m.cancel;
      if (!c || msg.timestamp < c.ts) continue;
      // A rollback naming a window only undoes the cancel of that window.
      if (msg.start_time !== undefined && msg.start_time !== c.startTime) continue;
      if (msg.end_time !== undefined && msg.end_time !== c.endTime) continue;
      m.history.push({ kind: 'cancel_rolled_back', ts: msg.timestamp, cancel: c });
      m.cancel = null;
      for (const o of Object.values(m.outcomes)) {
        if (o.settlement) Object.assign(o, OUTCOME_BY_SETTLEMENT(o.settlement));
        else {
          o.outcomeStatus = OUTCOME_STATUS.pending;
          o.selectionOutcome = SELECTION_OUTCOME.pending;
        }
        o.updatedTs = msg.timestamp;
      }
      m.updatedTs = Math.max(m.updatedTs, msg.timestamp);
      changed.push(m);
    }
    if (changed.length) await this.store.upsertMarkets(changed);
  }

  private async producerDown(producer: number) {
    const s = this.stats0(producer);
    if (s.alive) s.downs++;
    s.alive = false;
    const changed = (await this.store.marketsOfProducer(producer)).filter((m) => !m.suspendedByProducer);
    for (const m of changed) m.suspendedByProducer = true;
    if (changed.length) await this.store.upsertMarkets(changed);
  }

  private async producerUp(producer: number) {
    const s = this.stats0(producer);
    if (!s.alive) s.recoveries++;
    s.alive = true;
    s.recovering = false;
    s.lastAliveAt = this.now();
    const changed = (await this.store.marketsOfProducer(producer)).filter((m) => m.suspendedByProducer);
    for (const m of changed) m.suspendedByProducer = false;
    if (changed.length) await this.store.upsertMarkets(changed);
  }
}
