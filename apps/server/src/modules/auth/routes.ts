import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import {
  changePasswordBody, googleCodeBody, loginBody, registerBody,
} from '@dau/contract';
import { LOG_TYPE, validatePassword, validateAccount } from '@dau/domain';
import { admins, roles, siteConfig, subscriberConfig } from '../system/schema.js';
import { loginAttempts } from './schema.js';
import { createSession, revokeSessions } from './sessions.js';
import { newTotpSecret, totpSetup, totpVerify } from './totp.js';
import { authOf, rolePermissionKeys } from '../../platform/access.js';
import { hashPassword, verifyPassword } from '../../platform/crypto.js';
import { AppError, badRequest, unprocessable } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { menuTree } from '../system/admins-service.js';
import { createNotices, publishNotices } from '../notices/service.js';

/** A hash to verify against when the account does not exist, so both paths take the same time. */
let dummyHash: Promise<string> | null = null;
const getDummyHash = () => (dummyHash ??= hashPassword('not-a-real-password-0'));

async function loginLimits(ex: Executor) {
  const [cfg] = await ex
    .select({ limit: subscriberConfig.loginFailureLimit, window: subscriberConfig.failureWindowMinutes })
    .from(subscriberConfig)
    .where(eq(subscriberConfig.id, 1));
  return { limit: cfg?.limit ?? 5, windowMinutes: cfg?.window ?? 15 };
}

/** Failures of this account name within the window, counted after its last success. */
async function recentFailures(ex: Executor, account: string, windowMinutes: number): Promise<number> {
  const since = new Date(Date.now() - windowMinutes * 60_000);
  const [lastOk] = await ex
    .select({ at: sql<Date>`max(${loginAttempts.createdAt})` })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.account, account), eq(loginAttempts.success, true), gt(loginAttempts.createdAt, since)));
  const from = lastOk?.at ? new Date(Math.max(since.getTime(), new Date(lastOk.at).getTime())) : since;
  const [{ n }] = await ex
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.account, account), eq(loginAttempts.success, false), gt(loginAttempts.createdAt, from)));
  return Number(n);
}

export async function userInfoOf(ex: Executor, adminId: number) {
  const [row] = await ex
    .select({ a: admins, roleName: roles.name, isSuper: roles.isSuper, version: roles.version })
    .from(admins)
    .innerJoin(roles, eq(roles.id, admins.roleId))
    .where(eq(admins.id, adminId));
  const keys = row.isSuper ? new Set<string>() : await rolePermissionKeys(ex as never, row.a.roleId, row.version);
  return {
    info: {
      id: row.a.id,
      account: row.a.account,
      name: row.a.name,
      role_id: row.a.roleId,
      role_name: row.roleName,
      is_super: row.isSuper,
      superior_id: row.a.superiorId,
      google_bound: row.a.googleBound,
      permissions: [...keys].sort(),
    },
    keys,
    isSuper: row.isSuper,
  };
}

const clientMeta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

