import type { ReactNode } from 'react';
import { EllipsisOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAccess, useCurrentPage } from '../kit/access';

export interface MenuAction {
  /** The button permission (`page:action`); also the default label `button.<action>`. */
  action: string;
  /** The permission page; default the current page. */
  page?: string;
  /** Unique within the menu (default `action`). */
  key?: string;
  label?: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  /** Asks first (a confirmation dialog with this text). */
  confirm?: ReactNode;
  /** Left out of the menu (e.g. not in this row's state). */
  hidden?: boolean;
  onClick(): unknown;
  testId?: string;
}

/**
 * The less frequent actions of a row behind a "More" button: each item is there only with its permission,
 * a dangerous one asks first. Nothing is rendered when no item is left.
 */
export function ActionMenu({ items, testId, label }: { items: readonly MenuAction[]; testId?: string; label?: string }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const current = useCurrentPage();
  const { modal } = App.useApp();
  const shown = items.filter((i) => !i.hidden && can(i.page ?? current, i.action));
  if (!shown.length) return null;

  const run = (item: MenuAction) => {
    if (!item.confirm) {
      void Promise.resolve()
        .then(() => item.onClick())
        .catch(() => undefined); // the mutation has shown the server's message
      return;
    }
    modal.confirm({
      title: item.confirm,
      okButtonProps: { danger: item.danger, 'data-testid': 'confirm-ok' } as never,
      onOk: async () => {
        try {
          await item.onClick();
        } catch {
          /* the mutation has shown the server's message */
        }
      },
    });
  };

  const menu: MenuProps = {
    items: shown.map((i) => ({
      key: i.key ?? i.action,
      icon: i.icon,
      danger: i.danger,
      label: <span data-testid={i.testId}>{i.label ?? t(`button.${i.action}`)}</span>,
    })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      const item = shown.find((i) => (i.key ?? i.action) === key);
      if (item) run(item);
    },
  };
  const title = label ?? t('table.more');
  return (
    <Dropdown trigger={['click']} menu={menu} placement="bottomRight">
      <Button type="text" size="small" icon={<EllipsisOutlined />} aria-label={title} title={title} data-testid={testId} />
    </Dropdown>
  );
}
