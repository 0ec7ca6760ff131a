import { dayStart, localDay } from '@dau/domain';

/**
 * A return's month: a calendar month of Africa/Dar_es_Salaam (YYYY-MM), from its first day's midnight there
 * (inclusive) to the next month's (exclusive). The zone keeps UTC+3 all year, so a month is a fixed range.
 */
export const MONTH_RE = /^(20\d{2})-(0[1-9]|1[0-2])$/;

export const isMonth = (s: string) => MONTH_RE.test(s);

/** The month of an instant, in Dar es Salaam. */
export const monthOf = (d: Date | number) => localDay(d).slice(0, 7);

export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** [from, to) of a month as instants. */
export const monthRange = (month: string) => ({ from: dayStart(`${month}-01`), to: dayStart(`${nextMonth(month)}-01`) });
