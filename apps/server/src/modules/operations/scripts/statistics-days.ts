import { z } from 'zod';
import { addDays, dayStart, hourlyFigures, isDay } from '../../statistics/index.js';
import { diffHours, rebuildHours, HOUR_COLUMNS, type HourDiff } from '../../statistics/index.js';
import { defineScript } from './types.js';

const day = z.string().refine(isDay, 'a day YYYY-MM-DD');

/**
 * Rebuilds the stored betting figures (`stats_hourly`, kept by deltas in the betting service's
 * transactions) of a range of Dar es Salaam days from the orders and their settlement, rollback and
 * cashout events (statistics/rebuild.ts), then prints each day's figures. The dry run prints the hours
 * whose stored row differs from the rebuilt one; the real run replaces the range's rows in one
 * transaction. Deposits, withdrawals and registrations are read from their own tables, never stored.
 */
export const statisticsDays = defineScript({
  name: 'statistics-days',
  version: 2,
  dangerous: false,
  changesData: true,
  args: z
    .strictObject({ from: day, to: day })
    // Days that are not days are refused by their own fields (never a RangeError here).
    .refine((a) => !isDay(a.from) || !isDay(a.to) || (a.from <= a.to && addDays(a.from, 31) >= a.to), { message: 'from ≤ to, at most 31 days', path: ['to'] }),
  fields: [
    { name: 'from', type: 'day', required: true },
    { name: 'to', type: 'day', required: true },
  ],
  async run(sc, args) {
    const from = dayStart(args.from);
    const to = dayStart(addDays(args.to, 1));
    let diff: HourDiff[];
    let rows = 0;
    if (sc.dryRun) diff = await diffHours(sc.db, from, to);
    else ({ diff, rows } = await rebuildHours(sc.db, from, to));
    for (const d of diff.slice(0, 200)) {
      const changed = HOUR_COLUMNS.filter((c) => d.stored[c] !== d.rebuilt[c]).map((c) => `${c} ${d.stored[c]} → ${d.rebuilt[c]}`);
      await sc.out(`${sc.dryRun ? 'would fix' : 'fixed'} ${d.hour} agent ${d.agent_id}: ${changed.join(', ')}`);
    }
    if (diff.length > 200) await sc.out(`… and ${diff.length - 200} more hour(s)`);
    await sc.out(diff.length ? `${diff.length} hour row(s) ${sc.dryRun ? 'differ from the orders' : `replaced (${rows} row(s) written)`}` : 'the stored figures match the orders');
    let days = 0;
    for (let d = args.from; d <= args.to; d = addDays(d, 1)) {
      const hours = await hourlyFigures(sc.db, { all: true }, dayStart(d), dayStart(addDays(d, 1)));
      const sum = { turnover: 0, payouts: 0, ggr: 0, orders: 0, deposits: 0, withdrawals: 0 };
      for (const f of hours.values()) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += f[k];
      await sc.out(`${d}: orders ${sum.orders}, turnover ${sum.turnover}, payouts ${sum.payouts}, GGR ${sum.ggr}, deposits ${sum.deposits}, withdrawals ${sum.withdrawals} (cents)${sc.dryRun && diff.length ? ' as stored' : ''}`);
      days++;
    }
    return { days, differing_hours: diff.length, rebuilt: !sc.dryRun && diff.length > 0 };
  },
});
