import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { ALWAYS_ALLOWED_PAGES, permissionKey, type Duty, type MenuNode, type Permission } from '@dau/contract';
import { admins, menuItems, roleMenus, roles, sessions } from './schema.js';
import { AppError, forbidden, unauthorized } from './errors.js';
import { sha256 } from './crypto.js';
import type { Bus, Db, Executor } from './db.js';

/**
 * What a route needs, declared on every route (`config.access`). The server refuses to start when a
 * route declares nothing.
 *  - `{ public: true }`: anyone (sign-in, health, docs, the console's files);
 *  - `{ signedIn: true }`: any signed-in admin (own profile, own password, notices);
 *  - `{ page, button? }`: the permission from the catalogue;
 *  - `{ page, button?, duty }`: and a setting of the whole product: the whole book's, or two people's
 *    (platform/duties.ts enforces it; contract `Duty`).
 */
export type Access = { public: true } | { signedIn: true } | (Permission & { duty?: Duty });

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

export interface AdminRow {
  id: number;
  account: string;
  name: string;
  roleId: number;
  superiorId: number | null;
  path: string;
  disabled: number;
  googleBound: number;
  memberExpiry: Date | null;
}

export interface AuthContext {
  sessionId: string;
  admin: AdminRow;
  isSuper: boolean;
  roleVersion: number;
  permissions: ReadonlySet<string>;
  can(page: string, button?: string): boolean;
}

/**
 * Role permission sets, cached per database handle and (role, version): a role change bumps the version and
 * every session sees it at once. Per handle, because role ids are only unique within one database (two apps
 * in one process, as the tests run them, must not read each other's roles).
 */
const roleCaches = new WeakMap<object, Map<number, { version: number; keys: Set<string> }>>();

export async function rolePermissionKeys(db: Db, roleId: number, version: number): Promise<Set<string>> {
  let roleCache = roleCaches.get(db);
  if (!roleCache) roleCaches.set(db, (roleCache = new Map()));
  const hit = roleCache.get(roleId);
  if (hit && hit.version === version) return hit.keys;
  const rows = await db
    .select({ key: menuItems.key })
    .from(roleMenus)
    .innerJoin(menuItems, eq(menuItems.id, roleMenus.menuId))
    .where(eq(roleMenus.roleId, roleId));
  const keys = new Set(rows.map((r) => r.key));
  roleCache.set(roleId, { version, keys });
  return keys;
}

export function makeCan(isSuper: boolean, keys: ReadonlySet<string>) {
  return (page: string, button?: string) => {
    if (isSuper) return true;
    if (!button && ALWAYS_ALLOWED_PAGES.includes(page)) return true;
    if (!keys.has(page)) return false;
    return button ? keys.has(permissionKey({ page, button })) : true;
  };
}

const TOUCH_EVERY_MS = 60_000;

const ADMIN_AUTH_COLUMNS = {
  id: admins.id, account: admins.account, name: admins.name, roleId: admins.roleId, superiorId: admins.superiorId,
  path: admins.path, disabled: admins.disabled, googleBound: admins.googleBound, memberExpiry: admins.memberExpiry,
};

async function contextOf(db: Db, sessionId: string, a: AdminRow, isSuper: boolean, roleVersion: number): Promise<AuthContext> {
  const keys = isSuper ? new Set<string>() : await rolePermissionKeys(db, a.roleId, roleVersion);
  return { sessionId, admin: a, isSuper, roleVersion, permissions: keys, can: makeCan(isSuper, keys) };
}

/**
 * An admin's authorisation as it is now, without a session (background work done on their behalf, such
 * as an export job): null when the admin is gone or disabled.
 */
export async function adminAuthOf(db: Db, adminId: number): Promise<AuthContext | null> {
  const [row] = await db
    .select({ a: ADMIN_AUTH_COLUMNS, isSuper: roles.isSuper, roleVersion: roles.version })
    .from(admins)
    .innerJoin(roles, eq(roles.id, admins.roleId))
    .where(eq(admins.id, adminId))
    .limit(1);
  if (!row || row.a.disabled === 2) return null;
  return contextOf(db, '', row.a, row.isSuper, row.roleVersion);
}

/**
 * Sessions were revoked (sign-out, password change, disabling, role change), published by the code that
 * revokes them, in its transaction: `{ adminId, sessionIds, reason }`. Every process closes those sessions'
 * sockets and forgets them in its session cache.
 */
export const SESSION_REVOKED = 'session.revoked';
/**
 * A session, an admin or a role row changed: `{ adminId, sessionId? }`, `{ roleId }` or `{ all: true }`.
 * PostgreSQL sends it by itself when the change commits (triggers, migration 0015), to every process,
 * whoever made it; the code that makes such a change announces it too (`authChanged`), so that this
 * process's cache follows at once, before the commit's notice arrives.
 */
export const AUTH_CHANGED = 'auth.changed';

export type AuthChange = { adminId: number; sessionId?: string } | { roleId: number } | { all: true };

