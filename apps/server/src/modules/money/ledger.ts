import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE, type AccountKind } from '@dau/domain';
import { bettors, bills, houseEntries } from './schema.js';
import { AppError } from '../../platform/errors.js';
import type { Executor } from '../../platform/db.js';

/**
 * The house side of the double-entry journal (docs/architecture.md "Money"). Every bill has counter-entries
 * here so that all accounts together sum to zero; house balances are sums of their entries.
 */
export const HOUSE = {
  /** Money received from an operator and not yet settled with us, per operator. */
  clearing: (payType: number) => `clearing:pay_type_${payType}`,
  usdtClearing: 'clearing:usdt',
  withdrawalsClearing: 'withdrawals_clearing',
  stakesHeld: 'stakes_held',
  payouts: 'payouts',
  bonuses: 'bonuses',
  taxPayable: 'withholding_tax_payable',
  adminAdjustments: 'admin_adjustments',
  creditIssued: 'credit_issued',
  casino: 'casino',
  racing: 'racing',
  /** Jackpot stakes taken (issue 12): the pool's share moves on to jackpot_pool. */
  jackpotStakes: 'jackpot_stakes',
  /** The jackpot prize pools: prizes are paid from it, rollover stays in it. */
  jackpotPool: 'jackpot_pool',
  /** Jackpot prizes above a bet type's max_add_balance, held for a manual payout. */
  jackpotPrizesPayable: 'jackpot_prizes_payable',
} as const;

export type Cause = { type: 'order' | 'recharge' | 'withdrawal' | 'admin' | 'promotion' | 'casino' | 'racing' | 'jackpot' | 'invitation'; id?: string | number | null };

export interface Posting {
  bettorId: number;
  account: AccountKind;
  /** Cents; positive credits the bettor, negative debits. Never zero. */
  amount: number;
  /** Domain BILL_TYPE for cash, CREDIT_BILL_TYPE for credit. */
  type: number;
  cause: Cause;
  /** The house account that takes the other side (the whole amount, opposite sign). */
  house: string;
  adminId?: number | null;
  remark?: string;
  /** Groups several postings into one journal transaction; a new one when absent. */
  txnId?: string;
  /** Only for backfilling history (demo data, imports): when the movement happened. Defaults to now. */
  at?: Date;
  /**
   * Corrections only (a settlement rolled back or resettled after the winnings were spent): the debit
   * may take the balance below zero, as a debt the bettor's next deposit covers. Bill type must be
   * BILL_TYPE.amount_rolled_back (cash) or CREDIT_BILL_TYPE.credit_refund (credit), so the invariant
   * check can tell it from a broken guard.
   */
  allowNegative?: boolean;
}

export interface PostedBill {
  id: number;
  serialNumber: string;
  bettorId: number;
  accountKind: number;
  type: number;
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
  createdAt: Date;
  txnId: string;
}

export const newSerial = (prefix: string) => {
  const d = new Date();
  const ymd = `${d.getUTCFullYear() % 100}`.padStart(2, '0') + `${d.getUTCMonth() + 1}`.padStart(2, '0') + `${d.getUTCDate()}`.padStart(2, '0');
  return `${prefix}${ymd}${crypto.randomBytes(6).toString('hex').toUpperCase()}`;
};
export const newTxnId = () => crypto.randomUUID();

/** The one bill type that may take a balance below zero (see Posting.allowNegative). */
const ROLLBACK_TYPE = BILL_TYPE.amount_rolled_back;
/** On the credit account: a credit refund taken back (a void order settled again). */
const CREDIT_ROLLBACK_TYPE = CREDIT_BILL_TYPE.credit_refund;

/**
 * House-only movement inside a journal transaction (e.g. withholding tax moved from payouts to the tax
 * payable account): two entries of opposite sign, so the transaction still sums to zero.
 */
export async function houseTransfer(ex: Executor, txnId: string, from: string, to: string, amount: number, billType: number): Promise<void> {
  if (amount === 0) return;
  await ex.insert(houseEntries).values([
    { txnId, account: from, amount: -amount, billType },
    { txnId, account: to, amount, billType },
  ]);
}

/**
 * Moves money on one account of a bettor, inside the caller's transaction: one guarded UPDATE (the
 * balance never goes below zero; the row lock serialises concurrent movements on that account), one
 * bill with before/after, and the counter-entry on a house account. Refuses with 422 INSUFFICIENT_BALANCE.
 */
