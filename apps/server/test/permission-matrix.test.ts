import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { permissionKey, type Permission } from '@dau/contract';
import { ADMIN_PASSWORD, AGENT_KEYS, LIMITED_KEYS, createTestApp, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { grantKeys } from './payments-fixtures.js';
import { roles } from '../src/platform/schema.js';
import { bettors } from '../src/schema.js';
import type { DeclaredRoute } from '../src/platform/access.js';

/**
 * The permission matrix, built from the router itself: every declared route x every kind of caller.
 * MATRIX lists every route the server has; a route missing here (or listed but gone) fails the test.
 * Each entry says how to call it so that an allowed caller gets a harmless answer. The routes of roles,
 * administrators and bettors are called on REAL objects of agent A's branch with valid bodies (`ok`: the
 * exact success status every allowed caller must get, so the scope check inside the handler runs and
 * agent B, of the other branch, must get 403). The rest still probe with a read, a deliberately invalid
 * body (400) or a missing id (404). The ownership matrix (ownership-matrix.test.ts) checks the effects.
 */
/**
 * `need`: 'public', 'signedIn', a page, or 'page:button' — stated here, independently of the route's own
 * declaration. `target`: the real object of agent A's branch that `:id` stands for.
 */
type Targets = { admin: number; role: number; bettor: number };
type Case = { need: string; url?: string; body?: unknown; branch?: true; fresh?: true; target?: keyof Targets; ok?: number };
/** A real object of agent A's branch, a valid body, and the success status an allowed caller gets. */
const real = (target: keyof Targets, body?: unknown | ((x: Targets) => unknown)): Pick<Case, 'target' | 'body' | 'branch' | 'ok'> => ({ target, body, branch: true, ok: 200 });
const INVALID = { matrix_probe: true };
const MISSING = '999999';
const PUBLIC = 'public';
const SIGNED_IN = 'signedIn';

const MATRIX: Record<string, Case> = {
  'GET /api/health': { need: PUBLIC },
  'GET /api/v1/site': { need: PUBLIC },
  'GET /api/v1/languages': { need: PUBLIC },
  'GET /api/v1/auth/register-config': { need: PUBLIC },
  'POST /api/v1/auth/register': { need: PUBLIC, body: INVALID },
  'POST /api/v1/auth/login': { need: PUBLIC, body: INVALID },
  'POST /api/v1/auth/logout': { need: SIGNED_IN, fresh: true },
  'GET /api/v1/auth/me': { need: SIGNED_IN },
  'POST /api/v1/auth/password': { need: SIGNED_IN, body: INVALID },
  'POST /api/v1/auth/google/setup': { need: SIGNED_IN },
  'POST /api/v1/auth/google/bind': { need: SIGNED_IN, body: INVALID },
  'POST /api/v1/auth/google/unbind': { need: SIGNED_IN, body: INVALID },
  'GET /api/v1/auth/preferences': { need: SIGNED_IN },
  'PUT /api/v1/auth/preferences': { need: SIGNED_IN, body: INVALID },
  'GET /api/v1/search': { need: SIGNED_IN, url: '/api/v1/search?q=0712345678' },
  'GET /api/v1/system/saved_filters': { need: SIGNED_IN, url: '/api/v1/system/saved_filters?page=update_password' },
  'POST /api/v1/system/saved_filters': { need: SIGNED_IN, body: INVALID },
  'PUT /api/v1/system/saved_filters/:id': { need: SIGNED_IN, body: {} },
  'PUT /api/v1/system/saved_filters/:id/default': { need: SIGNED_IN, body: INVALID },
  'DELETE /api/v1/system/saved_filters/:id': { need: SIGNED_IN },
  'GET /api/v1/notices': { need: SIGNED_IN },
  'POST /api/v1/notices/:id/viewed': { need: SIGNED_IN, url: `/api/v1/notices/${MISSING}/viewed` },
  'GET /api/v1/system/administrators': { need: 'administrators' },
  'GET /api/v1/system/administrators/options': { need: 'administrators' },
  'GET /api/v1/system/administrators/export': { need: 'administrators:export' },
  'GET /api/v1/system/administrators/:id': { need: 'administrators', ...real('admin') },
  'POST /api/v1/system/administrators': { need: 'administrators:create', body: INVALID },
  'PUT /api/v1/system/administrators/:id': { need: 'administrators:edit', ...real('admin', { name: 'Agent A1', phone: '255754000321' }) },
  'POST /api/v1/system/administrators/:id/disable': { need: 'administrators:disable', ...real('admin', { disabled: 1 }) },
  'POST /api/v1/system/administrators/:id/reset-password': { need: 'administrators:reset_password', ...real('admin', { password: 'Matrix#2026pass' }) },
  'POST /api/v1/system/administrators/:id/unbind-google': { need: 'administrators:unbind_google', ...real('admin') },
  'POST /api/v1/system/administrators/notify': { need: 'administrators:notify', ...real('admin', (x: Targets) => ({ admin_ids: [x.admin], content: 'From the matrix' })) },
  'GET /api/v1/system/roles': { need: 'role' },
  'GET /api/v1/system/roles/options': { need: 'administrators' },
  'POST /api/v1/system/roles': { need: 'role:create', body: INVALID },
  'PUT /api/v1/system/roles/:id': { need: 'role:edit', ...real('role', { name: 'A desk', remarks: 'matrix' }) },
  'DELETE /api/v1/system/roles/:id': { need: 'role:delete', url: `/api/v1/system/roles/${MISSING}` },
  'GET /api/v1/system/roles/:id/permissions': { need: 'role', ...real('role') },
  'PUT /api/v1/system/roles/:id/permissions': { need: 'role:permissions', ...real('role', { keys: ['log'] }) },
  'GET /ws': { need: PUBLIC },
  // The odds feed (issue 4): matches, a match's odds, receiving statistics.
  'GET /api/v1/sports/matches': { need: 'match_list' },
  'GET /api/v1/sports/matches/:id/odds': { need: 'match_list', url: `/api/v1/sports/matches/${MISSING}/odds` },
  'GET /api/v1/sports/matches/leagues': { need: 'match_list' },
  'GET /api/v1/sports/receiving_statistics': { need: 'receiving_statistics' },
  'POST /api/v1/sports/producers/:producer/recovery': { need: 'receiving_statistics:recover', url: '/api/v1/sports/producers/999/recovery' },
  'POST /api/v1/sports/matches/:eventId/recovery': { need: 'match_list:recover', url: `/api/v1/sports/matches/sr:match:${MISSING}/recovery` },
  // Operator controls of the match list (issue 4): each a button of match_list.
  'POST /api/v1/sports/matches/:id/visibility': { need: 'match_list:hide', body: INVALID },
  'POST /api/v1/sports/matches/:id/suspension': { need: 'match_list:suspend', body: INVALID },
  'POST /api/v1/sports/matches/:id/markets/:market_key/suspension': { need: 'match_list:suspend', body: INVALID },
  'POST /api/v1/sports/matches/:id/markets/suspension': { need: 'match_list:suspend', body: INVALID },
  'POST /api/v1/sports/matches/:id/markets/:market_key/outcomes/:outcome_id/suspension': { need: 'match_list:suspend', body: INVALID },
  'POST /api/v1/sports/matches/:id/live-delay': { need: 'match_list:live_delay', body: INVALID },
  'POST /api/v1/sports/matches/:id/random-bet': { need: 'match_list:random_bet', body: INVALID },
  'POST /api/v1/sports/matches/:id/ranking': { need: 'match_list:popularity', body: INVALID },
  'POST /api/v1/sports/matches/:id/maintenance': { need: 'match_list:maintain', body: INVALID },
  'POST /api/v1/sports/matches/:id/cancel': { need: 'match_list:cancel', body: INVALID },
  'POST /api/v1/sports/matches/:id/cancel/preview': { need: 'match_list:cancel', url: `/api/v1/sports/matches/${MISSING}/cancel/preview`, body: {} },
  'GET /api/v1/sports/margins': { need: 'match_list' },
  'PUT /api/v1/sports/margins': { need: 'match_list:odds', body: INVALID },
  // Bettors and money (issue 3)
  'GET /api/v1/money/bettors': { need: 'user' },
  'GET /api/v1/money/user_list': { need: 'user_list' },
  'GET /api/v1/money/cs/bettors': { need: 'cs_user' },
  'GET /api/v1/money/online': { need: 'online_statistical' },
  'GET /api/v1/money/online/summary': { need: 'online_statistical' },
  'GET /api/v1/money/activity_qualification': { need: 'activity_qualification' },
  'GET /api/v1/money/cs/activity_qualification': { need: 'cs_activity_qualification' },
  'POST /api/v1/money/activity_qualification/:id/approve': { need: 'activity_qualification:edit', body: INVALID },
  'GET /api/v1/promotions/campaigns': { need: 'activity_campaign' },
  'GET /api/v1/promotions/campaigns/:id': { need: 'activity_campaign', url: `/api/v1/promotions/campaigns/${MISSING}` },
  'POST /api/v1/promotions/campaigns': { need: 'activity_campaign:create', body: INVALID },
  'PUT /api/v1/promotions/campaigns/:id': { need: 'activity_campaign:edit', url: `/api/v1/promotions/campaigns/${MISSING}`, body: INVALID },
  'DELETE /api/v1/promotions/campaigns/:id': { need: 'activity_campaign:delete', url: `/api/v1/promotions/campaigns/${MISSING}` },
  'POST /api/v1/promotions/campaigns/:id/activate': { need: 'activity_campaign:approve', url: `/api/v1/promotions/campaigns/${MISSING}/activate` },
  'POST /api/v1/promotions/campaigns/:id/pause': { need: 'activity_campaign:approve', url: `/api/v1/promotions/campaigns/${MISSING}/pause` },
  'GET /api/v1/promotions/campaigns/:id/stats': { need: 'activity_campaign', url: `/api/v1/promotions/campaigns/${MISSING}/stats` },
  'POST /api/v1/promotions/campaigns/:id/award': { need: 'activity_campaign:create', url: `/api/v1/promotions/campaigns/${MISSING}/award`, body: INVALID },
  'POST /api/v1/promotions/qualifications/:id/approve': { need: 'activity_qualification:approve', url: `/api/v1/promotions/qualifications/${MISSING}/approve` },
  'POST /api/v1/promotions/qualifications/approve': { need: 'activity_qualification:approve', body: INVALID },
  'GET /api/v1/money/bettors/:id': { need: 'user', ...real('bettor') },
  'POST /api/v1/money/bettors/:id/balance': { need: 'user:edit_balance', ...real('bettor', { amount: 100, remark: 'matrix' }) },
  'POST /api/v1/money/bettors/:id/credit': { need: 'user:edit_credit', ...real('bettor', { amount: 100, remark: 'matrix' }) },
  'PUT /api/v1/money/bettors/:id/agent': { need: 'user:change_agent', ...real('bettor', (x: Targets) => ({ agent_id: x.admin })) },
  'PUT /api/v1/money/bettors/:id/invitation-code': { need: 'user:invitation_code', ...real('bettor', {}) },
  'POST /api/v1/money/bettors/:id/reset-password': { need: 'user:reset_password', ...real('bettor', {}) },
  'POST /api/v1/money/bettors/:id/disable': { need: 'user:disable', ...real('bettor', { disabled: 1 }) },
  'PUT /api/v1/money/bettors/:id/risk': { need: 'user:risk', ...real('bettor', { risk_level: 2 }) },
  'POST /api/v1/money/bettors/refresh': { need: 'user:refresh', ...real('bettor', (x: Targets) => ({ bettor_ids: [x.bettor] })) },
  'GET /api/v1/money/bills': { need: 'bill' },
  'GET /api/v1/money/bill_credit': { need: 'bill_credit' },
  'GET /api/v1/money/cs/bills': { need: 'cs_bill' },
  'GET /api/v1/money/admin_bills': { need: 'admin_bill' },
  'GET /api/v1/money/admin_bills/statement': { need: 'admin_bill' },
  'GET /api/v1/money/bills/archive': { need: 'bill_archive' },
  'GET /api/v1/money/bill_credit/archive': { need: 'bill_credit_archive' },
  // Recharges, withdrawals, Airtel transfers, payment settings, operator callbacks (modules/payments).
  'GET /api/v1/money/recharges': { need: 'recharge_list' },
  'GET /api/v1/money/cs/recharges': { need: 'cs_recharge' },
  'GET /api/v1/money/recharges/archive': { need: 'recharge_archive' },
  'POST /api/v1/money/recharges/:id/requery': { need: 'recharge_list:requery' },
  'POST /api/v1/money/recharges/:id/reconcile': { need: 'recharge_list:reconcile', body: INVALID },
  'GET /api/v1/money/withdrawals': { need: 'withdraw_list' },
  'GET /api/v1/money/cs/withdrawals': { need: 'cs_withdraw' },
  'GET /api/v1/money/withdrawals/archive': { need: 'withdrawal_archive' },
  'POST /api/v1/money/withdrawals/:id/approve': { need: 'withdraw_list:approve' },
  'POST /api/v1/money/withdrawals/:id/refuse': { need: 'withdraw_list:refuse', body: INVALID },
  'POST /api/v1/money/withdrawals/approve': { need: 'withdraw_list:approve', body: INVALID },
  'POST /api/v1/money/withdrawals/refuse': { need: 'withdraw_list:refuse', body: INVALID },
  'POST /api/v1/money/withdrawals/:id/requery': { need: 'withdraw_list:requery' },
  'POST /api/v1/money/withdrawals/:id/reconcile': { need: 'withdraw_list:reconcile', body: INVALID },
  'GET /api/v1/money/airtel_transfer': { need: 'airtel_transfer' },
  'POST /api/v1/money/airtel_transfer/:kind/:id/requery': { need: 'airtel_transfer:requery', url: `/api/v1/money/airtel_transfer/withdrawal/${MISSING}/requery` },
  'GET /api/v1/money/pay_config': { need: 'pay_config' },
  'PUT /api/v1/money/pay_config': { need: 'pay_config:edit', body: INVALID },
  // Public, authenticated by the operator's signature: probed on a pay type with no operator (404 for all).
  'POST /api/v1/payments/callback/:pay_type': { need: PUBLIC, url: '/api/v1/payments/callback/5', body: INVALID },
  'POST /api/v1/exports': { need: SIGNED_IN, body: INVALID },
  'GET /api/v1/system/async_operations': { need: 'async_operations' },
  'GET /api/v1/system/async_operations/:id/download': { need: 'async_operations:download' },
  'DELETE /api/v1/system/async_operations/:id': { need: 'async_operations:delete' },
  // Statistics screens (issue 5): today, per match, per day.
  'GET /api/v1/statistics/today': { need: 'today_statistics' },
  'GET /api/v1/statistics/exposure': { need: 'today_statistics' },
  'GET /api/v1/statistics/history': { need: 'history_statistics', url: '/api/v1/statistics/history?date_from=2026-01-01&date_to=2026-01-31' },
  'GET /api/v1/statistics/matches': { need: 'match_statistics' },
  'GET /api/v1/statistics/matches/:event_id': { need: 'match_statistics', url: `/api/v1/statistics/matches/${MISSING}` },
  'GET /api/docs': { need: PUBLIC },
  // The OpenAPI document: signed-in admins only unless DAU_PUBLIC_DOCS=1 (the viewer page stays public).
  'GET /api/docs/json': { need: SIGNED_IN },
  'GET /api/docs/yaml': { need: SIGNED_IN },
  'GET /api/docs/static/*': { need: PUBLIC, url: '/api/docs/static/index.html' },
  // Betting engine (issue 5)
  'GET /api/v1/betting/orders': { need: 'order_list' },
  'GET /api/v1/betting/cs/orders': { need: 'cs_order' },
  'GET /api/v1/betting/orders/archive': { need: 'order_archive' },
  'GET /api/v1/betting/cs/orders/archive': { need: 'cs_order_archive' },
  'GET /api/v1/betting/reminders': { need: 'bet_remind' },
  'GET /api/v1/betting/orders/:id': { need: 'order_detailed', url: `/api/v1/betting/orders/${MISSING}` },
  'GET /api/v1/betting/cs/orders/:id': { need: 'cs_order_detailed', url: `/api/v1/betting/cs/orders/${MISSING}` },
  'POST /api/v1/betting/orders/:id/lines/:line_id/result': { need: 'order_detailed:change_result', url: `/api/v1/betting/orders/${MISSING}/lines/${MISSING}/result`, body: INVALID },
  'POST /api/v1/betting/matches/:event_id/result': { need: 'order_detailed:change_match_result', url: `/api/v1/betting/matches/${MISSING}/result`, body: INVALID },
  'POST /api/v1/betting/orders/:id/cancel': { need: 'order_detailed:cancel', url: `/api/v1/betting/orders/${MISSING}/cancel`, body: INVALID },
  'GET /api/v1/betting/orders/:id/cashout': { need: 'order_detailed', url: `/api/v1/betting/orders/${MISSING}/cashout` },
  'POST /api/v1/betting/random-bets': { need: 'order_list:random_bet', body: INVALID },
  'GET /api/v1/betting/ticker': { need: 'today_statistics' },
  // Jackpot (issue 12): issues, tickets, shares; the bet types are a resource (below).
  'GET /api/v1/jackpot/issues': { need: 'jackpot_identifier' },
  'GET /api/v1/jackpot/issues/:id': { need: 'jackpot_identifier', url: `/api/v1/jackpot/issues/${MISSING}` },
  'POST /api/v1/jackpot/issues': { need: 'jackpot_identifier:create', body: INVALID },
  'GET /api/v1/jackpot/issues/:id/candidates': { need: 'jackpot_identifier:get_matches', url: `/api/v1/jackpot/issues/${MISSING}/candidates` },
  'PUT /api/v1/jackpot/issues/:id/matches': { need: 'jackpot_identifier:get_matches', url: `/api/v1/jackpot/issues/${MISSING}/matches`, body: INVALID },
  'POST /api/v1/jackpot/issues/:id/open': { need: 'jackpot_identifier:open_bets', url: `/api/v1/jackpot/issues/${MISSING}/open` },
  'PUT /api/v1/jackpot/issues/:id/bet_status': { need: 'jackpot_identifier:bet_status', url: `/api/v1/jackpot/issues/${MISSING}/bet_status`, body: INVALID },
  'PUT /api/v1/jackpot/issues/:id/results': { need: 'jackpot_identifier:change_result', url: `/api/v1/jackpot/issues/${MISSING}/results`, body: INVALID },
  'POST /api/v1/jackpot/issues/:id/results/refresh': { need: 'jackpot_identifier:change_result', url: `/api/v1/jackpot/issues/${MISSING}/results/refresh` },
  'POST /api/v1/jackpot/issues/:id/settle/preview': { need: 'jackpot_identifier:settle', url: `/api/v1/jackpot/issues/${MISSING}/settle/preview` },
  'POST /api/v1/jackpot/issues/:id/settle': { need: 'jackpot_identifier:settle', url: `/api/v1/jackpot/issues/${MISSING}/settle`, body: INVALID },
  'GET /api/v1/jackpot/issues/:id/settlements': { need: 'jackpot_identifier:settle', url: `/api/v1/jackpot/issues/${MISSING}/settlements` },
  'GET /api/v1/jackpot/issues/:id/statistics': { need: 'jackpot_identifier:statistics', url: `/api/v1/jackpot/issues/${MISSING}/statistics` },
  'GET /api/v1/jackpot/issues/:id/risk': { need: 'jackpot_identifier:statistics', url: `/api/v1/jackpot/issues/${MISSING}/risk` },
  'DELETE /api/v1/jackpot/issues/:id': { need: 'jackpot_identifier:delete', url: `/api/v1/jackpot/issues/${MISSING}`, body: INVALID },
  'GET /api/v1/jackpot/open-issues': { need: 'jackpot_bet' },
  'POST /api/v1/jackpot/tickets/quote': { need: 'jackpot_bet', body: INVALID },
  'POST /api/v1/jackpot/tickets': { need: 'jackpot_bet:create', body: INVALID },
  'GET /api/v1/jackpot/tickets': { need: 'jackpot_bet_list' },
  'GET /api/v1/jackpot/cs/tickets': { need: 'cs_jackpot_bet_list' },
  'GET /api/v1/jackpot/tickets/:id': { need: 'jackpot_bet_list:detail', url: `/api/v1/jackpot/tickets/${MISSING}` },
  'GET /api/v1/jackpot/cs/tickets/:id': { need: 'cs_jackpot_bet', url: `/api/v1/jackpot/cs/tickets/${MISSING}` },
  'GET /api/v1/jackpot/shares': { need: 'super_list' },
  'GET /api/v1/jackpot/shares/:code': { need: 'super_list', url: '/api/v1/jackpot/shares/NOSUCHCODE' },
  'GET /api/v1/jackpot/held_prizes': { need: 'jackpot_held_prize' },
  'GET /api/v1/jackpot/held_prizes/:id': { need: 'jackpot_held_prize' },
  'POST /api/v1/jackpot/held_prizes/:id/pay': { need: 'jackpot_held_prize:pay', body: INVALID },
  'POST /api/v1/jackpot/held_prizes/:id/pay_outside': { need: 'jackpot_held_prize:pay_outside', body: INVALID },
  'POST /api/v1/jackpot/prize_payouts/:id/approve': { need: 'jackpot_held_prize:approve' },
  'POST /api/v1/jackpot/prize_payouts/:id/refuse': { need: 'jackpot_held_prize:approve', body: INVALID },
  // Casino (issue 13): the wallet API is public to the admin layer (each call authenticates its provider
  // and answers 200 with a wallet status, refusing admin tokens); sessions and rounds are the branch's.
  ...Object.fromEntries(
    ['user/balance', 'transaction/bet', 'transaction/win', 'transaction/rollback', 'round/end'].map((call) => [
      `POST /wallet/v1/:provider/${call}`,
      { need: PUBLIC, url: `/wallet/v1/sandbox/${call}`, body: INVALID },
    ]),
  ),
  'GET /api/v1/casino/rounds': { need: 'casino_order' },
  'GET /api/v1/casino/rounds/:id': { need: 'casino_order_details', url: `/api/v1/casino/rounds/${MISSING}` },
  // Casino reports and the RTP chart.
  'GET /api/v1/casino/reports/games': { need: 'casino_game' },
  'GET /api/v1/casino/reports/games/totals': { need: 'casino_game' },
  'GET /api/v1/casino/reports/bettors': { need: 'casino_user' },
  'GET /api/v1/casino/reports/bettors/totals': { need: 'casino_user' },
  'GET /api/v1/casino/games/:id/rtp': { need: 'casino_game', url: `/api/v1/casino/games/${MISSING}/rtp` },
  // Virtual racing (issue 23): its own pages (races, bets, coin moves, settings, figures).
  'GET /api/v1/racing/races': { need: 'racing_race' },
  'GET /api/v1/racing/races/:id': { need: 'racing_race', url: `/api/v1/racing/races/${MISSING}` },
  'GET /api/v1/racing/bets': { need: 'racing_order' },
  'GET /api/v1/racing/bets/:id': { need: 'racing_order:detail', url: `/api/v1/racing/bets/${MISSING}` },
  'GET /api/v1/racing/coin_moves': { need: 'racing_coin' },
  'GET /api/v1/racing/statistics': { need: 'racing_statistics', url: '/api/v1/racing/statistics?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z' },
  'GET /api/v1/racing/settings': { need: 'racing_config' },
  'PUT /api/v1/racing/settings': { need: 'racing_config:edit', body: INVALID },
  // TRON wallets (issue 14): the page `tron` and its buttons.
  'GET /api/v1/tron/wallets': { need: 'tron' },
  'GET /api/v1/tron/wallets/:id': { need: 'tron', url: `/api/v1/tron/wallets/${MISSING}` },
  'GET /api/v1/tron/wallets/:id/balance': { need: 'tron', url: `/api/v1/tron/wallets/${MISSING}/balance` },
  'POST /api/v1/tron/wallets': { need: 'tron:create', body: INVALID },
  'DELETE /api/v1/tron/wallets/:id': { need: 'tron:delete', url: `/api/v1/tron/wallets/${MISSING}`, body: INVALID },
  'POST /api/v1/tron/wallets/sync': { need: 'tron:sync_balance', body: INVALID },
  // TRON money flows (issue 14, T2): the lists, the reconciliation view, collect / collect all, the poisoning hold's release.
  'GET /api/v1/tron/transfers': { need: 'usdt_transaction_record' },
  'GET /api/v1/tron/sweeps': { need: 'tron_transaction_summary' },
  'GET /api/v1/tron/reconciliation': { need: 'tron', url: `/api/v1/tron/reconciliation?wallet_id=${MISSING}` },
  'POST /api/v1/tron/wallets/:id/collect': { need: 'tron:collect', url: `/api/v1/tron/wallets/${MISSING}/collect` },
  'POST /api/v1/tron/collect_all': { need: 'tron:collect_all' },
  'GET /api/v1/tron/withdrawals/:id': { need: 'withdraw_list', url: `/api/v1/tron/withdrawals/${MISSING}` },
  'POST /api/v1/tron/withdrawals/:id/release': { need: 'withdraw_list:approve', url: `/api/v1/tron/withdrawals/${MISSING}/release`, body: INVALID },
  // Issue 29: the USDT rows of a review page at once; the TRON settings (page tron_config).
  'GET /api/v1/tron/withdrawals': { need: 'withdraw_list', url: `/api/v1/tron/withdrawals?ids=${MISSING}` },
  'GET /api/v1/tron/settings': { need: 'tron_config' },
  'PUT /api/v1/tron/settings': { need: 'tron_config:edit', body: INVALID },
  // Messaging (issue 15, MSG): the message board, in-app messages, the app's public version check.
  'GET /api/v1/messaging/board': { need: 'message_board' },
  'POST /api/v1/messaging/board/:id/read': { need: 'message_board', url: `/api/v1/messaging/board/${MISSING}/read` },
  'POST /api/v1/messaging/board/:id/reply': { need: 'message_board:reply', url: `/api/v1/messaging/board/${MISSING}/reply`, body: { content: 'From the matrix' } },
  'DELETE /api/v1/messaging/board/:id': { need: 'message_board:delete', url: `/api/v1/messaging/board/${MISSING}` },
  'POST /api/v1/messaging/board/clear': { need: 'message_board:clear', body: INVALID },
  'GET /api/v1/messaging/messages': { need: 'message_list' },
  'GET /api/v1/messaging/messages/:id': { need: 'message_list', url: `/api/v1/messaging/messages/${MISSING}` },
  'POST /api/v1/messaging/messages': { need: 'message_list:send', body: INVALID },
  'POST /api/v1/messaging/recipients/resolve': { need: 'message_list:send', body: INVALID },
  'POST /api/v1/messaging/recipients/count': { need: 'message_list:send', body: INVALID },
  'DELETE /api/v1/messaging/messages/:id': { need: 'message_list:delete', url: `/api/v1/messaging/messages/${MISSING}` },
  'GET /api/public/app-version': { need: PUBLIC, url: '/api/public/app-version?platform=android&version=1.0.0' },
  'GET /api/v1/shop/categories/all': { need: SIGNED_IN, url: '/api/v1/shop/categories/all?show_status=1' },
  'GET /api/v1/visitors/stats': { need: 'visitor', url: '/api/v1/visitors/stats?date_from=2026-01-01&date_to=2026-01-31' },
  'GET /api/v1/visitors/visits': { need: 'visitor' },
  'POST /api/v1/file/add': { need: SIGNED_IN, body: INVALID },
  'GET /uploads/:name': { need: PUBLIC, url: `/uploads/${'0'.repeat(64)}.png` },
  'GET /api/docs/static/index.html': { need: PUBLIC },
  'GET /api/docs/static/swagger-initializer.js': { need: PUBLIC },
  // Operations (issue 16, OPS): servers, scripts, database locks and sessions, metrics (its own token).
  'GET /metrics': { need: PUBLIC },
  'GET /api/v1/operations/servers': { need: 'server_list' },
  'DELETE /api/v1/operations/servers/:id': { need: 'server_list:delete', url: '/api/v1/operations/servers/00000000-0000-4000-8000-000000000000' },
  'GET /api/v1/operations/scripts': { need: 'script' },
  'GET /api/v1/operations/script-runs': { need: 'script' },
  'POST /api/v1/operations/script-runs': { need: 'script:run', body: INVALID },
  'POST /api/v1/operations/script-runs/:id/approve': { need: 'script:approve', url: `/api/v1/operations/script-runs/${MISSING}/approve` },
  'POST /api/v1/operations/script-runs/:id/withdraw': { need: 'script:run', url: `/api/v1/operations/script-runs/${MISSING}/withdraw` },
  'GET /api/v1/operations/script-runs/:id/output': { need: 'script', url: `/api/v1/operations/script-runs/${MISSING}/output` },
  'GET /api/v1/operations/locks': { need: 'mysql_lock' },
  'POST /api/v1/operations/locks/:pid/release': { need: 'mysql_lock:release', url: `/api/v1/operations/locks/${MISSING}/release` },
  'GET /api/v1/operations/activity': { need: 'mysql_time_consuming' },
  // Push and Telegram (issue 15, PUSH): devices, public and precision pushes, bindings, my binding code.
  'GET /api/v1/push/devices': { need: 'push_device' },
  'GET /api/v1/push/precision/devices': { need: 'precision_push_device' },
  'GET /api/v1/push/count': { need: 'push_device:push' },
  'POST /api/v1/push/public': { need: 'push_device:push', body: INVALID },
  'POST /api/v1/push/precision': { need: 'precision_push_device:push', body: INVALID },
  'GET /api/v1/push/sends/:id': { need: 'push_device', url: `/api/v1/push/sends/${MISSING}` },
  'GET /api/v1/push/precision/:id': { need: 'precision_push_device', url: `/api/v1/push/precision/${MISSING}` },
  'GET /api/v1/telegram/bindings': { need: 'telegram_bot_binding' },
  'DELETE /api/v1/telegram/bindings/:id': { need: 'telegram_bot_binding:delete', url: `/api/v1/telegram/bindings/${MISSING}` },
  'POST /api/v1/telegram/bind-code': { need: 'telegram_bot_binding:bind' },
  'GET /api/v1/telegram/me': { need: 'telegram_bot_binding' },
  // SMS (issue 15, SMS): the no-send list's import, settings, preview and send, history, AT's callbacks (token in the URL).
  'POST /api/v1/sms/exclusions/import': { need: 'no_send_sms:import', body: INVALID },
  // Mobile-money providers (issue 28): the accounts (write-only credentials) and the routing of pay types.
  'GET /api/v1/payments/providers': { need: 'payment_providers' },
  'GET /api/v1/payments/providers/:provider': { need: 'payment_providers', url: '/api/v1/payments/providers/mpesa' },
  'PUT /api/v1/payments/providers/:provider': { need: 'payment_providers:edit', url: '/api/v1/payments/providers/mpesa', body: INVALID },
  'GET /api/v1/payments/routing': { need: 'payment_providers' },
  'PUT /api/v1/payments/routing': { need: 'payment_providers:edit', body: INVALID },
  // Operators' statements reconciled (issue 28).
  'GET /api/v1/money/operator_statements': { need: 'operator_statements' },
  'GET /api/v1/money/operator_statements/:id': { need: 'operator_statements', url: `/api/v1/money/operator_statements/${MISSING}` },
  'GET /api/v1/money/operator_statement_items': { need: 'operator_statements', url: `/api/v1/money/operator_statement_items?statement_id=${MISSING}` },
  'POST /api/v1/money/operator_statements/import': { need: 'operator_statements:import', body: INVALID },
  'POST /api/v1/money/operator_statements/fetch': { need: 'operator_statements:import', body: INVALID },
  // The daily close and the ledger self-check (issue 30): the whole book's (a branch admin with the page gets 403 WHOLE_BOOK_ONLY).
  'GET /api/v1/reports/daily_closes': { need: 'daily_close' },
  'GET /api/v1/reports/daily_closes/:day': { need: 'daily_close', url: '/api/v1/reports/daily_closes/2001-01-01' },
  'POST /api/v1/reports/daily_closes/run': { need: 'daily_close:run', body: INVALID },
  'POST /api/v1/reports/ledger_check/run': { need: 'ledger_check:run', body: INVALID },
  // The auditors' reports (issue 30): reads of the whole book (a branch admin with the page gets 403 WHOLE_BOOK_ONLY).
  'GET /api/v1/reports/significant_events': { need: 'significant_events' },
  'GET /api/v1/reports/resettlements': { need: 'resettlement_report' },
  'GET /api/v1/reports/resettlements/changes': { need: 'resettlement_report' },
  // Tax returns (issue 30): the whole book's; the rates wait for a second admin.
  'GET /api/v1/reports/tax/returns/:month': { need: 'tax_returns' },
  'POST /api/v1/reports/tax/returns/:month/compute': { need: 'tax_returns', body: INVALID },
  'GET /api/v1/reports/tax/wht_orders': { need: 'tax_returns' },
  'GET /api/v1/reports/tax/wht_bettors': { need: 'tax_returns' },
  'GET /api/v1/reports/tax/gaming_return': { need: 'tax_returns' },
  'GET /api/v1/reports/tax/gaming_rates': { need: 'tax_returns' },
  'PUT /api/v1/reports/tax/gaming_rates': { need: 'tax_returns:edit', body: INVALID },
  // A number ported to another network (issue 28).
  'POST /api/v1/money/bettors/:id/ported': { need: 'user:ported', ...real('bettor', { pay_type: 6, remark: 'matrix' }) },
  'DELETE /api/v1/money/bettors/:id/ported': { need: 'user:ported', ...real('bettor') },
  'GET /api/v1/sms/config': { need: 'sms_send:config' },
  'PUT /api/v1/sms/config': { need: 'sms_send:config', body: INVALID },
  'POST /api/v1/sms/preview': { need: 'sms_send:send', body: INVALID },
  'POST /api/v1/sms/sends': { need: 'sms_send:send', body: INVALID },
  'GET /api/v1/sms/sends': { need: 'sms_send' },
  'GET /api/v1/sms/sends/:id': { need: 'sms_send', url: `/api/v1/sms/sends/${MISSING}` },
  'GET /api/v1/sms/sends/:id/recipients': { need: 'sms_send', url: `/api/v1/sms/sends/${MISSING}/recipients` },
  'POST /api/public/sms/at/delivery': { need: PUBLIC, url: '/api/public/sms/at/delivery?token=wrong', body: INVALID },
  'POST /api/public/sms/at/incoming': { need: PUBLIC, url: '/api/public/sms/at/incoming?token=wrong', body: INVALID },
  // Duties (issue 22): pending changes (approval rights are checked in the handler: the change's own button) and the history.
  'GET /api/v1/system/pending_changes': { need: 'pending_change' },
  'GET /api/v1/system/pending_changes/:id': { need: 'pending_change', url: `/api/v1/system/pending_changes/${MISSING}` },
  'POST /api/v1/system/pending_changes/:id/approve': { need: 'pending_change', url: `/api/v1/system/pending_changes/${MISSING}/approve`, body: {} },
  'POST /api/v1/system/pending_changes/:id/refuse': { need: 'pending_change', url: `/api/v1/system/pending_changes/${MISSING}/refuse`, body: { reason: 'matrix' } },
  'GET /api/v1/system/setting_names': { need: SIGNED_IN },
  'GET /api/v1/system/setting_history': { need: 'setting_history' },
  'GET /api/v1/system/setting_history/export': { need: 'setting_history:export' },
  'GET /api/v1/casino/large_wins': { need: 'casino_large_win' },
  'POST /api/v1/casino/large_wins/:round_id/review': { need: 'casino_large_win:review', url: `/api/v1/casino/large_wins/${MISSING}/review`, body: { note: 'matrix' } },
};
// The resource routes follow one pattern each: the page to read, page:action to act.
for (const [api, page, kind, actions] of [
  ['/system/ip_black', 'ip_black', 'list', ['create', 'edit', 'delete', 'export']],
  ['/system/languages', 'language_list', 'list', ['create', 'edit', 'delete']],
  ['/system/log_types', 'log_type', 'list', ['edit']],
  ['/system/log_config', 'log_config', 'list', ['edit']],
  ['/system/logs', 'log', 'list', ['export']],
  ['/system/configuration', 'configuration', 'singleton', ['edit']],
  ['/system/subscriber_config', 'subscriber_config_default', 'singleton', ['edit']],
  // Sports catalogue (issue 4)
  ['/sports/locations', 'location', 'list', ['create', 'edit', 'delete', 'export']],
  ['/sports/leagues', 'league_list', 'list', ['create', 'edit', 'delete', 'export']],
  ['/sports/event_templates', 'event_template', 'list', ['create', 'edit', 'delete', 'export']],
  ['/sports/betting_types', 'betting_type', 'list', ['create', 'edit', 'delete', 'export']],
  ['/sports/event_parts', 'event_part', 'list', ['create', 'edit', 'delete', 'export']],
  ['/sports/popular', 'popular', 'list', ['create', 'edit', 'delete', 'export']],
  ['/sports/outcome_sorting_types', 'outcome_sorting_type', 'list', ['create', 'edit', 'delete', 'export']],
  ['/sports/gameplay_classifications', 'gameplay_classification', 'list', ['create', 'edit', 'delete', 'export']],
  ['/sports/option_translations', 'option_translation', 'list', ['create', 'edit', 'delete', 'export']],
  // Betting engine settings (issue 5)
  ['/betting/bet_config', 'bet_config', 'singleton', ['edit']],
  ['/betting/string_rewards', 'string_rewards', 'list', ['create', 'edit', 'delete']],
  // Jackpot (issue 12)
  ['/jackpot/bet_types', 'jackpot_bet_type', 'list', ['create', 'edit', 'delete']],
  // Casino (issue 13)
  ['/casino/categories', 'casino_classification', 'list', ['create', 'edit', 'delete', 'export']],
  ['/casino/games', 'casino_list', 'list', ['create', 'edit', 'delete', 'export']],
  ['/casino/providers', 'casino_config', 'list', ['create', 'edit']],
  ['/casino/settings', 'casino_config', 'singleton', ['edit']],
  // Messaging (issue 15, MSG)
  ['/messaging/app_versions', 'app_config', 'list', ['create', 'edit', 'delete']],
  // Push and Telegram (issue 15, PUSH)
  ['/push/config', 'push_device', 'singleton', ['edit']],
  ['/telegram/config', 'telegram_bot_binding', 'singleton', ['edit']],
  // SMS (issue 15, SMS)
  ['/sms/exclusions', 'no_send_sms', 'list', ['create', 'delete']],
  // Shop (issue 16, SHOP)
  ['/shop/categories', 'mall_category_list', 'list', ['create', 'edit', 'delete', 'export']],
  ['/shop/brands', 'mall_brand_list', 'list', ['create', 'edit', 'delete', 'export']],
  ['/shop/products', 'mall_product_list', 'list', ['create', 'edit', 'delete', 'export']],
  // Files and content (issue 16, FILES)
  ['/system/image_config', 'image_config', 'singleton', ['edit']],
  ['/content/rotation_types', 'rotation_type', 'list', ['create', 'edit', 'delete']],
  ['/content/rotations', 'rotation', 'list', ['create', 'edit', 'delete']],
  ['/content/image_text_types', 'image_text_type', 'list', ['create', 'edit', 'delete']],
  ['/content/image_texts', 'image_text', 'list', ['create', 'edit', 'delete']],
] as const) {
  const base = `/api/v1${api}`;
  const has = (a: string) => (actions as readonly string[]).includes(a);
  MATRIX[`GET ${base}`] = { need: page };
  if (kind === 'singleton') {
    MATRIX[`PUT ${base}`] = { need: `${page}:edit`, body: INVALID };
    continue;
  }
  MATRIX[`GET ${base}/:id`] = { need: page, url: `${base}/${MISSING}` };
  if (has('export')) MATRIX[`GET ${base}/export`] = { need: `${page}:export` };
  if (has('create')) MATRIX[`POST ${base}`] = { need: `${page}:create`, body: INVALID };
  if (has('edit')) MATRIX[`PUT ${base}/:id`] = { need: `${page}:edit`, body: INVALID };
  if (has('delete')) MATRIX[`DELETE ${base}/:id`] = { need: `${page}:delete`, url: `${base}/${MISSING}` };
}

type Actor = 'anonymous' | 'super' | 'limited' | 'agent' | 'agentOther' | 'disabled' | 'stale';
const ACTORS: Actor[] = ['anonymous', 'super', 'limited', 'agent', 'agentOther', 'disabled', 'stale'];
/** The agents of both branches also manage bettors, so the bettor routes' scope checks run for them. */
const MATRIX_AGENT_KEYS = [...AGENT_KEYS, 'user', 'user:edit_balance', 'user:edit_credit', 'user:change_agent', 'user:invitation_code', 'user:reset_password', 'user:disable', 'user:risk', 'user:refresh', 'user:ported'];
/** What the stale session's role still holds after the removal. */
const STALE_KEEPS = ['system', 'log'];

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let targets: Targets;
const tokens: Partial<Record<Actor, string>> = {};

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, MATRIX_AGENT_KEYS);
  // Agent A's branch: a role agent A created, and a bettor (online) of sub-agent A1.
  const role = await makeRole(t, 'A desk', ['system', 'log']);
  await t.database.db.update(roles).set({ createdBy: w.agentA }).where(eq(roles.id, role));
  const bettor = await makeBettor(t, w.agentA1, { cash: 10_000_00 });
  await t.database.db.update(bettors).set({ onlineStatus: 2 }).where(eq(bettors.id, bettor.id));
  targets = { admin: w.agentA1, role, bettor: bettor.id };
  tokens.super = await t.login('admin', ADMIN_PASSWORD);
  tokens.limited = await t.login('limited');
  tokens.agent = await t.login('agent_a');
  tokens.agentOther = await t.login('agent_b');
  // A disabled admin: signed in while enabled, then disabled by the super admin.
  const soonDisabled = await makeAdmin(t, 'soon_disabled', w.agentRole, w.rootId);
  tokens.disabled = await t.login('soon_disabled');
  await t.call('POST', `/api/v1/system/administrators/${soonDisabled}/disable`, { token: tokens.super, body: { disabled: 2 } });
  // A session issued before a permission was removed from its role.
  const staleRole = await makeRole(t, 'Stale', AGENT_KEYS);
  await makeAdmin(t, 'stale', staleRole, w.rootId);
  tokens.stale = await t.login('stale');
  const cut = await t.call('PUT', `/api/v1/system/roles/${staleRole}/permissions`, { token: tokens.super, body: { keys: STALE_KEEPS } });
  expect(cut.status).toBe(200);
});
afterAll(() => t?.close());

