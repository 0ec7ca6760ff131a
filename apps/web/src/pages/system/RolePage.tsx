import { useMemo, useState } from 'react';
import { SafetyOutlined } from '@ant-design/icons';
import { Space, Tag } from 'antd';
import type { RoleRow } from '@dau/contract';
import { useTranslation } from 'react-i18next';
import { useMsg } from '../../kit/messages';
import { ActionButton, ResourcePage, type ResourceView, type Row } from '../../resources';
import { PermissionDrawer } from './PermissionDrawer';

/** System › Roles: named roles with remarks (spec §3 Role, §6) and the permission tree of each. */
export default function RolePage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const [editing, setEditing] = useState<RoleRow | null>(null);

  const def = useMemo<ResourceView>(
    () => ({
      name: 'role',
      page: 'role',
      api: '/system/roles',
      kind: 'list',
      actions: ['create', 'edit', 'delete'],
      fetchDetail: false,
      fields: [
        { key: 'id', type: 'number', width: 70 },
        {
          key: 'name',
          type: 'text',
          search: 'like',
          editable: true,
          required: true,
          requiredMessage: msg('ROLE_NAME_REQUIRED'),
          maxLength: 64,
          render: (v, row) => (
            <Space size={6}>
              {String(v)}
              {!!row.is_super && <Tag color="gold">{t('role.super')}</Tag>}
            </Space>
          ),
        },
        { key: 'remarks', type: 'textarea', editable: true, maxLength: 200 },
        { key: 'is_super', type: 'switch', table: false },
        { key: 'admins', type: 'number', width: 110 },
        { key: 'permission_count', type: 'number', width: 130, render: (v, row) => (row.is_super ? t('role.allPermissions') : String(v ?? 0)) },
        { key: 'create_time', type: 'datetime' },
        { key: 'update_time', type: 'datetime' },
      ],
    }),
    [t, msg],
  );

  return (
    <ResourcePage
      def={def}
      rowAllows={(action, row) => !(row.is_super && action === 'delete')}
      rowActions={(row: Row) => (
        <ActionButton action="permissions" page="role" type="text" size="small" compact icon={<SafetyOutlined />} testId={`row-permissions-${row.id}`} onClick={() => setEditing(row as unknown as RoleRow)} />
      )}
    >
      <PermissionDrawer role={editing} onClose={() => setEditing(null)} />
    </ResourcePage>
  );
}
