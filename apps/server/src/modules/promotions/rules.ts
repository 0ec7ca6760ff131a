/**
 * The pure part of promotions: which rules and rewards fit which campaign type, the award of a
 * qualification, the bill a cash award posts, and the calendar day of an instant in Tanzania.
 */
import { campaignRulesByType, type CampaignType } from '@dau/contract';
import { BILL_TYPE } from '@dau/domain';
import { AppError } from '../../platform/errors.js';
import type { CampaignRewardJson } from './schema.js';

/** Types whose qualification carries an amount (deposit, stakes) a percent reward can be taken of. */
const HAS_AMOUNT: ReadonlySet<string> = new Set(['invitation', 'bet_to_get', 'deposit_match', 'custom']);

/** The rules of a type, checked (422 PROMO_RULES_INVALID) and normalised. */
export function checkRules(type: CampaignType, rules: unknown): Record<string, unknown> {
  const parsed = campaignRulesByType[type].safeParse(rules);
  if (!parsed.success) throw new AppError(422, 'PROMO_RULES_INVALID');
  return parsed.data as Record<string, unknown>;
}

/**
 * The reward, normalised to every key present; a percent reward only where there is an amount, and never
 * without a cap per bettor (422 PROMO_PERCENT_CAP_REQUIRED: a percentage of an unbounded deposit or
 * stake has no ceiling otherwise).
 */
export function checkReward(type: CampaignType, reward: { kind: 'cash' | 'bonus'; fixed_cents?: number | null; percent_bps?: number | null; cap_cents?: number | null }): CampaignRewardJson {
  const r: CampaignRewardJson = { kind: reward.kind, fixed_cents: reward.fixed_cents ?? null, percent_bps: reward.percent_bps ?? null, cap_cents: reward.cap_cents ?? null };
  if (r.percent_bps != null && !HAS_AMOUNT.has(type)) throw new AppError(422, 'PROMO_REWARD_INVALID');
  if (r.percent_bps != null && r.cap_cents == null) throw new AppError(422, 'PROMO_PERCENT_CAP_REQUIRED', {}, [{ field: 'reward.cap_cents' }]);
  return r;
}

/**
 * The award of one qualification: the fixed amount or the percentage of the qualifying amount (floored
 * to the cent), no more than what the per-bettor cap leaves after the bettor's earlier awards.
 */
export function awardOf(reward: CampaignRewardJson, qualifyingAmount: number | null, earlier: number): number {
  let amount = reward.fixed_cents ?? Math.floor(((qualifyingAmount ?? 0) * (reward.percent_bps ?? 0)) / 10_000);
  if (reward.cap_cents != null) amount = Math.min(amount, reward.cap_cents - earlier);
  return Math.max(0, amount);
}

/** The cash bill of a campaign type's award (bonus awards are credit bill 101). */
export function cashBillType(type: string): number {
  switch (type) {
    case 'signin_streak':
      return BILL_TYPE.continuous_signup_promotion;
    case 'invitation':
      return BILL_TYPE.invitation_bonus;
    case 'bet_to_get':
      return BILL_TYPE.bet_to_get_bonus;
    default:
      return BILL_TYPE.activity_award;
  }
}

/** Tanzania keeps UTC+3 all year (no daylight saving): a sign-in's calendar day there. */
const EAT_OFFSET_MS = 3 * 3600_000;
export const dayKey = (at: Date) => new Date(at.getTime() + EAT_OFFSET_MS).toISOString().slice(0, 10);
export const previousDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
