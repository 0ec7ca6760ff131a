import type { FastifyInstance } from 'fastify';
import { likeEscape } from '../../platform/listing.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { aliasedTable, and, asc, count, desc, eq, ilike, inArray, like, sql, type SQL } from 'drizzle-orm';
import {
  adminCreateBody, adminRow as adminAnswer, adminUpdateBody, disableBody, notifyBody, resetPasswordBody,
} from '@dau/contract';
import { LOG_TYPE, tzPhoneStored, validateAccount, validateShareRatio } from '@dau/domain';
import { checkPassword } from '../../platform/password-policy.js';
import { admins, roles } from '../../platform/schema.js';
import { assertInSubtree, heldKeys, roleKeys } from './admins-service.js';
import { authChanged, authOf, revokeSessions, type AuthContext } from '../../platform/access.js';
import { assertRoleVisible, subtreeCondition } from '../../platform/ownership.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { generatePassword, hashPassword } from '../../platform/crypto.js';
import { writeAudit } from '../../platform/audit.js';
import { localeOf } from '../../platform/http.js';
import { cellReader, csvHeader, csvLine, labelsFor, labelsParam, timeZoneOf } from '../../platform/csv.js';
import type { ExportColumn } from '../../platform/listing.js';
import { pageQuery, pageOffset } from '../../platform/paging.js';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { createNotices, publishNotices } from '../notices/index.js';

const superiors = aliasedTable(admins, 'superior');

const filters = z.object({
  account: z.string().trim().max(64).optional(),
  name: z.string().trim().max(64).optional(),
  phone: z.string().trim().max(20).optional(),
  role_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  superior_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  disabled: z.coerce.number().int().min(1).max(2).optional(),
  online_status: z.coerce.number().int().min(1).max(2).optional(),
  google_bound: z.coerce.number().int().min(1).max(2).optional(),
});
const listQuery = pageQuery.extend(filters.shape);
const exportQuery = filters.extend({ labels: labelsParam });
/** The columns of the CSV download, in order (enum ids written as their labels in the caller's language). */
const EXPORT_COLUMNS: readonly (ExportColumn & { key: keyof ReturnType<typeof toAdminRow> })[] = [
  { key: 'id' }, { key: 'account' }, { key: 'name' }, { key: 'phone' }, { key: 'role_name' }, { key: 'superior_account' }, { key: 'share_ratio' },
  { key: 'online_status', enum: 'online_status' }, { key: 'member_expiry' }, { key: 'register_time' }, { key: 'login_ip' }, { key: 'login_time' },
  { key: 'disabled', enum: 'user_disabled' }, { key: 'google_bound', enum: 'google_binding' },
];
const adminList = z.object({ items: z.array(adminAnswer), total: z.number(), page: z.number(), page_size: z.number() });
const adminOptions = z.object({ items: z.array(z.object({ id: z.number(), account: z.string(), name: z.string() })) });
/** A password is answered only when the server generated it (shown once). */
const generatedPassword = z.object({ password: z.string().optional() });
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const SORTABLE: Record<string, ReturnType<typeof sql> | typeof admins.id> = {
  id: admins.id,
  account: sql`lower(${admins.account})`,
  register_time: sql`${admins.registerTime}`,
  login_time: sql`${admins.loginTime}`,
  share_ratio: sql`${admins.shareRatio}`,
};


/**
 * An administrator's phone in the form bettors' phones are kept: a Tanzanian mobile number in any form
 * ("0712 000 111", "+255712000111") as "255712000111"; another country's number written with its code
 * ("+86 138…", "0086 138…") as its digits; empty stays empty. Anything else is refused (400 PHONE_INVALID).
 */
function adminPhone(input: string): string {
  if (!input.trim()) return '';
  const tz = tzPhoneStored(input);
  if (tz) return tz;
  const compact = input.trim().replace(/[\s\-.()\u00a0]/g, '');
  const foreign = /^(?:\+|00)([1-9]\d{6,14})$/.exec(compact);
  if (foreign && !foreign[1]!.startsWith('255')) return foreign[1]!;
  throw badRequest('PHONE_INVALID', [{ field: 'phone' }]);
}

