import { useMemo, useState, type ReactNode } from 'react';
import { UnlockOutlined } from '@ant-design/icons';
import { Alert, Descriptions, Flex, Input, Tag, Tooltip, Typography } from 'antd';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAY_TYPE, WITHDRAWAL_STATUS } from '@dau/domain';
import type { UsdtWithdrawalAnswer } from '@dau/contract';
import { api } from '../../kit/api';
import { ActionButton, FormModal, useApiMutation, type FieldView, type Row } from '../../resources';
import { Amount, Code, shorten } from './shared';

/**
 * The USDT side of the withdrawal review (issue 29): a USDT withdrawal pays to an address, not a phone, so
 * the list, the approval and the drawer show the destination and the USDT amount; a destination that
 * looks like one of ours or a recent counterparty is held (address poisoning): the hold, the look-alike
 * address and the release (asked here, applied when a second whole-book admin approves it under System ›
 * Pending changes). Read from GET /api/v1/tron/withdrawals: the USDT rows a list page shows are asked in
 * one request (the calls of one render are gathered).
 */

const PAGE = 'withdraw_list';
const REMARK_MAX = 300;

export const isUsdt = (row: Row | undefined) => Number(row?.pay_type) === PAY_TYPE.usdt;
const inReview = (row: Row) => row.status === WITHDRAWAL_STATUS.pending_review || row.status === WITHDRAWAL_STATUS.awaiting_second_approval;

/** The key of a USDT withdrawal's view: under the withdrawal list's, so what refreshes the list refreshes it. */
const keyOf = (id: unknown) => ['withdraw_list', 'usdt', Number(id)];

let waiting: { id: number; resolve(v: UsdtWithdrawalAnswer | null): void; reject(e: unknown): void }[] = [];

/** Gathers the ids asked in one render and asks for them at once (at most 100 a request). */
async function flush() {
  const batch = waiting;
  waiting = [];
  const ids = [...new Set(batch.map((b) => b.id))];
  for (let i = 0; i < ids.length; i += 100) {
    const part = ids.slice(i, i + 100);
    try {
      const answer = await api.get<{ items: UsdtWithdrawalAnswer[] }>('/tron/withdrawals', { ids: part.join(',') });
      const byId = new Map(answer.items.map((v) => [v.withdrawal_id, v]));
      for (const b of batch) if (part.includes(b.id)) b.resolve(byId.get(b.id) ?? null);
    } catch (err) {
      for (const b of batch) if (part.includes(b.id)) b.reject(err);
    }
  }
}

function loadView(id: number): Promise<UsdtWithdrawalAnswer | null> {
  return new Promise((resolve, reject) => {
    waiting.push({ id, resolve, reject });
    if (waiting.length === 1) setTimeout(() => void flush(), 0);
  });
}

const following = new WeakSet<QueryClient>();

/**
 * The USDT views follow their list: each time a withdrawal list is fetched again (its reload button, a poll,
 * an action), the views shown are asked again too (one request), so a hold released by a second admin
 * leaves the list with it. One subscription per query client.
 */
function followLists(client: QueryClient) {
  if (following.has(client)) return;
  following.add(client);
  client.getQueryCache().subscribe((e) => {
    if (e.type !== 'updated' || e.action.type !== 'success') return;
    const [name, part] = e.query.queryKey;
    if (name === 'withdraw_list' && part !== 'usdt') void client.invalidateQueries({ queryKey: ['withdraw_list', 'usdt'] });
  });
}

/** The USDT view of a withdrawal row (undefined for mobile money, or while it loads). */
export function useUsdtView(row: Row | undefined) {
  const usdt = isUsdt(row);
  followLists(useQueryClient());
  const q = useQuery({ queryKey: keyOf(row?.id), queryFn: () => loadView(Number(row?.id)), enabled: usdt && row?.id !== undefined, staleTime: 5_000 });
  return usdt ? q.data ?? undefined : undefined;
}

