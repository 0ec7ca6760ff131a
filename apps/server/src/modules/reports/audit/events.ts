import { z } from 'zod';
import { aliasedTable, and, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE, LOG_TYPE, ORDER_STATUS } from '@dau/domain';
import { answerRow, SIGNIFICANT_EVENT_KINDS, SIGN_IN_BURST, text } from '@dau/contract';
import { admins, roles, settingHistory, systemLogs } from '../../../platform/schema.js';
import { defineList, isoDate, optionalInt, type ExportColumn, type Scope } from '../../../platform/listing.js';
import type { Executor } from '../../../platform/db.js';
import { bettors, bills } from '../../money/index.js';
import { orders } from '../../betting/index.js';
import { casinoLargeWins, casinoSettings } from '../../casino/index.js';
import { paymentConfig, withdrawals } from '../../payments/index.js';
import { feedEventsAll, feedProducerOutages, feedProducers } from '../../feed/index.js';
import { orderChanges } from './changes.js';
import { detailText, kindText } from './labels.js';
import { adminByAccount, wholeBookOnly } from './scope.js';

/**
 * Significant events (issue 30, GLI-33 §4 style): one chronological log of what an auditor asks for, built as
 * a UNION ALL over what the product already keeps, one branch per source (no table of its own):
 *
 * | kind | source | time | admin | money (cents) |
 * |---|---|---|---|---|
 * | manual_result, result_change, void, resettlement, rollback | the orders' history (./changes.ts), one event per action: the changes of one transaction by one admin for one reason | the change | who did it (none for the feed) | what the bills moved, to the bettors (+) or from them (−) |
 * | odds_change, market_change, suspension, match_cancel, setting_change | the settings history (every change of a whole-book route: margins, match controls, limits, settings) | the change | who asked (params: who approved) | — |
 * | producer_down | the feed's producer outages (feed_producer_outages, written by the UOF client) | when it went down | — | — |
 * | privileged_sign_in | the audit trail's successful sign-ins of a whole-book admin (a super admin, or staff serving one) | the sign-in | the admin | — |
 * | sign_in_burst | the audit trail's refused sign-ins (401): the failure that makes SIGN_IN_BURST.failures of one account within SIGN_IN_BURST.minutes | that failure | the account's admin when it is one | — |
 * | balance_correction | bills 22 (cash) and 106 (credit) | the bill | who made it | the bill |
 * | large_win | casino large wins (their watch), and sports payouts (bill 2) of at least the casino settings' large-win amount | the win | — | the win |
 * | large_withdrawal_approved / _refused | withdrawals approved by a second admin (four-eyes), or refused above the four-eyes threshold | the decision | who decided | the withdrawal's amount |
 *
 * Every branch answers the same columns with the same types, so PostgreSQL pushes the list's conditions (time,
 * kind, admin, match) into each branch and reads each source through its own index on time; the list pages
 * newest first. `key` is unique across branches (the source row's id × 16 + the branch's tag), the order
 * exports page by.
 *
 * The log is the auditors', of the whole book: a branch admin is refused (403 WHOLE_BOOK_ONLY), not shown a
 * part of it, since a regulator's log that leaves out other branches' events would read as complete.
 */

const SIGN_IN_ROUTE = '/api/v1/auth/login';
const t = (s: string) => sql.raw(`'${s}'::text`);

