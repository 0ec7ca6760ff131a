import { useMemo, type ComponentType } from 'react';
import { Alert, Skeleton, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type ListAnswer } from '../../kit/api';
import { formatDateTime, LoadError, ResourcePage, type FieldView, type QuickFilter, type Row } from '../../resources';
import { tronSettingsResource, tronSweepResource, usdtTransferResource } from '@dau/contract/ui';
import { Amount, Code, codeHint, CodeTag, Stacked, SweepStatusTag, SWEEP_STATUS, TRANSFER_STATUS, TEXTS, TransferStatusTag, tronView, useOptions } from './shared';

const KIND_COLOR: Record<string, string> = { collect: 'blue', gas: 'purple', withdrawal: 'cyan' };

/**
 * Users › TRON collection summary (tron_transaction_summary): the transactions we sent (collections, their
 * gas top-ups, withdrawals) with number, hash, sender, receiver, amount in its asset, status and remark. A
 * gas top-up names the sweep it paid for; a sweep's drawer lists its top-ups under it.
 */
function SweepScreen() {
  const { t } = useTranslation();
  const statuses = useOptions('sweepStatus', SWEEP_STATUS);
  const def = useMemo(() => {
    const kinds = Object.entries(TEXTS.kind).map(([value, key]) => ({ value, label: t(key) }));
    const hints: Record<string, Partial<FieldView>> = {
      number: {
        keep: true,
        render: (v, row) => (
          <Stacked
            top={<Typography.Text strong style={{ whiteSpace: 'nowrap' }} data-testid={`sweep-number-${String(row.id)}`}>{row.parent_id ? `↳ ${String(v)}` : String(v ?? '-')}</Typography.Text>}
            bottom={
              row.parent_id
                ? t('tron.sweep.topUpOf', { number: String(row.parent_number ?? `#${String(row.parent_id)}`) })
                : row.kind === 'collect'
                  ? <TopUpsLine sweepId={row.id} />
                  : row.withdrawal_serial
                    ? String(row.withdrawal_serial)
                    : undefined
            }
          />
        ),
      },
      kind: { options: kinds, render: (v) => <CodeTag group="kind" value={v} colors={KIND_COLOR} /> },
      tx_hash: codeHint(),
      from_address: { keep: true, ...codeHint() },
      to_address: { keep: true, ...codeHint() },
      amount: { keep: true, render: (v, row) => <Amount value={v} asset={String(row.asset ?? 'USDT')} testId={`sweep-amount-${String(row.id)}`} /> },
      asset: { options: [{ value: 'USDT', label: 'USDT' }, { value: 'TRX', label: 'TRX' }] },
      status: { keep: true, options: statuses, render: (v) => <SweepStatusTag status={v} /> },
    };
    return tronView(tronSweepResource, hints, { fetchDetail: false });
  }, [t, statuses]);
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      detailTitle={(row) => `${t('menu.tron_transaction_summary')} · ${String(row.number ?? row.id)}`}
      detailExtra={(row) => (row.kind === 'gas' ? null : <GasTopUps sweep={row} />)}
    />
  );
}

/** A sweep's gas top-ups (GET /tron/sweeps?parent_id=), shared by the list's line and the drawer. */
const useTopUps = (sweepId: unknown, enabled = true) =>
  useQuery({
    queryKey: ['tron_transaction_summary', 'top-ups', sweepId],
    queryFn: () => api.get<ListAnswer<Row>>(tronSweepResource.api, { parent_id: String(sweepId), page_size: 50 }),
    enabled,
    staleTime: 5_000,
  });

/** Under a collect sweep in the list: its gas top-ups, one line each ("↳ 30.00 TRX · Success"). */
function TopUpsLine({ sweepId }: { sweepId: unknown }) {
  const q = useTopUps(sweepId);
  const rows = q.data?.items ?? [];
  if (!rows.length) return null;
  return (
    <span data-testid={`sweep-top-up-line-${String(sweepId)}`}>
      {rows.map((r) => (
        <span key={String(r.id)} style={{ display: 'block' }}>
          ↳ <Amount value={r.amount} asset={String(r.asset ?? 'TRX')} /> <SweepStatusTag status={r.status} />
        </span>
      ))}
    </span>
  );
}

/** The TRX top-ups from the gas wallet that paid a sweep's fees: its children (parent_id), under it. */
function GasTopUps({ sweep }: { sweep: Row }) {
  const { t } = useTranslation();
  const nested = Array.isArray(sweep.gas_top_ups) ? (sweep.gas_top_ups as Row[]) : undefined;
  const q = useTopUps(sweep.id, !nested);
  const rows = nested ?? q.data?.items;
  return (
    <div style={{ marginTop: 16 }} data-testid="sweep-top-ups">
      <Typography.Title level={5}>{t('tron.sweep.gasTopUps')}</Typography.Title>
      {q.isError && !rows ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !rows ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : rows.length === 0 ? (
        <Alert type="info" showIcon message={t('tron.sweep.noTopUps')} />
      ) : (
        <Table<Row>
          size="small"
          rowKey={(r) => String(r.id)}
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={rows}
          columns={[
            { key: 'number', title: t('tron.field.number'), render: (_, r) => String(r.number ?? r.id) },
            { key: 'tx', title: t('tron.field.tx_hash'), render: (_, r) => <Code value={r.tx_hash} /> },
            { key: 'to', title: t('tron.field.to_address'), render: (_, r) => <Code value={r.to_address} /> },
            { key: 'amount', title: t('tron.field.amount'), render: (_, r) => <Amount value={r.amount} asset={String(r.asset ?? 'TRX')} /> },
            { key: 'status', title: t('tron.field.status'), render: (_, r) => <SweepStatusTag status={r.status} /> },
            { key: 'time', title: t('tron.field.create_time'), render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.create_time ?? r.created_at)}</span> },
          ]}
        />
      )}
    </div>
  );
}

