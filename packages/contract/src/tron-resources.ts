import { z } from 'zod';
import { component } from './answers.js';

/**
 * USDT on TRON (issue 14; design: docs/architecture.md, "The TRON node and the wallets' keys" and "USDT
 * deposits, sweeps and withdrawals") as server and console read it.
 * Amounts on chain are integers: TRX in sun (1 TRX = 1,000,000 sun), USDT in 6-decimal units
 * (1 USDT = 1,000,000). A wallet answer never carries key material (no ciphertext, IV, tag or wrapped key).
 *
 * Page `tron` (wallets): apps/server/src/modules/tron/wallets.ts. T2 adds the transfer
 * (usdt_transaction_record) and sweep (tron_transaction_summary) lists below.
 */

/** TRON_WALLET_ROLE: 1 deposit (one per bettor), 2 collection / hot, 3 gas. Labels: `tron.role.<id>`. */
export const TRON_WALLET_ROLES = { deposit: 1, collection: 2, gas: 3 } as const;
export type TronWalletRole = (typeof TRON_WALLET_ROLES)[keyof typeof TRON_WALLET_ROLES];

/** GET /api/v1/tron/wallets filters. `address` matches Base58 or hex; `removed` 0/1 (default: both). */
export const tronWalletFilters = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  role: z.coerce.number().int().min(1).max(3).optional(),
  bettor_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  phone: z.string().trim().max(32).optional(),
  address: z.string().trim().max(64).optional(),
  /** Removed or not: 1/0 (the wallets screen's select) or true/false (a switch filter). */
  removed: z.enum(['0', '1', 'false', 'true']).optional(),
});

const str = z.string();
const num = z.number();

/** One wallet as the `tron` page shows it (list and detail). */
export const tronWalletAnswer = z.object({
  id: num,
  role: num,
  bettor_id: num.nullable(),
  bettor_phone: str.nullable(),
  agent_id: num.nullable(),
  address_base58: str,
  address_hex: str,
  public_key: str,
  trx_balance: num,
  usdt_balance: num,
  balance_synced_at: str.nullable(),
  removed: z.boolean(),
  removed_at: str.nullable(),
  create_time: str,
  created_by: num.nullable(),
});
export type TronWalletAnswer = z.infer<typeof tronWalletAnswer>;

/** POST /api/v1/tron/wallets: a collection/hot or gas wallet, or a bettor's deposit wallet. */
export const tronWalletCreate = z.object({
  role: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** Required with role 1 (deposit): the bettor's existing wallet is answered when there is one. */
  bettor_id: z.number().int().min(1).max(2_147_483_647).optional(),
});

/** GET /api/v1/tron/wallets/:id/balance: asked from the node now (and stored). */
export const tronLiveBalanceAnswer = z.object({
  id: num,
  address_base58: str,
  trx_balance: num,
  usdt_balance: num,
  /** The same, solidified (19 blocks deep). */
  trx_balance_confirmed: num,
  usdt_balance_confirmed: num,
  balance_synced_at: str,
});
export type TronLiveBalanceAnswer = z.infer<typeof tronLiveBalanceAnswer>;

/** POST /api/v1/tron/wallets/sync and DELETE /api/v1/tron/wallets/:id take `{ confirm: true }` (spec §8). */
export const tronConfirmBody = z.object({ confirm: z.literal(true) });
export const tronSyncAnswer = z.object({ queued: z.boolean(), wallets: num });

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(tronWalletAnswer, 'TronWalletRow');

/**
 * A USDT amount as the operator types it (issue 29, TRON settings): at most 6 decimals (one unit is
 * 0.000001 USDT), read exactly from its decimal digits (never through a float), at most a billion.
 */
const usdtAmount = (min: number) =>
  z
    .number()
    .min(min)
    .max(1_000_000_000)
    .refine((v) => /^\d+(\.\d{1,6})?$/.test(String(v)), { message: 'at most 6 decimals' });

/** GET /api/v1/tron/settings (page tron_config): what the watcher, the sweeps and the withdrawals read. */
export const tronSettingsAnswer = z.object({
  /** Blocks on top of a transfer's block before it is credited or a withdrawal is taken as paid. */
  confirmations: num,
  /** Cents of TSh credited per 1 USDT (and asked per USDT withdrawn). */
  usdt_rate_tsh: num,
  /** USDT (decimals): a deposit address is collected from at this balance or more. */
  collect_threshold: num,
  /** USDT (decimals): the hot wallet's balance above this is flagged for cold storage. */
  hot_wallet_ceiling: num,
  updated_at: str,
});
export type TronSettingsAnswer = z.infer<typeof tronSettingsAnswer>;

/** PUT /api/v1/tron/settings: the rate and the ceiling wait for a second whole-book admin. */
export const tronSettingsBody = z.strictObject({
  confirmations: z.number().int().min(1).max(1000).optional(),
  usdt_rate_tsh: z.number().int().min(1).max(100_000_000_00).optional(),
  collect_threshold: usdtAmount(0.000001).optional(),
  hot_wallet_ceiling: usdtAmount(0).optional(),
});

/**
 * A USDT withdrawal as the review shows it (GET /api/v1/tron/withdrawals/:id, and several at once by
 * `ids`): the destination, the USDT amount, and an address-poisoning hold with the look-alike address it
 * was taken for (`hold_kind`: our_wallet, counterparty, destination, own_wallet) and whether its release
 * waits for a second admin (`release_pending`: the pending change's id).
 */
export const usdtWithdrawalAnswer = z.object({
  withdrawal_id: num, serial_number: str, status: num, amount: num, to_address: str, from_address: str.nullable(),
  usdt_amount: num, held: z.boolean(), warning: str.nullable(), hold_kind: str.nullable(), look_alike: str.nullable(),
  release_pending: num.nullable(), remark: str.nullable(), sweep_id: num, sweep_number: str, sweep_status: num, tx_hash: str.nullable(),
});
export type UsdtWithdrawalAnswer = z.infer<typeof usdtWithdrawalAnswer>;
export const usdtWithdrawalQuery = z.object({
  /** Withdrawal ids, comma separated (the review list's page): those of USDT in the caller's scope are answered. */
  ids: z.string().trim().max(2000).regex(/^\d{1,15}(,\d{1,15}){0,99}$/),
});
