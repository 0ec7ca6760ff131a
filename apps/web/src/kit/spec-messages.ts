/**
 * The product's messages (spec §5 and §8, and the codes the server answers with), in the console: the
 * domain's `MESSAGES` holds every code in three languages (about 37 KB gzip); the console loads only the
 * language it shows. vite.config.ts turns the catalogue into one module per language
 * (`virtual:spec-messages/<locale>`), loaded with that language's texts (locales/index.ts `loadLanguage`,
 * awaited before the first render and before a language switch), so `specMessage` answers synchronously.
 */
import { perLanguage } from './catalogue';
import { interpolate, normalizeLocale, type Locale, type MessageCode, type MessageParams } from '@dau/domain';

type Catalogue = Readonly<Record<string, string>>;

const LOADERS: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  'en-US': () => import('virtual:spec-messages/en-US'),
  'sw-KE': () => import('virtual:spec-messages/sw-KE'),
  'zh-CN': () => import('virtual:spec-messages/zh-CN'),
};

const messages = perLanguage(LOADERS);
const catalogues = messages.loaded;

/** Loads one language's messages (once; a failed fetch may be tried again). */
export const loadSpecMessages = messages.load;

/** The text of a code in a loaded language (another loaded language's, else the code itself, if that one is not loaded yet). */
export function specMessage(code: MessageCode, locale: Locale | string, params?: MessageParams): string {
  const lng = normalizeLocale(locale);
  const text = catalogues[lng]?.[code] ?? Object.values(catalogues).find((c) => c?.[code] !== undefined)?.[code];
  return text === undefined ? code : interpolate(text, params);
}

/** Whether a value is one of the product's message codes (every language has the same codes). */
export function isSpecCode(value: unknown): value is MessageCode {
  return typeof value === 'string' && Object.values(catalogues).some((c) => c !== undefined && Object.prototype.hasOwnProperty.call(c, value));
}
