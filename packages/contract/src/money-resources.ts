import { defineResource, type FieldDef, type ResourceDef } from './resource.js';

/**
 * The lists of bettors and money (issue 3) as the console reads them: fields are the API's row keys and
 * filter names (apps/server/src/modules/money/*-routes.ts, payments/*), money in cents, enumerations by
 * their domain names. The server builds these routes by hand (scope, keyset exports): it does not read
 * these declarations; `exportType` names its list for POST /exports, `requiredFilters` mirrors its
 * "Please select the user to query" rules so the console does not ask before a filter is filled.
 */

/** A created-at range filter (`created_at_from` / `created_at_to`) that is not a column. */
const createdRange: FieldDef = { key: 'created_at', type: 'datetime', search: 'range', table: false, detail: false };

/** Removes every filter but the given ones (query screens search by one thing). */
const onlySearch = (fields: readonly FieldDef[], keep: readonly string[]): FieldDef[] =>
  fields.flatMap((f) => {
    if (!f.search || keep.includes(f.key)) return [f];
    if (f.table === false && f.detail === false) return []; // a filter only
    const { search: _search, ...rest } = f;
    return [rest];
  });

/** A customer-service screen starts from the caller's phone: first filter, first column. */
const phoneFirst = (fields: readonly FieldDef[]): FieldDef[] => [...fields.filter((f) => f.key === 'phone'), ...fields.filter((f) => f.key !== 'phone')];

// ---------------------------------------------------------------------------------------------- bettors

/** GET /money/bettors (and user_list, online): row keys and filters. */
export const BETTOR_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', search: 'exact', sortable: true, width: 80 },
  { key: 'phone', type: 'text', search: 'like', width: 140 },
  { key: 'name', type: 'text', search: 'like' },
  { key: 'agent_id', type: 'number', search: 'exact', table: false, detail: false },
  { key: 'agent_account', type: 'text' },
  { key: 'invitation_code', type: 'text', search: 'exact' },
  { key: 'balance', type: 'money', sortable: true },
  { key: 'credit_money', type: 'money', sortable: true },
  { key: 'total_recharge', type: 'money', sortable: true },
  { key: 'total_withdrawal', type: 'money', sortable: true },
  { key: 'total_bets', type: 'money', sortable: true },
  { key: 'bets_num', type: 'number' },
  { key: 'profit_num', type: 'number', table: false },
  { key: 'betting_profit', type: 'money', sortable: true },
  { key: 'total_reward', type: 'money', table: false },
  { key: 'risk_level', type: 'enum', enum: 'risk_level', search: 'exact' },
  { key: 'bet_status', type: 'enum', enum: 'bet_status', search: 'exact' },
  { key: 'disabled', type: 'enum', enum: 'user_disabled', search: 'exact' },
  { key: 'online_status', type: 'enum', enum: 'online_status', search: 'exact' },
  createdRange,
  { key: 'google_bound', type: 'enum', enum: 'google_binding', table: false },
  { key: 'inviter_id', type: 'number', search: 'exact', table: false },
  { key: 'inviter_phone', type: 'text', table: false },
  { key: 'online_update_time', type: 'datetime', table: false },
  { key: 'register_ip', type: 'text', table: false },
  { key: 'last_recharge_time', type: 'datetime', table: false },
  { key: 'last_login_time', type: 'datetime' },
  { key: 'create_time', type: 'datetime', sortable: true },
];

/** Users › User management: bettors of my branch, with the audited admin actions (spec §3 User). */
export const userResource = /* @__PURE__ */ defineResource({
  name: 'user',
  page: 'user',
  api: '/money/bettors',
  kind: 'list',
  title: 'menu.user',
  description: 'money.describe.user',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'user',
  fields: BETTOR_FIELDS,
});

/** Users › User list: the same bettors, read-only. */
export const userListResource = /* @__PURE__ */ defineResource({
  name: 'user_list',
  page: 'user_list',
  api: '/money/user_list',
  kind: 'list',
  title: 'menu.user_list',
  description: 'money.describe.user_list',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'user_list',
  fetchDetail: false,
  fields: BETTOR_FIELDS,
});

/** Customer service › User: one bettor found by phone. */
export const csUserResource = /* @__PURE__ */ defineResource({
  name: 'cs_user',
  page: 'cs_user',
  api: '/money/cs/bettors',
  kind: 'list',
  title: 'menu.cs_user',
  description: 'money.describe.cs_user',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'cs_user',
  fetchDetail: false,
  requiredFilters: { anyOf: ['phone'], message: 'CS_PHONE_REQUIRED' },
  fields: /* @__PURE__ */ onlySearch(BETTOR_FIELDS, ['phone']),
});

