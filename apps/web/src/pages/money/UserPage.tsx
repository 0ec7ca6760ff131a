import { useMemo, useState } from 'react';
import { SyncOutlined } from '@ant-design/icons';
import { Input } from 'antd';
import { userResource } from '@dau/contract/ui';
import { ONLINE_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, FormModal, ResourcePage, useApiMutation, type FieldView, type Row } from '../../resources';
import { OneTimePassword, type Revealed } from '../system/OneTimePassword';
import { BalanceDialog, type BalanceTarget } from './BalanceDialog';
import { BettorBills } from './BettorBills';
import { BettorNetwork } from './BettorNetwork';
import { BettorTabs } from '../betting/BettorBets';
import { BETTOR_LISTS, useAdminPickers, useAgentChoices } from './shared';
import { PAGE, UserActions, useRefreshBettors, type UserDialogs } from './UserActions';

type Dialog = 'agent' | 'code' | 'password' | 'risk';
/** The open dialog and its bettor; kept while it fades out (`open` false) so its title does not change. */
type Open = { kind: Dialog; row: Row; open: boolean } | null;

const riskFields: FieldView[] = [
  { key: 'risk_level', type: 'enum', enum: 'risk_level', editable: true, required: true },
  { key: 'bet_status', type: 'enum', enum: 'bet_status', editable: true, required: true },
];

/**
 * Users › User management (spec §3 User): bettors of my branch with their money, and the audited admin
 * actions: edit balance and activity credit, change agent, invitation code, reset password, disable /
 * enable, risk level and bet status, force-refresh online bettors. The drawer shows the latest bills.
 */
export default function UserPage() {
  const { t } = useTranslation();
  const def = useAdminPickers(userResource);
  const agents = useAgentChoices();
  const [balance, setBalance] = useState<BalanceTarget>({ account: 'cash', open: false });
  const [dialog, setDialog] = useState<Open>(null);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const close = () => setDialog((d) => (d ? { ...d, open: false } : d));

  const dialogs: UserDialogs = {
    balance: (row, account) => setBalance({ row, account, open: true }),
    agent: (row) => setDialog({ kind: 'agent', row, open: true }),
    invitationCode: (row) => setDialog({ kind: 'code', row, open: true }),
    resetPassword: (row) => setDialog({ kind: 'password', row, open: true }),
    risk: (row) => setDialog({ kind: 'risk', row, open: true }),
  };

  const id = dialog?.row.id;
  const phone = String(dialog?.row.phone ?? '');
  const invalidate = BETTOR_LISTS;
  const changeAgent = useApiMutation((body: Row) => api.put(`/money/bettors/${id}/agent`, body), { invalidate });
  const changeCode = useApiMutation((body: Row) => api.put(`/money/bettors/${id}/invitation-code`, body), { invalidate });
  const changeRisk = useApiMutation((body: Row) => api.put(`/money/bettors/${id}/risk`, body), { invalidate });
  const resetPassword = useApiMutation((body: Row) => api.post<{ password?: string }>(`/money/bettors/${id}/reset-password`, body));
  const refresh = useRefreshBettors();

  const agentFields = useMemo<FieldView[]>(
    () => [agents.length ? { key: 'agent_id', type: 'enum', options: agents, editable: true, required: true } : { key: 'agent_id', type: 'number', min: 1, editable: true, required: true }],
    [agents],
  );
  const codeFields = useMemo<FieldView[]>(
    () => [
      {
        key: 'invitation_code',
        type: 'text',
        editable: true,
        maxLength: 16,
        placeholder: t('money.user.codeBlankHint'),
        rules: [{ pattern: /^[A-Za-z0-9]{4,16}$/, message: t('money.user.codeFormat') }],
      },
    ],
    [t],
  );
  const passwordFields = useMemo<FieldView[]>(
    () => [{ key: 'password', type: 'text', editable: true, maxLength: 128, input: () => <Input.Password autoComplete="new-password" placeholder={t('admin.passwordBlankHint')} /> }],
    [t],
  );

  /** What the bettor dialogs share: open by kind, the bettor's phone in the title, the row as the record, a hint above the fields. */
  const dialogOf = (kind: Dialog, title: string, hint: string) => ({
    open: dialog?.kind === kind && dialog.open,
    title: t(title, { phone }),
    mode: 'edit' as const,
    record: dialog?.kind === kind ? dialog.row : undefined,
    maxWidth: 520,
    hint,
    onClose: close,
  });

  return (
    <ResourcePage
      def={def}
      selectable
      rowActions={(row) => <UserActions row={row} dialogs={dialogs} />}
      detailActions={(row) => <UserActions row={row} dialogs={dialogs} where="detail" />}
      detailExtra={(row) => (
        <>
          <BettorNetwork row={row} />
          <BettorTabs bettorId={row.id} bills={<BettorBills bettor={row} />} />
        </>
      )}
      detailTitle={(row) => t('money.user.detailTitle', { phone: String(row.phone ?? ''), name: String(row.name ?? '') || '-' })}
      detailColumns={2}
      toolbar={({ selected, clearSelection }) => {
        const online = selected.filter((r) => r.online_status === ONLINE_STATUS.online).map((r) => Number(r.id));
        return (
          <>
            <ActionButton
              action="refresh"
              page={PAGE}
              icon={<SyncOutlined />}
              disabled={!online.length}
              confirm={t('money.user.confirmRefreshSelected', { n: online.length })}
              testId="user-refresh-selected"
              onClick={() => refresh.mutateAsync(online).then(clearSelection)}
            >
              {online.length ? t('money.user.refreshSelected', { n: online.length }) : t('money.user.refreshSelectedNone')}
            </ActionButton>
            <ActionButton
              action="refresh"
              page={PAGE}
              icon={<SyncOutlined />}
              confirm={t('money.user.confirmRefreshAll')}
              testId="user-refresh-all"
              onClick={() => refresh.mutateAsync(undefined)}
            >
              {t('money.user.refreshAll')}
            </ActionButton>
          </>
        );
      }}
    >
      <BalanceDialog target={balance} onClose={() => setBalance((b) => ({ ...b, open: false }))} />
      <FormModal
        {...dialogOf('agent', 'money.user.agentTitle', t('money.user.agentHint', { agent: String(dialog?.row.agent_account ?? dialog?.row.agent_id ?? '-') }))}
        fields={agentFields}
        onSubmit={(body) => changeAgent.mutateAsync(body)}
      />
      <FormModal
        {...dialogOf('code', 'money.user.codeTitle', t('money.user.codeHint'))}
        fields={codeFields}
        // Blank: the server generates a new code.
        onSubmit={(body) => changeCode.mutateAsync(String(body.invitation_code ?? '').trim() ? { invitation_code: String(body.invitation_code).trim() } : {})}
      />
      <FormModal {...dialogOf('risk', 'money.user.riskTitle', t('money.user.riskHint'))} fields={riskFields} maxWidth={640} onSubmit={(body) => changeRisk.mutateAsync(body)} />
      <FormModal
        {...dialogOf('password', 'money.user.resetTitle', t('money.user.resetHint'))}
        // Nothing of the bettor fills the form: blank asks the server for a new password.
        record={undefined}
        fields={passwordFields}
        onSubmit={async (body) => {
          const answer = await resetPassword.mutateAsync(body.password ? body : {});
          if (answer.password) setRevealed({ account: phone, password: answer.password });
        }}
      />
      <OneTimePassword revealed={revealed} onClose={() => setRevealed(null)} notice={t('money.user.passwordOnce')} accountLabel={t('field.phone')} />
    </ResourcePage>
  );
}
