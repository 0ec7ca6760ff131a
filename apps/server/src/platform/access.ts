import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull } from 'drizzle-orm';
import { ALWAYS_ALLOWED_PAGES, permissionKey, type Permission } from '@dau/contract';
import { admins, menuItems, roleMenus, roles, sessions } from './schema.js';
import { AppError, forbidden, unauthorized } from './errors.js';
import { sha256 } from './crypto.js';
import type { Db } from './db.js';

/**
 * What a route needs, declared on every route (`config.access`). The server refuses to start when a
 * route declares nothing.
 *  - `{ public: true }`: anyone (sign-in, health, docs, the console's files);
 *  - `{ signedIn: true }`: any signed-in admin (own profile, own password, notices);
 *  - `{ page, button? }`: the permission from the catalogue.
 */
export type Access = { public: true } | { signedIn: true } | Permission;

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

/** Role permission sets, cached per (role, version): a role change bumps the version and every session sees it at once. */
const roleCache = new Map<number, { version: number; keys: Set<string> }>();

export async function rolePermissionKeys(db: Db, roleId: number, version: number): Promise<Set<string>> {
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

/** Resolves a bearer token to a live session of an enabled admin, or null. Extends the idle expiry. */
export async function authenticate(db: Db, token: string): Promise<AuthContext | null> {
  if (!token || token.length > 200) return null;
  const rows = await db
    .select({
      s: sessions,
      a: ADMIN_AUTH_COLUMNS,
      isSuper: roles.isSuper,
      roleVersion: roles.version,
    })
    .from(sessions)
    .innerJoin(admins, eq(admins.id, sessions.adminId))
    .innerJoin(roles, eq(roles.id, admins.roleId))
    .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const now = Date.now();
  if (row.s.idleExpiresAt.getTime() <= now || row.s.absoluteExpiresAt.getTime() <= now) return null;
  if (row.a.disabled === 2) return null;
  if (row.a.memberExpiry && row.a.memberExpiry.getTime() <= now) return null;
  if (now - row.s.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    const idleMs = row.s.idleExpiresAt.getTime() - row.s.lastSeenAt.getTime();
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now), idleExpiresAt: new Date(Math.min(now + idleMs, row.s.absoluteExpiresAt.getTime())) })
      .where(eq(sessions.id, row.s.id));
  }
  return contextOf(db, row.s.id, row.a, row.isSuper, row.roleVersion);
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

/** Installs the start-time check (every route declares its access) and the per-request check; returns the route list. */
export function installAccessControl(app: FastifyInstance, db: Db, opts: { publicPrefixes?: string[] } = {}): DeclaredRoute[] {
  const declared: DeclaredRoute[] = [];
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
      if (token) req.auth = (await authenticate(db, token)) ?? undefined;
      return;
    }
    const auth = await authenticate(db, bearer(req));
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
