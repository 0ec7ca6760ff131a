/**
 * The enumerations of spec §4 (and the few of §3/§9 that carry ids), with the spec's numeric ids.
 *
 * Each enumeration is an `as const` object mapping a stable English identifier to its id. The ids are
 * what the database and the API carry; the identifiers are what code reads; the labels (three
 * languages) live in ./locales and are looked up through ./labels.
 *
 * Where the spec gives no ids, values are numbered from 1 in the spec's order. Exceptions, all
 * deliberate:
 *  - selection_outcome, type_flag and abnormal_bet_flag have an explicit 0.
 *  - abnormal_bet_flag is ordered by threshold (120 min, 150 min, 5 h, 24 h), not by the spec's
 *    sentence order; the thresholds are exported in minutes.
 *  - order_status uses the ids of order_list_status for the five values the spec ties together
 *    ("pending (awaiting draw)" = 2, "settled (drawn)" = 4, early settlement = 6, "to be counted
 *    (awaiting statistics)" = 7, auto cash out = 8) so that one id means one thing everywhere;
 *    the two values the list status lacks take the free ids in the spec's order: unpaid = 1,
 *    order exception = 3. Id 5 is unused.
 */

export const OUTCOME_STATUS = {
  pending: 1,
  won: 2,
  lost: 3,
  unknown_resolved: 4,
  unknown: 5,
  half_won: 6,
  half_lost: 7,
  void: 8,
  cancelled: 9,
  admin_cancelled: 10,
} as const;

export const EVENT_STATUS = {
  not_started: 1,
  in_progress: 2,
  ended: 3,
  interrupted: 4,
  cancelled: 5,
  walkover: 6,
  abandoned: 7,
  retired: 8,
} as const;

export const EVENT_INFO_STATUS = { valid: 1, removed: 2, invalid: 3, ended: 4 } as const;

export const BETTING_OFFER_STATUS = {
  bettable: 1,
  no_odds: 2,
  non_participant: 3,
  removed_from_feed: 4,
  invalid: 5,
  resolved: 6,
  temporarily_removed: 7,
} as const;

export const LOCATION_TYPE = { country: 1, continent: 2, miscellaneous: 3, world: 4 } as const;

export const SELECTION_OUTCOME = {
  pending: 0,
  abnormal_result: 1,
  refunded: 2,
  lost: 3,
  won: 4,
  half_won: 5,
  half_lost: 6,
} as const;

export const TYPE_FLAG = { undefined: 0, pre_match_and_in_play: 1, pre_match_only: 2, in_play_only: 3 } as const;

/** The spec lists match status as strings ('1'..'8'); we store and send the numbers. */
export const MATCH_STATUS = {
  not_started: 1,
  in_progress: 2,
  ended: 3,
  paused: 4,
  cancelled: 5,
  cancelled_before_start: 6,
  cancelled_after_start: 7,
  abandoned_after_start: 8,
} as const;

export const ORDER_LIST_STATUS = {
  awaiting_draw: 2,
  drawn: 4,
  early_settlement: 6,
  awaiting_statistics: 7,
  auto_early_settlement: 8,
} as const;

export const PAY_STATUS = { processing: 1, paid: 2, voided: 3 } as const;

export const ARCHIVE_TYPE = { within_30_days: 1, before_30_days: 2 } as const;

export const ONLINE_STATUS = { offline: 1, online: 2 } as const;

/** Spec: "User disabled: 1 no, 2 yes". */
export const USER_DISABLED = { enabled: 1, disabled: 2 } as const;

export const MENU_TYPE = { route: 1, button: 2 } as const;

export const ORDER_TYPE = { user_bet: 1, admin_bet: 2, random_bet: 3 } as const;

export const MATCH_STATUS_AT_BET = { not_started: 1, started: 2 } as const;

export const RISK_LEVEL = { none: 1, low: 2, moderate: 3, high: 4, no_betting: 5 } as const;

export const BET_STATUS = { allowed: 1, not_allowed: 2 } as const;

export const SEALING = { seal: 1, do_not_seal: 2 } as const;

