import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { tronChainState } from './schema.js';
import { tronNode } from './runtime.js';
import { HttpChainReader, toHexAddress, type ChainBlock, type ChainReader } from './chain-reader.js';
import { confirmBlock, recordSeen, relevantTransfers, tronSettingsOf, type ConfirmResult } from './deposits.js';

/**
 * The chain watcher (docs/architecture.md "Work after a commit"): a periodic durable job (`tron.watch`,
 * run by one process at a time) that reads the chain block by block from tron_chain_state('watcher').
 *
 *  - A block is applied once it is solidified AND has the configured confirmations on top of it:
 *    target = min(solidified, head − confirmations). Each block is one transaction: its USDT transfers to
 *    or from our addresses are recorded and credited (deposits.ts) and the position moves from n−1 to n by
 *    a conditional UPDATE in that same transaction. Two scanners (or a scanner restarted after kill -9)
 *    cannot both apply block n: the second finds the position already moved and rolls back.
 *  - Blocks above the target are read as "seen" (key 'watcher_seen'): shown with their confirmations to
 *    come, never credited from there.
 *  - A re-scan of an applied block (an operator moving the position back) credits nothing twice: the
 *    fingerprint is a unique key (deposits.ts).
 */

export const WATCH_JOB = 'tron.watch';
export const WATCH_SECONDS = 3;
const STATE_KEY = 'watcher';
const SEEN_KEY = 'watcher_seen';

const readers = new WeakMap<object, ChainReader>();

/** The chain reader of a database: the configured node over HTTP unless a test or bench set another. */
export function chainReaderOf(db: Db): ChainReader {
  return readers.get(db) ?? new HttpChainReader(tronNode().fullNodeUrl);
}

export function setChainReader(db: Db, reader: ChainReader | null) {
  if (reader) readers.set(db, reader);
  else readers.delete(db);
}

/**
 * Where a new install's watcher starts: block 1 (the sandbox chain, which starts with the install), or
 * TRON_WATCH_FROM_BLOCK on a real network (its history before our first address is of no interest).
 */
const firstBlock = () => {
  const n = Number(process.env.TRON_WATCH_FROM_BLOCK);
  return Number.isSafeInteger(n) && n > 0 ? n : 1;
};

export async function watcherPosition(db: Db, key = STATE_KEY): Promise<number> {
  const [row] = await db.select().from(tronChainState).where(eq(tronChainState.key, key));
  if (row) return row.lastBlock;
  await db.insert(tronChainState).values({ key, lastBlock: firstBlock() - 1 }).onConflictDoNothing();
  const [again] = await db.select().from(tronChainState).where(eq(tronChainState.key, key));
  return again.lastBlock;
}

/** Moves the watcher's position (an operator's re-scan, tests): the next scan applies blocks after it again. */
export async function setWatcherPosition(db: Db, lastBlock: number) {
  await watcherPosition(db);
  await db.update(tronChainState).set({ lastBlock, updatedAt: new Date() }).where(eq(tronChainState.key, STATE_KEY));
}

export interface ScanResult extends ConfirmResult {
  from: number;
  to: number;
  blocks: number;
  transfers: number;
  head: number;
  target: number;
}

export interface ScanOptions {
  /** Blocks applied at most in this run (default 200). */
  maxBlocks?: number;
  /** Stop starting new blocks after this many ms (default 20 s, well below the job's expiry). */
  budgetMs?: number;
  /** Test hook: called after a block's transaction committed. */
  afterBlock?: (n: number) => Promise<void> | void;
}

/**
 * One run of the watcher: applies the blocks from the position to the target, then reads the newer blocks
 * as seen. Answers what it did.
 */
export async function scanChain(db: Db, opts: ScanOptions = {}, reader: ChainReader = chainReaderOf(db)): Promise<ScanResult> {
  const started = Date.now();
  const settings = await tronSettingsOf(db);
  const contractHex = toHexAddress(settings.usdtContract);
  const [head, solid] = await Promise.all([reader.head(), reader.solid()]);
  const target = Math.min(solid, head - Math.max(0, settings.confirmations));
  const last = await watcherPosition(db);
  const res: ScanResult = { from: last + 1, to: last, blocks: 0, transfers: 0, head, target, credited: 0, creditedCents: 0, failed: 0, recorded: 0 };
  const maxBlocks = opts.maxBlocks ?? 200;
  const budget = opts.budgetMs ?? 20_000;
  let n = last + 1;
  for (; n <= target && res.blocks < maxBlocks && Date.now() - started < budget; n++) {
    const block = await reader.block(n);
    if (!block) break;
    const applied = await applyBlock(db, block, contractHex, settings);
    if (!applied) break; // another scanner moved the position: it owns the rest of this run
    res.blocks++;
    res.to = n;
    res.transfers += block.transfers.length;
    res.credited += applied.credited;
    res.creditedCents += applied.creditedCents;
    res.failed += applied.failed;
    res.recorded += applied.recorded;
    await opts.afterBlock?.(n);
  }
  // Newer blocks: seen, with their confirmations to come.
  if (n > target && Date.now() - started < budget) await readSeen(db, reader, Math.max(target, res.to), head, contractHex);
  return res;
}

async function applyBlock(db: Db, block: ChainBlock, contractHex: string, settings: Awaited<ReturnType<typeof tronSettingsOf>>) {
  const relevant = await relevantTransfers(db, block, contractHex);
  return db.transaction(async (tx) => {
    const [moved] = await tx
      .update(tronChainState)
      .set({ lastBlock: block.number, updatedAt: new Date() })
      .where(and(eq(tronChainState.key, STATE_KEY), eq(tronChainState.lastBlock, block.number - 1)))
      .returning({ lastBlock: tronChainState.lastBlock });
    if (!moved) return null;
    return confirmBlock(tx, block, relevant, settings);
  });
}

async function readSeen(db: Db, reader: ChainReader, after: number, head: number, contractHex: string) {
  const seen = await watcherPosition(db, SEEN_KEY);
  // A reorganisation may have replaced blocks read before: read again from the applied position when the
  // seen position ran ahead of a head that moved back.
  let n = Math.max(after, Math.min(seen, head)) + 1;
  for (; n <= head && n <= after + 64; n++) {
    const block = await reader.block(n);
    if (!block) break;
    const relevant = await relevantTransfers(db, block, contractHex);
    await recordSeen(db, block, relevant);
    await db
      .update(tronChainState)
      .set({ lastBlock: sql`greatest(${tronChainState.lastBlock}, ${n})`, updatedAt: new Date() })
      .where(eq(tronChainState.key, SEEN_KEY));
  }
}
