import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ASYNC_OPERATION_STATUS } from '@dau/domain';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { openInLanguage, openScreen, shots } from './support/screens';
import { settled, until } from './support/ui';

/**
 * The reports of issue 30 on the demo back office, as a finance officer opens them: the daily close (the
 * demo's past days closed by the nightly job), the ledger self-check run from its button, the month's tax
 * returns computed from the screen, the significant events of the last 30 days and the void and
 * resettlement report; each in en-US, sw-KE and zh-CN, and each report's lists exported as CSV from their
 * buttons (background jobs, waited on until complete).
 */
const e2e = useE2e({ server: { demo: true, simulator: false } });

const REPORTS = [
  { route: 'daily_close', ready: 'daily-close', titles: ['Daily close', 'Ufungaji wa siku', '日结'] },
  { route: 'ledger_check', ready: 'ledger-check', titles: ['Ledger self-check', 'Ukaguzi wa leja', '账本自检'] },
  { route: 'tax_returns', ready: 'tax-returns', titles: ['Tax returns', 'Ritani za kodi', '税务申报'] },
  { route: 'significant_events', ready: 'resource-table', titles: ['Significant events', 'Matukio muhimu', '重大事件'] },
  { route: 'resettlement_report', ready: 'resource-table', titles: ['Void and resettlement report', 'Ripoti ya ubatilishaji na uamuzi upya', '作废与重新结算报表'] },
] as const;
const LANGUAGES = ['en-US', 'sw-KE', 'zh-CN'] as const;

/**
 * Exports the list on screen as a CSV from its button (the visible one: the tax return's two tabs each have
 * one) and waits for the background job to complete; answers the job's type, filters and row count.
 */
async function exported(page: Page, token: string): Promise<{ type: string; params: Record<string, unknown>; row_count: number }> {
  await page.getByTestId('export-async').filter({ visible: true }).click();
  const started = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/exports'));
  await page.getByTestId('export-async-csv').filter({ visible: true }).click();
  const answer = await started;
  expect(answer.status(), 'export queued').toBe(202);
  const id = ((await answer.json()) as { id: number }).id;
  type Job = { id: number; status: number; type: string; params: Record<string, unknown>; row_count: number; error_message: string | null };
  let job: Job | undefined;
  await until(async () => {
    job = expectStatus(await e2e.server.api('GET', `/system/async_operations?id=${id}`, undefined, token), 200, 'jobs').items.find((j: Job) => j.id === id);
    return job?.status === ASYNC_OPERATION_STATUS.completed || job?.status === ASYNC_OPERATION_STATUS.abnormal;
  }, `export ${id} done`);
  expect(job!.status, job!.error_message ?? '').toBe(ASYNC_OPERATION_STATUS.completed);
  return job!;
}

describe('reports', () => {
  test('each report opens on the demo data in three languages; the close, the self-check, a tax return, and every report exported from its button', async () => {
    const token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    // The nightly job closes the demo's past days on its own (a state to wait for, not a time).
    await until(async () => expectStatus(await e2e.server.api('GET', '/reports/daily_closes', undefined, token), 200, 'closes').items?.length > 0, 'a closed day');

    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // The daily close: the latest closed day's figures and its chart.
    await openScreen(page, 'daily_close', 'Daily close');
    await page.getByTestId('close-overview').waitFor({ state: 'visible' });
    expect(await page.getByTestId('close-overview').innerText()).toMatch(/TSh/);
    await shots(page, 'reports-01-daily-close');
    const closes = await exported(page, token);
    expect(closes).toMatchObject({ type: 'daily_close' });
    expect(closes.row_count, 'the closed days').toBeGreaterThan(0);

    // The ledger self-check, run from its button: the demo's ledger is consistent.
    await openScreen(page, 'ledger_check', 'Ledger self-check');
    await page.getByTestId('ledger-check-run').click();
    await page.getByTestId('ledger-check-ok').waitFor({ state: 'visible' });

    // This month's tax return, computed from the screen; its Gaming Board tab lists the four products.
    await openScreen(page, 'tax_returns', 'Tax returns');
    await page.getByTestId('tax-compute').click();
    await until(async () => !/not computed|computing/i.test(await page.getByTestId('tax-state').innerText()), 'the return computed');
    // Its lists exported from their buttons: per bettor, then per order (the demo's won orders withhold tax).
    expect(await exported(page, token)).toMatchObject({ type: 'tax_wht_bettors' });
    await page.getByTestId('tax-by').getByText('Per order').click();
    await page.getByTestId('tax-filter-day').waitFor({ state: 'visible' });
    expect(await exported(page, token)).toMatchObject({ type: 'tax_wht_orders' });
    await page.getByRole('tab', { name: 'Gaming Board return' }).click();
    await page.getByTestId('tax-gaming-table').waitFor({ state: 'visible' });
    await until(async () => (await page.getByTestId('tax-gaming-table').locator('tbody tr.ant-table-row').count()) === 4, 'the four products of the return');
    await shots(page, 'reports-02-tax');
    expect(await exported(page, token)).toMatchObject({ type: 'tax_gaming_return', row_count: 4 });

    // The significant events of the last 30 days (the demo's balance corrections among them), exported.
    await openScreen(page, 'significant_events', 'Significant events');
    await until(async () => (await page.locator('tr.ant-table-row').count()) > 0, 'the demo events');
    expect(await page.getByTestId('resource-table').innerText()).toContain('Balance correction');
    const events = await exported(page, token);
    expect(events.type).toBe('significant_events');
    expect(events.row_count).toBeGreaterThan(0);
    await shots(page, 'reports-03-events');

    await openScreen(page, 'resettlement_report', 'Void and resettlement report');
    await page.getByTestId('resource-table').waitFor({ state: 'visible' });
    expect(await exported(page, token)).toMatchObject({ type: 'resettlement_changes' });

    // Every report in Swahili and Chinese.
    for (const [i, lng] of LANGUAGES.entries()) {
      if (i === 0) continue;
      for (const r of REPORTS) {
        await openInLanguage(page, lng, r.route, r.titles[i]);
        await page.getByTestId(r.ready).waitFor({ state: 'visible' });
        await settled(page);
      }
      expect(missingKeys(page), `${lng}: no missing text`).toEqual([]);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    expect(log.pageErrors).toEqual([]);
  });
});