export const ACTIVITY_QUALIFICATION = { pending: 1, success: 2 } as const;

export const SMS_STATUS = { unused: 1, used: 2 } as const;

export const ASYNC_OPERATION_STATUS = { in_progress: 1, completed: 2, abnormal: 3 } as const;

export const COLLECTION_STATUS = { success: 1, fail: 2 } as const;

export const GOOGLE_BINDING = { bound: 1, unbound: 2 } as const;

export const MESSAGE_STATUS = { not_viewed: 1, viewed: 2 } as const;

export const WALLET_REMOVAL = { not_deleted: 1, deleted: 2 } as const;

/** No result N after the match time; ordered by threshold. */
export const ABNORMAL_BET_FLAG = {
  none: 0,
  no_result_120_minutes: 1,
  no_result_150_minutes: 2,
  no_result_5_hours: 3,
  no_result_24_hours: 4,
} as const;

/** Minutes after the match time after which a bet without a result is flagged with the given flag. */
export const ABNORMAL_BET_THRESHOLD_MINUTES = {
  1: 120,
  2: 150,
  3: 5 * 60,
  4: 24 * 60,
} as const satisfies Record<Exclude<AbnormalBetFlag, 0>, number>;

export const PICTURE_JUMP_TYPE = { router_push: 1, new_window: 2, current_window: 3 } as const;

/** Shop categories (spec §7: the console fetches them with show_status=1). */
export const MALL_SHOW_STATUS = { shown: 1, hidden: 2 } as const;
/** A visit's device (issue 16 visitor). */
export const VISIT_DEVICE = { mobile: 1, desktop: 2, app_android: 3, app_ios: 4 } as const;
/** Where a visit came from (issue 16 visitor). */
export const VISIT_SOURCE = { direct: 1, search: 2, social: 3, referral: 4, campaign: 5 } as const;
/** A visitor seen for the first time that day (never before), or one seen on an earlier day. */
export const VISITOR_KIND = { new: 1, returning: 2 } as const;

export const SPORT = { football: 1, basketball: 8 } as const;

/**
 * How money comes in or goes out: the mobile-money operators (spec §9: 3, 4, 6, 7) and USDT on TRON
 * (issue 14; the spec gives USDT no number, 10 is ours). Recharges and withdrawals carry it as pay_type.
 */
export const PAY_TYPE = { tigo: 3, airtel: 4, vodacom: 6, halotel: 7, usdt: 10 } as const;

/**
 * How a recharge was started (issue 17): `app` the bettor app's payment request to the operator (bill 4),
 * `ussd` the operator's USSD push prompt answered on the handset (bill 11 USSD deposit), `chain` a USDT
 * transfer seen on TRON (bill 4).
 */
export const RECHARGE_CHANNEL = { app: 1, ussd: 2, chain: 3 } as const;

export const NOTIFY_STATUS = { unviewed: 1, viewed: 2 } as const;

export const LANGUAGE_SHOW_STATUS = { hidden: 1, shown: 2 } as const;

export const DEFAULT_LANGUAGE = { not_default: 1, default: 2 } as const;

export const THEME = { light: 1, dark: 2 } as const;

/**
 * Bill types of the cash account (spec §4: codes 1-17 and 22-25 exist; the spec does not say which code
 * is which name, so this mapping is ours, in the spec's order of names, with "bet payout" added where the
 * sportsbook needs it and the two-way names split in two).
 */
export const BILL_TYPE = {
  bet: 1,
  bet_payout: 2,
  jackpot_payment: 3,
  user_recharge: 4,
  jackpot_result_change: 5,
  user_withdrawal: 6,
  continuous_signup_promotion: 7,
  amount_rolled_back: 8,
  invitation_bonus: 9,
  inviter_profit_reward: 10,
  ussd_deposit: 11,
  bet_to_get_bonus: 12,
  virtual_racing_bet: 13,
  racing_result_change: 14,
  balance_to_racing_coin: 15,
  racing_coin_to_balance: 16,
  activity_award: 17,
  admin_balance_change: 22,
  casino_bet: 23,
  casino_win: 24,
  casino_award: 25,
} as const;

