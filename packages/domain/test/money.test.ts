import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SUPPORTED_LOCALES,
  assertCents,
  centsToDecimalString,
  formatAmount,
  formatTsh,
  isCents,
  parseTshToCents,
  sumCents,
} from '../src';

const safeCents = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

describe('formatTsh', () => {
  it.each([
    [130500, 'TSh 1,305.00'],
    [0, 'TSh 0.00'],
    [1, 'TSh 0.01'],
    [99, 'TSh 0.99'],
    [100, 'TSh 1.00'],
    [123456789, 'TSh 1,234,567.89'],
    [100000000, 'TSh 1,000,000.00'],
    [-2050, '-TSh 20.50'],
    [Number.MAX_SAFE_INTEGER, 'TSh 90,071,992,547,409.91'],
  ])('formats %d cents as %s', (cents, text) => {
    expect(formatTsh(cents, 'en-US')).toBe(text);
  });

  it('formats the same digits in every language', () => {
    for (const locale of SUPPORTED_LOCALES) expect(formatTsh(130550, locale)).toBe('TSh 1,305.50');
  });

  it('formats without a symbol and as a plain decimal', () => {
    expect(formatAmount(130550)).toBe('1,305.50');
    expect(formatAmount(-5)).toBe('-0.05');
    expect(centsToDecimalString(130550)).toBe('1305.50');
    expect(centsToDecimalString(-130550)).toBe('-1305.50');
    expect(centsToDecimalString(7)).toBe('0.07');
  });

  it('refuses non-integers and unsafe numbers', () => {
    expect(() => formatTsh(1.5)).toThrow(RangeError);
    expect(() => formatTsh(Number.NaN)).toThrow(RangeError);
    expect(() => formatTsh(2 ** 53)).toThrow(RangeError);
  });
});

describe('parseTshToCents', () => {
  it.each([
    ['1,305.5', 130550],
    ['1305.5', 130550],
    ['1,305.05', 130505],
    ['1,305', 130500],
    ['0.1', 10],
    ['0.01', 1],
    ['0', 0],
    ['-0', 0],
    ['  42 ', 4200],
    ['TSh 1,305.00', 130500],
    ['tsh1305', 130500],
    ['TZS 7', 700],
    ['-TSh 20.50', -2050],
    ['TSh -20.50', -2050],
    ['+3', 300],
    ['1,234,567.89', 123456789],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('parses %j as %d', (input, cents) => {
    expect(parseTshToCents(input)).toBe(cents);
  });

  it.each([
    '',
    '   ',
    'TSh',
    'abc',
    'NaN',
    'Infinity',
    '1.234',
    '1.',
    '.5',
    '1e3',
    '0x10',
    '1,30,5',
    '1305,5',
    ',305',
    '1,,305',
    '--1',
    '- -1',
    '1 305',
    '90071992547409.92',
    '99999999999999999999',
  ])('rejects %j', (input) => {
    expect(parseTshToCents(input)).toBeNull();
  });

  it('rejects what is not a string', () => {
    expect(parseTshToCents(12 as unknown as string)).toBeNull();
  });

  it('has no float drift: 0.1 + 0.2 is exactly 30 cents', () => {
    const sum = parseTshToCents('0.1')! + parseTshToCents('0.2')!;
    expect(sum).toBe(30);
    expect(parseTshToCents(String(0.1 + 0.2))).toBeNull(); // '0.30000000000000004' has too many decimals
    expect(formatTsh(sum)).toBe('TSh 0.30');
    expect(parseTshToCents('1.15')).toBe(115); // 1.15 * 100 = 114.99999999999999 in floats
    expect(parseTshToCents('4.35')).toBe(435); // 4.35 * 100 = 434.99999999999994
  });
});

describe('money properties', () => {
  it('round-trips parse(format(x)) for every safe amount in cents', () => {
    fc.assert(
      fc.property(safeCents, fc.constantFrom(...SUPPORTED_LOCALES), (cents, locale) => {
        expect(parseTshToCents(formatTsh(cents, locale))).toBe(cents);
        expect(parseTshToCents(formatAmount(cents))).toBe(cents);
        expect(parseTshToCents(centsToDecimalString(cents))).toBe(cents);
      }),
      { numRuns: 2000 },
    );
  });

  it('parses shillings and cents typed as digits exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 90_071_992_547 }), fc.integer({ min: 0, max: 99 }), (shillings, cents) => {
        const text = `${shillings}.${String(cents).padStart(2, '0')}`;
        expect(parseTshToCents(text)).toBe(shillings * 100 + cents);
      }),
    );
  });

  it('adds parsed amounts without drift', () => {
    const amount = fc.tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 99 }));
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 50 }), (parts) => {
        const texts = parts.map(([s, c]) => `${s}.${String(c).padStart(2, '0')}`);
        const total = sumCents(texts.map((t) => parseTshToCents(t)!));
        expect(total).toBe(parts.reduce((acc, [s, c]) => acc + s * 100 + c, 0));
        expect(Number.isSafeInteger(total)).toBe(true);
      }),
    );
  });

  it('formats with exactly two decimals and valid groups', () => {
    fc.assert(
      fc.property(safeCents, (cents) => {
        expect(formatTsh(cents)).toMatch(/^-?TSh (?:\d{1,3}(?:,\d{3})*)\.\d{2}$/);
      }),
    );
  });
});

describe('assertCents', () => {
  it('accepts safe integers and refuses the rest', () => {
    expect(() => assertCents(0)).not.toThrow();
    expect(() => assertCents(-130550)).not.toThrow();
    expect(() => assertCents(0.5)).toThrow(RangeError);
    expect(() => assertCents(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
    expect(() => assertCents('100')).toThrow(RangeError);
    expect(isCents(100)).toBe(true);
    expect(isCents(Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('refuses a sum outside the safe range', () => {
    expect(sumCents([1, 2, 3])).toBe(6);
    expect(() => sumCents([Number.MAX_SAFE_INTEGER, 1])).toThrow(RangeError);
  });
});
