import { describe, expect, it } from 'vitest';
import { changeOf } from '../src/pages/statistics/delta';

/** The landing page's "▲ 12% vs yesterday": direction and size of a change, and the baselines of nothing (issue 29). */
describe('changeOf', () => {
  it('says up, down or unchanged with the percentage of the baseline, rounded', () => {
    expect(changeOf(112, 100)).toEqual({ dir: 'up', pct: 12 });
    expect(changeOf(97, 100)).toEqual({ dir: 'down', pct: 3 });
    expect(changeOf(1_000_4, 1_000_0)).toEqual({ dir: 'same', pct: 0 });
    expect(changeOf(0, 250)).toEqual({ dir: 'down', pct: 100 });
  });
  it('measures a negative baseline (a losing GGR) by its size: towards zero is up', () => {
    expect(changeOf(-50, -100)).toEqual({ dir: 'up', pct: 50 });
    expect(changeOf(-150, -100)).toEqual({ dir: 'down', pct: 50 });
    expect(changeOf(100, -100)).toEqual({ dir: 'up', pct: 200 });
  });
  it('says "new" against nothing, and nothing against nothing', () => {
    expect(changeOf(5, 0)).toEqual({ dir: 'new' });
    expect(changeOf(-5, 0)).toEqual({ dir: 'new' });
    expect(changeOf(0, 0)).toEqual({ dir: 'none' });
  });
});
