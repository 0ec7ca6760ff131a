/**
 * The odds-rise rule (design: `odds_rise_step` over JACKPOT_ODDS_RISE_CHECKS = 5 consecutive checks):
 * a periodic job checks the 1X2 prices of the matches of every issue whose bets are open (bet type with
 * a step above 0), stores each check in jackpot_odds_checks and, when one outcome's price rose at every
 * one of the last 5 checks by at least the step in total (domain `oddsRose`), suspends the issue's
 * betting (bet_status suspended) with a notice to the super admins and to the admins holding the
 * jackpot_identifier screen; the operator re-opens it. Checks older than a day are pruned.
 */
import { and, eq, sql } from 'drizzle-orm';
import { JACKPOT_BET_STATUS, JACKPOT_ODDS_RISE_CHECKS, oddsRose } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { createNotices, noticeRecipients, publishNotices, type NoticeEvent } from '../notices/index.js';
import { jackpotIssueMatches, jackpotIssues, jackpotOddsChecks } from './schema.js';

export const ODDS_WATCH_JOB = 'jackpot.odds-watch';
/** Seconds between two checks. */
export const ODDS_WATCH_SECONDS = 60;
/** The 1X2 market (type 1, no specifiers) and its outcomes home, draw, away. */
const MARKET_1X2 = '1|';
const OUTCOMES = ['1', '2', '3'];
const SIDE = ['home (1)', 'draw (X)', 'away (2)'];

export interface OddsWatchRun {
  issues: number;
  checks: number;
  /** Issues whose betting this run suspended, with the flagged matches. */
  suspended: { issueId: number; identifier: string; matches: { position: number; eventId: string; outcome: number; from: number; to: number }[] }[];
}

/** Who hears of a suspension: super admins and the holders of the jackpot_identifier screen. */
async function listeners(ex: Executor): Promise<number[]> {
  return (await noticeRecipients(ex, 'jackpot_identifier')).map((a) => a.id);
}

/** One round of checks over every open issue (the periodic job; tests call it directly). */
export async function watchOdds(ctx: Pick<AppContext, 'db' | 'bus'>, now: Date = new Date()): Promise<OddsWatchRun> {
  const { db } = ctx;
  const open = (await db.execute(sql`
    SELECT i.id, i.identifier, bt.odds_rise_step::float8 AS step FROM jackpot_issues i JOIN jackpot_bet_types bt ON bt.id = i.bet_type_id
    WHERE i.bet_status = ${JACKPOT_BET_STATUS.open} AND bt.odds_rise_step > 0`)) as unknown as { rows: { id: number; identifier: string; step: number }[] };
  const run: OddsWatchRun = { issues: open.rows.length, checks: 0, suspended: [] };
  const events: NoticeEvent[] = [];
  for (const issue of open.rows) {
    const matches = await db
      .select({ position: jackpotIssueMatches.position, eventId: jackpotIssueMatches.eventId })
      .from(jackpotIssueMatches)
      .where(eq(jackpotIssueMatches.issueId, issue.id));
    if (!matches.length) continue;
    const ids = matches.map((m) => m.eventId);
    const prices = (await db.execute(sql`
      SELECT event_id, outcome_id, price::text AS price FROM feed_outcomes
      WHERE market_key = ${MARKET_1X2} AND outcome_id IN ('1', '2', '3') AND event_id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)) as unknown as {
      rows: { event_id: string; outcome_id: string; price: string | null }[];
    };
    const byEvent = new Map<string, (string | null)[]>();
    for (const r of prices.rows) {
      const p = byEvent.get(r.event_id) ?? [null, null, null];
      p[OUTCOMES.indexOf(r.outcome_id)] = r.price;
      byEvent.set(r.event_id, p);
    }
    const rows = matches.filter((m) => byEvent.has(m.eventId)).map((m) => ({ issueId: issue.id, eventId: m.eventId, checkedAt: now, prices: byEvent.get(m.eventId)! }));
    if (!rows.length) continue;
    const flagged: OddsWatchRun['suspended'][number]['matches'] = [];
    await db.transaction(async (tx) => {
      await tx.insert(jackpotOddsChecks).values(rows);
      run.checks += rows.length;
      // The last checks of each match, oldest first.
      const history = (await tx.execute(sql`
        SELECT event_id, prices FROM (
          SELECT event_id, prices, checked_at, id, row_number() OVER (PARTITION BY event_id ORDER BY checked_at DESC, id DESC) AS n
          FROM jackpot_odds_checks WHERE issue_id = ${issue.id}
        ) x WHERE n <= ${JACKPOT_ODDS_RISE_CHECKS} ORDER BY event_id, checked_at, id`)) as unknown as { rows: { event_id: string; prices: (string | null)[] | string }[] };
      const series = new Map<string, number[][]>();
      for (const h of history.rows) {
        const p = (typeof h.prices === 'string' ? JSON.parse(h.prices) : h.prices) as (string | null)[];
        const s = series.get(h.event_id) ?? [[], [], []];
        for (let k = 0; k < 3; k++) s[k].push(p[k] === null ? Number.NaN : Number(p[k]));
        series.set(h.event_id, s);
      }
      for (const m of matches) {
        const s = series.get(m.eventId);
        if (!s) continue;
        for (let k = 0; k < 3; k++) {
          if (oddsRose(s[k], issue.step)) flagged.push({ position: m.position, eventId: m.eventId, outcome: k, from: s[k][0], to: s[k][s[k].length - 1] });
        }
      }
      if (!flagged.length) return;
      const moved = await tx
        .update(jackpotIssues)
        .set({ betStatus: JACKPOT_BET_STATUS.suspended, updatedAt: new Date() })
        .where(and(eq(jackpotIssues.id, issue.id), eq(jackpotIssues.betStatus, JACKPOT_BET_STATUS.open)))
        .returning({ id: jackpotIssues.id });
      if (!moved.length) return;
      const what = flagged
        .sort((a, b) => a.position - b.position)
        .map((f) => `match ${f.position} ${SIDE[f.outcome]} ${f.from.toFixed(2)} → ${f.to.toFixed(2)}`)
        .join('; ');
      const content = `Jackpot ${issue.identifier}: betting suspended, odds rose at ${JACKPOT_ODDS_RISE_CHECKS} consecutive checks (${what}). Re-open it from the jackpot issues screen.`;
      events.push(...(await createNotices(tx, await listeners(tx), content)));
      run.suspended.push({ issueId: issue.id, identifier: issue.identifier, matches: flagged });
    });
  }
  await publishNotices(ctx.bus, events);
  // Old checks are of no use to the rule.
  await db.delete(jackpotOddsChecks).where(sql`${jackpotOddsChecks.checkedAt} < ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz`);
  return run;
}

export function defineOddsWatchJob(ctx: AppContext) {
  ctx.jobs.every(ODDS_WATCH_JOB, ODDS_WATCH_SECONDS, async () => void (await watchOdds(ctx)));
}
