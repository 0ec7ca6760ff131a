/**
 * USDT on TRON (issue 14): wallets and keys (./wallets.ts, ./keys.ts), the product's TronWeb client
 * (./client.ts) and the sandbox TRON node (./sandbox-node.ts). Other modules reach it through the
 * services exported here. Design: docs/architecture.md ("The TRON node and the wallets' keys", "USDT
 * deposits, sweeps and withdrawals").
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { configureTron, type TronOptions } from './runtime.js';
import { walletRoutes } from './wallets.js';
import { tronFlowRoutes } from './flows-routes.js';
import { tronSettingsRoutes } from './settings.js';
import { tronSandboxRoutes } from './sandbox-routes.js';

export async function tronRoutes(app: FastifyInstance, ctx: AppContext, opts: TronOptions & { sandboxRoutes?: boolean } = {}) {
  configureTron(ctx, opts, (msg) => app.log.warn(msg));
  if (opts.sandboxRoutes) tronSandboxRoutes(app, ctx);
  walletRoutes(app, ctx);
  tronFlowRoutes(app, ctx); // T2: watcher jobs, sweeps, USDT withdrawals, lists, reconciliation
  tronSettingsRoutes(app, ctx); // issue 29: page tron_config
}

export { createTronWeb, sandboxNodeUrl } from './client.js';
export { tronClient, tronNode, configureTronNode } from './runtime.js';
export {
  depositAddressFor, sendUsdt, sendTrx, prepareTransfer, broadcastSigned, TronBroadcastError, houseWallet, tronSettingsOf, refreshBalance,
  usdtBalanceOf, createWallet, ensureHouseWallets, syncAllBalances, TRON_WALLET_LIST,
} from './wallets.js';
export { withPrivateKey, type KeyWrapper, LocalKeyWrapper, masterKeyFromConfig } from './keys.js';

// Read-only faces of the wallets, transfers and sweeps (platform/read-model.ts): search everywhere finds an
// address or a transaction hash in them.
import { readModel } from '../../platform/read-model.js';
import { tronSweeps as tronSweepsTable, tronTransfers as tronTransfersTable, tronWallets as tronWalletsTable } from './schema.js';
export const tronWallets = readModel(tronWalletsTable);
export const tronTransfers = readModel(tronTransfersTable);
export const tronSweeps = readModel(tronSweepsTable);
