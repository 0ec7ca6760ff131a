import { describe, expect, it } from 'vitest';
import {
  ABNORMAL_BET_THRESHOLD_MINUTES,
  BILL_TYPE,
  CREDIT_BILL_TYPE,
  ENUM_DEFS,
  ENUM_NAMES,
  ENUMS,
  enumIds,
  enumKey,
  isEnumValue,
  type EnumName,
} from '../src';

/** Spec §4 (and §3/§9 for sport, pay type, notify status, language, theme), as id -> identifier. */
const SPEC: Record<EnumName, Record<number, string>> = {
  outcome_status: {
    1: 'pending', 2: 'won', 3: 'lost', 4: 'unknown_resolved', 5: 'unknown', 6: 'half_won', 7: 'half_lost',
    8: 'void', 9: 'cancelled', 10: 'admin_cancelled',
  },
  event_status: {
    1: 'not_started', 2: 'in_progress', 3: 'ended', 4: 'interrupted', 5: 'cancelled', 6: 'walkover', 7: 'abandoned',
    8: 'retired',
  },
  event_info_status: { 1: 'valid', 2: 'removed', 3: 'invalid', 4: 'ended' },
  betting_offer_status: {
    1: 'bettable', 2: 'no_odds', 3: 'non_participant', 4: 'removed_from_feed', 5: 'invalid', 6: 'resolved',
    7: 'temporarily_removed',
  },
  location_type: { 1: 'country', 2: 'continent', 3: 'miscellaneous', 4: 'world' },
  selection_outcome: {
    0: 'pending', 1: 'abnormal_result', 2: 'refunded', 3: 'lost', 4: 'won', 5: 'half_won', 6: 'half_lost',
  },
  type_flag: { 0: 'undefined', 1: 'pre_match_and_in_play', 2: 'pre_match_only', 3: 'in_play_only' },
  match_status: {
    1: 'not_started', 2: 'in_progress', 3: 'ended', 4: 'paused', 5: 'cancelled', 6: 'cancelled_before_start',
    7: 'cancelled_after_start', 8: 'abandoned_after_start',
  },
  order_list_status: {
    2: 'awaiting_draw', 4: 'drawn', 6: 'early_settlement', 7: 'awaiting_statistics', 8: 'auto_early_settlement',
  },
  pay_status: { 1: 'processing', 2: 'paid', 3: 'voided' },
  archive_type: { 1: 'within_30_days', 2: 'before_30_days' },
  online_status: { 1: 'offline', 2: 'online' },
  user_disabled: { 1: 'enabled', 2: 'disabled' },
  menu_type: { 1: 'route', 2: 'button' },
  order_type: { 1: 'user_bet', 2: 'admin_bet', 3: 'random_bet' },
  match_status_at_bet: { 1: 'not_started', 2: 'started' },
  risk_level: { 1: 'none', 2: 'low', 3: 'moderate', 4: 'high', 5: 'no_betting' },
  bet_status: { 1: 'allowed', 2: 'not_allowed' },
  sealing: { 1: 'seal', 2: 'do_not_seal' },
  activity_qualification: { 1: 'pending', 2: 'success' },
  sms_status: { 1: 'unused', 2: 'used' },
  async_operation_status: { 1: 'in_progress', 2: 'completed', 3: 'abnormal' },
  collection_status: { 1: 'success', 2: 'fail' },
  google_binding: { 1: 'bound', 2: 'unbound' },
  message_status: { 1: 'not_viewed', 2: 'viewed' },
  wallet_removal: { 1: 'not_deleted', 2: 'deleted' },
  abnormal_bet_flag: {
    0: 'none', 1: 'no_result_120_minutes', 2: 'no_result_150_minutes', 3: 'no_result_5_hours', 4: 'no_result_24_hours',
  },
  picture_jump_type: { 1: 'router_push', 2: 'new_window', 3: 'current_window' },
  sport: { 1: 'football', 8: 'basketball' },
  pay_type: { 3: 'tigo', 4: 'airtel', 6: 'vodacom', 7: 'halotel', 10: 'usdt' },
  recharge_channel: { 1: 'app', 2: 'ussd', 3: 'chain' },
  notify_status: { 1: 'unviewed', 2: 'viewed' },
  language_show_status: { 1: 'hidden', 2: 'shown' },
  default_language: { 1: 'not_default', 2: 'default' },
  theme: { 1: 'light', 2: 'dark' },
  log_level: { 1: 'trace', 2: 'debug', 3: 'info', 4: 'warn', 5: 'error', 6: 'fatal' },
  bill_type: {
    1: 'bet', 2: 'bet_payout', 3: 'jackpot_payment', 4: 'user_recharge', 5: 'jackpot_result_change', 6: 'user_withdrawal',
    7: 'continuous_signup_promotion', 8: 'amount_rolled_back', 9: 'invitation_bonus', 10: 'inviter_profit_reward',
    11: 'ussd_deposit', 12: 'bet_to_get_bonus', 13: 'virtual_racing_bet', 14: 'racing_result_change',
    15: 'balance_to_racing_coin', 16: 'racing_coin_to_balance', 17: 'activity_award', 22: 'admin_balance_change',
    23: 'casino_bet', 24: 'casino_win', 25: 'casino_award',
  },
  credit_bill_type: { 3: 'jackpot_payment', 101: 'activity_credit_granted', 103: 'credit_bet', 104: 'credit_refund', 105: 'credit_expired', 106: 'admin_credit_change' },
  account_kind: { 1: 'cash', 2: 'credit' },
  withdrawal_status: { 1: 'pending_review', 2: 'awaiting_second_approval', 3: 'disbursing', 4: 'paid', 5: 'refused', 6: 'failed', 7: 'timed_out' },
  export_format: { 1: 'csv', 2: 'xlsx' },
  log_type: {
    1: 'ordinary', 2: 'login', 3: 'ip_blacklist', 4: 'reset_password', 5: 'delete_user', 6: 'mail_error',
    7: 'update_password', 8: 'new_user', 9: 'data_encryption_error', 10: 'update_user_info', 11: 'sql_error',
    12: 'update_balance', 13: 'radar_data_error', 14: 'radar_unknown_type', 15: 'socket_error', 16: 'front_end_error',
  },
  cashout_state: { 1: 'request', 2: 'requesting', 3: 'retrieving_update', 4: 'locked', 5: 'offer', 6: 'accept' },
  order_status: {
    1: 'unpaid', 2: 'pending', 3: 'order_exception', 4: 'settled', 6: 'early_settlement', 7: 'to_be_counted',
    8: 'auto_cash_out',
  },
  // Ours (issue 5 settings), not the spec's.
  price_change_policy: { 1: 'refuse', 2: 'accept_higher', 3: 'accept_any' },
  bonus_base: { 1: 'net_winnings', 2: 'payout' },
  // Ours (issue 12, jackpot design "States").
  jackpot_bet_status: { 1: 'not_open', 2: 'open', 3: 'suspended', 4: 'closed' },
  jackpot_settle_status: { 1: 'unsettled', 2: 'settling', 3: 'settled', 4: 'deleted', 5: 'voided' },
  jackpot_ticket_status: { 1: 'open', 2: 'won', 3: 'lost', 4: 'refunded' },
  jackpot_reward_type: { 1: 'shared', 2: 'fixed_per_line' },
  jackpot_cancel_rule: { 1: 'counts_as_won', 2: 'void_above_threshold' },
  jackpot_result: { 0: 'home', 1: 'draw', 2: 'away', 3: 'cancelled' },
  // Ours (issue 23): the queue of prizes held above the cap.
  jackpot_held_state: { 1: 'held', 2: 'awaiting_approval', 3: 'part_paid', 4: 'paid' },
  jackpot_payout_status: { 1: 'pending', 2: 'paid', 3: 'refused', 4: 'withdrawn' },
  jackpot_payout_kind: { 1: 'balance', 2: 'outside' },
  // Ours (issue 13, casino design "Tables").
  casino_round_status: { 1: 'open', 2: 'completed', 3: 'rolled_back' },
  casino_volatility: { 1: 'low', 2: 'medium', 3: 'high' },
  casino_game_kind: { 1: 'slot', 2: 'crash', 3: 'roulette' },
  // Ours (issue 23, virtual racing's screens).
  racing_race_status: { 1: 'open', 2: 'running', 3: 'finished', 4: 'cancelled' },
  racing_bet_status: { 1: 'open', 2: 'won', 3: 'lost', 4: 'refunded' },
  racing_coin_direction: { 1: 'to_coins', 2: 'from_coins' },
  mall_show_status: { 1: 'shown', 2: 'hidden' },
  visit_device: { 1: 'mobile', 2: 'desktop', 3: 'app_android', 4: 'app_ios' },
  visit_source: { 1: 'direct', 2: 'search', 3: 'social', 4: 'referral', 5: 'campaign' },
  visitor_kind: { 1: 'new', 2: 'returning' },
};

