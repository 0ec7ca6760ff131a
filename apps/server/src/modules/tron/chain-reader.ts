import crypto from 'node:crypto';
import { base58check } from '@scure/base';

/**
 * What the watcher, the sweeps and the USDT withdrawals read of the chain, behind one interface: the
 * product's reader asks a TRON full node over its HTTP API (the sandbox TRON node by default,
 * TRON_FULL_NODE_URL for a real one); tests and the benchmark may plug in another reader.
 *
 * Addresses are 41-prefixed hex, lower case (as tron_wallets.address_hex); amounts are integers (USDT in
 * 6-decimal units, TRX in sun).
 */
export interface ChainTransfer {
  txHash: string;
  /** The Transfer event's index in its transaction (0 for a plain transfer() call). */
  eventIndex: number;
  /** The TRC-20 contract that emitted it (hex). */
  contract: string;
  from: string;
  to: string;
  amount: bigint;
  /** The transaction's result: only 'SUCCESS' moved the tokens (OUT_OF_ENERGY, REVERT… did not). */
  success: boolean;
}

export interface ChainBlock {
  number: number;
  hash: string;
  time: Date;
  transfers: ChainTransfer[];
}

export interface ChainTxInfo {
  /** null while in the pool (not in a block yet). */
  blockNumber: number | null;
  success: boolean;
  /** The node's result text ('SUCCESS', 'OUT_OF_ENERGY', 'REVERT', …). */
  result: string;
}

export interface ChainReader {
  /** The newest block the node has. */
  head(): Promise<number>;
  /** The newest solidified (irreversible) block. */
  solid(): Promise<number>;
  /** A block's TRC-20 transfers (every contract; the caller filters), or null when the node has no such block yet. */
  block(n: number): Promise<ChainBlock | null>;
  /** A transaction's inclusion and result; null when the node does not know it. */
  tx(hash: string): Promise<ChainTxInfo | null>;
  /** An address's TRX (sun) and TRC-20 balance of `contractHex` (units), as the node has them now. */
  balances(addressHex: string, contractHex: string): Promise<{ trx: bigint; token: bigint }>;
}

const TRANSFER_SELECTOR = 'a9059cbb';

/**
 * Base58Check of TRON addresses (21 bytes: 0x41 and the 20 of the account), with @scure/base's coder and
 * node's SHA-256: the watcher converts addresses on every block, and TronWeb (with ethers, 44 MB) then
 * loads only for what signs or sends.
 */
const base58 = base58check((data) => new Uint8Array(crypto.createHash('sha256').update(data).digest()));

/** The 21 bytes of a Base58 TRON address, or null when it is not one (checksum, length, prefix). */
function addressBytes(address: string): Uint8Array | null {
  try {
    const bytes = base58.decode(address);
    return bytes.length === 21 && bytes[0] === 0x41 ? bytes : null;
  } catch {
    return null;
  }
}

/** 41-prefixed lower-case hex of a Base58 or hex address. */
export function toHexAddress(address: string): string {
  if (/^41[0-9a-fA-F]{40}$/.test(address)) return address.toLowerCase();
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) return `41${address.slice(2).toLowerCase()}`;
  const bytes = addressBytes(address);
  if (!bytes) throw new Error(`Not a TRON address: ${address}`);
  return Buffer.from(bytes).toString('hex');
}

const base58Cache = new Map<string, string>();
/** Base58 of a 41-prefixed hex address (cached: the watcher meets the same addresses again and again). */
export function toBase58(hex: string): string {
  let b = base58Cache.get(hex);
  if (!b) {
    b = base58.encode(Buffer.from(hex, 'hex'));
    if (base58Cache.size > 200_000) base58Cache.clear();
    base58Cache.set(hex, b);
  }
  return b;
}

export function isTronAddress(address: string): boolean {
  return typeof address === 'string' && /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address) && addressBytes(address) !== null;
}

