/**
 * The Unified Odds Feed client: what stands between Sportradar's feed (or its sandbox) and the feed engine.
 *
 * Every message arrives through a transport (./transport.ts: AMQP, or in-process) as the XML UOF publishes,
 * is parsed and checked against the schema's shapes (./xml.ts) and handed to the engine as its message.
 * Two kinds need the REST API first: a `fixture_change` (and the first odds of a match the store does not
 * know) fetches the match's fixture (teams, tournament, start); a `bet_stop` names market groups, which the
 * market descriptions resolve to the event's markets.
 *
 * Recovery, per producer, as the protocol defines it:
 *  - up → down: the broker connection is lost, the producer says `alive subscribed="0"`, or no alive came
 *    within the gap (the engine's alive check). Down suspends the markets the producer fed.
 *  - down → recovering: on start, on reconnection, on `subscribed="0"`, and on the first alive after a
 *    silence, the client asks `POST /v1/{product}/recovery/initiate_request?after=…&request_id=…`, where
 *    `after` is the timestamp of the last alive the producer sent while up (everything before it was
 *    processed; durable in `feed_producers`), or a full recovery when that is unknown or older than the
 *    producer's recovery window. At most one request in flight per producer, and none sooner than the
 *    minimum interval after the last (the API limits recovery requests); a refused or unanswered request
 *    is asked again after it.
 *  - recovering → up: only on the `snapshot_complete` whose request_id is the request in flight. The
 *    messages of the snapshot apply as any other; one already applied before the drop is a duplicate
 *    (the engine's fingerprints and per-market timestamps).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { EVENT_STATUS, LOG_TYPE } from '@dau/domain';
import type { Db } from '../../../platform/db.js';
import type { FeedEngine } from '../engine.js';
import type { FeedMessageInput } from '../messages.js';
import { feedMarketDescriptions, feedProducerOutages, feedProducers } from '../schema.js';
import { productPath, UofApiError, type UofApi } from './api.js';
import { setMarketDescriptions } from './descriptions.js';
import type { UofTransport, UofDelivery } from './transport.js';
import type { UofFixture, UofMarketDescription, UofMessage, UofProducer } from './types.js';
import { parseUofMessage, toFeedMessage } from './xml.js';
import { sportFromUrn } from './sports.js';

export interface UofInterest {
  prematch: boolean;
  live: boolean;
  virtuals: boolean;
}

export interface UofClientOptions {
  engine: FeedEngine;
  db: Db;
  transport: UofTransport;
  api: UofApi;
  interest?: UofInterest;
  /** Language of fixtures and market descriptions (default 'en'). */
  lang?: string;
  nodeId?: number;
  /** How often the alive gap is checked (default 5 s; the gap itself is the engine's alive timeout). */
  aliveCheckMs?: number;
  /** No recovery request sooner than this after the previous one of the producer (default 30 s). */
  minRecoveryIntervalMs?: number;
  /** A recovery with no snapshot_complete after this long is asked again (default 10 min). */
  recoveryTimeoutMs?: number;
  /** Market descriptions are fetched again after this long (default 6 h). */
  descriptionsRefreshMs?: number;
  now?: () => number;
  /** Warnings (a refused request, a producer down) and the ordinary course (a recovery asked). */
  log?: (msg: string, err?: unknown) => void;
  info?: (msg: string) => void;
  /** After each document: what it was (null: not UOF) and whether it changed anything (tests and benches wait on it). */
  onProcessed?: (m: UofMessage | null, applied: boolean) => void;
}

export type ProducerState = 'up' | 'down' | 'recovering';

interface Producer {
  info: UofProducer;
  product: string;
  state: ProducerState;
  lastProcessedTs: number | null;
  /** The request in flight: its id, when it was asked, from when. */
  pending: { requestId: number; since: number; after: number | null } | null;
  lastRequestAt: number | null;
  retry: NodeJS.Timeout | null;
}

