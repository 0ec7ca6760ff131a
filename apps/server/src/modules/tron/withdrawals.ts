import type { FastifyRequest } from 'fastify';
import { and, asc, eq, gte, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, LOG_TYPE, PAY_STATUS, PAY_TYPE, WITHDRAWAL_STATUS, formatAmount } from '@dau/domain';
import type { Db, Executor, Tx } from '../../platform/db.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import { pendingChanges } from '../../platform/schema.js';
import { scopeCondition } from '../../platform/listing.js';
import { bettors, HOUSE, newSerial, post } from '../money/index.js';
import {
  approvalChecks, holdWithdrawal, paymentSettings, paymentsOf, requeryWithdrawal, withdrawals, type Actor, type MobileMoneyOperator, type PayType,
  type WithdrawalRecord,
} from '../payments/index.js';
import { tronSweeps, tronTransfers, tronWallets, TRON_SWEEP_STATUS, TRON_WALLET_ROLE } from './schema.js';
import { isTronAddress } from './chain-reader.js';
import { chainSenderOf, rememberSigned, signedOf } from './chain-sender.js';
import { centsToUsdt, tronSettingsOf } from './deposits.js';
import { chainReaderOf } from './watcher.js';
import { refuseWithdrawalWhileWagering } from '../promotions/index.js';

/**
 * USDT withdrawals (issue 14) through the existing withdrawal review (modules/payments): a bettor's
 * request holds the TSh amount (bill user_withdrawal) and records the destination in tron_sweeps (kind
 * withdrawal); the review (four-eyes above the large amount) approves it; the `payments.disburse` job asks
 * the pay type's adapter to pay, which for USDT is `UsdtChainAdapter` below: sign with the hot wallet,
 * store the transaction id (committed), broadcast. The watcher's follow-up (`followUpWithdrawals`) asks
 * the chain through the same requery path as an operator's: confirmed → paid; failed on chain → refunded
 * by the existing refund path; unknown past the disbursement timeout → the existing reconciliation
 * state, never a blind refund.
 *
 * Address poisoning: a destination that is not one of ours nor a recent counterparty but shares the first
 * 4 and last 4 characters with one of them is held with a warning; the approval refuses it (422
 * WITHDRAWAL_HELD) until a reviewer releases the hold (audited).
 */

export const HELD_PREFIX = 'HELD: ';
/** Counterparties of the last this many days are compared with a new destination. */
const RECENT_DAYS = 90;

export async function hotWallet(ex: Executor) {
  const [w] = await ex
    .select({ id: tronWallets.id, addressBase58: tronWallets.addressBase58, addressHex: tronWallets.addressHex })
    .from(tronWallets)
    .where(and(eq(tronWallets.role, TRON_WALLET_ROLE.collection), eq(tronWallets.removed, false)))
    .orderBy(asc(tronWallets.id))
    .limit(1);
  return w ?? null;
}

const lookAlike = (a: string, b: string) => a !== b && a.slice(0, 4) === b.slice(0, 4) && a.slice(-4) === b.slice(-4);

