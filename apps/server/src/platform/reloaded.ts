import type { Bus } from './db.js';

/** How often a process reloads anyway: the safety net for a bus message lost while its listener was down. */
export const RELOAD_MS = 30_000;

/**
 * Settings a process holds in memory and keeps as stored, in every process: loaded at `start()`, reloaded
 * after an operator's change (`changed()`: here at once, in the other processes through the bus channel),
 * and every `reloadMs` as a safety net, until `stop()`. The feed's price margins and the server's log
 * levels are such settings.
 */
export abstract class Reloaded {
  private timer: NodeJS.Timeout | null = null;
  /** The reloads of this process, one after another (see `serially`). */
  private queue: Promise<void> = Promise.resolve();

  protected constructor(
    private readonly channel: string,
    protected readonly bus?: Bus,
    private readonly reloadMs = RELOAD_MS,
  ) {}

  /** Reads the stored settings and applies them. */
  abstract reload(): Promise<void>;

  /**
   * A reload after the ones already asked have finished. Two reloads side by side could finish out of order:
   * the bus message of an operator's first change, read before the second change committed, would apply the
   * first level after the second (seen under load: a log level set to debug came back as warn). One after the
   * other, the last to run reads the last committed settings.
   */
  private serially(): Promise<void> {
    const next = this.queue.then(() => this.reload());
    this.queue = next.catch(() => {});
    return next;
  }

  /** After an operator's change: reload here, and in the other processes through the bus. */
  async changed(): Promise<void> {
    await this.serially();
    await this.bus?.publish(this.channel, {});
  }

  /** Loads the settings and keeps them fresh until `stop()`. */
  async start(): Promise<this> {
    await this.serially();
    this.bus?.subscribe(this.channel, () => {
      if (this.timer) void this.serially().catch(() => {});
    });
    this.timer = setInterval(() => void this.serially().catch(() => {}), this.reloadMs);
    this.timer.unref();
    return this;
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
