import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BILL_TYPE, PAY_STATUS, PAY_TYPE, WITHDRAWAL_STATUS } from '@dau/domain';
import { bettors, paymentCallbacks, recharges, withdrawals } from '../src/schema.js';
import { paymentProviders } from '../src/modules/payments/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import type { ManualScheduler, PayType } from '../src/modules/payments/operators.js';
import { FAILURE_REASONS, USSD_FAILURE_REASONS } from '../src/modules/payments/sandbox/engine.js';
import type { PaymentRuntime } from '../src/modules/payments/callbacks.js';
import { startRecharge } from '../src/modules/payments/recharges.js';
import { requestWithdrawal, runDisbursement } from '../src/modules/payments/withdrawals.js';
import { RESULT_CODES, PAYMENT_STATUSES, answerStatusOf, paymentStatusOf, queryStatusOf, CASHIN_UTILITY, payTypeOfUtility } from '../src/modules/payments/aggregator/codes.js';
import { signedHeaders } from '../src/modules/payments/aggregator/client.js';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { PAYMENT_KEYS, balanceOf, billsOf, disbursed, grantKeys, makePayer as anyPayer, manualClock, operatorForgets, operatorRows, withdrawalsClearingProblems } from './payments-fixtures.js';

/**
 * Tigo Pesa (3) and HaloPesa (7) through the aggregator, Selcom (issue 28), against its built-in sandbox:
 * signed requests (HMAC digest), checkout + USSD push with its signed webhook, wallet cash-in payouts and
 * their status queries, through the product's own services.
 */

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let clock: ManualScheduler;
let rt: PaymentRuntime;
const TIGO = PAY_TYPE.tigo as PayType;
const HALOTEL = PAY_TYPE.halotel as PayType;
const AIRTEL = 4 as PayType;
const db = () => t.database.db;
const sandbox = (p: number) => rt.sandbox(p);

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, PAYMENT_KEYS);
  root = await t.login('admin', ADMIN_PASSWORD);
  ({ clock, rt } = manualClock(t));
});
afterAll(() => t?.close());

afterEach(async () => {
  await disbursed(t);
  await clock.runAll();
  expect(await checkInvariants(db())).toEqual([]);
  expect(await withdrawalsClearingProblems(t)).toEqual([]);
  for (const p of [TIGO, AIRTEL, 6, HALOTEL]) {
    const b = sandbox(p);
    b.behaviour = null;
    b.queue.length = 0;
    b.failReason = null;
    b.ussdAnswer = null;
    b.ussdAnswers.length = 0;
    b.faults.length = 0;
  }
});

/** The national prefix of each network (withdrawals pay only to a number of the pay type's network). */
const PREFIX: Record<number, string> = { 3: '71', 4: '68', 6: '74', 7: '62' };
let phones = 0;
/** A bettor (funded with `cash`) whose number is on the network of `payType`. */
async function makePayer(tt: TestApp, agentId: number, cash = 0, payType: number = TIGO) {
  const b = await anyPayer(tt, agentId, cash);
  phones += 1;
  const phone = `255${PREFIX[payType]}${String(process.pid % 1000).padStart(3, '0')}${String(phones).padStart(4, '0')}`;
  await db().update(bettors).set({ phone }).where(eq(bettors.id, b.id));
  return { ...b, phone };
}

async function loadRecharge(id: number) {
  const [r] = await db().select().from(recharges).where(eq(recharges.id, id));
  return r;
}
async function loadWithdrawal(id: number) {
  const [x] = await db().select().from(withdrawals).where(eq(withdrawals.id, id));
  return x;
}
const post = (url: string) => t.call('POST', url, { token: root });
async function approve(id: number) {
  const res = await post(`/api/v1/money/withdrawals/${id}/approve`);
  await disbursed(t);
  return res;
}
async function age(table: 'recharges' | 'withdrawals', id: number, minutes: number) {
  await t.database.exec(
    `UPDATE ${table} SET created_at = created_at - interval '${minutes} minutes'${table === 'withdrawals' ? `, disbursed_at = disbursed_at - interval '${minutes} minutes'` : ''} WHERE id = ${id}`,
  );
}
/** Posts a callback the sandbox renders for a transaction (late, re-sent or forged) to our route. */
async function deliver(payType: number, reference: string, event = 1) {
  const txn = await sandbox(payType).transaction(reference);
  const cb = await sandbox(payType).callbackFor(txn!, event);
  return t.call('POST', `/api/v1/payments/callback/${payType}`, { headers: cb!.headers, body: JSON.parse(cb!.body) });
}
async function callbacksOf(reference: string) {
  return db().select().from(paymentCallbacks).where(eq(paymentCallbacks.reference, reference));
}

