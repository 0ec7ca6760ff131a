import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { TronWeb } from 'tronweb';
import { tronweb } from './lib.js';
import { LOG_TYPE } from '@dau/domain';
import { okAnswer, tronConfirmBody, tronLiveBalanceAnswer, tronSyncAnswer, tronWalletAnswer, tronWalletCreate, tronWalletFilters } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Db, Executor } from '../../platform/db.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { defineList, registerList, scopeCondition, scopeOf, type Scope, likeEscape } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { bettors } from '../money/index.js';
import { currentKeyWrapper, newSealedAccount, withPrivateKey } from './keys.js';
import { tronClient } from './runtime.js';
import { TRON_WALLET_ROLE, tronSettings, tronWallets } from './schema.js';

/**
 * TRON wallets (page `tron`): create (collection/hot, gas, or a bettor's deposit wallet), remove (soft),
 * the balance asked from the node now, sync of every stored balance (a durable job), list and detail.
 * Services for the bettor app, the simulator and the money flows (T2): depositAddressFor, sendUsdt,
 * sendTrx. A wallet's key is only ever opened inside withPrivateKey, to sign one transaction.
 *
 * Scope: a deposit wallet belongs to its bettor's agent (agent_id), so an agent sees the deposit wallets
 * of their branch; house wallets (collection, gas) have no agent and only the whole-book scope sees them.
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A wallet as answers read it: never the key columns. */
type WalletRow = Omit<typeof tronWallets.$inferSelect, 'keyCiphertext' | 'keyIv' | 'keyTag' | 'dataKeyWrapped' | 'removedBy'>;

export function toWalletRow(r: { w: WalletRow; phone: string | null }) {
  const w = r.w;
  return {
    id: w.id, role: w.role, bettor_id: w.bettorId, bettor_phone: r.phone, agent_id: w.agentId, address_base58: w.addressBase58,
    address_hex: w.addressHex, public_key: w.publicKey, trx_balance: w.trxBalance, usdt_balance: w.usdtBalance,
    balance_synced_at: iso(w.balanceSyncedAt), removed: w.removed, removed_at: iso(w.removedAt), create_time: w.createdAt.toISOString(),
    created_by: w.createdBy,
  };
}

/** Only the columns an answer may carry: the key columns are never read for a list or a detail. */
const selectWallets = (ex: Executor) =>
  ex
    .select({
      w: {
        id: tronWallets.id, role: tronWallets.role, bettorId: tronWallets.bettorId, agentId: tronWallets.agentId,
        addressBase58: tronWallets.addressBase58, addressHex: tronWallets.addressHex, publicKey: tronWallets.publicKey,
        trxBalance: tronWallets.trxBalance, usdtBalance: tronWallets.usdtBalance, balanceSyncedAt: tronWallets.balanceSyncedAt,
        removed: tronWallets.removed, removedAt: tronWallets.removedAt, createdAt: tronWallets.createdAt, createdBy: tronWallets.createdBy,
      },
      phone: bettors.phone,
    })
    .from(tronWallets)
    .leftJoin(bettors, eq(bettors.id, tronWallets.bettorId));

type Filters = z.infer<typeof tronWalletFilters>;

function addressCondition(input: string): SQL {
  const a = input.replace(/^0x/, '');
  if (/^41[0-9a-fA-F]{40}$/.test(a)) return eq(tronWallets.addressHex, a.toLowerCase());
  if (tronweb().TronWeb.isAddress(a)) return eq(tronWallets.addressBase58, a);
  return ilike(tronWallets.addressBase58, `%${likeEscape(input)}%`);
}

function walletWhere(q: Filters, scope: Scope): SQL | undefined {
  return and(
    scopeCondition(scope, tronWallets.agentId),
    q.id ? eq(tronWallets.id, q.id) : undefined,
    q.role ? eq(tronWallets.role, q.role) : undefined,
    q.bettor_id ? eq(tronWallets.bettorId, q.bettor_id) : undefined,
    q.phone ? ilike(bettors.phone, `%${likeEscape(q.phone.replace(/\s+/g, ''))}%`) : undefined,
    q.address ? addressCondition(q.address) : undefined,
    q.removed !== undefined ? eq(tronWallets.removed, q.removed === '1' || q.removed === 'true') : undefined,
  );
}

