import { useMemo, useState } from 'react';
import { AuditOutlined, CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { App, Input } from 'antd';
import { withdrawalResource } from '@dau/contract/ui';
import { formatTsh, WITHDRAWAL_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useMsg } from '../../kit/messages';
import { FormModal, ResourcePage, RowActionButton, useApiMutation, useLocale, type FieldView, type QuickFilter, type ResourceView, type Row } from '../../resources';
import { PAYMENT_LISTS, PaymentSummary, StateTags, useOutcomeToast, useRequeryButton } from './payments';
import { ReconcileDialog } from './ReconcileDialog';
import { inReview, WithdrawBulk } from './WithdrawBulk';
import { useAdminPickers } from './shared';
import { UsdtAmountCell, UsdtReleaseAction, UsdtReviewPanel, useUsdtConfirm } from '../tron/UsdtReview';

const PAGE = 'withdraw_list';
const REASON_MAX = 300;

type Refusing = { row: Row; open: boolean } | null;

/**
 * Users › Withdrawals (spec §3, §4): the review queue. Approve (a large one waits for a second, different
 * administrator: the server says so), refuse with a reason (the held money goes back with a bill),
 * re-query the operator for one stuck in disbursement, reconcile one whose outcome the operator cannot tell
 * (paid / not paid, from the operator's statement). Quick views: pending, second approval, disbursing,
 * stuck, to reconcile.
 */
export default function WithdrawListPage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const locale = useLocale();
  const outcome = useOutcomeToast();
  const { message } = App.useApp();
  const [refusing, setRefusing] = useState<Refusing>(null);
  const [reconciling, setReconciling] = useState<Row | null>(null);
  const base = useAdminPickers(withdrawalResource);

  const def = useMemo<ResourceView>(
    () => ({
      ...base,
      // The state with its marks (large, stuck, in doubt) is wider than a plain state: the list fits it as it is shown.
      fields: base.fields.map((f) => (f.key === 'status' ? { ...f, width: 240, render: (v: unknown, row: Row) => <StateTags enumName="withdrawal_status" value={v} row={row} /> } : f)).map((f) =>
        // A USDT withdrawal's amount goes with the USDT sent, the destination and an address-poisoning hold (issue 29).
        f.key === 'amount' ? { ...f, render: (v: unknown, row: Row, variant?: 'table' | 'detail') => <UsdtAmountCell row={row} variant={variant}>{formatTsh(Number(v), locale)}</UsdtAmountCell> } : f,
      ),
    }),
    [base, locale],
  );

  const approve = useApiMutation((id: unknown) => api.post<Row>(`/money/withdrawals/${id}/approve`), {
    success: false,
    invalidate: PAYMENT_LISTS,
    onSuccess: (row) => outcome(row, 'withdrawal'),
  });
  const refuse = useApiMutation(({ id, reason }: { id: unknown; reason: string }) => api.post<Row>(`/money/withdrawals/${id}/refuse`, { reason }), {
    success: false,
    invalidate: PAYMENT_LISTS,
    onSuccess: () => void message.success(t('money.payment.refused')),
  });
  const requery = useRequeryButton(PAGE, (r) => ({ path: `/money/withdrawals/${String(r.id)}/requery`, kind: 'withdrawal' }));

  const quick = useMemo<QuickFilter[]>(
    () => [
      { key: 'all', label: t('money.payment.viewAll'), filters: {} },
      { key: 'pending', label: t('money.payment.viewPending'), filters: { status: String(WITHDRAWAL_STATUS.pending_review) } },
      { key: 'second', label: t('money.payment.viewSecond'), filters: { status: String(WITHDRAWAL_STATUS.awaiting_second_approval) } },
      { key: 'disbursing', label: t('money.payment.viewDisbursing'), filters: { status: String(WITHDRAWAL_STATUS.disbursing) } },
      { key: 'stuck', label: t('money.payment.viewStuck'), filters: { stuck: 'true' } },
      { key: 'reconcile', label: t('money.reconcile.viewReconcile'), filters: { reconcile: 'true' } },
    ],
    [t],
  );

  const reasonField = useMemo<FieldView[]>(
    () => [
      {
        key: 'reason',
        type: 'textarea',
        editable: true,
        required: true,
        requiredMessage: msg('REFUSE_REASON_REQUIRED'),
        maxLength: REASON_MAX,
        input: () => <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={REASON_MAX} showCount data-testid="refuse-reason" placeholder={t('money.payment.reasonPlaceholder')} />,
      },
    ],
    [msg, t],
  );

  const usdtConfirm = useUsdtConfirm();
  const confirmText = (r: Row) => {
    const usdt = usdtConfirm(r, formatTsh(Number(r.amount), locale));
    if (usdt) return usdt;
    const who = { amount: formatTsh(Number(r.amount), locale), phone: String(r.phone ?? r.user_phone ?? '') };
    if (r.status === WITHDRAWAL_STATUS.awaiting_second_approval) return t('money.payment.confirmSecond', { ...who, first: String(r.first_approver ?? '-') });
    return t(r.large ? 'money.payment.confirmApproveLarge' : 'money.payment.confirmApprove', who);
  };

  const row = refusing?.row;
  return (
    <ResourcePage
      def={def}
      quickFilters={quick}
      detailExtra={(r) => <UsdtReviewPanel row={r} />}
      // Only rows in review can be approved or refused together: the others' boxes are disabled.
      selectable={inReview}
      toolbar={({ selected, clearSelection }) => <WithdrawBulk selected={selected} clearSelection={clearSelection} reasonField={reasonField} />}
      rowActions={(r) => {
        const id = String(r.id);
        return (
          <>
            {inReview(r) && (
              <RowActionButton action="approve" page={PAGE} icon={<CheckOutlined />} testId={`withdraw-approve-${id}`} confirm={confirmText(r)} onClick={() => approve.mutateAsync(r.id)} />
            )}
            {inReview(r) && (
              <RowActionButton action="refuse" page={PAGE} danger icon={<CloseOutlined />} testId={`withdraw-refuse-${id}`} onClick={() => setRefusing({ row: r, open: true })} />
            )}
            {inReview(r) && <UsdtReleaseAction row={r} />}
            {r.status === WITHDRAWAL_STATUS.disbursing && requery(r, `withdraw-requery-${id}`)}
            {r.reconcile === true && (
              <RowActionButton action="reconcile" page={PAGE} icon={<AuditOutlined />} testId={`withdraw-reconcile-${id}`} onClick={() => setReconciling(r)} />
            )}
          </>
        );
      }}
    >
      <FormModal
        open={!!refusing?.open}
        title={t('money.payment.refuseTitle', { serial: String(row?.serial_number ?? '') })}
        fields={reasonField}
        mode="create"
        maxWidth={560}
        intro={<PaymentSummary row={row} hint={t('money.payment.refuseHint')} />}
        onClose={() => setRefusing((r) => (r ? { ...r, open: false } : r))}
        onSubmit={(body) => refuse.mutateAsync({ id: row?.id, reason: String(body.reason ?? '').trim() })}
      />
      <ReconcileDialog kind="withdrawal" row={reconciling} onClose={() => setReconciling(null)} />
    </ResourcePage>
  );
}
