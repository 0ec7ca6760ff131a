import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BILL_TYPE, PAY_STATUS, PAY_TYPE, RECHARGE_CHANNEL, WITHDRAWAL_STATUS } from '@dau/domain';
import { bettors, recharges, withdrawals } from '../src/schema.js';
import { paymentProviders } from '../src/modules/payments/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import {
  OperatorRefusedError, OperatorTimeoutError, type FetchLike, type ManualScheduler, type ProviderAccount,
} from '../src/modules/payments/operators.js';
import type { PaymentRuntime } from '../src/modules/payments/callbacks.js';
import { SANDBOX_ORIGIN, providerAccount } from '../src/modules/payments/providers.js';
import { inProcessFetch } from '../src/modules/payments/sandbox/server.js';
import { startRecharge } from '../src/modules/payments/recharges.js';
import { requestWithdrawal, runDisbursement } from '../src/modules/payments/withdrawals.js';
import { requeryRecharge, requeryWithdrawal } from '../src/modules/payments/reconciliation.js';
import { paymentSettings, type Actor } from '../src/modules/payments/shared.js';
import { MpesaClient, verdictOf } from '../src/modules/payments/mpesa/client.js';
import { MPESA_CODES, TRANSACTION_STATUSES, type MpesaCodeId } from '../src/modules/payments/mpesa/codes.js';
import { failureCode, transactionStatus } from '../src/modules/payments/mpesa/sandbox.js';
import { newRsaKeyPair, rsaEncrypt } from '../src/modules/payments/http.js';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { balanceOf, billsOf, disbursed, makePayer, manualClock, operatorRows, withdrawalsClearingProblems } from './payments-fixtures.js';

/**
 * Vodacom M-Pesa through its OpenAPI (issue 28), pay type 6, against the built-in sandbox that speaks the
 * OpenAPI: the RSA-encrypted API key for a session, the RSA-encrypted session as the bearer, C2B single
 * stage (the USSD push) and B2C answered synchronously, queryTransactionStatus, reversal, the INS codes.
 */

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let clock: ManualScheduler;
let rt: PaymentRuntime;
const VODACOM = PAY_TYPE.vodacom;
const db = () => t.database.db;
const book = () => rt.sandbox(VODACOM);
const system = (): Actor => ({ adminId: w.rootId, scope: { all: true }, req: null });

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  root = await t.login('admin', ADMIN_PASSWORD);
  ({ clock, rt } = manualClock(t));
});
afterAll(() => t?.close());

beforeEach(() => {
  // Nothing random: a test forces what it needs with the queue; the subscriber enters the PIN.
  book().behaviour = 'success';
  book().ussdAnswer = 'pin';
});

afterEach(async () => {
  await disbursed(t);
  await clock.runAll();
  expect(await checkInvariants(db())).toEqual([]);
  expect(await withdrawalsClearingProblems(t)).toEqual([]);
  const b = book();
  b.queue.length = 0;
  b.ussdAnswers.length = 0;
  b.faults.length = 0;
  b.failReason = null;
  b.behaviour = null;
  b.ussdAnswer = null;
});

async function loadRecharge(id: number) {
  const [r] = await db().select().from(recharges).where(eq(recharges.id, id));
  return r;
}
async function loadWithdrawal(id: number) {
  const [x] = await db().select().from(withdrawals).where(eq(withdrawals.id, id));
  return x;
}
/** Approves through the console's route and waits for the disbursement job (retries included). */
async function approve(id: number) {
  const res = await t.call('POST', `/api/v1/money/withdrawals/${id}/approve`, { token: root });
  expect(res.status).toBe(200);
  await disbursed(t);
  return res;
}
/** Moves a payment's creation (and a withdrawal's sending) back past the operator timeout. */
async function pastTimeout(table: 'recharges' | 'withdrawals', id: number) {
  const minutes = (await paymentSettings(db())).disburseTimeoutMinutes + 5;
  await t.database.exec(
    `UPDATE ${table} SET created_at = created_at - interval '${minutes} minutes'${table === 'withdrawals' ? `, disbursed_at = disbursed_at - interval '${minutes} minutes'` : ''} WHERE id = ${id}`,
  );
}

