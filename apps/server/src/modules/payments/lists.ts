import { z } from 'zod';
import { aliasedTable, and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { PAY_STATUS, PAY_TYPE, RECHARGE_CHANNEL, WITHDRAWAL_STATUS, validatePhone, type MessageCode } from '@dau/domain';
import { bettors } from '../money/index.js';
import { recharges, withdrawals } from './schema.js';
import { admins } from '../../platform/schema.js';
import { defineList, isoDate, optionalInt, optionalText, scopeCondition, type ExportColumn, type Scope } from '../../platform/listing.js';
import type { Executor } from '../../platform/db.js';
import { answerRow } from '@dau/contract';

/**
 * The list screens of recharges and withdrawals (spec §2 Users and money, archive lookups, cs_ views):
 * each is a ListSpec, so the list route, its count and the background export share the filters and the
 * admin's scope. Spec §9: the archive split is at 30 days; the recent lists never reach further back.
 */

const agents = aliasedTable(admins, 'agent');
const firstApprovers = aliasedTable(admins, 'first_approver');
const secondApprovers = aliasedTable(admins, 'second_approver');
const refusers = aliasedTable(admins, 'refuser');
const reconcilers = aliasedTable(admins, 'reconciler');

/** The reconciliation columns of a recharge or withdrawal row (the stuck queue's "reconcile"). */
const reconcileAnswer = {
  reconcile: 'boolean', reconcile_since: 'string?', reconcile_cause: 'string?', reconciled_by_id: 'number?', reconciled_by: 'string?',
  reconcile_time: 'string?', reconcile_reference: 'string?', reconcile_remark: 'string?',
} as const;
type ReconcileCols = {
  reconcileSince: Date | null; reconcileCause: string | null; reconciledBy: number | null; reconciledAt: Date | null;
  reconcileReference: string | null; reconcileRemark: string | null;
};
const reconcileRow = (r: ReconcileCols, waiting: boolean, reconciler: string | null) => ({
  reconcile: waiting && r.reconcileSince !== null, reconcile_since: iso(r.reconcileSince), reconcile_cause: r.reconcileCause,
  reconciled_by_id: r.reconciledBy, reconciled_by: reconciler, reconcile_time: iso(r.reconciledAt),
  reconcile_reference: r.reconcileReference, reconcile_remark: r.reconcileRemark,
});

const ARCHIVE_DAYS = 30;
const archiveCut = sql`now() - interval '${sql.raw(String(ARCHIVE_DAYS))} days'`;
/** Pending longer than the configured minutes: the stuck queue. */
const stuckCut = sql`now() - coalesce((select stuck_after_minutes from payment_config where id = 1), 15) * interval '1 minute'`;
const largeAmount = sql`coalesce((select large_withdrawal from payment_config where id = 1), 100000000)`;

const payTypeFilter = z.coerce
  .number()
  .int()
  .refine((v) => (Object.values(PAY_TYPE) as number[]).includes(v), { message: 'not a pay type' })
  .optional();
const bool = z.enum(['true', 'false']).optional();

const iso = (d: Date | string | null | undefined) => (d == null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const num = (v: unknown) => (v == null ? null : Number(v));
/** A phone as typed (0754..., +255 754...) finds the stored 255... form. */
const phoneOf = (s: string) => {
  const v = validatePhone(s);
  return v.ok ? v.value : s;
};

/** Date window: the recent list (last 30 days, narrowed by the filters) or the archive (older). */
function window(col: PgColumn | SQL, from: string | undefined, to: string | undefined, archive: boolean): SQL {
  const parts: SQL[] = [];
  if (archive) parts.push(sql`${col} < ${archiveCut}`);
  else parts.push(from ? sql`${col} >= greatest(${from}::timestamptz, ${archiveCut})` : sql`${col} >= ${archiveCut}`);
  if (archive && from) parts.push(sql`${col} >= ${from}::timestamptz`);
  if (to) parts.push(sql`${col} < ${to}::timestamptz`);
  return and(...parts)!;
}

/** A yes/no filter on a condition: `true` the rows that meet it, `false` the others. */
const flag = (v: 'true' | 'false' | undefined, cond: SQL) => (v === 'true' ? cond : v === 'false' ? sql`not ${cond}` : undefined);

// ------------------------------------------------------------------------------------------------
// What the recharge and withdrawal lists share: the filters, their conditions, a row's head, paging.

type PaymentTable = typeof recharges | typeof withdrawals;

/** The filters both lists start with (each adds its own after `pay_type`)... */
const paymentHeadFilters = {
  /** One recharge or withdrawal (a bill's source links here). */
  id: optionalInt,
  bettor_id: optionalInt,
  phone: optionalText,
  serial_number: optionalText,
  carrier_order_number: optionalText,
  pay_type: payTypeFilter,
};
/** ...and the ones both go on with (each adds its own flags after `stuck`, then `reconcile`). */
const paymentTailFilters = {
  pay_status: z.coerce.number().int().min(1).max(3).optional(),
  created_at_from: isoDate,
  created_at_to: isoDate,
  stuck: bool,
};

/** The conditions of the shared filters; `stuck` and `toReconcile` are the list's own conditions for those flags. */
function paymentWhere(t: PaymentTable, q: PaymentFilters, scope: Scope, archive: boolean, stuck: SQL, toReconcile: SQL) {
  return and(
    scopeCondition(scope, t.agentId),
    window(t.createdAt, q.created_at_from, q.created_at_to, archive),
    q.id ? eq(t.id, q.id) : undefined,
    q.bettor_id ? eq(t.bettorId, q.bettor_id) : undefined,
    q.phone ? eq(bettors.phone, phoneOf(q.phone)) : undefined,
    q.serial_number ? eq(t.serialNumber, q.serial_number) : undefined,
    q.carrier_order_number ? eq(t.carrierOrderNumber, q.carrier_order_number) : undefined,
    q.pay_type ? eq(t.payType, q.pay_type) : undefined,
    q.pay_status ? eq(t.payStatus, q.pay_status) : undefined,
    flag(q.stuck, stuck),
    flag(q.reconcile, toReconcile),
  );
}

/** The archive (older than 30 days) is searched only for one user or one order number. */
const archiveRequire = (q: PaymentFilters) =>
  q.bettor_id || q.phone || q.serial_number || q.carrier_order_number ? null : ('RECHARGE_USER_REQUIRED' as const);

/** The fields both rows start with: the order's numbers, its bettor and agent, amount and pay type. */
const paymentRowHead = (p: PaymentTable['$inferSelect'], x: { userPhone: string; userName: string; agentAccount: string | null }) => ({
  id: p.id, serial_number: p.serialNumber, carrier_order_number: p.carrierOrderNumber,
  user_id: p.bettorId, user_phone: x.userPhone, user_name: x.userName, phone: p.phone,
  agent_id: p.agentId, agent_account: x.agentAccount,
  amount: Number(p.amount), pay_type: p.payType,
});

/**
 * One kind's lists (recent, customer service, archive) from its filters, conditions, select and row:
 * the archive requires a user or an order number, the recent lists what the kind requires (if anything).
 */
function paymentLists<Q extends typeof rechargeFilters | typeof withdrawalFilters, S, R extends Record<string, unknown>>(k: {
  table: PaymentTable;
  filters: Q;
  recentRequire?: (q: z.infer<Q>) => MessageCode | null;
  where: (q: z.infer<Q>, scope: Scope, archive: boolean) => SQL | undefined;
  select: (ex: Executor) => { where(c: SQL): PromiseLike<unknown[]> };
  toRow: (x: S) => R;
  row: z.ZodObject;
  columns: readonly ExportColumn[];
}) {
  const t = k.table;
  const list = (name: string, path: string, archive: boolean) =>
    defineList<Q>({
      name, page: name, path,
      filters: k.filters,
      require: archive ? archiveRequire : k.recentRequire,
      where: (q, scope) => k.where(q, scope, archive),
      select: k.select,
      idColumn: t.id,
      sortable: { id: t.id, create_time: t.createdAt, amount: t.amount, pay_time: t.paidAt },
      defaultSort: '-id',
      toRow: k.toRow,
      row: k.row,
      columns: k.columns,
    });
  /** One row by id, as the lists show it. */
  const row = async (ex: Executor, id: number) => {
    const [x] = await k.select(ex).where(eq(t.id, id));
    return k.toRow(x as S);
  };
  return { list, row };
}

// ------------------------------------------------------------------------------------------------
// Recharges

export const rechargeFilters = z.object({
  ...paymentHeadFilters,
  /** How it was started: app request, USSD push or on chain (domain RECHARGE_CHANNEL). */
  recharge_channel: z.coerce
    .number()
    .int()
    .refine((v) => (Object.values(RECHARGE_CHANNEL) as number[]).includes(v), { message: 'not a recharge channel' })
    .optional(),
  ...paymentTailFilters,
  /** Waiting for reconciliation (the operator cannot tell the outcome). */
  reconcile: bool,
});
type RechargeFilters = z.infer<typeof rechargeFilters>;

const rechargeStuck = sql<boolean>`(${recharges.payStatus} = ${PAY_STATUS.processing} and ${recharges.createdAt} < ${stuckCut})`;
const rechargeToReconcile = sql<boolean>`(${recharges.payStatus} = ${PAY_STATUS.processing} and ${recharges.reconcileSince} is not null)`;

const selectRecharges = (ex: Executor) =>
  ex
    .select({ r: recharges, userName: bettors.name, userPhone: bettors.phone, agentAccount: agents.account, reconciler: reconcilers.account, stuck: rechargeStuck })
    .from(recharges)
    .innerJoin(bettors, eq(bettors.id, recharges.bettorId))
    .leftJoin(agents, eq(agents.id, recharges.agentId))
    .leftJoin(reconcilers, eq(reconcilers.id, recharges.reconciledBy));

type RechargeSel = { r: typeof recharges.$inferSelect; userName: string; userPhone: string; agentAccount: string | null; reconciler: string | null; stuck: boolean };

/** A row of the recharge lists (what toRechargeRow builds). */
export const rechargeAnswer = answerRow({
  id: 'number', serial_number: 'string', carrier_order_number: 'string?', user_id: 'number', user_phone: 'string?', user_name: 'string?',
  phone: 'string?', agent_id: 'number?', agent_account: 'string?', amount: 'number', pay_type: 'number', recharge_channel: 'number', pay_status: 'number',
  fail_reason: 'string?', callback_count: 'number?', previous_recharge_time: 'string?', create_time: 'string?', pay_time: 'string?', last_query_time: 'string?', stuck: 'boolean',
  ...reconcileAnswer,
});

export function toRechargeRow(x: RechargeSel) {
  const r = x.r;
  return {
    ...paymentRowHead(r, x),
    recharge_channel: r.channel, pay_status: r.payStatus, fail_reason: r.failReason,
    callback_count: r.callbackCount, previous_recharge_time: iso(r.previousRechargeAt), create_time: iso(r.createdAt),
    pay_time: iso(r.paidAt), last_query_time: iso(r.lastQueryAt), stuck: !!x.stuck,
    ...reconcileRow(r, r.payStatus === PAY_STATUS.processing, x.reconciler),
  };
}

const RECHARGE_COLUMNS: readonly ExportColumn[] = [
  { key: 'id' }, { key: 'serial_number' }, { key: 'carrier_order_number' }, { key: 'user_id' }, { key: 'user_phone' }, { key: 'user_name' },
  { key: 'agent_account' }, { key: 'amount', money: true }, { key: 'pay_type', enum: 'pay_type' }, { key: 'recharge_channel', enum: 'recharge_channel' },
  { key: 'pay_status', enum: 'pay_status' }, { key: 'fail_reason' }, { key: 'previous_recharge_time' }, { key: 'create_time' }, { key: 'pay_time' },
];

function rechargeWhere(q: RechargeFilters, scope: Scope, archive: boolean) {
  return and(
    paymentWhere(recharges, q, scope, archive, rechargeStuck, rechargeToReconcile),
    q.recharge_channel ? eq(recharges.channel, q.recharge_channel) : undefined,
  );
}

/**
 * Spec §5 "Please select the user to query": the recharge screens are query screens. A user (id or phone),
 * a serial number or a carrier order number identifies what to show; the stuck queue (`stuck=true`, small
 * by nature) is the one view that lists across users.
 */
const rechargeRequire = (q: RechargeFilters) =>
  q.id || q.bettor_id || q.phone || q.serial_number || q.carrier_order_number || q.stuck === 'true' || q.reconcile === 'true' ? null : ('RECHARGE_USER_REQUIRED' as const);

const rechargeLists = paymentLists({
  table: recharges, filters: rechargeFilters, recentRequire: rechargeRequire, where: rechargeWhere, select: selectRecharges,
  toRow: toRechargeRow, row: rechargeAnswer, columns: RECHARGE_COLUMNS,
});

export const rechargeListSpec = rechargeLists.list('recharge_list', '/api/v1/money/recharges', false);
export const csRechargeListSpec = { ...rechargeLists.list('cs_recharge', '/api/v1/money/cs/recharges', false), scopeMode: 'serving' as const };
export const rechargeArchiveSpec = rechargeLists.list('recharge_archive', '/api/v1/money/recharges/archive', true);
export const rechargeRow = rechargeLists.row;

// ------------------------------------------------------------------------------------------------
// Withdrawals

export const withdrawalFilters = z.object({
  ...paymentHeadFilters,
  status: z.coerce.number().int().min(1).max(7).optional(),
  ...paymentTailFilters,
  /** Over the large-withdrawal amount (needs a second approval). */
  large: bool,
  /** Waiting for reconciliation (the operator cannot tell the outcome). */
  reconcile: bool,
});
type WithdrawalFilters = z.infer<typeof withdrawalFilters>;
type PaymentFilters = Pick<RechargeFilters, keyof RechargeFilters & keyof WithdrawalFilters>;

const withdrawalStuck = sql<boolean>`(${withdrawals.status} = ${WITHDRAWAL_STATUS.disbursing} and coalesce(${withdrawals.disbursedAt}, ${withdrawals.createdAt}) < ${stuckCut})`;
const withdrawalLarge = sql<boolean>`(${withdrawals.amount} > ${largeAmount})`;
const withdrawalToReconcile = sql<boolean>`(${withdrawals.status} = ${WITHDRAWAL_STATUS.disbursing} and ${withdrawals.reconcileSince} is not null)`;

const selectWithdrawals = (ex: Executor) =>
  ex
    .select({
      w: withdrawals, userName: bettors.name, userPhone: bettors.phone, agentAccount: agents.account,
      firstApprover: firstApprovers.account, secondApprover: secondApprovers.account, refuser: refusers.account, reconciler: reconcilers.account,
      stuck: withdrawalStuck, large: withdrawalLarge,
    })
    .from(withdrawals)
    .innerJoin(bettors, eq(bettors.id, withdrawals.bettorId))
    .leftJoin(agents, eq(agents.id, withdrawals.agentId))
    .leftJoin(firstApprovers, eq(firstApprovers.id, withdrawals.firstApproverId))
    .leftJoin(secondApprovers, eq(secondApprovers.id, withdrawals.secondApproverId))
    .leftJoin(refusers, eq(refusers.id, withdrawals.refusedBy))
    .leftJoin(reconcilers, eq(reconcilers.id, withdrawals.reconciledBy));

type WithdrawalSel = {
  w: typeof withdrawals.$inferSelect; userName: string; userPhone: string; agentAccount: string | null;
  firstApprover: string | null; secondApprover: string | null; refuser: string | null; reconciler: string | null; stuck: boolean; large: boolean;
};

/** A row of the withdrawal lists (what toWithdrawalRow builds). */
export const withdrawalAnswer = answerRow({
  id: 'number', serial_number: 'string', carrier_order_number: 'string?', user_id: 'number', user_phone: 'string?', user_name: 'string?',
  phone: 'string?', agent_id: 'number?', agent_account: 'string?', amount: 'number', pay_type: 'number', status: 'number', pay_status: 'number',
  fail_reason: 'string?', refuse_reason: 'string?', first_approver_id: 'number?', first_approver: 'string?', second_approver_id: 'number?',
  second_approver: 'string?', refused_by_id: 'number?', refused_by: 'string?', disburse_attempts: 'number?', previous_recharge_time: 'string?',
  create_time: 'string?', review_time: 'string?', disburse_time: 'string?', pay_time: 'string?', last_query_time: 'string?', large: 'boolean',
  stuck: 'boolean', ...reconcileAnswer,
});

export function toWithdrawalRow(x: WithdrawalSel) {
  const w = x.w;
  return {
    ...paymentRowHead(w, x),
    status: w.status, pay_status: w.payStatus,
    fail_reason: w.failReason, refuse_reason: w.refuseReason,
    first_approver_id: w.firstApproverId, first_approver: x.firstApprover,
    second_approver_id: w.secondApproverId, second_approver: x.secondApprover,
    refused_by_id: w.refusedBy, refused_by: x.refuser,
    disburse_attempts: w.disburseAttempts, previous_recharge_time: iso(w.previousRechargeAt),
    create_time: iso(w.createdAt), review_time: iso(w.reviewedAt), disburse_time: iso(w.disbursedAt), pay_time: iso(w.paidAt),
    last_query_time: iso(w.lastQueryAt), large: !!x.large, stuck: !!x.stuck,
    ...reconcileRow(w, w.status === WITHDRAWAL_STATUS.disbursing, x.reconciler),
  };
}

const WITHDRAWAL_COLUMNS: readonly ExportColumn[] = [
  { key: 'id' }, { key: 'serial_number' }, { key: 'carrier_order_number' }, { key: 'user_id' }, { key: 'user_phone' }, { key: 'user_name' },
  { key: 'agent_account' }, { key: 'amount', money: true }, { key: 'pay_type', enum: 'pay_type' }, { key: 'status', enum: 'withdrawal_status' },
  { key: 'pay_status', enum: 'pay_status' }, { key: 'fail_reason' }, { key: 'refuse_reason' }, { key: 'first_approver' }, { key: 'second_approver' },
  { key: 'refused_by' }, { key: 'previous_recharge_time' }, { key: 'create_time' }, { key: 'review_time' }, { key: 'pay_time' },
];

function withdrawalWhere(q: WithdrawalFilters, scope: Scope, archive: boolean) {
  return and(
    paymentWhere(withdrawals, q, scope, archive, withdrawalStuck, withdrawalToReconcile),
    q.status ? eq(withdrawals.status, q.status) : undefined,
    flag(q.large, withdrawalLarge),
  );
}

/** The withdrawal list is the review queue: it lists across users (no user required); the archive needs one. */
const withdrawalLists = paymentLists({
  table: withdrawals, filters: withdrawalFilters, where: withdrawalWhere, select: selectWithdrawals,
  toRow: toWithdrawalRow, row: withdrawalAnswer, columns: WITHDRAWAL_COLUMNS,
});

export const withdrawalListSpec = withdrawalLists.list('withdraw_list', '/api/v1/money/withdrawals', false);
export const csWithdrawalListSpec = { ...withdrawalLists.list('cs_withdraw', '/api/v1/money/cs/withdrawals', false), scopeMode: 'serving' as const };
export const withdrawalArchiveSpec = withdrawalLists.list('withdrawal_archive', '/api/v1/money/withdrawals/archive', true);
export const withdrawalRow = withdrawalLists.row;

// ------------------------------------------------------------------------------------------------
// Airtel transfers: recharges and withdrawals through Airtel (pay type 4) in one list.

const AIRTEL = PAY_TYPE.airtel;

export const airtelFilters = z.object({
  kind: z.enum(['recharge', 'withdrawal']).optional(),
  bettor_id: optionalInt,
  phone: optionalText,
  serial_number: optionalText,
  carrier_order_number: optionalText,
  pay_status: z.coerce.number().int().min(1).max(3).optional(),
  created_at_from: isoDate,
  created_at_to: isoDate,
  stuck: bool,
});
type AirtelFilters = z.infer<typeof airtelFilters>;

/** Both kinds with the same columns; `key` (id*2, id*2+1) is unique across them, for paging and exports. */
function airtelUnion(ex: Executor) {
  const rs = ex
    .select({
      key: sql<number>`(${recharges.id} * 2)`.as('key'),
      kind: sql<string>`'recharge'`.as('kind'),
      id: sql<number>`${recharges.id}`.as('row_id'),
      serialNumber: sql<string>`${recharges.serialNumber}`.as('serial_number'),
      carrierOrderNumber: sql<string | null>`${recharges.carrierOrderNumber}`.as('carrier_order_number'),
      bettorId: sql<number>`${recharges.bettorId}`.as('bettor_id'),
      agentId: sql<number>`${recharges.agentId}`.as('agent_id'),
      userName: sql<string>`${bettors.name}`.as('user_name'),
      userPhone: sql<string>`${bettors.phone}`.as('user_phone'),
      phone: sql<string>`${recharges.phone}`.as('phone'),
      amount: sql<number>`${recharges.amount}`.as('amount'),
      payStatus: sql<number>`${recharges.payStatus}`.as('pay_status'),
      status: sql<number | null>`null::smallint`.as('status'),
      failReason: sql<string | null>`${recharges.failReason}`.as('fail_reason'),
      previousRechargeAt: sql<string | null>`${recharges.previousRechargeAt}`.as('previous_recharge_at'),
      createdAt: sql<string>`${recharges.createdAt}`.as('created_at'),
      paidAt: sql<string | null>`${recharges.paidAt}`.as('paid_at'),
      stuck: sql<boolean>`${rechargeStuck}`.as('stuck'),
      firstApprover: sql<string | null>`null::text`.as('first_approver'),
      secondApprover: sql<string | null>`null::text`.as('second_approver'),
    })
    .from(recharges)
    .innerJoin(bettors, eq(bettors.id, recharges.bettorId))
    .where(eq(recharges.payType, AIRTEL));
  const ws = ex
    .select({
      key: sql<number>`(${withdrawals.id} * 2 + 1)`.as('key'),
      kind: sql<string>`'withdrawal'`.as('kind'),
      id: sql<number>`${withdrawals.id}`.as('row_id'),
      serialNumber: sql<string>`${withdrawals.serialNumber}`.as('serial_number'),
      carrierOrderNumber: sql<string | null>`${withdrawals.carrierOrderNumber}`.as('carrier_order_number'),
      bettorId: sql<number>`${withdrawals.bettorId}`.as('bettor_id'),
      agentId: sql<number>`${withdrawals.agentId}`.as('agent_id'),
      userName: sql<string>`${bettors.name}`.as('user_name'),
      userPhone: sql<string>`${bettors.phone}`.as('user_phone'),
      phone: sql<string>`${withdrawals.phone}`.as('phone'),
      amount: sql<number>`${withdrawals.amount}`.as('amount'),
      payStatus: sql<number>`${withdrawals.payStatus}`.as('pay_status'),
      status: sql<number | null>`${withdrawals.status}`.as('status'),
      failReason: sql<string | null>`coalesce(${withdrawals.failReason}, ${withdrawals.refuseReason})`.as('fail_reason'),
      previousRechargeAt: sql<string | null>`${withdrawals.previousRechargeAt}`.as('previous_recharge_at'),
      createdAt: sql<string>`${withdrawals.createdAt}`.as('created_at'),
      paidAt: sql<string | null>`${withdrawals.paidAt}`.as('paid_at'),
      stuck: sql<boolean>`${withdrawalStuck}`.as('stuck'),
      firstApprover: sql<string | null>`${firstApprovers.account}`.as('first_approver'),
      secondApprover: sql<string | null>`${secondApprovers.account}`.as('second_approver'),
    })
    .from(withdrawals)
    .innerJoin(bettors, eq(bettors.id, withdrawals.bettorId))
    .leftJoin(firstApprovers, eq(firstApprovers.id, withdrawals.firstApproverId))
    .leftJoin(secondApprovers, eq(secondApprovers.id, withdrawals.secondApproverId))
    .where(eq(withdrawals.payType, AIRTEL));
  return rs.unionAll(ws).as('airtel');
}

/** A column of the union (its alias is fixed, so conditions can be written without the executor). */
const a = (name: string) => sql.raw(`"airtel"."${name}"`);
const isoOut = (name: string) => sql<string | null>`to_char(${a(name)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const selectAirtel = (ex: Executor) =>
  ex
    .select({
      key: sql<string>`${a('key')}`, kind: sql<string>`${a('kind')}`, id: sql<string>`${a('row_id')}`,
      serialNumber: sql<string>`${a('serial_number')}`, carrierOrderNumber: sql<string | null>`${a('carrier_order_number')}`,
      bettorId: sql<number>`${a('bettor_id')}`, agentId: sql<number>`${a('agent_id')}`, userName: sql<string>`${a('user_name')}`,
      userPhone: sql<string>`${a('user_phone')}`, phone: sql<string>`${a('phone')}`, amount: sql<string>`${a('amount')}`,
      payStatus: sql<number>`${a('pay_status')}`, status: sql<number | null>`${a('status')}`, failReason: sql<string | null>`${a('fail_reason')}`,
      previousRechargeAt: isoOut('previous_recharge_at'), createdAt: isoOut('created_at'), paidAt: isoOut('paid_at'), stuck: sql<boolean>`${a('stuck')}`,
      firstApprover: sql<string | null>`${a('first_approver')}`, secondApprover: sql<string | null>`${a('second_approver')}`,
    })
    .from(airtelUnion(ex));

/** A row of the Airtel transfer list (what toAirtelRow builds). */
const airtelRow = answerRow({
  id: 'number', kind: 'string', row_id: 'number', serial_number: 'string', carrier_order_number: 'string?', user_id: 'number?', user_phone: 'string?',
  user_name: 'string?', phone: 'string?', agent_id: 'number?', amount: 'number', pay_type: 'number', pay_status: 'number?', status: 'number?',
  fail_reason: 'string?', previous_recharge_time: 'string?', create_time: 'string?', pay_time: 'string?', first_approver: 'string?',
  second_approver: 'string?', stuck: 'boolean',
});

export function toAirtelRow(x: Record<string, unknown>) {
  return {
    // `id` is the list's unique key (exports page on it); `row_id` is the recharge's or withdrawal's own id.
    id: Number(x.key), kind: x.kind as 'recharge' | 'withdrawal', row_id: Number(x.id), serial_number: x.serialNumber as string,
    carrier_order_number: (x.carrierOrderNumber as string | null) ?? null,
    user_id: num(x.bettorId), user_phone: x.userPhone as string, user_name: x.userName as string, phone: x.phone as string, agent_id: num(x.agentId),
    amount: Number(x.amount), pay_type: AIRTEL, pay_status: num(x.payStatus), status: num(x.status), fail_reason: (x.failReason as string | null) ?? null,
    previous_recharge_time: (x.previousRechargeAt as string | null) ?? null, create_time: x.createdAt as string, pay_time: (x.paidAt as string | null) ?? null,
    first_approver: (x.firstApprover as string | null) ?? null, second_approver: (x.secondApprover as string | null) ?? null,
    stuck: x.stuck === true || x.stuck === 't',
  };
}

const AIRTEL_COLUMNS: readonly ExportColumn[] = [
  { key: 'kind' }, { key: 'row_id' }, { key: 'serial_number' }, { key: 'carrier_order_number' }, { key: 'user_id' }, { key: 'user_phone' },
  { key: 'user_name' }, { key: 'amount', money: true }, { key: 'pay_status', enum: 'pay_status' }, { key: 'status', enum: 'withdrawal_status' },
  { key: 'fail_reason' }, { key: 'first_approver' }, { key: 'second_approver' }, { key: 'previous_recharge_time' }, { key: 'create_time' }, { key: 'pay_time' },
];

export const airtelTransferSpec = defineList({
  name: 'airtel_transfer',
  page: 'airtel_transfer',
  path: '/api/v1/money/airtel_transfer',
  filters: airtelFilters,
  where: (q: AirtelFilters, scope: Scope) =>
    and(
      scopeCondition(scope, a('agent_id') as unknown as PgColumn),
      window(a('created_at'), q.created_at_from, q.created_at_to, false),
      q.kind ? sql`${a('kind')} = ${q.kind}` : undefined,
      q.bettor_id ? sql`${a('bettor_id')} = ${q.bettor_id}` : undefined,
      q.phone ? sql`${a('user_phone')} = ${phoneOf(q.phone)}` : undefined,
      q.serial_number ? sql`${a('serial_number')} = ${q.serial_number}` : undefined,
      q.carrier_order_number ? sql`${a('carrier_order_number')} = ${q.carrier_order_number}` : undefined,
      q.pay_status ? sql`${a('pay_status')} = ${q.pay_status}` : undefined,
      flag(q.stuck, sql`${a('stuck')}`),
    ),
  select: selectAirtel,
  // The synthetic key is unique across both kinds; drizzle only needs something to order and compare by.
  idColumn: a('key') as unknown as PgColumn,
  sortable: { id: a('key'), create_time: a('created_at'), amount: a('amount') },
  defaultSort: '-create_time',
  toRow: toAirtelRow,
  row: airtelRow,
  columns: AIRTEL_COLUMNS,
});
