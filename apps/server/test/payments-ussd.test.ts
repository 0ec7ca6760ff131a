import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BILL_TYPE, PAY_STATUS, PAY_TYPE, RECHARGE_CHANNEL, enumLabel } from '@dau/domain';
import { paymentCallbacks, recharges } from '../src/schema.js';
import { HOUSE, checkInvariants } from '../src/modules/money/ledger.js';
import { houseEntries } from '../src/schema.js';
import type { ManualScheduler } from '../src/modules/payments/operators.js';
import { USSD_FAILURE_REASONS, USSD_PROMPT_TIMEOUT_MS } from '../src/modules/payments/sandbox/engine.js';
import type { PaymentRuntime } from '../src/modules/payments/callbacks.js';
import { startRecharge } from '../src/modules/payments/recharges.js';
import { simulatePayments } from '../src/modules/payments/simulate.js';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { PAYMENT_KEYS, balanceOf, billsOf, grantKeys, makePayer, manualClock } from './payments-fixtures.js';

/**
 * The USSD push deposit channel (issue 17, bill 11): the operator pushes a PIN prompt to the bettor's
 * handset; the sandbox's subscriber enters the PIN, cancels, enters a wrong PIN or lets the session expire.
 * A confirmed push is credited once with bill 11 "USSD deposit" (not bill 4), against the operator's
 * clearing account; the recharge says its channel in the lists and the export.
 */

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let agentB: string;
let clock: ManualScheduler;
let rt: PaymentRuntime;
/** Tigo Pesa through the aggregator: a push whose outcome comes by callback (M-Pesa's OpenAPI answers within the call). */
const TIGO = 3;
const AIRTEL = 4;
const db = () => t.database.db;
const sandbox = (p: number) => rt.sandbox(p);

beforeAll(async () => {
  t = await createTestApp({ sandboxRoutes: true });
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, PAYMENT_KEYS);
  root = await t.login('admin', ADMIN_PASSWORD);
  agentB = await t.login('agent_b');
  ({ clock, rt } = manualClock(t));
});
afterAll(() => t?.close());

afterEach(async () => {
  await clock.runAll();
  expect(await checkInvariants(db())).toEqual([]);
  for (const p of [TIGO, AIRTEL]) {
    sandbox(p).queue.length = 0;
    sandbox(p).behaviour = null;
    sandbox(p).ussdAnswers.length = 0;
    sandbox(p).ussdAnswer = null;
  }
});

async function loadRecharge(id: number) {
  const [r] = await db().select().from(recharges).where(eq(recharges.id, id));
  return r;
}