/**
 * A client of our M-Pesa account like the runtime's, whose requests are counted (the same in-process
 * sandbox server, so the same sessions); `account` can alter what it is configured with.
 */
function countingClient(account?: (a: ProviderAccount) => ProviderAccount) {
  const calls: string[] = [];
  const inner = inProcessFetch(rt.sandboxServer(), SANDBOX_ORIGIN);
  const fetch: FetchLike = async (url, init) => {
    calls.push(`${init?.method ?? 'GET'} ${new URL(url).pathname.replace(/^\/mpesa/, '')}`);
    return inner(url, init);
  };
  const client = new MpesaClient({
    payType: VODACOM,
    account: async () => {
      const a = await providerAccount(db(), 'mpesa', SANDBOX_ORIGIN);
      return account ? account(a) : a;
    },
    fetch,
    now: () => clock.now(),
    callbackUrl: 'http://127.0.0.1/api/v1/payments/callback/6',
    log: () => {},
  });
  return { client, calls, sessions: () => calls.filter((c) => c === 'GET /getSession/').length };
}

let payerSeq = 0;
/** A bettor with a Vodacom number (255 75…): withdrawals through M-Pesa go to Vodacom numbers only. */
async function makeVodacomPayer(cash = 0) {
  const b = await makePayer(t, w.agentA, cash);
  const phone = `25575${String(Date.now() % 100_000).padStart(5, '0')}${String((payerSeq += 1) % 100).padStart(2, '0')}`;
  await db().update(bettors).set({ phone }).where(eq(bettors.id, b.id));
  return { ...b, phone };
}

let phoneSeq = 0;
const phone = () => `2557${String(54_000_000 + (phoneSeq += 1) * 7).slice(-8)}`;
let refSeq = 0;
const ref = (p = 'R') => `${p}MP${Date.now().toString(36).toUpperCase()}${(refSeq += 1)}`;

