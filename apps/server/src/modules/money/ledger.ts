import crypto from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { ACCOUNT_KIND, BET_STATUS, BILL_TYPE, CREDIT_BILL_TYPE, RISK_LEVEL, USER_DISABLED, type AccountKind, type BillRemark } from '@dau/domain';
import { bettors, houseEntries } from './schema.js';
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
  /** Held jackpot prizes paid outside the balances (a bank transfer...): money that left the house's bank. */
  jackpotPaidOutside: 'jackpot_prizes_paid_outside',
} as const;

/**
 * What a bill says (issue 23): a kind with parameters, rendered in the reader's language, with an admin's
 * free text if any (`BillRemark`); or only free text an admin typed (a balance correction's reason).
 */
export type Remark = string | BillRemark;

/** The three remark columns of a bill: free text, kind and parameters (null when the remark is only text). */
export function remarkColumns(r: Remark | undefined): { remark: string; remarkKind: string | null; remarkParams: Record<string, string | number> | null } {
  if (r === undefined || typeof r === 'string') return { remark: r ?? '', remarkKind: null, remarkParams: null };
  return { remark: r.text ?? '', remarkKind: r.kind, remarkParams: r.params ? { ...r.params } : null };
}

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
  remark?: Remark;
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
 * One movement on one account of a bettor: THE definition of posting, the SQL function `dau_ledger_post`
 * (migration 0036). It takes the bettor's row lock with a guarded UPDATE of the balance (a debit may not
 * take it below zero unless `allowNegative`; `when` false or, with `mayBet`, a bettor who may not bet
 * refuses), writes the bill with before / after and the counter-entry on the house account, and answers
 * (bill_id, balance_after, created_at), or no row when refused. `post`, `cashMovementCtes` and the casino
 * wallet's group commit (migration 0036's `dau_casino_hot_batch`) all call it, so a change to how a movement
 * is booked is made there, once. (`postBatch` is the set-based form for thousands of bills: see there.)
 */
interface Movement {
  bettorId: number;
  account: number;
  /** Cents; > 0 credits. Never zero. */
  amount: number;
  type: number;
  house: string;
  causeType: Cause['type'];
  /** Text, or SQL computed by the caller's statement (e.g. `SELECT id FROM r`). */
  causeId: SQL | string | null;
  serial: string;
  txnId: string;
  adminId?: number | null;
  remark?: Remark;
  allowNegative?: boolean;
  at?: Date;
  /** The caller's condition, evaluated before the bettor's row is locked (a round of its statement exists...). */
  when?: SQL;
  /** Refuse a bettor who may not bet (disabled, betting not allowed, risk level "no betting"), checked on the locked row. */
  mayBet?: boolean;
}

function ledgerPost(m: Movement): SQL {
  const r = remarkColumns(m.remark);
  const causeId = m.causeId === null ? sql`NULL` : typeof m.causeId === 'string' ? sql`${m.causeId}` : sql`(${m.causeId})`;
  const state = m.mayBet ? [USER_DISABLED.enabled, BET_STATUS.allowed, RISK_LEVEL.no_betting] : [null, null, null];
  return sql`dau_ledger_post(${m.bettorId}::integer, ${m.account}::smallint, ${m.amount}::bigint, ${m.type}::smallint, ${m.house}::text,
      ${m.causeType}::text, ${causeId}::text, ${m.serial}::text, ${m.txnId}::text, ${m.adminId ?? null}::integer, ${r.remark}::text,
      ${r.remarkKind}::text, ${r.remarkParams === null ? null : JSON.stringify(r.remarkParams)}::jsonb, ${m.allowNegative === true}::boolean,
      ${m.at ? m.at.toISOString() : null}::timestamptz, ${m.when ?? sql`true`}, ${state[0]}::smallint, ${state[1]}::smallint, ${state[2]}::smallint)`;
}

