/**
 * Odds changes per second through Sportradar's Unified Odds Feed into the store: the sandbox publishes
 * UOF XML over the local RabbitMQ, the product's UOF client consumes it, parses it and hands it to the
 * FeedEngine on PgFeedStore, exactly as `npm start` with UOF_AMQP_URL wires it (sandbox-feed.ts), the
 * simulated provider aside.
 *
 * Set-up (not timed): fresh PostgreSQL database dau_bench_uof_<pid> (migrated, dropped at the end), 2,000
 * matches (half live on producer 1, half pre-match on producer 3) × 50 markets × 3 outcomes (the markets
 * of bench/feed-pg.ts, bench/support.ts pricedMarkets). A UofSandbox publishing with AmqpPublisher on an
 * exchange of its own (unifiedfeed-bench-<pid>-<uuid> in the vhost dau-uof, deleted at the end), its REST
 * API over HTTP (`sandbox.listen(0)`), a UofClient with AmqpTransport bound to that exchange. Each match's
 * fixture_change is published (the client fetches fixture.xml from the API), then one odds_change per
 * match creates its markets (the "create" line), then VACUUM ANALYZE.
 *
 * Measured: N odds_change documents (each re-prices the 50 markets of one match, round-robin over the
 * matches, strictly increasing timestamps), built as XML beforehand and published as fast as the publisher
 * takes them; from the first publish to the last `onProcessed`: documents/s and selection updates/s
 * (150 per document). Then the same through the InProcessTransport (the embedded default: no broker, the
 * sandbox hands the XML to the same client by a function call) and, as the floor of both, the same
 * messages handed to FeedEngine.ingest directly (no XML, no client: bench/feed-pg.ts's serial figure on
 * this database). Before all that, the client's parse alone (parseUofMessage on one 50-market document,
 * many iterations; its XMLValidator pass shown apart) and the engine's own zod validation of the result.
 *
 * Run: `node --import tsx bench/uof-feed.ts [matches] [markets] [documents]` (BENCH_URL for PostgreSQL,
 * UOF_BENCH_AMQP_URL for the broker, BENCH_PARSE_ITER parse iterations). Prints figures; never a gate.
 *
 * Figures, 2026-12-04, 2 cores shared with other sessions (another session's server process ran all along;
 * load average 1.1-1.8 during the measured rounds), PostgreSQL 15 local, RabbitMQ local, 2,000 matches × 50
 * markets × 3 outcomes, 4,000 measured documents per path in 2 rounds of 2,000, 3 min 53 s in all:
 *   parse alone (8,587 bytes of XML): parseUofMessage 1.44 ms per document (of which the XMLValidator pass
 *   0.30 ms), toFeedMessage 0.04 ms, the engine's zod on the result 0.07 ms; the publisher's uofXml 0.50 ms.
 *   fixtures: 2,000 fixture_change (each a fixture.xml over HTTP) in 10.3 s; create (first odds, inserts)
 *   96 documents/s = 14,354 selection updates/s.
 *                                          documents/s  selection updates/s  ms per document (mean/p50/p95)  Node CPU ms/document
 *   UOF over RabbitMQ (AmqpTransport)               87               13,084  11.5 / 10.4 / 16.4              7.0
 *   UOF in-process (InProcessTransport)             99               14,902  10.1 /  9.2 / 14.3              6.0
 *   FeedEngine.ingest directly (no UOF)            122               18,308   8.2 /  7.3 / 11.8              3.9
 *   Where a document's time goes (medians): engine + store 7.3 ms; the UOF client on top 1.9 ms (the parse
 *   1.4 ms, a getEvent read 0.3 ms); the broker on top 1.2 ms (amqplib: +1 ms of CPU, publishing and consuming both in this process).
 *   The client applies its queue's documents one after the other: nothing overlaps the parse of the next
 *   document with the transaction of this one, so the parse's CPU adds to the wall time per document.
 *   An earlier run the same day with the load falling from 5 to 1 meanwhile: 61 / 66 / 98 documents/s
 *   (its rounds differed by up to 50 %: compare paths within one run only).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import amqp from 'amqplib';
import { EVENT_STATUS, SPORT } from '@dau/domain';
import { openPostgres, type Database } from '../apps/server/src/platform/db.js';
import { FeedEngine } from '../apps/server/src/modules/feed/engine.js';
import { PgFeedStore } from '../apps/server/src/modules/feed/pg-store.js';
import { feedMessageSchema, PRODUCER, type FeedMessageInput } from '../apps/server/src/modules/feed/messages.js';
import { feedProducers } from '../apps/server/src/modules/feed/schema.js';
import { fetchHttp, UofApi } from '../apps/server/src/modules/feed/uof/api.js';
import { UofClient } from '../apps/server/src/modules/feed/uof/client.js';
import { bindingKeys, fromFeedMessage, routingKey, uofXml } from '../apps/server/src/modules/feed/uof/documents.js';
import { AmqpPublisher, UofSandbox } from '../apps/server/src/modules/feed/uof/sandbox.js';
import { AmqpTransport, InProcessTransport, type UofTransport } from '../apps/server/src/modules/feed/uof/transport.js';
import type { UofMessage } from '../apps/server/src/modules/feed/uof/types.js';
import { parseUofMessage, toFeedMessage } from '../apps/server/src/modules/feed/uof/xml.js';
import { uofSportId } from '../apps/server/src/modules/feed/uof/sports.js';
import { Rng } from '../apps/server/src/simulator/rng.js';
import { pct, pricedMarkets, scratchDatabase } from './support';

/** The server's own fast-xml-parser (apps/server depends on 5.x; the root's node_modules holds an older 3.x). */
const { XMLValidator } = createRequire(new URL('../apps/server/src/', import.meta.url))('fast-xml-parser') as typeof import('../apps/server/node_modules/fast-xml-parser');

