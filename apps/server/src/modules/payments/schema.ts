import { bigint, bigserial, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
    createdAt: ts('created_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
  },
  (t) => [uniqueIndex('sandbox_operator_txns_reference').on(t.payType, t.reference), uniqueIndex('sandbox_operator_txns_carrier').on(t.payType, t.carrierRef)],
);
