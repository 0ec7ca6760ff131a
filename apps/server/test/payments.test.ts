import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { BILL_TYPE, LOG_TYPE, PAY_STATUS, WITHDRAWAL_STATUS, exampleNumber } from '@dau/domain';
import { paymentCallbacks, paymentConfig, recharges, withdrawals } from '../src/schema.js';
import { systemLogs } from '../src/platform/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { ManualScheduler } from '../src/modules/payments/operators.js';
import { SANDBOX_PROFILES, SandboxBook } from '../src/modules/payments/sandbox/engine.js';
import { DbSandboxStore } from '../src/modules/payments/sandbox/store.js';
import { applyCallback, type PaymentRuntime } from '../src/modules/payments/callbacks.js';
import { startRecharge } from '../src/modules/payments/recharges.js';
import { DISBURSE_JOB, requestWithdrawal, runDisbursement } from '../src/modules/payments/withdrawals.js';
import { REQUERY_STUCK_JOB } from '../src/modules/payments/reconciliation.js';
import { approved, ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers.js';
import {
  PAYMENT_KEYS, balanceOf, billsOf, disbursed, grantKeys, makePayer, manualClock, operatorForgets, operatorRows, withdrawalsClearingProblems,
} from './payments-fixtures.js';

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let agentA: string;
let agentB: string;
let clock: ManualScheduler;
let rt: PaymentRuntime;
const TIGO = 3;
const AIRTEL = 4;
const VODACOM = 6;
const HALOTEL = 7;
const db = () => t.database.db;
const sandbox = (p: number) => rt.sandbox(p);

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  // The agents of the world also run the money desk of their branch.
  await grantKeys(t, w.agentRole, PAYMENT_KEYS);
  root = await t.login('admin', ADMIN_PASSWORD);
  agentA = await t.login('agent_a');
  agentB = await t.login('agent_b');
  ({ clock, rt } = manualClock(t));
  [initialConfig] = await db().select().from(paymentConfig);
});
afterAll(() => t?.close());
/** The payment settings as the app starts: every test starts from them (tests that change them are undone). */
let initialConfig: typeof paymentConfig.$inferSelect;

afterEach(async () => {
  // Every scenario leaves the ledger balanced, and nothing half-done at the sandboxes.
  await disbursed(t);
  await clock.runAll();
  expect(await checkInvariants(db())).toEqual([]);
  expect(await withdrawalsClearingProblems(t)).toEqual([]);
  for (const p of [TIGO, AIRTEL, VODACOM, HALOTEL]) {
    sandbox(p).behaviour = null;
    sandbox(p).queue.length = 0;
    sandbox(p).failReason = null;
  }
  const { id, ...settings } = initialConfig;
  await db().update(paymentConfig).set(settings).where(eq(paymentConfig.id, id));
});

const post = (url: string, token: string, body?: unknown) => t.call('POST', url, { token, body });
/** Approves, then waits for the disbursement job the approval enqueued (its answer is the approval's). */
async function approve(id: number, token = root) {
  const res = await post(`/api/v1/money/withdrawals/${id}/approve`, token);
  await disbursed(t);
  return res;
}
const get = (url: string, token = root) => t.call('GET', url, { token });

async function loadRecharge(id: number) {
  const [r] = await db().select().from(recharges).where(eq(recharges.id, id));
  return r;
}
async function loadWithdrawal(id: number) {
  const [x] = await db().select().from(withdrawals).where(eq(withdrawals.id, id));
  return x;
}
/** Makes a pending transaction look older than it is (the stuck queue, timeouts, archives). */
async function age(table: 'recharges' | 'withdrawals', id: number, minutes: number) {
  await t.database.exec(
    `UPDATE ${table} SET created_at = created_at - interval '${minutes} minutes'${table === 'withdrawals' ? `, disbursed_at = disbursed_at - interval '${minutes} minutes'` : ''} WHERE id = ${id}`,
  );
}
async function auditRows(fragment: string) {
  return db().select().from(systemLogs).where(sql`${systemLogs.content} like ${`%${fragment}%`}`);
}