/** Announces a change of admins, roles or their permissions to the session caches (call it in the transaction). */
export const authChanged = (bus: Bus, change: AuthChange) => bus.publish(AUTH_CHANGED, change);

interface CachedSession {
  ctx: AuthContext;
  roleId: number;
  lastSeenAt: number;
  idleExpiresAt: number;
  absoluteExpiresAt: number;
  memberExpiry: number | null;
  epoch: number;
}

/** How long after a change is announced (before its commit) the sessions it touches are read from the database only. */
const REVOCATION_HOLD_MS = 5_000;
const SESSION_CACHE_MAX = 10_000;

/**
 * Live sessions of this process by token hash, so that a request does not read its session, admin and
 * role again. Kept true by the bus: a revocation or a change announced by the code that makes it (at once
 * in this process; through LISTEN/NOTIFY in the others) drops the sessions it touches and keeps them out
 * of the cache for a few seconds, until that transaction has committed; the database's own notice of
 * any change to a session, an admin or a role (sent at commit) drops what it touches. Nothing is trusted
 * while the bus does not hear other processes, nor across a reconnection (messages may have been lost),
 * and an entry lives at most until its session's next touch (60 s), when the database is read again.
 */
export class SessionCache {
  private entries = new Map<string, CachedSession>();
  /** Admins ('a<id>'), roles ('r<id>') or everything ('*') read from the database only until a time. */
  private held = new Map<string, number>();
  /** Bumped by every invalidation: a read that overlapped one is not cached. */
  private generation = 0;

  constructor(private bus: Bus) {
    bus.subscribe(SESSION_REVOKED, (p) => {
      const adminId = (p as { adminId?: number }).adminId;
      if (typeof adminId === 'number') this.forget({ adminId });
    });
    bus.subscribe(AUTH_CHANGED, (p) => this.forget(p as AuthChange));
  }

  /**
   * Drops what a change touches and keeps it out of the cache for a few seconds: an announcement comes
   * before its transaction commits, and a read meanwhile would still see the old rows.
   */
  private forget(change: AuthChange) {
    this.generation++;
    const until = Date.now() + REVOCATION_HOLD_MS;
    let match: (e: CachedSession) => boolean;
    if ('adminId' in change && typeof change.adminId === 'number') {
      this.held.set(`a${change.adminId}`, until);
      match = (e) => e.ctx.admin.id === change.adminId;
    } else if ('roleId' in change && typeof change.roleId === 'number') {
      this.held.set(`r${change.roleId}`, until);
      match = (e) => e.roleId === change.roleId;
    } else {
      this.held.set('*', until);
      match = () => true;
    }
    for (const [k, e] of this.entries) if (match(e)) this.entries.delete(k);
  }

  private isHeld(adminId: number, roleId: number, now: number) {
    for (const key of ['*', `a${adminId}`, `r${roleId}`]) {
      const until = this.held.get(key);
      if (until === undefined) continue;
      if (until > now) return true;
      this.held.delete(key);
    }
    return false;
  }

  /** A state to hand back to `set`: the cache refuses an entry read while something was invalidated. */
  mark() {
    return { generation: this.generation, epoch: this.bus.epoch() };
  }

  get(hash: string, now: number): CachedSession | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (!this.bus.live() || e.epoch !== this.bus.epoch() || this.isHeld(e.ctx.admin.id, e.roleId, now)) {
      this.entries.delete(hash);
      return undefined;
    }
    return e;
  }

  set(hash: string, mark: { generation: number; epoch: number }, e: Omit<CachedSession, 'epoch'>, now: number) {
    if (mark.generation !== this.generation || mark.epoch !== this.bus.epoch() || !this.bus.live() || this.isHeld(e.ctx.admin.id, e.roleId, now)) return;
    if (this.entries.size >= SESSION_CACHE_MAX) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { ...e, epoch: mark.epoch });
  }

  get size() {
    return this.entries.size;
  }
}

const sessionQueries = new WeakMap<Db, ReturnType<typeof prepareSessionQuery>>();

/** The session lookup, prepared once per database (a named statement on PostgreSQL). */
function prepareSessionQuery(db: Db) {
  return db
    .select({ s: sessions, a: ADMIN_AUTH_COLUMNS, isSuper: roles.isSuper, roleVersion: roles.version })
    .from(sessions)
    .innerJoin(admins, eq(admins.id, sessions.adminId))
    .innerJoin(roles, eq(roles.id, admins.roleId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('hash')), isNull(sessions.revokedAt)))
    .limit(1)
    .prepare('dau_session_by_token');
}

/**
 * Resolves a bearer token to a live session of an enabled admin, or null. Extends the idle expiry. With a
 * session cache, a session seen in the last minute is answered from memory (see SessionCache).
 */
