import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import {
  SAVED_FILTER_QUERY_MAX,
  SAVED_FILTERS_PER_PAGE,
  idParams,
  pageExists,
  savedFilterBody,
  savedFilterDefaultBody,
  savedFilterListQuery,
  savedFilterRow,
  savedFiltersAnswer,
  savedFilterUpdateBody,
} from '@dau/contract';
import { LOG_TYPE } from '@dau/domain';
import { admins, roles } from '../../platform/schema.js';
import { authOf, type AuthContext } from '../../platform/access.js';
import { visibleRolesCondition } from '../../platform/ownership.js';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { savedFilters } from './schema.js';

type Row = z.infer<typeof savedFilterRow>;

/**
 * A list's page (the catalogue path) the caller may use saved filters on: a page of the catalogue that
 * they may open. An unknown page is bad input (400); a page they may not open, a refusal (403).
 */
function assertPage(auth: AuthContext, page: string) {
  if (!pageExists(page)) throw badRequest('PARAM_INVALID', [{ field: 'page', message: 'not a page of the catalogue' }]);
  if (!auth.can(page)) throw forbidden();
}

/** The list's URL query as stored: no leading `?`, no page number (a saved view starts on its first page). */
function normaliseQuery(raw: string): string {
  const params = new URLSearchParams(raw.startsWith('?') ? raw.slice(1) : raw);
  params.delete('page');
  const out = params.toString();
  if (out.length > SAVED_FILTER_QUERY_MAX) throw badRequest('PARAM_INVALID', [{ field: 'query', message: `at most ${SAVED_FILTER_QUERY_MAX} characters` }]);
  return out;
}

/**
 * The roles a caller may share a filter with: their own role; with the role page (role management), also
 * the roles they own (all of them for the super admin), as the role list shows them.
 */
async function shareRoles(ex: Executor, auth: AuthContext) {
  const where = auth.can('role') ? visibleRolesCondition(auth) : eq(roles.id, auth.admin.roleId);
  return ex.select({ id: roles.id, name: roles.name }).from(roles).where(where).orderBy(roles.id);
}

async function assertShareable(ex: Executor, auth: AuthContext, roleId: number | null | undefined) {
  if (roleId === null || roleId === undefined || roleId === auth.admin.roleId) return;
  const allowed = await shareRoles(ex, auth);
  if (!allowed.some((r) => r.id === roleId)) {
    const [exists] = await ex.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId));
    if (!exists) throw badRequest('PARAM_INVALID', [{ field: 'shared_role_id', message: 'no such role' }]);
    throw new AppError(403, 'FORBIDDEN', {}, [{ field: 'shared_role_id' }]);
  }
}

const rowColumns = {
  f: savedFilters,
  owner: admins.account,
  roleName: roles.name,
};

function toRow(r: { f: typeof savedFilters.$inferSelect; owner: string | null; roleName: string | null }, adminId: number): Row {
  const mine = r.f.adminId === adminId;
  return {
    id: r.f.id,
    page: r.f.page,
    name: r.f.name,
    query: r.f.query,
    mine,
    is_default: mine && r.f.isDefault,
    shared_role_id: r.f.sharedRoleId,
    shared_role_name: r.f.sharedRoleId === null ? null : r.roleName,
    owner_account: r.owner ?? '',
    create_time: r.f.createdAt.toISOString(),
    update_time: r.f.updatedAt.toISOString(),
  };
}

async function readRow(ex: Executor, id: number, adminId: number): Promise<Row> {
  const [r] = await ex
    .select(rowColumns)
    .from(savedFilters)
    .leftJoin(admins, eq(admins.id, savedFilters.adminId))
    .leftJoin(roles, eq(roles.id, savedFilters.sharedRoleId))
    .where(eq(savedFilters.id, id));
  if (!r) throw notFound();
  return toRow(r, adminId);
}

/** One admin's filters of one page, serialised (the count limit and the single default hold under concurrent calls). */
const lockList = (ex: Executor, adminId: number, page: string) =>
  ex.execute(sql`select pg_advisory_xact_lock(hashtext(${`saved-filters:${adminId}:${page}`}))`);

