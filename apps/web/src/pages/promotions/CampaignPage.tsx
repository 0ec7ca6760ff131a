import { useMemo, useState } from 'react';
import { BarChartOutlined, DeleteOutlined, EditOutlined, PauseCircleOutlined, PlayCircleOutlined, PlusOutlined, UserAddOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useIsMobile } from '../../kit/dialog';
import { dayEndIso, dayStartIso, zonedToday } from '../../kit/timeZone';
import {
  ActionButton, ActionMenu, FormModal, ResourcePage, useApiMutation, type FieldView, type MenuAction, type QuickFilter, type ResourceView, type Row,
} from '../../resources';
import { CampaignForm } from './CampaignForm';
import { StatsDrawer } from './StatsDrawer';
import { CAMPAIGN_LISTS, CAMPAIGN_PAGE, CAMPAIGN_STATUSES, CAMPAIGN_TYPES, QUALIFICATION_LISTS, StatusTag, formatTsh, rewardText, rulesText } from './shared';

type Open = { kind: 'form' | 'stats' | 'award'; row?: Row } | null;

/**
 * Period views: campaigns whose period overlaps today, the next 30 days or the last 30 days (filters `from` /
 * `to`). A phone gets the first two (the row of views must fit 390 px).
 */
function periodViews(t: (k: string) => string, mobile: boolean): QuickFilter[] {
  const today = zonedToday();
  const views: QuickFilter[] = [
    { key: 'all', label: t('promotions.period.all'), filters: { from: undefined, to: undefined } },
    { key: 'today', label: t('promotions.period.today'), filters: { from: dayStartIso(today), to: dayEndIso(today) } },
    { key: 'next', label: t('promotions.period.next30'), filters: { from: dayStartIso(today), to: dayEndIso(today.add(29, 'day')) } },
    { key: 'last', label: t('promotions.period.last30'), filters: { from: dayStartIso(today.subtract(29, 'day')), to: dayEndIso(today) } },
  ];
  return mobile ? views.slice(0, 2) : views;
}

/**
 * Users › Promotion campaigns (activity_campaign, issue 17): the campaigns of the admin's branch with
 * filters by name, type, state and period. Buttons: create, edit, delete (only a campaign nobody qualified
 * for, after a confirmation), approve (activate / pause), create also puts a bettor on a custom
 * campaign; each row opens its statistics.
 */
