/**
 * The Telegram bot (grammY, long polling), run by one process at a time (the leader, main.ts). It answers
 * `/start <code>` by redeeming the binding code and anything else with how to bind, in the user's
 * language. It reads the bot token from telegram_config and follows a change of it (or of `enabled`)
 * within `refreshMs`.
 */
import { Bot } from 'grammy';
import type { Db } from '../../platform/db.js';
import { botReply, redeemBindCode, telegramApiRoot, telegramConfigOf } from './service.js';

export interface TelegramBotOptions {
  log?: (msg: string, err?: unknown) => void;
  /** How often the settings are read again (default 10 s). */
  refreshMs?: number;
  /** Long polling timeout in seconds (default 25). */
  pollSeconds?: number;
}

export class TelegramBotRunner {
  private bot: Bot | null = null;
  private token = '';
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private db: Db,
    private opts: TelegramBotOptions = {},
  ) {}

  async start() {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.opts.refreshMs ?? 10_000);
    this.timer.unref();
    return this;
  }

  /** Starts, restarts or stops the bot after the settings changed. */
  refresh(): Promise<void> {
    this.busy = this.busy.then(async () => {
      if (this.stopped) return;
      const cfg = await telegramConfigOf(this.db).catch(() => null);
      if (!cfg) return;
      const want = cfg.enabled ? cfg.botToken : '';
      if (want === this.token && (this.bot || !want)) return;
      await this.halt();
      this.token = want;
      if (want) this.launch(want);
    });
    return this.busy;
  }

  private launch(token: string) {
    const bot = new Bot(token, { client: { apiRoot: telegramApiRoot().apiRoot } });
    bot.command('start', async (c) => {
      const code = String(c.match ?? '').trim();
      const from = c.from;
      if (!code || !from) return void (await c.reply(botReply('hello', from?.language_code)));
      const outcome = await redeemBindCode(
        this.db,
        code,
        { id: from.id, first_name: from.first_name, username: from.username, language_code: from.language_code },
        c.chat.id,
      );
      await c.reply(botReply(outcome, from.language_code));
    });
    bot.on('message', (c) => c.reply(botReply('hello', c.from?.language_code)));
    bot.catch((err) => this.opts.log?.('Telegram bot: an update failed', err.error));
    this.bot = bot;
    bot
      .start({ timeout: this.opts.pollSeconds ?? 25, drop_pending_updates: false })
      .catch((err) => {
        this.opts.log?.('Telegram bot stopped', err);
        if (this.bot === bot) {
          this.bot = null;
          this.token = '';
        }
      });
  }

  private async halt() {
    const bot = this.bot;
    this.bot = null;
    if (bot?.isRunning()) await bot.stop().catch(() => {});
  }

  /** Whether the bot polls now (tests wait for it). */
  get running() {
    return !!this.bot?.isRunning();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.busy.catch(() => {});
    await this.halt();
  }
}
