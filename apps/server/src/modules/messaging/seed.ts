import { sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db.js';
import { appVersions } from './schema.js';

/**
 * A few app versions for the demo (the simulator calls it): Android 1.2.0 → 1.3.0 (forced: a security fix)
 * → 1.4.2, iOS 1.3.0 → 1.4.1. Only into an empty table, so an operator's versions are never touched.
 */
export async function seedDemoAppVersions(ex: Executor) {
  const [{ n }] = await ex.select({ n: sql<number>`count(*)::int` }).from(appVersions);
  if (Number(n) > 0) return false;
  const dl = (p: string, v: string) => `https://downloads.dau.example/${p}/dau-${v}.${p === 'android' ? 'apk' : 'ipa'}`;
  await ex.insert(appVersions).values([
    { platform: 'android', version: '1.2.0', versionCode: 120, downloadUrl: dl('android', '1.2.0'), updateText: 'Faster live odds.', updatedBy: 'admin' },
    { platform: 'android', version: '1.3.0', versionCode: 130, downloadUrl: dl('android', '1.3.0'), updateText: 'Security fix: please update.', forceUpdate: true, updatedBy: 'admin' },
    { platform: 'android', version: '1.4.2', versionCode: 142, downloadUrl: dl('android', '1.4.2'), updateText: 'Jackpot tickets and the casino lobby.', updateUrl: 'https://dau.example/app', updatedBy: 'admin' },
    { platform: 'ios', version: '1.3.0', versionCode: 130, downloadUrl: dl('ios', '1.3.0'), updateText: 'Faster live odds.', updatedBy: 'admin' },
    { platform: 'ios', version: '1.4.1', versionCode: 141, downloadUrl: dl('ios', '1.4.1'), updateText: 'Jackpot tickets and the casino lobby.', updateUrl: 'https://dau.example/app', updatedBy: 'admin' },
  ]);
  return true;
}
