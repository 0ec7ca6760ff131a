/**
 * Feed ingestion throughput on PostgreSQL (issue 4): FeedEngine over PgFeedStore, 2,000 matches (half
 * live, half upcoming) of 50 markets × 3 selections, odds-change messages applied in rounds (one message =
 * one match, all its 50 markets, 150 selection updates; zod validation, fingerprint, margin, one transaction
 * with its per-event advisory lock, all included). Serial (one ingester) and concurrent (N ingesters on
 * different matches, a pool of N connections).
 * Run: `npm run bench:feed` or `node --import tsx bench/feed-pg.ts [matches] [markets] [rounds]`
 * (BENCH_URL to change the server, BENCH_CONCURRENCY=4,8 the concurrent ingester counts).
 * Creates dau_bench_feed_<pid> and drops it at the end. Prints figures; never a gate.
 *
 * Figures, 2026-11-21, 2 cores shared with other sessions (their benches and tests ran meanwhile), PostgreSQL 15
 * local (synchronous_commit on), 2,000 matches × 50 markets × 3 selections (300,000 selections):
 *   load average ~4:   create 20,873 selection updates/s (139 messages/s);
 *                      update serial 14,146/s (94 messages/s, p50 8.4 ms, p95 21.4 ms per message);
 *                      update 4 ingesters 21,825/s (145 messages/s, p50 25.6 ms, p95 44.0 ms).
 *   load average ~12:  update serial 4,137/s (p50 28 ms, p95 83 ms); 4 ingesters 10,194/s; 8 ingesters 11,393/s.
 * Store before this bench (one drizzle multi-row INSERT per table and three reads per event), A/B interleaved
 * at 300 matches, same load (~9): serial 2,426-5,979/s vs 12,830-16,612/s now; 4 ingesters 6,023-8,197/s
 * vs 19,921-25,553/s now (BENCH_STORE=<module exporting PgFeedStore> runs another store).
 */
import pg from 'pg';
import { EVENT_STATUS, SPORT } from '@dau/domain';
import { openPostgres } from '../apps/server/src/platform/db.js';
import { FeedEngine } from '../apps/server/src/modules/feed/engine.js';
import { PgFeedStore } from '../apps/server/src/modules/feed/pg-store.js';
import { PRODUCER, type FeedMessageInput } from '../apps/server/src/modules/feed/messages.js';
import { Rng } from '../apps/server/src/simulator/rng.js';
import { scratchDatabase, pct, pricedMarkets } from './support';

const MATCHES = Number(process.argv[2] ?? 2000);
const MARKETS = Number(process.argv[3] ?? 50);
const ROUNDS = Number(process.argv[4] ?? 2);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '4,8').split(',').map(Number).filter((n) => n > 1);
const BASE = process.env.BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = `dau_bench_feed_${process.pid}`;
const { url: dbUrl, admin: admin } = scratchDatabase(DB, BASE);
const T0 = Date.UTC(2026, 0, 1);
const rng = new Rng(1);
const price = () => (1.2 + rng.next() * 6).toFixed(2);
const live = (i: number) => i % 2 === 0;




/** One odds change of match i at round r: every market, every selection re-priced. */
const oddsChange = (i: number, r: number): FeedMessageInput => ({
  type: 'odds_change',
  producer: live(i) ? PRODUCER.live : PRODUCER.prematch,
  timestamp: T0 + 1000 * (r + 1),
  event_id: `sr:match:${i}`,
  event_status: live(i) ? EVENT_STATUS.in_progress : EVENT_STATUS.not_started,
  markets: pricedMarkets(MARKETS, () => price()),
});

interface Run {
  messages: number;
  ms: number;
  latencies: number[];
}

/** Apply `msgs` with `workers` ingesters pulling from one queue (messages of one match never run twice at once here: each match appears once per round). */
async function applyAll(engine: FeedEngine, msgs: FeedMessageInput[], workers: number): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < msgs.length) {
        const m = msgs[next++];
        const t = performance.now();
        const r = await engine.ingest(m);
        latencies.push(performance.now() - t);
        if (!r.ok || !r.applied) throw new Error(`not applied: ${JSON.stringify(r)}`);
      }
    }),
  );
  return { messages: msgs.length, ms: performance.now() - t0, latencies };
}