/**
 * Bill types of the credit (free-bet / activity money) account: spec §4's list bill types 3, 101 and
 * 103-106 (ours: what each means).
 */
export const CREDIT_BILL_TYPE = {
  jackpot_payment: 3,
  activity_credit_granted: 101,
  credit_bet: 103,
  credit_refund: 104,
  credit_expired: 105,
  admin_credit_change: 106,
} as const;

/** The two accounts of a bettor. */
export const ACCOUNT_KIND = { cash: 1, credit: 2 } as const;

/** The life of a withdrawal: review, (second approval for large amounts), disbursement, outcome. */
export const WITHDRAWAL_STATUS = {
  pending_review: 1,
  awaiting_second_approval: 2,
  disbursing: 3,
  paid: 4,
  refused: 5,
  failed: 6,
  timed_out: 7,
} as const;

/** Export file formats of async operations. */
export const EXPORT_FORMAT = { csv: 1, xlsx: 2 } as const;

/** Server log levels of the log configuration screen. */
export const LOG_LEVEL = { trace: 1, debug: 2, info: 3, warn: 4, error: 5, fatal: 6 } as const;

export const LOG_TYPE = {
  ordinary: 1,
  login: 2,
  ip_blacklist: 3,
  reset_password: 4,
  delete_user: 5,
  mail_error: 6,
  update_password: 7,
  new_user: 8,
  data_encryption_error: 9,
  update_user_info: 10,
  sql_error: 11,
  update_balance: 12,
  radar_data_error: 13,
  radar_unknown_type: 14,
  socket_error: 15,
  front_end_error: 16,
} as const;

export const CASHOUT_STATE = {
  request: 1,
  requesting: 2,
  retrieving_update: 3,
  locked: 4,
  offer: 5,
  accept: 6,
} as const;

/** See the note at the top of this file: ids aligned with ORDER_LIST_STATUS, 5 unused. */
export const ORDER_STATUS = {
  unpaid: 1,
  pending: 2,
  order_exception: 3,
  settled: 4,
  early_settlement: 6,
  to_be_counted: 7,
  auto_cash_out: 8,
} as const;

/** bet_config: what placement does when a price moved since the bettor's slip. */
export const PRICE_CHANGE_POLICY = { refuse: 1, accept_higher: 2, accept_any: 3 } as const;

/** pay_config: what the accumulator bonus rate applies to. */
export const BONUS_BASE = { net_winnings: 1, payout: 2 } as const;

/** Jackpot (issue 12): betting state of an issue. */
export const JACKPOT_BET_STATUS = { not_open: 1, open: 2, suspended: 3, closed: 4 } as const;

/** Jackpot: settlement state of an issue (deleted = refunded by the operator; voided = by the cancel rule). */
export const JACKPOT_SETTLE_STATUS = { unsettled: 1, settling: 2, settled: 3, deleted: 4, voided: 5 } as const;

export const JACKPOT_TICKET_STATUS = { open: 1, won: 2, lost: 3, refunded: 4 } as const;

/** Jackpot bet type: 1 = the tier's share split among its winning lines, 2 = the share paid to every line. */
export const JACKPOT_REWARD_TYPE = { shared: 1, fixed_per_line: 2 } as const;

/** Jackpot bet type: what a cancelled match does (2 = void the issue when more than N are cancelled). */
export const JACKPOT_CANCEL_RULE = { counts_as_won: 1, void_above_threshold: 2 } as const;

/** Jackpot: result of one match of an issue (0 home "1", 1 draw "X", 2 away "2", 3 cancelled). */
export const JACKPOT_RESULT_KIND = { home: 0, draw: 1, away: 2, cancelled: 3 } as const;

/**
 * Jackpot (issue 23): a prize held above max_add_balance, as its queue shows it: held (nothing paid or
 * asked), awaiting approval (a payment waits for a second admin), part paid, paid (nothing left).
 */
