import crypto from 'node:crypto';
import http from 'node:http';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { ASYNC_OPERATION_STATUS, formatTsh } from '@dau/domain';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, field, rowByKey, rowWithText, settled, toastAfter, until } from './support/ui';
import { choose, openScreen, shot, shots } from './support/screens';

/**
 * Issue 13 in the browser: an operator sets a provider's shared secret (write-only: the form never shows
 * it again), adds a game, sees the rounds a provider plays through the wallet arrive on the casino orders,
 * opens a round's details (every wallet call with its bill), reads the revenue per game and per bettor,
 * and the game's RTP chart (actual RTP inside its confidence band); some texts in en-US, sw-KE and zh-CN;
 * screenshots in both themes, at 1280 px and on a phone.
 *
 * Data: no demo data and no simulator. The betting sandbox route (DAU_SANDBOX_ROUTES=1) gives a funded
 * bettor. The test itself is the game provider: it opens a game session for the bettor (POST
 * /casino/sessions) and calls the wallet API over HTTP (POST /wallet/v1/<provider>/...) signed with the
 * HMAC secret the operator typed in the browser: four completed rounds (one with a zero win) and one
 * rolled back. The RTP chart needs a check of the RTP watch (a periodic job, every 5 s in this test): the test
 * waits for the first check that has seen the rounds.
 */
// The RTP watch checks every 5 s here instead of every 5 minutes, so the chart's first check comes soon.
const e2e = useE2e({ server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1', DAU_RTP_WATCH_SECONDS: '5' } } });
let adminToken = '';
let bettor: { id: number; phone: string };
let provider: { id: number; code: string; name: string };
const SECRET = `e2e-secret-${crypto.randomBytes(12).toString('hex')}`;
const GAME_CODE = 'e2e-lucky-slot';
const GAME_NAME = 'E2E Lucky Slot';
const STAKE = 100_00;
/** The wins of the four completed rounds (one zero win), then one round rolled back. */
const WINS = [250_00, 0, 50_00, 120_00];

const api = <T = any>(method: string, p: string, body?: unknown, token = adminToken) => e2e.server.api<T>(method, p, body, token);

beforeAll(async () => {
  adminToken = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  const order = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 1_000_00 }), 201, 'sandbox bettor');
  bettor = { id: order.bettor_id, phone: order.phone };
  const providers = expectStatus(await api('GET', '/casino/providers?sort=id'), 200, 'providers').items;
  expect(providers.length, 'a game provider is configured').toBeGreaterThan(0);
  provider = providers[0];
});

/**
 * A wallet call as a provider makes it: the body signed with HMAC-SHA256 of the shared secret, sent with
 * node:http (fetch adds the browser's `sec-fetch-mode` header, which the wallet refuses as a browser's).
 */
async function wallet(call: string, body: Record<string, unknown>): Promise<any> {
  const raw = JSON.stringify({ request_uuid: crypto.randomUUID(), ...body });
  const ts = Math.floor(Date.now() / 1000);
  const signature = crypto.createHmac('sha256', SECRET).update(`${ts}.${raw}`).digest('base64');
  const url = new URL(`/wallet/v1/${encodeURIComponent(provider.code)}/${call}`, e2e.server.baseUrl);
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(raw), 'x-dau-timestamp': String(ts), 'x-dau-signature': signature } },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: data }));
      },
    );
    req.on('error', reject);
    req.end(raw);
  });
  expect(status, `${call} answers HTTP 200`).toBe(200);
  return JSON.parse(text);
}

/** The form item labelled exactly `label`. */
const itemOf = (scope: Locator, label: string) => scope.locator('.ant-form-item', { has: scope.page().locator('.ant-form-item-label label', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) });
const selectOf = (scope: Locator, label: string) => itemOf(scope, label).locator('.ant-select');

