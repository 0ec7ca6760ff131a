import { describe, expect, it } from 'vitest';
import { difference, formatAsset, formatUnits, toUnits } from '../src/pages/tron/units';

/** TRX in sun and USDT in 6-decimal units, formatted by integer arithmetic (pages/tron/units.ts). */
describe('TRON amounts', () => {
  it('formats 6-decimal integers with the right decimals, at least two', () => {
    expect(formatUnits(12_500_000)).toBe('12.50');
    expect(formatUnits(1)).toBe('0.000001');
    expect(formatUnits(0)).toBe('0.00');
    expect(formatUnits(1_234_567_891_234)).toBe('1,234,567.891234');
    expect(formatUnits(-30_000_000)).toBe('-30.00');
    expect(formatUnits('100000001')).toBe('100.000001');
  });

  it('keeps every digit of amounts past floating point precision', () => {
    // 2^63 - 1 units: a double would round the last digits.
    expect(formatUnits('9223372036854775807')).toBe('9,223,372,036,854.775807');
    expect(formatUnits(2n ** 70n)).toBe('1,180,591,620,717,411.303424');
  });

  it('refuses what is not an integer', () => {
    expect(formatUnits(1.5)).toBeNull();
    expect(formatUnits('1.5')).toBeNull();
    expect(formatUnits(null)).toBeNull();
    expect(formatUnits(Number.MAX_SAFE_INTEGER + 2)).toBeNull();
    expect(toUnits(' 42 ')).toBe(42n);
    expect(formatAsset(undefined, 'USDT')).toBe('-');
  });

  it('names the asset and groups in the language', () => {
    expect(formatAsset(30_000_000, 'TRX')).toBe('30.00 TRX');
    expect(formatAsset(1_000_000_000_000, 'USDT', 'zh-CN')).toBe('1,000,000.00 USDT');
    expect(formatAsset(1_000_000_000_000, 'USDT', 'sw-KE')).toBe('1,000,000.00 USDT');
  });

  it('subtracts exactly', () => {
    expect(difference('9007199254740993', 1)).toBe(9007199254740992n);
    expect(difference(null, 1)).toBeNull();
  });
});
