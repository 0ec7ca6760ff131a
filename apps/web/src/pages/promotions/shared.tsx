import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { formatAmount } from '@dau/domain';
import type { CampaignType, CampaignStatus } from '@dau/contract';
import type { Row } from '../../resources';

/**
 * What the promotions screens share (issue 17). The campaign types and states mirror
 * packages/contract/src/promotions-api.ts (the console takes only its types: the module carries zod).
 */
export const CAMPAIGN_TYPES: readonly CampaignType[] = ['signin_streak', 'invitation', 'bet_to_get', 'deposit_match', 'custom'];
export const CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['draft', 'active', 'paused', 'ended'];
export const CAMPAIGN_PAGE = 'activity_campaign';
export const QUALIFICATION_PAGE = 'activity_qualification';
/** Lists a change of a campaign or a qualification refreshes. */
export const CAMPAIGN_LISTS = [[CAMPAIGN_PAGE], ['promotions-campaign-names'], ['promotions-stats']];
export const QUALIFICATION_LISTS = [[QUALIFICATION_PAGE], ['cs_activity_qualification'], [CAMPAIGN_PAGE], ['promotions-stats'], ['bill'], ['bill_credit'], ['user'], ['cs_bill']];

const STATUS_COLOR: Record<string, string> = { draft: 'default', active: 'green', paused: 'orange', ended: 'default' };

export function StatusTag({ status, t }: { status: unknown; t: TFunction }) {
  const s = String(status ?? '');
  return (
    <Tag color={STATUS_COLOR[s] ?? 'default'} data-testid={`campaign-status-${s}`}>
      {t(`promotions.status.${s}`, { defaultValue: s })}
    </Tag>
  );
}

const tsh = (cents: unknown) => `TSh ${formatAmount(Number(cents ?? 0))}`;

/** The award in words: "Cash TSh 500.00", "Bonus 10% (at most TSh 5,000.00)". */
export function rewardText(reward: unknown, t: TFunction): string {
  const r = (reward ?? {}) as Row;
  const kind = t(`promotions.reward.${String(r.kind ?? 'cash')}`);
  const amount = r.percent_bps != null ? `${Number(r.percent_bps) / 100}%` : tsh(r.fixed_cents);
  const cap = r.cap_cents != null ? ` ${t('promotions.reward.capOf', { cap: tsh(r.cap_cents) })}` : '';
  return `${kind} ${amount}${cap}`;
}

/** The qualifying rule in words, by type. */
export function rulesText(type: unknown, rules: unknown, t: TFunction): string {
  const r = (rules ?? {}) as Row;
  switch (type) {
    case 'signin_streak':
      return t('promotions.rulesText.signin_streak', { days: Number(r.days ?? 0) });
    case 'invitation':
      return t('promotions.rulesText.invitation', { amount: tsh(r.min_first_deposit) });
    case 'deposit_match':
      return t('promotions.rulesText.deposit_match', { amount: tsh(r.min_first_deposit) });
    case 'bet_to_get':
      return t('promotions.rulesText.bet_to_get', { amount: tsh(r.min_stake), odds: Number(r.min_odds ?? 1).toFixed(2) });
    default:
      return t('promotions.rulesText.custom');
  }
}

export const formatTsh = tsh;
