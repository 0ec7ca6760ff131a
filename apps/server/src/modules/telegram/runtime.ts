/**
 * Running Telegram next to the server (main.ts), on one process at a time (the leader of 'telegram'):
 * without DAU_TELEGRAM_API_ROOT the sandbox Bot API on DAU_TELEGRAM_SANDBOX_PORT (6059), with a demo bot
 * created there the first time (its token stored in telegram_config, as an operator would paste
 * BotFather's); then the bot itself (grammY, long polling) whenever a token is configured.
 */
import { eq } from 'drizzle-orm';
import type { Database, Db } from '../../platform/db.js';
import { leadership, type Leadership } from '../../platform/leader.js';
import { TelegramBotRunner } from './bot.js';
import { DEFAULT_TELEGRAM_SANDBOX_PORT, startSandboxTelegram, type SandboxTelegram } from './sandbox.js';
import { telegramApiRoot, telegramConfigOf } from './service.js';
import { telegramConfig } from './schema.js';

export const SANDBOX_BOT_USERNAME = 'dau_sandbox_bot';

export async function configureSandboxBot(db: Db, sandbox: Pick<SandboxTelegram, 'createBot'>, username = SANDBOX_BOT_USERNAME) {
  const cfg = await telegramConfigOf(db);
  if (cfg.botToken) return false;
  const bot = await sandbox.createBot(username, 'Dau');
  await db.update(telegramConfig).set({ botToken: bot.token, updatedAt: new Date() }).where(eq(telegramConfig.id, 1));
  return true;
}

export function runTelegram(database: Database, db: Db, opts: { log?: (msg: string, err?: unknown) => void; info?: (msg: string) => void } = {}): Leadership {
  let sandbox: SandboxTelegram | null = null;
  let bot: TelegramBotRunner | null = null;
  return leadership(database, 'telegram', {
    onLead: async () => {
      if (telegramApiRoot().sandbox) {
        sandbox = await startSandboxTelegram({ db, port: Number(process.env.DAU_TELEGRAM_SANDBOX_PORT) || DEFAULT_TELEGRAM_SANDBOX_PORT, log: opts.log });
        opts.info?.(`this process runs the sandbox Telegram Bot API on ${sandbox.url}`);
        await configureSandboxBot(db, sandbox).catch((err) => opts.log?.('sandbox Telegram: creating the demo bot failed', err));
      }
      bot = await new TelegramBotRunner(db, { log: opts.log }).start();
    },
    onLose: async () => {
      await bot?.stop();
      bot = null;
      await sandbox?.stop();
      sandbox = null;
    },
    log: opts.log,
  });
}

export async function seedTelegram(ex: Pick<Db, 'insert'>) {
  await ex.insert(telegramConfig).values({ id: 1 }).onConflictDoNothing();
}
