import { z } from 'zod';
import { addDays, dayStart, hourlyFigures, isDay } from '../../statistics/figures.js';
import { defineScript } from './types.js';

const day = z.string().refine(isDay, 'a day YYYY-MM-DD');

/**
 * Recomputes the statistics of a range of days (Dar es Salaam days) from the orders, bills and payments
 * (statistics/figures.ts): the figures are not stored, so this is the check an operator runs when a
 * day's numbers look wrong; it prints each day's turnover, payouts, GGR, deposits and withdrawals.
 */
export const statisticsDays = defineScript({
  name: 'statistics-days',
  version: 1,
  dangerous: false,
  changesData: false,
  args: z
    .strictObject({ from: day, to: day })
    .refine((a) => a.from <= a.to && addDays(a.from, 31) >= a.to, { message: 'from ≤ to, at most 31 days', path: ['to'] }),
  fields: [
    { name: 'from', type: 'day', required: true },
    { name: 'to', type: 'day', required: true },
  ],
  async run(sc, args) {
    let days = 0;
    for (let d = args.from; d <= args.to; d = addDays(d, 1)) {
      const hours = await hourlyFigures(sc.db, { all: true }, dayStart(d), dayStart(addDays(d, 1)));
      const sum = { turnover: 0, payouts: 0, ggr: 0, orders: 0, deposits: 0, withdrawals: 0 };
      for (const f of hours.values()) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += f[k];
      await sc.out(`${d}: orders ${sum.orders}, turnover ${sum.turnover}, payouts ${sum.payouts}, GGR ${sum.ggr}, deposits ${sum.deposits}, withdrawals ${sum.withdrawals} (cents)`);
      days++;
    }
    return { days };
  },
});
