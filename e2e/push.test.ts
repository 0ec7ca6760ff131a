import { beforeAll, describe, expect, test } from 'vitest';
import { logOf, missingKeys, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, rowByKey, settled, until } from './support/ui';
import { openScreen, shot, shots } from './support/screens';
import { freePort } from '../apps/server/test/support/spawn.js';

/**
 * Issue 15 (PUSH) in the browser: an operator pushes to chosen devices and sees the result of each (an
 * uninstalled app's token answered UNREGISTERED and the device is marked invalid), then a public push to a
 * segment with the count before confirming and the progress; binds their own Telegram with a one-time code
 * sent to the bot (the sandbox Bot API, grammY polling on the server) and sees the binding listed; sw-KE and
 * zh-CN; screenshots in both themes, at 1280 px and on a phone.
 *
 * Data: no demo data, no simulator. Bettors come from the betting sandbox route; their app installs from
 * the push sandbox route (the sandbox FCM issues each a registration token). The sandbox FCM and Bot API
 * listen on free ports of their own.
 */
const env: Record<string, string> = { DAU_SANDBOX_ROUTES: '1' };
beforeAll(async () => {
  env.DAU_PUSH_SANDBOX_PORT = String(await freePort());
  env.DAU_TELEGRAM_SANDBOX_PORT = String(await freePort());
});
const e2e = useE2e({ server: { demo: false, simulator: false, env } });
let adminToken = '';
const devices: Record<'tecno' | 'iphone' | 'gone', number> = { tecno: 0, iphone: 0, gone: 0 };
const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, adminToken);

beforeAll(async () => {
  adminToken = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  // The leader configures the sandbox FCM's service account and the sandbox bot on start.
  await until(async () => (await api('GET', '/push/config')).body?.project_id === 'dau-sandbox', 'the sandbox FCM configured');
  await until(async () => (await api('GET', '/telegram/me')).body?.bot_username === 'dau_sandbox_bot', 'the sandbox bot known');
  const installs = [
    ['tecno', 'android', 'Tecno Spark 10', '1.4.0', false],
    ['iphone', 'ios', 'iPhone 13', '1.4.0', false],
    ['gone', 'android', 'Infinix Hot 30', '1.3.2', true],
  ] as const;
  for (const [name, platform, model, appVersion, uninstalled] of installs) {
    const order = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 100_00 }), 201, 'sandbox bettor');
    const d = expectStatus(await api('POST', '/sandbox/push/devices', { bettor_id: order.bettor_id, platform, model, os_version: platform === 'ios' ? '17.4' : '13', app_version: appVersion, uninstalled }), 201, 'device');
    devices[name] = d.id;
  }
});

