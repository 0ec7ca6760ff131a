import { z } from 'zod';
import { and, eq, or, sql } from 'drizzle-orm';
import { answerRow, queryInt32 } from '@dau/contract';
import { isDay } from '@dau/domain';
import { AppError } from '../../../platform/errors.js';
import type { Executor } from '../../../platform/db.js';
import { defineList, optionalBigId, optionalInt, optionalText, type ExportColumn, type Scope } from '../../../platform/listing.js';
import { bettors, ofBettor } from '../../money/index.js';
import { orders } from '../../betting/index.js';
import { jackpotTickets } from '../../jackpot/index.js';
import { isMonth, monthOf } from './month.js';
import { PRODUCT, productName } from './products.js';
import { taxReturnBettors, taxReturnOrders, taxReturnProducts } from './schema.js';

/**
 * The stored return's lists (page `tax_returns`; their exports go through the exports module as background
 * jobs): the withholding tax per order or ticket and per bettor, and the Gaming Board's lines per product.
 * A return is the whole book's: a branch admin is refused (403 WHOLE_BOOK_ONLY), here and in exports.
 */
export const TAX_PAGE = 'tax_returns';

/** A month of Dar es Salaam, not in the future: what every route of the report takes. */
export const monthParam = z
  .string()
  .regex(/^\d{4}-\d{2}$/, 'a month as YYYY-MM')
  .refine(isMonth, 'a month as YYYY-MM, from 2000-01')
  .refine((m) => m <= monthOf(Date.now()), 'a month that has begun (Africa/Dar_es_Salaam)');

/** The whole book only: a branch sees a part of the book, never a return. */
export function wholeBookOnly(scope: Scope) {
  if (!scope.all) throw new AppError(403, 'WHOLE_BOOK_ONLY');
}

const productText = (v: unknown, _row: unknown, locale: string) => (typeof v === 'number' ? productName(v, locale) : null);
const iso = (d: Date | string | null) => (d === null ? null : (d instanceof Date ? d : new Date(d)).toISOString());

// ------------------------------------------------------------------------------------------ per order

const orderFilters = z.object({
  month: monthParam,
  /** One day of the month (YYYY-MM-DD): the rows of the tax that moved that day. */
  day: z.string().max(10).refine(isDay, 'a day as YYYY-MM-DD').optional(),
  product: queryInt32(1, 4).optional(),
  bettor_id: optionalInt,
  phone: optionalText,
  /** The order number or the jackpot ticket's serial number, exactly. */
  ref_no: optionalText,
  ref_id: optionalBigId,
});
type OrderFilters = z.infer<typeof orderFilters>;

export const whtOrderRow = answerRow({
  id: 'number', month: 'string', day: 'string', product: 'number', ref_id: 'number?', ref_no: 'string?', bettor_id: 'number?', phone: 'string?',
  tax: 'number', withheld: 'number', reversed: 'number', movements: 'number', last_at: 'string',
});

const o = taxReturnOrders;
export const whtOrders = defineList({
  name: 'tax_wht_orders',
  page: TAX_PAGE,
  path: '/api/v1/reports/tax/wht_orders',
  summary: "A month's withholding tax on winnings per sports order or jackpot ticket and day it moved (net of the day's reversals), from the stored return",
  filters: orderFilters,
  where: (q: OrderFilters, scope: Scope) => {
    wholeBookOnly(scope);
    return and(
      eq(o.month, q.month),
      q.day ? eq(o.day, q.day) : undefined,
      q.product ? eq(o.product, q.product) : undefined,
      ofBettor(o.bettorId as never, q),
      q.ref_no
        ? or(
            and(eq(o.product, PRODUCT.sports), sql`${o.refId} = (select ${orders.id} from ${orders} where ${orders.orderNo} = ${q.ref_no})`),
            and(eq(o.product, PRODUCT.jackpot), sql`${o.refId} in (select ${jackpotTickets.id} from ${jackpotTickets} where ${jackpotTickets.serialNumber} = ${q.ref_no})`),
          )
        : undefined,
      q.ref_id ? eq(o.refId, q.ref_id) : undefined,
    );
  },
  // The order number or the ticket's serial is read with the page (by primary key), not stored with the return.
  select: (ex: Executor) =>
    ex
      .select({ o, phone: bettors.phone, refNo: sql<string | null>`coalesce(${orders.orderNo}, ${jackpotTickets.serialNumber})` })
      .from(o)
      .leftJoin(bettors, eq(bettors.id, o.bettorId))
      .leftJoin(orders, and(eq(o.product, PRODUCT.sports), eq(orders.id, o.refId)))
      .leftJoin(jackpotTickets, and(eq(o.product, PRODUCT.jackpot), eq(jackpotTickets.id, o.refId))),
  countFrom: (ex: Executor) => ex.select({ id: o.id }).from(o),
  idColumn: o.id,
  sortable: { id: o.id, tax: o.tax, day: o.day, last_at: o.lastAt },
  defaultSort: '-tax',
  toRow: (r: { o: typeof o.$inferSelect; phone: string | null; refNo: string | null }) => ({
    id: r.o.id, month: r.o.month, day: r.o.day, product: r.o.product, ref_id: r.o.refId, ref_no: r.refNo, bettor_id: r.o.bettorId, phone: r.phone,
    tax: Number(r.o.tax), withheld: Number(r.o.withheld), reversed: Number(r.o.reversed), movements: r.o.movements, last_at: iso(r.o.lastAt)!,
  }),
  row: whtOrderRow,
  columns: [
    { key: 'month' }, { key: 'day' }, { key: 'product', text: productText }, { key: 'ref_no' }, { key: 'ref_id' }, { key: 'bettor_id' }, { key: 'phone' },
    { key: 'withheld', money: true }, { key: 'reversed', money: true }, { key: 'tax', money: true }, { key: 'movements' }, { key: 'last_at' },
  ] satisfies readonly ExportColumn[],
});

