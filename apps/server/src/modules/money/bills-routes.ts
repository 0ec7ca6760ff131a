import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { aliasedTable, and, asc, eq, gte, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { ACCOUNT_KIND, ARCHIVE_SPLIT_DAYS, BILL_TYPE, validatePhone } from '@dau/domain';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { bettors, bills } from './schema.js';
import { admins } from '../../platform/schema.js';
import { authOf } from '../../platform/access.js';
import { badRequest } from '../../platform/errors.js';
import { defineList, isoDate, optionalInt, optionalText, registerList, scopeCondition, scopeOf, type Scope } from '../../platform/listing.js';
import { answerRow } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import type { MessageCode } from '@dau/domain';

const actors = aliasedTable(admins, 'actor');

/** An agent's share of a result in cents: exact (the ratio has 4 decimals), rounded towards zero. */
export function shareOf(cents: number, ratio: string): number {
  const [whole, frac = ''] = ratio.split('.');
  const units = BigInt(whole) * 10_000n + BigInt((frac + '0000').slice(0, 4));
  return Number((BigInt(cents) * units) / 10_000n);
}

const billFilters = z.object({
  bettor_id: optionalInt,
  phone: optionalText,
  serial_number: optionalText,
  type: optionalInt,
  admin_id: optionalInt,
  agent_id: optionalInt,
  cause_type: optionalText,
  cause_id: optionalText,
  created_at_from: isoDate,
  created_at_to: isoDate,
});
type BillFilters = z.infer<typeof billFilters>;

const normalPhone = (input: string) => {
  const p = validatePhone(input);
  return p.ok ? p.value : input.replace(/\s+/g, '');
};

/** Rows of the bettor with this phone (as typed: +255…, 0…, spaces): an exact, indexed lookup of one bettor, not a scan. */
export const ofBettorPhone = (bettorColumn: PgColumn, phone: string) => eq(bettorColumn, sql`(select id from bettors where phone = ${normalPhone(phone)})`);
/** A list's bettor filters on its bettor column: the bettor's id and the bettor's phone as typed (either or both). */
export const ofBettor = (bettorColumn: PgColumn, q: { bettor_id?: number; phone?: string }) =>
  and(q.bettor_id ? eq(bettorColumn, q.bettor_id) : undefined, q.phone ? ofBettorPhone(bettorColumn, q.phone) : undefined);

/** The 30-day split (spec §9): lists read the recent window, archives what is older. */
export const archiveCutoff = () => new Date(Date.now() - ARCHIVE_SPLIT_DAYS * 86_400_000);

type Window = 'recent' | 'archive';

/**
 * A list's period filter (created_at_from, created_at_to) split at the archive cutoff: `recent` the rows
 * since the cutoff, `archive` the rows before it, `all` the period as asked.
 */
export function archiveWindow(col: PgColumn, window: Window | 'all', q: { created_at_from?: string; created_at_to?: string }): SQL | undefined {
  const cutoff = archiveCutoff();
  const from = q.created_at_from ? new Date(q.created_at_from) : undefined;
  const to = q.created_at_to ? new Date(q.created_at_to) : undefined;
  return and(
    window === 'recent' ? gte(col, from && from > cutoff ? from : cutoff) : window === 'archive' ? lt(col, to && to < cutoff ? to : cutoff) : undefined,
    window !== 'archive' && to ? lt(col, to) : undefined,
    window !== 'recent' && from ? gte(col, from) : undefined,
  );
}

function billWhere(kind: number, window: Window, extra?: (q: BillFilters) => SQL | undefined) {
  return (q: BillFilters, scope: Scope): SQL | undefined => {
    return and(
      eq(bills.accountKind, kind),
      archiveWindow(bills.createdAt, window, q),
      scopeCondition(scope, bills.agentId),
      ofBettor(bills.bettorId, q),
      q.serial_number ? eq(bills.serialNumber, q.serial_number) : undefined,
      q.type ? eq(bills.type, q.type) : undefined,
      q.admin_id ? eq(bills.adminId, q.admin_id) : undefined,
      q.agent_id ? eq(bills.agentId, q.agent_id) : undefined,
      q.cause_type ? eq(bills.causeType, q.cause_type) : undefined,
      q.cause_id ? eq(bills.causeId, q.cause_id) : undefined,
      extra?.(q),
    );
  };
}

const selectBills = (ex: Executor) =>
  ex
    .select({ bill: bills, phone: bettors.phone, name: bettors.name, adminAccount: actors.account })
    .from(bills)
    .innerJoin(bettors, eq(bettors.id, bills.bettorId))
    .leftJoin(actors, eq(actors.id, bills.adminId));

/**
 * A row of the bill lists (what toBillRow builds). `remark` is an admin's free text (or the text of a row
 * written before issue 23); `remark_kind` and `remark_params` are what the system says, which the console
 * and the exports render in the reader's language (domain `billRemarkText`).
 */
export const billRow = answerRow({
  id: 'number', serial_number: 'string', bettor_id: 'number', phone: 'string?', user_name: 'string?', account_kind: 'number', type: 'number',
  amount: 'number', before_change: 'number', balance: 'number', cause_type: 'string?', cause_id: 'string?', admin_id: 'number?',
  admin_account: 'string?', remark: 'string?', remark_kind: 'string?', update_time: 'string',
}).extend({ remark_params: z.record(z.string(), z.union([z.string(), z.number()])).nullable() });

/** A row of the agents' statement. */
const statementRow = answerRow({
  agent_id: 'number?', account: 'string', share_ratio: 'string', stakes: 'number', payouts: 'number', recharges: 'number', withdrawals: 'number',
  bonuses: 'number', admin_changes: 'number', ggr: 'number', share: 'number',
});

export function toBillRow(r: { bill: typeof bills.$inferSelect; phone: string; name: string; adminAccount: string | null }) {
  const b = r.bill;
  return {
    id: b.id, serial_number: b.serialNumber, bettor_id: b.bettorId, phone: r.phone, user_name: r.name, account_kind: b.accountKind,
    type: b.type, amount: b.amount, before_change: b.balanceBefore, balance: b.balanceAfter, cause_type: b.causeType, cause_id: b.causeId,
    admin_id: b.adminId, admin_account: r.adminAccount, remark: b.remark, remark_kind: b.remarkKind, remark_params: b.remarkParams ?? null,
    update_time: b.createdAt.toISOString(),
  };
}

/**
 * The bills a cause moved (an order's stake, payout, cashout and resettlements), oldest first, as bill
 * rows: `since` bounds the scan to the cause's life (bills are partitioned by time in effect).
 */
export async function billsOfCause(ex: Executor, causeType: string, causeId: string, since: Date) {
  const rows = await ex
    .select({ bill: bills, phone: bettors.phone, name: bettors.name, adminAccount: admins.account })
    .from(bills)
    .innerJoin(bettors, eq(bettors.id, bills.bettorId))
    .leftJoin(admins, eq(admins.id, bills.adminId))
    .where(and(eq(bills.causeType, causeType), eq(bills.causeId, causeId), gte(bills.createdAt, since)))
    .orderBy(asc(bills.id));
  return rows.map(toBillRow);
}

const columns = (typeEnum: string) =>
  [
    { key: 'serial_number' }, { key: 'phone' }, { key: 'user_name' }, { key: 'type', enum: typeEnum }, { key: 'amount', money: true },
    { key: 'before_change', money: true }, { key: 'balance', money: true }, { key: 'cause_type' }, { key: 'cause_id' },
    { key: 'admin_account' }, { key: 'remark', remark: true }, { key: 'update_time' },
  ] as const;

const requireUserOrSerial = (q: BillFilters): MessageCode | null => (q.bettor_id || q.phone || q.serial_number ? null : 'RECHARGE_USER_REQUIRED');
const requirePhone = (q: BillFilters): MessageCode | null => (q.phone || q.bettor_id ? null : 'CS_PHONE_REQUIRED');

const billList = (
  name: string, page: string, path: string, kind: number, window: Window,
  opts: { require?: (q: BillFilters) => MessageCode | null; extra?: (q: BillFilters) => SQL | undefined; scopeMode?: 'serving' } = {},
) =>
  defineList({
    name, page, path, filters: billFilters, require: opts.require, scopeMode: opts.scopeMode, where: billWhere(kind, window, opts.extra), select: selectBills,
    idColumn: bills.id, sortable: { id: bills.id, update_time: bills.createdAt, amount: bills.amount },
    // Newest first by time: the order of the partitions and of every (x, created_at) index.
    defaultSort: '-update_time',
    countFrom: (ex: Executor) => ex.select({ id: bills.id }).from(bills),
    toRow: toBillRow, row: billRow, columns: columns(kind === ACCOUNT_KIND.cash ? 'bill_type' : 'credit_bill_type'),
  });

export const BILL_LISTS = [
  billList('bill', 'bill', '/api/v1/money/bills', ACCOUNT_KIND.cash, 'recent'),
  billList('bill_credit', 'bill_credit', '/api/v1/money/bill_credit', ACCOUNT_KIND.credit, 'recent'),
  billList('cs_bill', 'cs_bill', '/api/v1/money/cs/bills', ACCOUNT_KIND.cash, 'recent', { require: requirePhone, scopeMode: 'serving' }),
  billList('admin_bill', 'admin_bill', '/api/v1/money/admin_bills', ACCOUNT_KIND.cash, 'recent', { extra: () => isNotNull(bills.adminId) }),
  billList('bill_archive', 'bill_archive', '/api/v1/money/bills/archive', ACCOUNT_KIND.cash, 'archive', { require: requireUserOrSerial }),
  billList('bill_credit_archive', 'bill_credit_archive', '/api/v1/money/bill_credit/archive', ACCOUNT_KIND.credit, 'archive', { require: requireUserOrSerial }),
];

/**
 * Each agent's statement for a period (admin_bill): their bettors' stakes, payouts, recharges,
 * withdrawals, bonuses and admin corrections from the bills, the gross gaming revenue and the agent's
 * share of it at their share ratio. Money in cents; the share is rounded down to the cent.
 */
export function billRoutes(app: FastifyInstance, { db }: AppContext) {
  for (const spec of BILL_LISTS) registerList(app, db, spec);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/v1/money/admin_bills/statement', {
    config: { access: { page: 'admin_bill' } },
    schema: {
      tags: ['admin_bill'], summary: 'Statement per agent over a period: stakes, payouts, money in and out, GGR and share',
      querystring: z.object({ from: z.string().datetime({ offset: true }), to: z.string().datetime({ offset: true }) }),
      response: { 200: z.object({ items: z.array(statementRow), from: z.string(), to: z.string() }) },
    },
  }, async (req) => {
    const from = new Date(req.query.from);
    const to = new Date(req.query.to);
    if (!(from < to) || to.getTime() - from.getTime() > 366 * 86_400_000) throw badRequest('PARAM_INVALID', [{ field: 'to' }]);
    const scope = await scopeOf(db, authOf(req));
    const T = BILL_TYPE;
    const sum = (types: number[], only?: SQL) =>
      sql<string>`coalesce(sum(${bills.amount}) filter (where ${bills.type} in (${sql.join(types.map((x) => sql`${x}`), sql`, `)})${only ? sql` and ${only}` : sql``}), 0)`;
    // Bill 8 "amount rolled back" is a withdrawal's money coming back when it is caused by a withdrawal, and
    // otherwise a refund or a correction of a bet (a void order, a casino rollback, a cancelled race, a
    // settlement reversed): a payout, so that GGR = stakes - payouts nets a refunded stake to zero.
    const withdrawalCause = sql`${bills.causeType} = 'withdrawal'`;
    const rows = await db
      .select({
        agentId: bills.agentId,
        account: admins.account,
        shareRatio: admins.shareRatio,
        // Bill 3 "jackpot payment" is a ticket's stake when it debits, a prize (first settlement, a held prize paid) when it credits (issue 23).
        stakes: sql<string>`${sum([T.bet, T.casino_bet, T.virtual_racing_bet])} + ${sum([T.jackpot_payment], sql`${bills.amount} < 0`)}`,
        payouts: sql<string>`${sum([T.bet_payout, T.casino_win, T.racing_result_change, T.jackpot_result_change])} + ${sum([T.jackpot_payment], sql`${bills.amount} > 0`)} + ${sum([T.amount_rolled_back], sql`not (${withdrawalCause})`)}`,
        recharges: sum([T.user_recharge, T.ussd_deposit]),
        withdrawals: sql<string>`${sum([T.user_withdrawal])} + ${sum([T.amount_rolled_back], withdrawalCause)}`,
        bonuses: sum([T.continuous_signup_promotion, T.invitation_bonus, T.inviter_profit_reward, T.bet_to_get_bonus, T.activity_award, T.casino_award]),
        adminChanges: sum([T.admin_balance_change]),
      })
      .from(bills)
      .innerJoin(admins, eq(admins.id, bills.agentId))
      .where(and(eq(bills.accountKind, ACCOUNT_KIND.cash), gte(bills.createdAt, from), lt(bills.createdAt, to), scopeCondition(scope, bills.agentId)))
      .groupBy(bills.agentId, admins.account, admins.shareRatio)
      .orderBy(admins.account);
    return {
      items: rows.map((x) => {
        // Stakes are debits (negative) and payouts credits: the house wins what bettors lose.
        const ggr = -(Number(x.stakes) + Number(x.payouts));
        return {
          agent_id: x.agentId, account: x.account, share_ratio: x.shareRatio, stakes: -Number(x.stakes), payouts: Number(x.payouts),
          recharges: Number(x.recharges), withdrawals: -Number(x.withdrawals), bonuses: Number(x.bonuses), admin_changes: Number(x.adminChanges),
          ggr, share: shareOf(ggr, x.shareRatio),
        };
      }),
      from: from.toISOString(),
      to: to.toISOString(),
    };
  });
}
