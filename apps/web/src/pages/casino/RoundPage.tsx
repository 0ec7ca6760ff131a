import { useMemo } from 'react';
import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Flex, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { CasinoRoundDetail, CasinoTransactionRow } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { useIsMobile } from '../../kit/dialog';
import { formatDateTime, LoadError, PageHeader, RecordView, type FieldView } from '../../resources';
import { roundFields, TRANSACTION_KIND_COLOR } from './fields';
import { SignedTsh, useTsh } from './shared';

/** A wallet answer status (RS_OK green, any refusal orange). */
export function WalletStatus({ status }: { status: string }) {
  return <Tag color={status === 'RS_OK' ? 'green' : 'orange'} style={{ fontFamily: 'monospace', fontSize: 11 }}>{status}</Tag>;
}

/**
 * Casino › Order details (`casino_order_details`, hidden; `?id=`): a round's fields and every wallet call
 * the provider made for it, in the order they arrived: its kind (bet, win, rollback), the amount, the
 * answer's status, the balance after it, the bill it caused (serial number) and the time.
 */
export default function RoundPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const tsh = useTsh();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const q = useQuery({
    queryKey: ['casino-round', id],
    queryFn: () => api.get<CasinoRoundDetail>(`/casino/rounds/${id}`),
    enabled: valid,
  });
  const data = q.data;
  const round = data?.round;
  const fields = useMemo<FieldView[]>(() => roundFields().filter((f) => f.detail !== false), []);

  const columns = useMemo<TableColumnsType<CasinoTransactionRow>>(
    () => [
      {
        key: 'kind',
        title: t('casino.tx.kind'),
        render: (_, x) => (
          <Space size={4} wrap>
            <Tag color={TRANSACTION_KIND_COLOR[x.kind] ?? 'default'} data-testid={`tx-kind-${x.id}`}>
              {x.kind === 'bet' ? t('casino.txn_kind.bet') : x.kind === 'win' ? t('casino.txn_kind.win') : x.kind === 'rollback' ? t('casino.txn_kind.rollback') : x.kind}
            </Tag>
            {x.tombstone && (
              <Tooltip title={t('casino.tx.tombstoneHint')}>
                <Tag color="default">{t('casino.tx.tombstone')}</Tag>
              </Tooltip>
            )}
          </Space>
        ),
      },
      {
        key: 'amount',
        title: t('casino.tx.amount'),
        align: 'right',
        // A bet takes money from the balance: shown as a debit.
        render: (_, x) => <SignedTsh cents={x.kind === 'bet' ? -Number(x.amount) : Number(x.amount)} testId={`tx-amount-${x.id}`} />,
      },
      { key: 'status', title: t('casino.tx.status'), render: (_, x) => <WalletStatus status={x.status} /> },
      { key: 'balance_after', title: t('casino.tx.balanceAfter'), align: 'right', render: (_, x) => <span style={{ whiteSpace: 'nowrap' }}>{tsh(x.balance_after)}</span> },
      {
        key: 'bill',
        title: t('casino.tx.bill'),
        render: (_, x) =>
          x.bill_serial ? (
            <Typography.Text copyable style={{ whiteSpace: 'nowrap' }} data-testid={`tx-bill-${x.id}`}>
              {x.bill_serial}
            </Typography.Text>
          ) : (
            <Tooltip title={t('casino.tx.noBillHint')}>
              <Typography.Text type="secondary">{t('casino.tx.noBill')}</Typography.Text>
            </Tooltip>
          ),
      },
      {
        key: 'uuid',
        title: t('casino.tx.uuid'),
        render: (_, x) => (
          <div style={{ maxWidth: 260 }}>
            <Typography.Text code ellipsis={{ tooltip: x.transaction_uuid }} style={{ fontSize: 12 }}>
              {x.transaction_uuid}
            </Typography.Text>
            {x.reference_uuid && (
              <Typography.Text type="secondary" ellipsis={{ tooltip: x.reference_uuid }} style={{ display: 'block', fontSize: 12 }}>
                {t('casino.tx.reference')}: {x.reference_uuid}
              </Typography.Text>
            )}
          </div>
        ),
      },
      { key: 'time', title: t('casino.tx.time'), render: (_, x) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(x.create_time)}</span> },
    ],
    [t, tsh],
  );

  const title = round ? t('casino.round.title', { ref: String(round.round_ref ?? round.id) }) : t('menu.casino_order_details');
  const header = (
    <PageHeader
      title={<span data-testid="round-title">{title}</span>}
      description={t('casino.describe.casino_order_details')}
      extra={
        <Space wrap>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
            {t('casino.round.back')}
          </Button>
          <Button icon={<ReloadOutlined />} onClick={() => void q.refetch()} loading={q.isFetching} data-testid="round-refresh">
            {t('casino.round.refresh')}
          </Button>
        </Space>
      }
    />
  );

  if (!valid)
    return (
      <>
        {header}
        <Alert type="warning" showIcon message={t('casino.round.missingId')} />
      </>
    );
  if (q.isError && !data)
    return (
      <>
        {header}
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      </>
    );

  return (
    <div data-testid="round-detail">
      {header}
      <Flex vertical gap={16}>
        <Card size="small" title={t('casino.round.round')} loading={!data}>
          {round && <RecordView fields={fields} record={round} column={mobile ? 1 : { md: 2, xxl: 3 }} styles={{ label: { verticalAlign: 'top', whiteSpace: 'nowrap' } }} />}
        </Card>
        <Card size="small" title={t('casino.round.transactions', { n: data?.transactions.length ?? 0 })} loading={!data}>
          <Table<CasinoTransactionRow>
            size="small"
            rowKey="id"
            columns={columns}
            dataSource={data?.transactions ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('casino.round.noTransactions')} /> }}
            data-testid="round-transactions"
          />
        </Card>
      </Flex>
    </div>
  );
}
