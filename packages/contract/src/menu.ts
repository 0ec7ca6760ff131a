/**
 * The permission catalogue (spec §2, §3 Menu item, §6): every page of the console and the buttons
 * each page needs, defined once. The server seeds it into `menu_items` (upsert by key at every start),
 * roles hold sets of its items, the console builds its menu and buttons from the tree the server returns.
 *
 * Keys: a page's key is its path (`ip_black`); a button's key is `page:button` (`ip_black:create`).
 * Language keys: `menu.<path>` for groups and pages, `button.<button>` for buttons.
 */

export const MENU_TYPE = { route: 1, button: 2 } as const;
export const PLATFORM_PC = 1;

/** Buttons most list screens offer. */
export const CRUD = ['create', 'edit', 'delete', 'export'] as const;

export interface PageDef {
  path: string;
  icon?: string;
  /** Pages reached from another page (details), not shown in the menu. */
  hidden?: boolean;
  /** 2 = show in the top navigation (spec's show_headshot). */
  top?: boolean;
  buttons?: readonly string[];
  /**
   * A page that takes over what another page guarded (racing's lists were the casino's): on the start that
   * adds it to the catalogue, every role holding `from` gets it, and its button `b` goes to the holders of
   * `from:b`. Once only, so an operator's later removal stands.
   */
  from?: string;
}

export interface GroupDef {
  path: string;
  icon: string;
  pages: readonly PageDef[];
  /** As a page's `from`: the holders of this group get the new group once. */
  from?: string;
}

