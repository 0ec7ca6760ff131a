import { z } from 'zod';
import { answerRow, component } from './answers.js';
import { bigintMoney, dateTime, id, int32, queryId, queryInt32, text } from './input.js';

/**
 * Promotions (issue 17): campaigns a bettor qualifies for, their qualification rows (the existing
 * `activity_qualifications`, page `activity_qualification`), approval and statistics. Money in cents (TSh).
 *
 * Routes (all under /api/v1/promotions; page `activity_campaign` unless said otherwise):
 * - GET    /campaigns                      list (filters below), `{ items, total, page, page_size }` of campaignRow
 * - GET    /campaigns/:id                  one campaignRow
 * - POST   /campaigns                      button create, body campaignCreateBody, 201 campaignRow (status 'draft')
 * - PUT    /campaigns/:id                  button edit, body campaignUpdateBody, campaignRow (type is fixed; a
 *                                          campaign with qualifications keeps its type, rules and reward)
 * - DELETE /campaigns/:id                  button delete, `{ ok }`; only a draft or a campaign without qualifications
 * - POST   /campaigns/:id/activate         button approve, campaignRow (draft|paused → active)
 * - POST   /campaigns/:id/pause            button approve, campaignRow (active → paused)
 * - GET    /campaigns/:id/stats            query campaignStatsQuery, campaignStatsAnswer
 * - POST   /campaigns/:id/award            button create, body campaignAwardBody: puts a bettor on a campaign by
 *                                          hand (type 'custom' only), qualificationAnswer
 * - POST   /qualifications/:id/approve     page activity_qualification, button approve, qualificationAnswer
 * - POST   /qualifications/approve         page activity_qualification, button approve, body approveBatchBody,
 *                                          approveBatchAnswer (each id approved or refused with its code)
 *
 * Scope: a campaign belongs to the branch of its `agent_id` (null = every branch, super admin only); a
 * qualification to its bettor's agent.
 */

