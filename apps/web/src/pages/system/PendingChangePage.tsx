import { useMemo, useState } from 'react';
import { CheckOutlined, CloseOutlined, RollbackOutlined } from '@ant-design/icons';
import { Alert, App, Button, Popconfirm, Space, Typography, type ButtonProps } from 'antd';
import { pendingChangeResource, type PendingApprovalAnswer, type PendingChangeRow } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useMe } from '../../kit/auth';
import { useIsMobile } from '../../kit/dialog';
import { ChangeLines, ChangeStatus, FormModal, ResourcePage, useApiMutation, useSettingNames, type FieldView, type ResourceView, type Row } from '../../resources';

const LISTS = [['pending_change'], ['setting_history']];
const STATUS_CHOICES = ['pending', 'applied', 'failed', 'refused', 'withdrawn', 'expired'] as const;
const REASON_FIELDS: FieldView[] = [{ key: 'reason', type: 'textarea', label: 'duties.field.reason', editable: true, required: true, maxLength: 500 }];

/**
 * System › Pending changes (issue 22): settings that can move money or open a door wait here for a second
 * administrator who sees the whole book and holds the same button. Each row shows what would change
 * (secrets masked), who asked and when it expires; another admin approves (it is applied at once) or
 * refuses with a reason, the requester may withdraw it. The server decides who may (`can_decide`).
 */
export default function PendingChangePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const me = useMe().user_info.id;
  const [refusing, setRefusing] = useState<PendingChangeRow | null>(null);
  const settings = useSettingNames();
  const mobile = useIsMobile();
  const view = useMemo<ResourceView>(
    () => ({
      ...pendingChangeResource,
      fields: pendingChangeResource.fields.map((f): FieldView => {
        switch (f.key) {
          case 'status':
            return { ...f, keep: true, render: (v) => <ChangeStatus status={String(v)} />, options: STATUS_CHOICES.map((s) => ({ value: s, label: t(`duties.status.${s}`) })) };
          case 'diff':
            return { ...f, keep: true, width: 360, render: (v, row) => <ChangeLines rows={(v ?? []) as PendingChangeRow['diff']} setting={String(row.setting)} /> };
          case 'setting':
            return { ...f, keep: true, options: settings.map((x) => ({ value: x, label: t(`duties.setting.${x}`, { defaultValue: x }) })) };
          case 'requested_account':
            return { ...f, keep: true };
          default:
            return f;
        }
      }),
    }),
    [t, settings],
  );
  const approve = useApiMutation((id: number) => api.post<PendingApprovalAnswer>(`/system/pending_changes/${id}/approve`, {}), {
    invalidate: LISTS,
    success: false,
    onSuccess: (a) => {
      if (a.pending_change.status === 'applied') void message.success(t('duties.applied'));
      else void message.error(t('duties.failed', { code: a.pending_change.result_code ?? String(a.pending_change.result_status ?? '') }));
    },
  });
  const refuse = useApiMutation(({ id, reason }: { id: number; reason?: string }) => api.post(`/system/pending_changes/${id}/refuse`, { reason }), { invalidate: LISTS });

  const actions = (r: Row) => {
    const c = r as unknown as PendingChangeRow;
    if (c.status !== 'pending') return null;
    if (c.requested_by === me) {
      return (
        <Space size={4} wrap>
          {c.approvers === 0 ? (
            <Typography.Text type="warning" data-testid={`change-no-approver-${c.id}`}>
              {t('duties.noApprover')}
            </Typography.Text>
          ) : null}
          <Popconfirm title={t('duties.withdrawConfirm')} onConfirm={() => refuse.mutateAsync({ id: c.id })} okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}>
            <Button size="small" type="text" icon={<RollbackOutlined />} data-testid={`change-withdraw-${c.id}`} aria-label={t('duties.withdraw')}>
              {mobile ? null : t('duties.withdraw')}
            </Button>
          </Popconfirm>
        </Space>
      );
    }
    if (!c.can_decide) return <Typography.Text type="secondary">{t('duties.cannotDecide')}</Typography.Text>;
    return (
      <Space size={4} wrap>
        <Popconfirm title={t('duties.approveConfirm')} onConfirm={() => approve.mutateAsync(c.id)} okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}>
          <Button size="small" type="text" icon={<CheckOutlined />} data-testid={`change-approve-${c.id}`} aria-label={t('button.approve')}>
            {mobile ? null : t('button.approve')}
          </Button>
        </Popconfirm>
        <Button size="small" type="text" danger icon={<CloseOutlined />} data-testid={`change-refuse-${c.id}`} aria-label={t('button.refuse')} onClick={() => setRefusing(c)}>
          {mobile ? null : t('button.refuse')}
        </Button>
      </Space>
    );
  };

  return (
    <ResourcePage def={view} intro={<Alert type="info" showIcon message={t('duties.intro')} style={{ marginBottom: 12 }} />} rowActions={actions}>
      <FormModal
        open={!!refusing}
        title={t('duties.refuseTitle', { setting: refusing ? t(`duties.setting.${refusing.setting}`, { defaultValue: refusing.setting }) : '' })}
        mode="create"
        maxWidth={560}
        fields={REASON_FIELDS}
        intro={refusing ? <ChangeLines rows={refusing.diff} setting={refusing.setting} /> : null}
        onClose={() => setRefusing(null)}
        onSubmit={(body) => refuse.mutateAsync({ id: refusing!.id, reason: String(body.reason ?? '') }).then(() => setRefusing(null))}
      />
    </ResourcePage>
  );
}
