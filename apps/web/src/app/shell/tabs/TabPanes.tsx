import { Activity, memo, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { Route, Routes, useLocation } from 'react-router';
import { ConfigProvider } from 'antd';
import { ScreenRoute } from '../ScreenRoute';
import type { Tab } from './model';

/**
 * The screens of the open tabs, each kept alive while the operator is on another tab: its filters, list
 * page, typed text, open drawer and scroll are there on coming back.
 *
 * - Each screen renders inside `<Routes location>`: a hidden screen still reads its own address (its
 *   `useSearchParams`, `useParams`), while the active one follows the address bar.
 * - A hidden screen is an `<Activity mode="hidden">`: its state stays, its effects are stopped (no polling,
 *   no live subscription, nothing that could move the address bar), and they start again when shown.
 * - Each screen lives in a DOM node of its own, portalled into; only the active tab's node is in the
 *   document, so the page holds one screen's elements (and its test ids) at a time. The screen's popups,
 *   drawers and dialogs are put in that node too (`getPopupContainer`), so a drawer left open on a tab goes
 *   away with it and comes back with it.
 * - The window's scroll is remembered per tab and given back when the tab is shown again.
 */
export function TabPanes({ tabs, active }: { tabs: readonly Tab[]; active: string | null }) {
  const location = useLocation();
  const nodes = useRef(new Map<string, HTMLDivElement>());
  const scrolls = useRef(new Map<string, number>());
  const shown = useRef<string | null>(null);

  const nodeOf = (page: string) => {
    let node = nodes.current.get(page);
    if (!node) {
      node = document.createElement('div');
      node.className = 'dau-tab-pane';
      node.dataset.tab = page;
      nodes.current.set(page, node);
    }
    return node;
  };
  const mounted = tabs.filter((t) => t.mounted);
  const activeNode = active && mounted.some((t) => t.page === active) ? nodeOf(active) : null;

  // The active tab's node goes into the page from the host's ref, which React attaches before the layout
  // effects of the screens that follow it (a screen shown again measures itself in the page, not detached).
  const attach = useCallback(
    (el: HTMLDivElement | null) => {
      if (el && el.firstChild !== activeNode) el.replaceChildren(...(activeNode ? [activeNode] : []));
    },
    [activeNode],
  );
  // Then its scroll comes back (after the screens' own layout effects).
  useLayoutEffect(() => {
    shown.current = activeNode ? active : null;
    window.scrollTo(0, (active && scrolls.current.get(active)) || 0);
  }, [activeNode, active]);

  // Forget the nodes and scroll of closed tabs.
  useEffect(() => {
    const open = new Set(tabs.map((t) => t.page));
    for (const page of [...nodes.current.keys()]) {
      if (!open.has(page)) {
        nodes.current.delete(page);
        scrolls.current.delete(page);
      }
    }
  }, [tabs]);

  useEffect(() => {
    const onScroll = () => {
      if (shown.current) scrolls.current.set(shown.current, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <>
      <div ref={attach} data-testid="tab-panes" />
      {mounted.map((tab) => {
        const current = tab.page === active;
        // The active tab reads the address bar itself; a hidden one the address it was left at.
        const here = current && tab.pathname === location.pathname && tab.search === location.search;
        return createPortal(
          <TabPane
            node={nodeOf(tab.page)}
            visible={current}
            pathname={tab.pathname}
            search={tab.search}
            state={here ? location.state : tab.state}
            locationKey={here ? location.key : `tab:${tab.page}`}
          />,
          nodeOf(tab.page),
          // A tab entered from elsewhere than the tab bar starts its screen afresh (model.ts `fresh`).
          `${tab.page}:${tab.fresh ?? 0}`,
        );
      })}
    </>
  );
}

interface PaneProps {
  node: HTMLDivElement;
  visible: boolean;
  pathname: string;
  search: string;
  state: unknown;
  locationKey: string;
}

/** One tab's screen (memoised: a hidden tab does not render again when the operator navigates elsewhere). */
const TabPane = memo(function TabPane({ node, visible, pathname, search, state, locationKey }: PaneProps) {
  return (
    <Activity mode={visible ? 'visible' : 'hidden'}>
      <ConfigProvider getPopupContainer={() => node}>
        <Routes location={{ pathname, search, hash: '', state, key: locationKey }}>
          <Route path=":page/*" element={<ScreenRoute />} />
        </Routes>
      </ConfigProvider>
    </Activity>
  );
});
