import { Card, Col, Row as Grid, Statistic } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { onlineStatisticalResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ResourcePage } from '../../resources';
import { useAdminPickers } from './shared';

interface Summary {
  online: number;
  active_today: number;
  total: number;
}

const REFRESH_MS = 30_000;

/** Online now, active today and all bettors of my branch (GET /money/online/summary). */
function OnlineSummary() {
  const { t } = useTranslation();
  const q = useQuery({
    // Under the list's name: its reload and any bettor change refresh the figures too.
    queryKey: ['online_statistical', 'summary'],
    queryFn: () => api.get<Summary>('/money/online/summary'),
    refetchInterval: REFRESH_MS,
  });
  const figures: Array<{ key: keyof Summary; label: string }> = [
    { key: 'online', label: t('money.online.online') },
    { key: 'active_today', label: t('money.online.activeToday') },
    { key: 'total', label: t('money.online.total') },
  ];
  return (
    <Grid gutter={[16, 16]} style={{ marginBottom: 16 }} data-testid="online-summary">
      {figures.map((f) => (
        <Col key={f.key} xs={24} sm={8}>
          <Card size="small">
            <Statistic title={f.label} value={q.data?.[f.key] ?? '-'} loading={q.isPending} data-testid={`online-${f.key}`} />
          </Card>
        </Col>
      ))}
    </Grid>
  );
}

/** Users › Online statistics: the figures, then the bettors online now (refreshed every 30 s). */
export default function OnlineStatisticalPage() {
  const def = useAdminPickers(onlineStatisticalResource);
  return <ResourcePage def={def} intro={<OnlineSummary />} pollInterval={() => REFRESH_MS} />;
}
