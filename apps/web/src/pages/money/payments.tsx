import { Space, Tag } from 'antd';
import type { QueryKey } from '@tanstack/react-query';
import { App } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { PAY_STATUS, WITHDRAWAL_STATUS, formatTsh } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { enumColor, enumText, RowActionButton, useApiMutation, useLocale, type Row } from '../../resources';
import { BETTOR_LISTS, BILL_LISTS, RowSummary } from './shared';

/** Everything a recharge or withdrawal action may change: the payment lists, the bettors and their bills. */
export const PAYMENT_LISTS: QueryKey[] = [
  ['recharge_list'],
  ['cs_recharge'],
  ['withdraw_list'],
  ['cs_withdraw'],
  ['airtel_transfer'],
  ...BETTOR_LISTS,
  ...BILL_LISTS,
];

/**
 * What a re-query (or an approval) found, as a toast: paid, failed (with the operator's reason; the held
 * money is returned), or still waiting for the operator.
 */
export function useOutcomeToast() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (row: Row, kind: PaymentKind, after: 'approve' | 'requery' = 'approve') => {
    const reason = String(row.fail_reason ?? row.refuse_reason ?? '') || '-';
    if (kind === 'recharge') {
      if (row.pay_status === PAY_STATUS.paid) return void message.success(t('money.payment.rechargePaid'));
      if (row.pay_status === PAY_STATUS.voided) return void message.warning(t('money.payment.rechargeFailed', { reason }));
      return void message.info(t('money.payment.stillPending'));
    }
    switch (row.status) {
      case WITHDRAWAL_STATUS.awaiting_second_approval:
        return void message.warning(t('money.payment.awaitingSecond'));
      case WITHDRAWAL_STATUS.paid:
        return void message.success(t('money.payment.withdrawalPaid'));
      case WITHDRAWAL_STATUS.failed:
      case WITHDRAWAL_STATUS.timed_out:
        return void message.warning(t('money.payment.withdrawalFailed', { reason }));
      case WITHDRAWAL_STATUS.disbursing:
        // After a re-query the payout was sent long ago: what is new is that the operator has not answered yet.
        return void message.info(t(after === 'requery' ? 'money.payment.requeryWaiting' : 'money.payment.disbursing'));
      default:
        return void message.success(t('money.payment.done'));
    }
  };
}

type PaymentKind = 'recharge' | 'withdrawal';

/**
 * The re-query row action of a payment list: asks the operator again about the row (POST `target(row).path`)
 * and tells what it found as a toast. Gives the button of a row, by its test id.
 */
export function useRequeryButton(page: string, target: (row: Row) => { path: string; kind: PaymentKind }) {
  const outcome = useOutcomeToast();
  const requery = useApiMutation(
    (r: Row) => {
      const { path, kind } = target(r);
      return api.post<Row>(path).then((row) => ({ row, kind }));
    },
    { success: false, invalidate: PAYMENT_LISTS, onSuccess: ({ row, kind }) => outcome(row, kind, 'requery') },
  );
  return (row: Row, testId: string) => <RowActionButton action="requery" page={page} icon={<SyncOutlined />} testId={testId} onClick={() => requery.mutateAsync(row)} />;
}

/** The head of a dialog on a recharge or withdrawal row: who, the amount, and a hint. */
export function PaymentSummary({ row, hint }: { row: Row | null | undefined; hint: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <RowSummary
      phone={row?.user_phone ?? row?.phone}
      name={row?.user_name}
      fact={{ label: t('field.amount'), value: row ? formatTsh(Number(row.amount), locale) : '' }}
      hint={hint}
    />
  );
}

/** A state tag with the marks that matter for the queue: large (needs a second approval) and stuck. */
export function StateTags({ enumName, value, row }: { enumName: string; value: unknown; row: Row }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Space size={4} wrap={false}>
      <Tag color={enumColor(enumName, value)}>{enumText(enumName, value, locale)}</Tag>
      {row.large === true && <Tag color="gold">{t('money.payment.large')}</Tag>}
      {row.stuck === true && <Tag color="volcano">{t('money.payment.stuck')}</Tag>}
      {row.reconcile === true && <Tag color="magenta">{t('money.reconcile.viewReconcile')}</Tag>}
    </Space>
  );
}
