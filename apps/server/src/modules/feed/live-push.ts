/**
 * Live odds to the console: the engine reports every applied message (`onApplied`); the ids of the
 * events that changed are gathered and pushed to signed-in operators at most every FLUSH_MS as one
 * socket message (type PUSH.odds, content `{ event_ids }`). An open odds view refetches when its event
 * is named, so a price reaches the screen within FLUSH_MS plus one read, without polling fast.
 */
import type { AppContext } from '../../platform/context.js';
import { PUSH, PUSH_TO_ADMINS } from '../../platform/socket.js';
import type { FeedMessage } from './messages.js';

export const FLUSH_MS = 200;

export class FeedLivePush {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private ctx: AppContext) {}

  readonly onApplied = (msg: FeedMessage) => {
    if (!('event_id' in msg)) return;
    this.pending.add(msg.event_id);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  };

  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.size) return;
    const eventIds = [...this.pending];
    this.pending.clear();
    void this.ctx.bus
      .publish(PUSH_TO_ADMINS, { adminIds: 'all', message: { status: true, type: PUSH.odds, content: { event_ids: eventIds } } })
      .catch(() => {});
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}
