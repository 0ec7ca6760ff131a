/**
 * Telegram services: one-time binding codes, redeeming them from the bot, notices to bound admins.
 *
 * A binding code is 8 characters from an alphabet without look-alikes, shown once; only its SHA-256 is
 * stored, with its subject (admin or bettor), an expiry 10 minutes out and `used_at`. Redeeming is one
 * conditional UPDATE … WHERE used_at IS NULL AND expires_at > now RETURNING: two messages with the same
 * code bind once, an expired code binds nothing. A subject has one binding: binding again replaces it.
 *
 * Notices (`telegram.notify`, a durable job queued in the transaction that created the notices): one row
 * per (notice, chat) in telegram_deliveries, committed as 'sending' before the Bot API call; a row found
 * 'sending' is in doubt (the process died during the call; Telegram has no idempotency key) and is not
 * sent again. A 429 (Too Many Requests) releases the claim and fails the job, which pg-boss retries with
 * back-off, honouring at least the retry_after Telegram gave.
 */
import crypto from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { Api, GrammyError } from 'grammy';
import { message } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Db, Executor } from '../../platform/db.js';
import { admins } from '../../platform/schema.js';
import { bettors } from '../money/index.js';
import { telegramBindCodes, telegramBindings, telegramConfig, telegramDeliveries } from './schema.js';
import { DEFAULT_TELEGRAM_SANDBOX_PORT, type TelegramUser } from './sandbox.js';

export const BIND_CODE_MINUTES = 10;
export const TELEGRAM_NOTIFY_JOB = 'telegram.notify';
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function telegramApiRootFromEnv(env: NodeJS.ProcessEnv = process.env): { apiRoot: string; sandbox: boolean } {
  if (env.DAU_TELEGRAM_API_ROOT) return { apiRoot: env.DAU_TELEGRAM_API_ROOT.replace(/\/$/, ''), sandbox: false };
  return { apiRoot: `http://127.0.0.1:${Number(env.DAU_TELEGRAM_SANDBOX_PORT) || DEFAULT_TELEGRAM_SANDBOX_PORT}`, sandbox: true };
}
let apiRoot = telegramApiRootFromEnv();
export const telegramApiRoot = () => apiRoot;
/** Tests: the sandbox they started on port 0. */
export function setTelegramApiRoot(root: string, sandbox = true) {
  apiRoot = { apiRoot: root, sandbox };
  apiCache = null;
}

export const hashCode = (code: string) => crypto.createHash('sha256').update(code.trim().toUpperCase()).digest('hex');

export async function telegramConfigOf(ex: Executor) {
  const [row] = await ex.select().from(telegramConfig).where(eq(telegramConfig.id, 1));
  if (row) return row;
  await ex.insert(telegramConfig).values({ id: 1 }).onConflictDoNothing();
  return (await ex.select().from(telegramConfig).where(eq(telegramConfig.id, 1)))[0]!;
}

let apiCache: { token: string; api: Api; username: Promise<string | null> } | null = null;
/** grammY's Bot API client for the configured token (null without one). */
export async function botApi(ex: Executor): Promise<{ api: Api; username: Promise<string | null> } | null> {
  const cfg = await telegramConfigOf(ex);
  if (!cfg.botToken || !cfg.enabled) return null;
  if (apiCache?.token !== cfg.botToken) {
    const api = new Api(cfg.botToken, { apiRoot: apiRoot.apiRoot });
    const username = api.getMe().then((me) => me.username ?? null, () => null);
    apiCache = { token: cfg.botToken, api, username };
    // A failed getMe is asked again next time.
    void username.then((u) => {
      if (u === null && apiCache?.api === api) apiCache = null;
    });
  }
  return apiCache;
}