/** Decodes a transfer(address,uint256) call's data (hex, no 0x): receiver and amount, or null. */
export function decodeTransferCall(data: string | undefined): { to: string; amount: bigint } | null {
  if (!data || data.length < 8 + 128 || data.slice(0, 8).toLowerCase() !== TRANSFER_SELECTOR) return null;
  const to = `41${data.slice(8 + 24, 8 + 64).toLowerCase()}`;
  const amount = BigInt(`0x${data.slice(8 + 64, 8 + 128)}`);
  return { to, amount };
}

interface NodeBlock {
  blockID?: string;
  block_header?: { raw_data?: { number?: number; timestamp?: number } };
  transactions?: {
    txID: string;
    ret?: { contractRet?: string }[];
    raw_data?: { contract?: { type?: string; parameter?: { value?: { owner_address?: string; contract_address?: string; data?: string } } }[] };
  }[];
}

/** The product's reader: a TRON full node's HTTP API (/wallet/*, /walletsolidity/*). */
export class HttpChainReader implements ChainReader {
  constructor(
    private baseUrl: string,
    private timeoutMs = 10_000,
  ) {}

  private async call<T>(path: string, body: object = {}): Promise<T> {
    const res = await fetch(new URL(path, this.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`TRON node ${path}: HTTP ${res.status}`);
    return (await res.json()) as T;
  }

  async head() {
    const b = await this.call<NodeBlock>('/wallet/getnowblock');
    return Number(b.block_header?.raw_data?.number ?? 0);
  }

  async solid() {
    const b = await this.call<NodeBlock>('/walletsolidity/getnowblock');
    return Number(b.block_header?.raw_data?.number ?? 0);
  }

  async block(n: number): Promise<ChainBlock | null> {
    const b = await this.call<NodeBlock>('/wallet/getblockbynum', { num: n });
    if (!b.blockID || b.block_header?.raw_data?.number !== n) return null;
    const transfers: ChainTransfer[] = [];
    for (const t of b.transactions ?? []) {
      const c = t.raw_data?.contract?.[0];
      if (c?.type !== 'TriggerSmartContract') continue;
      const v = c.parameter?.value;
      const call = decodeTransferCall(v?.data);
      if (!call || !v?.owner_address || !v.contract_address) continue;
      transfers.push({
        txHash: t.txID, eventIndex: 0, contract: toHexAddress(v.contract_address), from: toHexAddress(v.owner_address),
        to: call.to, amount: call.amount, success: (t.ret?.[0]?.contractRet ?? 'SUCCESS') === 'SUCCESS',
      });
    }
    return { number: n, hash: b.blockID, time: new Date(Number(b.block_header?.raw_data?.timestamp ?? 0)), transfers };
  }

  async balances(addressHex: string, contractHex: string) {
    const acct = await this.call<{ balance?: number }>('/wallet/getaccount', { address: addressHex });
    const c = await this.call<{ constant_result?: string[] }>('/wallet/triggerconstantcontract', {
      owner_address: addressHex, contract_address: contractHex, function_selector: 'balanceOf(address)', parameter: addressHex.slice(2).padStart(64, '0'),
    });
    const word = c.constant_result?.[0];
    return { trx: BigInt(acct.balance ?? 0), token: word ? BigInt(`0x${word.slice(0, 64) || '0'}`) : 0n };
  }

  async tx(hash: string): Promise<ChainTxInfo | null> {
    const info = await this.call<{ id?: string; blockNumber?: number; result?: string; receipt?: { result?: string } }>('/wallet/gettransactioninfobyid', { value: hash });
    if (info.id) {
      const result = info.receipt?.result ?? (info.result === 'FAILED' ? 'FAILED' : 'SUCCESS');
      return { blockNumber: info.blockNumber ?? null, success: result === 'SUCCESS' && info.result !== 'FAILED', result };
    }
    // Not in a block: is it in the node's pool?
    const t = await this.call<{ txID?: string }>('/wallet/gettransactionbyid', { value: hash });
    return t.txID ? { blockNumber: null, success: false, result: 'PENDING' } : null;
  }
}
