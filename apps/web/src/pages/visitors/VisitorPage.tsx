import { useMemo } from 'react';
import { DownloadOutlined } from '@ant-design/icons';
import { Col, Row as Grid, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { enumLabel } from '../../kit/labels';
import { VISITOR_STATS_MAX_DAYS, visitorResource, type VisitCounts, type VisitorStats } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { ActionButton, NoData, Panel, ResourceList, useLocale, type FieldView, type ResourceView } from '../../resources';
import { ChartCard } from '../statistics/Chart';
import { downloadCsv } from '../casino/shared';
import { DayRangePage, useDayRangeQuery } from '../statistics/dayRange';

const COLORS = { visits: '#1677ff', new: '#52c41a', returning: '#fa8c16', visitors: '#722ed1' };

/** A country's name in the operator's language (ZZ and unknown codes: "unknown"). */
function useCountryName() {
  const { t } = useTranslation();
  const locale = useLocale();
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
    } catch {
      names = null;
    }
    return (code: string) => {
      if (!code || code === 'ZZ') return t('visitors.unknownCountry');
      try {
        return names?.of(code) ?? code;
      } catch {
        return code;
      }
    };
  }, [locale, t]);
}

/** The rows of the visits list with their labels and renderers. */
function useVisitsView(): ResourceView {
  const countryName = useCountryName();
  return useMemo(
    () => ({
      ...visitorResource,
      title: 'visitors.visits',
      fields: visitorResource.fields.map(
        (f): FieldView => ({
          ...f,
          label: `visitors.field.${f.key}`,
          ...(f.key === 'country' ? { render: (v: unknown) => (v ? `${countryName(String(v))} (${String(v)})` : '-') } : {}),
          ...(f.key === 'visited_at' || f.key === 'kind' ? { keep: true } : {}),
        }),
      ),
    }),
    [countryName],
  );
}

/** The day table as a CSV file (the casino screens' browser-side CSV: a BOM, cells quoted as needed). */
function downloadDays(s: VisitorStats, head: string[]) {
  const rows = [head, ...s.days.map((d) => [d.day, String(d.visits), String(d.visitors), String(d.new_visitors), String(d.returning_visitors)])];
  downloadCsv(rows, `visitor-${s.date_from}-${s.date_to}.csv`);
}

const BASE = { animation: false, grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true }, tooltip: { trigger: 'axis' }, legend: { top: 0, type: 'scroll' } };

/**
 * System › Visitors (issue 16): visitors of the bettor-facing site and app over Dar es Salaam days (URL
 * `date_from`, `date_to`; the last 7 days by default, at most 92): the totals, visitors per day (new and
 * returning) with the visits, visits per hour of the day, by device, source and country (ECharts), the
 * day table (downloaded as CSV), and the visits themselves (exported in the background).
 */