export const TRON_WALLET_LIST = defineList({
  name: 'tron',
  page: 'tron',
  path: '/api/v1/tron/wallets',
  filters: tronWalletFilters,
  where: walletWhere,
  select: selectWallets,
  idColumn: tronWallets.id,
  sortable: { id: tronWallets.id, trx_balance: tronWallets.trxBalance, usdt_balance: tronWallets.usdtBalance, create_time: tronWallets.createdAt },
  defaultSort: '-id',
  toRow: toWalletRow,
  row: tronWalletAnswer,
  columns: [
    { key: 'id' }, { key: 'role' }, { key: 'bettor_id' }, { key: 'bettor_phone' }, { key: 'address_base58' }, { key: 'address_hex' },
    { key: 'public_key' }, { key: 'trx_balance' }, { key: 'usdt_balance' }, { key: 'balance_synced_at' }, { key: 'removed' },
    { key: 'removed_at' }, { key: 'create_time' },
  ],
});

// ─── Services ──────────────────────────────────────────────────────────────

/** The TRON settings row (created with its defaults when missing). */
export async function tronSettingsOf(ex: Executor) {
  const [row] = await ex.select().from(tronSettings).where(eq(tronSettings.id, 1));
  if (row) return row;
  await ex.insert(tronSettings).values({ id: 1 }).onConflictDoNothing();
  const [created] = await ex.select().from(tronSettings).where(eq(tronSettings.id, 1));
  return created!;
}

/** A new wallet with a fresh TronWeb key pair, its key sealed (keys.ts). */
export async function createWallet(ex: Executor, w: { role: number; bettorId?: number | null; agentId?: number | null; createdBy?: number | null }) {
  const account = await newSealedAccount(currentKeyWrapper());
  const [row] = await ex
    .insert(tronWallets)
    .values({ role: w.role, bettorId: w.bettorId ?? null, agentId: w.agentId ?? null, createdBy: w.createdBy ?? null, ...account })
    .returning({ id: tronWallets.id, addressBase58: tronWallets.addressBase58, addressHex: tronWallets.addressHex });
  return row!;
}

/**
 * The bettor's deposit address, created on first request (bettor app, simulator). Concurrent first
 * requests make one wallet: the unique index on the bettor (among wallets not removed) decides.
 */
export async function depositAddressFor(ex: Executor, bettorId: number): Promise<{ walletId: number; addressBase58: string; addressHex: string }> {
  const existing = async () => {
    const [w] = await ex
      .select({ id: tronWallets.id, addressBase58: tronWallets.addressBase58, addressHex: tronWallets.addressHex })
      .from(tronWallets)
      .where(and(eq(tronWallets.bettorId, bettorId), eq(tronWallets.removed, false)));
    return w ? { walletId: w.id, addressBase58: w.addressBase58, addressHex: w.addressHex } : null;
  };
  const found = await existing();
  if (found) return found;
  const [b] = await ex.select({ id: bettors.id, agentId: bettors.agentId }).from(bettors).where(eq(bettors.id, bettorId));
  if (!b) throw badRequest('PARAM_INVALID', [{ field: 'bettor_id', message: 'no such bettor' }]);
  const account = await newSealedAccount(currentKeyWrapper());
  const [row] = await ex
    .insert(tronWallets)
    .values({ role: TRON_WALLET_ROLE.deposit, bettorId, agentId: b.agentId, ...account })
    .onConflictDoNothing()
    .returning({ id: tronWallets.id, addressBase58: tronWallets.addressBase58, addressHex: tronWallets.addressHex });
  if (row) return { walletId: row.id, addressBase58: row.addressBase58, addressHex: row.addressHex };
  return (await existing())!;
}

/** The house wallet of a role (collection/hot or gas): the oldest one not removed. */
export async function houseWallet(ex: Executor, role: 2 | 3) {
  const [w] = await ex
    .select({ id: tronWallets.id, addressBase58: tronWallets.addressBase58 })
    .from(tronWallets)
    .where(and(eq(tronWallets.role, role), eq(tronWallets.removed, false), isNull(tronWallets.bettorId)))
    .orderBy(asc(tronWallets.id))
    .limit(1);
  return w ?? null;
}