/**
 * One's own filter, to change or delete: 404 when it does not exist or the caller cannot see it, 403 when
 * it is another admin's filter shared with the caller's role (read-only for them), 403 when the caller may
 * no longer open its page. Its list is locked for the rest of the transaction (every change takes that
 * lock first, no row lock before it), and the row read again under it.
 */
async function ownFilter(ex: Executor, auth: AuthContext, id: number) {
  const [f] = await ex.select().from(savedFilters).where(eq(savedFilters.id, id));
  if (!f) throw notFound();
  if (f.adminId !== auth.admin.id) {
    if (f.sharedRoleId === auth.admin.roleId && auth.can(f.page)) throw forbidden();
    throw notFound();
  }
  if (!auth.can(f.page)) throw forbidden();
  await lockList(ex, f.adminId, f.page);
  const [now] = await ex.select().from(savedFilters).where(eq(savedFilters.id, id));
  if (!now) throw notFound();
  return now;
}

async function assertFreeName(ex: Executor, adminId: number, page: string, name: string, exceptId?: number) {
  const [dup] = await ex
    .select({ id: savedFilters.id })
    .from(savedFilters)
    .where(and(eq(savedFilters.adminId, adminId), eq(savedFilters.page, page), eq(savedFilters.name, name), exceptId ? ne(savedFilters.id, exceptId) : undefined));
  // Generic codes with details (the product's messages load with the sign-in page: no new ones for this).
  if (dup) throw new AppError(409, 'CONFLICT', {}, [{ field: 'name', message: `a saved filter of this list is already named "${name}"` }]);
}

async function unpinOthers(ex: Executor, adminId: number, page: string) {
  await ex
    .update(savedFilters)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(savedFilters.adminId, adminId), eq(savedFilters.page, page), eq(savedFilters.isDefault, true)));
}

/**
 * Saved filters of the lists (issue 29), per admin: any signed-in admin keeps their own filters of the
 * pages they may open (at most SAVED_FILTERS_PER_PAGE per page, one pinned as the page's default) and may
 * share one with their own role, or with a role they manage; admins of that role see it read-only.
 */