function report(label: string, runs: Run[]) {
  const messages = runs.reduce((a, r) => a + r.messages, 0);
  const ms = runs.reduce((a, r) => a + r.ms, 0);
  const lat = runs.flatMap((r) => r.latencies);
  const perSec = messages / (ms / 1000);
  const line =
    `${label.padEnd(26)} ${Math.round(perSec).toLocaleString('en').padStart(6)} messages/s  ` +
    `${Math.round(perSec * MARKETS * 3).toLocaleString('en').padStart(8)} selection updates/s  ` +
    `per message p50 ${pct(lat, 50).toFixed(1)} ms, p95 ${pct(lat, 95).toFixed(1)} ms  (${messages} messages in ${(ms / 1000).toFixed(1)} s)`;
  console.log(line);
  return perSec * MARKETS * 3;
}

async function main() {
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB}`);
  const maxWorkers = Math.max(1, ...CONCURRENCY);
  const database = await openPostgres(dbUrl(), { max: maxWorkers + 2 });
  try {
    await database.migrate();
    // BENCH_STORE: another PgFeedStore module to compare with (path relative to this file).
    const Store = process.env.BENCH_STORE ? ((await import(process.env.BENCH_STORE)) as { PgFeedStore: typeof PgFeedStore }).PgFeedStore : PgFeedStore;
    const store = new Store(database.db);
    const engine = new FeedEngine(store, { margin: () => 500, now: () => T0 });
    console.log(
      `feed on PostgreSQL (${DB}): ${MATCHES} matches (${Math.ceil(MATCHES / 2)} live, ${Math.floor(MATCHES / 2)} upcoming) x ${MARKETS} markets x 3 selections = ${(MATCHES * MARKETS * 3).toLocaleString('en')} selections`,
    );
    let t = performance.now();
    for (let i = 0; i < MATCHES; i++) {
      const r = await engine.ingest({
        type: 'fixture_change',
        producer: live(i) ? PRODUCER.live : PRODUCER.prematch,
        timestamp: T0,
        event_id: `sr:match:${i}`,
        sport_id: SPORT.football,
        league_id: 'sr:tournament:17',
        league_name: 'Premier League',
        home_team: `Home ${i}`,
        away_team: `Away ${i}`,
        start_time: live(i) ? T0 - 1_800_000 : T0 + 3_600_000 + i * 60_000,
        status: live(i) ? EVENT_STATUS.in_progress : EVENT_STATUS.not_started,
      });
      if (!r.ok) throw new Error(r.error);
    }
    console.log(`fixtures: ${MATCHES} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    // Round 0 creates the markets and outcomes (inserts); the measured rounds update them.
    const ins = await applyAll(engine, Array.from({ length: MATCHES }, (_, i) => oddsChange(i, 0)), 1);
    report('create (round 0, serial)', [ins]);
    await database.exec('VACUUM ANALYZE');

    let round = 1;
    const serial: Run[] = [];
    for (let k = 0; k < ROUNDS; k++, round++) {
      const msgs = Array.from({ length: MATCHES }, (_, i) => oddsChange(i, round)); // built outside the timing
      serial.push(await applyAll(engine, msgs, 1));
    }
    const figures: [string, number][] = [['serial (1 ingester)', report('update, serial (1)', serial)]];
    for (const n of CONCURRENCY) {
      const runs: Run[] = [];
      for (let k = 0; k < ROUNDS; k++, round++) {
        const msgs = Array.from({ length: MATCHES }, (_, i) => oddsChange(i, round));
        runs.push(await applyAll(engine, msgs, n));
      }
      figures.push([`concurrent (${n})`, report(`update, concurrent (${n})`, runs)]);
    }
    const best = Math.max(...figures.map((f) => f[1]));
    console.log(`target 5,000 selection updates/s: ${best >= 5000 ? 'met' : 'NOT met'} (best ${Math.round(best).toLocaleString('en')}/s)`);
  } finally {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  }
}

await main();
