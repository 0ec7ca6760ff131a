import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { MAX_TABS, VIA_TAB, pageOfPath, restoreTabs, serializeTabs, tabsReducer, type Tab, type TabsAction, type TabsState } from './model';

/** Where the tabs of an admin are kept in the browser (one list per admin signed in on it). */
export const tabsStorageKey = (adminId: number) => `tabs:${adminId}`;

function load(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function save(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage full or blocked: the tabs last until the page is left */
  }
}

export interface OpenTabs {
  state: TabsState;
  /** The page in the address bar ('' on /customer). */
  page: string;
  activate(page: string): void;
  close(page: string): void;
  closeOthers(page: string): void;
  closeRight(page: string): void;
  reopen(): void;
  move(page: string, to: number): void;
}

/**
 * The tabs, kept in step with the router: each location reached (a menu click, a link, the back button, an
 * address typed) is recorded in the tab of its page, opened if needed; choosing a tab goes to its last
 * address (a history entry, so the back button walks back through the tabs). `allowed` says which pages
 * may be tabs (screens the console has and the admin holds); others (404, 403) show without one.
 */
export function useOpenTabs(adminId: number, allowed: (page: string) => boolean): OpenTabs {
  const location = useLocation();
  const navigate = useNavigate();
  const key = tabsStorageKey(adminId);
  const [state, dispatch] = useReducer(tabsReducer, key, (k) => restoreTabs(load(k), allowed, MAX_TABS));
  const page = pageOfPath(location.pathname);

  // A new location is recorded while rendering (not in an effect), so the tab of the page shown is never
  // one render behind the address.
  const seen = `${location.key}|${location.pathname}${location.search}`;
  if (state.seen !== seen) {
    const where = { pathname: location.pathname, search: location.search, state: location.state };
    dispatch(page && allowed(page) ? { type: 'visit', page, location: where, seen } : { type: 'leave', seen });
  }

  useEffect(() => save(key, serializeTabs(state)), [key, state.tabs, state.closed]); // eslint-disable-line react-hooks/exhaustive-deps

  const latest = useRef(state);
  latest.current = state;

  const go = useCallback(
    (tab: Tab | undefined) => {
      if (tab) {
        const kept = typeof tab.state === 'object' && tab.state !== null ? tab.state : {};
        navigate({ pathname: tab.pathname, search: tab.search }, { state: { ...kept, [VIA_TAB]: true } });
      }
    },
    [navigate],
  );

  /** Applies a gesture; when it changes the active tab (the active one was closed, one reopened), goes there. */
  const run = useCallback(
    (action: TabsAction) => {
      const before = latest.current;
      const next = tabsReducer(before, action);
      if (next === before) return;
      dispatch(action);
      if (next.active && next.active !== before.active) go(next.tabs.find((t) => t.page === next.active));
    },
    [go],
  );

  const activate = useCallback(
    (p: string) => {
      if (p === latest.current.active) return;
      go(latest.current.tabs.find((t) => t.page === p));
    },
    [go],
  );

  return useMemo(
    () => ({
      state,
      page,
      activate,
      close: (p: string) => run({ type: 'close', page: p }),
      closeOthers: (p: string) => run({ type: 'closeOthers', page: p }),
      closeRight: (p: string) => run({ type: 'closeRight', page: p }),
      reopen: () => run({ type: 'reopen' }),
      move: (p: string, to: number) => run({ type: 'move', page: p, to }),
    }),
    [state, page, activate, run],
  );
}