/** A manual recovery the client refuses: one is in flight, or the last was too recent. */
export class RecoveryRefused extends Error {
  constructor(
    readonly code: 'RECOVERY_IN_PROGRESS' | 'RECOVERY_TOO_SOON' | 'PRODUCER_UNKNOWN',
    readonly retryInMs = 0,
  ) {
    super(code);
  }
}

const FIXTURE_STATUS: Record<string, number> = {
  not_started: EVENT_STATUS.not_started,
  delayed: EVENT_STATUS.not_started,
  postponed: EVENT_STATUS.not_started,
  live: EVENT_STATUS.in_progress,
  suspended: EVENT_STATUS.interrupted,
  interrupted: EVENT_STATUS.interrupted,
  ended: EVENT_STATUS.ended,
  closed: EVENT_STATUS.ended,
  cancelled: EVENT_STATUS.cancelled,
  abandoned: EVENT_STATUS.abandoned,
};


/**
 * The market descriptions the feed client stored, into this process's names (every process calls it at
 * start: the client runs in one, the odds views and placement in all).
 */
export async function loadStoredMarketDescriptions(db: Db, lang = 'en'): Promise<number> {
  const rows = await db.select().from(feedMarketDescriptions).where(eq(feedMarketDescriptions.lang, lang));
  if (rows.length) setMarketDescriptions(lang, rows.map((r) => r.description));
  return rows.length;
}

export class UofClient {
  private readonly producers = new Map<number, Producer>();
  private readonly engine: FeedEngine;
  private readonly db: Db;
  private readonly now: () => number;
  private readonly lang: string;
  private readonly interest: UofInterest;
  private descriptions = new Map<number, UofMarketDescription>();
  private descriptionsAt = 0;
  private aliveTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Matches whose fixture the store has (seen by this client): odds changes of these read nothing first. */
  private readonly knownEvents = new Set<string>();
  private remember(eventId: string) {
    if (this.knownEvents.size >= 100_000) this.knownEvents.clear(); // a bound, not a cache policy: re-learnt on the next odds
    this.knownEvents.add(eventId);
  }
  /** Work started outside the message chain (recoveries, alive checks): `stop` waits for it. */
  private readonly background = new Set<Promise<unknown>>();
  /** Requests of event recoveries (the match screen): their snapshot ends without a snapshot_complete. */
  readonly eventRecoveries = new Map<number, string>();

  constructor(private readonly o: UofClientOptions) {
    this.engine = o.engine;
    this.db = o.db;
    this.now = o.now ?? Date.now;
    this.lang = o.lang ?? 'en';
    this.interest = o.interest ?? { prematch: true, live: true, virtuals: false };
  }

  /** Runs `fn` in the background, unless stopped: errors are logged, `stop` waits for it. */
  private later(what: string, fn: () => Promise<unknown>): void {
    if (this.stopped) return;
    const p = fn()
      .catch((err) => {
        if (!(err instanceof RecoveryRefused)) this.o.log?.(`uof: ${what} failed`, err);
      })
      .finally(() => this.background.delete(p));
    this.background.add(p);
  }