/** A broadcast the node refused (its code: SIGERROR, CONTRACT_VALIDATE_ERROR, BANDWITH_ERROR, ...). Nothing was sent. */
export class TronBroadcastError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'TronBroadcastError';
  }
}

async function walletAddress(ex: Executor, walletId: number) {
  const [w] = await ex.select({ address: tronWallets.addressBase58, removed: tronWallets.removed }).from(tronWallets).where(eq(tronWallets.id, walletId));
  if (!w) throw new TronBroadcastError('NO_WALLET', `No TRON wallet ${walletId}`);
  return w.address;
}

/**
 * Signs (inside withPrivateKey) and broadcasts a USDT TRC-20 transfer of `amount` 6-decimal units from
 * the wallet to `to`; answers the transaction id. A refused broadcast throws TronBroadcastError (nothing
 * sent); a network failure after the broadcast left this process throws as it is (outcome unknown:
 * reconcile by the transaction id, which the caller can compute only after signing — see sendUsdtBuilt).
 */
export async function sendUsdt(ex: Executor, walletId: number, to: string, amount: number, opts: { feeLimit?: number } = {}): Promise<string> {
  return (await buildAndSend(ex, walletId, to, amount, 'USDT', opts)).txId;
}

/** Signs and broadcasts a TRX transfer of `amount` sun; answers the transaction id. */
export async function sendTrx(ex: Executor, walletId: number, to: string, amount: number): Promise<string> {
  return (await buildAndSend(ex, walletId, to, amount, 'TRX')).txId;
}

/**
 * The same in two steps for callers that must record the transaction id before the broadcast (an
 * outcome that is unknown after a crash is then reconciled by its id): `prepare` builds and signs and
 * answers the id and the signed transaction; `broadcast` sends it.
 */
export async function prepareTransfer(ex: Executor, walletId: number, to: string, amount: number, asset: 'USDT' | 'TRX', opts: { feeLimit?: number } = {}) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new TronBroadcastError('BAD_AMOUNT', 'The amount must be a positive integer');
  if (!tronweb().TronWeb.isAddress(to)) throw new TronBroadcastError('BAD_ADDRESS', 'Not a TRON address');
  const from = await walletAddress(ex, walletId);
  const tw = tronClient(from);
  let unsigned: any;
  if (asset === 'TRX') {
    unsigned = await tw.transactionBuilder.sendTrx(to, amount, from);
  } else {
    const settings = await tronSettingsOf(ex);
    const built: any = await tw.transactionBuilder.triggerSmartContract(
      settings.usdtContract,
      'transfer(address,uint256)',
      { feeLimit: opts.feeLimit ?? 30_000_000 },
      [
        { type: 'address', value: to },
        { type: 'uint256', value: amount },
      ],
      from,
    );
    if (!built?.result?.result) throw new TronBroadcastError('BUILD_FAILED', 'The node did not build the transfer');
    unsigned = built.transaction;
  }
  const tw2 = tronClient();
  const signed = await withPrivateKey(ex, walletId, (pk) => tw2.trx.sign(unsigned, pk));
  return { txId: signed.txID as string, signed };
}

export async function broadcastSigned(signed: any): Promise<string> {
  const r: any = await tronClient().trx.sendRawTransaction(signed);
  if (r.result !== true) {
    const msg = r.message ? Buffer.from(String(r.message), 'hex').toString('utf8') : String(r.code ?? 'broadcast refused');
    throw new TronBroadcastError(String(r.code ?? 'BROADCAST_FAILED'), msg);
  }
  return signed.txID as string;
}

async function buildAndSend(ex: Executor, walletId: number, to: string, amount: number, asset: 'USDT' | 'TRX', opts: { feeLimit?: number } = {}) {
  const { signed } = await prepareTransfer(ex, walletId, to, amount, asset, opts);
  return { txId: await broadcastSigned(signed) };
}

