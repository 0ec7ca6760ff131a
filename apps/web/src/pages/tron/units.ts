/**
 * Amounts on TRON are integers: TRX in sun (1 TRX = 1,000,000 sun) and USDT in its 6-decimal units
 * (1 USDT = 1,000,000). They are formatted here by integer arithmetic on BigInt (never through floating
 * point), grouped in the operator's language: 12_500_000 → "12.50", 1 → "0.000001".
 */
export const DECIMALS = 6;
const SCALE = 10n ** BigInt(DECIMALS);

export type Asset = 'USDT' | 'TRX';

/** The integer an answer carries (a safe integer number, a digit string or a bigint), else null. */
export function toUnits(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : null;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return BigInt(value.trim());
  return null;
}

const decimalSeparator = (locale: string) => new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';

/**
 * "1,234.50": the whole units grouped, then the fraction with its trailing zeros dropped but at least
 * `minFraction` digits (2 by default, like money; up to all 6). Null when the value is not an integer.
 */
export function formatUnits(value: unknown, locale = 'en-US', minFraction = 2): string | null {
  const n = toUnits(value);
  if (n === null) return null;
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const whole = abs / SCALE;
  let fraction = (abs % SCALE).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  if (fraction.length < minFraction) fraction = fraction.padEnd(Math.min(minFraction, DECIMALS), '0');
  const grouped = new Intl.NumberFormat(locale).format(whole);
  return `${negative ? '-' : ''}${grouped}${fraction ? decimalSeparator(locale) + fraction : ''}`;
}

/** "12.50 USDT", "30 TRX"… with the asset; a dash when there is no integer value. */
export function formatAsset(value: unknown, asset: Asset | string, locale = 'en-US'): string {
  const text = formatUnits(value, locale);
  return text === null ? '-' : `${text} ${asset}`;
}

/** a − b in units, or null when either is missing. */
export function difference(a: unknown, b: unknown): bigint | null {
  const x = toUnits(a);
  const y = toUnits(b);
  return x === null || y === null ? null : x - y;
}
