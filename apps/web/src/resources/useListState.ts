import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { FieldDef, ResourceDef } from '@dau/contract';
import type { MessageCode } from '@dau/domain';

export const DEFAULT_PAGE_SIZE = 20;
export const PAGE_SIZES = [10, 20, 50, 100, 200];

/** The query keys a field filters by: `key`, or `key_from` and `key_to` for a range. */
export const filterKeysOf = (f: FieldDef): string[] => (f.search === 'range' ? [`${f.key}_from`, `${f.key}_to`] : f.search ? [f.key] : []);

export type Filters = Record<string, string>;

export interface ListState {
  /** Filter values as they are in the URL (and sent to the server). */
  filters: Filters;
  page: number;
  pageSize: number;
  /** `field` or `-field`; the declaration's default when the URL has none. */
  sort?: string;
  /** What the list call sends: filters, page, page_size, sort. */
  query: Record<string, string | number>;
  /** What an export sends: the filters and the sort, no paging. */
  exportQuery: Record<string, string>;
  setFilters(values: Record<string, string | undefined>): void;
  setPage(page: number, pageSize?: number): void;
  setSort(sort: string | undefined): void;
  reset(): void;
}

/**
 * List state in the URL query (filters, sort, page, page size), so a link reproduces a view and the
 * back button walks through the searches. Each change pushes a history entry.
 */
export function useListState(fields: readonly FieldDef[], defaultSort?: string): ListState {
  const [params, setParams] = useSearchParams();
  const keys = useMemo(() => fields.flatMap(filterKeysOf), [fields]);
  const raw = params.toString();

  const state = useMemo(() => {
    const filters: Filters = {};
    for (const k of keys) {
      const v = params.get(k);
      if (v !== null && v !== '') filters[k] = v;
    }
    const page = Math.max(1, Number(params.get('page')) || 1);
    const sizeParam = Number(params.get('page_size'));
    const pageSize = PAGE_SIZES.includes(sizeParam) ? sizeParam : DEFAULT_PAGE_SIZE;
    const sort = params.get('sort') || defaultSort;
    const exportQuery: Record<string, string> = { ...filters, ...(sort ? { sort } : {}) };
    return { filters, page, pageSize, sort, exportQuery, query: { ...exportQuery, page, page_size: pageSize } };
    // `raw` stands for `params`: the object changes identity on every render of the router.
  }, [raw, keys, defaultSort]);

  const update = useCallback(
    (change: (next: URLSearchParams) => void) => {
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        change(next);
        return next;
      });
    },
    [setParams],
  );

  const setFilters = useCallback(
    (values: Record<string, string | undefined>) =>
      update((next) => {
        for (const k of keys) {
          const v = values[k];
          if (v === undefined || v === '') next.delete(k);
          else next.set(k, v);
        }
        next.delete('page');
      }),
    [keys, update],
  );
  const setPage = useCallback(
    (page: number, pageSize?: number) =>
      update((next) => {
        if (pageSize && pageSize !== state.pageSize) {
          next.set('page_size', String(pageSize));
          next.delete('page');
        } else if (page > 1) next.set('page', String(page));
        else next.delete('page');
      }),
    [update, state.pageSize],
  );
  const setSort = useCallback(
    (sort: string | undefined) =>
      update((next) => {
        if (sort) next.set('sort', sort);
        else next.delete('sort');
        next.delete('page');
      }),
    [update],
  );
  const reset = useCallback(
    () =>
      update((next) => {
        for (const k of [...keys, 'sort', 'page']) next.delete(k);
      }),
    [keys, update],
  );

  return { ...state, setFilters, setPage, setSort, reset };
}

/**
 * What a query screen still needs before it may ask the server (`requiredFilters` of the declaration):
 * the message to show, or null when one of the filters has a value (or the screen requires none).
 */
export function unmetRequirement(def: Pick<ResourceDef, 'requiredFilters'>, filters: Filters): MessageCode | null {
  const req = def.requiredFilters;
  if (!req) return null;
  return req.anyOf.some((k) => (filters[k] ?? '').trim() !== '') ? null : req.message;
}
