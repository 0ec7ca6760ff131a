import { useMemo } from 'react';
import { Alert, Col, Row as Grid, Statistic, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { ORDER_CHANGE_KINDS, resettlementChangeResource, resettlementResource } from '@dau/contract/ui';
import { formatTsh } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api, type ListAnswer } from '../../../kit/api';
import {
  LoadError, NoData, Panel, PlainTable, ResourcePage, buildColumns, useListState, useLocale, useResourceList, type FieldView, type ResourceView, type Row,
} from '../../../resources';

/** The totals the report's answer carries beside its page (GET /reports/resettlements). */
interface Totals {
  matches: number;
  markets: number;
  orders: number;
  changes: number;
  cash: number;
  credit: number;
  inviter: number;
  money: number;
}

/** At most this many changes in a row's drawer; the export has them all. */
const DRAWER_ROWS = 200;

function useView(): ResourceView {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      ...resettlementResource,
      fields: resettlementResource.fields.map(
        (f): FieldView => (f.key === 'kind' ? { ...f, options: ORDER_CHANGE_KINDS.map((k) => ({ value: k, label: t(`audit.change.${k}`) })) } : f),
      ),
    }),
    [t],
  );
}

/**
 * The totals of every change the filters keep (not only the page's rows): read from the list's own answer,
 * which the list asks for with the same query (one request).
 */
function ReportTotals({ view }: { view: ResourceView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const list = useListState(view.fields, view.defaultSort);
  const q = useResourceList(view, list.query);
  if (q.isError && !q.data) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  const d = (q.data as (ListAnswer<Row> & { totals?: Totals }) | undefined)?.totals;
  const figures: Array<{ key: keyof Totals; money?: boolean }> = [
    { key: 'matches' }, { key: 'orders' }, { key: 'changes' }, { key: 'cash', money: true }, { key: 'credit', money: true }, { key: 'money', money: true },
  ];
  return (
    <Grid gutter={[12, 12]} style={{ marginBottom: 16 }} data-testid="resettlement-totals">
      {figures.map((f) => (
        <Col key={f.key} xs={12} md={8} xl={f.money ? 5 : 3}>
          <Panel style={{ height: '100%' }} testId={`resettlement-total-${f.key}`}>
            <Statistic
              title={t(`audit.totals.${f.key}`)}
              loading={q.isPending}
              value={d ? (f.money ? formatTsh(d[f.key], locale) : d[f.key].toLocaleString(locale)) : '-'}
              valueStyle={{ fontSize: 20, whiteSpace: 'nowrap', color: f.money && d && d[f.key] < 0 ? 'var(--ant-color-error-text)' : undefined }}
            />
          </Panel>
        </Col>
      ))}
    </Grid>
  );
}

/** A row's orders: every change of the match and market the list's filters keep, who made it and why. */
function RowOrders({ row, view }: { row: Row; view: ResourceView }) {
  const { t } = useTranslation();
  const list = useListState(view.fields, view.defaultSort);
  const query = { ...list.filters, event_id: String(row.event_id), market_key: String(row.market_key), page_size: DRAWER_ROWS };
  const q = useQuery({
    queryKey: [resettlementChangeResource.name, query],
    queryFn: () => api.get<ListAnswer<Row>>(resettlementChangeResource.api, query),
  });
  const columns = useMemo(() => buildColumns(resettlementChangeResource.fields, t), [t]);
  return (
    <div style={{ marginTop: 16 }} data-testid="resettlement-orders">
      <Typography.Title level={5}>{t('audit.drawer.orders')}</Typography.Title>
      {q.isError ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          {q.data && q.data.total > q.data.items.length && (
            <Alert type="info" showIcon style={{ marginBottom: 8 }} message={t('audit.drawer.truncated', { shown: q.data.items.length, total: q.data.total })} />
          )}
          <PlainTable<Row> rowKey="id" loading={q.isPending} columns={columns} dataSource={q.data?.items ?? []} locale={{ emptyText: <NoData /> }} />
        </>
      )}
    </div>
  );
}

/**
 * Reports › Void and resettlement report (issue 30): per match and market, the orders an operator or the feed
 * changed after the fact, the money each change moved (the preview's figures, after the fact), who made the
 * changes and why; the totals of the filtered changes above; a row opens its orders. Exported as the changes
 * themselves (one line per order and change).
 */
export default function ResettlementReportPage() {
  const { t } = useTranslation();
  const view = useView();
  return (
    <ResourcePage
      def={view}
      intro={<ReportTotals view={view} />}
      detailColumns={2}
      detailTitle={(row) => t('audit.drawer.title', { match: String(row.match_name ?? ''), market: String(row.market_name ?? '') })}
      detailExtra={(row) => <RowOrders row={row} view={view} />}
    />
  );
}
