import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, eq } from 'drizzle-orm';
import { bigIdParams, idParams, rawText, usdtWithdrawalAnswer, usdtWithdrawalQuery } from '@dau/contract';
import { LOG_TYPE } from '@dau/domain';
import { authOf } from '../../platform/access.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import { registerList, scopeCondition, scopeOf } from '../../platform/listing.js';
import type { AppContext } from '../../platform/context.js';
import type { Actor } from '../payments/index.js';
import { tronWallets, TRON_WALLET_ROLE } from './schema.js';
import { WATCH_JOB, WATCH_SECONDS, scanChain } from './watcher.js';
import {
  RELEASE_SETTING, checkReleasable, followUpWithdrawals, registerUsdtPayments, releaseHold, hotWallet, usdtWithdrawalView, usdtWithdrawalViews,
} from './withdrawals.js';
import { COLLECT_ALL_JOB, COLLECT_JOB, SWEEPS_JOB, SWEEPS_SECONDS, advanceOpenSweeps, collectAll, runCollect } from './sweeps.js';
import { reconciliation } from './reconcile.js';
import { tronSweepListSpec, usdtTransferListSpec } from './lists.js';

/**
 * The chain watcher's jobs and the money-flow routes of issue 14 (registered by tronRoutes in index.ts):
 *  - `tron.watch` (every 3 s, one process at a time): scan the chain, then follow up the USDT withdrawals;
 *  - `tron.sweeps` (every 5 s): advance the open collections;
 *  - `tron.collect` / `tron.collect-all`: the console's collect and collect all, as durable jobs;
 *  - the lists usdt_transaction_record and tron_transaction_summary, the reconciliation view, the release
 *    of a USDT withdrawal held for address poisoning.
 * DAU_TRON_WATCHER=0 leaves the periodic jobs out (tests that drive the watcher themselves).
 */