export default function VisitorPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const countryName = useCountryName();
  const visitsView = useVisitsView();
  const range = useDayRangeQuery('visitor-stats', (from, to) => api.get<VisitorStats>('/visitors/stats', { date_from: from, date_to: to }), {
    maxDays: VISITOR_STATS_MAX_DAYS,
    refetchInterval: 60_000,
  });
  const { q, tooLong } = range;
  const s = q.data;
  const fmt = useMemo(() => new Intl.NumberFormat(locale), [locale]);
  const names = useMemo(
    () => ({ visits: t('visitors.visits'), visitors: t('visitors.visitors'), new: t('visitors.new'), returning: t('visitors.returning') }),
    [t],
  );

  const charts = useMemo(() => {
    if (!s) return null;
    const bars = (labels: string[], list: VisitCounts[]) => ({
      ...BASE,
      grid: { ...BASE.grid, left: 8 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      // Three ticks: a third of the page wide on a desktop, the labels would run into each other.
      xAxis: { type: 'value', minInterval: 1, splitNumber: 3 },
      yAxis: { type: 'category', data: labels, inverse: true },
      series: [
        { name: names.visits, type: 'bar', data: list.map((x) => x.visits), itemStyle: { color: COLORS.visits } },
        { name: names.visitors, type: 'bar', data: list.map((x) => x.visitors), itemStyle: { color: COLORS.visitors } },
      ],
    });
    const top = s.countries.slice(0, 10);
    return {
      days: {
        ...BASE,
        xAxis: { type: 'category', data: s.days.map((d) => d.day.slice(5)) },
        yAxis: { type: 'value', minInterval: 1 },
        series: [
          { name: names.new, type: 'bar', stack: 'visitors', data: s.days.map((d) => d.new_visitors), itemStyle: { color: COLORS.new } },
          { name: names.returning, type: 'bar', stack: 'visitors', data: s.days.map((d) => d.returning_visitors), itemStyle: { color: COLORS.returning } },
          { name: names.visits, type: 'line', data: s.days.map((d) => d.visits), itemStyle: { color: COLORS.visits }, symbol: 'circle', symbolSize: 6 },
        ],
      },
      hours: {
        ...BASE,
        xAxis: { type: 'category', data: s.hours.map((h) => String(h.hour).padStart(2, '0')) },
        yAxis: { type: 'value', minInterval: 1 },
        series: [
          { name: names.visits, type: 'bar', data: s.hours.map((h) => h.visits), itemStyle: { color: COLORS.visits } },
          { name: names.visitors, type: 'line', data: s.hours.map((h) => h.visitors), itemStyle: { color: COLORS.visitors }, symbol: 'none' },
        ],
      },
      devices: bars(s.devices.map((d) => enumLabel('visit_device', d.device, locale)), s.devices),
      sources: bars(s.sources.map((d) => enumLabel('visit_source', d.source, locale)), s.sources),
      countries: bars(top.map((c) => countryName(c.country)), top),
    };
  }, [s, names, locale, countryName]);

  const head = [t('visitors.day'), names.visits, names.visitors, names.new, names.returning];
  const figure = (key: string, label: string, value: number | undefined) => (
    <Col key={key} xs={12} md={6}>
      <Panel>
        <Statistic title={label} value={value === undefined ? '-' : fmt.format(value)} loading={q.isPending && !tooLong} valueStyle={{ fontSize: 22 }} data-testid={`visitor-figure-${key}`} />
      </Panel>
    </Col>
  );
  const empty = s && s.totals.visits === 0;

  return (
    <DayRangePage
      range={range}
      testId="visitor-page"
      rangeTestId="visitor-range"
      title={t('menu.visitor')}
      description={t('visitors.describe')}
      tooLongText={t('visitors.tooLong', { n: VISITOR_STATS_MAX_DAYS })}
      actions={
        <ActionButton action="export" icon={<DownloadOutlined />} disabled={!s} testId="visitor-days-export" onClick={() => s && downloadDays(s, head)}>
          {t('visitors.exportDays')}
        </ActionButton>
      }
      after={
        <div style={{ marginTop: 16 }}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {t('visitors.visitsTitle')}
          </Typography.Title>
          <ResourceList def={visitsView} showHeader={false} />
        </div>
      }
    >
      <>
        <Grid gutter={[12, 12]} style={{ marginBottom: 16 }}>
          {[
            figure('visits', names.visits, s?.totals.visits),
            figure('visitors', names.visitors, s?.totals.visitors),
            figure('new', names.new, s?.totals.new_visitors),
            figure('returning', names.returning, s?.totals.returning_visitors),
          ]}
        </Grid>
        {empty ? (
          <Panel>
            <NoData />
          </Panel>
        ) : (
          <Grid gutter={[12, 12]} style={{ marginBottom: 16 }}>
            <Col xs={24} xl={12}>
              <ChartCard title={t('visitors.chart.days')} option={charts?.days} testId="visitor-chart-days" />
            </Col>
            <Col xs={24} xl={12}>
              <ChartCard title={t('visitors.chart.hours')} option={charts?.hours} testId="visitor-chart-hours" />
            </Col>
            <Col xs={24} lg={8}>
              <ChartCard title={t('visitors.chart.devices')} option={charts?.devices} testId="visitor-chart-devices" height={240} />
            </Col>
            <Col xs={24} lg={8}>
              <ChartCard title={t('visitors.chart.sources')} option={charts?.sources} testId="visitor-chart-sources" height={240} />
            </Col>
            <Col xs={24} lg={8}>
              <ChartCard title={t('visitors.chart.countries')} option={charts?.countries} testId="visitor-chart-countries" height={240} />
            </Col>
          </Grid>
        )}
        <Panel title={t('visitors.dayTable')}>
          <Table
            size="small"
            rowKey="day"
            loading={q.isPending}
            dataSource={s ? [...s.days].reverse() : []}
            pagination={false}
            scroll={{ x: 'max-content', y: 360 }}
            locale={{ emptyText: <NoData /> }}
            data-testid="visitor-day-table"
            columns={[
              { key: 'day', dataIndex: 'day', title: head[0], width: 120 },
              ...(['visits', 'visitors', 'new_visitors', 'returning_visitors'] as const).map((k, i) => ({
                key: k,
                dataIndex: k,
                title: head[i + 1],
                align: 'right' as const,
                render: (v: number) => fmt.format(v),
              })),
            ]}
          />
        </Panel>
      </>
    </DayRangePage>
  );
}
