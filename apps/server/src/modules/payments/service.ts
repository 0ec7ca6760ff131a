import type { FastifyRequest } from 'fastify';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, LOG_TYPE, PAY_STATUS, PAY_TYPE, RECHARGE_CHANNEL, WITHDRAWAL_STATUS, formatAmount, validatePhone } from '@dau/domain';
import { bettors, paymentCallbacks, paymentConfig, recharges, withdrawals } from '../money/schema.js';
import { HOUSE, houseTransfer, insertHouseEntries, newSerial, newTxnId, post, postBatch, type Remark } from '../money/index.js';
import { promotionEvent, refuseWithdrawalWhileWagering } from '../promotions/index.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import { scopeCondition, type Scope } from '../../platform/listing.js';
import type { Bus, Db, Executor, Tx } from '../../platform/db.js';
import type { Jobs } from '../../platform/jobs.js';
import { admins } from '../../platform/schema.js';
import { createNotices, noticeRecipients, publishNotices, type NoticeEvent } from '../notices/index.js';
import {
  isPayType, operators, OperatorTimeoutError, SandboxOperator, TimerScheduler,
  type CallbackEvent, type Deliver, type MobileMoneyOperator, type PayType, type Scheduler,
} from './operators.js';
import { DbSandboxStore } from './sandbox-store.js';

/**
 * Recharges and withdrawals through the mobile-money operators (spec §3, §4 pay status).
 *
 * Exactly-once is carried by the database, never by an `if`:
 *  - a callback is a row keyed (pay_type, event_id): a repeat only increments `duplicates`;
 *  - every state change is ONE conditional UPDATE on the expected state (`WHERE status = <expected>`),
 *    and the money moves (post()) in the same transaction only when that UPDATE returned the row; so
 *    two callbacks, a callback and a re-query, or two admins can race and exactly one of them wins.
 * Row locks are always taken in the same order (payment row, then bettor), so these never deadlock.
 *
 * Nothing is settled by a guess: a payment the operator was asked for (a disbursement sent, or a carrier
 * order number known) whose outcome the operator cannot tell waits for reconciliation by an operator with
 * the operator's statement line (reconcileWithdrawal, reconcileRecharge), never for an automatic refund.
 */

/** The durable job that asks the operator to pay an approved withdrawal (enqueued in the approval's transaction). */
export const DISBURSE_JOB = 'payments.disburse';
/** The periodic re-query of the stuck queue. */
export const REQUERY_STUCK_JOB = 'payments.requery-stuck';
/** A disbursement unknown at the operator is asked for again at most once per this many seconds. */
const RESEND_SECONDS = 300;

// ------------------------------------------------------------------------------------------------
// Runtime: the operators and the scheduler of one database (one app).

export interface PaymentRuntime {
  operators: Map<PayType, MobileMoneyOperator>;
  scheduler: Scheduler;
  /** Replaces the scheduler (tests: a ManualScheduler); the previous one is closed. */
  setScheduler(s: Scheduler): void;
  /** How the sandboxes post their callbacks: the HTTP route once routes are installed, else the handler directly. */
  deliver: Deliver;
  operator(payType: number): MobileMoneyOperator;
  /** The sandbox of a pay type (tests, simulator): forced behaviours and disburse counts. */
  sandbox(payType: number): SandboxOperator;
  log: (msg: string, extra?: Record<string, unknown>) => void;
  /** The job queue, once the routes are installed: a re-query asks again for a disbursement the operator never received. */
  jobs?: Jobs;
}

type Logger = (msg: string, extra?: Record<string, unknown>) => void;
const runtimes = new WeakMap<object, PaymentRuntime>();

/** The payment runtime of a database (created on first use). */
export function paymentsOf(target: Db | { db: Db }): PaymentRuntime {
  const db = ('db' in target ? target.db : target) as Db;
  let rt = runtimes.get(db);
  if (rt) return rt;
  const seedEnv = Number(process.env.PAYMENTS_SANDBOX_SEED);
  const secrets: Partial<Record<PayType, string>> = {};
  for (const p of [3, 4, 6, 7] as const) {
    const s = process.env[`PAYMENTS_SANDBOX_SECRET_${p}`];
    if (s) secrets[p] = s;
  }
  const runtime: PaymentRuntime = {
    operators: new Map(),
    scheduler: new TimerScheduler((err) => runtime.log('payment task failed', { err: String(err) })),
    setScheduler(s) {
      if (s !== runtime.scheduler) runtime.scheduler.close?.();
      runtime.scheduler = s;
    },
    deliver: async (payType, headers, rawBody) => (await receiveCallback(db, payType, headers, rawBody)).status,
    operator(payType) {
      // The mobile-money operators, and any adapter another module registered (modules/tron: USDT).
      const op = runtime.operators.get(payType as PayType);
      if (!op) throw badRequest('PARAM_INVALID', [{ field: 'pay_type' }]);
      return op;
    },
    sandbox(payType) {
      const op = runtime.operator(payType);
      if (!(op instanceof SandboxOperator)) throw new Error(`pay type ${payType} is not a sandbox`);
      return op;
    },
    log: () => {},
  };
  runtime.operators = operators({
    scheduler: () => runtime.scheduler,
    deliver: (p, h, b) => runtime.deliver(p, h, b),
    seed: Number.isSafeInteger(seedEnv) ? seedEnv : undefined,
    secrets,
    log: (m, e) => runtime.log(m, e),
    // The sandboxes remember their transactions in the database, as a real operator does across our restarts.
    store: new DbSandboxStore(db),
  });
  rt = runtime;
  runtimes.set(db, rt);
  return rt;
}

// ------------------------------------------------------------------------------------------------
// Settings

export type PaymentSettings = typeof paymentConfig.$inferSelect;

export async function paymentSettings(ex: Executor): Promise<PaymentSettings> {
  const [row] = await ex.select().from(paymentConfig).where(eq(paymentConfig.id, 1));
  if (row) return row;
  await ex.insert(paymentConfig).values({ id: 1 }).onConflictDoNothing();
  const [again] = await ex.select().from(paymentConfig).where(eq(paymentConfig.id, 1));
  return again;
}

const minutesAgo = (d: Date | null | undefined, minutes: number) => !!d && Date.now() - d.getTime() >= minutes * 60_000;

function checkAmount(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw badRequest('AMOUNT_INVALID', [{ field: 'amount' }]);
}

async function loadBettor(ex: Executor, bettorId: number) {
  const [b] = await ex
    .select({ id: bettors.id, phone: bettors.phone, agentId: bettors.agentId, disabled: bettors.disabled, lastRechargeAt: bettors.lastRechargeAt })
    .from(bettors)
    .where(eq(bettors.id, bettorId));
  if (!b) throw notFound();
  if (b.disabled === 2) throw new AppError(422, 'ACCOUNT_DISABLED');
  return b;
}

