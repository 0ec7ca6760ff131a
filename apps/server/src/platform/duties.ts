import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { pendingChangeAnswer, type Duty } from '@dau/contract';
import { admins, menuItems, pendingChanges, roleMenus, roles, settingHistory } from './schema.js';
import { authOf, type Access } from './access.js';
import { redact } from './audit.js';
import { AppError } from './errors.js';
import { scopeOf } from './listing.js';
import type { Db, Executor } from './db.js';

/**
 * Duties (DESIGN "Duties: branch, whole book, two people"), enforced here for every route that declares a
 * `duty` beside its access, so that a route cannot forget them:
 *  - preValidation: a branch admin (data scope not the whole book) is refused 403 WHOLE_BOOK_ONLY before
 *    the body is even read;
 *  - preHandler: the setting as it is now is read (the route's GET twin); a `two` route whose call changes
 *    one of its fields stores a pending change and answers 202 instead of acting;
 *  - onSend: a change that took effect is kept in the settings history (before → after, secrets masked,
 *    who asked and who approved).
 * An approved change is replayed through the same route (`applyPendingChange`), as the approver, carrying a
 * one-time nonce that only that replay knows.
 */

export const PENDING_TTL_MS = 24 * 3600_000;
/** A change stuck in `applying` (its approver's process died mid-replay) may be approved again after this. */
const APPLYING_STALE_MS = 5 * 60_000;
const REPLAY_HEADER = 'x-dau-approved-change';
const SECRET_FIELD = /password|secret|token|key|service_account/i;

declare module 'fastify' {
  interface FastifyRequest {
    dutyBefore?: Record<string, unknown> | null;
    dutyApproval?: { id: number; requestedBy: number };
  }
}

export const dutyOf = (access: Access | undefined): Duty | undefined => (access && 'page' in access ? access.duty : undefined);

