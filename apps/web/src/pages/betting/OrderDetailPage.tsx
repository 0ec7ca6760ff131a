import { useMemo, useState } from 'react';
import { ArrowLeftOutlined, ArrowRightOutlined, EditOutlined, ReloadOutlined, StopOutlined, TeamOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Empty, Flex, Space, Table, Tag, Timeline, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { billResource, orderListResource } from '@dau/contract/ui';
import { CASHOUT_STATE, ORDER_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useCurrentPage } from '../../kit/access';
import { api } from '../../kit/api';
import { useIsMobile } from '../../kit/dialog';
import { ActionButton, buildColumns, formatDateTime, LoadError, PageHeader, RecordView, useFeedback, type FieldView, type Row } from '../../resources';
import { useMarketNames } from '../../kit/marketNames';
import { ResultDialog, type Subject } from './ResultDialog';
import { EnumTag, useTsh } from './shared';
import { withBillRemark } from '../money/billRemark';
import { CASHOUT_RULE_STATES, MONEY_KEYS, ORDER_EVENT_KINDS, SHOWN_KEYS } from './historyKeys';

interface Line {
  id: number;
  match_id: string;
  market_id: string;
  market_name: string;
  market_type_id?: number;
  specifiers: string;
  selection_id: string;
  selection_name: string;
  odds: string;
  early_settlement_odds: string | null;
  outcome_status: number;
  outcome: number;
  settled_by: string | null;
  competition_name: string;
  teams_home_name: string;
  teams_away_name: string;
  fixture_date: string;
}

interface HistoryEntry {
  id: number;
  kind: string;
  source: string;
  admin_account: string | null;
  reason: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
}

export interface OrderDetail {
  order: Row;
  lines: Line[];
  history: HistoryEntry[];
  bills: Row[];
  cashout: { state: number; amount: number | null; auto_target: number | null } | null;
}

const BILL_COLUMNS = ['serial_number', 'account_kind', 'type', 'amount', 'before_change', 'balance', 'admin_account', 'remark', 'update_time'];
const bps = (v: unknown) => (v === null || v === undefined ? '-' : `${(Number(v) / 100).toLocaleString(undefined, { maximumFractionDigits: 2 })} %`);

/**
 * Order details (spec §3 Order and Order detail line; `order_detailed`, and `cs_order_detailed` read-only):
 * every field of the order, its selections with their results, the cashout state, the history of every
 * change (who, why, money before → after) and the bills it caused. Operators with the buttons change a
 * selection's result (this order, or every order on the selection) and cancel the order, each with a reason
 * and a preview first.
 */
export default function OrderDetailPage() {
  const { t } = useTranslation();
  const page = useCurrentPage();
  const cs = page.startsWith('cs_');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const { ok } = useFeedback();
  const tsh = useTsh();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const [subject, setSubject] = useState<Subject | null>(null);
  const [open, setOpen] = useState(false);

  const query = useQuery({
    queryKey: ['order-detail', cs, id],
    queryFn: () => api.get<OrderDetail>(cs ? `/betting/cs/orders/${id}` : `/betting/orders/${id}`),
    enabled: valid,
  });
  const data = query.data;
  const order = data?.order;

  const fields = useMemo<FieldView[]>(
    () =>
      orderListResource.fields
        .filter((f) => f.detail !== false)
        .map((f): FieldView => {
          if (f.key === 'serial_number')
            return {
              ...f,
              render: (v) => (
                <Typography.Text copyable={{ onCopy: () => ok('COPIED'), tooltips: [t('betting.bets.copySerial'), t('betting.bets.copySerial')] }} data-testid="order-serial">
                  {String(v ?? '')}
                </Typography.Text>
              ),
            };
          // Rates in basis points are shown as percentages (the settings screens edit them in bps).
          if (f.key === 'tax_rate') return { ...f, label: 'betting.detail.taxRate', render: bps };
          if (f.key === 'string_rewards') return { ...f, label: 'betting.detail.bonusRate', render: bps };
          if (f.key === 'payout') return { ...f, render: (v) => <span data-testid="order-payout">{tsh(v)}</span> };
          if (f.key === 'status') return { ...f, render: (v) => <span data-testid="order-status"><EnumTag name="order_status" value={v} /></span> };
          return f;
        }),
    [ok, t, tsh],
  );

  const openDialog = (s: Subject) => {
    setSubject(s);
    setOpen(true);
  };
  const final = order && (order.status === ORDER_STATUS.early_settlement || order.status === ORDER_STATUS.auto_cash_out);

  const names = useMarketNames();
  const lineColumns = useMemo<TableColumnsType<Line>>(() => {
    const cols: TableColumnsType<Line> = [
      // Compact enough for a 1280 px screen: the match in one cell (teams; competition; match time and
      // event id), the market above its selection, the cashout odds under the odds.
      {
        key: 'match',
        title: t('betting.line.match'),
        render: (_, l) => (
          <div style={{ minWidth: 180 }}>
            <div style={{ fontWeight: 500 }}>{`${l.teams_home_name} – ${l.teams_away_name}`}</div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {l.competition_name}
            </Typography.Text>
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                <Tooltip title={t('betting.line.fixture_date')}>{formatDateTime(l.fixture_date)}</Tooltip> · {l.match_id}
              </Typography.Text>
            </div>
          </div>
        ),
      },
      {
        key: 'selection',
        title: `${t('betting.line.market')} / ${t('betting.line.selection')}`,
        render: (_, l) => (
          <div style={{ minWidth: 150 }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {l.specifiers ? `${names.market(l.market_type_id, l.market_name)} (${l.specifiers})` : names.market(l.market_type_id, l.market_name)}
            </Typography.Text>
            <div style={{ fontWeight: 500 }}>{names.selection(l.selection_id, l.selection_name, l.specifiers)}</div>
          </div>
        ),
      },
      {
        key: 'odds',
        title: t('betting.line.odds'),
        align: 'right',
        render: (_, l) => (
          <div>
            <div>{l.odds}</div>
            {l.early_settlement_odds && (
              <Tooltip title={t('betting.line.early_settlement_odds')}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {l.early_settlement_odds}
                </Typography.Text>
              </Tooltip>
            )}
          </div>
        ),
      },
      { key: 'outcome_status', title: t('betting.line.outcome_status'), render: (_, l) => <span data-testid={`line-status-${l.id}`}><EnumTag name="outcome_status" value={l.outcome_status} /></span> },
      { key: 'result', title: t('betting.line.result'), render: (_, l) => <EnumTag name="selection_outcome" value={l.outcome} /> },
      { key: 'settled_by', title: t('betting.line.settled_by'), render: (_, l) => (l.settled_by ? t(`betting.source.${l.settled_by}`, { defaultValue: l.settled_by }) : '-') },
    ];
    if (!cs && !final)
      cols.push({
        key: 'actions',
        title: t('betting.line.actions'),
        fixed: mobile ? undefined : 'right',
        render: (_, l) => {
          const selection = `${l.teams_home_name} – ${l.teams_away_name} · ${names.market(l.market_type_id, l.market_name)} · ${names.selection(l.selection_id, l.selection_name, l.specifiers)}`;
          return (
            <Space size={4}>
              <ActionButton
                action="change_result"
                page="order_detailed"
                size="small"
                compact
                icon={<EditOutlined />}
                testId={`line-change-result-${l.id}`}
                onClick={() => openDialog({ kind: 'line', orderId: id, lineId: l.id, selection })}
              />
              <ActionButton
                action="change_match_result"
                page="order_detailed"
                size="small"
                compact
                icon={<TeamOutlined />}
                testId={`line-change-match-result-${l.id}`}
                onClick={() => openDialog({ kind: 'match', eventId: l.match_id, marketKey: l.market_id, outcomeId: l.selection_id, selection })}
              />
            </Space>
          );
        },
      });
    return cols;
  }, [t, cs, final, mobile, id, names]);

  const billColumns = useMemo(
    () => buildColumns(withBillRemark(billResource.fields.filter((f) => BILL_COLUMNS.includes(f.key)).map((f) => ({ ...f, sortable: false }))), t),
    [t],
  );

  const title = order ? t('betting.detail.title', { orderNo: String(order.order_no) }) : t(`menu.${page}`);
  const header = (
    <PageHeader
      title={<span data-testid="order-title">{title}</span>}
      description={cs ? t('betting.detail.readOnly') : undefined}
      extra={
        <Space wrap>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
            {t('betting.detail.back')}
          </Button>
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching} data-testid="order-refresh">
            {t('betting.bets.refresh')}
          </Button>
          {!cs && order && !final && order.status !== undefined && (
            <ActionButton
              action="cancel"
              page="order_detailed"
              danger
              icon={<StopOutlined />}
              testId="order-cancel"
              onClick={() => openDialog({ kind: 'cancel', orderId: id, orderNo: String(order.order_no) })}
            />
          )}
        </Space>
      }
    />
  );

  if (!valid) {
    return (
      <>
        {header}
        <Alert type="warning" showIcon message={t('betting.detail.missingId')} />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        {header}
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      </>
    );
  }

  return (
    <div data-testid="order-detail">
      {header}
      <Flex vertical gap={16}>
        <Card size="small" title={t('betting.detail.order')} loading={!data}>
          {order && <RecordView fields={fields} record={order} column={mobile ? 1 : { md: 2, xxl: 3 }} styles={{ label: { verticalAlign: 'top', whiteSpace: 'nowrap' } }} />}
        </Card>
        <Card size="small" title={t('betting.detail.lines')} loading={!data}>
          <Table<Line> size="small" rowKey="id" columns={lineColumns} dataSource={data?.lines ?? []} pagination={false} scroll={{ x: 'max-content' }} data-testid="order-lines" />
        </Card>
        <Card size="small" title={t('betting.detail.cashout')} loading={!data} data-testid="order-cashout">
          {data && <Cashout cashout={data.cashout} />}
        </Card>
        <Card size="small" title={t('betting.detail.history')} loading={!data} data-testid="order-history">
          {data && <History entries={data.history} />}
        </Card>
        <Card size="small" title={t('betting.detail.bills')} loading={!data}>
          <Table<Row>
            size="small"
            rowKey="id"
            columns={billColumns}
            dataSource={data?.bills ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('betting.detail.noBills')} /> }}
            data-testid="order-bills"
          />
        </Card>
      </Flex>
      <ResultDialog subject={subject} open={open} onClose={() => setOpen(false)} onDone={() => void query.refetch()} />
    </div>
  );
}

