import { useState } from 'react';
import { Card, Col, DatePicker, Empty, Form, Input, Row as Grid, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableProps } from 'antd';
import { InfoCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import dayjs, { type Dayjs } from '../../kit/dayjs';
import { ENUMS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ExportButton, LoadError, NoData, PageHeader, SearchButtons, enumText, formatDateTime, useLocale } from '../../resources';
import { dayStartIso, zonedToday } from '../../kit/timeZone';
import { typeOfMarketKey, useMarketNames } from '../../kit/marketNames';
import { useCount, useMoney } from './shared';
import type { MatchHeading } from '@dau/contract/ui';

/** GET /statistics/matches (apps/server/src/modules/statistics/routes.ts). */
interface MatchRow extends MatchHeading {
  id: number;
  orders: number;
  turnover: number;
  /** Stakes of the settled (or cashed-out) orders: GGR = settled_stake - payouts. */
  settled_stake: number;
  /** Stakes still open: turnover - settled_stake, shown beside GGR, not revenue until settled. */
  open_stakes: number;
  payouts: number;
  ggr: number;
  liability: number;
  max_liability: number;
  max_liability_market_key: string | null;
  max_liability_outcome_id: string | null;
}

interface Outcome {
  outcome_id: string;
  selection_name: string;
  orders: number;
  stake: number;
  settled_stake: number;
  liability: number;
  payouts: number;
}

/** GET /statistics/matches/:event_id. */
interface MatchDetail {
  totals: { orders: number; turnover: number; settled_stake: number; open_stakes: number; payouts: number; ggr: number; liability: number; max_liability: number };
  markets: Array<{
    market_key: string; market_name: string; orders: number; stake: number; settled_stake: number; open_stakes: number; payouts: number; ggr: number; max_liability: number;
    outcomes: Outcome[];
  }>;
}

const SORTS: Record<string, string> = {
  start_time: 'start_time', orders: 'orders', turnover: 'turnover', open_stakes: 'open_stakes', payouts: 'payouts', ggr: 'ggr', liability: 'liability',
};

/** A column head with its definition on hover (the landing page's hints: GGR over settled stakes, open stakes apart). */
function Hinted({ label, hint }: { label: string; hint: string }) {
  return (
    <Tooltip title={hint}>
      {label} <InfoCircleOutlined />
    </Tooltip>
  );
}

/** One match's markets and outcomes: what the book pays if each outcome wins (liability), stake and payouts. */
function MatchOutcomes({ eventId }: { eventId: string }) {
  const { t } = useTranslation();
  const marketNames = useMarketNames();
  const money = useMoney();
  const count = useCount();
  const q = useQuery({ queryKey: ['match_statistics', 'detail', eventId], queryFn: () => api.get<MatchDetail>(`/statistics/matches/${encodeURIComponent(eventId)}`) });
  if (q.isError) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  if (q.isPending) return <Table size="small" loading columns={[]} dataSource={[]} />;
  if (!q.data.markets.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('statistics.match.noOutcomes')} />;
  const max = q.data.totals.max_liability;
  const names = marketNames;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12} data-testid={`match-outcomes-${eventId}`}>
      {q.data.markets.map((m) => (
        <Card
          key={m.market_key}
          size="small"
          type="inner"
          title={
            <Space size={8}>
              <span>{names.market(typeOfMarketKey(m.market_key), m.market_name || m.market_key)}</span>
              <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>{m.market_key}</Typography.Text>
            </Space>
          }
          extra={
            <Space size={16} wrap>
              <span>{t('statistics.match.stake')}: {money(m.stake)}</span>
              <span data-testid={`match-market-ggr-${m.market_key}`}>{t('statistics.figure.ggr')}: {money(m.ggr)}</span>
              <span data-testid={`match-market-open-${m.market_key}`}>{t('statistics.figure.open_stakes')}: {money(m.open_stakes)}</span>
            </Space>
          }
        >
          <Table<Outcome>
            size="small"
            rowKey="outcome_id"
            pagination={false}
            dataSource={m.outcomes}
            columns={[
              { key: 'outcome', title: t('statistics.match.outcome'), render: (_, o) => names.selection(o.outcome_id, o.selection_name || o.outcome_id, m.market_key.split('|').slice(1).join('|')) },
              { key: 'orders', title: t('statistics.figure.orders'), dataIndex: 'orders', align: 'right', render: (v: number) => count(v) },
              { key: 'stake', title: t('statistics.match.stake'), dataIndex: 'stake', align: 'right', render: (v: number) => money(v) },
              {
                key: 'liability',
                title: (
                  <Tooltip title={t('statistics.match.liabilityHint')}>
                    {t('statistics.match.liability')} <InfoCircleOutlined />
                  </Tooltip>
                ),
                dataIndex: 'liability',
                align: 'right',
                render: (v: number) => (v > 0 && v === max ? <Tag color="red">{money(v)}</Tag> : money(v)),
              },
              { key: 'payouts', title: t('statistics.figure.payouts'), dataIndex: 'payouts', align: 'right', render: (v: number) => money(v) },
            ]}
          />
        </Card>
      ))}
    </Space>
  );
}

