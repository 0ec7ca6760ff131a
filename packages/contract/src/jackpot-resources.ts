import { defineResource, type FieldDef, type ResourceDef } from './resource.js';

/**
 * The 13-match jackpot's screens (issue 12) as the console reads them. The bet types are served by the
 * resource layer from `jackpotBetTypeResource` (apps/server/src/modules/jackpot/routes.ts adds the tier
 * checks); issues, tickets and shares are built by hand on the server (scope, statistics, actions) and
 * these fields mirror their row keys and filter names. Money in cents, rates in basis points, odds as
 * decimals. The request and answer shapes of the hand-written routes are in ./jackpot-api.ts (zod).
 *
 * Readings (docs/architecture.md "Jackpot"): a pick is a bit mask per match (1 home "1", 2 draw "X",
 * 4 away "2"); a result is 0 home, 1 draw, 2 away, 3 cancelled; `tiers` is the JSON list
 * `[{"hits":13,"proportion_bps":6000},...]` (the spec's `parent` and `proportion`), the percentages
 * adding up to at most 10000 bps.
 */

const createdRange: FieldDef = { key: 'created_at', type: 'datetime', search: 'range', table: false, detail: false };

// ------------------------------------------------------------------------------------------ bet types

/** Jackpot › Bet types: the configuration of a jackpot product. */
export const jackpotBetTypeResource = /* @__PURE__ */ defineResource({
  name: 'jackpot_bet_type',
  page: 'jackpot_bet_type',
  api: '/jackpot/bet_types',
  kind: 'list',
  defaultSort: '-id',
  actions: ['create', 'edit', 'delete'],
  duty: {},
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    { key: 'type', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    { key: 'reward_type', type: 'enum', enum: 'jackpot_reward_type', search: 'exact', editable: true, required: true, default: 1 },
    /** JSON list of {hits, proportion_bps}: hits 1..13 distinct, the bps adding up to at most 10000. */
    {
      key: 'tiers', type: 'json', check: 'json', editable: true, required: true, maxLength: 2000, table: false,
      default: '[{"hits":13,"proportion_bps":6000},{"hits":12,"proportion_bps":2000},{"hits":11,"proportion_bps":1200},{"hits":10,"proportion_bps":800}]',
    },
    { key: 'pool_rate_bps', type: 'number', editable: true, required: true, min: 0, max: 10_000, default: 5000 },
    { key: 'bet_amount', type: 'money', editable: true, required: true, min: 1, max: 100_000_000_00, default: 100_00 },
    { key: 'incentives', type: 'money', editable: true, min: 0, max: 100_000_000_00, default: 0, table: false },
    { key: 'init_jackpot', type: 'money', editable: true, min: 0, max: 100_000_000_000_00, default: 0 },
    /** Accumulated pool carried to the next issue: moved only by settlement. */
    { key: 'jackpot', type: 'money' },
    { key: 'max_add_balance', type: 'money', editable: true, min: 0, max: 100_000_000_000_00, default: 0, table: false },
    { key: 'max_range_odds', type: 'odds', editable: true, min: 0, max: 1000, default: 0, table: false },
    { key: 'odds_rise_step', type: 'odds', editable: true, min: 0, max: 1000, default: 0, table: false },
    { key: 'guess_number', type: 'number', editable: true, required: true, min: 13, max: 39, default: 20 },
    { key: 'max_doubles', type: 'number', editable: true, required: true, min: 0, max: 13, default: 5 },
    { key: 'max_triples', type: 'number', editable: true, min: 0, max: 13, default: 0 },
    { key: 'allow_bonus', type: 'switch', editable: true, default: false, table: false },
    { key: 'cancel_rule', type: 'enum', enum: 'jackpot_cancel_rule', editable: true, default: 1, table: false },
    { key: 'cancel_void_threshold', type: 'number', editable: true, min: 0, max: 13, default: 3, table: false },
    { key: 'enabled', type: 'switch', search: 'exact', editable: true, default: true },
    { key: 'created_at', type: 'datetime', table: false },
    { key: 'updated_at', type: 'datetime' },
  ],
});

// ---------------------------------------------------------------------------------------------- issues