/**
 * The same movement as `post` on a bettor's cash, as a common table expression for a caller that must do
 * it in the one statement of a hot path (the casino wallet: the round, the movement and the transaction
 * row in one round trip): `bl` (id, balance_after) is the bill, no row when refused. The movement happens
 * when `bl` is read, so the caller reads it (its transaction row's INSERT ... FROM bl does). `when` is the
 * caller's condition on its own CTEs (e.g. `EXISTS (SELECT 1 FROM r)`), `mayBet` refuses a bettor who may
 * not bet. The caller writes `WITH <its CTEs>, ${cashMovementCtes(...)} SELECT ...`. Amount in cents: > 0
 * credits.
 */
export function cashMovementCtes(m: { bettorId: number; amount: number; type: number; house: string; causeType: Cause['type']; causeId: SQL; when?: SQL; mayBet?: boolean }): SQL {
  const call = ledgerPost({ ...m, account: ACCOUNT_KIND.cash, serial: newSerial('B'), txnId: newTxnId() });
  return sql`bl AS (SELECT m.bill_id AS id, m.balance_after FROM ${call} m)`;
}

/**
 * Moves money on one account of a bettor, inside the caller's transaction (`dau_ledger_post`, one round
 * trip): one guarded UPDATE (a debit never takes the balance below zero; the row lock serialises
 * concurrent movements on that account), one bill with before/after, and the counter-entry on a house
 * account. Refuses with 422 INSUFFICIENT_BALANCE.
 */
export async function post(ex: Executor, p: Posting): Promise<PostedBill> {
  if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new AppError(400, 'AMOUNT_INVALID');
  if (p.account !== ACCOUNT_KIND.cash && p.account !== ACCOUNT_KIND.credit) throw new AppError(400, 'AMOUNT_INVALID');
  if (p.allowNegative && !(p.account === ACCOUNT_KIND.cash ? p.type === ROLLBACK_TYPE : p.type === CREDIT_ROLLBACK_TYPE)) throw new AppError(400, 'AMOUNT_INVALID');
  const txnId = p.txnId ?? newTxnId();
  const serialNumber = newSerial(p.account === ACCOUNT_KIND.cash ? 'B' : 'C');
  const call = ledgerPost({
    bettorId: p.bettorId, account: p.account, amount: p.amount, type: p.type, house: p.house, causeType: p.cause.type,
    causeId: p.cause.id == null ? null : String(p.cause.id), serial: serialNumber, txnId, adminId: p.adminId, remark: p.remark,
    allowNegative: p.allowNegative, at: p.at,
  });
  const { rows } = (await ex.execute(sql`SELECT bill_id, balance_after, created_at FROM ${call}`)) as unknown as Rows<{
    bill_id: string | number;
    balance_after: string | number;
    created_at: Date | string;
  }>;
  const row = rows[0];
  if (!row) {
    const exists = await ex.select({ id: bettors.id }).from(bettors).where(eq(bettors.id, p.bettorId));
    if (!exists.length) throw new AppError(404, 'NOT_FOUND');
    throw new AppError(422, 'INSUFFICIENT_BALANCE');
  }
  const after = Number(row.balance_after);
  return {
    id: Number(row.bill_id), serialNumber, bettorId: p.bettorId, accountKind: p.account, type: p.type, amount: p.amount,
    balanceBefore: after - p.amount, balanceAfter: after, createdAt: new Date(row.created_at), txnId,
  };
}

/**
 * What breaks the ledger's invariants (issue 30: the ledger self-check lists it), each kind with its count
 * and at most `limit` rows: a bettor's account whose balance is not the sum of its bills; a bill whose
 * before + amount is not its after, or that leaves a balance negative without being a correction; a bill
 * that does not chain from the previous bill of its account; a journal transaction (bills and house
 * entries) that does not sum to zero. Amounts in cents.
 */
export interface LedgerViolations {
  balances: { bettor_id: number; phone: string; account_kind: number; balance: number; bills_sum: number; difference: number }[];
  bills: { bill_id: number; bettor_id: number; account_kind: number; type: number; amount: number; balance_before: number; balance_after: number }[];
  chains: { bill_id: number; bettor_id: number; account_kind: number; balance_before: number; previous_after: number }[];
  journal: { txn_id: string; total: number }[];
  counts: { balances: number; bills: number; chains: number; journal: number };
}

