/**
 * Settlement survives a kill -9 of the server (issue 11, finding 1). A real server process on its own
 * PostgreSQL database (test/support/processes.ts); thousands of open orders written by bulk SQL on each
 * of three matches; per match the `bet_settlement` goes through the server's sandbox feed route, the
 * process is killed (SIGKILL of its process group) at a moment inside the settlement, restarted, and the
 * test waits until every order of the match is settled. Three kinds of moment, one per match: at a random
 * 0-150 ms after the message's answer (the job committed, its work barely begun), as soon as the first
 * orders are settled (some but not all), and at a random 0-2 s.
 * Then: every order settled exactly once (one settlement event, version bumped once, one payout bill per
 * winning order and part, no rollback), the ledger invariants clean, and the same message sent again is a
 * duplicate that changes nothing.
 * Before the durable job queue (git 14eb6d2) the settlement lived in the memory of the killed process:
 * the orders of a match killed mid-settlement stayed open after the restart and this test failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPE, ORDER_STATUS } from '@dau/domain';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { writeBulkOrders, type BulkOrders } from './support/bulk-orders.js';
import { expectStatus, processDatabase, startServerProcess, waitFor, type ProcessDatabase, type ServerProcess } from './support/processes.js';

const ORDERS = 3_000;
const MATCHES = ['sr:match:crash_1', 'sr:match:crash_2', 'sr:match:crash_3'];
const SETTLE_JOB = 'betting.settle-event';

describe.skipIf(!process.env.TEST_DATABASE_URL)('settlement after a kill -9 (PostgreSQL, server process)', () => {
  let pdb: ProcessDatabase;
  let server: ServerProcess;
  let bulk: BulkOrders;
  const q = async (text: string, values?: unknown[]) => (await pdb.database.query(text, values)).rows;

  beforeAll(async () => {
    pdb = await processDatabase();
    bulk = await writeBulkOrders(pdb.database, { targets: MATCHES, orders: ORDERS, bettors: 600, tag: 'crash' });
    const problems = await checkInvariants(pdb.database.db);
    if (problems.length) throw new Error(`ledger broken after setup: ${problems.slice(0, 5).join('; ')}`);
    server = await startServerProcess(pdb.url, { name: 'settler' });
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await pdb?.dispose();
  });

  /** Open and settled orders of a match. */
  const progress = async (eventId: string) => {
    const [r] = await q(
      `SELECT count(*) FILTER (WHERE o.status = ${ORDER_STATUS.pending})::int AS open, count(*) FILTER (WHERE o.status = ${ORDER_STATUS.settled})::int AS settled
       FROM orders o WHERE o.id IN (SELECT order_id FROM order_lines WHERE event_id = $1)`,
      [eventId],
    );
    return r as { open: number; settled: number };
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  // Hang guard only (three restarts of a server process on a busy 2-core machine take minutes).
  it('resumes the settlement of every match after a kill -9 inside it; each order settled exactly once', { timeout: 900_000 }, async () => {
    const kills: { match: string; moment: string; openAtKill: number }[] = [];
    const sent = new Map<string, object>();
    const moments: [string, (match: string) => Promise<unknown>][] = [
      ['random 0-150 ms after the answer', () => sleep(Math.random() * 150)],
      ['as soon as the first orders are settled', (match) => waitFor('the first settled orders', async () => (await progress(match)).settled > 0, { intervalMs: 5, output: server.output })],
      ['random 0-2 s after the answer', () => sleep(Math.random() * 2_000)],
    ];
    for (const [i, [moment, wait]] of moments.entries()) {
      const match = MATCHES[i];
      const token = await server.login();
      const msg = bulk.settleMessage(match);
      sent.set(match, msg);
      const r = expectStatus(await server.api('POST', '/api/v1/sandbox/feed/messages', msg, token), 201, `bet_settlement of ${match}`, server);
      expect(r.applied).toBe(true);
      await wait(match);
      await server.kill();
      const { open } = await progress(match);
      kills.push({ match, moment, openAtKill: open });
      await server.restart();
      await waitFor(`every order of ${match} settled after the restart (${open} were open at the kill)`, async () => (await progress(match)).open === 0, { output: server.output });
    }
    // At least one kill landed inside a settlement (the first almost always does: the job has only just been queued).
    expect(kills.some((k) => k.openAtKill > 0), JSON.stringify(kills)).toBe(true);
    console.log(`settlement crash test: ${kills.map((k) => `${k.moment}: ${k.openAtKill} of ${ORDERS} open at the kill`).join('; ')}`);

    // Every order of the three matches settled exactly once.
    const [orders] = await q(
      `SELECT count(*)::int AS n,
              count(*) FILTER (WHERE status <> ${ORDER_STATUS.settled})::int AS not_settled,
              count(*) FILTER (WHERE version <> 2)::int AS bumped_not_once
       FROM orders WHERE order_no LIKE 'Ocrash%'`,
    );
    expect(orders).toEqual({ n: ORDERS * MATCHES.length, not_settled: 0, bumped_not_once: 0 });
    const [events] = await q(
      `SELECT count(*) FILTER (WHERE n <> 1)::int AS not_once, count(*)::int AS orders
       FROM (SELECT o.id, count(e.*) FILTER (WHERE e.kind = 'settled') AS n FROM orders o LEFT JOIN order_events e ON e.order_id = o.id AND e.kind <> 'placed'
             WHERE o.order_no LIKE 'Ocrash%' GROUP BY o.id) x`,
    );
    expect(events).toEqual({ not_once: 0, orders: ORDERS * MATCHES.length });
    // One payout bill per winning order and part (payout, accumulator bonus), none for losers, no rollback;
    // what the order says it credited is what its bills credited.
    const bills = await q(
      `SELECT o.id, o.payout > 0 AS won, o.credited_cash::bigint AS credited,
              count(b.*) FILTER (WHERE b.type = ${BILL_TYPE.bet_payout})::int AS payouts,
              count(DISTINCT (b.remark_kind, b.remark_params ->> 'part', b.remark)) FILTER (WHERE b.type = ${BILL_TYPE.bet_payout})::int AS parts,
              count(b.*) FILTER (WHERE b.type = ${BILL_TYPE.amount_rolled_back})::int AS rollbacks,
              coalesce(sum(b.amount) FILTER (WHERE b.type <> ${BILL_TYPE.bet}), 0)::bigint AS paid
       FROM orders o LEFT JOIN bills b ON b.cause_type = 'order' AND b.cause_id = o.id::text AND b.bettor_id = o.bettor_id
       WHERE o.order_no LIKE 'Ocrash%' GROUP BY o.id`,
    );
    const winners = bills.filter((b) => b.won);
    expect(winners.length).toBeGreaterThan(0);
    expect(bills.filter((b) => (b.won ? b.payouts < 1 : b.payouts > 0))).toEqual([]);
    expect(bills.filter((b) => b.payouts !== b.parts || b.rollbacks > 0)).toEqual([]);
    expect(bills.filter((b) => String(b.credited) !== String(b.paid))).toEqual([]);
    expect(await checkInvariants(pdb.database.db)).toEqual([]);

    // The same message again: a duplicate, and nothing changes.
    const fingerprint = async () =>
      (await q(`SELECT (SELECT count(*) FROM bills)::int AS bills, (SELECT coalesce(sum(amount), 0)::text FROM bills) AS amount,
                       (SELECT count(*) FROM order_events)::int AS events, (SELECT sum(version)::int FROM orders) AS versions,
                       (SELECT sum(cash_balance)::text FROM bettors) AS balances, (SELECT count(*) FROM house_entries)::int AS house`))[0];
    const before = await fingerprint();
    const token = await server.login();
    for (const match of MATCHES) {
      const r = expectStatus(await server.api('POST', '/api/v1/sandbox/feed/messages', sent.get(match), token), 201, `bet_settlement of ${match} again`, server);
      expect(r.applied).toBe(false);
    }
    await waitFor('no settlement job pending', async () => (await q(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`, [SETTLE_JOB]))[0].n === 0, {
      output: server.output,
    });
    expect(await fingerprint()).toEqual(before);
    expect(await checkInvariants(pdb.database.db)).toEqual([]);
  });
});
