import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * `rowSelection.columnTitle` for antd tables with a selection column. To measure column widths (fixed
 * columns, horizontal scroll) antd draws every column title a second time in a hidden row,
 * `tr.ant-table-measure-row[aria-hidden=true]`, so the select-all checkbox has a focusable copy that
 * screen readers are told does not exist (axe: aria-hidden-focus). The copy in that row is made inert
 * (neither focusable nor clickable); the real one in the header is left as it is.
 */
export function selectionTitle(checkbox: ReactNode): ReactNode {
  return <InertInMeasureRow>{checkbox}</InertInMeasureRow>;
}

function InertInMeasureRow({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el?.closest('.ant-table-measure-row')) el.inert = true;
  }, []);
  return <span ref={ref}>{children}</span>;
}

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/**
 * Table regions that scroll (a wide table in a drawer) can be scrolled from the keyboard (WCAG 2.1.1; axe
 * scrollable-region-focusable): a scrolling `.ant-table-content`/`.ant-table-body` with nothing focusable
 * inside becomes a tab stop, where the arrow keys scroll it. antd gives no prop for that element, so the
 * console looks for such regions after each change of the page (at most once a frame) and on resize.
 */
export function useFocusableScrollRegions() {
  useEffect(() => {
    let frame = 0;
    const scan = () => {
      frame = 0;
      for (const el of document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body')) {
        const scrolls = el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight;
        if (el.dataset.dauScrollRegion) {
          if (!scrolls) {
            el.removeAttribute('tabindex');
            delete el.dataset.dauScrollRegion;
          }
        } else if (scrolls && !el.querySelector(FOCUSABLE)) {
          el.tabIndex = 0;
          el.dataset.dauScrollRegion = '1';
        }
      }
    };
    const later = () => {
      if (!frame) frame = requestAnimationFrame(scan);
    };
    const observer = new MutationObserver(later);
    observer.observe(document.body, { childList: true, subtree: true });
    window.addEventListener('resize', later);
    later();
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', later);
      cancelAnimationFrame(frame);
    };
  }, []);
}

const reducedMotion = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;

/**
 * Whether the operator's system asks for less motion (WCAG 2.3.3), followed when it changes. The theme then
 * turns antd's fades and slides off, charts draw without animating, and global.css stops every looping
 * animation (status dots, spinners, skeletons).
 */
export function useReducedMotion(): boolean {
  const query = reducedMotion;
  const [reduced, setReduced] = useState(() => query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const follow = () => setReduced(query.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [query]);
  return reduced;
}
