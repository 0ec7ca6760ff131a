/**
 * The simulator's jackpot activity (issue 12), plugged into `startSimulator`: it drives the jackpot
 * services an operator and bettor-facing app would call, so the jackpot screens are alive.
 *  - A default bet type ("Jackpot 13") when there is none.
 *  - A fresh install (no issue yet) gets a history: three past issues on invented matches of the
 *    sandbox's leagues (results set as an operator's, marked as demo history), each bought by the demo
 *    bettors through the placement service (as of before its close) and settled through the durable job,
 *    so the screens show past issues with winners.
 *  - Each day an issue on the next 13 upcoming sandbox football matches (created, matches taken from the
 *    feed, bets opened: a countdown to the first kick-off), when at least 13 are ahead.
 *  - Bettors with money buy tickets through `placeTicket` (singles, doubles, a few triples; the
 *    favourite more often than not), at most TICKETS_PER_ISSUE per issue; now and then one shares a
 *    ticket and another copies a shared slip.
 *  - Results come from the sandbox feed (the issue takes its settled 1X2 results); once all 13 are known
 *    the issue is previewed and settled through the job. Matches the feed will never finish (a previous
 *    run's sandbox) count as cancelled six hours after their kick-off. An issue the odds watch suspended
 *    is re-opened after a while, as an operator would.
 */
import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { JACKPOT_BET_STATUS, JACKPOT_SETTLE_STATUS, JACKPOT_TICKET_STATUS, SPORT, ticketLines } from '@dau/domain';
import type { AppContext } from '../platform/context.js';
import type { Executor } from '../platform/db.js';
import { AppError } from '../platform/errors.js';
import { bettors } from '../modules/money/schema.js';
import { upcomingMatches } from '../modules/feed/match-source.js';
import { LEAGUES } from '../modules/feed/simulator.js';
import { jackpotBetTypes, jackpotIssueMatches, jackpotIssues, jackpotShares, jackpotTickets } from '../modules/jackpot/schema.js';
import { copyShare, createIssue, openBets, placeTicket, refreshFeedResults, setBetStatus, setIssueMatches, shareTicket } from '../modules/jackpot/service.js';
import { planSettlement, startSettlement } from '../modules/jackpot/settlement.js';

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
}

export const TICKETS_PER_ISSUE = 300;
const PREFIX = 'JP';
const HOUR = 3_600_000;
const DEMO_REASON = 'Demo history (simulator): no feed match';

let ranOnce = false;
/** The first tick of a process runs the jackpot activity (so a fresh install gets its history at once), then one tick in ten. */
export const jackpotDue = (roll: number) => !ranOnce || (roll >= 0.6 && roll < 0.7);

/** The default bet type, seeded when there is none. */
export async function ensureBetType(ex: Executor) {
  const [bt] = await ex.select().from(jackpotBetTypes).where(eq(jackpotBetTypes.enabled, true)).orderBy(asc(jackpotBetTypes.id)).limit(1);
  if (bt) return bt;
  const [row] = await ex
    .insert(jackpotBetTypes)
    .values({
      type: 'Jackpot 13',
      rewardType: 1,
      tiers: [{ hits: 13, proportion_bps: 5000 }, { hits: 12, proportion_bps: 2000 }, { hits: 11, proportion_bps: 1500 }, { hits: 10, proportion_bps: 1000 }],
      poolRateBps: 5000,
      maxRangeOdds: '0',
      oddsRiseStep: '1.00',
      betAmount: 500_00,
      incentives: 0,
      initJackpot: 50_000_000_00,
      maxAddBalance: 5_000_000_00,
      guessNumber: 24,
      maxDoubles: 6,
      maxTriples: 3,
      allowBonus: true,
      cancelRule: 1,
      cancelVoidThreshold: 3,
    })
    .returning();
  return row;
}

