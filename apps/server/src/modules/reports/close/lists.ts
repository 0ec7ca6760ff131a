import { z } from 'zod';
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { isDay, localDay } from '@dau/domain';
import { CLOSE_PRODUCTS, CLOSE_ROW_PAY_TYPES, CLOSE_ROW_PRODUCT_FIGURES, answerRow, text } from '@dau/contract';
import { admins } from '../../../platform/schema.js';
import { defineList, type ExportColumn, type Scope } from '../../../platform/listing.js';
import type { Executor } from '../../../platform/db.js';
import type { CloseOperator, CloseProduct } from './figures.js';
import { dailyCloses as dc } from './schema.js';

/**
 * The daily close's list (screen `daily_close`, and its export through the exports module): one row per
 * closed day, its latest run, with the main figures, how many runs the day has, the same figures the day
 * before and a week before (day-over-day and week-over-week), and the per-product and per-operator
 * figures for the export. Closes are the whole book's: a branch admin's scope sees none (the routes that
 * read one day or run a close refuse a branch admin outright: WHOLE_BOOK_ONLY).
 */

export const wholeBook = (scope: Scope) => (scope.all ? undefined : sql`false`);

/** A day filter: a day (YYYY-MM-DD), or an instant as the search form sends it (its Dar es Salaam day). */
const dayFilter = text(40)
  .refine((s) => isDay(s) || !Number.isNaN(Date.parse(s)), 'a day (YYYY-MM-DD) or an ISO date-time')
  .transform((s) => (isDay(s) ? s : localDay(new Date(s))))
  .optional();
const flag = z.enum(['true', 'false']).optional();

const closeFilters = z.object({ day_from: dayFilter, day_to: dayFilter, ledger_ok: flag, differs: flag });
type CloseFilters = z.infer<typeof closeFilters>;

/** The figures compared day over day and week over week. */
const BASE_FIGURES = ['stakes', 'payouts', 'ggr', 'bonuses', 'ngr', 'tax', 'deposits', 'withdrawals', 'liability', 'open_payout'] as const;
const baseline = z.object(Object.fromEntries(BASE_FIGURES.map((k) => [k, z.number()])) as Record<(typeof BASE_FIGURES)[number], z.ZodNumber>);

const productColumns = CLOSE_PRODUCTS.flatMap((p) => CLOSE_ROW_PRODUCT_FIGURES.map((k) => `${p}_${k}`));
const operatorColumns = CLOSE_ROW_PAY_TYPES.flatMap((p) => [`deposits_${p}`, `withdrawals_${p}`]);

export const closeListRow = answerRow({
  id: 'number', day: 'string', run: 'number', runs: 'number', source: 'string', created_by_account: 'string?', stakes: 'number', payouts: 'number',
  ggr: 'number', bonuses: 'number', ngr: 'number', tax: 'number', deposits: 'number', withdrawals: 'number', liability: 'number', liability_cash: 'number',
  liability_credit: 'number', open_orders: 'number', open_payout: 'number', ledger_ok: 'boolean', ledger_problems: 'number', differs: 'boolean',
  create_time: 'string',
}).extend({
  ...Object.fromEntries([...productColumns, ...operatorColumns].map((k) => [k, z.number()])),
  /** The same figures on the day before and a week before (their latest runs), null when not closed. */
  day_before: baseline.nullable(),
  week_before: baseline.nullable(),
});

const runsOf = sql<number>`(select count(*)::int from daily_closes r where r.day = ${dc.day})`;
/** The day's latest run (the others are its history, shown in the day's detail). */
const latest = sql`not exists (select 1 from daily_closes n where n.day = ${dc.day} and n.run > ${dc.run})`;
const baselineOf = (days: number) => sql<Record<string, string | number> | null>`(
  select jsonb_build_object('stakes', p.stakes, 'payouts', p.payouts, 'ggr', p.ggr, 'bonuses', p.bonuses, 'ngr', p.ngr, 'tax', p.tax, 'deposits', p.deposits,
    'withdrawals', p.withdrawals, 'liability', p.liability_cash + p.liability_credit, 'open_payout', p.open_payout)
  from daily_closes p where p.day = ${dc.day} - ${days}::int order by p.run desc limit 1)`;

export const selectCloses = (ex: Executor) =>
  ex
    .select({
      c: {
        id: dc.id, day: dc.day, run: dc.run, source: dc.source, stakes: dc.stakes, payouts: dc.payouts, ggr: dc.ggr, bonuses: dc.bonuses, ngr: dc.ngr, tax: dc.tax,
        deposits: dc.deposits, withdrawals: dc.withdrawals, liabilityCash: dc.liabilityCash, liabilityCredit: dc.liabilityCredit, openOrders: dc.openOrders,
        openPayout: dc.openPayout, ledgerOk: dc.ledgerOk, ledgerProblems: dc.ledgerProblems, createdAt: dc.createdAt,
      },
      account: admins.account,
      runs: runsOf,
      products: sql<Record<string, CloseProduct>>`${dc.figures} -> 'products'`,
      operators: sql<CloseOperator[]>`${dc.figures} -> 'payments' -> 'operators'`,
      dayBefore: baselineOf(1),
      weekBefore: baselineOf(7),
    })
    .from(dc)
    .leftJoin(admins, eq(admins.id, dc.createdBy));

