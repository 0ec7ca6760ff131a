import crypto from 'node:crypto';
import { tronWallets, TRON_WALLET_ROLE } from '../../src/modules/tron/schema.js';
import { toBase58, toHexAddress, type ChainBlock, type ChainReader, type ChainTransfer, type ChainTxInfo } from '../../src/modules/tron/chain-reader.js';
import type { Executor } from '../../src/platform/db.js';
import type { ChainSender, SignedTx } from '../../src/modules/tron/chain-sender.js';

/** Energy and bandwidth of a USDT transfer, paid in TRX by its sender (sun). */
export const FAKE_USDT_FEE = 14_000_000;
export const FAKE_TRX_FEE = 1_000_000;

interface FakeSigned {
  kind: 'usdt' | 'trx';
  from: string;
  to: string;
  amount: bigint;
}

export const USDT_HEX = toHexAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');

export const randomHex = () => `41${crypto.randomBytes(20).toString('hex')}`;

/**
 * A chain in memory for the watcher's tests and bench: blocks of TRC-20 transfers, a head that moves when
 * told, solidification 19 blocks below the head, reorganisations of the top blocks, a node that fails.
 */
export class FakeChain implements ChainReader, ChainSender {
  /** TRX (sun) and USDT of addresses the chain tracks; an address it does not track (an outside sender) has no limit. */
  trx = new Map<string, bigint>();
  usdt = new Map<string, bigint>();
  faults = { neverConfirm: 0, outOfEnergy: 0, broadcastError: 0 };
  broadcasts: string[] = [];
  signatures = 0;
  private pendingTrx: { txHash: string; from: string; to: string; amount: bigint }[] = [];
  blocks = new Map<number, ChainBlock>();
  headNumber = 0;
  solidLag = 19;
  /** Calls fail while > 0 (counts down). */
  failures = 0;
  private hashSeq = 0;
  private pending: ChainTransfer[] = [];
  txs = new Map<string, ChainTxInfo>();

  /** Queues a transfer for the next mined block; answers its hash. */
  transfer(o: { from?: string; to: string; amount: bigint | number; success?: boolean; contract?: string; txHash?: string; eventIndex?: number }): string {
    const txHash = o.txHash ?? crypto.randomBytes(32).toString('hex');
    this.pending.push({
      txHash, eventIndex: o.eventIndex ?? 0, contract: o.contract ?? USDT_HEX, from: o.from ?? randomHex(), to: o.to,
      amount: BigInt(o.amount), success: o.success ?? true,
    });
    return txHash;
  }

  mine(count = 1) {
    for (let i = 0; i < count; i++) {
      const n = ++this.headNumber;
      for (const t of this.pendingTrx.splice(0)) {
        const has = this.trx.get(t.from);
        const ok = has === undefined || has >= t.amount + BigInt(FAKE_TRX_FEE);
        if (ok) {
          if (has !== undefined) this.trx.set(t.from, has - t.amount - BigInt(FAKE_TRX_FEE));
          this.trx.set(t.to, (this.trx.get(t.to) ?? 0n) + t.amount);
        }
        this.txs.set(t.txHash, { blockNumber: n, success: ok, result: ok ? 'SUCCESS' : 'FAILED' });
      }
      const transfers = this.pending.splice(0);
      for (const t of transfers) {
        if (!t.success) continue;
        const tokens = this.usdt.get(t.from);
        const gas = this.trx.get(t.from);
        if (gas !== undefined && gas < BigInt(FAKE_USDT_FEE)) {
          t.success = false;
          this.trx.set(t.from, 0n);
          continue;
        }
        if (tokens !== undefined && tokens < t.amount) {
          t.success = false;
          continue;
        }
        if (gas !== undefined) this.trx.set(t.from, gas - BigInt(FAKE_USDT_FEE));
        if (tokens !== undefined) this.usdt.set(t.from, tokens - t.amount);
        this.usdt.set(t.to, (this.usdt.get(t.to) ?? 0n) + t.amount);
      }
      this.blocks.set(n, { number: n, hash: `b${n}-${++this.hashSeq}`, time: new Date(1_700_000_000_000 + n * 3000), transfers });
      for (const t of transfers) this.txs.set(t.txHash, { blockNumber: n, success: t.success, result: t.success ? 'SUCCESS' : 'OUT_OF_ENERGY' });
    }
  }

