import { defineResource, type FieldDef, type ResourceDef } from './resource.js';

/**
 * The betting engine's screens (issue 5) as the console reads them. Settings (bet_config,
 * string_rewards) are served by the resource layer from these declarations; the order lists are built
 * by hand on the server (apps/server/src/modules/betting/routes.ts: scope, archive window, required
 * filters) and these fields mirror their row keys and filter names. Money in cents, rates in basis points.
 */

// ----------------------------------------------------------------------------------------- settings

/** Betting › Bet configuration: slip limits, and the terms orders are paid on (rates in basis points: tax_rate 1000 = 10 %). */
export const betConfigResource = /* @__PURE__ */ defineResource({
  name: 'bet_config',
  page: 'bet_config',
  api: '/betting/bet_config',
  kind: 'singleton',
  actions: ['edit'],
  duty: { two: ['min_stake', 'max_stake', 'max_payout', 'max_odds', 'max_stake_per_match', 'tax_rate'] },
  fields: [
    { key: 'min_stake', type: 'money', editable: true, required: true, min: 0 },
    { key: 'max_stake', type: 'money', editable: true, required: true, min: 0 },
    { key: 'max_payout', type: 'money', editable: true, required: true, min: 0 },
    { key: 'max_legs', type: 'number', editable: true, required: true, min: 1, max: 50 },
    { key: 'max_odds', type: 'odds', editable: true, required: true, min: 0, max: 1_000_000 },
    { key: 'max_stake_per_match', type: 'money', editable: true, required: true, min: 0 },
    { key: 'price_change', type: 'enum', enum: 'price_change_policy', editable: true, required: true },
    { key: 'allow_same_match', type: 'switch', editable: true },
    { key: 'tax_rate', type: 'number', editable: true, required: true, min: 0, max: 10_000 },
    { key: 'cashout_enabled', type: 'switch', editable: true },
    { key: 'cashout_margin', type: 'number', editable: true, required: true, min: 0, max: 5_000 },
    { key: 'cashout_delay_seconds', type: 'number', editable: true, required: true, min: 0, max: 60 },
    { key: 'bonus_funds_share', type: 'number', editable: true, required: true, min: 0, max: 10_000 },
    { key: 'inviter_share', type: 'number', editable: true, required: true, min: 0, max: 10_000 },
    { key: 'bonus_enabled', type: 'switch', editable: true },
    { key: 'bonus_min_odds', type: 'odds', editable: true, required: true, min: 1, max: 1000 },
    { key: 'bonus_cap', type: 'money', editable: true, required: true, min: 0 },
    { key: 'bonus_base', type: 'enum', enum: 'bonus_base', editable: true, required: true },
    { key: 'bonus_on_cashout', type: 'switch', editable: true },
    { key: 'bonus_on_bonus_funds', type: 'switch', editable: true },
    { key: 'updated_at', type: 'datetime' },
  ],
});

/** Betting › Accumulator bonuses: bonus rate (bps of the base set in pay_config) by number of qualifying legs. */
export const stringRewardsResource = /* @__PURE__ */ defineResource({
  name: 'string_rewards',
  page: 'string_rewards',
  api: '/betting/string_rewards',
  kind: 'list',
  defaultSort: 'legs',
  actions: ['create', 'edit', 'delete'],
  duty: {},
  fields: [
    { key: 'id', type: 'number', width: 70 },
    { key: 'legs', type: 'number', sortable: true, editable: true, required: true, min: 2, max: 50 },
    { key: 'rate', type: 'number', editable: true, required: true, min: 0, max: 10_000 },
    { key: 'is_enabled', type: 'switch', search: 'exact', editable: true, default: true },
    { key: 'updated_at', type: 'datetime' },
  ],
});

// ------------------------------------------------------------------------------------------- orders

const createdRange: FieldDef = { key: 'created_at', type: 'datetime', search: 'range', table: false, detail: false };