/** Asks the node for a wallet's TRX and USDT (head and solidified) and stores the head balances. */
export async function refreshBalance(ex: Executor, walletId: number) {
  const [w] = await ex.select({ id: tronWallets.id, address: tronWallets.addressBase58 }).from(tronWallets).where(eq(tronWallets.id, walletId));
  if (!w) throw notFound();
  const settings = await tronSettingsOf(ex);
  const tw = tronClient(w.address);
  const [trx, trxConfirmed, usdt, usdtConfirmed] = await Promise.all([
    tw.trx.getUnconfirmedBalance(w.address),
    tw.trx.getBalance(w.address),
    usdtBalanceOf(tw, settings.usdtContract, w.address, false),
    usdtBalanceOf(tw, settings.usdtContract, w.address, true),
  ]);
  const now = new Date();
  await ex.update(tronWallets).set({ trxBalance: Number(trx), usdtBalance: usdt, balanceSyncedAt: now }).where(eq(tronWallets.id, walletId));
  return { id: w.id, address_base58: w.address, trx_balance: Number(trx), usdt_balance: usdt, trx_balance_confirmed: Number(trxConfirmed), usdt_balance_confirmed: usdtConfirmed, balance_synced_at: now.toISOString() };
}

/** balanceOf through a constant call (the solidified state with `confirmed`). */
export async function usdtBalanceOf(tw: TronWeb, contract: string, address: string, confirmed: boolean): Promise<number> {
  const fn = confirmed ? tw.transactionBuilder.triggerConfirmedConstantContract.bind(tw.transactionBuilder) : tw.transactionBuilder.triggerConstantContract.bind(tw.transactionBuilder);
  const r: any = await fn(contract, 'balanceOf(address)', {}, [{ type: 'address', value: address }], address);
  const hex = r?.constant_result?.[0];
  if (typeof hex !== 'string' || !hex.length) throw new Error('balanceOf answered nothing');
  return Number(BigInt('0x' + hex));
}

export const SYNC_BALANCES_JOB = 'tron.sync_balances';

/** Every wallet not removed, its balances asked from the node and stored (idempotent; a failed wallet is retried with the job). */
export async function syncAllBalances(db: Db) {
  const rows = await db.select({ id: tronWallets.id }).from(tronWallets).where(eq(tronWallets.removed, false)).orderBy(asc(tronWallets.id));
  let failed = 0;
  for (const r of rows) {
    try {
      await refreshBalance(db, r.id);
    } catch {
      failed++;
    }
  }
  if (failed) throw new Error(`tron balance sync: ${failed} of ${rows.length} wallets not answered`);
}

/** The house wallets (collection/hot and gas), created once when missing (one process at a time). */
export async function ensureHouseWallets(db: Db) {
  await db.transaction(async (tx) => ensureHouseWalletsIn(tx));
}

/** The same inside the caller's transaction (the seed's). */
export async function ensureHouseWalletsIn(tx: Executor) {
  await tx.execute(sql`select pg_advisory_xact_lock(7301401)`);
  await tronSettingsOf(tx);
  if (!(await houseWallet(tx, 2))) await createWallet(tx, { role: TRON_WALLET_ROLE.collection });
  if (!(await houseWallet(tx, 3))) await createWallet(tx, { role: TRON_WALLET_ROLE.gas });
}

// ─── Routes ────────────────────────────────────────────────────────────────

async function scopedWallet(ex: Executor, scope: Scope, id: number) {
  const [row] = await selectWallets(ex).where(eq(tronWallets.id, id));
  if (!row) throw notFound();
  if (!scope.all && (row.w.agentId === null || !agentInScope(scope, row.w.agentId))) throw new AppError(403, 'FORBIDDEN');
  return row;
}

