/**
 * Visitors (issue 16): what one visit costs to record, and what the charts cost to read at the issue's
 * scale (~100k visits a day), on PostgreSQL.
 *
 * Setup (not timed): a fresh database dau_bench_visits_<pid> next to BENCH_URL (default the local
 * postgres://postgres@127.0.0.1:5432/postgres), migrated, dropped at the end.
 *
 * Cells:
 *  1. `recordVisit` from BENCH_WORKERS (8) concurrent workers for BENCH_SECONDS (10): visits/s and the
 *     latency percentiles of one visit (three statements in one transaction), a third of the visits from
 *     new visitors, the rest from 20,000 regulars, all in the current hour (the hottest rows).
 *  2. 30 days of hourly totals as ~100k visits a day would leave them at their widest (every bucket of
 *     every hour filled: 4 devices x 5 sources x 20 countries x new/returning = 800 rows an hour, 19,200 a
 *     day, ~5 visits each), generated set-based, then `visitorStats` over 30 days: the median of
 *     BENCH_READS (10) reads.
 *
 * Run: `node --import tsx bench/visitors.ts`. Prints figures; never a gate.
 *
 * Figures, this machine (2 cores shared with several other sessions' tests and builds, so noisy):
 *   recordVisit: 194-554 visits/s with 8 workers (17-48 million a day; the issue's 100k a day is ~1.2/s,
 *     a peak maybe 20/s), p50 11-30 ms, p99 73-177 ms.
 *   visitorStats, 30 days at the widest (576,020 hourly rows, 2.87 million visits): one scan with grouping
 *     sets 1.2 s median (1.7 s in a busier minute); five GROUP BY queries, as first written, 1.2-2.0 s.
 *     Real traffic fills far fewer buckets (a country of one visit a day has a few rows, not 800 an hour).
 */
import { sql } from 'drizzle-orm';
import { openPostgres } from '../apps/server/src/platform/db.js';
import { recordVisit, visitorStats, darDay } from '../apps/server/src/modules/visitors/index.js';
import { pct, scratchDatabase } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 8);
const READS = Number(process.env.BENCH_READS ?? 10);

async function main() {
  const name = `dau_bench_visits_${process.pid}`;
  const scratch = scratchDatabase(name);
  await scratch.admin(`CREATE DATABASE ${name}`);
  const d = await openPostgres(scratch.url(), { max: WORKERS + 2 });
  try {
    await d.migrate();
    const db = d.db;

    // 1. Recording.
    const lat: number[] = [];
    let n = 0;
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        let i = 0;
        while (Date.now() < until) {
          const fresh = i % 3 === 0;
          const t0 = performance.now();
          await recordVisit(db, {
            visitorId: fresh ? `new-${w}-${i}` : `reg-${(i * 7919 + w) % 20_000}`,
            device: 1 + (i % 4),
            source: 1 + (i % 5),
            country: ['TZ', 'KE', 'UG', 'RW'][i % 4],
            path: '/sports',
          });
          lat.push(performance.now() - t0);
          i += 1;
          n += 1;
        }
      }),
    );
    console.log(`recordVisit: ${WORKERS} workers, ${SECONDS} s: ${Math.round(n / SECONDS)} visits/s (${Math.round((n / SECONDS) * 86_400).toLocaleString('en')} a day); p50 ${pct(lat, 50)!.toFixed(1)} ms, p99 ${pct(lat, 99)!.toFixed(1)} ms`);

    // 2. Reading 30 days of charts at 100k visits a day.
    const to = darDay(Date.now());
    const from = darDay(Date.now() - 29 * 86_400_000);
    const t0 = performance.now();
    await db.execute(sql`
      INSERT INTO visit_hourly (hour, day, hour_of_day, device, source, country, kind, visits, visitors)
      SELECT h, to_char(h AT TIME ZONE 'Africa/Dar_es_Salaam', 'YYYY-MM-DD'), extract(hour FROM h AT TIME ZONE 'Africa/Dar_es_Salaam')::smallint,
             dv, src, c, k, 3 + (random() * 4)::int, 2 + (random() * 3)::int
      FROM generate_series(date_trunc('hour', now()) - interval '30 days', date_trunc('hour', now()) - interval '1 hour', interval '1 hour') h,
           generate_series(1, 4) dv, generate_series(1, 5) src,
           unnest(ARRAY['TZ','KE','UG','RW','BI','ZM','MZ','CD','GB','US','CN','IN','ZA','NG','ET','SO','MW','ZW','AE','ZZ']) c, generate_series(1, 2) k
      ON CONFLICT DO NOTHING`);
    await db.execute(sql`ANALYZE visit_hourly`);
    const [{ rows } = { rows: 0 }] = ((await db.execute(sql`SELECT count(*)::int AS rows, sum(visits)::int AS visits FROM visit_hourly`)) as unknown as { rows: { rows: number; visits: number }[] }).rows;
    console.log(`hourly totals: ${rows.toLocaleString('en')} rows for 30 days (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    const reads: number[] = [];
    for (let i = 0; i < READS; i++) {
      const r0 = performance.now();
      const s = await visitorStats(db, from, to);
      reads.push(performance.now() - r0);
      if (i === 0) console.log(`30 days: ${s.totals.visits.toLocaleString('en')} visits in the totals`);
    }
    console.log(`visitorStats over 30 days: median ${pct(reads, 50)!.toFixed(0)} ms, max ${Math.max(...reads).toFixed(0)} ms (${READS} reads)`);
  } finally {
    await d.close();
    await scratch.admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
