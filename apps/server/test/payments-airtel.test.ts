import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BILL_TYPE, PAY_STATUS, PAY_TYPE, WITHDRAWAL_STATUS } from '@dau/domain';
import { paymentCallbacks, paymentProviders, recharges, withdrawals } from '../src/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { OperatorRefusedError, OperatorTimeoutError, type FetchLike, type ManualScheduler, type ProviderAccount } from '../src/modules/payments/operators.js';
import type { PaymentRuntime } from '../src/modules/payments/callbacks.js';
import { startRecharge } from '../src/modules/payments/recharges.js';
import { approveWithdrawal, requestWithdrawal, runDisbursement } from '../src/modules/payments/withdrawals.js';
import { reconcileWithdrawal, requeryRecharge, requeryWithdrawal } from '../src/modules/payments/reconciliation.js';
import { paymentSettings, type Actor } from '../src/modules/payments/shared.js';
import { SANDBOX_ORIGIN, providerAccount } from '../src/modules/payments/providers.js';
import { inProcessFetch } from '../src/modules/payments/sandbox/server.js';
import { newRsaKeyPair, rsaEncrypt } from '../src/modules/payments/http.js';
import { airtel } from '../src/modules/payments/airtel/index.js';
import { COLLECTION_CODES, DISBURSEMENT_CODES, TRANSACTION_STATUSES, outcomeOf } from '../src/modules/payments/airtel/codes.js';
import { createTestApp, makeWorld, until, type TestApp } from './helpers.js';
import { balanceOf, billsOf, disbursed, makePayer, manualClock, operatorRows } from './payments-fixtures.js';

/**
 * Airtel Money's Open API (issue 28, pay type 4) against its built-in sandbox, through the product's own
 * services: USSD push deposits settled by the hashed callback or the enquiry, disbursements with the
 * RSA-encrypted PIN, the OAuth2 token's expiry, 5xx and timeouts as "unknown", message signing, and every
 * documented status and code through the mapping.
 */

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let clock: ManualScheduler;
let rt: PaymentRuntime;
let actor: Actor;
const AIRTEL = PAY_TYPE.airtel;
const db = () => t.database.db;
const book = () => rt.sandbox(AIRTEL);

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  ({ clock, rt } = manualClock(t));
  actor = { adminId: w.rootId, scope: { all: true }, req: null };
});
afterAll(() => t?.close());

afterEach(async () => {
  await disbursed(t);
  await clock.runAll();
  expect(await checkInvariants(db())).toEqual([]);
  const b = book();
  b.queue.length = 0;
  b.behaviour = null;
  b.failReason = null;
  b.delayMs = null;
  b.ussdAnswers.length = 0;
  b.ussdAnswer = null;
  b.faults.length = 0;
});

async function loadRecharge(id: number) {
  const [r] = await db().select().from(recharges).where(eq(recharges.id, id));
  return r;
}
async function loadWithdrawal(id: number) {
  const [x] = await db().select().from(withdrawals).where(eq(withdrawals.id, id));
  return x;
}
/** A payment made to look older than the operator timeout (plus five minutes). */
async function pastTimeout(table: 'recharges' | 'withdrawals', id: number) {
  const m = (await paymentSettings(db())).disburseTimeoutMinutes + 5;
  await t.database.exec(
    `UPDATE ${table} SET created_at = created_at - interval '${m} minutes'${table === 'withdrawals' ? `, disbursed_at = disbursed_at - interval '${m} minutes'` : ''} WHERE id = ${id}`,
  );
}
/** An Airtel Money number (prefix 78): a payout goes only to a number of the pay type's network. */
let phones = 0;
const airtelPhone = () => `25578${String(1_000_000 + (phones += 1) * 7919 + Math.floor(Math.random() * 7000)).slice(-7)}`;
const postCallback = (cb: { headers: Record<string, string>; body: string }) =>
  t.call('POST', `/api/v1/payments/callback/${AIRTEL}`, { headers: cb.headers, body: cb.body });

/** Our account with the Airtel sandbox, as the runtime reads it. */
const account = () => providerAccount(db(), 'airtel', SANDBOX_ORIGIN);