/** The list's phone filter: a whole number in any form finds it exactly; a part finds it inside (without a leading 0 or +). */
function phoneFilter(input: string): SQL {
  const whole = tzPhoneStored(input);
  if (whole) return eq(admins.phone, whole);
  const part = input.replace(/[\s\-.()\u00a0]/g, '').replace(/^(\+|0+)/, '');
  return like(admins.phone, `%${likeEscape(part)}%`);
}

function whereOf(auth: AuthContext, q: z.infer<typeof filters>): SQL | undefined {
  return and(
    subtreeCondition(auth),
    q.account ? ilike(admins.account, `%${likeEscape(q.account)}%`) : undefined,
    q.name ? ilike(admins.name, `%${likeEscape(q.name)}%`) : undefined,
    q.phone ? phoneFilter(q.phone) : undefined,
    q.role_id ? eq(admins.roleId, q.role_id) : undefined,
    q.superior_id ? eq(admins.superiorId, q.superior_id) : undefined,
    q.disabled ? eq(admins.disabled, q.disabled) : undefined,
    q.online_status ? eq(admins.onlineStatus, q.online_status) : undefined,
    q.google_bound ? eq(admins.googleBound, q.google_bound) : undefined,
  );
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function selectRows(ex: Executor) {
  return ex
    .select({
      a: admins,
      roleName: roles.name,
      superiorAccount: superiors.account,
      subordinates: sql<number>`(select count(*)::int from admins s where s.superior_id = "admins"."id")`,
    })
    .from(admins)
    .innerJoin(roles, eq(roles.id, admins.roleId))
    .leftJoin(superiors, eq(superiors.id, admins.superiorId));
}

interface Row {
  a: typeof admins.$inferSelect;
  roleName: string;
  superiorAccount: string | null;
  subordinates: number;
}

export function toAdminRow(r: Row) {
  const a = r.a;
  return {
    id: a.id, account: a.account, name: a.name, phone: a.phone, role_id: a.roleId, role_name: r.roleName,
    superior_id: a.superiorId, superior_account: r.superiorAccount ?? null, share_ratio: a.shareRatio, balance: a.balance,
    invitation_code: a.invitationCode, online_status: a.onlineStatus, online_update_time: iso(a.onlineUpdatedAt),
    member_expiry: iso(a.memberExpiry), register_ip: a.registerIp, register_time: a.registerTime.toISOString(),
    login_ip: a.loginIp, login_time: iso(a.loginTime), disabled: a.disabled, google_bound: a.googleBound,
    subordinates: Number(r.subordinates),
  };
}

async function loadAdmin(ex: Executor, id: number) {
  const [row] = await selectRows(ex).where(eq(admins.id, id));
  if (!row) throw notFound();
  return toAdminRow(row);
}

/**
 * A role may be given only by someone who holds every permission in it, and only a role they own or hold
 * themselves (the role options): a role of another branch given here would tie that branch's hands.
 */
async function assertRoleAssignable(ex: Executor, auth: AuthContext, roleId: number) {
  const { isSuper, keys } = await roleKeys(ex, roleId);
  if (auth.isSuper) return;
  if (isSuper) throw new AppError(403, 'CANNOT_GRANT_UNHELD');
  const held = heldKeys(auth);
  for (const k of keys) if (!held.has(k)) throw new AppError(403, 'CANNOT_GRANT_UNHELD');
  await assertRoleVisible(ex, auth, roleId);
}

/** A superior may not give a subordinate a share ratio above their own (the super admin has no limit). */
async function assertShareWithinOwn(ex: Executor, auth: AuthContext, share: string) {
  if (auth.isSuper) return;
  const [own] = await ex.select({ shareRatio: admins.shareRatio }).from(admins).where(eq(admins.id, auth.admin.id));
  if (Number(share) > Number(own.shareRatio)) throw new AppError(403, 'SHARE_RATIO_ABOVE_OWN', { max: String(Number(own.shareRatio)) }, [{ field: 'share_ratio' }]);
}

type AdminAnswer = ReturnType<typeof toAdminRow>;
/** The console's date-time inputs hold whole seconds: an expiry sent back unchanged may have lost its milliseconds. */
const toSecond = (v: string | null | undefined) => (v ? Math.floor(Date.parse(v) / 1000) : null);
const sameInstant = (a: string | null | undefined, b: string | null) => toSecond(a) === toSecond(b);

/**
 * On their own record an admin changes only name and phone here (password and Google binding have their
 * own routes): superior, role, share ratio, expiry and invitation code are a superior's. The console's form
 * sends every field, so a value equal to the current one is not a change.
 */
function assertOwnRecordEdit(before: AdminAnswer, b: z.infer<typeof adminUpdateBody>, share: string | undefined) {
  if (b.role_id !== undefined && b.role_id !== before.role_id) throw new AppError(422, 'CANNOT_CHANGE_OWN_ROLE');
  const changed = [
    b.superior_id !== undefined && (b.superior_id ?? null) !== before.superior_id ? 'superior_id' : null,
    share !== undefined && Number(share) !== Number(before.share_ratio) ? 'share_ratio' : null,
    b.member_expiry !== undefined && !sameInstant(b.member_expiry, before.member_expiry) ? 'member_expiry' : null,
    b.invitation_code !== undefined && (b.invitation_code || null) !== before.invitation_code ? 'invitation_code' : null,
  ].filter((f) => f !== null);
  if (changed.length) throw new AppError(403, 'OWN_RECORD_LIMITED', {}, changed.map((field) => ({ field })));
}

/** A superior must be the acting admin or someone in their subtree; returns the new path below it. */
async function superiorPath(ex: Executor, auth: AuthContext, superiorId: number | null | undefined): Promise<{ id: number | null; path: string }> {
  if (superiorId == null) {
    if (!auth.isSuper) return { id: auth.admin.id, path: `${auth.admin.path}${auth.admin.id}/` };
    return { id: null, path: '/' };
  }
  await assertInSubtree(ex, auth, superiorId, { allowSelf: true });
  const [s] = await ex.select({ id: admins.id, path: admins.path }).from(admins).where(eq(admins.id, superiorId));
  return { id: s.id, path: `${s.path}${s.id}/` };
}

function checkShareRatio(v: unknown) {
  if (v === undefined) return undefined;
  const r = validateShareRatio(v);
  if (!r.ok) throw badRequest('SHARE_RATIO_INVALID', [{ field: 'share_ratio' }]);
  // A share ratio is the agent's fraction of their branch's result: 0.35 = 35 %.
  if (r.value > 1) throw badRequest('PARAM_INVALID', [{ field: 'share_ratio', message: 'at most 1 (100 %)' }]);
  return String(r.value);
}

export function adminRoutes(app: FastifyInstance, { db, bus }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/v1/system/administrators';
  const tags = ['administrators'];

  r.get(base, { config: { access: { page: 'administrators' } }, schema: { tags, summary: 'Administrators of the caller\'s subtree', querystring: listQuery, response: { 200: adminList } } }, async (req) => {
    const auth = authOf(req);
    const q = req.query;
    const where = whereOf(auth, q);
    const sortKey = (q.sort ?? '-id').replace(/^-/, '');
    const col = SORTABLE[sortKey];
    if (!col) throw badRequest('PARAM_INVALID', [{ field: 'sort' }]);
    const dir = (q.sort ?? '-id').startsWith('-') ? desc : asc;
    const [rows, [{ n }]] = await Promise.all([
      selectRows(db).where(where).orderBy(dir(col as never), dir(admins.id)).limit(q.page_size).offset(pageOffset(q)),
      db.select({ n: count() }).from(admins).where(where),
    ]);
    return { items: rows.map(toAdminRow), total: Number(n), page: q.page, page_size: q.page_size };
  });

  r.get(`${base}/options`, { config: { access: { page: 'administrators' } }, schema: { tags, summary: 'The caller and their subtree, for superior pickers', response: { 200: adminOptions } } }, async (req) => {
    const auth = authOf(req);
    const rows = await db
      .select({ id: admins.id, account: admins.account, name: admins.name })
      .from(admins)
      .where(subtreeCondition(auth))
      .orderBy(asc(admins.account))
      .limit(1000);
    return { items: rows };
  });

  r.get(`${base}/export`, { config: { access: { page: 'administrators', button: 'export' } }, schema: { tags, summary: 'CSV of the caller\'s subtree', querystring: exportQuery, response: { 200: z.string().describe('text/csv') } } }, async (req, reply) => {
    const auth = authOf(req);
    const { labels, ...query } = req.query;
    const where = whereOf(auth, query);
    const locale = localeOf(req);
    const zone = await timeZoneOf(db, auth.admin.id);
    // Headers in the caller's language, values as the background exports write them (platform/csv.ts).
    const read = EXPORT_COLUMNS.map((c) => cellReader(c, locale, zone));
    const keys = EXPORT_COLUMNS.map((c) => c.key);
    async function* lines() {
      yield csvHeader(keys, labelsFor(labels, keys));
      for (let offset = 0; ; offset += 1000) {
        const rows = (await selectRows(db).where(where).orderBy(asc(admins.id)).limit(1000).offset(offset)).map(toAdminRow);
        if (!rows.length) return;
        yield rows.map((a) => csvLine(keys.map((k, i) => read[i]!(a[k])))).join('');
        if (rows.length < 1000) return;
      }
    }
    await writeAudit(db, req, { type: LOG_TYPE.ordinary, content: 'Exported administrators', after: query });
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="administrators-${new Date().toISOString().slice(0, 10)}.csv"`);
    // A stream is piped, never serialized: the response schema only documents the CSV.
    return reply.send(Readable.from(lines()) as never);
  });

  r.get(`${base}/:id`, { config: { access: { page: 'administrators' } }, schema: { tags, summary: 'An administrator of the caller\'s subtree (or themselves)', params: idParams, response: { 200: adminAnswer } } }, async (req) => {
    await assertInSubtree(db, authOf(req), req.params.id, { allowSelf: true });
    return loadAdmin(db, req.params.id);
  });

  r.post(base, {
    config: { access: { page: 'administrators', button: 'create' } },
    schema: { tags, summary: 'Create an administrator in the caller\'s subtree', body: adminCreateBody, response: { 201: z.object({ admin: adminAnswer, password: z.string().optional() }) } },
  }, async (req, reply) => {
    const auth = authOf(req);
    const b = req.body;
    const acc = validateAccount(b.account);
    if (!acc.ok) throw badRequest(acc.code, [{ field: 'account' }]);
    const share = checkShareRatio(b.share_ratio ?? 0);
    const phone = adminPhone(b.phone);
    let password = b.password?.trim() ? b.password : undefined;
    if (password) {
      const p = checkPassword(password);
      if (!p.ok) throw badRequest(p.code, [{ field: 'password' }]);
    }
    const generated = !password;
    password ??= generatePassword();
    const hash = await hashPassword(password);
    const id = await db.transaction(async (tx) => {
      const taken = await tx.select({ id: admins.id }).from(admins).where(eq(sql`lower(${admins.account})`, b.account.toLowerCase())).limit(1);
      if (taken.length) throw new AppError(409, 'ACCOUNT_EXISTS');
      await assertRoleAssignable(tx, auth, b.role_id);
      await assertShareWithinOwn(tx, auth, share ?? '0');
      const sup = await superiorPath(tx, auth, b.superior_id);
      const [row] = await tx
        .insert(admins)
        .values({
          account: b.account, name: b.name, phone, passwordHash: hash, roleId: b.role_id, superiorId: sup.id,
          path: sup.path, shareRatio: share ?? '0', memberExpiry: b.member_expiry ? new Date(b.member_expiry) : null,
          invitationCode: b.invitation_code || null, registerIp: req.ip,
        })
        .returning({ id: admins.id });
      const after = await loadAdmin(tx, row.id);
      await writeAudit(tx, req, { type: LOG_TYPE.new_user, content: `Created administrator "${b.account}"`, after });
      return row.id;
    });
    return reply.status(201).send({ admin: await loadAdmin(db, id), ...(generated ? { password } : {}) });
  });

  r.put(`${base}/:id`, {
    config: { access: { page: 'administrators', button: 'edit' } },
    schema: { tags, summary: 'Edit an administrator below the caller, or name and phone of their own record', params: idParams, body: adminUpdateBody, response: { 200: adminAnswer } },
  }, async (req) => {
    const auth = authOf(req);
    const id = req.params.id;
    const b = req.body;
    const isSelf = id === auth.admin.id;
    if (isSelf && b.role_id !== undefined && b.role_id !== auth.admin.roleId) throw new AppError(422, 'CANNOT_CHANGE_OWN_ROLE');
    const share = checkShareRatio(b.share_ratio);
    const phone = b.phone === undefined ? undefined : adminPhone(b.phone);
    const result = await db.transaction(async (tx) => {
      // Someone else's record: strictly below the caller. One's own: only the fields an admin keeps.
      if (!isSelf) await assertInSubtree(tx, auth, id);
      const before = await loadAdmin(tx, id);
      if (isSelf) assertOwnRecordEdit(before, b, share);
      const set: Partial<typeof admins.$inferInsert> = { updatedAt: new Date() };
      if (b.name !== undefined) set.name = b.name;
      if (phone !== undefined) set.phone = phone;
      if (share !== undefined && Number(share) !== Number(before.share_ratio)) {
        await assertShareWithinOwn(tx, auth, share);
        set.shareRatio = share;
      }
      if (b.member_expiry !== undefined) set.memberExpiry = b.member_expiry ? new Date(b.member_expiry) : null;
      if (b.invitation_code !== undefined) set.invitationCode = b.invitation_code || null;
      const roleChanged = b.role_id !== undefined && b.role_id !== before.role_id;
      if (roleChanged) {
        await assertRoleAssignable(tx, auth, b.role_id!);
        set.roleId = b.role_id;
      }
      if (b.superior_id !== undefined && b.superior_id !== before.superior_id && !isSelf) {
        if (b.superior_id === id) throw badRequest('PARAM_INVALID', [{ field: 'superior_id' }]);
        const sup = await superiorPath(tx, auth, b.superior_id);
        const [cur] = await tx.select({ path: admins.path }).from(admins).where(eq(admins.id, id));
        const oldPrefix = `${cur.path}${id}/`;
        // A superior cannot be one's own descendant.
        if (sup.path.startsWith(oldPrefix)) throw badRequest('PARAM_INVALID', [{ field: 'superior_id' }]);
        set.superiorId = sup.id;
        set.path = sup.path;
        const newPrefix = `${sup.path}${id}/`;
        await tx
          .update(admins)
          .set({ path: sql`${newPrefix} || substr(${admins.path}, ${oldPrefix.length + 1})` })
          .where(like(admins.path, `${oldPrefix}%`));
      }
      await tx.update(admins).set(set).where(eq(admins.id, id));
      // A new superior moves the whole subtree (paths): every cached session may hold an old path.
      await authChanged(bus, set.path !== undefined ? { all: true } : { adminId: id });
      if (roleChanged) await revokeSessions(tx, bus, { adminId: id }, 'role changed');
      const after = await loadAdmin(tx, id);
      await writeAudit(tx, req, { type: LOG_TYPE.update_user_info, content: `Edited administrator "${before.account}"`, before, after });
      return after;
    });
    return result;
  });

  r.post(`${base}/:id/disable`, { config: { access: { page: 'administrators', button: 'disable' } }, schema: { tags, summary: 'Disable or enable an administrator below the caller', params: idParams, body: disableBody, response: { 200: adminAnswer } } }, async (req) => {
    const auth = authOf(req);
    if (req.params.id === auth.admin.id) throw new AppError(422, 'CANNOT_CHANGE_OWN_ROLE');
    return db.transaction(async (tx) => {
      await assertInSubtree(tx, auth, req.params.id);
      const before = await loadAdmin(tx, req.params.id);
      await tx.update(admins).set({ disabled: req.body.disabled, updatedAt: new Date(), ...(req.body.disabled === 2 ? { onlineStatus: 1, onlineUpdatedAt: new Date() } : {}) }).where(eq(admins.id, req.params.id));
      if (req.body.disabled === 2) await revokeSessions(tx, bus, { adminId: req.params.id }, 'disabled');
      const after = await loadAdmin(tx, req.params.id);
      await writeAudit(tx, req, { type: LOG_TYPE.update_user_info, content: `${req.body.disabled === 2 ? 'Disabled' : 'Enabled'} administrator "${before.account}"`, before: { disabled: before.disabled }, after: { disabled: after.disabled } });
      return after;
    });
  });

  r.post(`${base}/:id/reset-password`, { config: { access: { page: 'administrators', button: 'reset_password' } }, schema: { tags, summary: 'Reset the password of an administrator below the caller', params: idParams, body: resetPasswordBody, response: { 200: generatedPassword } } }, async (req) => {
    const auth = authOf(req);
    let password = req.body.password?.trim() ? req.body.password : undefined;
    if (password) {
      const p = checkPassword(password);
      if (!p.ok) throw badRequest(p.code, [{ field: 'password' }]);
    }
    const generated = !password;
    password ??= generatePassword();
    const hash = await hashPassword(password);
    await db.transaction(async (tx) => {
      await assertInSubtree(tx, auth, req.params.id);
      const [a] = await tx.select({ account: admins.account }).from(admins).where(eq(admins.id, req.params.id));
      await tx.update(admins).set({ passwordHash: hash, passwordChangedAt: new Date(), updatedAt: new Date() }).where(eq(admins.id, req.params.id));
      await revokeSessions(tx, bus, { adminId: req.params.id }, 'password reset');
      await writeAudit(tx, req, { type: LOG_TYPE.reset_password, content: `Reset the password of "${a.account}"` });
    });
    return generated ? { password } : {};
  });

  r.post(`${base}/:id/unbind-google`, { config: { access: { page: 'administrators', button: 'unbind_google' } }, schema: { tags, summary: 'Unbind the Google authenticator of an administrator below the caller', params: idParams, response: { 200: adminAnswer } } }, async (req) => {
    const auth = authOf(req);
    return db.transaction(async (tx) => {
      await assertInSubtree(tx, auth, req.params.id);
      const before = await loadAdmin(tx, req.params.id);
      await tx.update(admins).set({ googleSecret: null, googlePendingSecret: null, googleBound: 2, updatedAt: new Date() }).where(eq(admins.id, req.params.id));
      const after = await loadAdmin(tx, req.params.id);
      await writeAudit(tx, req, { type: LOG_TYPE.update_user_info, content: `Unbound Google authenticator of "${before.account}"`, before: { google_bound: before.google_bound }, after: { google_bound: 2 } });
      return after;
    });
  });

  r.post(`${base}/notify`, { config: { access: { page: 'administrators', button: 'notify' } }, schema: { tags, summary: 'Send a notice to administrators of the caller\'s subtree', body: notifyBody, response: { 200: z.object({ sent: z.number() }) } } }, async (req) => {
    const auth = authOf(req);
    const ids = [...new Set(req.body.admin_ids)];
    const inScope = await db.select({ id: admins.id }).from(admins).where(and(inArray(admins.id, ids), subtreeCondition(auth)));
    if (inScope.length !== ids.length) throw new AppError(403, 'OUT_OF_SCOPE');
    const rows = await db.transaction(async (tx) => {
      const created = await createNotices(tx, ids, req.body.content, auth.admin.id);
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Sent a notice to ${ids.length} administrator(s)`, after: req.body });
      return created;
    });
    await publishNotices(bus, rows);
    return { sent: rows.length };
  });

}