/** GET /betting/orders (and cs, archive, reminders): row keys and filters (spec §3 Order). */
export const ORDER_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', search: 'exact', sortable: true, width: 80 },
  { key: 'order_no', type: 'text', search: 'exact', width: 190 },
  { key: 'serial_number', type: 'text', search: 'exact', table: false },
  { key: 'bettor_id', type: 'number', search: 'exact', table: false },
  { key: 'phone', type: 'text', search: 'exact', width: 130 },
  { key: 'user_name', type: 'text', table: false },
  { key: 'event_id', type: 'text', search: 'exact', table: false, detail: false },
  { key: 'type', type: 'enum', enum: 'order_type', search: 'exact' },
  { key: 'status', type: 'enum', enum: 'order_status', search: 'exact' },
  { key: 'amount_payable', type: 'money', sortable: true },
  { key: 'pay_payable', type: 'money', table: false },
  { key: 'virtual_pay_amount', type: 'money', table: false },
  { key: 'total_price', type: 'odds' },
  { key: 'leg_count', type: 'number', table: false },
  { key: 'potential_payout', type: 'money' },
  { key: 'payout', type: 'money' },
  { key: 'profit', type: 'money' },
  { key: 'tax_rate', type: 'number', table: false },
  { key: 'tax_deduction_amount', type: 'money' },
  { key: 'string_rewards', type: 'number', table: false },
  { key: 'reward_amount', type: 'money', table: false },
  { key: 'early_cashout_fee', type: 'money', table: false },
  { key: 'cashout_amount', type: 'money', table: false },
  { key: 'inviter_reward', type: 'money', table: false },
  { key: 'balance', type: 'money', table: false },
  { key: 'currency', type: 'text', table: false },
  { key: 'note', type: 'text', table: false },
  { key: 'abnormal_flag', type: 'enum', enum: 'abnormal_bet_flag', search: 'exact', table: false },
  { key: 'last_match_at', type: 'datetime', table: false },
  createdRange,
  { key: 'create_time', type: 'datetime', sortable: true },
  { key: 'settlement_time', type: 'datetime' },
];

const USER_OR_ORDER = { anyOf: ['bettor_id', 'phone', 'order_no', 'id', 'serial_number'], message: 'ORDER_USER_REQUIRED' } as const;
const ANY_ORDER_FILTER = {
  anyOf: ['id', 'order_no', 'serial_number', 'bettor_id', 'phone', 'event_id', 'type', 'status', 'abnormal_flag', 'created_at'],
  message: 'ORDER_FILTER_REQUIRED',
} as const;

const orderListDef = (name: string, api: string, extra: Partial<ResourceDef> = {}): ResourceDef =>
  defineResource({ name, page: name, api, kind: 'list', defaultSort: '-create_time', actions: ['export'], fields: ORDER_FIELDS, ...extra });

/** Betting › Orders: any filter first ("Please enter at least one filter condition"). */
export const orderListResource = /* @__PURE__ */ orderListDef('order_list', '/betting/orders', { requiredFilters: ANY_ORDER_FILTER, exportType: 'order_list' });
/** Customer service › Orders: one bettor's, or one order. */
export const csOrderResource = /* @__PURE__ */ orderListDef('cs_order', '/betting/cs/orders', { requiredFilters: USER_OR_ORDER, actions: [] });
/** Archive › Orders older than 30 days. */
export const orderArchiveResource = /* @__PURE__ */ orderListDef('order_archive', '/betting/orders/archive', { requiredFilters: USER_OR_ORDER, exportType: 'order_archive' });
/** Customer service › Order archive. */
export const csOrderArchiveResource = /* @__PURE__ */ orderListDef('cs_order_archive', '/betting/cs/orders/archive', { requiredFilters: USER_OR_ORDER, actions: [] });
/** Betting › Abnormal bet alerts: open orders without a result 120 min / 150 min / 5 h / 24 h after their match time. */
export const betRemindResource = /* @__PURE__ */ orderListDef('bet_remind', '/betting/reminders', { defaultSort: 'last_match_at', exportType: 'bet_remind' });

export const BETTING_RESOURCES: readonly ResourceDef[] = [
  betConfigResource,
  stringRewardsResource,
  orderListResource,
  csOrderResource,
  orderArchiveResource,
  csOrderArchiveResource,
  betRemindResource,
];
