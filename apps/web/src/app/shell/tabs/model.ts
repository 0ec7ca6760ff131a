/**
 * The open pages of the console as tabs (issue 29): a pure reducer, so that the rules (one tab per page,
 * the limit, which tab takes the place of a closed one, the stack of closed tabs) are tested without a
 * browser. The shell feeds it the router's location (`visit`) and the operator's gestures; the tab of the
 * page in the address bar is the active one.
 *
 * A tab is a page (`/customer/<page>`), with the address it was last at inside that page (its filters,
 * its list page, the order a detail page shows): switching back to it goes back to that address.
 */

/** Tabs open at once; opening one more closes the one left unused the longest. */
export const MAX_TABS = 12;
/** Closed tabs remembered for "reopen closed tab" (Ctrl+Shift+T). */
export const MAX_CLOSED = 20;

export interface TabLocation {
  pathname: string;
  search: string;
  /** The router's navigation state (e.g. the list a detail page was opened from); not stored. */
  state?: unknown;
}

export interface Tab extends TabLocation {
  page: string;
  /** When it was last the active tab (a counter): the smallest is closed first past the limit. */
  used: number;
  /** Shown at least once since the console started: a tab restored after a reload loads when first opened. */
  mounted: boolean;
  /**
   * Counts the times its screen started afresh: entered from elsewhere than the tab bar (a menu click, a
   * link, a search result, the back button, an address typed), a tab shows what was asked for, not the
   * drawer or selection it was left with; chosen in the tab bar, it comes back as it was left.
   */
  fresh?: number;
}

/** The navigation state of the tab bar's own gestures (choosing, closing, reopening a tab). */
export const VIA_TAB = 'dauViaTab';
export const viaTab = (state: unknown): boolean => typeof state === 'object' && state !== null && (state as Record<string, unknown>)[VIA_TAB] === true;

export interface ClosedTab extends TabLocation {
  page: string;
  /** Where it stood in the bar: reopened there. */
  index: number;
}

export interface TabsState {
  tabs: Tab[];
  /** The page of the active tab; null when the address is no tab (the index, an unknown page). */
  active: string | null;
  /** Most recently closed last. */
  closed: ClosedTab[];
  clock: number;
  /** The last router location visited (its key and address): a new one is a navigation to record. */
  seen: string | null;
}

export type TabsAction =
  | { type: 'visit'; page: string; location: TabLocation; seen: string; limit?: number }
  | { type: 'leave'; seen: string }
  | { type: 'close'; page: string }
  | { type: 'closeOthers'; page: string }
  | { type: 'closeRight'; page: string }
  | { type: 'reopen'; limit?: number }
  | { type: 'move'; page: string; to: number };

/**
 * Whether a key press reopens the last closed tab: Ctrl+Shift+T (Cmd+Shift+T on a Mac), as in a browser;
 * and Alt+Shift+T, since a browser window usually keeps Ctrl+Shift+T for its own tabs and never lets the
 * page see it (an installed app window or a full-screen page does).
 */
export function isReopenShortcut(e: { ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean; code: string }): boolean {
  if (e.code !== 'KeyT' || !e.shiftKey) return false;
  const command = e.ctrlKey || e.metaKey;
  return command !== e.altKey;
}

export const emptyTabs = (): TabsState => ({ tabs: [], active: null, closed: [], clock: 0, seen: null });

/** The page of a console address: `/customer/order_list/...` → `order_list`; '' for `/customer`. */
export function pageOfPath(pathname: string): string {
  const m = /^\/customer\/([^/]+)/.exec(pathname);
  return m ? m[1] : '';
}

const closedOf = (tab: Tab, index: number): ClosedTab => ({ page: tab.page, pathname: tab.pathname, search: tab.search, state: tab.state, index });

/** Closes `pages` (never every tab): they go on the closed stack, left to right (the rightmost reopens first). */
function closeTabs(s: TabsState, pages: ReadonlySet<string>): TabsState {
  if (pages.size === 0) return s;
  const kept = s.tabs.filter((t) => !pages.has(t.page));
  if (kept.length === 0 || kept.length === s.tabs.length) return s;
  const closing = s.tabs.flatMap((t, i) => (pages.has(t.page) ? [closedOf(t, i)] : []));
  let active = s.active;
  if (active && pages.has(active)) {
    // The neighbour on the right takes the place of the closed active tab, else the one on the left.
    const at = s.tabs.findIndex((t) => t.page === active);
    const right = s.tabs.slice(at + 1).find((t) => !pages.has(t.page));
    const left = s.tabs.slice(0, at).reverse().find((t) => !pages.has(t.page));
    active = (right ?? left)!.page;
  }
  return { ...s, tabs: kept, active, closed: [...s.closed, ...closing].slice(-MAX_CLOSED) };
}

/** Past the limit, the tabs unused the longest are closed (never the active one). */
function limitTabs(s: TabsState, limit: number): TabsState {
  const over = s.tabs.length - Math.max(1, limit);
  if (over <= 0) return s;
  const oldest = s.tabs
    .filter((t) => t.page !== s.active)
    .sort((a, b) => a.used - b.used)
    .slice(0, over)
    .map((t) => t.page);
  return closeTabs(s, new Set(oldest));
}