/** Users › Online statistics: bettors online now (the summary comes from /money/online/summary). */
export const onlineStatisticalResource = /* @__PURE__ */ defineResource({
  name: 'online_statistical',
  page: 'online_statistical',
  api: '/money/online',
  kind: 'list',
  title: 'menu.online_statistical',
  description: 'money.describe.online_statistical',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'online_statistical',
  fetchDetail: false,
  fields: /* @__PURE__ */ onlySearch(BETTOR_FIELDS, ['id', 'phone', 'name', 'agent_id', 'invitation_code', 'risk_level', 'bet_status', 'created_at']),
});

// ------------------------------------------------------------------------------ activity qualification

const ACTIVITY_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', sortable: true, width: 80 },
  { key: 'bettor_id', type: 'number', search: 'exact', width: 90 },
  { key: 'phone', type: 'text', search: 'exact', width: 140 },
  { key: 'name', type: 'text' },
  { key: 'activity', type: 'text', search: 'like' },
  { key: 'status', type: 'enum', enum: 'activity_qualification', search: 'exact' },
  createdRange,
  { key: 'reward', type: 'money', sortable: true },
  { key: 'remark', type: 'text' },
  { key: 'create_time', type: 'datetime' },
  { key: 'qualified_time', type: 'datetime' },
];

/** Users › Activity qualification: bettors who qualified for a promotion; approving grants credit. */
export const activityQualificationResource = /* @__PURE__ */ defineResource({
  name: 'activity_qualification',
  page: 'activity_qualification',
  api: '/money/activity_qualification',
  kind: 'list',
  title: 'menu.activity_qualification',
  description: 'money.describe.activity_qualification',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'activity_qualification',
  fetchDetail: false,
  fields: ACTIVITY_FIELDS,
});

/** Customer service › Activity qualification: one bettor's, by phone. */
export const csActivityQualificationResource = /* @__PURE__ */ defineResource({
  name: 'cs_activity_qualification',
  page: 'cs_activity_qualification',
  api: '/money/cs/activity_qualification',
  kind: 'list',
  title: 'menu.cs_activity_qualification',
  description: 'money.describe.cs_activity_qualification',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'cs_activity_qualification',
  fetchDetail: false,
  requiredFilters: { anyOf: ['phone'], message: 'CS_PHONE_REQUIRED' },
  fields: /* @__PURE__ */ phoneFirst(/* @__PURE__ */ onlySearch(ACTIVITY_FIELDS, ['phone', 'status', 'activity'])),
});

// ------------------------------------------------------------------------------------------------ bills

/** GET /money/bills and its siblings; `type` takes bill_type (cash) or credit_bill_type (credit). */
const billFields = (typeEnum: 'bill_type' | 'credit_bill_type'): FieldDef[] => [
  { key: 'id', type: 'number', sortable: true, table: false },
  { key: 'serial_number', type: 'text', search: 'exact', width: 200 },
  { key: 'bettor_id', type: 'number', search: 'exact', width: 90 },
  { key: 'phone', type: 'text', search: 'exact', width: 140, keep: true },
  { key: 'user_name', type: 'text' },
  { key: 'type', type: 'enum', enum: typeEnum, search: 'exact', label: 'field.bill_type', keep: true },
  createdRange,
  { key: 'amount', type: 'money', sortable: true, keep: true },
  { key: 'before_change', type: 'money' },
  { key: 'balance', type: 'money', label: 'field.balance_after', keep: true },
  { key: 'cause_type', type: 'text', search: 'exact', labels: 'money.cause' },
  { key: 'cause_id', type: 'text', search: 'exact', table: false },
  { key: 'admin_id', type: 'number', search: 'exact', table: false, detail: false },
  { key: 'agent_id', type: 'number', search: 'exact', table: false, detail: false },
  { key: 'admin_account', type: 'text' },
  { key: 'account_kind', type: 'enum', enum: 'account_kind', table: false },
  { key: 'remark', type: 'text', width: 240 },
  { key: 'update_time', type: 'datetime', sortable: true, label: 'field.bill_time', keep: true },
];

