import { describe, expect, it } from 'vitest';
import { emptyTabs, isReopenShortcut, VIA_TAB, MAX_CLOSED, pageOfPath, restoreTabs, serializeTabs, tabsReducer, type TabsAction, type TabsState } from '../src/app/shell/tabs/model';

/** The tabs of open pages (app/shell/tabs/model.ts): what each gesture does to the bar, and what a reload gives back. */

let n = 0;
const visit = (page: string, search = '', limit?: number): TabsAction => ({
  type: 'visit',
  page,
  location: { pathname: `/customer/${page}`, search },
  seen: `k${++n}`,
  limit,
});
const run = (...actions: TabsAction[]) => actions.reduce(tabsReducer, emptyTabs());
const pages = (s: TabsState) => s.tabs.map((t) => t.page);

describe('tabs of open pages', () => {
  it('a page visited opens a tab once, at the end, and becomes the active one; a later address replaces its own', () => {
    const s = run(visit('a'), visit('b'), visit('c'), visit('a', '?phone=255712000111&page=2'));
    expect(pages(s)).toEqual(['a', 'b', 'c']);
    expect(s.active).toBe('a');
    expect(s.tabs[0]).toMatchObject({ pathname: '/customer/a', search: '?phone=255712000111&page=2', mounted: true });
    expect(s.tabs[2].search).toBe('');
  });

  it('a tab chosen in the bar keeps its screen; entered from elsewhere, its screen starts afresh; moving inside it does not', () => {
    const viaBar = (page: string): TabsAction => ({ type: 'visit', page, location: { pathname: `/customer/${page}`, search: '', state: { [VIA_TAB]: true } }, seen: `k${++n}` });
    const fresh = (s: TabsState, page: string) => s.tabs.find((t) => t.page === page)!.fresh ?? 0;
    const s = run(visit('a'), visit('b'), viaBar('a'));
    expect(fresh(s, 'a')).toBe(0);
    const fromMenu = tabsReducer(s, visit('b', '?phone=1'));
    expect(fresh(fromMenu, 'b')).toBe(1);
    // A filter changed inside the active tab keeps its screen.
    expect(fresh(tabsReducer(fromMenu, visit('b', '?phone=2')), 'b')).toBe(1);
  });

  it('an address that is no tab leaves the tabs as they are with none active', () => {
    const s = tabsReducer(run(visit('a'), visit('b')), { type: 'leave', seen: 'x' });
    expect(pages(s)).toEqual(['a', 'b']);
    expect(s.active).toBeNull();
  });

  it('closing the active tab shows its right neighbour, or its left one at the end; the last tab stays', () => {
    const s = run(visit('a'), visit('b'), visit('c'), visit('b'));
    const closedB = tabsReducer(s, { type: 'close', page: 'b' });
    expect(pages(closedB)).toEqual(['a', 'c']);
    expect(closedB.active).toBe('c');
    const closedC = tabsReducer(closedB, { type: 'close', page: 'c' });
    expect(closedC.active).toBe('a');
    // Another tab than the active one: the active one stays.
    const other = tabsReducer(s, { type: 'close', page: 'a' });
    expect(pages(other)).toEqual(['b', 'c']);
    expect(other.active).toBe('b');
    // The only tab left is not closed.
    expect(tabsReducer(closedC, { type: 'close', page: 'a' })).toBe(closedC);
  });

  it('close others keeps the chosen tab and shows it; close to the right keeps it and those on its left', () => {
    const s = run(visit('a'), visit('b'), visit('c'), visit('d'));
    const others = tabsReducer(s, { type: 'closeOthers', page: 'b' });
    expect(pages(others)).toEqual(['b']);
    expect(others.active).toBe('b');
    expect(others.closed.map((c) => c.page)).toEqual(['a', 'c', 'd']);

    const right = tabsReducer(s, { type: 'closeRight', page: 'b' });
    expect(pages(right)).toEqual(['a', 'b']);
    // The active tab (d) was to the right: the chosen one is shown.
    expect(right.active).toBe('b');
    const rightOfActive = tabsReducer(run(visit('a'), visit('b'), visit('c'), visit('a')), { type: 'closeRight', page: 'b' });
    expect(pages(rightOfActive)).toEqual(['a', 'b']);
    expect(rightOfActive.active).toBe('a');
    // Nothing to the right: nothing changes.
    expect(tabsReducer(s, { type: 'closeRight', page: 'd' })).toBe(s);
  });

  it('reopen brings back the last closed tab, at its place and address, then the one closed before', () => {
    let s = run(visit('a'), visit('b', '?state=2&page=3'), visit('c'));
    s = tabsReducer(s, { type: 'close', page: 'b' });
    s = tabsReducer(s, { type: 'close', page: 'c' });
    expect(pages(s)).toEqual(['a']);

    s = tabsReducer(s, { type: 'reopen' });
    expect(pages(s)).toEqual(['a', 'c']);
    expect(s.active).toBe('c');
    // Shown again, it loads anew (the router's visit marks it shown).
    expect(s.tabs[1].mounted).toBe(false);

    s = tabsReducer(s, { type: 'reopen' });
    expect(pages(s)).toEqual(['a', 'b', 'c']);
    expect(s.tabs[1]).toMatchObject({ page: 'b', search: '?state=2&page=3' });
    expect(s.active).toBe('b');
    // Nothing left to reopen.
    expect(tabsReducer(s, { type: 'reopen' })).toBe(s);
  });

  it('a closed page opened again from the menu is no longer offered to reopen', () => {
    let s = run(visit('a'), visit('b'), visit('c'));
    s = tabsReducer(s, { type: 'close', page: 'b' });
    s = tabsReducer(s, { type: 'close', page: 'c' });
    s = tabsReducer(s, visit('c'));
    expect(s.closed.map((c) => c.page)).toEqual(['b']);
    s = tabsReducer(s, { type: 'reopen' });
    expect(pages(s)).toEqual(['a', 'b', 'c']);
  });

  it('past the limit the tab unused the longest is closed first, never the active one, and can be reopened', () => {
    // a, b, c opened; a used again; d opens past a limit of 3: b (unused the longest) goes.
    let s = run(visit('a', '', 3), visit('b', '', 3), visit('c', '', 3), visit('a', '', 3), visit('d', '', 3));
    expect(pages(s)).toEqual(['a', 'c', 'd']);
    expect(s.active).toBe('d');
    expect(s.closed.map((c) => c.page)).toEqual(['b']);
    s = tabsReducer(s, visit('e', '', 3));
    expect(pages(s)).toEqual(['a', 'd', 'e']);
    // Reopening past the limit closes the oldest again.
    s = tabsReducer(s, { type: 'reopen', limit: 3 });
    expect(pages(s)).toHaveLength(3);
    expect(s.active).toBe('c');
    expect(pages(s)).toContain('c');
    expect(pages(s)).not.toContain('a');
  });

  it('the default limit is twelve tabs, and the closed stack is bounded', () => {
    let s = emptyTabs();
    for (let i = 0; i < 40; i++) s = tabsReducer(s, visit(`p${i}`));
    expect(s.tabs).toHaveLength(12);
    expect(pages(s)[0]).toBe('p28');
    expect(s.active).toBe('p39');
    expect(s.closed).toHaveLength(MAX_CLOSED);
    expect(s.closed.at(-1)!.page).toBe('p27');
  });

  it('a tab dragged moves to its new place; the active tab stays active', () => {
    const s = run(visit('a'), visit('b'), visit('c'), visit('d'));
    expect(pages(tabsReducer(s, { type: 'move', page: 'a', to: 2 }))).toEqual(['b', 'c', 'a', 'd']);
    expect(pages(tabsReducer(s, { type: 'move', page: 'd', to: 0 }))).toEqual(['d', 'a', 'b', 'c']);
    expect(pages(tabsReducer(s, { type: 'move', page: 'b', to: 99 }))).toEqual(['a', 'c', 'd', 'b']);
    expect(tabsReducer(s, { type: 'move', page: 'b', to: 1 })).toBe(s);
    expect(tabsReducer(s, { type: 'move', page: 'zz', to: 1 })).toBe(s);
    expect(tabsReducer(s, { type: 'move', page: 'a', to: 3 }).active).toBe('d');
  });

  it('a reload gives back the tabs, their order and addresses, and the closed ones, none loaded yet', () => {
    let s = run(visit('a'), visit('b', '?phone=0712'), visit('c'), visit('d'));
    s = tabsReducer(s, { type: 'move', page: 'c', to: 0 });
    s = tabsReducer(s, { type: 'close', page: 'd' });
    const back = restoreTabs(serializeTabs(s), () => true);
    expect(pages(back)).toEqual(['c', 'a', 'b']);
    expect(back.tabs[2]).toMatchObject({ pathname: '/customer/b', search: '?phone=0712', mounted: false });
    expect(back.active).toBeNull();
    expect(back.closed.map((c) => c.page)).toEqual(['d']);
    // The order of use survives too: the next page past the limit closes the oldest.
    const next = tabsReducer(back, visit('e', '', 3));
    expect(pages(next)).toEqual(['c', 'b', 'e']);
  });

  it('a reload drops pages the admin may no longer open and anything unreadable', () => {
    const s = run(visit('a'), visit('b'), visit('c'));
    expect(pages(restoreTabs(serializeTabs(s), (p) => p !== 'b'))).toEqual(['a', 'c']);
    for (const raw of [null, '', 'not json', '{}', '{"v":2,"tabs":[]}', 'null', '{"v":1,"tabs":"a"}']) expect(restoreTabs(raw, () => true).tabs).toEqual([]);
    // An entry whose address is not its page's, or with a strange query, is skipped.
    const odd = JSON.stringify({ v: 1, tabs: [{ page: 'a', pathname: '/customer/b', search: '' }, { page: 'c', pathname: '/customer/c', search: 'x' }, { page: 'd', pathname: '/customer/d', search: '?q=1' }], closed: [{ page: 'e' }] });
    const back = restoreTabs(odd, () => true);
    expect(pages(back)).toEqual(['d']);
    expect(back.closed).toEqual([]);
  });

  it('Ctrl+Shift+T (Cmd on a Mac) or Alt+Shift+T reopens; other chords do not', () => {
    const key = (mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>>, code = 'KeyT') => ({ ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, code, ...mods });
    expect(isReopenShortcut(key({ ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(isReopenShortcut(key({ metaKey: true, shiftKey: true }))).toBe(true);
    expect(isReopenShortcut(key({ altKey: true, shiftKey: true }))).toBe(true);
    expect(isReopenShortcut(key({ ctrlKey: true }))).toBe(false);
    expect(isReopenShortcut(key({ shiftKey: true }))).toBe(false);
    expect(isReopenShortcut(key({ ctrlKey: true, altKey: true, shiftKey: true }))).toBe(false);
    expect(isReopenShortcut(key({ ctrlKey: true, shiftKey: true }, 'KeyR'))).toBe(false);
  });

  it('the page of an address', () => {
    expect(pageOfPath('/customer/order_list')).toBe('order_list');
    expect(pageOfPath('/customer/order_detailed/x')).toBe('order_detailed');
    expect(pageOfPath('/customer')).toBe('');
    expect(pageOfPath('/admin_login')).toBe('');
  });
});