function Cashout({ cashout }: { cashout: OrderDetail['cashout'] }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  if (!cashout) return <Typography.Text type="secondary">{t('betting.detail.cashoutClosed')}</Typography.Text>;
  return (
    <Flex vertical gap={8}>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 3 }}
        items={[
          { key: 'state', label: t('betting.detail.cashoutState'), children: <EnumTag name="cashout_state" value={cashout.state} /> },
          { key: 'offer', label: t('betting.detail.cashoutOffer'), children: cashout.amount === null ? '-' : tsh(cashout.amount) },
          { key: 'auto', label: t('betting.detail.autoTarget'), children: cashout.auto_target === null ? '-' : tsh(cashout.auto_target) },
        ]}
      />
      {cashout.state === CASHOUT_STATE.locked && <Alert type="warning" showIcon message={t('betting.detail.cashoutLocked')} data-testid="cashout-locked" />}
    </Flex>
  );
}

/** One value of a history entry, by key: statuses as tags, money in shillings, odds as they are. */
function HistoryValue({ k, v }: { k: string; v: unknown }) {
  const tsh = useTsh();
  const { t } = useTranslation();
  if (v === null || v === undefined) return <>-</>;
  if (k === 'status') return <EnumTag name="order_status" value={v} />;
  if (k === 'outcome_status') return <EnumTag name="outcome_status" value={v} />;
  if (MONEY_KEYS.includes(k)) return <>{tsh(v)}</>;
  if (k === 'state' && (CASHOUT_RULE_STATES as readonly unknown[]).includes(v)) return <>{t(`betting.ruleState.${v as (typeof CASHOUT_RULE_STATES)[number]}`)}</>;
  return <>{String(v)}</>;
}

