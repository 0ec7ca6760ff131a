/**
 * Feed engine throughput probe (issue 4), in memory only: odds-change messages for 2,000 matches of
 * 50 markets (3 selections each) applied by FeedEngine to InMemoryFeedStore. Prints selection
 * updates per second. Not a gate and not the benchmark: the PostgreSQL-backed figure and the
 * latency to the browser come with the persisted store.
 * Run: `node --import tsx bench/feed-engine.ts [matches] [markets] [rounds]`.
 */
import { EVENT_STATUS, SPORT } from '@dau/domain';
import { FeedEngine, InMemoryFeedStore } from '../apps/server/src/modules/feed/engine';
import { PRODUCER, type FeedMessageInput } from '../apps/server/src/modules/feed/messages';
import { Rng } from '../apps/server/src/simulator/rng';
import { pricedMarkets } from './support';

const MATCHES = Number(process.argv[2] ?? 2000);
const MARKETS = Number(process.argv[3] ?? 50);
const ROUNDS = Number(process.argv[4] ?? 3);
const T0 = Date.UTC(2026, 0, 1);
const rng = new Rng(1);
const price = () => (1.2 + rng.next() * 6).toFixed(2);

const engine = new FeedEngine(new InMemoryFeedStore(), { margin: () => 500, now: () => T0 });
for (let i = 0; i < MATCHES; i++)
  await engine.ingest({
    type: 'fixture_change',
    producer: PRODUCER.prematch,
    timestamp: T0,
    event_id: `sr:match:${i}`,
    sport_id: SPORT.football,
    league_id: 'sr:tournament:17',
    league_name: 'Premier League',
    home_team: `Home ${i}`,
    away_team: `Away ${i}`,
    start_time: T0 + 3_600_000,
    status: EVENT_STATUS.not_started,
  });

const round = (r: number): FeedMessageInput[] =>
  Array.from({ length: MATCHES }, (_, i) => ({
    type: 'odds_change' as const,
    producer: PRODUCER.live,
    timestamp: T0 + 1000 * (r + 1),
    event_id: `sr:match:${i}`,
    event_status: EVENT_STATUS.in_progress,
    markets: pricedMarkets(MARKETS, () => price()),
  }));

// Round 0 creates the markets (warm-up); the measured rounds update them.
for (const m of round(0)) await engine.ingest(m);
let updates = 0;
let ms = 0;
for (let r = 1; r <= ROUNDS; r++) {
  const msgs = round(r); // built outside the timing
  const t = performance.now();
  for (const m of msgs) await engine.ingest(m);
  ms += performance.now() - t;
  updates += MATCHES * MARKETS * 3;
}
const perSec = Math.round(updates / (ms / 1000));
console.log(
  `feed engine (in memory): ${MATCHES} matches x ${MARKETS} markets x 3 selections, ${ROUNDS} rounds: ` +
    `${updates} selection updates in ${ms.toFixed(0)} ms = ${perSec.toLocaleString('en')} selection updates/s ` +
    `(${Math.round((ROUNDS * MATCHES) / (ms / 1000)).toLocaleString('en')} odds-change messages/s, zod validation + fingerprint + margin included)`,
);
