import { defineResource, type FieldDef } from './resource.js';

/**
 * The daily close's list (issue 30; GET /reports/daily_closes, apps/server/src/modules/reports/close/lists.ts):
 * one row per closed business day, its latest run, with the main figures; per product and per operator in
 * the export and the detail. Background export type `daily_close`. The answer shapes are ./close-api.ts.
 */

/** The per-product figures a row carries (`<product>_<figure>`), in the export and the detail. */
export const CLOSE_ROW_PRODUCT_FIGURES = ['stakes', 'payouts', 'ggr', 'bonuses', 'ngr', 'tax'] as const;
/** The operators a row carries (`deposits_<pay type>`, `withdrawals_<pay type>`; 10 is USDT). */
export const CLOSE_ROW_PAY_TYPES = [3, 4, 6, 7, 10] as const;
/** The products a close reports, in the order the screens show them. */
export const CLOSE_PRODUCTS = ['sports', 'jackpot', 'casino', 'racing'] as const;
export type CloseProductKey = (typeof CLOSE_PRODUCTS)[number];

const money = (key: string, more: Partial<FieldDef> = {}): FieldDef => ({ key, type: 'money', label: `reports.field.${key}`, ...more });
const hidden = { table: false } as const;
/** Carried for the export; the detail shows them in its own tables. */
const exportOnly = { table: false, detail: false } as const;

export const dailyCloseResource = /* @__PURE__ */ defineResource({
  name: 'daily_close',
  page: 'daily_close',
  api: '/reports/daily_closes',
  kind: 'list',
  defaultSort: '-day',
  actions: ['export'],
  exportType: 'daily_close',
  fetchDetail: false,
  title: 'menu.daily_close',
  description: 'reports.close.description',
  fields: [
    { key: 'day', type: 'text', label: 'reports.field.day', search: 'range', sortable: true, keep: true, width: 110 },
    { key: 'run', type: 'number', label: 'reports.field.run', table: false },
    { key: 'runs', type: 'number', label: 'reports.field.runs', width: 70 },
    money('stakes', { sortable: true, keep: true }),
    money('payouts'),
    money('ggr', { sortable: true, keep: true }),
    money('bonuses'),
    money('ngr', { sortable: true }),
    money('tax'),
    money('deposits'),
    money('withdrawals'),
    money('liability', { sortable: true }),
    money('liability_cash', hidden),
    money('liability_credit', hidden),
    { key: 'open_orders', type: 'number', label: 'reports.field.open_orders' },
    money('open_payout'),
    { key: 'ledger_ok', type: 'switch', label: 'reports.field.ledger_ok', search: 'exact', keep: true },
    { key: 'ledger_problems', type: 'number', label: 'reports.field.ledger_problems', table: false },
    { key: 'differs', type: 'switch', label: 'reports.field.differs', search: 'exact' },
    ...CLOSE_PRODUCTS.flatMap((p) => CLOSE_ROW_PRODUCT_FIGURES.map((k) => money(`${p}_${k}`, exportOnly))),
    ...CLOSE_ROW_PAY_TYPES.flatMap((p) => [money(`deposits_${p}`, exportOnly), money(`withdrawals_${p}`, exportOnly)]),
    { key: 'create_time', type: 'datetime', label: 'reports.field.create_time' },
  ],
});
