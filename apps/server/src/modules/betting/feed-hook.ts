/**
 * What the betting engine does when the odds feed changes something, as durable jobs (platform/jobs.ts):
 *  - a settlement, cancel or rollback of an event: a `betting.settle-event` job is enqueued inside the
 *    feed message's transaction (engine `onApplying`), so the message never commits without it; the job
 *    makes the event's orders follow the feed (`refreshFromFeed`, idempotent: a second run after a crash
 *    settles only what the first did not), 20,000 orders per job, each job queuing the next part;
 *  - an odds change: the auto-cashout rules of its orders are checked (`betting.cashout-check`, at most
 *    one job per event and second, the next second's when this one's is taken); a periodic sweep checks every event with an active rule, so an odds
 *    change lost with a process only delays a cashout until the next sweep or odds change.
 * `drain()` waits until the queued betting jobs have run (tests, benches).
 */
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import type { FeedMessage } from '../feed/index.js';
import { and, eq } from 'drizzle-orm';
import { checkCashoutRules } from './cashout.js';
import { cashoutRules, orderLines, orders } from './schema.js';
import { refreshFromFeed, type OrderCursor } from './settlement.js';
import { ORDER_STATUS } from '@dau/domain';

export const SETTLE_EVENT_JOB = 'betting.settle-event';
export const CASHOUT_CHECK_JOB = 'betting.cashout-check';
export const CASHOUT_SWEEP_JOB = 'betting.cashout-sweep';

const SETTLING = new Set(['bet_settlement', 'bet_cancel', 'rollback_bet_settlement', 'rollback_bet_cancel']);
const CASHOUT_CHECK_MS = 1_000;
/** Orders one settlement job takes (~2-10 s of work at the measured 2,000-8,000 orders/s). */
export const SETTLE_JOB_ORDERS = 20_000;
const CASHOUT_SWEEP_SECONDS = 30;

/** Thrown when some orders of an event could not be settled: the job is retried with back-off. */
class SettlementIncomplete extends Error {}

export class BettingFeedHook {
  private oddsEvents = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private gathering: Promise<unknown> = Promise.resolve();

  constructor(
    private ctx: AppContext,
    /** Runs `fn` on the open feed message's transaction (PgFeedStore.withTx). */
    private inFeedTx: <T>(fn: (tx: Executor) => Promise<T>) => Promise<T>,
    private opts: { concurrency?: number; log?: (msg: string, err: unknown) => void } = {},
  ) {
    const { jobs, db } = ctx;
    jobs.define<{ eventId: string; after?: OrderCursor }>(
      SETTLE_EVENT_JOB,
      async ({ eventId, after }) => {
        // One job settles a bounded part of the event (well inside the job's expiry even on a busy
        // machine) and queues the next part: a crash costs at most one part, run again.
        const run = await refreshFromFeed(db, eventId, { concurrency: this.opts.concurrency, after, limit: SETTLE_JOB_ORDERS });
        if (run.failed > 0) throw new SettlementIncomplete(`${run.failed} of ${run.orders} orders on ${eventId} could not be settled yet`);
        if (run.next) await jobs.send(db, SETTLE_EVENT_JOB, { eventId, after: run.next });
      },
      { retryLimit: 20, workers: ctx.databaseKind === 'pg' ? 2 : 1 },
    );
    jobs.define<{ eventId: string }>(CASHOUT_CHECK_JOB, async ({ eventId }) => void (await checkCashoutRules(db, eventId)), { retryLimit: 3 });
    jobs.every(CASHOUT_SWEEP_JOB, CASHOUT_SWEEP_SECONDS, () => this.sweepCashoutRules());
  }

  /** Inside the message's transaction: enqueue the settlement of its event. */
  readonly onApplying = async (msg: FeedMessage) => {
    if (!('event_id' in msg) || !SETTLING.has(msg.type)) return;
    await this.inFeedTx((tx) => this.ctx.jobs.send(tx, SETTLE_EVENT_JOB, { eventId: msg.event_id }));
  };

  /** After the commit: gather odds changes for the cashout checks. */
  readonly onApplied = (msg: FeedMessage) => {
    if (this.stopped || !('event_id' in msg) || msg.type !== 'odds_change') return;
    this.oddsEvents.add(msg.event_id);
    this.timer ??= setTimeout(() => this.flushOdds(), CASHOUT_CHECK_MS);
  };

  private flushOdds() {
    this.timer = null;
    const ids = [...this.oddsEvents];
    this.oddsEvents.clear();
    const { jobs, db } = this.ctx;
    this.gathering = Promise.all(
      ids.map((eventId) =>
        jobs.send(db, CASHOUT_CHECK_JOB, { eventId }, { singletonKey: eventId, singletonSeconds: 1, nextSlot: true }).catch((err) => this.opts.log?.('betting: cashout check not queued', err)),
      ),
    );
  }

  /** Every event with an active auto-cashout rule on a pending order. */
  private async sweepCashoutRules() {
    const rows = await this.ctx.db
      .selectDistinct({ eventId: orderLines.eventId })
      .from(cashoutRules)
      .innerJoin(orders, eq(orders.id, cashoutRules.orderId))
      .innerJoin(orderLines, eq(orderLines.orderId, cashoutRules.orderId))
      .where(and(eq(cashoutRules.state, 'active'), eq(orders.status, ORDER_STATUS.pending)));
    for (const { eventId } of rows) if (eventId) await checkCashoutRules(this.ctx.db, eventId);
  }

  /** Resolves when the gathered odds changes are queued and every queued settlement and cashout check has run. */
  async drain(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.flushOdds();
    }
    await this.gathering;
    await this.ctx.jobs.drain([SETTLE_EVENT_JOB, CASHOUT_CHECK_JOB]);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.gathering;
  }
}
