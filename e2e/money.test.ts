import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { BILL_TYPE, WITHDRAWAL_STATUS, formatTsh, networkOf } from '@dau/domain';
import { logOf, screenshot, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, field, rowByKey, settled, toastAfter, until } from './support/ui';

/**
 * Issue 3 in the browser: an operator finds a bettor by phone, edits the balance with a remark and sees the
 * bill; exports a list and downloads the file; approves and refuses withdrawals and sees the toasts and the
 * new states.
 *
 * Data: this file's server starts with the demo data (agents, ~60 bettors with 60 days of history), no
 * simulator, and the sandbox-only bettor requests (DAU_SANDBOX_ROUTES=1): the withdrawal test asks for two
 * withdrawals the way a bettor app would, then handles them as an operator. The operator sandboxes are
 * seeded (PAYMENTS_SANDBOX_SEED): with seed 2026 the first M-Pesa disbursement succeeds (a callback a few
 * seconds after the call), so the approval has one outcome to assert.
 */
const e2e = useE2e({ server: { demo: true, simulator: false, env: { DAU_SANDBOX_ROUTES: '1', PAYMENTS_SANDBOX_SEED: '2026' } } });
let adminToken = '';

/** The bettor the operator works on: enabled, with at least TSh 20,000. */
let bettor: { id: number; phone: string; name: string; balance: number };


const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, adminToken);

beforeAll(async () => {
  adminToken = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  const list = expectStatus(await api('GET', '/money/bettors?page_size=200&sort=-balance'), 200, 'bettors');
  const rich = (list.items as any[]).filter((b) => b.balance >= 20_000_00 && b.disabled === 1);
  expect(rich.length, 'demo bettors with at least TSh 20,000').toBeGreaterThan(0);
  // Not the richest (the top of the sorted lists), one in the middle of the rich ones.
  const b = rich[Math.floor(rich.length / 2)];
  bettor = { id: b.id, phone: b.phone, name: b.name, balance: b.balance };
  expect(bettor.phone).toMatch(/^255[67]\d{8}$/);
});

/** "255712345678" → "0712345678", the form callers give. */
const localPhone = (p: string) => `0${p.slice(3)}`;

async function openScreen(page: Page, route: string, title: string) {
  await page.goto(`/#/customer/${route}`);
  await until(async () => (await page.getByTestId('page-title').innerText()) === title, `the ${route} screen`);
  await settled(page);
}

/** The cell of `row` under the column headed `header` (exact text). */
async function cell(page: Page, row: Locator, header: string): Promise<Locator> {
  const heads = await page.getByTestId('resource-table').locator('thead tr').last().locator('th').allInnerTexts();
  const i = heads.findIndex((h) => h.trim() === header);
  if (i < 0) throw new Error(`no column "${header}" in ${JSON.stringify(heads)}`);
  return row.locator('td').nth(i);
}


async function billsOf(bettorId: number, extra = ''): Promise<any[]> {
  return expectStatus(await api('GET', `/money/bills?bettor_id=${bettorId}&page_size=200${extra}`), 200, 'bills').items;
}