/** Why a destination looks like address poisoning, or null. */
export async function poisoningWarning(ex: Executor, to: string): Promise<string | null> {
  const head = to.slice(0, 4);
  const tail = to.slice(-4);
  const like = (col: typeof tronWallets.addressBase58) => and(sql`left(${col}, 4) = ${head}`, sql`right(${col}, 4) = ${tail}`, ne(col, to));
  const [ours] = await ex.select({ a: tronWallets.addressBase58 }).from(tronWallets).where(like(tronWallets.addressBase58)).limit(1);
  if (ours && lookAlike(to, ours.a)) return `the address looks like our wallet ${ours.a} (same first and last 4 characters) but is not it`;
  const since = new Date(Date.now() - RECENT_DAYS * 86_400_000);
  const [sender] = await ex
    .select({ a: tronTransfers.fromAddress })
    .from(tronTransfers)
    .where(and(gte(tronTransfers.createdAt, since), like(tronTransfers.fromAddress as never)))
    .limit(1);
  if (sender && lookAlike(to, sender.a)) return `the address looks like the recent counterparty ${sender.a} (same first and last 4 characters) but is not it`;
  const [dest] = await ex
    .select({ a: tronSweeps.toAddress })
    .from(tronSweeps)
    .where(and(eq(tronSweeps.kind, 'withdrawal'), gte(tronSweeps.createdAt, since), like(tronSweeps.toAddress as never)))
    .limit(1);
  if (dest && lookAlike(to, dest.a)) return `the address looks like the recent withdrawal destination ${dest.a} (same first and last 4 characters) but is not it`;
  const [same] = await ex.select({ a: tronWallets.addressBase58 }).from(tronWallets).where(eq(tronWallets.addressBase58, to)).limit(1);
  if (same) return 'the address is one of our own wallets';
  return null;
}

export interface UsdtWithdrawal {
  withdrawal: WithdrawalRecord;
  sweep: typeof tronSweeps.$inferSelect;
}

/**
 * A bettor asks to withdraw `amount` cents of TSh as USDT to `toAddress` (the bettor-facing path; the
 * simulator calls it). The USDT sent is the amount at the configured rate, rounded down to the unit.
 */
export async function requestUsdtWithdrawal(db: Db, input: { bettorId: number; amount: number; toAddress: string }): Promise<UsdtWithdrawal> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw badRequest('AMOUNT_INVALID', [{ field: 'amount' }]);
  const to = String(input.toAddress ?? '').trim();
  if (!isTronAddress(to)) throw badRequest('TRON_ADDRESS_INVALID', [{ field: 'to_address' }]);
  const cfg = await paymentSettings(db);
  if (input.amount < cfg.minWithdrawal || input.amount > cfg.maxWithdrawal) {
    throw new AppError(422, 'AMOUNT_OUT_OF_RANGE', { min: formatAmount(cfg.minWithdrawal), max: formatAmount(cfg.maxWithdrawal) });
  }
  const settings = await tronSettingsOf(db);
  const units = centsToUsdt(input.amount, settings.usdtRateTsh);
  if (units <= 0) throw badRequest('AMOUNT_INVALID', [{ field: 'amount' }]);
  return db.transaction(async (tx) => {
    const [b] = await tx.select().from(bettors).where(eq(bettors.id, input.bettorId));
    if (!b) throw notFound();
    if (b.disabled === 2) throw new AppError(422, 'ACCOUNT_DISABLED');
    // Bonus terms (promotions), as for mobile money: no withdrawal while a bonus's wagering is not met.
    await refuseWithdrawalWhileWagering(tx, b.id);
    const warning = await poisoningWarning(tx, to);
    const hot = await hotWallet(tx);
    const w = await holdWithdrawal(tx, b, { amount: input.amount, payType: PAY_TYPE.usdt, phone: b.phone, remark: { kind: 'withdrawal_usdt', params: { to } } });
    const [sweep] = await tx
      .insert(tronSweeps)
      .values({
        number: `TW${w.serialNumber}`, kind: 'withdrawal', fromAddress: hot?.addressBase58 ?? '', toAddress: to, amount: units, asset: 'USDT',
        status: TRON_SWEEP_STATUS.pending, withdrawalId: w.id,
        remark: warning ? `${HELD_PREFIX}${warning}` : `Withdrawal ${w.serialNumber}: ${(units / 1e6).toFixed(6)} USDT at ${(settings.usdtRateTsh / 100).toFixed(2)} TSh`,
      })
      .returning();
    return { withdrawal: w, sweep };
  });
}

async function sweepOfWithdrawal(ex: Executor, withdrawalId: number) {
  const [s] = await ex.select().from(tronSweeps).where(and(eq(tronSweeps.withdrawalId, withdrawalId), eq(tronSweeps.kind, 'withdrawal')));
  return s ?? null;
}

