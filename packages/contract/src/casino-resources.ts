import { defineResource, type FieldDef } from './resource.js';

/**
 * The casino's screens (issue 13, spec §2 Casino; design: docs/architecture.md, "The casino wallet and
 * virtual racing") as server and console read them. Categories, games, providers and the casino settings are served by the resource
 * layer (apps/server/src/modules/casino/resources.ts adds the checks); rounds and their wallet
 * transactions are built by hand (scope, joins) and these fields mirror their row keys and filters.
 * Money in cents of TSh, RTP in basis points (9600 = 96 %).
 */

const createdRange: FieldDef = { key: 'created_at', type: 'datetime', search: 'range', table: false, detail: false };

/** Casino › Categories (casino_classification): names in three languages, icon, sort, shown. */
export const casinoCategoryResource = /* @__PURE__ */ defineResource({
  name: 'casino_classification',
  page: 'casino_classification',
  api: '/casino/categories',
  kind: 'list',
  defaultSort: 'sort',
  actions: ['create', 'edit', 'delete', 'export'],
  duty: {},
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    { key: 'name_en', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    { key: 'name_sw', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    { key: 'name_zh', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    { key: 'icon', type: 'image', editable: true, maxLength: 500, table: false },
    { key: 'sort', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
    { key: 'shown', type: 'switch', search: 'exact', editable: true, default: true },
    { key: 'created_at', type: 'datetime', table: false },
    { key: 'updated_at', type: 'datetime', sortable: true },
  ],
});

/** The game kinds a game may have (CASINO_GAME_KIND; the column holds the code). */
export const CASINO_GAME_KINDS = ['slot', 'crash', 'roulette'] as const;

/** Casino › Games (casino_list). */
export const casinoGameResource = /* @__PURE__ */ defineResource({
  name: 'casino_list',
  page: 'casino_list',
  api: '/casino/games',
  kind: 'list',
  defaultSort: '-id',
  actions: ['create', 'edit', 'delete', 'export'],
  duty: {},
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    /** casino_providers.id (the providers are listed by GET /casino/providers). */
    { key: 'provider_id', type: 'number', search: 'exact', createOnly: true, required: true, min: 1 },
    { key: 'game_code', type: 'text', search: 'exact', createOnly: true, required: true, maxLength: 64 },
    { key: 'name', type: 'text', search: 'like', editable: true, required: true, maxLength: 100 },
    /** casino_categories.id. */
    { key: 'category_id', type: 'number', search: 'exact', editable: true, min: 1 },
    { key: 'image', type: 'image', editable: true, maxLength: 500, table: false },
    /** 'slot', 'crash' or 'roulette' (labels casino.kind.<code>). */
    { key: 'kind', type: 'text', search: 'exact', editable: true, required: true, maxLength: 16, labels: 'casino.kind', default: 'slot' },
    /** Theoretical RTP in bps (9600 = 96 %). */
    { key: 'rtp_bps', type: 'number', sortable: true, editable: true, required: true, min: 5000, max: 9999, default: 9600 },
    { key: 'volatility', type: 'enum', enum: 'casino_volatility', search: 'exact', editable: true, required: true, default: 2 },
    { key: 'min_bet', type: 'money', editable: true, min: 0, max: 100_000_000_00, default: 1_00 },
    { key: 'max_bet', type: 'money', editable: true, min: 0, max: 100_000_000_00, default: 1_000_000_00 },
    { key: 'enabled', type: 'switch', search: 'exact', editable: true, default: true },
    { key: 'sort', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
    { key: 'hot', type: 'switch', search: 'exact', editable: true, default: false },
    { key: 'is_new', type: 'switch', search: 'exact', editable: true, default: false },
    /** A round whose wins exceed its bets this many times is listed as a large win for review. */
    { key: 'large_win_multiple', type: 'number', editable: true, min: 1, max: 1_000_000, default: 5000, table: false },
    { key: 'created_at', type: 'datetime', table: false },
    { key: 'updated_at', type: 'datetime', sortable: true },
  ],
});

/** Casino › Configuration (casino_config): the game providers. The HMAC secret is write-only. */
export const casinoProviderResource = /* @__PURE__ */ defineResource({
  name: 'casino_provider',
  page: 'casino_config',
  api: '/casino/providers',
  kind: 'list',
  defaultSort: 'id',
  title: 'resource.casino_provider.title',
  actions: ['create', 'edit'],
  duty: { two: ['auth_kind', 'public_key', 'secret', 'allowed_ips'], twoCreate: true },
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    /** The path segment of the wallet calls: POST /wallet/v1/<code>/... */
    { key: 'code', type: 'text', search: 'exact', createOnly: true, required: true, maxLength: 64 },
    { key: 'name', type: 'text', search: 'like', editable: true, required: true, maxLength: 100 },
    /** 'rsa' (RSA-SHA256, public key) or 'hmac' (HMAC-SHA256, shared secret). */
    { key: 'auth_kind', type: 'text', editable: true, required: true, maxLength: 8, labels: 'casino.auth_kind' },
    { key: 'public_key', type: 'textarea', editable: true, maxLength: 4000, table: false },
    /** The HMAC shared secret: never answered, never exported; an empty value on edit keeps it. */
    { key: 'secret', type: 'text', editable: true, maxLength: 256, writeOnly: true, table: false, detail: false },
    /** IPs and CIDRs, comma-separated; empty = any. */
    { key: 'allowed_ips', type: 'text', editable: true, maxLength: 2000, table: false },
    { key: 'launch_url', type: 'text', editable: true, maxLength: 500, table: false },
    { key: 'currency', type: 'text', editable: true, required: true, maxLength: 3, default: 'TZS' },
    { key: 'enabled', type: 'switch', search: 'exact', editable: true, default: false },
    { key: 'updated_at', type: 'datetime' },
  ],
});

/** Casino › Configuration (casino_config): casino on/off and limits (one record). */
export const casinoSettingsResource = /* @__PURE__ */ defineResource({
  name: 'casino_settings',
  page: 'casino_config',
  api: '/casino/settings',
  kind: 'singleton',
  title: 'resource.casino_settings.title',
  actions: ['edit'],
  duty: { two: ['max_bet', 'max_win'] },
  fields: [
    { key: 'casino_enabled', type: 'switch', editable: true },
    /** Largest bet per wallet call; 0 = only the game's limits. */
    { key: 'max_bet', type: 'money', editable: true, min: 0, max: 100_000_000_00 },
    /** Largest win per wallet call; 0 = no limit. */
    { key: 'max_win', type: 'money', editable: true, min: 0, max: 100_000_000_000_00 },
    /** Confidence of the RTP watch's band, bps (9990 = 99.9 %). */
    { key: 'rtp_alert_confidence', type: 'number', editable: true, min: 5000, max: 9999 },
    /** A win of at least this much is listed as a large win for review (0 = only the game's multiple counts). */
    { key: 'large_win_amount', type: 'money', editable: true, min: 0, max: 100_000_000_000_00 },
    { key: 'updated_at', type: 'datetime' },
  ],
});

// ---------------------------------------------------------------------------------------------- rounds

/**
 * GET /casino/rounds (casino_order): row keys and filters. `net` is the bettor's result (win - bet);
 * the house's GGR of the round is its opposite. `phone` filters by the bettor's phone.
 */
export const CASINO_ROUND_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', sortable: true, width: 80 },
  { key: 'round_ref', type: 'text', search: 'exact', width: 160 },
  { key: 'provider_id', type: 'number', search: 'exact', table: false },
  { key: 'provider', type: 'text' },
  { key: 'game_id', type: 'number', search: 'exact', table: false },
  { key: 'game_name', type: 'text' },
  { key: 'bettor_id', type: 'number', search: 'exact', table: false },
  { key: 'phone', type: 'text', search: 'exact', width: 130 },
  { key: 'user_name', type: 'text', table: false },
  { key: 'bet_total', type: 'money', sortable: true },
  { key: 'win_total', type: 'money', sortable: true },
  { key: 'net', type: 'money' },
  { key: 'status', type: 'enum', enum: 'casino_round_status', search: 'exact' },
  createdRange,
  { key: 'create_time', type: 'datetime', sortable: true },
  { key: 'update_time', type: 'datetime', table: false },
  { key: 'end_time', type: 'datetime', table: false },
];

/** Casino › Rounds (casino_order). */
export const casinoRoundResource = /* @__PURE__ */ defineResource({
  name: 'casino_order',
  page: 'casino_order',
  api: '/casino/rounds',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'casino_order',
  fields: CASINO_ROUND_FIELDS,
});

/**
 * A wallet transaction of a round (casino_order_details) as GET /casino/rounds/:id answers it, with the
 * serial number of its bill (null for a zero win, a refused call or a tombstone).
 */
export const CASINO_TRANSACTION_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number' },
  { key: 'transaction_uuid', type: 'text' },
  /** 'bet', 'win', 'rollback' (labels casino.txn_kind.<code>). */
  { key: 'kind', type: 'text', labels: 'casino.txn_kind' },
  { key: 'amount', type: 'money' },
  /** A win's or rollback's bet; on a bet, the rollback that undid it. */
  { key: 'reference_uuid', type: 'text' },
  /** The wallet's answer status (RS_OK, RS_ERROR_...). */
  { key: 'status', type: 'text' },
  { key: 'balance_after', type: 'money' },
  { key: 'bill_id', type: 'number', table: false },
  { key: 'bill_serial', type: 'text' },
  { key: 'tombstone', type: 'switch', table: false },
  { key: 'create_time', type: 'datetime' },
];