describe.each([
  ['Tigo Pesa', TIGO, /^TGP/],
  ['HaloPesa', HALOTEL, /^HP/],
] as const)('%s through Selcom', (_name, payType, carrierPrefix) => {
  it('a USSD push deposit is credited once, duplicate and late webhooks included', async () => {
    const b = await makePayer(t, w.agentA, 0, payType);
    sandbox(payType).queue.push('duplicate');
    sandbox(payType).ussdAnswers.push('pin');
    const r = await startRecharge(db(), { bettorId: b.id, payType, amount: 15_000_00, channel: 'ussd' });
    expect(r.payStatus).toBe(PAY_STATUS.processing);
    expect(r.carrierOrderNumber).toMatch(carrierPrefix);
    const opened = await sandbox(payType).transaction(r.serialNumber);
    expect(opened).toMatchObject({ status: 'pending', amount: 15_000_00, extra: { face: 'aggregator', transid: r.serialNumber } });

    await clock.runAll();
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
    const [cb] = await callbacksOf(r.serialNumber);
    expect(cb.duplicates).toBe(1);
    expect(cb.payload).toMatchObject({ order_id: r.serialNumber, payment_status: 'COMPLETED', resultcode: '000', amount: '15000' });
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);

    // A late re-sent notification: accepted (Selcom's expected answer), nothing more credited.
    const late = await deliver(payType, r.serialNumber, 2);
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ resultcode: '000', result: 'SUCCESS' });
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(15_000_00);
  });

  it('a webhook that never comes is settled by order-status; a late webhook after it changes nothing', async () => {
    const b = await makePayer(t, w.agentA, 0, payType);
    sandbox(payType).queue.push('no_callback');
    sandbox(payType).ussdAnswers.push('pin');
    const r = await startRecharge(db(), { bettorId: b.id, payType, amount: 4_000_00 });
    const early = await post(`/api/v1/money/recharges/${r.id}/requery`);
    expect(early.body.pay_status).toBe(PAY_STATUS.processing);
    await clock.runAll();
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.processing);
    const requery = await post(`/api/v1/money/recharges/${r.id}/requery`);
    expect(requery.body).toMatchObject({ pay_status: PAY_STATUS.paid });
    const late = await deliver(payType, r.serialNumber);
    expect(late.status).toBe(200);
    expect(await billsOf(t, b.id, BILL_TYPE.user_recharge)).toHaveLength(1);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(4_000_00);
  });

  it('failures are voided with the reason and Selcom\'s code, by webhook or by query', async () => {
    const b = await makePayer(t, w.agentA, 0, payType);
    sandbox(payType).queue.push('fail');
    sandbox(payType).failReason = 'insufficient_funds';
    const poor = await startRecharge(db(), { bettorId: b.id, payType, amount: 3_000_00 });
    sandbox(payType).queue.push('no_callback');
    sandbox(payType).ussdAnswers.push('cancel');
    const cancelled = await startRecharge(db(), { bettorId: b.id, payType, amount: 2_000_00, channel: 'ussd' });
    await clock.runAll();
    const voided = await loadRecharge(poor.id);
    expect(voided.payStatus).toBe(PAY_STATUS.voided);
    expect(voided.failReason).toContain(FAILURE_REASONS.insufficient_funds);
    expect(voided.failReason).toContain('REJECTED, resultcode 051');
    // No webhook for this one: order-status says the subscriber cancelled.
    const q = await post(`/api/v1/money/recharges/${cancelled.id}/requery`);
    expect(q.body.pay_status).toBe(PAY_STATUS.voided);
    expect(q.body.fail_reason).toContain('USERCANCELLED');
    expect(await billsOf(t, b.id)).toEqual([]);
  });

  it('a payout is paid once even if the disbursement job runs twice', async () => {
    const b = await makePayer(t, w.agentA, 20_000_00, payType);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType, amount: 5_000_00 });
    sandbox(payType).queue.push('success');
    expect((await approve(x.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    await runDisbursement(db(), x.id); // the job again (a crash, a second process): same transid
    expect(await operatorRows(t, x.serialNumber)).toHaveLength(1);
    const txn = await sandbox(payType).transaction(x.serialNumber);
    expect(txn).toMatchObject({ kind: 'disburse', extra: { face: 'aggregator', utilitycode: CASHIN_UTILITY[payType] } });
    await clock.runAll();
    if ((await loadWithdrawal(x.id)).status === WITHDRAWAL_STATUS.disbursing) {
      // Wallet cash-in answered "in progress" (111): Selcom sends no callback, the query settles it.
      expect((await post(`/api/v1/money/withdrawals/${x.id}/requery`)).body.status).toBe(WITHDRAWAL_STATUS.paid);
    }
    await runDisbursement(db(), x.id);
    expect(await loadWithdrawal(x.id)).toMatchObject({ status: WITHDRAWAL_STATUS.paid, carrierOrderNumber: expect.stringMatching(carrierPrefix) });
    expect(await operatorRows(t, x.serialNumber)).toHaveLength(1);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 15_000_00, totalWithdrawal: 5_000_00 });
  });

  it('a payout that timed out with the money moved stays disbursing and is found paid, never refunded', async () => {
    const b = await makePayer(t, w.agentA, 20_000_00, payType);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType, amount: 2_000_00 });
    sandbox(payType).queue.push('timeout');
    expect((await approve(x.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    // 999 AMBIGOUS first, then the retry with the same transid finds it in progress.
    expect(sandbox(payType).disburseCalls(x.serialNumber)).toBe(2);
    expect(await loadWithdrawal(x.id)).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, carrierOrderNumber: expect.stringMatching(carrierPrefix) });
    await clock.runAll();
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect((await post(`/api/v1/money/withdrawals/${x.id}/requery`)).body).toMatchObject({ status: WITHDRAWAL_STATUS.paid, pay_status: PAY_STATUS.paid });
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    expect(await operatorRows(t, x.serialNumber)).toHaveLength(1);
  });

  it('a payout that timed out without reaching the wallet is unknown, then waits for reconciliation', async () => {
    const b = await makePayer(t, w.agentA, 20_000_00, payType);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType, amount: 2_000_00 });
    // The first call never reaches Selcom (504); the retry reaches it, then Selcom loses the payout (as
    // an operator that never recorded it would): no callback, and its query knows nothing.
    sandbox(payType).queue.push('timeout_lost', 'no_callback');
    expect((await approve(x.id)).body.status).toBe(WITHDRAWAL_STATUS.disbursing);
    expect(sandbox(payType).disburseCalls(x.serialNumber)).toBe(2);
    await operatorForgets(t, x.serialNumber);
    const sent = await loadWithdrawal(x.id);
    expect(sent).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, disburseAttempts: 2 });
    expect((await post(`/api/v1/money/withdrawals/${x.id}/requery`)).body).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, reconcile: false });
    await age('withdrawals', x.id, 65);
    const flagged = await post(`/api/v1/money/withdrawals/${x.id}/requery`);
    expect(flagged.body).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, reconcile: true });
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    // Still nothing at Selcom: it stays for an operator to reconcile by the statement, never refunded on a guess.
    expect(await post(`/api/v1/money/withdrawals/${x.id}/requery`)).toMatchObject({ body: { status: WITHDRAWAL_STATUS.disbursing, reconcile: true } });
  });

  it('a 5xx from Selcom is unknown: the deposit stays processing and the payout is asked again, never failed', async () => {
    const b = await makePayer(t, w.agentA, 20_000_00, payType);
    sandbox(payType).faults.push('server_error');
    sandbox(payType).queue.push('success');
    const r = await startRecharge(db(), { bettorId: b.id, payType, amount: 1_000_00 });
    expect(r).toMatchObject({ payStatus: PAY_STATUS.processing, carrierOrderNumber: null });
    expect(await operatorRows(t, r.serialNumber)).toEqual([]);
    expect((await post(`/api/v1/money/recharges/${r.id}/requery`)).body.pay_status).toBe(PAY_STATUS.processing);
    // Past the timeout Selcom still has no order: the request never reached it, so the payer was never asked.
    await age('recharges', r.id, 61);
    const gone = await post(`/api/v1/money/recharges/${r.id}/requery`);
    expect(gone.body).toMatchObject({ pay_status: PAY_STATUS.voided, fail_reason: expect.stringContaining('Not found at the operator') });

    const x = await requestWithdrawal(db(), { bettorId: b.id, payType, amount: 3_000_00 });
    sandbox(payType).faults.push('server_error');
    sandbox(payType).queue.push('success');
    await approve(x.id);
    const after = await loadWithdrawal(x.id);
    expect(after.disburseAttempts).toBe(2);
    expect(sandbox(payType).disburseCalls(x.serialNumber)).toBe(1);
    expect([WITHDRAWAL_STATUS.disbursing, WITHDRAWAL_STATUS.paid]).toContain(after.status);
    await clock.runAll();
    if ((await loadWithdrawal(x.id)).status === WITHDRAWAL_STATUS.disbursing) await post(`/api/v1/money/withdrawals/${x.id}/requery`);
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
  });

  it('a webhook with a wrong signature is refused with 401 and moves nothing; a tampered one too', async () => {
    const b = await makePayer(t, w.agentA, 0, payType);
    sandbox(payType).queue.push('no_callback');
    sandbox(payType).ussdAnswers.push('pin');
    const r = await startRecharge(db(), { bettorId: b.id, payType, amount: 6_000_00, channel: 'ussd' });
    await clock.runAll();
    sandbox(payType).faults.push('bad_signature');
    const forged = await deliver(payType, r.serialNumber);
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('CALLBACK_SIGNATURE_INVALID');
    // A genuine notification with its amount changed after signing.
    const txn = await sandbox(payType).transaction(r.serialNumber);
    const cb = (await sandbox(payType).callbackFor(txn!))!;
    const tampered = await t.call('POST', `/api/v1/payments/callback/${payType}`, { headers: cb.headers, body: { ...JSON.parse(cb.body), amount: '600000' } });
    expect(tampered.status).toBe(401);
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.processing);
    expect(await callbacksOf(r.serialNumber)).toEqual([]);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(0);
    // The genuine one pays it.
    expect((await deliver(payType, r.serialNumber)).status).toBe(200);
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
  });
});

