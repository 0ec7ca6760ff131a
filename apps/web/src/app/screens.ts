import type { ComponentType } from 'react';
import { loadTexts, type LazyArea } from '../locales';

/**
 * The route registry: which catalogue pages (packages/contract/src/menu.ts) the console has a screen for.
 * `/customer/:page` renders SCREENS[page] lazily when the admin may see the page; the menu shows only pages
 * that are both held by the admin and present here. Each entry is its own chunk.
 *
 * To add a screen: create the component (default export) and add `page_path: () => import('...')` below;
 * an area with texts of its own wraps it in `withTexts(area, …)`, a declared resource screen is `declared(…)`.
 */
export interface ScreenDef {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
}

type ScreenModule = { screens: Record<string, ComponentType> };

/** A screen with texts of its own area (src/locales/<lang>/<area>.ts): its chunk and its texts load together. */
const withTexts = (area: LazyArea, load: ScreenDef['load']): ScreenDef['load'] => () => Promise.all([load(), loadTexts(area)]).then(([m]) => m);

/** One screen of an area's declared resource screens (a `screens` map in the area's resourceScreens.tsx). */
const declared = (load: () => Promise<ScreenModule>, page: string): ScreenDef['load'] => () =>
  load().then((m) => {
    const screen = m.screens[page];
    if (!screen) throw new Error(`No resource screen for ${page}`);
    return { default: screen };
  });

/** The system screens' texts are in system.ts, loaded at start. */
const resource = (page: string) => declared(() => import('../pages/system/resourceScreens'), page);
/** Sports catalogue screens: their texts are in system.ts too. */
const sportsResource = (page: string) => declared(() => import('../pages/sports/resourceScreens'), page);
const sports = (load: ScreenDef['load']) => withTexts('sports', load);
const statistics = (load: ScreenDef['load']) => withTexts('statistics', load);
const money = (load: ScreenDef['load']) => withTexts('money', load);
const betting = (load: ScreenDef['load']) => withTexts('betting', load);
const jackpot = (load: ScreenDef['load']) => withTexts('jackpot', load);
const casino = (load: ScreenDef['load']) => withTexts('casino', load);
const tron = (load: ScreenDef['load']) => withTexts('tron', load);
const operations = (load: ScreenDef['load']) => withTexts('operations', load);
const bettingResource = (page: string) => betting(declared(() => import('../pages/betting/resourceScreens'), page));
const jackpotResource = (page: string) => jackpot(declared(() => import('../pages/jackpot/resourceScreens'), page));
const casinoResource = (page: string) => casino(declared(() => import('../pages/casino/resourceScreens'), page));
const racing = (load: ScreenDef['load']) => withTexts('racing', load);
const racingResource = (page: string) => racing(declared(() => import('../pages/racing/resourceScreens'), page));
const tronResource = (page: string) => tron(declared(() => import('../pages/tron/resourceScreens'), page));
const messagingResource = (page: string) => withTexts('messaging', declared(() => import('../pages/messaging/resourceScreens'), page));
const pushResource = (page: string) => withTexts('push', declared(() => import('../pages/push/resourceScreens'), page));
const contentResource = (page: string) => withTexts('content', declared(() => import('../pages/content/resourceScreens'), page));
const moneyResource = (page: string) => money(declared(() => import('../pages/money/resourceScreens'), page));

