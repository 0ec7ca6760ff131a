import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { BETTING_OFFER_STATUS, EVENT_STATUS, SPORT, WITHDRAWAL_STATUS, formatTsh, networkOf } from '@dau/domain';
import { logOf, screenshot, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, rowByKey, settled, toastsShown, until } from './support/ui';

/**
 * Bulk actions in the browser (issue 29): an operator selects 20 withdrawals in the review list and
 * approves them at once. One confirmation names the count and the total; the server checks each as a
 * single approval, and 3 are refused: a large one this admin has already first-approved (four-eyes: a
 * second, different admin must give the second approval), one refused by another desk meanwhile and one
 * approved by another desk meanwhile. The result lists each row's outcome, the toast sums it up and the
 * list refreshes. Then a match's markets are selected in the odds drawer and suspended together. (The
 * rules per row, USDT holds and branch scope included, are held by apps/server/test/bulk-actions.test.ts.)
 *
 * Data: the demo bettors (no simulator), funded by an admin correction; withdrawals asked through the
 * sandbox bettor route, the match through the sandbox feed route (DAU_SANDBOX_ROUTES=1).
 */
const e2e = useE2e({ server: { demo: true, simulator: false, env: { DAU_SANDBOX_ROUTES: '1', PAYMENTS_SANDBOX_SEED: '2026' } } });
let token = '';
const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, token);
/** The large-withdrawal threshold's default (payment settings): above it a second admin must approve. */
const LARGE = 1_000_000_00;
const MOBILE = [3, 4, 6, 7];

/** The dialog's title is what the operator sees at its place: not covered by a drawer or a mask. */
async function shownOnTop(result: Locator) {
  const title = result.locator('.ant-modal-title');
  await until(
    async () =>
      title.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!top && el.contains(top);
      }),
    'the result dialog on top',
    15_000,
  );
}

interface Asked {
  id: number;
  serial_number: string;
  amount: number;
}
let asked: Asked[] = [];

/** A withdrawal of `amount` asked by bettor `b` (funded first by an admin correction). */
async function ask(b: { id: number; phone: string }, amount: number): Promise<Asked | null> {
  expectStatus(await api('POST', `/money/bettors/${b.id}/balance`, { amount: amount + 1_000_00, remark: 'E2E bulk review funds' }), 200, 'funding');
  const w = await api('POST', '/sandbox/withdrawals', { bettor_id: b.id, pay_type: networkOf(b.phone)!.payType, amount });
  // A bettor still wagering a bonus may not withdraw: the next one is asked instead.
  if (w.status === 422) return null;
  return expectStatus(w, 201, 'withdrawal request');
}

beforeAll(async () => {
  token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  const list = expectStatus(await api('GET', '/money/bettors?page_size=200&disabled=1'), 200, 'bettors').items as any[];
  const bettors = list.filter((b) => MOBILE.includes(networkOf(b.phone)?.payType ?? 0));
  // The large one first; then 19 ordinary ones of distinct amounts.
  for (const b of bettors) {
    if (asked.length === 20) break;
    const amount = asked.length === 0 ? LARGE + 100_000_00 : 1_000_00 + asked.length * 100_00;
    const w = await ask(b, amount);
    if (w) asked.push(w);
  }
  expect(asked, 'twenty withdrawals asked').toHaveLength(20);
  // The large one gets its first approval from this same admin: it waits for a second, different one.
  const first = expectStatus(await api('POST', `/money/withdrawals/${asked[0].id}/approve`), 200, 'first approval');
  expect(first.status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);
});