export function authRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, bus } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/v1/auth/login', { config: { access: { public: true } }, schema: { tags: ['auth'], body: loginBody } }, async (req) => {
    const account = req.body.account.trim();
    const key = account.toLowerCase();
    if (!account) throw badRequest('LOGIN_USERNAME_REQUIRED', [{ field: 'account' }]);
    if (!req.body.password) throw badRequest('LOGIN_PASSWORD_REQUIRED', [{ field: 'password' }]);
    const { limit, windowMinutes } = await loginLimits(db);
    if ((await recentFailures(db, key, windowMinutes)) >= limit) {
      throw new AppError(429, 'ACCOUNT_LOCKED', { minutes: windowMinutes });
    }
    const [admin] = await db.select().from(admins).where(eq(sql`lower(${admins.account})`, key)).limit(1);
    const passwordOk = await verifyPassword(admin?.passwordHash ?? (await getDummyHash()), req.body.password);

    const fail = async (code: 'LOGIN_FAILED' | 'GOOGLE_CODE_INVALID') => {
      await db.insert(loginAttempts).values({ account: key, ip: req.ip, success: false });
      const failures = await recentFailures(db, key, windowMinutes);
      await writeAudit(db, req, {
        type: LOG_TYPE.login, content: `Failed sign-in for "${account}" (${code}, ${failures}/${limit})`, status: 401,
        adminId: admin?.id ?? null, account,
      });
      if (failures >= limit) {
        await writeAudit(db, req, {
          type: LOG_TYPE.login, content: `Account "${account}" locked for ${windowMinutes} min after ${failures} failed sign-ins from ${req.ip}`,
          status: 429, adminId: admin?.id ?? null, account,
        });
        const supers = await db.select({ id: admins.id }).from(admins).innerJoin(roles, eq(roles.id, admins.roleId)).where(eq(roles.isSuper, true));
        await publishNotices(bus, await createNotices(db, supers.map((s) => s.id), `Account "${account}" locked after ${failures} failed sign-ins from ${req.ip}.`));
      }
      throw new AppError(401, code);
    };

    if (!admin || !passwordOk) return fail('LOGIN_FAILED');
    if (admin.disabled === 2 || (admin.memberExpiry && admin.memberExpiry.getTime() <= Date.now())) {
      await writeAudit(db, req, { type: LOG_TYPE.login, content: `Refused sign-in of disabled or expired account "${account}"`, status: 403, adminId: admin.id, account });
      throw new AppError(403, 'ACCOUNT_DISABLED');
    }
    if (admin.googleBound === 1 && admin.googleSecret) {
      if (!req.body.google_code) throw new AppError(401, 'GOOGLE_CODE_REQUIRED');
      if (!totpVerify(admin.googleSecret, req.body.google_code)) return fail('GOOGLE_CODE_INVALID');
    }
    const session = await db.transaction(async (tx) => {
      await tx.insert(loginAttempts).values({ account: key, ip: req.ip, success: true });
      const s = await createSession(tx, admin.id, clientMeta(req));
      await tx
        .update(admins)
        .set({ loginIp: req.ip, loginTime: new Date(), onlineStatus: 2, onlineUpdatedAt: new Date() })
        .where(eq(admins.id, admin.id));
      await writeAudit(tx, req, { type: LOG_TYPE.login, content: `Signed in "${admin.account}"`, status: 200, adminId: admin.id, account: admin.account });
      return s;
    });
    const { info } = await userInfoOf(db, admin.id);
    return { token: session.token, user_info: info, session_id: session.id, ws_key: session.wsKey, expires_at: session.expiresAt.toISOString() };
  });

  r.post('/api/v1/auth/logout', { config: { access: { signedIn: true } }, schema: { tags: ['auth'] } }, async (req) => {
    const auth = authOf(req);
    await db.transaction(async (tx) => {
      await revokeSessions(tx, bus, { adminId: auth.admin.id, sessionId: auth.sessionId }, 'sign-out');
      await tx.update(admins).set({ onlineStatus: 1, onlineUpdatedAt: new Date() }).where(eq(admins.id, auth.admin.id));
      await writeAudit(tx, req, { type: LOG_TYPE.login, content: `Signed out "${auth.admin.account}"` });
    });
    return { ok: true };
  });

  r.get('/api/v1/auth/me', { config: { access: { signedIn: true } }, schema: { tags: ['auth'] } }, async (req) => {
    const auth = authOf(req);
    const { info, keys, isSuper } = await userInfoOf(db, auth.admin.id);
    const [s] = await db.execute<{ ws_key: string }>(sql`select ws_key from sessions where id = ${auth.sessionId}`).then((x) => (x as unknown as { rows: { ws_key: string }[] }).rows);
    const menus = await menuTree(db, isSuper ? 'all' : keys);
    const token = String(req.headers.authorization ?? '').slice(7);
    return { user_info: info, token, session_id: auth.sessionId, ws_key: s?.ws_key ?? '', menus };
  });

  r.post('/api/v1/auth/password', { config: { access: { signedIn: true } }, schema: { tags: ['auth'], body: changePasswordBody } }, async (req) => {
    const auth = authOf(req);
    const { old_password, new_password, confirm_password } = req.body;
    if (!old_password) throw badRequest('OLD_PASSWORD_REQUIRED', [{ field: 'old_password' }]);
    if (!new_password) throw badRequest('NEW_PASSWORD_REQUIRED', [{ field: 'new_password' }]);
    if (new_password !== confirm_password) throw badRequest('PASSWORDS_INCONSISTENT', [{ field: 'confirm_password' }]);
    const strong = validatePassword(new_password);
    if (!strong.ok) throw badRequest(strong.code, [{ field: 'new_password' }]);
    const [admin] = await db.select().from(admins).where(eq(admins.id, auth.admin.id));
    if (!(await verifyPassword(admin.passwordHash, old_password))) throw unprocessable('OLD_PASSWORD_WRONG');
    const hash = await hashPassword(new_password);
    await db.transaction(async (tx) => {
      await tx.update(admins).set({ passwordHash: hash, passwordChangedAt: new Date(), updatedAt: new Date() }).where(eq(admins.id, auth.admin.id));
      await revokeSessions(tx, bus, { adminId: auth.admin.id }, 'password changed');
      await writeAudit(tx, req, { type: LOG_TYPE.update_password, content: `Changed own password "${auth.admin.account}"` });
    });
    return { ok: true };
  });

  r.post('/api/v1/auth/google/setup', { config: { access: { signedIn: true } }, schema: { tags: ['auth'] } }, async (req) => {
    const auth = authOf(req);
    const [admin] = await db.select().from(admins).where(eq(admins.id, auth.admin.id));
    if (admin.googleBound === 1) throw new AppError(409, 'CONFLICT');
    const secret = newTotpSecret();
    const [site] = await db.select({ title: siteConfig.title }).from(siteConfig).where(eq(siteConfig.id, 1));
    await db.update(admins).set({ googlePendingSecret: secret }).where(eq(admins.id, auth.admin.id));
    await writeAudit(db, req, { type: LOG_TYPE.update_user_info, content: `Started Google authenticator binding "${auth.admin.account}"` });
    return { secret, ...(await totpSetup(admin.account, site?.title ?? 'Dau', secret)) };
  });

  r.post('/api/v1/auth/google/bind', { config: { access: { signedIn: true } }, schema: { tags: ['auth'], body: googleCodeBody } }, async (req) => {
    const auth = authOf(req);
    const [admin] = await db.select().from(admins).where(eq(admins.id, auth.admin.id));
    if (!admin.googlePendingSecret || !totpVerify(admin.googlePendingSecret, req.body.code)) throw unprocessable('GOOGLE_CODE_INVALID');
    await db.transaction(async (tx) => {
      await tx.update(admins).set({ googleSecret: admin.googlePendingSecret, googlePendingSecret: null, googleBound: 1, updatedAt: new Date() }).where(eq(admins.id, admin.id));
      await writeAudit(tx, req, { type: LOG_TYPE.update_user_info, content: `Bound Google authenticator "${admin.account}"`, before: { google_bound: 2 }, after: { google_bound: 1 } });
    });
    return { ok: true };
  });

  r.post('/api/v1/auth/google/unbind', { config: { access: { signedIn: true } }, schema: { tags: ['auth'], body: googleCodeBody } }, async (req) => {
    const auth = authOf(req);
    const [admin] = await db.select().from(admins).where(eq(admins.id, auth.admin.id));
    if (admin.googleBound !== 1 || !admin.googleSecret || !totpVerify(admin.googleSecret, req.body.code)) throw unprocessable('GOOGLE_CODE_INVALID');
    await db.transaction(async (tx) => {
      await tx.update(admins).set({ googleSecret: null, googleBound: 2, updatedAt: new Date() }).where(eq(admins.id, admin.id));
      await writeAudit(tx, req, { type: LOG_TYPE.update_user_info, content: `Unbound Google authenticator "${admin.account}"`, before: { google_bound: 1 }, after: { google_bound: 2 } });
    });
    return { ok: true };
  });

  r.get('/api/v1/auth/register-config', { config: { access: { public: true } }, schema: { tags: ['auth'] } }, async () => {
    const [cfg] = await db.select().from(subscriberConfig).where(eq(subscriberConfig.id, 1));
    return { allow_registration: !!cfg?.allowRegistration, no_registration_tip: cfg?.noRegistrationTip ?? '' };
  });

  r.post('/api/v1/auth/register', { config: { access: { public: true } }, schema: { tags: ['auth'], body: registerBody } }, async (req, reply) => {
    const [cfg] = await db.select().from(subscriberConfig).where(eq(subscriberConfig.id, 1));
    if (!cfg?.allowRegistration) throw new AppError(403, 'REGISTER_DISABLED');
    const { account, password, confirm_password, invitation_code } = req.body;
    const acc = validateAccount(account);
    if (!acc.ok) throw badRequest(acc.code, [{ field: 'account' }]);
    if (password !== confirm_password) throw badRequest('REGISTER_PASSWORDS_INCONSISTENT', [{ field: 'confirm_password' }]);
    if (password.toLowerCase() === account.toLowerCase()) throw badRequest('REGISTER_ACCOUNT_EQUALS_PASSWORD', [{ field: 'password' }]);
    const strong = validatePassword(password);
    if (!strong.ok) throw badRequest(strong.code, [{ field: 'password' }]);
    const taken = await db.select({ id: admins.id }).from(admins).where(eq(sql`lower(${admins.account})`, account.toLowerCase())).limit(1);
    if (taken.length) throw new AppError(409, 'ACCOUNT_EXISTS');
    let superior: { id: number; path: string } | undefined;
    if (invitation_code) {
      [superior] = await db.select({ id: admins.id, path: admins.path }).from(admins).where(eq(admins.invitationCode, invitation_code));
      if (!superior) throw badRequest('PARAM_INVALID', [{ field: 'invitation_code' }]);
    }
    const roleId = cfg.defaultRoleId ?? (await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'Default')))[0]?.id;
    const hash = await hashPassword(password);
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(admins)
        .values({
          account, passwordHash: hash, roleId: roleId!, superiorId: superior?.id ?? null,
          path: superior ? `${superior.path}${superior.id}/` : '/', shareRatio: cfg.shareRatio, registerIp: req.ip,
        })
        .returning({ id: admins.id, account: admins.account });
      await writeAudit(tx, req, { type: LOG_TYPE.new_user, content: `Registered admin "${account}"`, adminId: row.id, account, after: { account, superior_id: superior?.id ?? null } });
      return row;
    });
    return reply.status(201).send(created);
  });
}