/**
 * Match statistics: per match turnover, order legs, payouts, GGR and liability (what the book pays if an
 * outcome wins), with filters (sport, start time, event id) and paging in the URL; a row expands into its
 * markets and outcomes. Export (button `export`) queues a background file of the list as filtered.
 */
export default function MatchStatisticsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney();
  const count = useCount();
  const [params, setParams] = useSearchParams();
  // Days of the operator's zone: a match starting at 01:00 their time is on that day.
  const today = zonedToday();
  const dayFrom = params.get('day_from') ?? today.subtract(1, 'day').format('YYYY-MM-DD');
  const dayTo = params.get('day_to') ?? today.add(1, 'day').format('YYYY-MM-DD');
  const sport = params.get('sport_id') ?? '';
  const eventId = params.get('event_id') ?? '';
  const page = Number(params.get('page') ?? 1);
  const pageSize = Number(params.get('page_size') ?? 20);
  const sort = params.get('sort') ?? '-start_time';
  const [draftEvent, setDraftEvent] = useState(eventId);
  // A saved filter applied (or back/forward) changes the URL: the box follows it.
  const [shownEvent, setShownEvent] = useState(eventId);
  if (shownEvent !== eventId) {
    setShownEvent(eventId);
    setDraftEvent(eventId);
  }

  const query: Record<string, string> = {
    start_from: dayStartIso(dayjs(dayFrom)),
    start_to: dayStartIso(dayjs(dayTo).add(1, 'day')),
    ...(sport ? { sport_id: sport } : {}),
    ...(eventId ? { event_id: eventId } : {}),
  };
  const q = useQuery({
    queryKey: ['match_statistics', query, page, pageSize, sort],
    queryFn: () => api.get<{ items: MatchRow[]; total: number }>('/statistics/matches', { ...query, page: String(page), page_size: String(pageSize), sort }),
    placeholderData: (prev) => prev,
    refetchInterval: 30_000,
  });

  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };

  const sortOrder = (key: string) => (sort.replace(/^-/, '') === key ? (sort.startsWith('-') ? 'descend' : 'ascend') : null);
  const columns: TableProps<MatchRow>['columns'] = [
    {
      key: 'match',
      title: t('statistics.match.match'),
      render: (_, r) => (
        <div>
          <div style={{ fontWeight: 500 }}>
            {r.home_team} – {r.away_team}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {enumText('sport', r.sport_id, locale)} · {r.league_name} · {r.event_id}
          </Typography.Text>
        </div>
      ),
    },
    { key: 'start_time', dataIndex: 'start_time', title: t('statistics.match.start'), sorter: true, sortOrder: sortOrder('start_time'), render: (v: string) => formatDateTime(v), width: 170 },
    {
      key: 'orders',
      dataIndex: 'orders',
      title: (
        <Tooltip title={t('statistics.match.legsHint')}>
          {t('statistics.figure.orders')} <InfoCircleOutlined />
        </Tooltip>
      ),
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('orders'),
      render: (v: number) => count(v),
    },
    { key: 'turnover', dataIndex: 'turnover', title: t('statistics.figure.turnover'), align: 'right', sorter: true, sortOrder: sortOrder('turnover'), render: (v: number) => money(v) },
    { key: 'payouts', dataIndex: 'payouts', title: t('statistics.figure.payouts'), align: 'right', sorter: true, sortOrder: sortOrder('payouts'), render: (v: number) => money(v) },
    {
      // GGR counts the settled stakes only (issue 23); what is still open stands beside it.
      key: 'ggr',
      dataIndex: 'ggr',
      title: <Hinted label={t('statistics.figure.ggr')} hint={t('statistics.hint.ggr')} />,
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('ggr'),
      render: (v: number) => <Typography.Text type={v < 0 ? 'danger' : undefined}>{money(v)}</Typography.Text>,
    },
    {
      key: 'open_stakes',
      dataIndex: 'open_stakes',
      title: <Hinted label={t('statistics.figure.open_stakes')} hint={t('statistics.hint.open_stakes')} />,
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('open_stakes'),
      render: (v: number) => money(v),
    },
    { key: 'liability', dataIndex: 'liability', title: t('statistics.match.liability'), align: 'right', sorter: true, sortOrder: sortOrder('liability'), render: (v: number) => money(v) },
    {
      key: 'max_liability',
      dataIndex: 'max_liability',
      title: (
        <Tooltip title={t('statistics.match.liabilityHint')}>
          {t('statistics.match.maxLiability')} <InfoCircleOutlined />
        </Tooltip>
      ),
      align: 'right',
      render: (v: number, r) => (
        <div>
          <div>{money(v)}</div>
          {r.max_liability_market_key && v > 0 && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.max_liability_market_key} / {r.max_liability_outcome_id}
            </Typography.Text>
          )}
        </div>
      ),
    },
  ];

  // The export's column headers, as this screen names them (apps/server/src/modules/statistics/routes.ts columns).
  const exportLabels: Record<string, string> = {
    event_id: t('statistics.match.eventId'),
    sport_id: t('statistics.match.sport'),
    league_name: t('statistics.match.league'),
    home_team: t('statistics.match.home'),
    away_team: t('statistics.match.away'),
    start_time: t('statistics.match.start'),
    orders: t('statistics.figure.orders'),
    turnover: t('statistics.figure.turnover'),
    settled_stake: t('statistics.figure.settled_stake'),
    open_stakes: t('statistics.figure.open_stakes'),
    payouts: t('statistics.figure.payouts'),
    ggr: t('statistics.figure.ggr'),
    liability: t('statistics.match.liability'),
  };
  const sportOptions = Object.values(ENUMS.sport).map((id) => ({ value: String(id), label: enumText('sport', id, locale) }));

  return (
    <div data-testid="match-statistics">
      <PageHeader
        title={t('menu.match_statistics')}
        description={t('statistics.describe.match_statistics')}
        extra={<ExportButton api="/statistics/matches" name="match_statistics" exportType="match_statistics" query={query} labels={exportLabels} />}
      />
      {/* The same filter form as every list: labelled fields on a grid, the buttons at the row's end. */}
      <Form layout="vertical" data-testid="match-filters" style={{ marginBottom: 8 }} onFinish={() => set({ event_id: draftEvent.trim() || null })}>
        <Grid gutter={[16, 0]} align="bottom">
          <Col xs={24} sm={12} md={8} xl={4}>
            <Form.Item label={t('statistics.match.sport')} style={{ marginBottom: 12 }}>
              <Select
                allowClear
                placeholder={t('form.all')}
                value={sport || undefined}
                options={sportOptions}
                onChange={(v) => set({ sport_id: v ?? null })}
                data-testid="match-sport"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={8} xl={7}>
            <Form.Item label={t('statistics.match.startRange')} style={{ marginBottom: 12 }}>
              <DatePicker.RangePicker
                allowClear={false}
                style={{ width: '100%' }}
                value={[dayjs(dayFrom), dayjs(dayTo)]}
                onChange={(v) => {
                  const r = v as [Dayjs | null, Dayjs | null] | null;
                  if (r?.[0] && r[1]) set({ day_from: r[0].format('YYYY-MM-DD'), day_to: r[1].format('YYYY-MM-DD') });
                }}
                data-testid="match-range"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={8} xl={4}>
            <Form.Item label={t('statistics.match.eventId')} style={{ marginBottom: 12 }}>
              <Input allowClear value={draftEvent} onChange={(e) => setDraftEvent(e.target.value)} data-testid="match-event" />
            </Form.Item>
          </Col>
          <Col flex="auto">
            <Form.Item style={{ marginBottom: 12 }}>
              <Space wrap style={{ justifyContent: 'flex-end', width: '100%' }}>
                <SearchButtons
                  onReset={() => {
                    setDraftEvent('');
                    setParams(new URLSearchParams(), { replace: true });
                  }}
                />
              </Space>
            </Form.Item>
          </Col>
        </Grid>
      </Form>
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Table<MatchRow>
          size="small"
          rowKey="event_id"
          loading={q.isPending || (q.isFetching && q.isPlaceholderData)}
          dataSource={q.data?.items ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <NoData /> }}
          expandable={{ expandedRowRender: (r) => <MatchOutcomes eventId={r.event_id} />, rowExpandable: () => true }}
          pagination={{
            current: page,
            pageSize,
            total: q.data?.total ?? 0,
            showSizeChanger: true,
          }}
          onChange={(p, _f, s) => {
            const one = Array.isArray(s) ? s[0] : s;
            const key = one?.order ? SORTS[String(one.columnKey)] : undefined;
            set({
              page: String(p.current ?? 1),
              page_size: String(p.pageSize ?? 20),
              sort: key ? `${one.order === 'descend' ? '-' : ''}${key}` : null,
            });
          }}
          data-testid="match-table"
        />
      )}
    </div>
  );
}