describe('bill type catalogue', () => {
  it('uses exactly the codes the spec says exist: 1-17 and 22-25 for cash, 3, 101, 103-106 for credit', () => {
    expect(Object.values(BILL_TYPE).sort((a, b) => a - b)).toEqual([...Array.from({ length: 17 }, (_, i) => i + 1), 22, 23, 24, 25]);
    expect(Object.values(CREDIT_BILL_TYPE).sort((a, b) => a - b)).toEqual([3, 101, 103, 104, 105, 106]);
  });
});

describe('enumerations of spec §4', () => {
  it('has exactly the registry names the server and console use', () => {
    expect([...ENUM_NAMES].sort()).toEqual(Object.keys(SPEC).sort());
  });

  it.each(Object.keys(SPEC) as EnumName[])('%s has the spec ids', (name) => {
    const expected = Object.fromEntries(Object.entries(SPEC[name]).map(([id, key]) => [key, Number(id)]));
    expect({ ...ENUM_DEFS[name] }).toEqual(expected);
    expect(ENUMS[name]).toEqual(Object.fromEntries(Object.entries(SPEC[name]).map(([id, key]) => [id, key])));
  });

  it('has no duplicate id inside an enumeration', () => {
    for (const name of ENUM_NAMES) {
      const ids = Object.values(ENUM_DEFS[name]);
      expect(new Set(ids).size, name).toBe(ids.length);
    }
  });

  it('lists ids ascending', () => {
    expect(enumIds('pay_type')).toEqual([3, 4, 6, 7, 10]);
    expect(enumIds('order_list_status')).toEqual([2, 4, 6, 7, 8]);
    expect(enumIds('selection_outcome')).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(enumIds('log_type')).toHaveLength(16);
    expect(() => enumIds('nope' as EnumName)).toThrow(RangeError);
  });

  it('tells enumeration values from other numbers', () => {
    expect(isEnumValue('sport', 8)).toBe(true);
    expect(isEnumValue('sport', 2)).toBe(false);
    expect(isEnumValue('sport', '8')).toBe(false);
    expect(isEnumValue('type_flag', 0)).toBe(true);
    expect(isEnumValue('outcome_status', 0)).toBe(false);
    expect(isEnumValue('outcome_status', 1.5)).toBe(false);
    expect(isEnumValue('nope' as EnumName, 1)).toBe(false);
    expect(enumKey('pay_type', 6)).toBe('vodacom');
    expect(enumKey('pay_type', 5)).toBeUndefined();
  });

  it('orders abnormal-bet flags by threshold in minutes', () => {
    expect(ABNORMAL_BET_THRESHOLD_MINUTES).toEqual({ 1: 120, 2: 150, 3: 300, 4: 1440 });
    const minutes = Object.values(ABNORMAL_BET_THRESHOLD_MINUTES);
    expect([...minutes].sort((a, b) => a - b)).toEqual(minutes);
  });

  it('gives the order statuses tied to list statuses the same ids', () => {
    // "pending (awaiting draw)", "settled (drawn)", "to be counted (awaiting statistics)"...
    expect(ENUM_DEFS.order_status.pending).toBe(ENUM_DEFS.order_list_status.awaiting_draw);
    expect(ENUM_DEFS.order_status.settled).toBe(ENUM_DEFS.order_list_status.drawn);
    expect(ENUM_DEFS.order_status.early_settlement).toBe(ENUM_DEFS.order_list_status.early_settlement);
    expect(ENUM_DEFS.order_status.to_be_counted).toBe(ENUM_DEFS.order_list_status.awaiting_statistics);
    expect(ENUM_DEFS.order_status.auto_cash_out).toBe(ENUM_DEFS.order_list_status.auto_early_settlement);
  });
});