/** The setting a route changes: declared, else its path without the version, parameters and what follows them. */
export function settingName(url: string, duty: Duty): string {
  if (duty.setting) return duty.setting;
  const parts = url.replace(/^\/api\/v1\//, '').split('/');
  const until = parts.findIndex((p) => p.startsWith(':'));
  return (until < 0 ? parts : parts.slice(0, until)).join('/');
}

/** Whether the admin's data scope is the whole book (the super admin, or staff serving the super admin). */
export async function isWholeBook(ex: Executor, req: FastifyRequest): Promise<boolean> {
  return (await scopeOf(ex, authOf(req))).all;
}

const pathOnly = (url: string) => url.split('?')[0]!;
const isSecret = (k: string) => SECRET_FIELD.test(k);
const same = (a: unknown, b: unknown) => {
  if (a === b) return true;
  if (a == null || b == null) return a == b;
  if (typeof a !== 'object' && typeof b !== 'object') return String(a) === String(b);
  return JSON.stringify(a) === JSON.stringify(b);
};

/**
 * The setting as it is now: the route's GET twin answered for the caller (no twin, or not a PUT/DELETE:
 * null); 'missing' when the twin answers 404 (the handler then answers it too: nothing to wait for).
 */
async function readState(app: FastifyInstance, req: FastifyRequest): Promise<Record<string, unknown> | null | 'missing'> {
  if (req.method !== 'PUT' && req.method !== 'DELETE') return null;
  const route = req.routeOptions.url;
  if (!route || !app.hasRoute({ method: 'GET', url: route })) return null;
  const res = await app.inject({
    method: 'GET',
    url: pathOnly(req.url),
    headers: { authorization: String(req.headers.authorization ?? ''), 'x-locale': String(req.headers['x-locale'] ?? 'en-US') },
    remoteAddress: req.ip,
  });
  if (res.statusCode === 404) return 'missing';
  if (res.statusCode !== 200) return null;
  const body = res.json() as unknown;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

/** The fields of the call that need a second admin: those of `fields` it changes (all it sends when none are named). */
export function changedTwoFields(duty: Duty, method: string, body: Record<string, unknown>, before: Record<string, unknown> | null): string[] {
  if (method === 'DELETE' || !duty.fields) return duty.fields ? [...duty.fields] : Object.keys(body).length ? Object.keys(body) : ['*'];
  return duty.fields.filter((f) => {
    const v = body[f];
    if (v === undefined) return false;
    if (isSecret(f)) return typeof v === 'string' ? v.length > 0 : v != null;
    if (!before) return v !== null && v !== '';
    return !same(v, before[f]);
  });
}

/** What a pending change shows: each asked field, its value now and the value asked, secrets masked. */
export function diffOf(method: string, body: Record<string, unknown>, before: Record<string, unknown> | null) {
  if (method === 'DELETE') return [{ field: '*', before: redact(before), after: null }];
  return Object.entries(body).map(([field, after]) => ({
    field,
    before: isSecret(field) ? (before?.[field] == null ? null : '***') : redact(before?.[field] ?? null),
    after: isSecret(field) ? (after == null || after === '' ? after : '***') : redact(after),
  }));
}

/** Enabled admins other than `except` who may approve a change of `page:button`: whole-book scope and the button. */
export async function approversOf(ex: Executor, page: string, button: string | null, except: number): Promise<number[]> {
  const keys = [page, ...(button ? [`${page}:${button}`] : [])];
  const holders = ex
    .select({ roleId: roleMenus.roleId })
    .from(roleMenus)
    .innerJoin(menuItems, eq(menuItems.id, roleMenus.menuId))
    .where(inArray(menuItems.key, keys))
    .groupBy(roleMenus.roleId)
    .having(sql`count(distinct ${menuItems.key}) = ${keys.length}`);
  const superRoles = ex.select({ id: roles.id }).from(roles).where(eq(roles.isSuper, true));
  const superAdmins = ex.select({ id: admins.id }).from(admins).where(inArray(admins.roleId, superRoles));
  const servesSuper = ex.select({ id: roles.id }).from(roles).where(eq(roles.servesSuperiorBranch, true));
  const rows = await ex
    .select({ id: admins.id })
    .from(admins)
    .where(
      and(
        sql`${admins.id} <> ${except}`,
        sql`${admins.disabled} <> 2`,
        or(sql`${admins.memberExpiry} is null`, sql`${admins.memberExpiry} > now()`),
        or(
          inArray(admins.roleId, superRoles),
          and(inArray(admins.roleId, holders), inArray(admins.roleId, servesSuper), inArray(admins.superiorId, superAdmins)),
        ),
      ),
    );
  return rows.map((r) => r.id);
}

export interface DutyHooks {
  /**
   * Called in the transaction that stores a pending change (the system module notifies the approvers);
   * what it answers runs after the commit (publishing the notices).
   */
  onPending?: (ex: Executor, change: typeof pendingChanges.$inferSelect, approvers: number[]) => Promise<(() => Promise<void>) | void>;
  /** Answers a stored pending change as its row (the system module's mapper). */
  answer: (ex: Executor, change: typeof pendingChanges.$inferSelect, req: FastifyRequest) => Promise<unknown>;
}

/** Installs the three hooks (see the top of this file); routes declare `duty` in `config.access`. */
export function installDuties(app: FastifyInstance, db: Db, hooks: DutyHooks) {
  app.addHook('onRoute', (route) => {
    const duty = dutyOf(route.config?.access);
    if (duty?.ring !== 'two' || !route.schema) return;
    // The 202 answer is part of the route's contract (and of the API document).
    const response = (route.schema.response ?? {}) as Record<string, unknown>;
    route.schema = { ...route.schema, response: { ...response, 202: pendingChangeAnswer } };
  });

  app.addHook('preValidation', async (req) => {
    const duty = dutyOf(req.routeOptions.config?.access);
    if (!duty) return;
    if (!(await isWholeBook(db, req))) throw new AppError(403, 'WHOLE_BOOK_ONLY');
  });

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    const access = req.routeOptions.config?.access;
    const duty = dutyOf(access);
    if (!duty || !access || !('page' in access)) return;
    const replay = req.headers[REPLAY_HEADER];
    if (replay !== undefined) req.dutyApproval = await checkReplay(db, req, String(replay));
    const state = await readState(app, req);
    req.dutyBefore = state === 'missing' ? null : state;
    if (duty.ring !== 'two' || req.dutyApproval || state === 'missing') return;
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    if (!changedTwoFields(duty, req.method, body, req.dutyBefore).length) return;
    const auth = authOf(req);
    const after: { run?: () => Promise<void> } = {};
    const answer = await db.transaction(async (tx) => {
      const [change] = await tx
        .insert(pendingChanges)
        .values({
          setting: settingName(req.routeOptions.url ?? req.url, duty),
          method: req.method,
          url: req.url,
          route: req.routeOptions.url ?? req.url,
          page: access.page,
          button: access.button ?? null,
          body: req.body === undefined ? null : (req.body as object),
          diff: diffOf(req.method, body, req.dutyBefore ?? null),
          requestedBy: auth.admin.id,
          expiresAt: new Date(Date.now() + PENDING_TTL_MS),
        })
        .returning();
      after.run = (await hooks.onPending?.(tx, change!, await approversOf(tx, access.page, access.button ?? null, auth.admin.id))) ?? undefined;
      return hooks.answer(tx, change!, req);
    });
    await after.run?.();
    return reply.status(202).send({ pending_change: answer });
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const duty = dutyOf(req.routeOptions.config?.access);
    if (!duty || reply.statusCode < 200 || reply.statusCode >= 300 || reply.statusCode === 202 || req.dutyBefore === undefined) return payload;
    try {
      let after: unknown = null;
      if (req.method === 'PUT') {
        const state = await readState(app, req);
        after = state === 'missing' ? null : state;
      }
      if (after === null && req.method !== 'DELETE' && typeof payload === 'string') {
        try {
          after = JSON.parse(payload);
        } catch {
          after = null;
        }
      }
      const auth = authOf(req);
      const requestedBy = req.dutyApproval?.requestedBy ?? auth.admin.id;
      const [asker] = await db.select({ account: admins.account }).from(admins).where(eq(admins.id, requestedBy));
      await db.insert(settingHistory).values({
        setting: settingName(req.routeOptions.url ?? req.url, duty),
        method: req.method,
        url: pathOnly(req.url),
        adminId: requestedBy,
        account: asker?.account ?? null,
        approvedBy: req.dutyApproval ? auth.admin.id : null,
        approvedAccount: req.dutyApproval ? auth.admin.account : null,
        pendingChangeId: req.dutyApproval?.id ?? null,
        before: req.dutyBefore === null ? null : (redact(req.dutyBefore) as object),
        after: after === null ? null : (redact(after) as object),
      });
    } catch (err) {
      req.log.error({ err }, 'setting history write failed');
    }
    return payload;
  });
}

