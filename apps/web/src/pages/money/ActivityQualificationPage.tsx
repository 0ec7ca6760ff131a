import { useMemo, useState } from 'react';
import { CheckOutlined } from '@ant-design/icons';
import { activityQualificationResource } from '@dau/contract/ui';
import { ACTIVITY_QUALIFICATION } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api, newIdempotencyKey } from '../../app/api';
import { ActionButton, FormModal, ResourcePage, useApiMutation, type FieldView, type Row } from '../../resources';
import { BETTOR_LISTS, BILL_LISTS, RowSummary } from './shared';

const PAGE = 'activity_qualification';
const def = activityQualificationResource;

/** The approval's subject and its Idempotency-Key (one per opened dialog); kept while the dialog fades out. */
type Approving = { row: Row; key: string; open: boolean } | null;

/**
 * Users › Activity qualification: bettors who qualified for a promotion. Approving a pending one grants
 * the reward as activity credit (a credit bill) with an optional remark (button `edit`).
 */
export default function ActivityQualificationPage() {
  const { t } = useTranslation();
  const [approving, setApproving] = useState<Approving>(null);
  const approve = useApiMutation(
    ({ id, key, body }: { id: unknown; key: string; body: Row }) => api.post(`/money/activity_qualification/${id}/approve`, body, { headers: { 'Idempotency-Key': key } }),
    { invalidate: [[PAGE], ['cs_activity_qualification'], ...BETTOR_LISTS, ...BILL_LISTS] },
  );
  const fields = useMemo<FieldView[]>(
    () => [
      { key: 'reward', type: 'money', editable: true, required: true, min: 0, default: 0, placeholder: '0.00' },
      { key: 'remark', type: 'textarea', editable: true, maxLength: 200 },
    ],
    [],
  );
  const row = approving?.row;

  return (
    <ResourcePage
      def={def}
      rowActions={(r) =>
        r.status === ACTIVITY_QUALIFICATION.pending ? (
          <ActionButton
            action="edit"
            page={PAGE}
            type="text"
            size="small"
            compact
            icon={<CheckOutlined />}
            testId={`activity-approve-${String(r.id)}`}
            onClick={() => setApproving({ row: r, key: newIdempotencyKey(), open: true })}
          >
            {t('money.activity.approve')}
          </ActionButton>
        ) : null
      }
    >
      <FormModal
        open={!!approving?.open}
        title={t('money.activity.approveTitle', { phone: String(row?.phone ?? '') })}
        fields={fields}
        mode="create"
        maxWidth={560}
        intro={
          <RowSummary
            phone={row?.phone}
            name={row?.name}
            fact={{ label: t('field.activity'), value: String(row?.activity ?? '') }}
            hint={t('money.activity.approveHint')}
          />
        }
        onClose={() => setApproving((a) => (a ? { ...a, open: false } : a))}
        onSubmit={(body) => approve.mutateAsync({ id: row?.id, key: approving?.key ?? newIdempotencyKey(), body: { reward: body.reward ?? 0, remark: body.remark ?? '' } })}
      />
    </ResourcePage>
  );
}
