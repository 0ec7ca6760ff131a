import type { Db } from './platform/db.js';
import { seedPlatform, type ModuleSeed, type SeedOptions, type SeedResult } from './platform/seed.js';
import { seedSystemSettings } from './modules/system/seed.js';
import { seedPaymentConfig } from './modules/payments/seed.js';
import { seedSportsCatalogue } from './modules/sports/seed.js';
import { seedCasino } from './modules/casino/seed.js';
import { tronSeed } from './modules/tron/seed.js';
import { seedFiles } from './modules/files/index.js';
import { seedContent } from './modules/content/index.js';
import { seedSms } from './modules/sms/index.js';
import { seedPush } from './modules/push/index.js';
import { seedTelegram } from './modules/telegram/index.js';

/** The modules' reference rows, in the order they are seeded (see `ModuleSeed`). */
export const MODULE_SEEDS: readonly ModuleSeed[] = [seedSystemSettings, seedPaymentConfig, seedSportsCatalogue, seedCasino, tronSeed, seedSms, seedFiles, seedContent, seedPush, seedTelegram];

/**
 * Brings a database up to date on every start (main.ts, tests, benches): the platform's catalogue, roles,
 * log types and super admin, and every module's reference rows. Idempotent.
 */
export function seed(db: Db, opts: SeedOptions = {}): Promise<SeedResult> {
  return seedPlatform(db, opts, MODULE_SEEDS);
}
