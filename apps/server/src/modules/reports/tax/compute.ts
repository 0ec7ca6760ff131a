/**
 * A month's tax return, computed from the ledger in set-based statements and stored (tables in ./schema.ts).
 * It is assembled from days: each day of Dar es Salaam is computed once after it ended (the periodic
 * `reports.tax-days` after midnight, or the month's run for a day not computed yet) and kept, so the return
 * of a month at its end computes at most its last days and sums the rest.
 *
 * - **Withholding tax (TRA).** The tax bills are the entries on the house account `withholding_tax_payable`:
 *   settlement and cashout move the tax there from `payouts` (bill types 2, and 8 when a resettlement or
 *   rollback takes it back), jackpot settlement from `jackpot_pool` (3, 5). Each entry is put on its order or
 *   ticket through its journal transaction (the bills of the same `txn_id`, caused by the order or ticket),
 *   and on the order's or ticket's bettor: a row per order and day. The per-bettor rows are the month's
 *   order rows summed, the total the days' tax entries: the same entries summed three ways, so they agree to
 *   the cent. An entry whose transaction has no bill (a jackpot resettlement whose prize stays above the cap)
 *   keeps its amount on a row without an order, counted in `unattributed`.
 * - **Gaming Board.** Per product the stakes and payouts of the day's bills (../products.ts says which), summed
 *   over the month's days; GGR, the rate in force for the month (./rates.ts) and the gaming tax on it.
 *
 * Entries and bills are dated by their transaction, so a day or a month that is over never changes: a day
 * computed after its end is `final`, and so is a month's return computed after the month's.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, addDays, dayStart, localDay } from '@dau/domain';
import type { Db, Executor } from '../../../platform/db.js';
import { HOUSE, houseEntries, ledgerBills } from '../../money/index.js';
import { monthRange } from './month.js';
import { PRODUCT, PRODUCT_KEYS, WHT_BILL_TYPES } from './products.js';
import { PRODUCT_CAUSES, billGroups, houseSums, productSums } from '../products.js';
import { bpsOf, gamingTaxCents, ratesFor } from './rates.js';
import { taxDayProducts, taxDays, taxReturnBettors, taxReturnOrders, taxReturnProducts, taxReturns } from './schema.js';

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(ex: Executor, q: ReturnType<typeof sql>) => ((await ex.execute(q)) as unknown as Rows<T>).rows;
const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const list = (xs: readonly number[]) => sql.join(xs.map((x) => sql`${x}`), sql`, `);
/** An instant as a parameter both drivers read the same way. */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The figures of the Gaming Board's return per product, from the month's bills and journal lines (../products.ts). */
export interface ProductFigures {
  product: number;
  stakes: number;
  payouts: number;
  wht: number;
}

export async function productFigures(ex: Executor, from: Date, to: Date): Promise<ProductFigures[]> {
  const ledger = await ledgerBills(ex);
  const sums = productSums(await billGroups(ex, ledger, from, to, PRODUCT_CAUSES), await houseSums(ex, from, to));
  return PRODUCT_KEYS.map((k) => ({ product: PRODUCT[k], stakes: sums[k].stakes, payouts: sums[k].payouts, wht: sums[k].tax }));
}

/**
 * A day's withholding tax per order or ticket and its bettor, into `tax_return_orders`. Each tax entry
 * finds its order or ticket and bettor through its journal transaction's bills (one group per transaction):
 * the bettor of a payout bill (2, 3, 5), else of a bill 8 (a transaction that takes an inviter's reward back
 * and changes the tax always has the winner's payout bill too, so a bill 8 alone is the bettor's own).
 * Built as a temporary table first: PostgreSQL may read for it with parallel workers, never for an INSERT.
 */
