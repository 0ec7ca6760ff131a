import { useMemo, useState } from 'react';
import { Input } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, FormModal, ResourcePage, useApiMutation, type FieldView, type Row } from '../../resources';
import { useAdminResource } from './adminFields';
import { AdminRowActions } from './AdminRowActions';
import { OneTimePassword, type Revealed } from './OneTimePassword';

const resetFields: FieldView[] = [{ key: 'password', type: 'text', editable: true, maxLength: 128 }];
const notifyFields: FieldView[] = [{ key: 'content', type: 'textarea', editable: true, required: true, maxLength: 1000 }];

/** System › Administrators: the generic list plus status, password, Google and notice actions (spec §3, §6). */
export default function AdministratorsPage() {
  const { t } = useTranslation();
  const def = useAdminResource();
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [resetting, setResetting] = useState<Row | null>(null);
  const [notifying, setNotifying] = useState<{ ids: number[]; done(): void } | null>(null);

  const reset = useApiMutation(({ id, body }: { id: unknown; body: Row }) => api.post<{ password?: string }>(`/system/administrators/${id}/reset-password`, body));
  const notify = useApiMutation((body: Row) => api.post<{ sent: number }>('/system/administrators/notify', body));

  const showPassword = (account: unknown, password: unknown) => {
    if (typeof password === 'string' && password) setRevealed({ account: String(account), password });
  };
  const passwordField = useMemo<FieldView[]>(
    () => resetFields.map((f) => ({ ...f, input: () => <Input.Password autoComplete="new-password" placeholder={t('admin.passwordBlankHint')} /> })),
    [t],
  );

  return (
    <ResourcePage
      def={def}
      createTestId="admin-create"
      selectable
      onSaved={(mode, answer) => {
        const created = answer as { admin?: Row; password?: string };
        if (mode === 'create') showPassword(created.admin?.account, created.password);
      }}
      rowActions={(row) => <AdminRowActions row={row} onResetPassword={setResetting} />}
      toolbar={({ selected, clearSelection }) => (
        <ActionButton
          action="notify"
          page={def.page}
          icon={<NotificationOutlined />}
          disabled={selected.length === 0}
          testId="admin-notify"
          onClick={() => setNotifying({ ids: selected.map((r) => Number(r.id)), done: clearSelection })}
        >
          {selected.length ? t('admin.notifySelected', { n: selected.length }) : t('button.notify')}
        </ActionButton>
      )}
    >
      <FormModal
        open={!!resetting}
        title={t('admin.resetTitle', { account: String(resetting?.account ?? '') })}
        fields={passwordField}
        mode="edit"
        maxWidth={520}
        intro={<p>{t('admin.resetHint')}</p>}
        onClose={() => setResetting(null)}
        onSubmit={async (body) => {
          const answer = await reset.mutateAsync({ id: resetting?.id, body: body.password ? body : {} });
          showPassword(resetting?.account, answer.password);
        }}
      />
      <FormModal
        open={!!notifying}
        title={t('admin.notifyTitle', { n: notifying?.ids.length ?? 0 })}
        fields={notifyFields}
        mode="create"
        maxWidth={640}
        onClose={() => setNotifying(null)}
        onSubmit={async (body) => {
          await notify.mutateAsync({ admin_ids: notifying?.ids ?? [], content: body.content });
          notifying?.done();
        }}
      />
      <OneTimePassword revealed={revealed} onClose={() => setRevealed(null)} />
    </ResourcePage>
  );
}
