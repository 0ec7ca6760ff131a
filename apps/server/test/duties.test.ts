/**
 * Duties (issue 22, DESIGN "Duties: branch, whole book, two people"): settings of the whole product are the
 * whole book's, and what can move money or open a door waits for a second whole-book admin.
 *
 * Identities (all holding every permission of the catalogue unless said otherwise; `other` is a second branch):
 *  - admin:   the super administrator (whole book);
 *  - book:    staff serving the super admin (whole book, not super);
 *  - branch:  an agent under the super admin (their own subtree only);
 *  - deep:    staff serving the branch agent (the branch's book, not the whole book);
 *  - nobtn:   whole-book staff without the buttons of the settings (system, pending changes, history only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, inArray } from 'drizzle-orm';
import { flattenCatalogue } from '@dau/contract';
import { PAY_TYPE, WITHDRAWAL_STATUS } from '@dau/domain';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, type TestApp } from './helpers.js';
import { makePayer } from './payments-fixtures.js';
import { admins, pendingChanges, roles, settingHistory, systemLogs } from '../src/platform/schema.js';
import { casinoLargeWins, casinoProviders } from '../src/modules/casino/schema.js';
import { providerSecretFor } from '../src/modules/casino/index.js';
import { watchLargeWins } from '../src/modules/casino/large-wins.js';
import { notifications } from '../src/modules/notices/schema.js';
import { telegramConfig } from '../src/modules/telegram/schema.js';
import { requestWithdrawal } from '../src/modules/payments/withdrawals.js';
import { pointLaunchUrlAt } from '../src/modules/casino-sandbox/server.js';
import { WalletClient, cashOf, sandboxGame, session, uid } from './casino-wallet-support.js';
import { makeBettor } from './money-helpers.js';
import { redactQuery } from '../src/platform/http.js';
import { cellReader } from '../src/platform/csv.js';

let t: TestApp;
const tok: Record<'admin' | 'book' | 'branch' | 'deep' | 'other' | 'nobtn', string> = { admin: '', book: '', branch: '', deep: '', other: '', nobtn: '' };
const ids: Record<string, number> = {};
const db = () => t.database.db;
const ALL_KEYS = flattenCatalogue().map((e) => e.key);

/**
 * Mutating routes that act on objects of the caller's own subtree (bettors, orders, withdrawals, staff,
 * roles, campaigns, sends...) or on the caller's own records: they check ownership per object, not the
 * whole-book ring. A route missing from here and declaring no duty fails the first test.
 */
const BRANCH_OBJECTS = [
  'POST /api/v1/system/administrators', 'PUT /api/v1/system/administrators/:id', 'POST /api/v1/system/administrators/:id/disable',
  'POST /api/v1/system/administrators/:id/reset-password', 'POST /api/v1/system/administrators/:id/unbind-google', 'POST /api/v1/system/administrators/notify',
  'POST /api/v1/system/roles', 'PUT /api/v1/system/roles/:id', 'DELETE /api/v1/system/roles/:id', 'PUT /api/v1/system/roles/:id/permissions',
  'POST /api/v1/money/withdrawals/:id/approve', 'POST /api/v1/money/withdrawals/:id/refuse', 'POST /api/v1/money/withdrawals/:id/requery',
  'POST /api/v1/money/withdrawals/approve', 'POST /api/v1/money/withdrawals/refuse',
  'POST /api/v1/money/withdrawals/:id/reconcile', 'POST /api/v1/money/recharges/:id/reconcile', 'POST /api/v1/money/recharges/:id/requery',
  'POST /api/v1/money/airtel_transfer/:kind/:id/requery', 'DELETE /api/v1/system/async_operations/:id',
  'POST /api/v1/money/bettors/:id/balance', 'POST /api/v1/money/bettors/:id/credit', 'PUT /api/v1/money/bettors/:id/agent',
  'PUT /api/v1/money/bettors/:id/invitation-code', 'POST /api/v1/money/bettors/:id/reset-password', 'POST /api/v1/money/bettors/:id/disable',
  'POST /api/v1/money/bettors/:id/ported', 'DELETE /api/v1/money/bettors/:id/ported',
  'PUT /api/v1/money/bettors/:id/risk', 'POST /api/v1/money/bettors/refresh', 'POST /api/v1/money/activity_qualification/:id/approve',
  'POST /api/v1/betting/orders/:id/lines/:line_id/result', 'POST /api/v1/betting/orders/:id/cancel', 'POST /api/v1/betting/random-bets',
  'POST /api/v1/jackpot/tickets/quote', 'POST /api/v1/jackpot/tickets',
  // Held jackpot prizes (issue 23): the bettor's branch; a second admin of it approves each payment (maker-checker in the handler).
  'POST /api/v1/jackpot/held_prizes/:id/pay', 'POST /api/v1/jackpot/held_prizes/:id/pay_outside', 'POST /api/v1/jackpot/prize_payouts/:id/approve',
  'POST /api/v1/jackpot/prize_payouts/:id/refuse',
  'POST /api/v1/tron/wallets', 'DELETE /api/v1/tron/wallets/:id', 'POST /api/v1/tron/wallets/:id/collect',
  'POST /api/v1/casino/large_wins/:round_id/review',
  'POST /api/v1/promotions/campaigns', 'PUT /api/v1/promotions/campaigns/:id', 'DELETE /api/v1/promotions/campaigns/:id',
  'POST /api/v1/promotions/campaigns/:id/activate', 'POST /api/v1/promotions/campaigns/:id/pause', 'POST /api/v1/promotions/campaigns/:id/award',
  'POST /api/v1/promotions/qualifications/:id/approve', 'POST /api/v1/promotions/qualifications/approve',
  'POST /api/v1/push/public', 'POST /api/v1/push/precision', 'DELETE /api/v1/telegram/bindings/:id', 'POST /api/v1/telegram/bind-code',
  'POST /api/v1/sms/exclusions', 'POST /api/v1/sms/exclusions/import', 'POST /api/v1/sms/preview', 'POST /api/v1/sms/sends',
  'POST /api/v1/messaging/board/:id/read', 'POST /api/v1/messaging/board/:id/reply', 'DELETE /api/v1/messaging/board/:id', 'POST /api/v1/messaging/board/clear',
  'POST /api/v1/messaging/recipients/resolve', 'POST /api/v1/messaging/recipients/count', 'POST /api/v1/messaging/messages', 'DELETE /api/v1/messaging/messages/:id',
  // Pending changes: who may decide is the change's own button and ring, checked in the handler.
  'POST /api/v1/system/pending_changes/:id/approve', 'POST /api/v1/system/pending_changes/:id/refuse',
];
/** Content any holder of the page edits (pictures, articles, the shop's catalogue): no money, no door (decided, issue 22 note). */
const CONTENT = ['rotation_types', 'rotations', 'image_text_types', 'image_texts'].flatMap((x) => [`POST /api/v1/content/${x}`, `PUT /api/v1/content/${x}/:id`, `DELETE /api/v1/content/${x}/:id`])
  .concat(['categories', 'brands', 'products'].flatMap((x) => [`POST /api/v1/shop/${x}`, `PUT /api/v1/shop/${x}/:id`, `DELETE /api/v1/shop/${x}/:id`]));