type CloseSel = {
  c: Pick<typeof dc.$inferSelect, 'id' | 'day' | 'run' | 'source' | 'stakes' | 'payouts' | 'ggr' | 'bonuses' | 'ngr' | 'tax' | 'deposits' | 'withdrawals' | 'liabilityCash' | 'liabilityCredit' | 'openOrders' | 'openPayout' | 'ledgerOk' | 'ledgerProblems' | 'createdAt'>;
  account: string | null;
  runs: number | string;
  products: Record<string, CloseProduct> | null;
  operators: CloseOperator[] | null;
  dayBefore: Record<string, string | number> | null;
  weekBefore: Record<string, string | number> | null;
};

const numbers = (o: Record<string, string | number> | null) => (o ? Object.fromEntries(BASE_FIGURES.map((k) => [k, Number(o[k] ?? 0)])) : null);

export const toCloseRow = (x: CloseSel) => {
  const row: Record<string, unknown> = {
    id: x.c.id, day: x.c.day, run: x.c.run, runs: Number(x.runs), source: x.c.source, created_by_account: x.account, stakes: x.c.stakes, payouts: x.c.payouts,
    ggr: x.c.ggr, bonuses: x.c.bonuses, ngr: x.c.ngr, tax: x.c.tax, deposits: x.c.deposits, withdrawals: x.c.withdrawals,
    liability: x.c.liabilityCash + x.c.liabilityCredit, liability_cash: x.c.liabilityCash, liability_credit: x.c.liabilityCredit, open_orders: x.c.openOrders,
    open_payout: x.c.openPayout, ledger_ok: x.c.ledgerOk, ledger_problems: x.c.ledgerProblems, differs: Number(x.runs) > 1, create_time: x.c.createdAt.toISOString(),
    day_before: numbers(x.dayBefore), week_before: numbers(x.weekBefore),
  };
  for (const p of CLOSE_PRODUCTS) for (const k of CLOSE_ROW_PRODUCT_FIGURES) row[`${p}_${k}`] = Number(x.products?.[p]?.[k] ?? 0);
  for (const p of CLOSE_ROW_PAY_TYPES) {
    const o = x.operators?.find((r) => r.pay_type === p);
    row[`deposits_${p}`] = Number(o?.deposits ?? 0);
    row[`withdrawals_${p}`] = Number(o?.withdrawals ?? 0);
  }
  return row;
};

const CLOSE_COLUMNS: readonly ExportColumn[] = [
  { key: 'day' }, { key: 'run' }, { key: 'runs' },
  ...['stakes', 'payouts', 'ggr', 'bonuses', 'ngr', 'tax', 'deposits', 'withdrawals', 'liability', 'liability_cash', 'liability_credit'].map((key) => ({ key, money: true })),
  { key: 'open_orders' }, { key: 'open_payout', money: true }, { key: 'ledger_ok' }, { key: 'ledger_problems' },
  ...productColumns.map((key) => ({ key, money: true })),
  ...operatorColumns.map((key) => ({ key, money: true })),
  { key: 'source' }, { key: 'created_by_account' }, { key: 'create_time' },
];

export const closeListSpec = defineList({
  name: 'daily_close',
  page: 'daily_close',
  path: '/api/v1/reports/daily_closes',
  summary: 'List the closed business days (each its latest run) with their main figures and how they changed day over day and week over week',
  filters: closeFilters,
  where: (q: CloseFilters, scope: Scope): SQL | undefined =>
    and(
      wholeBook(scope),
      latest,
      q.day_from ? gte(dc.day, q.day_from) : undefined,
      q.day_to ? lte(dc.day, q.day_to) : undefined,
      q.ledger_ok ? eq(dc.ledgerOk, q.ledger_ok === 'true') : undefined,
      q.differs === 'true' ? sql`${runsOf} > 1` : q.differs === 'false' ? sql`${runsOf} = 1` : undefined,
    ),
  select: selectCloses,
  countFrom: (ex: Executor) => ex.select({ id: dc.id }).from(dc),
  idColumn: dc.id,
  sortable: { day: dc.day, stakes: dc.stakes, ggr: dc.ggr, ngr: dc.ngr, liability: sql`${dc.liabilityCash} + ${dc.liabilityCredit}` },
  defaultSort: '-day',
  toRow: toCloseRow,
  row: closeListRow,
  columns: CLOSE_COLUMNS,
});
