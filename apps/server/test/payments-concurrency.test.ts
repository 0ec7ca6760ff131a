import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BILL_TYPE, PAY_STATUS, WITHDRAWAL_STATUS } from '@dau/domain';
import { paymentCallbacks, recharges, withdrawals } from '../src/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import type { ManualScheduler } from '../src/modules/payments/operators.js';
import { applyCallback, type PaymentRuntime } from '../src/modules/payments/callbacks.js';
import { startRecharge } from '../src/modules/payments/recharges.js';
import { requestWithdrawal } from '../src/modules/payments/withdrawals.js';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { PAYMENT_KEYS, balanceOf, billsOf, disbursed, grantKeys, makePayer, manualClock, withdrawalsClearingProblems } from './payments-fixtures.js';

/**
 * Races that only PostgreSQL can run for real (PGlite has one connection): many identical callbacks at
 * once, two admins approving at once. Skipped (and counted as skipped) without TEST_DATABASE_URL.
 */
// Not silent: `npm test` runs these on the local PostgreSQL whenever it answers (scripts/test.mjs).
if (!process.env.TEST_DATABASE_URL) console.warn('SKIPPED: the concurrency cases of payments-concurrency.test.ts need PostgreSQL (set TEST_DATABASE_URL)');
describe.skipIf(!process.env.TEST_DATABASE_URL)('payments under concurrency (PostgreSQL)', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof makeWorld>>;
  let root: string;
  let agentA: string;
  let clock: ManualScheduler;
  let rt: PaymentRuntime;

  beforeAll(async () => {
    t = await createTestApp();
    w = await makeWorld(t);
    await grantKeys(t, w.agentRole, PAYMENT_KEYS);
    root = await t.login('admin', ADMIN_PASSWORD);
    agentA = await t.login('agent_a');
    ({ clock, rt } = manualClock(t));
  });
  afterAll(() => t?.close());
  afterEach(async () => {
    await disbursed(t);
    await clock.runAll();
    expect(await checkInvariants(t.database.db)).toEqual([]);
    expect(await withdrawalsClearingProblems(t)).toEqual([]);
  });

  it('50 concurrent identical success callbacks credit once', async () => {
    const b = await makePayer(t, w.agentA);
    rt.sandbox(4).queue.push('no_callback');
    const r = await startRecharge(t.database.db, { bettorId: b.id, payType: 4, amount: 12_345_00 });
    await clock.runAll();
    // The one notification Airtel would send, in its format and with its hash, posted 50 times at once.
    const txn = (await rt.sandbox(4).transaction(r.serialNumber))!;
    const { headers, body } = (await rt.sandbox(4).callbackFor({ ...txn, status: 'success' }))!;
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.call('POST', '/api/v1/payments/callback/4', { headers, body })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => a.body.duplicate === true)).toHaveLength(49);

    const credits = await billsOf(t, b.id, BILL_TYPE.user_recharge);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ amount: 12_345_00, balanceBefore: 0, balanceAfter: 12_345_00 });
    expect((await balanceOf(t, b.id)).cashBalance).toBe(12_345_00);
    expect((await balanceOf(t, b.id)).totalRecharge).toBe(12_345_00);
    const [cb] = await t.database.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.reference, r.serialNumber));
    expect(cb.duplicates).toBe(49);
    const [paid] = await t.database.db.select().from(recharges).where(eq(recharges.id, r.id));
    expect(paid.payStatus).toBe(PAY_STATUS.paid);
  });

  it('50 concurrent distinct callbacks and re-queries of one payment still credit once', async () => {
    const b = await makePayer(t, w.agentA);
    rt.sandbox(3).queue.push('no_callback');
    const r = await startRecharge(t.database.db, { bettorId: b.id, payType: 3, amount: 7_500_00 });
    await clock.runAll();
    const calls = Array.from({ length: 50 }, (_, i) => {
      if (i % 10 === 0) return t.call('POST', `/api/v1/money/recharges/${r.id}/requery`, { token: root });
      // Distinct verified notifications of one payment, as the services receive them.
      return applyCallback(t.database.db, {
        payType: 3, eventId: `evt-${i}`, kind: 'collect', reference: r.serialNumber, carrierRef: r.carrierOrderNumber!, status: 'success', amount: 7_500_00, payload: {},
      }).then((body) => ({ status: 200, body }));
    });
    const answers = await Promise.all(calls);
    // Callbacks all answer 200; a re-query answers the paid row, or 409 when it came after the credit.
    expect(answers.every((a) => a.status === 200 || (a.status === 409 && a.body.code === 'NOT_AWAITING_OPERATOR'))).toBe(true);
    expect(await billsOf(t, b.id, BILL_TYPE.user_recharge)).toHaveLength(1);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(7_500_00);
  });

  it('two admins approving one withdrawal at once disburse it once (20 rounds)', async () => {
    const b = await makePayer(t, w.agentA, 1_000_000_00);
    for (let round = 0; round < 20; round++) {
      const x = await requestWithdrawal(t.database.db, { bettorId: b.id, payType: 6, amount: 10_000_00 });
      rt.sandbox(6).queue.push('success');
      const answers = await Promise.all([
        t.call('POST', `/api/v1/money/withdrawals/${x.id}/approve`, { token: root }),
        t.call('POST', `/api/v1/money/withdrawals/${x.id}/approve`, { token: agentA }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.code).toBe('WITHDRAWAL_STATE_CHANGED');
      await disbursed(t);
      expect(rt.sandbox(6).disburseCalls(x.serialNumber)).toBe(1);
      rt.sandbox(6).queue.length = 0;
    }
    await clock.runAll();
    const rows = await t.database.db.select().from(withdrawals).where(eq(withdrawals.bettorId, b.id));
    expect(rows.every((r) => r.status === WITHDRAWAL_STATUS.paid)).toBe(true);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(1_000_000_00 - 20 * 10_000_00);
    expect((await balanceOf(t, b.id)).totalWithdrawal).toBe(20 * 10_000_00);
  });

  it('an approval racing a refusal: exactly one wins, and the money follows the winner', async () => {
    const b = await makePayer(t, w.agentA, 100_000_00, 7);
    for (let round = 0; round < 10; round++) {
      const x = await requestWithdrawal(t.database.db, { bettorId: b.id, payType: 7, amount: 5_000_00 });
      rt.sandbox(7).behaviour = 'success';
      const [approve, refuse] = await Promise.all([
        t.call('POST', `/api/v1/money/withdrawals/${x.id}/approve`, { token: root }),
        t.call('POST', `/api/v1/money/withdrawals/${x.id}/refuse`, { token: agentA, body: { reason: 'race' } }),
      ]);
      expect([approve.status, refuse.status].sort()).toEqual([200, 409]);
      await disbursed(t);
      const [row] = await t.database.db.select().from(withdrawals).where(eq(withdrawals.id, x.id));
      if (approve.status === 200) {
        expect(row.status).toBe(WITHDRAWAL_STATUS.paid); // HaloPesa answers synchronously
        expect(rt.sandbox(7).disburseCalls(x.serialNumber)).toBe(1);
      } else {
        expect(row.status).toBe(WITHDRAWAL_STATUS.refused);
        expect(rt.sandbox(7).disburseCalls(x.serialNumber)).toBe(0);
      }
    }
    rt.sandbox(7).behaviour = null;
  });
});