/** The settings the issue names, and the fields of each that wait for a second admin (none: whole book only). */
const NAMED: Record<string, readonly string[] | 'all' | null> = {
  'PUT /api/v1/casino/providers/:id': ['auth_kind', 'public_key', 'secret', 'allowed_ips'],
  'POST /api/v1/casino/providers': ['auth_kind', 'public_key', 'secret', 'allowed_ips'],
  'PUT /api/v1/money/pay_config': ['min_recharge', 'min_withdrawal', 'max_withdrawal', 'large_withdrawal'],
  'PUT /api/v1/betting/bet_config': ['min_stake', 'max_stake', 'max_payout', 'max_odds', 'max_stake_per_match', 'tax_rate'],
  'PUT /api/v1/system/subscriber_config': ['share_ratio', 'login_failure_limit', 'failure_window_minutes', 'session_idle_minutes', 'session_absolute_hours'],
  'PUT /api/v1/sms/config': ['username', 'api_key', 'sender_id'],
  'PUT /api/v1/push/config': ['project_id', 'service_account_json'],
  'PUT /api/v1/telegram/config': ['bot_token'],
  'PUT /api/v1/system/image_config': ['upload_type', 'domain', 'region', 'access_key_id', 'access_key_secret', 'bucket'],
  'DELETE /api/v1/system/ip_black/:id': 'all',
  'PUT /api/v1/system/ip_black/:id': ['ip'],
  'PUT /api/v1/casino/settings': ['max_bet', 'max_win'],
  'PUT /api/v1/racing/settings': ['coin_rate_bps'],
  // Issue 29: the TRON rate and hot-wallet ceiling; releasing a USDT withdrawal's address-poisoning hold.
  'PUT /api/v1/tron/settings': ['usdt_rate_tsh', 'hot_wallet_ceiling'],
  'POST /api/v1/tron/withdrawals/:id/release': 'all',
  // Issue 30: the Gaming Board's tax rates (every field, the effective month included); asking for a month's tax return is the whole book's.
  'PUT /api/v1/reports/tax/gaming_rates': ['effective_month', 'sports_bps', 'jackpot_bps', 'casino_bps', 'racing_bps'],
  'POST /api/v1/reports/tax/returns/:month/compute': null,
  // Issue 30: rerunning a day's close and running the ledger self-check are the whole book's.
  'POST /api/v1/reports/daily_closes/run': null,
  'POST /api/v1/reports/ledger_check/run': null,
  'POST /api/v1/system/ip_black': null,
  'PUT /api/v1/system/configuration': null,
  'PUT /api/v1/sports/margins': null,
  'POST /api/v1/system/languages': null,
  'POST /api/v1/casino/games': null,
  'POST /api/v1/operations/script-runs': null,
  'POST /api/v1/operations/script-runs/:id/approve': null,
  'POST /api/v1/tron/collect_all': null,
  'POST /api/v1/tron/wallets/sync': null,
  'POST /api/v1/messaging/app_versions': null,
  'DELETE /api/v1/sms/exclusions/:id': null,
};

