/**
 * Promotions' console routes (issue 17; shapes in @dau/contract promotions-api.ts): campaigns (page
 * activity_campaign: list with background export, read, create, edit, delete, activate/pause under the
 * `approve` button, statistics, a bettor put on a custom campaign by hand) and the approval of
 * qualifications (page activity_qualification, button approve; one, or a batch).
 *
 * Scope: a campaign belongs to the branch of its agent_id (a non-super admin's campaigns default to
 * their own branch; agent_id null = every branch, super administrator only); a qualification to its
 * bettor's agent. An object outside the caller's scope answers 403 OUT_OF_SCOPE.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, gte, ilike, inArray, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  approveBatchAnswer, approveBatchBody, campaignAwardBody, campaignCreateBody, campaignFilters, campaignRow, campaignStatsAnswer, campaignStatsQuery,
  campaignUpdateBody, idParams, bigIdParams, okAnswer, qualificationAnswer, type CampaignType,
} from '@dau/contract';
import { LOG_TYPE, message } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Db, Executor } from '../../platform/db.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { localeOf } from '../../platform/http.js';
import { defineList, registerList, scopeCondition, scopeOf, type Scope } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { admins } from '../../platform/schema.js';
import { bettors } from '../money/index.js';
import { activityQualifications } from './schema.js';
import { awardOf, checkReward, checkRules } from './rules.js';
import { registerQualificationRoutes } from './qualifications.js';
import { campaignProgress, campaigns } from './schema.js';
import { approveQualification, inBranch, qualify } from './service.js';
import { campaignStats } from './stats.js';

type Campaign = typeof campaigns.$inferSelect;
const tags = ['activity_campaign'];
const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

const agentsOfCampaign = alias(admins, 'campaign_agent');
const creators = alias(admins, 'campaign_creator');
const countOf = (status?: number) =>
  sql<number>`(select count(*)::int from ${activityQualifications} q where q.campaign_id = ${campaigns.id}${status ? sql` and q.status = ${status}` : sql``})`;

function selectCampaigns(ex: Executor) {
  return ex
    .select({ c: campaigns, agentName: agentsOfCampaign.account, createdByName: creators.account, qualified: countOf(), pending: countOf(1) })
    .from(campaigns)
    .leftJoin(agentsOfCampaign, eq(agentsOfCampaign.id, campaigns.agentId))
    .leftJoin(creators, eq(creators.id, campaigns.createdBy));
}

type Selected = { c: Campaign; agentName: string | null; createdByName: string | null; qualified: number; pending: number };

export function toCampaignRow(r: Selected) {
  const c = r.c;
  return {
    id: c.id, name: c.name, type: c.type, status: c.status, starts_at: c.startsAt.toISOString(), ends_at: c.endsAt.toISOString(), agent_id: c.agentId,
    agent_name: r.agentName, budget_cents: c.budgetCents, spent_cents: c.spentCents, wagering_multiplier: c.wageringMultiplier, bonus_expiry_days: c.bonusExpiryDays,
    auto_approve: c.autoApprove, created_by: c.createdBy, created_by_name: r.createdByName, created_at: c.createdAt.toISOString(), updated_at: c.updatedAt.toISOString(),
    qualified: Number(r.qualified), pending: Number(r.pending), rules: c.rules, reward: c.reward,
  };
}

export const CAMPAIGN_LIST = defineList({
  name: 'activity_campaign',
  page: 'activity_campaign',
  path: '/api/v1/promotions/campaigns',
  filters: campaignFilters,
  summary: 'List promotion campaigns of my branch, filtered, sorted and paged',
  where: (q, scope) =>
    and(
      scopeCondition(scope, campaigns.agentId),
      q.name ? ilike(campaigns.name, `%${q.name.replace(/[\\%_]/g, (m) => `\\${m}`)}%`) : undefined,
      q.type ? eq(campaigns.type, q.type) : undefined,
      q.status ? eq(campaigns.status, q.status) : undefined,
      q.agent_id ? eq(campaigns.agentId, q.agent_id) : undefined,
      q.from ? gte(campaigns.endsAt, new Date(q.from)) : undefined,
      q.to ? lte(campaigns.startsAt, new Date(q.to)) : undefined,
    ),
  select: selectCampaigns,
  idColumn: campaigns.id,
  sortable: { id: campaigns.id, starts_at: campaigns.startsAt, ends_at: campaigns.endsAt, spent_cents: campaigns.spentCents, budget_cents: campaigns.budgetCents },
  defaultSort: '-id',
  toRow: toCampaignRow,
  row: campaignRow,
  columns: [
    { key: 'id' }, { key: 'name' }, { key: 'type' }, { key: 'status' }, { key: 'starts_at' }, { key: 'ends_at' }, { key: 'agent_name' },
    { key: 'budget_cents', money: true }, { key: 'spent_cents', money: true }, { key: 'qualified' }, { key: 'pending' }, { key: 'auto_approve' },
  ],
});

/** A campaign the caller may see and act on: 404 when absent, 403 outside the caller's branch. */
async function scopedCampaign(ex: Executor, scope: Scope, id: number, lock = false): Promise<Campaign> {
  const q = ex.select().from(campaigns).where(eq(campaigns.id, id));
  const [c] = lock ? await q.for('update') : await q;
  if (!c) throw notFound();
  if (!campaignInScope(scope, c)) throw new AppError(403, 'OUT_OF_SCOPE');
  return c;
}

