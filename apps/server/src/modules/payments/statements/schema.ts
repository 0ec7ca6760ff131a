import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, date, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * Issue 28: an operator's daily statement (its portal's file, uploaded or fetched) matched against our
 * recharges and withdrawals of that pay type and day. Every import is kept (version 1, 2, …): a re-import
 * of a day never rewrites what an earlier one found; the console shows the latest by default.
 */
export const operatorStatements = pgTable(
  'operator_statements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The provider whose file format it is: mpesa | airtel | aggregator. */
    provider: text('provider').notNull(),
    payType: smallint('pay_type').notNull(),
    /** The statement's day in Africa/Dar_es_Salaam. */
    day: date('day', { mode: 'string' }).notNull(),
    version: integer('version').notNull(),
    /** uploaded (a file an admin picked) or fetched (from the provider's portal: the built-in sandbox's). */
    source: text('source').notNull(),
    fileName: text('file_name').notNull().default(''),
    /** sha256 of the file as received (the same file imported twice shows the same digest). */
    fileSha256: text('file_sha256').notNull(),
    /** Lines of the day (after skipping charges, other channels and other days), and the lines skipped. */
    lines: integer('lines').notNull(),
    skipped: integer('skipped').notNull().default(0),
    /** Totals of the successful lines (theirs) and of our paid payments of the day (ours), cents. */
    theirCollect: cents('their_collect').notNull().default(0),
    theirDisburse: cents('their_disburse').notNull().default(0),
    ourCollect: cents('our_collect').notNull().default(0),
    ourDisburse: cents('our_disburse').notNull().default(0),
    /** matched (every line and every payment agrees) or mismatch. */
    result: text('result').notNull(),
    matched: integer('matched').notNull().default(0),
    oursOnly: integer('ours_only').notNull().default(0),
    theirsOnly: integer('theirs_only').notNull().default(0),
    amountMismatch: integer('amount_mismatch').notNull().default(0),
    statusMismatch: integer('status_mismatch').notNull().default(0),
    /** The admin who imported it (null: the daily job). */
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('operator_statements_version').on(t.payType, t.day, t.version),
    index('operator_statements_day').on(t.day.desc(), t.payType),
  ],
);

/** One finding of a statement: a line and the payment of ours it was matched with (or the lack of either). */
export const operatorStatementItems = pgTable(
  'operator_statement_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    statementId: bigint('statement_id', { mode: 'number' }).notNull(),
    /** matched | ours_only | theirs_only | amount_mismatch | status_mismatch. */
    kind: text('kind').notNull(),
    /** collect (a recharge) or disburse (a withdrawal). */
    direction: text('direction').notNull(),
    /** The file's line number (null: ours only). */
    lineNo: integer('line_no'),
    /** The operator's transaction id (our carrier order number) and our serial number when the line carries it. */
    operatorRef: text('operator_ref'),
    reference: text('reference'),
    rechargeId: bigint('recharge_id', { mode: 'number' }),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' }),
    ourAmount: cents('our_amount'),
    /** success | failed | pending (ours, from pay status / withdrawal status). */
    ourStatus: text('our_status'),
    theirAmount: cents('their_amount'),
    theirStatus: text('their_status'),
    theirTime: ts('their_time'),
    /** Ours still waits for the operator (processing / disbursing): settle it by reconciliation. */
    reconcile: boolean('reconcile').notNull().default(false),
    /** The line as the file had it (column → text). */
    theirLine: jsonb('their_line').$type<Record<string, string>>(),
  },
  (t) => [
    index('operator_statement_items_statement').on(t.statementId, t.kind),
    index('operator_statement_items_recharge').on(t.rechargeId).where(sql`recharge_id is not null`),
    index('operator_statement_items_withdrawal').on(t.withdrawalId).where(sql`withdrawal_id is not null`),
  ],
);
