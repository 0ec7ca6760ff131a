import { bigint, bigserial, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Telegram (issue 15): the bot's settings (one row), the bindings of admins' and bettors' Telegram
 * accounts, the one-time binding codes (stored as SHA-256 hashes, single use, 10 minutes) and the notices
 * delivered to bound admins (one row per notice and chat: a notice is never sent twice to a chat).
 */
export const telegramConfig = pgTable('telegram_config', {
  id: integer('id').primaryKey(),
  /** The bot token from BotFather: written, never read back. */
  botToken: text('bot_token').notNull().default(''),
  enabled: boolean('enabled').notNull().default(true),
  /** Console notices also go to bound admins. */
  notifyAdmins: boolean('notify_admins').notNull().default(true),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export const telegramBindings = pgTable(
  'telegram_bindings',
  {
    id: serial('id').primaryKey(),
    /** 'admin' | 'bettor'. */
    subject: text('subject').notNull(),
    adminId: integer('admin_id'),
    bettorId: integer('bettor_id'),
    tgUserId: bigint('tg_user_id', { mode: 'number' }).notNull(),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    firstName: text('first_name').notNull().default(''),
    username: text('username'),
    languageCode: text('language_code'),
    boundAt: at('bound_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('telegram_bindings_admin_uq').on(t.adminId),
    uniqueIndex('telegram_bindings_bettor_uq').on(t.bettorId),
    index('telegram_bindings_tg_user_idx').on(t.tgUserId),
  ],
);

export const telegramBindCodes = pgTable(
  'telegram_bind_codes',
  {
    id: serial('id').primaryKey(),
    /** SHA-256 (hex) of the code: the code itself is shown once and never stored. */
    codeHash: text('code_hash').notNull(),
    subject: text('subject').notNull(),
    subjectId: integer('subject_id').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('telegram_bind_codes_hash_uq').on(t.codeHash)],
);

export const telegramDeliveries = pgTable(
  'telegram_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    noticeId: integer('notice_id').notNull(),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    /** 'sending' (in doubt after a crash: not sent again) | 'sent' | 'failed'. */
    status: text('status').notNull(),
    error: text('error'),
    messageId: bigint('message_id', { mode: 'number' }),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('telegram_deliveries_notice_chat_uq').on(t.noticeId, t.chatId)],
);

/** THE SANDBOX BOT API's own books: the bots it created (BotFather) and every message in and out. */
export const sandboxTelegramBots = pgTable('sandbox_telegram_bots', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  token: text('token').notNull().unique(),
  username: text('username').notNull(),
  firstName: text('first_name').notNull(),
  webhookUrl: text('webhook_url').notNull().default(''),
  /** getUpdates with an offset confirms every update below it: they are not answered again. */
  confirmedUpdateId: bigint('confirmed_update_id', { mode: 'number' }).notNull().default(0),
  createdAt: at('created_at').notNull().defaultNow(),
});

export const sandboxTelegramMessages = pgTable(
  'sandbox_telegram_messages',
  {
    /** The update_id of an incoming message; the message_id of both. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    botId: bigint('bot_id', { mode: 'number' }).notNull(),
    /** 'in' (a user wrote to the bot: an update) | 'out' (the bot sent it). */
    direction: text('direction').notNull(),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    fromId: bigint('from_id', { mode: 'number' }),
    firstName: text('first_name'),
    username: text('username'),
    languageCode: text('language_code'),
    text: text('text').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('sandbox_telegram_messages_bot_idx').on(t.botId, t.direction, t.id)],
);