/** Manual results, result changes, voids, resettlements and rollbacks: one event per action (see changes.ts). */
const orderActions = sql`
  select (min(oc.id) * 16 + 1)::bigint as key, oc.created_at as time,
    (case oc.kind when 'cancelled' then 'void' when 'resettled' then 'resettlement' when 'rolled_back' then 'rollback'
      else case when bool_or(oc.status_before = ${ORDER_STATUS.settled}) then 'result_change' else 'manual_result' end end)::text as kind,
    oc.admin_id::int as admin_id, min(oc.event_id)::text as event_id, (min(oc.home_team) || ' v ' || min(oc.away_team))::text as match_name,
    array_agg(distinct oc.bettor_id)::int[] as bettor_ids,
    (case when count(distinct oc.order_id) = 1 then min(oc.order_id) end)::bigint as order_id, count(distinct oc.order_id)::int as orders,
    sum(oc.money)::bigint as money,
    jsonb_build_object('reason', oc.reason, 'source', oc.source, 'market', min(oc.market_name),
      'selection', case when count(distinct oc.selection_name) = 1 then min(oc.selection_name) end,
      'cash', sum(oc.cash), 'credit', sum(oc.credit), 'inviter', sum(oc.inviter)) as params
  from ${orderChanges} as oc
  group by oc.created_at, oc.admin_id, oc.source, oc.reason, oc.kind`;

/** Settings history: margins (odds), match controls (suspensions, cancels, other flags), every other setting. */
const h = settingHistory;
const matchUrl = sql`${h.url} like '/api/v1/sports/matches/%'`;
/** The match of a match control's address (`/api/v1/sports/matches/sr%3Amatch%3A1/suspension`: the id is its sixth part, URL-encoded). */
const urlEvent = sql`replace(replace(split_part(${h.url}, '/', 6), '%3A', ':'), '%3a', ':')`;
const fe = feedEventsAll;
const settingChanges = sql`
  select (${h.id} * 16 + 2)::bigint as key, ${h.createdAt} as time,
    (case when ${h.setting} = 'margins' then 'odds_change'
      when ${matchUrl} and ${h.url} like '%/suspension' then 'suspension'
      when ${matchUrl} and ${h.url} like '%/cancel' then 'match_cancel'
      when ${matchUrl} then 'market_change'
      else 'setting_change' end)::text as kind,
    ${h.adminId}::int as admin_id,
    (case when ${matchUrl} then ${urlEvent} end)::text as event_id,
    (case when ${matchUrl} then (select ${fe.homeTeam} || ' v ' || ${fe.awayTeam} from ${fe} where ${fe.eventId} = ${urlEvent} limit 1) end)::text as match_name,
    null::int[] as bettor_ids, null::bigint as order_id, null::int as orders, null::bigint as money,
    jsonb_build_object('setting', ${h.setting}, 'method', ${h.method}, 'url', ${h.url}, 'approved_by', ${h.approvedAccount},
      'pending_change_id', ${h.pendingChangeId}, 'suspended', ${h.after} -> 'is_suspended') as params
  from ${h}
  -- A match-wide result is an order action above (with its money): not twice.
  where ${h.setting} <> 'match_result'`;

/** Each outage of an odds feed producer: when it stopped being up and why, when it was up again (null: still down). */
const p = feedProducers;
const o = feedProducerOutages;
const producersDown = sql`
  select (${o.id}::bigint * 16 + 3)::bigint as key, ${o.downAt} as time, ${t('producer_down')} as kind, null::int as admin_id,
    null::text as event_id, null::text as match_name, null::int[] as bettor_ids, null::bigint as order_id, null::int as orders, null::bigint as money,
    jsonb_build_object('producer', ${o.producer}, 'name', ${p.name}, 'reason', ${o.reason}, 'up_at', ${o.upAt}) as params
  from ${o} left join ${p} on ${p.producer} = ${o.producer}`;

