import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import { flattenCatalogue, roleBody, rolePermissionsAnswer, rolePermissionsBody, roleRow as roleAnswer } from '@dau/contract';
import { LOG_TYPE } from '@dau/domain';
import { menuItems, roleMenus, roles } from '../../platform/schema.js';
import { heldKeys, menuIdsForKeys, roleKeys } from './admins-service.js';
import { authChanged, authOf, menuTree, type AuthContext } from '../../platform/access.js';
import { assertRoleHoldersInSubtree, assertRoleOwned, assertRoleVisible, visibleRolesCondition } from '../../platform/ownership.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import { pageQuery, pageOffset } from '../../platform/paging.js';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const CATALOGUE = flattenCatalogue();
const BY_KEY = new Map(CATALOGUE.map((e) => [e.key, e]));
const roleList = z.object({ items: z.array(roleAnswer), total: z.number(), page: z.number(), page_size: z.number() });
const roleOptions = z.object({ items: z.array(z.object({ id: z.number(), name: z.string() })) });

/** Fields that widen a data scope are the super admin's alone: a non-super sending one changes nothing. */
function assertScopeFieldsAllowed(auth: AuthContext, body: { serves_superior_branch?: boolean }) {
  if (!auth.isSuper && body.serves_superior_branch !== undefined) throw new AppError(403, 'SUPER_ADMIN_ONLY', {}, [{ field: 'serves_superior_branch' }]);
}

async function roleRow(ex: Executor, id: number) {
  const [r] = await ex
    .select({
      role: roles,
      admins: sql<number>`(select count(*)::int from admins a where a.role_id = "roles"."id")`,
      perms: sql<number>`(select count(*)::int from role_menus m where m.role_id = "roles"."id")`,
    })
    .from(roles)
    .where(eq(roles.id, id));
  if (!r) throw notFound();
  return toRoleRow(r);
}

function toRoleRow(r: { role: typeof roles.$inferSelect; admins: number; perms: number }) {
  return {
    id: r.role.id, name: r.role.name, remarks: r.role.remarks, is_super: r.role.isSuper, serves_superior_branch: r.role.servesSuperiorBranch, admins: Number(r.admins),
    permission_count: r.role.isSuper ? CATALOGUE.length : Number(r.perms),
    create_time: r.role.createdAt.toISOString(), update_time: r.role.updatedAt.toISOString(),
  };
}

/**
 * A permission set must be a well-formed tree: every key in the catalogue, a button's page and a page's
 * group present ("Node name cannot be empty" answers a blank or unknown node).
 */
export function closeOverParents(keys: string[]): Set<string> {
  const out = new Set<string>();
  for (const k of keys) {
    if (!k.trim()) throw badRequest('ROLE_NODE_NAME_EMPTY', [{ field: 'keys' }]);
    let e = BY_KEY.get(k);
    if (!e) throw badRequest('PARAM_INVALID', [{ field: 'keys', message: `unknown permission ${k}` }]);
    while (e) {
      out.add(e.key);
      e = e.parentKey ? BY_KEY.get(e.parentKey) : undefined;
    }
  }
  return out;
}

