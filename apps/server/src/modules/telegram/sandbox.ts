/**
 * THE SANDBOX TELEGRAM BOT API (issue 15): a Bot API server on its own port (DAU_TELEGRAM_SANDBOX_PORT,
 * default 6059), run on the leader by main.ts when DAU_TELEGRAM_API_ROOT is not set. grammY talks to it
 * through its `apiRoot` option exactly as to api.telegram.org. Its books are its own tables
 * (sandbox_telegram_bots, sandbox_telegram_messages).
 *
 * Bot API methods (https://core.telegram.org/bots/api), GET or POST, JSON, form or query parameters, at
 * /bot<token>/<method>; answers {ok: true, result} or {ok: false, error_code, description, parameters?}:
 *  - getMe; getUpdates {offset, limit, timeout} (long polling; an offset confirms the updates below it;
 *    409 while a webhook is set, and 409 to the older of two concurrent polls); sendMessage {chat_id,
 *    text} (400 chat not found / message text is empty / message is too long, 403 bot was blocked by the
 *    user, 429 Too Many Requests with parameters.retry_after when armed); setWebhook {url, secret_token},
 *    deleteWebhook {drop_pending_updates}, getWebhookInfo. An unknown token answers 401 Unauthorized,
 *    an unknown method 404.
 *
 * Sandbox-only routes (what BotFather and a user's Telegram app would do):
 *  - POST /sandbox/bots {username, first_name}: a new bot; answers {id, token, username}.
 *  - POST /sandbox/bot<token>/inject {from: {id, first_name, username?, language_code?}, text}: the user
 *    writes to the bot (e.g. "/start CODE"); it becomes an update (or is posted to the webhook).
 *  - GET  /sandbox/bot<token>/sent?chat_id=: what the bot sent to a chat.
 *  - POST /sandbox/bot<token>/block {chat_id}: the user blocks the bot.
 *  - POST /sandbox/faults {too_many, retry_after}: the next n sendMessage calls answer 429.
 */
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { and, asc, desc, eq, gte } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { sandboxTelegramBots, sandboxTelegramMessages } from './schema.js';

export const DEFAULT_TELEGRAM_SANDBOX_PORT = 6059;

export interface SandboxTelegram {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly port: number;
  createBot(username: string, firstName?: string): Promise<{ id: number; token: string; username: string }>;
  /** A user writes to a bot; answers the update id. */
  inject(token: string, from: TelegramUser, text: string): Promise<number>;
  sent(token: string, chatId: number): Promise<{ message_id: number; text: string }[]>;
  block(chatId: number): void;
  arm(faults: { tooMany?: number; retryAfter?: number }): void;
  stop(): Promise<void>;
}

export interface TelegramUser {
  id: number;
  first_name: string;
  username?: string;
  language_code?: string;
}

type Bot = typeof sandboxTelegramBots.$inferSelect;
type Row = typeof sandboxTelegramMessages.$inferSelect;

class ApiError extends Error {
  constructor(readonly code: number, readonly description: string, readonly parameters?: Record<string, unknown>) {
    super(description);
  }
}

const unixTime = (d: Date) => Math.floor(d.getTime() / 1000);

function messageOf(row: Row, bot: Bot) {
  const chat = { id: row.chatId, type: 'private', first_name: row.direction === 'in' ? row.firstName ?? '' : undefined, username: row.direction === 'in' ? row.username ?? undefined : undefined };
  const from =
    row.direction === 'in'
      ? { id: row.fromId!, is_bot: false, first_name: row.firstName ?? '', ...(row.username ? { username: row.username } : {}), ...(row.languageCode ? { language_code: row.languageCode } : {}) }
      : { id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username };
  const command = row.direction === 'in' ? /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(row.text) : null;
  return {
    message_id: row.id,
    from,
    chat,
    date: unixTime(row.createdAt),
    text: row.text,
    ...(command ? { entities: [{ offset: 0, length: command[0].length, type: 'bot_command' }] } : {}),
  };
}

