/**
 * The odds feed as Sportradar's Unified Odds Feed, over the local RabbitMQ (issue 27): the sandbox publishes
 * the XML documents a Betradar broker carries to a topic exchange of its own virtual host and serves the REST
 * API over HTTP; the product's client consumes its own queue and calls the API, as it would a real account.
 *
 *  - The engine's message scenarios (./feed-scenarios.ts) run again through XML over AMQP: each message type
 *    has the effect its JSON equivalent has (settlement with void and dead-heat factors, cancel windows,
 *    rollbacks, duplicates, out-of-order odds, margins).
 *  - Recovery: the broker closes the client's connection → producers down, markets suspended → reconnected,
 *    recovery asked from the last processed alive → up on that request's snapshot_complete, nothing applied
 *    twice; `alive subscribed="0"`; a silence longer than the gap; a bet stop of market groups.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BETTING_OFFER_STATUS, EVENT_STATUS } from '@dau/domain';
import { FeedEngine } from '../src/modules/feed/engine';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { PgFeedStore } from '../src/modules/feed/pg-store';
import { FB } from '../src/modules/feed/simulator';
import { feedProducerOutages, feedProducers } from '../src/modules/feed/schema';
import { uofXml } from '../src/modules/feed/uof/documents';
import { sender, startFeed, stopFeeds, waitFor } from './support/uof';
import { freshDatabase } from './helpers';
import { feedEngineScenarios, fixture as liveFixture, pgHarness, T0 } from './feed-scenarios';


let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

afterEach(() => stopFeeds());

async function emptyStore() {
  await database.exec('TRUNCATE feed_events, feed_markets, feed_outcomes, feed_market_history, feed_fingerprints, feed_producers');
  return new PgFeedStore(database.db);
}

feedEngineScenarios('UOF XML over AMQP', async () => pgHarness(await emptyStore()), { via: async (engine) => sender(await startFeed(database.db, engine)) });

const EVENT = 'sr:match:2002';
const fixture = (ts: number) => liveFixture(ts, EVENT, EVENT_STATUS.in_progress);
const odds = (ts: number, home: string): FeedMessageInput => ({
  type: 'odds_change',
  producer: PRODUCER.live,
  timestamp: ts,
  event_id: EVENT,
  event_status: EVENT_STATUS.in_progress,
  markets: [
    { id: FB.oneXtwo, specifiers: '', status: BETTING_OFFER_STATUS.bettable, outcomes: ['1', '2', '3'].map((id) => ({ id, price: id === '1' ? home : '3.40', active: true })) },
    { id: FB.total, specifiers: 'total=2.5', status: BETTING_OFFER_STATUS.bettable, outcomes: ['12', '13'].map((id) => ({ id, price: '1.90', active: true })) },
  ],
});

describe('UOF recovery over the local RabbitMQ', () => {
  /** Recovery asks for what came after the last processed alive when that is inside the producer's window: times of now. */
  const N0 = Date.now() - 60_000;

  /** The client's connection closed by the broker (what a broker restart or a network cut does). */
  function closeFromBroker(connectionName: string) {
    const list = spawnSync('rabbitmqctl', ['-q', 'list_connections', 'pid', 'client_properties'], { encoding: 'utf8' });
    const line = list.stdout.split('\n').find((l) => l.includes(connectionName));
    if (!line) throw new Error(`no broker connection named ${connectionName}:\n${list.stdout}${list.stderr}`);
    const pid = line.split('\t')[0].trim();
    const closed = spawnSync('rabbitmqctl', ['-q', 'close_connection', pid, 'closed by the test'], { encoding: 'utf8' });
    if (closed.status !== 0) throw new Error(`rabbitmqctl close_connection failed: ${closed.stderr}`);
  }

  it('broker closes the connection: producers down, markets suspended; back, recovery from the last alive, up on its snapshot_complete, nothing applied twice', async () => {
    const store = await emptyStore();
    const engine = new FeedEngine(store);
    const feed = await startFeed(database.db, engine);
    const send = sender(feed);
    expect(await send(fixture(N0))).toBe(true);
    expect(await send(odds(N0 + 1000, '1.80'))).toBe(true);
    // Alives while up: the last one is where the next recovery starts.
    expect(await send({ type: 'alive', producer: PRODUCER.live, timestamp: N0 + 2000, subscribed: true })).toBe(true);
    expect(await send({ type: 'alive', producer: PRODUCER.prematch, timestamp: N0 + 2500, subscribed: true })).toBe(true);
    const [liveRow] = await database.db.select().from(feedProducers).where(eqProducer(PRODUCER.live));
    expect(liveRow.lastProcessedTs).toBe(N0 + 2000);
    const asked = feed.recoveries.length;

    closeFromBroker(feed.connectionName);
    await waitFor('the live producer down', () => feed.client.state(PRODUCER.live) !== 'up');
    // Reconnected (back-off), the client asks each producer for what it missed since its last processed alive.
    await waitFor('both producers up again', () => feed.client.state(PRODUCER.live) === 'up' && feed.client.state(PRODUCER.prematch) === 'up');
    const again = feed.recoveries.slice(asked);
    expect(again.map((r) => [r.product, r.after]).sort()).toEqual([
      ['liveodds', N0 + 2000],
      ['pre', N0 + 2500],
    ]);
    // While down the markets were suspended by the producer; after snapshot_complete they are open.
    const markets = await store.getMarkets(EVENT);
    expect(markets.every((m) => !m.suspendedByProducer)).toBe(true);
    expect(engine.stats().find((s) => s.producer === PRODUCER.live)).toMatchObject({ alive: true, downs: 2, recoveries: 2 });
    // A message applied before the drop, delivered again after the recovery, is a duplicate.
    expect(await send(odds(N0 + 1000, '1.80'))).toBe(false);
    expect(await send(odds(N0 + 3000, '1.95'))).toBe(true);
    expect((await store.market(EVENT, FB.oneXtwo, ''))!.outcomes['1'].originalPrice).toBe('1.95');
  }, 120_000);

  it('alive subscribed="0": the producer is down at once and recovered from its last processed alive', async () => {
    const store = await emptyStore();
    const engine = new FeedEngine(store);
    const feed = await startFeed(database.db, engine);
    const send = sender(feed);
    await send(fixture(N0));
    await send(odds(N0 + 1000, '1.80'));
    await send({ type: 'alive', producer: PRODUCER.live, timestamp: N0 + 2000, subscribed: true });
    const asked = feed.recoveries.length;
    const outagesBefore = (await database.db.select().from(feedProducerOutages).where(eq(feedProducerOutages.producer, PRODUCER.live))).length;
    feed.sandbox.faults.unsubscribed.add(PRODUCER.live);
    await send({ type: 'alive', producer: PRODUCER.live, timestamp: N0 + 3000, subscribed: true });
    feed.sandbox.faults.unsubscribed.delete(PRODUCER.live);
    await waitFor('the live producer up again', async () => feed.client.state(PRODUCER.live) === 'up' && feed.recoveries.length > asked);
    expect(feed.recoveries.slice(asked)).toEqual([{ product: 'liveodds', request_id: expect.any(Number), after: N0 + 2000 }]);
    expect(engine.stats().find((s) => s.producer === PRODUCER.live)).toMatchObject({ alive: true, recoveries: 2 });
    // The outage is kept (the significant events list it): when, why, and when the producer was up again.
    const outages = await database.db.select().from(feedProducerOutages).where(eq(feedProducerOutages.producer, PRODUCER.live));
    expect(outages.slice(outagesBefore)).toEqual([expect.objectContaining({ reason: 'alive subscribed=0', downAt: expect.any(Date), upAt: expect.any(Date) })]);
  }, 120_000);

  it('no alive within the gap: down, markets suspended; the next alive asks the recovery; up on snapshot_complete', async () => {
    const store = await emptyStore();
    let clock = Date.now();
    const engine = new FeedEngine(store, { now: () => clock, aliveTimeoutMs: 20_000 });
    const feed = await startFeed(database.db, engine);
    const send = sender(feed);
    await send(fixture(N0));
    await send(odds(N0 + 1000, '1.80'));
    await send({ type: 'alive', producer: PRODUCER.live, timestamp: N0 + 2000, subscribed: true });
    expect(await feed.client.checkAlive()).toEqual([]);
    clock += 60_000; // silence: the engine's clock, not a wait
    expect(await feed.client.checkAlive()).toEqual(expect.arrayContaining([PRODUCER.live]));
    expect(feed.client.state(PRODUCER.live)).toBe('down');
    expect((await store.getMarkets(EVENT)).every((m) => m.suspendedByProducer)).toBe(true);
    const asked = feed.recoveries.length;
    await send({ type: 'alive', producer: PRODUCER.live, timestamp: N0 + 70_000, subscribed: true });
    await waitFor('the live producer up again', () => feed.client.state(PRODUCER.live) === 'up');
    expect(feed.recoveries.slice(asked)).toEqual([{ product: 'liveodds', request_id: expect.any(Number), after: N0 + 2000 }]);
    expect((await store.getMarkets(EVENT)).some((m) => m.suspendedByProducer)).toBe(false);
  }, 120_000);

  it('a snapshot_complete of another request does not bring the producer up', async () => {
    const store = await emptyStore();
    const engine = new FeedEngine(store);
    const feed = await startFeed(database.db, engine);
    const send = sender(feed);
    await send(fixture(N0));
    // The request in flight is held: the sandbox's producer is in an outage until the test ends it.
    feed.sandbox.fromProvider({ type: 'producer_down', producer: PRODUCER.live, timestamp: N0 + 1 });
    const { requestId } = await engine.operatorRecovery!.producer(PRODUCER.live);
    expect(feed.client.state(PRODUCER.live)).toBe('recovering');
    feed.sandbox.publishXml(uofXml({ type: 'snapshot_complete', product: PRODUCER.live, timestamp: N0 + 2, request_id: requestId + 1000 }), '-.-.-.snapshot_complete.-.-.-.-');
    await waitFor('the stray snapshot_complete processed', () => feed.processed.some((p) => p.m?.type === 'snapshot_complete' && p.m.request_id === requestId + 1000));
    expect(feed.client.state(PRODUCER.live)).toBe('recovering');
    // The outage ends: the held request is answered, with its own id.
    feed.sandbox.fromProvider({ type: 'producer_up', producer: PRODUCER.live, timestamp: N0 + 3 });
    await waitFor('up on its own snapshot_complete', () => feed.client.state(PRODUCER.live) === 'up');
    const [row] = await database.db.select().from(feedProducers).where(eqProducer(PRODUCER.live));
    expect(row).toMatchObject({ state: 'up', recoveryRequestId: null });
  }, 120_000);

  it('a last processed alive older than the recovery window: a full recovery (no after)', async () => {
    const store = await emptyStore();
    const engine = new FeedEngine(store);
    const feed = await startFeed(database.db, engine);
    const send = sender(feed);
    // The live producer's window is 600 minutes (producers.xml): an alive of 11 hours ago is outside it.
    await send({ type: 'alive', producer: PRODUCER.live, timestamp: Date.now() - 11 * 3_600_000, subscribed: true });
    const asked = feed.recoveries.length;
    await engine.operatorRecovery!.producer(PRODUCER.live);
    await waitFor('the live producer up again', () => feed.client.state(PRODUCER.live) === 'up');
    expect(feed.recoveries.slice(asked)).toEqual([{ product: 'liveodds', request_id: expect.any(Number), after: null }]);
  }, 120_000);

  it('every message published twice is applied once', async () => {
    const store = await emptyStore();
    const engine = new FeedEngine(store);
    const feed = await startFeed(database.db, engine);
    feed.sandbox.faults.duplicate = true;
    feed.sandbox.fromProvider(fixture(N0));
    feed.sandbox.fromProvider(odds(N0 + 1000, '1.80'));
    await waitFor('four documents processed', () => feed.processed.filter((p) => p.m?.type === 'fixture_change' || p.m?.type === 'odds_change').length === 4);
    const odd = feed.processed.filter((p) => p.m?.type === 'odds_change').map((p) => p.applied);
    expect(odd).toEqual([true, false]);
    expect(engine.stats().find((s) => s.producer === PRODUCER.live)!.duplicates).toBe(1);
  }, 120_000);

  it('a bet stop of market groups suspends the markets of those groups only (the market descriptions say which)', async () => {
    const store = await emptyStore();
    const engine = new FeedEngine(store);
    const feed = await startFeed(database.db, engine);
    const send = sender(feed);
    await send(fixture(N0));
    await send(odds(N0 + 1000, '1.80'));
    const stop = async (groups: string, ts: number) => {
      const before = feed.processed.length;
      feed.sandbox.publishXml(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<bet_stop timestamp="${ts}" product="1" event_id="${EVENT}" groups="${groups}"/>`,
        `hi.-.live.bet_stop.1.sr:match.2002.-`,
      );
      await waitFor('the bet stop processed', () => feed.processed.length > before);
    };
    // 'incl_ot' (overtime) is a group of the basketball markets of the descriptions: this football match has none.
    await stop('incl_ot', N0 + 2000);
    expect((await store.getMarkets(EVENT)).some((m) => m.suspendedByBetStop)).toBe(false);
    // 'regular_play' holds the football 1X2 and totals.
    await stop('regular_play', N0 + 3000);
    expect((await store.market(EVENT, FB.total, 'total=2.5'))!.suspendedByBetStop).toBe(true);
    expect((await store.market(EVENT, FB.oneXtwo, ''))!.suspendedByBetStop).toBe(true);
  }, 120_000);
});

function eqProducer(id: number) {
  return eq(feedProducers.producer, id);
}