describe('recharges', () => {
  it('credits a recharge exactly once, whatever the number of callbacks', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('duplicate');
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 25_000_00 });
    expect(r.payStatus).toBe(PAY_STATUS.processing);
    expect(r.serialNumber).toMatch(/^R\d{6}[0-9A-F]{12}$/);
    expect(r.carrierOrderNumber).toMatch(/^TGP/);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(0);

    await clock.runAll();
    const paid = await loadRecharge(r.id);
    expect(paid.payStatus).toBe(PAY_STATUS.paid);
    expect(paid.paidAt).not.toBeNull();
    expect(paid.callbackCount).toBe(1);
    const [cb] = await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.reference, r.serialNumber));
    expect(cb.duplicates).toBe(1);
    const credits = await billsOf(t, b.id, BILL_TYPE.user_recharge);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ amount: 25_000_00, balanceBefore: 0, balanceAfter: 25_000_00, causeType: 'recharge', causeId: String(r.id) });
    const after = await balanceOf(t, b.id);
    expect(after.cashBalance).toBe(25_000_00);
    expect(after.totalRecharge).toBe(25_000_00);
    expect(after.lastRechargeAt?.getTime()).toBe(paid.paidAt!.getTime());

    // Another notification of the same payment (another event id, the provider's own format through the
    // route): recorded, credits nothing more.
    const txn = (await sandbox(TIGO).transaction(r.serialNumber))!;
    const notice = (await sandbox(TIGO).callbackFor({ ...txn, extra: { ...txn.extra, notice: 'late' } }, 9))!;
    const late = await t.call('POST', `/api/v1/payments/callback/${TIGO}`, { headers: notice.headers, body: notice.body });
    expect(late.status).toBe(200);
    expect(await billsOf(t, b.id, BILL_TYPE.user_recharge)).toHaveLength(1);
    expect((await loadRecharge(r.id)).callbackCount).toBeGreaterThanOrEqual(1);

    // The next recharge shows when the previous one was paid.
    sandbox(TIGO).queue.push('success');
    const next = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 1_000_00 });
    expect(next.previousRechargeAt?.getTime()).toBe(paid.paidAt!.getTime());
  });

  it('refuses a callback with a tampered, missing or garbage signature and changes nothing', async () => {
    // Each provider that calls back (Airtel directly, Tigo through the aggregator) signs its own way
    // (payments-airtel/-aggregator.test.ts check their schemes in detail); the route refuses whatever fails it.
    for (const payType of [AIRTEL, TIGO]) {
      const b = await makePayer(t, w.agentA, 0, payType);
      sandbox(payType).queue.push('no_callback');
      const r = await startRecharge(db(), { bettorId: b.id, payType, amount: 10_000_00 });
      await clock.runAll();
      const txn = (await sandbox(payType).transaction(r.serialNumber))!;
      const genuine = (await sandbox(payType).callbackFor({ ...txn, status: 'success' }))!;
      // The signature may sit in the headers (the aggregator) or in the body (Airtel's hash): strip both.
      const unsigned = JSON.stringify({ ...(JSON.parse(genuine.body) as Record<string, unknown>), hash: undefined });
      const otherSerial = r.serialNumber.slice(0, -1) + (r.serialNumber.endsWith('0') ? '1' : '0');
      const attempts: Record<string, { headers: Record<string, string>; body: string }> = {
        tampered: { headers: genuine.headers, body: genuine.body.replaceAll(r.serialNumber, otherSerial) },
        missing: { headers: { 'content-type': 'application/json' }, body: unsigned },
        garbage: { headers: { 'content-type': 'application/json' }, body: '{"not":"a callback"}' },
      };
      for (const [name, { headers, body }] of Object.entries(attempts)) {
        const res = await t.call('POST', `/api/v1/payments/callback/${payType}`, { headers, body });
        expect(res.status, `${payType} ${name}`).toBe(401);
        expect(res.body.code).toBe('CALLBACK_SIGNATURE_INVALID');
      }
      expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.processing);
      expect(await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.reference, r.serialNumber))).toEqual([]);
      expect(await billsOf(t, b.id)).toEqual([]);
      // The genuine one goes through (so the refusals above were about the signature alone).
      const good = await t.call('POST', `/api/v1/payments/callback/${payType}`, { headers: genuine.headers, body: genuine.body });
      expect(good.status).toBe(200);
      expect((await balanceOf(t, b.id)).cashBalance).toBe(10_000_00);
      // An operator we do not have.
      expect((await t.call('POST', '/api/v1/payments/callback/5', { headers: genuine.headers, body: genuine.body })).status).toBe(404);
    }
  });

  it('records a callback for an unknown reference and answers { ok: false }', async () => {
    const res = await applyCallback(db(), {
      payType: HALOTEL, eventId: 'HP-unknown-1', kind: 'collect', reference: 'R000000NOSUCHREF', carrierRef: 'HP123', status: 'success', amount: 500_00, payload: {},
    });
    expect(res).toEqual({ ok: false, reason: 'unknown_reference' });
    const [row] = await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.eventId, 'HP-unknown-1'));
    expect(row.reference).toBe('R000000NOSUCHREF');
  });

  it('a callback that never comes: the recharge becomes stuck, and a re-query resolves it once', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(AIRTEL).queue.push('no_callback');
    const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 5_000_00 });
    await clock.runAll();
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.processing);
    let stuck = await get('/api/v1/money/recharges?stuck=true');
    expect(stuck.status).toBe(200);
    expect(stuck.body.items.map((i: { id: number }) => i.id)).not.toContain(r.id);

    await age('recharges', r.id, 20);
    stuck = await get('/api/v1/money/recharges?stuck=true');
    const row = stuck.body.items.find((i: { id: number }) => i.id === r.id);
    expect(row).toMatchObject({ stuck: true, pay_status: 1, pay_type: AIRTEL, user_id: b.id, user_phone: b.phone, amount: 5_000_00 });
    // The Airtel desk sees it too.
    const airtel = await get(`/api/v1/money/airtel_transfer?stuck=true&kind=recharge`);
    expect(airtel.body.items.map((i: { row_id: number }) => i.row_id)).toContain(r.id);

    const res = await post(`/api/v1/money/recharges/${r.id}/requery`, root);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: r.id, pay_status: PAY_STATUS.paid, stuck: false });
    expect(res.body.pay_time).not.toBeNull();
    expect(res.body.last_query_time).not.toBeNull();
    expect((await balanceOf(t, b.id)).cashBalance).toBe(5_000_00);
    const again = await post(`/api/v1/money/recharges/${r.id}/requery`, root);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('NOT_AWAITING_OPERATOR');
    expect(await billsOf(t, b.id, BILL_TYPE.user_recharge)).toHaveLength(1);
    // No longer stuck.
    expect((await get('/api/v1/money/recharges?stuck=true')).body.items.map((i: { id: number }) => i.id)).not.toContain(r.id);
  });

  it('a failed collect voids the recharge with the reason and moves no money', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('fail');
    sandbox(TIGO).failReason = 'insufficient_funds';
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 3_000_00 });
    await clock.runAll();
    const voided = await loadRecharge(r.id);
    expect(voided.payStatus).toBe(PAY_STATUS.voided);
    expect(voided.failReason).toContain("Insufficient funds in the payer's wallet");
    expect(voided.paidAt).toBeNull();
    expect(await billsOf(t, b.id)).toEqual([]);
    expect((await balanceOf(t, b.id)).totalRecharge).toBe(0);
    const listed = await get(`/api/v1/money/recharges?bettor_id=${b.id}`);
    expect(listed.body.items[0]).toMatchObject({ id: r.id, pay_status: 3, fail_reason: expect.stringContaining("Insufficient funds in the payer's wallet") });
  });

  it('a collect that never reached the operator is voided by a re-query after the timeout', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(HALOTEL).queue.push('timeout_lost');
    const r = await startRecharge(db(), { bettorId: b.id, payType: HALOTEL, amount: 2_000_00 });
    expect(r.carrierOrderNumber).toBeNull();
    const early = await post(`/api/v1/money/recharges/${r.id}/requery`, root);
    expect(early.body.pay_status).toBe(PAY_STATUS.processing);
    // An hour passes, for us and for the aggregator (its order, never paid, expires).
    await age('recharges', r.id, 61);
    await clock.advance(61 * 60_000);
    const late = await post(`/api/v1/money/recharges/${r.id}/requery`, root);
    expect(late.body.pay_status).toBe(PAY_STATUS.voided);
    // The aggregator kept the order it was given; unpaid past its validity it says so (its word, not a guess).
    expect(late.body.fail_reason).toContain('payment_status CANCELLED');
    expect(await billsOf(t, b.id)).toEqual([]);
  });

  it('refuses a recharge below the minimum', async () => {
    const b = await makePayer(t, w.agentA);
    await expect(startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 99_00 })).rejects.toMatchObject({ status: 422, code: 'AMOUNT_BELOW_MINIMUM' });
    expect(await db().select().from(recharges).where(eq(recharges.bettorId, b.id))).toEqual([]);
  });

  it('"Please select the user to query": the recharge screens need a user, a serial or the stuck queue', async () => {
    const b = await makePayer(t, w.agentA);
    for (const url of ['/api/v1/money/recharges', '/api/v1/money/cs/recharges', '/api/v1/money/recharges/archive', '/api/v1/money/recharges?pay_status=1']) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({ code: 'RECHARGE_USER_REQUIRED', message: 'Please select the user to query' });
    }
    const sw = await t.call('GET', '/api/v1/money/recharges', { token: root, headers: { 'x-locale': 'sw-KE' } });
    expect(sw.body.message).toBe('Tafadhali chagua mtumiaji wa kutafuta');
    expect((await get(`/api/v1/money/recharges?phone=0${b.phone.slice(3)}`)).status).toBe(200);
    expect((await get(`/api/v1/money/cs/recharges?bettor_id=${b.id}`)).status).toBe(200);
    expect((await get('/api/v1/money/recharges?serial_number=R1')).status).toBe(200);
  });

  it('keeps the last 30 days in the list and older records in the archive', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('success', 'success');
    const old = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 1_000_00 });
    const recent = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 2_000_00 });
    await clock.runAll();
    await age('recharges', old.id, 40 * 24 * 60);
    const list = await get(`/api/v1/money/recharges?bettor_id=${b.id}`);
    expect(list.body.items.map((i: { id: number }) => i.id)).toEqual([recent.id]);
    // A from-date further back than 30 days does not reach into the archive.
    const wide = await get(`/api/v1/money/recharges?bettor_id=${b.id}&created_at_from=${encodeURIComponent(new Date(Date.now() - 90 * 86_400_000).toISOString())}`);
    expect(wide.body.items.map((i: { id: number }) => i.id)).toEqual([recent.id]);
    const archive = await get(`/api/v1/money/recharges/archive?bettor_id=${b.id}`);
    expect(archive.body.items.map((i: { id: number }) => i.id)).toEqual([old.id]);
    expect((await get(`/api/v1/money/recharges/archive?serial_number=${old.serialNumber}`)).body.total).toBe(1);
  });
});