const dutyRoutes = () => t.routes.filter((r) => 'page' in r.access && r.access.duty);
const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const pendingCount = async () => Number((await db().select({ n: count() }).from(pendingChanges))[0]!.n);
const historyCount = async () => Number((await db().select({ n: count() }).from(settingHistory))[0]!.n);
const get = async (url: string) => (await t.call('GET', url, { token: tok.admin })).body;
const approve = (id: number, token = tok.admin) => t.call('POST', `/api/v1/system/pending_changes/${id}/approve`, { token, body: {} });

beforeAll(async () => {
  t = await createTestApp();
  const [root] = await db().select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  ids.root = root!.id;
  const everything = await makeRole(t, 'Every permission (book)', ALL_KEYS);
  const branchRole = await makeRole(t, 'Every permission (branch)', ALL_KEYS);
  const deepRole = await makeRole(t, 'Every permission (branch staff)', ALL_KEYS);
  const noButtons = await makeRole(t, 'Reviewer without buttons', ['system', 'pending_change', 'setting_history', 'setting_history:export', 'pay_config', 'casino_config']);
  await db().update(roles).set({ servesSuperiorBranch: true }).where(inArray(roles.id, [everything, deepRole, noButtons]));
  ids.book = await makeAdmin(t, 'book_staff', everything, root!.id);
  ids.branch = await makeAdmin(t, 'branch_agent', branchRole, root!.id);
  ids.deep = await makeAdmin(t, 'branch_staff', deepRole, ids.branch);
  ids.nobtn = await makeAdmin(t, 'no_buttons', noButtons, root!.id);
  ids.other = await makeAdmin(t, 'other_agent', branchRole, root!.id);
  tok.admin = await t.login('admin', ADMIN_PASSWORD);
  tok.book = await t.login('book_staff');
  tok.branch = await t.login('branch_agent');
  tok.deep = await t.login('branch_staff');
  tok.nobtn = await t.login('no_buttons');
  tok.other = await t.login('other_agent');
});
afterAll(() => t?.close());

describe('rings declared beside the routes', () => {
  it('every mutating route either declares its duty or is classified here as acting on owned objects', () => {
    const permissioned = t.routes.filter((r) => !['GET', 'HEAD'].includes(r.method) && 'page' in r.access);
    const undeclared = permissioned.filter((r) => !('page' in r.access && r.access.duty)).map(key);
    const known = new Set([...BRANCH_OBJECTS, ...CONTENT]);
    expect(undeclared.filter((k) => !known.has(k)), 'a mutating route of a whole-product resource without its ring').toEqual([]);
    expect([...known].filter((k) => !undeclared.includes(k)), 'classified here but gone or now declared').toEqual([]);
    expect(dutyRoutes().length).toBeGreaterThan(60);
  });

  it('the settings the review named carry the ring it asked for', () => {
    const byKey = new Map(dutyRoutes().map((r) => [key(r), 'page' in r.access ? r.access.duty! : null]));
    for (const [route, fields] of Object.entries(NAMED)) {
      const duty = byKey.get(route);
      expect(duty, route).toBeTruthy();
      if (fields === null) expect(duty!.ring, route).toBe('book');
      else if (fields === 'all') expect(duty).toMatchObject({ ring: 'two' });
      else expect(duty, route).toMatchObject({ ring: 'two', fields });
    }
  });
});

describe('a branch holding every permission', () => {
  it('is refused every whole-product setting (403 WHOLE_BOOK_ONLY), whatever the body, and nothing changes', async () => {
    const singletons = dutyRoutes().filter((r) => r.method === 'PUT' && !r.url.includes(':'));
    const before = await Promise.all(singletons.map((r) => get(r.url)));
    const [pending, history] = [await pendingCount(), await historyCount()];
    const refused: string[] = [];
    let calls = 0;
    for (const who of ['branch', 'deep'] as const) {
      for (const r of dutyRoutes()) {
        const url = r.url.replace(/:(\w+)/g, (_m, p: string) => (p === 'market_key' ? 'm' : p === 'outcome_id' ? 'o' : p === 'event_id' ? 'sr:match:1' : '1'));
        const res = await t.call(r.method, url, { token: tok[who], body: r.method === 'DELETE' ? undefined : { secret: 'minted', large_withdrawal: 10_000_000_000, title: 'Owned' } });
        calls++;
        if (res.status !== 403 || res.body.code !== 'WHOLE_BOOK_ONLY') refused.push(`${who} ${r.method} ${url} → ${res.status} ${res.body?.code}`);
      }
    }
    expect(refused).toEqual([]);
    expect(await pendingCount()).toBe(pending);
    expect(await historyCount()).toBe(history);
    const after = await Promise.all(singletons.map((r) => get(r.url)));
    expect(after).toEqual(before);
    console.info(`duties: ${calls} calls of a branch on whole-product routes, every one refused`);
  });
});

