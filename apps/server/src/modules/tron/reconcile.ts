import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { scopeCondition, type Scope } from '../../platform/listing.js';
import { tronTransfers, tronWallets, TRON_TRANSFER_STATUS, TRON_WALLET_ROLE } from './schema.js';
import { toHexAddress } from './chain-reader.js';
import { tronSettingsOf } from './deposits.js';
import { chainReaderOf } from './watcher.js';
import { pageOffset } from '../../platform/paging.js';

export type { TronReconcileRow as ReconcileRow } from '@dau/contract';
import type { TronReconcileRow as ReconcileRow } from '@dau/contract';

export async function reconciliation(
  db: Db,
  scope: Scope,
  q: { page?: number; size?: number; role?: number; wallet_id?: number; live?: boolean },
): Promise<{ rows: ReconcileRow[]; total: number; ceiling: number }> {
  const settings = await tronSettingsOf(db);
  const size = Math.min(Math.max(q.size ?? 20, 1), 100);
  const page = Math.max(q.page ?? 1, 1);
  const where = and(
    // The house's own wallets (no bettor) are seen with the whole book only; deposit wallets in the branch.
    scope.all ? undefined : scopeCondition(scope, tronWallets.agentId),
    q.role ? eq(tronWallets.role, q.role) : undefined,
    q.wallet_id ? eq(tronWallets.id, q.wallet_id) : undefined,
  );
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(tronWallets).where(where);
  const wallets = await db
    .select()
    .from(tronWallets)
    .where(where)
    .orderBy(asc(tronWallets.role), asc(tronWallets.id))
    .limit(size)
    .offset(pageOffset({ page, page_size: size }));
  const addrs = wallets.map((w) => w.addressBase58);
  const flows = addrs.length
    ? await db
        .select({
          to: tronTransfers.toAddress,
          from: tronTransfers.fromAddress,
          amount: sql<string>`sum(${tronTransfers.amount})`,
        })
        .from(tronTransfers)
        .where(and(eq(tronTransfers.status, TRON_TRANSFER_STATUS.confirmed), or(inArray(tronTransfers.toAddress, addrs), inArray(tronTransfers.fromAddress, addrs))))
        .groupBy(tronTransfers.toAddress, tronTransfers.fromAddress)
    : [];
  const expected = new Map<string, number>();
  for (const f of flows) {
    expected.set(f.to, (expected.get(f.to) ?? 0) + Number(f.amount));
    expected.set(f.from, (expected.get(f.from) ?? 0) - Number(f.amount));
  }
  const contractHex = toHexAddress(settings.usdtContract);
  const reader = chainReaderOf(db);
  const rows: ReconcileRow[] = [];
  for (const w of wallets) {
    let chain: { trx: bigint; token: bigint } | null = null;
    let nodeError: string | null = null;
    if (q.live !== false) {
      try {
        chain = await reader.balances(w.addressHex, contractHex);
      } catch (err) {
        nodeError = String((err as Error).message ?? err).slice(0, 200);
      }
    }
    const exp = expected.get(w.addressBase58) ?? 0;
    const chainUsdt = chain ? Number(chain.token) : null;
    const held = chainUsdt ?? w.usdtBalance;
    const above = w.role === TRON_WALLET_ROLE.collection && held > settings.hotWalletCeiling;
    rows.push({
      wallet_id: w.id, role: w.role, address: w.addressBase58, bettor_id: w.bettorId, agent_id: w.agentId, removed: w.removed,
      expected_usdt: exp, chain_usdt: chainUsdt, stored_usdt: w.usdtBalance, chain_trx: chain ? Number(chain.trx) : null,
      difference: chainUsdt === null ? null : chainUsdt - exp, balance_synced_at: w.balanceSyncedAt?.toISOString() ?? null,
      above_ceiling: above, surplus: above ? held - settings.hotWalletCeiling : 0, node_error: nodeError,
    });
  }
  return { rows, total: n, ceiling: settings.hotWalletCeiling };
}
