import { useMemo, useState, type ReactNode } from 'react';
import { ReloadOutlined, ShareAltOutlined } from '@ant-design/icons';
import { Button, Flex, Table, Tabs, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { ORDER_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../kit/access';
import { api, type ListAnswer } from '../../kit/api';
import { formatDateTime, LoadError, NoData, useFeedback, type Row } from '../../resources';
import { EnumTag, orderHref, orderLink, useTsh } from './shared';

const LATEST = 20;
type Tab = 'open' | 'settled';

/**
 * A bettor's bets (spec "My bets"), in the user's detail: tabs Open (status pending) and Settled (the
 * others), from the order list (GET /betting/orders?bettor_id=, the last 30 days), with copy serial number,
 * share (copies the link to the order's detail) and refresh. The server filters one status: Settled is the
 * latest orders without the open ones.
 */
export function BettorBets({ bettorId }: { bettorId: unknown }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const { ok, fail } = useFeedback();
  const tsh = useTsh();
  const [tab, setTab] = useState<Tab>('open');
  const allowed = can('order_list');
  const query = useQuery({
    queryKey: ['bettor-bets', bettorId, tab],
    queryFn: () =>
      api.get<ListAnswer<Row>>('/betting/orders', {
        bettor_id: String(bettorId),
        status: tab === 'open' ? ORDER_STATUS.pending : undefined,
        page: 1,
        page_size: tab === 'open' ? LATEST : LATEST * 3,
        sort: '-create_time',
      }),
    enabled: allowed && bettorId !== undefined,
  });
  const items = useMemo(() => {
    const all = query.data?.items ?? [];
    return tab === 'open' ? all : all.filter((o) => o.status !== ORDER_STATUS.pending).slice(0, LATEST);
  }, [query.data, tab]);
  const detail = can('order_detailed');

  const share = async (row: Row) => {
    try {
      await navigator.clipboard.writeText(orderLink(row.id));
      ok('COPIED');
    } catch (e) {
      fail(e);
    }
  };

  const columns = useMemo<TableColumnsType<Row>>(
    () => [
      {
        key: 'order_no',
        title: t('field.order_no'),
        render: (_, r) => (detail ? <a href={orderHref(r.id)}>{String(r.order_no)}</a> : String(r.order_no)),
      },
      {
        key: 'serial_number',
        title: t('field.serial_number'),
        render: (_, r) => (
          <Typography.Text copyable={{ onCopy: () => ok('COPIED'), tooltips: [t('betting.bets.copySerial'), t('betting.bets.copySerial')] }}>{String(r.serial_number)}</Typography.Text>
        ),
      },
      { key: 'status', title: t('field.status'), render: (_, r) => <EnumTag name="order_status" value={r.status} /> },
      { key: 'stake', title: t('field.amount_payable'), align: 'right', render: (_, r) => tsh(r.amount_payable) },
      { key: 'odds', title: t('field.total_price'), align: 'right', dataIndex: 'total_price' },
      { key: 'payout', title: tab === 'open' ? t('field.potential_payout') : t('field.payout'), align: 'right', render: (_, r) => tsh(tab === 'open' ? r.potential_payout : r.payout) },
      { key: 'time', title: t('field.create_time'), render: (_, r) => formatDateTime(r.create_time) },
      {
        key: 'share',
        title: '',
        render: (_, r) =>
          detail ? (
            <Tooltip title={t('betting.bets.share')}>
              <Button type="text" size="small" icon={<ShareAltOutlined />} aria-label={t('betting.bets.share')} onClick={() => void share(r)} />
            </Tooltip>
          ) : null,
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, tab, detail, tsh],
  );

  if (!allowed) return null;
  return (
    <div data-testid="user-bets">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Tabs
          size="small"
          activeKey={tab}
          onChange={(k) => setTab(k as Tab)}
          items={[
            { key: 'open', label: t('betting.bets.open') },
            { key: 'settled', label: t('betting.bets.settled') },
          ]}
        />
        <Flex gap={8} align="center">
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('betting.bets.refresh')}
          </Button>
          <a href={`#/customer/order_list?bettor_id=${encodeURIComponent(String(bettorId))}`}>{t('betting.bets.all')} →</a>
        </Flex>
      </Flex>
      {tab === 'settled' && <Typography.Paragraph type="secondary">{t('betting.bets.settledNote')}</Typography.Paragraph>}
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Table<Row>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={items}
          loading={query.isFetching}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: query.isPending ? ' ' : <NoData /> }}
        />
      )}
    </div>
  );
}

/** The user's detail below its fields: the latest bills, and the bettor's bets in a tab of their own (with the order list page). */
export function BettorTabs({ bettorId, bills }: { bettorId: unknown; bills: ReactNode }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  if (!can('order_list')) return <>{bills}</>;
  return (
    <Tabs
      style={{ marginTop: 16 }}
      data-testid="user-detail-tabs"
      items={[
        { key: 'bills', label: t('betting.bets.bills'), children: bills },
        { key: 'bets', label: t('betting.bets.tab'), children: <BettorBets bettorId={bettorId} /> },
      ]}
    />
  );
}
