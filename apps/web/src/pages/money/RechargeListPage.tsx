import { useMemo, useState } from 'react';
import { AuditOutlined, SyncOutlined } from '@ant-design/icons';
import { rechargeResource } from '@dau/contract/ui';
import { PAY_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, ResourcePage, useApiMutation, type QuickFilter, type ResourceView, type Row } from '../../resources';
import { PAYMENT_LISTS, StateTags, useOutcomeToast } from './payments';
import { ReconcileDialog } from './ReconcileDialog';

const PAGE = 'recharge_list';

/**
 * Users › Recharges (spec §2): a query screen ("Please select the user to query"), and the stuck queue
 * (pending at the operator past the configured minutes) whose rows can be re-queried, and reconciled
 * (credited / not credited, from the operator's statement) when the operator cannot tell their outcome.
 */
export default function RechargeListPage() {
  const { t } = useTranslation();
  const outcome = useOutcomeToast();
  const [reconciling, setReconciling] = useState<Row | null>(null);
  const def = useMemo<ResourceView>(
    () => ({
      ...rechargeResource,
      fields: rechargeResource.fields.map((f) =>
        f.key === 'pay_status'
          ? { ...f, render: (v: unknown, row: Row) => <StateTags enumName="pay_status" value={v} row={row} /> }
          : // How the deposit came (app request, USSD push, on chain): its bill type follows from it.
            f.key === 'recharge_channel' ? { ...f, keep: true } : f,
      ),
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
      { key: 'reconcile', label: t('money.reconcile.viewReconcile'), filters: { reconcile: 'true' } },
    ],
    [t],
  );
  return (
    <ResourcePage
      def={def}
      quickFilters={quick}
      rowActions={(r) =>
        r.pay_status === PAY_STATUS.processing ? (
          <>
            <ActionButton action="requery" page={PAGE} type="text" size="small" compact icon={<SyncOutlined />} testId={`recharge-requery-${String(r.id)}`} onClick={() => requery.mutateAsync(r.id)} />
            {r.reconcile === true && (
              <ActionButton action="reconcile" page={PAGE} type="text" size="small" compact icon={<AuditOutlined />} testId={`recharge-reconcile-${String(r.id)}`} onClick={() => setReconciling(r)} />
            )}
          </>
        ) : null
      }
    >
      <ReconcileDialog kind="recharge" row={reconciling} onClose={() => setReconciling(null)} />
    </ResourcePage>
  );
}