const MATCHES = Number(process.argv[2] ?? 2000);
const MARKETS = Number(process.argv[3] ?? 50);
const DOCS = Number(process.argv[4] ?? 2 * MATCHES);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const PARSE_ITER = Number(process.env.BENCH_PARSE_ITER ?? 2000);
const AMQP_URL = process.env.UOF_BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672/dau-uof';
const BASE = process.env.BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = `dau_bench_uof_${process.pid}`;
const EXCHANGE = `unifiedfeed-bench-${process.pid}-${randomUUID()}`;
/** A hang guard: a phase that has not finished after this long fails the run (a slow machine only waits longer). */
const PHASE_TIMEOUT_MS = Number(process.env.BENCH_PHASE_TIMEOUT_MS ?? 20 * 60_000);
const { url: dbUrl, admin } = scratchDatabase(DB, BASE);
const SELECTIONS = MARKETS * 3;
const FOOTBALL = uofSportId(SPORT.football);

const rng = new Rng(1);
const price = () => (1.2 + rng.next() * 6).toFixed(2);
const live = (i: number) => i % 2 === 0;
/** Provider timestamps: strictly increasing over the whole run, a little in the past (recovery windows are of now). */
let clock = Date.now() - 3_600_000;

const fixture = (i: number): FeedMessageInput => ({
  type: 'fixture_change',
  producer: live(i) ? PRODUCER.live : PRODUCER.prematch,
  timestamp: ++clock,
  event_id: `sr:match:${i}`,
  sport_id: SPORT.football,
  league_id: 'sr:tournament:17',
  league_name: 'Premier League',
  home_team: `Home ${i}`,
  away_team: `Away ${i}`,
  start_time: live(i) ? Date.now() - 1_800_000 : Date.now() + 3_600_000 + i * 60_000,
  status: live(i) ? EVENT_STATUS.in_progress : EVENT_STATUS.not_started,
});

/** One odds change of match i: every market, every outcome re-priced. */
const oddsChange = (i: number): FeedMessageInput => ({
  type: 'odds_change',
  producer: live(i) ? PRODUCER.live : PRODUCER.prematch,
  timestamp: ++clock,
  event_id: `sr:match:${i}`,
  event_status: live(i) ? EVENT_STATUS.in_progress : EVENT_STATUS.not_started,
  markets: pricedMarkets(MARKETS, () => price()),
});