function heldBy(actor: Actor): Set<string> | 'all' | 'none' {
  switch (actor) {
    case 'super':
      return 'all';
    case 'limited':
      return new Set(LIMITED_KEYS);
    case 'agent':
    case 'agentOther':
      return new Set(MATRIX_AGENT_KEYS);
    case 'stale':
      return new Set(STALE_KEEPS);
    default:
      return 'none';
  }
}

function allowedByPermission(actor: Actor, p: Permission): boolean {
  const held = heldBy(actor);
  if (held === 'all') return true;
  if (held === 'none') return false;
  if (p.page === 'update_password' && !p.button) return true;
  return held.has(p.page) && (!p.button || held.has(permissionKey(p)));
}

function expected(actor: Actor, c: Case, duty: boolean): 'allowed' | 401 | 403 {
  if (c.need === PUBLIC) return 'allowed';
  if (actor === 'anonymous' || actor === 'disabled') return 401;
  if (c.need === SIGNED_IN) return 'allowed';
  const [page, button] = c.need.split(':');
  if (!allowedByPermission(actor, { page, button })) return 403;
  // A setting of the whole product (a declared duty): every caller here but the super admin is a branch's.
  if (duty && actor !== 'super') return 403;
  if (c.branch && actor === 'agentOther') return 403;
  return 'allowed';
}

