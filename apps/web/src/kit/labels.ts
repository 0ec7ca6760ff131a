/**
 * The labels of the domain's enumerations (tags, filters, selects) in the console: the domain's `LABELS`
 * holds them in three languages; the console loads only the language it shows, like the messages
 * (./spec-messages.ts). vite.config.ts turns the table into one module per language
 * (`virtual:domain-labels/<locale>`), loaded with that language's texts (locales/index.ts `loadLanguage`,
 * awaited before the first render and before a language switch), so `enumLabel` answers synchronously.
 */
import { perLanguage } from './catalogue';
import { enumKey, normalizeLocale, type EnumName, type Locale } from '@dau/domain';

type Table = Readonly<Record<string, Readonly<Record<string, string>>>>;

const LOADERS: Record<Locale, () => Promise<{ default: Table }>> = {
  'en-US': () => import('virtual:domain-labels/en-US'),
  'sw-KE': () => import('virtual:domain-labels/sw-KE'),
  'zh-CN': () => import('virtual:domain-labels/zh-CN'),
};

const labels = perLanguage(LOADERS);
const tables = labels.loaded;

/** Loads one language's labels (once; a failed fetch may be tried again). */
export const loadLabels = labels.load;

/**
 * The label of an enumeration value in a loaded language (another loaded language's, else the value);
 * an id the enumeration does not have comes back as its number, as the domain's `enumLabel` does.
 */
export function enumLabel(name: EnumName, id: number, locale: Locale | string): string {
  const key = enumKey(name, id);
  if (key === undefined) return String(id);
  const lng = normalizeLocale(locale);
  return tables[lng]?.[name]?.[key] ?? Object.values(tables).find((t) => t?.[name]?.[key] !== undefined)?.[name]?.[key] ?? String(id);
}
