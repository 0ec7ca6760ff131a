import { desc, eq, sql } from 'drizzle-orm';
import { addDays, localDay } from '@dau/domain';
import { AppError } from '../../../platform/errors.js';
import type { AppContext } from '../../../platform/context.js';
import type { Db, Executor } from '../../../platform/db.js';
import { ledgerViolations } from '../../money/index.js';
import { createNotices, noticeRecipients, publishNotices } from '../../notices/index.js';
import { computeClose, dayBounds, digestOf, type CloseFigures } from './figures.js';
import { dailyCloses } from './schema.js';

export const DAILY_CLOSE_PAGE = 'daily_close';
export const LEDGER_CHECK_PAGE = 'ledger_check';
export const DAILY_CLOSE_JOB = 'reports.daily-close';
/** How often every process offers the nightly close (it closes a day once: a day with a run is left alone). */
export const DAILY_CLOSE_SECONDS = 300;
/** After midnight, this long before a day is closed: transactions begun before midnight have committed. */
export const CLOSE_GRACE_MS = 5 * 60_000;
/** Days the nightly job looks back for a gap (a server down over midnight closes the missed days later). */
const CATCH_UP_DAYS = 7;
/** Advisory lock space of a day's close (one close of a day at a time, across processes). */
const CLOSE_LOCK_NS = 30_043;

export type CloseRecord = typeof dailyCloses.$inferSelect;

/** The last day that can be closed at `now`: yesterday, once the grace after midnight has passed. */
export const lastClosableDay = (now: number) => addDays(localDay(now - CLOSE_GRACE_MS), -1);

/**
 * Closes `day`: computes its figures from the ledger and stores them as the day's next run, unless the
 * day's latest run has the same figures (then nothing is stored: `changed` false and that run). One close of
 * a day at a time (an advisory lock held while the run is compared and written; the figures are computed
 * before it). A day not over yet (with its grace) is refused. A new run whose ledger check fails, or that
 * differs from an earlier run, is told to the holders of the daily close.
 */
