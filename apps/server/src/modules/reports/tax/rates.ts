import { desc, lte } from 'drizzle-orm';
import type { Executor } from '../../../platform/db.js';
import { gamingTaxRates } from './schema.js';
import type { ProductKey } from './products.js';

/**
 * The Gaming Board's tax rates as a schedule (table gaming_tax_rates): a month's return uses the row of the
 * latest effective month not after it. A new row (or a change of a row not yet in force) is asked through
 * PUT /reports/tax/gaming_rates, which waits for a second whole-book admin; its month may not be before the
 * month it is asked in (Dar es Salaam), so a month already over keeps its rate whatever is changed later.
 */
export type RateRow = typeof gamingTaxRates.$inferSelect;

export const bpsOf = (r: RateRow, p: ProductKey) => ({ sports: r.sportsBps, jackpot: r.jackpotBps, casino: r.casinoBps, racing: r.racingBps })[p];

/** The rates in force in `month` (the migration's row from 2000-01 always exists). */
export async function ratesFor(ex: Executor, month: string): Promise<RateRow> {
  const [row] = await ex.select().from(gamingTaxRates).where(lte(gamingTaxRates.effectiveMonth, month)).orderBy(desc(gamingTaxRates.effectiveMonth)).limit(1);
  if (!row) throw new Error(`no gaming tax rate in force in ${month}`);
  return row;
}

/** Every row of the schedule, the latest first. */
export const rateSchedule = (ex: Executor) => ex.select().from(gamingTaxRates).orderBy(desc(gamingTaxRates.effectiveMonth));

/** Gaming tax of a month's GGR at a rate: none on a loss; rounded down to the cent (exact: BigInt). */
export const gamingTaxCents = (ggrCents: number, bps: number) => (ggrCents > 0 ? Number((BigInt(ggrCents) * BigInt(bps)) / 10_000n) : 0);