/** The approval check of USDT withdrawals: a held one is not approved (registered with the payments module). */
async function checkNotHeld(tx: Tx, w: WithdrawalRecord) {
  const s = await sweepOfWithdrawal(tx, w.id);
  if (!s) throw new AppError(422, 'WITHDRAWAL_HELD', { warning: 'no destination address recorded' });
  if (s.remark?.startsWith(HELD_PREFIX)) throw new AppError(422, 'WITHDRAWAL_HELD', { warning: s.remark.slice(HELD_PREFIX.length) });
}

/** A reviewer releases a held USDT withdrawal (after checking the address with the bettor): audited. */
export async function releaseHold(db: Db, actor: Actor & { req: FastifyRequest | null }, withdrawalId: number, remark: string, askedBy?: number) {
  const text = remark.trim();
  if (!text || text.length > 300) throw badRequest('RECONCILE_REMARK_REQUIRED', [{ field: 'remark' }], { max: 300 });
  return db.transaction(async (tx) => {
    const [w] = await tx
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.payType, PAY_TYPE.usdt), scopeCondition(actor.scope, withdrawals.agentId)));
    if (!w) throw notFound();
    const before = await sweepOfWithdrawal(tx, w.id);
    if (!before) throw notFound();
    const [after] = await tx
      .update(tronSweeps)
      .set({ remark: `Released by admin ${actor.adminId}${askedBy ? ` (asked by admin ${askedBy})` : ''}: ${text} (was ${before.remark?.slice(HELD_PREFIX.length) ?? ''})`.slice(0, 1000) })
      .where(and(eq(tronSweeps.id, before.id), sql`${tronSweeps.remark} like ${`${HELD_PREFIX}%`}`))
      .returning();
    if (!after || (w.status !== WITHDRAWAL_STATUS.pending_review && w.status !== WITHDRAWAL_STATUS.awaiting_second_approval)) {
      throw new AppError(409, 'WITHDRAWAL_NOT_HELD');
    }
    await writeAudit(tx, actor.req, {
      type: LOG_TYPE.update_balance,
      content: `Released the address-poisoning hold of USDT withdrawal ${w.serialNumber} to ${before.toAddress}: ${text}`,
      before: { ...before },
      after: { ...after },
    });
    return after;
  });
}

/**
 * Whether a release may be asked now (before it is stored as a pending change): the withdrawal is a USDT
 * one in the caller's scope (404), still held and in review (409 WITHDRAWAL_NOT_HELD), and no release of
 * it already waits for a second admin (409 WITHDRAWAL_STATE_CHANGED).
 */
export async function checkReleasable(db: Executor, scope: Actor['scope'], withdrawalId: number) {
  const view = await usdtWithdrawalView(db, scope, withdrawalId);
  const inReview = view.status === WITHDRAWAL_STATUS.pending_review || view.status === WITHDRAWAL_STATUS.awaiting_second_approval;
  if (!view.held || !inReview) throw new AppError(409, 'WITHDRAWAL_NOT_HELD');
  if (view.release_pending !== null) throw new AppError(409, 'WITHDRAWAL_STATE_CHANGED');
}

/** The setting under which a release of a hold waits for a second admin (platform/duties.ts, pending_changes). */
export const RELEASE_SETTING = 'usdt_hold_release';
/** The URL a release is asked at: a pending change of it is found by it. */
export const releaseUrl = (withdrawalId: number) => `/api/v1/tron/withdrawals/${withdrawalId}/release`;

/**
 * What a hold was taken for, read from its warning (poisoningWarning's sentences): the kind of address the
 * destination looks like and that look-alike address (for `own_wallet`, the destination itself), so the
 * console says it in the reviewer's language.
 */