describe('M-Pesa deposits (C2B single stage: the USSD push)', () => {
  it('a deposit by USSD push is credited once, at once, and a repeat of its reference pays nothing more', async () => {
    const b = await makeVodacomPayer();
    const r = await startRecharge(db(), { bettorId: b.id, payType: VODACOM, amount: 15_000_00, channel: 'ussd' });
    // C2B single stage answers when the customer has entered the PIN: settled in the call.
    expect(r).toMatchObject({ payStatus: PAY_STATUS.paid, channel: RECHARGE_CHANNEL.ussd, carrierOrderNumber: expect.stringMatching(/^MP/) });
    const [row] = await operatorRows(t, r.serialNumber);
    expect(row).toMatchObject({ status: 'success', amount: 15_000_00, carrierRef: r.carrierOrderNumber });
    expect(row.extra).toMatchObject({ face: 'mpesa', api: 'c2bPayment', channel: 'ussd', thirdPartyConversationId: r.serialNumber });
    await clock.runAll(); // no callback comes (OpenAPI sends none), nothing changes
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 15_000_00, totalRecharge: 15_000_00 });

    // The same reference again (a retry of ours): INS-10, answered by its status, never a second payment.
    const again = await rt.operator(VODACOM).ussdPush!({ reference: r.serialNumber, phone: b.phone, amount: 15_000_00 });
    expect(again).toEqual({ status: 'success', carrierRef: r.carrierOrderNumber });
    expect(await operatorRows(t, r.serialNumber)).toHaveLength(1);

    // The app's payment request is the same C2B call.
    const app = await startRecharge(db(), { bettorId: b.id, payType: VODACOM, amount: 2_000_00 });
    expect(app).toMatchObject({ payStatus: PAY_STATUS.paid, channel: RECHARGE_CHANNEL.app });
    expect((await balanceOf(t, b.id)).cashBalance).toBe(17_000_00);
  });

  it.each([
    ['cancelled on the handset', () => book().ussdAnswers.push('cancel'), 'INS-5'],
    ['a wrong PIN', () => book().ussdAnswers.push('wrong_pin'), 'INS-6'],
    ['insufficient funds', () => { book().queue.push('fail'); book().failReason = 'insufficient_funds'; }, 'INS-2006'],
    ['not registered', () => { book().queue.push('fail'); book().failReason = 'not_registered'; }, 'INS-2051'],
  ] as const)('a push %s voids the recharge with the code in the reason and credits nothing', async (_what, force, code) => {
    const b = await makeVodacomPayer();
    force();
    const r = await startRecharge(db(), { bettorId: b.id, payType: VODACOM, amount: 3_000_00, channel: 'ussd' });
    expect(r.payStatus).toBe(PAY_STATUS.voided);
    expect(r.failReason).toContain(code);
    expect(r.failReason).toContain(MPESA_CODES[code].description);
    expect(await billsOf(t, b.id)).toHaveLength(0);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(0);
  });

  it('a push nobody answers times out (INS-9): it stays processing and the status query says Expired', async () => {
    const b = await makeVodacomPayer();
    book().ussdAnswers.push('no_answer');
    const r = await startRecharge(db(), { bettorId: b.id, payType: VODACOM, amount: 2_500_00, channel: 'ussd' });
    expect(r).toMatchObject({ payStatus: PAY_STATUS.processing, carrierOrderNumber: null });
    const q = await rt.operator(VODACOM).queryStatus(r.serialNumber);
    expect(q).toMatchObject({ status: 'failed', reason: 'M-Pesa transaction Expired' });
    const done = await requeryRecharge(db(), system(), r.id);
    expect(done).toMatchObject({ payStatus: PAY_STATUS.voided, carrierOrderNumber: q.carrierRef });
    expect(await billsOf(t, b.id)).toHaveLength(0);
  });

  it('a push that timed out with the money moved stays processing, then the re-query credits it once', async () => {
    const b = await makeVodacomPayer();
    book().queue.push('timeout');
    const r = await startRecharge(db(), { bettorId: b.id, payType: VODACOM, amount: 4_000_00, channel: 'ussd' });
    expect(r.payStatus).toBe(PAY_STATUS.processing);
    const early = await requeryRecharge(db(), system(), r.id);
    expect(early).toMatchObject({ payStatus: PAY_STATUS.processing, carrierOrderNumber: expect.stringMatching(/^MP/) });
    await clock.runAll();
    const paid = await requeryRecharge(db(), system(), r.id);
    expect(paid.payStatus).toBe(PAY_STATUS.paid);
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(4_000_00);
  });
});

