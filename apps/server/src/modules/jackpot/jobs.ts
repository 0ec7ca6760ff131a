/**
 * The jackpot's durable jobs (platform/jobs.ts), defined while the routes are registered:
 *  - `jackpot.settle-issue` {issueId, version, after?}: pays (or refunds) an issue's tickets in chunks,
 *    part by part, then closes the issue (./settlement.ts);
 *  - `jackpot.odds-watch`: periodic check of the 1X2 prices of open issues' matches (./odds-watch.ts).
 */
import type { AppContext } from '../../platform/context.js';
import { defineOddsWatchJob } from './odds-watch.js';
import { defineSettlementJob, SETTLE_ISSUE_JOB, type PartOptions } from './settlement.js';

export { SETTLE_ISSUE_JOB };

export function defineJackpotJobs(ctx: AppContext, opts: PartOptions = {}) {
  defineSettlementJob(ctx, opts);
  defineOddsWatchJob(ctx);
}

/** Resolves when no settlement job of the jackpot is waiting or running (tests, benches). */
export const drainJackpot = (ctx: Pick<AppContext, 'jobs'>) => ctx.jobs.drain([SETTLE_ISSUE_JOB]);
