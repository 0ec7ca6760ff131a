import { z } from 'zod';
import { aliasedTable, and, eq, or, sql } from 'drizzle-orm';
import { answerRow, rawText } from '@dau/contract';
import { bettors } from '../money/index.js';
import { recharges, withdrawals } from '../payments/index.js';
import { defineList, isoDate, optionalInt, optionalText, scopeCondition, type ExportColumn } from '../../platform/listing.js';
import type { Executor } from '../../platform/db.js';
import { tronSweeps, tronTransfers, tronWallets } from './schema.js';
import { directionText, sweepKindText, sweepStatusText, transferStatusText } from './labels.js';

/**
 * The two TRON lists (issue 14), scoped like the bettors' money: a row tied to a bettor (a deposit, a
 * collect from their deposit address, a gas top-up to it, their withdrawal) is seen within the admin's
 * branch; rows of the house's own wallets only with the whole book (scope all).
 */

const iso = (d: Date | string | null | undefined) => (d == null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const status4 = z.coerce.number().int().min(1).max(4).optional();

// ------------------------------------------------------------------------------------------------
// usdt_transaction_record: USDT transfers seen on chain to or from our addresses.

export const transferFilters = z.object({
  bettor_id: optionalInt,
  wallet_id: optionalInt,
  tx_hash: optionalText,
  fingerprint: rawText(100).optional(),
  /** Sender or receiver (Base58). */
  address: optionalText,
  direction: z.enum(['in', 'out']).optional(),
  status: status4,
  block_from: optionalInt,
  block_to: optionalInt,
  created_at_from: isoDate,
  created_at_to: isoDate,
});

export const transferAnswer = answerRow({
  id: 'number', fingerprint: 'string', tx_hash: 'string', event_index: 'number', block_number: 'number?', block_time: 'string?',
  from_address: 'string', to_address: 'string', amount: 'number', direction: 'string', wallet_id: 'number?', bettor_id: 'number?',
  user_name: 'string?', agent_id: 'number?', status: 'number', recharge_id: 'number?', recharge_serial: 'string?', credited_amount: 'number?',
  remark: 'string?', create_time: 'string?',
});

const selectTransfers = (ex: Executor) =>
  ex
    .select({ t: tronTransfers, userName: bettors.name, rechargeSerial: recharges.serialNumber, credited: recharges.amount })
    .from(tronTransfers)
    .leftJoin(bettors, eq(bettors.id, tronTransfers.bettorId))
    .leftJoin(recharges, eq(recharges.id, tronTransfers.rechargeId));

type TransferSel = { t: typeof tronTransfers.$inferSelect; userName: string | null; rechargeSerial: string | null; credited: number | null };

export const toTransferRow = (x: TransferSel) => ({
  id: x.t.id, fingerprint: x.t.fingerprint, tx_hash: x.t.txHash, event_index: x.t.eventIndex, block_number: x.t.blockNumber, block_time: iso(x.t.blockTime),
  from_address: x.t.fromAddress, to_address: x.t.toAddress, amount: Number(x.t.amount), direction: x.t.direction, wallet_id: x.t.walletId,
  bettor_id: x.t.bettorId, user_name: x.userName, agent_id: x.t.agentId, status: x.t.status, recharge_id: x.t.rechargeId,
  recharge_serial: x.rechargeSerial, credited_amount: x.credited == null ? null : Number(x.credited), remark: x.t.remark, create_time: iso(x.t.createdAt),
});

const TRANSFER_COLUMNS: readonly ExportColumn[] = [
  { key: 'id' }, { key: 'fingerprint' }, { key: 'tx_hash' }, { key: 'block_number' }, { key: 'block_time' }, { key: 'from_address' }, { key: 'to_address' },
  { key: 'amount', decimals: 6 }, { key: 'direction', text: directionText }, { key: 'bettor_id' }, { key: 'user_name' }, { key: 'status', text: transferStatusText }, { key: 'recharge_serial' },
  { key: 'credited_amount', money: true }, { key: 'remark' }, { key: 'create_time' },
];

export const usdtTransferListSpec = defineList({
  name: 'usdt_transaction_record',
  page: 'usdt_transaction_record',
  path: '/api/v1/tron/transfers',
  filters: transferFilters,
  where: (q, scope) =>
    and(
      scopeCondition(scope, tronTransfers.agentId),
      q.bettor_id ? eq(tronTransfers.bettorId, q.bettor_id) : undefined,
      q.wallet_id ? eq(tronTransfers.walletId, q.wallet_id) : undefined,
      q.tx_hash ? eq(tronTransfers.txHash, q.tx_hash) : undefined,
      q.fingerprint ? eq(tronTransfers.fingerprint, q.fingerprint) : undefined,
      q.address ? or(eq(tronTransfers.fromAddress, q.address), eq(tronTransfers.toAddress, q.address)) : undefined,
      q.direction ? eq(tronTransfers.direction, q.direction) : undefined,
      q.status ? eq(tronTransfers.status, q.status) : undefined,
      q.block_from ? sql`${tronTransfers.blockNumber} >= ${q.block_from}` : undefined,
      q.block_to ? sql`${tronTransfers.blockNumber} <= ${q.block_to}` : undefined,
      q.created_at_from ? sql`${tronTransfers.createdAt} >= ${q.created_at_from}::timestamptz` : undefined,
      q.created_at_to ? sql`${tronTransfers.createdAt} < ${q.created_at_to}::timestamptz` : undefined,
    ),
  select: selectTransfers,
  countFrom: (ex: Executor) => ex.select({ id: tronTransfers.id }).from(tronTransfers),
  idColumn: tronTransfers.id,
  sortable: { id: tronTransfers.id, create_time: tronTransfers.createdAt, block_number: tronTransfers.blockNumber, amount: tronTransfers.amount },
  defaultSort: '-id',
  toRow: toTransferRow,
  columns: TRANSFER_COLUMNS,

  row: transferAnswer,
  summary: 'USDT transfers seen on chain to or from our addresses (usdt_transaction_record)',
});

// ------------------------------------------------------------------------------------------------
// tron_transaction_summary: the transactions we sent (collects, gas top-ups, withdrawals).

export const sweepFilters = z.object({
  kind: z.enum(['collect', 'gas', 'withdrawal']).optional(),
  status: status4,
  asset: z.enum(['USDT', 'TRX']).optional(),
  number: optionalText,
  tx_hash: optionalText,
  address: optionalText,
  withdrawal_id: optionalInt,
  parent_id: optionalInt,
  created_at_from: isoDate,
  created_at_to: isoDate,
});

export const sweepAnswer = answerRow({
  id: 'number', number: 'string', kind: 'string', tx_hash: 'string?', from_address: 'string', to_address: 'string', amount: 'number', asset: 'string',
  status: 'number', remark: 'string?', withdrawal_id: 'number?', withdrawal_serial: 'string?', withdrawal_status: 'number?', parent_id: 'number?',
  bettor_id: 'number?', create_time: 'string?', confirm_time: 'string?',
});

const fromWallet = aliasedTable(tronWallets, 'sweep_from');
const toWallet = aliasedTable(tronWallets, 'sweep_to');

const selectSweeps = (ex: Executor) =>
  ex
    .select({ s: tronSweeps, wSerial: withdrawals.serialNumber, wStatus: withdrawals.status, wBettor: withdrawals.bettorId, fromBettor: fromWallet.bettorId, toBettor: toWallet.bettorId })
    .from(tronSweeps)
    .leftJoin(withdrawals, eq(withdrawals.id, tronSweeps.withdrawalId))
    .leftJoin(fromWallet, eq(fromWallet.addressBase58, tronSweeps.fromAddress))
    .leftJoin(toWallet, eq(toWallet.addressBase58, tronSweeps.toAddress));

type SweepSel = {
  s: typeof tronSweeps.$inferSelect; wSerial: string | null; wStatus: number | null; wBettor: number | null; fromBettor: number | null; toBettor: number | null;
};

export const toSweepRow = (x: SweepSel) => ({
  id: x.s.id, number: x.s.number, kind: x.s.kind, tx_hash: x.s.txHash, from_address: x.s.fromAddress, to_address: x.s.toAddress, amount: Number(x.s.amount),
  asset: x.s.asset, status: x.s.status, remark: x.s.remark, withdrawal_id: x.s.withdrawalId, withdrawal_serial: x.wSerial, withdrawal_status: x.wStatus,
  parent_id: x.s.parentId, bettor_id: x.wBettor ?? x.fromBettor ?? x.toBettor ?? null, create_time: iso(x.s.createdAt), confirm_time: iso(x.s.confirmedAt),
});

const SWEEP_COLUMNS: readonly ExportColumn[] = [
  { key: 'id' }, { key: 'number' }, { key: 'kind', text: sweepKindText }, { key: 'tx_hash' }, { key: 'from_address' }, { key: 'to_address' },
  // USDT and TRX (sun) both have 6 decimals.
  { key: 'amount', decimals: 6 }, { key: 'asset' }, { key: 'status', text: sweepStatusText }, { key: 'remark' }, { key: 'withdrawal_serial' }, { key: 'parent_id' }, { key: 'create_time' }, { key: 'confirm_time' },
];

export const tronSweepListSpec = defineList({
  name: 'tron_transaction_summary',
  page: 'tron_transaction_summary',
  path: '/api/v1/tron/sweeps',
  filters: sweepFilters,
  where: (q, scope) =>
    and(
      scope.all ? undefined : or(scopeCondition(scope, withdrawals.agentId), scopeCondition(scope, fromWallet.agentId), scopeCondition(scope, toWallet.agentId)),
      q.kind ? eq(tronSweeps.kind, q.kind) : undefined,
      q.status ? eq(tronSweeps.status, q.status) : undefined,
      q.asset ? eq(tronSweeps.asset, q.asset) : undefined,
      q.number ? eq(tronSweeps.number, q.number) : undefined,
      q.tx_hash ? eq(tronSweeps.txHash, q.tx_hash) : undefined,
      q.address ? or(eq(tronSweeps.fromAddress, q.address), eq(tronSweeps.toAddress, q.address)) : undefined,
      q.withdrawal_id ? eq(tronSweeps.withdrawalId, q.withdrawal_id) : undefined,
      q.parent_id ? eq(tronSweeps.parentId, q.parent_id) : undefined,
      q.created_at_from ? sql`${tronSweeps.createdAt} >= ${q.created_at_from}::timestamptz` : undefined,
      q.created_at_to ? sql`${tronSweeps.createdAt} < ${q.created_at_to}::timestamptz` : undefined,
    ),
  select: selectSweeps,
  idColumn: tronSweeps.id,
  sortable: { id: tronSweeps.id, create_time: tronSweeps.createdAt, amount: tronSweeps.amount },
  defaultSort: '-id',
  toRow: toSweepRow,
  columns: SWEEP_COLUMNS,

  row: sweepAnswer,
  summary: 'Collections, gas top-ups and USDT withdrawals we sent on chain (tron_transaction_summary)',
});
