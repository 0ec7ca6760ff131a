/**
 * PgFeedStore (issue 4) on the real database: PGlite by default, PostgreSQL with TEST_DATABASE_URL.
 * The engine's message-handling scenarios (./feed-scenarios.ts) run here through PgFeedStore, then
 * what only a database store has: idempotency by a database key across engine instances, one
 * transaction per message, the append-only history and exact numeric prices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { BETTING_OFFER_STATUS, EVENT_STATUS } from '@dau/domain';
import { FeedEngine, type StoredMarket } from '../src/modules/feed/engine';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { PgFeedStore } from '../src/modules/feed/pg-store';
import { FB } from '../src/modules/feed/simulator';
import { feedEvents, feedFingerprints, feedMarketHistory, feedOutcomes } from '../src/modules/feed/schema';
import { freshDatabase } from './helpers';
import { startSandboxFeed } from '../src/modules/feed/sandbox-feed';
import { EV, T0, feedEngineScenarios, pgHarness } from './feed-scenarios';

let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

async function emptyStore() {
  await database.exec('TRUNCATE feed_events, feed_markets, feed_outcomes, feed_market_history, feed_fingerprints');
  return new PgFeedStore(database.db);
}

feedEngineScenarios('PgFeedStore', async () => pgHarness(await emptyStore()));

const odds = (ts: number, home: string): FeedMessageInput => ({
  type: 'odds_change',
  producer: PRODUCER.live,
  timestamp: ts,
  event_id: EV,
  event_status: EVENT_STATUS.in_progress,
  markets: [
    {
      id: FB.oneXtwo,
      status: BETTING_OFFER_STATUS.bettable,
      outcomes: [
        { id: '1', price: home, active: true },
        { id: '2', price: '3.40', active: true },
        { id: '3', price: '4.10', active: true },
      ],
    },
  ],
});

const settle = (ts: number): FeedMessageInput => ({
  type: 'bet_settlement',
  producer: PRODUCER.live,
  timestamp: ts,
  event_id: EV,
  markets: [{ id: FB.oneXtwo, outcomes: [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }] }],
});

describe('PgFeedStore: what the database adds', () => {
  it('re-delivery is idempotent by the fingerprint key, across engine instances (a restarted process)', async () => {
    const store = await emptyStore();
    const first = new FeedEngine(store, { now: () => T0 });
    expect(await first.ingest(odds(T0 + 1, '1.80'))).toMatchObject({ ok: true, applied: true });
    const restarted = new FeedEngine(new PgFeedStore(database.db), { now: () => T0 });
    expect(await restarted.ingest(odds(T0 + 1, '1.80'))).toMatchObject({ ok: true, applied: false });
    expect(await database.db.select().from(feedFingerprints)).toHaveLength(1);
  });

  it('concurrent deliveries of the same settlement apply it once', async () => {
    const store = await emptyStore();
    const engines = Array.from({ length: 5 }, () => new FeedEngine(new PgFeedStore(database.db), { now: () => T0 }));
    await engines[0].ingest(odds(T0 + 1, '1.80'));
    const results = await Promise.all(engines.map((e) => e.ingest(settle(T0 + 2))));
    expect(results.filter((r) => r.ok && r.applied)).toHaveLength(1);
    const m = (await store.market(EV, FB.oneXtwo))!;
    expect(m.history.map((h) => h.kind)).toEqual(['settled']);
  });

  it('one message is one transaction: a failure leaves neither the fingerprint nor half the changes', async () => {
    await emptyStore();
    class FailingStore extends PgFeedStore {
      fail = true;
      override async upsertMarkets(markets: readonly StoredMarket[]) {
        await super.upsertMarkets(markets);
        if (this.fail) throw new Error('connection lost');
      }
    }
    const store = new FailingStore(database.db);
    const engine = new FeedEngine(store, { now: () => T0 });
    await engine.ingest({
      type: 'fixture_change',
      producer: PRODUCER.prematch,
      timestamp: T0,
      event_id: EV,
      sport_id: 1,
      league_id: 'sr:tournament:17',
      league_name: 'Premier League',
      home_team: 'Simba',
      away_team: 'Yanga',
      start_time: T0 + 3_600_000,
      status: EVENT_STATUS.not_started,
    });
    await expect(engine.ingest(odds(T0 + 1, '1.80'))).rejects.toThrow('connection lost');
    expect(await store.market(EV, FB.oneXtwo)).toBeUndefined();
    const [ev] = await database.db.select().from(feedEvents).where(eq(feedEvents.eventId, EV));
    expect(ev.eventStatus).toBe(EVENT_STATUS.not_started); // the odds change's status change rolled back too
    expect(await database.db.select().from(feedFingerprints)).toHaveLength(1); // the fixture's only
    store.fail = false;
    expect(await engine.ingest(odds(T0 + 1, '1.80'))).toMatchObject({ ok: true, applied: true });
    expect((await store.market(EV, FB.oneXtwo))!.outcomes['1'].originalPrice).toBe('1.80');
  });

  it('keeps prices exact (numeric) and the history append-only, one row per entry', async () => {
    const store = await emptyStore();
    const engine = new FeedEngine(store, { margin: () => 450, now: () => T0 });
    await engine.ingest(odds(T0 + 1, '1.8500'));
    await engine.ingest(settle(T0 + 2));
    await engine.ingest({ type: 'rollback_bet_settlement', producer: PRODUCER.live, timestamp: T0 + 3, event_id: EV, markets: [{ id: FB.oneXtwo }] });
    await engine.ingest(settle(T0 + 4));
    const rows = await database.db.select().from(feedOutcomes).orderBy(asc(feedOutcomes.outcomeId));
    expect(rows.map((r) => [r.originalPrice, r.price])).toEqual([
      ['1.8500', '1.77'],
      ['3.40', '3.25'],
      ['4.10', '3.92'],
    ]);
    const history = await database.db.select().from(feedMarketHistory).orderBy(asc(feedMarketHistory.seq));
    expect(history.map((h) => [h.seq, h.kind, h.ts])).toEqual([
      [0, 'settled', T0 + 2],
      [1, 'settlement_rolled_back', T0 + 3],
      [2, 'settled', T0 + 4],
    ]);
  });
});

describe('sandbox feed (what `npm start` runs with the simulator switch)', () => {
  it('feeds the engine in order through the queue, without errors, and stops cleanly', async () => {
    await emptyStore();
    const engine = new FeedEngine(new PgFeedStore(database.db), { margin: () => 500 });
    const logs: string[] = [];
    const feed = await startSandboxFeed(engine, database.db, { seed: 7, speed: 6000, tickMs: 20, aliveCheckMs: 50, log: (m) => logs.push(m) });
    const total = (f: (s: ReturnType<FeedEngine['stats']>[number]) => number) => engine.stats().reduce((n, s) => n + f(s), 0);
    // The provider's clock moves only while the queue is drained: once it has run 30 simulated minutes,
    // every message of the start has been applied (polled, whatever the machine's speed).
    const begun = feed.provider.now;
    while (feed.provider.now < begun + 30 * 60_000) await new Promise((r) => setTimeout(r, 20));
    await feed.stop();
    expect(logs).toEqual([]);
    const events = await database.db.select().from(feedEvents);
    expect(events.length).toBe(36);
    expect(total((s) => s.messages.fixture_change)).toBeGreaterThanOrEqual(36);
    expect(total((s) => s.messages.odds_change)).toBeGreaterThan(0);
    expect(total((s) => s.messages.alive)).toBeGreaterThan(0);
    expect(total((s) => s.errors.dataError + s.errors.unknownType)).toBe(0);
  });

  /** Polls a state (a slow machine only waits longer; the bound is a hang guard). */
  const waitFor = async (what: string, pred: () => boolean | Promise<boolean>) => {
    const end = Date.now() + 120_000;
    while (!(await pred())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it('keeps its producers alive on the real clock: an alive every few seconds, whatever the simulated minutes', async () => {
    await emptyStore();
    // The real clock (speed 1: a simulated minute per real minute), and an engine that takes 3 s of silence as
    // down: 30 heartbeats of 100 ms (a loaded machine stalls the event loop for a second now and then).
    const engine = new FeedEngine(new PgFeedStore(database.db), { margin: () => 500, aliveTimeoutMs: 3_000 });
    const feed = await startSandboxFeed(engine, database.db, { seed: 11, speed: 1, tickMs: 50, aliveCheckMs: 50, heartbeatMs: 100 });
    try {
      // Long enough for several silences of the timeout: at least 30 alive messages from each producer.
      await waitFor('30 alive messages of each producer', () => engine.stats().length >= 2 && engine.stats().every((s) => s.messages.alive >= 30));
      // Down once each: at the start, until the recovery the client asks on connecting completes; never for silence.
      expect(engine.stats().map((s) => ({ producer: s.producer, alive: s.alive, downs: s.downs, recoveries: s.recoveries }))).toEqual(
        engine.stats().map((s) => ({ producer: s.producer, alive: true, downs: 1, recoveries: 1 })),
      );
    } finally {
      await feed.stop();
    }
  });

  it('a producer that went down for silence comes back through recovery: its events again, then up, markets open', async () => {
    await emptyStore();
    const store = new PgFeedStore(database.db);
    // The engine's clock is the test's: silence is a jump of it, not a wait.
    let clock = Date.now();
    const engine = new FeedEngine(store, { margin: () => 500, aliveTimeoutMs: 20_000, now: () => clock });
    // No heartbeat, alive check nor simulated minute of its own during the test (a minute's step says alive
    // on the provider's tenth minute: crossing one mid-test made the silence vanish): the test says alive and
    // checks when it wants.
    const logs: string[] = [];
    const feed = await startSandboxFeed(engine, database.db, { seed: 12, speed: 1, tickMs: 3_600_000, aliveCheckMs: 3_600_000, heartbeatMs: 3_600_000, recoveryIntervalMs: 0, log: (m, e) => logs.push(`${m} ${String(e ?? '')}`) });
    try {
      const prematch = PRODUCER.prematch;
      // The provider's start went out before the client connected (lost, as on a broker); the client's
      // recovery on connecting brought the state: both producers up, the pre-match markets there.
      await waitFor('both producers up (the start recovered)', () => engine.stats().length === 2 && engine.stats().every((x) => x.alive));
      expect((await store.marketsOfProducer(prematch)).length).toBeGreaterThan(0);
      const started = engine.stats().find((x) => x.producer === prematch)!;
      // Everything the start queued is applied first (a check runs after the messages queued before it, and
      // on the unmoved clock finds nothing silent): an alive still queued would land on the jumped clock and
      // make the silence vanish (seen once in CI on a busy machine).
      expect(await feed.checkAlive()).toEqual([]);
      clock += 60_000;
      expect(await feed.checkAlive()).toEqual(expect.arrayContaining([prematch]));
      expect(engine.stats().find((s) => s.producer === prematch)).toMatchObject({ alive: false, downs: started.downs + 1 });
      expect((await store.marketsOfProducer(prematch)).some((m) => m.suspendedByProducer)).toBe(true);
      const fixturesBefore = engine.stats().find((s) => s.producer === prematch)!.messages.fixture_change;
      feed.provider.heartbeat();
      await waitFor('the pre-match producer up again', () => engine.stats().some((s) => s.producer === prematch && s.alive));
      const s = engine.stats().find((x) => x.producer === prematch)!;
      expect(s).toMatchObject({ recoveries: started.recoveries + 1, recovering: false });
      // The recovery sent the producer's events again before producer_up.
      expect(s.messages.fixture_change).toBeGreaterThan(fixturesBefore);
      expect(s.messages.producer_up).toBe(started.messages.producer_up + 1);
      await waitFor('its markets open again', async () => !(await store.marketsOfProducer(prematch)).some((m) => m.suspendedByProducer));
      // A second alive while up asks nothing more.
      feed.provider.heartbeat();
      await waitFor('the next alive applied', () => engine.stats().find((x) => x.producer === prematch)!.messages.alive >= s.messages.alive + 1);
      expect(engine.stats().find((x) => x.producer === prematch)!.messages.producer_up).toBe(started.messages.producer_up + 1);
      expect(logs).toEqual([]);
    } finally {
      await feed.stop();
    }
  });
});
