import { sql } from 'drizzle-orm';
import {
  bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * Spec §3 User: a bettor. The two balances (cash, credit) live on the row: every change is the one
 * guarded UPDATE of the ledger service plus a bill in the same transaction. Totals are kept up to date
 * by the services that move money.
 */
export const bettors = pgTable(
  'bettors',
  {
    id: serial('id').primaryKey(),
    phone: text('phone').notNull(),
    name: text('name').notNull().default(''),
    passwordHash: text('password_hash').notNull().default(''),
    invitationCode: text('invitation_code'),
    inviterId: integer('inviter_id'),
    /** The admin (agent) owning the bettor: the data scope of sub-admins. */
    agentId: integer('agent_id').notNull(),
    cashBalance: cents('cash_balance').notNull().default(0),
    creditBalance: cents('credit_balance').notNull().default(0),
    disabled: smallint('disabled').notNull().default(1),
    onlineStatus: smallint('online_status').notNull().default(1),
    onlineUpdatedAt: ts('online_updated_at'),
    riskLevel: smallint('risk_level').notNull().default(1),
    betStatus: smallint('bet_status').notNull().default(1),
    googleBound: smallint('google_bound').notNull().default(2),
    registerIp: text('register_ip'),
    lastLoginAt: ts('last_login_at'),
    lastRechargeAt: ts('last_recharge_at'),
    totalBets: cents('total_bets').notNull().default(0),
    betsNum: integer('bets_num').notNull().default(0),
    profitNum: integer('profit_num').notNull().default(0),
    bettingProfit: cents('betting_profit').notNull().default(0),
    totalRecharge: cents('total_recharge').notNull().default(0),
    totalWithdrawal: cents('total_withdrawal').notNull().default(0),
    totalReward: cents('total_reward').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bettors_phone').on(t.phone),
    uniqueIndex('bettors_invitation_code').on(t.invitationCode),
    index('bettors_agent').on(t.agentId, t.id),
    index('bettors_created').on(t.createdAt),
    index('bettors_online').on(t.onlineStatus),
  ],
);

/**
 * The bettor-facing side of the journal (spec §3 Bill). Range-partitioned by month on created_at (see
 * the migration): the lists of the last 30 days prune to one or two partitions, archives look up older
 * ones by user or serial number, and old months can be detached whole. Rows are only ever inserted.
 */
export const bills = pgTable(
  'bills',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    serialNumber: text('serial_number').notNull(),
    bettorId: integer('bettor_id').notNull(),
    agentId: integer('agent_id').notNull(),
    /** 1 cash, 2 credit (domain ACCOUNT_KIND). */
    accountKind: smallint('account_kind').notNull(),
    type: smallint('type').notNull(),
    amount: cents('amount').notNull(),
    balanceBefore: cents('balance_before').notNull(),
    balanceAfter: cents('balance_after').notNull(),
    /** What caused it: order, recharge, withdrawal, admin, promotion, casino, racing, jackpot. */
    causeType: text('cause_type').notNull(),
    causeId: text('cause_id'),
    adminId: integer('admin_id'),
    /** Free text an admin typed (a correction's reason); what the system says is in remark_kind / remark_params. */
    remark: text('remark').notNull().default(''),
    /** Issue 23: what the system says, as a kind (domain BILL_REMARK_KINDS) read in the reader's language; null on older rows. */
    remarkKind: text('remark_kind'),
    /** The kind's parameters (order number, serial, ...). */
    remarkParams: jsonb('remark_params').$type<Record<string, string | number>>(),
    /** Groups this bill with its counter-entries on house accounts; they sum to zero. */
    txnId: text('txn_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    index('bills_created').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('bills_bettor').on(t.bettorId, t.accountKind, t.createdAt.desc().nullsFirst()),
    index('bills_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
    index('bills_type').on(t.type, t.createdAt.desc().nullsFirst()),
    index('bills_serial').on(t.serialNumber),
    index('bills_admin').on(t.adminId, t.createdAt.desc().nullsFirst()),
    index('bills_cause').on(t.causeType, t.causeId),
  ],
);

/** Counter-entries on the house accounts (double entry). Balances of house accounts are sums. */
export const houseEntries = pgTable(
  'house_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    txnId: text('txn_id').notNull(),
    account: text('account').notNull(),
    amount: cents('amount').notNull(),
    billType: smallint('bill_type').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('house_entries_account').on(t.account, t.createdAt), index('house_entries_txn').on(t.txnId)],
);

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
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Spec §3 Async operation: background exports. */
export const asyncOperations = pgTable(
  'async_operations',
  {
    id: serial('id').primaryKey(),
    adminId: integer('admin_id').notNull(),
    type: text('type').notNull(),
    format: smallint('format').notNull(),
    params: jsonb('params').notNull(),
    /** 1 in progress, 2 completed, 3 abnormal. */
    status: smallint('status').notNull().default(1),
    rowCount: integer('row_count').notNull().default(0),
    filePath: text('file_path'),
    fileName: text('file_name'),
    errorMessage: text('error_message'),
    /** Runs of the export so far (claims by the export job): a crashed export is given up after a few. */
    attempts: integer('attempts').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('async_operations_admin').on(t.adminId, t.id), index('async_operations_status').on(t.status)],
);


/** Spec §2 activity qualification: a bettor's participation in a promotion; success grants credit money. */
export const activityQualifications = pgTable(
  'activity_qualifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bettorId: integer('bettor_id').notNull(),
    agentId: integer('agent_id').notNull(),
    activity: text('activity').notNull(),
    /** 1 pending, 2 success (domain ACTIVITY_QUALIFICATION). */
    status: smallint('status').notNull().default(1),
    /** Credit money granted on success, cents. */
    reward: cents('reward').notNull().default(0),
    remark: text('remark').notNull().default(''),
    reviewedBy: integer('reviewed_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    qualifiedAt: ts('qualified_at'),
    /** Promotions (issue 17): the campaign the row qualifies for (null: a row of the old seed / by hand). */
    campaignId: integer('campaign_id'),
    /** The campaign's period the row belongs to ('all', or e.g. 'invitee:42'): one row per (campaign, bettor, period). */
    periodKey: text('period_key'),
    /** The amount the reward is computed from (deposit, stakes), cents. */
    qualifyingAmount: cents('qualifying_amount'),
    /** The award's bill (cash bill or credit bill 101) once approved. */
    billId: bigint('bill_id', { mode: 'number' }),
    approvedAt: ts('approved_at'),
  },
  (t) => [
    uniqueIndex('activity_qualifications_once').on(t.bettorId, t.activity).where(sql`${t.campaignId} is null`),
    uniqueIndex('activity_qualifications_campaign_once').on(t.campaignId, t.bettorId, t.periodKey).where(sql`${t.campaignId} is not null`),
    index('activity_qualifications_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
    index('activity_qualifications_created').on(t.createdAt.desc().nullsFirst()),
  ],
);

