/**
 * Jackpot settlement benchmark (issue 12): one issue with BENCH_TICKETS (100,000) open tickets written
 * by bulk SQL (apps/server/test/support/bulk-jackpot.ts: a few lines a ticket, every tier won), settled
 * through the app's own path on PGlite (in-process, the default install) and on PostgreSQL when
 * BENCH_URL answers:
 *  - preview: `planSettlement` (read every ticket, hit counts, plan, every ticket's money), tickets/s;
 *  - confirm: `startSettlement` in one transaction (the plan again, fingerprint, record, pool, job);
 *  - paying job: from the confirm's commit until the queue is drained and the issue closed (chunks of
 *    2,000 tickets, parts of 10,000 through pg-boss), tickets/s;
 *  - resettle with nothing to move (same results: every ticket read, compared, written at the new version).
 * Then checks: every ticket at the version, the bills' sum equals what the plan credits, invariants.
 * Prints figures; never a gate. Run: `node --import tsx bench/jackpot-settle.ts` (BENCH_TICKETS,
 * BENCH_BETTORS, BENCH_URL, BENCH_TARGETS=pglite,pg).
 *
 * Figures, 2026-11-25, this machine (2 shared cores, load ~2-3 from other sessions), 100,000 tickets
 * (549,842 lines, 5.5 a ticket; 54,667 winning tickets: the bulk picks are right 70 % of the time, a hard
 * case for the bills), 5,000 bettors:
 *   PGlite:     preview  64,683 tickets/s (1.5 s); confirm 1.7 s; paying job  8,477 tickets/s (11.8 s);
 *               preview to paid 6,640 tickets/s; resettle with nothing to move 12,865 tickets/s (7.8 s);
 *               checkInvariants ok
 *   PostgreSQL: preview 359,712 tickets/s (0.3 s); confirm 0.3 s; paying job 17,382 tickets/s (5.8 s);
 *               preview to paid 15,818 tickets/s; resettle with nothing to move 29,257 tickets/s (3.4 s);
 *               checkInvariants ok
 */
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../apps/server/src/platform/db.js';
import { seed } from '../apps/server/src/seed.js';
import { buildApp } from '../apps/server/src/app.js';
import { checkInvariants } from '../apps/server/src/modules/money/ledger.js';
import { loadIssue, planSettlement, startSettlement, SETTLE_ISSUE_JOB } from '../apps/server/src/modules/jackpot/settlement.js';
import { writeBulkJackpot } from '../apps/server/test/support/bulk-jackpot.js';
import { BENCH_URL, scratchDatabase } from './support';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const BETTORS = Number(process.env.BENCH_BETTORS ?? 5_000);
const TARGETS = (process.env.BENCH_TARGETS ?? 'pglite,pg').split(',');

const rate = (n: number, ms: number) => `${Math.round((n * 1000) / ms).toLocaleString('en-US')} tickets/s (${(ms / 1000).toFixed(1)} s)`;

async function run(label: string, database: Database) {
  const t0 = Date.now();
  await database.migrate();
  await seed(database.db, { adminPassword: 'Bench#2026pass', demo: false });
  const bulk = await writeBulkJackpot(database, { tickets: TICKETS, bettors: BETTORS, tag: 'bench' });
  console.log(`${label}: ${bulk.tickets.toLocaleString('en-US')} tickets, ${bulk.lines.toLocaleString('en-US')} lines (${(bulk.lines / bulk.tickets).toFixed(2)} a ticket) written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const { app, ctx } = await buildApp({ database });
  await app.ready();
  const db = database.db;
  try {
    const issue = await loadIssue(db, bulk.issueId);
    // Preview, twice (the first warms the caches), the second timed.
    await planSettlement(db, issue);
    let t = Date.now();
    const plan = await planSettlement(db, issue);
    const previewMs = Date.now() - t;
    console.log(`${label}: preview ${rate(TICKETS, previewMs)}; tiers ${plan.plan!.tiers.map((x) => `${x.hits}:${x.winningLines}x${x.prizePerLine}`).join(' ')}; ${plan.totals.winningTickets} winning tickets`);

    t = Date.now();
    await db.transaction((tx) => startSettlement(tx, ctx, bulk.issueId, plan.fingerprint, null));
    const confirmMs = Date.now() - t;
    t = Date.now();
    await ctx.jobs.drain([SETTLE_ISSUE_JOB]);
    const payMs = Date.now() - t;
    console.log(`${label}: confirm ${(confirmMs / 1000).toFixed(1)} s; paying job ${rate(TICKETS, payMs)}; preview to paid ${rate(TICKETS, previewMs + confirmMs + payMs)}`);

    const check = async (version: number) => {
      const r = await database.query(
        `SELECT (SELECT count(*) FROM jackpot_tickets WHERE issue_id = $1 AND settled_version <> $2)::int AS behind,
                (SELECT coalesce(sum(credited), 0) FROM jackpot_tickets WHERE issue_id = $1)::bigint AS credited,
                (SELECT coalesce(sum(amount), 0) FROM bills WHERE cause_type = 'jackpot' AND type IN (5, 8))::bigint AS bills,
                (SELECT status FROM jackpot_settlements WHERE issue_id = $1 AND version = $2) AS status`,
        [bulk.issueId, version],
      );
      const x = r.rows[0];
      const ok = x.behind === 0 && Number(x.credited) === plan.totals.credited && Number(x.bills) === plan.totals.credited && x.status === 'done';
      console.log(`${label}: version ${version} ${ok ? 'ok' : 'WRONG'} (behind ${x.behind}, credited ${x.credited}, bills ${x.bills}, plan ${plan.totals.credited}, ${x.status})`);
    };
    await check(1);

    // Resettle with the same results: nothing to move, every ticket taken to version 2.
    const again = await planSettlement(db, await loadIssue(db, bulk.issueId));
    t = Date.now();
    await db.transaction((tx) => startSettlement(tx, ctx, bulk.issueId, again.fingerprint, null));
    await ctx.jobs.drain([SETTLE_ISSUE_JOB]);
    console.log(`${label}: resettle with nothing to move (confirm + job) ${rate(TICKETS, Date.now() - t)}; moved ${again.difference.credited}`);
    await check(2);
    t = Date.now();
    const problems = await checkInvariants(db);
    console.log(`${label}: checkInvariants ${problems.length ? `${problems.length} problems: ${problems.slice(0, 3).join('; ')}` : 'ok'} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  } finally {
    await app.close();
  }
}

if (TARGETS.includes('pglite')) {
  const database = await openPglite();
  try {
    await run('PGlite', database);
  } finally {
    await database.close();
  }
}

if (TARGETS.includes('pg')) {
  const probe = new pg.Client({ connectionString: BENCH_URL });
  const reachable = await probe.connect().then(
    () => true,
    () => false,
  );
  await probe.end().catch(() => {});
  if (!reachable) console.log(`PostgreSQL at ${BENCH_URL} not reachable: skipped`);
  else {
    const name = `dau_bench_jackpot_${process.pid}`;
    const { url, admin } = scratchDatabase(name);
    await admin(`CREATE DATABASE ${name}`);
    const database = await openPostgres(url(), { max: 12 });
    try {
      await run('PostgreSQL', database);
    } finally {
      await database.close();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }
}
process.exit(0);