// ----------------------------------------------------------------------------------------- wallet API

/** The exact status strings of the wallet's answers. */
export const CASINO_WALLET_STATUS = [
  'RS_OK',
  'RS_ERROR_UNKNOWN',
  'RS_ERROR_INVALID_PARTNER',
  'RS_ERROR_INVALID_SIGNATURE',
  'RS_ERROR_INVALID_TOKEN',
  'RS_ERROR_TOKEN_EXPIRED',
  'RS_ERROR_INVALID_GAME',
  'RS_ERROR_WRONG_CURRENCY',
  'RS_ERROR_WRONG_SYNTAX',
  'RS_ERROR_NOT_ENOUGH_MONEY',
  'RS_ERROR_USER_DISABLED',
  'RS_ERROR_DUPLICATE_TRANSACTION',
  'RS_ERROR_TRANSACTION_DOES_NOT_EXIST',
  'RS_ERROR_TRANSACTION_ROLLED_BACK',
  'RS_ERROR_ROLLBACK_AFTER_WIN',
  'RS_ERROR_LIMIT',
] as const;
export type CasinoWalletStatus = (typeof CASINO_WALLET_STATUS)[number];

/** The wallet's headers: unix seconds, and base64 of the signature of `${timestamp}.${rawBody}`. */
export const CASINO_TIMESTAMP_HEADER = 'x-dau-timestamp';
export const CASINO_SIGNATURE_HEADER = 'x-dau-signature';
export const CASINO_SIGNATURE_WINDOW_SECONDS = 300;
export const CASINO_CURRENCY = 'TZS';

