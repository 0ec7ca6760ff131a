/**
 * Jackpot settlement survives a kill -9 of the server (issue 12). A real server process on its own
 * PostgreSQL database (test/support/processes.ts); 20,000 open tickets written by bulk SQL
 * (test/support/bulk-jackpot.ts) on an issue whose results are known; the settlement is previewed and
 * confirmed through the API, the process is killed (SIGKILL of its process group) as soon as the job has
 * paid its first chunk, restarted, and the test waits until the settlement record is done (a state, not
 * a time). Then every ticket was paid exactly once: at version 1, at most one prize bill, one exactly
 * when it won, its amount what the ticket says it was credited and what the preview's plan gives; the
 * bills together equal the preview's total; the pool account holds the rollover the bet type carries;
 * the ledger's invariants are clean. A second confirmation with the first preview's fingerprint is stale.
 * Then a result change is resettled and the process killed 0-400 ms after the confirmation: every ticket
 * at version 2 holding what its bills credit (at most one bill per version), the bet type carrying the new
 * rollover, invariants clean.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPE } from '@dau/domain';
import { HOUSE, checkInvariants } from '../src/modules/money/ledger.js';
import { writeBulkJackpot, type BulkJackpot } from './support/bulk-jackpot.js';
import { expectStatus, processDatabase, startServerProcess, waitFor, type ProcessDatabase, type ServerProcess } from './support/processes.js';

const TICKETS = 20_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('jackpot settlement after a kill -9 (PostgreSQL, server process)', () => {
  let pdb: ProcessDatabase;
  let server: ServerProcess;
  let bulk: BulkJackpot;
  const q = async (text: string, values?: unknown[]) => (await pdb.database.query(text, values)).rows;

  beforeAll(async () => {
    pdb = await processDatabase({ prefix: 'dau_jp' });
    bulk = await writeBulkJackpot(pdb.database, { tickets: TICKETS, bettors: 2_000, tag: 'crash' });
    const problems = await checkInvariants(pdb.database.db);
    if (problems.length) throw new Error(`ledger broken after setup: ${problems.slice(0, 5).join('; ')}`);
    server = await startServerProcess(pdb.url, { name: 'jackpot' });
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await pdb?.dispose();
  });

  const progress = async () => {
    const [r] = await q(
      `SELECT count(*) FILTER (WHERE settled_version = 0)::int AS open, count(*) FILTER (WHERE settled_version = 1)::int AS paid FROM jackpot_tickets WHERE issue_id = $1`,
      [bulk.issueId],
    );
    return r as { open: number; paid: number };
  };

  // Hang guard only: a restart of a server process on a busy 2-core machine takes a while.
  it('resumes after a kill -9 inside the paying job; every ticket paid exactly once', { timeout: 900_000 }, async () => {
    const token = await server.login();
    const preview = expectStatus(await server.api('POST', `/api/v1/jackpot/issues/${bulk.issueId}/settle/preview`, undefined, token), 200, 'preview', server);
    expect(preview.totals.tickets).toBe(TICKETS);
    expect(preview.totals.winning_tickets).toBeGreaterThan(0);
    const started = expectStatus(await server.api('POST', `/api/v1/jackpot/issues/${bulk.issueId}/settle`, { fingerprint: preview.fingerprint }, token), 202, 'settle', server);
    expect(started.settlement.version).toBe(1);
    // Kill as soon as the first chunk has committed: the job is inside its work.
    await waitFor('the first paid tickets', async () => (await progress()).paid > 0, { intervalMs: 5, output: server.output });
    await server.kill();
    const atKill = await progress();
    console.log(`jackpot crash test: killed with ${atKill.paid} of ${TICKETS} tickets paid, ${atKill.open} open`);
    expect(atKill.open).toBeGreaterThan(0);

    await server.restart();
    await waitFor(
      'the settlement record done after the restart',
      async () => (await q(`SELECT status FROM jackpot_settlements WHERE issue_id = $1 AND version = 1`, [bulk.issueId]))[0]?.status === 'done',
      { intervalMs: 500, timeoutMs: 600_000, output: server.output },
    );
    await waitFor('no jackpot job pending', async () => (await q(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'jackpot.settle-issue' AND state IN ('created', 'retry', 'active')`))[0].n === 0, {
      output: server.output,
    });

    // Every ticket at version 1, paid exactly once, as the preview said: a first prize is a jackpot payment (bill 3, a credit).
    const prize = `b.type = ${BILL_TYPE.jackpot_payment} AND b.amount > 0`;
    const rows = await q(
      `SELECT t.id, t.settled_version AS v, t.credited::bigint AS credited, t.gross::bigint AS gross,
              count(b.*) FILTER (WHERE ${prize})::int AS prizes,
              count(b.*) FILTER (WHERE b.type <> ${BILL_TYPE.jackpot_payment})::int AS others,
              coalesce(sum(b.amount) FILTER (WHERE ${prize}), 0)::bigint AS paid
       FROM jackpot_tickets t LEFT JOIN bills b ON b.cause_type = 'jackpot' AND b.cause_id = t.id::text
       WHERE t.issue_id = $1 GROUP BY t.id`,
      [bulk.issueId],
    );
    expect(rows).toHaveLength(TICKETS);
    expect(rows.filter((r) => r.v !== 1)).toEqual([]);
    expect(rows.filter((r) => r.prizes > 1 || r.others > 0)).toEqual([]);
    expect(rows.filter((r) => (Number(r.credited) > 0 ? r.prizes !== 1 : r.prizes !== 0))).toEqual([]);
    expect(rows.filter((r) => String(r.paid) !== String(r.credited))).toEqual([]);
    const credited = rows.reduce((s, r) => s + Number(r.credited), 0);
    const gross = rows.reduce((s, r) => s + Number(r.gross), 0);
    expect(credited).toBe(preview.totals.credited);
    expect(gross).toBe(preview.totals.gross);
    expect(rows.filter((r) => Number(r.credited) > 0).length).toBe(preview.totals.winning_tickets);

    const [issue] = await q(`SELECT settle_status, settled_version, expenditure::bigint AS expenditure FROM jackpot_issues WHERE id = $1`, [bulk.issueId]);
    expect(issue).toMatchObject({ settle_status: 3, settled_version: 1 });
    expect(Number(issue.expenditure)).toBe(preview.totals.gross);
    const [bt] = await q(`SELECT jackpot::bigint AS jackpot FROM jackpot_bet_types WHERE id = $1`, [bulk.betTypeId]);
    expect(Number(bt.jackpot)).toBe(preview.totals.rollover);
    const [pool] = await q(`SELECT coalesce(sum(amount), 0)::bigint AS s FROM house_entries WHERE account = $1`, [HOUSE.jackpotPool]);
    expect(Number(pool.s)).toBe(preview.totals.rollover);
    expect(await checkInvariants(pdb.database.db)).toEqual([]);

    // The first preview's fingerprint no longer settles anything.
    const again = await server.api('POST', `/api/v1/jackpot/issues/${bulk.issueId}/settle`, { fingerprint: preview.fingerprint }, token);
    expect(again.status).toBe(409);

    // A result change, resettled, killed at a random moment 0-400 ms after the confirmation: each ticket
    // moves its difference once (at most one bill, a result change or a debt, for this version), and holds what its bills credit.
    await q(`UPDATE jackpot_issue_matches SET result = (result + 1) % 3, override_reason = 'crash test' WHERE issue_id = $1 AND position = 13`, [bulk.issueId]);
    const token2 = await server.login();
    const p2 = expectStatus(await server.api('POST', `/api/v1/jackpot/issues/${bulk.issueId}/settle/preview`, undefined, token2), 200, 'preview v2', server);
    expect(p2.kind).toBe('resettle');
    expectStatus(await server.api('POST', `/api/v1/jackpot/issues/${bulk.issueId}/settle`, { fingerprint: p2.fingerprint }, token2), 202, 'resettle', server);
    await new Promise((r) => setTimeout(r, Math.random() * 400));
    await server.kill();
    const [left] = await q(`SELECT count(*)::int AS n FROM jackpot_tickets WHERE issue_id = $1 AND settled_version < 2`, [bulk.issueId]);
    console.log(`jackpot crash test: resettlement killed with ${left.n} of ${TICKETS} tickets not at version 2`);
    await server.restart();
    await waitFor(
      'the resettlement done after the restart',
      async () => (await q(`SELECT status FROM jackpot_settlements WHERE issue_id = $1 AND version = 2`, [bulk.issueId]))[0]?.status === 'done',
      { intervalMs: 500, timeoutMs: 600_000, output: server.output },
    );
    const rows2 = await q(
      `SELECT t.id, t.settled_version AS v, t.credited::bigint AS credited,
              count(b.*) FILTER (WHERE b.type IN (${BILL_TYPE.jackpot_result_change}, ${BILL_TYPE.amount_rolled_back}))::int AS moves,
              coalesce(sum(b.amount) FILTER (WHERE ${prize} OR b.type IN (${BILL_TYPE.jackpot_result_change}, ${BILL_TYPE.amount_rolled_back})), 0)::bigint AS paid
       FROM jackpot_tickets t LEFT JOIN bills b ON b.cause_type = 'jackpot' AND b.cause_id = t.id::text
       WHERE t.issue_id = $1 GROUP BY t.id`,
      [bulk.issueId],
    );
    expect(rows2.filter((r) => r.v !== 2)).toEqual([]);
    expect(rows2.filter((r) => r.moves > 1)).toEqual([]);
    expect(rows2.filter((r) => String(r.paid) !== String(r.credited))).toEqual([]);
    expect(rows2.reduce((s, r) => s + Number(r.credited), 0)).toBe(p2.totals.credited);
    const [bt2] = await q(`SELECT jackpot::bigint AS jackpot FROM jackpot_bet_types WHERE id = $1`, [bulk.betTypeId]);
    expect(Number(bt2.jackpot)).toBe(p2.totals.rollover);
    expect(await checkInvariants(pdb.database.db)).toEqual([]);
  });
});
