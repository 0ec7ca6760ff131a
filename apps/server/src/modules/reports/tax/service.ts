import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../../platform/context.js';
import type { Executor } from '../../../platform/db.js';
import { computeRecentDays, computeReturn, Superseded } from './compute.js';
import { monthOf, monthRange, previousMonth } from './month.js';
import { taxReturns } from './schema.js';

/**
 * Asking for a month's return and computing it: a request writes the header (`queued`, the next run) and
 * enqueues `reports.tax-return` in the same transaction; the job computes that run (./compute.ts). The
 * periodic `reports.tax-days` computes each day once it is over, so a month's run mostly sums stored days.
 * Once a month is over, the periodic `reports.tax-returns-close` computes it again once (`final`), so the
 * return of every past month is the one as of its end, with the rate in force then.
 */
export const TAX_RETURN_JOB = 'reports.tax-return';
export const TAX_RETURNS_CLOSE_JOB = 'reports.tax-returns-close';
/** Hourly: the days of the last week that are not final are computed (./compute.ts computeRecentDays). */
export const TAX_DAYS_JOB = 'reports.tax-days';
/** A month at scale takes seconds to tens of seconds: far inside this. */
const JOB_EXPIRE_SECONDS = 1800;

export type TaxReturnHeader = typeof taxReturns.$inferSelect;

export async function requestReturn(ctx: Pick<AppContext, 'jobs'>, ex: Executor, month: string, adminId: number | null): Promise<TaxReturnHeader> {
  const [row] = await ex
    .insert(taxReturns)
    .values({ month, status: 'queued', run: 1, requestedBy: adminId, requestedAt: new Date() })
    .onConflictDoUpdate({
      target: taxReturns.month,
      set: { status: 'queued', run: sql`${taxReturns.run} + 1`, requestedBy: adminId, requestedAt: new Date(), error: null },
    })
    .returning();
  await ctx.jobs.send(ex, TAX_RETURN_JOB, { month, run: row!.run });
  return row!;
}

/** The job and the periodic close of the month that ended (registered once per app, before the queue starts). */
export function defineTaxJobs(ctx: AppContext, log: { warn: (o: object, m: string) => void }) {
  const { db } = ctx;
  ctx.jobs.define<{ month: string; run: number }>(
    TAX_RETURN_JOB,
    async ({ month, run }) => {
      try {
        await computeReturn(db, month, run);
      } catch (err) {
        if (err instanceof Superseded) return;
        // A failed statement's own words (drizzle wraps them after the SQL text).
        const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
        const message = (cause instanceof Error ? cause.message : String(cause)).slice(0, 500);
        log.warn({ month, run, err: message }, 'tax return failed');
        await db.update(taxReturns).set({ status: 'failed', error: message }).where(and(eq(taxReturns.month, month), eq(taxReturns.run, run)));
        throw err;
      }
    },
    { expireInSeconds: JOB_EXPIRE_SECONDS, retryLimit: 3 },
  );
  ctx.jobs.every(TAX_DAYS_JOB, 3600, async () => {
    await computeRecentDays(db);
  });
  ctx.jobs.every(TAX_RETURNS_CLOSE_JOB, 3600, async () => {
    const now = Date.now();
    const month = previousMonth(monthOf(now));
    if (monthRange(month).to.getTime() > now) return;
    await db.transaction(async (tx) => {
      const [h] = await tx.select().from(taxReturns).where(eq(taxReturns.month, month)).for('update');
      if (h && (h.final || h.status === 'queued' || h.status === 'computing')) return;
      await requestReturn(ctx, tx, month, null);
    });
  });
}
