/**
 * Activity qualifications (spec §2: a bettor's participation in a promotion): the lists (pending or
 * qualified, and the customer-service view that needs a phone) and the approval of a row that no
 * campaign made (a campaign's row is approved in ./routes.ts with its award and budget). A qualification
 * is in the scope of its row's agent (the bettor's branch, kept on the row).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, eq, ilike } from 'drizzle-orm';
import { ACCOUNT_KIND, CREDIT_BILL_TYPE, LOG_TYPE } from '@dau/domain';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { AppError, notFound } from '../../platform/errors.js';
import { idempotent } from '../../platform/idempotency.js';
import { defineList, isoDate, optionalInt, optionalText, registerList, scopeCondition, scopeOf, withinDates, likeEscape } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { HOUSE, bettorPhoneCondition, bettors, countReward, post } from '../money/index.js';
import { activityQualifications } from './schema.js';

const num = z.number();
const str = z.string();
const maybe = <T extends z.ZodType>(t: T) => t.nullable();
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const activityFilters = z.object({
  bettor_id: optionalInt, phone: optionalText, activity: optionalText, status: optionalInt, created_at_from: isoDate, created_at_to: isoDate,
});
/** An activity participation row as the activity screens show it. */
const activityAnswer = z.object({
  id: num, bettor_id: num, phone: str, name: str, activity: str, status: num, reward: num, remark: maybe(str), create_time: str, qualified_time: maybe(str),
  /** Promotions (issue 17): the campaign of the row and the award's bill once approved. */
  campaign_id: maybe(num), bill_id: maybe(num),
});
const activityList = (name: string, page: string, path: string, require?: (q: z.infer<typeof activityFilters>) => 'CS_PHONE_REQUIRED' | null) =>
  defineList({
    name, page, path, filters: activityFilters, require, scopeMode: require ? 'serving' : 'own',
    where: (q, scope) =>
      and(
        scopeCondition(scope, activityQualifications.agentId),
        q.bettor_id ? eq(activityQualifications.bettorId, q.bettor_id) : undefined,
        q.phone ? bettorPhoneCondition(q.phone) : undefined,
        q.activity ? ilike(activityQualifications.activity, `%${likeEscape(q.activity)}%`) : undefined,
        q.status ? eq(activityQualifications.status, q.status) : undefined,
        withinDates(activityQualifications.createdAt, q.created_at_from, q.created_at_to),
      ),
    select: (ex) =>
      ex.select({ a: activityQualifications, phone: bettors.phone, name: bettors.name }).from(activityQualifications).innerJoin(bettors, eq(bettors.id, activityQualifications.bettorId)),
    idColumn: activityQualifications.id,
    sortable: { id: activityQualifications.id, reward: activityQualifications.reward },
    defaultSort: '-id',
    toRow: (r: { a: typeof activityQualifications.$inferSelect; phone: string; name: string }) => ({
      id: r.a.id, bettor_id: r.a.bettorId, phone: r.phone, name: r.name, activity: r.a.activity, status: r.a.status, reward: r.a.reward,
      remark: r.a.remark, create_time: r.a.createdAt.toISOString(), qualified_time: iso(r.a.qualifiedAt), campaign_id: r.a.campaignId, bill_id: r.a.billId,
    }),
    row: activityAnswer,
    columns: [{ key: 'id' }, { key: 'phone' }, { key: 'name' }, { key: 'activity' }, { key: 'status', enum: 'activity_qualification' }, { key: 'reward', money: true }, { key: 'create_time' }, { key: 'qualified_time' }],
  });

export const ACTIVITY_LISTS = [
  activityList('activity_qualification', 'activity_qualification', '/api/v1/money/activity_qualification'),
  activityList('cs_activity_qualification', 'cs_activity_qualification', '/api/v1/money/cs/activity_qualification', (q) => (q.phone ? null : 'CS_PHONE_REQUIRED')),
];

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export function registerQualificationRoutes(app: FastifyInstance, db: Db) {
  for (const spec of ACTIVITY_LISTS) registerList(app, db, spec);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/v1/money/activity_qualification/:id/approve', {
    config: { access: { page: 'activity_qualification', button: 'edit' } },
    schema: {
      tags: ['activity_qualification'], summary: 'Approve a pending activity qualification of the caller\'s scope (credit money)', params: idParams,
      body: z.strictObject({ reward: z.number().int().min(0).max(100_000_000_00), remark: z.string().trim().max(200).default('') }),
      response: { 200: z.object({ id: num, status: num, reward: num }) },
    },
  }, async (req) => {
    const auth = authOf(req);
    const scope = await scopeOf(db, auth);
    return idempotent(db, req, async (tx) => {
      const [a] = await tx.select().from(activityQualifications).where(eq(activityQualifications.id, req.params.id)).for('update');
      if (!a) throw notFound();
      if (!agentInScope(scope, a.agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
      // A campaign's row is approved with its award and budget (POST /api/v1/promotions/qualifications/:id/approve).
      if (a.campaignId != null) throw new AppError(422, 'PROMO_CAMPAIGN_ROW');
      // The transition is guarded by the state: a second approval finds it no longer pending.
      if (a.status !== 1) throw new AppError(409, 'CONFLICT');
      await tx.update(activityQualifications).set({ status: 2, reward: req.body.reward, remark: req.body.remark, reviewedBy: auth.admin.id, qualifiedAt: new Date() }).where(eq(activityQualifications.id, a.id));
      if (req.body.reward > 0) {
        await post(tx, {
          bettorId: a.bettorId, account: ACCOUNT_KIND.credit, amount: req.body.reward, type: CREDIT_BILL_TYPE.activity_credit_granted,
          cause: { type: 'promotion', id: a.id }, house: HOUSE.creditIssued, adminId: auth.admin.id, remark: { kind: 'activity', params: { name: a.activity } },
        });
        await countReward(tx, a.bettorId, req.body.reward);
      }
      await writeAudit(tx, req, { type: LOG_TYPE.update_balance, content: `Activity "${a.activity}" qualified, credit ${req.body.reward}`, before: { status: 1 }, after: { status: 2, reward: req.body.reward } });
      return { id: a.id, status: 2, reward: req.body.reward };
    });
  });
}
