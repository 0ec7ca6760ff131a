import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { and, asc, desc, eq, gt, gte, inArray, lte, sql } from 'drizzle-orm';
import { tronweb } from './lib.js';
import type { Db, Executor } from '../../platform/db.js';
import {
  tronSandboxAccounts,
  tronSandboxBlocks,
  tronSandboxState,
  tronSandboxTokenBalances,
  tronSandboxTransactions,
} from './sandbox-schema.js';

/**
 * THE SANDBOX TRON NODE: a local stand-in for a TRON full node / TronGrid, on its own Fastify instance and
 * port, answering the HTTP subset TronWeb and our watcher call. The product talks to it through the same
 * TronWeb client it would point at a real node (TRON_FULL_NODE_URL).
 *
 * - Chain: a block every `blockMs` (3 s; tests mine by `POST /sandbox/mine`), solidified 19 blocks deep.
 *   `wallet/*` answers from the head, `walletsolidity/*` from the solidified block.
 * - Transactions are built, hashed and checked with TronWeb's own utilities (txJsonToPb, txCheck,
 *   tronweb().Trx.ecRecover): a broadcast whose raw data does not hash to its txID or whose signature does not
 *   recover the owner is refused, as a real node refuses it.
 * - Fees are burnt TRX: bandwidth (bytes × 1000 sun; no free or staked bandwidth) and, for contract calls,
 *   energy × 210 sun, capped by fee_limit (OUT_OF_ENERGY when it does not cover the call).
 * - One TRC-20 contract: USDT (the mainnet address by default, 6 decimals) with balanceOf, transfer,
 *   decimals, symbol, name, totalSupply and the Transfer event.
 * - Faults (`POST /sandbox/faults`): the next n broadcasts accepted but never confirmed, the next n
 *   contract calls out of energy, a node lagging n blocks, a reorganisation of the last k unsolidified
 *   blocks (their transactions dropped, or put back in the pool with `reinclude`).
 * - Outside senders: `POST /sandbox/deposit` sends USDT (or TRX) from the sandbox's faucet account, signed
 *   and broadcast like any transaction.
 *
 * Its state is its own tables (sandbox-schema.ts), so it survives our restarts like a real chain.
 */

export const SANDBOX_USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const SOLIDIFY_DEPTH = 19;
export const SUN_PER_BANDWIDTH = 1000;
export const SUN_PER_ENERGY = 210;
/** Energy of a USDT transfer to an address that holds USDT / holds none (a new storage slot). */
export const ENERGY_TRANSFER_HOLDER = 31_895;
export const ENERGY_TRANSFER_NEW = 64_285;
/** TRX burnt when a TRX transfer activates a new account. */
export const ACCOUNT_CREATE_FEE = 1_000_000;
/** The faucet (outside senders): a fixed test key, known to the sandbox only. Never a real key. */
const FAUCET_PRIVATE_KEY = crypto.createHash('sha256').update('dau sandbox tron faucet').digest('hex');
/** The faucet's address (derived on first use: TronWeb loads with the first TRON work, not at start). */
const faucetAddress = () => tronweb().TronWeb.address.fromPrivateKey(FAUCET_PRIVATE_KEY) as string;
const FAUCET_TRX = 100_000_000_000_000_000;
const FAUCET_USDT = 1_000_000_000_000_000;
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const SEL = { balanceOf: '70a08231', transfer: 'a9059cbb', decimals: '313ce567', symbol: '95d89b41', name: '06fdde03', totalSupply: '18160ddd' };

const USDT_ABI = [
  { constant: true, inputs: [{ name: 'who', type: 'address' }], name: 'balanceOf', outputs: [{ name: '', type: 'uint256' }], stateMutability: 'View', type: 'Function' },
  { inputs: [{ name: '_to', type: 'address' }, { name: '_value', type: 'uint256' }], name: 'transfer', outputs: [{ name: '', type: 'bool' }], stateMutability: 'Nonpayable', type: 'Function' },
  { constant: true, name: 'decimals', outputs: [{ name: '', type: 'uint8' }], stateMutability: 'View', type: 'Function' },
  { constant: true, name: 'symbol', outputs: [{ name: '', type: 'string' }], stateMutability: 'View', type: 'Function' },
  { constant: true, name: 'name', outputs: [{ name: '', type: 'string' }], stateMutability: 'View', type: 'Function' },
  { constant: true, name: 'totalSupply', outputs: [{ name: '', type: 'uint256' }], stateMutability: 'View', type: 'Function' },
  {
    anonymous: false,
    inputs: [
      { indexed: true, name: 'from', type: 'address' },
      { indexed: true, name: 'to', type: 'address' },
      { indexed: false, name: 'value', type: 'uint256' },
    ],
    name: 'Transfer',
    type: 'Event',
  },
];

export interface SandboxFaults {
  /** The next n broadcasts are accepted (result true) and never confirm. */
  neverConfirm?: number;
  /** The next n contract calls run out of energy (OUT_OF_ENERGY, fee_limit burnt). */
  outOfEnergy?: number;
  /** The node answers n blocks behind the chain. */
  lag?: number;
}

export interface SandboxTronNodeOptions {
  /** Milliseconds between blocks when started with `autoMine`; default 3000. */
  blockMs?: number;
  usdtContract?: string;
  log?: (message: string, err?: unknown) => void;
}

const hex41 = (address: string): string => {
  const a = String(address ?? '').replace(/^0x/, '');
  if (/^41[0-9a-fA-F]{40}$/.test(a)) return a.toLowerCase();
  if (tronweb().TronWeb.isAddress(a)) return (tronweb().TronWeb.address.toHex(a) as string).toLowerCase();
  throw new Error('Invalid address');
};
const tryHex41 = (address: unknown): string | null => {
  try {
    return hex41(String(address));
  } catch {
    return null;
  }
};
const toBase58 = (h: string) => tronweb().TronWeb.address.fromHex(h) as string;
const utf8Hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const abiString = (s: string) => {
  const bytes = Buffer.from(s, 'utf8');
  return word(32) + word(bytes.length) + bytes.toString('hex').padEnd(Math.ceil(bytes.length / 32) * 64 || 64, '0');
};