async function writeOrders(tx: Executor, day: string, from: Date, to: Date) {
  const h = houseEntries;
  const ledger = await ledgerBills(tx);
  const T = BILL_TYPE;
  await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
  await tx.execute(sql`
    CREATE TEMPORARY TABLE tax_day_orders ON COMMIT DROP AS
    WITH c AS (
      SELECT b.txn_id, min(b.cause_type) AS cause_type, min(b.cause_id) AS cause_id,
             coalesce(min(b.bettor_id) FILTER (WHERE b.type <> ${T.amount_rolled_back}), min(b.bettor_id)) AS bettor_id
      FROM ${ledger} b
      WHERE b.created_at >= ${at(from)} AND b.created_at < ${at(to)} AND b.account_kind = ${ACCOUNT_KIND.cash}
        AND b.type IN (${list([T.bet_payout, T.jackpot_payment, T.jackpot_result_change, T.amount_rolled_back])}) AND b.cause_type IN ('order', 'jackpot')
      GROUP BY b.txn_id
    )
    SELECT (CASE WHEN c.cause_type = 'jackpot' OR (c.cause_type IS NULL AND ${h.billType} IN (${list(WHT_BILL_TYPES.jackpot)}))
              THEN ${PRODUCT.jackpot} ELSE ${PRODUCT.sports} END)::smallint AS product,
           CASE WHEN c.cause_id ~ '^[0-9]{1,18}$' THEN c.cause_id::bigint END AS ref_id, c.bettor_id,
           sum(${h.amount}) AS tax, sum(greatest(${h.amount}, 0)) AS withheld, sum(greatest(-${h.amount}, 0)) AS reversed,
           count(*)::integer AS movements, max(${h.createdAt}) AS last_at
    FROM ${h} LEFT JOIN c ON c.txn_id = ${h.txnId}
    WHERE ${h.account} = ${HOUSE.taxPayable} AND ${h.createdAt} >= ${at(from)} AND ${h.createdAt} < ${at(to)}
    GROUP BY 1, 2, 3`);
  await tx.execute(sql`
    INSERT INTO tax_return_orders (month, day, product, ref_id, bettor_id, tax, withheld, reversed, movements, last_at)
    SELECT ${day.slice(0, 7)}::text, ${day}::text, product, ref_id, bettor_id, tax, withheld, reversed, movements, last_at FROM tax_day_orders ORDER BY tax`);
  const [sums] = await rowsOf<{ attributed: string | null; unattributed: string | null }>(
    tx,
    sql`SELECT sum(tax) FILTER (WHERE bettor_id IS NOT NULL) AS attributed, sum(movements) FILTER (WHERE bettor_id IS NULL) AS unattributed FROM tax_day_orders`,
  );
  await tx.execute(sql`DROP TABLE tax_day_orders`);
  return { whtAttributed: n(sums?.attributed), unattributed: n(sums?.unattributed) };
}

/**
 * A day is final once computed this long after its end: a money transaction open at midnight has committed by
 * then, and every movement is dated by its transaction, so nothing can fall into the day any more.
 */
export const FINAL_AFTER_MS = 5 * 60_000;

const dayRange = (day: string) => ({ from: dayStart(day), to: dayStart(addDays(day, 1)) });

/**
 * Computes and stores one day's pieces (its per-order rows, its product figures, its tax total) in the
 * caller's transaction, replacing what the day had. The upsert of `tax_days` comes last: when another
 * transaction stored the day since this one's snapshot, it fails (a serialization error) and the whole
 * transaction with it, so a day's rows are never written twice; the job runs again.
 */
export async function computeDay(tx: Executor, day: string, now: Date): Promise<void> {
  const { from, to } = dayRange(day);
  await tx.delete(taxReturnOrders).where(eq(taxReturnOrders.day, day));
  await tx.delete(taxDayProducts).where(eq(taxDayProducts.day, day));
  const attributed = await writeOrders(tx, day, from, to);
  const figures = await productFigures(tx, from, to);
  await tx.insert(taxDayProducts).values(figures.map((f) => ({ day, product: f.product, stakes: f.stakes, payouts: f.payouts, wht: f.wht })));
  const [tot] = await rowsOf<{ total: string | null }>(
    tx,
    sql`SELECT sum(${houseEntries.amount}) AS total FROM ${houseEntries}
        WHERE ${houseEntries.account} = ${HOUSE.taxPayable} AND ${houseEntries.createdAt} >= ${at(from)} AND ${houseEntries.createdAt} < ${at(to)}`,
  );
  const row = { month: day.slice(0, 7), computedAt: now, final: now.getTime() >= to.getTime() + FINAL_AFTER_MS, whtTotal: n(tot?.total), ...attributed };
  await tx.insert(taxDays).values({ day, ...row }).onConflictDoUpdate({ target: taxDays.day, set: row });
}

