import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bigIdParams, bulkAnswer, bulkIdsBody, bulkRefuseBody, payConfigResource, rawText } from '@dau/contract';
import { LOG_TYPE } from '@dau/domain';
import { paymentConfig } from './schema.js';
import { authOf } from '../../platform/access.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { eachRow } from '../../platform/bulk.js';
import { registerList, scopeOf } from '../../platform/listing.js';
import { registerResource } from '../../platform/resource.js';
import type { AppContext } from '../../platform/context.js';
import {
  airtelTransferSpec, csRechargeListSpec, csWithdrawalListSpec, rechargeAnswer, rechargeArchiveSpec, rechargeListSpec, rechargeRow,
  withdrawalAnswer, withdrawalArchiveSpec, withdrawalListSpec, withdrawalRow,
} from './lists.js';
import { paymentsOf, receiveCallback } from './callbacks.js';
import { DISBURSE_JOB, approveWithdrawal, refuseWithdrawal, runDisbursement } from './withdrawals.js';
import {
  REQUERY_STUCK_JOB, reconcileRecharge, reconcileWithdrawal, requeryRecharge, requeryStuck, requeryWithdrawal,
} from './reconciliation.js';
import type { Actor } from './shared.js';
import { providerRoutes } from './providers-routes.js';
import { networkRoutes } from './network-routes.js';

const idParams = bigIdParams;
const refuseBody = z.strictObject({ reason: rawText(300) });
/** The reference and remark are checked by the service (RECONCILE_REFERENCE_REQUIRED, RECONCILE_REMARK_REQUIRED). */
const evidence = { reference: rawText(1000).optional(), remark: rawText(2000).optional() };
const reconcileWithdrawalBody = z.strictObject({ outcome: z.enum(['paid', 'not_paid']), ...evidence });
const reconcileRechargeBody = z.strictObject({ outcome: z.enum(['credited', 'not_credited']), ...evidence });
/** Re-queries of the stuck queue, as the system (all processes offer it; one runs per minute). */
const REQUERY_STUCK_SECONDS = 60;
/** Our answer `{ ok, duplicate?, reason? }`, or the acknowledgement body the provider's API documents. */
const callbackAnswer = z.record(z.string(), z.unknown());
const AIRTEL = 4;

/**
 * Recharges, withdrawals, the Airtel transfer list, the payment settings and the operators' callback
 * route. Every list is a ListSpec (scope, filters and exports alike); every action answers the updated
 * row, ready for the console's toast and table.
 */
