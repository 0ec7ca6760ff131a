import type { Executor } from '../../platform/db.js';
import { paymentConfig } from './schema.js';

/** The payment limits of a fresh install (the column defaults); an operator's edits are left alone. */
export async function seedPaymentConfig(ex: Executor): Promise<void> {
  await ex.insert(paymentConfig).values({ id: 1 }).onConflictDoNothing();
}
