import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { MenuNode, UserInfo } from '@dau/contract';
import { ALWAYS_ALLOWED_PAGES } from '@dau/contract/ui';

/**
 * Access control in the browser: one synchronous `can(page, button?)` answered from the signed-in admin's
 * permission keys (no call per row). The server answers the same question for every request.
 * `hasScreen(page)`: whether the console has a screen for a catalogue page, so that a page links to another
 * only when it exists; the shell passes its screen registry in (pages do not import the registry, which
 * imports every page).
 */
export interface AccessValue {
  user: UserInfo;
  menus: MenuNode[];
  can(page: string, button?: string): boolean;
  hasScreen(page: string): boolean;
}

const AccessContext = createContext<AccessValue | null>(null);

export function AccessProvider({
  user,
  menus,
  hasScreen,
  children,
}: {
  user: UserInfo;
  menus: MenuNode[];
  hasScreen(page: string): boolean;
  children: ReactNode;
}) {
  const keys = useMemo(() => new Set(user.permissions), [user.permissions]);
  const can = useCallback(
    (page: string, button?: string) => {
      if (user.is_super) return true;
      if (!button && ALWAYS_ALLOWED_PAGES.includes(page)) return true;
      if (!keys.has(page)) return false;
      return button ? keys.has(`${page}:${button}`) : true;
    },
    [keys, user.is_super],
  );
  const value = useMemo(() => ({ user, menus, can, hasScreen }), [user, menus, can, hasScreen]);
  return <AccessContext.Provider value={value}>{children}</AccessContext.Provider>;
}

export function useAccess(): AccessValue {
  const v = useContext(AccessContext);
  if (!v) throw new Error('useAccess outside AccessProvider');
  return v;
}

/** The current page is identified by the route prefix /customer/{path} (spec §6). */
export function useCurrentPage(): string {
  const { pathname } = useLocation();
  const m = /^\/customer\/([^/]+)/.exec(pathname);
  return m ? m[1] : '';
}

/** Whether the current page grants a button: `const can = usePageCan(); can('create')`. */
export function usePageCan() {
  const { can } = useAccess();
  const page = useCurrentPage();
  return useCallback((button: string) => can(page, button), [can, page]);
}
