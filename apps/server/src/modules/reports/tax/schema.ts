// Tables of the tax report (issue 30): the gaming tax rates with the month each takes effect, each day's
// pieces (the withholding tax per order or ticket, the product figures) and each month's return as it was
// assembled from them (header, the Gaming Board's lines per product, the withholding tax per bettor).
// Migrations 0044_tax_returns.sql, 0047_tax_days.sql.
import { bigint, bigserial, boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * The Gaming Board's tax rate per product (basis points of GGR), as a schedule: each row holds the four
 * rates in force from its month (YYYY-MM, Africa/Dar_es_Salaam) until the next row's. A row is written only
 * through the whole-book setting `gaming_tax_rates`, which waits for a second admin; its month is never
 * before the month it was asked in, so the rate of a month already over never changes (a past return keeps
 * the rate it was filed with).
 */
export const gamingTaxRates = pgTable('gaming_tax_rates', {
  effectiveMonth: text('effective_month').primaryKey(),
  sportsBps: integer('sports_bps').notNull(),
  jackpotBps: integer('jackpot_bps').notNull(),
  casinoBps: integer('casino_bps').notNull(),
  racingBps: integer('racing_bps').notNull(),
  /** Who asked and who approved (null: the migration's defaults). */
  requestedBy: integer('requested_by'),
  approvedBy: integer('approved_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * One month's return as computed from the ledger (a durable job). `run` counts the requests: a job
 * computes only the run it was queued for, so a later request supersedes an earlier one. `final`: computed
 * after the month ended, when no movement can fall into it any more.
 */
export const taxReturns = pgTable('tax_returns', {
  month: text('month').primaryKey(),
  /** queued | computing | ready | failed */
  status: text('status').notNull(),
  run: integer('run').notNull().default(1),
  requestedBy: integer('requested_by'),
  requestedAt: ts('requested_at').notNull().defaultNow(),
  computedAt: ts('computed_at'),
  final: boolean('final').notNull().default(false),
  /** Σ of the month's entries on the house account withholding_tax_payable (the tax bills), cents. */
  whtTotal: cents('wht_total').notNull().default(0),
  /** The part of it found on an order or ticket (the per-order rows sum to it). */
  whtAttributed: cents('wht_attributed').notNull().default(0),
  /** Tax movements whose order or ticket could not be found (kept as rows without one). */
  unattributed: integer('unattributed').notNull().default(0),
  orders: integer('orders').notNull().default(0),
  bettors: integer('bettors').notNull().default(0),
  error: text('error'),
});

/** The Gaming Board's monthly return: one row per product (1 sports, 2 jackpot, 3 casino, 4 virtual racing). */
export const taxReturnProducts = pgTable(
  'tax_return_products',
  {
    month: text('month').notNull(),
    product: smallint('product').notNull(),
    stakes: cents('stakes').notNull(),
    payouts: cents('payouts').notNull(),
    ggr: cents('ggr').notNull(),
    /** The rate in force for the month and the month its schedule row took effect. */
    rateBps: integer('rate_bps').notNull(),
    rateEffectiveMonth: text('rate_effective_month').notNull(),
    /** floor(max(GGR, 0) × rate / 10,000): no tax on a month the product lost. */
    gamingTax: cents('gaming_tax').notNull(),
    /** Withholding tax withheld on the product's winnings in the month (inside payouts). */
    wht: cents('wht').notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.product] })],
);

/**
 * The pieces a month's return is assembled from: one row per day of Dar es Salaam once that day's withholding
 * tax per order (tax_return_orders of the day) and its product figures (tax_day_products) are stored.
 * `final`: computed after the day ended (and a margin for transactions open at midnight), so never computed
 * again: a month's return computes only its days that are not final, then sums the stored days.
 */
export const taxDays = pgTable(
  'tax_days',
  {
    day: text('day').primaryKey(),
    month: text('month').notNull(),
    computedAt: ts('computed_at').notNull(),
    final: boolean('final').notNull(),
    /** Σ of the day's entries on withholding_tax_payable, cents. */
    whtTotal: cents('wht_total').notNull(),
    /** The part of it found on an order or ticket, and the movements no order could be found for. */
    whtAttributed: cents('wht_attributed').notNull(),
    unattributed: integer('unattributed').notNull(),
  },
  (t) => [index('tax_days_month').on(t.month, t.day)],
);

/** A day's figures per product (../products.ts): a month's Gaming Board lines are the sums of its days. */
export const taxDayProducts = pgTable(
  'tax_day_products',
  {
    day: text('day').notNull(),
    product: smallint('product').notNull(),
    stakes: cents('stakes').notNull(),
    payouts: cents('payouts').notNull(),
    wht: cents('wht').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.product] })],
);

/**
 * Withholding tax per sports order or jackpot ticket and day (net of the day's reversals): a row per day the
 * order's tax moved, so an order resettled on a later day has a row on each of those days.
 */
export const taxReturnOrders = pgTable(
  'tax_return_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    month: text('month').notNull(),
    /** The day of Dar es Salaam the tax moved (YYYY-MM-DD). */
    day: text('day').notNull(),
    product: smallint('product').notNull(),
    /** The order's id (sports) or the ticket's (jackpot); null for a movement no order could be found for. */
    refId: bigint('ref_id', { mode: 'number' }),
    bettorId: integer('bettor_id'),
    /** Net tax of the month; withheld (its positive movements) and reversed (its negative ones, as a positive number). */
    tax: cents('tax').notNull(),
    withheld: cents('withheld').notNull(),
    reversed: cents('reversed').notNull(),
    movements: integer('movements').notNull(),
    lastAt: ts('last_at').notNull(),
  },
  (t) => [index('tax_return_orders_month').on(t.month, t.tax, t.id), index('tax_return_orders_bettor').on(t.month, t.bettorId), index('tax_return_orders_day').on(t.day)],
);

/** Withholding tax of a month per bettor. */
export const taxReturnBettors = pgTable(
  'tax_return_bettors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    month: text('month').notNull(),
    bettorId: integer('bettor_id'),
    orders: integer('orders').notNull(),
    tax: cents('tax').notNull(),
    withheld: cents('withheld').notNull(),
    reversed: cents('reversed').notNull(),
  },
  (t) => [index('tax_return_bettors_month').on(t.month, t.bettorId), index('tax_return_bettors_tax').on(t.month, t.tax, t.id)],
);