/**
 * Users › USDT transactions (usdt_transaction_record): every USDT transfer seen on chain to or from our
 * addresses: amount, block, transaction, timestamp, fingerprint (hash:event, credited at most once),
 * sender, receiver, status, remark and the bettor it was credited to.
 */
function TransferScreen() {
  const { t } = useTranslation();
  const statuses = useOptions('transferStatus', TRANSFER_STATUS);
  const def = useMemo(() => {
    const directions = Object.entries(TEXTS.direction).map(([value, key]) => ({ value, label: t(key) }));
    const hints: Record<string, Partial<FieldView>> = {
      amount: { keep: true, render: (v, row) => <Amount value={v} asset="USDT" testId={`transfer-amount-${String(row.id)}`} strong /> },
      block_number: { keep: true, render: (v) => (v === null || v === undefined ? '-' : <span style={{ fontVariantNumeric: 'tabular-nums' }}>{String(v)}</span>) },
      tx_hash: codeHint(),
      fingerprint: codeHint(),
      from_address: codeHint(),
      to_address: codeHint(),
      direction: { options: directions, render: (v) => <CodeTag group="direction" value={v} colors={{ in: 'green', out: 'orange' }} /> },
      status: { keep: true, options: statuses, render: (v, row) => <TransferStatusTag status={v} direction={row.direction} /> },
      bettor_id: { keep: true, label: 'tron.transfer.credited', render: (v, row) => <CreditedTo row={row} bettorId={v} /> },
    };
    return tronView(usdtTransferResource, hints, { fetchDetail: false });
  }, [t, statuses]);
  const quick = useMemo<QuickFilter[]>(
    () => [
      { key: 'all', label: t('tron.wallet.viewAll'), filters: {} },
      { key: 'in', label: t('tron.direction.in'), filters: { direction: 'in' } },
      { key: 'out', label: t('tron.direction.out'), filters: { direction: 'out' } },
    ],
    [t],
  );
  return <ResourcePage def={def} detailColumns={2} quickFilters={quick} detailTitle={(row) => `${t('menu.usdt_transaction_record')} · ${String(row.fingerprint ?? row.id)}`} />;
}

/** The bettor a deposit was credited to (phone or ID, and the recharge), or "Not credited". */
function CreditedTo({ row, bettorId }: { row: Row; bettorId: unknown }) {
  const { t } = useTranslation();
  if (bettorId === null || bettorId === undefined || bettorId === '') return <Typography.Text type="secondary">-</Typography.Text>;
  const name = row.user_name ?? row.phone;
  const recharge = row.recharge_serial ?? row.recharge_id;
  const credited = recharge !== null && recharge !== undefined;
  return (
    <Stacked
      top={
        <span data-testid={`credited-${String(row.id)}`}>
          {name ? `${String(name)} ` : ''}
          <Typography.Text type="secondary">#{String(bettorId)}</Typography.Text>
        </span>
      }
      bottom={credited ? t('tron.transfer.creditedTag', { id: String(recharge) }) : t('tron.transfer.notCredited')}
    />
  );
}

/**
 * Users › TRON settings (tron_config): the USDT→TSh rate, the confirmations, the collect threshold and the
 * hot wallet's ceiling (USDT); a change of the rate or the ceiling waits for a second administrator. The
 * settings card has its history and says when a change waits.
 */
function SettingsScreen() {
  const { t } = useTranslation();
  const def = useMemo(() => {
    const usdt = (v: unknown) => <Amount value={typeof v === 'number' ? Math.round(v * 1_000_000) : v} asset="USDT" />;
    const hints: Record<string, Partial<FieldView>> = {
      usdt_rate_tsh: { help: 'tron.help.usdt_rate_tsh' },
      confirmations: { help: 'tron.help.confirmations', render: (v) => t('tron.settings.blocks', { count: Number(v) }) },
      collect_threshold: { help: 'tron.help.collect_threshold', render: usdt },
      hot_wallet_ceiling: { help: 'tron.help.hot_wallet_ceiling', render: usdt },
    };
    return tronView(tronSettingsResource, hints, { title: 'menu.tron_config', description: 'tron.describe.tron_config' });
  }, [t]);
  return <ResourcePage def={def} />;
}

/** The TRON screens that are one declaration each (with the hints above). */
export const screens: Record<string, ComponentType> = {
  tron_transaction_summary: SweepScreen,
  usdt_transaction_record: TransferScreen,
  tron_config: SettingsScreen,
};
