/**
 * Search everywhere's answer (GET /api/v1/search, apps/server/src/modules/search) and what the dialog
 * does with it: the results in the order they are shown (group by group), moving the highlight, and the
 * console route a result opens.
 */
import type { SearchAnswer, SearchItem } from '@dau/contract/ui';
export { SEARCH_KINDS, SEARCH_MAX, type SearchAnswer, type SearchItem, type SearchKind } from '@dau/contract/ui';

/** Typing settles for this long before a query is sent. */
export const DEBOUNCE_MS = 250;

/** The groups that found something, and every result in display order. */
export function shown(answer: SearchAnswer | undefined) {
  const groups = (answer?.groups ?? []).filter((g) => g.items.length > 0);
  return { groups, items: groups.flatMap((g) => g.items) };
}

/** The highlight moved by the arrow keys: it wraps around, and stays at 0 with nothing to move over. */
export function moved(active: number, count: number, step: 1 | -1): number {
  if (count <= 0) return 0;
  return (active + step + count) % count;
}

/** The console route that opens a result: its page with the query the page reads (`open` opens a list's drawer). */
export function routeOf(item: Pick<SearchItem, 'page' | 'params'>): string {
  const query = new URLSearchParams(item.params).toString();
  return `/customer/${item.page}${query ? `?${query}` : ''}`;
}

export const optionId = (item: Pick<SearchItem, 'kind' | 'id'>) => `search-option-${item.kind}-${item.id}`;
