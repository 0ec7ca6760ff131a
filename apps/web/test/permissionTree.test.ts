import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MenuNode } from '@dau/contract';
import { display, indexTree, toggle } from '../src/pages/system/permissionTree';

const node = (key: string, children: MenuNode[] = [], type = 1): MenuNode => ({
  id: 0, key, name: key, language_variables: key, path: key, type, platform: 1, show_headshot: 1, hidden: false,
  icon: null, sort: 0, children_number: 0, children,
});
const TREE = [
  node('system', [node('ip_black', [node('ip_black:create', [], 2), node('ip_black:delete', [], 2)]), node('log', [node('log:export', [], 2)])]),
  node('users', [node('user', [node('user:edit_balance', [], 2)])]),
];
const index = indexTree(TREE);

describe('permission tree editing', () => {
  it('ticking a button holds its page and group', () => {
    const held = toggle(new Set(), index, 'ip_black:create', true);
    expect([...held].sort()).toEqual(['ip_black', 'ip_black:create', 'system']);
    expect(display(held, index)).toEqual({ checked: ['ip_black:create'], halfChecked: ['system', 'ip_black'] });
  });

  it('a page can be held without its buttons (read-only) and shows half-ticked', () => {
    const held = toggle(toggle(new Set(), index, 'log', true), index, 'log:export', false);
    expect(held.has('log')).toBe(true);
    expect(held.has('log:export')).toBe(false);
    expect(display(held, index).halfChecked).toContain('log');
  });

  it('unticking a page drops its buttons; a group left empty is dropped', () => {
    const held = toggle(toggle(new Set(), index, 'user', true), index, 'user', false);
    expect([...held]).toEqual([]);
  });

  it('any sequence of toggles keeps the set closed: a held node always has its parent held', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...index.all), fc.boolean()), { maxLength: 30 }), (ops) => {
        let held = new Set<string>();
        for (const [k, on] of ops) held = toggle(held, index, k, on);
        for (const k of held) {
          const p = index.parent.get(k);
          if (p) expect(held.has(p)).toBe(true);
        }
        const { checked, halfChecked } = display(held, index);
        expect(new Set([...checked, ...halfChecked])).toEqual(held);
      }),
    );
  });
});
