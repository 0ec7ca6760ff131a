import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { localPhone, useSandboxBettors } from './support/bettors';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, field, rowByKey, rowWithText, settled, toastAfter, until } from './support/ui';
import { openInLanguage, openScreen, shot, shots } from './support/screens';

/**
 * Issue 15 (MSG) in the browser: an operator reads and answers the message board (the reply reaches the
 * bettor's inbox), sends an in-app message to selected bettors by a pasted phone list (checked first:
 * found, not in the branch, not a number), watches it delivered, edits the app version (forced update) and
 * the public version check follows; the board is cleared with the spec's confirmation; sw-KE and zh-CN;
 * screenshots in both themes, at 1280 px and on a phone.
 *
 * Data: no demo data and no simulator. Bettors come from the betting sandbox route; what bettors write and
 * read goes through the messaging sandbox routes (DAU_SANDBOX_ROUTES=1), the services the bettor app uses.
 */
const e2e = useE2e({ server: { demo: false, simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } } });
const { api, bettors } = useSandboxBettors(e2e, 3);
const board: number[] = [];

beforeAll(async () => {
  for (const [i, text] of [[0, 'My deposit of 5,000 TSh has not arrived yet.'], [1, 'Matokeo ya jackpot yatatoka lini?']] as const) {
    board.push(expectStatus(await api('POST', '/sandbox/messaging/board', { bettor_id: bettors[i]!.id, content: text }), 201, 'board message').id);
  }
});

const inboxOf = async (bettorId: number) => expectStatus(await api('GET', `/sandbox/messaging/inbox?bettor_id=${bettorId}`), 200, 'inbox');

async function confirmPop(page: Page) {
  const ok = page.locator('.ant-popconfirm:visible').getByTestId('confirm-ok');
  await ok.waitFor();
  await ok.click();
}

