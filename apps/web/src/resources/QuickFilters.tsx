import type { ReactNode } from 'react';
import { Segmented } from 'antd';
import type { ListState } from './useListState';

export interface QuickFilter {
  key: string;
  label: ReactNode;
  /** The filter values this view sets; the keys other views set and this one does not are cleared. */
  filters: Readonly<Record<string, string | undefined>>;
}

/**
 * One-click views of a list (e.g. "Pending review", "Stuck"): each sets a few filters and keeps the
 * others. The view whose values the URL holds is shown selected; none is when the filters differ.
 */
export function QuickFilters({ views, list }: { views: readonly QuickFilter[]; list: ListState }) {
  const controlled = [...new Set(views.flatMap((v) => Object.keys(v.filters)))];
  const active = views.find((v) => controlled.every((k) => (list.filters[k] ?? '') === (v.filters[k] ?? '')));
  const select = (key: string) => {
    const view = views.find((v) => v.key === key);
    if (!view) return;
    const next: Record<string, string | undefined> = { ...list.filters };
    for (const k of controlled) next[k] = view.filters[k];
    list.setFilters(next);
  };
  // On a narrow screen the views scroll sideways inside their row: the page itself never gets wider.
  return (
    <div style={{ maxWidth: 'calc(100vw - 48px)', overflowX: 'auto', overflowY: 'hidden' }}>
      <Segmented
        value={active?.key ?? ''}
        onChange={(v) => select(String(v))}
        options={views.map((v) => ({ value: v.key, label: <span data-testid={`quick-${v.key}`}>{v.label}</span> }))}
        data-testid="resource-quick-filters"
      />
    </div>
  );
}
