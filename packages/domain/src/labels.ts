/**
 * Labels of the enumeration values in the three interface languages. The server uses them for
 * exports, the console for tags, filters and selects.
 */
import { outcomeStatusDisplay, type DisplayKey } from './display';
import { enumIds, enumKey, type EnumId, type EnumName } from './enums';
import { DEFAULT_LOCALE, normalizeLocale, isLocale, type Locale } from './locale';
import enUS from './locales/en-US';
import swKE from './locales/sw-KE';
import zhCN from './locales/zh-CN';
import type { DomainLabels } from './locales/types';

export type { DomainLabels, EnumLabelTable } from './locales/types';

export const LABELS: Readonly<Record<Locale, DomainLabels>> = {
  'en-US': enUS,
  'sw-KE': swKE,
  'zh-CN': zhCN,
};

function resolve(locale: string | undefined): Locale {
  if (locale === undefined) return DEFAULT_LOCALE;
  return isLocale(locale) ? locale : normalizeLocale(locale);
}

/**
 * The label of one enumeration value, e.g. `enumLabel('pay_type', 4, 'sw-KE')`. An id that is not
 * in the enumeration (old data, a newer server) comes back as its number, never as an empty string.
 */
export function enumLabel(name: EnumName, id: number, locale: Locale | string = DEFAULT_LOCALE): string {
  const key = enumKey(name, id);
  if (key === undefined) return String(id);
  const table = LABELS[resolve(locale)].enums[name] as Readonly<Record<string, string>>;
  return table[key]!;
}

/** The label of a display identifier of spec §4 ('pending', 'return'). */
export function displayLabel(key: DisplayKey, locale: Locale | string = DEFAULT_LOCALE): string {
  return LABELS[resolve(locale)].display[key];
}

/**
 * The label to show for a value, applying the display rules of spec §4: an outcome status of 1, 4
 * or 5 shows as pending, 8 or 9 as return; every other value (and every other enumeration) shows
 * its own label.
 */
export function enumDisplayLabel(name: EnumName, id: number, locale: Locale | string = DEFAULT_LOCALE): string {
  if (name === 'outcome_status') {
    const display = outcomeStatusDisplay(id);
    if (display === 'pending' || display === 'return') return displayLabel(display, locale);
  }
  return enumLabel(name, id, locale);
}

export interface EnumOption<N extends EnumName> {
  value: EnumId<N>;
  label: string;
}

/** `{ value, label }` for every id of an enumeration, ascending: ready for a select or a filter. */
export function enumOptions<N extends EnumName>(name: N, locale: Locale | string = DEFAULT_LOCALE): EnumOption<N>[] {
  return enumIds(name).map((value) => ({ value, label: enumLabel(name, value as number, locale) }));
}