  /** Replaces the top `k` blocks by empty ones (their transactions are gone unless re-queued). */
  reorg(k: number, requeue: string[] = []) {
    const dropped: ChainTransfer[] = [];
    for (let i = 0; i < k; i++) {
      const n = this.headNumber - i;
      const b = this.blocks.get(n);
      if (b) dropped.push(...b.transfers);
      this.blocks.delete(n);
    }
    for (const t of dropped) this.txs.delete(t.txHash);
    this.headNumber -= k;
    this.pending.push(...dropped.filter((t) => requeue.includes(t.txHash)));
    this.mine(k);
  }

  private check() {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('fake node: connection refused');
    }
  }
  async head() {
    this.check();
    return this.headNumber;
  }
  async solid() {
    this.check();
    return Math.max(0, this.headNumber - this.solidLag);
  }
  async block(n: number) {
    this.check();
    return this.blocks.get(n) ?? null;
  }
  async tx(hash: string) {
    this.check();
    return this.txs.get(hash) ?? null;
  }
  async balances(addressHex: string) {
    this.check();
    return { trx: this.trx.get(addressHex) ?? 0n, token: this.usdt.get(addressHex) ?? 0n };
  }
  /** Starts tracking an address's balances (our wallets). */
  fund(addressHex: string, o: { trx?: bigint | number; usdt?: bigint | number } = {}) {
    this.trx.set(addressHex, BigInt(o.trx ?? 0));
    this.usdt.set(addressHex, BigInt(o.usdt ?? 0));
  }

  // ChainSender: signatures are random ids (the fake checks no key), broadcasts queue for the next block.
  async signUsdt(_ex: Executor, from: { addressBase58: string }, toBase58: string, units: number): Promise<SignedTx> {
    this.signatures++;
    const signed: FakeSigned = { kind: 'usdt', from: toHexAddress(from.addressBase58), to: toHexAddress(toBase58), amount: BigInt(units) };
    return { txHash: crypto.randomBytes(32).toString('hex'), signed };
  }
  async signTrx(_ex: Executor, from: { addressBase58: string }, toBase58: string, sun: number): Promise<SignedTx> {
    this.signatures++;
    const signed: FakeSigned = { kind: 'trx', from: toHexAddress(from.addressBase58), to: toHexAddress(toBase58), amount: BigInt(sun) };
    return { txHash: crypto.randomBytes(32).toString('hex'), signed };
  }
  async broadcast(tx: SignedTx) {
    if (this.faults.broadcastError > 0) {
      this.faults.broadcastError--;
      throw new Error('fake node: broadcast timed out');
    }
    if (this.broadcasts.includes(tx.txHash)) return;
    this.broadcasts.push(tx.txHash);
    if (this.faults.neverConfirm > 0) {
      this.faults.neverConfirm--;
      return;
    }
    const s = tx.signed as FakeSigned;
    if (s.kind === 'trx') {
      this.pendingTrx.push({ txHash: tx.txHash, from: s.from, to: s.to, amount: s.amount });
      return;
    }
    const fail = this.faults.outOfEnergy > 0;
    if (fail) this.faults.outOfEnergy--;
    this.pending.push({ txHash: tx.txHash, eventIndex: 0, contract: USDT_HEX, from: s.from, to: s.to, amount: s.amount, success: !fail });
  }
}

let walletSeq = 0;
/** A wallet row with a random address (no real key: the watcher never signs). */
export async function insertWallet(ex: Executor, o: { role?: number; bettorId?: number | null; agentId?: number | null; hex?: string } = {}) {
  const hex = o.hex ?? randomHex();
  walletSeq++;
  const [w] = await ex
    .insert(tronWallets)
    .values({
      role: o.role ?? TRON_WALLET_ROLE.deposit, bettorId: o.bettorId ?? null, agentId: o.agentId ?? null, addressBase58: toBase58(hex), addressHex: hex,
      publicKey: `04${'0'.repeat(128)}`, keyCiphertext: 'x', keyIv: 'x', keyTag: 'x', dataKeyWrapped: `fake-${walletSeq}`,
    })
    .returning();
  return w;
}