/** The ledger's invariants over every bill it holds (archives included): what breaks them (see LedgerViolations). */
export async function ledgerViolations(ex: Executor, limit?: number): Promise<LedgerViolations> {
  const q = async <T>(s: SQL) => ((await ex.execute(s)) as unknown as { rows: (T & { n: string | number })[] }).rows;
  const cap = limit === undefined ? sql`` : sql` LIMIT ${limit}`;
  const ledger = await ledgerBills(ex);
  const sums = await q<{ id: number; phone: string; kind: number; balance: string; sum: string }>(sql`
    WITH s AS (SELECT bettor_id, account_kind, sum(amount) AS sum FROM ${ledger} x GROUP BY bettor_id, account_kind)
    SELECT b.id, b.phone, k.kind, v.balance, v.sum, count(*) OVER () AS n
    FROM bettors b CROSS JOIN (VALUES (1), (2)) AS k(kind)
    LEFT JOIN s ON s.bettor_id = b.id AND s.account_kind = k.kind
    CROSS JOIN LATERAL (SELECT CASE k.kind WHEN 1 THEN b.cash_balance ELSE b.credit_balance END AS balance, coalesce(s.sum, 0) AS sum) v
    WHERE v.balance <> v.sum ORDER BY b.id, k.kind${cap}`);
  // A balance may only go below zero through a settlement correction (type 8 debit, allowNegative) and
  // stay there until credits cover it; no other debit may leave it negative.
  const arithmetic = await q<{ id: string; bettor_id: number; account_kind: number; type: number; amount: string; balance_before: string; balance_after: string }>(sql`
    SELECT id, bettor_id, account_kind, type, amount, balance_before, balance_after, count(*) OVER () AS n FROM ${ledger} b
    WHERE balance_before + amount <> balance_after OR (balance_after < 0 AND amount < 0
       AND NOT (account_kind = ${ACCOUNT_KIND.cash} AND type = ${ROLLBACK_TYPE}) AND NOT (account_kind = ${ACCOUNT_KIND.credit} AND type = ${CREDIT_ROLLBACK_TYPE}))
    ORDER BY id${cap}`);
  const gaps = await q<{ id: string; bettor_id: number; account_kind: number; balance_before: string; prev: string }>(sql`
    SELECT id, bettor_id, account_kind, balance_before, prev, count(*) OVER () AS n FROM (
      SELECT id, bettor_id, account_kind, balance_before, lag(balance_after) OVER (PARTITION BY bettor_id, account_kind ORDER BY id) AS prev FROM ${ledger} b
    ) x WHERE prev IS NOT NULL AND prev <> balance_before ORDER BY id${cap}`);
  const unbalanced = await q<{ txn_id: string; total: string }>(sql`
    SELECT txn_id, total, count(*) OVER () AS n FROM (
      SELECT txn_id, sum(amount) AS total FROM (
        SELECT txn_id, amount FROM ${ledger} b UNION ALL SELECT txn_id, amount FROM house_entries
      ) j GROUP BY txn_id HAVING sum(amount) <> 0
    ) u ORDER BY txn_id${cap}`);
  const count = (rows: { n: string | number }[]) => Number(rows[0]?.n ?? 0);
  return {
    balances: sums.map((r) => ({
      bettor_id: Number(r.id), phone: r.phone, account_kind: Number(r.kind), balance: Number(r.balance), bills_sum: Number(r.sum), difference: Number(r.balance) - Number(r.sum),
    })),
    bills: arithmetic.map((r) => ({
      bill_id: Number(r.id), bettor_id: Number(r.bettor_id), account_kind: Number(r.account_kind), type: Number(r.type), amount: Number(r.amount),
      balance_before: Number(r.balance_before), balance_after: Number(r.balance_after),
    })),
    chains: gaps.map((r) => ({ bill_id: Number(r.id), bettor_id: Number(r.bettor_id), account_kind: Number(r.account_kind), balance_before: Number(r.balance_before), previous_after: Number(r.prev) })),
    journal: unbalanced.map((r) => ({ txn_id: r.txn_id, total: Number(r.total) })),
    counts: { balances: count(sums), bills: count(arithmetic), chains: count(gaps), journal: count(unbalanced) },
  };
}

