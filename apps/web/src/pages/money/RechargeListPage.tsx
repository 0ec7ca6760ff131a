import { useMemo, useState } from 'react';
import { AuditOutlined } from '@ant-design/icons';
import { rechargeResource } from '@dau/contract/ui';
import { PAY_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { ResourcePage, RowActionButton, type QuickFilter, type ResourceView, type Row } from '../../resources';
import { StateTags, useRequeryButton } from './payments';
import { ReconcileDialog } from './ReconcileDialog';

const PAGE = 'recharge_list';

/**
 * Users › Recharges (spec §2): a query screen ("Please select the user to query"), and the stuck queue
 * (pending at the operator past the configured minutes) whose rows can be re-queried, and reconciled
 * (credited / not credited, from the operator's statement) when the operator cannot tell their outcome.
 */
export default function RechargeListPage() {
  const { t } = useTranslation();
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
  const requery = useRequeryButton(PAGE, (r) => ({ path: `/money/recharges/${String(r.id)}/requery`, kind: 'recharge' }));
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
            {requery(r, `recharge-requery-${String(r.id)}`)}
            {r.reconcile === true && (
              <RowActionButton action="reconcile" page={PAGE} icon={<AuditOutlined />} testId={`recharge-reconcile-${String(r.id)}`} onClick={() => setReconciling(r)} />
            )}
          </>
        ) : null
      }
    >
      <ReconcileDialog kind="recharge" row={reconciling} onClose={() => setReconciling(null)} />
    </ResourcePage>
  );
}