export function tronFlowRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, jobs } = ctx;
  registerUsdtPayments(db, (msg, extra) => app.log.info({ tron: extra }, msg));

  if (process.env.DAU_TRON_WATCHER !== '0') {
    jobs.every(WATCH_JOB, WATCH_SECONDS, async () => {
      const run = await scanChain(db);
      if (run.credited) app.log.info({ tron: run }, 'USDT deposits credited');
      await followUpWithdrawals(db);
    });
    jobs.every(SWEEPS_JOB, SWEEPS_SECONDS, async () => {
      await advanceOpenSweeps(db);
    });
  }
  jobs.define<{ walletId: number }>(COLLECT_JOB, async ({ walletId }) => void (await runCollect(db, walletId)), { retryLimit: 5, retryDelaySeconds: 3 });
  jobs.define(COLLECT_ALL_JOB, async () => void (await collectAll(db, jobs)), { retryLimit: 3 });

  registerList(app, db, usdtTransferListSpec as never);
  registerList(app, db, tronSweepListSpec as never);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const actor = async (req: FastifyRequest): Promise<Actor> => {
    const auth = authOf(req);
    return { adminId: auth.admin.id, scope: await scopeOf(db, auth), req };
  };
  const queued = z.object({ queued: z.number().int() });

  r.post(
    '/api/v1/tron/wallets/:id/collect',
    {
      config: { access: { page: 'tron', button: 'collect' } },
      schema: { tags: ['tron'], summary: "Collect a deposit address's USDT into the collection wallet (a durable job; a gas top-up first when needed)", params: idParams, response: { 202: queued } },
    },
    async (req, reply) => {
      const a = await actor(req);
      await db.transaction(async (tx) => {
        const [w] = await tx
          .select()
          .from(tronWallets)
          .where(and(eq(tronWallets.id, req.params.id), a.scope.all ? undefined : scopeCondition(a.scope, tronWallets.agentId)));
        if (!w) throw notFound();
        if (w.role !== TRON_WALLET_ROLE.deposit || w.removed) throw badRequest('PARAM_INVALID', [{ field: 'id', message: 'not a deposit wallet in use' }]);
        if (!(await hotWallet(tx))) throw new AppError(422, 'NO_HOT_WALLET');
        await jobs.send(tx, COLLECT_JOB, { walletId: w.id });
        await writeAudit(tx, req, { type: LOG_TYPE.update_balance, content: `Collect queued for TRON wallet ${w.id} (${w.addressBase58})` });
      });
      return reply.code(202).send({ queued: 1 });
    },
  );

  r.post(
    '/api/v1/tron/collect_all',
    {
      config: { access: { page: 'tron', button: 'collect_all', duty: { ring: 'book', setting: 'tron_collect' } } },
      schema: { tags: ['tron'], summary: 'Collect every deposit address at or above the threshold (a durable job; the whole book only)', response: { 202: queued } },
    },
    async (req, reply) => {
      const a = await actor(req);
      if (!a.scope.all) throw new AppError(403, 'OUT_OF_SCOPE');
      await db.transaction(async (tx) => {
        if (!(await hotWallet(tx))) throw new AppError(422, 'NO_HOT_WALLET');
        await jobs.send(tx, COLLECT_ALL_JOB, {}, { singletonKey: 'collect-all', singletonSeconds: 10 });
        await writeAudit(tx, req, { type: LOG_TYPE.update_balance, content: 'Collect all queued for the TRON deposit wallets' });
      });
      return reply.code(202).send({ queued: 1 });
    },
  );

  const reconcileRow = z.object({
    wallet_id: z.number(), role: z.number(), address: z.string(), bettor_id: z.number().nullable(), agent_id: z.number().nullable(), removed: z.boolean(),
    expected_usdt: z.number(), chain_usdt: z.number().nullable(), stored_usdt: z.number(), chain_trx: z.number().nullable(), difference: z.number().nullable(),
    balance_synced_at: z.string().nullable(), above_ceiling: z.boolean(), surplus: z.number(), node_error: z.string().nullable(),
  });
  r.get(
    '/api/v1/tron/reconciliation',
    {
      config: { access: { page: 'tron' } },
      schema: {
        tags: ['tron'],
        summary: 'Per wallet: the USDT on chain (asked now) against what the confirmed transfers say it should hold; the hot wallet above its ceiling flagged',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(100_000).optional(),
          size: z.coerce.number().int().min(1).max(100).optional(),
          role: z.coerce.number().int().min(1).max(3).optional(),
          wallet_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
        }),
        response: { 200: z.object({ rows: z.array(reconcileRow), total: z.number(), ceiling: z.number() }) },
      },
    },
    async (req) => reconciliation(db, (await actor(req)).scope, req.query),
  );

  r.get(
    '/api/v1/tron/withdrawals',
    {
      config: { access: { page: 'withdraw_list' } },
      schema: {
        tags: ['withdraw_list'],
        summary: "The USDT withdrawals among `ids` (the review list's page) as the review needs them: destination, USDT amount, hold, look-alike address, a release waiting",
        querystring: usdtWithdrawalQuery,
        response: { 200: z.object({ items: z.array(usdtWithdrawalAnswer) }) },
      },
    },
    async (req) => ({ items: await usdtWithdrawalViews(db, (await actor(req)).scope, [...new Set(req.query.ids.split(',').map(Number))]) }),
  );

  r.get(
    '/api/v1/tron/withdrawals/:id',
    {
      config: { access: { page: 'withdraw_list' } },
      schema: {
        tags: ['withdraw_list'],
        summary: 'A USDT withdrawal as the review needs it: destination address, USDT amount, address-poisoning hold, the look-alike address and warning, its transaction',
        params: bigIdParams,
        response: { 200: usdtWithdrawalAnswer },
      },
    },
    async (req) => usdtWithdrawalView(db, (await actor(req)).scope, req.params.id),
  );

  r.post(
    '/api/v1/tron/withdrawals/:id/release',
    {
      // Maker-checker (issue 29): the release is stored as a pending change and applied when a second
      // whole-book admin holding the approve button approves it (platform/duties.ts).
      config: { access: { page: 'withdraw_list', button: 'approve', duty: { ring: 'two', setting: RELEASE_SETTING } } },
      schema: {
        tags: ['withdraw_list'],
        summary: 'Release a USDT withdrawal held for address poisoning (after checking the address with the bettor): waits for a second admin; then it can be approved',
        params: bigIdParams,
        body: z.strictObject({ remark: rawText(2000) }),
        response: { 200: z.object({ id: z.number(), remark: z.string().nullable() }) },
      },
      // Before the change is stored: a withdrawal that cannot be released is answered now, not at approval.
      preValidation: async (req) => {
        const id = Number((req.params as { id?: unknown }).id);
        if (Number.isSafeInteger(id) && id > 0) await checkReleasable(db, (await actor(req)).scope, id);
      },
    },
    async (req) => {
      const s = await releaseHold(db, await actor(req), req.params.id, req.body.remark, req.dutyApproval?.requestedBy);
      return { id: s.id, remark: s.remark };
    },
  );
}