export function holdOf(warning: string | null, to: string): { kind: string; lookAlike: string | null } | null {
  if (!warning) return null;
  const address = /\b(T[1-9A-HJ-NP-Za-km-z]{33})\b/.exec(warning)?.[1] ?? null;
  if (warning.includes('our wallet')) return { kind: 'our_wallet', lookAlike: address };
  if (warning.includes('recent counterparty')) return { kind: 'counterparty', lookAlike: address };
  if (warning.includes('withdrawal destination')) return { kind: 'destination', lookAlike: address };
  if (warning.includes('one of our own wallets')) return { kind: 'own_wallet', lookAlike: to };
  return { kind: 'other', lookAlike: address };
}

const selectUsdtWithdrawals = (db: Executor) =>
  db
    .select({
      w: { id: withdrawals.id, serialNumber: withdrawals.serialNumber, status: withdrawals.status, amount: withdrawals.amount },
      s: tronSweeps,
      pending: sql<number | null>`(select max(${pendingChanges.id}) from ${pendingChanges} where ${pendingChanges.setting} = ${RELEASE_SETTING}
        and ${pendingChanges.status} = 'pending' and ${pendingChanges.expiresAt} > now() and ${pendingChanges.url} = '/api/v1/tron/withdrawals/' || ${withdrawals.id} || '/release')`,
    })
    .from(withdrawals)
    .innerJoin(tronSweeps, and(eq(tronSweeps.withdrawalId, withdrawals.id), eq(tronSweeps.kind, 'withdrawal')));

type UsdtWithdrawalSel = Awaited<ReturnType<ReturnType<typeof selectUsdtWithdrawals>['where']>>[number];

function toUsdtWithdrawalView(row: UsdtWithdrawalSel) {
  const held = !!row.s.remark?.startsWith(HELD_PREFIX);
  const warning = held ? row.s.remark!.slice(HELD_PREFIX.length) : null;
  const hold = holdOf(warning, row.s.toAddress);
  return {
    withdrawal_id: row.w.id, serial_number: row.w.serialNumber, status: row.w.status, amount: Number(row.w.amount),
    to_address: row.s.toAddress, from_address: row.s.fromAddress || null, usdt_amount: Number(row.s.amount), held,
    warning, hold_kind: hold?.kind ?? null, look_alike: hold?.lookAlike ?? null,
    release_pending: held && row.pending != null ? Number(row.pending) : null, remark: row.s.remark, sweep_id: row.s.id, sweep_number: row.s.number,
    sweep_status: row.s.status, tx_hash: row.s.txHash,
  };
}

/** What the withdrawal review shows of a USDT withdrawal: its destination, USDT amount and any hold. */
export async function usdtWithdrawalView(db: Executor, scope: Actor['scope'], withdrawalId: number) {
  const [row] = await selectUsdtWithdrawals(db).where(
    and(eq(withdrawals.id, withdrawalId), eq(withdrawals.payType, PAY_TYPE.usdt), scopeCondition(scope, withdrawals.agentId)),
  );
  if (!row) throw notFound();
  return toUsdtWithdrawalView(row);
}

/** The same for several withdrawals at once (the review list's page): the USDT ones in scope, others left out. */
export async function usdtWithdrawalViews(db: Executor, scope: Actor['scope'], ids: number[]) {
  if (!ids.length) return [];
  const rows = await selectUsdtWithdrawals(db).where(
    and(inArray(withdrawals.id, ids), eq(withdrawals.payType, PAY_TYPE.usdt), scopeCondition(scope, withdrawals.agentId)),
  );
  return rows.map(toUsdtWithdrawalView);
}

/**
 * The USDT adapter of the payments module: the disburse job's `disburse` signs and broadcasts (once per
 * withdrawal: a stored transaction id is never replaced); `queryStatus` asks the chain.
 */
export class UsdtChainAdapter implements MobileMoneyOperator {
  readonly payType = PAY_TYPE.usdt as unknown as PayType;
  readonly name = 'USDT (TRC-20)';
  constructor(
    private db: Db,
    private log: (msg: string, extra?: Record<string, unknown>) => void = () => {},
  ) {}