/** The days of a month that have begun at `now`, in order. */
export function daysOf(month: string, now: Date): string[] {
  const out: string[] = [];
  const { to } = monthRange(month);
  for (let d = `${month}-01`; dayStart(d).getTime() < to.getTime() && dayStart(d).getTime() <= now.getTime(); d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * The pieces of the days before `now` that are not final yet, up to `back` days back (the periodic
 * `reports.tax-days`, after midnight): so a month's return at its end finds its days computed and only sums them.
 */
export async function computeRecentDays(db: Db, now = new Date(), back = 7): Promise<string[]> {
  const today = localDay(now);
  const days = Array.from({ length: back }, (_, k) => addDays(today, -(k + 1))).reverse();
  const done = new Set((await db.select({ day: taxDays.day }).from(taxDays).where(and(inArray(taxDays.day, days), eq(taxDays.final, true)))).map((r) => r.day));
  const computed: string[] = [];
  for (const day of days.filter((d) => !done.has(d))) {
    await db.transaction((tx) => computeDay(tx, day, now), { isolationLevel: 'repeatable read' });
    computed.push(day);
  }
  return computed;
}

/** Thrown when a newer request for the month replaced the run being computed (the newer one computes it). */
export class Superseded extends Error {}

/**
 * Computes and stores the return of `month` for request `run` (tax_returns.run), in one transaction: the
 * month's days that are not final are computed (./computeDay), then the per-bettor rows, the Gaming Board's
 * lines and the header are the sums of the stored days, and the header is `ready`. A run that is no longer
 * the month's latest stops without writing.
 */
export async function computeReturn(db: Db, month: string, run: number, now = new Date()): Promise<void> {
  const { to } = monthRange(month);
  const started = await db
    .update(taxReturns)
    .set({ status: 'computing', error: null })
    .where(and(eq(taxReturns.month, month), eq(taxReturns.run, run)))
    .returning({ month: taxReturns.month });
  if (!started.length) throw new Superseded();
  // One snapshot for every statement (REPEATABLE READ): the days, the rows, the totals and the products are
  // of the same instant, so they agree even while the month is still taking movements. Two runs of a month
  // never both commit: the header's run decides, and a header changed since the snapshot fails the older one.
  await db.transaction(async (tx) => {
    const final = new Set((await tx.select({ day: taxDays.day }).from(taxDays).where(and(eq(taxDays.month, month), eq(taxDays.final, true)))).map((r) => r.day));
    for (const day of daysOf(month, now)) if (!final.has(day)) await computeDay(tx, day, now);
    await tx.delete(taxReturnBettors).where(eq(taxReturnBettors.month, month));
    await tx.delete(taxReturnProducts).where(eq(taxReturnProducts.month, month));
    await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
    // Two hash aggregations (per order, then per bettor) rather than a count(DISTINCT), which sorts the month's rows.
    await tx.execute(sql`
      INSERT INTO tax_return_bettors (month, bettor_id, orders, tax, withheld, reversed)
      SELECT ${month}::text, bettor_id, count(ref_id), sum(tax), sum(withheld), sum(reversed)
      FROM (SELECT bettor_id, product, ref_id, sum(tax) AS tax, sum(withheld) AS withheld, sum(reversed) AS reversed
            FROM tax_return_orders WHERE month = ${month} GROUP BY bettor_id, product, ref_id) o
      GROUP BY bettor_id ORDER BY 4`);
    const rates = await ratesFor(tx, month);
    const figures = await rowsOf<{ product: number; stakes: string; payouts: string; wht: string }>(
      tx,
      sql`SELECT p.product, sum(p.stakes) AS stakes, sum(p.payouts) AS payouts, sum(p.wht) AS wht
          FROM ${taxDayProducts} p JOIN ${taxDays} d ON d.day = p.day WHERE d.month = ${month} GROUP BY p.product`,
    );
    await tx.insert(taxReturnProducts).values(
      PRODUCT_KEYS.map((key) => {
        const product = PRODUCT[key];
        const f = figures.find((x) => Number(x.product) === product);
        const stakes = n(f?.stakes);
        const payouts = n(f?.payouts);
        const ggr = stakes - payouts;
        const bps = bpsOf(rates, key);
        return { month, product, stakes, payouts, ggr, rateBps: bps, rateEffectiveMonth: rates.effectiveMonth, gamingTax: gamingTaxCents(ggr, bps), wht: n(f?.wht) };
      }),
    );
    const [tot] = await rowsOf<{ total: string | null; attributed: string | null; unattributed: string | null }>(
      tx,
      sql`SELECT sum(wht_total) AS total, sum(wht_attributed) AS attributed, sum(unattributed) AS unattributed FROM ${taxDays} WHERE month = ${month}`,
    );
    const [people] = await rowsOf<{ orders: string | null; bettors: string }>(
      tx,
      sql`SELECT sum(orders) AS orders, count(*) AS bettors FROM tax_return_bettors WHERE month = ${month} AND bettor_id IS NOT NULL`,
    );
    const done = await tx
      .update(taxReturns)
      .set({
        status: 'ready', computedAt: now, final: now.getTime() >= to.getTime() + FINAL_AFTER_MS, whtTotal: n(tot?.total), whtAttributed: n(tot?.attributed),
        unattributed: n(tot?.unattributed), orders: n(people?.orders), bettors: n(people?.bettors), error: null,
      })
      .where(and(eq(taxReturns.month, month), eq(taxReturns.run, run)))
      .returning({ month: taxReturns.month });
    if (!done.length) throw new Superseded();
  }, { isolationLevel: 'repeatable read' });
  // The lists are read at once: plan them from the rows just written (autovacuum would analyse them later,
  // and until then a bettor's rows were read by scanning the month's whole sort index).
  await db.execute(sql`ANALYZE tax_return_orders, tax_return_bettors`);
}