/** Picks for 13 matches: the expected result (`favourite`) more often than not; some doubles, rarely a triple. */
function picksFor(rng: Rng, favourite: (i: number) => number, right: number, maxDoubles: number, maxTriples: number): number[] {
  const kind = rng.next();
  let doubles = kind < 0.55 ? 0 : Math.min(maxDoubles, rng.int(1, 3));
  let triples = kind > 0.9 && maxTriples > 0 ? 1 : 0;
  const picks = Array.from({ length: 13 }, (_, i) => {
    const fav = favourite(i);
    const r = rng.next() < right ? fav : (fav + rng.int(1, 2)) % 3;
    return 1 << r;
  });
  const order = Array.from({ length: 13 }, (_, i) => i).sort(() => rng.next() - 0.5);
  for (const i of order) {
    if (triples > 0) {
      picks[i] = 7;
      triples--;
    } else if (doubles > 0) {
      picks[i] |= 1 << ((Math.log2(picks[i]) + rng.int(1, 2)) % 3);
      doubles--;
    }
  }
  return picks;
}

/** A bettor with at least `cash` who may bet. */
async function someBettor(ex: Executor, cash: number, not?: number) {
  const [b] = await ex
    .select({ id: bettors.id })
    .from(bettors)
    .where(and(gte(bettors.cashBalance, cash), eq(bettors.disabled, 1), eq(bettors.betStatus, 1), not ? sql`${bettors.id} <> ${not}` : undefined))
    .orderBy(sql`random()`)
    .limit(1);
  return b ?? null;
}

async function place(ctx: Pick<AppContext, 'db'>, issueId: number, picks: number[], unit: number, now?: Date) {
  const b = await someBettor(ctx.db, ticketLines(picks) * unit);
  if (!b) return null;
  try {
    return await ctx.db.transaction((tx) => placeTicket(tx, { issueId, bettorId: b.id, picks }, { now }));
  } catch (e) {
    if (e instanceof AppError) return null; // a refusal is a normal outcome
    throw e;
  }
}

/**
 * Previews and confirms the settlement of an issue whose 13 results are known (the job pays it). Like an
 * operator, it previews again when the confirmation finds the plan changed (JACKPOT_PREVIEW_STALE): the
 * previous issue's settlement job, finishing meanwhile, sets the rollover this issue's pool starts from.
 */
async function settle(ctx: Pick<AppContext, 'db' | 'jobs'>, issueId: number) {
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.db.transaction(async (tx) => {
        const [issue] = await tx.select().from(jackpotIssues).where(eq(jackpotIssues.id, issueId)).for('update');
        if (!issue || issue.settleStatus !== JACKPOT_SETTLE_STATUS.unsettled) return;
        const plan = await planSettlement(tx, issue);
        await startSettlement(tx, ctx, issueId, plan.fingerprint, null);
      });
      return;
    } catch (e) {
      if (!(e instanceof AppError && e.code === 'JACKPOT_PREVIEW_STALE') || attempt === 5) throw e;
    }
  }
}

/** Three past issues with tickets and results, settled: what a fresh install shows. */
async function backfill(ctx: Pick<AppContext, 'db' | 'jobs'>, rng: Rng, bt: typeof jackpotBetTypes.$inferSelect) {
  const { db } = ctx;
  const clubs = LEAGUES[SPORT.football];
  for (let day = 3; day >= 1; day--) {
    const start = new Date(Date.now() - day * 24 * HOUR - 6 * HOUR);
    const issue = await createIssue(db, { betTypeId: bt.id, identifierPrefix: PREFIX, startTime: start, betCloseAt: start });
    const results: number[] = [];
    const rows = Array.from({ length: 13 }, (_, i) => {
      const league = rng.pick(clubs);
      const h = rng.int(0, league.teams.length - 1);
      const a = (h + rng.int(1, league.teams.length - 1)) % league.teams.length;
      const x = rng.next();
      const result = x < 0.46 ? 0 : x < 0.73 ? 1 : 2;
      results.push(result);
      return {
        issueId: issue.id, position: i + 1, eventId: `sr:match:jpdemo${issue.id}_${i + 1}`, homeTeam: league.teams[h], awayTeam: league.teams[a],
        leagueName: league.name, startTime: new Date(start.getTime() + Math.floor(i / 4) * 2 * HOUR), result, resultSource: 'operator', overrideReason: DEMO_REASON,
      };
    });
    await db.insert(jackpotIssueMatches).values(rows);
    await db.update(jackpotIssues).set({ betStatus: JACKPOT_BET_STATUS.open }).where(eq(jackpotIssues.id, issue.id));
    // Bought before the close, knowing the matches as well as a punter does (right 62 % of the time).
    const before = new Date(start.getTime() - 2 * HOUR);
    const count = rng.int(40, 70);
    for (let k = 0; k < count; k++) await place(ctx, issue.id, picksFor(rng, (i) => results[i], 0.62, bt.maxDoubles, bt.maxTriples), bt.betAmount, before);
    await db.execute(sql`UPDATE jackpot_tickets SET created_at = ${start.toISOString()}::timestamptz - (random() * interval '20 hours') WHERE issue_id = ${issue.id}`);
    await settle(ctx, issue.id);
  }
}

