import { and, eq, isNull, sql } from 'drizzle-orm';
import { LOG_TYPE, PAY_STATUS, WITHDRAWAL_STATUS, formatAmount } from '@dau/domain';
import { recharges, withdrawals } from './schema.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import { scopeCondition, type Scope } from '../../platform/listing.js';
import type { Db, Executor } from '../../platform/db.js';
import { paymentsOf } from './callbacks.js';
import { DISBURSE_JOB } from './withdrawals.js';
import { settleRecharge, settleWithdrawal, type Outcome } from './settle.js';
import {
  auditView, loadRecharge, loadScopedWithdrawal, paymentSettings, type Actor, type RechargeRecord, type WithdrawalRecord,
} from './shared.js';

/** Payments in doubt: the re-queries of the stuck queue and the reconciliations by an operator's statement line. */

/** The periodic re-query of the stuck queue. */
export const REQUERY_STUCK_JOB = 'payments.requery-stuck';
/** A disbursement unknown at the operator is asked for again at most once per this many seconds. */
const RESEND_SECONDS = 300;

const minutesAgo = (d: Date | null | undefined, minutes: number) => !!d && Date.now() - d.getTime() >= minutes * 60_000;

async function loadScopedRecharge(ex: Executor, id: number, scope: Scope, opts: { payType?: number } = {}) {
  const [r] = await ex
    .select()
    .from(recharges)
    .where(and(eq(recharges.id, id), scopeCondition(scope, recharges.agentId), opts.payType ? eq(recharges.payType, opts.payType) : undefined));
  if (!r) throw notFound();
  return r;
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
  const q = await askOperator(db, before.payType, before.serialNumber);
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
  const q = await askOperator(db, before.payType, before.serialNumber);
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