type TxRow = typeof tronSandboxTransactions.$inferSelect;
type BlockRow = typeof tronSandboxBlocks.$inferSelect;

/** The sandbox TRON node. `listen()` serves it; `mine()` / `faults()` drive it in tests. */
export class SandboxTronNode {
  readonly usdt: string;
  readonly usdtHex: string;
  private app: FastifyInstance | null = null;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly blockMs: number;
  url = '';

  constructor(private readonly db: Db, private readonly opts: SandboxTronNodeOptions = {}) {
    this.usdt = opts.usdtContract ?? SANDBOX_USDT_CONTRACT;
    this.usdtHex = hex41(this.usdt);
    this.blockMs = opts.blockMs ?? 3000;
  }

  /** One mutation at a time (broadcast, mining, faults): the chain is a sequence. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Creates the genesis block and the faucet on a fresh chain. */
  async init(): Promise<void> {
    await this.serial(async () => {
      await this.db.transaction(async (tx) => {
        const [state] = await tx.select().from(tronSandboxState).where(eq(tronSandboxState.key, 'node'));
        if (state) return;
        await tx.insert(tronSandboxState).values({ key: 'node', head: 0, faults: {} }).onConflictDoNothing();
        const ts = Date.now();
        await tx.insert(tronSandboxBlocks).values({ number: 0, hash: blockId(0, 'genesis'), parentHash: '0'.repeat(64), timestamp: ts, witness: hex41(faucetAddress()) }).onConflictDoNothing();
        await tx.insert(tronSandboxAccounts).values({ address: hex41(faucetAddress()), balance: FAUCET_TRX, createTime: ts }).onConflictDoNothing();
        await tx.insert(tronSandboxTokenBalances).values({ contract: this.usdtHex, address: hex41(faucetAddress()), balance: FAUCET_USDT }).onConflictDoNothing();
      });
    });
  }

  /** Serves the node on 127.0.0.1:port (0: a free port); answers its base URL. */
  async listen(port = 0, opts: { autoMine?: boolean } = {}): Promise<string> {
    await this.init();
    const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
    this.routes(app);
    let address: string;
    try {
      address = await app.listen({ port, host: '127.0.0.1' });
    } catch (err) {
      await app.close();
      throw err;
    }
    this.app = app;
    this.url = address.replace('localhost', '127.0.0.1');
    if (opts.autoMine) this.startMining();
    return this.url;
  }

