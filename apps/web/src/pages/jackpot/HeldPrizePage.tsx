import { useMemo, useState } from 'react';
import { BankOutlined, CheckOutlined, CloseOutlined, WalletOutlined } from '@ant-design/icons';
import { Alert, App, Flex, Skeleton, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { JACKPOT_PAYOUT_KIND, JACKPOT_PAYOUT_STATUS } from '@dau/domain';
import { jackpotHeldPrizeResource, type JackpotHeldDetail, type JackpotPayoutRow } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useMe } from '../../kit/auth';
import { ActionButton, FormModal, formatDateTime, LoadError, PlainTable, ResourcePage, useApiMutation, type FieldView, type Row } from '../../resources';
import { EnumTag, jackpotView, useTsh } from './shared';

const PAGE = 'jackpot_held_prize';
const DETAIL = 'jackpot-held-prize';
/** The list and the open detail, refreshed after every action. */
const REFRESH = [[PAGE], [DETAIL]];

type Asking = { row: Row; kind: 'pay' | 'pay_outside'; open: boolean };

const reasonField: FieldView = { key: 'reason', type: 'textarea', label: 'jackpot.held.reason', editable: true, required: true, maxLength: 500 };
const referenceField: FieldView = { key: 'reference', type: 'text', label: 'jackpot.held.reference', help: 'jackpot.held.referenceHelp', editable: true, required: true, maxLength: 100 };

/** What can still be asked of a held prize: neither paid nor waiting for approval. */
const freeOf = (r: Row) => Math.max(0, Number(r.remaining ?? 0) - Number(r.pending ?? 0));

/**
 * Jackpot › Held prizes (issue 23): prizes above a bet type's max_add_balance, held for a payment by hand.
 * An admin asks to pay part or all of what is left to the bettor's balance, or records it as paid outside
 * (a bank transfer, with its reference); another admin approves it (the server refuses the asker) and only
 * then the money moves. The drawer lists each prize's requests with their decisions.
 */
export default function HeldPrizePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tsh = useTsh();
  const [asking, setAsking] = useState<Asking | null>(null);
  const def = useMemo(() => jackpotView(jackpotHeldPrizeResource), []);
  const ask = useApiMutation(({ id, kind, body }: { id: unknown; kind: Asking['kind']; body: Row }) => api.post(`/jackpot/held_prizes/${String(id)}/${kind}`, body), {
    invalidate: REFRESH,
    // Nothing was paid yet: the toast says it waits for another admin.
    success: false,
    onSuccess: () => void message.success(t('jackpot.held.asked')),
  });
  const row = asking?.row;
  const free = row ? freeOf(row) : 0;
  const amountField: FieldView = { key: 'amount', type: 'money', label: 'jackpot.held.amount', editable: true, required: true, min: 1, max: free };
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      intro={<Alert type="info" showIcon message={t('jackpot.held.intro')} style={{ marginBottom: 12 }} />}
      detailTitle={(r) => t('jackpot.held.title', { serial: String(r.serial_number ?? r.id) })}
      detailExtra={(r) => <HeldPayouts id={r.id} />}
      rowActions={(r) =>
        freeOf(r) > 0 ? (
          <>
            <ActionButton action="pay" page={PAGE} type="text" size="small" compact icon={<WalletOutlined />} testId={`held-pay-${String(r.id)}`} onClick={() => setAsking({ row: r, kind: 'pay', open: true })} />
            <ActionButton
              action="pay_outside"
              page={PAGE}
              type="text"
              size="small"
              compact
              icon={<BankOutlined />}
              testId={`held-pay-outside-${String(r.id)}`}
              onClick={() => setAsking({ row: r, kind: 'pay_outside', open: true })}
            />
          </>
        ) : null
      }
    >
      <FormModal
        open={!!asking?.open}
        title={t(asking?.kind === 'pay_outside' ? 'jackpot.held.payOutsideTitle' : 'jackpot.held.payTitle', { serial: String(row?.serial_number ?? '') })}
        mode="create"
        maxWidth={560}
        record={{ amount: free }}
        fields={asking?.kind === 'pay_outside' ? [amountField, referenceField, reasonField] : [amountField, reasonField]}
        intro={
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="held-ask-summary"
            message={t('jackpot.held.askSummary', { phone: String(row?.phone ?? ''), held: tsh(row?.held), paid: tsh(row?.paid), free: tsh(free) })}
            description={t('jackpot.held.askHint')}
          />
        }
        onClose={() => setAsking((a) => (a ? { ...a, open: false } : a))}
        onSubmit={(body) => ask.mutateAsync({ id: row?.id, kind: asking!.kind, body }).then(() => setAsking((a) => (a ? { ...a, open: false } : a)))}
      />
    </ResourcePage>
  );
}

