import { useState } from 'react';
import { Descriptions, Drawer, Progress, Segmented, Skeleton, Space, Statistic, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CampaignStatsAnswer } from '@dau/contract';
import { api } from '../../kit/api';
import { useIsMobile } from '../../kit/dialog';
import { LoadError, type Row } from '../../resources';
import { formatTsh, rewardText, rulesText } from './shared';

const WINDOWS = [7, 14, 30] as const;

/**
 * A campaign's figures (GET /promotions/campaigns/:id/stats): qualified, approved and pending rows, the
 * cost against the budget (cash awarded, bonus granted, expired and wagered), and the GGR of the qualified
 * bettors in equal windows before and after their qualification, with the NGR after and the bonus share of it.
 */
export function StatsDrawer({ campaign, onClose }: { campaign: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [windowDays, setWindowDays] = useState<number>(7);
  const id = campaign?.id;
  const q = useQuery({
    queryKey: ['promotions-stats', id, windowDays],
    queryFn: () => api.get<CampaignStatsAnswer>(`/promotions/campaigns/${String(id)}/stats`, { window_days: windowDays }),
    enabled: id !== undefined && id !== null,
  });
  const s = q.data;
  const used = s && s.budget > 0 ? Math.min(100, Math.round((s.cost / s.budget) * 1000) / 10) : 0;
  const share = s?.bonus_share_bps == null ? t('promotions.stats.noShare') : `${(s.bonus_share_bps / 100).toFixed(2)}%`;

  return (
    <Drawer
      open={!!campaign}
      onClose={onClose}
      size={mobile ? '100%' : 'large'}
      title={t('promotions.stats.title', { name: String(campaign?.name ?? '') })}
      destroyOnHidden
      data-testid="campaign-stats"
    >
      {campaign ? (
        <Typography.Paragraph type="secondary">
          {t(`promotions.type.${String(campaign.type)}`)} · {rulesText(campaign.type, campaign.rules, t)} · {rewardText(campaign.reward, t)}
        </Typography.Paragraph>
      ) : null}
      <Space wrap style={{ marginBottom: 16 }}>
        <Typography.Text>{t('promotions.stats.window')}</Typography.Text>
        <Segmented
          value={windowDays}
          onChange={(v) => setWindowDays(Number(v))}
          options={WINDOWS.map((d) => ({ value: d, label: t('promotions.stats.days', { count: d }) }))}
          data-testid="stats-window"
        />
      </Space>
      {q.isError && !s ? <LoadError error={q.error} onRetry={() => void q.refetch()} /> : null}
      {!s && !q.isError ? <Skeleton active /> : null}
      {s ? (
        <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="stats-figures">
          <Space size={32} wrap>
            <Statistic title={t('promotions.stats.qualified')} value={s.qualified} />
            <Statistic title={t('promotions.stats.approved')} value={s.approved} />
            <Statistic title={t('promotions.stats.pending')} value={s.pending} />
            <Statistic title={t('promotions.stats.bonusShare')} value={share} />
          </Space>
          <div>
            <Typography.Text>{t('promotions.stats.budgetUsed', { cost: formatTsh(s.cost), budget: formatTsh(s.budget) })}</Typography.Text>
            <Progress percent={used} status={used >= 100 ? 'exception' : 'normal'} aria-label={t('promotions.stats.budgetUsedLabel')} />
          </div>
          <Descriptions
            bordered
            size="small"
            column={1}
            items={[
              { key: 'cash', label: t('promotions.stats.cashAwarded'), children: formatTsh(s.cash_awarded) },
              { key: 'bonus', label: t('promotions.stats.bonusGranted'), children: formatTsh(s.bonus_granted) },
              { key: 'wagered', label: t('promotions.stats.bonusWagered'), children: formatTsh(s.bonus_wagered) },
              { key: 'expired', label: t('promotions.stats.bonusExpired'), children: formatTsh(s.bonus_expired) },
              { key: 'before', label: t('promotions.stats.ggrBefore', { count: s.window_days }), children: formatTsh(s.ggr_before) },
              { key: 'after', label: t('promotions.stats.ggrAfter', { count: s.window_days }), children: formatTsh(s.ggr_after) },
              { key: 'ngr', label: t('promotions.stats.ngrAfter'), children: formatTsh(s.ngr_after) },
            ]}
          />
          <Typography.Paragraph type="secondary">{t('promotions.stats.explain')}</Typography.Paragraph>
        </Space>
      ) : null}
    </Drawer>
  );
}