/** Ledger invariants, for tests and the reconciliation report: every violation found, or none. */
export async function checkInvariants(ex: Executor): Promise<string[]> {
  const v = await ledgerViolations(ex);
  return [
    ...v.balances.map((r) => `bettor ${r.bettor_id} account ${r.account_kind}: balance ${r.balance} != sum of bills ${r.bills_sum}`),
    ...v.bills.map((r) => `bill ${r.bill_id}: before + amount != after, or negative`),
    ...v.chains.map((r) => `bill ${r.bill_id}: does not chain from the previous bill of its account`),
    ...v.journal.map((r) => `journal transaction ${r.txn_id} sums to ${r.total}`),
  ];
}

/** Only a detached month's table name ever goes into the SQL text (operations' bills-detach-month script). */
const ARCHIVE_TABLE = /^bills_archive_[0-9]{6}$/;

/**
 * Every bill the ledger holds, as a relation to read FROM: the partitioned `bills` and the months detached
 * from it into standalone `bills_archive_YYYYMM` tables (still in the database, still part of every
 * account's sum and chain). Its columns: id, created_at, bettor_id, account_kind, type, amount,
 * balance_before, balance_after, cause_type, cause_id, txn_id (reports read the day's bills from it).
 */
export async function ledgerBills(ex: Executor): Promise<SQL> {
  const { rows } = (await ex.execute(sql`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE 'bills_archive_%' ORDER BY c.relname`)) as unknown as { rows: { name: string }[] };
  const archives = rows.map((r) => r.name).filter((n) => ARCHIVE_TABLE.test(n));
  const cols = 'id, created_at, bettor_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, txn_id';
  if (archives.length === 0) return sql.raw('bills');
  return sql.raw(`(SELECT ${cols} FROM bills${archives.map((a) => ` UNION ALL SELECT ${cols} FROM ${a}`).join('')})`);
}

// ---------------------------------------------------------------------------------------------
// Set-based posting: many bills at once (settling thousands of orders or jackpot tickets in one
// transaction), with the same checks as `post`. Not one `dau_ledger_post` per bill: a bettor's row is
// updated once with the summed delta (not once per bill), the bills go in with one INSERT, and the house
// rows go back to the caller, which merges them with its own transfers. Its bills are the rows
// `dau_ledger_post` would write, under the same rule (only a debit is refused below zero, `debtType` aside),
// and `checkInvariants` holds both forms to the same invariants.

/** One bill of a batch (amount in cents: positive credits the bettor). */
export interface BatchBill {
  bettorId: number;
  account: number;
  amount: number;
  type: number;
  /** The house account taking the other side. */
  house: string;
  causeId: string;
  adminId: number | null;
  remark: Remark;
  txnId: string;
  /**
   * A correction: when this debit takes the balance below zero, it is booked with this type, the one
   * that may leave a debt (BILL_TYPE.amount_rolled_back on cash, CREDIT_BILL_TYPE.credit_refund on
   * credit; anything else is refused). Without it such a debit is refused (422 INSUFFICIENT_BALANCE).
   */
  debtType?: number;
}

/** A house-journal row (its amount opposite to the bettor's side). */
export interface HouseEntryRow {
  txn_id: string;
  account: string;
  amount: number;
  bill_type: number;
}