describe('Selcom request signatures and codes', () => {
  async function account() {
    const [a] = await db().select().from(paymentProviders).where(eq(paymentProviders.provider, 'aggregator'));
    return a;
  }

  it('the sandbox refuses a tampered request (digest over the signed fields) and an unknown key', async () => {
    const b = await makePayer(t, w.agentA);
    await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 1_000_00 }); // creates the accounts
    const a = await account();
    const body = { transid: 'T-TAMPER-1', utilitycode: 'TPCASHIN', utilityref: '0712345678', amount: 1000, vendor: a.settings.floatVendor, pin: a.secrets.pin, msisdn: '255712345678' };
    const headers = signedHeaders({ apiKey: a.secrets.apiKey, apiSecret: a.secrets.apiSecret }, clock.now(), body);
    const server = rt.sandboxServer();
    const tampered = await server.inject({ method: 'POST', url: '/aggregator/v1/walletcashin/process', headers, payload: { ...body, amount: 900_000 } });
    expect(tampered.statusCode).toBe(401);
    const foreign = signedHeaders({ apiKey: 'someone-else', apiSecret: a.secrets.apiSecret }, clock.now(), body);
    expect((await server.inject({ method: 'POST', url: '/aggregator/v1/walletcashin/process', headers: foreign, payload: body })).statusCode).toBe(401);
    const stale = signedHeaders({ apiKey: a.secrets.apiKey, apiSecret: a.secrets.apiSecret }, clock.now() - 3_600_000, body);
    expect((await server.inject({ method: 'POST', url: '/aggregator/v1/walletcashin/process', headers: stale, payload: body })).statusCode).toBe(401);
    expect(await sandbox(TIGO).transaction('T-TAMPER-1')).toBeUndefined();
    // The same request untouched is accepted and answered with a documented code.
    sandbox(TIGO).queue.push('success');
    const ok = await server.inject({ method: 'POST', url: '/aggregator/v1/walletcashin/process', headers, payload: body });
    expect(ok.statusCode).toBe(200);
    expect(['000', '111']).toContain(ok.json().resultcode);
    await clock.runAll();
  });

  it('every code and payment status maps as the table says', () => {
    const expected: Record<string, [answer: string, query: string]> = {
      '000': ['success', 'success'], '111': ['pending', 'pending'], '927': ['pending', 'pending'], '999': ['unknown', 'unknown'],
      '403': ['failed', 'failed'], '051': ['failed', 'failed'], '055': ['failed', 'failed'], '014': ['failed', 'failed'], '068': ['failed', 'failed'],
      '070': ['failed', 'failed'], '071': ['failed', 'failed'], '012': ['failed', 'failed'], '015': ['failed', 'failed'], '404': ['unknown', 'unknown'],
    };
    expect(Object.keys(RESULT_CODES).sort()).toEqual(Object.keys(expected).sort());
    for (const [code, [answer, query]] of Object.entries(expected)) {
      expect([code, answerStatusOf(code)]).toEqual([code, answer]);
      expect([code, queryStatusOf(code)]).toEqual([code, query]);
    }
    // Selcom: "FAIL: all others" for a request's own answer; a query we cannot read is never a failure.
    expect(answerStatusOf('123')).toBe('failed');
    expect(queryStatusOf('123')).toBe('unknown');
    const statuses: Record<string, string> = { PENDING: 'pending', INPROGRESS: 'pending', COMPLETED: 'success', CANCELLED: 'failed', USERCANCELLED: 'failed', REJECTED: 'failed' };
    expect(Object.keys(PAYMENT_STATUSES).sort()).toEqual(Object.keys(statuses).sort());
    for (const [s, want] of Object.entries(statuses)) expect([s, paymentStatusOf(s)]).toEqual([s, want]);
    expect(paymentStatusOf('SETTLED?')).toBe('unknown');
    for (const p of [3, 4, 6, 7] as PayType[]) expect(payTypeOfUtility(CASHIN_UTILITY[p])).toBe(p);
    expect(payTypeOfUtility('EZCASHIN')).toBeUndefined();
  });

  it.each([
    ['insufficient_funds', '051'], ['wrong_pin', '055'], ['not_registered', '014'], ['operator_timeout', '068'],
  ] as const)('a payout failing with %s answers resultcode %s at once (HaloPesa) and the reason keeps it', async (reason, code) => {
    const b = await makePayer(t, w.agentA, 10_000_00, HALOTEL);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: HALOTEL, amount: 1_000_00 });
    sandbox(HALOTEL).queue.push('fail');
    sandbox(HALOTEL).failReason = reason;
    await approve(x.id);
    const failed = await loadWithdrawal(x.id);
    expect(failed).toMatchObject({ status: WITHDRAWAL_STATUS.failed, payStatus: PAY_STATUS.voided });
    expect(failed.failReason).toContain(FAILURE_REASONS[reason]);
    expect(failed.failReason).toContain(`resultcode ${code}`);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(10_000_00);
  });

  it('a USSD prompt left unanswered ends CANCELLED with its code', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('success');
    sandbox(TIGO).ussdAnswers.push('no_answer');
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 2_000_00, channel: 'ussd' });
    await clock.runAll();
    const done = await loadRecharge(r.id);
    expect(done.payStatus).toBe(PAY_STATUS.voided);
    expect(done.failReason).toContain(USSD_FAILURE_REASONS.no_answer);
    expect(done.failReason).toContain('CANCELLED, resultcode 071');
  });
});