/** The house clearing account of a pay type (USDT has its own: HOUSE.usdtClearing). */
const clearingOf = (payType: number) => (payType === PAY_TYPE.usdt ? HOUSE.usdtClearing : HOUSE.clearing(payType));

/**
 * Checks another module adds to the approval of its pay type's withdrawals (modules/tron: a USDT
 * withdrawal held for address poisoning is not approved until released). Run in the approval's transaction.
 */
export const approvalChecks = new Map<number, (tx: Tx, w: WithdrawalRecord) => Promise<void>>();

// ------------------------------------------------------------------------------------------------
// Recharges

export type RechargeRecord = typeof recharges.$inferSelect;
export type WithdrawalRecord = typeof withdrawals.$inferSelect;

/** The bill a credited recharge posts: a USSD push deposit is bill 11, every other channel bill 4. */
const rechargeBillType = (channel: number) => (channel === RECHARGE_CHANNEL.ussd ? BILL_TYPE.ussd_deposit : BILL_TYPE.user_recharge);

/**
 * A bettor asks to deposit through an operator (the bettor-facing path; the simulator calls it): a
 * processing recharge with a serial number, then the operator is asked to collect: by a payment request
 * from the app (channel `app`, bill 4) or by a USSD push prompt to the handset (channel `ussd`, bill 11).
 * The outcome arrives by callback (or re-query), the same for both.
 */
export async function startRecharge(
  db: Db,
  input: { bettorId: number; payType: number; amount: number; phone?: string; channel?: 'app' | 'ussd' },
): Promise<RechargeRecord> {
  checkAmount(input.amount);
  const op = paymentsOf(db).operator(input.payType);
  const ussd = input.channel === 'ussd';
  // An adapter without a USSD channel (USDT) cannot push a prompt.
  if (ussd && !op.ussdPush) throw badRequest('PARAM_INVALID', [{ field: 'pay_type' }]);
  const cfg = await paymentSettings(db);
  if (input.amount < cfg.minRecharge) throw new AppError(422, 'AMOUNT_BELOW_MINIMUM', { min: formatAmount(cfg.minRecharge) });
  const created = await db.transaction(async (tx) => {
    const b = await loadBettor(tx, input.bettorId);
    const phone = input.phone ? validatePhone(input.phone) : null;
    if (phone && !phone.ok) throw badRequest('PHONE_INVALID', [{ field: 'phone' }]);
    const [row] = await tx
      .insert(recharges)
      .values({
        serialNumber: newSerial('R'), bettorId: b.id, agentId: b.agentId, amount: input.amount, payType: input.payType,
        channel: ussd ? RECHARGE_CHANNEL.ussd : RECHARGE_CHANNEL.app,
        phone: phone?.ok ? phone.value : b.phone, payStatus: PAY_STATUS.processing, previousRechargeAt: b.lastRechargeAt,
      })
      .returning();
    return row;
  });
  try {
    const req = { reference: created.serialNumber, phone: created.phone, amount: created.amount };
    const res = ussd ? await op.ussdPush!(req) : await op.collect(req);
    const [row] = await db
      .update(recharges)
      .set({ carrierOrderNumber: res.carrierRef, updatedAt: new Date() })
      .where(and(eq(recharges.id, created.id), isNull(recharges.carrierOrderNumber)))
      .returning();
    return row ?? (await loadRecharge(db, created.id));
  } catch (err) {
    // A timeout or a transport error: the operator may or may not have the request. It stays
    // processing; the stuck queue re-queries it by our reference.
    paymentsOf(db).log('collect call failed', { serial: created.serialNumber, err: String(err) });
    return created;
  }
}

async function loadRecharge(ex: Executor, id: number) {
  const [r] = await ex.select().from(recharges).where(eq(recharges.id, id));
  if (!r) throw notFound();
  return r;
}

type Outcome = (
  | { status: 'success'; carrierRef?: string; amount?: number }
  | { status: 'failed'; reason: string; carrierRef?: string }
  | { status: 'timed_out'; reason: string; carrierRef?: string }
) & { /** The admin who decided it (a reconciliation), for the bill. */ adminId?: number };

export interface SettleResult {
  ok: boolean;
  /** Whether this call changed the record (false: it was already final, or nothing to do). */
  changed: boolean;
  reason?: string;
}

/** Credits a recharge exactly once, or voids it; in the caller's transaction. */
async function settleRecharge(tx: Tx, r: RechargeRecord, outcome: Outcome, log: Logger): Promise<SettleResult> {
  if (outcome.status === 'success') {
    if (outcome.amount !== undefined && outcome.amount !== r.amount) {
      // Never credit an amount the operator does not confirm: it stays processing for an operator to look at.
      const cause = `Amount mismatch: the operator reported ${formatAmount(outcome.amount)}`;
      await tx
        .update(recharges)
        .set({ failReason: cause, reconcileSince: sql`coalesce(${recharges.reconcileSince}, now())`, reconcileCause: cause, updatedAt: new Date() })
        .where(and(eq(recharges.id, r.id), eq(recharges.payStatus, PAY_STATUS.processing)));
      log('recharge amount mismatch', { serial: r.serialNumber, reported: outcome.amount });
      return { ok: false, changed: false, reason: 'amount_mismatch' };
    }
    const [won] = await tx
      .update(recharges)
      .set({
        payStatus: PAY_STATUS.paid, paidAt: sql`now()`, failReason: null, updatedAt: new Date(),
        carrierOrderNumber: sql`coalesce(${recharges.carrierOrderNumber}, ${outcome.carrierRef ?? null})`,
      })
      .where(and(eq(recharges.id, r.id), eq(recharges.payStatus, PAY_STATUS.processing)))
      .returning();
    if (!won) return { ok: true, changed: false };
    await post(tx, {
      bettorId: won.bettorId, account: ACCOUNT_KIND.cash, amount: won.amount, type: rechargeBillType(won.channel),
      cause: { type: 'recharge', id: won.id }, house: clearingOf(won.payType), adminId: outcome.adminId,
      remark: { kind: won.channel === RECHARGE_CHANNEL.ussd ? 'ussd_deposit' : 'recharge', params: { serial: won.serialNumber } },
    });
    await promotionEvent(tx, { kind: 'deposit', bettorId: won.bettorId, amount: won.amount, rechargeId: won.id });
    await tx
      .update(bettors)
      .set({
        totalRecharge: sql`${bettors.totalRecharge} + ${won.amount}`,
        // now() is the transaction's time: the same instant as the recharge's paid_at.
        lastRechargeAt: sql`greatest(coalesce(${bettors.lastRechargeAt}, now()), now())`,
      })
      .where(eq(bettors.id, won.bettorId));
    return { ok: true, changed: true };
  }
  const [voided] = await tx
    .update(recharges)
    .set({
      payStatus: PAY_STATUS.voided, failReason: outcome.reason.slice(0, 300), updatedAt: new Date(),
      carrierOrderNumber: sql`coalesce(${recharges.carrierOrderNumber}, ${outcome.carrierRef ?? null})`,
    })
    .where(and(eq(recharges.id, r.id), eq(recharges.payStatus, PAY_STATUS.processing)))
    .returning();
  return { ok: true, changed: !!voided };
}