describe('messaging screens', () => {
  test('board read and answered, a message to pasted phones delivered, the app version forced, the board cleared; three languages', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // ------------------------------------------------------------------------------------ the board
    await openScreen(page, 'message_board', 'User messages');
    const first = rowByKey(page, board[0]!);
    await first.waitFor();
    expect(await first.innerText()).toContain('Not viewed');
    expect(await first.innerText()).toContain('Not replied');
    await rowByKey(page, board[1]!).waitFor();
    await shots(page, 'messaging-01-board');

    // Mark the second read; answer the first.
    await toastAfter(page, 'Successful', () => page.getByTestId(`board-read-${board[1]}`).click());
    await until(async () => (await rowByKey(page, board[1]!).innerText()).includes('Viewed'), 'the second message read');
    await page.getByTestId(`board-reply-${board[0]}`).click();
    const reply = dialog(page, 'Reply to the bettor');
    await reply.waitFor();
    expect(await reply.innerText()).toContain('My deposit of 5,000 TSh has not arrived yet.');
    await field(reply, 'Your reply').fill('It is credited now. Thank you for waiting.');
    await shots(page, 'messaging-02-reply');
    await toastAfter(page, 'Successful', () => reply.getByTestId('reply-submit').click());
    await reply.waitFor({ state: 'hidden' });
    await until(async () => (await rowByKey(page, board[0]!).innerText()).includes('Replied'), 'the first message replied');
    expect(await rowByKey(page, board[0]!).innerText()).toContain('Viewed');
    // The answer is in the bettor's inbox, unread.
    const box = await inboxOf(bettors[0]!.id);
    expect(box.items[0]).toMatchObject({ title: 'Reply from customer service', content: 'It is credited now. Thank you for waiting.', read: false });

    // ------------------------------------------------------------------- a message to pasted phones
    await openScreen(page, 'message_list', 'Messages');
    // The reply is listed as a message with one recipient.
    await rowWithText(page, 'Reply from customer service').waitFor();
    await page.getByTestId('message-send').click();
    const send = dialog(page, 'Send an in-app message');
    await send.waitFor();
    await field(send, 'Title').fill('Weekend jackpot');
    await field(send, 'Content').fill('The weekend jackpot is open: 13 matches, TSh 100,000,000 to win.');
    const phones = [localPhone(bettors[0]!.phone), `+${bettors[1]!.phone}`, '0799 000 001', 'call me'].join('\n');
    await send.getByTestId('send-phones').fill(phones);
    await send.getByTestId('send-check').click();
    const report = send.getByTestId('phone-report');
    await report.waitFor();
    const text = await report.innerText();
    expect(text).toContain('Bettors of your branch found: 2');
    expect(await send.getByTestId('phone-not-found').innerText()).toContain('+255799000001');
    expect(await send.getByTestId('phone-invalid').innerText()).toContain('call me');
    await shots(page, 'messaging-03-send');
    await toastAfter(page, 'Successful', () => send.getByTestId('send-submit').click());
    await send.waitFor({ state: 'hidden' });
    const sent = rowWithText(page, 'Weekend jackpot');
    await sent.waitFor();
    // Delivered by the job; the list follows (it polls every 2 s while a send runs).
    let row0: any;
    await until(async () => {
      row0 = (await api('GET', '/messaging/messages?title=Weekend')).body.items[0];
      return row0?.status === 'sent';
    }, 'the message delivered');
    expect(row0).toMatchObject({ recipient_count: 2, delivered_count: 2, audience: 'bettors', all_users: false });
    await until(async () => (await sent.innerText()).includes('Sent'), 'the list showing it sent');
    expect(await page.getByTestId(`message-delivered-${row0.id}`).innerText()).toBe('2 of 2');
    for (const b of bettors.slice(0, 2)) expect((await inboxOf(b.id)).items.map((m: any) => m.title)).toContain('Weekend jackpot');
    expect((await inboxOf(bettors[2]!.id)).items.map((m: any) => m.title)).not.toContain('Weekend jackpot');

    // Issue 29: a broadcast to all bettors is confirmed first, naming how many it reaches.
    const reach = expectStatus(await api('POST', '/messaging/recipients/count', { target: { kind: 'all' } }), 200, 'the count').count as number;
    expect(reach).toBeGreaterThanOrEqual(3);
    await page.getByTestId('message-send').click();
    const broadcast = dialog(page, 'Send an in-app message');
    await broadcast.waitFor();
    await field(broadcast, 'Title').fill('Derby day');
    await field(broadcast, 'Content').fill('Derby day: boosted odds all afternoon.');
    await broadcast.getByTestId('send-kind').getByText('All bettors').click();
    await broadcast.getByTestId('send-submit').click();
    const asked = page.getByTestId('send-confirm-count');
    await asked.waitFor();
    expect(await asked.innerText()).toContain(`all ${reach} bettors`);
    expect((await api('GET', '/messaging/messages?title=Derby')).body.items).toHaveLength(0);
    await shot(page, 'messaging-04b-broadcast-confirm');
    await toastAfter(page, 'Successful', () => page.getByTestId('send-confirm-ok').click());
    await broadcast.waitFor({ state: 'hidden' });
    await until(async () => (await api('GET', '/messaging/messages?title=Derby')).body.items[0]?.all_users === true, 'the broadcast sent');
    await shots(page, 'messaging-04-list');
    await page.setViewportSize({ width: 390, height: 844 });
    await openScreen(page, 'message_list', 'Messages');
    await shot(page, 'messaging-05-list-390');
    await openScreen(page, 'message_board', 'User messages');
    await shot(page, 'messaging-06-board-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // ------------------------------------------------------------------------------- app versions
    await openScreen(page, 'app_config', 'App versions');
    await page.getByTestId('resource-create').click();
    let form = dialog(page);
    await form.waitFor();
    await field(form, 'Version').fill('2.0.0');
    await field(form, 'Version code').fill('200');
    await field(form, 'Download link').fill('https://downloads.dau.example/android/dau-2.0.0.apk');
    await field(form, 'Update text').fill('New jackpot screen.');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    const row = rowWithText(page, '2.0.0');
    await row.waitFor();
    // The app's own call: public, outside /api/v1.
    const check = async () => {
      const res = await fetch(new URL('/api/public/app-version?platform=android&version=1.9.0', e2e.server.baseUrl));
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(await check()).toMatchObject({ latest: '2.0.0', update: 'optional', update_text: 'New jackpot screen.' });
    // Edit: force the update.
    const id = (await row.getAttribute('data-row-key'))!;
    await page.getByTestId(`row-edit-${id}`).click();
    form = dialog(page);
    await form.waitFor();
    await form
      .locator('.ant-form-item')
      .filter({ has: page.locator('.ant-form-item-label label', { hasText: /^\s*Update\s*$/ }) })
      .locator('button.ant-switch')
      .click();
    await shots(page, 'messaging-07-app-version-form');
    await toastAfter(page, 'Successful', () => form.getByTestId('form-submit').click());
    await form.waitFor({ state: 'hidden' });
    await until(async () => (await rowWithText(page, '2.0.0').innerText()).includes('Forced'), 'the version forced');
    expect(await check()).toMatchObject({ latest: '2.0.0', update: 'forced' });
    await shots(page, 'messaging-08-app-versions');

    // ----------------------------------------------------------------------------- languages
    for (const [lng, board, list, describe] of [
      ['sw-KE', 'Ujumbe wa watumiaji', 'Orodha ya ujumbe', 'Jumbe za ndani ya programu'],
      ['zh-CN', '用户留言', '消息列表', '您所在分支发送的站内信'],
    ] as const) {
      await openInLanguage(page, lng, 'message_list', list);
      expect(await page.locator('body').innerText(), `${lng}: description`).toContain(describe);
      await shots(page, `messaging-09-list-${lng}`);
      await page.getByTestId('message-send').click();
      await dialog(page).waitFor();
      await shot(page, `messaging-10-send-${lng}`);
      await dialog(page).locator('.ant-modal-close').click();
      await openScreen(page, 'message_board', board);
      await shot(page, `messaging-11-board-${lng}`);
      await openScreen(page, 'app_config', lng === 'sw-KE' ? 'Matoleo ya programu' : 'App版本配置');
      await shot(page, `messaging-12-app-${lng}`);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    await page.reload();

    // ------------------------------------------------------------------- clear, with confirmation
    await openScreen(page, 'message_board', 'User messages');
    await page.getByTestId('board-clear').click();
    expect(await page.locator('.ant-popconfirm:visible').innerText()).toMatch(/clear/i);
    await shot(page, 'messaging-13-clear-confirm');
    await toastAfter(page, 'Successful', () => confirmPop(page));
    await until(async () => (await page.getByTestId('resource-table').locator('tr.ant-table-row').count()) === 0, 'the board cleared');
    expect(expectStatus(await api('GET', '/messaging/board'), 200, 'board').items).toEqual([]);

    expect(missingKeys(page), 'no missing text').toEqual([]);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});
