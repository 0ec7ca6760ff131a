import { z } from 'zod';
import { aliasedTable, and, eq, gte, lte, sql } from 'drizzle-orm';
import { isDay } from '@dau/domain';
import { answerRow } from '@dau/contract';
import { admins } from '../../../platform/schema.js';
import { defineList, optionalBigId, type ExportColumn, type Scope } from '../../../platform/listing.js';
import type { Executor } from '../../../platform/db.js';
import { recharges, withdrawals } from '../schema.js';
import { FINDING_KINDS } from './match.js';
import { operatorStatementItems as items, operatorStatements as statements } from './schema.js';

/**
 * The statements' lists (the screen `operator_statements`, and their exports through the exports module):
 * the statements, and the findings of one statement. Statements are the whole book's: a branch admin's
 * scope sees none (a route that changes them refuses a branch admin outright: WHOLE_BOOK_ONLY).
 */

const wholeBook = (scope: Scope) => (scope.all ? undefined : sql`false`);
const day = z.string().refine(isDay, 'YYYY-MM-DD').optional();
const payType = z.coerce.number().int().refine((n) => [3, 4, 6, 7].includes(n), 'a mobile-money pay type').optional();
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

const creators = aliasedTable(admins, 'statement_creator');
/** The latest import of a pay type and day (the others are its history). */
const latest = sql<boolean>`not exists (select 1 from operator_statements n where n.pay_type = ${statements.payType} and n.day = ${statements.day} and n.version > ${statements.version})`;

const statementFilters = z.object({
  id: optionalBigId,
  pay_type: payType,
  provider: z.enum(['mpesa', 'airtel', 'aggregator']).optional(),
  day_from: day,
  day_to: day,
  result: z.enum(['matched', 'mismatch']).optional(),
  /** 'true' (default in the console): only the latest import of each day. */
  latest: z.enum(['true', 'false']).optional(),
});
type StatementFilters = z.infer<typeof statementFilters>;

export const statementRow = answerRow({
  id: 'number', provider: 'string', pay_type: 'number', day: 'string', version: 'number', latest: 'boolean', source: 'string', file_name: 'string',
  file_sha256: 'string', lines: 'number', skipped: 'number', their_collect: 'number', their_disburse: 'number', our_collect: 'number', our_disburse: 'number',
  result: 'string', matched: 'number', ours_only: 'number', theirs_only: 'number', amount_mismatch: 'number', status_mismatch: 'number',
  created_by: 'number?', created_by_account: 'string?', create_time: 'string',
});

type StatementSel = { s: typeof statements.$inferSelect; latest: boolean; account: string | null };
export const toStatementRow = (x: StatementSel) => ({
  id: x.s.id, provider: x.s.provider, pay_type: x.s.payType, day: x.s.day, version: x.s.version, latest: !!x.latest, source: x.s.source,
  file_name: x.s.fileName, file_sha256: x.s.fileSha256, lines: x.s.lines, skipped: x.s.skipped,
  their_collect: Number(x.s.theirCollect), their_disburse: Number(x.s.theirDisburse), our_collect: Number(x.s.ourCollect), our_disburse: Number(x.s.ourDisburse),
  result: x.s.result, matched: x.s.matched, ours_only: x.s.oursOnly, theirs_only: x.s.theirsOnly, amount_mismatch: x.s.amountMismatch,
  status_mismatch: x.s.statusMismatch, created_by: x.s.createdBy, created_by_account: x.account, create_time: x.s.createdAt.toISOString(),
});

export const selectStatements = (ex: Executor) =>
  ex.select({ s: statements, latest, account: creators.account }).from(statements).leftJoin(creators, eq(creators.id, statements.createdBy));

const STATEMENT_COLUMNS: readonly ExportColumn[] = [
  { key: 'id' }, { key: 'day' }, { key: 'pay_type', enum: 'pay_type' }, { key: 'provider' }, { key: 'version' }, { key: 'source' }, { key: 'file_name' },
  { key: 'result' }, { key: 'lines' }, { key: 'matched' }, { key: 'ours_only' }, { key: 'theirs_only' }, { key: 'amount_mismatch' }, { key: 'status_mismatch' },
  { key: 'their_collect', money: true }, { key: 'our_collect', money: true }, { key: 'their_disburse', money: true }, { key: 'our_disburse', money: true },
  { key: 'created_by_account' }, { key: 'create_time' },
];