describe('M-Pesa payouts (B2C)', () => {
  it('a payout is paid once even when the disbursement job runs twice, or after our crash once M-Pesa paid', async () => {
    const b = await makeVodacomPayer(20_000_00);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 6_000_00 });
    await approve(x.id);
    const paid = await loadWithdrawal(x.id);
    // B2C answers synchronously: paid by the job itself.
    expect(paid).toMatchObject({ status: WITHDRAWAL_STATUS.paid, carrierOrderNumber: expect.stringMatching(/^MP/), disburseAttempts: 1 });
    await runDisbursement(db(), x.id);
    expect(book().disburseCalls(x.serialNumber)).toBe(1);

    // M-Pesa paid, and we crashed before recording it: the job's call is a duplicate (INS-10), answered by
    // queryTransactionStatus, and paid once.
    const y = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 3_000_00 });
    await rt.operator(VODACOM).disburse({ reference: y.serialNumber, phone: b.phone, amount: 3_000_00 });
    await approve(y.id);
    const [row] = await operatorRows(t, y.serialNumber);
    expect(await loadWithdrawal(y.id)).toMatchObject({ status: WITHDRAWAL_STATUS.paid, carrierOrderNumber: row.carrierRef });
    expect(book().disburseCalls(y.serialNumber)).toBe(1);
    expect(await operatorRows(t, y.serialNumber)).toHaveLength(1);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 11_000_00, totalWithdrawal: 9_000_00 });
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
  });

  it('a payout M-Pesa refuses for the receiver is refunded with the code in the reason', async () => {
    const b = await makeVodacomPayer(5_000_00);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 2_000_00 });
    book().queue.push('fail');
    book().failReason = 'not_registered';
    await approve(x.id);
    const failed = await loadWithdrawal(x.id);
    expect(failed).toMatchObject({ status: WITHDRAWAL_STATUS.failed, payStatus: PAY_STATUS.voided });
    expect(failed.failReason).toContain('INS-2002');
    expect((await balanceOf(t, b.id)).cashBalance).toBe(5_000_00);
  });

  it('an INS-9 timeout with the money moved stays disbursing; the re-query finds it paid, never refunded', async () => {
    const b = await makeVodacomPayer(10_000_00);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 4_000_00 });
    book().queue.push('timeout');
    await approve(x.id);
    // Attempt 1: 408 INS-9. Attempt 2 (the job's retry): INS-10, and the status query says Pending.
    const sent = await loadWithdrawal(x.id);
    expect(sent).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, disburseAttempts: 2, carrierOrderNumber: expect.stringMatching(/^MP/) });
    expect(book().disburseCalls(x.serialNumber)).toBe(1);
    expect((await requeryWithdrawal(db(), system(), x.id)).status).toBe(WITHDRAWAL_STATUS.disbursing);
    await clock.runAll(); // M-Pesa completes it; no callback comes
    await pastTimeout('withdrawals', x.id);
    const paid = await requeryWithdrawal(db(), system(), x.id);
    expect(paid).toMatchObject({ status: WITHDRAWAL_STATUS.paid, carrierOrderNumber: sent.carrierOrderNumber });
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 6_000_00, totalWithdrawal: 4_000_00 });
  });

  it('a timeout without the money: the re-query after the timeout says unknown and it waits for reconciliation, not refunded', async () => {
    const b = await makeVodacomPayer(10_000_00);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 5_000_00 });
    // Approved and being disbursed (set directly: the job's retries would reach M-Pesa on their own).
    await t.database.exec(`UPDATE withdrawals SET status = ${WITHDRAWAL_STATUS.disbursing}, disbursed_at = now() WHERE id = ${x.id}`);
    book().queue.push('timeout_lost');
    await expect(runDisbursement(db(), x.id)).rejects.toThrow(/INS-9/);
    expect(await operatorRows(t, x.serialNumber)).toEqual([]);
    expect(await rt.operator(VODACOM).queryStatus(x.serialNumber)).toMatchObject({ status: 'unknown' });
    await pastTimeout('withdrawals', x.id);
    const waiting = await requeryWithdrawal(db(), system(), x.id);
    expect(waiting).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, carrierOrderNumber: null });
    expect(waiting.reconcileSince).not.toBeNull();
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(5_000_00);
    // Reconciled by the M-Pesa statement (not on it): only now is the money returned.
    const res = await t.call('POST', `/api/v1/money/withdrawals/${x.id}/reconcile`, {
      token: root, body: { outcome: 'not_paid', reference: 'MPESA-STMT-1', remark: 'Not on the M-Pesa statement' },
    });
    expect(res.status).toBe(200);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(10_000_00);
  });

  it('a 5xx is unknown: the job retries with the same reference and pays once', async () => {
    const b = await makeVodacomPayer(10_000_00);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 1_000_00 });
    book().faults.push('server_error');
    await approve(x.id);
    expect(await loadWithdrawal(x.id)).toMatchObject({ status: WITHDRAWAL_STATUS.paid, disburseAttempts: 2 });
    expect(await operatorRows(t, x.serialNumber)).toHaveLength(1);
    // And directly: a 500 INS-1 is an OperatorTimeoutError, never a failure.
    const { client } = countingClient();
    book().faults.push('server_error');
    await expect(client.disburse({ reference: ref('W'), phone: phone(), amount: 1_000_00 })).rejects.toBeInstanceOf(OperatorTimeoutError);
  });
});