describe('withdrawals', () => {
  it('holds the money when requested, within the configured range and the balance', async () => {
    const b = await makePayer(t, w.agentA, 50_000_00, VODACOM);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 20_000_00 });
    expect(x).toMatchObject({ status: WITHDRAWAL_STATUS.pending_review, payStatus: PAY_STATUS.processing });
    expect(x.serialNumber).toMatch(/^W/);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(30_000_00);
    const [hold] = await billsOf(t, b.id, BILL_TYPE.user_withdrawal);
    expect(hold).toMatchObject({ amount: -20_000_00, balanceBefore: 50_000_00, balanceAfter: 30_000_00, causeType: 'withdrawal', causeId: String(x.id) });

    await expect(requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 30_001_00 })).rejects.toMatchObject({ status: 422, code: 'INSUFFICIENT_BALANCE' });
    await expect(requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 999_00 })).rejects.toMatchObject({
      status: 422, code: 'AMOUNT_OUT_OF_RANGE', params: { min: '1,000.00', max: '5,000,000.00' },
    });
    await expect(requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 5_000_001_00 })).rejects.toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE' });
    // The operators move whole shillings: a cent could never be paid out.
    await expect(requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 1_000_50 })).rejects.toMatchObject({ status: 422, code: 'AMOUNT_WHOLE_SHILLINGS' });
    // The refused requests left nothing behind.
    expect(await db().select().from(withdrawals).where(eq(withdrawals.bettorId, b.id))).toHaveLength(1);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(30_000_00);
    const listed = await get(`/api/v1/money/withdrawals?bettor_id=${b.id}`);
    expect(listed.body.items[0]).toMatchObject({ id: x.id, status: 1, pay_status: 1, amount: 20_000_00, user_phone: b.phone, user_name: b.name, large: false });
  });

  it('refuse needs a reason, returns the money with a rollback bill, and happens once', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, TIGO);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: TIGO, amount: 4_000_00 });
    const blank = await post(`/api/v1/money/withdrawals/${x.id}/refuse`, root, { reason: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.code).toBe('REFUSE_REASON_REQUIRED');
    expect((await post(`/api/v1/money/withdrawals/${x.id}/refuse`, root, {})).status).toBe(400);

    const res = await post(`/api/v1/money/withdrawals/${x.id}/refuse`, root, { reason: 'Name does not match the wallet' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: x.id, status: WITHDRAWAL_STATUS.refused, pay_status: PAY_STATUS.voided, refuse_reason: 'Name does not match the wallet', refused_by: 'admin' });
    const [back] = await billsOf(t, b.id, BILL_TYPE.amount_rolled_back);
    expect(back).toMatchObject({ amount: 4_000_00, balanceAfter: 10_000_00, causeType: 'withdrawal', causeId: String(x.id) });
    expect(back.remark).toContain('Name does not match the wallet');
    expect(back.adminId).not.toBeNull();

    const twice = await post(`/api/v1/money/withdrawals/${x.id}/refuse`, root, { reason: 'again' });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('WITHDRAWAL_STATE_CHANGED');
    expect((await post(`/api/v1/money/withdrawals/${x.id}/approve`, root)).status).toBe(409);
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toHaveLength(1);
    expect(rt.sandbox(TIGO).disburseCalls(x.serialNumber)).toBe(0);
  });

  it('approve disburses once; the callback pays it', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, VODACOM);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 6_000_00 });
    sandbox(VODACOM).queue.push('duplicate');
    const res = await approve(x.id);
    expect(res.status).toBe(200);
    // The answer of the approval: sent to the operator (the job asks it once the approval has committed).
    expect(res.body).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, first_approver: 'admin', pay_status: 1 });
    expect((await loadWithdrawal(x.id)).carrierOrderNumber).toMatch(/^MP/);
    expect(sandbox(VODACOM).disburseCalls(x.serialNumber)).toBe(1);
    const second = await post(`/api/v1/money/withdrawals/${x.id}/approve`, agentA);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('WITHDRAWAL_STATE_CHANGED');

    await clock.runAll();
    const paid = await loadWithdrawal(x.id);
    expect(paid).toMatchObject({ status: WITHDRAWAL_STATUS.paid, payStatus: PAY_STATUS.paid });
    expect(paid.paidAt).not.toBeNull();
    const bettor = await balanceOf(t, b.id);
    expect(bettor.cashBalance).toBe(4_000_00);
    expect(bettor.totalWithdrawal).toBe(6_000_00);
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    expect(sandbox(VODACOM).disburseCalls(x.serialNumber)).toBe(1);
    // A requery of a paid withdrawal has nothing to ask.
    expect((await post(`/api/v1/money/withdrawals/${x.id}/requery`, root)).body.code).toBe('NOT_AWAITING_OPERATOR');
  });

  it('a failed disbursement (callback or synchronous answer) rolls the money back', async () => {
    const b = await makePayer(t, w.agentA, 20_000_00, TIGO);
    const viaCallback = await requestWithdrawal(db(), { bettorId: b.id, payType: TIGO, amount: 5_000_00 });
    sandbox(TIGO).queue.push('fail');
    sandbox(TIGO).failReason = 'not_registered';
    expect((await approve(viaCallback.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    await clock.runAll();
    const failed = await loadWithdrawal(viaCallback.id);
    expect(failed).toMatchObject({ status: WITHDRAWAL_STATUS.failed, payStatus: PAY_STATUS.voided, failReason: expect.stringContaining('Subscriber not registered for mobile money') });

    // HaloPesa answers a disbursement at once: the job records the failure without waiting for a callback.
    const sync = await requestWithdrawal(db(), { bettorId: b.id, payType: HALOTEL, amount: 3_000_00, phone: exampleNumber(HALOTEL, 350) });
    sandbox(HALOTEL).queue.push('fail');
    sandbox(HALOTEL).failReason = 'operator_timeout';
    expect((await approve(sync.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect(await loadWithdrawal(sync.id)).toMatchObject({ status: WITHDRAWAL_STATUS.failed, payStatus: PAY_STATUS.voided });
    await clock.runAll(); // its confirmation callback changes nothing more

    const backs = await billsOf(t, b.id, BILL_TYPE.amount_rolled_back);
    expect(backs.map((x) => x.amount).sort()).toEqual([3_000_00, 5_000_00]);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(20_000_00);
    expect((await balanceOf(t, b.id)).totalWithdrawal).toBe(0);
  });

  it('a disbursement that timed out is asked again with the same reference and paid once, whether the operator got the first call or not', async () => {
    const b = await makePayer(t, w.agentA, 20_000_00, AIRTEL);
    // The call times out but the operator got it: the retry finds the same payout, the callback pays it.
    const moved = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount: 2_000_00 });
    sandbox(AIRTEL).queue.push('timeout');
    const r1 = await approve(moved.id);
    expect(r1.status).toBe(200);
    expect(r1.body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect(sandbox(AIRTEL).disburseCalls(moved.serialNumber)).toBe(2);
    expect(await loadWithdrawal(moved.id)).toMatchObject({ disburseAttempts: 2, carrierOrderNumber: expect.stringMatching(/^AM/) });
    await clock.runAll();
    expect((await loadWithdrawal(moved.id)).status).toBe(WITHDRAWAL_STATUS.paid);

    // The call times out and the operator never got it: the retry reaches it; its callback is lost, so
    // the withdrawal waits in the stuck queue until a re-query finds it paid.
    const lost = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount: 3_000_00 });
    sandbox(AIRTEL).queue.push('timeout_lost', 'no_callback');
    expect((await approve(lost.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect(sandbox(AIRTEL).disburseCalls(lost.serialNumber)).toBe(2);
    expect(await operatorRows(t, lost.serialNumber)).toHaveLength(1);
    const early = await post(`/api/v1/money/withdrawals/${lost.id}/requery`, root);
    expect(early.body).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, stuck: false, reconcile: false });
    await clock.runAll();
    await age('withdrawals', lost.id, 65);
    expect((await get('/api/v1/money/withdrawals?stuck=true')).body.items.map((i: { id: number }) => i.id)).toContain(lost.id);
    // Through the Airtel desk this time.
    const done = await post(`/api/v1/money/airtel_transfer/withdrawal/${lost.id}/requery`, root);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: WITHDRAWAL_STATUS.paid, pay_status: PAY_STATUS.paid });
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 15_000_00, totalWithdrawal: 5_000_00 });
    // The Airtel desk lists both withdrawals with their outcome and approver.
    const desk = (await get(`/api/v1/money/airtel_transfer?bettor_id=${b.id}&kind=withdrawal`)).body.items as Record<string, unknown>[];
    // Newest first (`lost` was made to look 65 minutes old).
    expect(desk.map((i) => [i.row_id, i.status, i.first_approver])).toEqual([
      [moved.id, WITHDRAWAL_STATUS.paid, 'admin'],
      [lost.id, WITHDRAWAL_STATUS.paid, 'admin'],
    ]);
  });

  it('a large withdrawal needs a second approval by a different admin', async () => {
    const cfg = await approved(t, 'PUT', '/api/v1/money/pay_config', { token: root, body: { large_withdrawal: 100_000_00 } });
    expect(cfg.status).toBe(200);
    expect(cfg.body.large_withdrawal).toBe(100_000_00);
    const b = await makePayer(t, w.agentA, 500_000_00, VODACOM);
    const big = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 100_001_00 });
    expect((await get(`/api/v1/money/withdrawals?large=true&bettor_id=${b.id}`)).body.items.map((i: { id: number }) => i.id)).toEqual([big.id]);
    const first = await post(`/api/v1/money/withdrawals/${big.id}/approve`, agentA);
    expect(first.body).toMatchObject({ status: WITHDRAWAL_STATUS.awaiting_second_approval, first_approver: 'agent_a', large: true });
    expect(sandbox(VODACOM).disburseCalls(big.serialNumber)).toBe(0);
    const same = await post(`/api/v1/money/withdrawals/${big.id}/approve`, agentA);
    expect(same.status).toBe(422);
    expect(same.body.code).toBe('SECOND_APPROVER_SAME');
    expect((await loadWithdrawal(big.id)).status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);
    sandbox(VODACOM).queue.push('success');
    const second = await approve(big.id);
    expect(second.body).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, first_approver: 'agent_a', second_approver: 'admin' });
    expect(second.body.review_time).not.toBeNull();
    await clock.runAll();
    expect((await loadWithdrawal(big.id)).status).toBe(WITHDRAWAL_STATUS.paid);
    // At the limit exactly, one approval is enough.
    const edge = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 100_000_00 });
    sandbox(VODACOM).queue.push('success');
    expect((await approve(edge.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    // A large one awaiting its second approval can still be refused.
    const other = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 150_000_00 });
    await post(`/api/v1/money/withdrawals/${other.id}/approve`, root);
    expect((await post(`/api/v1/money/withdrawals/${other.id}/refuse`, agentA, { reason: 'Second approver disagrees' })).body.status).toBe(WITHDRAWAL_STATUS.refused);
    await db().update(paymentConfig).set({ largeWithdrawal: 1_000_000_00 }).where(eq(paymentConfig.id, 1));
  });
});