  async collect(): Promise<never> {
    throw new Error('USDT deposits arrive on chain: the watcher credits them');
  }

  async disburse(req: { reference: string }): Promise<{ carrierRef: string; status: 'pending' }> {
    const db = this.db;
    const [w] = await db.select().from(withdrawals).where(and(eq(withdrawals.serialNumber, req.reference), eq(withdrawals.payType, PAY_TYPE.usdt)));
    if (!w) throw new Error(`no USDT withdrawal ${req.reference}`);
    const sweep = await sweepOfWithdrawal(db, w.id);
    if (!sweep) throw new Error(`USDT withdrawal ${req.reference} has no destination`);
    const sender = chainSenderOf(db);
    if (sweep.txHash) {
      // Signed already (an earlier attempt, maybe in a process that died): never a second signature.
      const again = signedOf(sweep.txHash);
      if (again) await sender.broadcast(again);
      return { carrierRef: sweep.txHash, status: 'pending' };
    }
    const hot = await hotWallet(db);
    if (!hot) throw new AppError(422, 'NO_HOT_WALLET');
    const settings = await tronSettingsOf(db);
    const signed = await sender.signUsdt(db, { walletId: hot.id, addressBase58: hot.addressBase58 }, sweep.toAddress, sweep.amount, settings.usdtContract);
    const stored = await db.transaction(async (tx) => {
      // The withdrawal's row lock orders this against a refund or a reconciliation: only a withdrawal still
      // disbursing gets its transaction; the first stored id wins.
      const [cur] = await tx.select({ status: withdrawals.status }).from(withdrawals).where(eq(withdrawals.id, w.id)).for('update');
      if (cur?.status !== WITHDRAWAL_STATUS.disbursing) return null;
      const [s] = await tx
        .update(tronSweeps)
        .set({ txHash: signed.txHash, fromAddress: hot.addressBase58 })
        .where(and(eq(tronSweeps.id, sweep.id), isNull(tronSweeps.txHash)))
        .returning();
      return s ?? (await sweepOfWithdrawal(tx, w.id));
    });
    if (!stored) throw new Error(`USDT withdrawal ${req.reference} is no longer disbursing`);
    if (stored.txHash !== signed.txHash) return { carrierRef: stored.txHash!, status: 'pending' };
    rememberSigned(signed);
    this.log('USDT withdrawal signed', { serial: w.serialNumber, tx: signed.txHash });
    await sender.broadcast(signed);
    return { carrierRef: signed.txHash, status: 'pending' };
  }

  async queryStatus(ref: string): Promise<{ status: 'pending' | 'success' | 'failed' | 'unknown'; reason?: string; carrierRef?: string }> {
    const db = this.db;
    const [s] = await db
      .select({ txHash: tronSweeps.txHash })
      .from(tronSweeps)
      .leftJoin(withdrawals, eq(withdrawals.id, tronSweeps.withdrawalId))
      .where(and(eq(tronSweeps.kind, 'withdrawal'), or(eq(tronSweeps.txHash, ref), eq(withdrawals.serialNumber, ref))))
      .limit(1);
    // Never signed: nothing can be on chain (the disburse job may still sign it: not a failure).
    if (!s?.txHash) return { status: 'unknown' };
    return chainOutcome(db, s.txHash);
  }

  verifyCallback(): null {
    return null;
  }
}