describe('M-Pesa sessions and credentials', () => {
  it('a session is kept until it expires, and a session the gateway forgot mid-run is renewed once', async () => {
    const { client, calls, sessions } = countingClient();
    await client.collect({ reference: ref(), phone: phone(), amount: 1_000_00 });
    await client.collect({ reference: ref(), phone: phone(), amount: 1_000_00 });
    expect(sessions()).toBe(1);
    // The gateway forgets the session: the next call gets 401, one getSession, the call again.
    book().faults.push('expire_credentials');
    calls.length = 0;
    expect(await client.collect({ reference: ref(), phone: phone(), amount: 1_000_00 })).toMatchObject({ status: 'success' });
    expect(calls).toEqual(['POST /c2bPayment/singleStage/', 'GET /getSession/', 'POST /c2bPayment/singleStage/']);
    // Past its lifetime (the books' clock and ours): a new session first, without a refused call.
    await clock.advance(3_600_000);
    calls.length = 0;
    expect(await client.queryStatus(ref())).toMatchObject({ status: 'unknown' });
    expect(calls).toEqual(['GET /getSession/', 'GET /queryTransactionStatus/']);
    // Refused again after the renewal: a refusal (nothing moved), no loop.
    book().faults.push('expire_credentials', 'expire_credentials');
    calls.length = 0;
    await expect(client.collect({ reference: ref(), phone: phone(), amount: 1_000_00 })).rejects.toMatchObject({ code: 'INS-2' });
    expect(calls).toHaveLength(3);
  });

  it('the services go on through a session expiry mid-run', async () => {
    const b = await makeVodacomPayer(5_000_00);
    const first = await startRecharge(db(), { bettorId: b.id, payType: VODACOM, amount: 1_000_00, channel: 'ussd' });
    book().faults.push('expire_credentials');
    const second = await startRecharge(db(), { bettorId: b.id, payType: VODACOM, amount: 1_000_00, channel: 'ussd' });
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 2_000_00 });
    book().faults.push('expire_credentials');
    await approve(x.id);
    expect([first.payStatus, second.payStatus]).toEqual([PAY_STATUS.paid, PAY_STATUS.paid]);
    expect(await loadWithdrawal(x.id)).toMatchObject({ status: WITHDRAWAL_STATUS.paid, disburseAttempts: 1 });
    expect(book().faults).toEqual([]);
  });

  it('a wrong API key, or one not encrypted under the portal key, is refused 401 INS-2: OperatorRefusedError, nothing sent', async () => {
    const wrongKey = countingClient((a) => ({ ...a, secrets: { ...a.secrets, apiKey: 'not-the-issued-key' } }));
    const err = await wrongKey.client.collect({ reference: ref(), phone: phone(), amount: 1_000_00 }).catch((e) => e);
    expect(err).toBeInstanceOf(OperatorRefusedError);
    expect(err).toMatchObject({ code: 'INS-2' });
    expect(wrongKey.calls).toEqual(['GET /getSession/']);

    const otherPortal = newRsaKeyPair().publicKey;
    const wrongPem = countingClient((a) => ({ ...a, secrets: { ...a.secrets, publicKey: otherPortal } }));
    await expect(wrongPem.client.disburse({ reference: ref('W'), phone: phone(), amount: 1_000_00 })).rejects.toMatchObject({ code: 'INS-2' });

    // The gateway's answer itself, as the documentation shows it.
    const fetch = inProcessFetch(rt.sandboxServer(), SANDBOX_ORIGIN);
    const acct = await providerAccount(db(), 'mpesa', SANDBOX_ORIGIN);
    const raw = await fetch(`${acct.baseUrl}/getSession/`, { headers: { Authorization: `Bearer ${rsaEncrypt(otherPortal, acct.secrets.apiKey!)}`, Origin: '*' } });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ output_ResponseCode: 'INS-2', output_ResponseDesc: 'Invalid API Key' });
    const good = await fetch(`${acct.baseUrl}/getSession/`, { headers: { Authorization: `Bearer ${rsaEncrypt(acct.secrets.publicKey!, acct.secrets.apiKey!)}`, Origin: '*' } });
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ output_ResponseCode: 'INS-0', output_SessionID: expect.stringMatching(/^[0-9a-f]{32}$/) });
    // A session id sent in clear (not encrypted) is not a session.
    const { output_SessionID: sid } = (await (await fetch(`${acct.baseUrl}/getSession/`, { headers: { Authorization: `Bearer ${rsaEncrypt(acct.secrets.publicKey!, acct.secrets.apiKey!)}`, Origin: '*' } })).json()) as { output_SessionID: string };
    const clear = await fetch(`${acct.baseUrl}/queryTransactionStatus/?input_QueryReference=x&input_ServiceProviderCode=${acct.settings.serviceProviderCode}&input_ThirdPartyConversationID=abc&input_Country=TZN`, { headers: { Authorization: `Bearer ${sid}`, Origin: '*' } });
    expect(clear.status).toBe(401);

    // Through the services: our account row holds a wrong key; the deposit is not sent and stays for re-query.
    const [row] = await db().select().from(paymentProviders).where(eq(paymentProviders.provider, 'mpesa'));
    await db().update(paymentProviders).set({ secrets: { ...row.secrets, apiKey: 'revoked' } }).where(eq(paymentProviders.provider, 'mpesa'));
    rt.reload();
    try {
      await expect(rt.operator(VODACOM).collect({ reference: ref(), phone: phone(), amount: 1_000_00 })).rejects.toBeInstanceOf(OperatorRefusedError);
      const b = await makeVodacomPayer();
      const r = await startRecharge(db(), { bettorId: b.id, payType: VODACOM, amount: 1_000_00, channel: 'ussd' });
      expect(r).toMatchObject({ payStatus: PAY_STATUS.processing, carrierOrderNumber: null });
      expect(await operatorRows(t, r.serialNumber)).toEqual([]);
      await db().update(recharges).set({ payStatus: PAY_STATUS.voided }).where(eq(recharges.id, r.id));
    } finally {
      await db().update(paymentProviders).set({ secrets: row.secrets }).where(eq(paymentProviders.provider, 'mpesa'));
      rt.reload();
    }
  });

  it('a fraction of a shilling is never rounded: refused before anything is sent', async () => {
    const { client, calls } = countingClient();
    await expect(client.collect({ reference: ref(), phone: phone(), amount: 1_000_50 })).rejects.toMatchObject({ code: 'AMOUNT_INVALID' });
    expect(calls).toEqual([]);
  });
});