/** A client of our own over the in-process sandbox, whose requests a test can watch or alter. */
function isolatedClient(acct: ProviderAccount, tap?: (url: string, init: Parameters<FetchLike>[1]) => Parameters<FetchLike>[1] | void) {
  const inner = inProcessFetch(rt.sandboxServer(), SANDBOX_ORIGIN);
  const seen: { url: string; method: string; headers: Record<string, string>; body?: string }[] = [];
  const fetch: FetchLike = (url, init = {}) => {
    seen.push({ url, method: init.method ?? 'GET', headers: init.headers ?? {}, body: init.body });
    return inner(url, tap?.(url, init) ?? init);
  };
  const client = airtel.client({ payType: AIRTEL, account: async () => acct, fetch, now: () => clock.now(), callbackUrl: '', log: () => {} });
  return { client, seen };
}

describe('Airtel Money deposits (USSD push)', () => {
  it('a confirmed push is credited once by the hashed callback, its duplicate included', async () => {
    const b = await makePayer(t, w.agentA);
    book().queue.push('duplicate');
    book().ussdAnswers.push('pin');
    const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 15_000_00, channel: 'ussd' });
    expect(r.payStatus).toBe(PAY_STATUS.processing);
    // Airtel keys the collection on our transaction id: no Airtel id exists before the payer answers.
    expect(r.carrierOrderNumber).toBe(r.serialNumber);
    const txn = await book().transaction(r.serialNumber);
    expect(txn).toMatchObject({ status: 'pending', phone: r.phone, amount: 15_000_00, extra: { face: 'airtel', channel: 'ussd' } });

    await clock.runAll();
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
    const cbs = await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.reference, r.serialNumber));
    expect(cbs).toHaveLength(1);
    expect(cbs[0].duplicates).toBe(1);
    expect(cbs[0].payload).toMatchObject({ transaction: { id: r.serialNumber, status_code: 'TS', airtel_money_id: expect.stringMatching(/^AM/) }, hash: expect.any(String) });
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(15_000_00);
  });

  it('a callback that never comes: the enquiry settles it, and the late callback after that changes nothing', async () => {
    const b = await makePayer(t, w.agentA);
    book().queue.push('no_callback');
    book().ussdAnswers.push('pin');
    const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 4_000_00, channel: 'ussd' });
    // While the prompt is on the handset, Airtel says "in progress": nothing moves.
    expect((await requeryRecharge(db(), actor, r.id)).payStatus).toBe(PAY_STATUS.processing);
    await clock.runAll();
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.processing);
    expect(await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.reference, r.serialNumber))).toEqual([]);
    const settled = await requeryRecharge(db(), actor, r.id);
    expect(settled.payStatus).toBe(PAY_STATUS.paid);
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);

    const late = await book().callbackFor((await book().transaction(r.serialNumber))!);
    const res = await postCallback(late!);
    expect(res.status).toBe(200);
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(4_000_00);
    // The same notification again is a duplicate.
    expect((await postCallback(late!)).status).toBe(200);
    const [cb] = await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.reference, r.serialNumber));
    expect(cb.duplicates).toBe(1);
  });

  it.each([
    ['a wrong PIN on the prompt', () => { book().queue.push('success'); book().ussdAnswers.push('wrong_pin'); }, 'DP00800001002', 'Incorrect Pin'],
    ['insufficient funds', () => { book().queue.push('fail'); book().failReason = 'insufficient_funds'; }, 'DP00800001007', 'Not enough balance'],
    ['a prompt the payer cancels', () => { book().queue.push('success'); book().ussdAnswers.push('cancel'); }, 'DP00800001008', 'Refused'],
  ] as const)('%s voids the recharge with the reason and its code', async (_what, arrange, code, title) => {
    const b = await makePayer(t, w.agentA);
    arrange();
    const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 3_000_00, channel: 'ussd' });
    await clock.runAll();
    const done = await loadRecharge(r.id);
    expect(done.payStatus).toBe(PAY_STATUS.voided);
    expect(done.failReason).toContain(code);
    expect(done.failReason).toContain(title);
    expect(await billsOf(t, b.id)).toHaveLength(0);
  });

  it('a callback with a wrong hash, or a tampered one, is refused with 401 and moves nothing', async () => {
    const b = await makePayer(t, w.agentA);
    book().queue.push('no_callback');
    book().ussdAnswers.push('pin');
    const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 2_000_00, channel: 'ussd' });
    await clock.runAll();
    const txn = (await book().transaction(r.serialNumber))!;
    book().faults.push('bad_signature');
    const forged = (await book().callbackFor(txn))!;
    const res = await postCallback(forged);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('CALLBACK_SIGNATURE_INVALID');
    // A genuine hash over another transaction's body: the amount of another payer, the status flipped.
    const good = (await book().callbackFor(txn))!;
    const parsed = JSON.parse(good.body);
    const flipped = JSON.stringify({ ...parsed, transaction: { ...parsed.transaction, id: 'R000000000000' } });
    expect((await postCallback({ headers: good.headers, body: flipped })).status).toBe(401);
    expect((await postCallback({ headers: good.headers, body: JSON.stringify({ transaction: parsed.transaction }) })).status).toBe(401);
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.processing);
    expect(await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.reference, r.serialNumber))).toEqual([]);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(0);
    // The genuine one is accepted.
    expect((await postCallback(good)).status).toBe(200);
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
  });

  it('a 5xx is "unknown": the recharge stays processing without an operator number, never voided on it', async () => {
    const b = await makePayer(t, w.agentA);
    book().faults.push('server_error');
    const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 2_000_00, channel: 'ussd' });
    expect(r).toMatchObject({ payStatus: PAY_STATUS.processing, carrierOrderNumber: null });
    expect(await operatorRows(t, r.serialNumber)).toEqual([]);
    // Within the timeout the enquiry (not found) leaves it as it is.
    expect((await requeryRecharge(db(), actor, r.id)).payStatus).toBe(PAY_STATUS.processing);
    // The client says so itself.
    const { client } = isolatedClient(await account());
    book().faults.push('server_error');
    await expect(client.ussdPush!({ reference: 'R26010100000000AA', phone: '255780000001', amount: 1_000_00 })).rejects.toBeInstanceOf(OperatorTimeoutError);
    await expect(client.queryStatus('R26010100000000AA')).resolves.toMatchObject({ status: 'unknown' });
    // Past the timeout, a request that never reached Airtel is voided (the payer was never asked).
    await pastTimeout('recharges', r.id);
    const done = await requeryRecharge(db(), actor, r.id);
    expect(done.payStatus).toBe(PAY_STATUS.voided);
  });

  it('a token that expires mid-run is refreshed once and the call goes through', async () => {
    const acct = await account();
    const { client, seen } = isolatedClient(acct);
    const tokenCalls = () => seen.filter((s) => s.url.endsWith('/auth/oauth2/token')).length;
    book().queue.push('success');
    const first = await client.ussdPush!({ reference: 'R26010100000001AA', phone: '255780000002', amount: 1_000_00 });
    expect(first).toEqual({ carrierRef: 'R26010100000001AA', status: 'pending' });
    await client.queryStatus('R26010100000001AA');
    expect(tokenCalls()).toBe(1); // cached until expires_in
    book().faults.push('expire_credentials');
    await expect(client.queryStatus('R26010100000001AA')).resolves.toMatchObject({ status: 'pending' });
    expect(tokenCalls()).toBe(2);
    const calls = seen.filter((s) => !s.url.endsWith('/auth/oauth2/token'));
    expect(calls.slice(-2).map((c) => c.headers.Authorization)).toHaveLength(2);
    expect(calls.at(-1)!.headers.Authorization).not.toBe(calls.at(-2)!.headers.Authorization);
    // A token past its expires_in (180 s) is replaced before use, without a 401.
    await clock.advance(200_000);
    await client.queryStatus('R26010100000001AA');
    expect(tokenCalls()).toBe(3);

    // Through the services: a deposit right after the sandbox forgot our token still reaches Airtel.
    const b = await makePayer(t, w.agentA);
    book().faults.push('expire_credentials');
    book().queue.push('success');
    book().ussdAnswers.push('pin');
    const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 1_000_00, channel: 'ussd' });
    expect(r.carrierOrderNumber).toBe(r.serialNumber);
    await clock.runAll();
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
  });
});