type Rows<T> = { rows: T[] };
const recordset = (rows: unknown[]) => sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`;

/**
 * Posts `list` in one go: bettors locked in id order (concurrent batches sharing bettors wait, never
 * deadlock) and updated once with their summed delta, each bill's before / after computed in posting
 * order so a bettor's bills chain, one INSERT of the bills in that order. Answers the house-side rows for
 * the caller to write with its own transfers (`insertHouseEntries`).
 */
export async function postBatch(tx: Executor, list: readonly BatchBill[], causeType: Cause['type']): Promise<HouseEntryRow[]> {
  for (const b of list) {
    if (!Number.isSafeInteger(b.amount) || b.amount === 0) throw new AppError(400, 'AMOUNT_INVALID');
    if (b.debtType !== undefined && b.debtType !== (b.account === ACCOUNT_KIND.cash ? ROLLBACK_TYPE : CREDIT_ROLLBACK_TYPE)) throw new AppError(400, 'AMOUNT_INVALID');
  }
  const house: HouseEntryRow[] = [];
  if (!list.length) return house;
  const delta = new Map<number, { cash: number; credit: number }>();
  for (const b of list) {
    const d = delta.get(b.bettorId) ?? { cash: 0, credit: 0 };
    if (b.account === ACCOUNT_KIND.cash) d.cash += b.amount;
    else d.credit += b.amount;
    delta.set(b.bettorId, d);
  }
  const ids = [...delta.keys()].sort((a, b) => a - b);
  if (ids.length > 1) await tx.execute(sql`SELECT id FROM bettors WHERE id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) ORDER BY id FOR UPDATE`);
  const updated = (
    (await tx.execute(sql`UPDATE bettors b SET cash_balance = b.cash_balance + v.cash, credit_balance = b.credit_balance + v.credit, updated_at = now()
          FROM ${recordset(ids.map((id) => ({ id, ...delta.get(id) })))} AS v(id integer, cash bigint, credit bigint)
          WHERE b.id = v.id RETURNING b.id, b.cash_balance AS cash, b.credit_balance AS credit, b.agent_id`)) as unknown as Rows<{
      id: number;
      cash: string | number;
      credit: string | number;
      agent_id: number;
    }>
  ).rows;
  if (updated.length !== ids.length) throw new AppError(404, 'NOT_FOUND');
  // Balances before this batch, then each bill in posting order.
  const running = new Map(
    updated.map((r) => {
      const d = delta.get(Number(r.id))!;
      return [Number(r.id), { agentId: r.agent_id, [ACCOUNT_KIND.cash]: Number(r.cash) - d.cash, [ACCOUNT_KIND.credit]: Number(r.credit) - d.credit } as { agentId: number } & Record<number, number>];
    }),
  );
  const rows = list.map((b) => {
    const r = running.get(b.bettorId)!;
    const balanceBefore = r[b.account];
    const balanceAfter = balanceBefore + b.amount;
    let type = b.type;
    if (balanceAfter < 0 && b.amount < 0) {
      if (b.debtType === undefined) throw new AppError(422, 'INSUFFICIENT_BALANCE');
      type = b.debtType;
    }
    r[b.account] = balanceAfter;
    house.push({ txn_id: b.txnId, account: b.house, amount: -b.amount, bill_type: type });
    const remark = remarkColumns(b.remark);
    return {
      serial_number: newSerial(b.account === ACCOUNT_KIND.cash ? 'B' : 'C'),
      bettor_id: b.bettorId, agent_id: r.agentId, account_kind: b.account, type, amount: b.amount,
      balance_before: balanceBefore, balance_after: balanceAfter, cause_id: b.causeId, admin_id: b.adminId, remark: remark.remark,
      remark_kind: remark.remarkKind, remark_params: remark.remarkParams, txn_id: b.txnId,
    };
  });
  // One INSERT ... SELECT over the set in posting order: ids are taken in that order, so the chain holds.
  await tx.execute(sql`
    INSERT INTO bills (serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, admin_id, remark,
      remark_kind, remark_params, txn_id)
    SELECT v.serial_number, v.bettor_id, v.agent_id, v.account_kind, v.type, v.amount, v.balance_before, v.balance_after, ${causeType}, v.cause_id, v.admin_id, v.remark,
      v.remark_kind, v.remark_params, v.txn_id
    FROM ${recordset(rows)} AS v(serial_number text, bettor_id integer, agent_id integer, account_kind smallint, type smallint, amount bigint,
      balance_before bigint, balance_after bigint, cause_id text, admin_id integer, remark text, remark_kind text, remark_params jsonb, txn_id text)`);
  return house;
}

/** House-journal rows in one INSERT (zero amounts skipped). */
export async function insertHouseEntries(tx: Executor, entries: readonly HouseEntryRow[]): Promise<void> {
  const rows = entries.filter((e) => e.amount !== 0);
  if (!rows.length) return;
  await tx.execute(sql`
    INSERT INTO house_entries (txn_id, account, amount, bill_type)
    SELECT v.txn_id, v.account, v.amount, v.bill_type FROM ${recordset(rows)} AS v(txn_id text, account text, amount bigint, bill_type smallint)`);
}