describe('the mint sequence of the review fails', () => {
  it('a casino secret set by a branch is refused; by the whole book it waits; no admin opens sessions in production', async () => {
    const [provider] = await db().select().from(casinoProviders).where(eq(casinoProviders.code, 'sandbox'));
    const secret = await providerSecretFor(db(), 'sandbox');
    const minted = `minted-secret-${Date.now()}-xxxxxxxxxxxxxxxx`;
    const branch = await t.call('PUT', `/api/v1/casino/providers/${provider!.id}`, { token: tok.branch, body: { secret: minted } });
    expect(branch.status).toBe(403);
    expect(await providerSecretFor(db(), 'sandbox')).toBe(secret);
    // Opening a game session for a bettor is a sandbox convenience: not a route of a production server.
    const bettor = await makeBettor(t, ids.branch, { cash: 10_00 });
    const game = await sandboxGame(t);
    expect((await t.call('POST', '/api/v1/casino/sessions', { token: tok.branch, body: { bettor_id: bettor.id, game_id: game.id } })).status).toBe(404);
    // The whole book's change waits: a bet signed with the new secret is refused until a second admin approves.
    const asked = await t.call('PUT', `/api/v1/casino/providers/${provider!.id}`, { token: tok.book, body: { secret: minted } });
    expect(asked.status).toBe(202);
    expect(asked.body.pending_change).toMatchObject({ setting: 'casino_provider', status: 'pending', requested_account: 'book_staff' });
    expect(JSON.stringify(asked.body)).not.toContain(minted);
    expect(await providerSecretFor(db(), 'sandbox')).toBe(secret);
    const s = await session(t, bettor.id, game.id);
    const mintedClient = new WalletClient(t, { authKind: 'hmac', secret: minted });
    const bet = await mintedClient.call('transaction/bet', { request_uuid: uid(), token: s.token, user: String(bettor.id), game_code: game.gameCode, round: uid('r'), transaction_uuid: uid(), currency: 'TZS', amount: 5_00 });
    expect(bet.body.status).not.toBe('RS_OK');
    expect(await cashOf(t, bettor.id)).toBe(10_00);
    // A second whole-book admin approves: now it is the secret.
    const ok = await approve(asked.body.pending_change.id);
    expect(ok.status).toBe(200);
    expect(ok.body.pending_change).toMatchObject({ status: 'applied', decided_account: 'admin', result_status: 200 });
    expect(await providerSecretFor(db(), 'sandbox')).toBe(minted);
    // Put the sandbox's own secret back (through the same two people).
    const back = await t.call('PUT', `/api/v1/casino/providers/${provider!.id}`, { token: tok.book, body: { secret: secret! } });
    expect((await approve(back.body.pending_change.id)).body.pending_change.status).toBe('applied');
  });

  it('a win far beyond its bets is paid, then listed for review with a notice to the casino_game holders', async () => {
    const bettor = await makeBettor(t, ids.branch, { cash: 10_00 });
    const game = await sandboxGame(t);
    const client = new WalletClient(t, { authKind: 'hmac', secret: (await providerSecretFor(db(), 'sandbox'))! });
    const s = await session(t, bettor.id, game.id);
    const round = uid('round');
    const betUuid = uid('bet');
    const base = { token: s.token, user: String(bettor.id), game_code: game.gameCode, round, currency: 'TZS' };
    expect((await client.call('transaction/bet', { ...base, request_uuid: uid(), transaction_uuid: betUuid, amount: 5_00 })).body.status).toBe('RS_OK');
    const win = await client.call('transaction/win', { ...base, request_uuid: uid(), transaction_uuid: uid('win'), reference_transaction_uuid: betUuid, amount: 500_000_00 });
    expect(win.body.status).toBe('RS_OK');
    expect(await cashOf(t, bettor.id)).toBe(10_00 - 5_00 + 500_000_00);
    const noticesBefore = Number((await db().select({ n: count() }).from(notifications).where(eq(notifications.adminId, ids.book)))[0]!.n);
    const found = await watchLargeWins(t.ctx, new Date(Date.now() + 3_600_000));
    expect(found.map((f) => f.reason)).toContain('multiple');
    // Once: the watch run again finds nothing new.
    expect((await watchLargeWins(t.ctx, new Date(Date.now() + 3_600_000))).length).toBe(0);
    expect(Number((await db().select({ n: count() }).from(notifications).where(eq(notifications.adminId, ids.book)))[0]!.n)).toBe(noticesBefore + 1);
    const list = await t.call('GET', `/api/v1/casino/large_wins?bettor_id=${bettor.id}`, { token: tok.branch });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([expect.objectContaining({ bettor_id: bettor.id, bet_total: 5_00, win_total: 500_000_00, reason: 'multiple', reviewed: 'no' })]);
    const roundId = list.body.items[0].round_id as number;
    // The other branch does not see it nor review it.
    expect((await t.call('POST', `/api/v1/casino/large_wins/${roundId}/review`, { token: tok.other, body: { note: 'not mine' } })).status).toBe(403);
    expect((await t.call('GET', `/api/v1/casino/large_wins?bettor_id=${bettor.id}`, { token: tok.other })).body.items).toEqual([]);
    const reviewed = await t.call('POST', `/api/v1/casino/large_wins/${roundId}/review`, { token: tok.branch, body: { note: 'Lucky spin, checked with the provider' } });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ reviewed: 'yes', reviewed_account: 'branch_agent' });
    expect((await t.call('POST', `/api/v1/casino/large_wins/${roundId}/review`, { token: tok.branch, body: { note: 'again' } })).status).toBe(409);
    const [row] = await db().select().from(casinoLargeWins).where(eq(casinoLargeWins.roundId, roundId));
    expect(row!.reviewNote).toBe('Lucky spin, checked with the provider');
  });
});

