import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { aliasedTable, and, count, eq, gte, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE, LOG_TYPE, validatePhone } from '@dau/domain';
import { bettors, bills } from './schema.js';
import { admins } from '../../platform/schema.js';
import { HOUSE, post } from './ledger.js';
import { bettorDetailParts, moveBettorRows, newInvitationCode, scopedBettor } from './bettors-service.js';
import { bettorNetworkAnswer } from '@dau/contract';
import { authOf } from '../../platform/access.js';
import { agentInScope } from '../../platform/ownership.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import { generatePassword, hashPassword } from '../../platform/crypto.js';
import { idempotent } from '../../platform/idempotency.js';
import { dayStart, localDay } from '@dau/domain';
import { defineList, isoDate, optionalInt, optionalText, registerList, scopeCondition, scopeOf, withinDates, type Scope, likeEscape } from '../../platform/listing.js';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { PUSH, PUSH_TO_BETTORS } from '../../platform/socket.js';

const agents = aliasedTable(admins, 'agent');
const inviters = aliasedTable(bettors, 'inviter');
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A full number in any local form (0754…, +255 754…) is an exact, indexed lookup; a fragment a contains-search. */
export function phoneCondition(input: string): SQL {
  const full = validatePhone(input);
  return full.ok ? eq(bettors.phone, full.value) : ilike(bettors.phone, `%${likeEscape(input.replace(/\s+/g, ''))}%`);
}

const bettorFilters = z.object({
  id: optionalInt,
  phone: optionalText,
  name: optionalText,
  invitation_code: optionalText,
  agent_id: optionalInt,
  inviter_id: optionalInt,
  disabled: optionalInt,
  online_status: optionalInt,
  risk_level: optionalInt,
  bet_status: optionalInt,
  created_at_from: isoDate,
  created_at_to: isoDate,
});
type BettorFilters = z.infer<typeof bettorFilters>;

export function bettorWhere(q: BettorFilters, scope: Scope): SQL | undefined {
  return and(
    scopeCondition(scope, bettors.agentId),
    q.id ? eq(bettors.id, q.id) : undefined,
    q.phone ? phoneCondition(q.phone) : undefined,
    q.name ? ilike(bettors.name, `%${likeEscape(q.name)}%`) : undefined,
    q.invitation_code ? eq(bettors.invitationCode, q.invitation_code) : undefined,
    q.agent_id ? eq(bettors.agentId, q.agent_id) : undefined,
    q.inviter_id ? eq(bettors.inviterId, q.inviter_id) : undefined,
    q.disabled ? eq(bettors.disabled, q.disabled) : undefined,
    q.online_status ? eq(bettors.onlineStatus, q.online_status) : undefined,
    q.risk_level ? eq(bettors.riskLevel, q.risk_level) : undefined,
    q.bet_status ? eq(bettors.betStatus, q.bet_status) : undefined,
    withinDates(bettors.createdAt, q.created_at_from, q.created_at_to),
  );
}

const selectBettors = (ex: Executor) =>
  ex
    .select({ b: bettors, agentAccount: agents.account, inviterPhone: inviters.phone })
    .from(bettors)
    .leftJoin(agents, eq(agents.id, bettors.agentId))
    .leftJoin(inviters, eq(inviters.id, bettors.inviterId));

export function toBettorRow(r: { b: typeof bettors.$inferSelect; agentAccount: string | null; inviterPhone: string | null }) {
  const b = r.b;
  return {
    id: b.id, phone: b.phone, name: b.name, invitation_code: b.invitationCode, inviter_id: b.inviterId, inviter_phone: r.inviterPhone,
    agent_id: b.agentId, agent_account: r.agentAccount, balance: b.cashBalance, credit_money: b.creditBalance,
    total_bets: b.totalBets, bets_num: b.betsNum, profit_num: b.profitNum, betting_profit: b.bettingProfit,
    total_recharge: b.totalRecharge, total_withdrawal: b.totalWithdrawal, total_reward: b.totalReward,
    google_bound: b.googleBound, disabled: b.disabled, online_status: b.onlineStatus, online_update_time: iso(b.onlineUpdatedAt),
    risk_level: b.riskLevel, bet_status: b.betStatus, register_ip: b.registerIp, last_login_time: iso(b.lastLoginAt),
    last_recharge_time: iso(b.lastRechargeAt), create_time: b.createdAt.toISOString(),
  };
}

