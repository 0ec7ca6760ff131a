/**
 * A change against a baseline, as the cards say it: an arrow and a percentage ("▲ 12%"), "new" when the
 * baseline is nothing and the figure is not, "—" when both are nothing. Up and down are said by the arrow
 * and read out in words (not by colour); the percentage is over the baseline's size, so a negative GGR
 * that grows towards zero goes up.
 */
export function changeOf(value: number, base: number): { dir: 'up' | 'down' | 'same' | 'new' | 'none'; pct?: number } {
  if (base === 0) return value === 0 ? { dir: 'none' } : { dir: 'new' };
  const pct = ((value - base) / Math.abs(base)) * 100;
  const rounded = Math.round(pct);
  return { dir: rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'same', pct: Math.abs(rounded) };
}