describe('USSD push deposits', () => {
  it('credits a confirmed push once with bill 11 against the operator clearing account, duplicates and late callbacks included', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('duplicate');
    sandbox(TIGO).ussdAnswers.push('pin');
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 15_000_00, channel: 'ussd' });
    expect(r.channel).toBe(RECHARGE_CHANNEL.ussd);
    expect(r.payStatus).toBe(PAY_STATUS.processing);
    expect(r.carrierOrderNumber).toBeTruthy();
    // The operator holds a pending collection for our reference while the prompt is on the handset.
    expect((await sandbox(TIGO).transaction(r.serialNumber))?.status).toBe('pending');
    expect((await balanceOf(t, b.id)).cashBalance).toBe(0);

    await clock.runAll();
    const paid = await loadRecharge(r.id);
    expect(paid.payStatus).toBe(PAY_STATUS.paid);
    const [cb] = await db().select().from(paymentCallbacks).where(eq(paymentCallbacks.reference, r.serialNumber));
    expect(cb.duplicates).toBe(1);
    const ussd = await billsOf(t, b.id, BILL_TYPE.ussd_deposit);
    expect(ussd).toHaveLength(1);
    expect(ussd[0]).toMatchObject({ amount: 15_000_00, balanceBefore: 0, balanceAfter: 15_000_00, causeType: 'recharge', causeId: String(r.id) });
    // The remark is a kind and its parameters, read in the reader's language (issue 23).
    expect(ussd[0]).toMatchObject({ remarkKind: 'ussd_deposit', remarkParams: { serial: r.serialNumber } });
    expect(await billsOf(t, b.id, BILL_TYPE.user_recharge)).toHaveLength(0);
    const [entry] = await db().select().from(houseEntries).where(eq(houseEntries.txnId, ussd[0].txnId));
    expect(entry).toMatchObject({ account: HOUSE.clearing(TIGO), amount: -15_000_00, billType: BILL_TYPE.ussd_deposit });
    expect((await balanceOf(t, b.id)).totalRecharge).toBe(15_000_00);

    // A later notification (the provider's own format, through the route): recorded, nothing more credited.
    const txn = (await sandbox(TIGO).transaction(r.serialNumber))!;
    const notice = (await sandbox(TIGO).callbackFor({ ...txn, extra: { ...txn.extra, notice: 'late' } }, 9))!;
    const late = await t.call('POST', `/api/v1/payments/callback/${TIGO}`, { headers: notice.headers, body: notice.body });
    expect(late.status).toBe(200);
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(15_000_00);
  });

  it.each([
    // Airtel words the outcome itself: its documented code is what the reason must carry.
    ['cancel', 'DP00800001008'],
    ['wrong_pin', 'DP00800001002'],
  ] as const)('a prompt answered with %s voids the recharge and credits nothing', async (answer, reason) => {
    const b = await makePayer(t, w.agentA);
    sandbox(AIRTEL).queue.push('success');
    sandbox(AIRTEL).ussdAnswers.push(answer);
    const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount: 3_000_00, channel: 'ussd' });
    await clock.runAll();
    const done = await loadRecharge(r.id);
    expect(done.payStatus).toBe(PAY_STATUS.voided);
    expect(done.failReason).toContain(reason);
    expect(await billsOf(t, b.id)).toHaveLength(0);
    expect((await balanceOf(t, b.id)).cashBalance).toBe(0);
  });

  it('a prompt left unanswered stays processing until the USSD session expires, then fails', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('success');
    sandbox(TIGO).ussdAnswers.push('no_answer');
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 2_000_00, channel: 'ussd' });
    await clock.advance(USSD_PROMPT_TIMEOUT_MS - 1);
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.processing);
    await clock.runAll();
    const done = await loadRecharge(r.id);
    expect(done.payStatus).toBe(PAY_STATUS.voided);
    expect(done.failReason).toContain(USSD_FAILURE_REASONS.no_answer);
    expect(await billsOf(t, b.id)).toHaveLength(0);
  });

  it('a push whose callback never comes is settled by re-query with bill 11, once', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('no_callback');
    sandbox(TIGO).ussdAnswers.push('pin');
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 4_000_00, channel: 'ussd' });
    await clock.runAll();
    expect((await loadRecharge(r.id)).payStatus).toBe(PAY_STATUS.processing);
    const first = await t.call('POST', `/api/v1/money/recharges/${r.id}/requery`, { token: root });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ pay_status: PAY_STATUS.paid, recharge_channel: RECHARGE_CHANNEL.ussd });
    const again = await t.call('POST', `/api/v1/money/recharges/${r.id}/requery`, { token: root });
    expect(again.status).toBe(409);
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);
  });

  it('an app request is still bill 4, and USDT has no USSD channel', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('success');
    const r = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 1_000_00 });
    expect(r.channel).toBe(RECHARGE_CHANNEL.app);
    await clock.runAll();
    expect(await billsOf(t, b.id, BILL_TYPE.user_recharge)).toHaveLength(1);
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(0);
    if (rt.operators.has(PAY_TYPE.usdt as never)) {
      await expect(startRecharge(db(), { bettorId: b.id, payType: PAY_TYPE.usdt, amount: 1_000_00, channel: 'ussd' })).rejects.toMatchObject({ status: 400 });
    }
  });

  it('the recharge list shows and filters the channel, and the bills list shows "USSD deposit" in three languages', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(TIGO).queue.push('success', 'success');
    sandbox(TIGO).ussdAnswers.push('pin');
    const viaUssd = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 5_000_00, channel: 'ussd' });
    const viaApp = await startRecharge(db(), { bettorId: b.id, payType: TIGO, amount: 6_000_00 });
    await clock.runAll();

    const all = await t.call('GET', `/api/v1/money/recharges?bettor_id=${b.id}`, { token: root });
    expect(all.status).toBe(200);
    const byId = new Map(all.body.items.map((x: { id: number; recharge_channel: number }) => [x.id, x.recharge_channel]));
    expect(byId.get(viaUssd.id)).toBe(RECHARGE_CHANNEL.ussd);
    expect(byId.get(viaApp.id)).toBe(RECHARGE_CHANNEL.app);
    const onlyUssd = await t.call('GET', `/api/v1/money/recharges?bettor_id=${b.id}&recharge_channel=${RECHARGE_CHANNEL.ussd}`, { token: root });
    expect(onlyUssd.body.items.map((x: { id: number }) => x.id)).toEqual([viaUssd.id]);
    const cs = await t.call('GET', `/api/v1/money/cs/recharges?bettor_id=${b.id}&recharge_channel=${RECHARGE_CHANNEL.app}`, { token: root });
    expect(cs.status).toBe(200);
    expect(cs.body.items.map((x: { id: number }) => x.id)).toEqual([viaApp.id]);
    expect((await t.call('GET', `/api/v1/money/recharges?bettor_id=${b.id}&recharge_channel=9`, { token: root })).status).toBe(400);
    // Another branch's agent does not see them, channel filter or not.
    const foreign = await t.call('GET', `/api/v1/money/recharges?bettor_id=${b.id}&recharge_channel=${RECHARGE_CHANNEL.ussd}`, { token: agentB });
    expect(foreign.status === 200 ? foreign.body.items : []).toEqual([]);

    const bills = await t.call('GET', `/api/v1/money/bills?bettor_id=${b.id}&type=${BILL_TYPE.ussd_deposit}`, { token: root });
    expect(bills.status).toBe(200);
    expect(bills.body.items).toHaveLength(1);
    expect(bills.body.items[0]).toMatchObject({ type: BILL_TYPE.ussd_deposit, amount: 5_000_00 });
    expect(enumLabel('bill_type', BILL_TYPE.ussd_deposit, 'en-US')).toBe('USSD deposit');
    for (const lang of ['sw-KE', 'zh-CN'] as const) {
      expect(enumLabel('bill_type', BILL_TYPE.ussd_deposit, lang)).not.toBe('USSD deposit');
      expect(enumLabel('recharge_channel', RECHARGE_CHANNEL.ussd, lang)).not.toBe(enumLabel('recharge_channel', RECHARGE_CHANNEL.ussd, 'en-US'));
    }
  });

  it('the sandbox route starts a USSD push for a bettor in scope', async () => {
    const b = await makePayer(t, w.agentA);
    sandbox(AIRTEL).queue.push('success');
    sandbox(AIRTEL).ussdAnswers.push('pin');
    const res = await t.call('POST', '/api/v1/sandbox/recharges', { token: root, body: { bettor_id: b.id, pay_type: AIRTEL, amount: 7_000_00, channel: 'ussd' } });
    expect(res.status).toBe(201);
    await clock.runAll();
    expect((await loadRecharge(res.body.id)).channel).toBe(RECHARGE_CHANNEL.ussd);
    expect(await billsOf(t, b.id, BILL_TYPE.ussd_deposit)).toHaveLength(1);
  });

  it('the simulator deposits by USSD push too', async () => {
    await makePayer(t, w.agentA);
    let n = 0;
    const rng = { next: () => ((n += 1), n % 2 === 0 ? 0.1 : 0.2), pick: <T,>(xs: readonly T[]) => xs[0]! };
    for (let i = 0; i < 6; i++) await simulatePayments(t.ctx, rng);
    await clock.runAll();
    const rows = await db().select({ channel: recharges.channel }).from(recharges);
    expect(rows.some((r) => r.channel === RECHARGE_CHANNEL.ussd)).toBe(true);
  });
});
