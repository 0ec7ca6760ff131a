import { and, eq, inArray, isNotNull, like, ne, not, or, sql, type SQL } from 'drizzle-orm';
import { admins, roles } from './schema.js';
import type { AuthContext } from './access.js';
import type { Executor } from './db.js';
import { AppError, notFound } from './errors.js';

/**
 * The data scope of an admin over bettors and their money: the agents (admins) of their own subtree.
 * 'all' for the super administrator role.
 */
export type Scope = { all: true } | { all: false; agentIds: number[] };

/**
 * Ownership: which admins, roles and bettors an admin may act on (the page and button gate says which ACTIONS
 * they may take; these rules say ON WHAT). Every route that takes the id of such an object loads it
 * through one of these and answers 404 when it does not exist, 403 when it lies outside the caller's reach.
 * Bettors are loaded with the money module's `scopedBettor`, which checks `agentInScope`.
 */

/**
 * The branch rule: an admin sees and manages their own subtree of admins (the materialised `path` is a
 * prefix); the super administrator role sees everyone.
 */
export function subtreeCondition(auth: AuthContext): SQL | undefined {
  if (auth.isSuper) return undefined;
  const prefix = `${auth.admin.path}${auth.admin.id}/`;
  return or(eq(admins.id, auth.admin.id), like(admins.path, `${prefix}%`));
}

/** Strictly below the admin (what they may manage: not themselves). */
export function belowCondition(auth: AuthContext): SQL | undefined {
  if (auth.isSuper) return undefined;
  return like(admins.path, `${auth.admin.path}${auth.admin.id}/%`);
}

/**
 * Roles: the super admin owns every role. Any other admin owns the roles created by themselves or by an
 * admin of their subtree, never their own role, the super role or a seeded role (created by no one).
 */
export function ownedRolesCondition(auth: AuthContext): SQL | undefined {
  if (auth.isSuper) return undefined;
  return and(
    not(roles.isSuper),
    isNotNull(roles.createdBy),
    ne(roles.id, auth.admin.roleId),
    inArray(roles.createdBy, sql`(select ${admins.id} from ${admins} where ${subtreeCondition(auth)})`),
  );
}

/** The roles an admin sees (list, options, permission tree): those they own, and the one they hold. */
export function visibleRolesCondition(auth: AuthContext): SQL | undefined {
  if (auth.isSuper) return undefined;
  return or(eq(roles.id, auth.admin.roleId), ownedRolesCondition(auth));
}

async function assertRoleIn(ex: Executor, roleId: number, cond: SQL | undefined) {
  const [row] = await ex.select({ id: roles.id, ok: cond ? sql<boolean>`coalesce(${cond}, false)` : sql<boolean>`true` }).from(roles).where(eq(roles.id, roleId));
  if (!row) throw notFound();
  return row.ok;
}

/** A role the caller may edit, delete or change the permissions of. */
export async function assertRoleOwned(ex: Executor, auth: AuthContext, roleId: number) {
  if (!(await assertRoleIn(ex, roleId, ownedRolesCondition(auth)))) throw new AppError(403, 'ROLE_NOT_OWNED');
}

/** A role the caller may read (its permission tree). */
export async function assertRoleVisible(ex: Executor, auth: AuthContext, roleId: number) {
  if (!(await assertRoleIn(ex, roleId, visibleRolesCondition(auth)))) throw new AppError(403, 'ROLE_NOT_OWNED');
}

/**
 * A role's permissions are changed only when every admin holding it is inside the editor's subtree:
 * otherwise the edit would change what admins of another branch may do.
 */
export async function assertRoleHoldersInSubtree(ex: Executor, auth: AuthContext, roleId: number) {
  if (auth.isSuper) return;
  const outside = await ex
    .select({ id: admins.id })
    .from(admins)
    .where(and(eq(admins.roleId, roleId), not(subtreeCondition(auth) ?? sql`true`)))
    .limit(1);
  if (outside.length) throw new AppError(403, 'ROLE_HELD_OUTSIDE_BRANCH');
}

/** Whether an agent (the owner of bettors and their money) lies in a data scope. */
export function agentInScope(scope: Scope, agentId: number): boolean {
  return scope.all || scope.agentIds.includes(agentId);
}