export function tabsReducer(s: TabsState, a: TabsAction): TabsState {
  switch (a.type) {
    case 'visit': {
      const clock = s.clock + 1;
      const at = s.tabs.findIndex((t) => t.page === a.page);
      const where = { pathname: a.location.pathname, search: a.location.search, state: a.location.state };
      if (at >= 0) {
        const tabs = s.tabs.slice();
        const entered = s.active !== a.page && !viaTab(a.location.state);
        const fresh = (tabs[at].fresh ?? 0) + (entered && tabs[at].mounted ? 1 : 0);
        tabs[at] = { ...tabs[at], ...where, used: clock, mounted: true, fresh };
        return { ...s, tabs, active: a.page, clock, seen: a.seen };
      }
      // A page opened again is no longer one to reopen.
      const next: TabsState = {
        ...s,
        tabs: [...s.tabs, { page: a.page, ...where, used: clock, mounted: true }],
        closed: s.closed.filter((c) => c.page !== a.page),
        active: a.page,
        clock,
        seen: a.seen,
      };
      return limitTabs(next, a.limit ?? MAX_TABS);
    }
    case 'leave':
      return { ...s, active: null, seen: a.seen };
    case 'close':
      return closeTabs(s, new Set([a.page]));
    // Every other tab, or those to the right: the chosen one is what remains next to them, so it is the
    // neighbour that takes the place of a closed active tab.
    case 'closeOthers':
      if (!s.tabs.some((t) => t.page === a.page)) return s;
      return closeTabs(s, new Set(s.tabs.filter((t) => t.page !== a.page).map((t) => t.page)));
    case 'closeRight': {
      const at = s.tabs.findIndex((t) => t.page === a.page);
      if (at < 0) return s;
      return closeTabs(s, new Set(s.tabs.slice(at + 1).map((t) => t.page)));
    }
    case 'reopen': {
      // The most recently closed tab whose page is not open again already.
      const closed = s.closed.filter((c) => !s.tabs.some((t) => t.page === c.page));
      const last = closed.pop();
      if (!last) return closed.length === s.closed.length ? s : { ...s, closed };
      const clock = s.clock + 1;
      const tabs = s.tabs.slice();
      const { index, ...where } = last;
      tabs.splice(Math.min(index, tabs.length), 0, { ...where, used: clock, mounted: false });
      return limitTabs({ ...s, tabs, closed, active: last.page, clock }, a.limit ?? MAX_TABS);
    }
    case 'move': {
      const from = s.tabs.findIndex((t) => t.page === a.page);
      const to = Math.max(0, Math.min(a.to, s.tabs.length - 1));
      if (from < 0 || from === to) return s;
      const tabs = s.tabs.slice();
      const [tab] = tabs.splice(from, 1);
      tabs.splice(to, 0, tab);
      return { ...s, tabs };
    }
  }
}

/** What the browser keeps of the tabs (no navigation state: it may not survive JSON). */
interface Stored {
  v: 1;
  tabs: { page: string; pathname: string; search: string; used: number }[];
  closed: { page: string; pathname: string; search: string; index: number }[];
}

export function serializeTabs(s: TabsState): string {
  const stored: Stored = {
    v: 1,
    tabs: s.tabs.map(({ page, pathname, search, used }) => ({ page, pathname, search, used })),
    closed: s.closed.map(({ page, pathname, search, index }) => ({ page, pathname, search, index })),
  };
  return JSON.stringify(stored);
}

const isEntry = (e: unknown): e is { page: string; pathname: string; search: string } =>
  !!e &&
  typeof e === 'object' &&
  typeof (e as { page?: unknown }).page === 'string' &&
  typeof (e as { pathname?: unknown }).pathname === 'string' &&
  typeof (e as { search?: unknown }).search === 'string' &&
  pageOfPath((e as { pathname: string }).pathname) === (e as { page: string }).page &&
  ((e as { search: string }).search === '' || (e as { search: string }).search.startsWith('?'));

/**
 * The tabs the browser kept, for an admin who may still open `allowed` pages: none of them shown yet
 * (each loads when first opened). Anything unreadable gives no tabs.
 */
export function restoreTabs(raw: string | null, allowed: (page: string) => boolean, limit = MAX_TABS): TabsState {
  const empty = emptyTabs();
  if (!raw) return empty;
  let stored: Partial<Stored>;
  try {
    stored = JSON.parse(raw) as Partial<Stored>;
  } catch {
    return empty;
  }
  if (!stored || stored.v !== 1 || !Array.isArray(stored.tabs)) return empty;
  const seen = new Set<string>();
  const tabs: Tab[] = [];
  for (const e of stored.tabs) {
    if (!isEntry(e) || seen.has(e.page) || !allowed(e.page)) continue;
    seen.add(e.page);
    tabs.push({ page: e.page, pathname: e.pathname, search: e.search, used: Number((e as { used?: unknown }).used) || 0, mounted: false });
  }
  // Past the limit (a smaller limit since), the most recently used stay, in their order.
  const keep = new Set([...tabs].sort((a, b) => b.used - a.used).slice(0, limit).map((t) => t.page));
  const kept = tabs.filter((t) => keep.has(t.page));
  const closed = (Array.isArray(stored.closed) ? stored.closed : [])
    .filter((e): e is ClosedTab => isEntry(e) && allowed(e.page) && Number.isInteger((e as { index?: unknown }).index))
    .map(({ page, pathname, search, index }) => ({ page, pathname, search, index: Math.max(0, index) }))
    .slice(-MAX_CLOSED);
  const clock = kept.reduce((m, t) => Math.max(m, t.used), 0);
  return { ...empty, tabs: kept, closed, clock };
}