/** The wallet's calls (path after /wallet/v1/:provider/). */
export const CASINO_WALLET_CALLS = ['user/balance', 'transaction/bet', 'transaction/win', 'transaction/rollback', 'round/end'] as const;
export type CasinoWalletCall = (typeof CASINO_WALLET_CALLS)[number];

// The casino reports (apps/server/src/modules/casino/reports.ts), per game and per bettor over a period.
/** The locale prefix of the game kinds' labels, as the games' declaration names it. */
const KIND_LABELS = casinoGameResource.fields.find((f) => f.key === 'kind')?.labels;


/**
 * GET /casino/reports/games (casino_game; apps/server/src/modules/casino/reports.ts): per game and its
 * provider over a period, with the totals from /totals. Background export type `casino_game`.
 */
export const gameReportResource = /* @__PURE__ */ defineResource({
  name: 'casino_game',
  page: 'casino_game',
  api: '/casino/reports/games',
  kind: 'list',
  defaultSort: '-turnover',
  actions: ['export'],
  exportType: 'casino_game',
  fetchDetail: false,
  fields: [
    createdRange,
    { key: 'game_name', type: 'text', sortable: true },
    { key: 'game_code', type: 'text', table: false },
    { key: 'kind', type: 'text', labels: KIND_LABELS, table: false },
    { key: 'provider_name', type: 'text', sortable: true },
    { key: 'provider_id', type: 'number', search: 'exact', table: false, detail: false },
    { key: 'game_id', type: 'number', search: 'exact', table: false, detail: false },
    { key: 'rounds', type: 'number', sortable: true },
    { key: 'players', type: 'number', sortable: true },
    { key: 'turnover', type: 'money', sortable: true },
    { key: 'payouts', type: 'money', sortable: true },
    { key: 'ggr', type: 'money', sortable: true },
    { key: 'actual_rtp_bps', type: 'number', sortable: true },
    { key: 'theoretical_rtp_bps', type: 'number', sortable: true },
  ],
});

/** GET /casino/reports/bettors (casino_user): per bettor over a period. Background export type `casino_user`. */
export const userReportResource = /* @__PURE__ */ defineResource({
  name: 'casino_user',
  page: 'casino_user',
  api: '/casino/reports/bettors',
  kind: 'list',
  defaultSort: '-turnover',
  actions: ['export'],
  exportType: 'casino_user',
  fetchDetail: false,
  fields: [
    createdRange,
    { key: 'bettor_id', type: 'number', table: false },
    { key: 'phone', type: 'text', search: 'exact', sortable: true, width: 130 },
    { key: 'user_name', type: 'text' },
    { key: 'provider_id', type: 'number', search: 'exact', table: false, detail: false },
    { key: 'game_id', type: 'number', search: 'exact', table: false, detail: false },
    { key: 'rounds', type: 'number', sortable: true },
    { key: 'games', type: 'number', sortable: true },
    { key: 'turnover', type: 'money', sortable: true },
    { key: 'payouts', type: 'money', sortable: true },
    { key: 'ggr', type: 'money', sortable: true },
    { key: 'actual_rtp_bps', type: 'number', sortable: true },
    { key: 'last_played', type: 'datetime', sortable: true },
  ],
});
