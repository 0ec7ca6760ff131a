import { useMemo } from 'react';
import { Alert, App, Input, Radio } from 'antd';
import { PAY_STATUS, WITHDRAWAL_STATUS, formatTsh } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useMsg } from '../../kit/messages';
import { FormModal, useApiMutation, useLocale, type FieldView, type Row } from '../../resources';
import { PAYMENT_LISTS, PaymentSummary } from './payments';

const REFERENCE_MAX = 100;
const REMARK_MAX = 300;

export type ReconcileKind = 'withdrawal' | 'recharge';

/** The two answers of a reconciliation, as the API names them: the money moved, or it did not. */
const OUTCOMES: Record<ReconcileKind, readonly [moved: string, notMoved: string]> = {
  withdrawal: ['paid', 'not_paid'],
  recharge: ['credited', 'not_credited'],
};

/** The texts of each kind (written out, so every key can be checked in every language). */
const TEXTS = {
  withdrawal: {
    moved: 'money.reconcile.withdrawal.moved', notMoved: 'money.reconcile.withdrawal.notMoved', hint: 'money.reconcile.withdrawal.hint',
    confirmMoved: 'money.reconcile.withdrawal.confirmMoved', confirmNotMoved: 'money.reconcile.withdrawal.confirmNotMoved',
    doneMoved: 'money.reconcile.done.withdrawal.moved', doneNotMoved: 'money.reconcile.done.withdrawal.notMoved',
  },
  recharge: {
    moved: 'money.reconcile.recharge.moved', notMoved: 'money.reconcile.recharge.notMoved', hint: 'money.reconcile.recharge.hint',
    confirmMoved: 'money.reconcile.recharge.confirmMoved', confirmNotMoved: 'money.reconcile.recharge.confirmNotMoved',
    doneMoved: 'money.reconcile.done.recharge.moved', doneNotMoved: 'money.reconcile.done.recharge.notMoved',
  },
} as const;

/** Confirmation asked before a reconciliation is sent (it moves money and cannot be undone). */
class NotConfirmed extends Error {}

/**
 * The reconcile dialog of the stuck queue (withdrawals and recharges): a payment whose outcome the operator
 * cannot tell is settled by a person from the operator's statement. Paid / not paid (credited / not
 * credited), the statement line's reference and a remark are required; a confirmation says what the
 * money will do; the toast says what was done. Server refusals (already settled: 409, missing evidence)
 * come back as the usual error toast and under the inputs.
 */
export function ReconcileDialog({ kind, row, onClose }: { kind: ReconcileKind; row: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const msg = useMsg();
  const locale = useLocale();
  const { message, modal } = App.useApp();
  const [moved, notMoved] = OUTCOMES[kind];
  const text = TEXTS[kind];
  const path = kind === 'withdrawal' ? 'withdrawals' : 'recharges';
  const send = useApiMutation(({ id, body }: { id: unknown; body: Row }) => api.post<Row>(`/money/${path}/${id}/reconcile`, body), {
    success: false,
    invalidate: PAYMENT_LISTS,
    onSuccess: (answer) => {
      const paid = kind === 'withdrawal' ? answer.status === WITHDRAWAL_STATUS.paid : answer.pay_status === PAY_STATUS.paid;
      void message.success(t(paid ? text.doneMoved : text.doneNotMoved));
    },
  });

  const fields = useMemo<FieldView[]>(
    () => [
      {
        key: 'outcome',
        type: 'text',
        label: 'money.reconcile.outcome',
        editable: true,
        required: true,
        requiredMessage: t('money.reconcile.outcomeRequired'),
        input: () => (
          <Radio.Group data-testid="reconcile-outcome">
            <Radio value={moved} data-testid={`reconcile-${moved}`}>
              {t(text.moved)}
            </Radio>
            <Radio value={notMoved} data-testid={`reconcile-${notMoved}`}>
              {t(text.notMoved)}
            </Radio>
          </Radio.Group>
        ),
      },
      {
        key: 'reference',
        type: 'text',
        label: 'money.reconcile.reference',
        editable: true,
        required: true,
        requiredMessage: msg('RECONCILE_REFERENCE_REQUIRED', { max: REFERENCE_MAX }),
        maxLength: REFERENCE_MAX,
        input: () => <Input maxLength={REFERENCE_MAX} data-testid="reconcile-reference" placeholder={t('money.reconcile.referencePlaceholder')} />,
      },
      {
        key: 'remark',
        type: 'textarea',
        label: 'money.reconcile.remark',
        editable: true,
        required: true,
        requiredMessage: msg('RECONCILE_REMARK_REQUIRED', { max: REMARK_MAX }),
        maxLength: REMARK_MAX,
        input: () => <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={REMARK_MAX} showCount data-testid="reconcile-remark" />,
      },
    ],
    [text, moved, notMoved, msg, t],
  );

  const amount = row ? formatTsh(Number(row.amount), locale) : '';
  const confirm = (outcome: string) =>
    new Promise<void>((resolve, reject) => {
      modal.confirm({
        title: t('money.reconcile.confirmTitle'),
        content: t(outcome === moved ? text.confirmMoved : text.confirmNotMoved, { amount, serial: String(row?.serial_number ?? '') }),
        okText: t('money.reconcile.confirmOk'),
        okButtonProps: { 'data-testid': 'reconcile-confirm' } as never,
        onOk: () => resolve(),
        onCancel: () => reject(new NotConfirmed()),
      });
    });

  return (
    <FormModal
      open={!!row}
      title={t('money.reconcile.title', { serial: String(row?.serial_number ?? '') })}
      fields={fields}
      mode="create"
      maxWidth={560}
      intro={
        <>
          {row?.reconcile_cause ? (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('field.reconcile_cause')} description={String(row.reconcile_cause)} data-testid="reconcile-cause" />
          ) : null}
          <PaymentSummary row={row} hint={t(text.hint)} />
        </>
      }
      onClose={onClose}
      onSubmit={async (body) => {
        const outcome = String(body.outcome ?? '');
        await confirm(outcome);
        await send.mutateAsync({ id: row?.id, body: { outcome, reference: String(body.reference ?? '').trim(), remark: String(body.remark ?? '').trim() } });
      }}
    />
  );
}