/** A held prize's payment requests: kind, amount, who asked and decided; approve or refuse the pending ones. */
function HeldPayouts({ id }: { id: unknown }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  const me = useMe().user_info.id;
  const [refusing, setRefusing] = useState<{ payout: JackpotPayoutRow; open: boolean } | null>(null);
  const q = useQuery({ queryKey: [DETAIL, String(id)], queryFn: () => api.get<JackpotHeldDetail>(`/jackpot/held_prizes/${String(id)}`) });
  const approve = useApiMutation((payoutId: number) => api.post(`/jackpot/prize_payouts/${payoutId}/approve`), { invalidate: REFRESH });
  const refuse = useApiMutation(({ payoutId, reason }: { payoutId: number; reason: string }) => api.post(`/jackpot/prize_payouts/${payoutId}/refuse`, { reason }), { invalidate: REFRESH });
  if (q.isError && !q.data) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Skeleton active />;
  const payouts = q.data.payouts;
  return (
    <div style={{ marginTop: 16 }} data-testid="held-payouts">
      <Typography.Title level={5}>{t('jackpot.held.requests')}</Typography.Title>
      <PlainTable<JackpotPayoutRow>
        rowKey="id"
        dataSource={payouts}
        locale={{ emptyText: t('jackpot.held.noRequests') }}
        columns={[
          { key: 'kind', title: t('jackpot.held.kind'), render: (_, p) => <EnumTag name="jackpot_payout_kind" value={p.kind} /> },
          { key: 'amount', title: t('jackpot.held.amount'), align: 'right', render: (_, p) => <span data-testid={`payout-amount-${p.id}`}>{tsh(p.amount)}</span> },
          {
            key: 'why',
            title: t('jackpot.held.reason'),
            render: (_, p) => (
              <Flex vertical>
                <span>{p.reason}</span>
                {p.kind === JACKPOT_PAYOUT_KIND.outside && <Typography.Text type="secondary">{t('jackpot.held.referenceIs', { reference: p.reference })}</Typography.Text>}
                {p.refuse_reason && <Typography.Text type="danger">{p.refuse_reason}</Typography.Text>}
              </Flex>
            ),
          },
          { key: 'asked', title: t('jackpot.held.askedBy'), render: (_, p) => `${p.requested_by ?? '-'} · ${formatDateTime(p.requested_at)}` },
          { key: 'status', title: t('jackpot.held.status'), render: (_, p) => <EnumTag name="jackpot_payout_status" value={p.status} testId={`payout-status-${p.id}`} /> },
          { key: 'decided', title: t('jackpot.held.decidedBy'), render: (_, p) => (p.decided_at ? `${p.decided_by ?? '-'} · ${formatDateTime(p.decided_at)}` : '-') },
          {
            key: 'actions',
            title: '',
            render: (_, p) =>
              p.status === JACKPOT_PAYOUT_STATUS.pending ? (
                <Flex gap={4}>
                  {p.requested_by_id === me ? (
                    <Tooltip title={t('jackpot.held.notYours')}>
                      <Typography.Text type="secondary" data-testid={`payout-own-${p.id}`}>
                        {t('jackpot.held.awaitingOther')}
                      </Typography.Text>
                    </Tooltip>
                  ) : (
                    <ActionButton
                      action="approve"
                      page={PAGE}
                      type="primary"
                      size="small"
                      icon={<CheckOutlined />}
                      testId={`payout-approve-${p.id}`}
                      confirm={t(p.kind === JACKPOT_PAYOUT_KIND.outside ? 'jackpot.held.approveOutsideConfirm' : 'jackpot.held.approveConfirm', { amount: tsh(p.amount) })}
                      onClick={() => approve.mutateAsync(p.id)}
                    />
                  )}
                  <ActionButton
                    action="approve"
                    page={PAGE}
                    size="small"
                    danger
                    icon={<CloseOutlined />}
                    testId={`payout-refuse-${p.id}`}
                    onClick={() => setRefusing({ payout: p, open: true })}
                  >
                    {t(p.requested_by_id === me ? 'jackpot.held.withdraw' : 'button.refuse')}
                  </ActionButton>
                </Flex>
              ) : null,
          },
        ]}
      />
      <FormModal
        open={!!refusing?.open}
        title={t('jackpot.held.refuseTitle', { amount: tsh(refusing?.payout.amount) })}
        mode="create"
        maxWidth={520}
        fields={[{ key: 'reason', type: 'textarea', label: 'jackpot.held.refuseReason', editable: true, required: true, maxLength: 500 }]}
        onClose={() => setRefusing((r) => (r ? { ...r, open: false } : r))}
        onSubmit={(body) => refuse.mutateAsync({ payoutId: refusing!.payout.id, reason: String(body.reason ?? '').trim() }).then(() => setRefusing((r) => (r ? { ...r, open: false } : r)))}
      />
    </div>
  );
}
