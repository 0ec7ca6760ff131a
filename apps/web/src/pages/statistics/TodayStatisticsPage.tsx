import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Col, Row as Grid, Skeleton, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { LoadError, NoData, PageHeader, Panel } from '../../resources';
import { BetTicker } from '../betting/BetTicker';
import { ChartCard } from './Chart';
import { inZone, useTimeZone, zoneLabel } from '../../kit/timeZone';
import { baseOf, FigureCard, FigureGrid, isEmpty, useLeadCards, useSeriesOptions, type Comparison, type Figures, type OpenBook } from './shared';

/** GET /statistics/today (apps/server/src/modules/statistics/routes.ts). */
export interface TodayAnswer {
  day: string;
  time_zone: string;
  from: string;
  to: string;
  current_hour: number;
  generated_at: string;
  totals: Figures & { online_bettors: number };
  open: OpenBook;
  hours: Array<Figures & { hour: number; start: string }>;
  /** The same figures yesterday and on the same weekday last week, up to the same time of day. */
  compare: Comparison;
}

const REFRESH_MS = 15_000;

// The live exposure sits below the charts: its code and its data are fetched when it comes into view, as
// the charts' ECharts is (the first screen at 1280×900 holds the figures and the charts; the landing page's
// bytes are held by e2e/betting.test.ts).
const ExposurePanel = lazy(() => import('./ExposurePanel').then((m) => ({ default: m.ExposurePanel })));

function ExposureSlot() {
  const ref = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (shown || !ref.current) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setShown(true));
    io.observe(ref.current);
    return () => io.disconnect();
  }, [shown]);
  // Not near yet: an empty place of its size (nothing is loading); once near, a skeleton until the table comes.
  const loading = (
    <Panel>
      <Skeleton active />
    </Panel>
  );
  return (
    <div ref={ref} data-testid="exposure-slot" data-state={shown ? 'near' : 'waiting'} style={{ minHeight: shown ? undefined : 200 }}>
      {shown && <Suspense fallback={loading}>{<ExposurePanel />}</Suspense>}
    </div>
  );
}


/**
 * The landing page: today's figures of the admin's branch (Dar es Salaam day) as cards, each with its
 * change against yesterday and the same weekday last week up to the same time, and by hour as charts,
 * with the live bet ticker and the live exposure per match and market. Live: refetched every 15 seconds
 * (and when the tab comes back); the exposure also when orders arrive.
 */
export default function TodayStatisticsPage() {
  const { t } = useTranslation();
  const zone = useTimeZone();
  const leadCards = useLeadCards();
  const seriesOptions = useSeriesOptions();
  const q = useQuery({
    queryKey: ['today_statistics'],
    queryFn: () => api.get<TodayAnswer>('/statistics/today'),
    refetchInterval: REFRESH_MS,
  });
  const d = q.data;
  const charts = useMemo(
    () => (d ? seriesOptions(d.hours.map((h) => `${String(h.hour).padStart(2, '0')}:00`), d.hours, d.current_hour) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [d, t],
  );
  const loading = q.isPending;
  const f = d?.totals;
  const c = d?.compare;

  const header = (
    <PageHeader
      title={t('menu.today_statistics')}
      description={t('statistics.describe.today_statistics')}
      extra={
        d && (
          <Space size={8} data-testid="today-live">
            <Badge status={q.isError ? 'error' : 'processing'} text={t('statistics.today.live')} />
            <Typography.Text type="secondary">{t('statistics.today.asOf', { time: inZone(d.generated_at).format('HH:mm'), zone: zoneLabel(zone) })}</Typography.Text>
          </Space>
        )
      }
    />
  );

  if (q.isError && !d) {
    return (
      <div data-testid="today-statistics">
        {header}
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      </div>
    );
  }

  return (
    <div data-testid="today-statistics">
      {header}
      <FigureGrid>
        {[
          ...leadCards(f, d?.open, loading, f ? `${t('statistics.figure.settled')}: ${f.settled}` : undefined, c),
          <FigureCard key="bonuses" k="bonuses" value={f?.bonuses} loading={loading} base={baseOf(c, 'bonuses')} />,
          <FigureCard key="cashouts" k="cashouts" value={f?.cashouts} loading={loading} base={baseOf(c, 'cashouts')} />,
          <FigureCard key="orders" k="orders" value={f?.orders} loading={loading} sub={f ? `${t('statistics.figure.settled')}: ${f.settled}` : undefined} base={baseOf(c, 'orders')} />,
          <FigureCard key="bettors" k="bettors" value={f?.bettors} loading={loading} base={baseOf(c, 'bettors')} />,
          <FigureCard key="new_bettors" k="new_bettors" value={f?.new_bettors} loading={loading} base={baseOf(c, 'new_bettors')} />,
          <FigureCard key="online_bettors" k="online_bettors" value={f?.online_bettors} loading={loading} />,
          <FigureCard key="deposits" k="deposits" value={f?.deposits} loading={loading} sub={f ? `${t('statistics.figure.deposit_count')}: ${f.deposit_count}` : undefined} base={baseOf(c, 'deposits')} />,
          <FigureCard key="withdrawals" k="withdrawals" value={f?.withdrawals} loading={loading} sub={f ? `${t('statistics.figure.withdrawal_count')}: ${f.withdrawal_count}` : undefined} base={baseOf(c, 'withdrawals')} />,
          <FigureCard key="net_deposits" k="net_deposits" value={f ? f.deposits - f.withdrawals : undefined} loading={loading} base={baseOf(c, 'net_deposits')} />,
        ]}
      </FigureGrid>
      <Grid gutter={[12, 12]}>
        {d && isEmpty(d.totals) ? (
          <Col xs={24} xl={12}>
            <Panel>
              <NoData />
            </Panel>
          </Col>
        ) : (
          (['money', 'activity', 'cash'] as const).map((k) => (
            <Col key={k} xs={24} xl={12}>
              <ChartCard title={t(`statistics.chart.${k}`)} option={charts?.[k]} testId={`chart-${k}`} />
            </Col>
          ))
        )}
        <Col xs={24} xl={12}>
          <BetTicker />
        </Col>
        <Col xs={24}>
          <ExposureSlot />
        </Col>
      </Grid>
    </div>
  );
}