describe('permission matrix', () => {
  it('declares on every route the access the matrix states', () => {
    const declared = (r: DeclaredRoute) => ('public' in r.access ? PUBLIC : 'signedIn' in r.access ? SIGNED_IN : permissionKey(r.access));
    const wrong = t.routes.filter((r) => MATRIX[`${r.method} ${r.url}`] && MATRIX[`${r.method} ${r.url}`].need !== declared(r));
    expect(wrong.map((r) => `${r.method} ${r.url}: ${declared(r)}`)).toEqual([]);
  });

  it('lists every route of the router, and only those', () => {
    const keys = t.routes.map((r) => `${r.method} ${r.url}`);
    const missing = keys.filter((k) => !(k in MATRIX));
    const stale = Object.keys(MATRIX).filter((k) => !keys.includes(k));
    expect(missing, 'routes without a matrix entry').toEqual([]);
    expect(stale, 'matrix entries without a route').toEqual([]);
  });

  it('answers every route x caller as its declared access says', async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const r of t.routes) {
      const c = MATRIX[`${r.method} ${r.url}`];
      let url = c.url ?? r.url;
      if (c.target) url = url.replace(':id', String(targets[c.target]));
      if (url.includes(':id')) {
        const id = r.url.includes('/administrators/') ? w.agentA1 : r.url.includes('/roles/') ? w.agentRole : Number(MISSING);
        url = url.replace(':id', String(id));
      }
      for (const actor of ACTORS) {
        let token = tokens[actor];
        if (c.fresh && token && !['disabled', 'anonymous'].includes(actor)) {
          token = await t.login(actor === 'super' ? 'admin' : { limited: 'limited', agent: 'agent_a', agentOther: 'agent_b', stale: 'stale' }[actor as 'limited']!, actor === 'super' ? ADMIN_PASSWORD : undefined);
        }
        const res = await t.call(r.method, url, { token, body: typeof c.body === 'function' ? c.body(targets) : c.body });
        const want = expected(actor, c, 'page' in r.access && !!r.access.duty);
        const allowed = c.ok ? res.status === c.ok : res.status !== 401 && res.status !== 403 && res.status < 500;
        const ok = want === 'allowed' ? allowed : res.status === want;
        if (!ok) failures.push(`${actor.padEnd(10)} ${r.method} ${url} → ${res.status} (want ${want === 'allowed' ? (c.ok ?? want) : want}) ${JSON.stringify(res.body)?.slice(0, 120)}`);
        cells += 1;
      }
    }
    expect(failures).toEqual([]);
    expect(cells).toBe(t.routes.length * ACTORS.length);
    console.info(`permission matrix: ${t.routes.length} routes x ${ACTORS.length} callers = ${cells} calls; ${Object.values(MATRIX).filter((c) => c.ok).length} routes on real objects of a branch`);
  }, 180_000);

  it('refuses the stale session exactly where the permission was removed', async () => {
    const logs = await t.call('GET', '/api/v1/system/logs', { token: tokens.stale });
    expect(logs.status).toBe(200);
    const admins = await t.call('GET', '/api/v1/system/administrators', { token: tokens.stale });
    expect(admins.status).toBe(403);
    expect(admins.body.code).toBe('FORBIDDEN');
  });

  it('leaves a trail row for refused calls', async () => {
    const { systemLogs } = await import('../src/platform/schema.js');
    const refused = async () => (await t.database.db.select().from(systemLogs).where(eq(systemLogs.status, 403))).map((r) => ({ id: r.id, route: r.route, method: r.method, account: r.account }));
    const before = new Set((await refused()).map((r) => r.id));
    // Calls of its own the limited admin may not make.
    for (const url of ['/api/v1/system/administrators', '/api/v1/system/roles']) {
      expect((await t.call('GET', url, { token: tokens.limited })).status).toBe(403);
    }
    const rows = (await refused()).filter((r) => !before.has(r.id));
    expect(rows.map((r) => `${r.method} ${r.route} ${r.account}`).sort()).toEqual(['GET /api/v1/system/administrators limited', 'GET /api/v1/system/roles limited']);
  });
});