// ------------------------------------------------------------------------------------------ per bettor

const bettorFilters = z.object({ month: monthParam, bettor_id: optionalInt, phone: optionalText });
type BettorFilters = z.infer<typeof bettorFilters>;

export const whtBettorRow = answerRow({
  id: 'number', month: 'string', bettor_id: 'number?', phone: 'string?', user_name: 'string?', orders: 'number', tax: 'number', withheld: 'number', reversed: 'number',
});

const b = taxReturnBettors;
export const whtBettors = defineList({
  name: 'tax_wht_bettors',
  page: TAX_PAGE,
  path: '/api/v1/reports/tax/wht_bettors',
  summary: "A month's withholding tax on winnings per bettor (the sum of the bettor's orders and tickets), from the stored return",
  filters: bettorFilters,
  where: (q: BettorFilters, scope: Scope) => {
    wholeBookOnly(scope);
    return and(eq(b.month, q.month), ofBettor(b.bettorId as never, q));
  },
  select: (ex: Executor) => ex.select({ b, phone: bettors.phone, name: bettors.name }).from(b).leftJoin(bettors, eq(bettors.id, b.bettorId)),
  countFrom: (ex: Executor) => ex.select({ id: b.id }).from(b),
  idColumn: b.id,
  sortable: { id: b.id, tax: b.tax, orders: b.orders, bettor_id: b.bettorId },
  defaultSort: '-tax',
  toRow: (r: { b: typeof b.$inferSelect; phone: string | null; name: string | null }) => ({
    id: r.b.id, month: r.b.month, bettor_id: r.b.bettorId, phone: r.phone, user_name: r.name, orders: r.b.orders,
    tax: Number(r.b.tax), withheld: Number(r.b.withheld), reversed: Number(r.b.reversed),
  }),
  row: whtBettorRow,
  columns: [
    { key: 'month' }, { key: 'bettor_id' }, { key: 'phone' }, { key: 'user_name' }, { key: 'orders' }, { key: 'withheld', money: true },
    { key: 'reversed', money: true }, { key: 'tax', money: true },
  ] satisfies readonly ExportColumn[],
});

// ------------------------------------------------------------------------------------------ per product

const productFilters = z.object({ month: monthParam });
type ProductFilters = z.infer<typeof productFilters>;

export const gamingRow = answerRow({
  id: 'number', month: 'string', product: 'number', stakes: 'number', payouts: 'number', ggr: 'number', rate_bps: 'number',
  rate_effective_month: 'string', gaming_tax: 'number', wht: 'number',
});
export const toGamingRow = (p: typeof taxReturnProducts.$inferSelect) => ({
  id: p.product, month: p.month, product: p.product, stakes: Number(p.stakes), payouts: Number(p.payouts), ggr: Number(p.ggr), rate_bps: p.rateBps,
  rate_effective_month: p.rateEffectiveMonth, gaming_tax: Number(p.gamingTax), wht: Number(p.wht),
});

const p = taxReturnProducts;
export const gamingReturn = defineList({
  name: 'tax_gaming_return',
  page: TAX_PAGE,
  path: '/api/v1/reports/tax/gaming_return',
  summary: "The Gaming Board's monthly return per product (stakes, payouts, GGR, the rate in force, the gaming tax), from the stored return",
  filters: productFilters,
  where: (q: ProductFilters, scope: Scope) => {
    wholeBookOnly(scope);
    return eq(p.month, q.month);
  },
  select: (ex: Executor) => ex.select().from(p),
  idColumn: p.product,
  sortable: { id: p.product, product: p.product, ggr: p.ggr },
  defaultSort: 'product',
  toRow: toGamingRow,
  row: gamingRow,
  columns: [
    { key: 'month' }, { key: 'product', text: productText }, { key: 'stakes', money: true }, { key: 'payouts', money: true }, { key: 'ggr', money: true },
    { key: 'rate_bps' }, { key: 'rate_effective_month' }, { key: 'gaming_tax', money: true }, { key: 'wht', money: true },
  ] satisfies readonly ExportColumn[],
});