export async function post(ex: Executor, p: Posting): Promise<PostedBill> {
  if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new AppError(400, 'AMOUNT_INVALID');
  const colName = p.account === ACCOUNT_KIND.cash ? 'cash_balance' : 'credit_balance';
  if (p.allowNegative && !(p.account === ACCOUNT_KIND.cash ? p.type === ROLLBACK_TYPE : p.type === CREDIT_ROLLBACK_TYPE)) throw new AppError(400, 'AMOUNT_INVALID');
  const guard = p.allowNegative ? sql`` : sql` AND ${sql.identifier(colName)} + ${p.amount} >= 0`;
  const rows = (await ex.execute(
    sql`UPDATE bettors SET ${sql.identifier(colName)} = ${sql.identifier(colName)} + ${p.amount}, updated_at = now()
        WHERE id = ${p.bettorId}${guard}
        RETURNING ${sql.identifier(colName)} AS balance, agent_id`,
  )) as unknown as { rows: { balance: string | number; agent_id: number }[] };
  const row = rows.rows[0];
  if (!row) {
    const exists = await ex.select({ id: bettors.id }).from(bettors).where(eq(bettors.id, p.bettorId));
    if (!exists.length) throw new AppError(404, 'NOT_FOUND');
    throw new AppError(422, 'INSUFFICIENT_BALANCE');
  }
  const after = Number(row.balance);
  const txnId = p.txnId ?? newTxnId();
  const [bill] = await ex
    .insert(bills)
    .values({
      serialNumber: newSerial(p.account === ACCOUNT_KIND.cash ? 'B' : 'C'),
      bettorId: p.bettorId,
      agentId: row.agent_id,
      accountKind: p.account,
      type: p.type,
      amount: p.amount,
      balanceBefore: after - p.amount,
      balanceAfter: after,
      causeType: p.cause.type,
      causeId: p.cause.id == null ? null : String(p.cause.id),
      adminId: p.adminId ?? null,
      remark: p.remark ?? '',
      txnId,
      ...(p.at ? { createdAt: p.at } : {}),
    })
    .returning({
      id: bills.id, serialNumber: bills.serialNumber, bettorId: bills.bettorId, accountKind: bills.accountKind, type: bills.type,
      amount: bills.amount, balanceBefore: bills.balanceBefore, balanceAfter: bills.balanceAfter, createdAt: bills.createdAt, txnId: bills.txnId,
    });
  await ex.insert(houseEntries).values({ txnId, account: p.house, amount: -p.amount, billType: p.type, ...(p.at ? { createdAt: p.at } : {}) });
  return bill;
}

/** Ledger invariants, for tests and the reconciliation report: every violation found, or none. */
export async function checkInvariants(ex: Executor): Promise<string[]> {
  const problems: string[] = [];
  const q = async <T>(s: ReturnType<typeof sql>) => ((await ex.execute(s)) as unknown as { rows: T[] }).rows;
  const sums = await q<{ id: number; kind: number; balance: string; sum: string }>(sql`
    SELECT b.id, k.kind, CASE k.kind WHEN 1 THEN b.cash_balance ELSE b.credit_balance END AS balance,
           COALESCE((SELECT sum(amount) FROM bills x WHERE x.bettor_id = b.id AND x.account_kind = k.kind), 0) AS sum
    FROM bettors b CROSS JOIN (VALUES (1), (2)) AS k(kind)`);
  for (const r of sums) if (Number(r.balance) !== Number(r.sum)) problems.push(`bettor ${r.id} account ${r.kind}: balance ${r.balance} != sum of bills ${r.sum}`);
  // A balance may only go below zero through a settlement correction (type 8 debit, allowNegative) and
  // stay there until credits cover it; no other debit may leave it negative.
  const arithmetic = await q<{ id: number }>(
    sql`SELECT id FROM bills WHERE balance_before + amount <> balance_after OR (balance_after < 0 AND amount < 0
       AND NOT (account_kind = ${ACCOUNT_KIND.cash} AND type = ${ROLLBACK_TYPE}) AND NOT (account_kind = ${ACCOUNT_KIND.credit} AND type = ${CREDIT_ROLLBACK_TYPE}))`,
  );
  for (const r of arithmetic) problems.push(`bill ${r.id}: before + amount != after, or negative`);
  const gaps = await q<{ id: number }>(sql`
    SELECT id FROM (
      SELECT id, balance_before, lag(balance_after) OVER (PARTITION BY bettor_id, account_kind ORDER BY id) AS prev FROM bills
    ) x WHERE prev IS NOT NULL AND prev <> balance_before`);
  for (const r of gaps) problems.push(`bill ${r.id}: does not chain from the previous bill of its account`);
  const unbalanced = await q<{ txn_id: string; total: string }>(sql`
    SELECT txn_id, sum(amount) AS total FROM (
      SELECT txn_id, amount FROM bills UNION ALL SELECT txn_id, amount FROM house_entries
    ) j GROUP BY txn_id HAVING sum(amount) <> 0`);
  for (const r of unbalanced) problems.push(`journal transaction ${r.txn_id} sums to ${r.total}`);
  return problems;
}
