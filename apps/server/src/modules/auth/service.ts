import type { FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { LOG_TYPE, parseIpAddress, parseIpOrCidr } from '@dau/domain';
import { subscriberConfig } from '../system/index.js';
import { admins, roles } from '../../platform/schema.js';
import { loginAttempts } from './schema.js';
import { totpAccept } from './totp.js';
import { hashPassword, verifyPassword } from '../../platform/crypto.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import type { Bus, Db, Executor } from '../../platform/db.js';
import { createNotices, publishNotices } from '../notices/index.js';

/**
 * Sign-in that resists guessing without locking the owner out (OWASP ASVS 2.2.1). Every attempt that is
 * checked against a password is a row of `login_attempts` (account name, client place), written BEFORE
 * the check so that concurrent requests and several server processes count each other. Three limits,
 * in this order, answer 429 LOGIN_THROTTLED with Retry-After and without checking the password:
 *  1. per place (address; an IPv6 /64): at most max(20, limit) failures within the window, whatever the
 *     account names (password spraying);
 *  2. per account + place: the subscriber config's failure limit within its window (default 5 in 15 min);
 *  3. per account, from everywhere: after `limit` failures since the account's last success (24 h at
 *     most) each further attempt waits 2^(failures - limit) seconds after the previous failure, at most
 *     the window. An address this account signed in from within 90 days (a known place) skips this
 *     back-off, so a stranger's failures never keep the owner with the right password and code out.
 * A success resets 2 and 3 for that account. A request refused by a limit is not counted.
 */
export const LOGIN_IP_FAILURE_LIMIT = 20;
export const KNOWN_PLACE_DAYS = 90;
export const ACCOUNT_HORIZON_HOURS = 24;

export interface LoginLimits {
  limit: number;
  windowMinutes: number;
}

export async function loginLimits(db: Db): Promise<LoginLimits> {
  const [cfg] = await db
    .select({ limit: subscriberConfig.loginFailureLimit, window: subscriberConfig.failureWindowMinutes })
    .from(subscriberConfig)
    .where(eq(subscriberConfig.id, 1));
  return { limit: Math.max(1, cfg?.limit ?? 5), windowMinutes: Math.max(1, cfg?.window ?? 15) };
}

/** The place an attempt comes from: the IPv4 address, or the /64 network of an IPv6 address (one subscriber's). */
export function placeOf(ip: string): string {
  const a = parseIpAddress(ip);
  if (!a.ok) return ip.slice(0, 64);
  if (a.value.version === 4) return a.value.address;
  const net = parseIpOrCidr(`${a.value.address}/64`);
  return net.ok ? net.value.text : a.value.address;
}

/** Seconds the account-wide back-off asks after `failures` failures (0 below the limit). */
export function backoffSeconds(failures: number, { limit, windowMinutes }: LoginLimits): number {
  if (failures < limit) return 0;
  return Math.min(2 ** Math.min(failures - limit, 30), windowMinutes * 60);
}

interface Counts {
  nowMs: number;
  ipFailures: number;
  ipOldestMs: number | null;
  pairFailures: number;
  pairOldestMs: number | null;
  accountFailures: number;
  accountLastMs: number | null;
  knownPlace: boolean;
}

/** What came before attempt `id` (the rows of concurrent attempts with a lower id included). */
async function countsBefore(db: Executor, id: number, account: string, place: string, { windowMinutes }: LoginLimits): Promise<Counts> {
  const windowSec = windowMinutes * 60;
  const horizonSec = Math.max(ACCOUNT_HORIZON_HOURS * 3600, windowSec);
  const ms = (col: string) => sql.raw(`(extract(epoch from ${col}) * 1000)::float8`);
  const res = await db.execute(sql`
    with acc as (
      select id, ip, success, created_at from ${loginAttempts}
      where account = ${account} and id < ${id} and created_at > now() - ${horizonSec} * interval '1 second'
    ), ok as (
      select coalesce(max(id) filter (where success), 0) as any_ok,
             coalesce(max(id) filter (where success and ip = ${place}), 0) as pair_ok
      from acc
    ), ipf as (
      select count(*)::int as n, min(created_at) as oldest from ${loginAttempts}
      where ip = ${place} and not success and id < ${id} and created_at > now() - ${windowSec} * interval '1 second'
    ), pairf as (
      select count(*)::int as n, min(acc.created_at) as oldest from acc, ok
      where acc.ip = ${place} and not acc.success and acc.id > ok.pair_ok and acc.created_at > now() - ${windowSec} * interval '1 second'
    ), accf as (
      select count(*)::int as n, max(acc.created_at) as last from acc, ok where not acc.success and acc.id > ok.any_ok
    )
    select ${ms('now()')} as now_ms, ipf.n as ip_n, ${ms('ipf.oldest')} as ip_oldest, pairf.n as pair_n, ${ms('pairf.oldest')} as pair_oldest,
      accf.n as acc_n, ${ms('accf.last')} as acc_last,
      exists (
        select 1 from ${loginAttempts}
        where account = ${account} and ip = ${place} and success and created_at > now() - ${KNOWN_PLACE_DAYS} * interval '1 day'
      ) as known
    from ipf, pairf, accf`);
  const row = (res as unknown as { rows: Record<string, unknown>[] }).rows[0]!;
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    nowMs: Number(row.now_ms),
    ipFailures: Number(row.ip_n),
    ipOldestMs: num(row.ip_oldest),
    pairFailures: Number(row.pair_n),
    pairOldestMs: num(row.pair_oldest),
    accountFailures: Number(row.acc_n),
    accountLastMs: num(row.acc_last),
    knownPlace: row.known === true || row.known === 't',
  };
}