describe('push and Telegram screens', () => {
  test('a targeted push with results per device, a public push to a segment, my Telegram bound; three languages', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // ------------------------------------------------------------------------- targeted push
    await openScreen(page, 'precision_push_device', 'Targeted push');
    for (const id of [devices.tecno, devices.gone]) {
      const row = rowByKey(page, id);
      await row.waitFor();
      await row.locator('input[type=checkbox]').check();
    }
    await page.getByTestId('precision-push').click();
    const precision = dialog(page, 'Push to 2 devices');
    await precision.waitFor();
    await precision.getByTestId('push-title').fill('Jackpot tonight');
    await precision.getByTestId('push-body').fill('The 13-match jackpot closes at 20:00.');
    await shots(page, 'push-01-precision-form');
    await precision.getByTestId('precision-push-send').click();
    await precision.getByTestId('push-done').waitFor();
    let seen = '';
    await until(async () => {
      seen = await precision.innerText();
      return seen.includes('Invalid token') && seen.includes('Sent');
    }, 'a result per device').catch((err: Error) => {
      throw new Error(`${err.message}; the dialog says: ${seen}`);
    });
    expect(seen).toContain('UNREGISTERED');
    await shots(page, 'push-02-precision-results');
    await precision.locator('.ant-modal-close').click();

    // ---------------------------------------------------------------- devices and a public push
    await openScreen(page, 'push_device', 'Push devices');
    await until(async () => (await rowByKey(page, devices.tecno).innerText()).includes('Jackpot tonight'), 'the last push on the device');
    await until(async () => (await page.getByTestId(`device-invalid-${devices.gone}`).innerText()) === 'Invalid', 'the uninstalled device marked');
    expect(await rowByKey(page, devices.iphone).innerText()).toContain('iPhone 13');
    await shots(page, 'push-03-devices');
    await page.getByTestId('public-push').click();
    const pub = dialog(page, 'Public push');
    await pub.waitFor();
    await until(async () => (await pub.getByTestId('push-count').innerText()).includes('Reaches 2 devices'), 'two valid devices');
    await pub.getByTestId('push-app-version').fill('1.4.0');
    await pub.getByTestId('push-title').fill('New version');
    await pub.getByTestId('push-body').fill('Version 1.4.0 pays out faster.');
    await until(async () => (await pub.getByTestId('push-count').innerText()).includes('Reaches 2 devices'), 'the segment counted');
    await shots(page, 'push-04-public-form');
    await pub.getByTestId('public-push-send').click();
    const confirm = page.locator('.ant-modal-confirm:visible');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('It goes to 2 devices now');
    await confirm.getByRole('button', { name: 'Send' }).click();
    await pub.getByTestId('push-done').waitFor();
    expect(await pub.getByTestId('push-progress').innerText()).toContain('2 sent, 0 invalid, 0 failed of 2');
    await shot(page, 'push-05-public-done-light');
    await pub.locator('.ant-modal-close').click();
    await until(async () => {
      await page.reload();
      await settled(page);
      return (await rowByKey(page, devices.iphone).innerText()).includes('New version');
    }, 'the public push on the iPhone');

    // ------------------------------------------------------------------------ Telegram binding
    await openScreen(page, 'telegram_bot_binding', 'Telegram bot bindings');
    await page.getByTestId('my-binding').waitFor();
    await page.getByTestId('telegram-bind').click();
    const bind = dialog(page, 'Bind your Telegram account');
    await bind.waitFor();
    const code = (await bind.getByTestId('bind-code').innerText()).trim();
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(await bind.getByTestId('bind-link').getAttribute('href')).toBe(`https://t.me/dau_sandbox_bot?start=${code}`);
    await shots(page, 'push-06-bind-code');
    // The admin sends the code to the bot from their Telegram app (the sandbox Bot API's user side).
    const tg = `http://127.0.0.1:${env.DAU_TELEGRAM_SANDBOX_PORT}`;
    const bot = (await (await fetch(`${tg}/sandbox/bots/dau_sandbox_bot`)).json()) as { token: string };
    const sent = await fetch(`${tg}/sandbox/bot${bot.token}/inject`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: { id: 424242, first_name: 'Zawadi', username: 'zawadi_ops', language_code: 'sw' }, text: `/start ${code}` }),
    });
    expect(sent.status).toBe(200);
    await bind.locator('.ant-modal-close').click();
    await until(async () => {
      await page.reload();
      await settled(page);
      return (await page.locator('body').innerText()).includes('zawadi_ops');
    }, 'the binding listed');
    expect(await page.getByTestId('my-binding').innerText()).toContain('Zawadi');
    await shots(page, 'push-07-bindings');
    const answered = (await (await fetch(`${tg}/sandbox/bot${bot.token}/sent?chat_id=424242`)).json()) as { text: string }[];
    expect(answered.map((m) => m.text)).toEqual(['Telegram yako sasa imeunganishwa na admin. Taarifa zitakufikia hapa.']);

    // ----------------------------------------------------------------------------- languages
    for (const [lng, devicesTitle, precisionTitle, bindingsTitle, describe] of [
      ['sw-KE', 'Vifaa vya arifa', 'Arifa lengwa', 'Viunganisho vya boti ya Telegram', 'Simu na tableti za wachezaji wa tawi lako'],
      ['zh-CN', '推送设备', '精准推送', 'Telegram机器人绑定', '本分支投注用户已注册接收通知的手机和平板'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('language', l), lng);
      await page.goto('/#/customer/push_device');
      await page.reload();
      await until(async () => (await page.getByTestId('page-title').innerText()) === devicesTitle, `${lng}: the devices`);
      await settled(page);
      expect(await page.locator('body').innerText(), `${lng}: description`).toContain(describe);
      await shots(page, `push-08-devices-${lng}`);
      await page.getByTestId('public-push').click();
      await dialog(page).waitFor();
      await shot(page, `push-09-public-${lng}`);
      await dialog(page).locator('.ant-modal-close').click();
      await openScreen(page, 'precision_push_device', precisionTitle);
      await shot(page, `push-10-precision-${lng}`);
      await openScreen(page, 'telegram_bot_binding', bindingsTitle);
      await shot(page, `push-11-bindings-${lng}`);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));

    // ------------------------------------------------------------------------------ on a phone
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await openScreen(page, 'push_device', 'Push devices');
    await shots(page, 'push-12-devices-phone');
    await openScreen(page, 'precision_push_device', 'Targeted push');
    await shot(page, 'push-13-precision-phone-light');
    await openScreen(page, 'telegram_bot_binding', 'Telegram bot bindings');
    await shot(page, 'push-14-bindings-phone-light');

    expect(missingKeys(page)).toEqual([]);
    expect(log.pageErrors, 'no page errors').toEqual([]);
  });
});