export async function authenticate(db: Db, token: string, cache?: SessionCache): Promise<AuthContext | null> {
  if (!token || token.length > 200) return null;
  const hash = sha256(token);
  let now = Date.now();
  const hit = cache?.get(hash, now);
  if (hit) {
    if (hit.idleExpiresAt <= now || hit.absoluteExpiresAt <= now) return null;
    if (hit.memberExpiry !== null && hit.memberExpiry <= now) return null;
    if (now - hit.lastSeenAt <= TOUCH_EVERY_MS) return hit.ctx;
  }
  const mark = cache?.mark();
  let q = sessionQueries.get(db);
  if (!q) sessionQueries.set(db, (q = prepareSessionQuery(db)));
  const rows = await q.execute({ hash });
  const row = rows[0];
  if (!row) return null;
  now = Date.now();
  if (row.s.idleExpiresAt.getTime() <= now || row.s.absoluteExpiresAt.getTime() <= now) return null;
  if (row.a.disabled === 2) return null;
  if (row.a.memberExpiry && row.a.memberExpiry.getTime() <= now) return null;
  let lastSeenAt = row.s.lastSeenAt.getTime();
  let idleExpiresAt = row.s.idleExpiresAt.getTime();
  if (now - lastSeenAt > TOUCH_EVERY_MS) {
    const idleMs = idleExpiresAt - lastSeenAt;
    idleExpiresAt = Math.min(now + idleMs, row.s.absoluteExpiresAt.getTime());
    lastSeenAt = now;
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now), idleExpiresAt: new Date(idleExpiresAt) })
      .where(eq(sessions.id, row.s.id));
  }
  const ctx = await contextOf(db, row.s.id, row.a, row.isSuper, row.roleVersion);
  if (cache && mark) {
    cache.set(hash, mark, {
      ctx, roleId: row.a.roleId, lastSeenAt, idleExpiresAt, absoluteExpiresAt: row.s.absoluteExpiresAt.getTime(),
      memberExpiry: row.a.memberExpiry?.getTime() ?? null,
    }, now);
  }
  return ctx;
}

export function bearer(req: FastifyRequest): string {
  const h = req.headers.authorization;
  if (!h || !h.startsWith('Bearer ')) return '';
  return h.slice(7).trim();
}

export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access;
}

/**
 * Installs the start-time check (every route declares its access) and the per-request check; returns the
 * route list. With the bus, sessions are cached in the process (SessionCache).
 */
export function installAccessControl(app: FastifyInstance, db: Db, opts: { publicPrefixes?: string[]; bus?: Bus } = {}): DeclaredRoute[] {
  const declared: DeclaredRoute[] = [];
  const cache = opts.bus ? new SessionCache(opts.bus) : undefined;
  app.addHook('onRoute', (route) => {
    // Routes of third-party plugins that serve public documents (the OpenAPI viewer) are declared here, by prefix.
    if (opts.publicPrefixes?.some((p) => route.url.startsWith(p))) {
      route.config = { ...(route.config ?? {}), access: { public: true } } as typeof route.config;
    }
    const access = route.config?.access;
    if (!access) {
      throw new Error(`Route ${route.method} ${route.url} declares no access (public, signedIn or a permission)`);
    }
    for (const m of [route.method].flat()) if (m !== 'HEAD') declared.push({ method: m, url: route.url, access });
  });
  // onRequest: the caller is known before the body is even parsed; invalid input from a stranger answers 401, not 400.
  app.addHook('onRequest', async (req: FastifyRequest, _reply: FastifyReply) => {
    if (req.is404) return; // no such route: the not-found handler answers
    const access = req.routeOptions.config?.access;
    if (!access) throw forbidden();
    if ('public' in access) {
      const token = bearer(req);
      if (token) req.auth = (await authenticate(db, token, cache)) ?? undefined;
      return;
    }
    const auth = await authenticate(db, bearer(req), cache);
    if (!auth) throw unauthorized();
    req.auth = auth;
    if ('signedIn' in access) return;
    if (!auth.can(access.page, access.button)) throw new AppError(403, 'FORBIDDEN', {}, { permission: permissionKey(access) });
  });
  return declared;
}

/** The signed-in admin of a route that is not public. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

/**
 * Ends sessions (sign-out, password change, disabling, role change) and tells every server process, so
 * that sockets of those sessions are closed with 3001 at once.
 */
export async function revokeSessions(
  ex: Executor,
  bus: Bus,
  where: { adminId: number; sessionId?: string; exceptSessionId?: string },
  reason: string,
): Promise<string[]> {
  const conds = [eq(sessions.adminId, where.adminId), isNull(sessions.revokedAt)];
  if (where.sessionId) conds.push(eq(sessions.id, where.sessionId));
  if (where.exceptSessionId) conds.push(ne(sessions.id, where.exceptSessionId));
  const rows = await ex
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(...conds))
    .returning({ id: sessions.id });
  const ids = rows.map((r) => r.id);
  if (ids.length) await bus.publish(SESSION_REVOKED, { adminId: where.adminId, sessionIds: ids, reason });
  return ids;
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