describe('Airtel Money payouts (disbursement)', () => {
  async function approved(amount: number, arrange?: () => void) {
    const b = await makePayer(t, w.agentA, 20_000_00);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount, phone: airtelPhone() });
    arrange?.();
    await approveWithdrawal(t.ctx, actor, x.id);
    await disbursed(t);
    return { b, x };
  }

  it('is paid once even when the job runs twice', async () => {
    const { b, x } = await approved(6_000_00, () => book().queue.push('success'));
    const sent = await loadWithdrawal(x.id);
    expect(sent).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, carrierOrderNumber: expect.stringMatching(/^AM/) });
    // A second run (a retry after a crash): Airtel answers "duplicate transaction id"; the enquiry tells its state.
    await runDisbursement(db(), x.id);
    expect(book().disburseCalls(x.serialNumber)).toBe(2);
    expect(await operatorRows(t, x.serialNumber)).toHaveLength(1);
    await clock.runAll();
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
    await runDisbursement(db(), x.id);
    expect(book().disburseCalls(x.serialNumber)).toBe(2);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 14_000_00, totalWithdrawal: 6_000_00 });
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
  });

  it('a failed payout rolls the money back with the reason and its code', async () => {
    const { b, x } = await approved(5_000_00, () => {
      book().queue.push('fail');
      book().failReason = 'not_registered';
    });
    await clock.runAll();
    const failed = await loadWithdrawal(x.id);
    expect(failed).toMatchObject({ status: WITHDRAWAL_STATUS.failed, payStatus: PAY_STATUS.voided });
    expect(failed.failReason).toContain('DP00900001012');
    expect((await balanceOf(t, b.id)).cashBalance).toBe(20_000_00);
  });

  it('the sandbox decrypts the PIN and refuses a wrong one, or one not encrypted under its key', async () => {
    const acct = await account();
    const req = { reference: 'W26010100000002AA', phone: '255780000003', amount: 1_000_00 };
    const wrongPin = isolatedClient({ ...acct, secrets: { ...acct.secrets, pin: acct.secrets.pin === '0000' ? '1111' : '0000' } }).client;
    await expect(wrongPin.disburse(req)).rejects.toMatchObject({ code: 'ROUTER115' });
    const otherKey = isolatedClient({ ...acct, secrets: { ...acct.secrets, public_key: newRsaKeyPair().publicKey } }).client;
    await expect(otherKey.disburse(req)).rejects.toBeInstanceOf(OperatorRefusedError);
    await expect(otherKey.disburse(req)).rejects.toMatchObject({ code: 'ROUTER116' });
    expect(await operatorRows(t, req.reference)).toEqual([]);
    // The PIN goes encrypted (PKCS#1 v1.5 under Airtel's key, base64), never in clear.
    const { client, seen } = isolatedClient(acct);
    book().queue.push('success');
    await expect(client.disburse(req)).resolves.toMatchObject({ status: 'pending', carrierRef: expect.stringMatching(/^AM/) });
    const sent = JSON.parse(seen.find((s) => s.url.endsWith('/standard/v2/disbursements/'))!.body!);
    expect(sent).toMatchObject({ payee: { msisdn: '780000003' }, reference: req.reference, transaction: { amount: 1_000, id: req.reference, type: 'B2C' } });
    expect(sent.pin).not.toContain(acct.secrets.pin);
    expect(Buffer.from(sent.pin, 'base64')).toHaveLength(256);
    expect(rsaEncrypt(acct.secrets.public_key!, acct.secrets.pin!)).not.toBe(sent.pin); // random padding
    await clock.runAll();
  });

  it('a timeout after Airtel took it stays disbursing (never refunded); the enquiry finds it paid', async () => {
    const { b, x } = await approved(2_000_00, () => book().queue.push('timeout'));
    // The retry found the payout at Airtel (duplicate id → enquiry: ambiguous) and recorded its number.
    const sent = await loadWithdrawal(x.id);
    expect(sent).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, disburseAttempts: 2, carrierOrderNumber: expect.stringMatching(/^AM/) });
    expect(book().disburseCalls(x.serialNumber)).toBe(2);
    // Ambiguous at Airtel (TA): unknown to us, nothing moves.
    expect((await requeryWithdrawal(db(), actor, x.id)).status).toBe(WITHDRAWAL_STATUS.disbursing);
    // The callback is lost on the way.
    const deliver = rt.deliver;
    rt.deliver = async () => 503;
    try {
      await clock.runAll();
    } finally {
      rt.deliver = deliver;
    }
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.disbursing);
    const done = await requeryWithdrawal(db(), actor, x.id);
    expect(done).toMatchObject({ status: WITHDRAWAL_STATUS.paid, payStatus: PAY_STATUS.paid });
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
    expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 18_000_00, totalWithdrawal: 2_000_00 });
  });

  it('a timeout before Airtel took it is "unknown": past the timeout it waits for reconciliation, never an automatic refund', async () => {
    const b = await makePayer(t, w.agentA, 20_000_00);
    const x = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount: 3_000_00, phone: airtelPhone() });
    book().behaviour = 'timeout_lost';
    try {
      await approveWithdrawal(t.ctx, actor, x.id);
      await until(() => loadWithdrawal(x.id), (v) => v.disburseAttempts >= 1, 'the first disbursement attempt');
      expect(await operatorRows(t, x.serialNumber)).toEqual([]);
      await pastTimeout('withdrawals', x.id);
      const flagged = await requeryWithdrawal(db(), actor, x.id);
      expect(flagged).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, carrierOrderNumber: null });
      expect(flagged.reconcileSince).not.toBeNull();
      expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toEqual([]);
      // A person reads Airtel's statement: not paid. The money goes back once.
      const done = await reconcileWithdrawal(db(), actor, x.id, { moved: false, reference: 'AM-STATEMENT-1', remark: 'not on the statement' });
      expect(done.status).toBe(WITHDRAWAL_STATUS.failed);
    } finally {
      book().behaviour = null;
    }
    await disbursed(t);
    expect(await operatorRows(t, x.serialNumber)).toEqual([]);
    expect(await billsOf(t, b.id, BILL_TYPE.amount_rolled_back)).toHaveLength(1);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(20_000_00);
  });

  it('a 5xx on the payout is retried with the same id and paid once', async () => {
    const { b, x } = await approved(1_000_00, () => {
      book().faults.push('server_error');
      book().queue.push('success');
    });
    const sent = await loadWithdrawal(x.id);
    expect(sent).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, disburseAttempts: 2, carrierOrderNumber: expect.stringMatching(/^AM/) });
    expect(book().disburseCalls(x.serialNumber)).toBe(1);
    await clock.runAll();
    expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(19_000_00);
  });
});