const bills = (
  name: string,
  api: string,
  typeEnum: 'bill_type' | 'credit_bill_type',
  extra: Partial<ResourceDef> = {},
  keep?: readonly string[],
  byPhone = false,
) =>
  defineResource({
    name,
    page: name,
    api,
    kind: 'list',
    title: `menu.${name}`,
    description: `money.describe.${name}`,
    defaultSort: '-id',
    actions: ['export'],
    exportType: name,
    fetchDetail: false,
    fields: (byPhone ? phoneFirst : (f: FieldDef[]) => f)(keep ? onlySearch(billFields(typeEnum), keep) : billFields(typeEnum)),
    ...extra,
  });

const USER_OR_SERIAL = { anyOf: ['bettor_id', 'phone', 'serial_number'], message: 'RECHARGE_USER_REQUIRED' } as const;

/** Users › Bills: movements of the cash accounts, last 30 days. */
export const billResource = /* @__PURE__ */ bills('bill', '/money/bills', 'bill_type');
/** Users › Activity credit bills: movements of the credit accounts, last 30 days. */
export const billCreditResource = /* @__PURE__ */ bills('bill_credit', '/money/bill_credit', 'credit_bill_type');
/** Customer service › Bills: one bettor's, by phone. */
export const csBillResource = /* @__PURE__ */ bills(
  'cs_bill',
  '/money/cs/bills',
  'bill_type',
  { requiredFilters: { anyOf: ['phone', 'bettor_id'], message: 'CS_PHONE_REQUIRED' } },
  ['phone', 'bettor_id', 'serial_number', 'type', 'created_at'],
  true,
);
/** Users › Admin bills: balance changes made by administrators (the agents' statement is a tab of the screen). */
export const adminBillResource = /* @__PURE__ */ bills('admin_bill', '/money/admin_bills', 'bill_type');
/** Archive › Bills older than 30 days, by user or serial number. */
export const billArchiveResource = /* @__PURE__ */ bills('bill_archive', '/money/bills/archive', 'bill_type', { requiredFilters: USER_OR_SERIAL });
/** Archive › Credit bills older than 30 days, by user or serial number. */
export const billCreditArchiveResource = /* @__PURE__ */ bills('bill_credit_archive', '/money/bill_credit/archive', 'credit_bill_type', { requiredFilters: USER_OR_SERIAL });

// ----------------------------------------------------------------------------- recharges, withdrawals

/** The user of a transaction is filtered by `bettor_id` (the row says `user_id`). */
const bettorFilter: FieldDef = { key: 'bettor_id', type: 'number', search: 'exact', table: false, detail: false };
/** Pending at the operator longer than the configured minutes (pay config): the re-query queue. */
const stuckField: FieldDef = { key: 'stuck', type: 'switch', search: 'exact', table: false };
/**
 * Waiting for reconciliation (the operator cannot tell the outcome of a payment it was asked for): the
 * filter of the reconciliation view, why, and who settled it with which statement line.
 */
const RECONCILE_FIELDS: readonly FieldDef[] = [
  { key: 'reconcile', type: 'switch', search: 'exact', table: false },
  { key: 'reconcile_cause', type: 'text', width: 240, table: false },
  { key: 'reconciled_by', type: 'text', table: false },
  { key: 'reconcile_reference', type: 'text', table: false },
  { key: 'reconcile_remark', type: 'text', table: false },
  { key: 'reconcile_time', type: 'datetime', table: false },
];

/** GET /money/recharges and its siblings (apps/server/src/modules/payments/lists.ts). */
const RECHARGE_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', search: 'exact', sortable: true, width: 80 },
  { key: 'serial_number', type: 'text', search: 'exact', width: 200 },
  bettorFilter,
  { key: 'user_id', type: 'number', width: 90 },
  { key: 'user_name', type: 'text' },
  { key: 'phone', type: 'text', search: 'exact', width: 140 },
  { key: 'amount', type: 'money', sortable: true },
  { key: 'pay_type', type: 'enum', enum: 'pay_type', search: 'exact' },
  { key: 'recharge_channel', type: 'enum', enum: 'recharge_channel', search: 'exact' },
  { key: 'pay_status', type: 'enum', enum: 'pay_status', search: 'exact' },
  createdRange,
  stuckField,
  { key: 'carrier_order_number', type: 'text', search: 'exact' },
  { key: 'user_phone', type: 'text', table: false },
  { key: 'agent_account', type: 'text' },
  { key: 'fail_reason', type: 'text', width: 220 },
  { key: 'callback_count', type: 'number', table: false },
  { key: 'create_time', type: 'datetime', sortable: true },
  { key: 'pay_time', type: 'datetime', sortable: true },
  { key: 'previous_recharge_time', type: 'datetime' },
  { key: 'last_query_time', type: 'datetime', table: false },
  ...RECONCILE_FIELDS,
];

