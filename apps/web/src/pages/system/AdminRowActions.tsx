import { KeyOutlined, LockOutlined, UnlockOutlined, DisconnectOutlined } from '@ant-design/icons';
import type { AdminRow } from '@dau/contract';
import { GOOGLE_BINDING, USER_DISABLED } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { ActionButton, useApiMutation, type Row } from '../../resources';

const PAGE = 'administrators';
const invalidate = [[PAGE]];

/** Disable / enable, reset password and unbind Google of one admin (each behind its button permission). */
export function AdminRowActions({ row, onResetPassword }: { row: Row; onResetPassword(row: Row): void }) {
  const { t } = useTranslation();
  const { user } = useAccess();
  const admin = row as unknown as AdminRow;
  const disabled = admin.disabled === USER_DISABLED.disabled;
  const setDisabled = useApiMutation((to: number) => api.post(`/system/administrators/${admin.id}/disable`, { disabled: to }), { invalidate });
  const unbind = useApiMutation(() => api.post(`/system/administrators/${admin.id}/unbind-google`), { invalidate });
  const own = admin.id === user.id;
  const names = { account: admin.account };

  return (
    <>
      {!own && (
        <ActionButton
          action="disable"
          page={PAGE}
          type="text"
          size="small"
          compact
          danger={!disabled}
          icon={disabled ? <UnlockOutlined /> : <LockOutlined />}
          testId={`row-${disabled ? 'enable' : 'disable'}-${admin.id}`}
          confirm={t(disabled ? 'admin.confirmEnable' : 'admin.confirmDisable', names)}
          onClick={() => setDisabled.mutateAsync(disabled ? USER_DISABLED.enabled : USER_DISABLED.disabled)}
        >
          {t(disabled ? 'action.enable' : 'action.disable')}
        </ActionButton>
      )}
      <ActionButton
        action="reset_password"
        page={PAGE}
        type="text"
        size="small"
        compact
        icon={<KeyOutlined />}
        testId={`row-reset_password-${admin.id}`}
        onClick={() => onResetPassword(row)}
      />
      {admin.google_bound === GOOGLE_BINDING.bound && (
        <ActionButton
          action="unbind_google"
          page={PAGE}
          type="text"
          size="small"
          compact
          icon={<DisconnectOutlined />}
          testId={`row-unbind_google-${admin.id}`}
          confirm={t('admin.confirmUnbind', names)}
          onClick={() => unbind.mutateAsync(undefined)}
        >
          {t('admin.unbindGoogle')}
        </ActionButton>
      )}
    </>
  );
}