describe('M-Pesa response codes (the documented table)', () => {
  /** A gateway that answers getSession, then `code` (with its HTTP status) to the payment, and `status` to the query. */
  function scripted(code: string, http: number, status = 'Completed') {
    const calls: string[] = [];
    const json = (s: number, body: Record<string, unknown>) => new Response(JSON.stringify(body), { status: s, headers: { 'content-type': 'application/json' } });
    const fetch: FetchLike = async (url) => {
      const path = new URL(url).pathname;
      calls.push(path);
      if (path.endsWith('/getSession/')) return json(200, { output_ResponseCode: 'INS-0', output_ResponseDesc: 'Request processed successfully', output_SessionID: `s${calls.length}` });
      if (path.endsWith('/queryTransactionStatus/')) {
        return json(200, { output_ResponseCode: 'INS-0', output_ResponseDesc: 'Request processed successfully', output_ResponseTransactionStatus: status, output_OriginalTransactionID: 'MPQ1' });
      }
      return json(http, { output_ResponseCode: code, output_ResponseDesc: (MPESA_CODES as Record<string, { description: string }>)[code]?.description ?? 'x', output_TransactionID: 'MPT1', output_ConversationID: 'AG_1' });
    };
    const { publicKey } = newRsaKeyPair();
    const client = new MpesaClient({
      payType: VODACOM,
      account: async () => ({ provider: 'mpesa', baseUrl: 'https://gateway.test/openapi/ipg/v2/vodacomTZN', settings: { serviceProviderCode: '000000' }, secrets: { apiKey: 'k', publicKey } }),
      fetch, now: () => clock.now(), callbackUrl: '', log: () => {},
    });
    return { client, calls };
  }

  it.each(Object.entries(MPESA_CODES) as [MpesaCodeId, (typeof MPESA_CODES)[MpesaCodeId]][])('%s maps as documented', async (code, entry) => {
    // The mapper itself (5xx never reach it: the transport makes them unknown).
    if (entry.http < 500) expect(verdictOf(entry.http, { output_ResponseCode: code, output_ResponseDesc: entry.description }).outcome).toBe(entry.outcome);
    // Through the client, for a deposit and a payout.
    for (const kind of ['collect', 'disburse'] as const) {
      const { client, calls } = scripted(code, entry.http);
      const call = client[kind]({ reference: 'R2612010A0B0C0D0E0F', phone: '255754000001', amount: 1_000_00 });
      const outcome = entry.http >= 500 ? 'unknown' : entry.outcome;
      switch (outcome) {
        case 'success':
          await expect(call).resolves.toEqual({ status: 'success', carrierRef: 'MPT1' });
          break;
        case 'failed':
          await expect(call).resolves.toMatchObject({ status: 'failed', carrierRef: 'MPT1', reason: `M-Pesa ${code}: ${entry.description}` });
          // A 401 that carries the transaction's outcome (INS-5, INS-6) is not taken for a refused session.
          expect(calls.filter((c) => c.endsWith('/getSession/'))).toHaveLength(1);
          break;
        case 'duplicate':
          await expect(call).resolves.toEqual({ status: 'success', carrierRef: 'MPQ1' });
          expect(calls.at(-1)).toMatch(/queryTransactionStatus/);
          break;
        case 'refused':
          await expect(call).rejects.toSatisfy((e: unknown) => e instanceof OperatorRefusedError && e.code === code);
          // A 401 refusal renews the session once before it is believed.
          expect(calls.filter((c) => c.endsWith('/getSession/'))).toHaveLength(entry.http === 401 ? 2 : 1);
          break;
        default:
          await expect(call).rejects.toBeInstanceOf(OperatorTimeoutError);
      }
    }
  });

  it('codes the table does not list, and contradictions, are unknown (never a refund on them)', async () => {
    expect(verdictOf(400, { output_ResponseCode: 'INS-12345' }).outcome).toBe('unknown');
    expect(verdictOf(200, { output_ResponseCode: 'INS-2006' }).outcome).toBe('unknown');
    expect(verdictOf(409, { output_ResponseCode: 'INS-0' }).outcome).toBe('unknown');
    expect(verdictOf(200, {}).outcome).toBe('unknown');
    expect(verdictOf(404, undefined)).toMatchObject({ outcome: 'refused', code: 'HTTP_404' });
    await expect(scripted('INS-777', 400).client.disburse({ reference: 'W1', phone: '255754000001', amount: 100 })).rejects.toBeInstanceOf(OperatorTimeoutError);
  });

  it.each(Object.entries(TRANSACTION_STATUSES))('transaction status %s → %s', async (status, expected) => {
    const { client } = scripted('INS-0', 200, status);
    expect((await client.queryStatus('R1')).status).toBe(expected);
  });

  it('a duplicate whose status is not known is not a payment: unknown', async () => {
    const { client } = scripted('INS-10', 409, 'N/A');
    await expect(client.disburse({ reference: 'W1', phone: '255754000001', amount: 100 })).rejects.toBeInstanceOf(OperatorTimeoutError);
    const pending = scripted('INS-10', 409, 'Pending');
    await expect(pending.client.disburse({ reference: 'W1', phone: '255754000001', amount: 100 })).resolves.toEqual({ status: 'pending', carrierRef: 'MPQ1' });
  });

  it('the sandbox answers each failure with its documented code, over the wire', async () => {
    expect(failureCode(undefined, 'c2b')).toBe('INS-6');
    const { client } = countingClient();
    const cases: [() => void, 'collect' | 'disburse', MpesaCodeId][] = [
      [() => { book().queue.push('fail'); book().failReason = 'insufficient_funds'; }, 'collect', 'INS-2006'],
      [() => { book().queue.push('fail'); book().failReason = 'not_registered'; }, 'collect', 'INS-2051'],
      [() => { book().queue.push('fail'); book().failReason = 'not_registered'; }, 'disburse', 'INS-2002'],
      [() => { book().queue.push('fail'); book().failReason = 'wrong_pin'; }, 'collect', 'INS-6'],
      [() => book().ussdAnswers.push('cancel'), 'collect', 'INS-5'],
    ];
    for (const [force, kind, code] of cases) {
      force();
      const reference = ref(kind === 'collect' ? 'R' : 'W');
      const res = await client[kind]({ reference, phone: phone(), amount: 1_000_00 });
      expect(res, code).toMatchObject({ status: 'failed', reason: expect.stringContaining(code) });
      const txn = (await book().transaction(reference))!;
      expect(transactionStatus(txn)).toBe(code === 'INS-5' ? 'Cancelled' : 'Failed');
      expect(await client.queryStatus(reference)).toMatchObject({ status: 'failed', carrierRef: txn.carrierRef });
      book().failReason = null;
    }
    // The wrong shortcode in our settings: INS-13, refused.
    const misconfigured = countingClient((a) => ({ ...a, settings: { ...a.settings, serviceProviderCode: '999' } }));
    await expect(misconfigured.client.collect({ reference: ref(), phone: phone(), amount: 1_000_00 })).rejects.toMatchObject({ code: 'INS-13' });
    // A number M-Pesa cannot take: INS-2051, failed.
    expect(await client.collect({ reference: ref(), phone: '2557540', amount: 1_000_00 })).toMatchObject({ status: 'failed', reason: expect.stringContaining('INS-2051') });
  });
});