function History({ entries }: { entries: HistoryEntry[] }) {
  const { t } = useTranslation();
  if (!entries.length) return <Typography.Text type="secondary">{t('betting.detail.noHistory')}</Typography.Text>;
  return (
    <Timeline
      items={entries.map((e) => {
        const before = e.before ?? {};
        const after = e.after ?? {};
        const keys = SHOWN_KEYS.filter((k) => k in before || k in after).filter((k) => !(k in before) || !(k in after) || before[k] !== after[k]);
        const label = (k: string) => (k === 'outcome_status' ? t('betting.line.outcome_status') : t(`betting.history.${k}`));
        return {
          key: e.id,
          color: e.kind === 'cancelled' || e.kind === 'rolled_back' ? 'red' : e.kind === 'result_changed' ? 'orange' : e.kind === 'placed' ? 'blue' : 'green',
          children: (
            <div data-testid={`history-${e.kind}`}>
              <Space size={8} wrap>
                <Typography.Text strong>{(ORDER_EVENT_KINDS as readonly string[]).includes(e.kind) ? t(`betting.kind.${e.kind}`) : e.kind}</Typography.Text>
                <Tag>{t(`betting.source.${e.source}`, { defaultValue: e.source })}</Tag>
                {e.admin_account && <Typography.Text type="secondary">{t('betting.history.by', { account: e.admin_account })}</Typography.Text>}
                <Typography.Text type="secondary">{formatDateTime(e.created_at)}</Typography.Text>
              </Space>
              {e.reason && <div>{t('betting.history.reason', { reason: e.reason })}</div>}
              {keys.length > 0 && (
                <Flex wrap gap={4} style={{ marginTop: 4 }}>
                  {keys.map((k) => (
                    <Tag key={k} bordered={false} style={{ marginInlineEnd: 8 }}>
                      <Typography.Text type="secondary">{label(k)}: </Typography.Text>
                      {k in before && (
                        <>
                          <HistoryValue k={k} v={before[k]} /> <ArrowRightOutlined style={{ fontSize: 10 }} />{' '}
                        </>
                      )}
                      <HistoryValue k={k} v={after[k]} />
                    </Tag>
                  ))}
                </Flex>
              )}
            </div>
          ),
        };
      })}
    />
  );
}