const num = z.number();
const str = z.string();
const maybe = <T extends z.ZodType>(t: T) => t.nullable();
/** A bettor as the user screens show it (contract BETTOR_FIELDS): nothing else leaves the server. */
const bettorAnswer = z.object({
  id: num, phone: str, name: str, invitation_code: maybe(str), inviter_id: maybe(num), inviter_phone: maybe(str),
  agent_id: num, agent_account: maybe(str), balance: num, credit_money: num, total_bets: num, bets_num: num, profit_num: num,
  betting_profit: num, total_recharge: num, total_withdrawal: num, total_reward: num, google_bound: num, disabled: num,
  online_status: num, online_update_time: maybe(str), risk_level: num, bet_status: num, register_ip: maybe(str),
  last_login_time: maybe(str), last_recharge_time: maybe(str), create_time: str,
});
/** One bettor (GET /money/bettors/:id): the row, and what other modules add (payments: the phone's network, issue 28). */
// The one BettorRow (a component the bettor operations share) and, on the detail, the number's network.
const bettorDetailAnswer = z.intersection(bettorAnswer, z.object({ network: bettorNetworkAnswer.optional() }));
/** The answer of a balance or credit change: the bill it wrote (its receipt) and the new balance. */
const moneyAnswer = z.object({
  bill: z.object({ id: num, serialNumber: str, accountKind: num, type: num, amount: num, balanceBefore: num, balanceAfter: num, createdAt: str }),
  balance: num,
});

const BETTOR_COLUMNS = [
  { key: 'id' }, { key: 'phone' }, { key: 'name' }, { key: 'agent_account' }, { key: 'invitation_code' }, { key: 'inviter_phone' },
  { key: 'balance', money: true }, { key: 'credit_money', money: true }, { key: 'total_recharge', money: true },
  { key: 'total_withdrawal', money: true }, { key: 'total_bets', money: true }, { key: 'bets_num' }, { key: 'betting_profit', money: true },
  { key: 'total_reward', money: true }, { key: 'risk_level', enum: 'risk_level' }, { key: 'bet_status', enum: 'bet_status' },
  { key: 'disabled', enum: 'user_disabled' }, { key: 'online_status', enum: 'online_status' }, { key: 'create_time' },
] as const;

const bettorSortable = {
  id: bettors.id, balance: bettors.cashBalance, credit_money: bettors.creditBalance, total_recharge: bettors.totalRecharge,
  total_withdrawal: bettors.totalWithdrawal, total_bets: bettors.totalBets, betting_profit: bettors.bettingProfit, create_time: bettors.createdAt,
};

/** The bettor lists: `user` (management), `user_list` (read-only), `cs_user` (one user by phone), `online_statistical`. */
const bettorList = (name: string, page: string, path: string, extra: Partial<Parameters<typeof defineList<typeof bettorFilters>>[0]> = {}) =>
  defineList({
    name, page, path, filters: bettorFilters, where: bettorWhere, select: selectBettors, idColumn: bettors.id,
    sortable: bettorSortable, defaultSort: '-id', toRow: toBettorRow, row: bettorAnswer, columns: BETTOR_COLUMNS, ...extra,
  });

export const BETTOR_LISTS = [
  bettorList('user', 'user', '/api/v1/money/bettors'),
  bettorList('user_list', 'user_list', '/api/v1/money/user_list'),
  bettorList('cs_user', 'cs_user', '/api/v1/money/cs/bettors', { scopeMode: 'serving', require: (q) => (q.phone && q.phone.length >= 4 ? null : 'CS_PHONE_REQUIRED') }),
  bettorList('online_statistical', 'online_statistical', '/api/v1/money/online', {
    where: (q, scope) => and(bettorWhere(q, scope), eq(bettors.onlineStatus, 2)),
  }),
];

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const money = z.number().int().refine((v) => v !== 0 && Number.isSafeInteger(v), { message: 'a non-zero whole number of cents' });
const remark = z.string().trim().min(1).max(200);