describe('money paths at the edges', () => {
  /** Collects what the payment runtime logs during `fn` (the messages an operator reconciles by hand). */
  async function logged(fn: () => Promise<void>): Promise<string[]> {
    const seen: string[] = [];
    const before = rt.log;
    rt.log = (msg, extra) => {
      seen.push(msg);
      before(msg, extra);
    };
    try {
      await fn();
    } finally {
      rt.log = before;
    }
    return seen;
  }
  /** A verified callback as the services receive it (each provider's format and signature: its own tests). */
  const callback = (payType: number, o: { eventId: string; kind?: 'collection' | 'disbursement'; reference: string; carrierRef: string; status?: 'SUCCESS' | 'FAILED'; amount: string; reason?: string }) =>
    applyCallback(db(), {
      payType: payType as never, eventId: o.eventId, kind: o.kind === 'disbursement' ? 'disburse' : 'collect', reference: o.reference, carrierRef: o.carrierRef,
      status: o.status === 'FAILED' ? 'failed' : 'success', amount: Math.round(Number(o.amount) * 100), reason: o.reason, payload: { forged: o },
    }).then((body) => ({ status: 200, body }));

  it('a SUCCESS callback after a withdrawal was reconciled as not paid pays nothing twice and is logged for a person', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, AIRTEL);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount: 4_000_00 });
    sandbox(AIRTEL).queue.push('no_callback');
    expect((await approve(x.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    await operatorForgets(t, x.serialNumber);
    await age('withdrawals', x.id, 65);
    expect((await post(`/api/v1/money/withdrawals/${x.id}/requery`, root)).body).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, reconcile: true });
    const done = await post(`/api/v1/money/withdrawals/${x.id}/reconcile`, root, { outcome: 'not_paid', reference: 'AM statement 2026-11-25 line 14', remark: 'Not on the statement' });
    expect(done.body).toMatchObject({ status: WITHDRAWAL_STATUS.failed, pay_status: PAY_STATUS.voided });
    expect((await balanceOf(t, b.id)).cashBalance).toBe(10_000_00);
    const billsBefore = await billsOf(t, b.id);
    expect(billsBefore.map((x) => x.type)).toEqual([BILL_TYPE.user_recharge, BILL_TYPE.user_withdrawal, BILL_TYPE.amount_rolled_back]);

    // The operator did pay it after all and says so.
    let res: Awaited<ReturnType<typeof callback>> | undefined;
    const log = await logged(async () => {
      res = await callback(AIRTEL, { eventId: 'AM-late-success-1', kind: 'disbursement', reference: x.serialNumber, carrierRef: 'AM999', amount: '4000.00' });
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ ok: true });
    // Nothing moves: the withdrawal stays failed, the bettor keeps the returned amount, no second bill,
    // no payout counted; the disagreement is logged for a person to reconcile.
    expect(await loadWithdrawal(x.id)).toMatchObject({ status: WITHDRAWAL_STATUS.failed, payStatus: PAY_STATUS.voided });
    const after = await balanceOf(t, b.id);
    expect(after.cashBalance).toBe(10_000_00);
    expect(after.totalWithdrawal).toBe(0);
    expect(await billsOf(t, b.id)).toEqual(billsBefore);
    expect(log).toContain('callback disagrees with a settled withdrawal: reconcile by hand');
    const [cb] = await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.eventId, 'AM-late-success-1'));
    expect(cb.reference).toBe(x.serialNumber);
  });

  it('a recharge callback with another amount credits nothing and keeps the recharge for a person to look at', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('no_callback');
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 8_000_00 });
    await clock.runAll();
    const log = await logged(async () => {
      const res = await callback(TIGO, { eventId: 'TGP-mismatch-1', reference: r.serialNumber, carrierRef: r.carrierOrderNumber!, amount: '80000.00' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: false, reason: 'amount_mismatch' });
    });
    expect(log).toContain('recharge amount mismatch');
    const row = await loadRecharge(r.id);
    expect(row.payStatus).toBe(PAY_STATUS.processing);
    expect(row.failReason).toBe('Amount mismatch: the operator reported 80,000.00');
    expect(await billsOf(t, b.id)).toEqual([]);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 0, totalRecharge: 0 });
    // The right amount still credits it, once.
    const good = await callback(TIGO, { eventId: 'TGP-mismatch-2', reference: r.serialNumber, carrierRef: r.carrierOrderNumber!, amount: '8000.00' });
    expect(good.body).toEqual({ ok: true });
    expect((await loadRecharge(r.id)).failReason).toBeNull();
    expect((await billsOf(t, b.id)).map((x) => x.amount)).toEqual([8_000_00]);
  });

  it('a withdrawal callback with another amount pays nothing: the withdrawal stays disbursing', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, VODACOM);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 3_000_00 });
    sandbox(VODACOM).queue.push('no_callback');
    expect((await approve(x.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    await clock.runAll();
    const billsBefore = await billsOf(t, b.id);
    const log = await logged(async () => {
      const res = await callback(VODACOM, { eventId: 'MP-mismatch-1', kind: 'disbursement', reference: x.serialNumber, carrierRef: 'MP777', amount: '300.00' });
      expect(res.body).toEqual({ ok: false, reason: 'amount_mismatch' });
    });
    expect(log).toContain('withdrawal amount mismatch');
    expect(await loadWithdrawal(x.id)).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, payStatus: PAY_STATUS.processing, paidAt: null });
    // Waiting for a person: it shows in the reconciliation view.
    expect((await loadWithdrawal(x.id)).reconcileCause).toBe('Amount mismatch: the operator reported 300.00');
    expect(await billsOf(t, b.id)).toEqual(billsBefore);
    expect((await balanceOf(t, b.id)).totalWithdrawal).toBe(0);
    // Resolved by its true callback (the clearing account then matches again, see afterEach).
    const good = await callback(VODACOM, { eventId: 'MP-mismatch-2', kind: 'disbursement', reference: x.serialNumber, carrierRef: 'MP777', amount: '3000.00' });
    expect(good.body).toEqual({ ok: true });
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
  });

  it('refuses to refuse a withdrawal that is disbursing: 409, nothing returned, nothing audited', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, TIGO);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: TIGO, amount: 2_000_00 });
    sandbox(TIGO).queue.push('no_callback');
    expect((await approve(x.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    const res = await post(`/api/v1/money/withdrawals/${x.id}/refuse`, root, { reason: 'Too late' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('WITHDRAWAL_STATE_CHANGED');
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(8_000_00);
    expect(await auditRows(`Refused withdrawal ${x.serialNumber}`)).toEqual([]);
    // It ends through the operator (once the operator has paid it, a re-query finds it paid).
    await clock.runAll();
    await post(`/api/v1/money/withdrawals/${x.id}/requery`, root);
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
  });

  it('requeryStuck resolves every stuck recharge and withdrawal as the system, and leaves the recent ones', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, AIRTEL);
    sandbox(HALOTEL).behaviour = 'no_callback';
    const stuckRecharge = await startRecharge(db(), { bettorId: b.id, payType: HALOTEL, amount: 1_500_00 });
    const recentRecharge = await startRecharge(db(), { bettorId: b.id, payType: HALOTEL, amount: 2_500_00 });
    sandbox(AIRTEL).queue.push('no_callback');
    const stuckWithdrawal = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount: 1_000_00 });
    await approve(stuckWithdrawal.id);
    await clock.runAll();
    await age('recharges', stuckRecharge.id, 20);
    await age('withdrawals', stuckWithdrawal.id, 20);
    // What the job must look at: the stuck rows of the whole book (ours and any left by earlier tests).
    const cfg = (await db().select().from(paymentConfig))[0];
    const cutoff = new Date(Date.now() - cfg.stuckAfterMinutes * 60_000).toISOString();
    const [{ n: stuckNow }] = (
      (await db().execute(
        sql`select ((select count(*) from recharges where pay_status = 1 and created_at < ${cutoff}::timestamptz) + (select count(*) from withdrawals where status = 3 and disbursed_at < ${cutoff}::timestamptz))::int as n`,
      )) as unknown as { rows: { n: number }[] }
    ).rows;

    const { requeryStuck } = await import('../src/modules/payments/reconciliation.js');
    const run = await requeryStuck(db());
    expect(run.checked).toBe(stuckNow);
    expect(run.resolved).toBeGreaterThanOrEqual(2);
    expect((await loadRecharge(stuckRecharge.id)).payStatus).toBe(PAY_STATUS.paid);
    expect((await loadWithdrawal(stuckWithdrawal.id)).status).toBe(WITHDRAWAL_STATUS.paid);
    expect((await loadRecharge(recentRecharge.id)).payStatus).toBe(PAY_STATUS.processing);
    expect((await billsOf(t, b.id, BILL_TYPE.user_recharge)).map((x) => x.amount).sort((p, q) => p - q)).toEqual([1_500_00, 10_000_00]);
    // Audited as the system (no admin account).
    const [audit] = await auditRows(`Re-queried recharge ${stuckRecharge.serialNumber}`);
    expect(audit).toMatchObject({ type: LOG_TYPE.update_balance });
  });
});

