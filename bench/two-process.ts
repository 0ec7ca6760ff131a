/**
 * Two server processes on one PostgreSQL while one of them is killed (issue 11 benchmark): N open orders
 * on one match (bulk SQL, test/support/bulk-orders.ts), two `main.ts` processes A and B on the database
 * (test/support/processes.ts), the `bet_settlement` sent through A; while the orders settle, the order
 * list by match is read through B every 200 ms (latency p50 / p95 / max); when BENCH_KILL_AT of the orders
 * are settled A is killed (-9) and restarted. Prints the settlement throughput, the time from the kill to
 * the last order settled, and the list latency before, during and after. Figures, not gates.
 *
 * Run: `node --import tsx bench/two-process.ts` (BENCH_URL base PostgreSQL, default the local server;
 * BENCH_ORDERS default 100,000; BENCH_KILL_AT default 0.3; BENCH_EXPIRE job expiry in s, default 30).
 *
 * Figures, this machine (2 cores, other sessions' tests running: load average 6-10), BENCH_ORDERS=50000,
 * job expiry 30 s, settlement jobs of 20,000 orders:
 *   before the kill: 18,000 orders in 16.5 s = 1,091 orders/s (A and B both taking parts)
 *   kill -9 of A with 32,000 open; A answered again after 20.8 s; all settled 70.7 s after the kill
 *   (the killed part waits for its expiry, 30 s, and the supervisor's next round, then B or A runs it)
 *   whole settlement 87.2 s; every order settled once (the crash tests check that; this only times)
 *   order list by match through B: before p50 65 ms; settling p50 121 / p95 353 ms; A killed p50 113 /
 *   p95 260 ms; A restarting p50 143 / p95 2,378 / max 4,274 ms (A's start-up: migrations check, seeds,
 *   pg-boss, on the same 2 cores); after p50 154 ms.
 */
import { ORDER_STATUS } from '@dau/domain';
import { writeBulkOrders } from '../apps/server/test/support/bulk-orders.js';
import { processDatabase, startServerProcess } from '../apps/server/test/support/processes.js';

const ORDERS = Number(process.env.BENCH_ORDERS) || 100_000;
const KILL_AT = Number(process.env.BENCH_KILL_AT) || 0.3;
const EXPIRE = Number(process.env.BENCH_EXPIRE) || 30;
const MATCH = 'sr:match:two_process';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const pdb = await processDatabase({ base: process.env.BENCH_URL || 'postgres://postgres@127.0.0.1:5432/postgres', prefix: 'dau_bench_two' });
try {
  console.log(`writing ${ORDERS.toLocaleString('en-US')} open orders on ${MATCH}...`);
  const bulk = await writeBulkOrders(pdb.database, { targets: [MATCH], orders: ORDERS, bettors: Math.max(600, Math.round(ORDERS / 30)), tag: 'two' });
  const a = await startServerProcess(pdb.url, { name: 'A', jobExpireSeconds: EXPIRE });
  const b = await startServerProcess(pdb.url, { name: 'B', jobExpireSeconds: EXPIRE });
  try {
    const tokenA = await a.login();
    const tokenB = await b.login();
    const settled = async () =>
      Number(
        (
          await pdb.database.query(
            `SELECT count(*) FILTER (WHERE status = ${ORDER_STATUS.settled})::int AS n FROM orders WHERE id IN (SELECT order_id FROM order_lines WHERE event_id = $1)`,
            [MATCH],
          )
        ).rows[0].n,
      );

    // The list through B, every 200 ms, labelled by phase.
    let phase = 'before';
    let polling = true;
    const latencies = new Map<string, number[]>();
    const poller = (async () => {
      while (polling) {
        const t0 = performance.now();
        const r = await b.api('GET', `/api/v1/betting/orders?event_id=${encodeURIComponent(MATCH)}&page_size=20`, undefined, tokenB).catch(() => null);
        if (r?.status === 200) {
          const list = latencies.get(phase) ?? [];
          list.push(performance.now() - t0);
          latencies.set(phase, list);
        }
        await sleep(200);
      }
    })();
    await sleep(3_000);

    phase = 'settling (A and B up)';
    const t0 = performance.now();
    const r = await a.api('POST', '/api/v1/sandbox/feed/messages', bulk.settleMessage(MATCH), tokenA);
    if (r.status !== 201) throw new Error(`settlement message refused: ${r.status} ${JSON.stringify(r.body)}`);
    while ((await settled()) < ORDERS * KILL_AT) await sleep(20);
    const beforeKill = await settled();
    const tKill = performance.now();
    await a.kill();
    phase = 'A killed, restarting';
    const restart = a.restart();
    let tRestarted = 0;
    void restart.then(() => {
      tRestarted = performance.now();
      phase = 'A restarted';
    });
    while ((await settled()) < ORDERS) await sleep(100);
    const tDone = performance.now();
    await restart;
    phase = 'after';
    await sleep(3_000);
    polling = false;
    await poller;

    const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
    console.log(`\n${ORDERS.toLocaleString('en-US')} orders, job expiry ${EXPIRE} s, A killed with ${(ORDERS - beforeKill).toLocaleString('en-US')} open`);
    console.log(`  before the kill: ${beforeKill.toLocaleString('en-US')} orders in ${((tKill - t0) / 1000).toFixed(1)} s = ${Math.round(beforeKill / ((tKill - t0) / 1000)).toLocaleString('en-US')} orders/s`);
    console.log(`  kill -9 to all settled: ${((tDone - tKill) / 1000).toFixed(1)} s (A answered again after ${tRestarted ? ((tRestarted - tKill) / 1000).toFixed(1) : '-'} s)`);
    console.log(`  whole settlement: ${((tDone - t0) / 1000).toFixed(1)} s = ${Math.round(ORDERS / ((tDone - t0) / 1000)).toLocaleString('en-US')} orders/s overall`);
    console.log('  order list by match through B:');
    for (const [name, xs] of latencies) {
      console.log(`    ${name.padEnd(24)} n=${String(xs.length).padStart(4)}  p50 ${pct(xs, 50).toFixed(0)} ms  p95 ${pct(xs, 95).toFixed(0)} ms  max ${Math.max(...xs).toFixed(0)} ms`);
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
} finally {
  await pdb.dispose();
}
