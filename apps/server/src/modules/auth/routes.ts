import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq, sql } from 'drizzle-orm';
import {
  changePasswordBody, googleCodeBody, loginAnswer, loginBody, meAnswer, registerBody,
} from '@dau/contract';
import { LOG_TYPE, validateAccount } from '@dau/domain';
import { siteConfig, subscriberConfig } from '../system/index.js';
import { admins, roles } from '../../platform/schema.js';
import { loginAttempts } from './schema.js';
import { createSession } from './sessions.js';
import { newTotpSecret, totpAccept, totpSetup } from './totp.js';
import { checkSignIn } from './service.js';
import { checkPassword } from '../../platform/password-policy.js';
import { authOf, menuTree, revokeSessions, rolePermissionKeys } from '../../platform/access.js';
import { hashPassword, verifyPassword } from '../../platform/crypto.js';
import { AppError, badRequest, unprocessable } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';

const okAnswer = z.object({ ok: z.boolean() });
const googleSetupAnswer = z.object({ secret: z.string(), otpauth_url: z.string(), qr_data_url: z.string() });
const registerConfigAnswer = z.object({ allow_registration: z.boolean(), no_registration_tip: z.string() });
const registeredAnswer = z.object({ id: z.number(), account: z.string() });

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

  r.post(
    '/api/v1/auth/login',
    {
      // Refused credentials answer 401, repeated failures 429 LOGIN_THROTTLED (the API document says so).
      config: { access: { public: true }, refusals: [401, 429] },
      schema: { tags: ['auth'], summary: 'Sign in (account, password, and the Google code when bound)', body: loginBody, response: { 200: loginAnswer } },
    },
    async (req, reply) => {
      const { admin, attemptId } = await checkSignIn(db, bus, req, reply, req.body);
      const session = await db.transaction(async (tx) => {
        await tx.update(loginAttempts).set({ success: true }).where(eq(loginAttempts.id, attemptId));
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
    },
  );

  r.post('/api/v1/auth/logout', { config: { access: { signedIn: true } }, schema: { tags: ['auth'], summary: 'Sign out (ends this session)', response: { 200: okAnswer } } }, async (req) => {
    const auth = authOf(req);
    await db.transaction(async (tx) => {
      await revokeSessions(tx, bus, { adminId: auth.admin.id, sessionId: auth.sessionId }, 'sign-out');
      await tx.update(admins).set({ onlineStatus: 1, onlineUpdatedAt: new Date() }).where(eq(admins.id, auth.admin.id));
      await writeAudit(tx, req, { type: LOG_TYPE.login, content: `Signed out "${auth.admin.account}"` });
    });
    return { ok: true };
  });

  r.get('/api/v1/auth/me', { config: { access: { signedIn: true } }, schema: { tags: ['auth'], summary: 'The signed-in admin, the session and the menus', response: { 200: meAnswer } } }, async (req) => {
    const auth = authOf(req);
    const { info, keys, isSuper } = await userInfoOf(db, auth.admin.id);
    const [s] = await db.execute<{ ws_key: string }>(sql`select ws_key from sessions where id = ${auth.sessionId}`).then((x) => (x as unknown as { rows: { ws_key: string }[] }).rows);
    // The console builds its menu from the pages; the buttons it may press are in user_info.permissions
    // (a super admin holds them all), so the tree of buttons (two thirds of the nodes) is not sent.
    const menus = await menuTree(db, isSuper ? 'all' : keys, 'pages');
    const token = String(req.headers.authorization ?? '').slice(7);
    return { user_info: info, token, session_id: auth.sessionId, ws_key: s?.ws_key ?? '', menus };
  });

  r.post('/api/v1/auth/password', { config: { access: { signedIn: true } }, schema: { tags: ['auth'], summary: 'Change one\'s own password (ends every session)', body: changePasswordBody, response: { 200: okAnswer } } }, async (req) => {
    const auth = authOf(req);
    const { old_password, new_password, confirm_password } = req.body;
    if (!old_password) throw badRequest('OLD_PASSWORD_REQUIRED', [{ field: 'old_password' }]);
    if (!new_password) throw badRequest('NEW_PASSWORD_REQUIRED', [{ field: 'new_password' }]);
    if (new_password !== confirm_password) throw badRequest('PASSWORDS_INCONSISTENT', [{ field: 'confirm_password' }]);
    const strong = checkPassword(new_password);
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

  r.post('/api/v1/auth/google/setup', { config: { access: { signedIn: true } }, schema: { tags: ['auth'], summary: 'Start binding a Google authenticator (new secret and QR code)', response: { 200: googleSetupAnswer } } }, async (req) => {
    const auth = authOf(req);
    const [admin] = await db.select().from(admins).where(eq(admins.id, auth.admin.id));
    if (admin.googleBound === 1) throw new AppError(409, 'CONFLICT');
    const secret = newTotpSecret();
    const [site] = await db.select({ title: siteConfig.title }).from(siteConfig).where(eq(siteConfig.id, 1));
    await db.update(admins).set({ googlePendingSecret: secret }).where(eq(admins.id, auth.admin.id));
    await writeAudit(db, req, { type: LOG_TYPE.update_user_info, content: `Started Google authenticator binding "${auth.admin.account}"` });
    return { secret, ...(await totpSetup(admin.account, site?.title ?? 'Dau', secret)) };
  });

  // Binding and unbinding use up the code's time step like a sign-in: a code works once.
  r.post('/api/v1/auth/google/bind', { config: { access: { signedIn: true } }, schema: { tags: ['auth'], summary: 'Bind the Google authenticator with a code of the new secret', body: googleCodeBody, response: { 200: okAnswer } } }, async (req) => {
    const auth = authOf(req);
    const [admin] = await db.select().from(admins).where(eq(admins.id, auth.admin.id));
    if (!admin.googlePendingSecret || !(await totpAccept(db, admin.id, admin.googlePendingSecret, req.body.code))) throw unprocessable('GOOGLE_CODE_INVALID');
    await db.transaction(async (tx) => {
      await tx.update(admins).set({ googleSecret: admin.googlePendingSecret, googlePendingSecret: null, googleBound: 1, updatedAt: new Date() }).where(eq(admins.id, admin.id));
      await writeAudit(tx, req, { type: LOG_TYPE.update_user_info, content: `Bound Google authenticator "${admin.account}"`, before: { google_bound: 2 }, after: { google_bound: 1 } });
    });
    return { ok: true };
  });

  r.post('/api/v1/auth/google/unbind', { config: { access: { signedIn: true } }, schema: { tags: ['auth'], summary: 'Unbind one\'s own Google authenticator with a current code', body: googleCodeBody, response: { 200: okAnswer } } }, async (req) => {
    const auth = authOf(req);
    const [admin] = await db.select().from(admins).where(eq(admins.id, auth.admin.id));
    if (admin.googleBound !== 1 || !admin.googleSecret || !(await totpAccept(db, admin.id, admin.googleSecret, req.body.code))) throw unprocessable('GOOGLE_CODE_INVALID');
    await db.transaction(async (tx) => {
      await tx.update(admins).set({ googleSecret: null, googleBound: 2, updatedAt: new Date() }).where(eq(admins.id, admin.id));
      await writeAudit(tx, req, { type: LOG_TYPE.update_user_info, content: `Unbound Google authenticator "${admin.account}"`, before: { google_bound: 1 }, after: { google_bound: 2 } });
    });
    return { ok: true };
  });

  r.get('/api/v1/auth/register-config', { config: { access: { public: true } }, schema: { tags: ['auth'], summary: 'Whether self-registration is open, and the tip shown when not', response: { 200: registerConfigAnswer } } }, async () => {
    const [cfg] = await db.select().from(subscriberConfig).where(eq(subscriberConfig.id, 1));
    return { allow_registration: !!cfg?.allowRegistration, no_registration_tip: cfg?.noRegistrationTip ?? '' };
  });

  r.post('/api/v1/auth/register', { config: { access: { public: true } }, schema: { tags: ['auth'], summary: 'Register an admin account (when the subscriber config allows it)', body: registerBody, response: { 201: registeredAnswer } } }, async (req, reply) => {
    const [cfg] = await db.select().from(subscriberConfig).where(eq(subscriberConfig.id, 1));
    if (!cfg?.allowRegistration) throw new AppError(403, 'REGISTER_DISABLED');
    const { account, password, confirm_password, invitation_code } = req.body;
    const acc = validateAccount(account);
    if (!acc.ok) throw badRequest(acc.code, [{ field: 'account' }]);
    if (password !== confirm_password) throw badRequest('REGISTER_PASSWORDS_INCONSISTENT', [{ field: 'confirm_password' }]);
    if (password.toLowerCase() === account.toLowerCase()) throw badRequest('REGISTER_ACCOUNT_EQUALS_PASSWORD', [{ field: 'password' }]);
    const strong = checkPassword(password);
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
