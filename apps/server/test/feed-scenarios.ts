/**
 * The feed engine's message-handling rules, written once and run on every FeedStore: the in-memory
 * store (feed-engine.test.ts) and PgFeedStore on the real database (feed-store.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { BETTING_OFFER_STATUS, EVENT_STATUS, LOG_TYPE, OUTCOME_STATUS, SELECTION_OUTCOME, SPORT } from '@dau/domain';
import {
  FeedEngine,
  isMarketOpen,
  isVoidedByCancel,
  type FeedLogEntry,
  type FeedStore,
  type StoredMarket,
} from '../src/modules/feed/engine';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import type { PgFeedStore } from '../src/modules/feed/pg-store';
import { FB } from '../src/modules/feed/simulator';

/** A store under test plus what the scenarios inspect it with. A new harness starts empty. */
export interface FeedHarness {
  store: FeedStore;
  market(eventId: string, typeId: number, specifiers?: string): Promise<StoredMarket | undefined>;
  /** Every market of an event, ordered by key. */
  markets(eventId: string): Promise<StoredMarket[]>;
  /** Forget every message fingerprint. */
  clearSeen(): Promise<void>;
}

export const EV = 'sr:match:1001';
export const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

/** Simba v Yanga in the Premier League, kicking off an hour after T0. */
export const fixture = (ts = T0, eventId = EV, status: number = EVENT_STATUS.not_started): FeedMessageInput => ({
  type: 'fixture_change',
  producer: PRODUCER.prematch,
  timestamp: ts,
  event_id: eventId,
  sport_id: SPORT.football,
  league_id: 'sr:tournament:17',
  league_name: 'Premier League',
  home_team: 'Simba',
  away_team: 'Yanga',
  start_time: T0 + 3_600_000,
  status,
});

/** The harness of a PostgreSQL store (PgFeedStore, feed-store.test.ts and uof-feed.test.ts). */
export function pgHarness(store: PgFeedStore): FeedHarness {
  return {
    store,
    market: (eventId, typeId, specifiers) => store.market(eventId, typeId, specifiers),
    markets: async (eventId) => (await store.getMarkets(eventId)).sort((a, b) => a.key.localeCompare(b.key)),
    clearSeen: () => store.clearSeen(),
  };
}

const odds = (ts: number, home: string, producer: number = PRODUCER.live, market: number = FB.oneXtwo, specifiers = ''): FeedMessageInput => ({
  type: 'odds_change',
  producer,
  timestamp: ts,
  event_id: EV,
  event_status: EVENT_STATUS.in_progress,
  markets: [
    {
      id: market,
      specifiers,
      status: BETTING_OFFER_STATUS.bettable,
      outcomes: [
        { id: '1', price: home, active: true },
        { id: '2', price: '3.40', active: true },
        { id: '3', price: '4.10', active: true },
      ],
    },
  ],
});

const settle1x2 = (ts: number, winner: '1' | '2' | '3'): FeedMessageInput => ({
  type: 'bet_settlement',
  producer: PRODUCER.live,
  timestamp: ts,
  event_id: EV,
  markets: [
    {
      id: FB.oneXtwo,
      outcomes: (['1', '2', '3'] as const).map((id) => ({ id, result: id === winner ? (1 as const) : (0 as const), void_factor: 0 as const })),
    },
  ],
});

/** Sends one message to an engine as a provider would; answers whether it changed anything. */
export type Send = (m: FeedMessageInput) => Promise<boolean>;

export interface ScenarioOptions {
  /**
   * A transport in front of the engine (the UOF feed: XML over AMQP, uof-feed.test.ts). Only the scenarios a
   * provider's documents can express are registered with one: not the engine's own producer_down/producer_up,
   * a bet stop of named markets, the engine's clock or payloads that are not documents.
   */
  via?: (engine: FeedEngine) => Promise<Send>;
}

