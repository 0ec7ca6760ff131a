import { useMemo, useState } from 'react';
import { CloudSyncOutlined, DeleteOutlined, PlusOutlined, VerticalAlignBottomOutlined, WalletOutlined } from '@ant-design/icons';
import { Alert, App, Button, Drawer, Modal, Skeleton, Table, Tag, Tooltip, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TronLiveBalanceAnswer } from '@dau/contract';
import { api, request } from '../../kit/api';
import { useDialogWidth, useIsMobile } from '../../kit/dialog';
import { useMsg } from '../../kit/messages';
import { ActionButton, formatDateTime, FormModal, LoadError, NoData, ResourcePage, RowActionButton, useApiMutation, type FieldView, type QuickFilter, type Row } from '../../resources';
import { tronWalletResource, type TronReconcileAnswer as ReconcileAnswer, type TronReconcileRow as ReconcileRow } from '@dau/contract/ui';
import { Amount, Code, codeHint, RoleTag, shorten, Stacked, TRON_LISTS, tronView, useOptions, WALLET_ROLE } from './shared';
import { difference, toUnits } from './units';
import { AuditOutlined } from '@ant-design/icons';

const PAGE = 'tron';
const BASE = tronWalletResource.api;

/** The wallet routes (T1, apps/server/src/modules/tron routes). */
export const WALLET_ROUTES = {
  create: BASE,
  /** DELETE with `{ confirm: true }` (spec §8). */
  remove: (id: unknown) => `${BASE}/${String(id)}`,
  balance: (id: unknown) => `${BASE}/${String(id)}/balance`,
  reconciliation: '/tron/reconciliation',
  collect: (id: unknown) => `${BASE}/${String(id)}/collect`,
  collectAll: '/tron/collect_all',
  /** POST with `{ confirm: true }` (spec §8): answers `{ queued, wallets }`. */
  syncAll: `${BASE}/sync`,
};

/** How many wallets a collect all queued, when the answer says (a number, or { wallets | count | queued }). */
function countOf(a: unknown): number | null {
  if (typeof a === 'number') return a;
  if (a && typeof a === 'object') for (const k of ['wallets', 'count']) if (typeof (a as Row)[k] === 'number') return (a as Row)[k] as number;
  return null;
}

const isRemoved = (r: Row) => r.removed === true || r.removed === 1 || r.removed === 'true';

/**
 * Users › TRON wallets (tron): every address we hold the key of, with its Base58 and hex address and public
 * key (each with a copy button), the stored TRX and USDT balance and the real-time one asked from the node,
 * the bettor (deposit) or role, and whether and when it was removed. Create (by role), remove (soft), sync
 * all balances and collect all / one, each behind its confirmation, with a toast after; a wallet's drawer
 * holds its reconciliation (on chain against the ledger).
 */