const USER_OR_REFERENCE = { anyOf: ['id', 'bettor_id', 'phone', 'serial_number', 'carrier_order_number', 'stuck', 'reconcile'], message: 'RECHARGE_USER_REQUIRED' } as const;

const payments = (name: string, api: string, fields: readonly FieldDef[], extra: Partial<ResourceDef> = {}) =>
  defineResource({
    name,
    page: name,
    api,
    kind: 'list',
    title: `menu.${name}`,
    description: `money.describe.${name}`,
    defaultSort: '-id',
    actions: ['export'],
    exportType: name,
    fetchDetail: false,
    fields,
    ...extra,
  });

/** Users › Recharges: a query screen ("Please select the user to query"); the stuck queue lists across users. */
export const rechargeResource = /* @__PURE__ */ payments('recharge_list', '/money/recharges', RECHARGE_FIELDS, { requiredFilters: USER_OR_REFERENCE });
/** Customer service › Recharges of a caller. */
export const csRechargeResource = /* @__PURE__ */ payments('cs_recharge', '/money/cs/recharges', /* @__PURE__ */ phoneFirst(RECHARGE_FIELDS), {
  requiredFilters: { anyOf: ['bettor_id', 'phone', 'serial_number', 'carrier_order_number'], message: 'RECHARGE_USER_REQUIRED' },
});
/** Archive › Recharges older than 30 days, by user or reference. */
export const rechargeArchiveResource = /* @__PURE__ */ payments(
  'recharge_archive',
  '/money/recharges/archive',
  /* @__PURE__ */ onlySearch(RECHARGE_FIELDS, ['serial_number', 'bettor_id', 'phone', 'pay_type', 'pay_status', 'created_at', 'carrier_order_number']),
  { requiredFilters: { anyOf: ['bettor_id', 'phone', 'serial_number', 'carrier_order_number'], message: 'RECHARGE_USER_REQUIRED' } },
);

/** GET /money/withdrawals and its siblings. */
const WITHDRAWAL_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', search: 'exact', sortable: true, width: 80 },
  { key: 'serial_number', type: 'text', search: 'exact', width: 200 },
  bettorFilter,
  { key: 'user_id', type: 'number', width: 90 },
  { key: 'user_name', type: 'text' },
  { key: 'phone', type: 'text', search: 'exact', width: 140, keep: true },
  { key: 'amount', type: 'money', sortable: true, keep: true },
  { key: 'pay_type', type: 'enum', enum: 'pay_type', search: 'exact', keep: true },
  { key: 'status', type: 'enum', enum: 'withdrawal_status', search: 'exact', label: 'field.withdrawal_status', keep: true },
  createdRange,
  { key: 'pay_status', type: 'enum', enum: 'pay_status', search: 'exact' },
  { key: 'large', type: 'switch', search: 'exact', table: false },
  stuckField,
  { key: 'carrier_order_number', type: 'text', search: 'exact' },
  { key: 'user_phone', type: 'text', table: false },
  { key: 'agent_account', type: 'text' },
  { key: 'first_approver', type: 'text' },
  { key: 'second_approver', type: 'text' },
  { key: 'refused_by', type: 'text', table: false },
  { key: 'refuse_reason', type: 'text', width: 220 },
  { key: 'fail_reason', type: 'text', width: 220 },
  { key: 'disburse_attempts', type: 'number', table: false },
  { key: 'create_time', type: 'datetime', sortable: true, keep: true },
  { key: 'review_time', type: 'datetime', table: false },
  { key: 'disburse_time', type: 'datetime', table: false },
  { key: 'pay_time', type: 'datetime', sortable: true },
  { key: 'previous_recharge_time', type: 'datetime' },
  { key: 'last_query_time', type: 'datetime', table: false },
  ...RECONCILE_FIELDS,
];

/** Users › Withdrawals: the review queue (approve, refuse, re-query the stuck ones). */
export const withdrawalResource = /* @__PURE__ */ payments('withdraw_list', '/money/withdrawals', WITHDRAWAL_FIELDS);
/**
 * Customer service › Withdrawals of a caller. The server lists them without a user too; the console asks
 * for one first, like the other customer-service screens.
 */