/** Today's issue on the next 13 sandbox matches, when none is open and the last one is older than 20 hours. */
async function ensureOpenIssue(db: Executor, bt: typeof jackpotBetTypes.$inferSelect) {
  const [open] = await db
    .select()
    .from(jackpotIssues)
    .where(and(eq(jackpotIssues.betTypeId, bt.id), eq(jackpotIssues.settleStatus, JACKPOT_SETTLE_STATUS.unsettled), sql`${jackpotIssues.betCloseAt} > now()`, inArray(jackpotIssues.betStatus, [JACKPOT_BET_STATUS.open, JACKPOT_BET_STATUS.suspended])))
    .orderBy(desc(jackpotIssues.id))
    .limit(1);
  if (open) return open;
  const [last] = await db.select({ createdAt: jackpotIssues.createdAt, startTime: jackpotIssues.startTime }).from(jackpotIssues).where(eq(jackpotIssues.betTypeId, bt.id)).orderBy(desc(jackpotIssues.id)).limit(1);
  // Backfilled issues start in the past: they do not hold today's issue back.
  if (last && last.startTime.getTime() > Date.now() - 24 * HOUR && last.createdAt.getTime() > Date.now() - 20 * HOUR) return null;
  const matches = await upcomingMatches(db, { from: new Date(Date.now() + 30 * 60_000), limit: 13 });
  if (matches.length < 13) return null;
  return db.transaction(async (tx) => {
    const issue = await createIssue(tx, { betTypeId: bt.id, identifierPrefix: PREFIX, startTime: matches[0].startTime });
    await setIssueMatches(tx, issue.id, matches.map((m) => m.eventId));
    return openBets(tx, issue.id);
  });
}

/** Issues whose bets have closed: results from the feed; settled once all 13 are known. */
async function settleFinished(ctx: Pick<AppContext, 'db' | 'jobs'>) {
  const { db } = ctx;
  const due = await db
    .select({ id: jackpotIssues.id })
    .from(jackpotIssues)
    .where(and(eq(jackpotIssues.settleStatus, JACKPOT_SETTLE_STATUS.unsettled), sql`${jackpotIssues.betCloseAt} <= now()`));
  for (const { id } of due) {
    const matches = await db.transaction((tx) => refreshFeedResults(tx, id));
    if (matches.length !== 13) continue;
    // A match the sandbox will never finish (a previous run's): cancelled, as an operator would record it.
    const stale = matches.filter((m) => m.result === null && m.startTime.getTime() < Date.now() - 6 * HOUR);
    for (const m of stale) {
      await db
        .update(jackpotIssueMatches)
        .set({ result: 3, resultSource: 'operator', overrideReason: 'No result from the sandbox feed (simulator): counted as cancelled' })
        .where(and(eq(jackpotIssueMatches.issueId, id), eq(jackpotIssueMatches.position, m.position)));
    }
    if (matches.every((m) => m.result !== null) || stale.length === matches.filter((m) => m.result === null).length) await settle(ctx, id);
  }
}

