/**
 * Withdrawals in disbursement survive a crash (issue 11 finding 2). A real server process on PostgreSQL
 * receives 40 concurrent approvals and is killed with SIGKILL at a random moment among them; it is
 * restarted, the approvals that did not commit are given again, and the test waits until no withdrawal
 * is in an in-between state (re-querying the disbursing ones, as an operator does from the stuck queue).
 * Then, against the sandbox operators' own ledger (sandbox_operator_txns, which outlives our process as a
 * real operator's books do):
 *  - no withdrawal was paid twice: one operator transaction per reference, and only paid withdrawals
 *    count in the bettor's total;
 *  - none was refunded while the operator paid it: a failed or timed-out withdrawal has no successful
 *    payout at the operator; a paid one has one;
 *  - a withdrawal left in doubt waits for reconciliation (never refunded);
 *  - the ledger's invariants hold.
 * Before the job queue, the disbursement was asked after the commit in the request's memory and the
 * sandbox forgot its payouts on restart: the sweep then refunded withdrawals the operator had paid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_KIND, BILL_TYPE, WITHDRAWAL_STATUS, exampleNumber } from '@dau/domain';
import { HOUSE, checkInvariants, post } from '../src/modules/money/ledger.js';
import { requestWithdrawal } from '../src/modules/payments/withdrawals.js';
import { expectStatus, processDatabase, startServerProcess, waitFor, type ProcessDatabase, type ServerProcess } from './support/processes.js';

const COUNT = 40;
const PAY_TYPES = [3, 4, 6, 7];

describe.skipIf(!process.env.TEST_DATABASE_URL)('withdrawals approved while their server is killed -9 (PostgreSQL, server process)', () => {
  let pdb: ProcessDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    pdb = await processDatabase({ prefix: 'dau_pay' });
    server = await startServerProcess(pdb.url, { name: 'payments' });
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await pdb?.dispose();
  });

  it('pays no withdrawal twice and refunds none the operator paid', { timeout: 600_000 }, async () => {
    const db = pdb.database.db;
    const q = async <T>(text: string, params: unknown[] = []) => (await pdb.database.query(text, params)).rows as T[];
    const [{ id: bettorId }] = await q<{ id: number }>(
      `INSERT INTO bettors (phone, name, agent_id) SELECT '255711000001', 'Crash payer', id FROM admins WHERE account = 'admin' RETURNING id`,
    );
    const funds = 100_000_000_00;
    await db.transaction((tx) =>
      post(tx, { bettorId, account: ACCOUNT_KIND.cash, amount: funds, type: BILL_TYPE.user_recharge, cause: { type: 'recharge', id: 'crash-fund' }, house: HOUSE.clearing(6) }),
    );
    const asked = [];
    // Each to a number of the operator's own network (the number decides the network).
    for (let i = 0; i < COUNT; i++) {
      const payType = PAY_TYPES[i % PAY_TYPES.length]!;
      asked.push(await requestWithdrawal(db, { bettorId, payType, amount: 1_000_00 + i * 1_00, phone: exampleNumber(payType, 1_000 + i) }));
    }

    const token = await server.login();
    const approveAll = (ids: number[]) => ids.map((id) => server.api('POST', `/api/v1/money/withdrawals/${id}/approve`, undefined, token).catch(() => null));
    // Warm the process (the first requests compile the routes), then kill it at a random point among the
    // approvals: once a random number of them have committed, with the jobs and callbacks in flight.
    expectStatus(await server.api('GET', '/api/v1/money/withdrawals?page_size=1', undefined, token), 200, 'warm-up', server);
    const killAfter = 1 + Math.floor(Math.random() * (COUNT - 5));
    const answers = Promise.all(approveAll(asked.map((w) => w.id)));
    await waitFor(`${killAfter} approvals committed`, async () => (await q<{ n: number }>(`SELECT count(*)::int AS n FROM withdrawals WHERE status <> ${WITHDRAWAL_STATUS.pending_review}`))[0]!.n >= killAfter, {
      intervalMs: 5,
      output: server.output,
    });
    await server.kill();
    await answers;
    const atKill = await q<{ status: number; n: number }>('SELECT status, count(*)::int AS n FROM withdrawals GROUP BY status ORDER BY status');

    await server.restart();
    // The approvals that did not commit are given again (an operator sees them still pending).
    const pending = (await q<{ id: number }>(`SELECT id FROM withdrawals WHERE status = ${WITHDRAWAL_STATUS.pending_review}`)).map((r) => r.id);
    for (const a of await Promise.all(approveAll(pending))) if (a) expectStatus(a, 200, 'approval after the restart', server);

    const inBetween = async () => {
      const jobs = await q<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'payments.disburse' AND state IN ('created', 'retry', 'active')`);
      const open = await q<{ id: number }>(
        `SELECT id FROM withdrawals WHERE status IN (${WITHDRAWAL_STATUS.pending_review}, ${WITHDRAWAL_STATUS.awaiting_second_approval})
         OR (status = ${WITHDRAWAL_STATUS.disbursing} AND reconcile_since IS NULL)`,
      );
      return { jobs: jobs[0]!.n, open: open.map((r) => r.id) };
    };
    await waitFor(
      'every withdrawal paid, failed or waiting for reconciliation',
      async () => {
        const now = await inBetween();
        if (now.jobs === 0 && now.open.length === 0) return true;
        // Lost callbacks (the killed process's timers, the sandbox's "no callback"): the stuck queue's re-query.
        if (now.jobs === 0) for (const id of now.open) await server.api('POST', `/api/v1/money/withdrawals/${id}/requery`, undefined, token);
        return false;
      },
      { intervalMs: 1_000, output: () => `kill after ${killAfter} approvals; at the kill ${JSON.stringify(atKill)}\n${server.output()}` },
    );

    const rows = await q<{ serial: string; status: number; amount: string; reconcile: boolean; op_status: string | null; op_rows: number }>(
      `SELECT w.serial_number AS serial, w.status, w.amount, w.reconcile_since IS NOT NULL AS reconcile,
              (SELECT s.status FROM sandbox_operator_txns s WHERE s.pay_type = w.pay_type AND s.reference = w.serial_number) AS op_status,
              (SELECT count(*)::int FROM sandbox_operator_txns s WHERE s.reference = w.serial_number) AS op_rows
       FROM withdrawals w ORDER BY w.id`,
    );
    expect(rows).toHaveLength(COUNT);
    const context = `kill after ${killAfter} approvals; at the kill ${JSON.stringify(atKill)}`;
    for (const r of rows) {
      // One payout at most per reference, at the operator.
      expect(r.op_rows, `${r.serial} ${context}`).toBeLessThanOrEqual(1);
      if (r.status === WITHDRAWAL_STATUS.paid) expect(r.op_status, `${r.serial} paid by us, not by the operator (${context})`).toBe('success');
      if (r.status === WITHDRAWAL_STATUS.failed || r.status === WITHDRAWAL_STATUS.timed_out) {
        expect(r.op_status, `${r.serial} refunded although the operator paid it (${context})`).not.toBe('success');
      }
      if (r.status === WITHDRAWAL_STATUS.disbursing) expect(r.reconcile, `${r.serial} left in between (${context})`).toBe(true);
    }
    // The bettor's total counts each paid withdrawal once; the ledger and the withdrawals clearing agree.
    const paid = rows.filter((r) => r.status === WITHDRAWAL_STATUS.paid).reduce((s, r) => s + Number(r.amount), 0);
    const [bettor] = await q<{ total: string; cash: string }>(`SELECT total_withdrawal AS total, cash_balance AS cash FROM bettors WHERE id = $1`, [bettorId]);
    expect(Number(bettor!.total)).toBe(paid);
    const held = rows.filter((r) => r.status === WITHDRAWAL_STATUS.paid || r.status === WITHDRAWAL_STATUS.disbursing).reduce((s, r) => s + Number(r.amount), 0);
    expect(Number(bettor!.cash)).toBe(funds - held);
    expect(await checkInvariants(db)).toEqual([]);
    const inFlight = rows.filter((r) => r.status === WITHDRAWAL_STATUS.disbursing).reduce((s, r) => s + Number(r.amount), 0);
    const [house] = await q<{ s: string }>(`SELECT coalesce(sum(amount), 0)::bigint AS s FROM house_entries WHERE account = $1`, [HOUSE.withdrawalsClearing]);
    expect(Number(house!.s)).toBe(inFlight);
  });
});