/** Sign-ins of a whole-book admin: the super role, or staff serving a super admin (as the data scope reads it). */
const signed = aliasedTable(systemLogs, 'signed');
const sa = aliasedTable(admins, 'sa');
const sr = aliasedTable(roles, 'sr');
const sup = aliasedTable(admins, 'sup');
const supRole = aliasedTable(roles, 'sup_role');
const privilegedSignIns = sql`
  select (${signed.id} * 16 + 4)::bigint as key, ${signed.createdAt} as time, ${t('privileged_sign_in')} as kind, ${signed.adminId}::int as admin_id,
    null::text as event_id, null::text as match_name, null::int[] as bettor_ids, null::bigint as order_id, null::int as orders, null::bigint as money,
    jsonb_build_object('account', ${signed.account}, 'ip', ${signed.ip}, 'super', ${sr.isSuper}) as params
  from ${systemLogs} as ${signed}
  join ${admins} as ${sa} on ${sa.id} = ${signed.adminId}
  join ${roles} as ${sr} on ${sr.id} = ${sa.roleId}
  left join ${admins} as ${sup} on ${sup.id} = ${sa.superiorId}
  left join ${roles} as ${supRole} on ${supRole.id} = ${sup.roleId}
  where ${signed.type} = ${LOG_TYPE.login} and ${signed.status} = 200 and ${signed.route} = ${SIGN_IN_ROUTE}
    and (${sr.isSuper} or (${sr.servesSuperiorBranch} and coalesce(${supRole.isSuper}, false)))`;

/**
 * A burst of failed sign-ins: the refused sign-in (401) at which one account's failures within the window reach
 * the count, when they had not at its previous failure (so a long attack is one event, not one per failure).
 * Counted by the audit trail's rows, per account as typed (case-insensitive), whatever the address. One look
 * back per failure, bounded by two windows: the account's previous failures (newest first, as many as the
 * count); the failure makes the count when the (count−1)-th previous one is inside its window, and its
 * previous failure did not when the count-th previous one is not inside that one's window.
 */
const f = aliasedTable(systemLogs, 'f');
const g = aliasedTable(systemLogs, 'g');
const window = sql.raw(`interval '${SIGN_IN_BURST.minutes} minutes'`);
const failures = (x: typeof f) => sql`${x.type} = ${LOG_TYPE.login} and ${x.status} = 401 and ${x.route} = ${SIGN_IN_ROUTE}`;
const before = SIGN_IN_BURST.failures - 1;
const signInBursts = sql`
  select (${f.id} * 16 + 5)::bigint as key, ${f.createdAt} as time, ${t('sign_in_burst')} as kind, ${f.adminId}::int as admin_id,
    null::text as event_id, null::text as match_name, null::int[] as bettor_ids, null::bigint as order_id, null::int as orders, null::bigint as money,
    jsonb_build_object('account', ${f.account}, 'ip', ${f.ip}, 'failures', ${SIGN_IN_BURST.failures}::int, 'minutes', ${SIGN_IN_BURST.minutes}::int) as params
  from ${systemLogs} as ${f}
  cross join lateral (
    select array_agg(x.created_at order by x.id desc) as times from (
      select ${g.id} as id, ${g.createdAt} as created_at from ${systemLogs} as ${g}
      where ${failures(g)} and lower(${g.account}) = lower(${f.account}) and ${g.createdAt} > ${f.createdAt} - 2 * ${window} and ${g.createdAt} <= ${f.createdAt} and ${g.id} < ${f.id}
      order by ${g.id} desc limit ${sql.raw(String(SIGN_IN_BURST.failures))}
    ) x
  ) earlier
  where ${failures(f)} and ${f.account} is not null
    and earlier.times[${sql.raw(String(before))}] > ${f.createdAt} - ${window}
    and (earlier.times[${sql.raw(String(SIGN_IN_BURST.failures))}] is null or earlier.times[${sql.raw(String(SIGN_IN_BURST.failures))}] <= earlier.times[1] - ${window})`;

