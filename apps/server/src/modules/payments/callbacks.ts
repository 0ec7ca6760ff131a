import { and, eq, sql } from 'drizzle-orm';
import { PAY_STATUS, WITHDRAWAL_STATUS } from '@dau/domain';
import { paymentCallbacks, recharges, withdrawals } from './schema.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import type { Db } from '../../platform/db.js';
import type { Jobs } from '../../platform/jobs.js';
import {
  isPayType, operators, SandboxOperator, TimerScheduler,
  type CallbackEvent, type Deliver, type MobileMoneyOperator, type PayType, type Scheduler,
} from './operators.js';
import { DbSandboxStore } from './sandbox-store.js';
import { settleRecharge, settleWithdrawal, type Outcome } from './settle.js';

/**
 * Operator callbacks: the intake (the operator verifies the signature) and their application. The payment
 * runtime lives here too: its sandboxes deliver their callbacks to receiveCallback, which in turn reads the
 * runtime's operators, so the two cannot sit in different files without an import cycle.
 */

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
