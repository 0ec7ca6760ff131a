import { and, eq, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, PAY_STATUS, RECHARGE_CHANNEL, WITHDRAWAL_STATUS, formatAmount } from '@dau/domain';
import { bettors, countRecharge, countWithdrawal, HOUSE, houseTransfer, newTxnId, post, type Remark } from '../money/index.js';
import { recharges, withdrawals } from './schema.js';
import { promotionEvent } from '../promotions/index.js';
import type { Tx } from '../../platform/db.js';
import { clearingOf, type RechargeRecord, type WithdrawalRecord } from './shared.js';

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

/**
 * Settlement: the one place a recharge is credited or voided and a disbursing withdrawal is paid or rolled
 * back, exactly once, in the caller's transaction. Callbacks, the disbursement job, re-queries and
 * reconciliations all end here.
 */

type Logger = (msg: string, extra?: Record<string, unknown>) => void;

/** The bill a credited recharge posts: a USSD push deposit is bill 11, every other channel bill 4. */
const rechargeBillType = (channel: number) => (channel === RECHARGE_CHANNEL.ussd ? BILL_TYPE.ussd_deposit : BILL_TYPE.user_recharge);

export type Outcome = (
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
export async function settleRecharge(tx: Tx, r: RechargeRecord, outcome: Outcome, log: Logger): Promise<SettleResult> {
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
    // The last recharge's time is the transaction's (now()): the same instant as the recharge's paid_at.
    await countRecharge(tx, won.bettorId, won.amount);
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

/** What the bill of a withdrawal's money coming back says (issue 23: a kind; the failure's reason as its text). */
const ROLLBACK_REMARK: Record<'failed' | 'timed_out', (w: WithdrawalRecord, reason: string) => Remark> = {
  failed: (w, reason) => ({ kind: 'withdrawal_failed', params: { serial: w.serialNumber }, text: reason.slice(0, 500) }),
  timed_out: (w) => ({ kind: 'withdrawal_timed_out', params: { serial: w.serialNumber } }),
};

/** Pays or rolls back a disbursing withdrawal exactly once; in the caller's transaction. */
export async function settleWithdrawal(tx: Tx, w: WithdrawalRecord, outcome: Outcome, log: Logger): Promise<SettleResult> {
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
    await countWithdrawal(tx, won.bettorId, won.amount);
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