export const CAMPAIGN_TYPES = ['signin_streak', 'invitation', 'bet_to_get', 'deposit_match', 'custom'] as const;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];
export const CAMPAIGN_STATUSES = ['draft', 'active', 'paused', 'ended'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const REWARD_KINDS = ['cash', 'bonus'] as const;
export const BONUS_GRANT_STATUSES = ['active', 'completed', 'expired'] as const;

const money = (min = 0) => bigintMoney(min, 1_000_000_000_000);

// ----------------------------------------------------------------------------------------------- rules

/** N days in a row with a sign-in (calendar days in Africa/Dar_es_Salaam), within the campaign's period. */
export const signinStreakRules = z.strictObject({ days: int32(1, 366) });
/** The inviter qualifies once per invitee whose first credited deposit is at least `min_first_deposit`. */
export const invitationRules = z.strictObject({ min_first_deposit: money(1) });
/** Settled orders placed within the period whose total odds are ≥ `min_odds`: their stakes summed reach `min_stake`. */
export const betToGetRules = z.strictObject({ min_stake: money(1), min_odds: z.number().min(1).max(10_000) });
/** The bettor's first credited deposit ever, made within the period, of at least `min_first_deposit`. */
export const depositMatchRules = z.strictObject({ min_first_deposit: money(1) });
/** No rule: operators put bettors on the campaign by hand (POST /campaigns/:id/award). */
export const customRules = z.strictObject({});

export const campaignRulesByType = {
  signin_streak: signinStreakRules,
  invitation: invitationRules,
  bet_to_get: betToGetRules,
  deposit_match: depositMatchRules,
  custom: customRules,
} as const;

/** Any type's rules (the server checks them against the campaign's type with campaignRulesByType). */
export const campaignRules = z.union([signinStreakRules, invitationRules, betToGetRules, depositMatchRules, customRules]);
export type CampaignRules = z.infer<typeof campaignRules>;

// ---------------------------------------------------------------------------------------------- reward

/**
 * The award: cash (cash account) or bonus funds (credit account, with wagering and expiry). Exactly one of
 * `fixed_cents` and `percent_bps` (basis points of the qualifying amount: deposit, stakes; not for
 * signin_streak). `cap_cents`: the most one bettor receives from the campaign in total (null: no cap;
 * required with `percent_bps`: the server answers 422 PROMO_PERCENT_CAP_REQUIRED).
 */
export const campaignReward = z
  .strictObject({
    kind: z.enum(REWARD_KINDS),
    fixed_cents: money(1).nullable().optional(),
    percent_bps: int32(1, 100_000).nullable().optional(),
    cap_cents: money(1).nullable().optional(),
  })
  .refine((r) => (r.fixed_cents != null) !== (r.percent_bps != null), { message: 'exactly one of fixed_cents and percent_bps' });
export type CampaignReward = z.infer<typeof campaignReward>;

// ------------------------------------------------------------------------------------------- campaigns

export const campaignFilters = z.object({
  name: text(64).optional(),
  type: z.enum(CAMPAIGN_TYPES).optional(),
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  agent_id: queryId().optional(),
  /** Campaigns whose period overlaps [from, to]. */
  from: dateTime().optional(),
  to: dateTime().optional(),
});

const campaignEditable = {
  name: text(64).min(1),
  starts_at: dateTime(),
  ends_at: dateTime(),
  rules: campaignRules,
  reward: campaignReward,
  budget_cents: money(1),
  /** Times the bonus amount a bettor must stake with bonus funds before it is his (0: none). Bonus only. */
  wagering_multiplier: int32(0, 100).default(0),
  /** Days a bonus grant lives; its unused remainder is then removed (credit bill 105). Bonus only. */
  bonus_expiry_days: int32(1, 365).default(30),
  auto_approve: z.boolean().default(false),
};

export const campaignCreateBody = z.strictObject({
  ...campaignEditable,
  type: z.enum(CAMPAIGN_TYPES),
  /** The branch whose bettors may qualify (an agent in the admin's scope); null: every bettor (super admin only). */
  agent_id: id().nullable().optional(),
});
export type CampaignCreateBody = z.infer<typeof campaignCreateBody>;

export const campaignUpdateBody = z.strictObject({
  name: campaignEditable.name.optional(),
  starts_at: dateTime().optional(),
  ends_at: dateTime().optional(),
  rules: campaignRules.optional(),
  reward: campaignReward.optional(),
  budget_cents: money(1).optional(),
  wagering_multiplier: int32(0, 100).optional(),
  bonus_expiry_days: int32(1, 365).optional(),
  auto_approve: z.boolean().optional(),
});
export type CampaignUpdateBody = z.infer<typeof campaignUpdateBody>;

export const campaignRow = answerRow({
  id: 'number', name: 'string', type: 'string', status: 'string', starts_at: 'string', ends_at: 'string',
  agent_id: 'number?', agent_name: 'string?', budget_cents: 'number', spent_cents: 'number', wagering_multiplier: 'number',
  bonus_expiry_days: 'number', auto_approve: 'boolean', created_by: 'number?', created_by_name: 'string?',
  created_at: 'string', updated_at: 'string',
  /** Qualification rows of the campaign: all, and those still pending. */
  qualified: 'number', pending: 'number',
}).extend({
  rules: z.record(z.string(), z.unknown()),
  reward: z.object({ kind: z.string(), fixed_cents: z.number().nullable(), percent_bps: z.number().nullable(), cap_cents: z.number().nullable() }),
});
export type CampaignRow = z.infer<typeof campaignRow>;

/** Puts a bettor on a custom campaign (pending, or approved at once when the campaign auto-approves). */
export const campaignAwardBody = z.strictObject({
  bettor_id: id(),
  /** The amount a percent reward is taken of (optional for a fixed reward). */
  qualifying_amount: money(0).optional(),
  remark: text(500).optional(),
});

// -------------------------------------------------------------------------------------- qualifications

/** A qualification row as approval answers it (the list stays `/money/activity_qualification`). */
export const qualificationAnswer = answerRow({
  id: 'number', bettor_id: 'number', agent_id: 'number?', campaign_id: 'number?', campaign_name: 'string?', activity: 'string',
  period_key: 'string?', status: 'number', reward: 'number', qualifying_amount: 'number?', bill_id: 'number?',
  credit_bill_id: 'number?', grant_id: 'number?', remark: 'string?', created_at: 'string', approved_at: 'string?',
});
export type QualificationAnswer = z.infer<typeof qualificationAnswer>;

export const approveBatchBody = z.strictObject({ ids: z.array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)).min(1).max(200) });
export const approveBatchAnswer = z.object({
  approved: z.array(qualificationAnswer),
  /** Ids not approved: the error code and message (e.g. PROMO_BUDGET_EXHAUSTED, PROMO_ALREADY_APPROVED). */
  refused: z.array(z.object({ id: z.number(), code: z.string(), message: z.string() })),
});
export type ApproveBatchAnswer = z.infer<typeof approveBatchAnswer>;

// ------------------------------------------------------------------------------------------ statistics

export const campaignStatsQuery = z.object({
  /** Length of the windows before and after each bettor's qualification (default 7 days). */
  window_days: queryInt32(1, 90).optional(),
});

export const campaignStatsAnswer = answerRow({
  campaign_id: 'number',
  /** Qualification rows (any status), of which approved (status success). */
  qualified: 'number', approved: 'number', pending: 'number',
  /** Spent from the budget: cash awards plus bonus granted. */
  cost: 'number', cash_awarded: 'number', bonus_granted: 'number', bonus_expired: 'number', bonus_wagered: 'number',
  budget: 'number',
  window_days: 'number',
  /** GGR (settled stakes minus payouts) of the qualified bettors in the window before / after their qualification. */
  ggr_before: 'number', ggr_after: 'number',
  /** NGR after = GGR after minus the campaign's cost (its awards to these bettors). */
  ngr_after: 'number',
  /** The campaign's cost as a share of NGR after, in basis points (null when NGR after ≤ 0). */
  bonus_share_bps: 'number?',
});
export type CampaignStatsAnswer = z.infer<typeof campaignStatsAnswer>;

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(campaignRow, 'CampaignRow');