/** The replay of an approved change: the nonce must be that of a change this admin is applying, on this route. */
async function checkReplay(db: Db, req: FastifyRequest, header: string): Promise<{ id: number; requestedBy: number }> {
  const [idText, nonce] = header.split('.');
  const id = Number(idText);
  if (!Number.isSafeInteger(id) || !nonce) throw new AppError(403, 'FORBIDDEN');
  const [row] = await db.select().from(pendingChanges).where(eq(pendingChanges.id, id));
  const auth = authOf(req);
  const ok =
    row && row.status === 'applying' && row.nonce && row.nonce.length === nonce.length &&
    crypto.timingSafeEqual(Buffer.from(row.nonce), Buffer.from(nonce)) && row.decidedBy === auth.admin.id &&
    row.method === req.method && row.url === req.url;
  if (!ok) throw new AppError(403, 'FORBIDDEN');
  return { id: row.id, requestedBy: row.requestedBy };
}

/**
 * Claims a pending change for approval by `adminId` (one outcome under races: a conditional update from
 * `pending`, or from an `applying` whose approver died long ago), then replays it through its route as the
 * approver and records the outcome. Answers the replay's status and body.
 */
export async function applyPendingChange(app: FastifyInstance, db: Db, req: FastifyRequest, id: number) {
  const auth = authOf(req);
  const nonce = crypto.randomBytes(24).toString('base64url');
  const [claimed] = await db
    .update(pendingChanges)
    .set({ status: 'applying', decidedBy: auth.admin.id, decidedAt: new Date(), nonce })
    .where(
      and(
        eq(pendingChanges.id, id),
        sql`${pendingChanges.requestedBy} <> ${auth.admin.id}`,
        sql`${pendingChanges.expiresAt} > now()`,
        or(
          eq(pendingChanges.status, 'pending'),
          and(eq(pendingChanges.status, 'applying'), lt(pendingChanges.decidedAt, new Date(Date.now() - APPLYING_STALE_MS))),
        ),
      ),
    )
    .returning();
  if (!claimed) return null;
  const headers: Record<string, string> = {
    authorization: String(req.headers.authorization ?? ''),
    'x-locale': String(req.headers['x-locale'] ?? 'en-US'),
    [REPLAY_HEADER]: `${claimed.id}.${nonce}`,
  };
  const res = await app.inject({
    method: claimed.method as 'PUT',
    url: claimed.url,
    headers,
    remoteAddress: req.ip,
    ...(claimed.body !== null ? { payload: claimed.body as object } : {}),
  });
  let body: unknown = null;
  try {
    body = res.body ? JSON.parse(res.body) : null;
  } catch {
    body = null;
  }
  const ok = res.statusCode >= 200 && res.statusCode < 300;
  const code = !ok && body && typeof body === 'object' ? String((body as { code?: unknown }).code ?? '') : null;
  await db
    .update(pendingChanges)
    .set({ status: ok ? 'applied' : 'failed', nonce: null, body: null, resultStatus: res.statusCode, resultCode: code || null })
    .where(and(eq(pendingChanges.id, claimed.id), eq(pendingChanges.nonce, nonce)));
  return { status: res.statusCode, body };
}

/** Refuses (another admin) or withdraws (the requester) a pending change: one outcome under races. */
export async function decidePendingChange(db: Executor, id: number, adminId: number, reason: string | null, withdraw: boolean) {
  const [row] = await db
    .update(pendingChanges)
    .set({ status: withdraw ? 'withdrawn' : 'refused', decidedBy: adminId, decidedAt: new Date(), reason, body: null })
    .where(
      and(
        eq(pendingChanges.id, id),
        eq(pendingChanges.status, 'pending'),
        withdraw ? eq(pendingChanges.requestedBy, adminId) : sql`${pendingChanges.requestedBy} <> ${adminId}`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Expired changes forget what they asked (secrets included) and say so. */
export async function expirePendingChanges(db: Executor): Promise<number> {
  const rows = await db
    .update(pendingChanges)
    .set({ status: 'expired', body: null })
    .where(and(eq(pendingChanges.status, 'pending'), sql`${pendingChanges.expiresAt} <= now()`))
    .returning({ id: pendingChanges.id });
  return rows.length;
}
