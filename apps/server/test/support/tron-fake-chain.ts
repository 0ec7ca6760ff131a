import crypto from 'node:crypto';
import { tronWallets, TRON_WALLET_ROLE } from '../../src/modules/tron/schema.js';
import { toBase58, toHexAddress, type ChainBlock, type ChainReader, type ChainTransfer, type ChainTxInfo } from '../../src/modules/tron/chain-reader.js';
import type { Executor } from '../../src/platform/db.js';

export const USDT_HEX = toHexAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');

export const randomHex = () => `41${crypto.randomBytes(20).toString('hex')}`;

/**
 * A chain in memory for the watcher's tests and bench: blocks of TRC-20 transfers, a head that moves when
 * told, solidification 19 blocks below the head, reorganisations of the top blocks, a node that fails.
 */
export class FakeChain implements ChainReader {
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
      const transfers = this.pending.splice(0);
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