describe('the four-eyes threshold cannot be lifted by one admin', () => {
  it('a branch is refused, the whole book waits, and a TSh 1.5M withdrawal still needs a second approval', async () => {
    const cfg = await get('/api/v1/money/pay_config');
    expect((await t.call('PUT', '/api/v1/money/pay_config', { token: tok.branch, body: { large_withdrawal: 10_000_000_000 } })).status).toBe(403);
    const asked = await t.call('PUT', '/api/v1/money/pay_config', { token: tok.book, body: { large_withdrawal: 10_000_000_000 } });
    expect(asked.status).toBe(202);
    expect(asked.body.pending_change.diff).toEqual([{ field: 'large_withdrawal', before: cfg.large_withdrawal, after: 10_000_000_000 }]);
    expect((await get('/api/v1/money/pay_config')).large_withdrawal).toBe(cfg.large_withdrawal);
    const payer = await makePayer(t, ids.root, 2_000_000_00);
    const w = await requestWithdrawal(db(), { bettorId: payer.id, payType: PAY_TYPE.vodacom, amount: 1_500_000_00 });
    const first = await t.call('POST', `/api/v1/money/withdrawals/${w.id}/approve`, { token: tok.book, body: {} });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);
    // The requester cannot approve their own change; nor can the branch; nor a whole-book admin without the button.
    expect((await approve(asked.body.pending_change.id, tok.book)).body.code).toBe('PENDING_CHANGE_OWN');
    expect((await approve(asked.body.pending_change.id, tok.branch)).status).toBe(403);
    const nobtn = await approve(asked.body.pending_change.id, tok.nobtn);
    expect(nobtn.status).toBe(403);
    expect(nobtn.body.code).toBe('FORBIDDEN');
    // Refused with a reason: nothing changes, and it cannot be approved after.
    expect((await t.call('POST', `/api/v1/system/pending_changes/${asked.body.pending_change.id}/refuse`, { token: tok.admin, body: {} })).body.code).toBe('PENDING_CHANGE_REASON');
    const refused = await t.call('POST', `/api/v1/system/pending_changes/${asked.body.pending_change.id}/refuse`, { token: tok.admin, body: { reason: 'No reason to lift the threshold' } });
    expect(refused.body.pending_change).toMatchObject({ status: 'refused', reason: 'No reason to lift the threshold', decided_account: 'admin' });
    expect((await approve(asked.body.pending_change.id)).status).toBe(409);
    expect((await get('/api/v1/money/pay_config')).large_withdrawal).toBe(cfg.large_withdrawal);
    // The stored request forgot what it asked once decided.
    const [row] = await db().select().from(pendingChanges).where(eq(pendingChanges.id, asked.body.pending_change.id));
    expect(row!.body).toBeNull();
  });

  it('fields of a setting that move no money apply at once, for the whole book only', async () => {
    const r = await t.call('PUT', '/api/v1/money/pay_config', { token: tok.book, body: { stuck_after_minutes: 17 } });
    expect(r.status).toBe(200);
    expect(r.body.stuck_after_minutes).toBe(17);
    const rows = await db().select().from(settingHistory).where(eq(settingHistory.setting, 'pay_config'));
    expect(rows.some((h) => (h.after as { stuck_after_minutes?: number })?.stuck_after_minutes === 17 && h.account === 'book_staff' && h.approvedBy === null)).toBe(true);
  });
});

