import type { FieldDef, ResourceDef } from './resource.js';

/**
 * The TRON lists (issue 14) as server and console declare them, without zod (the console's bundle takes
 * this file): the wallets (GET /api/v1/tron/wallets, apps/server/src/modules/tron/wallets.ts, filters
 * `tronWalletFilters` in ./tron-resources.ts), the sweeps and the USDT transfers
 * (apps/server/src/modules/tron/lists.ts). The filter-only fields (`phone`, `address`) are the server's
 * filter names. apps/server/test/declarations.test.ts ties each filter and column to its route.
 */
const createdRange: FieldDef = { key: 'created_at', type: 'datetime', search: 'range', table: false, detail: false };

/** GET /tron/wallets (apps/server/src/modules/tron/wallets.ts). */
export const tronWalletResource: ResourceDef = {
  name: 'tron',
  page: 'tron',
  api: '/tron/wallets',
  kind: 'list',
  defaultSort: '-id',
  actions: [],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    { key: 'role', type: 'number', search: 'exact' },
    { key: 'bettor_id', type: 'number', search: 'exact' },
    { key: 'phone', type: 'text', search: 'like', table: false, detail: false },
    { key: 'address', type: 'text', search: 'exact', table: false, detail: false },
    { key: 'address_base58', type: 'text' },
    { key: 'address_hex', type: 'text', table: false },
    { key: 'public_key', type: 'text', table: false },
    { key: 'trx_balance', type: 'number', sortable: true },
    { key: 'usdt_balance', type: 'number', sortable: true },
    { key: 'balance_synced_at', type: 'datetime', table: false },
    { key: 'removed', type: 'switch', search: 'exact' },
    { key: 'removed_at', type: 'datetime', table: false },
    { key: 'create_time', type: 'datetime', sortable: true },
  ],
};

/** GET /tron/sweeps (apps/server/src/modules/tron/lists.ts): row keys and filters. */
export const tronSweepResource: ResourceDef = {
  name: 'tron_transaction_summary',
  page: 'tron_transaction_summary',
  api: '/tron/sweeps',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'tron_transaction_summary',
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70, table: false },
    { key: 'number', type: 'text', search: 'exact' },
    { key: 'kind', type: 'text', search: 'exact' },
    { key: 'tx_hash', type: 'text', search: 'exact' },
    { key: 'address', type: 'text', search: 'exact', table: false, detail: false },
    { key: 'from_address', type: 'text' },
    { key: 'to_address', type: 'text' },
    { key: 'amount', type: 'number', sortable: true },
    { key: 'asset', type: 'text', search: 'exact', table: false },
    { key: 'status', type: 'number', search: 'exact' },
    { key: 'remark', type: 'text' },
    { key: 'parent_id', type: 'number', table: false },
    { key: 'withdrawal_serial', type: 'text', table: false },
    { key: 'bettor_id', type: 'number', table: false },
    createdRange,
    { key: 'create_time', type: 'datetime', sortable: true },
    { key: 'confirm_time', type: 'datetime', table: false },
  ],
};

/** GET /tron/transfers (apps/server/src/modules/tron/lists.ts): row keys and filters. */
export const usdtTransferResource: ResourceDef = {
  name: 'usdt_transaction_record',
  page: 'usdt_transaction_record',
  api: '/tron/transfers',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'usdt_transaction_record',
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70, table: false },
    { key: 'amount', type: 'number', sortable: true },
    { key: 'block_number', type: 'number', sortable: true },
    { key: 'tx_hash', type: 'text', search: 'exact' },
    { key: 'block_time', type: 'datetime' },
    { key: 'fingerprint', type: 'text', search: 'exact', table: false },
    { key: 'address', type: 'text', search: 'exact', table: false, detail: false },
    { key: 'from_address', type: 'text' },
    { key: 'to_address', type: 'text' },
    { key: 'direction', type: 'text', search: 'exact', table: false },
    { key: 'status', type: 'number', search: 'exact' },
    { key: 'bettor_id', type: 'number', search: 'exact' },
    { key: 'user_name', type: 'text', table: false },
    { key: 'recharge_serial', type: 'text', table: false },
    { key: 'credited_amount', type: 'money', table: false },
    { key: 'remark', type: 'text' },
    createdRange,
    { key: 'create_time', type: 'datetime', sortable: true, table: false },
  ],
};

/**
 * The reconciliation view (issue 14): per wallet, the USDT the chain says it holds (asked from the node
 * now; the stored balance of the last sync beside it) against what our records say it should hold: the
 * confirmed transfers into it minus those out of it (tron_transfers, which the watcher fills from the
 * chain for every address of ours). A difference names a transfer the watcher has not applied yet (still
 * to be confirmed) or one it never saw. The collection (hot) wallet above the ceiling is flagged: its
 * surplus belongs in cold storage.
 */
export interface TronReconcileRow {
  wallet_id: number;
  role: number;
  address: string;
  bettor_id: number | null;
  agent_id: number | null;
  removed: boolean;
  /** USDT units. */
  expected_usdt: number;
  chain_usdt: number | null;
  stored_usdt: number;
  chain_trx: number | null;
  difference: number | null;
  balance_synced_at: string | null;
  /** Collection wallet above hot_wallet_ceiling: the surplus (units) to move to cold storage. */
  above_ceiling: boolean;
  surplus: number;
  node_error: string | null;
}

/** GET /api/v1/tron/reconcile: the rows, their count and the hot wallet's ceiling (USDT units). */
export interface TronReconcileAnswer {
  rows: TronReconcileRow[];
  total: number;
  ceiling: number;
}

/**
 * GET/PUT /tron/settings (page tron_config; apps/server/src/modules/tron/settings.ts): confirmations, the
 * USDT→TSh rate, the collect threshold and the hot wallet's ceiling; a change of the rate or the ceiling
 * waits for a second whole-book admin.
 */
export const tronSettingsResource: ResourceDef = {
  name: 'tron_settings',
  page: 'tron_config',
  api: '/tron/settings',
  kind: 'singleton',
  actions: ['edit'],
  duty: { two: ['usdt_rate_tsh', 'hot_wallet_ceiling'] },
  fields: [
    { key: 'usdt_rate_tsh', type: 'money', editable: true, required: true, min: 1 },
    { key: 'confirmations', type: 'number', editable: true, required: true, min: 1, max: 1000 },
    { key: 'collect_threshold', type: 'number', editable: true, required: true, min: 0.000001, max: 1_000_000_000 },
    { key: 'hot_wallet_ceiling', type: 'number', editable: true, required: true, min: 0, max: 1_000_000_000 },
    { key: 'updated_at', type: 'datetime' },
  ],
};