  startMining() {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.mine(1).catch((err) => this.opts.log?.('sandbox TRON node: block production failed', err));
    }, this.blockMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.chain.catch(() => undefined);
    await this.app?.close();
    this.app = null;
  }

  // ─── State ─────────────────────────────────────────────────────────────

  private async state(ex: Executor = this.db) {
    const [s] = await ex.select().from(tronSandboxState).where(eq(tronSandboxState.key, 'node'));
    if (!s) throw new Error('sandbox TRON node not initialised');
    return s;
  }

  /** The head the node shows (the chain's head minus the lag fault). */
  async visibleHead(): Promise<number> {
    const s = await this.state();
    const lag = Number((s.faults as SandboxFaults).lag ?? 0);
    return Math.max(0, s.head - lag);
  }

  async solidHead(): Promise<number> {
    return Math.max(0, (await this.visibleHead()) - SOLIDIFY_DEPTH);
  }

  async setFaults(f: SandboxFaults & { reorg?: number; reinclude?: boolean }): Promise<SandboxFaults> {
    const { reorg, reinclude, ...rest } = f;
    const out = await this.serial(async () => {
      const s = await this.state();
      const faults: SandboxFaults = { ...(s.faults as SandboxFaults) };
      for (const k of ['neverConfirm', 'outOfEnergy', 'lag'] as const) if (rest[k] !== undefined) faults[k] = Math.max(0, Math.floor(Number(rest[k])));
      await this.db.update(tronSandboxState).set({ faults: faults as Record<string, unknown> }).where(eq(tronSandboxState.key, 'node'));
      return faults;
    });
    if (reorg) await this.reorganise(reorg, !!reinclude);
    return out;
  }

  // ─── Accounts ──────────────────────────────────────────────────────────

  async trxBalance(address: string, solid = false): Promise<number> {
    const a = hex41(address);
    const [row] = await this.db.select().from(tronSandboxAccounts).where(eq(tronSandboxAccounts.address, a));
    const now = row?.balance ?? 0;
    if (!solid) return now;
    return now - (await this.trxDeltaAbove(a, await this.solidHead()));
  }

  async usdtBalance(address: string, solid = false): Promise<number> {
    const a = hex41(address);
    const [row] = await this.db
      .select()
      .from(tronSandboxTokenBalances)
      .where(and(eq(tronSandboxTokenBalances.contract, this.usdtHex), eq(tronSandboxTokenBalances.address, a)));
    const now = row?.balance ?? 0;
    if (!solid) return now;
    return now - (await this.tokenDeltaAbove(a, await this.solidHead()));
  }

  /** TRX an address gained in blocks above `block` (to see the balance as of `block`). */
  private async trxDeltaAbove(a: string, block: number): Promise<number> {
    const rows = await this.db
      .select()
      .from(tronSandboxTransactions)
      .where(and(eq(tronSandboxTransactions.state, 'included'), gt(tronSandboxTransactions.blockNumber, block), sql`(${tronSandboxTransactions.owner} = ${a} or ${tronSandboxTransactions.toAddress} = ${a})`));
    let d = 0;
    for (const t of rows) {
      if (t.owner === a) d -= t.fee + (t.contractType === 'TransferContract' ? t.amount : 0);
      if (t.contractType === 'TransferContract' && t.toAddress === a) d += t.amount;
    }
    return d;
  }

  private async tokenDeltaAbove(a: string, block: number): Promise<number> {
    const rows = await this.db
      .select()
      .from(tronSandboxTransactions)
      .where(
        and(
          eq(tronSandboxTransactions.state, 'included'),
          eq(tronSandboxTransactions.result, 'SUCCESS'),
          eq(tronSandboxTransactions.contractType, 'TriggerSmartContract'),
          gt(tronSandboxTransactions.blockNumber, block),
          sql`(${tronSandboxTransactions.owner} = ${a} or ${tronSandboxTransactions.tokenTo} = ${a})`,
        ),
      );
    let d = 0;
    for (const t of rows) {
      if (t.owner === a) d -= t.amount;
      if (t.tokenTo === a) d += t.amount;
    }
    return d;
  }

  private async accountJson(address: string, solid: boolean) {
    const a = tryHex41(address);
    if (!a) return {};
    const [row] = await this.db.select().from(tronSandboxAccounts).where(eq(tronSandboxAccounts.address, a));
    if (!row) return {};
    const balance = await this.trxBalance(a, solid);
    const out: Record<string, unknown> = { address: a, create_time: row.createTime, account_resource: {} };
    if (balance) out.balance = balance;
    const usdt = await this.usdtBalance(a, solid);
    if (usdt) out.trc20 = [{ [this.usdt]: String(usdt) }];
    return out;
  }

  // ─── Blocks ────────────────────────────────────────────────────────────

  private async blockJson(b: BlockRow, detail = true) {
    const out: Record<string, unknown> = {
      blockID: b.hash,
      block_header: {
        raw_data: { number: b.number, txTrieRoot: '0'.repeat(64), witness_address: b.witness, parentHash: b.parentHash, version: 30, timestamp: b.timestamp },
        witness_signature: '',
      },
    };
    if (detail) {
      const txs = await this.db
        .select()
        .from(tronSandboxTransactions)
        .where(and(eq(tronSandboxTransactions.blockNumber, b.number), eq(tronSandboxTransactions.state, 'included')))
        .orderBy(asc(tronSandboxTransactions.blockIndex));
      if (txs.length) out.transactions = txs.map((t) => txJson(t));
    }
    return out;
  }

  async block(num: number, detail = true) {
    if (num > (await this.visibleHead())) return {};
    const [b] = await this.db.select().from(tronSandboxBlocks).where(eq(tronSandboxBlocks.number, num));
    return b ? this.blockJson(b, detail) : {};
  }

  // ─── Transactions ──────────────────────────────────────────────────────

  /** A TRC-20 / contract call transaction as a real node builds it for wallet/triggersmartcontract. */
  private async buildTrigger(args: Record<string, any>) {
    const owner = tryHex41(args.owner_address);
    const contract = tryHex41(args.contract_address);
    if (!owner || !contract) return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: utf8Hex('Invalid address') } };
    let data: string = args.data ? String(args.data).replace(/^0x/, '') : '';
    if (!data && args.function_selector) data = keccakSelector(String(args.function_selector)) + String(args.parameter ?? '');
    const value: Record<string, unknown> = { data, owner_address: owner, contract_address: contract };
    if (args.call_value) value.call_value = Number(args.call_value);
    const raw: Record<string, unknown> = {
      contract: [{ parameter: { value, type_url: 'type.googleapis.com/protocol.TriggerSmartContract' }, type: 'TriggerSmartContract' }],
      ...(await this.refBlock()),
      fee_limit: Number(args.fee_limit ?? 150_000_000),
    };
    if (args.Permission_id) (raw.contract as any[])[0].Permission_id = args.Permission_id;
    return { result: { result: true }, transaction: sealTx(raw) };
  }

  /** TransferContract as wallet/createtransaction builds it. */
  private async buildTransfer(args: Record<string, any>) {
    const owner = tryHex41(args.owner_address);
    const to = tryHex41(args.to_address);
    const amount = Number(args.amount);
    if (!owner || !to || !Number.isSafeInteger(amount) || amount <= 0) return { Error: 'class org.tron.core.exception.ContractValidateException : Invalid transfer' };
    const raw = {
      contract: [{ parameter: { value: { amount, owner_address: owner, to_address: to }, type_url: 'type.googleapis.com/protocol.TransferContract' }, type: 'TransferContract' }],
      ...(await this.refBlock()),
    };
    return sealTx(raw);
  }

  private async refBlock() {
    const head = await this.visibleHead();
    const [b] = await this.db.select().from(tronSandboxBlocks).where(eq(tronSandboxBlocks.number, head));
    return {
      ref_block_bytes: head.toString(16).slice(-4).padStart(4, '0'),
      ref_block_hash: b!.hash.slice(16, 32),
      expiration: b!.timestamp + 60_000,
      timestamp: b!.timestamp,
    };
  }

  /** A constant call on the USDT contract (balanceOf and the token's descriptors). */
  async constantCall(args: Record<string, any>, solid: boolean) {
    const contract = tryHex41(args.contract_address);
    let data: string = args.data ? String(args.data).replace(/^0x/, '') : '';
    if (!data && args.function_selector) data = keccakSelector(String(args.function_selector)) + String(args.parameter ?? '');
    if (contract !== this.usdtHex) return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: utf8Hex('No contract or not a smart contract') } };
    const sel = data.slice(0, 8);
    let out: string | null = null;
    if (sel === SEL.balanceOf) out = word(await this.usdtBalance('41' + data.slice(8 + 24, 8 + 64), solid));
    else if (sel === SEL.decimals) out = word(6);
    else if (sel === SEL.symbol) out = abiString('USDT');
    else if (sel === SEL.name) out = abiString('Tether USD');
    else if (sel === SEL.totalSupply) {
      const [r] = await this.db
        .select({ s: sql<string>`coalesce(sum(${tronSandboxTokenBalances.balance}), 0)` })
        .from(tronSandboxTokenBalances)
        .where(eq(tronSandboxTokenBalances.contract, this.usdtHex));
      out = word(BigInt(r?.s ?? 0));
    }
    if (out === null) return { result: { result: true }, energy_used: 0, constant_result: [''], transaction: {} };
    return { result: { result: true }, energy_used: sel === SEL.balanceOf ? 935 : 200, constant_result: [out], transaction: {} };
  }

  /** wallet/broadcasttransaction: checks the transaction like a node and puts it in the pool. */
  async broadcast(tx: any): Promise<Record<string, unknown>> {
    return this.serial(async () => {
      const fail = (code: string, message: string) => ({ result: false, code, txid: tx?.txID, message: utf8Hex(message) });
      let owner: string;
      try {
        if (!tx?.raw_data?.contract?.[0] || !tronweb().utils.transaction.txCheck(tx)) return fail('SIGERROR', 'Validate signature error: raw data does not match txID');
        if (!Array.isArray(tx.signature) || tx.signature.length !== 1) return fail('SIGERROR', 'Validate signature error: missing signature');
        owner = hex41(tx.raw_data.contract[0].parameter.value.owner_address);
        const signer = hex41(tronweb().Trx.ecRecover(tx) as string);
        if (signer !== owner) return fail('SIGERROR', `Validate signature error: ${toBase58(signer)} is not the owner`);
      } catch {
        return fail('SIGERROR', 'Validate signature error');
      }
      const [dup] = await this.db.select({ id: tronSandboxTransactions.id }).from(tronSandboxTransactions).where(eq(tronSandboxTransactions.txId, tx.txID));
      if (dup) return fail('DUP_TRANSACTION_ERROR', 'Dup transaction.');
      const head = await this.visibleHead();
      const [hb] = await this.db.select().from(tronSandboxBlocks).where(eq(tronSandboxBlocks.number, head));
      if (Number(tx.raw_data.expiration) <= hb!.timestamp) return fail('TRANSACTION_EXPIRATION_ERROR', 'Transaction expired');
      const c = tx.raw_data.contract[0];
      const v = c.parameter.value;
      const balance = await this.trxBalance(owner);
      const bytes = txBytes(tx);
      let toAddress: string;
      let tokenTo: string | null = null;
      let amount = 0;
      if (c.type === 'TransferContract') {
        toAddress = hex41(v.to_address);
        amount = Number(v.amount);
        const createFee = (await this.accountExists(toAddress)) ? 0 : ACCOUNT_CREATE_FEE;
        if (balance < amount + bytes * SUN_PER_BANDWIDTH + createFee) return fail('CONTRACT_VALIDATE_ERROR', 'Validate TransferContract error, balance is not sufficient.');
      } else if (c.type === 'TriggerSmartContract') {
        toAddress = hex41(v.contract_address);
        if (balance < bytes * SUN_PER_BANDWIDTH) return fail('BANDWITH_ERROR', 'Account resource insufficient error.');
        const data = String(v.data ?? '');
        if (toAddress === this.usdtHex && data.startsWith(SEL.transfer)) {
          tokenTo = '41' + data.slice(8 + 24, 8 + 64);
          amount = Number(BigInt('0x' + (data.slice(8 + 64, 8 + 128) || '0')));
        }
      } else {
        return fail('CONTRACT_VALIDATE_ERROR', `${c.type} is not supported by the sandbox node`);
      }
      const s = await this.state();
      const faults = { ...(s.faults as SandboxFaults) };
      let fault: string | null = null;
      if ((faults.neverConfirm ?? 0) > 0) {
        fault = 'never_confirm';
        faults.neverConfirm = faults.neverConfirm! - 1;
      } else if (c.type === 'TriggerSmartContract' && (faults.outOfEnergy ?? 0) > 0) {
        fault = 'out_of_energy';
        faults.outOfEnergy = faults.outOfEnergy! - 1;
      }
      if (fault) await this.db.update(tronSandboxState).set({ faults: faults as Record<string, unknown> }).where(eq(tronSandboxState.key, 'node'));
      await this.db.insert(tronSandboxTransactions).values({
        txId: tx.txID,
        raw: tx,
        contractType: c.type,
        owner,
        toAddress,
        tokenTo,
        amount,
        fault,
        state: fault === 'never_confirm' ? 'dropped' : 'pending',
      });
      return { result: true, txid: tx.txID };
    });
  }

  private async accountExists(a: string, ex: Executor = this.db) {
    const [row] = await ex.select({ a: tronSandboxAccounts.address }).from(tronSandboxAccounts).where(eq(tronSandboxAccounts.address, a));
    return !!row;
  }

  /** Produces n blocks; the pool goes into the first. Answers the new head. */
  async mine(n = 1): Promise<number> {
    return this.serial(async () => {
      let head = 0;
      for (let i = 0; i < Math.max(1, Math.floor(n)); i++) head = await this.mineOne();
      return head;
    });
  }

  private async mineOne(): Promise<number> {
    return this.db.transaction(async (tx) => {
      const s = await this.state(tx);
      const [parent] = await tx.select().from(tronSandboxBlocks).where(eq(tronSandboxBlocks.number, s.head));
      const number = s.head + 1;
      const timestamp = Math.max(parent!.timestamp + this.blockMs, Date.now());
      const pending = await tx.select().from(tronSandboxTransactions).where(eq(tronSandboxTransactions.state, 'pending')).orderBy(asc(tronSandboxTransactions.id)).limit(5000);
      let index = 0;
      for (const t of pending) {
        const applied = await this.execute(tx, t, number, index);
        if (applied) index++;
      }
      const hash = blockId(number, `${parent!.hash}:${s.reorgs}:${pending.map((p) => p.txId).join(',')}`);
      await tx.insert(tronSandboxBlocks).values({ number, hash, parentHash: parent!.hash, timestamp, witness: hex41(faucetAddress()) });
      await tx.update(tronSandboxState).set({ head: number }).where(eq(tronSandboxState.key, 'node'));
      return number;
    });
  }

  /** Applies a pooled transaction in block `number` (fees, TRX, the token); false when it is dropped instead. */
  private async execute(tx: Executor, t: TxRow, number: number, index: number): Promise<boolean> {
    const bytes = txBytes(t.raw as any);
    const netFee = bytes * SUN_PER_BANDWIDTH;
    const [acct] = await tx.select().from(tronSandboxAccounts).where(eq(tronSandboxAccounts.address, t.owner));
    const balance = acct?.balance ?? 0;
    const drop = async () => {
      await tx.update(tronSandboxTransactions).set({ state: 'dropped' }).where(eq(tronSandboxTransactions.id, t.id));
      return false;
    };
    let fee = netFee;
    let result = 'SUCCESS';
    let energy = 0;
    if (t.contractType === 'TransferContract') {
      const exists = await this.accountExists(t.toAddress, tx);
      if (!exists) fee += ACCOUNT_CREATE_FEE;
      if (balance < t.amount + fee) return drop();
      await this.addTrx(tx, t.owner, -(t.amount + fee));
      await this.addTrx(tx, t.toAddress, t.amount);
    } else {
      if (balance < netFee) return drop();
      const feeLimit = Number((t.raw as any).raw_data.fee_limit ?? 0);
      const isUsdt = t.toAddress === this.usdtHex && t.tokenTo !== null;
      if (!isUsdt) {
        result = 'REVERT';
        energy = 1_000;
      } else {
        const [held] = await tx
          .select()
          .from(tronSandboxTokenBalances)
          .where(and(eq(tronSandboxTokenBalances.contract, this.usdtHex), eq(tronSandboxTokenBalances.address, t.tokenTo!)));
        energy = held && held.balance > 0 ? ENERGY_TRANSFER_HOLDER : ENERGY_TRANSFER_NEW;
        const [own] = await tx
          .select()
          .from(tronSandboxTokenBalances)
          .where(and(eq(tronSandboxTokenBalances.contract, this.usdtHex), eq(tronSandboxTokenBalances.address, t.owner)));
        const energyFee = energy * SUN_PER_ENERGY;
        const payable = Math.min(feeLimit, balance - netFee);
        if (t.fault === 'out_of_energy' || energyFee > payable) {
          result = 'OUT_OF_ENERGY';
          energy = Math.floor(payable / SUN_PER_ENERGY);
        } else if ((own?.balance ?? 0) < t.amount || t.amount < 0) {
          result = 'REVERT';
          energy = 5_000;
        }
      }
      fee += energy * SUN_PER_ENERGY;
      await this.addTrx(tx, t.owner, -fee);
      if (result === 'SUCCESS') {
        await this.addToken(tx, t.owner, -t.amount);
        await this.addToken(tx, t.tokenTo!, t.amount);
      }
    }
    await tx
      .update(tronSandboxTransactions)
      .set({ state: 'included', blockNumber: number, blockIndex: index, result, fee, energyUsage: energy, netUsage: bytes })
      .where(eq(tronSandboxTransactions.id, t.id));
    return true;
  }

  private async addTrx(tx: Executor, address: string, delta: number) {
    await tx
      .insert(tronSandboxAccounts)
      .values({ address, balance: delta, createTime: Date.now() })
      .onConflictDoUpdate({ target: tronSandboxAccounts.address, set: { balance: sql`${tronSandboxAccounts.balance} + ${delta}` } });
  }

  private async addToken(tx: Executor, address: string, delta: number) {
    await tx
      .insert(tronSandboxTokenBalances)
      .values({ contract: this.usdtHex, address, balance: delta })
      .onConflictDoUpdate({ target: [tronSandboxTokenBalances.contract, tronSandboxTokenBalances.address], set: { balance: sql`${tronSandboxTokenBalances.balance} + ${delta}` } });
  }

  /**
   * A reorganisation: the last k blocks (never below the solidified block) are replaced by k empty blocks
   * with other hashes; their transactions are undone and dropped, or put back in the pool (`reinclude`).
   */
  async reorganise(k: number, reinclude = false): Promise<number> {
    return this.serial(async () => {
      const s = await this.state();
      const depth = Math.min(Math.floor(k), SOLIDIFY_DEPTH, s.head);
      if (depth <= 0) return s.head;
      await this.db.transaction(async (tx) => {
        const from = s.head - depth + 1;
        const undone = await tx
          .select()
          .from(tronSandboxTransactions)
          .where(and(eq(tronSandboxTransactions.state, 'included'), gte(tronSandboxTransactions.blockNumber, from)))
          .orderBy(desc(tronSandboxTransactions.id));
        for (const t of undone) {
          if (t.contractType === 'TransferContract') {
            await this.addTrx(tx, t.owner, t.amount + t.fee);
            await this.addTrx(tx, t.toAddress, -t.amount);
          } else {
            await this.addTrx(tx, t.owner, t.fee);
            if (t.result === 'SUCCESS') {
              await this.addToken(tx, t.owner, t.amount);
              await this.addToken(tx, t.tokenTo!, -t.amount);
            }
          }
        }
        if (undone.length) {
          await tx
            .update(tronSandboxTransactions)
            .set({ state: reinclude ? 'pending' : 'dropped', blockNumber: null, blockIndex: null, result: null, fee: 0, energyUsage: 0, netUsage: 0 })
            .where(inArray(tronSandboxTransactions.id, undone.map((t) => t.id)));
        }
        await tx.delete(tronSandboxBlocks).where(gte(tronSandboxBlocks.number, from));
        await tx.update(tronSandboxState).set({ head: from - 1, reorgs: s.reorgs + 1 }).where(eq(tronSandboxState.key, 'node'));
      });
      let head = 0;
      // Replacement blocks: the re-included transactions go into the first (when reinclude).
      for (let i = 0; i < depth; i++) head = await this.mineOne();
      return head;
    });
  }

  /** An outside sender: the faucet sends `amount` USDT units (or sun) to `to`, signed and broadcast. */
  async deposit(to: string, amount: number, asset: 'USDT' | 'TRX' = 'USDT'): Promise<{ txid: string; result: boolean; code?: string }> {
    const tronWeb = new (tronweb().TronWeb)({ fullHost: this.url || 'http://127.0.0.1:1' });
    const toHex = hex41(to);
    let unsigned: any;
    if (asset === 'TRX') {
      unsigned = await this.buildTransfer({ owner_address: hex41(faucetAddress()), to_address: toHex, amount });
    } else {
      const built = await this.buildTrigger({
        owner_address: hex41(faucetAddress()),
        contract_address: this.usdtHex,
        function_selector: 'transfer(address,uint256)',
        parameter: word(BigInt('0x' + toHex.slice(2))) + word(amount),
        fee_limit: 100_000_000,
      });
      unsigned = built.transaction;
    }
    const signed = await tronWeb.trx.sign(unsigned, FAUCET_PRIVATE_KEY);
    const r = await this.broadcast(signed);
    return { txid: signed.txID, result: r.result === true, ...(r.code ? { code: String(r.code) } : {}) };
  }

  async transactionInfo(id: string, solid: boolean) {
    const [t] = await this.db.select().from(tronSandboxTransactions).where(eq(tronSandboxTransactions.txId, String(id ?? '')));
    if (!t || t.state !== 'included' || t.blockNumber === null) return {};
    const limit = solid ? await this.solidHead() : await this.visibleHead();
    if (t.blockNumber > limit) return {};
    const [b] = await this.db.select().from(tronSandboxBlocks).where(eq(tronSandboxBlocks.number, t.blockNumber));
    const out: Record<string, unknown> = { id: t.txId, blockNumber: t.blockNumber, blockTimeStamp: b!.timestamp, contractResult: [''] };
    if (t.fee) out.fee = t.fee;
    if (t.contractType === 'TransferContract') {
      out.receipt = { net_fee: t.fee };
      return out;
    }
    out.contract_address = t.toAddress;
    out.receipt = { energy_fee: t.energyUsage * SUN_PER_ENERGY, energy_usage_total: t.energyUsage, net_fee: t.netUsage * SUN_PER_BANDWIDTH, result: t.result };
    if (t.result === 'SUCCESS' && t.tokenTo) {
      out.contractResult = [word(1)];
      out.log = [{ address: t.toAddress.slice(2), topics: [TRANSFER_TOPIC, word(BigInt('0x' + t.owner.slice(2))), word(BigInt('0x' + t.tokenTo.slice(2)))], data: word(t.amount) }];
    } else {
      out.result = 'FAILED';
      out.resMessage = utf8Hex(t.result === 'OUT_OF_ENERGY' ? 'Not enough energy for this transaction' : 'REVERT opcode executed');
    }
    return out;
  }

  async transactionById(id: string) {
    const [t] = await this.db.select().from(tronSandboxTransactions).where(eq(tronSandboxTransactions.txId, String(id ?? '')));
    if (!t || t.state !== 'included' || t.blockNumber === null || t.blockNumber > (await this.visibleHead())) return {};
    return txJson(t);
  }

  /** TRC-20 Transfer events of the USDT contract in included, visible blocks (TronGrid shapes). */
  private async transferEvents(filter: { address?: string; direction?: 'to' | 'from'; blockNumber?: number; minTs?: number; maxTs?: number; confirmed?: boolean; limit: number; after?: number; asc: boolean }) {
    const head = await this.visibleHead();
    const top = filter.confirmed ? Math.max(0, head - SOLIDIFY_DEPTH) : head;
    const conds = [
      eq(tronSandboxTransactions.state, 'included'),
      eq(tronSandboxTransactions.result, 'SUCCESS'),
      eq(tronSandboxTransactions.toAddress, this.usdtHex),
      lte(tronSandboxTransactions.blockNumber, top),
    ];
    if (filter.blockNumber !== undefined) conds.push(eq(tronSandboxTransactions.blockNumber, filter.blockNumber));
    if (filter.address) {
      if (filter.direction === 'to') conds.push(eq(tronSandboxTransactions.tokenTo, filter.address));
      else if (filter.direction === 'from') conds.push(eq(tronSandboxTransactions.owner, filter.address));
      else conds.push(sql`(${tronSandboxTransactions.owner} = ${filter.address} or ${tronSandboxTransactions.tokenTo} = ${filter.address})`);
    }
    if (filter.after !== undefined) conds.push(filter.asc ? gt(tronSandboxTransactions.id, filter.after) : sql`${tronSandboxTransactions.id} < ${filter.after}`);
    const rows = await this.db
      .select({ t: tronSandboxTransactions, ts: tronSandboxBlocks.timestamp })
      .from(tronSandboxTransactions)
      .innerJoin(tronSandboxBlocks, eq(tronSandboxBlocks.number, tronSandboxTransactions.blockNumber))
      .where(
        and(
          ...conds,
          filter.minTs !== undefined ? gte(tronSandboxBlocks.timestamp, filter.minTs) : undefined,
          filter.maxTs !== undefined ? lte(tronSandboxBlocks.timestamp, filter.maxTs) : undefined,
        ),
      )
      .orderBy(filter.asc ? asc(tronSandboxTransactions.id) : desc(tronSandboxTransactions.id))
      .limit(filter.limit + 1);
    return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit, head: top };
  }

  // ─── HTTP ──────────────────────────────────────────────────────────────

  private routes(app: FastifyInstance) {
    // TronWeb posts JSON, sometimes with an empty body; GET requests carry the payload in the query.
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, body ? JSON.parse(body as string) : {});
      } catch {
        done(null, {});
      }
    });
    const params = (req: { body?: unknown; query?: unknown }) => ({ ...((req.query as object) ?? {}), ...((req.body as object) ?? {}) }) as Record<string, any>;
    const both = (path: string, handler: (p: Record<string, any>) => Promise<unknown>) => {
      app.get(path, async (req) => handler(params(req)));
      app.post(path, async (req) => handler(params(req)));
    };
    const nowBlock = async (solid: boolean) => this.block(solid ? await this.solidHead() : await this.visibleHead());

    both('/', async () => nowBlock(false));
    both('/wallet/getnowblock', async () => nowBlock(false));
    both('/walletsolidity/getnowblock', async () => nowBlock(true));
    both('/wallet/getblock', async (p) => {
      const detail = p.detail === true || p.detail === 'true';
      const id = p.id_or_num;
      if (id === undefined || id === '') return this.block(await this.visibleHead(), detail);
      if (/^\d+$/.test(String(id))) return this.block(Number(id), detail);
      const [b] = await this.db.select().from(tronSandboxBlocks).where(eq(tronSandboxBlocks.hash, String(id)));
      return b && b.number <= (await this.visibleHead()) ? this.blockJson(b, detail) : {};
    });
    both('/walletsolidity/getblock', async (p) => this.block(p.id_or_num !== undefined ? Math.min(Number(p.id_or_num), await this.solidHead()) : await this.solidHead(), p.detail === true || p.detail === 'true'));
    both('/wallet/getblockbynum', async (p) => this.block(Number(p.num)));
    both('/walletsolidity/getblockbynum', async (p) => (Number(p.num) <= (await this.solidHead()) ? this.block(Number(p.num)) : {}));
    both('/wallet/getblockbyid', async (p) => {
      const [b] = await this.db.select().from(tronSandboxBlocks).where(eq(tronSandboxBlocks.hash, String(p.value ?? '')));
      return b && b.number <= (await this.visibleHead()) ? this.blockJson(b) : {};
    });
    both('/wallet/getblockbylimitnext', async (p) => {
      const start = Number(p.startNum);
      const end = Math.min(Number(p.endNum), start + 100, (await this.visibleHead()) + 1);
      const block = [];
      for (let n = start; n < end; n++) {
        const b = await this.block(n);
        if (Object.keys(b).length) block.push(b);
      }
      return block.length ? { block } : {};
    });
    both('/wallet/getaccount', async (p) => this.accountJson(p.address, false));
    both('/walletsolidity/getaccount', async (p) => this.accountJson(p.address, true));
    both('/wallet/getaccountresource', async (p) => {
      const a = tryHex41(p.address);
      if (!a || !(await this.accountExists(a))) return {};
      return { freeNetLimit: 0, TotalNetLimit: 43_200_000_000, TotalNetWeight: 26_000_000_000, TotalEnergyLimit: 180_000_000_000, TotalEnergyWeight: 19_000_000_000 };
    });
    both('/wallet/getaccountnet', async (p) => (tryHex41(p.address) ? { freeNetLimit: 0 } : {}));
    both('/wallet/getcontract', async (p) => {
      if (tryHex41(p.value) !== this.usdtHex) return {};
      return { origin_address: hex41(faucetAddress()), contract_address: this.usdtHex, abi: { entrys: USDT_ABI }, bytecode: '', name: 'TetherToken', consume_user_resource_percent: 100, origin_energy_limit: 10_000_000 };
    });
    both('/wallet/getcontractinfo', async (p) => (tryHex41(p.value) === this.usdtHex ? { runtimecode: '', smart_contract: { contract_address: this.usdtHex, abi: { entrys: USDT_ABI }, name: 'TetherToken' } } : {}));
    both('/wallet/triggerconstantcontract', async (p) => this.constantCall(p, false));
    both('/walletsolidity/triggerconstantcontract', async (p) => this.constantCall(p, true));
    both('/wallet/estimateenergy', async (p) => {
      const to = p.parameter ? '41' + String(p.parameter).slice(24, 64) : null;
      const held = to ? await this.usdtBalance(to) : 0;
      return { result: { result: true }, energy_required: held > 0 ? ENERGY_TRANSFER_HOLDER : ENERGY_TRANSFER_NEW };
    });
    both('/wallet/triggersmartcontract', async (p) => this.buildTrigger(p));
    both('/wallet/createtransaction', async (p) => this.buildTransfer(p));
    app.post('/wallet/broadcasttransaction', async (req) => this.broadcast(req.body));
    both('/wallet/gettransactionbyid', async (p) => this.transactionById(p.value));
    both('/walletsolidity/gettransactionbyid', async (p) => {
      const t = await this.transactionInfo(p.value, true);
      return Object.keys(t).length ? this.transactionById(p.value) : {};
    });
    both('/wallet/gettransactioninfobyid', async (p) => this.transactionInfo(p.value, false));
    both('/walletsolidity/gettransactioninfobyid', async (p) => this.transactionInfo(p.value, true));
    both('/wallet/getnodeinfo', async () => ({ configNodeInfo: { codeVersion: '4.8.0' }, block: `Num:${await this.visibleHead()}`, solidityBlock: `Num:${await this.solidHead()}` }));
    both('/wallet/getchainparameters', async () => ({
      chainParameter: [
        { key: 'getTransactionFee', value: SUN_PER_BANDWIDTH },
        { key: 'getEnergyFee', value: SUN_PER_ENERGY },
        { key: 'getCreateAccountFee', value: 100_000 },
        { key: 'getCreateNewAccountFeeInSystemContract', value: ACCOUNT_CREATE_FEE },
      ],
    }));
    both('/wallet/getenergyprices', async () => ({ prices: `0:${SUN_PER_ENERGY}` }));
    both('/wallet/getbandwidthprices', async () => ({ prices: `0:${SUN_PER_BANDWIDTH}` }));

    // TronGrid v1: TRC-20 transfers of an account, and the USDT contract's Transfer events.
    app.get('/v1/accounts/:address/transactions/trc20', async (req, reply) => {
      const a = tryHex41((req.params as { address: string }).address);
      const q = req.query as Record<string, string | undefined>;
      if (!a) return reply.status(400).send({ success: false, error: 'Invalid address' });
      if (q.contract_address && tryHex41(q.contract_address) !== this.usdtHex) return { data: [], success: true, meta: { at: Date.now(), page_size: 0 } };
      const { rows, more } = await this.transferEvents({
        address: a,
        direction: q.only_to === 'true' ? 'to' : q.only_from === 'true' ? 'from' : undefined,
        minTs: q.min_timestamp ? Number(q.min_timestamp) : undefined,
        maxTs: q.max_timestamp ? Number(q.max_timestamp) : undefined,
        ...gridPaging(q),
      });
      const data = rows.map(({ t, ts }) => ({
        transaction_id: t.txId,
        token_info: { symbol: 'USDT', address: this.usdt, decimals: 6, name: 'Tether USD' },
        block_timestamp: ts,
        from: toBase58(t.owner),
        to: toBase58(t.tokenTo!),
        type: 'Transfer',
        value: String(t.amount),
      }));
      return gridPage(data, rows, more);
    });
    app.get('/v1/contracts/:address/events', async (req, reply) => {
      const c = tryHex41((req.params as { address: string }).address);
      const q = req.query as Record<string, string | undefined>;
      if (!c) return reply.status(400).send({ success: false, error: 'Invalid address' });
      if (c !== this.usdtHex || (q.event_name && q.event_name !== 'Transfer')) return { data: [], success: true, meta: { at: Date.now(), page_size: 0 } };
      const { rows, more } = await this.transferEvents({
        blockNumber: q.block_number !== undefined ? Number(q.block_number) : undefined,
        minTs: q.min_block_timestamp ? Number(q.min_block_timestamp) : undefined,
        maxTs: q.max_block_timestamp ? Number(q.max_block_timestamp) : undefined,
        ...gridPaging(q),
      });
      const data = rows.map(({ t, ts }) => ({
        block_number: t.blockNumber,
        block_timestamp: ts,
        caller_contract_address: this.usdt,
        contract_address: this.usdt,
        event_index: 0,
        event_name: 'Transfer',
        result: { 0: '0x' + t.owner.slice(2), 1: '0x' + t.tokenTo!.slice(2), 2: String(t.amount), from: '0x' + t.owner.slice(2), to: '0x' + t.tokenTo!.slice(2), value: String(t.amount) },
        result_type: { from: 'address', to: 'address', value: 'uint256' },
        event: 'Transfer(address indexed from, address indexed to, uint256 value)',
        transaction_id: t.txId,
      }));
      return gridPage(data, rows, more);
    });

    // The sandbox's own controls (no real node has these).
    app.post('/sandbox/mine', async (req) => {
      const blocks = Math.min(Math.max(Number((req.body as { blocks?: number })?.blocks ?? 1) || 1, 1), 10_000);
      return { head: await this.mine(blocks) };
    });
    app.post('/sandbox/faults', async (req) => ({ faults: await this.setFaults((req.body ?? {}) as SandboxFaults & { reorg?: number; reinclude?: boolean }), head: await this.visibleHead() }));
    app.get('/sandbox/state', async () => {
      const s = await this.state();
      return { head: s.head, visibleHead: await this.visibleHead(), solidHead: await this.solidHead(), faults: s.faults, reorgs: s.reorgs, usdt: this.usdt, faucet: faucetAddress() };
    });
    app.post('/sandbox/deposit', async (req, reply) => {
      const b = (req.body ?? {}) as { to?: string; amount?: number; asset?: 'USDT' | 'TRX'; deposits?: { to: string; amount: number; asset?: 'USDT' | 'TRX' }[] };
      const list = b.deposits ?? [{ to: b.to ?? '', amount: Number(b.amount), asset: b.asset }];
      const out = [];
      for (const d of list) {
        if (!tryHex41(d.to) || !Number.isSafeInteger(Number(d.amount)) || Number(d.amount) <= 0) return reply.status(400).send({ code: 'BAD_DEPOSIT', message: 'to must be a TRON address and amount a positive integer (6-decimal units or sun)' });
        out.push(await this.deposit(d.to, Number(d.amount), d.asset === 'TRX' ? 'TRX' : 'USDT'));
      }
      return b.deposits ? { results: out } : out[0];
    });
  }
}