export const ipLimitOf = (limits: LoginLimits) => Math.max(LOGIN_IP_FAILURE_LIMIT, limits.limit);

/** Seconds this attempt must wait before it may be checked, 0 when it may be checked now. */
function waitSeconds(c: Counts, limits: LoginLimits): number {
  const windowMs = limits.windowMinutes * 60_000;
  const untilMs = (t: number | null, plus: number) => (t === null ? 1000 : t + plus - c.nowMs);
  const waits: number[] = [];
  if (c.ipFailures >= ipLimitOf(limits)) waits.push(untilMs(c.ipOldestMs, windowMs));
  if (c.pairFailures >= limits.limit) waits.push(untilMs(c.pairOldestMs, windowMs));
  if (!c.knownPlace) {
    const backoff = backoffSeconds(c.accountFailures, limits);
    if (backoff > 0) waits.push(untilMs(c.accountLastMs, backoff * 1000));
  }
  const ms = Math.max(0, ...waits);
  return ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0;
}

/** A hash to verify against when the account does not exist, so both paths take the same time. */
let dummyHash: Promise<string> | null = null;
const getDummyHash = () => (dummyHash ??= hashPassword('not-a-real-password-0'));

type AdminRecord = typeof admins.$inferSelect;
type FailCode = 'LOGIN_FAILED' | 'GOOGLE_CODE_REQUIRED' | 'LOGIN_CODE_FAILED';

export interface LoginInput {
  account: string;
  password: string;
  google_code?: string;
}

/**
 * Checks a sign-in and answers the admin, or throws: 400 for a missing field, 429 LOGIN_THROTTLED, 401 for
 * wrong credentials, 403 for a disabled account. An admin with Google bound is asked for the code
 * (GOOGLE_CODE_REQUIRED) whenever none was sent, whether the password was right or not, and a wrong
 * password or a wrong code with a code both answer LOGIN_CODE_FAILED: the answer never tells that the
 * password alone was right. Every checked failure is counted; on success the caller marks the attempt
 * `attemptId` successful in the transaction that opens the session.
 */
