import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Drawer, Flex, Skeleton, Space, Tree, type TreeDataNode } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { MenuNode, RoleRow, RolePermissionsAnswer } from '@dau/contract';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useIsMobile } from '../../kit/dialog';
import { ActionButton, LoadError, useApiMutation } from '../../resources';
import { display, indexTree, toggle } from './permissionTree';

/** The role's permission tree (pages and their buttons), saved per role; the super role is read-only. */
export function PermissionDrawer({ role, onClose }: { role: RoleRow | null; onClose(): void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const query = useQuery({
    queryKey: ['role', 'permissions', role?.id],
    queryFn: () => api.get<RolePermissionsAnswer>(`/system/roles/${role?.id}/permissions`),
    enabled: !!role,
  });
  const index = useMemo(() => indexTree(query.data?.tree ?? []), [query.data]);
  const [held, setHeld] = useState<Set<string>>(new Set());
  const [expanded, setExpanded] = useState<string[]>([]);
  const readOnly = !!role?.is_super;

  useEffect(() => {
    if (!query.data) return;
    setHeld(new Set(readOnly ? index.all : query.data.keys));
    setExpanded(query.data.tree.map((n) => n.key));
  }, [query.data, index, readOnly]);

  const treeData = useMemo(() => {
    const toNode = (n: MenuNode): TreeDataNode => ({ key: n.key, title: t(n.language_variables, { defaultValue: n.name }), children: n.children.map(toNode) });
    return (query.data?.tree ?? []).map(toNode);
  }, [query.data, t]);

  const save = useApiMutation((keys: string[]) => api.put(`/system/roles/${role?.id}/permissions`, { keys }), { invalidate: [['role']] });

  return (
    <Drawer
      open={!!role}
      onClose={onClose}
      size={mobile ? '100%' : 'large'}
      destroyOnHidden
      title={t('role.permissionsTitle', { name: role?.name ?? '' })}
      data-testid="role-permissions"
      extra={
        !readOnly && (
          <ActionButton action="permissions" page="role" type="primary" testId="permissions-save" disabled={!query.data} onClick={() => save.mutateAsync([...held]).then(onClose)}>
            {t('action.save')}
          </ActionButton>
        )
      }
    >
      {readOnly && <Alert type="info" showIcon title={t('role.allPermissions')} style={{ marginBottom: 12 }} />}
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : !query.data ? (
        <Skeleton active />
      ) : (
        <>
          <Flex justify="space-between" wrap gap={8} style={{ marginBottom: 8 }}>
            <Space size={4} wrap>
              <Button size="small" onClick={() => setExpanded(index.all)}>
                {t('role.expandAll')}
              </Button>
              <Button size="small" onClick={() => setExpanded([])}>
                {t('role.collapseAll')}
              </Button>
            </Space>
            {!readOnly && (
              <Space size={4} wrap>
                <Button size="small" onClick={() => setHeld(new Set(index.all))} data-testid="permissions-all">
                  {t('role.checkAll')}
                </Button>
                <Button size="small" onClick={() => setHeld(new Set())} data-testid="permissions-none">
                  {t('role.clearAll')}
                </Button>
              </Space>
            )}
          </Flex>
          <Tree
            checkable
            checkStrictly
            selectable={false}
            disabled={readOnly}
            treeData={treeData}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys.map(String))}
            checkedKeys={display(held, index)}
            onCheck={(_keys, info) => setHeld(toggle(held, index, String(info.node.key), info.checked))}
          />
          <Alert type="info" showIcon={false} title={t('role.permissionsHint')} style={{ marginTop: 12 }} />
        </>
      )}
    </Drawer>
  );
}