/** TronGrid v1's paging parameters of a list (confirmed only, page size, the fingerprint to go on from, order). */
function gridPaging(q: Record<string, string | undefined>) {
  const limit = Math.min(Math.max(Number(q.limit ?? 20) || 20, 1), 200);
  return { confirmed: q.only_confirmed === 'true', limit, after: q.fingerprint ? Number(q.fingerprint) : undefined, asc: q.order_by === 'block_timestamp,asc' };
}

/** A TronGrid v1 page: the rows, and the fingerprint of the last when more follow. */
function gridPage<T>(data: T[], rows: { t: { id: number } }[], more: boolean) {
  const meta: Record<string, unknown> = { at: Date.now(), page_size: data.length };
  if (more && rows.length) meta.fingerprint = String(rows[rows.length - 1]!.t.id);
  return { data, success: true, meta };
}

function blockId(number: number, seed: string) {
  return number.toString(16).padStart(16, '0') + crypto.createHash('sha256').update(`${number}:${seed}`).digest('hex').slice(16);
}

function keccakSelector(signature: string) {
  return (tronweb().TronWeb.sha3(signature.replace(/\s+/g, ''), false) as string).slice(0, 8);
}

/** Computes txID and raw_data_hex of an unsigned transaction with TronWeb's own protobuf encoding. */
function sealTx(raw: Record<string, unknown>) {
  const tx: Record<string, unknown> = { visible: false, txID: '', raw_data: raw, raw_data_hex: '' };
  const pb = tronweb().utils.transaction.txJsonToPb(tx as any);
  tx.txID = tronweb().utils.transaction.txPbToTxID(pb).replace(/^0x/, '');
  tx.raw_data_hex = tronweb().utils.transaction.txPbToRawDataHex(pb).toLowerCase();
  return tx;
}

/** Bytes a transaction takes on chain (raw data, signature, overhead): its bandwidth. */
function txBytes(tx: { raw_data_hex?: string; signature?: string[] }) {
  return (tx.raw_data_hex?.length ?? 0) / 2 + 65 * (tx.signature?.length ?? 1) + 64;
}

function txJson(t: TxRow) {
  const raw = t.raw as Record<string, unknown>;
  return { ...raw, ret: [{ contractRet: t.result ?? 'SUCCESS', ...(t.contractType === 'TriggerSmartContract' ? {} : { fee: t.fee }) }] };
}