/** An admin's correction of a bettor's cash (bill 22) or credit (bill 106): the bill is the money. */
const b = bills;
const corrections = sql`
  select (${b.id} * 16 + 6)::bigint as key, ${b.createdAt} as time, ${t('balance_correction')} as kind, ${b.adminId}::int as admin_id,
    null::text as event_id, null::text as match_name, array[${b.bettorId}]::int[] as bettor_ids, null::bigint as order_id, null::int as orders, ${b.amount}::bigint as money,
    jsonb_build_object('account', ${b.accountKind}, 'reason', ${b.remark}, 'serial', ${b.serialNumber}, 'balance_after', ${b.balanceAfter}) as params
  from ${b}
  where (${b.type} = ${BILL_TYPE.admin_balance_change} and ${b.accountKind} = ${ACCOUNT_KIND.cash})
    or (${b.type} = ${CREDIT_BILL_TYPE.admin_credit_change} and ${b.accountKind} = ${ACCOUNT_KIND.credit})`;

/** Casino rounds the large-win watch listed. */
const cw = casinoLargeWins;
const casinoWins = sql`
  select (${cw.roundId} * 16 + 7)::bigint as key, ${cw.createdAt} as time, ${t('large_win')} as kind, null::int as admin_id,
    null::text as event_id, null::text as match_name, array[${cw.bettorId}]::int[] as bettor_ids, null::bigint as order_id, null::int as orders, ${cw.winTotal}::bigint as money,
    jsonb_build_object('product', 'casino', 'round_id', ${cw.roundId}, 'game_id', ${cw.gameId}, 'bet_total', ${cw.betTotal}, 'reason', ${cw.reason}) as params
  from ${cw}`;

/**
 * A sports payout (bill 2 of an order: a win, a cashout) of at least the casino settings' large-win amount: the
 * product has one large-win amount, the casino's, and a sports win is held to it too (0 there: none listed).
 */
const largeWinAmount = sql`(select ${casinoSettings.largeWinAmount} from ${casinoSettings} where ${casinoSettings.id} = 1)`;
const sportsWins = sql`
  select (${b.id} * 16 + 8)::bigint as key, ${b.createdAt} as time, ${t('large_win')} as kind, null::int as admin_id,
    null::text as event_id, null::text as match_name, array[${b.bettorId}]::int[] as bettor_ids, ${b.causeId}::bigint as order_id, 1 as orders, ${b.amount}::bigint as money,
    jsonb_build_object('product', 'sports', 'serial', ${b.serialNumber}) as params
  from ${b}
  where ${b.type} = ${BILL_TYPE.bet_payout} and ${b.accountKind} = ${ACCOUNT_KIND.cash} and ${b.causeType} = 'order'
    and ${b.amount} >= ${largeWinAmount} and ${largeWinAmount} > 0`;

/** Withdrawals approved by a second admin (the four-eyes rule made them wait), at the second approval. */
const w = withdrawals;
const firstApprover = aliasedTable(admins, 'first_approver');
const largeApproved = sql`
  select (${w.id} * 16 + 9)::bigint as key, ${w.reviewedAt} as time, ${t('large_withdrawal_approved')} as kind, ${w.secondApproverId}::int as admin_id,
    null::text as event_id, null::text as match_name, array[${w.bettorId}]::int[] as bettor_ids, null::bigint as order_id, null::int as orders, ${w.amount}::bigint as money,
    jsonb_build_object('serial', ${w.serialNumber}, 'pay_type', ${w.payType}, 'first_approver', ${firstApprover.account}) as params
  from ${w}
  left join ${admins} as ${firstApprover} on ${firstApprover.id} = ${w.firstApproverId}
  where ${w.secondApproverId} is not null and ${w.reviewedAt} is not null`;

/** Withdrawals above the four-eyes threshold (as set now) refused, first or second review. */
const largeWithdrawal = sql`(select ${paymentConfig.largeWithdrawal} from ${paymentConfig} where ${paymentConfig.id} = 1)`;
const largeRefused = sql`
  select (${w.id} * 16 + 10)::bigint as key, ${w.reviewedAt} as time, ${t('large_withdrawal_refused')} as kind, ${w.refusedBy}::int as admin_id,
    null::text as event_id, null::text as match_name, array[${w.bettorId}]::int[] as bettor_ids, null::bigint as order_id, null::int as orders, ${w.amount}::bigint as money,
    jsonb_build_object('serial', ${w.serialNumber}, 'pay_type', ${w.payType}, 'reason', ${w.refuseReason}, 'first_approver', ${firstApprover.account}) as params
  from ${w}
  left join ${admins} as ${firstApprover} on ${firstApprover.id} = ${w.firstApproverId}
  where ${w.refusedBy} is not null and ${w.reviewedAt} is not null and ${w.amount} > ${largeWithdrawal}`;