/** Why a withdrawal is held, in the reviewer's language, naming the look-alike address. */
function useHoldText() {
  const { t } = useTranslation();
  return (v: UsdtWithdrawalAnswer) => {
    const kinds: Record<string, string> = {
      our_wallet: 'tron.review.hold.our_wallet',
      counterparty: 'tron.review.hold.counterparty',
      destination: 'tron.review.hold.destination',
      own_wallet: 'tron.review.hold.own_wallet',
    };
    return t(kinds[v.hold_kind ?? ''] ?? 'tron.review.hold.other', { address: v.look_alike ?? '-' });
  };
}

/** The hold's marks: "Held" (the reason and the look-alike in its tooltip) and "release waiting". */
function HoldTags({ view }: { view: UsdtWithdrawalAnswer }) {
  const { t } = useTranslation();
  const reason = useHoldText();
  if (!view.held) return null;
  return (
    <Flex gap={4} wrap>
      <Tooltip title={<span style={{ wordBreak: 'break-all' }}>{reason(view)}</span>}>
        <Tag color="error" data-testid={`usdt-held-${view.withdrawal_id}`}>
          {t('tron.review.held')}
        </Tag>
      </Tooltip>
      {view.release_pending !== null && (
        <Tag color="warning" data-testid={`usdt-release-pending-${view.withdrawal_id}`}>
          {t('tron.review.releasePending')}
        </Tag>
      )}
    </Flex>
  );
}

/**
 * The amount cell of a withdrawal row: the shillings as `children` show them, and for USDT the USDT sent,
 * the destination (shortened, whole in the drawer) and the hold's marks.
 */
export function UsdtAmountCell({ row, variant, children }: { row: Row; variant?: 'table' | 'detail'; children: ReactNode }) {
  const { t } = useTranslation();
  const view = useUsdtView(row);
  if (!isUsdt(row)) return <>{children}</>;
  return (
    <div data-testid={`usdt-amount-${String(row.id)}`}>
      <div>{children}</div>
      {view && (
        <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', whiteSpace: 'nowrap' }}>
          <Amount value={view.usdt_amount} asset="USDT" /> → {variant === 'detail' ? view.to_address : shorten(view.to_address)}
        </Typography.Text>
      )}
      {view && <HoldTags view={view} />}
      {!view && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('tron.review.loading')}</Typography.Text>}
    </div>
  );
}

/**
 * What the approval asks of a USDT withdrawal: the USDT amount and the whole destination address (not the
 * phone), or, when held, why it cannot be approved yet. Null for mobile money (the money texts say it).
 */
export function useUsdtConfirm() {
  return (row: Row, shillings: string): ReactNode | null => (isUsdt(row) ? <UsdtConfirm row={row} shillings={shillings} /> : null);
}

function UsdtConfirm({ row, shillings }: { row: Row; shillings: string }) {
  const { t } = useTranslation();
  const view = useUsdtView(row);
  const reason = useHoldText();
  if (!view) return <>{t('tron.review.confirmUnknown', { amount: shillings })}</>;
  return (
    <div style={{ maxWidth: 360 }} data-testid="usdt-confirm">
      {view.held && <Alert type="error" showIcon style={{ marginBottom: 8 }} message={t('tron.review.confirmHeld')} description={reason(view)} />}
      <div>{t('tron.review.confirmApprove', { amount: shillings })}</div>
      <Typography.Text strong>
        <Amount value={view.usdt_amount} asset="USDT" />
      </Typography.Text>
      <div style={{ wordBreak: 'break-all', fontFamily: 'monospace', fontSize: 12 }} data-testid="usdt-confirm-address">
        {view.to_address}
      </div>
    </div>
  );
}