export function paymentRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const rt = paymentsOf(db);
  // The payments logger: its level is System › Server log settings' "payments" row.
  const log = ctx.logs?.of('payments') ?? app.log;
  rt.log = (msg, extra) => log.warn({ payments: extra }, msg);
  // The sandboxes post their callbacks through the real HTTP route, signature check included.
  rt.deliver = async (payType, headers, rawBody) =>
    (await app.inject({ method: 'POST', url: `/api/v1/payments/callback/${payType}`, headers, payload: rawBody })).statusCode;
  app.addHook('onClose', async () => rt.scheduler.close?.());
  rt.jobs = ctx.jobs;
  providerRoutes(app, ctx);

  // The disbursement of an approved withdrawal: enqueued in the approval's transaction, retried with
  // back-off while the operator does not answer (the serial number keeps the operator from paying twice).
  ctx.jobs.define<{ withdrawalId: number }>(DISBURSE_JOB, ({ withdrawalId }) => runDisbursement(db, withdrawalId), {
    retryLimit: 8,
    retryDelaySeconds: 2,
    workers: ctx.databaseKind === 'pg' ? 4 : 1,
  });
  ctx.jobs.every(REQUERY_STUCK_JOB, REQUERY_STUCK_SECONDS, async () => {
    const run = await requeryStuck(db);
    if (run.resolved) log.info({ payments: run }, 'stuck payments resolved by re-query');
  });

  for (const spec of [
    rechargeListSpec, csRechargeListSpec, rechargeArchiveSpec, withdrawalListSpec, csWithdrawalListSpec, withdrawalArchiveSpec, airtelTransferSpec,
  ]) {
    registerList(app, db, spec as never);
  }

  const r = app.withTypeProvider<ZodTypeProvider>();
  const actor = async (req: FastifyRequest): Promise<Actor> => {
    const auth = authOf(req);
    return { adminId: auth.admin.id, scope: await scopeOf(db, auth), req };
  };

  r.post(
    '/api/v1/money/withdrawals/:id/approve',
    {
      config: { access: { page: 'withdraw_list', button: 'approve' } },
      schema: { tags: ['withdraw_list'], summary: 'Approve a withdrawal (a second approver above the large amount)', params: idParams, response: { 200: withdrawalAnswer } },
    },
    async (req) => {
      const w = await approveWithdrawal(ctx, await actor(req), req.params.id);
      return withdrawalRow(db, w.id);
    },
  );

  r.post(
    '/api/v1/money/withdrawals/:id/refuse',
    { config: { access: { page: 'withdraw_list', button: 'refuse' } }, schema: { tags: ['withdraw_list'], summary: 'Refuse a withdrawal and return its money', params: idParams, body: refuseBody, response: { 200: withdrawalAnswer } } },
    async (req) => {
      const w = await refuseWithdrawal(db, await actor(req), req.params.id, req.body.reason);
      return withdrawalRow(db, w.id);
    },
  );

  // Issue 29, bulk review: the selected withdrawals, each through the single route's service (its scope,
  // hold, large-amount and state rules) in its own transaction; every row's outcome in the answer.
  r.post(
    '/api/v1/money/withdrawals/approve',
    {
      config: { access: { page: 'withdraw_list', button: 'approve' } },
      schema: {
        tags: ['withdraw_list'],
        summary: 'Approve many withdrawals: each as the single approval (a large one waits for a second admin), each row\'s outcome answered',
        body: bulkIdsBody, response: { 200: bulkAnswer },
      },
    },
    async (req) => {
      const a = await actor(req);
      return eachRow(req, { db, type: LOG_TYPE.update_balance, what: 'Bulk approval of withdrawals' }, req.body.ids, async (id) => ({
        status: (await approveWithdrawal(ctx, a, id)).status,
      }));
    },
  );

  r.post(
    '/api/v1/money/withdrawals/refuse',
    {
      config: { access: { page: 'withdraw_list', button: 'refuse' } },
      schema: { tags: ['withdraw_list'], summary: 'Refuse many withdrawals with one reason, each as the single refusal; each row\'s outcome answered', body: bulkRefuseBody, response: { 200: bulkAnswer } },
    },
    async (req) => {
      // The reason is the call's, not a row's: a missing one refuses the call as the single route does.
      if (!req.body.reason.trim()) throw badRequest('REFUSE_REASON_REQUIRED', [{ field: 'reason' }]);
      const a = await actor(req);
      return eachRow(req, { db, type: LOG_TYPE.update_balance, what: 'Bulk refusal of withdrawals' }, req.body.ids, async (id) => ({
        status: (await refuseWithdrawal(db, a, id, req.body.reason)).status,
      }));
    },
  );

  r.post(
    '/api/v1/money/withdrawals/:id/requery',
    {
      config: { access: { page: 'withdraw_list', button: 'requery' } },
      schema: { tags: ['withdraw_list'], summary: 'Ask the operator for a withdrawal\'s outcome', params: idParams, response: { 200: withdrawalAnswer } },
    },
    async (req) => {
      const w = await requeryWithdrawal(db, await actor(req), req.params.id);
      return withdrawalRow(db, w.id);
    },
  );

  r.post(
    '/api/v1/money/withdrawals/:id/reconcile',
    {
      config: { access: { page: 'withdraw_list', button: 'reconcile' } },
      schema: {
        tags: ['withdraw_list'],
        summary: "Settle a withdrawal whose outcome the operator cannot tell, from the operator's statement (paid, or not paid: the money is returned)",
        params: idParams, body: reconcileWithdrawalBody, response: { 200: withdrawalAnswer },
      },
    },
    async (req) => {
      const { outcome, reference = '', remark = '' } = req.body;
      const w = await reconcileWithdrawal(db, await actor(req), req.params.id, { moved: outcome === 'paid', reference, remark });
      return withdrawalRow(db, w.id);
    },
  );

  r.post(
    '/api/v1/money/recharges/:id/reconcile',
    {
      config: { access: { page: 'recharge_list', button: 'reconcile' } },
      schema: {
        tags: ['recharge_list'],
        summary: "Settle a recharge whose outcome the operator cannot tell, from the operator's statement (credited, or not credited)",
        params: idParams, body: reconcileRechargeBody, response: { 200: rechargeAnswer },
      },
    },
    async (req) => {
      const { outcome, reference = '', remark = '' } = req.body;
      const x = await reconcileRecharge(db, await actor(req), req.params.id, { moved: outcome === 'credited', reference, remark });
      return rechargeRow(db, x.id);
    },
  );

  r.post(
    '/api/v1/money/recharges/:id/requery',
    {
      config: { access: { page: 'recharge_list', button: 'requery' } },
      schema: { tags: ['recharge_list'], summary: 'Ask the operator for a recharge\'s outcome', params: idParams, response: { 200: rechargeAnswer } },
    },
    async (req) => {
      const x = await requeryRecharge(db, await actor(req), req.params.id);
      return rechargeRow(db, x.id);
    },
  );

  // The Airtel desk re-queries only Airtel transfers.
  r.post(
    '/api/v1/money/airtel_transfer/:kind/:id/requery',
    {
      config: { access: { page: 'airtel_transfer', button: 'requery' } },
      schema: {
        tags: ['airtel_transfer'], summary: 'Ask Airtel for the outcome of a recharge or withdrawal',
        params: idParams.extend({ kind: z.enum(['recharge', 'withdrawal']) }), response: { 200: z.union([rechargeAnswer, withdrawalAnswer]) },
      },
    },
    async (req) => {
      const a = await actor(req);
      if (req.params.kind === 'recharge') return rechargeRow(db, (await requeryRecharge(db, a, req.params.id, { payType: AIRTEL })).id);
      return withdrawalRow(db, (await requeryWithdrawal(db, a, req.params.id, { payType: AIRTEL })).id);
    },
  );

  // The operators' callback: public, authenticated by its signature over the raw body, answered at once.
  app.register(async (cb) => {
    cb.removeAllContentTypeParsers();
    cb.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    cb.withTypeProvider<ZodTypeProvider>().post(
      '/api/v1/payments/callback/:pay_type',
      {
        config: { access: { public: true } },
        schema: {
          tags: ['payments'], summary: 'A mobile-money provider\'s callback (M-Pesa, Airtel or the aggregator, in its own format), checked as its API documents',
          params: z.object({ pay_type: z.coerce.number().int().min(0).max(99) }), response: { 200: callbackAnswer },
        },
      },
      async (req) => {
        const res = await receiveCallback(db, req.params.pay_type, req.headers, typeof req.body === 'string' ? req.body : '');
        // payment_callbacks is the trail of accepted callbacks; refused ones fall to the audit safety net.
        req.audited = true;
        return res.body as Record<string, unknown>;
      },
    );
  });

  registerResource(app, db, {
    def: payConfigResource,
    table: paymentConfig,
    singletonId: 1,
    auditType: LOG_TYPE.update_balance,
    prepare: (v, { before }) => {
      const b = (before ?? {}) as Record<string, unknown>;
      const val = (key: string, col: string) => Number(v[key] ?? b[key] ?? b[col]);
      for (const k of ['stuck_after_minutes', 'disburse_timeout_minutes']) {
        if (v[k] !== undefined && !Number.isInteger(v[k])) throw badRequest('PARAM_INVALID', [{ field: k }]);
      }
      if (val('min_withdrawal', 'minWithdrawal') > val('max_withdrawal', 'maxWithdrawal')) {
        throw new AppError(422, 'PAY_CONFIG_INVALID', {}, [{ field: 'min_withdrawal' }]);
      }
    },
  });

  // Issue 28: a bettor's number marked as ported to another network (the prefix check then follows it).
  networkRoutes(app, ctx);
}
