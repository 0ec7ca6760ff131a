/** Interface languages (spec §1, §9): en-US (default), sw-KE, zh-CN. */

export const SUPPORTED_LOCALES = ['en-US', 'sw-KE', 'zh-CN'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

const BY_LANGUAGE: ReadonlyMap<string, Locale> = new Map([
  ['en', 'en-US'],
  ['sw', 'sw-KE'],
  ['zh', 'zh-CN'],
]);

/**
 * Any language tag, or an Accept-Language header, to a supported locale: the first tag whose
 * language we have wins ('zh', 'zh_CN', 'zh-Hans-CN' -> zh-CN; 'sw', 'sw-TZ' -> sw-KE; 'en-GB' ->
 * en-US); anything else, or nothing, is en-US.
 */
export function normalizeLocale(input: string | null | undefined): Locale {
  if (typeof input !== 'string') return DEFAULT_LOCALE;
  for (const part of input.split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase().replace(/_/g, '-');
    if (!tag) continue;
    const language = tag.split('-')[0]!;
    const hit = BY_LANGUAGE.get(language);
    if (hit) return hit;
  }
  return DEFAULT_LOCALE;
}