interface Doc {
  msg: FeedMessageInput;
  xml: string;
  key: string;
}
/** The document as the broker carries it (XML and routing key), built outside any timing. */
function asDoc(msg: FeedMessageInput): Doc {
  const u = fromFeedMessage(msg)!;
  return { msg, xml: uofXml(u), key: routingKey(u, FOOTBALL) };
}
/** `n` odds changes, round-robin over the matches from `from`. */
const oddsDocs = (n: number, from = 0) => Array.from({ length: n }, (_, k) => asDoc(oddsChange((from + k) % MATCHES)));

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const us = (x: number) => `${(x * 1000).toFixed(0)} µs`;
const n0 = (x: number) => Math.round(x).toLocaleString('en');
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

async function waitFor(what: string, pred: () => boolean | Promise<boolean>, timeoutMs = PHASE_TIMEOUT_MS) {
  const end = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Parse alone
// ---------------------------------------------------------------------------------------------------------

function timeIt(iter: number, fn: () => void): number {
  for (let i = 0; i < Math.min(200, iter); i++) fn(); // warm-up (JIT)
  const t = performance.now();
  for (let i = 0; i < iter; i++) fn();
  return (performance.now() - t) / iter;
}

function parseBench() {
  const doc = asDoc(oddsChange(0));
  const parsed = parseUofMessage(doc.xml);
  if (!parsed.ok) throw new Error(`the bench's own document does not parse: ${parsed.error}`);
  const feedMsg = toFeedMessage(parsed.message)!;
  const body = Buffer.from(doc.xml, 'utf8');
  const r = {
    bytes: body.length,
    write: timeIt(PARSE_ITER, () => uofXml(fromFeedMessage(doc.msg)!)),
    parse: timeIt(PARSE_ITER, () => parseUofMessage(body)),
    validate: timeIt(PARSE_ITER, () => XMLValidator.validate(doc.xml)),
    toFeed: timeIt(PARSE_ITER, () => toFeedMessage(parsed.message)),
    engineZod: timeIt(PARSE_ITER, () => feedMessageSchema.safeParse(feedMsg)),
  };
  console.log(
    `parse alone, one odds_change of ${MARKETS} markets (${n0(r.bytes)} bytes of XML), ${PARSE_ITER} iterations, load ${load()}:\n` +
      `  parseUofMessage            ${ms(r.parse).padStart(9)} per document  (${n0(1000 / r.parse)} documents/s on one core)\n` +
      `    of which XMLValidator    ${ms(r.validate).padStart(9)}  (a full pass of its own before the parse)\n` +
      `  toFeedMessage              ${us(r.toFeed).padStart(9)}\n` +
      `  engine's zod (ingest)      ${ms(r.engineZod).padStart(9)}  (feedMessageSchema, again on the mapped message)\n` +
      `  publisher's uofXml         ${ms(r.write).padStart(9)}  (sandbox side, not on the consumer's path)`,
  );
  return r;
}

// ---------------------------------------------------------------------------------------------------------
// A feed: sandbox, transport, client
// ---------------------------------------------------------------------------------------------------------

interface Feed {
  label: string;
  sandbox: UofSandbox;
  client: UofClient;
  counts: { odds: number; fixtures: number; notApplied: number; other: number; lastAt: number; gaps: number[] };
  /** Publishes a prebuilt document as the sandbox does (its XML as is, its routing key). */
  publish(d: Doc): void;
  stop(): Promise<void>;
}

function counters(): Feed['counts'] {
  return { odds: 0, fixtures: 0, notApplied: 0, other: 0, lastAt: 0, gaps: [] };
}
function onProcessed(c: Feed['counts']) {
  return (m: UofMessage | null, applied: boolean) => {
    const now = performance.now();
    if (m?.type === 'odds_change') {
      if (c.lastAt) c.gaps.push(now - c.lastAt);
      c.odds++;
      if (!applied) c.notApplied++;
    } else if (m?.type === 'fixture_change') {
      c.fixtures++;
      if (!applied) c.notApplied++;
    } else c.other++;
    c.lastAt = now;
  };
}

const log = (msg: string, err?: unknown) => console.error(`  [feed] ${msg}`, err ?? '');

async function startFeed(kind: 'amqp' | 'inprocess', engine: FeedEngine, database: Database, cleanup: Array<() => Promise<unknown>>): Promise<Feed> {
  const counts = counters();
  let sandbox: UofSandbox;
  let transport: UofTransport;
  let api: UofApi;
  let publisher: AmqpPublisher | null = null;
  if (kind === 'amqp') {
    publisher = new AmqpPublisher(AMQP_URL, EXCHANGE);
    cleanup.push(() => publisher!.close());
    await publisher.open();
    sandbox = new UofSandbox({ publish: publisher.publish, recoveryIntervalMs: 0, log });
    cleanup.push(() => sandbox.close());
    api = new UofApi(fetchHttp(await sandbox.listen(0)), sandbox.token);
    transport = new AmqpTransport({ url: AMQP_URL, exchange: EXCHANGE, bindings: bindingKeys({ prematch: true, live: true, virtuals: false }), connectionName: `dau-uof-bench-${process.pid}`, log: (m, e) => quiet(m, e) });
  } else {
    const local = new InProcessTransport();
    sandbox = new UofSandbox({ publish: (d) => local.deliver(d), recoveryIntervalMs: 0, log });
    api = new UofApi((req) => sandbox.handle(req), sandbox.token);
    transport = local;
  }
  let stopped = false;
  // A stopping client reports its producers down (the connection it closes): expected here, not printed.
  const quiet = (msg: string, err?: unknown) => (stopped && /down \(/.test(msg) ? undefined : log(msg, err));
  const client = new UofClient({ engine, db: database.db, transport, api, minRecoveryIntervalMs: 0, aliveCheckMs: 3_600_000, log: quiet, onProcessed: onProcessed(counts) });
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await client.stop();
    await publisher?.close();
    await sandbox.close();
    // Closing the AMQP connection makes the client take its producers down (producer_down on their markets),
    // in the background: client.stop() does not wait for it. Waited here (its last write is the producers'
    // rows), so that it does not run into the next client's start or the pool's end.
    if (kind === 'amqp')
      await waitFor(
        'the stopped client\'s producers down',
        async () => (await database.db.select().from(feedProducers)).filter((r) => r.state === 'down').length >= 2,
        120_000,
      ).catch((e) => console.error(`  ${(e as Error).message}`));
  };
  cleanup.push(stop);
  await client.start();
  await waitFor(`both producers up (${kind})`, () => client.state(PRODUCER.live) === 'up' && client.state(PRODUCER.prematch) === 'up', 60_000);
  return {
    label: kind === 'amqp' ? 'UOF over RabbitMQ (AmqpTransport)' : 'UOF in-process (InProcessTransport)',
    sandbox,
    client,
    counts,
    publish: (d) => sandbox.publishXml(d.xml, d.key),
    stop,
  };
}

interface Run {
  label: string;
  docs: number;
  ms: number;
  publishMs: number;
  gaps: number[];
  /** CPU time of this process (user + system) over the run, ms: the client's and the engine's work (the publisher's too, building nothing). */
  cpuMs: number;
}
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Publishes the documents as fast as the publisher takes them (yielding to the event loop every 50, so
 * the consumer in this same process runs meanwhile) and waits for the last one processed.
 */
async function pump(feed: Feed, docs: Doc[], label = feed.label): Promise<Run> {
  const c = feed.counts;
  const base = c.odds;
  const notApplied = c.notApplied;
  c.gaps = [];
  c.lastAt = 0;
  const cpu0 = cpuNow();
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i++) {
    feed.publish(docs[i]!);
    if (i % 50 === 49) await new Promise((r) => setImmediate(r));
  }
  const publishMs = performance.now() - t0;
  await waitFor(`${docs.length} odds changes processed (${label})`, () => c.odds - base >= docs.length);
  const elapsed = c.lastAt - t0;
  if (c.notApplied !== notApplied) throw new Error(`${c.notApplied - notApplied} odds changes not applied (${label}): the run is not what it claims`);
  return { label, docs: docs.length, ms: elapsed, publishMs, gaps: c.gaps.slice(), cpuMs: cpuNow() - cpu0 };
}