export default function WalletsPage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const { message } = App.useApp();
  const roles = useOptions('role', WALLET_ROLE);
  const [creating, setCreating] = useState(false);
  const [asking, setAsking] = useState<Row | null>(null);
  const [reconciling, setReconciling] = useState(false);

  const def = useMemo(() => {
    const hints: Record<string, Partial<FieldView>> = {
      role: { keep: true, options: roles, render: (v) => <RoleTag role={v} /> },
      bettor_id: { label: 'tron.field.bettor', render: (v, row) => <Bettor row={row} bettorId={v} /> },
      address: { label: 'tron.wallet.addressFilter' },
      address_base58: { keep: true, ...codeHint(t('tron.wallet.copyBase58')) },
      address_hex: codeHint(t('tron.wallet.copyHex')),
      public_key: codeHint(t('tron.wallet.copyKey')),
      trx_balance: { keep: true, render: (v, row) => <Amount value={v} asset="TRX" testId={`wallet-trx-${String(row.id)}`} /> },
      usdt_balance: { keep: true, render: (v, row) => <Amount value={v} asset="USDT" testId={`wallet-usdt-${String(row.id)}`} strong /> },
      removed: {
        keep: true,
        label: 'tron.wallet.state',
        options: [
          { value: 0, label: t('tron.wallet.active') },
          { value: 1, label: t('tron.wallet.removed') },
        ],
        render: (_v, row) =>
          isRemoved(row) ? (
            <Stacked top={<Tag color="red" data-testid={`wallet-removed-${String(row.id)}`}>{t('tron.wallet.removed')}</Tag>} bottom={row.removed_at ? formatDateTime(row.removed_at) : undefined} />
          ) : (
            <Tag color="green">{t('tron.wallet.active')}</Tag>
          ),
      },
    };
    return tronView(tronWalletResource, hints, { fetchDetail: false });
  }, [t, roles]);

  const create = useApiMutation((body: Row) => api.post<Row>(WALLET_ROUTES.create, body), { invalidate: TRON_LISTS });
  const remove = useApiMutation((id: unknown) => request<unknown>('DELETE', WALLET_ROUTES.remove(id), { body: { confirm: true } }), { invalidate: TRON_LISTS });
  const collect = useApiMutation((id: unknown) => api.post<unknown>(WALLET_ROUTES.collect(id)), { invalidate: TRON_LISTS });
  // "Successful operation", and what was started (the work runs as jobs).
  const collectAll = useApiMutation(() => api.post<unknown>(WALLET_ROUTES.collectAll), {
    invalidate: TRON_LISTS,
    success: false,
    onSuccess: (a) => {
      const n = countOf(a);
      void message.success(`${msg('SUCCESS')} · ${n === null ? t('tron.wallet.collectAllStarted') : t('tron.wallet.collectAllDone', { n })}`);
    },
  });
  const syncAll = useApiMutation(() => api.post<unknown>(WALLET_ROUTES.syncAll, { confirm: true }), {
    invalidate: TRON_LISTS,
    success: false,
    onSuccess: () => void message.success(`${msg('SUCCESS')} · ${t('tron.wallet.syncStarted')}`),
  });

  const quick = useMemo<QuickFilter[]>(
    () => [
      { key: 'all', label: t('tron.wallet.viewAll'), filters: {} },
      { key: 'active', label: t('tron.wallet.viewActive'), filters: { removed: '0' } },
      { key: 'removed', label: t('tron.wallet.viewRemoved'), filters: { removed: '1' } },
    ],
    [t],
  );

  const createFields = useMemo<FieldView[]>(
    () => [
      { key: 'role', type: 'number', label: 'tron.field.role', options: roles, editable: true, required: true, default: WALLET_ROLE.collection, help: 'tron.wallet.roleHelp' },
      { key: 'bettor_id', type: 'number', label: 'tron.field.bettor_id', editable: true, min: 1, help: 'tron.wallet.bettorHelp' },
    ],
    [roles],
  );

  return (
    <ResourcePage
      def={def}
      detailColumns={1}
      quickFilters={quick}
      detailTitle={(row) => `${t('menu.tron')} · ${shorten(String(row.address_base58 ?? row.id))}`}
      detailExtra={(row) => <Reconciliation wallet={row} />}
      detailActions={(row) => (
        <Button icon={<WalletOutlined />} onClick={() => setAsking(row)} data-testid={`wallet-realtime-drawer-${String(row.id)}`}>
          {t('tron.wallet.realtime')}
        </Button>
      )}
      toolbar={() => (
        <>
          <ActionButton action="create" page={PAGE} type="primary" icon={<PlusOutlined />} testId="wallet-create" onClick={() => setCreating(true)}>
            {t('tron.wallet.createTitle')}
          </ActionButton>
          <ActionButton action="sync_balance" page={PAGE} icon={<CloudSyncOutlined />} testId="wallet-sync-all" confirm={msg('CONFIRM_SYNC_BALANCES')} onClick={() => syncAll.mutateAsync(undefined)}>
            {t('tron.wallet.syncAll')}
          </ActionButton>
          <ActionButton action="collect_all" page={PAGE} icon={<VerticalAlignBottomOutlined />} testId="wallet-collect-all" confirm={msg('CONFIRM_COLLECT_ALL')} onClick={() => collectAll.mutateAsync(undefined)}>
            {t('tron.wallet.collectAll')}
          </ActionButton>
          <Button icon={<AuditOutlined />} onClick={() => setReconciling(true)} data-testid="wallet-reconcile-all">
            {t('tron.reconcile.title')}
          </Button>
        </>
      )}
      rowActions={(row) => {
        const id = String(row.id);
        const removed = isRemoved(row);
        return (
          <>
            <Tooltip title={t('tron.wallet.realtime')}>
              <Button type="text" size="small" icon={<WalletOutlined />} aria-label={t('tron.wallet.realtime')} data-testid={`wallet-realtime-${id}`} onClick={() => setAsking(row)} />
            </Tooltip>
            {!removed && Number(row.role) === WALLET_ROLE.deposit && (
              <RowActionButton
                action="collect"
                page={PAGE}
                icon={<VerticalAlignBottomOutlined />}
                testId={`wallet-collect-${id}`}
                confirm={t('tron.wallet.collectConfirm', { address: shorten(String(row.address_base58 ?? '')) })}
                onClick={() => collect.mutateAsync(row.id)}
              >
                {t('tron.wallet.collect')}
              </RowActionButton>
            )}
            {!removed && (
              <RowActionButton
                action="delete"
                page={PAGE}
                danger
                icon={<DeleteOutlined />}
                testId={`wallet-remove-${id}`}
                confirm={t('tron.wallet.removeConfirm')}
                onClick={() => remove.mutateAsync(row.id)}
              >
                {t('tron.wallet.remove')}
              </RowActionButton>
            )}
          </>
        );
      }}
    >
      <FormModal
        open={creating}
        title={t('tron.wallet.createTitle')}
        fields={createFields}
        mode="create"
        maxWidth={520}
        onSubmit={(body) => create.mutateAsync(body)}
        onClose={() => setCreating(false)}
      />
      <RealtimeBalance wallet={asking} onClose={() => setAsking(null)} />
      <ReconcileAll open={reconciling} onClose={() => setReconciling(false)} />
    </ResourcePage>
  );
}

