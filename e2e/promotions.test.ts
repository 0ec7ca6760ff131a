import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, rowByKey, settled, toastAfter, until } from './support/ui';
import { choose, openScreen, shot, shots } from './support/screens';

/**
 * Issue 17 in the browser: an operator creates a bet-to-get campaign in the form (type, period, rule,
 * cash reward, budget), activates it; a bettor places a bet and the order is settled (the sandbox betting
 * route, then an operator's result change: the settled batch is the event); the bettor's qualification
 * appears pending on the activity participation list with the campaign's name; the operator approves it and
 * the bettor's bills show the bet-to-get bonus (bill 12); the campaign's statistics count it. Screens at
 * 1280 and 390 px, both themes, sw-KE and zh-CN.
 *
 * Data: no demo data; DAU_SANDBOX_ROUTES=1 for the betting sandbox (a funded bettor and an order); the
 * promotions events job every second.
 */
const e2e = useE2e({ server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1', DAU_PROMOTION_EVENTS_SECONDS: '1' } } });
let adminToken = '';
const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, adminToken);
const NAME = 'E2E bet and get 500';

beforeAll(async () => {
  adminToken = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
});

/** A form item's input by its label (antd Form.Item). */
const item = (page: Page, label: string) => dialog(page).locator('.ant-form-item').filter({ has: page.locator('label', { hasText: label }) });

async function reloadUntil(page: Page, done: () => Promise<boolean>, what: string) {
  await until(async () => {
    await page.getByTestId('table-reload').click();
    await settled(page);
    return done();
  }, what);
}

describe('promotions', () => {
  test('create a campaign, a bettor qualifies by a settled bet, approve, the bill appears; statistics; 390 px; three languages', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openScreen(page, 'activity_campaign', 'Promotion campaigns');

    // ------------------------------------------------------------------ create
    await page.getByTestId('campaign-create').click();
    const form = dialog(page, 'New promotion campaign');
    await form.waitFor();
    await shot(page, 'promotions-01-form-signin');
    await form.getByTestId('campaign-name').fill(NAME);
    await choose(page, item(page, 'Type').locator('.ant-select'), 'Bet to get');
    await item(page, 'Minimum total stake').locator('input').fill('1,000');
    await item(page, 'Minimum odds').locator('input').fill('1.01');
    await item(page, 'Reward amount').locator('input').fill('500');
    await item(page, 'Budget').locator('input').fill('100,000');
    await shots(page, 'promotions-02-form-bet-to-get');
    await toastAfter(page, 'Successful operation', () => form.getByTestId('form-submit').click());
    const [campaign] = expectStatus(await api('GET', `/promotions/campaigns?name=${encodeURIComponent(NAME)}`), 200, 'campaigns').items;
    expect(campaign).toMatchObject({ type: 'bet_to_get', status: 'draft', budget_cents: 100_000_00, rules: { min_stake: 1_000_00, min_odds: 1.01 }, reward: { kind: 'cash', fixed_cents: 500_00 } });
    const row = rowByKey(page, campaign.id);
    await until(async () => (await row.innerText()).includes('Draft'), 'the new campaign row, draft');

    // ------------------------------------------------------------------ activate
    await page.getByTestId(`campaign-actions-row-${campaign.id}`).click();
    await page.getByTestId(`campaign-activate-${campaign.id}`).click();
    await toastAfter(page, 'Successful operation', () => page.getByTestId('confirm-ok').click());
    await until(async () => (await row.innerText()).includes('Active'), 'the campaign active');
    await shots(page, 'promotions-03-campaigns');

    // ------------------------------------------------------------------ a bettor bets; the order is settled
    const order = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 1_000_00, legs: 1 }), 201, 'sandbox order');
    const detail = expectStatus(await api('GET', `/betting/orders/${order.id}`), 200, 'order detail');
    const line = detail.lines[0];
    expectStatus(await api('POST', `/betting/orders/${order.id}/lines/${line.id}/result`, { outcome_status: 2, reason: 'E2E: official result' }), 200, 'result');
    const qualification = await until(async () => {
      const list = expectStatus(await api('GET', `/money/activity_qualification?bettor_id=${order.bettor_id}`), 200, 'qualifications').items;
      return list.find((q: any) => q.campaign_id === campaign.id);
    }, 'the bettor qualifies');
    expect(qualification).toMatchObject({ status: 1, reward: 500_00 });

    // ------------------------------------------------------------------ approve on the participation list
    await openScreen(page, 'activity_qualification', 'Activity participation');
    const qrow = rowByKey(page, qualification.id);
    await reloadUntil(page, async () => (await qrow.count()) > 0 && (await qrow.innerText()).includes(NAME), 'the pending row with the campaign name');
    expect(await qrow.innerText()).toContain('Pending');
    await shots(page, 'promotions-04-qualifications');
    await qrow.getByTestId(`activity-approve-${qualification.id}`).click();
    await toastAfter(page, 'Successful operation', () => page.getByTestId('confirm-ok').click());
    await until(async () => (await qrow.innerText()).includes('Success'), 'the row approved');

    // ------------------------------------------------------------------ the bill
    const bills = expectStatus(await api('GET', `/money/bills?bettor_id=${order.bettor_id}&type=12`), 200, 'bills').items;
    expect(bills).toHaveLength(1);
    expect(bills[0]).toMatchObject({ type: 12, amount: 500_00 });
    await openScreen(page, `bill?bettor_id=${order.bettor_id}`, 'Bills');
    const billRow = rowByKey(page, bills[0].id);
    await until(async () => (await billRow.count()) > 0 && (await billRow.innerText()).includes('Bet-to-get bonus'), 'the bet-to-get bonus bill');
    await shot(page, 'promotions-05-bill');

    // ------------------------------------------------------------------ statistics
    await openScreen(page, 'activity_campaign', 'Promotion campaigns');
    await page.getByTestId(`campaign-stats-row-${campaign.id}`).click();
    const stats = page.getByTestId('stats-figures');
    await stats.waitFor();
    await until(async () => /Qualified\s*1/.test(await stats.innerText()) && /Approved\s*1/.test(await stats.innerText()), 'one qualified and approved');
    expect(await stats.innerText()).toContain('TSh 500.00');
    await shots(page, 'promotions-06-stats');
    await page.keyboard.press('Escape');

    // ------------------------------------------------------------------ 390 px
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [route, title, name] of [
      ['activity_campaign', 'Promotion campaigns', 'promotions-07-campaigns-390'],
      ['activity_qualification', 'Activity participation', 'promotions-08-qualifications-390'],
    ] as const) {
      await openScreen(page, route, title);
      await shots(page, name);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${route} fits 390 px`).toBeLessThanOrEqual(390);
    }
    await openScreen(page, 'activity_campaign', 'Promotion campaigns');
    await page.getByTestId('campaign-create').click();
    await dialog(page, 'New promotion campaign').waitFor();
    await shots(page, 'promotions-09-form-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the form fits 390 px').toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 900 });

    // ------------------------------------------------------------------ languages
    for (const [lng, title, text, type] of [
      ['sw-KE', 'Kampeni za promosheni', 'Promosheni ambazo wachezaji hustahili', 'Bashiri upate'],
      ['zh-CN', '促销活动', '投注用户凭自身行为获得资格的促销活动', '投注送奖'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('language', l), lng);
      await page.goto('/#/customer/activity_campaign');
      await page.reload();
      await until(async () => (await page.getByTestId('page-title').innerText()) === title, `${lng}: the campaigns screen's title`);
      await settled(page);
      const body = await page.locator('body').innerText();
      expect(body, `${lng}: description`).toContain(text);
      expect(body, `${lng}: type`).toContain(type);
      await shot(page, `promotions-10-campaigns-${lng}`);
      await page.getByTestId(`campaign-stats-row-${campaign.id}`).click();
      await page.getByTestId('stats-figures').waitFor();
      await shot(page, `promotions-11-stats-${lng}`);
      await page.keyboard.press('Escape');
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    expect(missingKeys(page), 'no missing text').toEqual([]);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });

  test('a USSD push deposit shows its channel on the recharges and is the "USSD deposit" bill', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    const { bettor_id: bettorId } = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 1_000_00, legs: 1 }), 201, 'a sandbox bettor');
    // The sandbox subscriber answers the prompt at random (PIN, cancel, wrong PIN, no answer) and the operator
    // may lose a callback: push again until one is paid (a push still open after 15 s is left to the re-query).
    let pushedAt = 0;
    const paid = await until(async () => {
      const list = expectStatus(await api('GET', `/money/recharges?bettor_id=${bettorId}`), 200, 'recharges').items;
      const done = list.find((r: any) => r.recharge_channel === 2 && r.pay_status === 2);
      if (done) return done;
      if (!list.some((r: any) => r.pay_status === 1) || Date.now() - pushedAt > 15_000) {
        expectStatus(await api('POST', '/sandbox/recharges', { bettor_id: bettorId, pay_type: 6, amount: 2_000_00, channel: 'ussd' }), 201, 'a USSD push');
        pushedAt = Date.now();
      }
      return undefined;
    }, 'a paid USSD push deposit');
    await openScreen(page, `recharge_list?bettor_id=${bettorId}&recharge_channel=2`, 'Recharges');
    const row = rowByKey(page, paid.id);
    await until(async () => (await row.count()) > 0 && (await row.innerText()).includes('USSD push'), 'the USSD recharge row with its channel');
    await shots(page, 'promotions-12-recharges-ussd');
    const [bill] = expectStatus(await api('GET', `/money/bills?bettor_id=${bettorId}&type=11`), 200, 'bills').items;
    expect(bill).toMatchObject({ type: 11, amount: 2_000_00 });
    await openScreen(page, `bill?bettor_id=${bettorId}`, 'Bills');
    await until(async () => (await rowByKey(page, bill.id).count()) > 0 && (await rowByKey(page, bill.id).innerText()).includes('USSD deposit'), 'the USSD deposit bill');
    await shot(page, 'promotions-13-bill-ussd');
    expect(missingKeys(page), 'no missing text').toEqual([]);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});
