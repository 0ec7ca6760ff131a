import { z } from 'zod';
import { and, asc, desc, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { answerRow, ORDER_CHANGE_KINDS, pageAnswer, text } from '@dau/contract';
import { admins } from '../../../platform/schema.js';
import { badRequest } from '../../../platform/errors.js';
import { defineList, isoDate, optionalInt, type ExportColumn, type Scope } from '../../../platform/listing.js';
import { LIST_MAX_ROWS, pageOffset, pageQuery } from '../../../platform/paging.js';
import type { Executor } from '../../../platform/db.js';
import { bettors } from '../../money/index.js';
import { orderChanges, rc } from './changes.js';
import { kindText } from './labels.js';
import { adminByAccount, wholeBookOnly } from './scope.js';

/**
 * The void and resettlement report (issue 30): per match and market, the orders an operator or the feed
 * changed after the fact (./changes.ts), the money each change moved (the preview's figures, after the
 * fact: cash, bonus funds, the inviter's reward), who did it and why. The summary (one row per match and
 * market, with the totals of the filtered changes) is hand-written here; the changes themselves are a list
 * (the report's drawer) and its export.
 */

export const changeFilters = z.object({
  /** The period of the changes: from inclusive, to exclusive. */
  time_from: isoDate,
  time_to: isoDate,
  event_id: text(64).optional(),
  market_key: text(200).optional(),
  admin_id: optionalInt,
  /** An admin by account (case-insensitive), as the search form takes it. */
  admin: text(64).optional(),
  kind: z.enum(ORDER_CHANGE_KINDS).optional(),
  source: z.enum(['feed', 'operator', 'system']).optional(),
});
export type ChangeFilters = z.infer<typeof changeFilters>;

/** The condition on the changes (before any grouping), the whole book's only. */
export function changeWhere(q: ChangeFilters, scope: Scope): SQL | undefined {
  wholeBookOnly(scope);
  return and(
    q.time_from ? sql`${rc('created_at')} >= ${new Date(q.time_from)}` : undefined,
    q.time_to ? sql`${rc('created_at')} < ${new Date(q.time_to)}` : undefined,
    q.event_id ? sql`${rc('event_id')} = ${q.event_id}` : undefined,
    q.market_key ? sql`${rc('market_key')} = ${q.market_key}` : undefined,
    q.admin_id !== undefined ? sql`${rc('admin_id')} = ${q.admin_id}` : undefined,
    q.admin ? sql`${rc('admin_id')} = ${adminByAccount(q.admin)}` : undefined,
    q.kind ? sql`${rc('kind')} = ${q.kind}` : undefined,
    q.source ? sql`${rc('source')} = ${q.source}` : undefined,
  );
}

const changes = sql`${orderChanges} as "rc"`;
const iso = (x: SQL) => sql<string | null>`to_char(${x} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

// ------------------------------------------------------------------------------------------------
// The changes: one row per order and change (the drawer, and the report's export).

export const changeRow = answerRow({
  id: 'number', time: 'string', kind: 'string', source: 'string', admin_id: 'number?', admin_account: 'string?', reason: 'string',
  order_id: 'number', order_no: 'string', bettor_id: 'number', bettor_phone: 'string?', event_id: 'string', match_name: 'string',
  market_key: 'string', market_name: 'string', selection_name: 'string', status_before: 'number?', status_after: 'number?',
  payout_before: 'number', payout_after: 'number', cash: 'number', credit: 'number', inviter: 'number', money: 'number',
});

type ChangeSelect = Record<string, unknown> & { time: string };
const toChangeRow = (r: ChangeSelect) => ({
  id: Number(r.id), time: r.time, kind: String(r.kind), source: String(r.source), admin_id: r.adminId === null ? null : Number(r.adminId),
  admin_account: (r.adminAccount as string | null) ?? null, reason: String(r.reason ?? ''), order_id: Number(r.orderId), order_no: String(r.orderNo),
  bettor_id: Number(r.bettorId), bettor_phone: (r.bettorPhone as string | null) ?? null, event_id: String(r.eventId),
  match_name: `${String(r.homeTeam ?? '')} v ${String(r.awayTeam ?? '')}`, market_key: String(r.marketKey), market_name: String(r.marketName),
  selection_name: String(r.selectionName), status_before: r.statusBefore === null ? null : Number(r.statusBefore),
  status_after: r.statusAfter === null ? null : Number(r.statusAfter), payout_before: num(r.payoutBefore), payout_after: num(r.payoutAfter),
  cash: num(r.cash), credit: num(r.credit), inviter: num(r.inviter), money: num(r.money),
});

const selectChanges = (ex: Executor) =>
  ex
    .select({
      id: sql<string>`${rc('id')}`, time: iso(rc('created_at')), kind: sql<string>`${rc('kind')}`, source: sql<string>`${rc('source')}`,
      adminId: sql<number | null>`${rc('admin_id')}`, adminAccount: sql<string | null>`(select ${admins.account} from ${admins} where ${admins.id} = ${rc('admin_id')})`, reason: sql<string>`${rc('reason')}`, orderId: sql<string>`${rc('order_id')}`,
      orderNo: sql<string>`${rc('order_no')}`, bettorId: sql<number>`${rc('bettor_id')}`, bettorPhone: sql<string | null>`(select ${bettors.phone} from ${bettors} where ${bettors.id} = ${rc('bettor_id')})`, eventId: sql<string>`${rc('event_id')}`,
      homeTeam: sql<string>`${rc('home_team')}`, awayTeam: sql<string>`${rc('away_team')}`, marketKey: sql<string>`${rc('market_key')}`,
      marketName: sql<string>`${rc('market_name')}`, selectionName: sql<string>`${rc('selection_name')}`, statusBefore: sql<number | null>`${rc('status_before')}`,
      statusAfter: sql<number | null>`${rc('status_after')}`, payoutBefore: sql<string>`${rc('payout_before')}`, payoutAfter: sql<string>`${rc('payout_after')}`,
      cash: sql<string>`${rc('cash')}`, credit: sql<string>`${rc('credit')}`, inviter: sql<string>`${rc('inviter')}`, money: sql<string>`${rc('money')}`,
    })
    // Names as scalar subqueries: evaluated for the page's rows only, after the sort and the limit.
    .from(changes);

const CHANGE_COLUMNS: readonly ExportColumn[] = [
  { key: 'time' }, { key: 'event_id' }, { key: 'match_name' }, { key: 'market_name' }, { key: 'selection_name' }, { key: 'kind', text: kindText },
  { key: 'source', text: kindText }, { key: 'admin_account' }, { key: 'reason' }, { key: 'order_no' }, { key: 'bettor_phone' },
  { key: 'payout_before', money: true }, { key: 'payout_after', money: true }, { key: 'cash', money: true }, { key: 'credit', money: true },
  { key: 'inviter', money: true }, { key: 'money', money: true },
];

export const resettlementChangesSpec = defineList({
  name: 'resettlement_changes',
  page: 'resettlement_report',
  path: '/api/v1/reports/resettlements/changes',
  summary: 'The orders changed after the fact (operator results and voids, feed resettlements and rollbacks), one row per order and change, with the money each moved, who and why',
  filters: changeFilters,
  where: changeWhere,
  select: selectChanges,
  countFrom: (ex: Executor) => ex.select({ id: sql`${rc('id')}` }).from(changes),
  idColumn: rc('id') as unknown as PgColumn,
  sortable: { id: rc('id'), time: rc('created_at'), money: rc('money') },
  defaultSort: '-time',
  toRow: toChangeRow,
  row: changeRow,
  columns: CHANGE_COLUMNS,
});

// ------------------------------------------------------------------------------------------------
// The summary: one row per match and market, and the totals of every change the filters keep.

export const summaryQuery = pageQuery.extend(changeFilters.shape);

export const summaryRow = answerRow({
  id: 'number', event_id: 'string', match_name: 'string', market_key: 'string', market_name: 'string', orders: 'number', changes: 'number',
  cash: 'number', credit: 'number', inviter: 'number', money: 'number', admins: 'string', reasons: 'string', first_at: 'string', last_at: 'string',
});

export const summaryTotals = z.object({
  matches: z.number(), markets: z.number(), orders: z.number(), changes: z.number(), cash: z.number(), credit: z.number(), inviter: z.number(), money: z.number(),
});
export const summaryAnswer = pageAnswer(summaryRow).extend({ totals: summaryTotals });

const SUMMARY_SORT: Record<string, SQL> = {
  last_at: sql`max(${rc('created_at')})`,
  money: sql`sum(${rc('money')})`,
  orders: sql`count(distinct ${rc('order_id')})`,
};

const distinctText = (col: SQLWrapper, max: number) => sql<string>`coalesce(left(string_agg(distinct nullif(${col}, ''), ', '), ${max}), '')`;

/** One page of the summary and the totals, for the filters (the whole book's only). */
export async function resettlementSummary(ex: Executor, q: z.infer<typeof summaryQuery>, scope: Scope) {
  const where = changeWhere(q, scope);
  const sort = q.sort ?? '-last_at';
  const key = SUMMARY_SORT[sort.replace(/^-/, '')];
  if (!key) throw badRequest('PARAM_INVALID', [{ field: 'sort', message: `cannot sort by ${sort.replace(/^-/, '')}` }]);
  const dir = sort.startsWith('-') ? desc : asc;
  const offset = pageOffset(q);
  const groups = ex
    .select({
      id: sql<string>`min(${rc('id')})`,
      eventId: sql<string>`${rc('event_id')}`,
      marketKey: sql<string>`${rc('market_key')}`,
      homeTeam: sql<string>`min(${rc('home_team')})`,
      awayTeam: sql<string>`min(${rc('away_team')})`,
      marketName: sql<string>`min(${rc('market_name')})`,
      orders: sql<string>`count(distinct ${rc('order_id')})`,
      changes: sql<string>`count(*)`,
      cash: sql<string>`sum(${rc('cash')})`,
      credit: sql<string>`sum(${rc('credit')})`,
      inviter: sql<string>`sum(${rc('inviter')})`,
      money: sql<string>`sum(${rc('money')})`,
      admins: distinctText(admins.account, 500),
      reasons: distinctText(rc('reason'), 1000),
      firstAt: iso(sql`min(${rc('created_at')})`),
      lastAt: iso(sql`max(${rc('created_at')})`),
    })
    .from(changes)
    .leftJoin(admins, sql`${admins.id} = ${rc('admin_id')}`)
    .where(where)
    .groupBy(rc('event_id'), rc('market_key'));
  const [rows, [totals], [counted]] = await Promise.all([
    groups.orderBy(dir(key), dir(sql`min(${rc('id')})`)).limit(q.page_size).offset(offset),
    ex
      .select({
        matches: sql<string>`count(distinct ${rc('event_id')})`,
        markets: sql<string>`count(distinct (${rc('event_id')}, ${rc('market_key')}))`,
        orders: sql<string>`count(distinct ${rc('order_id')})`,
        changes: sql<string>`count(*)`,
        cash: sql<string>`coalesce(sum(${rc('cash')}), 0)`,
        credit: sql<string>`coalesce(sum(${rc('credit')}), 0)`,
        inviter: sql<string>`coalesce(sum(${rc('inviter')}), 0)`,
        money: sql<string>`coalesce(sum(${rc('money')}), 0)`,
      })
      .from(changes)
      .where(where),
    // Groups counted up to the lists' cap (platform/paging.ts).
    ex
      .select({ n: sql<string>`count(*)` })
      .from(sql`(select 1 from ${changes} ${where ? sql`where ${where}` : sql``} group by ${rc('event_id')}, ${rc('market_key')} limit ${LIST_MAX_ROWS + 1}) as g`),
  ]);
  const total = num(counted?.n);
  return {
    items: rows.map((r) => ({
      id: Number(r.id), event_id: r.eventId, match_name: `${r.homeTeam ?? ''} v ${r.awayTeam ?? ''}`, market_key: r.marketKey, market_name: r.marketName,
      orders: num(r.orders), changes: num(r.changes), cash: num(r.cash), credit: num(r.credit), inviter: num(r.inviter), money: num(r.money),
      admins: r.admins ?? '', reasons: r.reasons ?? '', first_at: r.firstAt ?? '', last_at: r.lastAt ?? '',
    })),
    total: Math.min(total, LIST_MAX_ROWS),
    total_exact: total <= LIST_MAX_ROWS,
    page: q.page,
    page_size: q.page_size,
    totals: {
      matches: num(totals?.matches), markets: num(totals?.markets), orders: num(totals?.orders), changes: num(totals?.changes),
      cash: num(totals?.cash), credit: num(totals?.credit), inviter: num(totals?.inviter), money: num(totals?.money),
    },
  };
}
