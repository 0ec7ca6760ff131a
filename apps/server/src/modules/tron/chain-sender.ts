import type { Executor } from '../../platform/db.js';
import { withPrivateKey } from './keys.js';
import { tronClient } from './runtime.js';

/**
 * How the sweeps and the USDT withdrawals put a transaction on chain, in two steps so that a crash or a
 * retry can never send the same money twice:
 *  1. `sign*`: builds the transaction on the node and signs it inside withPrivateKey (the key never leaves
 *     that call); answers its id and the signed transaction. The caller stores the id (tron_sweeps.tx_hash,
 *     a conditional UPDATE on a null hash) and commits BEFORE broadcasting: a second run finds the hash
 *     and never signs another transaction for the same sweep.
 *  2. `broadcast`: sends the signed transaction. A lost answer is harmless: the same transaction again is
 *     the same id, and the chain includes it at most once.
 * The signed transaction is kept in memory for a re-broadcast by this process; after a crash between the
 * two steps the transaction may never reach the chain: the watcher finds it unknown and it waits for
 * reconciliation (never a second signature, never a blind refund).
 */
export interface SignedTx {
  txHash: string;
  signed: unknown;
}

export interface ChainSender {
  signUsdt(ex: Executor, from: { walletId: number; addressBase58: string }, toBase58: string, units: number, contractBase58: string): Promise<SignedTx>;
  signTrx(ex: Executor, from: { walletId: number; addressBase58: string }, toBase58: string, sun: number): Promise<SignedTx>;
  broadcast(tx: SignedTx): Promise<void>;
}

/** Fee limit of a TRC-20 transfer (sun): 30 TRX, as wallets usually set. */
export const USDT_FEE_LIMIT_SUN = 30_000_000;

export class TronWebSender implements ChainSender {
  async signUsdt(ex: Executor, from: { walletId: number; addressBase58: string }, toBase58: string, units: number, contractBase58: string): Promise<SignedTx> {
    const tw = tronClient(from.addressBase58);
    const built = await tw.transactionBuilder.triggerSmartContract(
      contractBase58,
      'transfer(address,uint256)',
      { feeLimit: USDT_FEE_LIMIT_SUN },
      [
        { type: 'address', value: toBase58 },
        { type: 'uint256', value: units },
      ],
      from.addressBase58,
    );
    if (!built?.result?.result || !built.transaction) throw new Error(`the node did not build the transfer: ${JSON.stringify(built?.result ?? {}).slice(0, 200)}`);
    const signed = await withPrivateKey(ex, from.walletId, (key) => tw.trx.sign(built.transaction, key));
    return { txHash: signed.txID, signed };
  }

  async signTrx(ex: Executor, from: { walletId: number; addressBase58: string }, toBase58: string, sun: number): Promise<SignedTx> {
    const tw = tronClient(from.addressBase58);
    const built = await tw.transactionBuilder.sendTrx(toBase58, sun, from.addressBase58);
    const signed = await withPrivateKey(ex, from.walletId, (key) => tw.trx.sign(built, key));
    return { txHash: signed.txID, signed };
  }

  async broadcast(tx: SignedTx): Promise<void> {
    const res = (await tronClient().trx.sendRawTransaction(tx.signed as never)) as { result?: boolean; code?: string; message?: string };
    // DUP_TRANSACTION_ERROR: the node has it already (our first broadcast's answer was lost).
    if (!res?.result && res?.code !== 'DUP_TRANSACTION_ERROR') {
      throw new Error(`broadcast refused: ${res?.code ?? 'no answer'} ${res?.message ? Buffer.from(res.message, 'hex').toString('utf8').slice(0, 200) : ''}`);
    }
  }
}

const senders = new WeakMap<object, ChainSender>();
const defaultSender = new TronWebSender();
export const chainSenderOf = (db: object): ChainSender => senders.get(db) ?? defaultSender;
export function setChainSender(db: object, sender: ChainSender | null) {
  if (sender) senders.set(db, sender);
  else senders.delete(db);
}

/** Signed transactions by id, for a re-broadcast by this process (bounded). */
const signedCache = new Map<string, SignedTx>();
export function rememberSigned(tx: SignedTx) {
  if (signedCache.size > 10_000) signedCache.delete(signedCache.keys().next().value!);
  signedCache.set(tx.txHash, tx);
}
export const signedOf = (txHash: string) => signedCache.get(txHash);