const BRANCHES = [orderActions, settingChanges, producersDown, privilegedSignIns, signInBursts, corrections, casinoWins, sportsWins, largeApproved, largeRefused];

/** The log as a relation: `… from ${significantEvents}` (alias `se`). */
const significantEvents = sql`(${sql.join(
  BRANCHES.map((q) => sql`(${q})`),
  sql` union all `,
)}) as "se"`;

/** A column of the log. */
const se = (name: string) => sql.raw(`"se"."${name}"`);
const iso = (x: SQL) => sql<string | null>`to_char(${x} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const eventFilters = z.object({
  kind: z.enum(SIGNIFICANT_EVENT_KINDS).optional(),
  admin_id: optionalInt,
  /** An admin by account (case-insensitive), as the search form takes it. */
  admin: text(64).optional(),
  event_id: text(64).optional(),
  bettor_id: optionalInt,
  /** The period: from inclusive, to exclusive. */
  time_from: isoDate,
  time_to: isoDate,
});
type EventFilters = z.infer<typeof eventFilters>;

export const eventRow = answerRow({
  id: 'number', time: 'string', kind: 'string', admin_id: 'number?', admin_account: 'string?', event_id: 'string?', match_name: 'string?',
  bettor_id: 'number?', bettor_phone: 'string?', order_id: 'number?', order_no: 'string?', orders: 'number?', money: 'number?',
  target_kind: 'string?', target_id: 'string?',
}).extend({ params: z.record(z.string(), z.unknown()) });

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

type EventSelect = {
  key: string; time: string; kind: string; adminId: number | null; adminAccount: string | null; eventId: string | null; matchName: string | null;
  bettorIds: number[] | null; bettorPhone: string | null; orderId: string | null; orderNo: string | null; orders: number | null;
  money: string | null; params: Record<string, unknown> | null;
};

/**
 * Where an event links to: its order (one order), its match, its bettor, its withdrawal or casino round, the
 * setting, or the admin account (sign-ins).
 */
function targetOf(r: EventSelect, bettorId: number | null): { target_kind: string | null; target_id: string | null } {
  const p = r.params ?? {};
  if (r.orderId) return { target_kind: 'order', target_id: String(r.orderId) };
  if (r.eventId) return { target_kind: 'match', target_id: r.eventId };
  if (r.kind.startsWith('large_withdrawal')) return { target_kind: 'withdrawal', target_id: String(p.serial ?? '') };
  if (r.kind === 'large_win' && p.round_id !== undefined) return { target_kind: 'casino_round', target_id: String(p.round_id) };
  if (bettorId) return { target_kind: 'bettor', target_id: String(bettorId) };
  if (r.kind === 'setting_change') return { target_kind: 'setting', target_id: String(p.setting ?? '') };
  if (r.kind === 'privileged_sign_in' || r.kind === 'sign_in_burst') return { target_kind: 'account', target_id: String(p.account ?? '') };
  return { target_kind: null, target_id: null };
}

export function toEventRow(r: EventSelect) {
  const bettorId = r.bettorIds && r.bettorIds.length === 1 ? Number(r.bettorIds[0]) : null;
  return {
    id: Number(r.key),
    time: r.time,
    kind: r.kind,
    admin_id: r.adminId,
    admin_account: r.adminAccount,
    event_id: r.eventId,
    match_name: r.matchName,
    bettor_id: bettorId,
    bettor_phone: bettorId ? r.bettorPhone : null,
    order_id: num(r.orderId),
    order_no: r.orderNo,
    orders: r.orders,
    money: num(r.money),
    params: r.params ?? {},
    ...targetOf(r, bettorId),
  };
}

/**
 * The names beside an event (its admin's account, its bettor's phone, its order's number) are
 * scalar subqueries, not joins: PostgreSQL evaluates them after the sort and the limit, for the page's rows
 * only, where joins would run for every event of the period before the page is cut.
 */
const selectEvents = (ex: Executor) =>
  ex
    .select({
      key: sql<string>`${se('key')}`,
      time: iso(se('time')),
      kind: sql<string>`${se('kind')}`,
      adminId: sql<number | null>`${se('admin_id')}`,
      adminAccount: sql<string | null>`(select ${admins.account} from ${admins} where ${admins.id} = ${se('admin_id')})`,
      eventId: sql<string | null>`${se('event_id')}`,
      matchName: sql<string | null>`${se('match_name')}`,
      bettorIds: sql<number[] | null>`${se('bettor_ids')}`,
      bettorPhone: sql<string | null>`(select ${bettors.phone} from ${bettors} where cardinality(${se('bettor_ids')}) = 1 and ${bettors.id} = ${se('bettor_ids')}[1])`,
      orderId: sql<string | null>`${se('order_id')}`,
      orderNo: sql<string | null>`(select ${orders.orderNo} from ${orders} where ${orders.id} = ${se('order_id')})`,
      orders: sql<number | null>`${se('orders')}`,
      money: sql<string | null>`${se('money')}`,
      params: sql<Record<string, unknown> | null>`${se('params')}`,
    })
    .from(significantEvents);

const EVENT_COLUMNS: readonly ExportColumn[] = [
  { key: 'time' }, { key: 'kind', text: kindText }, { key: 'admin_account' }, { key: 'event_id' }, { key: 'match_name' }, { key: 'bettor_id' },
  { key: 'bettor_phone' }, { key: 'order_no' }, { key: 'orders' }, { key: 'money', money: true }, { key: 'params', text: detailText },
];

/** The list (GET /api/v1/reports/significant_events) and its export (type `significant_events`). */
export const significantEventsSpec = defineList({
  name: 'significant_events',
  page: 'significant_events',
  path: '/api/v1/reports/significant_events',
  summary: 'The significant events of the whole book (GLI-33 style), newest first: results and their changes, voids, resettlements, operator changes of odds, markets and settings, producer outages, privileged sign-ins and failed sign-in bursts, balance corrections, large wins and large withdrawals',
  filters: eventFilters,
  where: (q: EventFilters, scope: Scope): SQL | undefined => {
    wholeBookOnly(scope);
    return and(
      q.time_from ? sql`${se('time')} >= ${new Date(q.time_from)}` : undefined,
      q.time_to ? sql`${se('time')} < ${new Date(q.time_to)}` : undefined,
      q.kind ? sql`${se('kind')} = ${q.kind}` : undefined,
      q.admin_id !== undefined ? sql`${se('admin_id')} = ${q.admin_id}` : undefined,
      q.admin ? sql`${se('admin_id')} = ${adminByAccount(q.admin)}` : undefined,
      q.event_id ? sql`${se('event_id')} = ${q.event_id}` : undefined,
      q.bettor_id !== undefined ? sql`${q.bettor_id}::int = any(${se('bettor_ids')})` : undefined,
    );
  },
  select: selectEvents,
  countFrom: (ex: Executor) => ex.select({ key: sql`${se('key')}` }).from(significantEvents),
  idColumn: se('key') as unknown as PgColumn,
  sortable: { id: se('key'), time: se('time') },
  defaultSort: '-time',
  toRow: toEventRow,
  row: eventRow,
  columns: EVENT_COLUMNS,
});
