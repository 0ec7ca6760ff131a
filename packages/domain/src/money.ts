/**
 * Money is an integer number of cents of Tanzanian shillings (TSh), a safe integer in a JS number.
 * Nothing here does float arithmetic on amounts: formatting slices the digits of the integer,
 * parsing reads the digits of the string.
 */
import { DEFAULT_LOCALE, type Locale } from './locale';

export const CURRENCY_CODE = 'TZS';
export const CURRENCY_SYMBOL = 'TSh';
export const CENTS_PER_UNIT = 100;

export type Cents = number;

export function isCents(value: unknown): value is Cents {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** Throws a RangeError unless `value` is a safe integer (an amount in cents). */
export function assertCents(value: unknown, what = 'amount'): asserts value is Cents {
  if (!isCents(value)) throw new RangeError(`${what} must be a safe integer number of cents, got ${String(value)}`);
}

function group(digits: string): string {
  let out = '';
  for (let i = digits.length; i > 0; i -= 3) {
    const chunk = digits.slice(Math.max(0, i - 3), i);
    out = out ? `${chunk},${out}` : chunk;
  }
  return out;
}

function split(cents: Cents): { negative: boolean; whole: string; fraction: string } {
  assertCents(cents);
  const negative = cents < 0;
  const digits = String(Math.abs(cents)).padStart(3, '0');
  return { negative, whole: digits.slice(0, -2), fraction: digits.slice(-2) };
}

/**
 * "1,305.00" (no symbol): comma thousands, point decimals, two decimals. Tanzania writes amounts
 * this way whatever the interface language, so the locale does not change the digits.
 */
export function formatAmount(cents: Cents, _locale: Locale | string = DEFAULT_LOCALE): string {
  const { negative, whole, fraction } = split(cents);
  return `${negative ? '-' : ''}${group(whole)}.${fraction}`;
}

/** "TSh 1,305.00", "-TSh 20.50". */
export function formatTsh(cents: Cents, locale: Locale | string = DEFAULT_LOCALE): string {
  const { negative } = split(cents);
  const body = formatAmount(Math.abs(cents), locale);
  return `${negative ? '-' : ''}${CURRENCY_SYMBOL} ${body}`;
}

/** "1305.00", "-20.50": a plain decimal string for CSV exports and machine consumers. */
export function centsToDecimalString(cents: Cents): string {
  const { negative, whole, fraction } = split(cents);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;
const PREFIX = /^(?:tsh|tzs)\.?\s*/i;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Parses an amount of shillings typed by a person or produced by formatTsh into cents, exactly:
 * "1,305.5" -> 130550, "TSh 1,305.00" -> 130500, "-20" -> -2000. Accepts an optional sign, an
 * optional "TSh"/"TZS" prefix, comma thousands groups (all groups of three) and at most two
 * decimals. Anything else (more decimals, exponents, "NaN", empty, out of the safe range) is null.
 */
export function parseTshToCents(input: string): Cents | null {
  if (typeof input !== 'string') return null;
  let s = input.trim();
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s.startsWith('-');
    s = s.slice(1).trimStart();
  }
  s = s.replace(PREFIX, '');
  if (!negative && (s.startsWith('-') || s.startsWith('+'))) {
    negative = s.startsWith('-');
    s = s.slice(1);
  }
  const m = AMOUNT.exec(s);
  if (!m) return null;
  const whole = m[1]!.replace(/,/g, '');
  const fraction = (m[2] ?? '').padEnd(2, '0');
  const magnitude = BigInt(whole) * 100n + BigInt(fraction);
  if (magnitude > MAX_SAFE) return null;
  const cents = Number(magnitude);
  return negative && cents !== 0 ? -cents : cents;
}

/** Sum of amounts in cents, refusing a result outside the safe range. */
export function sumCents(amounts: readonly Cents[]): Cents {
  let total = 0;
  for (const a of amounts) {
    assertCents(a);
    total += a;
    assertCents(total, 'sum');
  }
  return total;
}
