import { useMemo, useState } from 'react';
import { CheckOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { activityQualificationResource } from '@dau/contract/ui';
import type { ApproveBatchAnswer } from '@dau/contract';
import type { BulkAnswer } from '@dau/contract/ui';
import { ACTIVITY_QUALIFICATION } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api, newIdempotencyKey, type ListAnswer } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { ActionButton, BulkBar, FormModal, ResourcePage, useApiMutation, useBulkRun, useBulkWords, type BulkRow, type FieldView, type ResourceView, type Row } from '../../resources';
import { QUALIFICATION_LISTS } from '../promotions/shared';
import { BETTOR_LISTS, BILL_LISTS, RowSummary } from './shared';

const PAGE = 'activity_qualification';
const def = activityQualificationResource;

/** The approval's subject and its Idempotency-Key (one per opened dialog); kept while the dialog fades out. */
type Approving = { row: Row; key: string; open: boolean } | null;

/** Campaign names by id (the list answers campaign_id; names come from the campaigns the admin may list). */
function useCampaignNames(): Map<number, string> {
  const { can } = useAccess();
  const q = useQuery({
    queryKey: ['promotions-campaign-names'],
    queryFn: () => api.get<ListAnswer<Row>>('/promotions/campaigns', { page_size: 200, sort: '-id' }),
    enabled: can('activity_campaign'),
    staleTime: 60_000,
  });
  return useMemo(() => new Map((q.data?.items ?? []).map((c) => [Number(c.id), String(c.name)])), [q.data]);
}

const pendingCampaignRow = (r: Row) => r.status === ACTIVITY_QUALIFICATION.pending && r.campaign_id != null;

/** The batch approval (POST /promotions/qualifications/approve), its approved and refused ids as each row's outcome. */
const approveMany = async (ids: (number | string)[]): Promise<BulkAnswer> => {
  const res = await api.post<ApproveBatchAnswer>('/promotions/qualifications/approve', { ids });
  const done = new Map(res.approved.map((q) => [q.id, q]));
  const refused = new Map(res.refused.map((r) => [r.id, r]));
  return {
    items: ids.map((id) => {
      const ok = done.get(Number(id));
      const no = refused.get(Number(id));
      return ok ? { id, ok: true, status: ok.status } : { id, ok: false, code: no?.code, message: no?.message };
    }),
  };
};

/**
 * Users › Activity qualification: bettors who qualified for a promotion. A campaign's pending row is
 * approved by its campaign's award (button `approve`: the bill of its type, the budget checked), one or
 * many selected at once; a row without a campaign (older, by hand) grants the reward typed as activity
 * credit (a credit bill) with an optional remark (button `edit`).
 */
export default function ActivityQualificationPage() {
  const { t } = useTranslation();
  const [approving, setApproving] = useState<Approving>(null);
  const names = useCampaignNames();
  const view = useMemo<ResourceView>(
    () => ({
      ...def,
      description: 'promotions.describe.activity_qualification',
      fields: [
        ...def.fields.slice(0, 4),
        {
          key: 'campaign_id', type: 'number', label: 'promotions.field.campaign', width: 180, keep: true,
          render: (v) => (v == null ? '' : (names.get(Number(v)) ?? `#${String(v)}`)),
        },
        ...def.fields.slice(4),
      ],
    }),
    [names],
  );
  const approveOne = useApiMutation((id: unknown) => api.post<Row>(`/promotions/qualifications/${String(id)}/approve`), { invalidate: QUALIFICATION_LISTS });
  const bulk = useBulkRun();
  const words = useBulkWords();
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
      def={view}
      selectable
      toolbar={({ selected, clearSelection }) => {
        const rows: BulkRow[] = selected.filter(pendingCampaignRow).map((r) => ({ id: Number(r.id), label: String(r.phone ?? r.id), amount: Number(r.reward ?? 0) }));
        return (
          <BulkBar rows={rows} onClear={clearSelection}>
            <ActionButton
              action="approve"
              page={PAGE}
              type="primary"
              size="small"
              icon={<CheckOutlined />}
              confirm={t('promotions.batch.confirm', words(rows))}
              testId="activity-approve-selected"
              onClick={() => bulk.run({ title: t('promotions.batch.title'), rows, call: approveMany, invalidate: QUALIFICATION_LISTS }).then(clearSelection)}
            >
              {t('promotions.batch.approve', { count: rows.length })}
            </ActionButton>
          </BulkBar>
        );
      }}
      rowActions={(r) =>
        pendingCampaignRow(r) ? (
          <ActionButton
            action="approve"
            page={PAGE}
            type="text"
            size="small"
            compact
            icon={<CheckOutlined />}
            confirm={t('promotions.approveConfirm', { campaign: names.get(Number(r.campaign_id)) ?? `#${String(r.campaign_id)}`, phone: String(r.phone ?? '') })}
            testId={`activity-approve-${String(r.id)}`}
            onClick={() => approveOne.mutateAsync(r.id)}
          >
            {t('money.activity.approve')}
          </ActionButton>
        ) : r.status === ACTIVITY_QUALIFICATION.pending ? (
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
      {bulk.modal}
    </ResourcePage>
  );
}
