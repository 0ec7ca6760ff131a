import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * THE SANDBOX TRON NODE's own chain (sandbox-node.ts), not ours: its accounts, TRC-20 balances, blocks
 * and transactions. It survives our restarts as a real chain does. Nothing of the product reads these
 * tables: the product asks the node over HTTP through TronWeb, as it would ask a real node.
 * Addresses are 41-prefixed hex, lower case.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const big = (name: string) => bigint(name, { mode: 'number' });

/** tron_sandbox_accounts: an activated account and its TRX (sun). */
export const tronSandboxAccounts = pgTable('tron_sandbox_accounts', {
  address: text('address').primaryKey(),
  balance: big('balance').notNull().default(0),
  createTime: big('create_time').notNull(),
});

/** tron_sandbox_token_balances: a TRC-20 contract's balance of an address (token units). */
export const tronSandboxTokenBalances = pgTable(
  'tron_sandbox_token_balances',
  {
    contract: text('contract').notNull(),
    address: text('address').notNull(),
    balance: big('balance').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.contract, t.address] })],
);

/** tron_sandbox_blocks: the canonical chain (a reorganisation deletes and replaces the top blocks). */
export const tronSandboxBlocks = pgTable('tron_sandbox_blocks', {
  number: big('number').primaryKey(),
  hash: text('hash').notNull(),
  parentHash: text('parent_hash').notNull(),
  /** Milliseconds. */
  timestamp: big('timestamp').notNull(),
  witness: text('witness').notNull(),
});

/**
 * tron_sandbox_transactions: every transaction broadcast to the node. state: 'pending' (in the pool),
 * 'included' (in block_number), 'dropped' (never confirms, or reorganised away).
 */
export const tronSandboxTransactions = pgTable(
  'tron_sandbox_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    txId: text('tx_id').notNull(),
    /** The signed transaction as broadcast (JSON). */
    raw: jsonb('raw').notNull(),
    /** 'TransferContract' | 'TriggerSmartContract'. */
    contractType: text('contract_type').notNull(),
    owner: text('owner').notNull(),
    /** The TRX receiver, or the TRC-20 contract called. */
    toAddress: text('to_address').notNull(),
    /** TRC-20 transfer: the token receiver and amount. */
    tokenTo: text('token_to'),
    amount: big('amount').notNull().default(0),
    state: text('state').notNull().default('pending'),
    /** 'SUCCESS' | 'OUT_OF_ENERGY' | 'REVERT' once included. */
    result: text('result'),
    fee: big('fee').notNull().default(0),
    energyUsage: big('energy_usage').notNull().default(0),
    netUsage: big('net_usage').notNull().default(0),
    blockNumber: big('block_number'),
    /** Position in its block. */
    blockIndex: integer('block_index'),
    /** Fault applied to this transaction at broadcast ('never_confirm', 'out_of_energy'). */
    fault: text('fault'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tron_sandbox_transactions_tx').on(t.txId),
    index('tron_sandbox_transactions_block').on(t.blockNumber),
    index('tron_sandbox_transactions_pending').on(t.id).where(sql`${t.state} = 'pending'`),
    index('tron_sandbox_transactions_token_to').on(t.tokenTo),
    index('tron_sandbox_transactions_owner').on(t.owner),
  ],
);

/** tron_sandbox_state (key 'node'): the head, the faults in force, the reorg counter. */
export const tronSandboxState = pgTable('tron_sandbox_state', {
  key: text('key').primaryKey(),
  head: big('head').notNull().default(0),
  faults: jsonb('faults').$type<Record<string, unknown>>().notNull().default({}),
  reorgs: integer('reorgs').notNull().default(0),
});