describe('money screens', () => {
  test('customer service finds a bettor by phone; the balance is edited with a remark and the bill shows it', async () => {
    const page = await e2e.newPage();
    const balancePosts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/money/bettors/${bettor.id}/balance`)) balancePosts.push(r.url());
    });
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // Customer service › User: asks for a phone first, then shows the card, by the full or the local number.
    await openScreen(page, 'cs_user', 'CS · Users');
    const result = page.getByTestId('cs-user-result');
    await until(async () => (await result.innerText()).includes('Please enter the mobile phone number of the user you want to query'), 'the phone prompt');
    const search = page.getByTestId('resource-search');
    const card = page.getByTestId(`cs-user-${bettor.id}`);
    for (const phone of [bettor.phone, localPhone(bettor.phone)]) {
      await field(search, 'Phone').fill(phone);
      await page.getByTestId('resource-search-submit').click();
      await page.waitForURL(new RegExp(`phone=${phone}`));
      await settled(page);
      await card.waitFor({ state: 'visible' });
      const text = await card.innerText();
      expect(text, `card found by ${phone}`).toContain(bettor.phone);
      expect(text).toContain(bettor.name);
      expect(await result.locator('[data-testid^="cs-user-"]').count(), `one card for ${phone}`).toBe(1);
    }
    await screenshot(page, 'money-01-cs-user-card');

    // User management: filter by phone, edit the balance (+TSh 12,345.50) with a remark.
    await openScreen(page, 'user', 'User management');
    await field(search, 'Phone').fill(localPhone(bettor.phone));
    await page.getByTestId('resource-search-submit').click();
    await settled(page);
    const row = rowByKey(page, bettor.id);
    await row.waitFor({ state: 'visible' });
    await until(async () => (await page.getByTestId('resource-table').locator('tr.ant-table-row').count()) === 1, 'only the bettor in the list');

    const amount = 12_345_50;
    const remark = `E2E goodwill credit ${Date.now()}`;
    await page.getByTestId(`user-edit-balance-${bettor.id}`).click();
    const edit = dialog(page, `Edit balance of ${bettor.phone}`);
    await edit.waitFor();
    const current = edit.getByTestId('balance-current');
    await until(async () => /^TSh [\d,]+\.\d\d$/.test((await current.innerText()).trim()), 'the current balance in the dialog');
    await edit.getByTestId('balance-amount').fill('12,345.50');
    await edit.getByTestId('balance-remark').fill(remark);
    await until(async () => (await edit.getByTestId('balance-result').innerText()).startsWith('TSh'), 'the resulting balance preview');
    await screenshot(page, 'money-02-edit-balance-dialog');
    await toastAfter(page, 'Successful operation', () => edit.getByTestId('balance-submit').click());
    await edit.waitFor({ state: 'hidden' });

    // The bill of the edit: before + amount = after, by this admin, with the remark; the row shows its result.
    const bill = await until(async () => (await billsOf(bettor.id, `&type=${BILL_TYPE.admin_balance_change}`)).find((b) => b.remark === remark), 'the bill of the edit');
    expect(bill.amount).toBe(amount);
    expect(bill.before_change + amount).toBe(bill.balance);
    expect(bill.admin_account).toBe(ADMIN_ACCOUNT);
    // The row shows the balance after the edit (or, if the simulator moved this bettor's money in the
    // meantime, the balance after that later bill).
    const balanceCell = await cell(page, row, 'Balance');
    await until(async () => {
      const shown = (await balanceCell.innerText()).trim();
      if (shown === formatTsh(bill.balance)) return true;
      const [last] = await billsOf(bettor.id, '&sort=-id');
      return last.id > bill.id && shown === formatTsh(last.balance);
    }, `the new balance ${formatTsh(bill.balance)} in the row`);
    await screenshot(page, 'money-03-user-row-new-balance');

    // The row's drawer lists the bill among the latest ones, and links to the bill screen of the bettor.
    await page.getByTestId(`row-view-${bettor.id}`).click();
    const drawer = page.getByTestId('resource-detail');
    await drawer.waitFor({ state: 'visible' });
    const latest = drawer.getByTestId('user-latest-bills');
    await until(async () => (await latest.innerText()).includes(remark), 'the bill in the latest bills of the drawer');
    await screenshot(page, 'money-04-user-drawer-latest-bills');
    await latest.getByTestId('link-bill').click();
    await page.waitForURL(new RegExp(`#/customer/bill\\?bettor_id=${bettor.id}$`));
    await until(async () => (await page.getByTestId('page-title').innerText()) === 'Bills', 'the bill screen');
    await settled(page);
    const billRow = rowByKey(page, bill.id);
    await billRow.waitFor({ state: 'visible' });
    const billText = await billRow.innerText();
    // The row shows the amount and type (the remark is in the bill, checked through the API above: a list
    // fitted to the width keeps its key columns).
    expect(billText).toContain(formatTsh(amount));
    expect(billText).toContain('Admin balance change');
    expect((await (await cell(page, billRow, 'Balance after')).innerText()).trim()).toBe(formatTsh(bill.balance));
    await screenshot(page, 'money-05-bill-screen');

    // The same bill by the caller's local number in the link (#/customer/bill?phone=07…).
    await page.goto(`/#/customer/bill?phone=${localPhone(bettor.phone)}`);
    await settled(page);
    await rowByKey(page, bill.id).waitFor({ state: 'visible' });
    // Only the bettor's bills (the rows are keyed by bill id; the fitted list may hide the phone column).
    const own = new Set((await billsOf(bettor.id)).map((x) => String(x.id)));
    const keys = await page.getByTestId('resource-table').locator('tr.ant-table-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-key')));
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((k) => !own.has(String(k))), 'only the bettor’s bills').toEqual([]);

    // Subtracting more than the balance is refused before anything is sent; no bill is written.
    await openScreen(page, `user?phone=${bettor.phone}`, 'User management');
    await row.waitFor({ state: 'visible' });
    await page.getByTestId(`user-edit-balance-${bettor.id}`).click();
    const again = dialog(page, `Edit balance of ${bettor.phone}`);
    await again.waitFor();
    const shown = (await until(async () => {
      const t = (await again.getByTestId('balance-current').innerText()).trim();
      return /^TSh [\d,]+\.\d\d$/.test(t) ? t : null;
    }, 'the current balance in the dialog'))!;
    const currentCents = Math.round(Number(shown.replace(/[^\d.]/g, '')) * 100);
    const overdraft = `-${(currentCents / 100 + 1_000).toFixed(2)}`;
    const refusedRemark = `E2E overdraft ${Date.now()}`;
    await again.getByTestId('balance-amount').fill(overdraft);
    await again.getByTestId('balance-remark').fill(refusedRemark);
    await again.getByTestId('balance-submit').click();
    await again.locator('.ant-form-item-explain-error', { hasText: 'Insufficient balance' }).waitFor({ state: 'visible' });
    await screenshot(page, 'money-06-overdraft-refused');
    // A request would have been recorded when sent, before any answer could show an error.
    expect(await again.isVisible(), 'the dialog stays open').toBe(true);
    expect(balancePosts, 'only the first edit reached the server').toHaveLength(1);
    expect((await billsOf(bettor.id)).some((b) => b.remark === refusedRemark), 'no bill for the refused edit').toBe(false);
    expect(logOf(page).pageErrors).toEqual([]);
  });

  test('the bill list is exported in the background as CSV and the file is downloaded', async () => {
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openScreen(page, `bill?phone=${bettor.phone}`, 'Bills');
    const [latestBill] = await billsOf(bettor.id, '&sort=-id');
    await rowByKey(page, latestBill.id).waitFor({ state: 'visible' });

    await page.getByTestId('export-async').click();
    const started = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/exports'));
    await page.getByTestId('export-async-csv').click();
    const answer = await started;
    expect(answer.status(), "export queued").toBe(202);
    const job = (await answer.json()) as { id: number };
    expect(job.id).toBeGreaterThan(0);
    await page.getByTestId('export-started').waitFor({ state: 'visible' });
    await screenshot(page, 'money-07-export-started');

    // The toast links to the export jobs; the list reloads itself until the job is completed.
    await page.getByTestId('export-jobs-link').click();
    await page.waitForURL(/#\/customer\/async_operations/);
    await until(async () => (await page.getByTestId('page-title').innerText()) === 'Export jobs', 'the export jobs screen');
    const jobRow = rowByKey(page, job.id);
    await jobRow.waitFor({ state: 'visible' });
    await until(async () => (await (await cell(page, jobRow, 'Status')).innerText()).trim() === 'Completed', 'the export job to be completed');
    const download = page.getByTestId(`async-download-${job.id}`);
    await download.waitFor({ state: 'visible' });
    const jobText = await jobRow.innerText();
    expect(jobText).toContain(ADMIN_ACCOUNT);
    expect(jobText).toContain('Bills');
    await screenshot(page, 'money-08-export-completed');

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dau-e2e-dl-')), file.suggestedFilename());
    await file.saveAs(saved);
    const csv = fs.readFileSync(saved, 'utf8');
    fs.rmSync(path.dirname(saved), { recursive: true, force: true });
    // Headed in the operator's language (en-US here).
    expect(csv.startsWith('\uFEFFSerial number,Phone,User name,Bill type,Amount,Balance before,Balance after,Source,Source ID,Administrator,Remarks,Time\n'), `CSV header, got ${JSON.stringify(csv.slice(0, 160))}`).toBe(true);
    const lines = csv.trimEnd().split('\n').slice(1);
    expect(lines.length).toBeGreaterThan(0);
    // Only the filtered bettor's bills, as many as the job counted.
    expect(lines.every((l) => l.split(',')[1] === bettor.phone), 'every row is the bettor’s').toBe(true);
    const op = (expectStatus(await api('GET', `/system/async_operations?page_size=50`), 200, 'async operations').items as any[]).find((o) => o.id === job.id);
    expect(op?.row_count).toBe(lines.length);
    expect(logOf(page).pageErrors).toEqual([]);
  });

  test(
    'withdrawals: one approved, one refused, with the toasts and the new states',
    async () => {
      // Two bettors ask for a withdrawal (the bettor-facing request, through the sandbox route).
      const rich = expectStatus(await api('GET', '/money/bettors?sort=-balance&page_size=5&disabled=1'), 200, 'bettors with money').items as any[];
      const asked: number[] = [];
      // Each through the operator of the bettor's own number (the number decides the network).
      for (const b of rich.filter((x) => networkOf(x.phone)?.payType).slice(0, 2)) {
        const w = expectStatus(await api('POST', '/sandbox/withdrawals', { bettor_id: b.id, pay_type: networkOf(b.phone)!.payType, amount: 5_000_00 }), 201, 'withdrawal request');
        expect(w.status).toBe(WITHDRAWAL_STATUS.pending_review);
        asked.push(w.id);
      }
      const listed = expectStatus(await api('GET', `/money/withdrawals?status=${WITHDRAWAL_STATUS.pending_review}&page_size=50`), 200, 'pending withdrawals');
      const pending = (listed.items as any[]).filter((w) => asked.includes(w.id));
      expect(pending).toHaveLength(2);
      // Approve an ordinary one if there is one (it is disbursed at once), refuse another.
      const toApprove = pending.find((w) => !w.large) ?? pending[0];
      const toRefuse = pending.find((w) => w.id !== toApprove.id)!;

      const page = await e2e.newPage();
      await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
      await openScreen(page, 'withdraw_list', 'Withdrawals');
      await page.getByTestId('quick-pending').click();
      await page.waitForURL(/status=1/);
      await settled(page);
      for (const w of [toApprove, toRefuse]) await rowByKey(page, w.id).waitFor({ state: 'visible' });
      expect((await (await cell(page, rowByKey(page, toApprove.id), 'Withdrawal status')).innerText())).toContain('Pending review');
      await screenshot(page, 'money-09-withdrawals-pending');

      // Approve: asks first, then the toast says what the operator did.
      await page.getByTestId(`withdraw-approve-${toApprove.id}`).click();
      const confirm = page.locator('.ant-popconfirm:visible');
      await confirm.waitFor();
      expect(await confirm.innerText()).toContain(formatTsh(toApprove.amount));
      const approved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/money/withdrawals/${toApprove.id}/approve`));
      await toastAfter(page, /the payout has been sent to the operator/, async () => {
        await confirm.getByTestId('confirm-ok').click();
        const answer = await approved;
        expect(answer.status()).toBe(200);
        // An ordinary amount, one approval: sent to the operator, in flight.
        expect(((await answer.json()) as { status: number }).status).toBe(WITHDRAWAL_STATUS.disbursing);
      });
      // It has left the pending view; in the full list the row turns Paid when the operator's callback
      // arrives (the list is reloaded until it shows it).
      await rowByKey(page, toApprove.id).waitFor({ state: 'detached' });
      await page.getByTestId('quick-all').click();
      await settled(page);
      const approvedRow = rowByKey(page, toApprove.id);
      await approvedRow.waitFor({ state: 'visible' });
      await until(async () => {
        if ((await (await cell(page, approvedRow, 'Withdrawal status')).innerText()).trim().startsWith('Paid')) return true;
        await page.getByTestId('table-reload').click();
        await settled(page);
        return false;
      }, 'the approved withdrawal shown Paid');
      const paid = expectStatus(await api('GET', `/money/withdrawals?serial_number=${toApprove.serial_number}`), 200, 'the approved withdrawal').items[0];
      expect(paid).toMatchObject({ status: WITHDRAWAL_STATUS.paid, first_approver: ADMIN_ACCOUNT });
      // Paid: the held amount left for good, nothing came back.
      expect((await billsOf(toApprove.user_id, `&type=${BILL_TYPE.amount_rolled_back}`)).filter((b) => b.cause_id === String(toApprove.id))).toEqual([]);
      await screenshot(page, 'money-10-withdrawal-approved');

      // Refuse: a reason is asked; the held amount goes back to the bettor with a bill "Amount rolled back".
      await page.getByTestId('quick-pending').click();
      await settled(page);
      await page.getByTestId(`withdraw-refuse-${toRefuse.id}`).click();
      const refuse = dialog(page, `Refuse withdrawal ${toRefuse.serial_number}`);
      await refuse.waitFor();
      expect(await refuse.innerText()).toContain(formatTsh(toRefuse.amount));
      const reason = 'E2E: account under KYC review';
      await refuse.getByTestId('refuse-reason').fill(reason);
      await screenshot(page, 'money-11-refuse-dialog');
      await toastAfter(page, 'Refused: the amount was returned', () => refuse.getByTestId('form-submit').click());
      await refuse.waitFor({ state: 'hidden' });
      await rowByKey(page, toRefuse.id).waitFor({ state: 'detached' });
      await page.getByTestId('quick-all').click();
      await settled(page);
      const refusedRow = rowByKey(page, toRefuse.id);
      await refusedRow.waitFor({ state: 'visible' });
      // The "All" view may first show its cached page (the row still pending) while it fetches again.
      await until(async () => (await (await cell(page, refusedRow, 'Withdrawal status')).innerText()).trim().startsWith('Refused'), 'the refused withdrawal shown Refused');
      await screenshot(page, 'money-12-withdrawal-refused');

      const refused = expectStatus(await api('GET', `/money/withdrawals?serial_number=${toRefuse.serial_number}`), 200, 'the refused withdrawal').items[0];
      expect(refused.status).toBe(WITHDRAWAL_STATUS.refused);
      expect(refused.refuse_reason).toBe(reason);
      const rollback = (await billsOf(toRefuse.user_id, `&type=${BILL_TYPE.amount_rolled_back}`)).filter((b) => b.cause_id === String(toRefuse.id));
      expect(rollback, 'one rollback bill for the refused withdrawal').toHaveLength(1);
      expect(rollback[0].amount).toBe(toRefuse.amount);
      expect(rollback[0].remark).toContain(reason);
      expect(rollback[0].before_change + toRefuse.amount).toBe(rollback[0].balance);
      expect(logOf(page).pageErrors).toEqual([]);
    },
  );

  test(
    'a withdrawal in doubt: reconciled from the operator statement, with its confirmation, toast and refusals',
    async () => {
      // The demo's payments in doubt: sent to the operator, which now answers "unknown".
      const doubts = expectStatus(await api('GET', '/money/withdrawals?reconcile=true&page_size=50&sort=id'), 200, 'withdrawals to reconcile').items as any[];
      expect(doubts.length, 'demo withdrawals in doubt').toBeGreaterThanOrEqual(2);
      const [mine, taken] = doubts;
      expect(mine).toMatchObject({ status: WITHDRAWAL_STATUS.disbursing, reconcile: true, stuck: true });

      const page = await e2e.newPage();
      await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
      await openScreen(page, 'withdraw_list', 'Withdrawals');
      await page.getByTestId('quick-reconcile').click();
      await page.waitForURL(/reconcile=true/);
      await settled(page);
      const row = rowByKey(page, mine.id);
      await row.waitFor({ state: 'visible' });
      expect(await row.innerText()).toContain('To reconcile');

      await page.getByTestId(`withdraw-reconcile-${mine.id}`).click();
      const form = dialog(page, `Reconcile ${mine.serial_number}`);
      await form.waitFor();
      expect(await form.innerText()).toContain(formatTsh(mine.amount));
      // Nothing chosen, no evidence: the dialog says what is missing and sends nothing.
      await form.getByTestId('form-submit').click();
      await until(async () => {
        const text = await form.innerText();
        return text.includes('Please choose what the operator’s statement shows') && text.includes("Please enter the reference of the operator's statement line");
      }, 'the required evidence named');
      await form.getByTestId('reconcile-paid').click();
      await form.getByTestId('reconcile-reference').fill('E2E statement 25/11 line 7');
      await form.getByTestId('reconcile-remark').fill('Seen on the operator statement');
      await screenshot(page, 'money-13-reconcile-dialog');
      await form.getByTestId('form-submit').click();
      // A confirmation says what the money will do; then the toast says what was done.
      const confirm = page.locator('.ant-modal-confirm:visible');
      await confirm.waitFor();
      expect(await confirm.innerText()).toContain(`as paid by the operator`);
      await toastAfter(page, 'Reconciled: the withdrawal is paid', () => confirm.getByTestId('reconcile-confirm').click());
      await form.waitFor({ state: 'hidden' });
      await rowByKey(page, mine.id).waitFor({ state: 'detached' });
      const done = expectStatus(await api('GET', `/money/withdrawals?serial_number=${mine.serial_number}`), 200, 'the reconciled withdrawal').items[0];
      expect(done).toMatchObject({ status: WITHDRAWAL_STATUS.paid, reconciled_by: ADMIN_ACCOUNT, reconcile_reference: 'E2E statement 25/11 line 7', reconcile: false });
      expect((await billsOf(mine.user_id, `&type=${BILL_TYPE.amount_rolled_back}`)).filter((b) => b.cause_id === String(mine.id))).toEqual([]);

      // Another administrator settles the second one first: this operator's attempt is refused (409), nothing moves.
      await page.getByTestId(`withdraw-reconcile-${taken.id}`).click();
      const late = dialog(page, `Reconcile ${taken.serial_number}`);
      await late.waitFor();
      expectStatus(await api('POST', `/money/withdrawals/${taken.id}/reconcile`, { outcome: 'not_paid', reference: 'E2E other desk', remark: 'Not on the statement' }), 200, 'the other desk');
      await late.getByTestId('reconcile-paid').click();
      await late.getByTestId('reconcile-reference').fill('E2E statement 25/11 line 9');
      await late.getByTestId('reconcile-remark').fill('Seen');
      await late.getByTestId('form-submit').click();
      const confirmLate = page.locator('.ant-modal-confirm:visible');
      await confirmLate.waitFor();
      await toastAfter(page, 'This transaction is not waiting for reconciliation', () => confirmLate.getByTestId('reconcile-confirm').click());
      const other = expectStatus(await api('GET', `/money/withdrawals?serial_number=${taken.serial_number}`), 200, 'the other one').items[0];
      expect(other).toMatchObject({ status: WITHDRAWAL_STATUS.failed, reconcile_reference: 'E2E other desk' });
      await screenshot(page, 'money-14-reconcile-refused');
      expect(logOf(page).pageErrors).toEqual([]);
    },
  );
});
