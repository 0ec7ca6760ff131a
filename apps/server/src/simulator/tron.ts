import crypto from 'node:crypto';
import { and, eq, gte, sql } from 'drizzle-orm';
import { bettors } from '../modules/money/schema.js';
import { depositAddressFor } from '../modules/tron/wallets.js';
import { tronNode } from '../modules/tron/runtime.js';
import { toBase58 } from '../modules/tron/chain-reader.js';
import { requestUsdtWithdrawal } from '../modules/tron/withdrawals.js';
import type { AppContext } from '../platform/context.js';
import type { Rng } from './rng.js';

/**
 * The simulator's USDT activity (issue 14): a bettor asks for their deposit address (the bettor app's
 * service) and an outside sender pays USDT to it through the SANDBOX TRON node's `/sandbox/deposit`, so the
 * chain watcher finds the transfer and credits it once confirmed; now and then a bettor with money asks to
 * withdraw USDT to an outside address (the review screen then has USDT withdrawals). Only against the
 * sandbox node: with a real node (TRON_FULL_NODE_URL) the deposits are skipped.
 */
export const tronDue = (roll: number) => roll >= 0.86 && roll < 0.9;

export async function simulateTron(ctx: AppContext, rng: Rng): Promise<void> {
  const db = ctx.db;
  if (rng.next() < 0.75) {
    const [b] = await db.select({ id: bettors.id }).from(bettors).where(eq(bettors.disabled, 1)).orderBy(sql`random()`).limit(1);
    if (!b) return;
    const { addressBase58 } = await depositAddressFor(db, b.id);
    const amount = rng.pick([5, 10, 20, 50, 100, 250]) * 1_000_000 + rng.int(0, 999_999);
    const res = await fetch(new URL('/sandbox/deposit', tronNode().fullNodeUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: addressBase58, amount }),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    if (res && !res.ok) await res.body?.cancel();
    return;
  }
  const [rich] = await db
    .select({ id: bettors.id, cash: bettors.cashBalance })
    .from(bettors)
    .where(and(eq(bettors.disabled, 1), gte(bettors.cashBalance, 20_000_00)))
    .orderBy(sql`random()`)
    .limit(1);
  if (!rich) return;
  const amount = Math.min(Number(rich.cash), rng.pick([10_000_00, 26_000_00, 52_000_00]));
  await requestUsdtWithdrawal(db, { bettorId: rich.id, amount, toAddress: toBase58(`41${crypto.randomBytes(20).toString('hex')}`) }).catch(() => undefined);
}