export function savedFilterRoutes(app: FastifyInstance, { db }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/v1/system/saved_filters';
  const tags = ['saved_filters'];
  const signedIn = { access: { signedIn: true } } as const;

  r.get(base, {
    config: signedIn,
    schema: { tags, summary: "One's own saved filters of a list, and those shared with one's role", querystring: savedFilterListQuery, response: { 200: savedFiltersAnswer } },
  }, async (req) => {
    const auth = authOf(req);
    const page = req.query.page;
    assertPage(auth, page);
    const me = auth.admin.id;
    const mine = sql<boolean>`${savedFilters.adminId} = ${me}`;
    const [rows, roleOptions] = await Promise.all([
      db
        .select(rowColumns)
        .from(savedFilters)
        .leftJoin(admins, eq(admins.id, savedFilters.adminId))
        .leftJoin(roles, eq(roles.id, savedFilters.sharedRoleId))
        .where(and(eq(savedFilters.page, page), sql`(${mine} or ${savedFilters.sharedRoleId} = ${auth.admin.roleId})`))
        .orderBy(desc(mine), asc(savedFilters.name), asc(savedFilters.id)),
      shareRoles(db, auth),
    ]);
    const items = rows.map((row) => toRow(row, me));
    return { items, default_id: items.find((i) => i.is_default)?.id ?? null, share_roles: roleOptions };
  });

  r.post(base, {
    config: signedIn,
    schema: { tags, summary: 'Save the current filters of a list under a name', body: savedFilterBody, response: { 201: savedFilterRow } },
  }, async (req, reply) => {
    const auth = authOf(req);
    const b = req.body;
    assertPage(auth, b.page);
    const query = normaliseQuery(b.query);
    const row = await db.transaction(async (tx) => {
      await lockList(tx, auth.admin.id, b.page);
      await assertShareable(tx, auth, b.shared_role_id);
      const [{ n }] = await tx.select({ n: count() }).from(savedFilters).where(and(eq(savedFilters.adminId, auth.admin.id), eq(savedFilters.page, b.page)));
      if (Number(n) >= SAVED_FILTERS_PER_PAGE) {
        throw new AppError(422, 'PARAM_INVALID', {}, [{ field: 'page', limit: SAVED_FILTERS_PER_PAGE, message: `at most ${SAVED_FILTERS_PER_PAGE} saved filters per list` }]);
      }
      await assertFreeName(tx, auth.admin.id, b.page, b.name);
      if (b.is_default) await unpinOthers(tx, auth.admin.id, b.page);
      const [created] = await tx
        .insert(savedFilters)
        .values({ adminId: auth.admin.id, page: b.page, name: b.name, query, isDefault: !!b.is_default, sharedRoleId: b.shared_role_id ?? null })
        .returning({ id: savedFilters.id });
      const after = await readRow(tx, created.id, auth.admin.id);
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Saved filter "${b.name}" of ${b.page}`, after });
      return after;
    });
    return reply.status(201).send(row);
  });

  r.put(`${base}/:id`, {
    config: signedIn,
    schema: { tags, summary: "Rename, change or share one's own saved filter", params: idParams, body: savedFilterUpdateBody, response: { 200: savedFilterRow } },
  }, async (req) => {
    const auth = authOf(req);
    const b = req.body;
    const query = b.query === undefined ? undefined : normaliseQuery(b.query);
    return db.transaction(async (tx) => {
      const f = await ownFilter(tx, auth, req.params.id);
      if (b.shared_role_id !== undefined && b.shared_role_id !== f.sharedRoleId) await assertShareable(tx, auth, b.shared_role_id);
      if (b.name !== undefined && b.name !== f.name) await assertFreeName(tx, auth.admin.id, f.page, b.name, f.id);
      const before = await readRow(tx, f.id, auth.admin.id);
      await tx
        .update(savedFilters)
        .set({
          ...(b.name !== undefined ? { name: b.name } : {}),
          ...(query !== undefined ? { query } : {}),
          ...(b.shared_role_id !== undefined ? { sharedRoleId: b.shared_role_id } : {}),
          updatedAt: new Date(),
        })
        .where(eq(savedFilters.id, f.id));
      const after = await readRow(tx, f.id, auth.admin.id);
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Changed saved filter "${before.name}" of ${f.page}`, before, after });
      return after;
    });
  });

  r.put(`${base}/:id/default`, {
    config: signedIn,
    schema: { tags, summary: "Pin one's own saved filter as the list's default, or unpin it", params: idParams, body: savedFilterDefaultBody, response: { 200: savedFilterRow } },
  }, async (req) => {
    const auth = authOf(req);
    return db.transaction(async (tx) => {
      const f = await ownFilter(tx, auth, req.params.id);
      if (req.body.is_default) await unpinOthers(tx, auth.admin.id, f.page);
      await tx.update(savedFilters).set({ isDefault: req.body.is_default, updatedAt: new Date() }).where(eq(savedFilters.id, f.id));
      const after = await readRow(tx, f.id, auth.admin.id);
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `${req.body.is_default ? 'Pinned' : 'Unpinned'} saved filter "${f.name}" of ${f.page}`, after });
      return after;
    });
  });

  r.delete(`${base}/:id`, {
    config: signedIn,
    schema: { tags, summary: "Delete one's own saved filter", params: idParams, response: { 200: z.object({ ok: z.boolean() }) } },
  }, async (req) => {
    const auth = authOf(req);
    return db.transaction(async (tx) => {
      const f = await ownFilter(tx, auth, req.params.id);
      const before = await readRow(tx, f.id, auth.admin.id);
      await tx.delete(savedFilters).where(eq(savedFilters.id, f.id));
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Deleted saved filter "${f.name}" of ${f.page}`, before });
      return { ok: true };
    });
  });
}
