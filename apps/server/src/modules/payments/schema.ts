import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * A payment whose outcome the operator cannot tell (it was sent, or carries the operator's number, and the
 * operator answers "unknown" past the timeout; or the operator reported another amount) is never settled
 * by a guess: it waits for reconciliation, which an operator resolves with the operator's statement line.
 */
const reconciliation = () => ({
  /** Since when it waits for reconciliation (null: it does not). */
  reconcileSince: ts('reconcile_since'),
  /** Why it waits (shown in the stuck queue). */
  reconcileCause: text('reconcile_cause'),
  reconciledBy: integer('reconciled_by'),
  reconciledAt: ts('reconciled_at'),
  /** The operator's statement line (its reference) the reconciliation rests on. */
  reconcileReference: text('reconcile_reference'),
  reconcileRemark: text('reconcile_remark'),
});


/**
 * The sandbox mobile-money operators' own ledger (operators.ts, SandboxStore): what each sandbox operator
 * knows of the transactions it was asked for, keyed by our reference as a real operator's API is. It is
 * the operator's memory, not ours: it survives our restarts as a real operator's does, so a re-query after
 * a crash finds a payout the operator made, and a repeated request with the same reference never pays
 * twice (the unique key). Nothing of ours reads it for money; tests and the crash test check it.
 */
export const sandboxOperatorTxns = pgTable(
  'sandbox_operator_txns',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    payType: smallint('pay_type').notNull(),
    /** collect (a recharge) or disburse (a payout). */
    kind: text('kind').notNull(),
    /** Our serial number: the idempotency reference. */
    reference: text('reference').notNull(),
    /** The operator's transaction id (our carrier order number). */
    carrierRef: text('carrier_ref').notNull(),
    phone: text('phone').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** pending, success or failed. */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    /** The outcome the sandbox decided when the transaction was opened, applied when it completes. */
    plannedStatus: text('planned_status').notNull(),
    plannedReason: text('planned_reason'),
    /** Callbacks sent on completion (0: the callback never comes). */
    callbacks: smallint('callbacks').notNull().default(1),
    /** When it completes (milliseconds of the sandbox's clock). */
    dueAt: bigint('due_at', { mode: 'number' }).notNull(),
    events: integer('events').notNull().default(0),
    /** What the face's protocol adds to a transaction (conversation ids, the PIN it decrypted, the channel…). */
    extra: jsonb('extra').notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
  },
  (t) => [uniqueIndex('sandbox_operator_txns_reference').on(t.payType, t.reference), uniqueIndex('sandbox_operator_txns_carrier').on(t.payType, t.carrierRef)],
);