/**
 * A recharge whose money has already arrived (USDT on chain, modules/tron): recorded and credited in the
 * caller's transaction, once. `carrierRef` (the transfer's fingerprint) is the carrier order number, unique
 * per pay type: a second call with it inserts nothing and answers null. A disabled bettor is credited too
 * (the money is ours to hold for them).
 */
export async function recordReceivedRecharge(
  tx: Tx,
  input: { bettorId: number; payType: number; amount: number; carrierRef: string },
): Promise<RechargeRecord | null> {
  checkAmount(input.amount);
  const [b] = await tx
    .select({ id: bettors.id, phone: bettors.phone, agentId: bettors.agentId, lastRechargeAt: bettors.lastRechargeAt })
    .from(bettors)
    .where(eq(bettors.id, input.bettorId));
  if (!b) throw notFound();
  const [row] = await tx
    .insert(recharges)
    .values({
      serialNumber: newSerial('R'), bettorId: b.id, agentId: b.agentId, amount: input.amount, payType: input.payType, phone: b.phone,
      channel: RECHARGE_CHANNEL.chain, carrierOrderNumber: input.carrierRef, payStatus: PAY_STATUS.processing, previousRechargeAt: b.lastRechargeAt,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return null;
  await settleRecharge(tx, row, { status: 'success' }, () => {});
  return loadRecharge(tx, row.id);
}

/**
 * Many received recharges at once (the chain watcher's block: up to thousands of deposits), in the caller's
 * transaction, with the same effect as recordReceivedRecharge for each: one recharge per carrier reference
 * (the unique key: references already recorded are skipped), paid, the bettor's balance and totals moved
 * once per bettor, one bill per recharge with its balance before and after (several for one bettor in
 * order), the journal's counter-entry on the pay type's clearing account. Set-based: a handful of
 * statements for the whole batch. Answers the recharges made, by carrier reference.
 */
export async function recordReceivedRecharges(
  tx: Tx,
  items: { bettorId: number; payType: number; amount: number; carrierRef: string }[],
): Promise<Map<string, { id: number; serialNumber: string; amount: number }>> {
  const out = new Map<string, { id: number; serialNumber: string; amount: number }>();
  if (!items.length) return out;
  for (const it of items) checkAmount(it.amount);
  const found = await tx
    .select({ id: bettors.id, phone: bettors.phone, agentId: bettors.agentId, lastRechargeAt: bettors.lastRechargeAt })
    .from(bettors)
    .where(inArray(bettors.id, [...new Set(items.map((i) => i.bettorId))]));
  const byId = new Map(found.map((b) => [b.id, b]));
  const made: (typeof recharges.$inferSelect)[] = [];
  for (let i = 0; i < items.length; i += 1000) {
    const rows = items.slice(i, i + 1000).flatMap((it) => {
      const b = byId.get(it.bettorId);
      return b
        ? [{
            serialNumber: newSerial('R'), bettorId: b.id, agentId: b.agentId, amount: it.amount, payType: it.payType, phone: b.phone,
            channel: RECHARGE_CHANNEL.chain, carrierOrderNumber: it.carrierRef, payStatus: PAY_STATUS.paid, paidAt: sql`now()`, previousRechargeAt: b.lastRechargeAt,
          }]
        : [];
    });
    if (rows.length) made.push(...(await tx.insert(recharges).values(rows as never).onConflictDoNothing().returning()));
  }
  if (!made.length) return out;
  // The money through the one ledger: one bill per recharge in the order made (a bettor's several chain),
  // balances moved once per bettor with the bettors locked in id order, the clearing account's counter-entries.
  const house = await postBatch(
    tx,
    made.map((r) => ({
      bettorId: r.bettorId, account: ACCOUNT_KIND.cash, amount: Number(r.amount), type: BILL_TYPE.user_recharge, house: clearingOf(r.payType),
      causeId: String(r.id), adminId: null, remark: { kind: 'recharge' as const, params: { serial: r.serialNumber } }, txnId: newTxnId(),
    })),
    'recharge',
  );
  await insertHouseEntries(tx, house);
  // The bettors' recharge totals (not money: what the bettor lists and promotions read).
  const perBettor = new Map<number, number>();
  for (const r of made) perBettor.set(r.bettorId, (perBettor.get(r.bettorId) ?? 0) + Number(r.amount));
  const totals = [...perBettor].map(([id, amount]) => sql`(${id}::int, ${amount}::bigint)`);
  await tx.execute(sql`
    UPDATE bettors b SET total_recharge = b.total_recharge + d.amount, last_recharge_at = greatest(coalesce(b.last_recharge_at, now()), now())
    FROM (VALUES ${sql.join(totals, sql`, `)}) AS d(id, amount) WHERE b.id = d.id`);
  for (const r of made) out.set(r.carrierOrderNumber!, { id: r.id, serialNumber: r.serialNumber, amount: Number(r.amount) });
  for (const r of made) await promotionEvent(tx, { kind: 'deposit', bettorId: r.bettorId, amount: Number(r.amount), rechargeId: r.id });
  return out;
}

// ------------------------------------------------------------------------------------------------
// Callbacks

export interface CallbackAnswer {
  ok: boolean;
  duplicate?: boolean;
  reason?: string;
}

/**
 * Records a verified callback and applies it. The callback row and the money movement commit together:
 * a repeat of the same event finds the row and only counts itself; a different event for a settled
 * transaction finds it no longer in the expected state and changes nothing.
 */
export async function applyCallback(db: Db, ev: CallbackEvent): Promise<CallbackAnswer> {
  const log = paymentsOf(db).log;
  return db.transaction(async (tx) => {
    const fresh = await tx
      .insert(paymentCallbacks)
      .values({ payType: ev.payType, eventId: ev.eventId, kind: ev.kind, reference: ev.reference, payload: ev.payload })
      .onConflictDoNothing()
      .returning({ id: paymentCallbacks.id });
    if (!fresh.length) {
      await tx
        .update(paymentCallbacks)
        .set({ duplicates: sql`${paymentCallbacks.duplicates} + 1` })
        .where(and(eq(paymentCallbacks.payType, ev.payType), eq(paymentCallbacks.eventId, ev.eventId)));
      return { ok: true, duplicate: true };
    }
    const outcome: Outcome =
      ev.status === 'success'
        ? { status: 'success', carrierRef: ev.carrierRef, amount: ev.amount }
        : { status: 'failed', reason: ev.reason ?? 'Failed at the operator', carrierRef: ev.carrierRef };
    if (ev.kind === 'collect') {
      const [r] = await tx
        .update(recharges)
        .set({ callbackCount: sql`${recharges.callbackCount} + 1` })
        .where(and(eq(recharges.serialNumber, ev.reference), eq(recharges.payType, ev.payType)))
        .returning();
      if (!r) return { ok: false, reason: 'unknown_reference' };
      const res = await settleRecharge(tx, r, outcome, log);
      if (!res.changed && res.ok && r.payStatus !== (ev.status === 'success' ? PAY_STATUS.paid : PAY_STATUS.voided)) {
        log('callback disagrees with a settled recharge', { serial: r.serialNumber, callback: ev.status, payStatus: r.payStatus });
      }
      return { ok: res.ok, reason: res.reason };
    }
    const [w] = await tx
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.serialNumber, ev.reference), eq(withdrawals.payType, ev.payType)));
    if (!w) return { ok: false, reason: 'unknown_reference' };
    const res = await settleWithdrawal(tx, w, outcome, log);
    if (!res.changed && w.status !== WITHDRAWAL_STATUS.disbursing) {
      const agrees = (ev.status === 'success') === (w.status === WITHDRAWAL_STATUS.paid);
      if (!agrees) log('callback disagrees with a settled withdrawal: reconcile by hand', { serial: w.serialNumber, callback: ev.status, status: w.status });
    }
    return { ok: res.ok, reason: res.reason };
  });
}

