import {
  ApartmentOutlined,
  GiftOutlined,
  KeyOutlined,
  LockOutlined,
  QrcodeOutlined,
  SafetyOutlined,
  SyncOutlined,
  UnlockOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { App } from 'antd';
import { ONLINE_STATUS, USER_DISABLED } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, ActionMenu, useApiMutation, type Row } from '../../resources';
import type { Account } from './BalanceDialog';
import { BETTOR_LISTS } from './shared';

export const PAGE = 'user';

/** The dialogs the user screen opens for a row. */
export interface UserDialogs {
  balance(row: Row, account: Account): void;
  agent(row: Row): void;
  invitationCode(row: Row): void;
  resetPassword(row: Row): void;
  risk(row: Row): void;
}

/** Force-refresh (push "reload the page") of the given online bettors, or of all online bettors of my branch. */
export function useRefreshBettors() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return useApiMutation((ids?: number[]) => api.post<{ sent: number }>('/money/bettors/refresh', ids ? { bettor_ids: ids } : {}), {
    success: false,
    onSuccess: (a) => void message.success(t('money.user.refreshSent', { n: a.sent })),
  });
}

/**
 * The actions on one bettor, each behind its button permission: edit balance at hand, the others in a
 * "More" menu. In the detail drawer (`where` detail) the same actions with their own test ids.
 */
export function UserActions({ row, dialogs, where = 'row' }: { row: Row; dialogs: UserDialogs; where?: 'row' | 'detail' }) {
  const { t } = useTranslation();
  const id = row.id as number;
  const phone = String(row.phone ?? '');
  const disabled = row.disabled === USER_DISABLED.disabled;
  const online = row.online_status === ONLINE_STATUS.online;
  const setDisabled = useApiMutation((to: number) => api.post(`/money/bettors/${id}/disable`, { disabled: to }), { invalidate: BETTOR_LISTS });
  const refresh = useRefreshBettors();
  const prefix = where === 'detail' ? 'detail-' : '';

  return (
    <>
      <ActionButton
        action="edit_balance"
        page={PAGE}
        type={where === 'row' ? 'text' : 'primary'}
        size={where === 'row' ? 'small' : 'middle'}
        compact={where === 'row'}
        icon={<WalletOutlined />}
        testId={`${prefix}user-edit-balance-${id}`}
        onClick={() => dialogs.balance(row, 'cash')}
      />
      <ActionMenu
        testId={`${prefix}user-more-${id}`}
        items={[
          { action: 'edit_credit', page: PAGE, icon: <GiftOutlined />, testId: `${prefix}user-edit-credit-${id}`, onClick: () => dialogs.balance(row, 'credit') },
          { action: 'change_agent', page: PAGE, icon: <ApartmentOutlined />, label: t('money.user.changeAgent'), testId: `${prefix}user-agent-${id}`, onClick: () => dialogs.agent(row) },
          { action: 'invitation_code', page: PAGE, icon: <QrcodeOutlined />, testId: `${prefix}user-code-${id}`, onClick: () => dialogs.invitationCode(row) },
          { action: 'risk', page: PAGE, icon: <SafetyOutlined />, label: t('money.user.riskAction'), testId: `${prefix}user-risk-${id}`, onClick: () => dialogs.risk(row) },
          { action: 'reset_password', page: PAGE, icon: <KeyOutlined />, testId: `${prefix}user-reset-password-${id}`, onClick: () => dialogs.resetPassword(row) },
          {
            action: 'refresh',
            page: PAGE,
            hidden: !online,
            icon: <SyncOutlined />,
            label: t('money.user.refreshOne'),
            confirm: t('money.user.confirmRefreshOne', { phone }),
            testId: `${prefix}user-refresh-${id}`,
            onClick: () => refresh.mutateAsync([id]),
          },
          {
            action: 'disable',
            page: PAGE,
            icon: disabled ? <UnlockOutlined /> : <LockOutlined />,
            danger: !disabled,
            label: t(disabled ? 'action.enable' : 'action.disable'),
            confirm: t(disabled ? 'money.user.confirmEnable' : 'money.user.confirmDisable', { phone }),
            testId: `${prefix}user-${disabled ? 'enable' : 'disable'}-${id}`,
            onClick: () => setDisabled.mutateAsync(disabled ? USER_DISABLED.enabled : USER_DISABLED.disabled),
          },
        ]}
      />
    </>
  );
}