export const MENU_CATALOGUE: readonly GroupDef[] = [
  {
    path: 'betting',
    icon: 'TrophyOutlined',
    pages: [
      { path: 'today_statistics', top: true },
      { path: 'league_list', buttons: ['create', 'edit', 'delete', 'export'] },
      { path: 'match_list', buttons: ['hide', 'suspend', 'live_delay', 'random_bet', 'popularity', 'maintain', 'cancel', 'odds', 'recover', 'export'] },
      { path: 'location', buttons: CRUD },
      { path: 'event_template', buttons: CRUD },
      { path: 'betting_type', buttons: CRUD },
      { path: 'string_rewards', buttons: CRUD },
      { path: 'popular', buttons: CRUD },
      { path: 'event_part', buttons: CRUD },
      { path: 'pay_config', buttons: ['edit'] },
      { path: 'bet_config', buttons: ['edit'] },
      { path: 'bet_remind', buttons: ['export'] },
      { path: 'order_list', buttons: ['detail', 'cancel', 'random_bet', 'export'] },
      { path: 'order_detailed', hidden: true, buttons: ['change_result', 'change_match_result', 'cancel'] },
      { path: 'outcome_sorting_type', buttons: CRUD },
      { path: 'gameplay_classification', buttons: CRUD },
      { path: 'option_translation', buttons: CRUD },
      { path: 'match_statistics', buttons: ['export'] },
      { path: 'receiving_statistics', buttons: ['recover'] },
      { path: 'history_statistics', buttons: ['export'] },
    ],
  },
  {
    path: 'casino',
    icon: 'CrownOutlined',
    pages: [
      { path: 'casino_classification', buttons: CRUD },
      { path: 'casino_list', buttons: CRUD },
      { path: 'casino_order', buttons: ['detail', 'export'] },
      { path: 'casino_order_details', hidden: true },
      { path: 'casino_config', buttons: ['create', 'edit'] },
      { path: 'casino_game', buttons: ['export'] },
      { path: 'casino_large_win', buttons: ['review', 'export'] },
      { path: 'casino_user', buttons: ['export'] },
    ],
  },
  {
    // Virtual racing (issue 23): its lists, settings and figures were the casino's pages until then.
    path: 'racing',
    icon: 'FlagOutlined',
    from: 'casino',
    pages: [
      { path: 'racing_race', buttons: ['export'], from: 'casino_order' },
      { path: 'racing_order', buttons: ['detail', 'export'], from: 'casino_order' },
      { path: 'racing_coin', buttons: ['export'], from: 'casino_order' },
      { path: 'racing_config', buttons: ['edit'], from: 'casino_config' },
      { path: 'racing_statistics', from: 'history_statistics' },
    ],
  },
  {
    path: 'jackpot',
    icon: 'FireOutlined',
    pages: [
      { path: 'jackpot_bet_type', buttons: ['create', 'edit', 'delete'] },
      {
        path: 'jackpot_identifier',
        buttons: ['create', 'get_matches', 'open_bets', 'bet_status', 'change_result', 'settle', 'statistics', 'delete'],
      },
      { path: 'jackpot_bet', buttons: ['create'] },
      { path: 'jackpot_bet_list', buttons: ['detail', 'export'] },
      { path: 'super_list', buttons: ['export'] },
      // Prizes held above a bet type's max_add_balance (issue 23): a payment is asked (pay, pay_outside) and approved by another admin.
      { path: 'jackpot_held_prize', buttons: ['pay', 'pay_outside', 'approve'] },
    ],
  },
  {
    path: 'users',
    icon: 'TeamOutlined',
    pages: [
      {
        path: 'user',
        buttons: ['edit_balance', 'edit_credit', 'change_agent', 'invitation_code', 'reset_password', 'disable', 'risk', 'refresh', 'ported', 'export'],
      },
      { path: 'user_list', buttons: ['export'] },
      { path: 'withdraw_list', buttons: ['approve', 'refuse', 'requery', 'reconcile', 'export'] },
      { path: 'recharge_list', buttons: ['requery', 'reconcile', 'export'] },
      { path: 'bill', buttons: ['export'] },
      { path: 'bill_credit', buttons: ['export'] },
      { path: 'admin_bill', buttons: ['export'] },
      { path: 'airtel_transfer', buttons: ['requery', 'export'] },
      // Issue 28: each operator's daily statement matched against our recharges and withdrawals (whole book).
      { path: 'operator_statements', buttons: ['import', 'export'] },
      { path: 'payment_providers', buttons: ['edit'] },
      { path: 'usdt_transaction_record', buttons: ['export'] },
      { path: 'tron', buttons: ['create', 'collect', 'collect_all', 'sync_balance', 'delete'] },
      { path: 'tron_transaction_summary', buttons: ['export'] },
      // Issue 29: the TRON settings (rate, confirmations, collect threshold, hot-wallet ceiling), for the holders of the wallets' page.
      { path: 'tron_config', buttons: ['edit'], from: 'tron' },
      { path: 'activity_qualification', buttons: ['edit', 'approve', 'export'] },
      { path: 'activity_campaign', buttons: ['create', 'edit', 'delete', 'approve', 'export'] },
      { path: 'online_statistical', buttons: ['export'] },
    ],
  },
  {
    path: 'messaging',
    icon: 'MessageOutlined',
    pages: [
      { path: 'message_board', buttons: ['reply', 'delete', 'clear'] },
      { path: 'message_list', buttons: ['send', 'delete'] },
      { path: 'no_send_sms', buttons: ['create', 'delete', 'import'] },
      { path: 'sms_send', buttons: ['send', 'config'] },
      { path: 'push_device', buttons: ['push', 'edit'] },
      { path: 'precision_push_device', buttons: ['push'] },
      { path: 'app_config', buttons: ['create', 'edit', 'delete'] },
    ],
  },
  {
    path: 'archive',
    icon: 'HddOutlined',
    pages: [
      { path: 'order_archive', buttons: ['export'] },
      { path: 'withdrawal_archive', buttons: ['export'] },
      { path: 'recharge_archive', buttons: ['export'] },
      { path: 'bill_archive', buttons: ['export'] },
      { path: 'bill_credit_archive', buttons: ['export'] },
    ],
  },
  {
    // Issue 30: the reports a regulated operator files and a finance team closes the day with.
    path: 'reports',
    icon: 'FileTextOutlined',
    pages: [
      // reports pages: one line each, added with its screen
      // The daily close (rerun a past day) and the ledger self-check (run the invariants now), whole book only.
      { path: 'daily_close', buttons: ['run', 'export'] },
      { path: 'ledger_check', buttons: ['run'] },
      { path: 'tax_returns', buttons: ['export', 'edit'] },
      // The auditors' log and the void and resettlement report (whole book only).
      { path: 'significant_events', buttons: ['export'] },
      { path: 'resettlement_report', buttons: ['export'] },
    ],
  },
  {
    path: 'customer_service',
    icon: 'CustomerServiceOutlined',
    pages: [
      { path: 'cs_recharge' },
      { path: 'cs_withdraw' },
      { path: 'cs_user' },
      { path: 'cs_bill' },
      { path: 'cs_order' },
      { path: 'cs_order_detailed', hidden: true },
      { path: 'cs_jackpot_bet' },
      { path: 'cs_jackpot_bet_list' },
      { path: 'cs_activity_qualification' },
      { path: 'cs_order_archive' },
    ],
  },
  {
    path: 'system',
    icon: 'SettingOutlined',
    pages: [
      { path: 'administrators', buttons: ['create', 'edit', 'disable', 'reset_password', 'unbind_google', 'notify', 'export'] },
      { path: 'role', buttons: ['create', 'edit', 'delete', 'permissions'] },
      { path: 'update_password' },
      { path: 'configuration', buttons: ['edit'] },
      { path: 'subscriber_config_default', buttons: ['edit'] },
      { path: 'log', buttons: ['export'] },
      { path: 'log_type', buttons: ['edit'] },
      { path: 'log_config', buttons: ['edit'] },
      { path: 'ip_black', buttons: ['create', 'edit', 'delete', 'export'] },
      // Duties (issue 22): changes waiting for a second admin, and every setting's history.
      { path: 'pending_change' },
      { path: 'setting_history', buttons: ['export'] },
      { path: 'language_list', buttons: ['create', 'edit', 'delete'] },
      { path: 'rotation_type', buttons: CRUD },
      { path: 'rotation', buttons: CRUD },
      { path: 'mysql_lock', buttons: ['release'] },
      { path: 'mysql_time_consuming' },
      { path: 'async_operations', buttons: ['download', 'delete'] },
      { path: 'script', buttons: ['run', 'approve'] },
      { path: 'server_list', buttons: CRUD },
      { path: 'telegram_bot_binding', buttons: ['delete', 'bind', 'edit'] },
      { path: 'image_config', buttons: ['edit'] },
      { path: 'visitor', buttons: ['export'] },
      { path: 'mall_category_list', buttons: CRUD },
      { path: 'mall_brand_list', buttons: CRUD },
      { path: 'mall_product_list', buttons: CRUD },
      { path: 'image_text_type', buttons: CRUD },
      { path: 'image_text', buttons: CRUD },
    ],
  },
];

