import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, LOG_TYPE, PAY_STATUS, WITHDRAWAL_STATUS, formatAmount, validatePhone } from '@dau/domain';
import { withdrawals } from './schema.js';
import { HOUSE, newSerial, post, type Remark } from '../money/index.js';
import { refuseWithdrawalWhileWagering } from '../promotions/index.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import type { Bus, Db, Executor, Tx } from '../../platform/db.js';
import type { Jobs } from '../../platform/jobs.js';
import { admins } from '../../platform/schema.js';
import { createNotices, noticeRecipients, publishNotices, type NoticeEvent } from '../notices/index.js';
import { OperatorTimeoutError, type MobileMoneyOperator } from './operators.js';
import { paymentsOf } from './callbacks.js';
import { settleWithdrawal, type Outcome } from './settle.js';
import { checkNetwork } from './network.js';
import { auditView, checkAmount, loadBettor, loadScopedWithdrawal, paymentSettings, type Actor, type WithdrawalRecord } from './shared.js';

/** The durable job that asks the operator to pay an approved withdrawal (enqueued in the approval's transaction). */
export const DISBURSE_JOB = 'payments.disburse';

/**
 * Checks another module adds to the approval of its pay type's withdrawals (modules/tron: a USDT
 * withdrawal held for address poisoning is not approved until released). Run in the approval's transaction.
 */
export const approvalChecks = new Map<number, (tx: Tx, w: WithdrawalRecord) => Promise<void>>();

// ------------------------------------------------------------------------------------------------
// Withdrawals

/** A bettor asks to withdraw: the amount is held at once (bill user_withdrawal, negative). */
export async function requestWithdrawal(db: Db, input: { bettorId: number; payType: number; amount: number; phone?: string }): Promise<WithdrawalRecord> {
  checkAmount(input.amount, input.payType);
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
    const to = phone?.ok ? phone.value : b.phone;
    // Issue 28: the number's network must be the pay type's (or an admin marked it ported there): refused before any money is held.
    await checkNetwork(tx, to, input.payType);
    return holdWithdrawal(tx, b, { amount: input.amount, payType: input.payType, phone: to, remark: { kind: 'withdrawal', params: {} } });
  });
}

/**
 * A withdrawal asked for, and its money held, in the caller's transaction: the row (pending review) and
 * the bill that takes the amount from the bettor's cash into withdrawals clearing. INSUFFICIENT_BALANCE
 * rolls the whole request back: no withdrawal without its hold. The remark's `serial` is the new
 * withdrawal's. Mobile money (above) and USDT (the TRON module) ask through here.
 */
export async function holdWithdrawal(
  tx: Executor,
  b: { id: number; agentId: number; phone: string; lastRechargeAt: Date | null },
  input: { amount: number; payType: number; phone: string; remark: { kind: string; params: Record<string, string | number> } },
): Promise<WithdrawalRecord> {
  const [w] = await tx
    .insert(withdrawals)
    .values({
      serialNumber: newSerial('W'), bettorId: b.id, agentId: b.agentId, amount: input.amount, payType: input.payType,
      phone: input.phone, status: WITHDRAWAL_STATUS.pending_review, payStatus: PAY_STATUS.processing, previousRechargeAt: b.lastRechargeAt,
    })
    .returning();
  await post(tx, {
    bettorId: b.id, account: ACCOUNT_KIND.cash, amount: -input.amount, type: BILL_TYPE.user_withdrawal,
    cause: { type: 'withdrawal', id: w.id }, house: HOUSE.withdrawalsClearing,
    remark: { kind: input.remark.kind, params: { ...input.remark.params, serial: w.serialNumber } } as Remark,
  });
  return w;
}

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