export const csWithdrawalResource = /* @__PURE__ */ payments('cs_withdraw', '/money/cs/withdrawals', /* @__PURE__ */ phoneFirst(WITHDRAWAL_FIELDS), {
  requiredFilters: { anyOf: ['bettor_id', 'phone', 'serial_number', 'carrier_order_number'], message: 'CS_PHONE_REQUIRED' },
});
/** Archive › Withdrawals older than 30 days, by user or reference. */
export const withdrawalArchiveResource = /* @__PURE__ */ payments(
  'withdrawal_archive',
  '/money/withdrawals/archive',
  /* @__PURE__ */ onlySearch(WITHDRAWAL_FIELDS, ['serial_number', 'bettor_id', 'phone', 'pay_type', 'status', 'created_at', 'carrier_order_number']),
  { requiredFilters: { anyOf: ['bettor_id', 'phone', 'serial_number', 'carrier_order_number'], message: 'RECHARGE_USER_REQUIRED' } },
);

/** Users › Airtel transfers: recharges and withdrawals through Airtel in one list (`kind`). */
export const airtelTransferResource = /* @__PURE__ */ payments(
  'airtel_transfer',
  '/money/airtel_transfer',
  [
    { key: 'id', type: 'number', table: false, detail: false },
    { key: 'kind', type: 'text', search: 'exact', label: 'field.transfer_kind' },
    { key: 'row_id', type: 'number', width: 80, label: 'field.id' },
    { key: 'serial_number', type: 'text', search: 'exact', width: 200 },
    bettorFilter,
    { key: 'user_id', type: 'number', width: 90 },
    { key: 'user_name', type: 'text' },
    { key: 'phone', type: 'text', search: 'exact', width: 140 },
    { key: 'amount', type: 'money', sortable: true },
    { key: 'pay_status', type: 'enum', enum: 'pay_status', search: 'exact' },
    createdRange,
    stuckField,
    { key: 'status', type: 'enum', enum: 'withdrawal_status', label: 'field.withdrawal_status' },
    { key: 'carrier_order_number', type: 'text', search: 'exact' },
    { key: 'user_phone', type: 'text', table: false },
    { key: 'fail_reason', type: 'text', width: 220 },
    { key: 'create_time', type: 'datetime', sortable: true },
    { key: 'pay_time', type: 'datetime' },
    { key: 'previous_recharge_time', type: 'datetime' },
  ],
  { defaultSort: '-create_time' },
);

// ------------------------------------------------------------------------------------ async operations

/** System › Async operations: background exports (GET /system/async_operations). */
export const asyncOperationsResource = /* @__PURE__ */ defineResource({
  name: 'async_operations',
  page: 'async_operations',
  api: '/system/async_operations',
  kind: 'list',
  title: 'menu.async_operations',
  description: 'money.describe.async_operations',
  defaultSort: '-id',
  actions: ['delete'],
  fetchDetail: false,
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 80 },
    { key: 'account', type: 'text', label: 'field.requested_by' },
    { key: 'admin_id', type: 'number', table: false, detail: false },
    { key: 'type', type: 'text', search: 'exact', label: 'field.export_list' },
    { key: 'format', type: 'enum', enum: 'export_format', search: 'exact', width: 90 },
    { key: 'status', type: 'enum', enum: 'async_operation_status', search: 'exact' },
    { key: 'created', type: 'datetime', search: 'range', table: false, detail: false, label: 'field.created_at' },
    { key: 'row_count', type: 'number', sortable: true },
    { key: 'error_message', type: 'text', width: 280 },
    { key: 'file_name', type: 'text', table: false },
    { key: 'params', type: 'json', table: false, label: 'field.export_params' },
    { key: 'created_at', type: 'datetime', sortable: true },
    { key: 'updated_at', type: 'datetime', sortable: true },
    { key: 'download_url', type: 'text', table: false, detail: false },
  ],
});

/** Every money declaration (the locale test checks each field has a label). */
export const MONEY_RESOURCES: readonly ResourceDef[] = [
  userResource,
  userListResource,
  csUserResource,
  onlineStatisticalResource,
  activityQualificationResource,
  csActivityQualificationResource,
  billResource,
  billCreditResource,
  csBillResource,
  adminBillResource,
  billArchiveResource,
  billCreditArchiveResource,
  rechargeResource,
  csRechargeResource,
  rechargeArchiveResource,
  withdrawalResource,
  csWithdrawalResource,
  withdrawalArchiveResource,
  airtelTransferResource,
  asyncOperationsResource,
];
