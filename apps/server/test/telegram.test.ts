/**
 * Telegram (issue 15) through grammY against the sandbox Bot API: one-time binding codes (single use,
 * 10 minutes), the bot's replies in the user's language, notices reaching a bound admin through the
 * `telegram.notify` job (never twice, 429 retried, a blocked bot recorded) end to end from a large withdrawal
 * awaiting its second approval and from an RTP alert, the branch rule on the list
 * and on unbinding, the write-only bot token. PGlite by default, PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { CASINO_ROUND_STATUS, message, WITHDRAWAL_STATUS } from '@dau/domain';
import { approved, createTestApp, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { grantKeys, makePayer } from './payments-fixtures.js';
import { paymentConfig } from '../src/schema.js';
import { requestWithdrawal } from '../src/modules/payments/withdrawals.js';
import { notifications } from '../src/modules/notices/schema.js';
import { casinoGames, casinoProviders, casinoRounds } from '../src/modules/casino/schema.js';
import { watchRtp } from '../src/modules/casino/rtp-watch.js';
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
let telegramRole: number;
let admin: string;
let agentA: string;
let agentB: string;

const user = (id: number, language_code: string, first_name = 'Amina') => ({ id, first_name, username: `user_${id}`, language_code });

/** Binds an admin to a chat of its own: the chat's user sends the bot a one-time code. */
async function bindAdmin(adminId: number, chat: number) {
  const { code } = await newBindCode(t.database.db, 'admin', adminId);
  await sb.inject(botToken, user(chat, 'en'), `/start ${code}`);
  await waitFor(`the binding of chat ${chat}`, async () => (await t.database.db.select().from(telegramBindings).where(eq(telegramBindings.adminId, adminId))).length > 0);
}

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
  telegramRole = await makeRole(t, 'Telegram', KEYS);
  tgA = await makeAdmin(t, 'tg_a', telegramRole, w.agentA);
  tgB = await makeAdmin(t, 'tg_b', telegramRole, w.agentB);
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
    const list = await t.call('GET', '/api/v1/telegram/bindings?subject=admin', { token: agentA });
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
  // Admins of their own, bound in set-up (chats 7101, 7102): the binding cases above bind and unbind
  // theirs in whatever order they run.
  let role: number;
  let nA: number;
  let nB: number;
  let nAToken: string;
  beforeAll(async () => {
    role = await makeRole(t, 'Telegram notices', KEYS);
    nA = await makeAdmin(t, 'tn_a', role, w.agentA);
    nB = await makeAdmin(t, 'tn_b', role, w.agentB);
    await bindAdmin(nA, 7101);
    await bindAdmin(nB, 7102);
    nAToken = await t.login('tn_a');
  });

  it('a large withdrawal awaiting its second approval reaches the bound approvers of its branch on Telegram, once', async () => {
    // tn_a and tn_b may approve withdrawals; the bettor is tn_a's, so tn_b (another branch) is not told.
    await grantKeys(t, role, ['withdraw_list', 'withdraw_list:approve']);
    const [cfg] = await t.database.db.select().from(paymentConfig);
    await t.database.db.update(paymentConfig).set({ largeWithdrawal: 1_000_00 }).where(eq(paymentConfig.id, cfg!.id));
    try {
      const b = await makePayer(t, nA, 50_000_00);
      const big = await requestWithdrawal(t.database.db, { bettorId: b.id, payType: 6, amount: 2_000_00 });
      const approved = await t.call('POST', `/api/v1/money/withdrawals/${big.id}/approve`, { token: admin });
      expect(approved.body.status).toBe(WITHDRAWAL_STATUS.awaiting_second_approval);
      // The notice row, committed with the state change, for tn_a only (the super admin approved first).
      const notes = await t.database.db.select().from(notifications).where(like(notifications.content, `%${big.serialNumber}%`));
      expect(notes.map((n) => n.adminId)).toEqual([nA]);
      const lines = notes[0]!.content.split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toBe(`Large withdrawal awaiting a second approval: ${big.serialNumber}, TSh 2,000.00, first approved by admin. Approve or refuse it in the withdrawal list.`);
      expect(lines[1]).toContain('Utoaji mkubwa unasubiri idhini ya pili');
      expect(lines[2]).toContain('大额提款等待二次审批');
      // The telegram.notify job the notice queued delivers it to tn_a's chat.
      await waitFor('the notice on Telegram', async () => (await replies(7101)).includes(notes[0]!.content));
      const row = await waitFor('the delivery recorded', async () => {
        const [d] = await t.database.db.select().from(telegramDeliveries).where(eq(telegramDeliveries.noticeId, notes[0]!.id));
        return d?.status === 'sending' ? null : d;
      });
      expect(row).toMatchObject({ status: 'sent', chatId: 7101 });
      // The job run again (a retry after a crash) sends nothing more; tn_b's chat got nothing of it.
      await deliverNotices(t.database.db, [{ id: notes[0]!.id, adminId: nA, content: notes[0]!.content }]);
      expect((await sb.sent(botToken, 7101)).filter((m) => m.text.includes(big.serialNumber))).toHaveLength(1);
      expect((await sb.sent(botToken, 7102)).filter((m) => m.text.includes(big.serialNumber))).toHaveLength(0);
      // The second approval by tn_a moves it on and raises no further notice.
      const second = await t.call('POST', `/api/v1/money/withdrawals/${big.id}/approve`, { token: nAToken });
      expect(second.body.status).toBe(WITHDRAWAL_STATUS.disbursing);
      expect(await t.database.db.select().from(notifications).where(like(notifications.content, `%${big.serialNumber}%`))).toHaveLength(1);
    } finally {
      await t.database.db.update(paymentConfig).set({ largeWithdrawal: cfg!.largeWithdrawal }).where(eq(paymentConfig.id, cfg!.id));
    }
  });

  it('an RTP alert of the casino watch reaches every bound casino_game holder on Telegram', async () => {
    await grantKeys(t, role, ['casino', 'casino_game']);
    const [p] = await t.database.db.insert(casinoProviders).values({ code: 'tgwatch', name: 'Telegram Watch Studio' }).returning({ id: casinoProviders.id });
    const [g] = await t.database.db.insert(casinoGames).values({ providerId: p!.id, gameCode: 'hot', name: 'Hot Slot', rtpBps: 9600, volatility: 1, kind: 'slot' }).returning({ id: casinoGames.id });
    const b = await makePayer(t, nA);
    const now = Date.now();
    // 200 rounds of 1.00 paying 1.50: RTP 150 %, far outside a 96 % game's band.
    await t.database.db.insert(casinoRounds).values(
      Array.from({ length: 200 }, (_, i) => ({
        providerId: p!.id, roundRef: `tg${i}`, gameId: g!.id, bettorId: b.id, agentId: nA, betTotal: 100, winTotal: 150,
        status: CASINO_ROUND_STATUS.completed, createdAt: new Date(now - 60_000 + i),
      })),
    );
    const run = await watchRtp(t.ctx, { windowDays: 1 });
    expect(run.find((c) => c.gameId === g!.id)).toMatchObject({ inside: false, alerted: true });
    const notes = await t.database.db.select().from(notifications).where(like(notifications.content, '%Hot Slot (tgwatch/hot)%'));
    expect(notes.map((n) => n.adminId)).toEqual(expect.arrayContaining([nA, nB]));
    for (const [adminId, chat] of [[nA, 7101], [nB, 7102]] as const) {
      const note = notes.find((n) => n.adminId === adminId)!;
      await waitFor(`the RTP alert in chat ${chat}`, async () => (await replies(chat)).includes(note.content));
      expect((await replies(chat)).filter((x) => x === note.content)).toHaveLength(1);
    }
  });

  it('a notice for an admin without a binding queues no delivery', async () => {
    const events = await t.database.db.transaction((tx) => createNotices(tx, [w.agentB], 'Nobody reads this on Telegram'));
    await deliverNotices(t.database.db, events);
    expect(await t.database.db.select().from(telegramDeliveries).where(eq(telegramDeliveries.noticeId, events[0]!.id))).toHaveLength(0);
  });

  it('429 Too Many Requests releases the claim (the job is retried); a blocked bot is recorded as failed', async () => {
    sb.arm({ tooMany: 1, retryAfter: 1 });
    const notice = { id: 900_001, adminId: nA, content: 'Abnormal bet on match 42' };
    await expect(deliverNotices(t.database.db, [notice])).rejects.toThrow(/too many requests/);
    expect(await t.database.db.select().from(telegramDeliveries).where(eq(telegramDeliveries.noticeId, notice.id))).toHaveLength(0);
    await deliverNotices(t.database.db, [notice]);
    expect((await replies(7101)).filter((x) => x === notice.content)).toHaveLength(1);
    // A chat that blocked the bot: an admin of its own (chat 7103), so the other cases' chats stay open.
    const blocked = await makeAdmin(t, 'tn_blocked', role, w.agentB);
    await bindAdmin(blocked, 7103);
    sb.block(7103);
    await deliverNotices(t.database.db, [{ id: 900_002, adminId: blocked, content: 'RTP alert' }]);
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
    const all = await t.call('GET', '/api/v1/telegram/bindings', { token: admin });
    expect(all.body.items.map((b: { bettor_id?: number }) => b.bettor_id)).toContain(bettor.id);
  });

  it('unbinds inside the branch only', async () => {
    // A binding of its own in tg_a's branch.
    const below = await makeAdmin(t, 'tg_a_unbind', telegramRole, tgA);
    await bindAdmin(below, 7020);
    const [mine] = await t.database.db.select().from(telegramBindings).where(eq(telegramBindings.adminId, below));
    expect((await t.call('DELETE', `/api/v1/telegram/bindings/${mine!.id}`, { token: agentB })).status).toBe(403);
    expect((await t.call('DELETE', '/api/v1/telegram/bindings/999999', { token: agentA })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/telegram/bindings/${mine!.id}`, { token: agentA })).status).toBe(200);
    expect(await t.database.db.select().from(telegramBindings).where(eq(telegramBindings.adminId, below))).toHaveLength(0);
  });

  it('never answers the bot token', async () => {
    const r = await t.call('GET', '/api/v1/telegram/config', { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.bot_token).toBeUndefined();
    expect(JSON.stringify(r.body)).not.toContain(botToken.split(':')[1]);
    expect((await approved(t, 'PUT', '/api/v1/telegram/config', { token: admin, body: { bot_token: 'nope' } })).status).toBe(400);
  });

  it('the bot serves every branch: a holder of the settings button who does not see the whole book is refused', async () => {
    await grantKeys(t, telegramRole, ['telegram_bot_binding:edit']);
    const before = (await t.call('GET', '/api/v1/telegram/config', { token: admin })).body;
    const refused = await approved(t, 'PUT', '/api/v1/telegram/config', { token: agentA, body: { notify_admins: !before.notify_admins } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('WHOLE_BOOK_ONLY');
    expect((await t.call('GET', '/api/v1/telegram/config', { token: admin })).body).toEqual(before);
  });
});