describe('disbursement jobs and reconciliation (issue 11 finding 2)', () => {
  const reconcile = (kind: 'withdrawals' | 'recharges', id: number, body: Record<string, unknown>, token = root) =>
    post(`/api/v1/money/${kind}/${id}/reconcile`, token, body);
  const jobsOf = async (id: number) =>
    (
      (await db().execute(sql`select state from pgboss.job where name = ${DISBURSE_JOB} and data->>'withdrawalId' = ${String(id)}`)) as unknown as {
        rows: { state: string }[];
      }
    ).rows;

  it('approve commits its disbursement job in the same transaction; a refused approval enqueues none', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, VODACOM);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 2_000_00 });
    sandbox(VODACOM).queue.push('no_callback');
    const res = await post(`/api/v1/money/withdrawals/${x.id}/approve`, root);
    expect(res.body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect(await jobsOf(x.id)).toHaveLength(1);
    await disbursed(t);
    expect((await jobsOf(x.id)).map((j) => j.state)).toEqual(['completed']);
    expect((await post(`/api/v1/money/withdrawals/${x.id}/approve`, root)).status).toBe(409);
    expect(await jobsOf(x.id)).toHaveLength(1);
    // A large one's first approval waits for the second: no job yet.
    await db().update(paymentConfig).set({ largeWithdrawal: 1_000_00 }).where(eq(paymentConfig.id, 1));
    const big = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 2_000_00 });
    expect((await post(`/api/v1/money/withdrawals/${big.id}/approve`, root)).body.status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);
    expect(await jobsOf(big.id)).toEqual([]);
    await post(`/api/v1/money/withdrawals/${big.id}/refuse`, root, { reason: 'test over' });
  });

  it('the disbursement job run twice (a retry, a crash after the operator paid) pays once', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, TIGO);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: TIGO, amount: 3_000_00 });
    sandbox(TIGO).queue.push('success');
    // The operator was asked, paid, and our process died before recording anything.
    await sandbox(TIGO).disburse({ reference: x.serialNumber, phone: x.phone, amount: x.amount });
    await approve(x.id);
    await runDisbursement(db(), x.id);
    const rows = await operatorRows(t, x.serialNumber);
    expect(rows).toHaveLength(1);
    await clock.runAll();
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
    // Once settled, a further run asks nothing.
    const calls = sandbox(TIGO).disburseCalls(x.serialNumber);
    await runDisbursement(db(), x.id);
    expect(sandbox(TIGO).disburseCalls(x.serialNumber)).toBe(calls);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 7_000_00, totalWithdrawal: 3_000_00 });
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
  });

  it('the sandbox operator remembers its payouts in the database: a re-query after our restart finds them', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, VODACOM);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 1_500_00 });
    sandbox(VODACOM).queue.push('no_callback');
    await approve(x.id);
    // Our process (and its timers) is gone; the operator completed the payout meanwhile.
    const later = new ManualScheduler(clock.now() + 60 * 60_000);
    const restarted = new SandboxBook(SANDBOX_PROFILES[VODACOM], { scheduler: () => later, deliver: async () => 200, store: new DbSandboxStore(db()) });
    expect(await restarted.queryStatus(x.serialNumber)).toMatchObject({ status: 'success', amount: 1_500_00, carrierRef: (await loadWithdrawal(x.id)).carrierOrderNumber });
    // Asked again with the same reference, it answers the same payout.
    expect(await restarted.disburse({ reference: x.serialNumber, phone: x.phone, amount: x.amount })).toMatchObject({ status: 'success' });
    expect(await operatorRows(t, x.serialNumber)).toHaveLength(1);
    await clock.runAll();
    await post(`/api/v1/money/withdrawals/${x.id}/requery`, root);
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
  });

  it('a disbursement with a carrier order number that the operator answers "unknown" past the timeout is not refunded: it waits for reconciliation', async () => {
    const b = await makePayer(t, w.agentA, 20_000_00, AIRTEL);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount: 4_000_00 });
    sandbox(AIRTEL).queue.push('no_callback');
    await approve(x.id);
    const sent = await loadWithdrawal(x.id);
    expect(sent.carrierOrderNumber).toMatch(/^AM/);
    // The crash of finding 2: the operator's answer is lost to us and a re-query says "unknown".
    await operatorForgets(t, x.serialNumber);
    await age('withdrawals', x.id, 65);
    const { requeryStuck } = await import('../src/modules/payments/reconciliation.js');
    await requeryStuck(db());
    const waiting = await loadWithdrawal(x.id);
    expect(waiting).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, payStatus: PAY_STATUS.processing });
    expect(waiting.reconcileSince).not.toBeNull();
    expect(waiting.reconcileCause).toContain(sent.carrierOrderNumber!);
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(16_000_00);
    const [flagged] = await auditRows(`Re-queried withdrawal ${x.serialNumber}: operator says unknown: to reconcile`);
    expect(flagged).toMatchObject({ account: null });
    // A second sweep changes nothing and writes nothing more.
    await requeryStuck(db());
    expect(await auditRows(`Re-queried withdrawal ${x.serialNumber}`)).toHaveLength(1);
    // It shows in the stuck queue and the reconciliation view.
    const stuck = (await get('/api/v1/money/withdrawals?stuck=true&page_size=200')).body.items.find((i: { id: number }) => i.id === x.id);
    expect(stuck).toMatchObject({ stuck: true, reconcile: true, reconcile_cause: waiting.reconcileCause });
    expect((await get('/api/v1/money/withdrawals?reconcile=true&page_size=200')).body.items.map((i: { id: number }) => i.id)).toContain(x.id);

    // The evidence is required.
    for (const [body, code] of [
      [{ outcome: 'paid', remark: 'seen' }, 'RECONCILE_REFERENCE_REQUIRED'],
      [{ outcome: 'paid', reference: '   ', remark: 'seen' }, 'RECONCILE_REFERENCE_REQUIRED'],
      [{ outcome: 'paid', reference: 'x'.repeat(101), remark: 'seen' }, 'RECONCILE_REFERENCE_REQUIRED'],
      [{ outcome: 'paid', reference: 'AM-STMT-1' }, 'RECONCILE_REMARK_REQUIRED'],
    ] as const) {
      const res = await reconcile('withdrawals', x.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(code);
    }
    expect((await reconcile('withdrawals', x.id, { outcome: 'maybe', reference: 'r', remark: 'r' })).status).toBe(400);
    // Another branch's agent does not see it.
    expect((await reconcile('withdrawals', x.id, { outcome: 'paid', reference: 'AM-STMT-1', remark: 'r' }, agentB)).status).toBe(404);

    // Paid per the operator's statement: settled as a success, once.
    const res = await reconcile('withdrawals', x.id, { outcome: 'paid', reference: ' AM-STMT-2026-11-25 #41 ', remark: 'Line 41 of the statement' }, agentA);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: WITHDRAWAL_STATUS.paid, pay_status: PAY_STATUS.paid, reconcile: false, reconciled_by: 'agent_a',
      reconcile_reference: 'AM-STMT-2026-11-25 #41', reconcile_remark: 'Line 41 of the statement',
    });
    expect(res.body.reconcile_time).not.toBeNull();
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 16_000_00, totalWithdrawal: 4_000_00 });
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    const [audit] = await auditRows(`Reconciled withdrawal ${x.serialNumber}`);
    expect(audit).toMatchObject({ type: LOG_TYPE.update_balance, account: 'agent_a' });
    expect(audit.content).toContain('as paid; operator statement AM-STMT-2026-11-25 #41: Line 41 of the statement');
    expect((audit.before as { status: number }).status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect((audit.after as { status: number }).status).toBe(WITHDRAWAL_STATUS.paid);

    const again = await reconcile('withdrawals', x.id, { outcome: 'not_paid', reference: 'AM-STMT-2', remark: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('NOT_AWAITING_RECONCILIATION');
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 16_000_00, totalWithdrawal: 4_000_00 });
  });

  it('reconciled as not paid: the held money goes back with its bill, once; a withdrawal not in doubt cannot be reconciled', async () => {
    const b = await makePayer(t, w.agentA, 20_000_00, HALOTEL);
    // Every attempt was lost on the way (attempts counted, no carrier order number), then the process died.
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: HALOTEL, amount: 5_000_00 });
    await t.database.exec(`UPDATE withdrawals SET status = 3, disbursed_at = now(), disburse_attempts = 3 WHERE id = ${x.id}`);
    // Never sent at all (the job had not run): returned on "unknown" past the timeout, as before.
    const never = await requestWithdrawal(db(), { bettorId: b.id, payType: HALOTEL, amount: 1_000_00 });
    await t.database.exec(`UPDATE withdrawals SET status = 3, disbursed_at = now() WHERE id = ${never.id}`);
    expect((await reconcile('withdrawals', x.id, { outcome: 'not_paid', reference: 'HP-1', remark: 'r' })).body.code).toBe('NOT_AWAITING_RECONCILIATION');
    await age('withdrawals', x.id, 65);
    await age('withdrawals', never.id, 65);
    expect((await post(`/api/v1/money/withdrawals/${x.id}/requery`, root)).body).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, reconcile: true });
    expect((await post(`/api/v1/money/withdrawals/${never.id}/requery`, root)).body).toMatchObject({ status: WITHDRAWAL_STATUS.timed_out, reconcile: false });

    const res = await reconcile('withdrawals', x.id, { outcome: 'not_paid', reference: 'HP statement 25/11 (no line)', remark: 'Not on the operator statement' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: WITHDRAWAL_STATUS.failed, pay_status: PAY_STATUS.voided, reconciled_by: 'admin' });
    const backs = await billsOf(t, b.id, BILL_TYPE.amount_rolled_back);
    expect(backs.map((x) => [x.amount, x.causeId])).toEqual([[1_000_00, String(never.id)], [5_000_00, String(x.id)]]);
    expect(backs[1].remark).toContain("Not paid per the operator's statement HP statement 25/11 (no line): Not on the operator statement");
    expect(backs[1].adminId).not.toBeNull();
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 20_000_00, totalWithdrawal: 0 });
    expect((await reconcile('withdrawals', x.id, { outcome: 'paid', reference: 'HP-2', remark: 'r' })).status).toBe(409);
    expect((await reconcile('withdrawals', never.id, { outcome: 'paid', reference: 'HP-2', remark: 'r' })).status).toBe(409);
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toHaveLength(2);
  });

  it('a recharge in doubt (the operator gave its number, then cannot tell) waits for reconciliation: credited once, or not credited', async () => {
    const b = await makePayer(t, w.agentA);
    // Airtel: its collections are answered by callback (M-Pesa's within the call).
    sandbox(AIRTEL).behaviour = 'no_callback';
    const credited = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 7_000_00 });
    const notCredited = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 2_000_00 });
    for (const r of [credited, notCredited]) {
      expect(r.carrierOrderNumber).toBeTruthy();
      await operatorForgets(t, r.serialNumber);
      await age('recharges', r.id, 61);
      expect((await post(`/api/v1/money/recharges/${r.id}/requery`, root)).body).toMatchObject({ pay_status: PAY_STATUS.processing, reconcile: true });
    }
    expect((await get('/api/v1/money/recharges?reconcile=true')).body.items.map((i: { id: number }) => i.id)).toEqual(expect.arrayContaining([credited.id, notCredited.id]));
    expect((await reconcile('recharges', credited.id, { outcome: 'credited', remark: 'seen' })).body.code).toBe('RECONCILE_REFERENCE_REQUIRED');
    expect((await reconcile('recharges', credited.id, { outcome: 'paid', reference: 'r', remark: 'r' })).status).toBe(400);

    const ok = await reconcile('recharges', credited.id, { outcome: 'credited', reference: 'MP-STMT-77', remark: 'Received per statement' });
    expect(ok.body).toMatchObject({ pay_status: PAY_STATUS.paid, reconcile: false, reconcile_reference: 'MP-STMT-77', reconciled_by: 'admin' });
    const no = await reconcile('recharges', notCredited.id, { outcome: 'not_credited', reference: 'MP-STMT-78', remark: 'Not received' });
    expect(no.body).toMatchObject({ pay_status: PAY_STATUS.voided });
    expect(no.body.fail_reason).toContain("Not received per the operator's statement MP-STMT-78");
    const again = await reconcile('recharges', credited.id, { outcome: 'credited', reference: 'MP-STMT-77', remark: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('NOT_AWAITING_RECONCILIATION');
    const credits = await billsOf(t, b.id, BILL_TYPE.user_recharge);
    expect(credits.map((x) => x.amount)).toEqual([7_000_00]);
    expect(credits[0].adminId).not.toBeNull();
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 7_000_00, totalRecharge: 7_000_00 });
    expect(await auditRows(`Reconciled recharge ${credited.serialNumber}`)).toHaveLength(1);
  });

  it('a disbursement the operator never received is asked for again by a re-query, once per slot, and paid once', async () => {
    const b = await makePayer(t, w.agentA, 10_000_00, TIGO);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: TIGO, amount: 2_500_00 });
    // Its job gave up while the operator was unreachable: two attempts, no operator number, no job left.
    await t.database.exec(`UPDATE withdrawals SET status = 3, disbursed_at = now(), disburse_attempts = 2 WHERE id = ${x.id}`);
    await age('withdrawals', x.id, 20);
    sandbox(TIGO).queue.push('no_callback');
    expect((await post(`/api/v1/money/withdrawals/${x.id}/requery`, root)).body).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, reconcile: false });
    expect(await jobsOf(x.id)).toHaveLength(1);
    // Asked again before the job ran: the same slot, no second job.
    await post(`/api/v1/money/withdrawals/${x.id}/requery`, root);
    expect(await jobsOf(x.id)).toHaveLength(1);
    await disbursed(t);
    expect(await loadWithdrawal(x.id)).toMatchObject({ disburseAttempts: 3, carrierOrderNumber: expect.stringMatching(/^TGP/) });
    expect(sandbox(TIGO).disburseCalls(x.serialNumber)).toBe(1);
    await clock.runAll();
    expect((await post(`/api/v1/money/withdrawals/${x.id}/requery`, root)).body.status).toBe(WITHDRAWAL_STATUS.paid);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 7_500_00, totalWithdrawal: 2_500_00 });
  });

  it('the stuck sweep runs as a job', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('no_callback');
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 1_000_00 });
    await clock.runAll();
    await age('recharges', r.id, 20);
    await t.ctx.jobs.send(db(), REQUERY_STUCK_JOB);
    await t.ctx.jobs.drain([REQUERY_STUCK_JOB]);
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
  });
});

