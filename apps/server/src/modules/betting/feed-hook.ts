/**
 * What the betting engine does when the odds feed changes something (engine `onApplied`, after the
 * message's transaction committed):
 *  - a settlement, cancel or rollback of an event: its orders follow the feed (`refreshFromFeed`);
 *  - an odds change: the auto-cashout rules of its orders are checked (gathered, at most once a second).
 * Work runs one event at a time in arrival order; `drain()` waits for all of it (tests, shutdown).
 */
import type { Db } from '../../platform/db.js';
import type { FeedMessage } from '../feed/messages.js';
import { checkCashoutRules } from './cashout.js';
import { refreshFromFeed } from './settlement.js';

const SETTLING = new Set(['bet_settlement', 'bet_cancel', 'rollback_bet_settlement', 'rollback_bet_cancel']);
const CASHOUT_CHECK_MS = 1_000;

export class BettingFeedHook {
  private chain: Promise<unknown> = Promise.resolve();
  private oddsEvents = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private db: Db,
    private opts: { concurrency?: number; log?: (msg: string, err: unknown) => void } = {},
  ) {}

  readonly onApplied = (msg: FeedMessage) => {
    if (this.stopped || !('event_id' in msg)) return;
    if (SETTLING.has(msg.type)) this.enqueue(() => refreshFromFeed(this.db, msg.event_id, { concurrency: this.opts.concurrency }));
    else if (msg.type === 'odds_change') {
      this.oddsEvents.add(msg.event_id);
      this.timer ??= setTimeout(() => this.flushOdds(), CASHOUT_CHECK_MS);
    }
  };

  private flushOdds() {
    this.timer = null;
    const ids = [...this.oddsEvents];
    this.oddsEvents.clear();
    for (const id of ids) this.enqueue(() => checkCashoutRules(this.db, id));
  }

  private enqueue(job: () => Promise<unknown>) {
    this.chain = this.chain.then(job).catch((err) => this.opts.log?.('betting: feed follow-up failed', err));
  }

  /** Resolves when every queued job (and the pending cashout check) has run. */
  async drain(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.flushOdds();
    }
    await this.chain;
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.chain;
  }
}