export function roleRoutes(app: FastifyInstance, { db, bus }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/v1/system/roles';
  const tags = ['role'];

  // A non-super admin lists the roles they own and the one they hold (platform/ownership.ts).
  r.get(base, {
    config: { access: { page: 'role' } },
    schema: { tags, summary: 'Roles the caller owns or holds (all for the super admin)', querystring: pageQuery.extend({ name: z.string().trim().max(64).optional() }), response: { 200: roleList } },
  }, async (req) => {
    const q = req.query;
    const where = and(visibleRolesCondition(authOf(req)), q.name ? ilike(roles.name, `%${q.name.replace(/[\\%_]/g, (m) => `\\${m}`)}%`) : undefined);
    const [rows, [{ n }]] = await Promise.all([
      db
        .select({
          role: roles,
          admins: sql<number>`(select count(*)::int from admins a where a.role_id = "roles"."id")`,
          perms: sql<number>`(select count(*)::int from role_menus m where m.role_id = "roles"."id")`,
        })
        .from(roles)
        .where(where)
        .orderBy(desc(roles.isSuper), roles.id)
        .limit(q.page_size)
        .offset(pageOffset(q)),
      db.select({ n: count() }).from(roles).where(where),
    ]);
    return { items: rows.map(toRoleRow), total: Number(n), page: q.page, page_size: q.page_size };
  });

  /** Roles the caller may assign: those they own or hold, whose every permission the caller holds. */
  r.get(`${base}/options`, { config: { access: { page: 'administrators' } }, schema: { tags, summary: 'Roles the caller may assign', response: { 200: roleOptions } } }, async (req) => {
    const auth = authOf(req);
    const all = await db.select({ id: roles.id, name: roles.name, isSuper: roles.isSuper }).from(roles).where(visibleRolesCondition(auth)).orderBy(roles.id);
    if (auth.isSuper) return { items: all.map(({ id, name }) => ({ id, name })) };
    const held = heldKeys(auth);
    // Every role's keys in one query (not one per role).
    const grants = await db
      .select({ roleId: roleMenus.roleId, key: menuItems.key })
      .from(roleMenus)
      .innerJoin(menuItems, eq(menuItems.id, roleMenus.menuId));
    const unheld = new Set(grants.filter((g) => !held.has(g.key)).map((g) => g.roleId));
    return { items: all.filter((role) => !role.isSuper && !unheld.has(role.id)).map(({ id, name }) => ({ id, name })) };
  });

  const nameOf = (body: { name: string }) => {
    if (!body.name.trim()) throw badRequest('ROLE_NAME_REQUIRED', [{ field: 'name' }]);
    return body.name.trim();
  };
  const assertFreeName = async (ex: Executor, name: string, exceptId?: number) => {
    const [dup] = await ex.select({ id: roles.id }).from(roles).where(sql`lower(${roles.name}) = lower(${name})`);
    if (dup && dup.id !== exceptId) throw new AppError(409, 'CONFLICT');
  };

  r.post(base, { config: { access: { page: 'role', button: 'create' } }, schema: { tags, summary: 'Create a role (owned by its creator\'s branch)', body: roleBody, response: { 201: roleAnswer } } }, async (req, reply) => {
    const auth = authOf(req);
    assertScopeFieldsAllowed(auth, req.body);
    const name = nameOf(req.body);
    const row = await db.transaction(async (tx) => {
      await assertFreeName(tx, name);
      const [created] = await tx.insert(roles).values({ name, remarks: req.body.remarks, servesSuperiorBranch: req.body.serves_superior_branch ?? false, createdBy: auth.admin.id }).returning({ id: roles.id });
      const after = await roleRow(tx, created.id);
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Created role "${name}"`, after });
      return after;
    });
    return reply.status(201).send(row);
  });

  r.put(`${base}/:id`, { config: { access: { page: 'role', button: 'edit' } }, schema: { tags, summary: 'Edit a role the caller owns', params: idParams, body: roleBody, response: { 200: roleAnswer } } }, async (req) => {
    const auth = authOf(req);
    const name = nameOf(req.body);
    return db.transaction(async (tx) => {
      await assertRoleOwned(tx, auth, req.params.id);
      // The name and remarks are what every holder's superior reads: a role given to an admin of another
      // branch is no longer only the editor's to rename (as for its permissions).
      await assertRoleHoldersInSubtree(tx, auth, req.params.id);
      assertScopeFieldsAllowed(auth, req.body);
      const before = await roleRow(tx, req.params.id);
      await assertFreeName(tx, name, req.params.id);
      await tx.update(roles).set({ name, remarks: req.body.remarks, ...(req.body.serves_superior_branch !== undefined ? { servesSuperiorBranch: req.body.serves_superior_branch } : {}), updatedAt: new Date() }).where(eq(roles.id, req.params.id));
      const after = await roleRow(tx, req.params.id);
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Edited role "${before.name}"`, before, after });
      return after;
    });
  });

  r.delete(`${base}/:id`, { config: { access: { page: 'role', button: 'delete' } }, schema: { tags, summary: 'Delete an unused role the caller owns', params: idParams, response: { 200: z.object({ ok: z.boolean() }) } } }, async (req) => {
    const auth = authOf(req);
    return db.transaction(async (tx) => {
      await assertRoleOwned(tx, auth, req.params.id);
      const before = await roleRow(tx, req.params.id);
      if (before.is_super) throw new AppError(409, 'ROLE_IN_USE');
      if (before.admins > 0) throw new AppError(409, 'ROLE_IN_USE');
      if (!auth.isSuper) {
        const { keys } = await roleKeys(tx, req.params.id);
        const held = heldKeys(auth);
        if ([...keys].some((k) => !held.has(k))) throw new AppError(403, 'CANNOT_GRANT_UNHELD');
      }
      await tx.delete(roles).where(eq(roles.id, req.params.id));
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Deleted role "${before.name}"`, before });
      return { ok: true };
    });
  });

  r.get(`${base}/:id/permissions`, {
    config: { access: { page: 'role' } },
    schema: { tags, summary: 'A role\'s permission keys and the tree the caller may grant from', params: idParams, response: { 200: rolePermissionsAnswer } },
  }, async (req) => {
    const auth = authOf(req);
    await assertRoleVisible(db, auth, req.params.id);
    const { keys } = await roleKeys(db, req.params.id);
    const tree = await menuTree(db, auth.isSuper ? 'all' : heldKeys(auth));
    return { keys: [...keys].sort(), tree };
  });

  r.put(`${base}/:id/permissions`, {
    config: { access: { page: 'role', button: 'permissions' } },
    schema: { tags, summary: 'Save the permissions of a role the caller owns, held only inside their subtree', params: idParams, body: rolePermissionsBody, response: { 200: z.object({ keys: z.array(z.string()) }) } },
  }, async (req) => {
    const auth = authOf(req);
    const wanted = closeOverParents(req.body.keys);
    const held = heldKeys(auth);
    return db.transaction(async (tx) => {
      const role = await roleRow(tx, req.params.id);
      if (role.is_super) throw new AppError(409, 'CONFLICT');
      await assertRoleOwned(tx, auth, role.id);
      // Changing the permissions changes what every holder may do: all of them must be the editor's.
      await assertRoleHoldersInSubtree(tx, auth, role.id);
      const { keys: before } = await roleKeys(tx, role.id);
      // Only what the caller holds can be granted or taken away; what they do not hold stays as it was.
      for (const k of wanted) if (!before.has(k) && !held.has(k)) throw new AppError(403, 'CANNOT_GRANT_UNHELD');
      const untouchable = [...before].filter((k) => !held.has(k));
      const finalKeys = [...new Set([...wanted, ...untouchable])];
      const ids = await menuIdsForKeys(tx, finalKeys);
      await tx.delete(roleMenus).where(eq(roleMenus.roleId, role.id));
      if (ids.length) await tx.insert(roleMenus).values(ids.map((menuId) => ({ roleId: role.id, menuId })));
      await tx.update(roles).set({ version: sql`${roles.version} + 1`, updatedAt: new Date() }).where(eq(roles.id, role.id));
      await authChanged(bus, { roleId: role.id });
      await writeAudit(tx, req, {
        type: LOG_TYPE.ordinary,
        content: `Saved the permissions of role "${role.name}" (${finalKeys.length})`,
        before: { keys: [...before].sort() },
        after: { keys: finalKeys.sort() },
      });
      return { keys: finalKeys };
    });
  });

}
