import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAY_TYPE } from '@dau/domain';
import { startRecharge } from './recharges.js';
import { requestWithdrawal } from './withdrawals.js';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { scopeOf } from '../../platform/listing.js';
import { scopedBettor } from '../money/index.js';

const payType = z.union([z.literal(PAY_TYPE.tigo), z.literal(PAY_TYPE.airtel), z.literal(PAY_TYPE.vodacom), z.literal(PAY_TYPE.halotel)]);
const body = z.strictObject({ bettor_id: z.number().int().positive(), pay_type: payType, amount: z.number().int().positive() });
/** A recharge by the app's payment request (default) or by the operator's USSD push prompt (bill 11). */
const rechargeBody = body.extend({ channel: z.enum(['app', 'ussd']).optional() });
const withdrawalAnswer = z.object({ id: z.number(), serial_number: z.string(), status: z.number(), amount: z.number() });
const rechargeAnswer = z.object({ id: z.number(), serial_number: z.string(), pay_status: z.number(), amount: z.number() });

/**
 * SANDBOX ONLY (registered when DAU_SANDBOX_ROUTES=1, never by default): the bettor-facing requests a
 * bettor app would make, so demos and browser tests can create a recharge or a withdrawal on demand
 * instead of waiting for the simulator. They call the same services and need a signed-in admin with the
 * list's page, and the bettor must lie in their scope (404 / 403 OUT_OF_SCOPE otherwise).
 */
export function sandboxPaymentRoutes(app: FastifyInstance, { db }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const inScope = async (req: Parameters<typeof authOf>[0], bettorId: number) => scopedBettor(db, await scopeOf(db, authOf(req)), bettorId);
  r.post('/api/v1/sandbox/withdrawals', {
    config: { access: { page: 'withdraw_list' } },
    schema: { tags: ['sandbox'], summary: 'Request a withdrawal for a bettor of the caller\'s scope (sandbox only)', body, response: { 201: withdrawalAnswer } },
  }, async (req, reply) => {
    await inScope(req, req.body.bettor_id);
    const w = await requestWithdrawal(db, { bettorId: req.body.bettor_id, payType: req.body.pay_type, amount: req.body.amount });
    return reply.status(201).send({ id: w.id, serial_number: w.serialNumber, status: w.status, amount: w.amount });
  });
  r.post('/api/v1/sandbox/recharges', {
    config: { access: { page: 'recharge_list' } },
    schema: { tags: ['sandbox'], summary: 'Start a recharge (app request or USSD push) for a bettor of the caller\'s scope (sandbox only)', body: rechargeBody, response: { 201: rechargeAnswer } },
  }, async (req, reply) => {
    await inScope(req, req.body.bettor_id);
    const rc = await startRecharge(db, { bettorId: req.body.bettor_id, payType: req.body.pay_type, amount: req.body.amount, channel: req.body.channel });
    return reply.status(201).send({ id: rc.id, serial_number: rc.serialNumber, pay_status: rc.payStatus, amount: rc.amount });
  });
}