export interface CatalogueEntry {
  key: string;
  parentKey: string | null;
  name: string;
  languageVariable: string;
  path: string;
  type: 1 | 2;
  platform: 1;
  showHeadshot: 1 | 2;
  hidden: boolean;
  icon: string | null;
  sort: number;
  /** The key whose holders get this entry when a start first adds it (PageDef.from). */
  from: string | null;
}

/** The catalogue flattened in a stable order: groups, their pages, each page's buttons. */
export function flattenCatalogue(catalogue: readonly GroupDef[] = MENU_CATALOGUE): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  catalogue.forEach((g, gi) => {
    out.push({
      key: g.path, parentKey: null, name: g.path, languageVariable: `menu.${g.path}`, path: g.path,
      type: 1, platform: 1, showHeadshot: 1, hidden: false, icon: g.icon, sort: (catalogue.length - gi) * 10, from: g.from ?? null,
    });
    g.pages.forEach((p, pi) => {
      out.push({
        key: p.path, parentKey: g.path, name: p.path, languageVariable: `menu.${p.path}`, path: p.path,
        type: 1, platform: 1, showHeadshot: p.top ? 2 : 1, hidden: !!p.hidden, icon: p.icon ?? null,
        sort: (g.pages.length - pi) * 10, from: p.from ?? null,
      });
      (p.buttons ?? []).forEach((b, bi, all) => {
        out.push({
          key: `${p.path}:${b}`, parentKey: p.path, name: b, languageVariable: `button.${b}`, path: b,
          type: 2, platform: 1, showHeadshot: 1, hidden: false, icon: null, sort: (all.length - bi) * 10, from: p.from ? `${p.from}:${b}` : null,
        });
      });
    });
  });
  return out;
}

export const ALL_PAGES: readonly string[] = MENU_CATALOGUE.flatMap((g) => g.pages.map((p) => p.path));

/** The page that owns a hidden detail page's permissions (a detail page is reachable if its list is). */
export function pageExists(path: string): boolean {
  return ALL_PAGES.includes(path);
}

/** A permission reference: a page, or a page and one of its buttons. */
export type Permission = { page: string; button?: string };

export function permissionKey(p: Permission): string {
  return p.button ? `${p.page}:${p.button}` : p.page;
}

/** Pages every signed-in admin has, whatever the role (one's own password and Google binding). */
export const ALWAYS_ALLOWED_PAGES: readonly string[] = ['update_password'];

/** Spec §6: a default role, a super administrator role and an administrator role. */
export const SEED_ROLES = {
  superAdmin: { name: 'Super administrator', remarks: 'Every permission, present and future.' },
  administrator: { name: 'Administrator', remarks: 'Every page and button except server scripts and database tools.' },
  default: { name: 'Default', remarks: 'Customer service: the cs_ screens and one\'s own password.' },
} as const;

const ADMIN_EXCLUDED = new Set(['script', 'server_list', 'mysql_lock', 'mysql_time_consuming']);

export function seedRoleKeys(role: 'administrator' | 'default', entries = flattenCatalogue()): string[] {
  if (role === 'administrator') {
    return entries
      .filter((e) => !ADMIN_EXCLUDED.has(e.type === 2 ? e.parentKey! : e.key))
      .map((e) => e.key);
  }
  const cs = MENU_CATALOGUE.find((g) => g.path === 'customer_service')!;
  return ['customer_service', ...cs.pages.map((p) => p.path), 'system', 'update_password'];
}
