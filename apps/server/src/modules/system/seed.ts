import { PRIMARY_COLOR } from '@dau/domain';
import type { Executor } from '../../platform/db.js';
import type { SeededRoles } from '../../platform/seed.js';
import { languages, logConfig, siteConfig, subscriberConfig } from './schema.js';

/**
 * The system settings of a fresh install: website info, the default subscriber config (new accounts get
 * the seeded default role), the three console languages and one log configuration per server logger.
 * Rows that exist are left as the operator edited them.
 */
export async function seedSystemSettings(ex: Executor, roles: SeededRoles): Promise<void> {
  await ex.insert(siteConfig).values({ id: 1, title: 'Dau', color: PRIMARY_COLOR }).onConflictDoNothing();
  await ex
    .insert(subscriberConfig)
    .values({ id: 1, defaultRoleId: roles.defaultRoleId, noRegistrationTip: 'Registration is closed. Ask an administrator for an account.' })
    .onConflictDoNothing();
  const langs = [
    { code: 'en-US', title: 'English', defaultLanguage: 2, abbreviation: 'EN', country: 'United States', phoneCode: '1', sort: 30 },
    { code: 'sw-KE', title: 'Kiswahili', defaultLanguage: 1, abbreviation: 'SW', country: 'Kenya', phoneCode: '254', sort: 20 },
    { code: 'zh-CN', title: '简体中文', defaultLanguage: 1, abbreviation: 'ZH', country: 'China', phoneCode: '86', sort: 10 },
  ];
  for (const l of langs) await ex.insert(languages).values(l).onConflictDoNothing();
  // The server's loggers whose level an operator sets (./log-levels.ts): its own (the request log), the feed's, the jobs', the payments'.
  for (const logger of ['http', 'feed', 'payments', 'jobs']) {
    await ex.insert(logConfig).values({ logger, level: 3, retentionDays: 180, options: '{}' }).onConflictDoNothing();
  }
}