export function walletRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tron'];
  const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

  ctx.jobs.define(SYNC_BALANCES_JOB, async () => syncAllBalances(db), { retryLimit: 3 });

  registerList(app, db, TRON_WALLET_LIST);

  r.get('/api/v1/tron/wallets/:id', { config: { access: { page: 'tron' } }, schema: { tags, summary: 'Read one TRON wallet', params: idParams, response: { 200: tronWalletAnswer } } }, async (req) => {
    const scope = await scopeOf(db, authOf(req));
    return toWalletRow(await scopedWallet(db, scope, req.params.id));
  });

  r.get(
    '/api/v1/tron/wallets/:id/balance',
    { config: { access: { page: 'tron' } }, schema: { tags, summary: "A wallet's TRX and USDT asked from the node now (stored as its balance)", params: idParams, response: { 200: tronLiveBalanceAnswer } } },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      await scopedWallet(db, scope, req.params.id);
      try {
        return await refreshBalance(db, req.params.id);
      } catch (err) {
        if (err instanceof AppError) throw err;
        req.log.warn({ walletId: req.params.id, err: err instanceof Error ? err.message : String(err) }, 'TRON node did not answer a balance');
        throw new AppError(503, 'TRON_NODE_UNAVAILABLE');
      }
    },
  );

  r.post(
    '/api/v1/tron/wallets',
    { config: { access: { page: 'tron', button: 'create' } }, schema: { tags, summary: 'Create a TRON wallet (a fresh key pair, its key encrypted)', body: tronWalletCreate, response: { 201: tronWalletAnswer } } },
    async (req, reply) => {
      const auth = authOf(req);
      const body = req.body;
      const scope = await scopeOf(db, auth);
      const created = await db.transaction(async (tx) => {
        let id: number;
        if (body.role === TRON_WALLET_ROLE.deposit) {
          if (!body.bettor_id) throw badRequest('PARAM_INVALID', [{ field: 'bettor_id', message: 'a deposit wallet belongs to a bettor' }]);
          const [b] = await tx.select({ agentId: bettors.agentId }).from(bettors).where(eq(bettors.id, body.bettor_id));
          if (!b) throw badRequest('PARAM_INVALID', [{ field: 'bettor_id', message: 'no such bettor' }]);
          if (!agentInScope(scope, b.agentId)) throw new AppError(403, 'FORBIDDEN');
          id = (await depositAddressFor(tx, body.bettor_id)).walletId;
        } else {
          // House wallets hold the book's money: whole-book admins only.
          if (!scope.all) throw new AppError(403, 'FORBIDDEN');
          if (body.bettor_id) throw badRequest('PARAM_INVALID', [{ field: 'bettor_id', message: 'only a deposit wallet belongs to a bettor' }]);
          id = (await createWallet(tx, { role: body.role, createdBy: auth.admin.id })).id;
        }
        const [row] = await selectWallets(tx).where(eq(tronWallets.id, id));
        const a = toWalletRow(row!);
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Created TRON wallet #${a.id} (${a.address_base58})`, after: a });
        return a;
      });
      return reply.status(201).send(created);
    },
  );

  r.delete(
    '/api/v1/tron/wallets/:id',
    { config: { access: { page: 'tron', button: 'delete' } }, schema: { tags, summary: 'Remove a TRON wallet (soft: the row and its key stay, it is no longer used)', params: idParams, body: tronConfirmBody, response: { 200: okAnswer } } },
    async (req) => {
      const auth = authOf(req);
      const scope = await scopeOf(db, auth);
      await db.transaction(async (tx) => {
        const before = await scopedWallet(tx, scope, req.params.id);
        if (before.w.removed) return;
        await tx.update(tronWallets).set({ removed: true, removedAt: new Date(), removedBy: auth.admin.id }).where(eq(tronWallets.id, req.params.id));
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Removed TRON wallet #${req.params.id} (${before.w.addressBase58})`, before: toWalletRow(before) });
      });
      return { ok: true };
    },
  );

  r.post(
    '/api/v1/tron/wallets/sync',
    { config: { access: { page: 'tron', button: 'sync_balance', duty: { ring: 'book', setting: 'tron_sync' } } }, schema: { tags, summary: "Sync every wallet's stored balance from the node (a background job)", body: tronConfirmBody, response: { 202: tronSyncAnswer } } },
    async (req, reply) => {
      const scope = await scopeOf(db, authOf(req));
      if (!scope.all) throw new AppError(403, 'FORBIDDEN');
      const [n] = await db.select({ n: sql<number>`count(*)::int` }).from(tronWallets).where(eq(tronWallets.removed, false));
      await db.transaction(async (tx) => {
        await ctx.jobs.send(tx, SYNC_BALANCES_JOB, {});
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: 'Queued the sync of every TRON wallet balance' });
      });
      return reply.status(202).send({ queued: true, wallets: Number(n?.n ?? 0) });
    },
  );
}
