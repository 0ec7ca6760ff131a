import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * USDT on TRON (issue 14): our wallets, the USDT transfers seen on chain to or from them, the sweeps
 * (collections, gas top-ups, withdrawals) we sent, the watcher's position and the settings. Design:
 * docs/architecture.md ("The TRON node and the wallets' keys", "USDT deposits, sweeps and withdrawals"); the sandbox TRON node's own tables are in sandbox-schema.ts.
 *
 * Amounts on chain are integers: TRX in sun (1 TRX = 1,000,000 sun), USDT in its 6-decimal units
 * (1 USDT = 1,000,000). A private key is never stored in clear: keys.ts encrypts it (AES-256-GCM) under a
 * random data key per wallet, and the data key under the master key (envelope encryption).
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const units = (name: string) => bigint(name, { mode: 'number' });

/** TRON_WALLET_ROLE: 1 deposit (one per bettor), 2 collection / hot, 3 gas (pays TRX for energy and bandwidth). */
export const TRON_WALLET_ROLE = { deposit: 1, collection: 2, gas: 3 } as const;

/** tron_wallets: an address we hold the key of. */
export const tronWallets = pgTable(
  'tron_wallets',
  {
    id: serial('id').primaryKey(),
    role: smallint('role').notNull(),
    /** The bettor a deposit wallet belongs to (one per bettor). */
    bettorId: integer('bettor_id'),
    /** The bettor's agent when the wallet was made: the data scope of the wallet. */
    agentId: integer('agent_id'),
    addressBase58: text('address_base58').notNull(),
    /** 41-prefixed hex, lower case. */
    addressHex: text('address_hex').notNull(),
    /** Uncompressed secp256k1 public key, hex. */
    publicKey: text('public_key').notNull(),
    /** The private key encrypted under the data key (AES-256-GCM), base64, with its IV and tag. */
    keyCiphertext: text('key_ciphertext').notNull(),
    keyIv: text('key_iv').notNull(),
    keyTag: text('key_tag').notNull(),
    /** The data key wrapped by the KeyWrapper (master key or KMS), opaque. */
    dataKeyWrapped: text('data_key_wrapped').notNull(),
    /** Stored balances, from the last sync (sun / USDT units). */
    trxBalance: units('trx_balance').notNull().default(0),
    usdtBalance: units('usdt_balance').notNull().default(0),
    balanceSyncedAt: ts('balance_synced_at'),
    removed: boolean('removed').notNull().default(false),
    removedAt: ts('removed_at'),
    removedBy: integer('removed_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    createdBy: integer('created_by'),
  },
  (t) => [
    uniqueIndex('tron_wallets_bettor').on(t.bettorId).where(sql`${t.bettorId} is not null and ${t.removed} = false`),
    uniqueIndex('tron_wallets_address_base58').on(t.addressBase58),
    uniqueIndex('tron_wallets_address_hex').on(t.addressHex),
    index('tron_wallets_created').on(t.createdAt.desc(), t.id.desc()),
    index('tron_wallets_agent').on(t.agentId),
  ],
);

/** TRON_TRANSFER_STATUS: 1 seen, 2 confirmed / credited, 3 failed, 4 reorganised. */
export const TRON_TRANSFER_STATUS = { seen: 1, confirmed: 2, failed: 3, reorganised: 4 } as const;

/** tron_transfers: a USDT transfer seen on chain to or from one of our addresses (usdt_transaction_record). */
export const tronTransfers = pgTable(
  'tron_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** `${txHash}:${eventIndex}`: a transfer is credited at most once. */
    fingerprint: text('fingerprint').notNull(),
    txHash: text('tx_hash').notNull(),
    eventIndex: integer('event_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }),
    blockTime: ts('block_time'),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amount: units('amount').notNull(),
    /** 'in' | 'out'. */
    direction: text('direction').notNull(),
    walletId: integer('wallet_id'),
    bettorId: integer('bettor_id'),
    agentId: integer('agent_id'),
    status: smallint('status').notNull().default(1),
    rechargeId: bigint('recharge_id', { mode: 'number' }),
    remark: text('remark'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tron_transfers_fingerprint').on(t.fingerprint),
    index('tron_transfers_created').on(t.createdAt.desc(), t.id.desc()),
    index('tron_transfers_wallet').on(t.walletId),
    index('tron_transfers_tx').on(t.txHash),
    index('tron_transfers_from').on(t.fromAddress, t.id.desc()),
    index('tron_transfers_to').on(t.toAddress, t.id.desc()),
    index('tron_transfers_seen').on(t.blockNumber).where(sql`${t.status} = 1`),
  ],
);

/** TRON_SWEEP_STATUS: 1 pending, 2 success, 3 failed, 4 unknown (to reconcile). */
export const TRON_SWEEP_STATUS = { pending: 1, success: 2, failed: 3, unknown: 4 } as const;

/** tron_sweeps: a transaction we sent (tron_transaction_summary): collect, gas top-up or withdrawal. */
export const tronSweeps = pgTable(
  'tron_sweeps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    number: text('number').notNull(),
    /** 'collect' | 'gas' | 'withdrawal'. */
    kind: text('kind').notNull(),
    txHash: text('tx_hash'),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amount: units('amount').notNull(),
    /** 'USDT' | 'TRX'. */
    asset: text('asset').notNull(),
    status: smallint('status').notNull().default(1),
    remark: text('remark'),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' }),
    /** A gas top-up's sweep. */
    parentId: bigint('parent_id', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    confirmedAt: ts('confirmed_at'),
  },
  (t) => [
    uniqueIndex('tron_sweeps_number').on(t.number),
    index('tron_sweeps_created').on(t.createdAt.desc(), t.id.desc()),
    index('tron_sweeps_tx').on(t.txHash),
    index('tron_sweeps_from').on(t.fromAddress, t.id.desc()),
    index('tron_sweeps_to').on(t.toAddress, t.id.desc()),
    index('tron_sweeps_open').on(t.createdAt).where(sql`${t.status} in (1, 4)`),
  ],
);

/** tron_chain_state: how far a reader of the chain got (key 'watcher'). */
export const tronChainState = pgTable('tron_chain_state', {
  key: text('key').primaryKey(),
  lastBlock: bigint('last_block', { mode: 'number' }).notNull().default(0),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** tron_settings (singleton row id 1). */
export const tronSettings = pgTable('tron_settings', {
  id: integer('id').primaryKey(),
  /** Blocks on top of a transfer's block before it is credited (19 = solidified). */
  confirmations: integer('confirmations').notNull().default(19),
  /** Cents of TSh credited per 1 USDT. */
  usdtRateTsh: bigint('usdt_rate_tsh', { mode: 'number' }).notNull().default(260000),
  /** A deposit wallet is collected from when it holds at least this (USDT units). */
  collectThreshold: units('collect_threshold').notNull().default(10_000_000),
  /** TRX (sun) sent from the gas wallet to a deposit wallet that lacks it before a collection. */
  gasTopUpSun: units('gas_top_up_sun').notNull().default(30_000_000),
  /** Above this (USDT units) the hot wallet's surplus is flagged for cold storage. */
  hotWalletCeiling: units('hot_wallet_ceiling').notNull().default(100_000_000_000),
  /** The USDT TRC-20 contract (Base58); the sandbox node serves the mainnet address. */
  usdtContract: text('usdt_contract').notNull().default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
