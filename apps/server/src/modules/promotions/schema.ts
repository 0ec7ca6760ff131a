import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Promotions (issue 17): campaigns, the per-bettor progress of rules that need memory (sign-in streaks),
 * bonus grants (bonus funds on the credit account with wagering and expiry) and the outbox of events
 * (sign-in, deposit, settled orders, invitation, credit bets) written in the cause's transaction and
 * evaluated by the `promotions.events` job. Qualification rows are
 * `activity_qualifications` (campaign_id, period_key). Money in cents.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

export interface CampaignRewardJson {
  kind: 'cash' | 'bonus';
  fixed_cents: number | null;
  percent_bps: number | null;
  cap_cents: number | null;
}

export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** signin_streak | invitation | bet_to_get | deposit_match | custom (contract CAMPAIGN_TYPES). */
    type: text('type').notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** Branch: bettors of this agent's subtree qualify; null = every bettor (super admin only). */
    agentId: integer('agent_id'),
    rules: jsonb('rules').$type<Record<string, unknown>>().notNull(),
    reward: jsonb('reward').$type<CampaignRewardJson>().notNull(),
    budgetCents: cents('budget_cents').notNull(),
    /** Awards approved so far; the guarded UPDATE keeps it ≤ budget_cents. */
    spentCents: cents('spent_cents').notNull().default(0),
    wageringMultiplier: integer('wagering_multiplier').notNull().default(0),
    bonusExpiryDays: integer('bonus_expiry_days').notNull().default(30),
    autoApprove: boolean('auto_approve').notNull().default(false),
    /** draft | active | paused | ended */
    status: text('status').notNull().default('draft'),
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_status').on(t.status, t.type),
    index('campaigns_agent').on(t.agentId),
    // The budget guard also holds in the database: no code path can spend beyond it.
    check('campaigns_budget_not_overspent', sql`${t.spentCents} >= 0 and ${t.spentCents} <= ${t.budgetCents}`),
  ],
);

/** Memory of a rule per (campaign, bettor, period): e.g. `{ last_day: '2026-11-25', streak: 3 }`. */
export const campaignProgress = pgTable(
  'campaign_progress',
  {
    campaignId: integer('campaign_id').notNull(),
    bettorId: integer('bettor_id').notNull(),
    periodKey: text('period_key').notNull(),
    state: jsonb('state').$type<Record<string, unknown>>().notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.bettorId, t.periodKey] })],
);

/**
 * Bonus funds granted by an approved qualification (credit bill 101): credit bets (103) use `remaining`
 * (oldest expiry first) and count towards `wagered`; past `expires_at` an active grant's remaining is
 * removed with credit bill 105 once (the status update from 'active' is the guard).
 */
export const bonusGrants = pgTable(
  'bonus_grants',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bettorId: integer('bettor_id').notNull(),
    campaignId: integer('campaign_id').notNull(),
    qualificationId: bigint('qualification_id', { mode: 'number' }).notNull(),
    amount: cents('amount').notNull(),
    remaining: cents('remaining').notNull(),
    wageringRequired: cents('wagering_required').notNull().default(0),
    wagered: cents('wagered').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    /** active | completed (wagering met, or nothing left) | expired */
    status: text('status').notNull().default('active'),
    grantBillId: bigint('grant_bill_id', { mode: 'number' }),
    expiredBillId: bigint('expired_bill_id', { mode: 'number' }),
    expiredAmount: cents('expired_amount').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bonus_grants_qualification').on(t.qualificationId),
    index('bonus_grants_bettor_active').on(t.bettorId, t.expiresAt).where(sql`${t.status} = 'active'`),
    index('bonus_grants_expiry').on(t.expiresAt).where(sql`${t.status} = 'active'`),
    index('bonus_grants_campaign').on(t.campaignId),
  ],
);

/**
 * The outbox of promotion events: written by the owning module in the cause's transaction (so an event
 * exists if and only if its cause committed), evaluated in id order by the `promotions.events` job.
 * kind: signin | deposit | settled | invited | credit_bet.
 */
export const promotionEvents = pgTable(
  'promotion_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    bettorId: integer('bettor_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    at: ts('at').notNull().defaultNow(),
    processedAt: ts('processed_at'),
    /** Failed evaluations so far; past the limit the event is set aside (processed_at set, error kept). */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [index('promotion_events_unprocessed').on(t.id).where(sql`${t.processedAt} is null`)],
);

/**
 * Wagering progress: one row per (grant, settled order) whose stake counted towards the grant's
 * `wagered`. The primary key is the guard: a replayed settlement counts once; an order voided or rolled
 * back later removes its row (and its stake) from the grants still active.
 */
export const bonusWagering = pgTable(
  'bonus_wagering',
  {
    grantId: bigint('grant_id', { mode: 'number' }).notNull(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    stake: cents('stake').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.grantId, t.orderId] }), index('bonus_wagering_order').on(t.orderId)],
);

/**
 * What a credit bet took from which grants' remaining (`parts`), once per order (the primary key is
 * the guard against a replayed credit_bet event). `refunded` flips when the order is voided (its credit
 * refund gives the grants their part back) and back when the void is undone, each by a conditional UPDATE.
 */
export const bonusOrderSpends = pgTable('bonus_order_spends', {
  orderId: bigint('order_id', { mode: 'number' }).primaryKey(),
  bettorId: integer('bettor_id').notNull(),
  parts: jsonb('parts').$type<{ grant_id: number; amount: number }[]>().notNull(),
  refunded: boolean('refunded').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Spec §2 activity qualification: a bettor's participation in a promotion; success grants credit money. */
export const activityQualifications = pgTable(
  'activity_qualifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bettorId: integer('bettor_id').notNull(),
    agentId: integer('agent_id').notNull(),
    activity: text('activity').notNull(),
    /** 1 pending, 2 success (domain ACTIVITY_QUALIFICATION). */
    status: smallint('status').notNull().default(1),
    /** Credit money granted on success, cents. */
    reward: cents('reward').notNull().default(0),
    remark: text('remark').notNull().default(''),
    reviewedBy: integer('reviewed_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    qualifiedAt: ts('qualified_at'),
    /** Promotions (issue 17): the campaign the row qualifies for (null: a row of the old seed / by hand). */
    campaignId: integer('campaign_id'),
    /** The campaign's period the row belongs to ('all', or e.g. 'invitee:42'): one row per (campaign, bettor, period). */
    periodKey: text('period_key'),
    /** The amount the reward is computed from (deposit, stakes), cents. */
    qualifyingAmount: cents('qualifying_amount'),
    /** The award's bill (cash bill or credit bill 101) once approved. */
    billId: bigint('bill_id', { mode: 'number' }),
    approvedAt: ts('approved_at'),
  },
  (t) => [
    uniqueIndex('activity_qualifications_once').on(t.bettorId, t.activity).where(sql`${t.campaignId} is null`),
    uniqueIndex('activity_qualifications_campaign_once').on(t.campaignId, t.bettorId, t.periodKey).where(sql`${t.campaignId} is not null`),
    index('activity_qualifications_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
    index('activity_qualifications_created').on(t.createdAt.desc().nullsFirst()),
  ],
);
