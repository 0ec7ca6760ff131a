import { useMemo } from 'react';
import { Col, Row as Grid, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { centsToDecimalString } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, NoData, Panel } from '../../resources';
import { ChartCard } from './Chart';
import { FigureCard, FigureGrid, isEmpty, useCount, useLeadCards, useMoney, useSeriesOptions, type Figures, type OpenBook } from './shared';
import { DayRangePage, useDayRangeQuery } from './dayRange';

/** GET /statistics/history (apps/server/src/modules/statistics/routes.ts). */
interface HistoryAnswer {
  date_from: string;
  date_to: string;
  totals: Figures;
  open: OpenBook;
  items: Array<Figures & { day: string }>;
}

const MAX_DAYS = 92;
type Row = Figures & { day: string };

const COLUMNS: Array<{ key: keyof Figures; money?: boolean }> = [
  { key: 'turnover', money: true }, { key: 'settled_stake', money: true }, { key: 'payouts', money: true }, { key: 'cashouts', money: true }, { key: 'ggr', money: true },
  { key: 'bonuses', money: true }, { key: 'ngr', money: true }, { key: 'tax', money: true }, { key: 'orders' }, { key: 'bettors' },
  { key: 'new_bettors' }, { key: 'deposits', money: true }, { key: 'withdrawals', money: true },
];

/** The figures in a CSV file (TSh with two decimals), built in the browser: at most 92 rows. */
function downloadCsv(rows: Row[], totals: Figures, labels: Record<string, string>, name: string) {
  const head = ['day', ...COLUMNS.map((c) => c.key)].map((k) => labels[k] ?? k);
  const line = (day: string, f: Figures) => [day, ...COLUMNS.map((c) => (c.money ? centsToDecimalString(f[c.key]) : String(f[c.key])))];
  const body = [head, ...rows.map((r) => line(r.day, r)), line(labels.total, totals)]
    .map((cells) => cells.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))
    .join('\n');
  const url = URL.createObjectURL(new Blob(['\ufeff', body, '\n'], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Historical statistics: the figures of today_statistics per Dar es Salaam day over a chosen range (URL
 * `date_from`, `date_to`, at most 92 days; the last 7 days by default): totals, a chart and a table.
 */
export default function HistoryStatisticsPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const count = useCount();
  const leadCards = useLeadCards();
  const seriesOptions = useSeriesOptions();
  const range = useDayRangeQuery('history_statistics', (from, to) => api.get<HistoryAnswer>('/statistics/history', { date_from: from, date_to: to }), { maxDays: MAX_DAYS });
  const { from, to, q, tooLong } = range;
  const d = q.data;
  const charts = useMemo(
    () => (d ? seriesOptions(d.items.map((r) => r.day.slice(5)), d.items) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [d, t],
  );
  const labels: Record<string, string> = { day: t('statistics.history.day'), total: t('statistics.history.total') };
  for (const c of COLUMNS) labels[c.key] = t(`statistics.figure.${c.key}`);
  const f = d?.totals;
  const loading = q.isPending && !tooLong;

  const columns = [
    { key: 'day', dataIndex: 'day', title: labels.day, fixed: 'left' as const, width: 110, sorter: (a: Row, b: Row) => a.day.localeCompare(b.day), defaultSortOrder: 'descend' as const },
    ...COLUMNS.map((c) => ({
      key: c.key,
      dataIndex: c.key,
      title: labels[c.key],
      align: 'right' as const,
      sorter: (a: Row, b: Row) => a[c.key] - b[c.key],
      render: (v: number) => {
        const text = c.money ? money(v) : count(v);
        const signed = c.key === 'ggr' || c.key === 'ngr';
        return signed && v < 0 ? <Typography.Text type="danger">{text}</Typography.Text> : text;
      },
    })),
  ];

  return (
    <DayRangePage
      range={range}
      testId="history-statistics"
      rangeTestId="history-range"
      title={t('menu.history_statistics')}
      description={t('statistics.describe.history_statistics')}
      tooLongText={t('statistics.history.tooLong')}
      actions={
        <ActionButton
          action="export"
          icon={<DownloadOutlined />}
          disabled={!d}
          testId="history-export"
          onClick={() => d && downloadCsv(d.items, d.totals, labels, `history_statistics-${from}-${to}.csv`)}
        />
      }
    >
      <>
        <FigureGrid>
          {[
            ...leadCards(f, d?.open, loading),
            <FigureCard key="orders" k="orders" value={f?.orders} loading={loading} />,
            <FigureCard key="bettors" k="bettors" value={f?.bettors} loading={loading} />,
            <FigureCard key="new_bettors" k="new_bettors" value={f?.new_bettors} loading={loading} />,
            <FigureCard key="deposits" k="deposits" value={f?.deposits} loading={loading} />,
            <FigureCard key="withdrawals" k="withdrawals" value={f?.withdrawals} loading={loading} />,
            <FigureCard key="bonuses" k="bonuses" value={f?.bonuses} loading={loading} />,
            <FigureCard key="cashouts" k="cashouts" value={f?.cashouts} loading={loading} />,
          ]}
        </FigureGrid>
        {d && isEmpty(d.totals) ? (
          <Panel>
            <NoData />
          </Panel>
        ) : (
          <>
            <Grid gutter={[12, 12]} style={{ marginBottom: 16 }}>
              {(['money', 'activity'] as const).map((k) => (
                <Col key={k} xs={24} xl={12}>
                  <ChartCard title={t(`statistics.chart.${k}`)} option={charts?.[k]} testId={`chart-${k}`} />
                </Col>
              ))}
            </Grid>
            <Table<Row>
              size="small"
              rowKey="day"
              loading={loading}
              dataSource={d?.items ?? []}
              columns={columns}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: <NoData /> }}
              data-testid="history-table"
              summary={() =>
                f ? (
                  <Table.Summary fixed>
                    <Table.Summary.Row>
                      <Table.Summary.Cell index={0}>
                        <Typography.Text strong>{labels.total}</Typography.Text>
                      </Table.Summary.Cell>
                      {COLUMNS.map((c, i) => (
                        <Table.Summary.Cell key={c.key} index={i + 1} align="right">
                          <Typography.Text strong>{c.money ? money(f[c.key]) : count(f[c.key])}</Typography.Text>
                        </Table.Summary.Cell>
                      ))}
                    </Table.Summary.Row>
                  </Table.Summary>
                ) : null
              }
            />
          </>
        )}
      </>
    </DayRangePage>
  );
}