/** Spec §3 Recharge: one collection through a mobile-money operator (or USDT). */
export const recharges = pgTable(
  'recharges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serialNumber: text('serial_number').notNull().unique(),
    bettorId: integer('bettor_id').notNull(),
    agentId: integer('agent_id').notNull(),
    amount: cents('amount').notNull(),
    payType: smallint('pay_type').notNull(),
    /** Domain RECHARGE_CHANNEL: 1 app request (bill 4), 2 USSD push (bill 11), 3 on chain (USDT, bill 4). */
    channel: smallint('channel').notNull().default(1),
    phone: text('phone').notNull(),
    carrierOrderNumber: text('carrier_order_number'),
    payStatus: smallint('pay_status').notNull().default(1),
    failReason: text('fail_reason'),
    previousRechargeAt: ts('previous_recharge_at'),
    callbackCount: integer('callback_count').notNull().default(0),
    lastQueryAt: ts('last_query_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    paidAt: ts('paid_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    ...reconciliation(),
  },
  (t) => [
    uniqueIndex('recharges_carrier').on(t.payType, t.carrierOrderNumber),
    index('recharges_created').on(t.createdAt.desc().nullsFirst()),
    index('recharges_bettor').on(t.bettorId, t.createdAt.desc().nullsFirst()),
    index('recharges_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
    index('recharges_pending').on(t.payStatus, t.createdAt).where(sql`pay_status = 1`),
    // Deposits of a day (today_statistics / history_statistics) by the time they were paid.
    index('recharges_paid').on(t.payStatus, t.paidAt),
  ],
);

/** Spec §3 Withdrawal: held from the balance when requested, reviewed, disbursed, or rolled back. */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serialNumber: text('serial_number').notNull().unique(),
    bettorId: integer('bettor_id').notNull(),
    agentId: integer('agent_id').notNull(),
    amount: cents('amount').notNull(),
    payType: smallint('pay_type').notNull(),
    phone: text('phone').notNull(),
    /** Domain WITHDRAWAL_STATUS. */
    status: smallint('status').notNull().default(1),
    /** Spec §4 pay status: 1 processing, 2 paid, 3 voided. */
    payStatus: smallint('pay_status').notNull().default(1),
    carrierOrderNumber: text('carrier_order_number'),
    firstApproverId: integer('first_approver_id'),
    secondApproverId: integer('second_approver_id'),
    refusedBy: integer('refused_by'),
    refuseReason: text('refuse_reason'),
    failReason: text('fail_reason'),
    previousRechargeAt: ts('previous_recharge_at'),
    disburseAttempts: integer('disburse_attempts').notNull().default(0),
    lastQueryAt: ts('last_query_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    reviewedAt: ts('reviewed_at'),
    disbursedAt: ts('disbursed_at'),
    paidAt: ts('paid_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    ...reconciliation(),
  },
  (t) => [
    uniqueIndex('withdrawals_carrier').on(t.payType, t.carrierOrderNumber),
    index('withdrawals_created').on(t.createdAt.desc().nullsFirst()),
    index('withdrawals_bettor').on(t.bettorId, t.createdAt.desc().nullsFirst()),
    index('withdrawals_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
    index('withdrawals_status').on(t.status, t.createdAt),
    // Withdrawals of a day (statistics) by the time they were paid.
    index('withdrawals_paid').on(t.payStatus, t.paidAt),
    // The significant events: withdrawals a second admin approved or an admin refused, by review time (migration 0045).
    index('withdrawals_second_approved').on(t.reviewedAt).where(sql`second_approver_id IS NOT NULL`),
    index('withdrawals_refused').on(t.reviewedAt).where(sql`refused_by IS NOT NULL`),
  ],
);

/** Every operator callback as received: one row per (operator, event id), so a repeat is recognised by the key. */
export const paymentCallbacks = pgTable(
  'payment_callbacks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    payType: smallint('pay_type').notNull(),
    eventId: text('event_id').notNull(),
    kind: text('kind').notNull(),
    reference: text('reference').notNull(),
    payload: jsonb('payload').notNull(),
    duplicates: integer('duplicates').notNull().default(0),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_callbacks_event').on(t.payType, t.eventId)],
);

/**
 * Issue 28: the mobile-money providers we hold an account with (mpesa, airtel, aggregator): the API's base
 * URL (null: the built-in sandbox), the non-secret settings and the credentials (write-only in the console;
 * a change needs a second admin). Switching a provider to production is this row, nothing else.
 */
export const paymentProviders = pgTable('payment_providers', {
  provider: text('provider').primaryKey(),
  baseUrl: text('base_url'),
  settings: jsonb('settings').$type<Record<string, string>>().notNull().default({}),
  secrets: jsonb('secrets').$type<Record<string, string>>().notNull().default({}),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * The built-in sandbox providers' own side of those accounts: the private keys matching the public keys we
 * are configured with, the API keys and client secrets they issued. The sandbox's memory, never ours.
 */
export const sandboxProviderAccounts = pgTable('sandbox_provider_accounts', {
  provider: text('provider').primaryKey(),
  credentials: jsonb('credentials').$type<Record<string, string>>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Issue 28: a number ported to another network keeps its prefix; an admin records where it went, and a
 * withdrawal to it through that network passes the prefix check (msisdn prefixes: @dau/domain).
 */
export const portedNumbers = pgTable('ported_numbers', {
  phone: text('phone').primaryKey(),
  payType: smallint('pay_type').notNull(),
  markedBy: integer('marked_by').notNull(),
  remark: text('remark').notNull().default(''),
  markedAt: ts('marked_at').notNull().defaultNow(),
});

/** Money settings (singleton row id 1). */
export const paymentConfig = pgTable('payment_config', {
  id: integer('id').primaryKey(),
  minRecharge: cents('min_recharge').notNull().default(100_00),
  minWithdrawal: cents('min_withdrawal').notNull().default(1_000_00),
  maxWithdrawal: cents('max_withdrawal').notNull().default(5_000_000_00),
  /** Withdrawals above this need a second admin's approval. */
  largeWithdrawal: cents('large_withdrawal').notNull().default(1_000_000_00),
  /** Pending past this many minutes: listed as stuck for re-query. */
  stuckAfterMinutes: integer('stuck_after_minutes').notNull().default(15),
  /** A disbursement with no outcome after this many minutes is timed out and rolled back after a re-query. */
  disburseTimeoutMinutes: integer('disburse_timeout_minutes').notNull().default(60),
  /** Issue 28: which provider carries each pay type ("direct" to the operator or through the aggregator). */
  providerOf: jsonb('provider_of').$type<Record<string, string>>().notNull().default({ '3': 'aggregator', '4': 'airtel', '6': 'mpesa', '7': 'aggregator' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
