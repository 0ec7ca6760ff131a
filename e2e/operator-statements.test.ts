import { describe, expect, test } from 'vitest';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { useSandboxBettors } from './support/bettors';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, settled, toastAfter, until } from './support/ui';
import { choose, openInLanguage, openScreen, shots } from './support/screens';

/**
 * Issue 28, statements reconciled, in the browser: yesterday's Airtel Money statement, as the portal
 * exports it, holds two payments into the till that we never asked for. The file is uploaded on the new
 * screen, which says the day does not match, opens the findings (lines on the statement only, with their
 * amounts), and reads the same in Swahili and Chinese.
 *
 * Data: no demo data, no simulator. The file is in the Airtel portal's format as the product assumes it
 * (modules/payments/statements/formats.ts).
 */
const e2e = useE2e({
  server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } },
});
const { api } = useSandboxBettors(e2e, 0);

/** Yesterday in East Africa Time, and a time of that day as the Airtel portal writes it. */
const EAT_MS = 3 * 3600_000;
const yesterday = new Date(Date.now() + EAT_MS - 86_400_000).toISOString().slice(0, 10);
const HEADER = 'Transaction ID,External Reference,Transaction Date,Transaction Type,MSISDN,Amount,Currency,Status';

describe('operator statements screen', () => {
  test('an uploaded statement that does not match shows on the screen with its findings, in three languages', async () => {
    const file = [HEADER, `MP${Date.now()},,${yesterday} 10:15:00,Merchant Payment,780000123,4500.00,TZS,TS`, `AM${Date.now()}X,FOREIGN-REF-1,${yesterday} 11:00:00,Merchant Payment,780000124,1200.00,TZS,TS`].join('\n');
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openScreen(page, 'operator_statements', 'Operator statements');
    expect(await page.locator('body').innerText()).toContain('matched against our recharges and withdrawals');

    // Upload the day's file from the operator's portal.
    await page.getByTestId('statement-upload').click();
    const form = dialog(page, 'Upload an operator statement');
    await form.waitFor();
    await choose(page, form.getByTestId('statement-form-pay-type'), /Airtel/);
    await form.locator('input[type=file]').setInputFiles({ name: `airtel_money_transactions_${yesterday}.csv`, mimeType: 'text/csv', buffer: Buffer.from(file) });
    await until(async () => (await form.getByTestId('statement-file-name').innerText()).includes('airtel_money'), 'the file picked');
    await toastAfter(page, /The statement does not match: 2 findings to check/, () => form.getByTestId('statement-upload-submit').click());
    await form.waitFor({ state: 'hidden' });

    // The drawer of the new statement: both lines are on the statement only.
    const drawer = page.locator('.ant-drawer:visible');
    await drawer.waitFor();
    await until(async () => (await drawer.getByTestId('statement-items').innerText()).includes('FOREIGN-REF-1'), 'the findings listed');
    const findings = await drawer.getByTestId('statement-items').innerText();
    expect(findings).toContain('Statement only');
    expect(findings).toContain('TSh 1,200.00');
    expect(await drawer.innerText()).toContain('Does not match');
    await shots(page, 'statements-01-drawer');
    await drawer.locator('.ant-drawer-close').click();
    await settled(page);

    // The list: the day, Airtel, "Does not match" with the counts.
    const table = page.getByTestId('statement-table');
    await until(async () => (await table.innerText()).includes(yesterday), 'the statement listed');
    expect(await table.innerText()).toContain('Does not match');
    expect(await page.getByTestId('statement-count-theirs_only').first().innerText()).toContain('2');
    // The same through the API: the day does not match and a notice went to the admins of the page.
    const listed = expectStatus(await api('GET', `/money/operator_statements?day_from=${yesterday}&day_to=${yesterday}&pay_type=4`), 200, 'statements');
    expect(listed.items[0]).toMatchObject({ result: 'mismatch', theirs_only: 2, source: 'uploaded' });
    await shots(page, 'statements-02-list');

    for (const [lng, title, mismatch, theirsOnly] of [
      ['sw-KE', 'Taarifa za waendeshaji', 'Hailingani', 'Kwenye taarifa tu'],
      ['zh-CN', '运营商对账单', '不一致', '仅对账单有'],
    ] as const) {
      await openInLanguage(page, lng, 'operator_statements', title);
      await until(async () => (await page.getByTestId('statement-table').innerText()).includes(mismatch), `${lng}: the mismatch tag`);
      await page.getByTestId('statement-table').locator('tbody tr.ant-table-row').first().click();
      const d = page.locator('.ant-drawer:visible');
      await until(async () => (await d.getByTestId('statement-items').innerText()).includes(theirsOnly), `${lng}: the findings`);
      await shots(page, `statements-03-${lng}`);
      await d.locator('.ant-drawer-close').click();
      await settled(page);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    expect(missingKeys(page)).toEqual([]);
    expect(log.pageErrors).toEqual([]);
  });
});