/** The callback route's work: the operator verifies the signature, then the event is applied. */
export async function receiveCallback(
  db: Db,
  payType: number,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
): Promise<{ status: 200; body: CallbackAnswer }> {
  const rt = paymentsOf(db);
  const op = isPayType(payType) ? rt.operators.get(payType) : undefined;
  if (!op) throw notFound();
  const ev = op.verifyCallback(headers, rawBody);
  if (!ev) throw new AppError(401, 'CALLBACK_SIGNATURE_INVALID');
  return { status: 200, body: await applyCallback(db, ev) };
}

// ------------------------------------------------------------------------------------------------
// Withdrawals

/** A bettor asks to withdraw: the amount is held at once (bill user_withdrawal, negative). */
export async function requestWithdrawal(db: Db, input: { bettorId: number; payType: number; amount: number; phone?: string }): Promise<WithdrawalRecord> {
  checkAmount(input.amount);
  paymentsOf(db).operator(input.payType);
  const cfg = await paymentSettings(db);
  if (input.amount < cfg.minWithdrawal || input.amount > cfg.maxWithdrawal) {
    throw new AppError(422, 'AMOUNT_OUT_OF_RANGE', { min: formatAmount(cfg.minWithdrawal), max: formatAmount(cfg.maxWithdrawal) });
  }
  return db.transaction(async (tx) => {
    const b = await loadBettor(tx, input.bettorId);
    // Bonus terms (promotions): no withdrawal while an active bonus grant's wagering requirement is not met.
    await refuseWithdrawalWhileWagering(tx, b.id);
    const phone = input.phone ? validatePhone(input.phone) : null;
    if (phone && !phone.ok) throw badRequest('PHONE_INVALID', [{ field: 'phone' }]);
    const [w] = await tx
      .insert(withdrawals)
      .values({
        serialNumber: newSerial('W'), bettorId: b.id, agentId: b.agentId, amount: input.amount, payType: input.payType,
        phone: phone?.ok ? phone.value : b.phone, status: WITHDRAWAL_STATUS.pending_review, payStatus: PAY_STATUS.processing,
        previousRechargeAt: b.lastRechargeAt,
      })
      .returning();
    // INSUFFICIENT_BALANCE rolls the whole request back: no withdrawal without its hold.
    await post(tx, {
      bettorId: b.id, account: ACCOUNT_KIND.cash, amount: -input.amount, type: BILL_TYPE.user_withdrawal,
      cause: { type: 'withdrawal', id: w.id }, house: HOUSE.withdrawalsClearing, remark: { kind: 'withdrawal', params: { serial: w.serialNumber } },
    });
    return w;
  });
}

/** What the bill of a withdrawal's money coming back says (issue 23: a kind; the failure's reason as its text). */
const ROLLBACK_REMARK: Record<'failed' | 'timed_out', (w: WithdrawalRecord, reason: string) => Remark> = {
  failed: (w, reason) => ({ kind: 'withdrawal_failed', params: { serial: w.serialNumber }, text: reason.slice(0, 500) }),
  timed_out: (w) => ({ kind: 'withdrawal_timed_out', params: { serial: w.serialNumber } }),
};

/** Pays or rolls back a disbursing withdrawal exactly once; in the caller's transaction. */
async function settleWithdrawal(tx: Tx, w: WithdrawalRecord, outcome: Outcome, log: Logger): Promise<SettleResult> {
  const expected = and(eq(withdrawals.id, w.id), eq(withdrawals.status, WITHDRAWAL_STATUS.disbursing));
  const carrier = sql`coalesce(${withdrawals.carrierOrderNumber}, ${outcome.carrierRef ?? null})`;
  if (outcome.status === 'success') {
    if (outcome.amount !== undefined && outcome.amount !== w.amount) {
      // Never settle an amount the operator does not confirm: it waits for reconciliation.
      await tx
        .update(withdrawals)
        .set({ reconcileSince: sql`coalesce(${withdrawals.reconcileSince}, now())`, reconcileCause: `Amount mismatch: the operator reported ${formatAmount(outcome.amount)}`, updatedAt: new Date() })
        .where(expected);
      log('withdrawal amount mismatch', { serial: w.serialNumber, reported: outcome.amount });
      return { ok: false, changed: false, reason: 'amount_mismatch' };
    }
    const [won] = await tx
      .update(withdrawals)
      .set({ status: WITHDRAWAL_STATUS.paid, payStatus: PAY_STATUS.paid, paidAt: sql`now()`, failReason: null, carrierOrderNumber: carrier, updatedAt: new Date() })
      .where(expected)
      .returning();
    if (!won) return { ok: true, changed: false };
    await tx.update(bettors).set({ totalWithdrawal: sql`${bettors.totalWithdrawal} + ${won.amount}` }).where(eq(bettors.id, won.bettorId));
    // The held money has left through the operator: from withdrawals clearing to the operator's account.
    await houseTransfer(tx, newTxnId(), HOUSE.withdrawalsClearing, clearingOf(won.payType), won.amount, BILL_TYPE.user_withdrawal);
    return { ok: true, changed: true };
  }
  const status = outcome.status === 'failed' ? WITHDRAWAL_STATUS.failed : WITHDRAWAL_STATUS.timed_out;
  const [lost] = await tx
    .update(withdrawals)
    .set({ status, payStatus: PAY_STATUS.voided, failReason: outcome.reason.slice(0, 300), carrierOrderNumber: carrier, updatedAt: new Date() })
    .where(expected)
    .returning();
  if (!lost) return { ok: true, changed: false };
  await post(tx, {
    bettorId: lost.bettorId, account: ACCOUNT_KIND.cash, amount: lost.amount, type: BILL_TYPE.amount_rolled_back,
    cause: { type: 'withdrawal', id: lost.id }, house: HOUSE.withdrawalsClearing, remark: ROLLBACK_REMARK[outcome.status](lost, outcome.reason),
    adminId: outcome.adminId,
  });
  return { ok: true, changed: true };
}