describe('maker–checker', () => {
  /** Each setting that waits: a body that changes a field of its two-people list, and how to read that field back. */
  const CASES: { route: string; url: string; body: Record<string, unknown>; read: () => Promise<unknown>; want: unknown }[] = [
    { route: 'subscriber_config', url: '/api/v1/system/subscriber_config', body: { login_failure_limit: 9 }, read: async () => (await get('/api/v1/system/subscriber_config')).login_failure_limit, want: 9 },
    { route: 'bet_config', url: '/api/v1/betting/bet_config', body: { max_payout: 123_456_789_00 }, read: async () => (await get('/api/v1/betting/bet_config')).max_payout, want: 123_456_789_00 },
    { route: 'casino_settings', url: '/api/v1/casino/settings', body: { max_win: 77_000_000_00 }, read: async () => (await get('/api/v1/casino/settings')).max_win, want: 77_000_000_00 },
    { route: 'racing_settings', url: '/api/v1/racing/settings', body: { coin_rate_bps: 12_345 }, read: async () => (await get('/api/v1/racing/settings')).coin_rate_bps, want: 12_345 },
    { route: 'push_config', url: '/api/v1/push/config', body: { project_id: 'dau-duties-test' }, read: async () => (await get('/api/v1/push/config')).project_id, want: 'dau-duties-test' },
    { route: 'telegram_config', url: '/api/v1/telegram/config', body: { bot_token: '123456789:AAduties_test_token_abcdefghijklmnop' }, read: async () => (await db().select({ v: telegramConfig.botToken }).from(telegramConfig))[0]?.v, want: '123456789:AAduties_test_token_abcdefghijklmnop' },
    { route: 'sms_config', url: '/api/v1/sms/config', body: { sender_id: 'DUTIES' }, read: async () => (await get('/api/v1/sms/config')).sender_id, want: 'DUTIES' },
    { route: 'image_config', url: '/api/v1/system/image_config', body: { bucket: 'dau-duties-bucket' }, read: async () => (await get('/api/v1/system/image_config')).bucket, want: 'dau-duties-bucket' },
  ];
  for (const c of CASES) {
    it(`${c.route}: waits (202), unchanged, then applied by a second admin and kept in the history`, async () => {
      const url = c.url;
      const before = await c.read();
      const asked = await t.call('PUT', url, { token: tok.book, body: c.body });
      expect(asked.status, JSON.stringify(asked.body)).toBe(202);
      expect(asked.body.pending_change.can_decide).toBe(false);
      expect(asked.body.pending_change.approvers).toBeGreaterThan(0);
      expect(await c.read()).toEqual(before);
      const listed = await t.call('GET', '/api/v1/system/pending_changes?status=pending', { token: tok.admin });
      expect(listed.body.items.find((x: { id: number }) => x.id === asked.body.pending_change.id)).toMatchObject({ can_decide: true });
      const historyBefore = await historyCount();
      const ok = await approve(asked.body.pending_change.id);
      expect(ok.body.pending_change.status, JSON.stringify(ok.body)).toBe('applied');
      if (c.want !== undefined) expect(await c.read()).toEqual(c.want);
      expect(await historyCount()).toBe(historyBefore + 1);
      const [h] = await db().select().from(settingHistory).where(eq(settingHistory.pendingChangeId, asked.body.pending_change.id));
      expect(h).toMatchObject({ account: 'book_staff', approvedAccount: 'admin' });
      expect(JSON.stringify(h!.after)).not.toContain('AAduties_test_token');
    });
  }

  it('the IP blacklist: adding applies at once, removing waits for a second admin', async () => {
    const added = await t.call('POST', '/api/v1/system/ip_black', { token: tok.book, body: { ip: '198.51.100.77', remark: 'scanner' } });
    expect(added.status).toBe(201);
    const del = await t.call('DELETE', `/api/v1/system/ip_black/${added.body.id}`, { token: tok.book });
    expect(del.status).toBe(202);
    expect((await t.call('GET', `/api/v1/system/ip_black/${added.body.id}`, { token: tok.admin })).status).toBe(200);
    const renamed = await t.call('PUT', `/api/v1/system/ip_black/${added.body.id}`, { token: tok.book, body: { ip: '198.51.100.78' } });
    expect(renamed.status).toBe(202);
    const remark = await t.call('PUT', `/api/v1/system/ip_black/${added.body.id}`, { token: tok.book, body: { remark: 'a scanner' } });
    expect(remark.status).toBe(200);
    expect((await approve(del.body.pending_change.id)).body.pending_change.status).toBe('applied');
    expect((await t.call('GET', `/api/v1/system/ip_black/${added.body.id}`, { token: tok.admin })).status).toBe(404);
    // The rename asked before the removal can no longer apply: it fails with the route's answer, nothing changes.
    const late = await approve(renamed.body.pending_change.id);
    expect(late.body.pending_change).toMatchObject({ status: 'failed', result_status: 404 });
    // A removal of a row that is not there answers 404 at once instead of waiting.
    expect((await t.call('DELETE', `/api/v1/system/ip_black/${added.body.id}`, { token: tok.book })).status).toBe(404);
  });

  it('a new casino provider with a secret waits; without one it is created at once', async () => {
    const code = `duty-${Date.now().toString(36)}`;
    const withSecret = await t.call('POST', '/api/v1/casino/providers', { token: tok.book, body: { code, name: 'Duty Studio', auth_kind: 'hmac', secret: 'a-very-long-shared-secret-0123456789', currency: 'TZS', enabled: true } });
    expect(withSecret.status).toBe(202);
    expect((await db().select().from(casinoProviders).where(eq(casinoProviders.code, code))).length).toBe(0);
    expect((await approve(withSecret.body.pending_change.id)).body.pending_change.status).toBe('applied');
    expect((await db().select().from(casinoProviders).where(eq(casinoProviders.code, code))).length).toBe(1);
  });

  it('two approvals at once, and an approval against a refusal, leave one outcome', async () => {
    const before = (await get('/api/v1/system/subscriber_config')).failure_window_minutes;
    const a = await t.call('PUT', '/api/v1/system/subscriber_config', { token: tok.book, body: { failure_window_minutes: before === 31 ? 32 : 31 } });
    const checker = await t.login('admin', ADMIN_PASSWORD);
    const [x, y] = await Promise.all([approve(a.body.pending_change.id), approve(a.body.pending_change.id, checker)]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const applied = await db().select().from(settingHistory).where(eq(settingHistory.pendingChangeId, a.body.pending_change.id));
    expect(applied.length).toBe(1);
    const b = await t.call('PUT', '/api/v1/system/subscriber_config', { token: tok.book, body: { session_idle_minutes: 44 } });
    const [p, q] = await Promise.all([
      approve(b.body.pending_change.id),
      t.call('POST', `/api/v1/system/pending_changes/${b.body.pending_change.id}/refuse`, { token: checker, body: { reason: 'at the same time' } }),
    ]);
    expect([p.status, q.status].filter((s) => s === 200)).toHaveLength(1);
    const [row] = await db().select().from(pendingChanges).where(eq(pendingChanges.id, b.body.pending_change.id));
    expect(['applied', 'refused']).toContain(row!.status);
    expect((await get('/api/v1/system/subscriber_config')).session_idle_minutes === 44).toBe(row!.status === 'applied');
  });

  it('expires after 24 hours; the requester may withdraw; it waits when nobody else can approve', async () => {
    const old = await t.call('PUT', '/api/v1/system/subscriber_config', { token: tok.book, body: { session_absolute_hours: 13 } });
    await db().update(pendingChanges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(pendingChanges.id, old.body.pending_change.id));
    expect((await approve(old.body.pending_change.id)).status).toBe(409);
    expect((await t.call('GET', `/api/v1/system/pending_changes/${old.body.pending_change.id}`, { token: tok.admin })).body.pending_change.status).toBe('expired');
    const mine = await t.call('PUT', '/api/v1/system/subscriber_config', { token: tok.book, body: { session_absolute_hours: 14 } });
    const withdrawn = await t.call('POST', `/api/v1/system/pending_changes/${mine.body.pending_change.id}/refuse`, { token: tok.book, body: {} });
    expect(withdrawn.body.pending_change.status).toBe('withdrawn');
    // With every other whole-book admin holding the button disabled, the change says nobody can approve it yet.
    const others = [ids.book];
    await db().update(admins).set({ disabled: 2 }).where(inArray(admins.id, others));
    try {
      const alone = await t.call('PUT', '/api/v1/system/subscriber_config', { token: tok.admin, body: { session_absolute_hours: 15 } });
      expect(alone.status).toBe(202);
      expect(alone.body.pending_change.approvers).toBe(0);
      await t.call('POST', `/api/v1/system/pending_changes/${alone.body.pending_change.id}/refuse`, { token: tok.admin, body: {} });
    } finally {
      await db().update(admins).set({ disabled: 1 }).where(inArray(admins.id, others));
    }
  });

  it('the settings history lists and exports every change with masked secrets', async () => {
    const list = await t.call('GET', '/api/v1/system/setting_history?setting=casino_provider', { token: tok.nobtn });
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(list.body)).not.toMatch(/minted-secret|a-very-long-shared-secret/);
    // The screen's period (created_at range) narrows the list: the rows up to and including the newest one, none after it.
    const newest = list.body.items[0].created_at as string;
    const after = new Date(Date.parse(newest) + 1).toISOString();
    const upTo = await t.call('GET', `/api/v1/system/setting_history?setting=casino_provider&created_at_to=${encodeURIComponent(after)}`, { token: tok.nobtn });
    expect(upTo.body.total).toBe(list.body.total);
    const later = await t.call('GET', `/api/v1/system/setting_history?setting=casino_provider&created_at_from=${encodeURIComponent(after)}`, { token: tok.nobtn });
    expect(later.body.total).toBe(0);
    const csv = await t.call('GET', '/api/v1/system/setting_history/export?setting=pay_config', { token: tok.admin });
    expect(csv.status).toBe(200);
    expect(String(csv.res.body)).toContain('pay_config');
    expect((await t.call('GET', '/api/v1/system/setting_history', { token: tok.branch })).status).toBe(200);
  });
});

