import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, rowByKey, rowWithText, settled, toastAfter, until } from './support/ui';
import { choose, openScreen, shot, shots } from './support/screens';
import { formatAsset } from '../apps/web/src/pages/tron/units';

/**
 * Issue 14 in the browser: an operator finds the house wallets (collection/hot and gas, made and funded on
 * the sandbox chain at start), creates a bettor's deposit wallet (the spec's toast), copies an address, sees a USDT deposit sent by an outside sender on the sandbox TRON
 * node arrive in the USDT records and be credited to the bettor once its block is solidified, reads the
 * deposit wallet's real-time balance and reconciliation, syncs all balances and collects all behind the
 * spec's confirmations, follows the sweep (and its gas top-up) to success in the collection summary, removes
 * a wallet (it stays, removed, with its time); screens at 390 px; sw-KE and zh-CN; screenshots in both
 * themes.
 *
 * Data: no demo data; the betting sandbox route (DAU_SANDBOX_ROUTES=1) makes a funded bettor. The sandbox
 * TRON node runs on its own port (TRON_SANDBOX_PORT); the test drives it as an outside party would:
 * `POST /sandbox/deposit {to, amount}` and `POST /sandbox/mine {blocks}`.
 */
const TRON_PORT = 31_000 + Math.floor(Math.random() * 8_000);
const NODE = `http://127.0.0.1:${TRON_PORT}`;
const e2e = useE2e({ server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1', TRON_SANDBOX_PORT: String(TRON_PORT) } } });
let adminToken = '';
let bettor: { id: number; phone: string };
const DEPOSIT = 25_500_000; // 25.50 USDT (6 decimals)

const api = <T = any>(method: string, p: string, body?: unknown, token = adminToken) => e2e.server.api<T>(method, p, body, token);

/** A call to the sandbox TRON node (an outside sender, the miner). */
async function node(p: string, body: unknown): Promise<any> {
  const res = await fetch(`${NODE}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`sandbox node ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
const mine = (blocks: number) => node('/sandbox/mine', { blocks });

/**
 * Mines past the solidification depth (19 blocks) at most every 4 s while a wait polls: the watcher and
 * the sweeps job run every few seconds and read each block, so the chain should not race far ahead.
 */
function miner() {
  let last = 0;
  return async () => {
    if (Date.now() - last < 4_000) return;
    last = Date.now();
    await mine(20);
  };
}

/** Reloads the list (its toolbar button) until `done` holds, mining meanwhile. */
async function reloadUntil(page: Page, done: () => Promise<boolean>, what: string) {
  const step = miner();
  await until(async () => {
    await step();
    await page.getByTestId('table-reload').click();
    await settled(page);
    return done();
  }, what);
}

beforeAll(async () => {
  adminToken = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  const order = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 1_000_00, legs: 1 }), 201, 'sandbox bettor');
  bettor = { id: order.bettor_id, phone: order.phone };
});

/** The wallets as the server lists them (to read the addresses it made). */
async function wallets(): Promise<any[]> {
  return expectStatus(await api('GET', '/tron/wallets?page_size=100'), 200, 'wallets').items;
}

/** Creates a wallet through the dialog and answers the new row. */
async function createWallet(page: Page, role: string, bettorId?: number): Promise<any> {
  const before = new Set((await wallets()).map((w) => w.id));
  await page.getByTestId('wallet-create').click();
  const form = dialog(page, 'Create a wallet');
  await form.waitFor();
  await choose(page, form.locator('.ant-select').first(), role);
  if (bettorId !== undefined) await form.locator('input#bettor_id, .ant-input-number input').last().fill(String(bettorId));
  await toastAfter(page, 'Successful operation', () => form.getByTestId('form-submit').click());
  await form.waitFor({ state: 'hidden' });
  const made = (await wallets()).find((w) => !before.has(w.id));
  expect(made, `a new ${role} wallet`).toBeTruthy();
  await rowWithText(page, made.address_base58.slice(0, 6)).first().waitFor();
  return made;
}

/** Clicks a button behind a pop-confirm, checks the confirmation's text, confirms and waits for the toast. */
async function confirmed(page: Page, button: Locator, question: string, toastText: string) {
  await button.click();
  const pop = page.locator('.ant-popover:visible, .ant-popconfirm:visible').filter({ hasText: question });
  await pop.waitFor();
  return toastAfter(page, toastText, () => pop.getByTestId('confirm-ok').click());
}

describe('TRON screens', () => {
  test('wallets, a deposit credited, real-time balance and reconciliation, sync and collect all with confirmations, sweeps and records; 390 px; three languages', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // ----------------------------------------------------------------------------------- wallets
    await openScreen(page, 'tron', 'TRON wallets');
    // The house wallets: made at start, funded by the sandbox chain's faucet.
    const house = (await wallets()).filter((w) => !w.removed).sort((a, b) => a.id - b.id);
    const collection = house.find((w) => w.role === 2);
    const gas = house.find((w) => w.role === 3);
    expect(collection && gas, 'the house wallets').toBeTruthy();
    expect(await rowWithText(page, collection.address_base58.slice(0, 6)).innerText()).toContain('Collection (hot)');
    expect(await rowWithText(page, gas.address_base58.slice(0, 6)).innerText()).toContain('Gas');
    const deposit = await createWallet(page, 'Deposit', bettor.id);
    expect(deposit.bettor_id).toBe(bettor.id);
    for (const w of [collection, gas, deposit]) {
      expect(w.address_base58).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      expect(w.address_hex).toMatch(/^41[0-9a-f]{40}$/);
    }
    const depositRow = rowWithText(page, deposit.address_base58.slice(0, 6));
    expect(await depositRow.innerText()).toContain('Deposit');
    expect(await depositRow.innerText()).toContain(`#${bettor.id}`);
    // Copy the address: the spec's toast.
    await toastAfter(page, 'Copied successfully', () => depositRow.locator('.ant-typography-copy').first().click());

    // ------------------------------------------------------------------ a deposit from outside
    await node('/sandbox/deposit', { to: deposit.address_base58, amount: DEPOSIT });
    await openScreen(page, 'usdt_transaction_record', 'USDT transactions');
    const record = rowWithText(page, '25.50 USDT');
    // Solidified after 19 blocks: mine until the watcher has credited it.
    await reloadUntil(page, async () => (await record.count()) > 0 && (await record.first().innerText()).includes('Credited'), 'the deposit credited');
    const recordText = await record.first().innerText();
    expect(recordText).toContain(`#${bettor.id}`);
    expect(recordText).toMatch(/Recharge \S+/);
    await shots(page, 'tron-01-usdt-records');
    await record.first().click();
    const recordDrawer = page.getByTestId('resource-detail');
    await recordDrawer.waitFor();
    const drawerText = await recordDrawer.innerText();
    expect(drawerText).toContain(deposit.address_base58);
    expect(drawerText).toMatch(/Fingerprint\s+[0-9a-f]{64}:\d+/);
    await shot(page, 'tron-02-usdt-record-drawer');
    await page.keyboard.press('Escape');

    // ---------------------------------------------------- real-time balance and reconciliation
    await openScreen(page, 'tron', 'TRON wallets');
    await page.getByTestId(`wallet-realtime-${deposit.id}`).click();
    const realtime = page.getByTestId('realtime-balance');
    await realtime.waitFor();
    expect(await page.getByTestId('realtime-USDT').innerText()).toBe('25.50 USDT');
    await shots(page, 'tron-03-realtime');
    await page.keyboard.press('Escape');
    await page.getByTestId(`row-view-${deposit.id}`).click();
    const drawer = page.getByTestId('resource-detail');
    await drawer.getByTestId('wallet-reconciliation').locator('table').waitFor();
    expect(await drawer.innerText()).toContain(deposit.address_hex);
    expect(await drawer.getByTestId('reconcile-chain-USDT').innerText()).toBe('25.50 USDT');
    await shots(page, 'tron-04-wallet-drawer');
    await page.keyboard.press('Escape');
    // Every wallet at once: the deposit wallet balanced (on chain = what its confirmed transfers say).
    await page.getByTestId('wallet-reconcile-all').click();
    const all = page.getByTestId('reconcile-all');
    await all.getByTestId(`reconcile-${deposit.id}`).waitFor();
    await settled(page);
    expect(await all.getByTestId(`reconcile-${deposit.id}`).innerText()).toBe('Balanced');
    await shots(page, 'tron-04b-reconciliation');
    await page.keyboard.press('Escape');

    // --------------------------------------------------- sync all and collect all, confirmed
    await confirmed(page, page.getByTestId('wallet-sync-all'), 'Sync the balances of all wallets?', 'Successful operation');
    await reloadUntil(page, async () => (await page.getByTestId(`wallet-usdt-${deposit.id}`).innerText()) === '25.50 USDT', 'the stored balance synced');
    await shots(page, 'tron-05-wallets');
    // What the collection wallet holds on chain before the collection (the sandbox's float).
    const collectedInto = Number(expectStatus(await api('GET', `/tron/wallets/${collection.id}/balance`), 200, 'hot balance').usdt_balance);
    await confirmed(page, page.getByTestId('wallet-collect-all'), 'Collect the balances of all wallets?', 'Successful operation');

    await openScreen(page, 'tron_transaction_summary', 'TRON collection summary');
    const sweep = rowWithText(page, 'Collection');
    await reloadUntil(page, async () => (await sweep.count()) > 0 && (await sweep.first().innerText()).includes('Success'), 'the collection succeeded');
    expect(await sweep.first().innerText()).toContain('25.50 USDT');
    // Its gas top-up shows under it in the list.
    await until(async () => /↳\s*[\d.,]+ TRX/.test(await sweep.first().innerText()), 'the gas top-up under the collect sweep');
    await sweep.first().click();
    const sweepDrawer = page.getByTestId('resource-detail');
    await sweepDrawer.getByTestId('sweep-top-ups').waitFor();
    await settled(page);
    const sweepText = await sweepDrawer.innerText();
    expect(sweepText).toContain(deposit.address_base58);
    expect(sweepText).toContain(collection.address_base58);
    // The deposit address had no TRX for the energy: the gas wallet topped it up first, shown under the sweep.
    const topUps = sweepDrawer.getByTestId('sweep-top-ups').locator('tbody tr.ant-table-row');
    expect(await topUps.count()).toBe(1);
    expect(await topUps.first().innerText()).toMatch(/TRX[\s\S]*Success/);
    await shots(page, 'tron-06-sweep-drawer');
    await page.keyboard.press('Escape');
    await shots(page, 'tron-07-sweeps');

    // The collection wallet now holds it too; the deposit wallet is empty.
    await openScreen(page, 'tron', 'TRON wallets');
    await reloadUntil(
      page,
      async () =>
        (await page.getByTestId(`wallet-usdt-${deposit.id}`).innerText()) === '0.00 USDT' &&
        (await page.getByTestId(`wallet-usdt-${collection.id}`).innerText()) === formatAsset(collectedInto + DEPOSIT, 'USDT'),
      'the deposit moved into the collection wallet',
    );

    // -------------------------------------------------------------------- remove (soft)
    const spare = await createWallet(page, 'Collection (hot)');
    await confirmed(page, page.getByTestId(`wallet-remove-${spare.id}`), 'Remove this wallet?', 'Successful operation');
    await page.getByTestId(`wallet-removed-${spare.id}`).waitFor();
    expect(await rowWithText(page, spare.address_base58.slice(0, 6)).innerText()).toMatch(/Removed\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(await page.getByTestId(`wallet-remove-${spare.id}`).count()).toBe(0);

    // ------------------------------------------------------------------------------ phone
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [route, title, name] of [
      ['tron', 'TRON wallets', 'tron-08-wallets-390'],
      ['tron_transaction_summary', 'TRON collection summary', 'tron-09-sweeps-390'],
      ['usdt_transaction_record', 'USDT transactions', 'tron-10-records-390'],
    ] as const) {
      await openScreen(page, route, title);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${route} fits 390 px`).toBeLessThanOrEqual(390);
      await shots(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // ---------------------------------------------------------------------------- languages
    for (const [lng, title, text, column] of [
      ['sw-KE', 'Pochi za TRON', 'Anwani zetu za TRON', 'Salio la USDT'],
      ['zh-CN', 'TRON钱包', '我们的 TRON 地址', 'USDT 余额'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('language', l), lng);
      await page.goto('/#/customer/tron');
      await page.reload();
      await until(async () => (await page.getByTestId('page-title').innerText()) === title, `${lng}: the wallets screen's title`);
      await settled(page);
      const body = await page.locator('body').innerText();
      expect(body, `${lng}: description`).toContain(text);
      expect(body, `${lng}: column`).toContain(column);
      await shot(page, `tron-11-wallets-${lng}`);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    expect(missingKeys(page), 'no missing text').toEqual([]);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});

describe('issue 29: the address-poisoning hold in the review, and the TRON settings', () => {
  test('a held USDT withdrawal shows its destination, USDT amount and hold; its release waits for a second admin; the TRON settings card saves with history', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    const house = (await wallets()).filter((w) => !w.removed && w.role === 2);
    const hot = house[0];
    expect(hot, 'the collection (hot) wallet').toBeTruthy();
    // A withdrawal to one of our own addresses: held (address poisoning), 26,000.00 TSh = 10 USDT at 2,600.
    const held = expectStatus(await api('POST', '/sandbox/tron/withdrawals', { bettor_id: bettor.id, amount: 26_000_00, to_address: hot.address_base58 }), 201, 'a held USDT withdrawal');
    expect(held.held).toBe(true);

    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openScreen(page, 'withdraw_list', 'Withdrawals');
    const row = rowByKey(page, held.id);
    await page.getByTestId(`usdt-held-${held.id}`).waitFor();
    expect(await page.getByTestId(`usdt-amount-${held.id}`).innerText()).toContain('10.00 USDT');
    // The approval names the USDT amount and the whole address, and says it is held (not the phone).
    await row.getByTestId(`withdraw-approve-${held.id}`).click();
    const confirm = page.getByTestId('usdt-confirm');
    await confirm.waitFor();
    expect(await page.getByTestId('usdt-confirm-address').innerText()).toBe(hot.address_base58);
    expect(await confirm.innerText()).toContain('Held: release the hold before approving');
    expect(await confirm.innerText()).not.toContain(bettor.phone);
    await shot(page, 'tron-12-usdt-approve-held');
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /Cancel/ }).click();
    await confirm.waitFor({ state: 'hidden' });

    // The drawer: destination, USDT amount, the hold naming the look-alike (our own wallet), the release.
    await page.getByTestId(`row-view-${held.id}`).click();
    const drawer = page.getByTestId('resource-detail');
    await drawer.getByTestId('usdt-review').waitFor();
    expect(await drawer.getByTestId('usdt-review-address').innerText()).toBe(hot.address_base58);
    expect(await drawer.getByTestId('usdt-review-amount').innerText()).toBe('10.00 USDT');
    expect(await drawer.getByTestId('usdt-hold').innerText()).toContain(`one of our own wallets (${hot.address_base58})`);
    await shots(page, 'tron-13-usdt-review-drawer');
    await drawer.getByTestId(`usdt-release-${held.id}`).click();
    const form = dialog(page, /Release the hold/);
    await form.waitFor();
    await form.getByTestId('usdt-release-remark').fill('Read out in full by the bettor on a call to their phone');
    await toastAfter(page, /Saved as a pending change/, () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    await drawer.getByText('Release waiting for a second administrator').first().waitFor();
    expect(await drawer.getByTestId(`usdt-release-${held.id}`).count()).toBe(0);
    await page.keyboard.press('Escape');

    // A second whole-book admin approves it: the hold is gone from the list.
    const roles = expectStatus(await api('GET', '/system/roles?page_size=100'), 200, 'roles').items as { id: number; is_super: boolean }[];
    expectStatus(await api('POST', '/system/administrators', { account: 'tron_checker', name: 'TRON checker', password: ADMIN_PASSWORD, role_id: roles.find((r) => r.is_super)!.id }), 201, 'a second super admin');
    const checker = await e2e.server.loginApi('tron_checker', ADMIN_PASSWORD);
    const waiting = expectStatus(await api('GET', '/system/pending_changes?status=pending&setting=usdt_hold_release'), 200, 'pending releases').items as { id: number }[];
    expect(waiting.length).toBe(1);
    expect(expectStatus(await e2e.server.api('POST', `/system/pending_changes/${waiting[0]!.id}/approve`, {}, checker), 200, 'approval').pending_change.status).toBe('applied');
    await until(async () => {
      await page.getByTestId('table-reload').click();
      await settled(page);
      return (await page.getByTestId(`usdt-held-${held.id}`).count()) === 0;
    }, 'the hold released');
    await shots(page, 'tron-14-usdt-released');

    // ------------------------------------------------------------------ the TRON settings
    await openScreen(page, 'tron_config', 'TRON settings');
    const card = page.getByTestId('resource-settings');
    expect(await card.innerText()).toMatch(/2,600\.00[\s\S]*19 blocks[\s\S]*10\.00 USDT[\s\S]*100,000\.00 USDT/);
    await card.getByTestId('resource-edit').click();
    await card.locator('input#settings-tron_settings_confirmations').fill('20');
    await card.locator('input#settings-tron_settings_collect_threshold').fill('12.5');
    await toastAfter(page, 'Successful operation', () => card.getByTestId('form-submit').click());
    await until(async () => (await card.innerText()).includes('20 blocks') && (await card.innerText()).includes('12.50 USDT'), 'the settings saved');
    // The rate moves money: it waits for a second admin.
    await card.getByTestId('resource-edit').click();
    await card.locator('input#settings-tron_settings_usdt_rate_tsh').fill('2,700.00');
    await toastAfter(page, /Saved as a pending change/, () => card.getByTestId('form-submit').click());
    await card.getByTestId('setting-pending').waitFor();
    expect(await card.innerText()).toContain('2,600.00');
    await card.getByTestId('setting-history').click();
    await page.getByTestId('setting-history-list').locator('.ant-list-item').first().waitFor();
    expect(await page.getByTestId('setting-history-list').innerText()).toContain('admin');
    await shots(page, 'tron-15-settings-history');
    await page.keyboard.press('Escape');
    expect(missingKeys(page), 'no missing text').toEqual([]);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});

