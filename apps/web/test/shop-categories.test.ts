import { describe, expect, it } from 'vitest';
import type { MallCategoryNode } from '@dau/contract/ui';
import { parentChoices, type CategoryTreeNode } from '../src/pages/shop/categories';

const node = (id: number, parent_id: number | null, title: string): MallCategoryNode => ({ id, parent_id, title, icon: null, language: 'en-US', show_status: 1, sort: 0 });
/** Sport › Jerseys › Home kits, Sport › Balls; Books. */
const NODES = [node(1, null, 'Sport'), node(2, 1, 'Jerseys'), node(3, 2, 'Home kits'), node(4, 1, 'Balls'), node(5, null, 'Books')];
const ids = (tree: CategoryTreeNode[]): number[] => tree.flatMap((n) => [n.value, ...ids(n.children ?? [])]);

/** A category's superior is picked among the categories that are neither itself nor below it (no cycle). */
describe('shop category parent choices', () => {
  it('leaves out the category and every descendant, not only itself', () => {
    expect(ids(parentChoices(NODES, 1)).sort()).toEqual([5]);
    expect(ids(parentChoices(NODES, 2)).sort()).toEqual([1, 4, 5]);
    // A descendant does not come back as a root of its own.
    expect(parentChoices(NODES, 2).map((n) => n.value)).toEqual([1, 5]);
  });

  it('offers every category to a new one', () => {
    expect(ids(parentChoices(NODES, undefined)).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