export const SCREENS: Record<string, ScreenDef['load']> = {
  // Statistics (the landing page first)
  today_statistics: statistics(betting(() => import('../pages/statistics/TodayStatisticsPage'))),
  match_statistics: statistics(() => import('../pages/statistics/MatchStatisticsPage')),
  history_statistics: statistics(() => import('../pages/statistics/HistoryStatisticsPage')),
  // System
  update_password: () => import('../pages/auth/UpdatePasswordPage'),
  administrators: () => import('../pages/system/AdministratorsPage'),
  role: () => import('../pages/system/RolePage'),
  ip_black: resource('ip_black'),
  language_list: resource('language_list'),
  log_type: resource('log_type'),
  log_config: resource('log_config'),
  configuration: resource('configuration'),
  subscriber_config_default: resource('subscriber_config_default'),
  log: resource('log'),
  // Duties (issue 22)
  pending_change: () => import('../pages/system/PendingChangePage'),
  setting_history: () => import('../pages/system/SettingHistoryPage'),
  async_operations: money(() => import('../pages/money/AsyncOperationsPage')),
  // System: uploads and content (issue 16)
  image_config: contentResource('image_config'),
  rotation_type: contentResource('rotation_type'),
  rotation: contentResource('rotation'),
  image_text_type: contentResource('image_text_type'),
  image_text: contentResource('image_text'),
  server_list: operations(() => import('../pages/operations/ServerListPage')),
  script: operations(() => import('../pages/operations/ScriptPage')),
  mysql_lock: operations(() => import('../pages/operations/LockPage')),
  mysql_time_consuming: operations(() => import('../pages/operations/SlowQueryPage')),
  // Betting: the sports catalogue
  league_list: sportsResource('league_list'),
  location: sportsResource('location'),
  event_template: sportsResource('event_template'),
  betting_type: sportsResource('betting_type'),
  popular: sportsResource('popular'),
  event_part: sportsResource('event_part'),
  outcome_sorting_type: sportsResource('outcome_sorting_type'),
  gameplay_classification: sportsResource('gameplay_classification'),
  option_translation: sportsResource('option_translation'),
  match_list: sports(() => import('../pages/sports/MatchListPage')),
  receiving_statistics: sports(() => import('../pages/sports/ReceivingStatisticsPage')),
  // Betting: the engine's orders and settings
  bet_config: bettingResource('bet_config'),
  string_rewards: bettingResource('string_rewards'),
  order_list: bettingResource('order_list'),
  order_detailed: betting(() => import('../pages/betting/OrderDetailPage')),
  bet_remind: bettingResource('bet_remind'),
  order_archive: bettingResource('order_archive'),
  cs_order: bettingResource('cs_order'),
  cs_order_detailed: betting(() => import('../pages/betting/OrderDetailPage')),
  cs_order_archive: bettingResource('cs_order_archive'),
  // Jackpot
  jackpot_bet_type: jackpotResource('jackpot_bet_type'),
  jackpot_identifier: jackpot(() => import('../pages/jackpot/IssuePage')),
  jackpot_bet: jackpot(() => import('../pages/jackpot/BetPage')),
  jackpot_bet_list: jackpotResource('jackpot_bet_list'),
  super_list: jackpotResource('super_list'),
  jackpot_held_prize: jackpot(() => import('../pages/jackpot/HeldPrizePage')),
  // Casino
  casino_classification: casinoResource('casino_classification'),
  casino_list: casinoResource('casino_list'),
  casino_order: casinoResource('casino_order'),
  casino_order_details: casino(() => import('../pages/casino/RoundPage')),
  casino_config: casino(() => import('../pages/casino/ConfigPage')),
  casino_game: casinoResource('casino_game'),
  casino_large_win: casino(() => import('../pages/casino/LargeWinPage')),
  casino_user: casinoResource('casino_user'),
  // Virtual racing (issue 23)
  racing_race: racingResource('racing_race'),
  racing_order: racingResource('racing_order'),
  racing_coin: racingResource('racing_coin'),
  racing_config: racingResource('racing_config'),
  racing_statistics: racing(() => import('../pages/racing/StatisticsPage')),
  // Users and money
  user: money(betting(() => import('../pages/money/UserPage'))),
  user_list: moneyResource('user_list'),
  online_statistical: money(() => import('../pages/money/OnlineStatisticalPage')),
  activity_qualification: money(withTexts('promotions', () => import('../pages/money/ActivityQualificationPage'))),
  activity_campaign: withTexts('promotions', () => import('../pages/promotions/CampaignPage')),
  bill: moneyResource('bill'),
  bill_credit: moneyResource('bill_credit'),
  admin_bill: money(() => import('../pages/money/AdminBillPage')),
  recharge_list: money(() => import('../pages/money/RechargeListPage')),
  // USDT withdrawals show their destination and hold in the tron texts (issue 29).
  withdraw_list: money(tron(() => import('../pages/money/WithdrawListPage'))),
  airtel_transfer: money(() => import('../pages/money/AirtelTransferPage')),
  operator_statements: money(() => import('../pages/money/StatementsPage')),
  payment_providers: withTexts('providers', () => import('../pages/money/PaymentProvidersPage')),
  pay_config: moneyResource('pay_config'),
  usdt_transaction_record: tronResource('usdt_transaction_record'),
  tron: tron(() => import('../pages/tron/WalletsPage')),
  tron_transaction_summary: tronResource('tron_transaction_summary'),
  tron_config: tronResource('tron_config'),
  // Reports (issue 30): the daily close (its figure cards and chart take the statistics texts) and the ledger self-check
  daily_close: withTexts('reports', statistics(() => import('../pages/reports/close/DailyClosePage'))),
  ledger_check: withTexts('reports', () => import('../pages/reports/close/LedgerCheckPage')),
  // Reports (issue 30): the tax returns
  tax_returns: withTexts('tax', () => import('../pages/reports/tax/TaxReturnsPage')),
  // Reports (issue 30): the auditors' log and the void and resettlement report
  significant_events: withTexts('audit', () => import('../pages/reports/audit/SignificantEventsPage')),
  resettlement_report: withTexts('audit', () => import('../pages/reports/audit/ResettlementReportPage')),
  // Archive
  bill_archive: moneyResource('bill_archive'),
  bill_credit_archive: moneyResource('bill_credit_archive'),
  recharge_archive: moneyResource('recharge_archive'),
  withdrawal_archive: moneyResource('withdrawal_archive'),
  // Customer service
  cs_user: money(() => import('../pages/money/CsUserPage')),
  cs_bill: moneyResource('cs_bill'),
  cs_activity_qualification: moneyResource('cs_activity_qualification'),
  cs_jackpot_bet: jackpot(() => import('../pages/jackpot/CsTicketPage')),
  cs_jackpot_bet_list: jackpotResource('cs_jackpot_bet_list'),
  cs_recharge: moneyResource('cs_recharge'),
  cs_withdraw: moneyResource('cs_withdraw'),
  // Messaging (issue 15, MSG)
  message_board: messagingResource('message_board'),
  no_send_sms: withTexts('sms', declared(() => import('../pages/sms/resourceScreens'), 'no_send_sms')),
  sms_send: withTexts('sms', () => import('../pages/sms/SmsSendPage')),
  message_list: messagingResource('message_list'),
  app_config: messagingResource('app_config'),
  push_device: pushResource('push_device'),
  precision_push_device: pushResource('precision_push_device'),
  telegram_bot_binding: pushResource('telegram_bot_binding'),
  // Shop and visitors (issue 16, SHOP)
  mall_category_list: withTexts('shop', declared(() => import('../pages/shop/resourceScreens'), 'mall_category_list')),
  mall_brand_list: withTexts('shop', declared(() => import('../pages/shop/resourceScreens'), 'mall_brand_list')),
  mall_product_list: withTexts('shop', declared(() => import('../pages/shop/resourceScreens'), 'mall_product_list')),
  // The charts' own words (loading) are in the statistics texts.
  visitor: withTexts('visitors', withTexts('statistics', () => import('../pages/visitors/VisitorPage'))),
};

/** Whether the console has a screen for a page. Pages ask `useAccess().hasScreen` (the shell hands it this): they never import the registry. */
export function hasScreen(page: string): boolean {
  return Object.prototype.hasOwnProperty.call(SCREENS, page);
}
