/**
 * System settings as other modules see them (issue 26): read-only faces of the whole book's settings rows
 * that other modules consult (the site's title, the subscriber settings that bound sessions and sign-in
 * failures, the languages content is written in). They are changed only through the System screens
 * (./resources.ts, maker–checker where a setting needs it). Its routes are registered by app.ts.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { readModel } from '../../platform/read-model.js';
import { languages as languagesTable, siteConfig as siteConfigTable, subscriberConfig as subscriberConfigTable } from './schema.js';

export const siteConfig = readModel(siteConfigTable);
export const subscriberConfig = readModel(subscriberConfigTable);
export const languages = readModel(languagesTable);

/** Refuses (422 CONTENT_LANGUAGE_UNKNOWN on `field`) a language code that is not in the language list. */
export async function assertListedLanguage(ex: Executor, code: string, field = 'language'): Promise<void> {
  const [lang] = await ex.select({ id: languages.id }).from(languages).where(eq(languages.code, code)).limit(1);
  if (!lang) throw new AppError(422, 'CONTENT_LANGUAGE_UNKNOWN', {}, [{ field }]);
}

export { ServerLogLevels } from './log-levels.js';
