import { and, eq, inArray, sql } from 'drizzle-orm';
import { PAY_TYPE } from '@dau/domain';
import type { Db, Executor, Tx } from '../../platform/db.js';
import { recordReceivedRecharges } from '../payments/index.js';
import { tronSettings, tronTransfers, tronWallets, TRON_TRANSFER_STATUS, TRON_WALLET_ROLE } from './schema.js';
import { toBase58, type ChainBlock, type ChainTransfer } from './chain-reader.js';

/**
 * Deposits: a confirmed USDT transfer to a bettor's deposit address becomes a recharge (pay type USDT)
 * with its bill and journal entry on HOUSE.usdtClearing, exactly once per fingerprint
 * (`${txHash}:${eventIndex}`):
 *  - tron_transfers.fingerprint is unique: the row is inserted (or moved from seen/reorganised to confirmed)
 *    by ONE statement, and only the statement that did it credits, in the same transaction;
 *  - the recharge's carrier order number is the fingerprint, unique per pay type: a second credit could
 *    not insert its recharge even if the first guard were bypassed (payments' recordReceivedRecharges
 *    credits a whole block in a few set-based statements);
 *  - the watcher's position advances in that same transaction (watcher.ts), so a crash loses the whole
 *    block's work or none of it.
 * A failed transaction (OUT_OF_ENERGY, REVERT…) is recorded as failed and never credited; a transfer seen
 * in a block that was reorganised away is marked reorganised and never credited unless the canonical
 * chain includes it again.
 *
 * Rate: usdt_rate_tsh is cents of TSh per 1 USDT; a deposit of `units` (6 decimals) is credited
 * floor(units × rate / 1,000,000) cents: rounded DOWN to the cent.
 */

export type TronSettings = typeof tronSettings.$inferSelect;

export async function tronSettingsOf(ex: Executor): Promise<TronSettings> {
  const [row] = await ex.select().from(tronSettings).where(eq(tronSettings.id, 1));
  if (row) return row;
  await ex.insert(tronSettings).values({ id: 1 }).onConflictDoNothing();
  const [again] = await ex.select().from(tronSettings).where(eq(tronSettings.id, 1));
  return again;
}

/** Cents of TSh for `units` of USDT (6 decimals) at `rate` cents per USDT, rounded down to the cent. */
export function usdtToCents(units: bigint | number, rate: number): number {
  return Number((BigInt(units) * BigInt(rate)) / 1_000_000n);
}

/** USDT units (6 decimals) for `cents` of TSh at `rate` cents per USDT, rounded down to the unit. */
export function centsToUsdt(cents: number, rate: number): number {
  return Number((BigInt(cents) * 1_000_000n) / BigInt(rate));
}

export interface WalletRef {
  id: number;
  role: number;
  bettorId: number | null;
  agentId: number | null;
  addressHex: string;
}

/** Our wallets among these hex addresses (removed ones too: money sent to them is still ours). */
export async function walletsByHex(ex: Executor, hexes: string[]): Promise<Map<string, WalletRef>> {
  const out = new Map<string, WalletRef>();
  if (!hexes.length) return out;
  const rows = await ex
    .select({ id: tronWallets.id, role: tronWallets.role, bettorId: tronWallets.bettorId, agentId: tronWallets.agentId, addressHex: tronWallets.addressHex })
    .from(tronWallets)
    .where(inArray(tronWallets.addressHex, [...new Set(hexes)]));
  for (const r of rows) out.set(r.addressHex, r);
  return out;
}

export interface Relevant {
  t: ChainTransfer;
  /** The wallet whose record this is: the receiver when it is ours, else the sender. */
  wallet: WalletRef;
  direction: 'in' | 'out';
  /** The sender is one of ours too (a collection, a gas wallet…): recorded, never credited. */
  internal: boolean;
}

/** The USDT transfers of a block to or from our addresses. */
export async function relevantTransfers(ex: Executor, block: ChainBlock, contractHex: string): Promise<Relevant[]> {
  const usdt = block.transfers.filter((t) => t.contract === contractHex);
  if (!usdt.length) return [];
  const ours = await walletsByHex(ex, usdt.flatMap((t) => [t.to, t.from]));
  const out: Relevant[] = [];
  for (const t of usdt) {
    const to = ours.get(t.to);
    const from = ours.get(t.from);
    if (to) out.push({ t, wallet: to, direction: 'in', internal: !!from });
    else if (from) out.push({ t, wallet: from, direction: 'out', internal: false });
  }
  return out;
}

const fingerprintOf = (t: ChainTransfer) => `${t.txHash}:${t.eventIndex}`;

function rowOf(r: Relevant, block: { number: number; time: Date }, status: number, remark: string | null) {
  return {
    fingerprint: fingerprintOf(r.t), txHash: r.t.txHash, eventIndex: r.t.eventIndex, blockNumber: block.number, blockTime: block.time,
    fromAddress: toBase58(r.t.from), toAddress: toBase58(r.t.to), amount: Number(r.t.amount), direction: r.direction,
    walletId: r.wallet.id, bettorId: r.wallet.bettorId, agentId: r.wallet.agentId, status, remark,
  };
}

/** Records transfers of a block not yet confirmed (status seen): shown, never credited from here. */
export async function recordSeen(ex: Executor, block: ChainBlock, relevant: Relevant[]) {
  if (!relevant.length) return;
  await ex
    .insert(tronTransfers)
    .values(relevant.map((r) => rowOf(r, block, r.t.success ? TRON_TRANSFER_STATUS.seen : TRON_TRANSFER_STATUS.failed, null)))
    .onConflictDoNothing();
}