  /** Reads the producers, the market descriptions, connects, and recovers every producer of the interest. */
  async start(): Promise<void> {
    this.stopped = false;
    this.engine.recover = (producer) => this.later('recovery', () => this.recover(producer, 'alive after a silence'));
    this.engine.operatorRecovery = { producer: (p) => this.recover(p, 'operator', true), event: (e) => this.recoverEvent(e) };
    await this.loadProducers();
    await this.loadDescriptions().catch((err) => this.o.log?.('uof: market descriptions unavailable', err));
    await this.o.transport.start({
      onMessage: (d) => this.onMessage(d),
      onConnected: () => {
        for (const p of this.producers.values()) this.later('recovery', () => this.recover(p.info.id, 'connected'));
      },
      onDisconnected: (reason) => this.later('producers down', () => this.allDown(reason)),
    });
    this.aliveTimer = setInterval(() => {
      if (this.o.transport.backlog === 0) this.later('alive check', () => this.checkAlive());
    }, this.o.aliveCheckMs ?? 5000);
    this.aliveTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.aliveTimer) clearInterval(this.aliveTimer);
    for (const p of this.producers.values()) if (p.retry) clearTimeout(p.retry);
    this.engine.recover = undefined;
    this.engine.operatorRecovery = undefined;
    await this.o.transport.stop();
    while (this.background.size) await Promise.all([...this.background]);
  }

  /** The producers of the interest (their ids). */
  producerIds(): number[] {
    return [...this.producers.keys()];
  }

  state(producer: number): ProducerState | null {
    return this.producers.get(producer)?.state ?? null;
  }

  private inInterest(p: UofProducer): boolean {
    if (!p.active) return false;
    return (this.interest.live && p.scope.includes('live')) || (this.interest.prematch && p.scope.includes('prematch')) || (this.interest.virtuals && p.scope.includes('virtual'));
  }

  private async loadProducers(): Promise<void> {
    let list: UofProducer[];
    try {
      list = await this.o.api.producers();
    } catch (err) {
      // The API does not answer: the producers the database knows, until it does.
      this.o.log?.('uof: producers.xml unavailable, using the stored list', err);
      const rows = await this.db.select().from(feedProducers);
      list = rows.map((r) => ({
        id: r.producer,
        name: r.name,
        description: r.description,
        api_url: `/v1/${r.product}/`,
        active: true,
        scope: r.producer === 1 ? ['live'] : ['prematch'],
        stateful_recovery_window_in_minutes: r.recoveryWindowMinutes,
      }));
    }
    for (const info of list) {
      if (!this.inInterest(info)) continue;
      const product = productPath(info);
      const [row] = await this.db
        .insert(feedProducers)
        .values({ producer: info.id, name: info.name, description: info.description, product, recoveryWindowMinutes: info.stateful_recovery_window_in_minutes, state: 'down' })
        .onConflictDoUpdate({
          target: feedProducers.producer,
          set: { name: info.name, description: info.description, product, recoveryWindowMinutes: info.stateful_recovery_window_in_minutes, state: 'down', recoveryRequestId: null, recoverySince: null, recoveryAfterTs: null, updatedAt: new Date() },
        })
        .returning();
      this.producers.set(info.id, { info, product, state: 'down', lastProcessedTs: row.lastProcessedTs, pending: null, lastRequestAt: null, retry: null });
      // Down until its recovery completes: its markets stay suspended meanwhile.
      await this.engine.apply({ type: 'producer_down', producer: info.id, timestamp: this.now() });
    }
  }

  /** Market descriptions from the API into the database and memory; the stored ones when the API fails. */
  private async loadDescriptions(): Promise<void> {
    try {
      const list = await this.o.api.marketDescriptions(this.lang);
      this.descriptions = new Map(list.map((d) => [d.id, d]));
      setMarketDescriptions(this.lang, list);
      this.descriptionsAt = this.now();
      if (list.length)
        await this.db
          .insert(feedMarketDescriptions)
          .values(list.map((d) => ({ lang: this.lang, marketId: d.id, description: d })))
          .onConflictDoUpdate({ target: [feedMarketDescriptions.lang, feedMarketDescriptions.marketId], set: { description: sql`excluded.description`, fetchedAt: new Date() } });
    } catch (err) {
      const rows = await this.db.select().from(feedMarketDescriptions).where(eq(feedMarketDescriptions.lang, this.lang));
      this.descriptions = new Map(rows.map((r) => [r.marketId, r.description]));
      setMarketDescriptions(this.lang, rows.map((r) => r.description));
      this.descriptionsAt = this.now();
      throw err;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Messages

  private async onMessage(d: UofDelivery): Promise<void> {
    const parsed = parseUofMessage(d.body);
    if (!parsed.ok) {
      const product = /\bproduct="(\d+)"/.exec(d.body.toString('utf8', 0, 2000))?.[1];
      this.engine.reject(parsed.unknownType ? LOG_TYPE.radar_unknown_type : LOG_TYPE.radar_data_error, product ? Number(product) : null, parsed.error);
      this.o.onProcessed?.(null, false);
      return;
    }
    const applied = await this.handle(parsed.message);
    this.o.onProcessed?.(parsed.message, applied);
  }

  private async handle(m: UofMessage): Promise<boolean> {
    const p = this.producers.get(m.product);
    if (!p) return false; // a producer outside the interest (the bindings let through system messages of every producer)
    switch (m.type) {
      case 'alive':
        return this.alive(p, m.timestamp, m.subscribed);
      case 'snapshot_complete':
        return this.snapshotComplete(p, m.request_id, m.timestamp);
      case 'fixture_change':
        return this.fixtureChange(m.product, m.event_id, m.timestamp);
      case 'bet_stop': {
        const markets = await this.marketsOfGroups(m.event_id, m.groups);
        if (markets === null) return this.ingest({ type: 'bet_stop', producer: m.product, timestamp: m.timestamp, event_id: m.event_id });
        return markets.length ? this.ingest({ type: 'bet_stop', producer: m.product, timestamp: m.timestamp, event_id: m.event_id, markets }) : false;
      }
      default: {
        const fm = toFeedMessage(m);
        if (!fm) return false;
        // The store is read only for a match this client has not seen yet (its fixture may be needed) or an
        // odds change without sport_event_status (the match's status does not change): not on every message.
        if (m.type === 'odds_change' && (m.event_status === undefined || !this.knownEvents.has(m.event_id))) {
          const known = await this.engine.store.getEvent(m.event_id);
          if (known || (await this.fixtureChange(m.product, m.event_id, m.timestamp - 1, true))) this.remember(m.event_id);
          if (m.event_status === undefined && fm.type === 'odds_change') fm.event_status = known?.status ?? EVENT_STATUS.not_started;
        }
        return this.ingest(fm);
      }
    }
  }

  private async ingest(fm: FeedMessageInput): Promise<boolean> {
    const r = await this.engine.ingest(fm);
    return r.ok && r.applied;
  }

  /** The fixture of a match from the API, applied as the engine's fixture change. */
  private async fixtureChange(product: number, eventId: string, timestamp: number, quietly = false): Promise<boolean> {
    let f: UofFixture;
    try {
      f = await this.o.api.fixture(this.lang, eventId);
    } catch (err) {
      if (!quietly) this.engine.reject(LOG_TYPE.radar_data_error, product, `fixture of ${eventId}: ${(err as Error).message}`);
      return false;
    }
    this.remember(eventId);
    const home = f.competitors.find((c) => c.qualifier === 'home') ?? f.competitors[0];
    const away = f.competitors.find((c) => c.qualifier === 'away') ?? f.competitors[1];
    return this.ingest({
      type: 'fixture_change',
      producer: product,
      timestamp,
      event_id: eventId,
      sport_id: sportFromUrn(f.sport.id),
      league_id: f.tournament.id,
      league_name: f.tournament.name,
      home_team: home?.name ?? '',
      away_team: away?.name ?? '',
      start_time: f.start_time,
      status: FIXTURE_STATUS[f.status ?? 'not_started'] ?? EVENT_STATUS.not_started,
    });
  }

  /** A bet stop's groups as the event's markets; null: every market ('all', or no description knows a group). */
  private async marketsOfGroups(eventId: string, groups: string[]): Promise<Array<{ id: number; specifiers: string }> | null> {
    if (groups.length === 0 || groups.includes('all')) return null;
    if (this.now() - this.descriptionsAt > (this.o.descriptionsRefreshMs ?? 6 * 3600_000)) await this.loadDescriptions().catch(() => {});
    const ids = new Set<number>();
    for (const d of this.descriptions.values()) if (d.groups.some((g) => groups.includes(g))) ids.add(d.id);
    if (ids.size === 0) return null; // safer to stop everything than nothing
    return (await this.engine.store.getMarkets(eventId)).filter((mk) => ids.has(mk.typeId)).map((mk) => ({ id: mk.typeId, specifiers: mk.specifiers }));
  }

  private async alive(p: Producer, timestamp: number, subscribed: boolean): Promise<boolean> {
    const applied = await this.ingest({ type: 'alive', producer: p.info.id, timestamp, subscribed });
    const at = new Date(this.now());
    if (!subscribed) {
      await this.setState(p, 'down', { lastAliveAt: at }, 'alive subscribed=0');
      this.later('recovery', () => this.recover(p.info.id, 'alive subscribed=0'));
      return applied;
    }
    if (p.state === 'up') {
      // Everything before this alive is processed: the next recovery starts here.
      p.lastProcessedTs = timestamp;
      await this.db.update(feedProducers).set({ lastProcessedTs: timestamp, lastAliveAt: at, lastMessageAt: at, updatedAt: at }).where(eq(feedProducers.producer, p.info.id));
    } else {
      await this.db.update(feedProducers).set({ lastAliveAt: at, updatedAt: at }).where(eq(feedProducers.producer, p.info.id));
      // Down and alive again: the engine asks for the recovery (its `recover` hook) once this message is applied.
    }
    return applied;
  }

  private async snapshotComplete(p: Producer, requestId: number, timestamp: number): Promise<boolean> {
    if (this.eventRecoveries.delete(requestId)) return false;
    if (!p.pending || p.pending.requestId !== requestId) {
      this.o.log?.(`uof: snapshot_complete of request ${requestId} for producer ${p.info.id}, which is not the request in flight`);
      return false;
    }
    p.pending = null;
    await this.engine.apply({ type: 'producer_up', producer: p.info.id, timestamp });
    await this.setState(p, 'up', { recoveryRequestId: null, recoverySince: null, recoveryAfterTs: null });
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Recovery

  /**
   * The row first, then the state held in memory: what this process reports is never ahead of what the screens
   * read. A producer that stops being up opens an outage (`reason`), one up again closes it: the significant
   * events' history of outages.
   */
  private async setState(p: Producer, state: ProducerState, extra: Partial<typeof feedProducers.$inferInsert> = {}, reason = '') {
    const was = p.state;
    await this.db.transaction(async (tx) => {
      await tx.update(feedProducers).set({ state, updatedAt: new Date(), ...extra }).where(eq(feedProducers.producer, p.info.id));
      if (was === 'up' && state !== 'up') await tx.insert(feedProducerOutages).values({ producer: p.info.id, reason });
      else if (state === 'up' && was !== 'up')
        await tx.update(feedProducerOutages).set({ upAt: new Date() }).where(and(eq(feedProducerOutages.producer, p.info.id), isNull(feedProducerOutages.upAt)));
    });
    p.state = state;
  }

  /** Every producer down (the broker connection is lost): their markets suspended until recovered. */
  private async allDown(reason: string): Promise<void> {
    for (const p of this.producers.values()) {
      p.pending = null;
      if (p.state === 'down') continue;
      this.o.log?.(`uof: producer ${p.info.id} down (${reason})`);
      await this.engine.apply({ type: 'producer_down', producer: p.info.id, timestamp: this.now() });
      await this.setState(p, 'down', { recoveryRequestId: null, recoverySince: null, recoveryAfterTs: null }, reason);
    }
  }

  /** The alive gap: producers silent for longer than the engine's timeout go down. */
  async checkAlive(): Promise<number[]> {
    const down = await this.engine.checkAlive();
    for (const id of down) {
      const p = this.producers.get(id);
      if (!p) continue;
      p.pending = null;
      await this.setState(p, 'down', { recoveryRequestId: null, recoverySince: null, recoveryAfterTs: null }, 'no alive within the gap');
    }
    // A request whose snapshot never completed is asked again.
    for (const p of this.producers.values())
      if (p.pending && this.now() - p.pending.since > (this.o.recoveryTimeoutMs ?? 600_000)) {
        p.pending = null;
        this.later('recovery', () => this.recover(p.info.id, 'recovery timed out'));
      }
    return down;
  }

  /**
   * Asks the producer for a recovery (see the file's comment). Answers the request, or throws
   * RecoveryRefused when one is in flight or the last was too recent (the operator's button says so; an
   * automatic request is then asked again once the interval is over).
   */
  async recover(producer: number, reason: string, manual = false): Promise<{ requestId: number; after: number | null }> {
    const p = this.producers.get(producer);
    if (!p || this.stopped) throw new RecoveryRefused('PRODUCER_UNKNOWN');
    if (p.pending) throw new RecoveryRefused('RECOVERY_IN_PROGRESS');
    if (!this.o.transport.connected) throw new RecoveryRefused('RECOVERY_TOO_SOON', 1000);
    const now = this.now();
    const interval = this.o.minRecoveryIntervalMs ?? 30_000;
    if (p.lastRequestAt !== null && now - p.lastRequestAt < interval) {
      const wait = interval - (now - p.lastRequestAt);
      if (!manual) this.retryLater(p, wait);
      throw new RecoveryRefused('RECOVERY_TOO_SOON', wait);
    }
    const windowMs = p.info.stateful_recovery_window_in_minutes * 60_000;
    const after = p.lastProcessedTs !== null && now - p.lastProcessedTs < windowMs ? p.lastProcessedTs : null;
    const requestId = await this.nextRequestId();
    p.pending = { requestId, since: now, after };
    p.lastRequestAt = now;
    if (p.state === 'up') await this.engine.apply({ type: 'producer_down', producer, timestamp: now });
    await this.setState(p, 'recovering', { recoveryRequestId: requestId, recoverySince: new Date(now), recoveryAfterTs: after }, reason);
    this.o.info?.(`uof: recovery ${requestId} of producer ${producer} (${reason}) ${after === null ? 'full' : `after ${new Date(after).toISOString()}`}`);
    try {
      await this.o.api.initiateRecovery(p.product, requestId, after ?? undefined, this.o.nodeId);
    } catch (err) {
      this.o.log?.(`uof: recovery request ${requestId} of producer ${producer} refused`, err);
      if (p.pending?.requestId === requestId) {
        p.pending = null;
        await this.setState(p, 'down', { recoveryRequestId: null, recoverySince: null, recoveryAfterTs: null });
        this.retryLater(p, err instanceof UofApiError && err.status === 429 ? interval * 2 : interval);
      }
      throw err;
    }
    return { requestId, after };
  }

  private retryLater(p: Producer, wait: number) {
    if (p.retry || this.stopped) return;
    p.retry = setTimeout(() => {
      p.retry = null;
      if (p.state !== 'up' && !p.pending) this.later('recovery', () => this.recover(p.info.id, 'retry'));
    }, wait);
    p.retry.unref();
  }

  /** The match screen's recovery: the current odds of one event from each producer of the interest. */
  async recoverEvent(eventUrn: string): Promise<{ requestId: number }> {
    const requestId = await this.nextRequestId();
    this.eventRecoveries.set(requestId, eventUrn);
    let asked = 0;
    let last: unknown = null;
    for (const p of this.producers.values()) {
      try {
        await this.o.api.initiateEventRecovery(p.product, eventUrn, requestId, this.o.nodeId);
        asked++;
      } catch (err) {
        last = err;
      }
    }
    if (!asked && last) throw last;
    return { requestId };
  }

  private async nextRequestId(): Promise<number> {
    const r = (await this.db.execute(sql`select nextval('feed_recovery_request_seq')::bigint as id`)) as unknown as { rows: Array<{ id: string | number }> };
    return Number(r.rows[0].id);
  }
}

export type { UofMessage };