describe('Selcom carrying Airtel, and over a real socket', () => {
  it('Airtel switched to the aggregator deposits through Selcom', async () => {
    await t.database.exec(`UPDATE payment_config SET provider_of = provider_of || '{"4":"aggregator"}'`);
    rt.reload();
    try {
      const b = await makePayer(t, w.agentA, 0, AIRTEL);
      sandbox(AIRTEL).queue.push('success');
      sandbox(AIRTEL).ussdAnswers.push('pin');
      const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 7_000_00, channel: 'ussd' });
      expect(await sandbox(AIRTEL).transaction(r.serialNumber)).toMatchObject({ extra: { face: 'aggregator', network: 'AIRTELMONEY' } });
      await clock.runAll();
      expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
      const [cb] = await callbacksOf(r.serialNumber);
      expect(cb.payload).toMatchObject({ channel: 'AIRTELMONEY', payment_status: 'COMPLETED' });
    } finally {
      await t.database.exec(`UPDATE payment_config SET provider_of = provider_of || '{"4":"airtel"}'`);
      rt.reload();
    }
  });

  it('a deposit and a payout over a real socket to the listening sandbox', async () => {
    const server = rt.sandboxServer();
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as { port: number };
    await db().update(paymentProviders).set({ baseUrl: `http://127.0.0.1:${port}/aggregator` }).where(eq(paymentProviders.provider, 'aggregator'));
    rt.reload();
    try {
      const b = await makePayer(t, w.agentA, 0, TIGO);
      sandbox(TIGO).queue.push('success');
      sandbox(TIGO).ussdAnswers.push('pin');
      const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 2_000_00, channel: 'ussd' });
      expect(r.carrierOrderNumber).toMatch(/^TGP/);
      await clock.runAll();
      expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
      const h = await makePayer(t, w.agentA, 10_000_00, HALOTEL);
      const x = await requestWithdrawal(db(), { bettorId: h.id, payType: HALOTEL, amount: 1_000_00 });
      sandbox(HALOTEL).queue.push('success');
      await approve(x.id);
      expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
    } finally {
      await db().update(paymentProviders).set({ baseUrl: null }).where(eq(paymentProviders.provider, 'aggregator'));
      rt.reload();
      await server.close();
    }
  });
});