export default function CampaignPage() {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const invalidate = CAMPAIGN_LISTS;
  const create = useApiMutation((body: Row) => api.post<Row>('/promotions/campaigns', body), { invalidate });
  const update = useApiMutation(({ id, body }: { id: unknown; body: Row }) => api.put<Row>(`/promotions/campaigns/${String(id)}`, body), { invalidate });
  const remove = useApiMutation((id: unknown) => api.del(`/promotions/campaigns/${String(id)}`), { invalidate });
  const setState = useApiMutation(({ id, action }: { id: unknown; action: 'activate' | 'pause' }) => api.post<Row>(`/promotions/campaigns/${String(id)}/${action}`), { invalidate });
  const award = useApiMutation(({ id, body }: { id: unknown; body: Row }) => api.post<Row>(`/promotions/campaigns/${String(id)}/award`, body), { invalidate: QUALIFICATION_LISTS });

  const def = useMemo<ResourceView>(() => {
    const typeOptions = CAMPAIGN_TYPES.map((value) => ({ value, label: t(`promotions.type.${value}`) }));
    const statusOptions = CAMPAIGN_STATUSES.map((value) => ({ value, label: t(`promotions.status.${value}`) }));
    const fields: FieldView[] = [
      { key: 'id', type: 'number', sortable: true, width: 70 },
      { key: 'name', type: 'text', label: 'promotions.field.name', search: 'like', keep: true, width: 200 },
      { key: 'type', type: 'text', label: 'promotions.field.type', search: 'exact', options: typeOptions, keep: true, width: 150, render: (v) => typeOptions.find((o) => o.value === v)?.label ?? String(v ?? '') },
      { key: 'status', type: 'text', label: 'promotions.field.status', search: 'exact', options: statusOptions, keep: true, width: 100, render: (v) => <StatusTag status={v} t={t} /> },
      { key: 'starts_at', type: 'datetime', label: 'promotions.field.starts_at', sortable: true },
      { key: 'ends_at', type: 'datetime', label: 'promotions.field.ends_at', sortable: true },
      { key: 'rules', type: 'text', label: 'promotions.field.rules', table: false, render: (v, row) => rulesText(row.type, v, t) },
      { key: 'reward', type: 'text', label: 'promotions.field.reward', keep: true, width: 180, render: (v) => rewardText(v, t) },
      {
        key: 'spent_cents', type: 'money', label: 'promotions.field.spent', sortable: true, width: 200,
        render: (v, row) => (
          <Typography.Text data-testid={`campaign-spent-${String(row.id)}`}>
            {formatTsh(v)} / {formatTsh(row.budget_cents)}
          </Typography.Text>
        ),
      },
      { key: 'qualified', type: 'number', label: 'promotions.field.qualified', width: 100 },
      { key: 'pending', type: 'number', label: 'promotions.field.pending', width: 100 },
      { key: 'auto_approve', type: 'switch', label: 'promotions.field.auto_approve', width: 110 },
      { key: 'agent_name', type: 'text', label: 'promotions.field.branch', render: (v) => (v ? String(v) : t('promotions.allBranches')) },
      { key: 'wagering_multiplier', type: 'number', label: 'promotions.field.wagering_multiplier', table: false },
      { key: 'bonus_expiry_days', type: 'number', label: 'promotions.field.bonus_expiry_days', table: false },
      { key: 'created_by_name', type: 'text', label: 'promotions.field.created_by', table: false },
      { key: 'created_at', type: 'datetime', label: 'promotions.field.created_at', table: false },
      { key: 'updated_at', type: 'datetime', label: 'promotions.field.updated_at', table: false },
    ];
    return {
      name: CAMPAIGN_PAGE, page: CAMPAIGN_PAGE, api: '/promotions/campaigns', kind: 'list', title: 'menu.activity_campaign',
      description: 'promotions.describe.activity_campaign', defaultSort: '-id', actions: ['export'], exportType: CAMPAIGN_PAGE, fetchDetail: false, fields,
    };
  }, [t]);

  const awardFields = useMemo<FieldView[]>(
    () => [
      { key: 'bettor_id', type: 'number', label: 'promotions.field.bettor_id', editable: true, required: true, min: 1 },
      { key: 'qualifying_amount', type: 'money', label: 'promotions.field.qualifying_amount', editable: true, min: 0, help: 'promotions.help.qualifying_amount' },
      { key: 'remark', type: 'textarea', label: 'promotions.field.remark', editable: true, maxLength: 500 },
    ],
    [],
  );

  const actions = (row: Row, where: 'row' | 'detail') => {
    const rid = String(row.id);
    const status = String(row.status);
    const name = String(row.name ?? '');
    const items: MenuAction[] = [
      { action: 'edit', icon: <EditOutlined />, hidden: status === 'ended', onClick: () => setOpen({ kind: 'form', row }), testId: `campaign-edit-${rid}` },
      {
        action: 'approve', key: 'activate', icon: <PlayCircleOutlined />, label: t('promotions.activate'), hidden: status !== 'draft' && status !== 'paused',
        confirm: t('promotions.activateConfirm', { name }), onClick: () => setState.mutateAsync({ id: row.id, action: 'activate' }), testId: `campaign-activate-${rid}`,
      },
      {
        action: 'approve', key: 'pause', icon: <PauseCircleOutlined />, label: t('promotions.pause'), hidden: status !== 'active',
        confirm: t('promotions.pauseConfirm', { name }), onClick: () => setState.mutateAsync({ id: row.id, action: 'pause' }), testId: `campaign-pause-${rid}`,
      },
      {
        action: 'create', key: 'award', icon: <UserAddOutlined />, label: t('promotions.award'), hidden: row.type !== 'custom' || status !== 'active',
        onClick: () => setOpen({ kind: 'award', row }), testId: `campaign-award-${rid}`,
      },
      {
        action: 'delete', icon: <DeleteOutlined />, danger: true, hidden: Number(row.qualified ?? 0) > 0,
        confirm: t('promotions.deleteConfirm', { name }), onClick: () => remove.mutateAsync(row.id), testId: `campaign-delete-${rid}`,
      },
    ];
    return (
      <Space size={4}>
        <Tooltip title={t('promotions.stats.open')}>
          <Button type="text" size="small" icon={<BarChartOutlined />} aria-label={t('promotions.stats.open')} onClick={() => setOpen({ kind: 'stats', row })} data-testid={`campaign-stats-${where}-${rid}`} />
        </Tooltip>
        <ActionMenu items={items} testId={`campaign-actions-${where}-${rid}`} label={t('promotions.actions')} />
      </Space>
    );
  };

  const formRow = open?.kind === 'form' ? open.row : undefined;
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      quickFilters={periodViews(t, mobile)}
      rowActions={(row) => actions(row, 'row')}
      detailActions={(row) => actions(row, 'detail')}
      detailTitle={(row) => String(row.name ?? '')}
      toolbar={() => (
        <ActionButton action="create" page={CAMPAIGN_PAGE} type="primary" icon={<PlusOutlined />} testId="campaign-create" onClick={() => setOpen({ kind: 'form' })} />
      )}
    >
      <CampaignForm
        open={open?.kind === 'form'}
        row={formRow}
        onClose={close}
        onSubmit={(body) => (formRow ? update.mutateAsync({ id: formRow.id, body }) : create.mutateAsync(body))}
      />
      <StatsDrawer campaign={open?.kind === 'stats' ? open.row! : null} onClose={close} />
      <FormModal
        open={open?.kind === 'award'}
        title={t('promotions.awardTitle', { name: String(open?.row?.name ?? '') })}
        fields={awardFields}
        mode="create"
        maxWidth={520}
        hint={t('promotions.help.award')}
        onClose={close}
        onSubmit={(body) => award.mutateAsync({ id: open?.row?.id, body })}
      />
    </ResourcePage>
  );
}