/** A transaction's outcome as the watcher trusts it: success or failure only at the confirmation depth. */
export async function chainOutcome(db: Db, txHash: string): Promise<{ status: 'pending' | 'success' | 'failed' | 'unknown'; reason?: string; carrierRef?: string }> {
  const reader = chainReaderOf(db);
  const info = await reader.tx(txHash);
  if (!info) return { status: 'unknown', carrierRef: txHash };
  if (info.blockNumber === null) return { status: 'pending', carrierRef: txHash };
  const settings = await tronSettingsOf(db);
  const [head, solid] = await Promise.all([reader.head(), reader.solid()]);
  if (info.blockNumber > Math.min(solid, head - settings.confirmations)) return { status: 'pending', carrierRef: txHash };
  return info.success ? { status: 'success', carrierRef: txHash } : { status: 'failed', reason: `Failed on chain: ${info.result}`, carrierRef: txHash };
}

const adapters = new WeakMap<object, UsdtChainAdapter>();

/** Registers the USDT adapter and the approval check with the payments module of this database (once). */
export function registerUsdtPayments(db: Db, log?: (msg: string, extra?: Record<string, unknown>) => void) {
  if (!adapters.has(db)) {
    const adapter = new UsdtChainAdapter(db, log);
    adapters.set(db, adapter);
    (paymentsOf(db).operators as Map<number, MobileMoneyOperator>).set(PAY_TYPE.usdt, adapter);
  }
  approvalChecks.set(PAY_TYPE.usdt, checkNotHeld);
}

/**
 * The watcher's follow-up of USDT withdrawals being disbursed: each is re-queried as the system through the
 * payments module (confirmed → paid, failed → refunded, unknown past the timeout → reconciliation), then
 * its tron_sweeps row takes the withdrawal's outcome.
 */
export async function followUpWithdrawals(db: Db, limit = 100): Promise<{ checked: number }> {
  const system: Actor = { adminId: 0, scope: { all: true }, req: null };
  const open = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(and(eq(withdrawals.payType, PAY_TYPE.usdt), eq(withdrawals.status, WITHDRAWAL_STATUS.disbursing), isNull(withdrawals.reconcileSince)))
    .orderBy(sql`${withdrawals.lastQueryAt} asc nulls first`)
    .limit(limit);
  for (const { id } of open) {
    try {
      await requeryWithdrawal(db, system, id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  await syncWithdrawalSweeps(db);
  return { checked: open.length };
}

/** tron_sweeps rows of withdrawals take their withdrawal's outcome (paid, failed/refused, to reconcile). */
export async function syncWithdrawalSweeps(ex: Executor) {
  const open = inArray(tronSweeps.status, [TRON_SWEEP_STATUS.pending, TRON_SWEEP_STATUS.unknown]);
  const linked = sql`${tronSweeps.kind} = 'withdrawal' and ${withdrawals.id} = ${tronSweeps.withdrawalId}`;
  await ex.execute(sql`
    update tron_sweeps set status = ${TRON_SWEEP_STATUS.success}, confirmed_at = coalesce(tron_sweeps.confirmed_at, now())
    from withdrawals where ${linked} and ${open} and withdrawals.status = ${WITHDRAWAL_STATUS.paid}`);
  await ex.execute(sql`
    update tron_sweeps set status = ${TRON_SWEEP_STATUS.failed}, confirmed_at = coalesce(tron_sweeps.confirmed_at, now()),
      remark = left(coalesce(withdrawals.fail_reason, withdrawals.refuse_reason, 'Not sent') || ' (amount returned)', 1000)
    from withdrawals where ${linked} and ${open} and withdrawals.status in (${WITHDRAWAL_STATUS.failed}, ${WITHDRAWAL_STATUS.timed_out}, ${WITHDRAWAL_STATUS.refused})`);
  await ex.execute(sql`
    update tron_sweeps set status = ${TRON_SWEEP_STATUS.unknown},
      remark = left('To reconcile: ' || coalesce(withdrawals.reconcile_cause, 'outcome unknown'), 1000)
    from withdrawals where ${linked} and tron_sweeps.status = ${TRON_SWEEP_STATUS.pending}
      and withdrawals.status = ${WITHDRAWAL_STATUS.disbursing} and withdrawals.reconcile_since is not null`);
}