export interface ConfirmResult {
  credited: number;
  creditedCents: number;
  failed: number;
  recorded: number;
}

/**
 * Applies a block at the confirmation depth, in the caller's transaction: each transfer is confirmed (and,
 * to a bettor's deposit address from outside, credited) once; failed ones recorded failed; transfers that
 * were seen in this block but are no longer in it are marked reorganised.
 */
export async function confirmBlock(tx: Tx, block: ChainBlock, relevant: Relevant[], settings: TronSettings): Promise<ConfirmResult> {
  const res: ConfirmResult = { credited: 0, creditedCents: 0, failed: 0, recorded: 0 };
  const confirmed = relevant.filter((r) => r.t.success);
  const failed = relevant.filter((r) => !r.t.success);
  if (failed.length) {
    // A failed transaction moved nothing: recorded as failed (a seen row of it too), never credited.
    const rows = failed.map((r) => rowOf(r, block, TRON_TRANSFER_STATUS.failed, 'Failed on chain: no tokens moved'));
    await tx.insert(tronTransfers).values(rows).onConflictDoNothing();
    await tx
      .update(tronTransfers)
      .set({ status: TRON_TRANSFER_STATUS.failed, blockNumber: block.number, remark: 'Failed on chain: no tokens moved' })
      .where(and(inArray(tronTransfers.fingerprint, rows.map((r) => r.fingerprint)), eq(tronTransfers.status, TRON_TRANSFER_STATUS.seen)));
    res.failed = failed.length;
  }
  if (confirmed.length) {
    const fps = confirmed.map((r) => fingerprintOf(r.t));
    // The one statement per transfer that may credit it: a seen (or reorganised) row moved to confirmed,
    // or a new row inserted as confirmed. Whoever's statement returned the fingerprint credits it.
    const moved = await tx
      .update(tronTransfers)
      .set({ status: TRON_TRANSFER_STATUS.confirmed, blockNumber: block.number, blockTime: block.time, remark: null })
      .where(and(inArray(tronTransfers.fingerprint, fps), inArray(tronTransfers.status, [TRON_TRANSFER_STATUS.seen, TRON_TRANSFER_STATUS.reorganised])))
      .returning({ id: tronTransfers.id, fingerprint: tronTransfers.fingerprint });
    const inserted = await tx
      .insert(tronTransfers)
      .values(confirmed.map((r) => rowOf(r, block, TRON_TRANSFER_STATUS.confirmed, null)))
      .onConflictDoNothing()
      .returning({ id: tronTransfers.id, fingerprint: tronTransfers.fingerprint });
    const mine = new Map([...moved, ...inserted].map((x) => [x.fingerprint, x.id]));
    res.recorded = mine.size;
    const credits: { bettorId: number; payType: number; amount: number; carrierRef: string }[] = [];
    const dust: number[] = [];
    for (const r of confirmed) {
      const fp = fingerprintOf(r.t);
      const id = mine.get(fp);
      if (id === undefined) continue;
      const creditable = r.direction === 'in' && !r.internal && r.wallet.role === TRON_WALLET_ROLE.deposit && r.wallet.bettorId !== null;
      if (!creditable) continue;
      const cents = usdtToCents(r.t.amount, settings.usdtRateTsh);
      if (cents <= 0) dust.push(id);
      else credits.push({ bettorId: r.wallet.bettorId!, payType: PAY_TYPE.usdt, amount: cents, carrierRef: fp });
    }
    if (dust.length) await tx.update(tronTransfers).set({ remark: 'Below one cent at the rate: not credited' }).where(inArray(tronTransfers.id, dust));
    // The whole block's credits in a few statements (payments: one recharge, bill and journal entry each).
    const made = await recordReceivedRecharges(tx, credits);
    if (made.size) {
      const rate = (settings.usdtRateTsh / 100).toFixed(2);
      const values = [...made].map(
        ([fp, r]) => sql`(${fp}, ${r.id}::bigint, ${`Credited TSh ${(r.amount / 100).toFixed(2)} at ${rate} per USDT (${r.serialNumber})`})`,
      );
      for (let i = 0; i < values.length; i += 1000) {
        await tx.execute(sql`
          UPDATE tron_transfers t SET recharge_id = d.rid, remark = d.remark
          FROM (VALUES ${sql.join(values.slice(i, i + 1000), sql`, `)}) AS d(fp, rid, remark) WHERE t.fingerprint = d.fp`);
      }
      res.credited = made.size;
      res.creditedCents = [...made.values()].reduce((a, r) => a + r.amount, 0);
    }
  }
  // Seen in this block before, but not in it now: the block was reorganised. Never credited from here.
  await tx
    .update(tronTransfers)
    .set({ status: TRON_TRANSFER_STATUS.reorganised, remark: 'Reorganised away: not in the canonical chain' })
    .where(and(eq(tronTransfers.status, TRON_TRANSFER_STATUS.seen), sql`${tronTransfers.blockNumber} <= ${block.number}`));
  return res;
}

/** The bettor's credited USDT deposits (for tests and the simulator). */
export async function creditedTransfers(db: Db, bettorId: number) {
  return db.select().from(tronTransfers).where(and(eq(tronTransfers.bettorId, bettorId), eq(tronTransfers.status, TRON_TRANSFER_STATUS.confirmed)));
}