export function bettorRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, bus } = ctx;
  for (const spec of BETTOR_LISTS) registerList(app, db, spec);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/v1/money/bettors';
  const tags = ['user'];

  r.get(`${base}/:id`, { config: { access: { page: 'user' } }, schema: { tags, summary: 'A bettor of the caller\'s scope', params: idParams, response: { 200: bettorDetailAnswer } } }, async (req) => {
    const scope = await scopeOf(db, authOf(req));
    const b = await scopedBettor(db, scope, req.params.id);
    const [row] = await selectBettors(db).where(eq(bettors.id, req.params.id));
    return { ...toBettorRow(row), ...(await bettorDetailParts(db, b)) };
  });

  /** Summary for the online statistics screen: online now and active today, in the caller's scope. */
  r.get('/api/v1/money/online/summary', { config: { access: { page: 'online_statistical' } }, schema: { tags: ['online_statistical'], summary: 'Online now, active today and total bettors of the caller\'s scope', response: { 200: z.object({ online: num, active_today: num, total: num }) } } }, async (req) => {
    const scope = await scopeOf(db, authOf(req));
    const sc = scopeCondition(scope, bettors.agentId);
    const todayStart = dayStart(localDay(new Date()));
    const [[online], [today], [total]] = await Promise.all([
      db.select({ n: count() }).from(bettors).where(and(sc, eq(bettors.onlineStatus, 2))),
      db.select({ n: count() }).from(bettors).where(and(sc, gte(bettors.lastLoginAt, todayStart))),
      db.select({ n: count() }).from(bettors).where(sc),
    ]);
    return { online: Number(online.n), active_today: Number(today.n), total: Number(total.n) };
  });

  const moneyEdit = (account: 'cash' | 'credit') => async (req: { params: { id: number }; body: { amount: number; remark: string } } & Parameters<typeof authOf>[0]) => {
    const auth = authOf(req);
    const scope = await scopeOf(db, auth);
    return idempotent(db, req, async (tx) => {
      const before = await scopedBettor(tx, scope, req.params.id);
      const bill = await post(tx, {
        bettorId: before.id,
        account: account === 'cash' ? ACCOUNT_KIND.cash : ACCOUNT_KIND.credit,
        amount: req.body.amount,
        type: account === 'cash' ? BILL_TYPE.admin_balance_change : CREDIT_BILL_TYPE.admin_credit_change,
        cause: { type: 'admin', id: auth.admin.id },
        house: account === 'cash' ? HOUSE.adminAdjustments : HOUSE.creditIssued,
        adminId: auth.admin.id,
        remark: req.body.remark,
      });
      await writeAudit(tx, req, {
        type: LOG_TYPE.update_balance,
        content: `${account === 'cash' ? 'Balance' : 'Credit money'} of bettor ${before.phone} ${req.body.amount > 0 ? '+' : ''}${req.body.amount} cents: ${req.body.remark}`,
        before: { [account === 'cash' ? 'balance' : 'credit_money']: bill.balanceBefore },
        after: { [account === 'cash' ? 'balance' : 'credit_money']: bill.balanceAfter, bill: bill.serialNumber },
      });
      return { bill: { ...bill, createdAt: bill.createdAt.toISOString() }, balance: bill.balanceAfter };
    });
  };

  const moneySchema = (what: string) => ({ tags, summary: `Add to or take from the ${what} of a bettor of the caller's scope (a bill)`, params: idParams, body: z.strictObject({ amount: money, remark }), response: { 200: moneyAnswer } });
  r.post(`${base}/:id/balance`, { config: { access: { page: 'user', button: 'edit_balance' } }, schema: moneySchema('cash balance') }, moneyEdit('cash'));
  r.post(`${base}/:id/credit`, { config: { access: { page: 'user', button: 'edit_credit' } }, schema: moneySchema('credit money') }, moneyEdit('credit'));

  /** A small audited update of bettor fields, in scope. */
  async function update(req: Parameters<typeof authOf>[0] & { params: { id: number } }, set: Partial<typeof bettors.$inferInsert>, content: string, type: number = LOG_TYPE.update_user_info, also?: (tx: Executor) => Promise<void>) {
    const auth = authOf(req);
    const scope = await scopeOf(db, auth);
    return db.transaction(async (tx) => {
      const before = await scopedBettor(tx, scope, req.params.id, true);
      const [after] = await tx.update(bettors).set({ ...set, updatedAt: new Date() }).where(eq(bettors.id, before.id)).returning();
      const pick = (o: Record<string, unknown>) => Object.fromEntries(Object.keys(set).map((k) => [k, o[k]]));
      await writeAudit(tx, req, { type, content: `${content} (bettor ${before.phone})`, before: pick(before), after: pick(after) });
      await also?.(tx);
      const [row] = await selectBettors(tx).where(eq(bettors.id, before.id));
      return toBettorRow(row);
    });
  }

  r.put(`${base}/:id/agent`, { config: { access: { page: 'user', button: 'change_agent' } }, schema: { tags, summary: 'Move a bettor of the caller\'s scope to an agent of that scope', params: idParams, body: z.strictObject({ agent_id: z.number().int().positive() }), response: { 200: bettorAnswer } } }, async (req) => {
    const scope = await scopeOf(db, authOf(req));
    if (!agentInScope(scope, req.body.agent_id)) throw new AppError(403, 'OUT_OF_SCOPE');
    const [agent] = await db.select({ id: admins.id }).from(admins).where(eq(admins.id, req.body.agent_id));
    if (!agent) throw badRequest('PARAM_INVALID', [{ field: 'agent_id' }]);
    // The bettor's money follows them, in the same transaction: the new branch sees the history, the old one no longer does.
    const row = await update(req, { agentId: req.body.agent_id }, `Changed the agent to #${req.body.agent_id}`, LOG_TYPE.update_user_info, async (tx) => {
      await moveBettorRows(tx, req.params.id, req.body.agent_id);
    });
    return row;
  });

  r.put(`${base}/:id/invitation-code`, { config: { access: { page: 'user', button: 'invitation_code' } }, schema: { tags, summary: 'Set or regenerate the invitation code of a bettor of the caller\'s scope', params: idParams, body: z.strictObject({ invitation_code: z.string().trim().regex(/^[A-Za-z0-9]{4,16}$/).optional() }), response: { 200: bettorAnswer } } }, async (req) => {
    const code = req.body.invitation_code?.toUpperCase() ?? newInvitationCode();
    const [taken] = await db.select({ id: bettors.id }).from(bettors).where(eq(bettors.invitationCode, code));
    if (taken && taken.id !== req.params.id) throw new AppError(409, 'CONFLICT');
    return update(req, { invitationCode: code }, 'Changed the invitation code');
  });

  r.post(`${base}/:id/reset-password`, { config: { access: { page: 'user', button: 'reset_password' } }, schema: { tags, summary: 'Reset the password of a bettor of the caller\'s scope (a generated one is answered once)', params: idParams, body: z.strictObject({ password: z.string().max(128).optional() }), response: { 200: z.object({ password: str.optional() }) } } }, async (req) => {
    const given = req.body.password?.trim() ? req.body.password : undefined;
    if (given && given.length < 6) throw badRequest('PASSWORD_TOO_WEAK', [{ field: 'password' }]);
    const password = given ?? generatePassword(10);
    await update(req, { passwordHash: await hashPassword(password) }, 'Reset the password', LOG_TYPE.reset_password);
    return given ? {} : { password };
  });

  r.post(`${base}/:id/disable`, { config: { access: { page: 'user', button: 'disable' } }, schema: { tags, summary: 'Disable or enable a bettor of the caller\'s scope', params: idParams, body: z.strictObject({ disabled: z.union([z.literal(1), z.literal(2)]) }), response: { 200: bettorAnswer } } }, async (req) =>
    update(req, { disabled: req.body.disabled }, req.body.disabled === 2 ? 'Disabled the bettor' : 'Enabled the bettor'),
  );

  r.put(`${base}/:id/risk`, {
    config: { access: { page: 'user', button: 'risk' } },
    schema: {
      tags, summary: 'Set the risk level or bet status of a bettor of the caller\'s scope', params: idParams,
      body: z.strictObject({ risk_level: z.number().int().min(1).max(5).optional(), bet_status: z.union([z.literal(1), z.literal(2)]).optional() }),
      response: { 200: bettorAnswer },
    },
  }, async (req) => {
    const set: Partial<typeof bettors.$inferInsert> = {};
    if (req.body.risk_level !== undefined) set.riskLevel = req.body.risk_level;
    if (req.body.bet_status !== undefined) set.betStatus = req.body.bet_status;
    // "No betting" risk implies bets are not allowed.
    if (req.body.risk_level === 5) set.betStatus = 2;
    if (!Object.keys(set).length) throw badRequest('PARAM_INVALID', [{ field: 'risk_level' }]);
    return update(req, set, 'Changed risk level or bet status');
  });

  /** Force-refresh (push type 2) all or selected online bettors of the caller's scope. */
  r.post('/api/v1/money/bettors/refresh', {
    config: { access: { page: 'user', button: 'refresh' } },
    schema: { tags, summary: 'Force-refresh online bettors of the caller\'s scope', body: z.strictObject({ bettor_ids: z.array(z.number().int().positive()).max(1000).optional() }), response: { 200: z.object({ sent: num }) } },
  }, async (req) => {
    const scope = await scopeOf(db, authOf(req));
    const ids = req.body.bettor_ids;
    const rows = await db
      .select({ id: bettors.id })
      .from(bettors)
      .where(and(scopeCondition(scope, bettors.agentId), eq(bettors.onlineStatus, 2), ids ? inArray(bettors.id, ids) : undefined));
    if (ids && rows.length !== new Set(ids).size) {
      const all = await db.select({ id: bettors.id, agentId: bettors.agentId, online: bettors.onlineStatus }).from(bettors).where(inArray(bettors.id, ids));
      if (all.some((b) => !agentInScope(scope, b.agentId))) throw new AppError(403, 'OUT_OF_SCOPE');
    }
    await bus.publish(PUSH_TO_BETTORS, { bettorIds: rows.map((x) => x.id), message: { status: true, type: PUSH.reload } });
    await writeAudit(db, req, { type: LOG_TYPE.ordinary, content: `Force-refreshed ${rows.length} online bettor(s)`, after: { bettor_ids: rows.map((x) => x.id) } });
    return { sent: rows.length };
  });
}