export interface Actor {
  adminId: number;
  scope: Scope;
  /** The request, for the audit row (null for system work). */
  req: FastifyRequest | null;
}

async function loadScopedWithdrawal(ex: Executor, id: number, scope: Scope, opts: { payType?: number } = {}) {
  const [w] = await ex
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.id, id), scopeCondition(scope, withdrawals.agentId), opts.payType ? eq(withdrawals.payType, opts.payType) : undefined));
  if (!w) throw notFound();
  return w;
}

async function loadScopedRecharge(ex: Executor, id: number, scope: Scope, opts: { payType?: number } = {}) {
  const [r] = await ex
    .select()
    .from(recharges)
    .where(and(eq(recharges.id, id), scopeCondition(scope, recharges.agentId), opts.payType ? eq(recharges.payType, opts.payType) : undefined));
  if (!r) throw notFound();
  return r;
}

const auditView = (w: WithdrawalRecord | RechargeRecord) => ({ ...w });

/** What an approval needs: the database, the job queue the disbursement is enqueued on, and the bus the notices go out on. */
export interface PaymentsCtx {
  db: Db;
  jobs: Jobs;
  /** Where the second-approval notices are published after the commit (absent: stored, and seen at the console's next load). */
  bus?: Bus;
}

/**
 * Who may give a large withdrawal its second approval: the enabled super admins and the enabled admins
 * whose role holds withdraw_list's approve button and whose data scope holds the withdrawal's agent (the
 * same `can` and `scopeOf` the approve route applies), except the first approver, who may not.
 */
export async function secondApprovers(tx: Tx, w: Pick<WithdrawalRecord, 'agentId' | 'firstApproverId'>): Promise<number[]> {
  return (await noticeRecipients(tx, 'withdraw_list:approve', { agentId: w.agentId, except: w.firstApproverId })).map((a) => a.id);
}

/** The second-approval notice, in the three languages of the console (admins have no language of their own on the server). */
function secondApprovalText(w: WithdrawalRecord, firstApprover: string): string {
  const amount = formatAmount(w.amount);
  return [
    `Large withdrawal awaiting a second approval: ${w.serialNumber}, TSh ${amount}, first approved by ${firstApprover}. Approve or refuse it in the withdrawal list.`,
    `Utoaji mkubwa unasubiri idhini ya pili: ${w.serialNumber}, TSh ${amount}, umeidhinishwa kwanza na ${firstApprover}. Uidhinishe au uukatae kwenye orodha ya utoaji.`,
    `大额提款等待二次审批：${w.serialNumber}，TSh ${amount}，首次审批人 ${firstApprover}。请在提款列表中审批或拒绝。`,
  ].join('\n');
}

/**
 * Approves a withdrawal: pending review → (over the large amount: awaiting a second approval; else
 * disbursing); awaiting a second approval → disbursing, only by a different admin. Each step is one
 * conditional UPDATE on the state read: of two concurrent approvals one wins and the other gets 409. The
 * step to disbursing enqueues the `payments.disburse` job in the same transaction, so an approval never
 * commits without its disbursement, and a crash after the commit only delays it (runDisbursement).
 */