describe('smaller findings of the review', () => {
  it('text that looks like a time is kept as it is, and a cell that cannot be read never cuts a download', async () => {
    const read = cellReader({ key: 'name' }, 'en-US');
    expect(read('2026-13-45T99:99:99Z')).toEqual({ t: 's', v: '2026-13-45T99:99:99Z' });
    expect(read('2026-01-31T21:00:00Z')).toEqual({ t: 's', v: '2026-02-01 00:00:00 +03:00' });
    const added = await t.call('POST', '/api/v1/system/ip_black', { token: tok.admin, body: { ip: '203.0.113.45', remark: '2026-13-45T99:99:99Z' } });
    expect(added.status).toBe(201);
    const csv = await t.call('GET', '/api/v1/system/ip_black/export', { token: tok.admin });
    expect(csv.status).toBe(200);
    expect(String(csv.res.body)).toContain('2026-13-45T99:99:99Z');
    expect(String(csv.res.body)).toContain('203.0.113.45');
  });

  it('a lone surrogate or a body nested too deep is refused before it acts, and its trail row is kept', async () => {
    const lone = await t.call('POST', '/api/v1/system/ip_black', { token: tok.admin, headers: { 'content-type': 'application/json' }, body: '{"ip":"203.0.113.46","remark":"\\ud800"}' });
    expect(lone.status).toBe(400);
    expect(await t.call('GET', '/api/v1/system/ip_black?ip=203.0.113.46', { token: tok.admin }).then((r) => r.body.total)).toBe(0);
    const deep = `{"ip":"203.0.113.47","remark":${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}}`;
    const nested = await t.call('POST', '/api/v1/system/ip_black', { token: tok.admin, headers: { 'content-type': 'application/json' }, body: deep });
    expect(nested.status).toBe(400);
    const rows = await db().select().from(systemLogs).where(eq(systemLogs.content, 'POST /api/v1/system/ip_black → 400 PARAM_INVALID'));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(rows.map((r) => r.after))).toContain('\ufffd');
  });

  it('query tokens never reach the request log; ids are digits only', async () => {
    expect(redactQuery('/api/public/sms/at/delivery?token=s3cret&id=5')).toBe('/api/public/sms/at/delivery?token=***&id=5');
    expect(redactQuery('/x?api_key=k&sig=abc&page=2')).toBe('/x?api_key=***&sig=***&page=2');
    for (const id of ['%201', '1%20', '1e0', '0x1', '1.0', '+1']) {
      const r = await t.call('POST', `/api/v1/system/administrators/${id}/reset-password`, { token: tok.admin, body: { password: 'Digits#2026only' } });
      expect(r.status, id).toBe(400);
    }
  });

  it('a role given to an admin of another branch cannot be renamed by its creator', async () => {
    const created = await t.call('POST', '/api/v1/system/roles', { token: tok.branch, body: { name: `Branch desk ${Date.now()}`, remarks: 'mine' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await t.call('PUT', `/api/v1/system/roles/${created.body.id}`, { token: tok.branch, body: { name: `${created.body.name} 2`, remarks: 'still mine' } })).status).toBe(200);
    await makeAdmin(t, `other_branch_${Date.now()}`, created.body.id, ids.root);
    const renamed = await t.call('PUT', `/api/v1/system/roles/${created.body.id}`, { token: tok.branch, body: { name: 'Taken over', remarks: 'changed' } });
    expect(renamed.status).toBe(403);
    const [role] = await db().select().from(roles).where(eq(roles.id, created.body.id));
    expect(role!.name).toBe(`${created.body.name} 2`);
  });

  it('the sandbox launch URL follows the port the sandbox listens on', async () => {
    expect(await pointLaunchUrlAt(db(), 6123)).toBe(true);
    const [p] = await db().select().from(casinoProviders).where(eq(casinoProviders.code, 'sandbox'));
    expect(new URL(p!.launchUrl).port).toBe('6123');
    expect(await pointLaunchUrlAt(db(), 6123)).toBe(false);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('releasing a lock never ends an idle session; a session holding a lock is ended', async () => {
    const pg = await import('pg');
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const [{ name }] = (await t.database.query('SELECT current_database() AS name', [])).rows as { name: string }[];
    url.pathname = `/${name}`;
    const idle = new pg.default.Client({ connectionString: url.toString(), application_name: 'idle_probe' });
    const holder = new pg.default.Client({ connectionString: url.toString(), application_name: 'lock_probe' });
    // The terminated session reports its end as an error event: expected here.
    holder.on('error', () => {});
    await idle.connect();
    await holder.connect();
    try {
      const idlePid = (await idle.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const holderPid = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const refused = await t.call('POST', `/api/v1/operations/locks/${idlePid}/release`, { token: tok.admin, body: {} });
      expect([404, 409]).toContain(refused.status);
      expect((await idle.query('SELECT 1 AS one')).rows[0].one).toBe(1);
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(424242)');
      const released = await t.call('POST', `/api/v1/operations/locks/${holderPid}/release`, { token: tok.admin, body: {} });
      expect(released.status, JSON.stringify(released.body)).toBe(200);
      await expect(holder.query('SELECT 1')).rejects.toThrow();
    } finally {
      await idle.end().catch(() => {});
      await holder.end().catch(() => {});
    }
  });
});
