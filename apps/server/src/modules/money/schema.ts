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
    // Issue 29, search everywhere: a name's left-anchored prefix (migration 0041).
    index('bettors_name_prefix').on(sql`(lower(${t.name}) COLLATE "C")`),
    // (0041 adds INCLUDE (name, id) to this one, which drizzle cannot declare: an index-only scan.)
    index('bettors_agent_name_prefix').on(t.agentId, sql`(lower(${t.name}) COLLATE "C")`),
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