export async function checkSignIn(
  db: Db,
  bus: Bus,
  req: FastifyRequest,
  reply: FastifyReply,
  input: LoginInput,
): Promise<{ admin: AdminRecord; attemptId: number }> {
  const account = input.account.trim();
  const key = account.toLowerCase();
  if (!account) throw badRequest('LOGIN_USERNAME_REQUIRED', [{ field: 'account' }]);
  if (!input.password) throw badRequest('LOGIN_PASSWORD_REQUIRED', [{ field: 'password' }]);
  const limits = await loginLimits(db);
  const place = placeOf(req.ip);

  // Counted first (as a failure until it succeeds), so that concurrent attempts see each other: the
  // attempt is recorded and the ones before it counted under locks of its account and its place (taken
  // in that order by every attempt), so an attempt on another process cannot count before this one commits.
  const { id, counts } = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login-account:${key}`}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login-place:${place}`}))`);
    const [{ id }] = await tx.insert(loginAttempts).values({ account: key, ip: place, success: false }).returning({ id: loginAttempts.id });
    return { id, counts: await countsBefore(tx, id, key, place, limits) };
  });
  const wait = waitSeconds(counts, limits);
  if (wait > 0) {
    await db.delete(loginAttempts).where(eq(loginAttempts.id, id));
    reply.header('retry-after', String(wait));
    throw new AppError(429, 'LOGIN_THROTTLED', { seconds: wait });
  }

  const [admin] = await db.select().from(admins).where(eq(sql`lower(${admins.account})`, key)).limit(1);
  const passwordOk = await verifyPassword(admin?.passwordHash ?? (await getDummyHash()), input.password);

  const fail = async (code: FailCode): Promise<never> => {
    const accountFailures = counts.accountFailures + 1;
    await writeAudit(db, req, {
      type: LOG_TYPE.login, content: `Failed sign-in for "${account}" (${code}, ${accountFailures}/${limits.limit})`, status: 401,
      adminId: admin?.id ?? null, account,
    });
    const alerts: string[] = [];
    if (accountFailures === limits.limit) {
      alerts.push(`Sign-in of account "${account}" slowed down after ${accountFailures} failed sign-ins (the last from ${req.ip}); known places are not slowed.`);
    }
    if (counts.ipFailures + 1 === ipLimitOf(limits)) {
      alerts.push(`Sign-in from ${place} refused for ${limits.windowMinutes} min after ${counts.ipFailures + 1} failed sign-ins (last account "${account}").`);
    }
    for (const content of alerts) {
      await writeAudit(db, req, { type: LOG_TYPE.login, content, status: 429, adminId: admin?.id ?? null, account });
      const supers = await db.select({ id: admins.id }).from(admins).innerJoin(roles, eq(roles.id, admins.roleId)).where(eq(roles.isSuper, true));
      await publishNotices(bus, await createNotices(db, supers.map((s) => s.id), content));
    }
    throw new AppError(401, code);
  };

  const googleBound = !!admin && admin.googleBound === 1 && !!admin.googleSecret;
  if (googleBound) {
    if (!input.google_code) return fail('GOOGLE_CODE_REQUIRED');
    if (!passwordOk || !(await totpAccept(db, admin.id, admin.googleSecret!, input.google_code))) return fail('LOGIN_CODE_FAILED');
  } else if (!admin || !passwordOk) {
    return fail('LOGIN_FAILED');
  }
  const expiry = admin!.memberExpiry;
  const expired = !!expiry && expiry.getTime() <= Date.now();
  if (admin!.disabled === 2 || expired) {
    await writeAudit(db, req, { type: LOG_TYPE.login, content: `Refused sign-in of ${admin!.disabled === 2 ? 'disabled' : 'expired'} account "${account}"`, status: 403, adminId: admin!.id, account });
    // Disabled says disabled; an account that only ran out says so, and when (UTC: the sign-in page knows no zone yet).
    if (admin!.disabled === 2) throw new AppError(403, 'ACCOUNT_DISABLED');
    throw new AppError(403, 'ACCOUNT_EXPIRED', { at: `${expiry!.toISOString().slice(0, 16).replace('T', ' ')} UTC` });
  }
  return { admin: admin!, attemptId: id };
}