export async function startSandboxTelegram(opts: { db: Db; port: number; host?: string; log?: (msg: string, err?: unknown) => void }): Promise<SandboxTelegram> {
  const { db } = opts;
  const host = opts.host ?? '127.0.0.1';
  const app = Fastify({ logger: false, bodyLimit: 256 * 1024 });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  const events = new EventEmitter();
  events.setMaxListeners(0);
  /** The running long poll of each bot (a newer one ends it with 409). */
  const polls = new Map<number, (err: ApiError) => void>();
  const blocked = new Set<number>();
  const faults = { tooMany: 0, retryAfter: 3 };

  const botOf = async (token: string): Promise<Bot> => {
    const [bot] = await db.select().from(sandboxTelegramBots).where(eq(sandboxTelegramBots.token, token));
    if (!bot) throw new ApiError(401, 'Unauthorized');
    return bot;
  };
  const pending = (bot: Bot, from: number, limit: number) =>
    db
      .select()
      .from(sandboxTelegramMessages)
      .where(and(eq(sandboxTelegramMessages.botId, bot.id), eq(sandboxTelegramMessages.direction, 'in'), gte(sandboxTelegramMessages.id, Math.max(from, bot.confirmedUpdateId))))
      .orderBy(asc(sandboxTelegramMessages.id))
      .limit(limit);

  const methods: Record<string, (bot: Bot, p: Record<string, any>, req: FastifyRequest) => Promise<unknown>> = {
    getMe: async (bot) => ({ id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false }),

    getUpdates: async (bot, p, req) => {
      if (bot.webhookUrl) throw new ApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
      const offset = Number(p.offset ?? 0);
      const limit = Math.min(100, Math.max(1, Number(p.limit ?? 100) || 100));
      const timeout = Math.min(50, Math.max(0, Number(p.timeout ?? 0) || 0));
      if (offset > bot.confirmedUpdateId) {
        await db.update(sandboxTelegramBots).set({ confirmedUpdateId: offset }).where(eq(sandboxTelegramBots.id, bot.id));
        bot = { ...bot, confirmedUpdateId: offset };
      }
      polls.get(bot.id)?.(new ApiError(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running'));
      let rows = await pending(bot, offset, limit);
      if (!rows.length && timeout > 0) {
        await new Promise<void>((resolve, reject) => {
          const done = () => {
            clearTimeout(timer);
            events.off(`update:${bot.id}`, done);
            req.raw.off('close', done);
            if (polls.get(bot.id) === end) polls.delete(bot.id);
            resolve();
          };
          const end = (err: ApiError) => {
            done();
            reject(err);
          };
          const timer = setTimeout(done, timeout * 1000);
          events.on(`update:${bot.id}`, done);
          req.raw.on('close', done);
          polls.set(bot.id, end);
        });
        rows = await pending(bot, offset, limit);
      }
      return rows.map((row) => ({ update_id: row.id, message: messageOf(row, bot) }));
    },

    sendMessage: async (bot, p) => {
      const chatId = Number(p.chat_id);
      const text = typeof p.text === 'string' ? p.text : '';
      if (faults.tooMany > 0) {
        faults.tooMany--;
        throw new ApiError(429, `Too Many Requests: retry after ${faults.retryAfter}`, { retry_after: faults.retryAfter });
      }
      if (!text.trim()) throw new ApiError(400, 'Bad Request: message text is empty');
      if (text.length > 4096) throw new ApiError(400, 'Bad Request: message is too long');
      const [known] = await db
        .select({ id: sandboxTelegramMessages.id })
        .from(sandboxTelegramMessages)
        .where(and(eq(sandboxTelegramMessages.botId, bot.id), eq(sandboxTelegramMessages.chatId, chatId), eq(sandboxTelegramMessages.direction, 'in')))
        .limit(1);
      if (!Number.isSafeInteger(chatId) || !known) throw new ApiError(400, 'Bad Request: chat not found');
      if (blocked.has(chatId)) throw new ApiError(403, 'Forbidden: bot was blocked by the user');
      const [row] = await db.insert(sandboxTelegramMessages).values({ botId: bot.id, direction: 'out', chatId, text }).returning();
      return messageOf(row!, bot);
    },

    setWebhook: async (bot, p) => {
      const url = String(p.url ?? '');
      if (url && !/^https?:\/\//.test(url)) throw new ApiError(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
      await db.update(sandboxTelegramBots).set({ webhookUrl: url }).where(eq(sandboxTelegramBots.id, bot.id));
      secrets.set(bot.id, typeof p.secret_token === 'string' ? p.secret_token : '');
      return true;
    },

    deleteWebhook: async (bot, p) => {
      const set: Partial<Bot> = { webhookUrl: '' };
      if (p.drop_pending_updates === true || p.drop_pending_updates === 'true') {
        set.confirmedUpdateId = (await lastId(bot.id)) + 1;
      }
      await db.update(sandboxTelegramBots).set(set).where(eq(sandboxTelegramBots.id, bot.id));
      return true;
    },

    getWebhookInfo: async (bot) => ({ url: bot.webhookUrl, has_custom_certificate: false, pending_update_count: (await pending(bot, 0, 1000)).length }),
  };
  const secrets = new Map<number, string>();
  const lastId = async (botId: number) => {
    const [row] = await db.select({ id: sandboxTelegramMessages.id }).from(sandboxTelegramMessages).where(eq(sandboxTelegramMessages.botId, botId)).orderBy(desc(sandboxTelegramMessages.id)).limit(1);
    return row?.id ?? 0;
  };

  const answer = (reply: FastifyReply, err: unknown) => {
    if (err instanceof ApiError) return reply.status(err.code).send({ ok: false, error_code: err.code, description: err.description, ...(err.parameters ? { parameters: err.parameters } : {}) });
    opts.log?.('sandbox Telegram: a method failed', err);
    return reply.status(500).send({ ok: false, error_code: 500, description: 'Internal Server Error' });
  };

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const { token, method } = req.params as { token: string; method: string };
    try {
      const bot = await botOf(token);
      const fn = methods[method];
      if (!fn) throw new ApiError(404, 'Not Found: method not found');
      const params = { ...((req.query as object) ?? {}), ...((req.body as object) ?? {}) } as Record<string, any>;
      return { ok: true, result: await fn(bot, params, req) };
    } catch (err) {
      return answer(reply, err);
    }
  };
  app.get('/bot:token/:method', handle);
  app.post('/bot:token/:method', handle);
  app.get('/health', async () => ({ ok: true }));

  const createBot: SandboxTelegram['createBot'] = async (username, firstName = 'Dau Bot') => {
    const id = crypto.randomInt(1_000_000_000, 8_000_000_000);
    const token = `${id}:${crypto.randomBytes(26).toString('base64url').slice(0, 35)}`;
    await db.insert(sandboxTelegramBots).values({ id, token, username, firstName });
    return { id, token, username };
  };
  const inject: SandboxTelegram['inject'] = async (token, from, text) => {
    const bot = await botOf(token);
    const [row] = await db
      .insert(sandboxTelegramMessages)
      .values({ botId: bot.id, direction: 'in', chatId: from.id, fromId: from.id, firstName: from.first_name, username: from.username ?? null, languageCode: from.language_code ?? null, text })
      .returning();
    events.emit(`update:${bot.id}`);
    if (bot.webhookUrl) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const secret = secrets.get(bot.id);
      if (secret) headers['x-telegram-bot-api-secret-token'] = secret;
      fetch(bot.webhookUrl, { method: 'POST', headers, body: JSON.stringify({ update_id: row!.id, message: messageOf(row!, bot) }) }).catch((err) => opts.log?.('sandbox Telegram: webhook unreachable', err));
    }
    return row!.id;
  };
  const sent: SandboxTelegram['sent'] = async (token, chatId) => {
    const bot = await botOf(token);
    const rows = await db
      .select()
      .from(sandboxTelegramMessages)
      .where(and(eq(sandboxTelegramMessages.botId, bot.id), eq(sandboxTelegramMessages.direction, 'out'), eq(sandboxTelegramMessages.chatId, chatId)))
      .orderBy(asc(sandboxTelegramMessages.id));
    return rows.map((r) => ({ message_id: r.id, text: r.text }));
  };

  const sandboxRoute = async (req: FastifyRequest, reply: FastifyReply, fn: () => Promise<unknown>) => {
    try {
      return await fn();
    } catch (err) {
      return answer(reply, err);
    }
  };
  app.post('/sandbox/bots', async (req, reply) => {
    const b = (req.body ?? {}) as { username?: unknown; first_name?: unknown };
    const username = typeof b.username === 'string' && /^[A-Za-z][A-Za-z0-9_]{3,30}bot$/i.test(b.username) ? b.username : null;
    if (!username) return reply.status(400).send({ ok: false, error_code: 400, description: 'username: 5-32 letters, digits, underscores, ending in "bot"' });
    return createBot(username, typeof b.first_name === 'string' ? b.first_name.slice(0, 64) : undefined);
  });
  app.post('/sandbox/bot:token/inject', (req, reply) =>
    sandboxRoute(req, reply, async () => {
      const b = (req.body ?? {}) as { from?: TelegramUser; text?: unknown };
      if (!b.from || !Number.isSafeInteger(b.from.id) || typeof b.text !== 'string') throw new ApiError(400, 'Bad Request: from {id, first_name} and text');
      return { update_id: await inject((req.params as { token: string }).token, b.from, b.text) };
    }),
  );
  app.get('/sandbox/bot:token/sent', (req, reply) => sandboxRoute(req, reply, () => sent((req.params as { token: string }).token, Number((req.query as { chat_id?: string }).chat_id))));
  app.post('/sandbox/bot:token/block', async (req) => {
    blocked.add(Number((req.body as { chat_id?: unknown } | null)?.chat_id));
    return { ok: true };
  });
  app.post('/sandbox/faults', async (req) => {
    const b = (req.body ?? {}) as { too_many?: number; retry_after?: number };
    faults.tooMany += Number.isInteger(b.too_many) ? Number(b.too_many) : 0;
    if (Number.isInteger(b.retry_after)) faults.retryAfter = Number(b.retry_after);
    return { ok: true, ...faults };
  });

  await app.listen({ port: opts.port, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  return {
    app, url: `http://${host}:${port}`, port, createBot, inject, sent,
    block: (chatId) => blocked.add(chatId),
    arm: (f) => {
      faults.tooMany += f.tooMany ?? 0;
      if (f.retryAfter !== undefined) faults.retryAfter = f.retryAfter;
    },
    stop: async () => {
      for (const end of polls.values()) end(new ApiError(502, 'Bad Gateway'));
      await app.close();
    },
  };
}