describe('Airtel message signing', () => {
  it('signed requests carry x-signature and x-key; the sandbox refuses a tampered or unsigned body', async () => {
    const base = await account();
    const acct = { ...base, settings: { ...base.settings, signing: 'on' } };
    const { client, seen } = isolatedClient(acct);
    book().queue.push('success');
    const ok = await client.ussdPush!({ reference: 'R26010100000003AA', phone: '255780000004', amount: 2_000_00 });
    expect(ok.status).toBe('pending');
    const push = seen.find((s) => s.url.endsWith('/merchant/v2/payments/'))!;
    expect(push.headers['x-signature']).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(push.headers['x-key'], 'base64')).toHaveLength(256);
    expect(await operatorRows(t, 'R26010100000003AA')).toHaveLength(1);

    // The body changed after signing (another amount): Airtel's Forbidden, nothing opened.
    const tampered = isolatedClient(acct, (url, init) =>
      url.includes('/payments/') && init?.body ? { ...init, body: init.body.replace('"amount":2000', '"amount":9000') } : undefined,
    ).client;
    await expect(tampered.ussdPush!({ reference: 'R26010100000004AA', phone: '255780000004', amount: 2_000_00 })).rejects.toMatchObject({ code: 'DP00800001026' });
    // The signed API without a signature.
    const unsigned = isolatedClient(acct, (url, init) => {
      if (!url.includes('/payments/')) return undefined;
      const { 'x-signature': _s, 'x-key': _k, ...headers } = init!.headers!;
      return { ...init, headers };
    }).client;
    await expect(unsigned.ussdPush!({ reference: 'R26010100000005AA', phone: '255780000004', amount: 2_000_00 })).rejects.toMatchObject({ code: 'DP00800001026' });
    expect(await operatorRows(t, 'R26010100000004AA')).toEqual([]);
    expect(await operatorRows(t, 'R26010100000005AA')).toEqual([]);
    // A signed disbursement whose body was altered after signing.
    const alteredPayout = isolatedClient(acct, (url, init) =>
      url.includes('/disbursements/') && init?.body ? { ...init, body: init.body.replace('"msisdn":"780000005"', '"msisdn":"780000666"') } : undefined,
    ).client;
    await expect(alteredPayout.disburse({ reference: 'W26010100000006AA', phone: '255780000005', amount: 1_000_00 })).resolves.toMatchObject({
      status: 'failed', reason: expect.stringContaining('DP00900001016'),
    });
    expect(await operatorRows(t, 'W26010100000006AA')).toEqual([]);
  });

  it('with signing on in our account, deposits and payouts go through signed', async () => {
    const [row] = await db().select().from(paymentProviders).where(eq(paymentProviders.provider, 'airtel'));
    await db().update(paymentProviders).set({ settings: { ...row.settings, signing: 'on' } }).where(eq(paymentProviders.provider, 'airtel'));
    rt.reload();
    try {
      const b = await makePayer(t, w.agentA, 10_000_00);
      book().queue.push('success', 'success');
      book().ussdAnswers.push('pin');
      const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 1_000_00, channel: 'ussd' });
      const x = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount: 2_000_00, phone: airtelPhone() });
      await approveWithdrawal(t.ctx, actor, x.id);
      await disbursed(t);
      await clock.runAll();
      expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
      expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
    } finally {
      await db().update(paymentProviders).set({ settings: row.settings }).where(eq(paymentProviders.provider, 'airtel'));
      rt.reload();
    }
  });
});

