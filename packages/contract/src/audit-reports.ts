import { defineResource } from './resource.js';

/**
 * Issue 30, the auditors' reports (apps/server/src/modules/reports/audit): the significant events (one
 * chronological log of what a GLI-33 audit asks for, read from what the product already keeps) and the void
 * and resettlement report (per match and market, the orders an operator or the feed changed after the fact and
 * the money each change moved). Both are the whole book's: a branch admin is refused (WHOLE_BOOK_ONLY).
 */

/** What a significant event is; the console's labels are `audit.kind.<kind>`. */
export const SIGNIFICANT_EVENT_KINDS = [
  'manual_result', 'result_change', 'void', 'resettlement', 'rollback',
  'odds_change', 'market_change', 'suspension', 'match_cancel', 'setting_change', 'producer_down',
  'privileged_sign_in', 'sign_in_burst', 'balance_correction', 'large_win', 'large_withdrawal_approved', 'large_withdrawal_refused',
] as const;
export type SignificantEventKind = (typeof SIGNIFICANT_EVENT_KINDS)[number];

/** The changes the void and resettlement report lists (the orders' history kinds); labels `audit.change.<kind>`. */
export const ORDER_CHANGE_KINDS = ['result_changed', 'cancelled', 'resettled', 'rolled_back'] as const;

/** Failed sign-ins of one account that make a burst, and the window they fall in (the auditors' rule, not the throttle's). */
export const SIGN_IN_BURST = { failures: 5, minutes: 10 } as const;

/** Reports › Significant events. */
export const significantEventResource = /* @__PURE__ */ defineResource({
  name: 'significant_events',
  page: 'significant_events',
  api: '/reports/significant_events',
  kind: 'list',
  title: 'menu.significant_events',
  description: 'audit.describe.significant_events',
  defaultSort: '-time',
  actions: ['export'],
  exportType: 'significant_events',
  fetchDetail: false,
  fields: [
    { key: 'time', type: 'datetime', search: 'range', sortable: true, label: 'audit.field.time', width: 170, keep: true },
    { key: 'kind', type: 'text', search: 'exact', label: 'audit.field.kind', labels: 'audit.kind', width: 170, keep: true },
    { key: 'money', type: 'money', label: 'audit.field.money', width: 130 },
    { key: 'admin', type: 'text', search: 'exact', table: false, detail: false, label: 'audit.field.admin' },
    { key: 'admin_account', type: 'text', label: 'audit.field.admin', width: 120 },
    { key: 'event_id', type: 'text', search: 'exact', label: 'audit.field.event_id', table: false },
    { key: 'match_name', type: 'text', label: 'audit.field.match', width: 200 },
    { key: 'bettor_id', type: 'number', search: 'exact', label: 'audit.field.bettor_id', table: false },
    { key: 'bettor_phone', type: 'text', label: 'audit.field.bettor', width: 130 },
    { key: 'order_no', type: 'text', label: 'audit.field.order_no', width: 170 },
    { key: 'orders', type: 'number', label: 'audit.field.orders', width: 90 },
    { key: 'params', type: 'json', label: 'audit.field.params', table: false },
  ],
});

/** Reports › Void and resettlement report: one row per match and market. */
export const resettlementResource = /* @__PURE__ */ defineResource({
  name: 'resettlement_report',
  page: 'resettlement_report',
  api: '/reports/resettlements',
  kind: 'list',
  title: 'menu.resettlement_report',
  description: 'audit.describe.resettlement_report',
  defaultSort: '-last_at',
  actions: ['export'],
  // The export is the orders' changes themselves (one line per order and change, with who and why).
  exportType: 'resettlement_changes',
  fetchDetail: false,
  fields: [
    { key: 'time', type: 'datetime', search: 'range', table: false, detail: false, label: 'audit.field.time' },
    { key: 'event_id', type: 'text', search: 'exact', label: 'audit.field.event_id', table: false },
    { key: 'match_name', type: 'text', label: 'audit.field.match', width: 200, keep: true },
    { key: 'market_name', type: 'text', label: 'audit.field.market', width: 160, keep: true },
    { key: 'market_key', type: 'text', table: false, label: 'audit.field.market_key' },
    { key: 'admin', type: 'text', search: 'exact', table: false, detail: false, label: 'audit.field.admin' },
    { key: 'kind', type: 'text', search: 'exact', table: false, detail: false, label: 'audit.field.change', labels: 'audit.change' },
    { key: 'orders', type: 'number', sortable: true, label: 'audit.field.orders', width: 90 },
    { key: 'changes', type: 'number', label: 'audit.field.changes', width: 90 },
    { key: 'cash', type: 'money', label: 'audit.field.cash', width: 130 },
    { key: 'credit', type: 'money', label: 'audit.field.credit', width: 120 },
    { key: 'inviter', type: 'money', table: false, label: 'audit.field.inviter' },
    { key: 'money', type: 'money', sortable: true, label: 'audit.field.money', width: 130, keep: true },
    { key: 'admins', type: 'text', label: 'audit.field.admins', width: 140 },
    { key: 'reasons', type: 'text', label: 'audit.field.reasons', width: 200 },
    { key: 'first_at', type: 'datetime', label: 'audit.field.first_at', table: false },
    { key: 'last_at', type: 'datetime', sortable: true, label: 'audit.field.last_at', width: 170 },
  ],
});

/** The orders of one match and market in the report's drawer (and its export): one row per order and change. */
export const resettlementChangeResource = /* @__PURE__ */ defineResource({
  name: 'resettlement_changes',
  page: 'resettlement_report',
  api: '/reports/resettlements/changes',
  kind: 'list',
  title: 'menu.resettlement_report',
  defaultSort: '-time',
  actions: ['export'],
  exportType: 'resettlement_changes',
  fetchDetail: false,
  fields: [
    { key: 'time', type: 'datetime', search: 'range', sortable: true, label: 'audit.field.time', width: 170 },
    { key: 'event_id', type: 'text', search: 'exact', table: false, label: 'audit.field.event_id' },
    { key: 'market_key', type: 'text', search: 'exact', table: false, label: 'audit.field.market_key' },
    { key: 'kind', type: 'text', search: 'exact', label: 'audit.field.change', labels: 'audit.change', width: 130 },
    { key: 'source', type: 'text', search: 'exact', label: 'audit.field.source', labels: 'audit.source', width: 100 },
    { key: 'order_no', type: 'text', label: 'audit.field.order_no', width: 170, keep: true },
    { key: 'bettor_phone', type: 'text', label: 'audit.field.bettor', width: 130 },
    { key: 'selection_name', type: 'text', label: 'audit.field.selection', width: 130 },
    { key: 'payout_before', type: 'money', label: 'audit.field.payout_before', width: 120 },
    { key: 'payout_after', type: 'money', label: 'audit.field.payout_after', width: 120 },
    { key: 'money', type: 'money', label: 'audit.field.money', width: 120, keep: true },
    { key: 'admin', type: 'text', search: 'exact', table: false, detail: false, label: 'audit.field.admin' },
    { key: 'admin_account', type: 'text', label: 'audit.field.admin', width: 120 },
    { key: 'reason', type: 'text', label: 'audit.field.reason', width: 200 },
  ],
});
