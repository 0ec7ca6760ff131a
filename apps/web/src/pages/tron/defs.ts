import type { FieldDef, ResourceDef } from '@dau/contract';

/**
 * PROVISIONAL: the TRON declarations as the design names them, until packages/contract/src/tron-resources.ts
 * (T1) lands; then this file re-exports the contract's.
 */
const createdRange: FieldDef = { key: 'created_at', type: 'datetime', search: 'range', table: false, detail: false };

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
    { key: 'address_base58', type: 'text', search: 'exact' },
    { key: 'address_hex', type: 'text', table: false },
    { key: 'public_key', type: 'text', table: false },
    { key: 'trx_balance', type: 'number' },
    { key: 'usdt_balance', type: 'number', sortable: true },
    { key: 'balance_synced_at', type: 'datetime', table: false },
    { key: 'removed', type: 'switch', search: 'exact' },
    { key: 'removed_at', type: 'datetime', table: false },
    createdRange,
    { key: 'created_at', type: 'datetime', sortable: true },
  ],
};

export const tronSweepResource: ResourceDef = {
  name: 'tron_transaction_summary',
  page: 'tron_transaction_summary',
  api: '/tron/sweeps',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70, table: false },
    { key: 'number', type: 'text', search: 'exact' },
    { key: 'kind', type: 'text', search: 'exact' },
    { key: 'tx_hash', type: 'text', search: 'exact' },
    { key: 'from_address', type: 'text', search: 'exact' },
    { key: 'to_address', type: 'text', search: 'exact' },
    { key: 'amount', type: 'number' },
    { key: 'asset', type: 'text' },
    { key: 'status', type: 'number', search: 'exact' },
    { key: 'remark', type: 'text' },
    { key: 'parent_id', type: 'number', table: false },
    { key: 'withdrawal_id', type: 'number', table: false },
    createdRange,
    { key: 'created_at', type: 'datetime', sortable: true },
    { key: 'confirmed_at', type: 'datetime', table: false },
  ],
};

export const usdtTransferResource: ResourceDef = {
  name: 'usdt_transaction_record',
  page: 'usdt_transaction_record',
  api: '/tron/transfers',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70, table: false },
    { key: 'amount', type: 'number' },
    { key: 'block_number', type: 'number', sortable: true },
    { key: 'tx_hash', type: 'text', search: 'exact' },
    { key: 'block_time', type: 'datetime' },
    { key: 'fingerprint', type: 'text', search: 'exact', table: false },
    { key: 'from_address', type: 'text', search: 'exact' },
    { key: 'to_address', type: 'text', search: 'exact' },
    { key: 'direction', type: 'text', search: 'exact' },
    { key: 'status', type: 'number', search: 'exact' },
    { key: 'bettor_id', type: 'number', search: 'exact' },
    { key: 'recharge_id', type: 'number', table: false },
    { key: 'remark', type: 'text' },
    createdRange,
  ],
};
