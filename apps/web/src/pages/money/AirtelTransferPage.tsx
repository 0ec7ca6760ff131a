import { useMemo } from 'react';
import { Tag } from 'antd';
import { airtelTransferResource } from '@dau/contract/ui';
import { PAY_STATUS, WITHDRAWAL_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { ResourcePage, type QuickFilter, type ResourceView, type Row } from '../../resources';
import { StateTags, useRequeryButton } from './payments';

const PAGE = 'airtel_transfer';

/** Whether the operator still owes an answer: a pending recharge, or a withdrawal being disbursed. */
const awaitsOperator = (r: Row) => (r.kind === 'recharge' ? r.pay_status === PAY_STATUS.processing : r.status === WITHDRAWAL_STATUS.disbursing);

/** Users › Airtel transfers: Airtel Money recharges and withdrawals in one list, re-queried at Airtel. */
export default function AirtelTransferPage() {
  const { t } = useTranslation();
  const def = useMemo<ResourceView>(() => {
    const kinds = [
      { value: 'recharge', label: t('money.payment.kindRechargeOne') },
      { value: 'withdrawal', label: t('money.payment.kindWithdrawalOne') },
    ];
    return {
      ...airtelTransferResource,
      fields: airtelTransferResource.fields.map((f) => {
        if (f.key === 'kind') {
          return { ...f, options: kinds, render: (v: unknown) => <Tag color={v === 'recharge' ? 'green' : 'blue'}>{kinds.find((k) => k.value === v)?.label ?? String(v)}</Tag> };
        }
        if (f.key === 'pay_status') return { ...f, render: (v: unknown, row: Row) => <StateTags enumName="pay_status" value={v} row={row} /> };
        return f;
      }),
    };
  }, [t]);
  const requery = useRequeryButton(PAGE, (r) => ({
    path: `/money/airtel_transfer/${String(r.kind)}/${String(r.row_id)}/requery`,
    kind: r.kind === 'recharge' ? 'recharge' : 'withdrawal',
  }));
  const quick = useMemo<QuickFilter[]>(
    () => [
      { key: 'all', label: t('money.payment.viewAll'), filters: {} },
      { key: 'recharge', label: t('money.payment.kindRecharge'), filters: { kind: 'recharge' } },
      { key: 'withdrawal', label: t('money.payment.kindWithdrawal'), filters: { kind: 'withdrawal' } },
      { key: 'stuck', label: t('money.payment.viewStuck'), filters: { stuck: 'true' } },
    ],
    [t],
  );
  return (
    <ResourcePage
      def={def}
      quickFilters={quick}
      rowActions={(r) => (awaitsOperator(r) ? requery(r, `airtel-requery-${String(r.id)}`) : null)}
    />
  );
}