/** GET /jackpot/issues: row keys and filters (jackpot_identifier). */
export const JACKPOT_ISSUE_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', sortable: true, width: 70 },
  { key: 'identifier', type: 'text', search: 'exact', width: 140 },
  { key: 'identifier_prefix', type: 'text', table: false },
  { key: 'bet_type_id', type: 'number', search: 'exact', table: false },
  { key: 'bet_type', type: 'text' },
  { key: 'start_time', type: 'datetime', search: 'range', sortable: true },
  { key: 'category_id', type: 'number', table: false },
  { key: 'league_id', type: 'text', table: false },
  { key: 'matches', type: 'number', table: false },
  { key: 'prize_pool', type: 'money' },
  { key: 'max_choose', type: 'number', table: false },
  { key: 'incentives', type: 'money', table: false },
  { key: 'bet_close_at', type: 'datetime' },
  { key: 'bet_status', type: 'enum', enum: 'jackpot_bet_status', search: 'exact' },
  { key: 'settle_status', type: 'enum', enum: 'jackpot_settle_status', search: 'exact' },
  { key: 'total_bet', type: 'money' },
  { key: 'lines', type: 'number' },
  { key: 'tickets', type: 'number' },
  { key: 'successful', type: 'number', table: false },
  { key: 'net_income', type: 'money', table: false },
  { key: 'net_profit', type: 'money', table: false },
  { key: 'expenditure', type: 'money', table: false },
  { key: 'delete_reason', type: 'text', table: false },
  { key: 'create_time', type: 'datetime', sortable: true, table: false },
];

/** Jackpot › Issues (jackpot_identifier). */
export const jackpotIssueResource = /* @__PURE__ */ defineResource({
  name: 'jackpot_identifier',
  page: 'jackpot_identifier',
  api: '/jackpot/issues',
  kind: 'list',
  defaultSort: '-id',
  actions: [],
  fields: JACKPOT_ISSUE_FIELDS,
});

/** One match of an issue as the issue detail answers it (result: JACKPOT_RESULT, null unknown). */
export const JACKPOT_MATCH_FIELDS: readonly FieldDef[] = [
  { key: 'position', type: 'number' },
  { key: 'event_id', type: 'text' },
  { key: 'home_team', type: 'text' },
  { key: 'away_team', type: 'text' },
  { key: 'league_name', type: 'text' },
  { key: 'start_time', type: 'datetime' },
  { key: 'result', type: 'enum', enum: 'jackpot_result' },
  { key: 'feed_result', type: 'enum', enum: 'jackpot_result' },
  { key: 'result_source', type: 'text' },
  { key: 'override_reason', type: 'text' },
];

// --------------------------------------------------------------------------------------------- tickets

/** GET /jackpot/tickets (jackpot_bet_list, cs_jackpot_bet_list): row keys and filters. */
export const JACKPOT_TICKET_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', search: 'exact', sortable: true, width: 80 },
  { key: 'serial_number', type: 'text', search: 'exact', width: 170 },
  { key: 'issue_id', type: 'number', search: 'exact', table: false },
  { key: 'identifier', type: 'text', search: 'exact', keep: true },
  { key: 'bettor_id', type: 'number', search: 'exact', table: false },
  { key: 'phone', type: 'text', search: 'exact', width: 130, keep: true },
  { key: 'user_name', type: 'text', table: false },
  { key: 'picks', type: 'json', table: false },
  { key: 'lines', type: 'number' },
  { key: 'unit', type: 'money', table: false },
  { key: 'stake', type: 'money', sortable: true, keep: true },
  { key: 'bonus_stake', type: 'money', table: false },
  { key: 'status', type: 'enum', enum: 'jackpot_ticket_status', search: 'exact', keep: true },
  { key: 'min_hits', type: 'number', search: 'exact', table: false, detail: false },
  { key: 'best_hits', type: 'number' },
  { key: 'winning_lines', type: 'number' },
  { key: 'gross', type: 'money' },
  { key: 'tax', type: 'money', table: false },
  { key: 'credited', type: 'money' },
  { key: 'withheld', type: 'money', table: false },
  { key: 'placed_by', type: 'text', table: false },
  { key: 'shared_from', type: 'number', table: false },
  createdRange,
  { key: 'create_time', type: 'datetime', sortable: true, keep: true },
  { key: 'settlement_time', type: 'datetime', table: false },
];

