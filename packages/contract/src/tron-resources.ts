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
