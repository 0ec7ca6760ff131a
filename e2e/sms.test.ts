import { describe, expect, test } from 'vitest';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { localPhone, useSandboxBettors } from './support/bettors';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, field, rowByKey, settled, toastAfter, until } from './support/ui';
import { openScreen, shot, shots } from './support/screens';

/**
 * Issue 15 (SMS) in the browser: an operator puts a bettor's number on the no-send list in local form and
 * imports a list; sends an SMS to a pasted list with its preview (recipients after exclusions, alphabet,
 * parts, estimated cost), confirms, watches it delivered through the sandbox Africa's Talking gateway and
 * reads the delivery report; a Chinese text previews as UCS-2; sw-KE and zh-CN; both themes, 1280 px and
 * a phone.
 *
 * Data: no demo data and no simulator. Bettors come from the betting sandbox route. The server runs the
 * sandbox SMS gateway itself (no DAU_SMS_API_URL), on a free port startServer picks for it.
 */
const e2e = useE2e({
  server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } },
});
const { api, bettors } = useSandboxBettors(e2e, 3);

describe('SMS screens', () => {
  test('no-send list (local form, import), an SMS with its preview delivered and reported, UCS-2 preview; three languages', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // ------------------------------------------------------------------------------ no-send list
    await openScreen(page, 'no_send_sms', 'SMS-excluded numbers');
    await page.getByTestId('resource-create').click();
    let form = dialog(page);
    await form.waitFor();
    await field(form, 'Phone').fill(localPhone(bettors[2]!.phone));
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    await until(async () => (await page.getByTestId('resource-table').innerText()).includes(`+${bettors[2]!.phone}`), 'the excluded number listed as +255…');
    await page.getByTestId('sms-import').click();
    form = dialog(page, 'Import numbers');
    await form.waitFor();
    await form.getByTestId('sms-import-text').fill('0754 000 101\n+255754000102, 754000103\nnot a number');
    await toastAfter(page, /3 added, 0 already on the list, 1 not phone numbers/, () => form.getByTestId('sms-import-submit').click());
    await until(async () => (await page.getByTestId('resource-table').innerText()).includes('+255754000103'), 'the imported numbers listed');
    expect(await page.getByTestId('resource-table').innerText()).toContain('Imported');
    await shots(page, 'sms-01-no-send');

    // ------------------------------------------------------------------------- send with preview
    await openScreen(page, 'sms_send', 'Send SMS');
    await page.getByTestId('sms-config-toggle').click();
    await page.getByTestId('sms-config-key').waitFor();
    await shots(page, 'sms-02-send-page-config');
    await page.getByTestId('sms-config-toggle').click();
    await page.getByTestId('sms-send').click();
    const send = dialog(page, 'Send an SMS');
    await send.waitFor();
    await send.getByTestId('sms-content').fill('Habari! Jackpot ya wikendi iko wazi: mechi 13, TSh 100,000,000 za kushinda.');
    await until(async () => (await send.getByTestId('sms-counter').innerText()).includes('GSM-7 · 1 part(s)'), 'the live counter');
    await send.getByTestId('sms-phones').fill([localPhone(bettors[0]!.phone), `+${bettors[1]!.phone}`, localPhone(bettors[2]!.phone), 'abc'].join('\n'));
    // Confirm stays off until a preview.
    expect(await send.getByTestId('sms-confirm').isDisabled()).toBe(true);
    await send.getByTestId('sms-preview-button').click();
    const preview = send.getByTestId('sms-preview');
    await preview.waitFor();
    expect(await send.getByTestId('sms-preview-recipients').innerText()).toBe('2');
    expect(await send.getByTestId('sms-preview-excluded').innerText()).toBe('1');
    expect(await send.getByTestId('sms-preview-encoding').innerText()).toBe('GSM-7');
    expect(await send.getByTestId('sms-preview-segments').innerText()).toBe('1');
    expect(await send.getByTestId('sms-preview-cost').innerText()).toContain('50.00');
    expect(await preview.innerText()).toContain('abc');
    await shots(page, 'sms-03-preview');
    await toastAfter(page, 'The SMS is on its way', () => send.getByTestId('sms-confirm').click());
    await send.waitFor({ state: 'hidden' });

    // Delivered by the job through the sandbox gateway; its delivery reports come back to our callback.
    let sent: any;
    await until(async () => {
      sent = expectStatus(await api('GET', '/sms/sends'), 200, 'sends').items[0];
      return sent?.status === 'done' && sent.delivered_count === 2;
    }, 'the SMS delivered');
    expect(sent).toMatchObject({ recipient_count: 2, excluded_count: 1, sent_count: 2, failed_count: 0, encoding: 'gsm7', segments: 1 });
    await until(async () => (await page.getByTestId(`sms-progress-${sent.id}`).innerText()).includes('2 of 2 delivered'), 'the list showing it delivered');
    await page.getByTestId(`row-view-${sent.id}`).click();
    const report = page.getByTestId('sms-report');
    await report.waitFor();
    await until(async () => (await report.innerText()).split('Delivered').length - 1 >= 2, 'the delivery report');
    const reportText = await report.innerText();
    expect(reportText).toContain(`+${bettors[0]!.phone}`);
    expect(reportText).not.toContain(`+${bettors[2]!.phone}`);
    expect(reportText).toContain('Used');
    await shots(page, 'sms-04-report');
    await page.keyboard.press('Escape');
    await rowByKey(page, sent.id).waitFor();

    // A Chinese text needs UCS-2: 70 characters a part.
    await page.getByTestId('sms-send').click();
    await send.waitFor();
    await send.getByTestId('sms-content').fill('您的周末奖金已到账，立即投注赢取大奖！请理性投注，感谢您每天的支持。祝您好运连连，天天开心，万事如意！');
    await send.getByTestId('sms-kind').getByText('One number').click();
    await send.getByTestId('sms-phone').fill(localPhone(bettors[0]!.phone));
    await send.getByTestId('sms-preview-button').click();
    await send.getByTestId('sms-preview').waitFor();
    expect(await send.getByTestId('sms-preview-encoding').innerText()).toBe('Unicode (UCS-2)');
    expect(await send.getByTestId('sms-preview-segments').innerText()).toBe('1');
    expect(await send.getByTestId('sms-preview').innerText()).toContain('a part holds 70 characters');
    await shots(page, 'sms-05-preview-ucs2');
    await send.locator('.ant-modal-close').click();

    // ------------------------------------------------------------------------------ a phone
    await page.setViewportSize({ width: 390, height: 844 });
    await openScreen(page, 'sms_send', 'Send SMS');
    await shot(page, 'sms-06-send-390');
    await page.getByTestId('sms-send').click();
    await send.waitFor();
    await shot(page, 'sms-07-dialog-390');
    await send.locator('.ant-modal-close').click();
    await openScreen(page, 'no_send_sms', 'SMS-excluded numbers');
    await shot(page, 'sms-08-no-send-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // ------------------------------------------------------------------------------ languages
    for (const [lng, sendTitle, noSendTitle, describe] of [
      ['sw-KE', 'Tuma SMS', 'Namba zisizotumiwa SMS', 'Tuma SMS kwa orodha ya namba'],
      ['zh-CN', '发送短信', '短信屏蔽号码', '向号码列表、符合筛选条件的用户或单个号码发送短信'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('language', l), lng);
      await page.goto('/#/customer/sms_send');
      await page.reload();
      await until(async () => (await page.getByTestId('page-title').innerText()) === sendTitle, `${lng}: the send page`);
      await settled(page);
      expect(await page.locator('body').innerText(), `${lng}: description`).toContain(describe);
      await shots(page, `sms-09-send-${lng}`);
      await page.getByTestId('sms-send').click();
      await dialog(page).waitFor();
      await dialog(page).getByTestId('sms-content').fill(lng === 'sw-KE' ? 'Karibu tena!' : '欢迎回来！');
      await dialog(page).getByTestId('sms-phones').fill(localPhone(bettors[0]!.phone));
      await dialog(page).getByTestId('sms-preview-button').click();
      await dialog(page).getByTestId('sms-preview').waitFor();
      await shot(page, `sms-10-preview-${lng}`);
      await dialog(page).locator('.ant-modal-close').click();
      await openScreen(page, 'no_send_sms', noSendTitle);
      await shot(page, `sms-11-no-send-${lng}`);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    await page.reload();

    expect(missingKeys(page), 'no missing text').toEqual([]);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});
