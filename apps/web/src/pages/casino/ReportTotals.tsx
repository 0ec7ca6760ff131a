import { Col, Row as Grid, Statistic, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { LoadError, Panel } from '../../resources';
import { useCount, usePercent, useTsh } from './shared';

/** GET {report}/totals: the totals line over the list's filters. */
interface Totals {
  rounds: number;
  players: number;
  games: number;
  turnover: number;
  payouts: number;
  ggr: number;
  actual_rtp_bps: number | null;
}

/** The filters both reports take (apps/server/src/modules/casino/reports.ts reportFilters). */
const FILTERS = ['created_at_from', 'created_at_to', 'provider_id', 'game_id', 'phone'];

/**
 * The report's totals over the filters the list shows (read from the URL, where the list keeps them):
 * rounds, players (or games played, per bettor), turnover, payouts, GGR and the actual RTP.
 */
export function ReportTotals({ api: path, kind }: { api: string; kind: 'games' | 'bettors' }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const tsh = useTsh();
  const count = useCount();
  const percent = usePercent();
  const { token } = theme.useToken();
  const filters = Object.fromEntries(FILTERS.map((k) => [k, params.get(k)]).filter(([, v]) => v)) as Record<string, string>;
  const q = useQuery({ queryKey: ['casino-totals', path, filters], queryFn: () => api.get<Totals>(`${path}/totals`, filters), refetchInterval: 30_000 });
  if (q.isError && !q.data) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  const d = q.data;
  // Money figures take wider columns than the counts on a wide screen (5 + 5 + 5 + 3 + 3 + 3 of 24):
  // "TSh 236,990.64" does not fit a sixth of a 1280 px console.
  const figures: Array<{ key: string; label: string; value: string; color?: string; money?: boolean }> = [
    { key: 'rounds', label: t('casino.field.rounds'), value: d ? count(d.rounds) : '-' },
    kind === 'games' ? { key: 'players', label: t('casino.field.players'), value: d ? count(d.players) : '-' } : { key: 'games', label: t('casino.field.games'), value: d ? count(d.games) : '-' },
    { key: 'turnover', label: t('casino.field.turnover'), value: d ? tsh(d.turnover) : '-', money: true },
    { key: 'payouts', label: t('casino.field.payouts'), value: d ? tsh(d.payouts) : '-', money: true },
    { key: 'ggr', label: t('casino.field.ggr'), value: d ? tsh(d.ggr) : '-', money: true, color: !d || d.ggr === 0 ? undefined : d.ggr < 0 ? token.colorErrorText : token.colorSuccessText },
    { key: 'rtp', label: t('casino.field.actual_rtp_bps'), value: d ? percent(d.actual_rtp_bps) : '-' },
  ];
  return (
    <Grid gutter={[12, 12]} style={{ marginBottom: 16 }} data-testid="casino-totals">
      {figures.map((f) => (
        <Col key={f.key} xs={12} md={8} xl={f.money ? 5 : 3}>
          <Panel style={{ height: '100%' }} testId={`casino-total-${f.key}`}>
            <Statistic title={f.label} loading={q.isPending} value={f.value} valueStyle={{ fontSize: 20, whiteSpace: 'nowrap', color: f.color }} />
          </Panel>
        </Col>
      ))}
    </Grid>
  );
}
