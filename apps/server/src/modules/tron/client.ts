import type { TronWeb } from 'tronweb';
import { tronweb } from './lib.js';

/**
 * The product's TronWeb client. It points at TRON_FULL_NODE_URL (a real full node / TronGrid) or, by
 * default, at the sandbox TRON node (sandbox-node.ts): the same client and the same calls either way, so
 * switching to a real node is configuration.
 *
 * The client never holds a private key (no `privateKey` option, no setPrivateKey): signing happens in
 * keys.ts's withPrivateKey, which passes the key to `trx.sign` for one transaction and forgets it.
 */
export interface TronNodeOptions {
  /** Full node (and, unless given apart, solidity node and event server) base URL. */
  fullNodeUrl: string;
  solidityNodeUrl?: string;
  eventServerUrl?: string;
  /** TronGrid API key (TRON-PRO-API-KEY header). */
  apiKey?: string;
}

/** The default sandbox TRON node's address (main.ts starts it on TRON_SANDBOX_PORT when no TRON_FULL_NODE_URL is set). */
export const sandboxNodeUrl = (port: number) => `http://127.0.0.1:${port}`;

/** A TronWeb client pointed at the node. `from` sets the default address used as owner of constant calls. */
export function createTronWeb(opts: TronNodeOptions, from?: string): TronWeb {
  const headers = opts.apiKey ? { 'TRON-PRO-API-KEY': opts.apiKey } : undefined;
  const tronWeb = new (tronweb().TronWeb)({
    fullHost: opts.fullNodeUrl,
    ...(opts.solidityNodeUrl ? { solidityNode: opts.solidityNodeUrl } : {}),
    ...(opts.eventServerUrl ? { eventServer: opts.eventServerUrl } : {}),
    ...(headers ? { headers } : {}),
  });
  if (from) tronWeb.setAddress(from);
  return tronWeb;
}

/** Where the app's TRON node is: set on the context by app.ts (BuildOptions.tron). */
export interface TronContext {
  node: TronNodeOptions;
}