export const JACKPOT_HELD_STATE = { held: 1, awaiting_approval: 2, part_paid: 3, paid: 4 } as const;

/** Jackpot: a request to pay (part of) a held prize; withdrawn = cancelled by the admin who asked. */
export const JACKPOT_PAYOUT_STATUS = { pending: 1, paid: 2, refused: 3, withdrawn: 4 } as const;

/** Jackpot: how a held prize is paid: to the bettor's balance, or recorded as paid outside (bank transfer...). */
export const JACKPOT_PAYOUT_KIND = { balance: 1, outside: 2 } as const;

/** Casino (issue 13): state of a round (rolled back = its bets were undone by the provider). */
export const CASINO_ROUND_STATUS = { open: 1, completed: 2, rolled_back: 3 } as const;

/** Casino game: volatility (casino_games.volatility; the payout spread the RTP band assumes, domain casino.ts). */
export const CASINO_VOLATILITY = { low: 1, medium: 2, high: 3 } as const;

/** Casino game: kind (casino_games.kind stores the identifier: 'slot' | 'crash' | 'roulette'). */
export const CASINO_GAME_KIND = { slot: 1, crash: 2, roulette: 3 } as const;

/** Virtual racing (issue 13): state of a race (1 open for bets, 2 running, 3 finished, 4 cancelled: bets refunded). */
export const RACING_RACE_STATUS = { open: 1, running: 2, finished: 3, cancelled: 4 } as const;

/** Virtual racing: state of a bet (refunded = its race was cancelled). */
export const RACING_BET_STATUS = { open: 1, won: 2, lost: 3, refunded: 4 } as const;

/** Virtual racing: a coin conversion (1 balance → coins, bill 15; 2 coins → balance, bill 16). */
export const RACING_COIN_DIRECTION = { to_coins: 1, from_coins: 2 } as const;

type Ids<T> = T[keyof T];