export async function approveWithdrawal({ db, jobs, bus }: PaymentsCtx, actor: Actor, id: number): Promise<WithdrawalRecord> {
  let events: NoticeEvent[] = [];
  const approved = await db.transaction(async (tx) => {
    const before = await loadScopedWithdrawal(tx, id, actor.scope);
    const cfg = await paymentSettings(tx);
    await approvalChecks.get(before.payType)?.(tx, before);
    let rows: WithdrawalRecord[];
    if (before.status === WITHDRAWAL_STATUS.pending_review) {
      const large = before.amount > cfg.largeWithdrawal;
      rows = await tx
        .update(withdrawals)
        .set(
          large
            ? { status: WITHDRAWAL_STATUS.awaiting_second_approval, firstApproverId: actor.adminId, updatedAt: new Date() }
            : { status: WITHDRAWAL_STATUS.disbursing, firstApproverId: actor.adminId, reviewedAt: sql`now()`, disbursedAt: sql`now()`, updatedAt: new Date() },
        )
        .where(and(eq(withdrawals.id, id), eq(withdrawals.status, WITHDRAWAL_STATUS.pending_review)))
        .returning();
    } else if (before.status === WITHDRAWAL_STATUS.awaiting_second_approval) {
      if (before.firstApproverId === actor.adminId) throw new AppError(422, 'SECOND_APPROVER_SAME');
      rows = await tx
        .update(withdrawals)
        .set({ status: WITHDRAWAL_STATUS.disbursing, secondApproverId: actor.adminId, reviewedAt: sql`now()`, disbursedAt: sql`now()`, updatedAt: new Date() })
        .where(
          and(
            eq(withdrawals.id, id),
            eq(withdrawals.status, WITHDRAWAL_STATUS.awaiting_second_approval),
            sql`${withdrawals.firstApproverId} is distinct from ${actor.adminId}`,
          ),
        )
        .returning();
    } else {
      throw new AppError(409, 'WITHDRAWAL_STATE_CHANGED', {}, { status: before.status });
    }
    const after = rows[0];
    if (!after) throw new AppError(409, 'WITHDRAWAL_STATE_CHANGED');
    if (after.status === WITHDRAWAL_STATUS.disbursing) await jobs.send(tx, DISBURSE_JOB, { withdrawalId: after.id });
    if (after.status === WITHDRAWAL_STATUS.awaiting_second_approval) {
      // The admins who can give the second approval hear of it (console, and Telegram for the bound ones,
      // whose delivery job the notices module's follower queues in this same transaction).
      const [first] = await tx.select({ account: admins.account }).from(admins).where(eq(admins.id, actor.adminId));
      events = await createNotices(tx, await secondApprovers(tx, after), secondApprovalText(after, first?.account ?? `#${actor.adminId}`), actor.adminId);
    }
    const second = before.status === WITHDRAWAL_STATUS.awaiting_second_approval;
    await writeAudit(tx, actor.req, {
      type: LOG_TYPE.update_balance,
      content: `${second ? 'Second approval' : 'Approved'} withdrawal ${after.serialNumber} (TSh ${formatAmount(after.amount)})${after.status === WITHDRAWAL_STATUS.awaiting_second_approval ? ': awaiting a second approval' : ': disbursing'}`,
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });
  if (bus) await publishNotices(bus, events);
  return approved;
}

/** The operator could not be reached (or did not answer in time): the job is retried with back-off. */
export class DisburseNotAnswered extends Error {}

/**
 * The `payments.disburse` job: asks the operator to pay a disbursing withdrawal, with its serial number as
 * the operator's idempotency reference (an operator that already has that reference answers its existing
 * payout: a retry, a second run after a crash or a run in another process never pays twice), and records
 * the carrier order number or the synchronous outcome. The attempt is counted and committed BEFORE the
 * call, so a crash during the call still shows that the withdrawal was sent (and it is then never
 * refunded on "unknown", see requeryWithdrawal). A timeout or transport error throws: pg-boss retries.
 */
export async function runDisbursement(db: Db, withdrawalId: number): Promise<void> {
  const rt = paymentsOf(db);
  const [w] = await db
    .update(withdrawals)
    .set({ disburseAttempts: sql`${withdrawals.disburseAttempts} + 1`, updatedAt: new Date() })
    .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, WITHDRAWAL_STATUS.disbursing)))
    .returning();
  // Paid, refunded or reconciled meanwhile (a callback, a re-query, an operator): nothing to ask.
  if (!w) return;
  let res: Awaited<ReturnType<MobileMoneyOperator['disburse']>>;
  try {
    res = await rt.operator(w.payType).disburse({ reference: w.serialNumber, phone: w.phone, amount: w.amount });
  } catch (err) {
    rt.log(err instanceof OperatorTimeoutError ? 'disburse timed out' : 'disburse failed', { serial: w.serialNumber, attempt: w.disburseAttempts, err: String(err) });
    throw new DisburseNotAnswered(`disbursement of ${w.serialNumber} not answered (attempt ${w.disburseAttempts}): ${String(err)}`);
  }
  if (res.status === 'pending') {
    await db
      .update(withdrawals)
      .set({ carrierOrderNumber: res.carrierRef, updatedAt: new Date() })
      .where(and(eq(withdrawals.id, w.id), isNull(withdrawals.carrierOrderNumber)));
    return;
  }
  const outcome: Outcome = res.status === 'success'
    ? { status: 'success', carrierRef: res.carrierRef }
    : { status: 'failed', reason: res.reason ?? 'Failed at the operator', carrierRef: res.carrierRef };
  await db.transaction(async (tx) => {
    const [cur] = await tx.select().from(withdrawals).where(eq(withdrawals.id, w.id));
    await settleWithdrawal(tx, cur, outcome, rt.log);
  });
}

