import type { FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { PAY_TYPE } from '@dau/domain';
import { bettors, HOUSE, listenToBettors } from '../money/index.js';
import { paymentConfig, recharges, withdrawals } from './schema.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { scopeCondition, type Scope } from '../../platform/listing.js';
import type { Executor } from '../../platform/db.js';

/**
 * What several files of the payments module need: the records, the acting admin, the payment settings,
 * and the small loads and checks recharges, withdrawals and reconciliation share.
 */

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

export function checkAmount(amount: number, payType?: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw badRequest('AMOUNT_INVALID', [{ field: 'amount' }]);
  // The operators' APIs take whole shillings (TZS has no minor unit in use): a cent could never be paid.
  if (payType !== undefined && payType !== PAY_TYPE.usdt && amount % 100 !== 0) throw new AppError(422, 'AMOUNT_WHOLE_SHILLINGS', {}, [{ field: 'amount' }]);
}

export async function loadBettor(ex: Executor, bettorId: number) {
  const [b] = await ex
    .select({ id: bettors.id, phone: bettors.phone, agentId: bettors.agentId, disabled: bettors.disabled, lastRechargeAt: bettors.lastRechargeAt })
    .from(bettors)
    .where(eq(bettors.id, bettorId));
  if (!b) throw notFound();
  if (b.disabled === 2) throw new AppError(422, 'ACCOUNT_DISABLED');
  return b;
}

/** The house clearing account of a pay type (USDT has its own: HOUSE.usdtClearing). */
export const clearingOf = (payType: number) => (payType === PAY_TYPE.usdt ? HOUSE.usdtClearing : HOUSE.clearing(payType));

export type RechargeRecord = typeof recharges.$inferSelect;
export type WithdrawalRecord = typeof withdrawals.$inferSelect;

export async function loadRecharge(ex: Executor, id: number) {
  const [r] = await ex.select().from(recharges).where(eq(recharges.id, id));
  if (!r) throw notFound();
  return r;
}

export interface Actor {
  adminId: number;
  scope: Scope;
  /** The request, for the audit row (null for system work). */
  req: FastifyRequest | null;
}

export async function loadScopedWithdrawal(ex: Executor, id: number, scope: Scope, opts: { payType?: number } = {}) {
  const [w] = await ex
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.id, id), scopeCondition(scope, withdrawals.agentId), opts.payType ? eq(withdrawals.payType, opts.payType) : undefined));
  if (!w) throw notFound();
  return w;
}

export const auditView = (w: WithdrawalRecord | RechargeRecord) => ({ ...w });

// A bettor moved to another branch takes their recharges and withdrawals along (money calls this in the
// move's transaction): each row keeps the bettor's branch for scope.
listenToBettors('payments', {
  async moved(ex, bettorId, agentId) {
    await ex.update(recharges).set({ agentId }).where(eq(recharges.bettorId, bettorId));
    await ex.update(withdrawals).set({ agentId }).where(eq(withdrawals.bettorId, bettorId));
  },
});