/** The release of a held withdrawal: asks for how the address was checked, then waits for a second admin. */
function ReleaseDialog({ row, view, open, onClose }: { row: Row; view: UsdtWithdrawalAnswer; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const reason = useHoldText();
  const release = useApiMutation((remark: string) => api.post<unknown>(`/tron/withdrawals/${String(row.id)}/release`, { remark }), { invalidate: [['withdraw_list']] });
  const fields = useMemo<FieldView[]>(
    () => [
      {
        key: 'remark',
        type: 'textarea',
        label: 'tron.review.remark',
        editable: true,
        required: true,
        maxLength: REMARK_MAX,
        input: () => <Input.TextArea autoSize={{ minRows: 3, maxRows: 6 }} maxLength={REMARK_MAX} showCount data-testid="usdt-release-remark" placeholder={t('tron.review.remarkPlaceholder')} />,
      },
    ],
    [t],
  );
  return (
    <FormModal
      open={open}
      title={t('tron.review.releaseTitle', { serial: String(row.serial_number ?? row.id) })}
      fields={fields}
      mode="create"
      maxWidth={560}
      intro={
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={reason(view)}
          description={
            <>
              <div style={{ wordBreak: 'break-all' }}>{t('tron.review.destination')}: <Typography.Text code>{view.to_address}</Typography.Text></div>
              <div style={{ marginTop: 4 }}>{t('tron.review.releaseHint')}</div>
            </>
          }
        />
      }
      onClose={onClose}
      onSubmit={async (body) => {
        await release.mutateAsync(String(body.remark ?? '').trim());
        await client.invalidateQueries({ queryKey: keyOf(row.id) });
      }}
    />
  );
}

/** "Release the hold" for a held USDT withdrawal in review (none while a release already waits). */
export function UsdtReleaseAction({ row, compact = true }: { row: Row; compact?: boolean }) {
  const { t } = useTranslation();
  const view = useUsdtView(row);
  const [open, setOpen] = useState(false);
  if (!view?.held || view.release_pending !== null || !inReview(row)) return null;
  return (
    <>
      <ActionButton
        action="approve"
        page={PAGE}
        type={compact ? 'text' : 'default'}
        size={compact ? 'small' : 'middle'}
        compact={compact}
        icon={<UnlockOutlined />}
        testId={`usdt-release-${String(row.id)}`}
        onClick={() => setOpen(true)}
      >
        {t('tron.review.release')}
      </ActionButton>
      {open && <ReleaseDialog row={row} view={view} open={open} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The drawer's USDT part: destination, USDT amount, the sending wallet and transaction, the hold and its release. */
export function UsdtReviewPanel({ row }: { row: Row }) {
  const { t } = useTranslation();
  const view = useUsdtView(row);
  const reason = useHoldText();
  if (!isUsdt(row) || !view) return null;
  return (
    <div style={{ marginTop: 16 }} data-testid="usdt-review">
      <Typography.Title level={5}>{t('tron.review.title')}</Typography.Title>
      {view.held && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="usdt-hold"
          message={t('tron.review.held')}
          description={
            <>
              <div>{reason(view)}</div>
              {view.release_pending !== null && <div style={{ marginTop: 4 }}>{t('tron.review.releasePendingHint', { id: view.release_pending })}</div>}
            </>
          }
          action={<UsdtReleaseAction row={row} compact={false} />}
        />
      )}
      <Descriptions
        bordered
        size="small"
        column={1}
        items={[
          { key: 'usdt', label: t('tron.review.usdtAmount'), children: <Amount value={view.usdt_amount} asset="USDT" strong testId="usdt-review-amount" /> },
          { key: 'to', label: t('tron.review.destination'), children: <Code value={view.to_address} full testId="usdt-review-address" /> },
          ...(view.look_alike && view.held ? [{ key: 'like', label: t('tron.review.lookAlike'), children: <Code value={view.look_alike} full testId="usdt-review-look-alike" /> }] : []),
          { key: 'from', label: t('tron.review.from'), children: <Code value={view.from_address} full /> },
          { key: 'tx', label: t('tron.field.tx_hash'), children: <Code value={view.tx_hash} full /> },
          { key: 'remark', label: t('tron.field.remark'), children: view.remark ?? '-' },
        ]}
      />
    </div>
  );
}
