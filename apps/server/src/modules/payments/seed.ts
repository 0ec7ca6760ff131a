import type { Executor } from '../../platform/db.js';
import { paymentConfig } from './schema.js';
import { ensureProviderAccounts } from './providers.js';

/** The payment limits of a fresh install (the column defaults); an operator's edits are left alone. */
export async function seedPaymentConfig(ex: Executor): Promise<void> {
  await ex.insert(paymentConfig).values({ id: 1 }).onConflictDoNothing();
  // Our accounts with the built-in sandboxes of M-Pesa, Airtel and the aggregator (fresh keys per install).
  await ensureProviderAccounts(ex);
}