export type OutcomeStatus = Ids<typeof OUTCOME_STATUS>;
export type EventStatus = Ids<typeof EVENT_STATUS>;
export type EventInfoStatus = Ids<typeof EVENT_INFO_STATUS>;
export type BettingOfferStatus = Ids<typeof BETTING_OFFER_STATUS>;
export type LocationType = Ids<typeof LOCATION_TYPE>;
export type SelectionOutcome = Ids<typeof SELECTION_OUTCOME>;
export type TypeFlag = Ids<typeof TYPE_FLAG>;
export type MatchStatus = Ids<typeof MATCH_STATUS>;
export type OrderListStatus = Ids<typeof ORDER_LIST_STATUS>;
export type PayStatus = Ids<typeof PAY_STATUS>;
export type ArchiveType = Ids<typeof ARCHIVE_TYPE>;
export type OnlineStatus = Ids<typeof ONLINE_STATUS>;
export type UserDisabled = Ids<typeof USER_DISABLED>;
export type MenuType = Ids<typeof MENU_TYPE>;
export type OrderType = Ids<typeof ORDER_TYPE>;
export type MatchStatusAtBet = Ids<typeof MATCH_STATUS_AT_BET>;
export type RiskLevel = Ids<typeof RISK_LEVEL>;
export type BetStatus = Ids<typeof BET_STATUS>;
export type Sealing = Ids<typeof SEALING>;
export type ActivityQualification = Ids<typeof ACTIVITY_QUALIFICATION>;
export type SmsStatus = Ids<typeof SMS_STATUS>;
export type AsyncOperationStatus = Ids<typeof ASYNC_OPERATION_STATUS>;
export type CollectionStatus = Ids<typeof COLLECTION_STATUS>;
export type GoogleBinding = Ids<typeof GOOGLE_BINDING>;
export type MessageStatus = Ids<typeof MESSAGE_STATUS>;
export type WalletRemoval = Ids<typeof WALLET_REMOVAL>;
export type AbnormalBetFlag = Ids<typeof ABNORMAL_BET_FLAG>;
export type PictureJumpType = Ids<typeof PICTURE_JUMP_TYPE>;
export type Sport = Ids<typeof SPORT>;
export type PayType = Ids<typeof PAY_TYPE>;
export type RechargeChannel = Ids<typeof RECHARGE_CHANNEL>;
export type NotifyStatus = Ids<typeof NOTIFY_STATUS>;
export type LanguageShowStatus = Ids<typeof LANGUAGE_SHOW_STATUS>;
export type DefaultLanguage = Ids<typeof DEFAULT_LANGUAGE>;
export type Theme = Ids<typeof THEME>;
export type LogLevel = Ids<typeof LOG_LEVEL>;
export type BillType = Ids<typeof BILL_TYPE>;
export type CreditBillType = Ids<typeof CREDIT_BILL_TYPE>;
export type AccountKind = Ids<typeof ACCOUNT_KIND>;
export type WithdrawalStatus = Ids<typeof WITHDRAWAL_STATUS>;
export type LogType = Ids<typeof LOG_TYPE>;
export type CashoutState = Ids<typeof CASHOUT_STATE>;
export type OrderStatus = Ids<typeof ORDER_STATUS>;
export type JackpotBetStatus = Ids<typeof JACKPOT_BET_STATUS>;
export type JackpotSettleStatus = Ids<typeof JACKPOT_SETTLE_STATUS>;
export type JackpotTicketStatus = Ids<typeof JACKPOT_TICKET_STATUS>;
export type JackpotRewardType = Ids<typeof JACKPOT_REWARD_TYPE>;
export type JackpotCancelRule = Ids<typeof JACKPOT_CANCEL_RULE>;
export type JackpotResultKind = Ids<typeof JACKPOT_RESULT_KIND>;
export type JackpotHeldState = Ids<typeof JACKPOT_HELD_STATE>;
export type JackpotPayoutStatus = Ids<typeof JACKPOT_PAYOUT_STATUS>;
export type JackpotPayoutKind = Ids<typeof JACKPOT_PAYOUT_KIND>;
export type CasinoRoundStatus = Ids<typeof CASINO_ROUND_STATUS>;
export type CasinoVolatility = Ids<typeof CASINO_VOLATILITY>;
export type CasinoGameKindId = Ids<typeof CASINO_GAME_KIND>;
export type RacingRaceStatus = Ids<typeof RACING_RACE_STATUS>;
export type RacingBetStatus = Ids<typeof RACING_BET_STATUS>;
export type RacingCoinDirection = Ids<typeof RACING_COIN_DIRECTION>;