describe('scope, permissions and audit', () => {
  it('an agent never sees nor acts on another branch’s recharge or withdrawal', async () => {
    const mine = await makePayer(t, w.agentA1, 10_000_00, AIRTEL);
    const theirs = await makePayer(t, w.agentB1, 10_000_00, AIRTEL);
    sandbox(AIRTEL).behaviour = 'no_callback';
    const rMine = await startRecharge(db(), { bettorId: mine.id, payType: AIRTEL, amount: 1_000_00 });
    const rTheirs = await startRecharge(db(), { bettorId: theirs.id, payType: AIRTEL, amount: 1_000_00 });
    const wMine = await requestWithdrawal(db(), { bettorId: mine.id, payType: AIRTEL, amount: 1_000_00 });
    const wTheirs = await requestWithdrawal(db(), { bettorId: theirs.id, payType: AIRTEL, amount: 1_000_00 });

    const ids = (res: { body: { items: { id: number }[] } }) => res.body.items.map((i) => i.id);
    expect(ids(await get(`/api/v1/money/recharges?bettor_id=${theirs.id}`, agentA))).toEqual([]);
    expect(ids(await get(`/api/v1/money/recharges?serial_number=${rTheirs.serialNumber}`, agentA))).toEqual([]);
    expect(ids(await get(`/api/v1/money/recharges?bettor_id=${mine.id}`, agentA))).toEqual([rMine.id]);
    expect(ids(await get(`/api/v1/money/recharges?bettor_id=${theirs.id}`, agentB))).toEqual([rTheirs.id]);
    expect(ids(await get(`/api/v1/money/cs/withdrawals?phone=${theirs.phone}`, agentA))).toEqual([]);
    const listA = ids(await get('/api/v1/money/withdrawals?page_size=200', agentA));
    expect(listA).toContain(wMine.id);
    expect(listA).not.toContain(wTheirs.id);
    const airtelA = (await get('/api/v1/money/airtel_transfer?page_size=200', agentA)).body.items as { kind: string; row_id: number; user_id: number }[];
    expect(airtelA.some((i) => i.user_id === theirs.id)).toBe(false);
    expect(airtelA.filter((i) => i.user_id === mine.id).map((i) => i.kind).sort()).toEqual(['recharge', 'withdrawal']);
    const all = (await get('/api/v1/money/airtel_transfer?page_size=200')).body;
    expect(all.items.some((i: { user_id: number }) => i.user_id === theirs.id)).toBe(true);
    expect(new Set(all.items.map((i: { id: number }) => i.id)).size).toBe(all.items.length);

    expect((await post(`/api/v1/money/withdrawals/${wTheirs.id}/approve`, agentA)).status).toBe(404);
    expect((await post(`/api/v1/money/withdrawals/${wTheirs.id}/refuse`, agentA, { reason: 'not yours' })).status).toBe(404);
    expect((await post(`/api/v1/money/recharges/${rTheirs.id}/requery`, agentA)).status).toBe(404);
    expect((await post(`/api/v1/money/airtel_transfer/recharge/${rTheirs.id}/requery`, agentA)).status).toBe(404);
    expect((await loadWithdrawal(wTheirs.id)).status).toBe(WITHDRAWAL_STATUS.pending_review);
    // The Airtel desk cannot re-query another operator's transfer.
    sandbox(TIGO).behaviour = 'no_callback';
    const tigo = await startRecharge(db(), { bettorId: mine.id, payType: TIGO, amount: 1_000_00 });
    expect((await post(`/api/v1/money/airtel_transfer/recharge/${tigo.id}/requery`, root)).status).toBe(404);
    // Clean up what is pending so later scenarios start clear.
    await post(`/api/v1/money/withdrawals/${wMine.id}/refuse`, agentA, { reason: 'test over' });
    await post(`/api/v1/money/withdrawals/${wTheirs.id}/refuse`, agentB, { reason: 'test over' });
  });

  it('a customer-service role reads its views and cannot act', async () => {
    const cs = await makeRole(t, 'CS money', ['cs_recharge', 'cs_withdraw']);
    // Scope is the admin's own subtree: this desk serves the bettors it owns.
    const csId = await makeAdmin(t, 'cs_money', cs, w.rootId);
    const token = await t.login('cs_money');
    const b = await makePayer(t, csId, 5_000_00, TIGO);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: TIGO, amount: 1_000_00 });
    expect((await get(`/api/v1/money/cs/withdrawals?bettor_id=${b.id}`, token)).body.items[0].id).toBe(x.id);
    expect((await get(`/api/v1/money/cs/recharges?bettor_id=${b.id}`, token)).status).toBe(200);
    expect((await get('/api/v1/money/withdrawals', token)).status).toBe(403);
    expect((await post(`/api/v1/money/withdrawals/${x.id}/approve`, token)).status).toBe(403);
    expect((await post(`/api/v1/money/withdrawals/${x.id}/refuse`, token, { reason: 'x' })).status).toBe(403);
    await post(`/api/v1/money/withdrawals/${x.id}/refuse`, root, { reason: 'test over' });
  });

  it('audits every admin action with before and after, in the money log type', async () => {
    const b = await makePayer(t, w.agentA, 30_000_00, VODACOM);
    const approved = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 1_000_00 });
    const refused = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 1_000_00 });
    sandbox(VODACOM).behaviour = 'no_callback';
    await approve(approved.id);
    await post(`/api/v1/money/withdrawals/${refused.id}/refuse`, agentA, { reason: 'Suspicious pattern' });
    await clock.runAll();
    await post(`/api/v1/money/withdrawals/${approved.id}/requery`, root);
    sandbox(TIGO).behaviour = 'no_callback';
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 1_000_00 });
    await clock.runAll();
    await post(`/api/v1/money/recharges/${r.id}/requery`, agentA);
    // (Rows of pending changes of pay_config also name it: count the edits themselves.)
    const edits = () => db().select().from(systemLogs).where(and(eq(systemLogs.type, LOG_TYPE.update_balance), sql`${systemLogs.content} = 'Edited pay_config'`));
    const before = (await edits()).length;
    await t.call('PUT', '/api/v1/money/pay_config', { token: root, body: { stuck_after_minutes: 20 } });

    for (const [fragment, account, status] of [
      [`Approved withdrawal ${approved.serialNumber}`, 'admin', WITHDRAWAL_STATUS.disbursing],
      [`Refused withdrawal ${refused.serialNumber}`, 'agent_a', WITHDRAWAL_STATUS.refused],
      [`Re-queried withdrawal ${approved.serialNumber}`, 'admin', WITHDRAWAL_STATUS.paid],
    ] as const) {
      const [row] = await auditRows(fragment);
      expect(row, fragment).toBeDefined();
      expect(row).toMatchObject({ type: LOG_TYPE.update_balance, account });
      expect((row.after as { status: number }).status).toBe(status);
      expect((row.before as { status: number }).status).not.toBe(status);
    }
    const [rq] = await auditRows(`Re-queried recharge ${r.serialNumber}`);
    expect(rq).toMatchObject({ account: 'agent_a' });
    expect((rq.before as { payStatus: number }).payStatus).toBe(1);
    expect((rq.after as { payStatus: number }).payStatus).toBe(2);
    expect((await edits()).length).toBe(before + 1);
    await db().update(paymentConfig).set({ stuckAfterMinutes: 15 }).where(eq(paymentConfig.id, 1));
  });

  it('the payment settings refuse a minimum above the maximum', async () => {
    const bad = await approved(t, 'PUT', '/api/v1/money/pay_config', { token: root, body: { min_withdrawal: 6_000_000_00 } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('PAY_CONFIG_INVALID');
    expect((await approved(t, 'PUT', '/api/v1/money/pay_config', { token: root, body: { stuck_after_minutes: 1.5 } })).status).toBe(400);
    expect((await approved(t, 'PUT', '/api/v1/money/pay_config', { token: agentB, body: { min_recharge: 1 } })).status).toBe(403);
    const [row] = await db().select().from(paymentConfig);
    expect(row.minWithdrawal).toBe(1_000_00);
  });
});

