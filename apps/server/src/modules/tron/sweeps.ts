import crypto from 'node:crypto';
import { and, asc, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs.js';
import { paymentSettings } from '../payments/index.js';
import { tronSweeps, tronTransfers, tronWallets, TRON_SWEEP_STATUS, TRON_TRANSFER_STATUS, TRON_WALLET_ROLE } from './schema.js';
import { toHexAddress } from './chain-reader.js';
import { chainSenderOf, rememberSigned, signedOf } from './chain-sender.js';
import { tronSettingsOf } from './deposits.js';
import { chainReaderOf } from './watcher.js';
import { chainOutcome, hotWallet } from './withdrawals.js';

/**
 * Collection (tron_transaction_summary): the USDT of a deposit address goes to the collection (hot)
 * wallet. Each step is durable work that a crash only delays:
 *  - `tron.collect {walletId}` opens ONE collect sweep per wallet at a time (the wallet row's lock orders
 *    two runs; an open collect is advanced, never doubled), for the wallet's on-chain USDT when it is at
 *    least the threshold;
 *  - a deposit address without enough TRX for the energy first gets a gas top-up from the gas wallet: a
 *    sweep of kind gas whose parent is the collect;
 *  - every transaction is signed, its id stored and committed, then broadcast (chain-sender.ts): a retry
 *    finds the id and never signs a second one;
 *  - the periodic `tron.sweeps` job advances the open sweeps: gas confirmed → the USDT is sent; a
 *    transaction confirmed at the watcher's depth → success, failed on chain → failed, unknown past the
 *    disbursement timeout → unknown (to reconcile); the wallets' stored balances are refreshed from the
 *    node when a sweep ends.
 */

export const COLLECT_JOB = 'tron.collect';
export const COLLECT_ALL_JOB = 'tron.collect-all';
export const SWEEPS_JOB = 'tron.sweeps';
export const SWEEPS_SECONDS = 5;

type Sweep = typeof tronSweeps.$inferSelect;

const sweepNumber = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${crypto.randomBytes(3).toString('hex').toUpperCase()}`;

async function gasWallet(ex: Executor) {
  const [w] = await ex
    .select({ id: tronWallets.id, addressBase58: tronWallets.addressBase58, addressHex: tronWallets.addressHex })
    .from(tronWallets)
    .where(and(eq(tronWallets.role, TRON_WALLET_ROLE.gas), eq(tronWallets.removed, false)))
    .orderBy(asc(tronWallets.id))
    .limit(1);
  return w ?? null;
}

async function walletByAddress(ex: Executor, base58: string) {
  const [w] = await ex.select().from(tronWallets).where(eq(tronWallets.addressBase58, base58));
  return w ?? null;
}

const openStatus = inArray(tronSweeps.status, [TRON_SWEEP_STATUS.pending, TRON_SWEEP_STATUS.unknown]);

/** Deposit wallets worth a look for collect all: a stored balance at the threshold, or deposits credited since their last collect. */
export async function collectCandidates(ex: Executor): Promise<number[]> {
  const settings = await tronSettingsOf(ex);
  const rows = await ex
    .select({ id: tronWallets.id })
    .from(tronWallets)
    .where(
      and(
        eq(tronWallets.role, TRON_WALLET_ROLE.deposit),
        eq(tronWallets.removed, false),
        or(
          gte(tronWallets.usdtBalance, settings.collectThreshold),
          sql`exists (select 1 from ${tronTransfers} t where t.wallet_id = ${tronWallets.id} and t.status = ${TRON_TRANSFER_STATUS.confirmed} and t.direction = 'in'
            and t.created_at > coalesce((select max(s.created_at) from ${tronSweeps} s where s.kind = 'collect' and s.from_address = ${tronWallets.addressBase58} and s.status = ${TRON_SWEEP_STATUS.success}), 'epoch'::timestamptz))`,
        ),
      ),
    )
    .orderBy(asc(tronWallets.id));
  return rows.map((r) => r.id);
}

/** Queues a collect of each candidate (the collect_all job). */
export async function collectAll(db: Db, jobs: Jobs): Promise<number> {
  const ids = await collectCandidates(db);
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    await db.transaction(async (tx) => {
      for (const walletId of part) await jobs.send(tx, COLLECT_JOB, { walletId }, { singletonKey: `collect-${walletId}`, singletonSeconds: 10 });
    });
  }
  return ids.length;
}

/**
 * The collect job of one deposit wallet: opens its collect sweep when its on-chain USDT is at least the
 * threshold (none while one is open) and advances it.
 */
export async function runCollect(db: Db, walletId: number): Promise<Sweep | null> {
  const settings = await tronSettingsOf(db);
  const [wallet] = await db.select().from(tronWallets).where(eq(tronWallets.id, walletId));
  if (!wallet || wallet.role !== TRON_WALLET_ROLE.deposit) return null;
  const hot = await hotWallet(db);
  if (!hot) throw new AppError(422, 'NO_HOT_WALLET');
  const [open] = await db.select().from(tronSweeps).where(and(eq(tronSweeps.kind, 'collect'), eq(tronSweeps.fromAddress, wallet.addressBase58), openStatus));
  if (open) return advanceSweep(db, open);
  const bal = await chainReaderOf(db).balances(wallet.addressHex, toHexAddress(settings.usdtContract));
  await db.update(tronWallets).set({ usdtBalance: Number(bal.token), trxBalance: Number(bal.trx), balanceSyncedAt: new Date() }).where(eq(tronWallets.id, wallet.id));
  if (bal.token < BigInt(settings.collectThreshold) || bal.token <= 0n) return null;
  const sweep = await db.transaction(async (tx) => {
    await tx.select({ id: tronWallets.id }).from(tronWallets).where(eq(tronWallets.id, wallet.id)).for('update');
    const [again] = await tx.select().from(tronSweeps).where(and(eq(tronSweeps.kind, 'collect'), eq(tronSweeps.fromAddress, wallet.addressBase58), openStatus));
    if (again) return again;
    const [row] = await tx
      .insert(tronSweeps)
      .values({
        number: sweepNumber('C'), kind: 'collect', fromAddress: wallet.addressBase58, toAddress: hot.addressBase58, amount: Number(bal.token), asset: 'USDT',
        status: TRON_SWEEP_STATUS.pending, remark: `Collect ${(Number(bal.token) / 1e6).toFixed(6)} USDT`,
      })
      .returning();
    return row;
  });
  return advanceSweep(db, sweep);
}

/** Signs, stores (conditional on no hash yet) and broadcasts a sweep's transaction; answers the row. */
async function send(db: Db, sweep: Sweep, sign: () => Promise<{ txHash: string; signed: unknown }>): Promise<Sweep> {
  if (sweep.txHash) return sweep;
  const signed = await sign();
  const [stored] = await db
    .update(tronSweeps)
    .set({ txHash: signed.txHash })
    .where(and(eq(tronSweeps.id, sweep.id), isNull(tronSweeps.txHash), eq(tronSweeps.status, TRON_SWEEP_STATUS.pending)))
    .returning();
  if (!stored) {
    const [cur] = await db.select().from(tronSweeps).where(eq(tronSweeps.id, sweep.id));
    return cur;
  }
  rememberSigned(signed);
  await chainSenderOf(db).broadcast(signed);
  return stored;
}

async function finish(db: Db, sweep: Sweep, status: number, remark?: string): Promise<Sweep> {
  const [row] = await db
    .update(tronSweeps)
    .set({ status, confirmedAt: status === TRON_SWEEP_STATUS.unknown ? null : new Date(), ...(remark ? { remark: remark.slice(0, 1000) } : {}) })
    .where(and(eq(tronSweeps.id, sweep.id), openStatus))
    .returning();
  if (row && status !== TRON_SWEEP_STATUS.unknown) await refreshBalances(db, [sweep.fromAddress, sweep.toAddress]).catch(() => undefined);
  return row ?? sweep;
}

/** The stored balances of our wallets among these addresses, from the node (reconcile after a sweep). */
export async function refreshBalances(db: Db, addresses: string[]) {
  const settings = await tronSettingsOf(db);
  const contractHex = toHexAddress(settings.usdtContract);
  for (const a of new Set(addresses)) {
    const w = await walletByAddress(db, a);
    if (!w) continue;
    const bal = await chainReaderOf(db).balances(w.addressHex, contractHex);
    await db.update(tronWallets).set({ usdtBalance: Number(bal.token), trxBalance: Number(bal.trx), balanceSyncedAt: new Date() }).where(eq(tronWallets.id, w.id));
  }
}

/** The outcome of a sent sweep's transaction: success / failed at the depth; unknown past the timeout. */
async function settleSent(db: Db, sweep: Sweep): Promise<Sweep> {
  const out = await chainOutcome(db, sweep.txHash!);
  if (out.status === 'success') return finish(db, sweep, TRON_SWEEP_STATUS.success);
  if (out.status === 'failed') return finish(db, sweep, TRON_SWEEP_STATUS.failed, `${sweep.remark ?? ''} — ${out.reason}`);
  if (out.status === 'unknown') {
    const again = signedOf(sweep.txHash!);
    if (again) await chainSenderOf(db).broadcast(again).catch(() => undefined);
    const cfg = await paymentSettings(db);
    if (sweep.status === TRON_SWEEP_STATUS.pending && Date.now() - sweep.createdAt.getTime() >= cfg.disburseTimeoutMinutes * 60_000) {
      return finish(db, sweep, TRON_SWEEP_STATUS.unknown, `${sweep.remark ?? ''} — not found on chain after ${cfg.disburseTimeoutMinutes} minutes: to reconcile`);
    }
  }
  return sweep;
}

/** Moves a sweep one step on (idempotent: each step is conditional on the row's state). */
export async function advanceSweep(db: Db, sweep: Sweep): Promise<Sweep> {
  if (sweep.status === TRON_SWEEP_STATUS.success || sweep.status === TRON_SWEEP_STATUS.failed) return sweep;
  if (sweep.txHash) return settleSent(db, sweep);
  if (sweep.kind !== 'collect') return sweep;
  const settings = await tronSettingsOf(db);
  const contractHex = toHexAddress(settings.usdtContract);
  const wallet = await walletByAddress(db, sweep.fromAddress);
  if (!wallet) return finish(db, sweep, TRON_SWEEP_STATUS.failed, 'The deposit wallet is gone');
  const [gas] = await db.select().from(tronSweeps).where(and(eq(tronSweeps.parentId, sweep.id), eq(tronSweeps.kind, 'gas')));
  const sender = chainSenderOf(db);
  const sendUsdt = async () => {
    const bal = await chainReaderOf(db).balances(wallet.addressHex, contractHex);
    if (bal.token <= 0n) return finish(db, sweep, TRON_SWEEP_STATUS.failed, 'Nothing left to collect on chain');
    if (Number(bal.token) !== sweep.amount) await db.update(tronSweeps).set({ amount: Number(bal.token) }).where(and(eq(tronSweeps.id, sweep.id), isNull(tronSweeps.txHash)));
    return send(db, { ...sweep, amount: Number(bal.token) }, () =>
      sender.signUsdt(db, { walletId: wallet.id, addressBase58: wallet.addressBase58 }, sweep.toAddress, Number(bal.token), settings.usdtContract),
    );
  };
  if (!gas) {
    const bal = await chainReaderOf(db).balances(wallet.addressHex, contractHex);
    if (bal.trx >= BigInt(settings.gasTopUpSun)) return sendUsdt();
    const gw = await gasWallet(db);
    if (!gw) return finish(db, sweep, TRON_SWEEP_STATUS.failed, 'No gas wallet to pay the energy');
    const need = settings.gasTopUpSun - Number(bal.trx);
    const child = await db.transaction(async (tx) => {
      await tx.select({ id: tronSweeps.id }).from(tronSweeps).where(eq(tronSweeps.id, sweep.id)).for('update');
      const [existing] = await tx.select().from(tronSweeps).where(and(eq(tronSweeps.parentId, sweep.id), eq(tronSweeps.kind, 'gas')));
      if (existing) return existing;
      const [row] = await tx
        .insert(tronSweeps)
        .values({
          number: sweepNumber('G'), kind: 'gas', fromAddress: gw.addressBase58, toAddress: wallet.addressBase58, amount: need, asset: 'TRX',
          status: TRON_SWEEP_STATUS.pending, parentId: sweep.id, remark: `Gas for collect ${sweep.number}: ${(need / 1e6).toFixed(6)} TRX`,
        })
        .returning();
      return row;
    });
    await send(db, child, () => sender.signTrx(db, { walletId: gw.id, addressBase58: gw.addressBase58 }, wallet.addressBase58, child.amount));
    return sweep;
  }
  if (gas.status === TRON_SWEEP_STATUS.success) return sendUsdt();
  if (gas.status === TRON_SWEEP_STATUS.failed) return finish(db, sweep, TRON_SWEEP_STATUS.failed, `${sweep.remark ?? ''} — the gas top-up ${gas.number} failed`);
  if (!gas.txHash) {
    const gw = await walletByAddress(db, gas.fromAddress);
    if (!gw) return finish(db, gas, TRON_SWEEP_STATUS.failed, 'The gas wallet is gone');
    await send(db, gas, () => sender.signTrx(db, { walletId: gw.id, addressBase58: gw.addressBase58 }, wallet.addressBase58, gas.amount));
    return sweep;
  }
  const g = await settleSent(db, gas);
  if (g.status === TRON_SWEEP_STATUS.success) return sendUsdt();
  if (g.status === TRON_SWEEP_STATUS.failed) return finish(db, sweep, TRON_SWEEP_STATUS.failed, `${sweep.remark ?? ''} — the gas top-up ${gas.number} failed`);
  return sweep;
}

/** The periodic `tron.sweeps` job: every open collect moves a step on. */
export async function advanceOpenSweeps(db: Db, limit = 200): Promise<number> {
  const open = await db
    .select()
    .from(tronSweeps)
    .where(and(eq(tronSweeps.kind, 'collect'), openStatus))
    .orderBy(asc(tronSweeps.id))
    .limit(limit);
  for (const s of open) {
    try {
      await advanceSweep(db, s);
    } catch (err) {
      if (err instanceof AppError) continue;
      throw err;
    }
  }
  return open.length;
}