export function feedEngineScenarios(label: string, makeHarness: () => Promise<FeedHarness>, opts: ScenarioOptions = {}) {
  async function setup(marginBps = 0) {
    const h = await makeHarness();
    const store = h.store;
    const logs: FeedLogEntry[] = [];
    const engine = new FeedEngine(store, { margin: () => marginBps, now: () => T0, onLog: (e) => logs.push(e) });
    const direct: Send = async (m) => {
      const r = await engine.ingest(m);
      if (!r.ok) throw new Error(r.error);
      return r.applied;
    };
    const send = opts.via ? await opts.via(engine) : direct;
    return { h, store, engine, send, logs };
  }
  /** A scenario of the engine's own messages: registered only without a transport. */
  const engineOnly = (name: string, fn: () => Promise<void>) => {
    if (!opts.via) it(name, fn);
  };

  describe(`feed engine: message handling (${label})`, () => {
    it('applies a re-delivered message once: the second delivery changes nothing', async () => {
      const { h, engine, send } = await setup();
      await send(fixture());
      expect(await send(odds(T0 + 1000, '1.80'))).toBe(true);
      expect(await send(settle1x2(T0 + 2000, '1'))).toBe(true);
      const snapshot = structuredClone((await h.markets(EV)));
      expect(await send(settle1x2(T0 + 2000, '1'))).toBe(false);
      expect(await send(odds(T0 + 1000, '1.80'))).toBe(false);
      expect((await h.markets(EV))).toEqual(snapshot);
      const m = (await h.market(EV, FB.oneXtwo))!;
      expect(m.history.filter((h) => h.kind === 'settled')).toHaveLength(1);
      const live = engine.stats().find((s) => s.producer === PRODUCER.live)!;
      expect(live.duplicates).toBe(2);
      expect(live.messages.bet_settlement).toBe(2);
    });

    it('rules stay idempotent without the fingerprint set (purged): the same settlement twice is one settlement', async () => {
      const { h, send } = await setup();
      await send(settle1x2(T0 + 2000, '1'));
      await h.clearSeen();
      await send(settle1x2(T0 + 2000, '1'));
      expect((await h.market(EV, FB.oneXtwo))!.history).toHaveLength(1);
      // A late copy of a settlement that was rolled back does not settle the market again.
      await send({ type: 'rollback_bet_settlement', producer: PRODUCER.live, timestamp: T0 + 3000, event_id: EV, markets: [{ id: FB.oneXtwo }] });
      await h.clearSeen();
      await send(settle1x2(T0 + 2000, '1'));
      expect((await h.market(EV, FB.oneXtwo))!.settlement).toBeNull();
    });

    it('ignores an odds change older than the stored one for that market', async () => {
      const { h, engine, send } = await setup();
      await send(fixture());
      await send(odds(T0 + 5000, '1.90'));
      await send(odds(T0 + 3000, '2.50')); // late, older
      const m = (await h.market(EV, FB.oneXtwo))!;
      expect(m.outcomes['1'].originalPrice).toBe('1.90');
      expect(m.lastOddsTs).toBe(T0 + 5000);
      await send(odds(T0 + 6000, '2.05'));
      expect((await h.market(EV, FB.oneXtwo))!.outcomes['1'].originalPrice).toBe('2.05');
      expect(engine.stats().find((s) => s.producer === PRODUCER.live)!.outOfOrder).toBe(1);
    });

    it('creates a market first seen in a settlement and stores result, void factor and dead-heat factor per outcome', async () => {
      const { h, send } = await setup();
      await send({
        type: 'bet_settlement',
        producer: PRODUCER.live,
        timestamp: T0,
        event_id: EV,
        markets: [
          {
            id: FB.handicap,
            specifiers: 'hcp=-0.25',
            outcomes: [
              { id: '1714', result: 0, void_factor: 0.5 },
              { id: '1715', result: 1, void_factor: 0.5 },
            ],
          },
          { id: 40, outcomes: [{ id: 'p7', result: 1, void_factor: 0, dead_heat_factor: 0.5 }, { id: 'p8', result: 0 }] },
        ],
      });
      const ah = (await h.market(EV, FB.handicap, 'hcp=-0.25'))!;
      expect(ah.status).toBe(BETTING_OFFER_STATUS.resolved);
      expect(ah.outcomes['1714']).toMatchObject({
        settlement: { result: 0, voidFactor: 0.5, deadHeatFactor: null },
        outcomeStatus: OUTCOME_STATUS.half_lost,
        selectionOutcome: SELECTION_OUTCOME.half_lost,
        originalPrice: null,
      });
      expect(ah.outcomes['1715']).toMatchObject({ outcomeStatus: OUTCOME_STATUS.half_won, selectionOutcome: SELECTION_OUTCOME.half_won });
      const dh = (await h.market(EV, 40))!;
      expect(dh.outcomes.p7.settlement).toEqual({ result: 1, voidFactor: 0, deadHeatFactor: 0.5 });
      expect(dh.outcomes.p7.outcomeStatus).toBe(OUTCOME_STATUS.won);
      expect(dh.outcomes.p8.outcomeStatus).toBe(OUTCOME_STATUS.lost);
    });

    it('a cancel limited by a time window voids only bets placed in [start_time, end_time)', async () => {
      const { h, send } = await setup();
      await send(odds(T0, '1.80'));
      const start = T0 + 60_000;
      const end = T0 + 120_000;
      await send({ type: 'bet_cancel', producer: PRODUCER.live, timestamp: T0 + 200_000, event_id: EV, start_time: start, end_time: end, markets: [{ id: FB.oneXtwo }] });
      const m = (await h.market(EV, FB.oneXtwo))!;
      expect(m.cancel).toMatchObject({ startTime: start, endTime: end });
      expect(isVoidedByCancel(m, start - 1)).toBe(false);
      expect(isVoidedByCancel(m, start)).toBe(true);
      expect(isVoidedByCancel(m, end - 1)).toBe(true);
      expect(isVoidedByCancel(m, end)).toBe(false);
      // Outcomes are not cancelled as a whole: bets outside the window stand.
      expect(m.outcomes['1'].outcomeStatus).toBe(OUTCOME_STATUS.pending);

      // Without a window, the whole market is cancelled, including markets never seen before.
      await send({ type: 'bet_cancel', producer: PRODUCER.live, timestamp: T0 + 300_000, event_id: EV, markets: [{ id: FB.total, specifiers: 'total=2.5' }] });
      const t = (await h.market(EV, FB.total, 'total=2.5'))!;
      expect(t.cancel).toMatchObject({ startTime: null, endTime: null });
      expect(isVoidedByCancel(t, 0)).toBe(true);
    });

    it('rolls back a settlement to unsettled and keeps the history; re-settlement works after', async () => {
      const { h, send } = await setup();
      await send(odds(T0, '1.80'));
      await send(settle1x2(T0 + 1000, '1'));
      expect((await h.market(EV, FB.oneXtwo))!.outcomes['1'].outcomeStatus).toBe(OUTCOME_STATUS.won);
      await send({ type: 'rollback_bet_settlement', producer: PRODUCER.live, timestamp: T0 + 2000, event_id: EV, markets: [{ id: FB.oneXtwo }] });
      let m = (await h.market(EV, FB.oneXtwo))!;
      expect(m.settlement).toBeNull();
      expect(m.status).toBe(BETTING_OFFER_STATUS.bettable);
      for (const o of Object.values(m.outcomes)) {
        expect(o.settlement).toBeNull();
        expect(o.outcomeStatus).toBe(OUTCOME_STATUS.pending);
        expect(o.selectionOutcome).toBe(SELECTION_OUTCOME.pending);
      }
      expect(m.outcomes['1'].originalPrice).toBe('1.80');
      expect(m.history.map((h) => h.kind)).toEqual(['settled', 'settlement_rolled_back']);
      await send(settle1x2(T0 + 3000, '3'));
      m = (await h.market(EV, FB.oneXtwo))!;
      expect(m.outcomes['3'].outcomeStatus).toBe(OUTCOME_STATUS.won);
      expect(m.outcomes['1'].outcomeStatus).toBe(OUTCOME_STATUS.lost);
      expect(m.history.map((h) => h.kind)).toEqual(['settled', 'settlement_rolled_back', 'settled']);
    });

    it('rolls back a cancel and keeps the history', async () => {
      const { h, send } = await setup();
      await send(odds(T0, '1.80'));
      await send({ type: 'bet_cancel', producer: PRODUCER.live, timestamp: T0 + 1000, event_id: EV, markets: [{ id: FB.oneXtwo }] });
      expect((await h.market(EV, FB.oneXtwo))!.outcomes['1'].outcomeStatus).toBe(OUTCOME_STATUS.cancelled);
      await send({ type: 'rollback_bet_cancel', producer: PRODUCER.live, timestamp: T0 + 2000, event_id: EV, markets: [{ id: FB.oneXtwo }] });
      const m = (await h.market(EV, FB.oneXtwo))!;
      expect(m.cancel).toBeNull();
      expect(isVoidedByCancel(m, T0)).toBe(false);
      expect(m.outcomes['1'].outcomeStatus).toBe(OUTCOME_STATUS.pending);
      expect(m.history.map((h) => h.kind)).toEqual(['cancelled', 'cancel_rolled_back']);
    });

    engineOnly('producer down suspends its markets; recovery reopens them but keeps operator and bet-stop suspensions', async () => {
      const { h, engine, send } = await setup();
      await send(fixture());
      await send(odds(T0 + 1, '1.80', PRODUCER.live, FB.oneXtwo));
      await send(odds(T0 + 2, '1.90', PRODUCER.live, FB.total, 'total=2.5'));
      await send(odds(T0 + 3, '1.95', PRODUCER.live, FB.handicap, 'hcp=-0.25'));
      await send(odds(T0 + 4, '2.00', PRODUCER.prematch, 999));
      await engine.setOperatorSuspension(EV, FB.total, 'total=2.5', true);
      await send({ type: 'bet_stop', producer: PRODUCER.live, timestamp: T0 + 10, event_id: EV, markets: [{ id: FB.handicap, specifiers: 'hcp=-0.25' }] });

      await send({ type: 'producer_down', producer: PRODUCER.live, timestamp: T0 + 20 });
      for (const [id, sp] of [[FB.oneXtwo, ''], [FB.total, 'total=2.5'], [FB.handicap, 'hcp=-0.25']] as const) {
        const m = (await h.market(EV, id, sp))!;
        expect(m.suspendedByProducer).toBe(true);
        expect(isMarketOpen(m)).toBe(false);
      }
      expect((await h.market(EV, 999))!.suspendedByProducer).toBe(false); // other producer's market
      expect(engine.stats().find((s) => s.producer === PRODUCER.live)!.alive).toBe(false);

      await send({ type: 'producer_up', producer: PRODUCER.live, timestamp: T0 + 30 });
      expect(isMarketOpen((await h.market(EV, FB.oneXtwo))!)).toBe(true);
      const total = (await h.market(EV, FB.total, 'total=2.5'))!;
      expect(total.suspendedByProducer).toBe(false);
      expect(total.suspendedByOperator).toBe(true);
      expect(isMarketOpen(total)).toBe(false);
      const ah = (await h.market(EV, FB.handicap, 'hcp=-0.25'))!;
      expect(ah.suspendedByBetStop).toBe(true);
      expect(isMarketOpen(ah)).toBe(false);
      // The next odds change lifts the bet stop.
      await send(odds(T0 + 40, '1.97', PRODUCER.live, FB.handicap, 'hcp=-0.25'));
      expect(isMarketOpen((await h.market(EV, FB.handicap, 'hcp=-0.25'))!)).toBe(true);
      const live = engine.stats().find((s) => s.producer === PRODUCER.live)!;
      expect(live).toMatchObject({ alive: true, downs: 1, recoveries: 1 });
    });

    engineOnly('a silent producer (no alive within the timeout) goes down', async () => {
      let now = T0;
      const h = await makeHarness();
      const store = h.store;
      const engine = new FeedEngine(store, { now: () => now, aliveTimeoutMs: 20_000 });
      await engine.ingest(odds(T0, '1.80'));
      await engine.ingest({ type: 'alive', producer: PRODUCER.live, timestamp: T0, subscribed: true });
      now += 15_000;
      expect(await engine.checkAlive()).toEqual([]);
      now += 10_000;
      expect(await engine.checkAlive()).toEqual([PRODUCER.live]);
      expect((await h.market(EV, FB.oneXtwo))!.suspendedByProducer).toBe(true);
    });

    engineOnly('counts unknown types and invalid payloads as radar errors (log types 14 and 13)', async () => {
      const { engine, logs } = await setup();
      expect(await engine.ingest({ type: 'snapshot_complete', producer: 1, timestamp: T0 })).toMatchObject({ ok: false, logType: LOG_TYPE.radar_unknown_type });
      expect(await engine.ingest({ ...(odds(T0, '1.80') as object), markets: [{ id: 1, status: 1, outcomes: [{ id: '1', price: '0.5', active: true }] }] })).toMatchObject({
        ok: false,
        logType: LOG_TYPE.radar_data_error,
      });
      expect(await engine.ingest('garbage')).toMatchObject({ ok: false, logType: LOG_TYPE.radar_unknown_type });
      const live = engine.stats().find((s) => s.producer === PRODUCER.live)!;
      expect(live.errors).toEqual({ dataError: 1, unknownType: 1 });
      expect(engine.unattributedErrors.unknownType).toBe(1);
      expect(logs.map((l) => l.logType)).toEqual([14, 13, 14]);
    });

    it('applies the margin of the event sport/league to provider prices and keeps the original', async () => {
      const h = await makeHarness();
      const store = h.store;
      const engine = new FeedEngine(store, { margin: ({ leagueId }) => (leagueId === 'sr:tournament:17' ? 500 : 0), now: () => T0 });
      await engine.ingest(fixture());
      await engine.ingest(odds(T0 + 1, '2.10'));
      const o = (await h.market(EV, FB.oneXtwo))!.outcomes['1'];
      expect(o.originalPrice).toBe('2.10');
      expect(o.price).toBe('2.00');
    });
  });
}
