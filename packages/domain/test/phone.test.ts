import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTzPhoneLocal, normaliseTzPhone, parsePhoneList, tzPhoneStored, validatePhone } from '../src';

describe('normaliseTzPhone', () => {
  it.each([
    '0712 345 678',
    '712345678',
    '255712345678',
    '+255712345678',
    '+255 712-345-678',
    '00255712345678',
    ' (0712) 345.678 ',
  ])('%j → +255712345678', (input) => {
    expect(normaliseTzPhone(input)).toBe('+255712345678');
  });

  it('accepts 6x numbers (Halotel, TTCL…)', () => {
    expect(normaliseTzPhone('0621000111')).toBe('+255621000111');
  });

  it.each(['', '0812345678', '071234567', '07123456789', '+254712345678', '+1 712 345 678', '2557123456789', 'abc', '07l2345678', null, undefined, {}, '0712345678x'])(
    'refuses %j',
    (input) => {
      expect(normaliseTzPhone(input)).toBeNull();
    },
  );

  it('stored form matches validatePhone', () => {
    fc.assert(
      fc.property(fc.constantFrom('6', '7'), fc.stringMatching(/^\d{8}$/), fc.constantFrom('0', '255', '+255', ''), (first, rest, prefix) => {
        const typed = `${prefix}${first}${rest}`;
        expect(tzPhoneStored(typed)).toBe(`255${first}${rest}`);
        expect(normaliseTzPhone(typed)).toBe(`+255${first}${rest}`);
        if (prefix !== '') {
          const v = validatePhone(typed);
          expect(v.ok && v.value).toBe(tzPhoneStored(typed));
        }
      }),
    );
  });

  it('formats the local form', () => {
    expect(formatTzPhoneLocal('+255712345678')).toBe('0712 345 678');
    expect(formatTzPhoneLocal('255712345678')).toBe('0712 345 678');
    expect(formatTzPhoneLocal('nonsense')).toBe('nonsense');
  });
});

describe('parsePhoneList', () => {
  it('splits, normalises, reports invalid entries and duplicates', () => {
    const r = parsePhoneList('0712 345 678\n+255712345678, 0655111222;bad\n\n"0755000111"\tbad\r\n12');
    expect(r.phones).toEqual(['+255712345678', '+255655111222', '+255755000111']);
    expect(r.invalid).toEqual(['bad', '12']);
    expect(r.duplicates).toBe(1);
  });
});