/** Refuses a withdrawal under review (a reason is required) and returns the held money (bill amount rolled back). */
export async function refuseWithdrawal(db: Db, actor: Actor, id: number, reason: string): Promise<WithdrawalRecord> {
  const text = reason.trim();
  if (!text) throw badRequest('REFUSE_REASON_REQUIRED', [{ field: 'reason' }]);
  return db.transaction(async (tx) => {
    const before = await loadScopedWithdrawal(tx, id, actor.scope);
    const [after] = await tx
      .update(withdrawals)
      .set({
        status: WITHDRAWAL_STATUS.refused, payStatus: PAY_STATUS.voided, refusedBy: actor.adminId, refuseReason: text.slice(0, 300),
        reviewedAt: sql`now()`, updatedAt: new Date(),
      })
      .where(and(eq(withdrawals.id, id), inArray(withdrawals.status, [WITHDRAWAL_STATUS.pending_review, WITHDRAWAL_STATUS.awaiting_second_approval])))
      .returning();
    if (!after) throw new AppError(409, 'WITHDRAWAL_STATE_CHANGED', {}, { status: before.status });
    await post(tx, {
      bettorId: after.bettorId, account: ACCOUNT_KIND.cash, amount: after.amount, type: BILL_TYPE.amount_rolled_back,
      cause: { type: 'withdrawal', id: after.id }, house: HOUSE.withdrawalsClearing, adminId: actor.adminId,
      remark: { kind: 'withdrawal_refused', params: { serial: after.serialNumber }, text: text.slice(0, 500) },
    });
    await writeAudit(tx, actor.req, {
      type: LOG_TYPE.update_balance,
      content: `Refused withdrawal ${after.serialNumber} (TSh ${formatAmount(after.amount)}): ${text}`,
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });
}

// ------------------------------------------------------------------------------------------------
// Re-query (the stuck queue): ask the operator and resolve through the same settle paths as callbacks.

async function askOperator(db: Db, payType: number, ref: string) {
  try {
    return await paymentsOf(db).operator(payType).queryStatus(ref);
  } catch (err) {
    paymentsOf(db).log('queryStatus failed', { ref, err: String(err) });
    throw new AppError(503, 'OPERATOR_UNAVAILABLE');
  }
}

/** Whether a re-query changed what the stuck queue shows (state, or waiting for reconciliation). */
const resolvedOrFlagged = (before: { reconcileSince: Date | null }, after: { reconcileSince: Date | null }, state: [number, number]) =>
  state[0] !== state[1] || (before.reconcileSince === null) !== (after.reconcileSince === null);

/**
 * Asks the operator about a processing recharge. Unknown at the operator past the timeout: voided when the
 * collect request never reached the operator (no carrier order number: the payer was never asked); when
 * the operator had given its number, it waits for reconciliation (the payer may have paid).
 * The system's sweep audits only what changed; an admin's re-query is always audited.
 */
export async function requeryRecharge(db: Db, actor: Actor, id: number, opts: { payType?: number } = {}): Promise<RechargeRecord> {
  const before = await loadScopedRecharge(db, id, actor.scope, opts);
  if (before.payStatus !== PAY_STATUS.processing) throw new AppError(409, 'NOT_AWAITING_OPERATOR', {}, { pay_status: before.payStatus });
  const cfg = await paymentSettings(db);
  const q = await askOperator(db, before.payType, before.carrierOrderNumber ?? before.serialNumber);
  return db.transaction(async (tx) => {
    const [cur] = await tx
      .update(recharges)
      .set({
        lastQueryAt: sql`now()`,
        carrierOrderNumber: sql`coalesce(${recharges.carrierOrderNumber}, ${q.carrierRef ?? null})`,
      })
      .where(eq(recharges.id, id))
      .returning();
    let outcome: Outcome | null = null;
    if (q.status === 'success') outcome = { status: 'success', amount: q.amount, carrierRef: q.carrierRef };
    else if (q.status === 'failed') outcome = { status: 'failed', reason: q.reason ?? 'Failed at the operator' };
    else if (q.status === 'unknown' && minutesAgo(cur.createdAt, cfg.disburseTimeoutMinutes)) {
      if (cur.carrierOrderNumber) {
        await tx
          .update(recharges)
          .set({
            reconcileSince: sql`coalesce(${recharges.reconcileSince}, now())`,
            reconcileCause: `Unknown at the operator after ${cfg.disburseTimeoutMinutes} minutes although it gave its number ${cur.carrierOrderNumber}`,
            updatedAt: new Date(),
          })
          .where(and(eq(recharges.id, id), eq(recharges.payStatus, PAY_STATUS.processing)));
      } else {
        // The operator never received the collect request: the payer was never asked, nothing can arrive.
        outcome = { status: 'failed', reason: 'Not found at the operator (the payment request never reached it)' };
      }
    }
    if (outcome) await settleRecharge(tx, cur, outcome, paymentsOf(db).log);
    const after = await loadRecharge(tx, id);
    if (actor.req || resolvedOrFlagged(before, after, [before.payStatus, after.payStatus])) {
      await writeAudit(tx, actor.req, {
        type: LOG_TYPE.update_balance,
        content: `Re-queried recharge ${after.serialNumber}: operator says ${q.status}${q.reason ? ` (${q.reason})` : ''}${after.payStatus === PAY_STATUS.processing && after.reconcileSince ? ': to reconcile' : ''}`,
        before: auditView(before),
        after: auditView(after),
      });
    }
    return after;
  });
}

/**
 * Asks the operator about a disbursing withdrawal. Paid or failed at the operator: settled as the callback
 * would. Unknown with no operator number within the timeout: the disbursement is asked for again (a job,
 * same reference, so the operator pays once). Unknown past the timeout: the money goes back only when the disbursement was never sent (no
 * attempt, no carrier order number: the job had not run, and the conditional UPDATE keeps it from running
 * after); a disbursement that was sent waits for reconciliation, since the operator may have paid it.
 */
export async function requeryWithdrawal(db: Db, actor: Actor, id: number, opts: { payType?: number } = {}): Promise<WithdrawalRecord> {
  const rt = paymentsOf(db);
  const before = await loadScopedWithdrawal(db, id, actor.scope, opts);
  if (before.status !== WITHDRAWAL_STATUS.disbursing) throw new AppError(409, 'NOT_AWAITING_OPERATOR', {}, { status: before.status });
  const cfg = await paymentSettings(db);
  const q = await askOperator(db, before.payType, before.carrierOrderNumber ?? before.serialNumber);
  return db.transaction(async (tx) => {
    const [cur] = await tx
      .update(withdrawals)
      .set({
        lastQueryAt: sql`now()`,
        carrierOrderNumber: sql`coalesce(${withdrawals.carrierOrderNumber}, ${q.carrierRef ?? null})`,
      })
      .where(eq(withdrawals.id, id))
      .returning();
    const timedOut = minutesAgo(cur.disbursedAt ?? cur.createdAt, cfg.disburseTimeoutMinutes);
    let outcome: Outcome | null = null;
    if (q.status === 'success') outcome = { status: 'success', amount: q.amount, carrierRef: q.carrierRef };
    else if (q.status === 'failed') {
      const reason = q.reason ?? 'Failed at the operator';
      outcome = timedOut ? { status: 'timed_out', reason } : { status: 'failed', reason };
    } else if (q.status === 'unknown' && !timedOut && cur.carrierOrderNumber === null && rt.jobs) {
      // The operator has no trace of it yet (every attempt was lost, or its job gave up while the operator
      // was unreachable): ask again with the same reference, at most once per slot of five minutes.
      await rt.jobs.send(tx, DISBURSE_JOB, { withdrawalId: id }, { singletonKey: `resend-${id}`, singletonSeconds: RESEND_SECONDS });
    } else if (q.status === 'unknown' && timedOut) {
      const sent = cur.carrierOrderNumber !== null || cur.disburseAttempts > 0;
      if (sent) {
        await tx
          .update(withdrawals)
          .set({
            reconcileSince: sql`coalesce(${withdrawals.reconcileSince}, now())`,
            reconcileCause: `Unknown at the operator after ${cfg.disburseTimeoutMinutes} minutes although it was sent (${cur.disburseAttempts} attempt${cur.disburseAttempts === 1 ? '' : 's'}${cur.carrierOrderNumber ? `, operator number ${cur.carrierOrderNumber}` : ''})`,
            updatedAt: new Date(),
          })
          .where(and(eq(withdrawals.id, id), eq(withdrawals.status, WITHDRAWAL_STATUS.disbursing)));
      } else {
        outcome = { status: 'timed_out', reason: `No outcome after ${cfg.disburseTimeoutMinutes} minutes and never sent to the operator` };
      }
    }
    // 'pending' at the operator: the money may still move, so nothing is returned yet. The UPDATE above
    // holds the row: the job cannot count an attempt between this read and the refund.
    if (outcome) await settleWithdrawal(tx, cur, outcome, paymentsOf(db).log);
    const [after] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id));
    if (actor.req || resolvedOrFlagged(before, after, [before.status, after.status])) {
      await writeAudit(tx, actor.req, {
        type: LOG_TYPE.update_balance,
        content: `Re-queried withdrawal ${after.serialNumber}: operator says ${q.status}${q.reason ? ` (${q.reason})` : ''}${after.status === WITHDRAWAL_STATUS.disbursing && after.reconcileSince ? ': to reconcile' : ''}`,
        before: auditView(before),
        after: auditView(after),
      });
    }
    return after;
  });
}