/** The same messages handed to FeedEngine.ingest one after another (no XML, no client). */
async function direct(engine: FeedEngine, docs: Doc[]): Promise<Run> {
  const gaps: number[] = [];
  const cpu0 = cpuNow();
  const t0 = performance.now();
  for (const d of docs) {
    const t = performance.now();
    const r = await engine.ingest(d.msg);
    gaps.push(performance.now() - t);
    if (!r.ok || !r.applied) throw new Error(`not applied: ${JSON.stringify(r)}`);
  }
  const elapsed = performance.now() - t0;
  return { label: 'FeedEngine.ingest directly (no UOF)', docs: docs.length, ms: elapsed, publishMs: 0, gaps, cpuMs: cpuNow() - cpu0 };
}

function line(r: Run) {
  const perSec = r.docs / (r.ms / 1000);
  return (
    `${r.label.padEnd(38)} ${n0(perSec).padStart(5)} documents/s ${n0(perSec * SELECTIONS).padStart(7)} selection updates/s  ` +
    `per document p50 ${pct(r.gaps, 50).toFixed(1)} ms, p95 ${pct(r.gaps, 95).toFixed(1)} ms, CPU of this process ${(r.cpuMs / r.docs).toFixed(1)} ms  ` +
    `(${r.docs} in ${(r.ms / 1000).toFixed(1)} s${r.publishMs ? `, published in ${(r.publishMs / 1000).toFixed(1)} s` : ''})`
  );
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  console.log(`UOF feed throughput: ${MATCHES} matches x ${MARKETS} markets x 3 outcomes, ${DOCS} measured odds changes per path; ${os.cpus().length} cores, load ${load()}`);
  const parse = parseBench();

  const cleanup: Array<() => Promise<unknown>> = [];
  let database: Database | null = null;
  let cleaned = false;
  const clean = async () => {
    if (cleaned) return;
    cleaned = true;
    for (const f of cleanup.reverse()) await f().catch((e) => console.error('cleanup:', e));
    await database?.close().catch((e) => console.error('close:', e));
    await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch((e) => console.error('drop failed:', e));
    // The exchange is the bench's own: remove it (AmqpPublisher declares it durable).
    try {
      const conn = await amqp.connect(AMQP_URL);
      const ch = await conn.createChannel();
      await ch.deleteExchange(EXCHANGE);
      await conn.close();
    } catch (e) {
      console.error(`could not delete the exchange ${EXCHANGE}:`, e);
    }
  };
  // The client's background work (its producers taken down after a disconnect) is not awaited by anyone:
  // a failure there is reported, not fatal, so the clean-up below still runs.
  process.on('unhandledRejection', (e) => console.error('unhandled rejection:', e));
  const onSignal = (sig: string) => {
    console.error(`${sig}: cleaning up`);
    void clean().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const runs: Run[] = [];
  try {
    await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${DB}`);
    database = await openPostgres(dbUrl(), { max: 4 });
    await database.migrate();
    const rejected: string[] = [];
    const engine = new FeedEngine(new PgFeedStore(database.db), { margin: () => 500, onLog: (e) => rejected.push(e.message) });

    // --- Through RabbitMQ ---
    const amqpFeed = await startFeed('amqp', engine, database, cleanup);
    const t = performance.now();
    for (let i = 0; i < MATCHES; i++) amqpFeed.sandbox.fromProvider(fixture(i));
    await waitFor('the fixtures processed', () => amqpFeed.counts.fixtures >= MATCHES);
    if (amqpFeed.counts.notApplied) throw new Error(`${amqpFeed.counts.notApplied} fixtures not applied: ${rejected.slice(0, 3).join('; ')}`);
    console.log(`fixtures: ${MATCHES} fixture_change (each fetches fixture.xml over HTTP) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const create = await pump(amqpFeed, oddsDocs(MATCHES), 'create (first odds, inserts), RabbitMQ');
    console.log(line(create));
    await amqpFeed.stop();

    // The three paths take turns (ROUNDS blocks of DOCS / ROUNDS documents each) so that a change of the
    // machine's load during the run is shared by all three; every block starts from a vacuumed store.
    const per = Math.ceil(DOCS / ROUNDS);
    const blocks: Record<'amqp' | 'inprocess' | 'direct', Run[]> = { amqp: [], inprocess: [], direct: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ['amqp', 'inprocess', 'direct'] as const) {
        const docs = oddsDocs(per, round * per); // built outside the timing
        let r: Run;
        if (kind === 'direct') {
          await database.exec('VACUUM ANALYZE');
          r = await direct(engine, docs);
        } else {
          // A client's start suspends and reopens its producers' markets (recovery): vacuumed after that.
          const feed = await startFeed(kind, engine, database, cleanup);
          await database.exec('VACUUM ANALYZE');
          r = await pump(feed, docs);
          await feed.stop();
        }
        console.log(`  round ${round + 1}/${ROUNDS}, load ${load()}: ${line(r)}`);
        blocks[kind].push(r);
      }
    }
    const merged = (rs: Run[]): Run => ({
      label: rs[0]!.label,
      docs: rs.reduce((a, r) => a + r.docs, 0),
      ms: rs.reduce((a, r) => a + r.ms, 0),
      publishMs: rs.reduce((a, r) => a + r.publishMs, 0),
      gaps: rs.flatMap((r) => r.gaps),
      cpuMs: rs.reduce((a, r) => a + r.cpuMs, 0),
    });
    const [a, b, c] = [merged(blocks.amqp), merged(blocks.inprocess), merged(blocks.direct)];
    runs.push(a, b, c);
    if (rejected.length) console.log(`engine rejections: ${rejected.length} (first: ${rejected[0]})`);
    // The client reads the event before every odds change (is it known? its status?): one query of its own.
    let getEventMs = 0;
    {
      const n = 500;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await engine.store.getEvent(`sr:match:${i % MATCHES}`);
      getEventMs = (performance.now() - t0) / n;
    }

    // --- Table ---
    const p50 = (r: Run) => pct(r.gaps, 50);
    console.log(
      `\nsummary (${MATCHES} matches x ${MARKETS} markets, ${a.docs} documents per path in ${ROUNDS} rounds; load ${load()} on ${os.cpus().length} cores)\n` +
        `  path                                   documents/s  selection updates/s  ms per document (mean, p50, p95)  Node CPU ms per document\n` +
        runs
          .map(
            (r) =>
              `  ${r.label.padEnd(38)} ${n0(r.docs / (r.ms / 1000)).padStart(11)}  ${n0((r.docs / (r.ms / 1000)) * SELECTIONS).padStart(19)}  ` +
              `${(r.ms / r.docs).toFixed(1).padStart(6)} ${p50(r).toFixed(1).padStart(6)} ${pct(r.gaps, 95).toFixed(1).padStart(6)}  ${(r.cpuMs / r.docs).toFixed(1).padStart(22)}`,
          )
          .join('\n') +
        `\n  where a document's time goes (medians): engine + store ${p50(c).toFixed(1)} ms; the UOF client on top ${(p50(b) - p50(c)).toFixed(1)} ms ` +
        `(parse alone ${parse.parse.toFixed(1)} ms, toFeedMessage, the engine's zod again, a getEvent read of ${getEventMs.toFixed(1)} ms); the broker on top ${(p50(a) - p50(b)).toFixed(1)} ms`,
    );
  } catch (e) {
    console.error('the bench failed:', e);
    process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await clean();
  }
}

await main();