describe('M-Pesa reversal', () => {
  it('reverses a completed transaction once, in full or in part; unknown or failed ones are not reversed', async () => {
    const { client } = countingClient();
    const reference = ref();
    const paid = await client.collect({ reference, phone: phone(), amount: 5_000_00 });
    expect(paid.status).toBe('success');
    const r = await client.reverse(paid.carrierRef, 2_000_00);
    expect(r).toMatchObject({ status: 'success', code: 'INS-0', reversalId: expect.stringMatching(/^MPR/) });
    expect((await book().transaction(reference))?.extra).toMatchObject({ reversal: { transactionId: r.reversalId, amount: 2_000_00 } });
    expect(await client.reverse(paid.carrierRef, 2_000_00)).toMatchObject({ status: 'success', duplicate: true, code: 'INS-10' });
    await expect(client.reverse('MPNOSUCHTXN', 1_000_00)).rejects.toMatchObject({ code: 'INS-18' });

    const other = await client.collect({ reference: ref(), phone: phone(), amount: 1_000_00 });
    expect(await client.reverse(other.carrierRef, 9_000_00)).toMatchObject({ status: 'failed', code: 'INS-15' });
    book().ussdAnswers.push('cancel');
    const cancelled = await client.collect({ reference: ref(), phone: phone(), amount: 1_000_00 });
    expect(await client.reverse(cancelled.carrierRef, 1_000_00)).toMatchObject({ status: 'failed', code: 'INS-6' });
  });
});

