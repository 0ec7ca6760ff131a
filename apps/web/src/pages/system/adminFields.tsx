import { useMemo, type ReactNode } from 'react';
import { Badge, Input, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ONLINE_STATUS } from '@dau/domain';
import { useAccess } from '../../kit/access';
import { useMsg } from '../../kit/messages';
import { Blank, enumText, formatDateTime, useLocale, type FieldView, type ResourceView, type Row } from '../../resources';
import { useAdminOptions, useRoleOptions } from './options';

/** A time with the IP it came from under it (login, registration). */
function TimeAndIp({ time, ip }: { time: unknown; ip: unknown }) {
  if (!time && !ip) return <Blank />;
  return (
    <Space orientation="vertical" size={0}>
      <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(time) || '-'}</span>
      {!!ip && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {String(ip)}
        </Typography.Text>
      )}
    </Space>
  );
}

const text = (v: unknown): ReactNode => (v === null || v === undefined || v === '' ? <Blank /> : String(v));

/**
 * The administrators screen as a declaration (spec §3 Administrator; API GET/POST/PUT /system/administrators):
 * roles and superiors come from the server's option lists, and one's own role is locked.
 */
export function useAdminResource(): ResourceView {
  const { t } = useTranslation();
  const msg = useMsg();
  const locale = useLocale();
  const { user } = useAccess();
  const roles = useRoleOptions();
  const admins = useAdminOptions();

  return useMemo(() => {
    const fields: FieldView[] = [
      { key: 'id', type: 'number', sortable: true, width: 70 },
      { key: 'account', type: 'text', search: 'like', sortable: true, createOnly: true, required: true, maxLength: 32, rules: [{ min: 3, message: t('form.minLength', { min: 3 }) }] },
      {
        key: 'password',
        type: 'text',
        createOnly: true,
        table: false,
        detail: false,
        maxLength: 128,
        input: () => <Input.Password autoComplete="new-password" placeholder={t('admin.passwordBlankHint')} />,
      },
      { key: 'name', type: 'text', search: 'like', editable: true, maxLength: 64 },
      { key: 'phone', type: 'text', search: 'like', editable: true, maxLength: 20 },
      {
        key: 'role_id',
        type: 'enum',
        keep: true,
        options: roles,
        search: 'exact',
        editable: true,
        required: true,
        render: (_v, row) => (row.role_name ? <Tag color="gold">{String(row.role_name)}</Tag> : <Blank />),
        // An admin cannot change their own role (the server answers CANNOT_CHANGE_OWN_ROLE).
        disabled: ({ mode, record }) => mode === 'edit' && record?.id === user.id,
      },
      { key: 'superior_id', type: 'enum', options: admins, editable: true, render: (_v, row) => text(row.superior_account) },
      {
        key: 'share_ratio',
        type: 'number',
        editable: true,
        // Spec §5: a number >= 0 (the server also allows at most 4 decimals).
        rules: [{ type: 'number', min: 0, message: msg('SHARE_RATIO_INVALID') }],
        render: (v) => (v === null || v === undefined || v === '' ? <Blank /> : String(Number(v))),
      },
      { key: 'balance', type: 'money' },
      { key: 'invitation_code', type: 'text', editable: true, maxLength: 32 },
      {
        key: 'online_status',
        type: 'enum',
        enum: 'online_status',
        search: 'exact',
        render: (v, row: Row) => (
          <Space orientation="vertical" size={0}>
            <Badge status={v === ONLINE_STATUS.online ? 'success' : 'default'} text={enumText('online_status', v, locale)} />
            {!!row.online_update_time && (
              <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                {formatDateTime(row.online_update_time)}
              </Typography.Text>
            )}
          </Space>
        ),
      },
      { key: 'member_expiry', type: 'datetime', editable: true },
      { key: 'login_time', type: 'datetime', sortable: true, render: (v, row) => <TimeAndIp time={v} ip={row.login_ip} /> },
      { key: 'register_time', type: 'datetime', sortable: true, render: (v, row) => <TimeAndIp time={v} ip={row.register_ip} /> },
      { key: 'google_bound', type: 'enum', enum: 'google_binding' },
      { key: 'disabled', type: 'enum', enum: 'user_disabled', search: 'exact' },
      { key: 'subordinates', type: 'number', table: false },
    ];
    return {
      name: 'administrators',
      page: 'administrators',
      api: '/system/administrators',
      kind: 'list',
      defaultSort: '-id',
      actions: ['create', 'edit', 'export'],
      fields,
    };
  }, [t, msg, locale, user.id, roles, admins]);
}
