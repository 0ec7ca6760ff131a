import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MenuProps } from 'antd';
import type { MenuNode } from '@dau/contract';
import { useAccess } from '../../kit/access';
import { hasScreen } from '../screens';
import { menuIcon } from './icons';

/**
 * The menu the admin sees: the server's tree (groups → pages) of what the admin holds, pages of type 1
 * on platform 1 that are not hidden, intersected with the screens this console has. A group with no
 * page left is not shown. Larger `sort` ranks higher.
 */
export interface MenuPage {
  path: string;
  label: string;
  group: string | null;
  top: boolean;
}

export interface MenuModel {
  items: NonNullable<MenuProps['items']>;
  pages: MenuPage[];
  /** Pages with show_headshot 2: quick links in the top bar. */
  topLinks: MenuPage[];
  groupLabel: Record<string, string>;
  byPath: Record<string, MenuPage>;
}

const isPage = (n: MenuNode) => n.type === 1 && (n.platform ?? 1) === 1;
const bySort = (a: MenuNode, b: MenuNode) => b.sort - a.sort;

export function useMenuModel(): MenuModel {
  const { t } = useTranslation();
  const { menus, can } = useAccess();
  return useMemo(() => {
    const pages: MenuPage[] = [];
    const groupLabel: Record<string, string> = {};
    const items: NonNullable<MenuProps['items']> = [];
    const visible = (n: MenuNode) => isPage(n) && !n.hidden && hasScreen(n.path) && can(n.path);
    const label = (n: MenuNode) => t(n.language_variables, { defaultValue: n.name });

    for (const node of [...menus].filter(isPage).sort(bySort)) {
      const children = (node.children ?? []).filter(visible).sort(bySort);
      if (children.length > 0) {
        groupLabel[node.path] = label(node);
        items.push({
          key: `group:${node.path}`,
          icon: menuIcon(node.icon, true),
          label: <span data-testid={`menu-group-${node.path}`} className="dau-menu-group-label" title={groupLabel[node.path]}>{groupLabel[node.path]}</span>,
          children: children.map((c) => {
            const p = { path: c.path, label: label(c), group: node.path, top: c.show_headshot === 2 };
            pages.push(p);
            return { key: c.path, icon: menuIcon(c.icon), label: <span data-testid={`menu-${c.path}`} title={p.label}>{p.label}</span> };
          }),
        });
      } else if (visible(node)) {
        const p = { path: node.path, label: label(node), group: null, top: node.show_headshot === 2 };
        pages.push(p);
        items.push({ key: node.path, icon: menuIcon(node.icon, true), label: <span data-testid={`menu-${node.path}`} title={p.label}>{p.label}</span> });
      }
    }
    const byPath = Object.fromEntries(pages.map((p) => [p.path, p]));
    return { items, pages, topLinks: pages.filter((p) => p.top), groupLabel, byPath };
  }, [menus, can, t]);
}

/**
 * The name of a page: its menu label, else the catalogue's label of a page outside the menu (a detail
 * page such as order_detailed); '' for a page the console does not have.
 */
export function usePageLabel(model: MenuModel): (page: string) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (page: string) => model.byPath[page]?.label ?? (page && hasScreen(page) && i18n.exists(`menu.${page}`) ? t(`menu.${page}`) : ''),
    [model, t, i18n],
  );
}