export const statementListSpec = defineList({
  name: 'operator_statements',
  page: 'operator_statements',
  path: '/api/v1/money/operator_statements',
  summary: "List the operators' daily statements and whether each day matched our recharges and withdrawals",
  filters: statementFilters,
  where: (q: StatementFilters, scope: Scope) =>
    and(
      wholeBook(scope),
      q.id ? eq(statements.id, q.id) : undefined,
      q.pay_type ? eq(statements.payType, q.pay_type) : undefined,
      q.provider ? eq(statements.provider, q.provider) : undefined,
      q.day_from ? gte(statements.day, q.day_from) : undefined,
      q.day_to ? lte(statements.day, q.day_to) : undefined,
      q.result ? eq(statements.result, q.result) : undefined,
      q.latest === 'true' ? latest : undefined,
    ),
  select: selectStatements,
  countFrom: (ex: Executor) => ex.select({ id: statements.id }).from(statements),
  idColumn: statements.id,
  sortable: { id: statements.id, day: statements.day, create_time: statements.createdAt },
  defaultSort: '-id',
  toRow: toStatementRow,
  row: statementRow,
  columns: STATEMENT_COLUMNS,
});

// ------------------------------------------------------------------------------------------------

const itemFilters = z.object({
  statement_id: optionalBigId,
  kind: z.enum(FINDING_KINDS as [string, ...string[]]).optional(),
  direction: z.enum(['collect', 'disburse']).optional(),
  /** 'true': only the findings that are not matched. */
  problems: z.enum(['true', 'false']).optional(),
});
type ItemFilters = z.infer<typeof itemFilters>;

export const itemRow = answerRow({
  id: 'number', statement_id: 'number', kind: 'string', direction: 'string', line_no: 'number?', operator_ref: 'string?', reference: 'string?',
  recharge_id: 'number?', withdrawal_id: 'number?', our_amount: 'number?', our_status: 'string?', their_amount: 'number?', their_status: 'string?',
  their_time: 'string?', reconcile: 'boolean', awaiting_reconciliation: 'boolean',
}).extend({ their_line: z.record(z.string(), z.string()).nullable() });

type ItemSel = { i: typeof items.$inferSelect; rWaiting: boolean | null; wWaiting: boolean | null };
const toItemRow = (x: ItemSel) => ({
  id: x.i.id, statement_id: x.i.statementId, kind: x.i.kind, direction: x.i.direction, line_no: x.i.lineNo, operator_ref: x.i.operatorRef,
  reference: x.i.reference, recharge_id: x.i.rechargeId, withdrawal_id: x.i.withdrawalId,
  our_amount: x.i.ourAmount == null ? null : Number(x.i.ourAmount), our_status: x.i.ourStatus,
  their_amount: x.i.theirAmount == null ? null : Number(x.i.theirAmount), their_status: x.i.theirStatus, their_time: iso(x.i.theirTime),
  reconcile: x.i.reconcile,
  // Flagged for reconciliation now (the recharge/withdrawal screens offer "reconcile" for it).
  awaiting_reconciliation: !!(x.rWaiting || x.wWaiting),
  their_line: x.i.theirLine ?? null,
});

const ITEM_COLUMNS: readonly ExportColumn[] = [
  { key: 'id' }, { key: 'statement_id' }, { key: 'kind' }, { key: 'direction' }, { key: 'line_no' }, { key: 'operator_ref' }, { key: 'reference' },
  { key: 'recharge_id' }, { key: 'withdrawal_id' }, { key: 'our_amount', money: true }, { key: 'our_status' }, { key: 'their_amount', money: true },
  { key: 'their_status' }, { key: 'their_time' }, { key: 'reconcile' },
];

const rechargeWaiting = sql<boolean>`(select ${recharges.reconcileSince} is not null and ${recharges.payStatus} = 1 from ${recharges} where ${recharges.id} = ${items.rechargeId})`;
const withdrawalWaiting = sql<boolean>`(select ${withdrawals.reconcileSince} is not null and ${withdrawals.status} = 3 from ${withdrawals} where ${withdrawals.id} = ${items.withdrawalId})`;

export const itemListSpec = defineList({
  name: 'operator_statement_items',
  page: 'operator_statements',
  path: '/api/v1/money/operator_statement_items',
  summary: "The findings of an operator's statement: each line and the recharge or withdrawal it matched, or the lack of either",
  filters: itemFilters,
  require: (q: ItemFilters) => (q.statement_id ? null : 'PARAM_INVALID'),
  where: (q: ItemFilters, scope: Scope) =>
    and(
      wholeBook(scope),
      q.statement_id ? eq(items.statementId, q.statement_id) : undefined,
      q.kind ? eq(items.kind, q.kind) : undefined,
      q.direction ? eq(items.direction, q.direction) : undefined,
      q.problems === 'true' ? sql`${items.kind} <> 'matched'` : q.problems === 'false' ? eq(items.kind, 'matched') : undefined,
    ),
  select: (ex: Executor) => ex.select({ i: items, rWaiting: rechargeWaiting, wWaiting: withdrawalWaiting }).from(items),
  countFrom: (ex: Executor) => ex.select({ id: items.id }).from(items),
  idColumn: items.id,
  sortable: { id: items.id, line_no: items.lineNo, kind: items.kind },
  defaultSort: 'id',
  toRow: toItemRow,
  row: itemRow,
  columns: ITEM_COLUMNS,
});
