import { useMemo } from 'react';
import { SyncOutlined } from '@ant-design/icons';
import { rechargeResource } from '@dau/contract/ui';
import { PAY_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { ActionButton, ResourcePage, useApiMutation, type QuickFilter, type ResourceView, type Row } from '../../resources';
import { PAYMENT_LISTS, StateTags, useOutcomeToast } from './payments';

const PAGE = 'recharge_list';

/**
 * Users › Recharges (spec §2): a query screen ("Please select the user to query"), and the stuck queue
 * (pending at the operator past the configured minutes) whose rows can be re-queried.
 */
export default function RechargeListPage() {
  const { t } = useTranslation();
  const outcome = useOutcomeToast();
  const def = useMemo<ResourceView>(
    () => ({
      ...rechargeResource,
      fields: rechargeResource.fields.map((f) => (f.key === 'pay_status' ? { ...f, render: (v: unknown, row: Row) => <StateTags enumName="pay_status" value={v} row={row} /> } : f)),
    }),
    [],
  );
  const requery = useApiMutation((id: unknown) => api.post<Row>(`/money/recharges/${id}/requery`), {
    success: false,
    invalidate: PAYMENT_LISTS,
    onSuccess: (row) => outcome(row, 'recharge'),
  });
  const quick = useMemo<QuickFilter[]>(
    () => [
      { key: 'search', label: t('money.payment.viewSearch'), filters: {} },
      { key: 'stuck', label: t('money.payment.viewStuck'), filters: { stuck: 'true' } },
    ],
    [t],
  );
  return (
    <ResourcePage
      def={def}
      quickFilters={quick}
      rowActions={(r) =>
        r.pay_status === PAY_STATUS.processing ? (
          <ActionButton action="requery" page={PAGE} type="text" size="small" compact icon={<SyncOutlined />} testId={`recharge-requery-${String(r.id)}`} onClick={() => requery.mutateAsync(r.id)} />
        ) : null
      }
    />
  );
}