export async function closeDay(
  ctx: Pick<AppContext, 'db' | 'bus'>,
  day: string,
  opts: { source: 'job' | 'admin'; adminId?: number | null; now?: number },
): Promise<{ changed: boolean; close: CloseRecord }> {
  if (day > lastClosableDay(opts.now ?? Date.now())) throw new AppError(422, 'CLOSE_DAY_NOT_OVER', { day });
  const t0 = performance.now();
  const figures = await computeClose(ctx.db, day);
  const digest = digestOf(figures);
  const durationMs = Math.round(performance.now() - t0);
  const after: { notices?: Awaited<ReturnType<typeof createNotices>> } = {};
  const result = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${CLOSE_LOCK_NS}, ${dayNumber(day)})`);
    const [last] = await tx.select().from(dailyCloses).where(eq(dailyCloses.day, day)).orderBy(desc(dailyCloses.run)).limit(1);
    if (last && last.digest === digest) return { changed: false, close: last };
    const [close] = await tx
      .insert(dailyCloses)
      .values({
        day, run: (last?.run ?? 0) + 1, source: opts.source, createdBy: opts.adminId ?? null, digest,
        stakes: figures.total.stakes, payouts: figures.total.payouts, ggr: figures.total.ggr, bonuses: figures.total.bonuses, ngr: figures.total.ngr,
        tax: figures.total.tax, deposits: figures.payments.deposits, withdrawals: figures.payments.withdrawals, liabilityCash: figures.liability.cash,
        liabilityCredit: figures.liability.credit, openOrders: figures.open_bets.orders, openPayout: figures.open_bets.potential_payout,
        ledgerOk: figures.ledger.ok, ledgerProblems: figures.ledger.problems, figures, durationMs,
      })
      .returning();
    if (last || !figures.ledger.ok) {
      const to = (await noticeRecipients(tx, DAILY_CLOSE_PAGE)).map((a) => a.id);
      after.notices = await createNotices(tx, to, noticeText(close!, !!last));
    }
    return { changed: true, close: close! };
  });
  if (after.notices) await publishNotices(ctx.bus, after.notices);
  return result;
}

/** Days since 2000-01-01: the second key of a day's advisory lock. */
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000) - 10_957;

const money = (cents: number) => (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The notice of a run that differs from the day's earlier one, or whose ledger check fails, in the console's three languages. */
function noticeText(c: CloseRecord, differs: boolean): string {
  const ledger = c.ledgerOk ? null : c.ledgerProblems;
  const en = [
    differs ? `Daily close of ${c.day}: run ${c.run} differs from the previous run (GGR TSh ${money(c.ggr)}).` : `Daily close of ${c.day}: run ${c.run}.`,
    ledger === null ? '' : ` The ledger check found ${ledger} problem(s): see Reports › Ledger self-check.`,
  ].join('');
  const sw = [
    differs ? `Ufungaji wa siku ${c.day}: mzunguko ${c.run} unatofautiana na uliotangulia (GGR TSh ${money(c.ggr)}).` : `Ufungaji wa siku ${c.day}: mzunguko ${c.run}.`,
    ledger === null ? '' : ` Ukaguzi wa leja umepata matatizo ${ledger}: angalia Ripoti › Ukaguzi wa leja.`,
  ].join('');
  const zh = [
    differs ? `${c.day} 日结：第 ${c.run} 次运行与上一次不同（GGR TSh ${money(c.ggr)}）。` : `${c.day} 日结：第 ${c.run} 次运行。`,
    ledger === null ? '' : `账本自检发现 ${ledger} 个问题：请查看 报表 › 账本自检。`,
  ].join('');
  return [en, sw, zh].join('\n');
}

/**
 * The nightly close (the periodic job; tests call it with their `now`): the last closable day, and the days
 * before it back to the latest closed one (at most CATCH_UP_DAYS), each closed once — a day with a run is
 * left alone (an admin reruns it from the console). Answers the closes stored.
 */
export async function closeDueDays(ctx: Pick<AppContext, 'db' | 'bus'>, now = Date.now()): Promise<CloseRecord[]> {
  const last = lastClosableDay(now);
  const first = addDays(last, -(CATCH_UP_DAYS - 1));
  const closed = new Set(
    (await ctx.db.select({ day: dailyCloses.day }).from(dailyCloses).where(sql`${dailyCloses.day} >= ${first} and ${dailyCloses.day} <= ${last}`)).map((r) => r.day),
  );
  // Only the days after the latest closed one (a fresh install closes yesterday, not a week of nothing).
  const latest = [...closed].sort().pop();
  const due: string[] = [];
  for (let d = latest ? addDays(latest, 1) : last; d <= last; d = addDays(d, 1)) if (!closed.has(d)) due.push(d);
  const out: CloseRecord[] = [];
  for (const day of due) {
    const r = await closeDay(ctx, day, { source: 'job', now });
    if (r.changed) out.push(r.close);
  }
  return out;
}

/** The ledger check on demand: the invariants now, with at most `limit` offending rows of each kind. */
export async function runLedgerCheck(db: Db | Executor, limit = 100) {
  const t0 = performance.now();
  const checkedAt = new Date();
  const v = await ledgerViolations(db, limit);
  const problems = v.counts.balances + v.counts.bills + v.counts.chains + v.counts.journal;
  return {
    ok: problems === 0, problems, counts: v.counts, balances: v.balances, bills: v.bills, chains: v.chains, journal: v.journal, limit,
    checked_at: checkedAt.toISOString(), duration_ms: Math.round(performance.now() - t0),
  };
}

/** Every run of a day (newest first). */
export function runsOfDay(ex: Executor, day: string) {
  return ex.select().from(dailyCloses).where(eq(dailyCloses.day, day)).orderBy(desc(dailyCloses.run));
}

/** The bettors' balances (owed less debts) a close says, for the roll-forward from one day to the next. */
export const balancesOf = (f: CloseFigures) => f.liability.cash + f.liability.credit + f.liability.cash_debts + f.liability.credit_debts;

export { dayBounds };