describe('casino screens', () => {
  test('provider secret, a new game, rounds arriving, a round with its wallet calls and bills, revenue and the RTP chart; three languages', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // ------------------------------------------------------------------------------ settings, provider
    await openScreen(page, 'casino_config', 'Casino settings');
    await page.getByTestId('resource-settings').waitFor();
    expect(await page.getByTestId('resource-settings').innerText()).toContain('Casino open');
    // The settings card: the casino open, the RTP alert confidence shown as a percentage.
    await page.getByTestId('resource-edit').click();
    const settingsForm = page.locator('form[id="settings-casino_settings"]');
    await settingsForm.waitFor();
    const open = itemOf(settingsForm, 'Casino open').locator('button.ant-switch');
    if ((await open.getAttribute('aria-checked')) !== 'true') await open.click();
    await field(settingsForm, 'RTP alert confidence').fill('99.9');
    await toastAfter(page, 'Successful', () => settingsForm.getByTestId('form-submit').click());
    const settings = expectStatus(await api('GET', '/casino/settings'), 200, 'casino settings');
    expect(settings).toMatchObject({ casino_enabled: true, rtp_alert_confidence: 9990 });

    // The provider: HMAC with a new shared secret, typed once and never shown again.
    await rowByKey(page, provider.id).waitFor();
    await page.getByTestId(`row-edit-${provider.id}`).click();
    let form = dialog(page);
    await form.waitFor();
    expect(await form.innerText()).toContain('Leave empty to keep it');
    await choose(page, selectOf(form, 'Signature'), 'HMAC-SHA256 (shared secret)');
    const secretInput = field(form, 'Shared secret');
    expect(await secretInput.inputValue()).toBe('');
    await secretInput.fill(SECRET);
    await shots(page, 'casino-01-provider-form');
    // A provider's secret can move money: it waits for a second administrator (issue 22), who approves it.
    await toastAfter(page, 'Saved as a pending change', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    const superRole = (expectStatus(await api('GET', '/system/roles?page_size=100'), 200, 'roles').items as { id: number; is_super: boolean }[]).find((r) => r.is_super)!;
    expectStatus(await api('POST', '/system/administrators', { account: 'casino_checker', name: 'Casino checker', password: ADMIN_PASSWORD, role_id: superRole.id }), 201, 'a second super admin');
    const checkerToken = await e2e.server.loginApi('casino_checker', ADMIN_PASSWORD);
    const waiting = expectStatus(await api('GET', '/system/pending_changes?status=pending&setting=casino_provider'), 200, 'pending changes').items as { id: number }[];
    expect(waiting.length).toBe(1);
    const approved = expectStatus(await e2e.server.api('POST', `/system/pending_changes/${waiting[0]!.id}/approve`, {}, checkerToken), 200, 'approval');
    expect(approved.pending_change.status).toBe('applied');
    // Read back: the answer has no secret, and the form starts empty again.
    const read = expectStatus(await api('GET', `/casino/providers/${provider.id}`), 200, 'provider');
    expect(read.auth_kind).toBe('hmac');
    expect(JSON.stringify(read)).not.toContain(SECRET);
    expect('secret' in read).toBe(false);
    await page.getByTestId(`row-edit-${provider.id}`).click();
    form = dialog(page);
    await form.waitFor();
    expect(await field(form, 'Shared secret').inputValue()).toBe('');
    await form.locator('.ant-modal-close').click();
    await form.waitFor({ state: 'hidden' });
    await shots(page, 'casino-02-config');

    // ----------------------------------------------------------------------------------- category
    await openScreen(page, 'casino_classification', 'Casino categories');
    await page.getByTestId('resource-create').click();
    form = dialog(page, 'Casino categories');
    await form.waitFor();
    await field(form, 'Name (English)').fill('E2E Slots');
    await field(form, 'Name (Swahili)').fill('Sloti za E2E');
    await field(form, 'Name (Chinese)').fill('E2E 老虎机');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    await rowWithText(page, 'E2E Slots').waitFor();

    // --------------------------------------------------------------------------------------- game
    await openScreen(page, 'casino_list', 'Casino games');
    await page.getByTestId('resource-create').click();
    form = dialog(page, 'Casino games');
    await form.waitFor();
    await choose(page, selectOf(form, 'Provider'), provider.name);
    await field(form, 'Game code').fill(GAME_CODE);
    await field(form, 'Name').fill(GAME_NAME);
    await choose(page, selectOf(form, 'Category'), 'E2E Slots');
    await choose(page, selectOf(form, 'Game type'), 'Slot');
    await field(form, 'Theoretical RTP').fill('96.5');
    await choose(page, selectOf(form, 'Volatility'), /^Medium$/);
    await field(form, 'Minimum bet').fill('10');
    await field(form, 'Maximum bet').fill('10,000');
    await itemOf(form, 'Hot').locator('button.ant-switch').click();
    await shots(page, 'casino-03-game-form');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    const game = expectStatus(await api('GET', `/casino/games?game_code=${GAME_CODE}`), 200, 'games').items[0];
    expect(game).toMatchObject({ provider_id: provider.id, name: GAME_NAME, kind: 'slot', rtp_bps: 9650, volatility: 2, min_bet: 10_00, max_bet: 10_000_00, hot: true, enabled: true });
    const row = rowByKey(page, game.id);
    await row.waitFor();
    expect(await row.innerText()).toContain('96.5 %');
    await page.getByTestId(`game-hot-${game.id}`).waitFor();
    await shots(page, 'casino-04-games');

    // --------------------------------------------------------------------------- rounds arriving
    await openScreen(page, `casino_order?game_id=${game.id}`, 'Casino orders');
    expect(await page.getByTestId('resource-table').locator('tr.ant-table-row').count()).toBe(0);
    const session = expectStatus(await api('POST', '/casino/sessions', { bettor_id: bettor.id, game_id: game.id }), 201, 'session');
    expect(session.launch_url).toContain(session.token);
    const common = { token: session.token, user: String(bettor.id), game_code: GAME_CODE, currency: 'TZS' };
    const opening = await wallet('user/balance', { token: session.token, game_code: GAME_CODE });
    expect(opening.status).toBe('RS_OK');
    const balance0 = opening.balance as number;
    const refs: string[] = [];
    for (let i = 0; i < WINS.length; i++) {
      const round = `e2e-round-${i + 1}-${crypto.randomBytes(4).toString('hex')}`;
      refs.push(round);
      const bet = crypto.randomUUID();
      expect((await wallet('transaction/bet', { ...common, round, transaction_uuid: bet, amount: STAKE })).status).toBe('RS_OK');
      expect((await wallet('transaction/win', { ...common, round, transaction_uuid: crypto.randomUUID(), reference_transaction_uuid: bet, amount: WINS[i] })).status).toBe('RS_OK');
      expect((await wallet('round/end', { ...common, round })).status).toBe('RS_OK');
    }
    // A round that failed at the provider: its bet rolled back.
    const failed = `e2e-round-failed-${crypto.randomBytes(4).toString('hex')}`;
    const failedBet = crypto.randomUUID();
    expect((await wallet('transaction/bet', { ...common, round: failed, transaction_uuid: failedBet, amount: STAKE })).status).toBe('RS_OK');
    const rolled = await wallet('transaction/rollback', { ...common, round: failed, transaction_uuid: crypto.randomUUID(), reference_transaction_uuid: failedBet });
    expect(rolled.status).toBe('RS_OK');
    const won = WINS.reduce((a, b) => a + b, 0);
    const turnover = WINS.length * STAKE;
    expect(rolled.balance).toBe(balance0 - turnover + won);

    // The list refreshes by itself: the five rounds arrive.
    const rows = page.getByTestId('resource-table').locator('tr.ant-table-row');
    await until(async () => (await rows.count()) === 5, 'the five rounds on the list');
    const rounds = expectStatus(await api('GET', `/casino/rounds?game_id=${game.id}&sort=id`), 200, 'rounds').items;
    expect(rounds.map((r: any) => r.status)).toEqual([2, 2, 2, 2, 3]);
    const first = rounds[0];
    expect(first).toMatchObject({ round_ref: refs[0], bet_total: STAKE, win_total: WINS[0], net: WINS[0] - STAKE, phone: bettor.phone });
    expect(await page.getByTestId(`round-status-${first.id}`).innerText()).toBe('Completed');
    expect(await page.getByTestId(`round-status-${rounds[4].id}`).innerText()).toBe('Rolled back');
    await shots(page, 'casino-05-rounds');

    // ------------------------------------------------------------------------------- round details
    await page.getByTestId(`round-open-${first.id}`).click();
    await page.waitForURL(new RegExp(`casino_order_details\\?id=${first.id}$`));
    await until(async () => (await page.getByTestId('round-title').innerText()).includes(refs[0]), 'the round details');
    await settled(page);
    const detail = expectStatus(await api('GET', `/casino/rounds/${first.id}`), 200, 'round detail');
    const [betTx, winTx] = detail.transactions;
    expect(betTx).toMatchObject({ kind: 'bet', amount: STAKE, status: 'RS_OK' });
    expect(winTx).toMatchObject({ kind: 'win', amount: WINS[0], status: 'RS_OK' });
    expect(await page.getByTestId(`tx-kind-${betTx.id}`).innerText()).toBe('Bet');
    expect(await page.getByTestId(`tx-amount-${betTx.id}`).innerText()).toBe(formatTsh(-STAKE));
    expect(await page.getByTestId(`tx-amount-${winTx.id}`).innerText()).toBe(formatTsh(WINS[0]));
    // Each money movement names its bill.
    expect(betTx.bill_serial).toBeTruthy();
    expect(await page.getByTestId(`tx-bill-${betTx.id}`).innerText()).toBe(betTx.bill_serial);
    expect(await page.getByTestId(`tx-bill-${winTx.id}`).innerText()).toBe(winTx.bill_serial);
    expect(await page.getByTestId('round-detail').innerText()).toContain('Completed');
    await shots(page, 'casino-06-round-details');
    // The zero win moves no money: no bill.
    await page.goto(`/#/customer/casino_order_details?id=${rounds[1].id}`);
    await until(async () => (await page.getByTestId('round-title').innerText()).includes(refs[1]), 'the zero-win round');
    await settled(page);
    expect(await page.getByTestId('round-transactions').innerText()).toContain('No bill');
    // The rolled-back round: its bet and the rollback.
    await page.goto(`/#/customer/casino_order_details?id=${rounds[4].id}`);
    await until(async () => (await page.getByTestId('round-title').innerText()).includes(failed), 'the rolled-back round');
    await settled(page);
    const failedText = await page.getByTestId('round-detail').innerText();
    expect(failedText).toContain('Rolled back');
    expect(failedText).toContain('Rollback');

    // ------------------------------------------------------------------------------------ revenue
    await openScreen(page, 'casino_game', 'Game revenue');
    await rowByKey(page, game.id).waitFor();
    await until(async () => (await page.getByTestId('casino-total-turnover').innerText()).includes(formatTsh(turnover)), 'the turnover total');
    expect(await page.getByTestId('casino-total-payouts').innerText()).toContain(formatTsh(won));
    expect(await page.getByTestId('casino-total-ggr').innerText()).toContain(formatTsh(turnover - won));
    const rtp = Math.round((won * 10_000) / turnover);
    const rtpText = `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(rtp / 100)} %`;
    const gameRow = await rowByKey(page, game.id).innerText();
    expect(gameRow).toContain(GAME_NAME);
    expect(gameRow).toContain(provider.name);
    expect(gameRow).toContain(rtpText);
    expect(gameRow).toContain('96.5 %');
    await shots(page, 'casino-07-game-revenue');
    // Export: a background job of the list as filtered, one row (the game).
    await page.getByTestId('export-async').click();
    const queued = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/exports'));
    await page.getByTestId('export-async-csv').click();
    const answer = await queued;
    expect(answer.status(), 'export queued').toBe(202);
    const job = (await answer.json()) as { id: number };
    await page.getByTestId('export-started').waitFor({ state: 'visible' });
    const done = await until(async () => {
      const op = (expectStatus(await api('GET', '/system/async_operations?page_size=50'), 200, 'export jobs').items as any[]).find((o) => o.id === job.id);
      return op && op.status === ASYNC_OPERATION_STATUS.completed ? op : null;
    }, 'the export job done');
    expect(done.row_count).toBe(1);
    // The live notice that the file is ready stays until closed.
    const notice = page.getByTestId('notice-toast').filter({ hasText: `#${job.id}` });
    await notice.waitFor();
    await notice.getByTestId('notice-close').click();
    await notice.waitFor({ state: 'hidden' });

    // Per bettor.
    await openScreen(page, `casino_user?phone=${bettor.phone}`, 'Casino user statistics');
    const bettorRow = rowWithText(page, bettor.phone);
    await bettorRow.waitFor();
    expect(await bettorRow.innerText()).toContain(formatTsh(turnover));
    await shots(page, 'casino-08-bettors');

    // ------------------------------------------------------------------------------------ RTP chart
    // The RTP watch checks every game every 5 minutes: wait for a check that has seen the rounds.
    await until(
      async () => expectStatus(await api('GET', `/casino/games/${game.id}/rtp`), 200, 'rtp series').points.some((p: any) => p.rounds === WINS.length),
      'an RTP check of the game',
      400_000,
    );
    await openScreen(page, 'casino_game', 'Game revenue');
    await page.getByTestId(`rtp-open-${game.id}`).click();
    const drawer = page.getByTestId('rtp-drawer');
    await drawer.getByTestId('rtp-chart-panel').waitFor();
    expect(await drawer.getByTestId('rtp-theoretical').innerText()).toBe('96.5 %');
    expect(await drawer.getByTestId('rtp-actual').innerText()).toBe(rtpText);
    // Fewer rounds than the watch needs to judge: inside.
    await drawer.getByTestId('rtp-inside').waitFor();
    await until(async () => (await drawer.getByTestId('rtp-chart').getAttribute('data-chart-state')) === 'drawn', 'the RTP chart drawn');
    await shots(page, 'casino-09-rtp-chart');
    await drawer.locator('.ant-drawer-close').click();

    // --------------------------------------------------------------------------------- phone
    await page.setViewportSize({ width: 390, height: 844 });
    await openScreen(page, `casino_order?game_id=${game.id}`, 'Casino orders');
    await shot(page, 'casino-10-rounds-390');
    await page.goto(`/#/customer/casino_order_details?id=${first.id}`);
    await until(async () => (await page.getByTestId('round-title').innerText()).includes(refs[0]), 'the round details on a phone');
    await settled(page);
    await shot(page, 'casino-11-round-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // ----------------------------------------------------------------------------- languages
    for (const [lng, title, text, column] of [
      ['sw-KE', 'Mapato ya michezo', 'Mapato kwa kila mchezo', 'RTP halisi'],
      ['zh-CN', '游戏营收', '每个游戏和供应商的营收', '实际 RTP'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('language', l), lng);
      await page.goto('/#/customer/casino_game');
      await page.reload();
      await until(async () => (await page.getByTestId('page-title').innerText()) === title, `${lng}: the game revenue title`);
      await settled(page);
      const body = await page.locator('body').innerText();
      expect(body, `${lng}: description`).toContain(text);
      expect(body, `${lng}: column`).toContain(column);
      await shot(page, `casino-12-game-revenue-${lng}`);
      await page.goto(`/#/customer/casino_order_details?id=${rounds[4].id}`);
      await until(async () => (await page.getByTestId('round-title').innerText()).includes(failed), `${lng}: the round`);
      await settled(page);
      await shot(page, `casino-13-round-${lng}`);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    expect(missingKeys(page), 'no missing text').toEqual([]);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});
