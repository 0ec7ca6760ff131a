import { and, eq, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import { admins, menuItems, roleMenus, roles } from '../../platform/schema.js';
import type { AuthContext } from '../../platform/access.js';
import { belowCondition, subtreeCondition } from '../../platform/ownership.js';
import type { Executor } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { flattenCatalogue } from '@dau/contract';
import type { MenuNode } from '@dau/contract';

export async function assertInSubtree(ex: Executor, auth: AuthContext, adminId: number, opts: { allowSelf?: boolean } = {}) {
  const cond = opts.allowSelf ? subtreeCondition(auth) : belowCondition(auth);
  const rows = await ex.select({ id: admins.id }).from(admins).where(and(eq(admins.id, adminId), cond)).limit(1);
  if (!rows.length) {
    const exists = await ex.select({ id: admins.id }).from(admins).where(eq(admins.id, adminId)).limit(1);
    if (!exists.length) throw new AppError(404, 'NOT_FOUND');
    throw new AppError(403, 'OUT_OF_SCOPE');
  }
}

/** The keys a role holds; the super role holds the whole catalogue. */
export async function roleKeys(ex: Executor, roleId: number): Promise<{ isSuper: boolean; keys: Set<string> }> {
  const [role] = await ex.select({ isSuper: roles.isSuper }).from(roles).where(eq(roles.id, roleId));
  if (!role) throw new AppError(404, 'NOT_FOUND');
  if (role.isSuper) return { isSuper: true, keys: new Set(flattenCatalogue().map((e) => e.key)) };
  const rows = await ex
    .select({ key: menuItems.key })
    .from(roleMenus)
    .innerJoin(menuItems, eq(menuItems.id, roleMenus.menuId))
    .where(eq(roleMenus.roleId, roleId));
  return { isSuper: false, keys: new Set(rows.map((r) => r.key)) };
}

/** What the signed-in admin holds (their grantable set). */
export function heldKeys(auth: AuthContext): Set<string> {
  return auth.isSuper ? new Set(flattenCatalogue().map((e) => e.key)) : new Set(auth.permissions);
}

/** Builds the menu tree (spec §3 Menu item) of the items whose keys are given; `pages`: route permissions (type 1) only. */
export async function menuTree(ex: Executor, keys: Set<string> | 'all', nodes: 'pages' | 'pages and buttons' = 'pages and buttons'): Promise<MenuNode[]> {
  const rows = await ex.select().from(menuItems).orderBy(sql`${menuItems.sort} desc`, menuItems.id);
  const allowed = rows.filter((r) => (keys === 'all' || keys.has(r.key)) && (nodes === 'pages and buttons' || r.type === 1));
  const byId = new Map<number, MenuNode>();
  for (const r of allowed) {
    byId.set(r.id, {
      id: r.id, key: r.key, name: r.name, language_variables: r.languageVariables, path: r.path, type: r.type,
      platform: r.platform, show_headshot: r.showHeadshot, hidden: r.hidden, icon: r.icon, sort: r.sort,
      children_number: 0, children: [],
    });
  }
  const roots: MenuNode[] = [];
  for (const r of allowed) {
    const node = byId.get(r.id)!;
    const parent = r.parentId ? byId.get(r.parentId) : undefined;
    if (parent) {
      parent.children.push(node);
      if (node.type === 1 && node.platform === 1) parent.children_number += 1;
    } else if (!r.parentId) roots.push(node);
  }
  // A group with no page left is not a menu entry.
  return roots.filter((g) => g.children.length > 0);
}

/** Grants hold only for keys in the catalogue; a button needs its page. */
export async function menuIdsForKeys(ex: Executor, keys: string[]): Promise<number[]> {
  if (!keys.length) return [];
  const rows = await ex.select({ id: menuItems.id }).from(menuItems).where(inArray(menuItems.key, keys));
  return rows.map((r) => r.id);
}