/** Every enumeration by its registry name. */
export const ENUM_DEFS = {
  outcome_status: OUTCOME_STATUS,
  event_status: EVENT_STATUS,
  event_info_status: EVENT_INFO_STATUS,
  betting_offer_status: BETTING_OFFER_STATUS,
  location_type: LOCATION_TYPE,
  selection_outcome: SELECTION_OUTCOME,
  type_flag: TYPE_FLAG,
  match_status: MATCH_STATUS,
  order_list_status: ORDER_LIST_STATUS,
  pay_status: PAY_STATUS,
  archive_type: ARCHIVE_TYPE,
  online_status: ONLINE_STATUS,
  user_disabled: USER_DISABLED,
  menu_type: MENU_TYPE,
  order_type: ORDER_TYPE,
  match_status_at_bet: MATCH_STATUS_AT_BET,
  risk_level: RISK_LEVEL,
  bet_status: BET_STATUS,
  sealing: SEALING,
  activity_qualification: ACTIVITY_QUALIFICATION,
  sms_status: SMS_STATUS,
  async_operation_status: ASYNC_OPERATION_STATUS,
  collection_status: COLLECTION_STATUS,
  google_binding: GOOGLE_BINDING,
  message_status: MESSAGE_STATUS,
  wallet_removal: WALLET_REMOVAL,
  abnormal_bet_flag: ABNORMAL_BET_FLAG,
  picture_jump_type: PICTURE_JUMP_TYPE,
  sport: SPORT,
  pay_type: PAY_TYPE,
  recharge_channel: RECHARGE_CHANNEL,
  notify_status: NOTIFY_STATUS,
  language_show_status: LANGUAGE_SHOW_STATUS,
  default_language: DEFAULT_LANGUAGE,
  theme: THEME,
  log_level: LOG_LEVEL,
  bill_type: BILL_TYPE,
  credit_bill_type: CREDIT_BILL_TYPE,
  account_kind: ACCOUNT_KIND,
  withdrawal_status: WITHDRAWAL_STATUS,
  export_format: EXPORT_FORMAT,
  log_type: LOG_TYPE,
  cashout_state: CASHOUT_STATE,
  order_status: ORDER_STATUS,
  price_change_policy: PRICE_CHANGE_POLICY,
  bonus_base: BONUS_BASE,
  jackpot_bet_status: JACKPOT_BET_STATUS,
  jackpot_settle_status: JACKPOT_SETTLE_STATUS,
  jackpot_ticket_status: JACKPOT_TICKET_STATUS,
  jackpot_reward_type: JACKPOT_REWARD_TYPE,
  jackpot_cancel_rule: JACKPOT_CANCEL_RULE,
  jackpot_result: JACKPOT_RESULT_KIND,
  jackpot_held_state: JACKPOT_HELD_STATE,
  jackpot_payout_status: JACKPOT_PAYOUT_STATUS,
  jackpot_payout_kind: JACKPOT_PAYOUT_KIND,
  casino_round_status: CASINO_ROUND_STATUS,
  casino_volatility: CASINO_VOLATILITY,
  casino_game_kind: CASINO_GAME_KIND,
  racing_race_status: RACING_RACE_STATUS,
  racing_bet_status: RACING_BET_STATUS,
  racing_coin_direction: RACING_COIN_DIRECTION,
  mall_show_status: MALL_SHOW_STATUS,
  visit_device: VISIT_DEVICE,
  visit_source: VISIT_SOURCE,
  visitor_kind: VISITOR_KIND,
} as const;

export type EnumDefs = typeof ENUM_DEFS;
export type EnumName = keyof EnumDefs;
/** The stable English identifiers of one enumeration. */
export type EnumKey<N extends EnumName> = keyof EnumDefs[N] & string;
/** The id union of one enumeration. */
export type EnumId<N extends EnumName> = EnumDefs[N][keyof EnumDefs[N]];

export const ENUM_NAMES = Object.keys(ENUM_DEFS) as EnumName[];

/** Registry id -> identifier, e.g. `ENUMS.outcome_status[8] === 'void'`. */
export type EnumRegistry = { readonly [N in EnumName]: Readonly<Record<EnumId<N> & number, EnumKey<N>>> };

export const ENUMS: EnumRegistry = Object.freeze(
  Object.fromEntries(
    ENUM_NAMES.map((name) => [
      name,
      Object.freeze(Object.fromEntries(Object.entries(ENUM_DEFS[name]).map(([key, id]) => [id, key]))),
    ]),
  ),
) as EnumRegistry;

function isEnumName(name: string): name is EnumName {
  return Object.prototype.hasOwnProperty.call(ENUM_DEFS, name);
}

/** The ids of an enumeration, ascending. */
export function enumIds<N extends EnumName>(name: N): EnumId<N>[] {
  if (!isEnumName(name)) throw new RangeError(`Unknown enumeration: ${String(name)}`);
  return (Object.values(ENUM_DEFS[name]) as EnumId<N>[]).slice().sort((a, b) => (a as number) - (b as number));
}

/** True when `id` is one of the enumeration's ids (numbers only: '2' is not 2). */
export function isEnumValue<N extends EnumName>(name: N, id: unknown): id is EnumId<N> {
  if (!isEnumName(name) || typeof id !== 'number' || !Number.isInteger(id)) return false;
  return Object.prototype.hasOwnProperty.call(ENUMS[name], id);
}

/** The identifier of an id, or undefined when the id is not in the enumeration. */
export function enumKey<N extends EnumName>(name: N, id: number): EnumKey<N> | undefined {
  if (!isEnumValue(name, id)) return undefined;
  return (ENUMS[name] as Record<number, EnumKey<N>>)[id];
}