describe('bulk review of withdrawals', () => {
  test('20 selected, one confirmation with the count and total, 17 approved and 3 refused, each outcome shown', async () => {
    const [large, refusedElsewhere, approvedElsewhere] = asked;
    const ordinary = asked.slice(1);
    const total = asked.reduce((s, w) => s + w.amount, 0);
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await page.goto('/#/customer/withdraw_list?page_size=50');
    await until(async () => (await page.getByTestId('page-title').innerText()) === 'Withdrawals', 'the withdrawal list');
    await settled(page);
    for (const w of asked) await rowByKey(page, w.id).locator('input[type="checkbox"]').check();
    const summary = page.getByTestId('bulk-summary');
    await until(async () => (await summary.innerText()).includes('20 selected'), 'the bar naming 20 selected');
    expect(await summary.innerText()).toContain(formatTsh(total));

    // Another desk handles two of them while they are selected here.
    expectStatus(await api('POST', `/money/withdrawals/${refusedElsewhere.id}/refuse`, { reason: 'E2E other desk' }), 200, 'refused elsewhere');
    expect(expectStatus(await api('POST', `/money/withdrawals/${approvedElsewhere.id}/approve`), 200, 'approved elsewhere').status).toBe(WITHDRAWAL_STATUS.disbursing);

    await page.getByTestId('bulk-approve').click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.waitFor();
    const question = await confirm.innerText();
    expect(question).toContain('Approve 20 withdrawals');
    expect(question).toContain(formatTsh(total));
    await screenshot(page, 'bulk-01-confirm');
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/money/withdrawals/approve'));
    await confirm.getByTestId('confirm-ok').click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    const items = ((await answer.json()) as { items: { id: number; ok: boolean; code?: string }[] }).items;
    expect(items.map((i) => i.id).sort()).toEqual(asked.map((w) => w.id).sort());
    const refused = Object.fromEntries(items.filter((i) => !i.ok).map((i) => [i.id, i.code]));
    expect(refused).toEqual({ [large.id]: 'SECOND_APPROVER_SAME', [refusedElsewhere.id]: 'WITHDRAWAL_STATE_CHANGED', [approvedElsewhere.id]: 'WITHDRAWAL_STATE_CHANGED' });

    // The result: every row with its serial, amount and outcome; the toast sums it up.
    const result = dialog(page, 'Bulk approval of withdrawals');
    await result.waitFor();
    await shownOnTop(result);
    // The toast, as recorded when shown (on a busy machine it may have faded by the time the dialog is checked).
    await until(async () => (await toastsShown(page)).some((t) => t.includes('17 of 20 done, 3 refused')), 'the toast summing it up');
    expect(await result.getByTestId('bulk-result-summary').innerText()).toContain('17 of 20 done · 3 refused');
    expect(await result.locator('tr.ant-table-row').count()).toBe(20);
    for (const w of asked) {
      const row = result.locator(`tr.ant-table-row[data-row-key="${w.id}"]`);
      const text = await row.innerText();
      expect(text).toContain(w.serial_number);
      expect(text).toContain(formatTsh(w.amount));
      const outcome = row.getByTestId(`bulk-outcome-${w.id}`);
      if (w.id in refused) {
        expect(await outcome.getAttribute('data-ok')).toBe('false');
        expect(await outcome.innerText()).toContain(w.id === large.id ? 'second, different administrator' : 'already been handled');
      } else {
        expect(await outcome.getAttribute('data-ok')).toBe('true');
      }
    }
    await screenshot(page, 'bulk-02-result');
    await result.getByTestId('bulk-result-close').click();
    await result.waitFor({ state: 'hidden' });

    // The list refreshed and the selection is cleared: approved rows are no longer pending review.
    await page.getByTestId('bulk-bar').waitFor({ state: 'detached' });
    const done = ordinary.filter((w) => !(w.id in refused));
    await until(async () => {
      const now = expectStatus(await api('GET', `/money/withdrawals?page_size=50`), 200, 'withdrawals').items as any[];
      return done.every((w) => now.find((x) => x.id === w.id)?.status !== WITHDRAWAL_STATUS.pending_review);
    }, 'the approved withdrawals out of review');
    await until(async () => !(await rowByKey(page, done[0].id).innerText()).includes('Pending review'), 'the list showing the new state');
    const after = expectStatus(await api('GET', `/money/withdrawals?serial_number=${large.serial_number}`), 200, 'the large one').items[0];
    expect(after.status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);
    expect(logOf(page).pageErrors).toEqual([]);
  });
});

describe('bulk suspension of markets', () => {
  test("a match's markets selected in the odds drawer are suspended together, each market's outcome shown", async () => {
    const event = 'sr:match:29001';
    const league = 'bulk-league';
    let clock = Date.now();
    const feed = async (message: Record<string, unknown>) => {
      clock += 1000;
      expect(expectStatus(await api('POST', '/sandbox/feed/messages', { timestamp: clock, ...message }), 201, `feed ${String(message.type)}`).applied).toBe(true);
    };
    await feed({
      type: 'fixture_change', producer: 3, event_id: event, sport_id: SPORT.football, league_id: league, league_name: 'Bulk League',
      home_team: 'Simba', away_team: 'Yanga', start_time: Date.now() + 86_400_000, status: EVENT_STATUS.not_started,
    });
    await feed({
      type: 'odds_change', producer: 3, event_id: event, event_status: EVENT_STATUS.not_started,
      markets: [
        { id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '1', price: '2.10', active: true }, { id: '2', price: '3.40', active: true }, { id: '3', price: '3.90', active: true }] },
        { id: 18, specifiers: 'total=2.5', status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '12', price: '1.90', active: true }, { id: '13', price: '1.95', active: true }] },
      ],
    });
    const [match] = expectStatus(await api('GET', `/sports/matches?league_id=${league}`), 200, 'the match').items as any[];

    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await page.goto(`/#/customer/match_list?league_id=${league}`);
    await until(async () => (await page.getByTestId('page-title').innerText()) === 'Matches', 'the Matches screen');
    await settled(page);
    await page.getByTestId(`match-odds-${match.id}`).click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: 'Simba vs Yanga' });
    await drawer.waitFor();
    await drawer.getByTestId('odds-select-all').click();
    await until(async () => (await drawer.getByTestId('bulk-summary').innerText()).includes('2 selected'), 'both markets selected');
    await drawer.getByTestId('odds-bulk-suspend').click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Suspend 2 markets');
    await confirm.getByTestId('confirm-ok').click();
    const result = dialog(page, 'Markets suspended');
    await result.waitFor();
    await shownOnTop(result);
    for (const key of ['1|', '18|total=2.5']) expect(await result.getByTestId(`bulk-outcome-${key}`).getAttribute('data-ok')).toBe('true');
    await screenshot(page, 'bulk-03-markets');
    await result.getByTestId('bulk-result-close').click();
    for (const key of ['1|', '18|total=2.5']) await drawer.getByTestId(`odds-market-suspended-${key}`).waitFor();
    const odds = expectStatus(await api('GET', `/sports/matches/${encodeURIComponent(event)}/odds`), 200, 'odds');
    expect(odds.markets.every((m: any) => m.suspended_by.operator)).toBe(true);
    expect(logOf(page).pageErrors).toEqual([]);
  });
});
