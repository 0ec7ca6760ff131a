import { and, eq, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import { admins, menuItems, roleMenus, roles } from '../../platform/schema.js';
import type { AuthContext } from '../../platform/access.js';
import { belowCondition, subtreeCondition } from '../../platform/ownership.js';
import type { Executor } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { flattenCatalogue } from '@dau/contract';

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

/** Grants hold only for keys in the catalogue; a button needs its page. */
export async function menuIdsForKeys(ex: Executor, keys: string[]): Promise<number[]> {
  if (!keys.length) return [];
  const rows = await ex.select({ id: menuItems.id }).from(menuItems).where(inArray(menuItems.key, keys));
  return rows.map((r) => r.id);
}
