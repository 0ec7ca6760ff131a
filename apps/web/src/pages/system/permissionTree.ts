import type { MenuNode } from '@dau/contract';

/**
 * The permission editor's model. A role holds a set of keys: groups, pages and `page:button` buttons.
 * A page may be held without all (or any) of its buttons: that is read-only access. So the tree is
 * edited with independent checkboxes and these rules:
 *  - checking a node holds it, all below it, and every node above it (a button needs its page);
 *  - unchecking a node drops it and all below it; a group left with nothing held is dropped too;
 *  - a held node with something below it not held shows half-checked.
 */
export interface TreeIndex {
  parent: Map<string, string | null>;
  children: Map<string, string[]>;
  all: string[];
}

export function indexTree(tree: readonly MenuNode[]): TreeIndex {
  const parent = new Map<string, string | null>();
  const children = new Map<string, string[]>();
  const all: string[] = [];
  const walk = (nodes: readonly MenuNode[], up: string | null) => {
    for (const n of nodes) {
      parent.set(n.key, up);
      children.set(n.key, n.children.map((c) => c.key));
      all.push(n.key);
      walk(n.children, n.key);
    }
  };
  walk(tree, null);
  return { parent, children, all };
}

function below(index: TreeIndex, key: string): string[] {
  const out: string[] = [];
  const stack = [...(index.children.get(key) ?? [])];
  while (stack.length) {
    const k = stack.pop()!;
    out.push(k);
    stack.push(...(index.children.get(k) ?? []));
  }
  return out;
}

function above(index: TreeIndex, key: string): string[] {
  const out: string[] = [];
  for (let p = index.parent.get(key) ?? null; p !== null; p = index.parent.get(p) ?? null) out.push(p);
  return out;
}

export function toggle(held: ReadonlySet<string>, index: TreeIndex, key: string, checked: boolean): Set<string> {
  const next = new Set(held);
  if (checked) {
    for (const k of [key, ...below(index, key), ...above(index, key)]) next.add(k);
    return next;
  }
  for (const k of [key, ...below(index, key)]) next.delete(k);
  for (const k of above(index, key)) {
    const isGroup = index.parent.get(k) === null;
    if (isGroup && !(index.children.get(k) ?? []).some((c) => next.has(c))) next.delete(k);
  }
  return next;
}

/** What the tree shows: fully held nodes checked, partly held ones half-checked. */
export function display(held: ReadonlySet<string>, index: TreeIndex): { checked: string[]; halfChecked: string[] } {
  const checked: string[] = [];
  const halfChecked: string[] = [];
  for (const k of index.all) {
    if (!held.has(k)) continue;
    if (below(index, k).every((d) => held.has(d))) checked.push(k);
    else halfChecked.push(k);
  }
  return { checked, halfChecked };
}