/** The bettor a deposit address belongs to (phone or ID), or "House wallet". */
function Bettor({ row, bettorId }: { row: Row; bettorId: unknown }) {
  const { t } = useTranslation();
  if (bettorId === null || bettorId === undefined || bettorId === '') return <Typography.Text type="secondary">{t('tron.wallet.noBettor')}</Typography.Text>;
  const phone = row.bettor_phone ?? row.phone;
  return <Stacked top={<span data-testid={`wallet-bettor-${String(row.id)}`}>{phone ? String(phone) : `#${String(bettorId)}`}</span>} bottom={phone ? `#${String(bettorId)}` : undefined} />;
}

/** Asks the node for a wallet's balance now, beside the stored one. */
function RealtimeBalance({ wallet, onClose }: { wallet: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const width = useDialogWidth(560);
  const q = useQuery({
    queryKey: ['tron-balance', wallet?.id],
    queryFn: async () => {
      const answer = await api.get<TronLiveBalanceAnswer>(WALLET_ROUTES.balance(wallet!.id));
      // The node's answer is stored as the wallet's balance: the list shows it too.
      void client.invalidateQueries({ queryKey: ['tron'] });
      return answer;
    },
    enabled: !!wallet,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  return (
    <Modal
      open={!!wallet}
      title={t('tron.wallet.realtimeTitle', { address: shorten(String(wallet?.address_base58 ?? '')) })}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="again" onClick={() => void q.refetch()} loading={q.isFetching} data-testid="realtime-again">
          {t('action.retry')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('common.ok')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">{t('tron.wallet.realtimeHint')}</Typography.Paragraph>
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <div data-testid="realtime-balance">
          <Table
            size="small"
            pagination={false}
            rowKey="asset"
            dataSource={[
              { asset: 'USDT', now: q.data.usdt_balance, solid: q.data.usdt_balance_confirmed, stored: wallet?.usdt_balance },
              { asset: 'TRX', now: q.data.trx_balance, solid: q.data.trx_balance_confirmed, stored: wallet?.trx_balance },
            ]}
            columns={[
              { key: 'asset', title: t('tron.reconcile.asset'), dataIndex: 'asset' },
              { key: 'now', title: t('tron.wallet.onChain'), render: (_, r) => <Amount value={r.now} asset={r.asset} strong testId={`realtime-${r.asset}`} /> },
              { key: 'solid', title: t('tron.wallet.solidified'), render: (_, r) => <Amount value={r.solid} asset={r.asset} testId={`realtime-solid-${r.asset}`} /> },
              { key: 'stored', title: t('tron.wallet.stored'), render: (_, r) => <Amount value={r.stored} asset={r.asset} /> },
            ]}
          />
          {q.data.balance_synced_at && (
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
              {t('tron.wallet.askedAt', { at: formatDateTime(q.data.balance_synced_at) })}
            </Typography.Text>
          )}
        </div>
      )}
    </Modal>
  );
}

/** One wallet of GET /tron/reconciliation (USDT units and sun; chain values null when the node did not answer). */


/** The difference on chain − ledger: "Balanced", or "Mismatch" and the amount. */
function DifferenceMark({ row }: { row: ReconcileRow }) {
  const { t } = useTranslation();
  const d = toUnits(row.difference) ?? difference(row.chain_usdt, row.expected_usdt);
  if (d === null) return <Typography.Text type="secondary">-</Typography.Text>;
  return d === 0n ? (
    <Tag color="success" data-testid={`reconcile-${row.wallet_id}`}>
      {t('tron.reconcile.balanced')}
    </Tag>
  ) : (
    <span data-testid={`reconcile-${row.wallet_id}`} style={{ whiteSpace: 'nowrap' }}>
      <Tag color="error">{t('tron.reconcile.mismatch')}</Tag>
      <Amount value={d} asset="USDT" />
    </span>
  );
}

/** Flags of a reconciled wallet: the node's error, the hot wallet above its ceiling. */
function ReconcileNotes({ row }: { row: ReconcileRow }) {
  const { t } = useTranslation();
  return (
    <>
      {row.node_error && <Alert style={{ marginTop: 8 }} type="warning" showIcon message={t('tron.reconcile.nodeError')} description={row.node_error} />}
      {row.above_ceiling && (
        <Alert style={{ marginTop: 8 }} type="warning" showIcon message={t('tron.reconcile.aboveCeiling')} description={<Amount value={row.surplus} asset="USDT" />} data-testid={`reconcile-ceiling-${row.wallet_id}`} />
      )}
    </>
  );
}

/** Per wallet: what the chain says it holds (asked now) against what the ledger says it should hold. */
function Reconciliation({ wallet }: { wallet: Row }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['tron-reconcile', wallet.id],
    queryFn: () => api.get<ReconcileAnswer>(WALLET_ROUTES.reconciliation, { wallet_id: String(wallet.id) }),
    retry: false,
  });
  const row = q.data?.rows[0];
  return (
    <div style={{ marginTop: 16 }} data-testid="wallet-reconciliation">
      <Typography.Title level={5}>{t('tron.reconcile.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('tron.reconcile.hint')}</Typography.Paragraph>
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : !row ? (
        <NoData />
      ) : (
        <>
          <Table
            size="small"
            pagination={false}
            rowKey="asset"
            scroll={{ x: 'max-content' }}
            dataSource={[
              { asset: 'USDT', chain: row.chain_usdt, ledger: row.expected_usdt as number | null, stored: row.stored_usdt },
              { asset: 'TRX', chain: row.chain_trx, ledger: null, stored: wallet.trx_balance },
            ]}
            columns={[
              { key: 'asset', title: t('tron.reconcile.asset'), dataIndex: 'asset' },
              { key: 'chain', title: t('tron.reconcile.onChain'), render: (_, l) => <Amount value={l.chain} asset={l.asset} testId={`reconcile-chain-${l.asset}`} /> },
              { key: 'ledger', title: t('tron.reconcile.ledger'), render: (_, l) => <Amount value={l.ledger} asset={l.asset} testId={`reconcile-ledger-${l.asset}`} /> },
              { key: 'stored', title: t('tron.wallet.stored'), render: (_, l) => <Amount value={l.stored} asset={l.asset} /> },
              { key: 'diff', title: t('tron.reconcile.difference'), render: (_, l) => (l.asset === 'USDT' ? <DifferenceMark row={row} /> : '-') },
            ]}
          />
          <ReconcileNotes row={row} />
        </>
      )}
    </div>
  );
}

/** Every wallet's reconciliation (paged, the node asked for each row of the page). */
function ReconcileAll({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['tron-reconcile', 'all', page],
    queryFn: () => api.get<ReconcileAnswer>(WALLET_ROUTES.reconciliation, { page, size: 20 }),
    enabled: open,
    retry: false,
  });
  return (
    <Drawer open={open} onClose={onClose} size={mobile ? '100%' : 'large'} title={t('tron.reconcile.title')} destroyOnHidden data-testid="reconcile-all">
      <Typography.Paragraph type="secondary">{t('tron.reconcile.hint')}</Typography.Paragraph>
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Table<ReconcileRow>
          size="small"
          rowKey="wallet_id"
          loading={q.isFetching}
          scroll={{ x: 'max-content' }}
          dataSource={q.data?.rows ?? []}
          locale={{ emptyText: <NoData /> }}
          pagination={{ current: page, pageSize: 20, total: q.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          expandable={
            q.data?.rows.some((r) => !!r.node_error || r.above_ceiling)
              ? { rowExpandable: (r) => !!r.node_error || r.above_ceiling, expandedRowRender: (r) => <ReconcileNotes row={r} /> }
              : undefined
          }
          columns={[
            { key: 'wallet', title: t('tron.field.address_base58'), render: (_, r) => <Stacked top={<Code value={r.address} />} bottom={<RoleTag role={r.role} />} /> },
            { key: 'chain', title: t('tron.reconcile.onChain'), render: (_, r) => <Amount value={r.chain_usdt} asset="USDT" /> },
            { key: 'ledger', title: t('tron.reconcile.ledger'), render: (_, r) => <Amount value={r.expected_usdt} asset="USDT" /> },
            { key: 'diff', title: t('tron.reconcile.difference'), render: (_, r) => <DifferenceMark row={r} /> },
            { key: 'trx', title: t('tron.field.trx_balance'), render: (_, r) => <Amount value={r.chain_trx} asset="TRX" /> },
          ]}
        />
      )}
    </Drawer>
  );
}
