import { defineResource } from './resource.js';

/**
 * Console declarations of the duties screens (issue 22) and of the casino's large wins; their server lists
 * are hand-written (modules/system/duties-routes.ts, modules/casino/large-wins.ts).
 */

/** System › Pending changes: settings waiting for a second admin (secrets masked). */
export const pendingChangeResource = /* @__PURE__ */ defineResource({
  name: 'pending_change',
  page: 'pending_change',
  api: '/system/pending_changes',
  kind: 'list',
  title: 'menu.pending_change',
  description: 'duties.describe.pending_change',
  defaultSort: '-id',
  actions: [],
  fetchDetail: false,
  fields: [
    { key: 'id', type: 'number', width: 80 },
    { key: 'setting', type: 'text', search: 'exact', label: 'duties.field.setting', labels: 'duties.setting', width: 170 },
    { key: 'status', type: 'text', search: 'exact', label: 'duties.field.status', labels: 'duties.status', width: 130 },
    { key: 'diff', type: 'json', label: 'duties.field.diff' },
    { key: 'requested_account', type: 'text', label: 'duties.field.requested_account', width: 130 },
    { key: 'requested_at', type: 'datetime', label: 'duties.field.requested_at', width: 170 },
    { key: 'expires_at', type: 'datetime', label: 'duties.field.expires_at', table: false },
    { key: 'decided_account', type: 'text', label: 'duties.field.decided_account', width: 130 },
    { key: 'decided_at', type: 'datetime', label: 'duties.field.decided_at', table: false },
    { key: 'reason', type: 'text', label: 'duties.field.reason', table: false },
    { key: 'result_code', type: 'text', label: 'duties.field.result_code', table: false },
  ],
});

/** System › Settings history: every change of a whole-product setting, before → after, approved by whom. */
export const settingHistoryResource = /* @__PURE__ */ defineResource({
  name: 'setting_history',
  page: 'setting_history',
  api: '/system/setting_history',
  kind: 'list',
  title: 'menu.setting_history',
  description: 'duties.describe.setting_history',
  defaultSort: '-id',
  actions: ['export'],
  fetchDetail: false,
  fields: [
    { key: 'id', type: 'number', width: 80 },
    { key: 'created_at', type: 'datetime', search: 'range', label: 'duties.field.changed_at', width: 170 },
    { key: 'setting', type: 'text', search: 'exact', label: 'duties.field.setting', labels: 'duties.setting', width: 170 },
    { key: 'account', type: 'text', search: 'exact', label: 'duties.field.requested_account', width: 130 },
    { key: 'approved_account', type: 'text', label: 'duties.field.approved_account', width: 130 },
    { key: 'method', type: 'text', table: false, label: 'duties.field.method' },
    { key: 'url', type: 'text', table: false, label: 'duties.field.url' },
    { key: 'before', type: 'json', label: 'duties.field.before' },
    { key: 'after', type: 'json', label: 'duties.field.after' },
  ],
});

/** Casino › Large wins: rounds that won far beyond their bets, for review (they were paid). */
export const casinoLargeWinResource = /* @__PURE__ */ defineResource({
  name: 'casino_large_win',
  page: 'casino_large_win',
  api: '/casino/large_wins',
  kind: 'list',
  title: 'menu.casino_large_win',
  description: 'casino.describe.casino_large_win',
  defaultSort: '-round_id',
  actions: ['export'],
  exportType: 'casino_large_win',
  fetchDetail: false,
  fields: [
    { key: 'round_id', type: 'number', sortable: true, label: 'casino.field.round_id', width: 100 },
    { key: 'created_at', type: 'datetime', search: 'range', sortable: true, label: 'casino.field.found_at', width: 170 },
    { key: 'game_id', type: 'number', search: 'exact', table: false, label: 'casino.field.game_id' },
    { key: 'game_name', type: 'text', label: 'casino.field.game_name', width: 160 },
    { key: 'bettor_id', type: 'number', search: 'exact', label: 'casino.field.bettor_id', width: 100 },
    { key: 'phone', type: 'text', label: 'casino.field.phone', width: 140 },
    { key: 'bet_total', type: 'money', sortable: true, label: 'casino.field.bet_total' },
    { key: 'win_total', type: 'money', sortable: true, label: 'casino.field.win_total' },
    { key: 'reason', type: 'text', search: 'exact', label: 'casino.field.large_win_reason', labels: 'casino.largeWin.reason', width: 110 },
    { key: 'reviewed', type: 'text', search: 'exact', label: 'casino.field.reviewed', labels: 'casino.largeWin.reviewed', width: 100 },
    { key: 'reviewed_account', type: 'text', label: 'casino.field.reviewed_account', width: 120 },
    { key: 'reviewed_at', type: 'datetime', table: false, label: 'casino.field.reviewed_at' },
    { key: 'review_note', type: 'text', table: false, label: 'casino.field.review_note' },
  ],
});
