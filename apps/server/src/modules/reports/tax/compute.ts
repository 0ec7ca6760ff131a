/**
 * A month's tax return, computed from the ledger in set-based statements and stored (tables in ./schema.ts):
 *
 * - **Withholding tax (TRA).** The tax bills are the month's entries on the house account
 *   `withholding_tax_payable`: settlement and cashout move the tax there from `payouts` (bill types 2, and
 *   8 when a resettlement or rollback takes it back), jackpot settlement from `jackpot_pool` (3, 5). Each
 *   entry is put on its order or ticket through its journal transaction (the bills of the same `txn_id`,
 *   caused by the order or ticket), and on the order's or ticket's bettor. So the per-order rows, the
 *   per-bettor rows and the total are the same entries summed three ways: they agree to the cent. An entry
 *   whose transaction has no bill (a jackpot resettlement whose prize stays above the cap) keeps its amount
 *   on a row without an order, counted in `unattributed`.
 * - **Gaming Board.** Per product the stakes and payouts of the month's bills (../products.ts says which),
 *   GGR, the rate in force for the month (./rates.ts) and the gaming tax on it.
 *
 * The month is a calendar month of Africa/Dar_es_Salaam. Entries and bills are dated by their transaction,
 * so a month that is over never changes: its return computed after its end is `final`.
 */
import { and, eq, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE } from '@dau/domain';
import type { Db, Executor } from '../../../platform/db.js';
import { HOUSE, houseEntries, ledgerBills } from '../../money/index.js';
import { monthRange } from './month.js';
import { PRODUCT, PRODUCT_KEYS, WHT_BILL_TYPES } from './products.js';
import { PRODUCT_CAUSES, billGroups, houseSums, productSums } from '../products.js';
import { bpsOf, gamingTaxCents, ratesFor } from './rates.js';
import { taxReturnBettors, taxReturnOrders, taxReturnProducts, taxReturns } from './schema.js';

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
 * The month's withholding tax per order or ticket and its bettor, into `tax_return_orders`. Each tax entry
 * finds its order or ticket and bettor through its journal transaction's bills (one group per transaction):
 * the bettor of a payout bill (2, 3, 5), else of a bill 8 (a transaction that takes an inviter's reward back
 * and changes the tax always has the winner's payout bill too, so a bill 8 alone is the bettor's own).
 * Built as a temporary table first: PostgreSQL may read for it with parallel workers, never for an INSERT.
 */
async function writeOrders(tx: Executor, month: string, from: Date, to: Date) {
  const h = houseEntries;
  const ledger = await ledgerBills(tx);
  const T = BILL_TYPE;
  await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
  await tx.execute(sql`
    CREATE TEMPORARY TABLE tax_month_orders ON COMMIT DROP AS
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
  // In the order of the lists' index (month, tax, id): its pages are appended to, not written all over.
  await tx.execute(sql`
    INSERT INTO tax_return_orders (month, product, ref_id, bettor_id, tax, withheld, reversed, movements, last_at)
    SELECT ${month}::text, product, ref_id, bettor_id, tax, withheld, reversed, movements, last_at FROM tax_month_orders ORDER BY tax`);
  await tx.execute(sql`
    INSERT INTO tax_return_bettors (month, bettor_id, orders, tax, withheld, reversed)
    SELECT ${month}::text, bettor_id, count(ref_id), sum(tax), sum(withheld), sum(reversed) FROM tax_month_orders GROUP BY bettor_id ORDER BY 4`);
  await tx.execute(sql`DROP TABLE tax_month_orders`);
}

/** Thrown when a newer request for the month replaced the run being computed (the newer one computes it). */
export class Superseded extends Error {}

/**
 * Computes and stores the return of `month` for request `run` (tax_returns.run): the month's rows replaced
 * in one transaction, the header `ready`. A run that is no longer the month's latest stops without writing.
 */
export async function computeReturn(db: Db, month: string, run: number, now = new Date()): Promise<void> {
  const { from, to } = monthRange(month);
  const started = await db
    .update(taxReturns)
    .set({ status: 'computing', error: null })
    .where(and(eq(taxReturns.month, month), eq(taxReturns.run, run)))
    .returning({ month: taxReturns.month });
  if (!started.length) throw new Superseded();
  // One snapshot for every statement (REPEATABLE READ): the rows, the totals and the products are of the same
  // instant, so they agree even while the month is still taking movements. Two runs of a month never both
  // commit: the header's run decides, and a header changed since the snapshot fails the older one.
  await db.transaction(async (tx) => {
    await tx.delete(taxReturnOrders).where(eq(taxReturnOrders.month, month));
    await tx.delete(taxReturnBettors).where(eq(taxReturnBettors.month, month));
    await tx.delete(taxReturnProducts).where(eq(taxReturnProducts.month, month));
    await writeOrders(tx, month, from, to);
    const rates = await ratesFor(tx, month);
    const figures = await productFigures(tx, from, to);
    await tx.insert(taxReturnProducts).values(
      figures.map((f) => {
        const key = PRODUCT_KEYS.find((k) => PRODUCT[k] === f.product)!;
        const ggr = f.stakes - f.payouts;
        const bps = bpsOf(rates, key);
        return { month, product: f.product, stakes: f.stakes, payouts: f.payouts, ggr, rateBps: bps, rateEffectiveMonth: rates.effectiveMonth, gamingTax: gamingTaxCents(ggr, bps), wht: f.wht };
      }),
    );
    const [tot] = await rowsOf<{ total: string | null }>(
      tx,
      sql`SELECT sum(${houseEntries.amount}) AS total FROM ${houseEntries}
          WHERE ${houseEntries.account} = ${HOUSE.taxPayable} AND ${houseEntries.createdAt} >= ${at(from)} AND ${houseEntries.createdAt} < ${at(to)}`,
    );
    const [sums] = await rowsOf<{ attributed: string | null; unattributed: string | null; orders: string; bettors: string }>(
      tx,
      sql`SELECT sum(tax) FILTER (WHERE bettor_id IS NOT NULL) AS attributed, sum(movements) FILTER (WHERE bettor_id IS NULL) AS unattributed,
            count(*) FILTER (WHERE bettor_id IS NOT NULL) AS orders, count(DISTINCT bettor_id) AS bettors
          FROM tax_return_orders WHERE month = ${month}`,
    );
    const done = await tx
      .update(taxReturns)
      .set({
        status: 'ready', computedAt: now, final: now.getTime() >= to.getTime(), whtTotal: n(tot?.total), whtAttributed: n(sums?.attributed),
        unattributed: n(sums?.unattributed), orders: n(sums?.orders), bettors: n(sums?.bettors), error: null,
      })
      .where(and(eq(taxReturns.month, month), eq(taxReturns.run, run)))
      .returning({ month: taxReturns.month });
    if (!done.length) throw new Superseded();
  }, { isolationLevel: 'repeatable read' });
}
