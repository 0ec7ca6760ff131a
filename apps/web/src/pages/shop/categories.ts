import { useQuery } from '@tanstack/react-query';
import { MALL_SHOW_STATUS } from '@dau/domain';
import type { MallCategoryNode } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { useAccess } from '../../kit/access';

/** The query key of the shown shop categories (spec §7: fetched at start with show_status=1). */
export const MALL_CATEGORIES_KEY = ['mall-categories', 'shown'] as const;

/**
 * The shown shop categories, fetched once after sign-in by the shell (spec §7) for an admin holding a
 * shop page, and kept in the query cache for the product form's category picker (five minutes, and
 * refreshed whenever a category is saved).
 */
export function useShownCategories() {
  const { can } = useAccess();
  return useQuery({
    queryKey: MALL_CATEGORIES_KEY,
    queryFn: async () => (await api.get<{ items: MallCategoryNode[] }>('/shop/categories/all', { show_status: MALL_SHOW_STATUS.shown })).items,
    enabled: can('mall_product_list') || can('mall_category_list'),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export interface CategoryTreeNode {
  value: number;
  title: string;
  children?: CategoryTreeNode[];
}

/** Flat nodes into a tree (a node whose superior is not in the list is a root), larger sort first. */
export function toTree(nodes: readonly MallCategoryNode[]): CategoryTreeNode[] {
  const byParent = new Map<number | null, MallCategoryNode[]>();
  const ids = new Set(nodes.map((n) => n.id));
  for (const n of nodes) {
    const p = n.parent_id !== null && ids.has(n.parent_id) ? n.parent_id : null;
    byParent.set(p, [...(byParent.get(p) ?? []), n]);
  }
  const seen = new Set<number>();
  const build = (parent: number | null): CategoryTreeNode[] =>
    (byParent.get(parent) ?? [])
      .filter((n) => !seen.has(n.id) && seen.add(n.id))
      .map((n) => {
        const children = build(n.id);
        return { value: n.id, title: n.title, ...(children.length ? { children } : {}) };
      });
  return build(null);
}

/**
 * The superiors a category may be given: every category but itself and those below it (a descendant
 * would make a cycle, which the server refuses too). A new category (`id` undefined) may go anywhere.
 */
export function parentChoices(nodes: readonly MallCategoryNode[], id: number | undefined): CategoryTreeNode[] {
  if (id === undefined) return toTree(nodes);
  const below = new Set<number>([id]);
  // Grow the subtree until no node joins (a bounded walk over a list that may hold a stale cycle).
  for (let grew = true; grew; ) {
    grew = false;
    for (const n of nodes) if (n.parent_id !== null && below.has(n.parent_id) && !below.has(n.id)) grew = !!below.add(n.id);
  }
  return toTree(nodes.filter((n) => !below.has(n.id)));
}

/** A category's path of titles ("Sportswear / Jerseys"), or its id when unknown. */
export function categoryPath(nodes: readonly MallCategoryNode[] | undefined, id: unknown): string {
  if (id === null || id === undefined || id === '') return '-';
  const byId = new Map((nodes ?? []).map((n) => [n.id, n]));
  const names: string[] = [];
  let cur = byId.get(Number(id));
  while (cur && names.length < 16) {
    names.unshift(cur.title);
    cur = cur.parent_id !== null ? byId.get(cur.parent_id) : undefined;
  }
  return names.length ? names.join(' / ') : `#${String(id)}`;
}