/** A new one-time code for an admin or a bettor (the bettor app would call this for a bettor). */
export async function newBindCode(ex: Executor, subject: 'admin' | 'bettor', subjectId: number, now = new Date()) {
  const code = Array.from(crypto.randomBytes(8), (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
  const expiresAt = new Date(now.getTime() + BIND_CODE_MINUTES * 60_000);
  await ex.insert(telegramBindCodes).values({ codeHash: hashCode(code), subject, subjectId, expiresAt, createdAt: now });
  return { code, expiresAt };
}

export type RedeemOutcome = { ok: true; subject: 'admin' | 'bettor'; subjectId: number; account: string } | { ok: false };

/** The bot's `/start <code>`: binds the Telegram user to the code's subject, once, before it expires. */
export async function redeemBindCode(db: Db, code: string, user: TelegramUser, chatId: number, now = new Date()): Promise<RedeemOutcome> {
  if (!/^[A-Za-z0-9]{4,32}$/.test(code.trim())) return { ok: false };
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(telegramBindCodes)
      .set({ usedAt: now })
      .where(and(eq(telegramBindCodes.codeHash, hashCode(code)), isNull(telegramBindCodes.usedAt), gt(telegramBindCodes.expiresAt, now)))
      .returning({ subject: telegramBindCodes.subject, subjectId: telegramBindCodes.subjectId });
    if (!used) return { ok: false } as const;
    const subject = used.subject === 'bettor' ? 'bettor' : 'admin';
    let account = '';
    if (subject === 'admin') {
      const [a] = await tx.select({ account: admins.account }).from(admins).where(eq(admins.id, used.subjectId));
      if (!a) return { ok: false } as const;
      account = a.account;
    } else {
      const [b] = await tx.select({ phone: bettors.phone }).from(bettors).where(eq(bettors.id, used.subjectId));
      if (!b) return { ok: false } as const;
      account = b.phone;
    }
    const values = {
      subject, adminId: subject === 'admin' ? used.subjectId : null, bettorId: subject === 'bettor' ? used.subjectId : null, tgUserId: user.id, chatId,
      firstName: user.first_name.slice(0, 64), username: user.username ?? null, languageCode: user.language_code ?? null, boundAt: now,
    };
    await tx.delete(telegramBindings).where(subject === 'admin' ? eq(telegramBindings.adminId, used.subjectId) : eq(telegramBindings.bettorId, used.subjectId));
    await tx.insert(telegramBindings).values(values);
    return { ok: true, subject, subjectId: used.subjectId, account } as const;
  });
}

/** The bot's answer to a message, in the user's language (Telegram's language_code). */
export function botReply(outcome: RedeemOutcome | 'hello', languageCode: string | undefined): string {
  const lang = languageCode?.startsWith('sw') ? 'sw-KE' : languageCode?.startsWith('zh') ? 'zh-CN' : 'en-US';
  if (outcome === 'hello') return message('TELEGRAM_BOT_HELLO', lang);
  return outcome.ok ? message('TELEGRAM_BOT_BOUND', lang, { account: outcome.account }) : message('TELEGRAM_BOT_CODE_INVALID', lang);
}

// ─── Notices to bound admins ───────────────────────────────────────────────

export interface NoticeForTelegram {
  id: number;
  adminId: number;
  content: string;
}

/** Queues `telegram.notify` for the notices whose admin is bound (in the caller's transaction). */
export async function queueNoticeDelivery(ctx: AppContext, ex: Executor, notices: NoticeForTelegram[]) {
  if (!notices.length) return;
  const bound = await ex
    .select({ adminId: telegramBindings.adminId })
    .from(telegramBindings)
    .where(inArray(telegramBindings.adminId, [...new Set(notices.map((n) => n.adminId))]));
  const ids = new Set(bound.map((b) => b.adminId));
  const mine = notices.filter((n) => ids.has(n.adminId));
  if (mine.length) await ctx.jobs.send(ex, TELEGRAM_NOTIFY_JOB, { notices: mine });
}

export async function deliverNotices(db: Db, notices: NoticeForTelegram[]) {
  const cfg = await telegramConfigOf(db);
  if (!cfg.notifyAdmins) return;
  const client = await botApi(db);
  if (!client) return;
  for (const n of notices) {
    const [binding] = await db.select().from(telegramBindings).where(eq(telegramBindings.adminId, n.adminId));
    if (!binding) continue;
    const [claim] = await db
      .insert(telegramDeliveries)
      .values({ noticeId: n.id, chatId: binding.chatId, status: 'sending' })
      .onConflictDoNothing()
      .returning({ id: telegramDeliveries.id });
    if (!claim) continue; // sent, failed, or in doubt: never twice
    try {
      const sent = await client.api.sendMessage(binding.chatId, n.content.slice(0, 4000));
      await db.update(telegramDeliveries).set({ status: 'sent', messageId: sent.message_id, updatedAt: new Date() }).where(eq(telegramDeliveries.id, claim.id));
    } catch (err) {
      if (err instanceof GrammyError && err.error_code === 429) {
        // Not sent: release the claim; the job fails and is retried later.
        await db.delete(telegramDeliveries).where(eq(telegramDeliveries.id, claim.id));
        throw new Error(`Telegram: too many requests (retry after ${String(err.parameters?.retry_after ?? '?')} s)`);
      }
      const error = err instanceof GrammyError ? `${err.error_code} ${err.description}` : 'NETWORK';
      await db.update(telegramDeliveries).set({ status: 'failed', error: error.slice(0, 200), updatedAt: new Date() }).where(eq(telegramDeliveries.id, claim.id));
    }
  }
}

export function defineTelegramJobs(ctx: AppContext) {
  ctx.jobs.define<{ notices: NoticeForTelegram[] }>(TELEGRAM_NOTIFY_JOB, (data) => deliverNotices(ctx.db, data.notices ?? []), { retryLimit: 8, retryDelaySeconds: 5 });
}