const campaignInScope = (scope: Scope, c: Pick<Campaign, 'agentId'>) => (c.agentId == null ? scope.all : agentInScope(scope, c.agentId));

async function campaignAnswer(ex: Executor, id: number) {
  const [r] = (await selectCampaigns(ex).where(eq(campaigns.id, id))) as Selected[];
  return toCampaignRow(r);
}

const hasQualifications = async (ex: Executor, id: number) =>
  (await ex.select({ id: activityQualifications.id }).from(activityQualifications).where(eq(activityQualifications.campaignId, id)).limit(1)).length > 0;

function checkPeriod(startsAt: Date, endsAt: Date) {
  if (!(endsAt > startsAt)) throw new AppError(422, 'PROMO_PERIOD_INVALID');
}

export function registerPromotionRoutes(app: FastifyInstance, ctx: AppContext) {
  const db: Db = ctx.db;
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerList(app, db, CAMPAIGN_LIST);
  registerQualificationRoutes(app, db);

  r.get('/api/v1/promotions/campaigns/:id', {
    config: { access: { page: 'activity_campaign' } },
    schema: { tags, summary: 'Read one promotion campaign of my branch', params: idParams, response: { 200: campaignRow } },
  }, async (req) => {
    const scope = await scopeOf(db, authOf(req));
    await scopedCampaign(db, scope, req.params.id);
    return campaignAnswer(db, req.params.id);
  });

  r.post('/api/v1/promotions/campaigns', {
    config: { access: { page: 'activity_campaign', button: 'create' } },
    schema: { tags, summary: 'Create a promotion campaign (a draft) for my branch or an agent of it', body: campaignCreateBody, response: { 201: campaignRow } },
  }, async (req, reply) => {
    const auth = authOf(req);
    const scope = await scopeOf(db, auth);
    const b = req.body;
    let agentId = b.agent_id === undefined ? (auth.isSuper ? null : auth.admin.id) : b.agent_id;
    if (agentId == null && !scope.all) throw new AppError(403, 'PROMO_GLOBAL_SUPER_ONLY');
    if (agentId != null) {
      const [a] = await db.select({ id: admins.id }).from(admins).where(eq(admins.id, agentId));
      if (!a) throw notFound();
      if (!agentInScope(scope, agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
    } else agentId = null;
    const startsAt = new Date(b.starts_at);
    const endsAt = new Date(b.ends_at);
    checkPeriod(startsAt, endsAt);
    const rules = checkRules(b.type, b.rules);
    const reward = checkReward(b.type, b.reward);
    const out = await db.transaction(async (tx) => {
      const [c] = await tx
        .insert(campaigns)
        .values({
          name: b.name, type: b.type, startsAt, endsAt, agentId, rules, reward, budgetCents: b.budget_cents, wageringMultiplier: b.wagering_multiplier,
          bonusExpiryDays: b.bonus_expiry_days, autoApprove: b.auto_approve, status: 'draft', createdBy: auth.admin.id,
        })
        .returning();
      const a = await campaignAnswer(tx, c.id);
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Created promotion campaign #${c.id} "${c.name}"`, after: a });
      return a;
    });
    return reply.status(201).send(out);
  });

  r.put('/api/v1/promotions/campaigns/:id', {
    config: { access: { page: 'activity_campaign', button: 'edit' } },
    schema: { tags, summary: 'Change a promotion campaign of my branch (rules and reward only before anyone qualified)', params: idParams, body: campaignUpdateBody, response: { 200: campaignRow } },
  }, async (req) => {
    const scope = await scopeOf(db, authOf(req));
    const b = req.body;
    return db.transaction(async (tx) => {
      const c = await scopedCampaign(tx, scope, req.params.id, true);
      const type = c.type as CampaignType;
      const set: Partial<typeof campaigns.$inferInsert> = { updatedAt: new Date() };
      if (b.name !== undefined) set.name = b.name;
      if (b.starts_at !== undefined) set.startsAt = new Date(b.starts_at);
      if (b.ends_at !== undefined) set.endsAt = new Date(b.ends_at);
      checkPeriod(set.startsAt ?? c.startsAt, set.endsAt ?? c.endsAt);
      if (b.rules !== undefined || b.reward !== undefined) {
        const rules = b.rules !== undefined ? checkRules(type, b.rules) : c.rules;
        const reward = b.reward !== undefined ? checkReward(type, b.reward) : c.reward;
        const changed = JSON.stringify(rules) !== JSON.stringify(c.rules) || JSON.stringify(reward) !== JSON.stringify(c.reward);
        if (changed && (await hasQualifications(tx, c.id))) throw new AppError(409, 'PROMO_CAMPAIGN_IN_USE');
        set.rules = rules;
        set.reward = reward;
      }
      if (b.budget_cents !== undefined) {
        if (b.budget_cents < c.spentCents) throw new AppError(422, 'PROMO_BUDGET_BELOW_SPENT');
        set.budgetCents = b.budget_cents;
      }
      if (b.wagering_multiplier !== undefined) set.wageringMultiplier = b.wagering_multiplier;
      if (b.bonus_expiry_days !== undefined) set.bonusExpiryDays = b.bonus_expiry_days;
      if (b.auto_approve !== undefined) set.autoApprove = b.auto_approve;
      const before = await campaignAnswer(tx, c.id);
      // The budget guard of the database (spent ≤ budget) still holds against a concurrent approval.
      await tx.update(campaigns).set(set).where(eq(campaigns.id, c.id));
      const after = await campaignAnswer(tx, c.id);
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Edited promotion campaign #${c.id}`, before, after });
      return after;
    });
  });

  r.delete('/api/v1/promotions/campaigns/:id', {
    config: { access: { page: 'activity_campaign', button: 'delete' } },
    schema: { tags, summary: 'Delete a promotion campaign of my branch that no bettor qualified for', params: idParams, response: { 200: okAnswer } },
  }, async (req) => {
    const scope = await scopeOf(db, authOf(req));
    await db.transaction(async (tx) => {
      const c = await scopedCampaign(tx, scope, req.params.id, true);
      if (await hasQualifications(tx, c.id)) throw new AppError(409, 'PROMO_CAMPAIGN_IN_USE');
      const before = await campaignAnswer(tx, c.id);
      await tx.delete(campaignProgress).where(eq(campaignProgress.campaignId, c.id));
      await tx.delete(campaigns).where(eq(campaigns.id, c.id));
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Deleted promotion campaign #${c.id} "${c.name}"`, before });
    });
    return { ok: true };
  });

  for (const [action, from, to] of [['activate', ['draft', 'paused'], 'active'], ['pause', ['active'], 'paused']] as const) {
    r.post(`/api/v1/promotions/campaigns/:id/${action}`, {
      config: { access: { page: 'activity_campaign', button: 'approve' } },
      schema: {
        tags, params: idParams, response: { 200: campaignRow },
        summary: action === 'activate' ? 'Start (or resume) a promotion campaign of my branch: bettors qualify from now on' : 'Pause a promotion campaign of my branch: no one qualifies until it is activated again',
      },
    }, async (req) => {
      const scope = await scopeOf(db, authOf(req));
      return db.transaction(async (tx) => {
        const c = await scopedCampaign(tx, scope, req.params.id, true);
        if (c.status === to) return campaignAnswer(tx, c.id);
        if (c.status === 'ended' || (to === 'active' && c.endsAt <= new Date())) throw new AppError(409, 'PROMO_CAMPAIGN_OVER');
        if (!(from as readonly string[]).includes(c.status)) throw new AppError(409, 'CONFLICT');
        await tx.update(campaigns).set({ status: to, updatedAt: new Date() }).where(eq(campaigns.id, c.id));
        const after = await campaignAnswer(tx, c.id);
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `${action === 'activate' ? 'Activated' : 'Paused'} promotion campaign #${c.id}`, before: { status: c.status }, after: { status: to } });
        return after;
      });
    });
  }

  r.get('/api/v1/promotions/campaigns/:id/stats', {
    config: { access: { page: 'activity_campaign' } },
    schema: {
      tags, params: idParams, querystring: campaignStatsQuery, response: { 200: campaignStatsAnswer },
      summary: 'Statistics of a promotion campaign: qualified, approved, cost, GGR of the qualified bettors before and after, bonus share of NGR',
    },
  }, async (req) => {
    const scope = await scopeOf(db, authOf(req));
    const c = await scopedCampaign(db, scope, req.params.id);
    return campaignStats(db, c, req.query.window_days ?? 7);
  });

  r.post('/api/v1/promotions/campaigns/:id/award', {
    config: { access: { page: 'activity_campaign', button: 'create' } },
    schema: { tags, params: idParams, body: campaignAwardBody, response: { 201: qualificationAnswer }, summary: 'Put a bettor of my branch on a custom campaign (pending, or approved at once when it auto-approves)' },
  }, async (req, reply) => {
    const auth = authOf(req);
    const scope = await scopeOf(db, auth);
    const out = await db.transaction(async (tx) => {
      const c = await scopedCampaign(tx, scope, req.params.id);
      if (c.type !== 'custom') throw new AppError(422, 'PROMO_CUSTOM_ONLY');
      if (c.status !== 'active') throw new AppError(409, 'PROMO_CAMPAIGN_NOT_ACTIVE');
      const [b] = await tx.select({ id: bettors.id, agentId: bettors.agentId }).from(bettors).where(eq(bettors.id, req.body.bettor_id));
      if (!b) throw notFound();
      if (!agentInScope(scope, b.agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
      if (!(await inBranch(tx, c, b.agentId))) throw new AppError(422, 'PROMO_BETTOR_OUTSIDE_CAMPAIGN');
      // A percentage of no (or too small a) qualifying amount is an award of 0: its own refusal, not "already on it".
      if (awardOf(c.reward, req.body.qualifying_amount ?? null, 0) <= 0) throw new AppError(422, 'PROMO_AWARD_ZERO', {}, [{ field: 'qualifying_amount' }]);
      const id = await qualify(tx, c, b, 'all', req.body.qualifying_amount ?? null, req.body.remark ?? '');
      if (id == null) throw new AppError(409, 'PROMO_ALREADY_QUALIFIED');
      const row = await qualificationRow(tx, id);
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Put bettor #${b.id} on promotion campaign #${c.id}`, after: row });
      return row;
    });
    return reply.status(201).send(out);
  });

  r.post('/api/v1/promotions/qualifications/:id/approve', {
    config: { access: { page: 'activity_qualification', button: 'approve' } },
    schema: { tags: ['activity_qualification'], params: bigIdParams, response: { 200: qualificationAnswer }, summary: 'Approve a pending campaign qualification of my branch: the award is posted with its bill' },
  }, async (req) => {
    const auth = authOf(req);
    const scope = await scopeOf(db, auth);
    return db.transaction((tx) => approveAudited(tx, req, req.params.id, scope));
  });

  r.post('/api/v1/promotions/qualifications/approve', {
    config: { access: { page: 'activity_qualification', button: 'approve' } },
    schema: { tags: ['activity_qualification'], body: approveBatchBody, response: { 200: approveBatchAnswer }, summary: 'Approve pending campaign qualifications of my branch, each in its own transaction: approved and refused ids (one id of another branch refuses the whole call)' },
  }, async (req) => {
    const auth = authOf(req);
    const scope = await scopeOf(db, auth);
    const locale = localeOf(req);
    const ids = [...new Set(req.body.ids)];
    // One id of another branch refuses the whole call (403 OUT_OF_SCOPE, nothing approved), as every bulk
    // body does; unknown ids and per-row states (approved, budget) are answered row by row below.
    const owners = await db.select({ agentId: activityQualifications.agentId }).from(activityQualifications).where(inArray(activityQualifications.id, ids));
    if (owners.some((o) => !agentInScope(scope, o.agentId))) throw new AppError(403, 'OUT_OF_SCOPE');
    const approved = [];
    const refused = [];
    for (const id of ids) {
      try {
        approved.push(await db.transaction((tx) => approveAudited(tx, req, id, scope)));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        refused.push({ id, code: err.code, message: message(err.code, locale) });
      }
    }
    return { approved, refused };
  });
}

/** Approves one qualification in the transaction and writes its audit row; answers the row. */
async function approveAudited(tx: Executor, req: FastifyRequest, id: number, scope: Scope) {
  const done = await approveQualification(tx, id, { adminId: authOf(req).admin.id, scope });
  const row = await qualificationRow(tx, done!.row.id);
  await writeAudit(tx, req, { type: LOG_TYPE.update_balance, content: `Approved promotion qualification #${row.id} (${row.campaign_name ?? ''}), award ${row.reward}`, before: { status: 1 }, after: row });
  return row;
}

/** A qualification row as the approval answers it. */
export async function qualificationRow(ex: Executor, id: number) {
  const [r] = (await ex.execute(sql`
    SELECT q.*, c.name AS campaign_name, g.id AS grant_id, b.account_kind AS bill_account
    FROM activity_qualifications q LEFT JOIN campaigns c ON c.id = q.campaign_id LEFT JOIN bonus_grants g ON g.qualification_id = q.id
    LEFT JOIN bills b ON b.id = q.bill_id WHERE q.id = ${id}`) as unknown as { rows: Record<string, unknown>[] }).rows;
  if (!r) throw notFound();
  const n = (v: unknown) => (v == null ? null : Number(v));
  const credit = Number(r.bill_account) === 2;
  return {
    id: Number(r.id), bettor_id: Number(r.bettor_id), agent_id: n(r.agent_id), campaign_id: n(r.campaign_id), campaign_name: (r.campaign_name as string | null) ?? null,
    activity: String(r.activity), period_key: (r.period_key as string | null) ?? null, status: Number(r.status), reward: Number(r.reward),
    qualifying_amount: n(r.qualifying_amount), bill_id: credit ? null : n(r.bill_id), credit_bill_id: credit ? n(r.bill_id) : null, grant_id: n(r.grant_id),
    remark: (r.remark as string | null) ?? null, created_at: iso(new Date(r.created_at as string)) as string, approved_at: r.approved_at ? iso(new Date(r.approved_at as string)) : null,
  };
}