/**
 * Re-queries every stuck transaction (pending past stuck_after_minutes), as the system: the periodic
 * `payments.requery-stuck` job. The least recently asked first, so a long queue is gone through in turn.
 * Answers how many were resolved.
 */
export async function requeryStuck(db: Db, limit = 100): Promise<{ checked: number; resolved: number }> {
  const cfg = await paymentSettings(db);
  const cutoff = new Date(Date.now() - cfg.stuckAfterMinutes * 60_000);
  const system: Actor = { adminId: 0, scope: { all: true }, req: null };
  const rs = await db
    .select({ id: recharges.id })
    .from(recharges)
    .where(and(eq(recharges.payStatus, PAY_STATUS.processing), sql`${recharges.createdAt} < ${cutoff.toISOString()}::timestamptz`))
    .orderBy(sql`${recharges.lastQueryAt} asc nulls first`, recharges.id)
    .limit(limit);
  const ws = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(and(eq(withdrawals.status, WITHDRAWAL_STATUS.disbursing), sql`${withdrawals.disbursedAt} < ${cutoff.toISOString()}::timestamptz`))
    .orderBy(sql`${withdrawals.lastQueryAt} asc nulls first`, withdrawals.id)
    .limit(limit);
  let resolved = 0;
  for (const { id } of rs) {
    try {
      if ((await requeryRecharge(db, system, id)).payStatus !== PAY_STATUS.processing) resolved++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  for (const { id } of ws) {
    try {
      if ((await requeryWithdrawal(db, system, id)).status !== WITHDRAWAL_STATUS.disbursing) resolved++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  return { checked: rs.length + ws.length, resolved };
}

// ------------------------------------------------------------------------------------------------
// Reconciliation: an operator settles a payment in doubt with the operator's statement line.

export interface Reconciliation {
  /** paid (a withdrawal) / credited (a recharge): the operator's statement shows the money moved. */
  moved: boolean;
  /** The operator's statement line: its reference. */
  reference: string;
  remark: string;
}

const REFERENCE_MAX = 100;
const REMARK_MAX = 300;

function checkReconciliation(input: Reconciliation) {
  const reference = input.reference.trim();
  const remark = input.remark.trim();
  if (!reference || reference.length > REFERENCE_MAX) throw badRequest('RECONCILE_REFERENCE_REQUIRED', [{ field: 'reference' }], { max: REFERENCE_MAX });
  if (!remark || remark.length > REMARK_MAX) throw badRequest('RECONCILE_REMARK_REQUIRED', [{ field: 'remark' }], { max: REMARK_MAX });
  return { reference, remark };
}

/**
 * Resolves a withdrawal waiting for reconciliation: paid → settled as a success (the held money has left
 * through the operator); not paid → the held money goes back with its bill, as a failure. One conditional
 * UPDATE on (disbursing, waiting for reconciliation) wins: a second reconciliation, or one racing a late
 * callback, answers 409 and moves nothing. Audited with the evidence.
 */
export async function reconcileWithdrawal(db: Db, actor: Actor, id: number, input: Reconciliation): Promise<WithdrawalRecord> {
  const { reference, remark } = checkReconciliation(input);
  return db.transaction(async (tx) => {
    const before = await loadScopedWithdrawal(tx, id, actor.scope);
    if (before.status !== WITHDRAWAL_STATUS.disbursing || !before.reconcileSince) {
      throw new AppError(409, 'NOT_AWAITING_RECONCILIATION', {}, { status: before.status });
    }
    // Claim it first (the row lock orders it against callbacks and re-queries), then settle.
    const [claimed] = await tx
      .update(withdrawals)
      .set({ reconciledBy: actor.adminId, reconciledAt: sql`now()`, reconcileReference: reference, reconcileRemark: remark, updatedAt: new Date() })
      .where(and(eq(withdrawals.id, id), eq(withdrawals.status, WITHDRAWAL_STATUS.disbursing), isNull(withdrawals.reconciledAt), sql`${withdrawals.reconcileSince} is not null`))
      .returning();
    if (!claimed) throw new AppError(409, 'NOT_AWAITING_RECONCILIATION');
    const outcome: Outcome = input.moved
      ? { status: 'success', adminId: actor.adminId }
      : { status: 'failed', reason: `Not paid per the operator's statement ${reference}: ${remark}`, adminId: actor.adminId };
    const res = await settleWithdrawal(tx, claimed, outcome, paymentsOf(db).log);
    if (!res.changed) throw new AppError(409, 'NOT_AWAITING_RECONCILIATION');
    const [after] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id));
    await writeAudit(tx, actor.req, {
      type: LOG_TYPE.update_balance,
      content: `Reconciled withdrawal ${after.serialNumber} (TSh ${formatAmount(after.amount)}) as ${input.moved ? 'paid' : 'not paid: amount returned'}; operator statement ${reference}: ${remark}`,
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });
}

/** Resolves a recharge waiting for reconciliation: credited (once, with its bill) or not credited (voided). */
export async function reconcileRecharge(db: Db, actor: Actor, id: number, input: Reconciliation): Promise<RechargeRecord> {
  const { reference, remark } = checkReconciliation(input);
  return db.transaction(async (tx) => {
    const before = await loadScopedRecharge(tx, id, actor.scope);
    if (before.payStatus !== PAY_STATUS.processing || !before.reconcileSince) {
      throw new AppError(409, 'NOT_AWAITING_RECONCILIATION', {}, { pay_status: before.payStatus });
    }
    const [claimed] = await tx
      .update(recharges)
      .set({ reconciledBy: actor.adminId, reconciledAt: sql`now()`, reconcileReference: reference, reconcileRemark: remark, updatedAt: new Date() })
      .where(and(eq(recharges.id, id), eq(recharges.payStatus, PAY_STATUS.processing), isNull(recharges.reconciledAt), sql`${recharges.reconcileSince} is not null`))
      .returning();
    if (!claimed) throw new AppError(409, 'NOT_AWAITING_RECONCILIATION');
    const outcome: Outcome = input.moved
      ? { status: 'success', adminId: actor.adminId }
      : { status: 'failed', reason: `Not received per the operator's statement ${reference}: ${remark}` };
    const res = await settleRecharge(tx, claimed, outcome, paymentsOf(db).log);
    if (!res.changed) throw new AppError(409, 'NOT_AWAITING_RECONCILIATION');
    const after = await loadRecharge(tx, id);
    await writeAudit(tx, actor.req, {
      type: LOG_TYPE.update_balance,
      content: `Reconciled recharge ${after.serialNumber} (TSh ${formatAmount(after.amount)}) as ${input.moved ? 'credited' : 'not credited'}; operator statement ${reference}: ${remark}`,
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });
}
