import type { TronWeb } from 'tronweb';
import type { AppContext } from '../../platform/context.js';
import { createTronWeb, sandboxNodeUrl, type TronNodeOptions } from './client.js';
import { dataFolderMasterKey, hasKeyWrapper, LocalKeyWrapper, setKeyWrapper, type KeyWrapper } from './keys.js';

/** What app.ts passes (BuildOptions.tron): the node and the key wrapper of this process. */
export interface TronOptions {
  /** TRON_FULL_NODE_URL; default the sandbox TRON node on DEFAULT_SANDBOX_PORT. */
  fullNodeUrl?: string;
  apiKey?: string;
  /** main.ts: from DAU_MASTER_KEY or the data folder (masterKeyFromConfig); default the data folder's key. */
  keyWrapper?: KeyWrapper;
}

export const DEFAULT_SANDBOX_PORT = 6029;

let node: TronNodeOptions = { fullNodeUrl: sandboxNodeUrl(DEFAULT_SANDBOX_PORT) };
let nodeGiven = false;

/**
 * Sets the node and the key wrapper (tronRoutes, when the app is built): one TRON configuration per
 * process. What is not given keeps what this process already has (an app built again in the same
 * process, as tests do to simulate a restart, opens the keys the first one sealed); the first time, the
 * node defaults to the sandbox node and the key to the data folder's master.key.
 */
export function configureTron(ctx: AppContext, opts: TronOptions, log?: (message: string) => void) {
  if (opts.fullNodeUrl) configureTronNode({ fullNodeUrl: opts.fullNodeUrl, apiKey: opts.apiKey });
  else if (!nodeGiven) node = { fullNodeUrl: sandboxNodeUrl(DEFAULT_SANDBOX_PORT), apiKey: opts.apiKey };
  if (opts.keyWrapper) setKeyWrapper(opts.keyWrapper);
  else if (!hasKeyWrapper()) setKeyWrapper(new LocalKeyWrapper(dataFolderMasterKey(ctx.dataDir, log)));
}

/** Points the product at another node (tests: a sandbox node on a free port). */
export function configureTronNode(opts: TronNodeOptions) {
  node = { ...opts };
  nodeGiven = true;
}

export const tronNode = (): TronNodeOptions => node;

/** A fresh TronWeb client on the configured node (cheap: no request is made until a call). */
export function tronClient(from?: string): TronWeb {
  return createTronWeb(node, from);
}