describe('M-Pesa over a real socket', () => {
  it('deposits, pays out and queries through the sandbox listening on a port', async () => {
    const server = rt.sandboxServer();
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as { port: number };
    try {
      await db().update(paymentProviders).set({ baseUrl: `http://127.0.0.1:${port}/mpesa` }).where(eq(paymentProviders.provider, 'mpesa'));
      rt.reload();
      const b = await makeVodacomPayer(10_000_00);
      const r = await startRecharge(db(), { bettorId: b.id, payType: VODACOM, amount: 3_000_00, channel: 'ussd' });
      expect(r.payStatus).toBe(PAY_STATUS.paid);
      const x = await requestWithdrawal(db(), { bettorId: b.id, payType: VODACOM, amount: 2_000_00 });
      await approve(x.id);
      expect(await loadWithdrawal(x.id)).toMatchObject({ status: WITHDRAWAL_STATUS.paid });
      expect(await rt.operator(VODACOM).queryStatus(x.serialNumber)).toMatchObject({ status: 'success', carrierRef: (await loadWithdrawal(x.id)).carrierOrderNumber });
      expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 11_000_00 });
    } finally {
      await db().update(paymentProviders).set({ baseUrl: null }).where(eq(paymentProviders.provider, 'mpesa'));
      rt.reload();
      // Only the listener: the runtime keeps reaching the same sandbox in-process.
      await new Promise<void>((resolve) => server.server.close(() => resolve()));
    }
  });
});