describe('Airtel statuses and codes', () => {
  /** What each documented status and code must mean to us (an independent statement of the mapping). */
  const STATUS: Record<string, string> = { TS: 'success', TF: 'failed', TA: 'unknown', TIP: 'pending', TE: 'failed' };
  const COLLECTION: Record<string, string> = {
    DP00800001000: 'unknown', DP00800001001: 'success', DP00800001002: 'failed', DP00800001003: 'failed', DP00800001004: 'failed',
    DP00800001005: 'failed', DP00800001006: 'pending', DP00800001007: 'failed', DP00800001008: 'failed', DP00800001009: 'failed',
    DP00800001010: 'failed', DP00800001024: 'unknown', DP00800001025: 'unknown', DP00800001026: 'failed', DP00800001029: 'failed',
  };
  const DISBURSEMENT: Record<string, string> = {
    DP00900001000: 'unknown', DP00900001001: 'success', DP00900001003: 'failed', DP00900001004: 'failed', DP00900001005: 'failed',
    DP00900001006: 'pending', DP00900001007: 'failed', DP00900001009: 'failed', DP00900001010: 'failed', DP00900001011: 'unknown',
    DP00900001012: 'failed', DP00900001013: 'failed', DP00900001014: 'unknown', DP00900001015: 'unknown', DP00900001016: 'failed',
    DP00900001017: 'unknown',
  };

  it('the tables hold exactly the documented statuses and codes', () => {
    expect(Object.keys(TRANSACTION_STATUSES).sort()).toEqual(Object.keys(STATUS).sort());
    expect(Object.keys(COLLECTION_CODES).sort()).toEqual(Object.keys(COLLECTION).sort());
    expect(Object.keys(DISBURSEMENT_CODES).sort()).toEqual(Object.keys(DISBURSEMENT).sort());
  });

  /** An Airtel that answers one enquiry with the given status and code. */
  function answering(status: string | undefined, code: string | undefined) {
    const fetch: FetchLike = async (url) =>
      url.endsWith('/auth/oauth2/token')
        ? Response.json({ access_token: 'tkn', expires_in: '180', token_type: 'bearer' })
        : Response.json({
            ...(status ? { data: { transaction: { id: 'x', status, message: 'm', airtel_money_id: 'AM1' } } } : {}),
            status: { code: '200', message: 'SUCCESS', result_code: 'ESB000010', response_code: code, success: true },
          });
    const acct: ProviderAccount = { provider: 'airtel', baseUrl: 'https://airtel.example', settings: {}, secrets: { client_id: 'a', client_secret: 'b' } };
    return airtel.client({ payType: AIRTEL, account: async () => acct, fetch, now: () => 0, callbackUrl: '', log: () => {} });
  }

  it.each(Object.entries(STATUS))('transaction status %s → %s, in the enquiry of a collection and of a payout', async (status, want) => {
    expect(outcomeOf('collect', status, undefined).status).toBe(want);
    expect((await answering(status, undefined).queryStatus('R26010100000009AA')).status).toBe(want);
    expect((await answering(status, undefined).queryStatus('W26010100000009AA')).status).toBe(want);
  });

  it.each(Object.entries(COLLECTION))('collection code %s → %s', async (code, want) => {
    expect(outcomeOf('collect', undefined, code).status).toBe(want);
    const q = await answering(undefined, code).queryStatus('R26010100000009AA');
    expect(q.status).toBe(want);
    if (want === 'failed') expect(q.reason).toContain(code);
  });

  it.each(Object.entries(DISBURSEMENT))('disbursement code %s → %s', async (code, want) => {
    expect(outcomeOf('disburse', undefined, code).status).toBe(want);
    const q = await answering(undefined, code).queryStatus('W26010100000009AA');
    expect(q.status).toBe(want);
    if (want === 'failed') expect(q.reason).toContain(code);
  });

  it('a status and a code that disagree, or anything undocumented, is "unknown", never "failed"', async () => {
    expect(outcomeOf('collect', 'TS', 'DP00800001007').status).toBe('unknown');
    expect(outcomeOf('collect', 'TF', 'DP00800001001').status).toBe('unknown');
    expect(outcomeOf('collect', 'TF', 'DP00800001024').status).toBe('unknown');
    expect(outcomeOf('disburse', 'TIP', 'DP00900001001').status).toBe('pending');
    expect(outcomeOf('disburse', 'TS', 'DP00900001001').status).toBe('success');
    expect(outcomeOf('disburse', 'TF', 'DP00900001007')).toMatchObject({ status: 'failed', reason: expect.stringContaining('Insufficient Funds') });
    expect(outcomeOf('collect', 'XX', undefined).status).toBe('unknown');
    expect(outcomeOf('collect', undefined, 'DP99999999999').status).toBe('unknown');
    expect(outcomeOf('collect', undefined, undefined).status).toBe('unknown');
    expect((await answering(undefined, undefined).queryStatus('R26010100000009AA')).status).toBe('unknown');
  });
});

