import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../src';

/** The first draws as 32-bit integers: the sequences every seeded simulation, sandbox and test replays. */
const first = (seed: number, n = 4) => {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, () => rng() * 4294967296);
};

describe('mulberry32', () => {
  it('answers the sequences mulberry32 has always answered for a seed', () => {
    expect(first(0)).toEqual([1144304738, 1416247, 958946056, 627933444]);
    expect(first(1)).toEqual([2693262067, 11749833, 2265367787, 4213581821]);
    expect(first(12345)).toEqual([4207900869, 1317490944, 2079646450, 3513001552]);
    // The seed is taken as an unsigned 32-bit integer.
    expect(first(-1)).toEqual(first(2 ** 32 - 1));
    expect(first(-1)).toEqual([3850105811, 813802916, 3073704848, 4054706436]);
  });

  it('answers uniform numbers in [0, 1), each generator on its own', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(b()).toBe(xs[0]);
  });
});