describe('the sandboxes', () => {
  it('behave per operator and deterministically for a seed', async () => {
    expect(sandbox(TIGO)).toBeInstanceOf(SandboxBook);
    expect(new Set([TIGO, AIRTEL, VODACOM, HALOTEL].map((p) => sandbox(p).name)).size).toBe(4);
    const run = async (seed: number) => {
      const c = new ManualScheduler(0);
      const seen: string[] = [];
      const book = new SandboxBook(SANDBOX_PROFILES[4], { scheduler: () => c, deliver: async () => 200, seed });
      book.renderers.set('test', async (txn) => (seen.push(txn.status), { headers: {}, body: '' }));
      const out: string[] = [];
      for (let i = 0; i < 40; i++) {
        try {
          await book.collect({ reference: `R${seed}-${i}`, phone: '255780000001', amount: 1_000_00 }, { face: 'test' });
          out.push('ok');
        } catch {
          out.push('timeout');
        }
      }
      await c.runAll();
      for (let i = 0; i < 40; i++) out.push((await book.queryStatus(`R${seed}-${i}`)).status);
      return { out, seen };
    };
    const a = await run(42);
    const b = await run(42);
    expect(a).toEqual(b);
    // Over 40 random collects Airtel's profile produces several outcomes, including failures.
    expect(new Set(a.out.slice(40)).size).toBeGreaterThan(1);
    expect(a.seen).toContain('failed');
    expect(SANDBOX_PROFILES[7].syncDisburse).toBe(true);
    // M-Pesa's OpenAPI answers collections and payouts within the call.
    expect(SANDBOX_PROFILES[6]).toMatchObject({ syncCollect: true, syncDisburse: true });
  });
});