describe('Airtel over a real socket', () => {
  it('a deposit and a payout through the sandbox listening on a port', async () => {
    const server = rt.sandboxServer();
    const address = await server.listen({ port: 0, host: '127.0.0.1' });
    await db().update(paymentProviders).set({ baseUrl: `${address}/airtel` }).where(eq(paymentProviders.provider, 'airtel'));
    rt.reload();
    try {
      expect((await account()).baseUrl).toBe(`${address}/airtel`);
      const b = await makePayer(t, w.agentA, 10_000_00);
      book().queue.push('success', 'success');
      book().ussdAnswers.push('pin');
      const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 3_000_00, channel: 'ussd' });
      expect(r.carrierOrderNumber).toBe(r.serialNumber);
      const x = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount: 4_000_00, phone: airtelPhone() });
      await approveWithdrawal(t.ctx, actor, x.id);
      await disbursed(t);
      expect((await loadWithdrawal(x.id)).carrierOrderNumber).toMatch(/^AM/);
      await clock.runAll();
      expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.paid);
      expect((await loadWithdrawal(x.id)).status).toBe(WITHDRAWAL_STATUS.paid);
      expect((await requeryRecharge(db(), actor, r.id).catch((e) => e)).status).toBe(409);
      expect(await balanceOf(t, b.id)).toMatchObject({ cashBalance: 9_000_00 });
    } finally {
      await db().update(paymentProviders).set({ baseUrl: null }).where(eq(paymentProviders.provider, 'airtel'));
      rt.reload();
      server.server.closeAllConnections();
      await new Promise<void>((resolve) => server.server.close(() => resolve()));
    }
  });
});
