/**
 * The product's messages (spec §5 and §8, and the codes the server answers with), in the console: the
 * domain's `MESSAGES` holds every code in three languages (about 37 KB gzip); the console loads only the
 * language it shows, and at start only the codes the public pages show (./signInCodes.ts). vite.config.ts
 * turns the catalogue into two modules per language: `virtual:spec-messages/<locale>` (those codes), loaded
 * with that language's texts (locales/index.ts `loadLanguage`, awaited before the first render and before a
 * language switch), and `virtual:spec-messages/<locale>/console` (the rest), loaded with the shell's texts
 * (`loadConsoleMessages`). So `specMessage` answers synchronously.
 */
import { perLanguage } from './catalogue';
import { interpolate, normalizeLocale, SUPPORTED_LOCALES, type Locale, type MessageCode, type MessageParams } from '@dau/domain';

type Catalogue = Readonly<Record<string, string>>;

const LOADERS: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  'en-US': () => import('virtual:spec-messages/en-US'),
  'sw-KE': () => import('virtual:spec-messages/sw-KE'),
  'zh-CN': () => import('virtual:spec-messages/zh-CN'),
};

const CONSOLE_LOADERS: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  'en-US': () => import('virtual:spec-messages/en-US/console'),
  'sw-KE': () => import('virtual:spec-messages/sw-KE/console'),
  'zh-CN': () => import('virtual:spec-messages/zh-CN/console'),
};

const messages = perLanguage(LOADERS);
const consoleMessages = perLanguage(CONSOLE_LOADERS);
/** Every loaded part, per language: the public pages' codes, then the console's. */
const parts = [messages.loaded, consoleMessages.loaded];
const inLanguage = (lng: Locale, code: string): string | undefined => {
  for (const part of parts) {
    const text = part[lng]?.[code];
    if (text !== undefined) return text;
  }
  return undefined;
};

/** Loads one language's messages of the public pages (once; a failed fetch may be tried again). */
export const loadSpecMessages = messages.load;

/** Loads one language's other messages, those of the console's screens (once). */
export const loadConsoleMessages = consoleMessages.load;

/** The text of a code in a loaded language (another loaded language's, else the code itself, if that one is not loaded yet). */
export function specMessage(code: MessageCode, locale: Locale | string, params?: MessageParams): string {
  const lng = normalizeLocale(locale);
  const text = inLanguage(lng, code) ?? SUPPORTED_LOCALES.map((other) => inLanguage(other, code)).find((t) => t !== undefined);
  return text === undefined ? code : interpolate(text, params);
}

/** Whether a value is one of the product's message codes (every language has the same codes). */
export function isSpecCode(value: unknown): value is MessageCode {
  return typeof value === 'string' && parts.some((part) => Object.values(part).some((c) => c !== undefined && Object.prototype.hasOwnProperty.call(c, value)));
}