/** Jackpot › Tickets. */
export const jackpotTicketListResource = /* @__PURE__ */ defineResource({
  name: 'jackpot_bet_list',
  page: 'jackpot_bet_list',
  api: '/jackpot/tickets',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'jackpot_bet_list',
  fields: JACKPOT_TICKET_FIELDS,
});

/** Customer service › Jackpot tickets (read-only: GET /jackpot/cs/tickets and /jackpot/cs/tickets/:id, page cs_jackpot_bet). */
export const csJackpotTicketListResource = /* @__PURE__ */ defineResource({
  name: 'cs_jackpot_bet_list',
  page: 'cs_jackpot_bet_list',
  api: '/jackpot/cs/tickets',
  kind: 'list',
  defaultSort: '-id',
  actions: [],
  fields: JACKPOT_TICKET_FIELDS,
});

// ---------------------------------------------------------------------------------------------- shares

/** GET /jackpot/shares (super_list): shared bet slips. */
export const JACKPOT_SHARE_FIELDS: readonly FieldDef[] = [
  { key: 'code', type: 'text', search: 'exact', width: 120 },
  { key: 'ticket_id', type: 'number' },
  { key: 'serial_number', type: 'text' },
  { key: 'identifier', type: 'text' },
  { key: 'bettor_id', type: 'number', table: false },
  { key: 'phone', type: 'text', search: 'exact', width: 130 },
  { key: 'lines', type: 'number' },
  { key: 'stake', type: 'money' },
  { key: 'copies', type: 'number' },
  { key: 'copy_stake', type: 'money' },
  createdRange,
  { key: 'create_time', type: 'datetime', sortable: true },
];

/** Jackpot › Shared slips (super_list). */
export const jackpotShareResource = /* @__PURE__ */ defineResource({
  name: 'super_list',
  page: 'super_list',
  api: '/jackpot/shares',
  kind: 'list',
  defaultSort: '-create_time',
  actions: ['export'],
  exportType: 'super_list',
  fields: JACKPOT_SHARE_FIELDS,
});

// ----------------------------------------------------------------------------------------- held prizes

/**
 * Jackpot › Held prizes (issue 23): tickets whose net prize went above the bet type's max_add_balance, the
 * part above held on jackpot_prizes_payable. Paid by hand (to the balance, or recorded as paid outside),
 * each payment approved by a second admin (apps/server/src/modules/jackpot/held-prizes.ts).
 */
export const jackpotHeldPrizeResource = /* @__PURE__ */ defineResource({
  name: 'jackpot_held_prize',
  page: 'jackpot_held_prize',
  api: '/jackpot/held_prizes',
  kind: 'list',
  defaultSort: '-id',
  actions: [],
  fetchDetail: false,
  fields: [
    { key: 'id', type: 'number', sortable: true, table: false },
    { key: 'serial_number', type: 'text', search: 'exact', width: 170, keep: true },
    { key: 'identifier', type: 'text', search: 'exact', width: 120, keep: true },
    { key: 'issue_id', type: 'number', table: false },
    { key: 'bettor_id', type: 'number', search: 'exact', table: false },
    { key: 'phone', type: 'text', search: 'exact', width: 130, keep: true },
    { key: 'user_name', type: 'text', table: false },
    { key: 'gross', type: 'money', table: false },
    { key: 'credited', type: 'money', table: false },
    { key: 'held', type: 'money', sortable: true, keep: true },
    { key: 'paid', type: 'money' },
    { key: 'pending', type: 'money', table: false },
    { key: 'remaining', type: 'money', sortable: true, keep: true },
    { key: 'state', type: 'enum', enum: 'jackpot_held_state', search: 'exact', width: 150, keep: true },
    { key: 'settled_at', type: 'datetime', search: 'range', table: false, detail: false },
    { key: 'settlement_time', type: 'datetime', sortable: true },
  ],
});

export const JACKPOT_RESOURCES: readonly ResourceDef[] = [
  jackpotBetTypeResource,
  jackpotIssueResource,
  jackpotTicketListResource,
  csJackpotTicketListResource,
  jackpotShareResource,
  jackpotHeldPrizeResource,
];
