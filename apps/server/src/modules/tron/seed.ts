import type { ModuleSeed } from '../../platform/seed.js';
import type { Db } from '../../platform/db.js';
import { hasKeyWrapper } from './keys.js';
import { ensureHouseWalletsIn, houseWallet, tronSettingsOf } from './wallets.js';
import type { SandboxTronNode } from './sandbox-node.js';

/**
 * TRON's reference rows (a ModuleSeed): the settings row, and the house wallets (one collection/hot, one
 * gas) when this process has a master key configured (main.ts sets it before seeding; a test app's seed
 * runs before it has one, and gets its house wallets from ensureHouseWallets when it needs them).
 * Idempotent: an operator's wallets and settings are never changed.
 */
export const tronSeed: ModuleSeed = async (ex) => {
  await tronSettingsOf(ex);
  if (hasKeyWrapper()) await ensureHouseWalletsIn(ex);
};

/** Sandbox TRX for fees and a USDT float for withdrawals in the demo. */
export const SANDBOX_GAS_TRX = 10_000_000_000; // 10,000 TRX
export const SANDBOX_HOT_TRX = 500_000_000; // 500 TRX
export const SANDBOX_HOT_USDT = 20_000_000_000; // 20,000 USDT

/**
 * The sandbox chain funds the house wallets once (an outside sender, the faucet), so the demo can pay
 * energy and withdrawals: the gas wallet gets TRX, the hot wallet TRX and a USDT float. Only ever against
 * the sandbox node; a real node's wallets are funded by the operator.
 */
export async function fundHouseWalletsInSandbox(db: Db, node: SandboxTronNode) {
  const gas = await houseWallet(db, 3);
  const hot = await houseWallet(db, 2);
  let sent = false;
  if (gas && (await node.trxBalance(gas.addressBase58)) === 0) {
    await node.deposit(gas.addressBase58, SANDBOX_GAS_TRX, 'TRX');
    sent = true;
  }
  if (hot && (await node.trxBalance(hot.addressBase58)) === 0) {
    await node.deposit(hot.addressBase58, SANDBOX_HOT_TRX, 'TRX');
    await node.deposit(hot.addressBase58, SANDBOX_HOT_USDT, 'USDT');
    sent = true;
  }
  if (sent) await node.mine(1);
}
