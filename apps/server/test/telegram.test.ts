/**
 * Telegram (issue 15) through grammY against the sandbox Bot API: one-time binding codes (single use,
 * 10 minutes), the bot's replies in the user's language, notices reaching a bound admin through the
 * `telegram.notify` job (never twice, 429 retried, a blocked bot recorded), the branch rule on the list
 * and on unbinding, the write-only bot token. PGlite by default, PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { message } from '@dau/domain';
import { createTestApp, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { waitFor } from './support/processes.js';
import { createNotices } from '../src/modules/notices/service.js';
import {
  configureSandboxBot, deliverNotices, newBindCode, redeemBindCode, setTelegramApiRoot, startSandboxTelegram, TelegramBotRunner, type SandboxTelegram,
} from '../src/modules/telegram/index.js';
import { telegramBindings, telegramConfig, telegramDeliveries } from '../src/modules/telegram/schema.js';

const KEYS = ['system', 'telegram_bot_binding', 'telegram_bot_binding:bind', 'telegram_bot_binding:delete'];

let t: TestApp;
let sb: SandboxTelegram;
let bot: TelegramBotRunner;
let botToken: string;
let w: Awaited<ReturnType<typeof makeWorld>>;
let tgA: number;
let tgB: number;
let admin: string;
let agentA: string;
let agentB: string;

const user = (id: number, language_code: string, first_name = 'Amina') => ({ id, first_name, username: `user_${id}`, language_code });

async function replies(chatId: number) {
  return (await sb.sent(botToken, chatId)).map((m) => m.text);
}

beforeAll(async () => {
  t = await createTestApp();
  sb = await startSandboxTelegram({ db: t.database.db, port: 0 });
  setTelegramApiRoot(sb.url);
  await configureSandboxBot(t.database.db, sb, 'dau_test_bot');
  botToken = (await t.database.db.select().from(telegramConfig))[0]!.botToken;
  bot = await new TelegramBotRunner(t.database.db, { pollSeconds: 2, refreshMs: 60_000 }).start();
  w = await makeWorld(t);
  const role = await makeRole(t, 'Telegram', KEYS);
  tgA = await makeAdmin(t, 'tg_a', role, w.agentA);
  tgB = await makeAdmin(t, 'tg_b', role, w.agentB);
  admin = await t.login('admin', 'Admin#2026pass');
  agentA = await t.login('tg_a');
  agentB = await t.login('tg_b');
}, 120_000);

afterAll(async () => {
  await bot?.stop();
  await sb?.stop();
  await t?.close();
});

describe('binding with a one-time code', () => {
  it('binds the admin who asked for the code, answering in the Telegram user\'s language', async () => {
    const r = await t.call('POST', '/api/v1/telegram/bind-code', { token: agentA });
    expect(r.status).toBe(200);
    expect(r.body.code).toMatch(/^[A-Z2-9]{8}$/);
    expect(r.body.deep_link).toBe(`https://t.me/dau_test_bot?start=${r.body.code}`);
    expect(new Date(r.body.expires_at).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    await sb.inject(botToken, user(7001, 'sw'), `/start ${r.body.code}`);
    await waitFor('the bot answered', async () => (await replies(7001)).length > 0);
    expect(await replies(7001)).toEqual([message('TELEGRAM_BOT_BOUND', 'sw-KE', { account: 'tg_a' })]);
    const list = await t.call('GET', '/api/v1/telegram/bindings', { token: agentA });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ subject: 'admin', admin_id: tgA, account: 'tg_a', name: 'tg_a', chat_id: 7001, tg_user_id: 7001, first_name: 'Amina', username: 'user_7001', language_code: 'sw' });
    const me = await t.call('GET', '/api/v1/telegram/me', { token: agentA });
    expect(me.body.binding.chat_id).toBe(7001);
    expect(me.body.bot_username).toBe('dau_test_bot');
  });

  it('a code works once: a second user sending it binds nothing', async () => {
    const r = await t.call('POST', '/api/v1/telegram/bind-code', { token: agentB });
    await sb.inject(botToken, user(7002, 'en', 'Baraka'), `/start ${r.body.code}`);
    await waitFor('bound', async () => (await replies(7002)).length > 0);
    await sb.inject(botToken, user(7003, 'zh', 'Li'), `/start ${r.body.code}`);
    await waitFor('refused', async () => (await replies(7003)).length > 0);
    expect(await replies(7003)).toEqual([message('TELEGRAM_BOT_CODE_INVALID', 'zh-CN')]);
    const rows = await t.database.db.select().from(telegramBindings).where(eq(telegramBindings.adminId, tgB));
    expect(rows.map((b) => b.tgUserId)).toEqual([7002]);
  });

  it('a code expires after 10 minutes', async () => {
    const issued = new Date(Date.now() - 11 * 60_000);
    const { code } = await newBindCode(t.database.db, 'admin', w.limited, issued);
    await sb.inject(botToken, user(7004, 'en'), `/start ${code}`);
    await waitFor('refused', async () => (await replies(7004)).length > 0);
    expect(await replies(7004)).toEqual([message('TELEGRAM_BOT_CODE_INVALID', 'en-US')]);
    // Nine minutes after issue, the same kind of code binds.
    const fresh = await newBindCode(t.database.db, 'admin', w.limited, new Date(Date.now() - 9 * 60_000));
    expect(await redeemBindCode(t.database.db, fresh.code, user(7004, 'en'), 7004)).toMatchObject({ ok: true, account: 'limited' });
    expect(await redeemBindCode(t.database.db, fresh.code, user(7004, 'en'), 7004)).toEqual({ ok: false });
  });

  it('anything else gets how to bind', async () => {
    await sb.inject(botToken, user(7005, 'en'), 'hello');
    await waitFor('answered', async () => (await replies(7005)).length > 0);
    expect(await replies(7005)).toEqual([message('TELEGRAM_BOT_HELLO', 'en-US')]);
  });
});

describe('notices to bound admins', () => {
  it('a notice reaches the bound admin through the job, once', async () => {
    const events = await t.database.db.transaction((tx) => createNotices(tx, [tgA, w.agentB], 'Large withdrawal waiting: 2,000,000 TSh'));
    await waitFor('the notice on Telegram', async () => (await replies(7001)).includes('Large withdrawal waiting: 2,000,000 TSh'));
    const row = await waitFor('the delivery recorded', async () => {
      const [d] = await t.database.db.select().from(telegramDeliveries).where(eq(telegramDeliveries.noticeId, events[0]!.id));
      return d?.status === 'sending' ? null : d;
    });
    expect(row).toMatchObject({ status: 'sent', chatId: 7001 });
    // The unbound admin of the same notices got nothing and no delivery row.
    expect(await t.database.db.select().from(telegramDeliveries).where(eq(telegramDeliveries.noticeId, events[1]!.id))).toHaveLength(0);
    // The job run again (a retry after a crash) sends nothing more.
    await deliverNotices(t.database.db, [{ id: events[0]!.id, adminId: tgA, content: 'Large withdrawal waiting: 2,000,000 TSh' }]);
    expect((await replies(7001)).filter((x) => x.startsWith('Large withdrawal'))).toHaveLength(1);
  });

  it('429 Too Many Requests releases the claim (the job is retried); a blocked bot is recorded as failed', async () => {
    sb.arm({ tooMany: 1, retryAfter: 1 });
    const notice = { id: 900_001, adminId: tgA, content: 'Abnormal bet on match 42' };
    await expect(deliverNotices(t.database.db, [notice])).rejects.toThrow(/too many requests/);
    expect(await t.database.db.select().from(telegramDeliveries).where(eq(telegramDeliveries.noticeId, notice.id))).toHaveLength(0);
    await deliverNotices(t.database.db, [notice]);
    expect((await replies(7001)).filter((x) => x === notice.content)).toHaveLength(1);
    sb.block(7002);
    await deliverNotices(t.database.db, [{ id: 900_002, adminId: tgB, content: 'RTP alert' }]);
    const [failed] = await t.database.db.select().from(telegramDeliveries).where(eq(telegramDeliveries.noticeId, 900_002));
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.error).toMatch(/^403 /);
  });
});

describe('the binding list', () => {
  it("shows a bettor's binding to the bettor's branch only", async () => {
    const bettor = await makeBettor(t, tgA, { name: 'Neema' });
    const { code } = await newBindCode(t.database.db, 'bettor', bettor.id);
    expect(await redeemBindCode(t.database.db, code, user(7010, 'sw', 'Neema'), 7010)).toMatchObject({ ok: true, subject: 'bettor' });
    const a = await t.call('GET', '/api/v1/telegram/bindings?subject=bettor', { token: agentA });
    expect(a.body.items).toHaveLength(1);
    expect(a.body.items[0]).toMatchObject({ subject: 'bettor', bettor_id: bettor.id, account: bettor.phone, name: 'Neema' });
    expect((await t.call('GET', '/api/v1/telegram/bindings?subject=bettor', { token: agentB })).body.items).toHaveLength(0);
    expect((await t.call('GET', '/api/v1/telegram/bindings', { token: admin })).body.items.length).toBeGreaterThanOrEqual(4);
  });

  it('unbinds inside the branch only', async () => {
    const [mine] = await t.database.db.select().from(telegramBindings).where(eq(telegramBindings.adminId, tgA));
    expect((await t.call('DELETE', `/api/v1/telegram/bindings/${mine!.id}`, { token: agentB })).status).toBe(403);
    expect((await t.call('DELETE', '/api/v1/telegram/bindings/999999', { token: agentA })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/telegram/bindings/${mine!.id}`, { token: agentA })).status).toBe(200);
    expect(await t.database.db.select().from(telegramBindings).where(eq(telegramBindings.adminId, tgA))).toHaveLength(0);
  });

  it('never answers the bot token', async () => {
    const r = await t.call('GET', '/api/v1/telegram/config', { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.bot_token).toBeUndefined();
    expect(JSON.stringify(r.body)).not.toContain(botToken.split(':')[1]);
    expect((await t.call('PUT', '/api/v1/telegram/config', { token: admin, body: { bot_token: 'nope' } })).status).toBe(400);
  });
});
