import { usePrefs } from '../kit/prefs';
import { ENUMS, type EnumName } from '@dau/domain';
import { enumLabel } from '../kit/labels';
import type { FieldView, Option } from './types';

/** The operator's interface language, for the domain's labels and messages. */
export function useLocale(): string {
  return usePrefs().language;
}

/** Whether the domain has this enumeration (a declaration may name one the domain does not have yet). */
export const hasEnum = (name: string | undefined): name is EnumName =>
  !!name && Object.prototype.hasOwnProperty.call(ENUMS, name);

/** The label of an enumeration value; an unknown enumeration or id shows the raw value. */
export function enumText(name: string | undefined, id: unknown, locale: string): string {
  const n = typeof id === 'number' ? id : Number(id);
  if (!hasEnum(name) || !Number.isInteger(n)) return String(id);
  return enumLabel(name, n, locale);
}

/** Select options of a field: its own `options`, else its enumeration's ids and labels, else none. */
export function fieldOptions(field: FieldView, locale: string): readonly Option[] | undefined {
  if (field.options) return field.options;
  if (!hasEnum(field.enum)) return undefined;
  const name = field.enum;
  return Object.keys(ENUMS[name])
    .map(Number)
    .sort((a, b) => a - b)
    .map((value) => ({ value, label: enumLabel(name, value, locale) }));
}

/** A Tag colour that matches the meaning of an enumeration value where the identifier says it. */
const COLOR_BY_WORD: Array<[RegExp, string]> = [
  [/^(disabled|fail|lost|half_lost|voided|deleted|abnormal|not_allowed|high|no_betting|order_exception|cancelled|refused|timed_out)/, 'red'],
  [/^(enabled|online|bound|success|paid|won|half_won|shown|default|completed|allowed|settled|viewed)$/, 'green'],
  [/^(pending|processing|in_progress|requesting|awaiting|to_be_counted|disbursing)/, 'blue'],
  [/^(offline|unbound|hidden|not_default|not_viewed|unviewed|unused|none|not_started|undefined)$/, 'default'],
];
const PALETTE = ['blue', 'cyan', 'geekblue', 'purple', 'magenta', 'gold', 'orange', 'lime', 'volcano', 'green'];

export function enumColor(name: string | undefined, id: unknown): string {
  const n = Number(id);
  const key = hasEnum(name) ? (ENUMS[name] as Record<number, string>)[n] : undefined;
  if (key) for (const [re, color] of COLOR_BY_WORD) if (re.test(key)) return color;
  return Number.isInteger(n) ? PALETTE[Math.abs(n) % PALETTE.length] : 'default';
}