/** One to three tickets on the open issue; now and then a share or a copy. */
async function buyTickets(ctx: Pick<AppContext, 'db'>, rng: Rng, issue: typeof jackpotIssues.$inferSelect, bt: typeof jackpotBetTypes.$inferSelect) {
  const { db } = ctx;
  if (issue.betStatus !== JACKPOT_BET_STATUS.open) return;
  if (issue.tickets >= TICKETS_PER_ISSUE) return;
  const matches = await db.select().from(jackpotIssueMatches).where(eq(jackpotIssueMatches.issueId, issue.id)).orderBy(asc(jackpotIssueMatches.position));
  if (matches.length !== 13) return;
  // The favourite: the lowest 1X2 price now (home when unknown).
  const prices = await db.execute(sql`SELECT event_id, outcome_id, price::float8 AS price FROM feed_outcomes
    WHERE market_key = '1|' AND event_id IN (${sql.join(matches.map((m) => sql`${m.eventId}`), sql`, `)})`);
  const best = new Map<string, { outcome: number; price: number }>();
  for (const r of (prices as unknown as { rows: { event_id: string; outcome_id: string; price: number | null }[] }).rows) {
    if (r.price === null) continue;
    const cur = best.get(r.event_id);
    if (!cur || r.price < cur.price) best.set(r.event_id, { outcome: Number(r.outcome_id) - 1, price: r.price });
  }
  const favourite = (i: number) => best.get(matches[i].eventId)?.outcome ?? 0;
  const n = rng.int(1, 3);
  for (let k = 0; k < n; k++) await place(ctx, issue.id, picksFor(rng, favourite, 0.6, bt.maxDoubles, bt.maxTriples), bt.betAmount);
  try {
    if (rng.next() < 0.12) {
      const [t] = await db.select({ id: jackpotTickets.id }).from(jackpotTickets).where(and(eq(jackpotTickets.issueId, issue.id), eq(jackpotTickets.status, JACKPOT_TICKET_STATUS.open))).orderBy(sql`random()`).limit(1);
      if (t) await shareTicket(db, t.id);
    }
    if (rng.next() < 0.2) {
      const [s] = await db
        .select({ code: jackpotShares.code, bettorId: jackpotShares.bettorId, stake: jackpotTickets.stake })
        .from(jackpotShares)
        .innerJoin(jackpotTickets, eq(jackpotTickets.id, jackpotShares.ticketId))
        .where(eq(jackpotTickets.issueId, issue.id))
        .orderBy(sql`random()`)
        .limit(1);
      const b = s ? await someBettor(db, s.stake, s.bettorId) : null;
      if (s && b) await db.transaction((tx) => copyShare(tx, s.code, b.id));
    }
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
  }
}

/** One jackpot step of the simulator (see the file comment). */
export async function simulateJackpot(ctx: Pick<AppContext, 'db' | 'jobs'>, rng: Rng): Promise<void> {
  ranOnce = true;
  const { db } = ctx;
  const bt = await ensureBetType(db);
  const [any] = await db.select({ id: jackpotIssues.id }).from(jackpotIssues).limit(1);
  if (!any) await backfill(ctx, rng, bt);
  await settleFinished(ctx);
  // An issue the odds watch suspended is re-opened after a while (an operator looked and found nothing).
  const [suspended] = await db
    .select({ id: jackpotIssues.id })
    .from(jackpotIssues)
    .where(and(eq(jackpotIssues.betStatus, JACKPOT_BET_STATUS.suspended), eq(jackpotIssues.settleStatus, JACKPOT_SETTLE_STATUS.unsettled), sql`${jackpotIssues.betCloseAt} > now()`, sql`${jackpotIssues.updatedAt} < now() - interval '15 minutes'`))
    .limit(1);
  if (suspended) await db.transaction((tx) => setBetStatus(tx, suspended.id, JACKPOT_BET_STATUS.open)).catch((e) => {
    if (!(e instanceof AppError)) throw e;
  });
  const issue = await ensureOpenIssue(db, bt);
  if (issue) await buyTickets(ctx, rng, issue, bt);
}
