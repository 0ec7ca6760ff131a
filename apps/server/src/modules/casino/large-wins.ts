/**
 * Large wins (issue 22): the wallet pays what the provider says (aggregators require it), so a win that is
 * out of proportion is caught after the fact and put in front of a person:
 *  - a round whose wins exceed its bets times its game's `large_win_multiple` (default 5,000×), or reach the
 *    casino settings' `large_win_amount`, is a large win;
 *  - a periodic job reads casino_rounds in id order from its cursor (the primary key: no index added to the
 *    wallet's hot table); it stops at the first round still open and younger than OPEN_GRACE_MS, so a win
 *    that arrives after the bet is still seen; a round found is inserted once (its id is the key) and a
 *    notice goes to the super admins and the casino_game holders in the same transaction;
 *  - GET /casino/large_wins lists them (scoped to the admin's branch) and POST …/:round_id/review records
 *    who looked at it and what they concluded.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { aliasedTable, and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { casinoLargeWinFilters, casinoLargeWinParams, casinoLargeWinReview, casinoLargeWinRow } from '@dau/contract';
import { CASINO_ROUND_STATUS, LOG_TYPE, formatAmount } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { admins } from '../../platform/schema.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { defineList, registerList, scopeCondition, scopeOf, withinDates, type Scope } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { bettors } from '../money/index.js';
import { createNotices, publishNotices, type NoticeEvent } from '../notices/index.js';
import { casinoGames, casinoLargeWinCursor, casinoLargeWins, casinoRounds, casinoSettings } from './schema.js';
import { rtpListeners } from './rtp-watch.js';

export const LARGE_WIN_JOB = 'casino.large-wins';
const LARGE_WIN_SECONDS = 10;
/** Rounds read per run of the watch. */
const BATCH = 5_000;
/** An open round younger than this may still get its win: the watch waits for it. */
export const OPEN_GRACE_MS = 10 * 60_000;

export interface LargeWinFound {
  roundId: number;
  reason: 'multiple' | 'amount';
}

function noticeText(r: { roundRef: string; betTotal: number; winTotal: number; game: string; bettorId: number }, reason: 'multiple' | 'amount') {
  const why = reason === 'multiple' ? 'multiple' : 'amount';
  const bet = formatAmount(r.betTotal);
  const win = formatAmount(r.winTotal);
  return [
    `Casino large win (${why}): bettor #${r.bettorId} won TSh ${win} on ${r.game}, round ${r.roundRef}, for bets of TSh ${bet}. It was paid; review it under Casino › Large wins.`,
    `Ushindi mkubwa wa kasino (${why === 'multiple' ? 'kizidishi' : 'kiasi'}): mchezaji #${r.bettorId} ameshinda TSh ${win} kwenye ${r.game}, mzunguko ${r.roundRef}, kwa dau la TSh ${bet}. Umelipwa; ukague kwenye Kasino › Ushindi mkubwa.`,
    `娱乐场大额赢奖（${why === 'multiple' ? '倍数' : '金额'}）：玩家 #${r.bettorId} 在 ${r.game}（局号 ${r.roundRef}）以 TSh ${bet} 的投注赢得 TSh ${win}。已派彩；请在 娱乐场 › 大额赢奖 中复核。`,
  ].join('\n');
}

/** One run of the watch: reads rounds after the cursor, records the large wins, moves the cursor. */
export async function watchLargeWins(ctx: Pick<AppContext, 'db' | 'bus'>, now = new Date()): Promise<LargeWinFound[]> {
  const found: LargeWinFound[] = [];
  let events: NoticeEvent[] = [];
  await ctx.db.transaction(async (tx) => {
    await tx.insert(casinoLargeWinCursor).values({ id: 1, lastRoundId: 0 }).onConflictDoNothing();
    // One run at a time, whatever the processes: the cursor row is locked for the run.
    const [cursor] = await tx.select().from(casinoLargeWinCursor).where(eq(casinoLargeWinCursor.id, 1)).for('update');
    const [settings] = await tx.select({ amount: casinoSettings.largeWinAmount }).from(casinoSettings).where(eq(casinoSettings.id, 1));
    const amount = settings?.amount ?? 0;
    const rows = await tx
      .select({
        id: casinoRounds.id, roundRef: casinoRounds.roundRef, providerId: casinoRounds.providerId, gameId: casinoRounds.gameId, bettorId: casinoRounds.bettorId,
        agentId: casinoRounds.agentId, betTotal: casinoRounds.betTotal, winTotal: casinoRounds.winTotal, status: casinoRounds.status, createdAt: casinoRounds.createdAt,
        multiple: casinoGames.largeWinMultiple, game: casinoGames.name,
      })
      .from(casinoRounds)
      .leftJoin(casinoGames, eq(casinoGames.id, casinoRounds.gameId))
      .where(gt(casinoRounds.id, cursor!.lastRoundId))
      .orderBy(asc(casinoRounds.id))
      .limit(BATCH);
    let last = cursor!.lastRoundId;
    const listeners: number[] = [];
    for (const r of rows) {
      if (r.status === CASINO_ROUND_STATUS.open && now.getTime() - r.createdAt.getTime() < OPEN_GRACE_MS) break;
      last = r.id;
      if (r.status === CASINO_ROUND_STATUS.rolled_back || r.winTotal <= 0) continue;
      const multiple = r.multiple ?? 5000;
      const reason = r.winTotal > r.betTotal * multiple ? 'multiple' : amount > 0 && r.winTotal >= amount ? 'amount' : null;
      if (!reason) continue;
      const inserted = await tx
        .insert(casinoLargeWins)
        .values({ roundId: r.id, providerId: r.providerId, gameId: r.gameId, bettorId: r.bettorId, agentId: r.agentId, betTotal: r.betTotal, winTotal: r.winTotal, reason })
        .onConflictDoNothing()
        .returning({ roundId: casinoLargeWins.roundId });
      if (!inserted.length) continue;
      found.push({ roundId: r.id, reason });
      if (!listeners.length) listeners.push(...(await rtpListeners(tx)));
      events = events.concat(await createNotices(tx, listeners, noticeText({ ...r, game: r.game ?? `#${r.gameId}` }, reason)));
    }
    if (last !== cursor!.lastRoundId) await tx.update(casinoLargeWinCursor).set({ lastRoundId: last }).where(eq(casinoLargeWinCursor.id, 1));
  });
  await publishNotices(ctx.bus, events);
  return found;
}

export function defineLargeWinJob(ctx: AppContext) {
  ctx.jobs.every(LARGE_WIN_JOB, LARGE_WIN_SECONDS, async () => void (await watchLargeWins(ctx)));
}

/** Records a review of a large win (once: a reviewed one answers null). */
export async function reviewLargeWin(ex: Executor, roundId: number, adminId: number, note: string) {
  const [row] = await ex
    .update(casinoLargeWins)
    .set({ reviewedBy: adminId, reviewedAt: new Date(), reviewNote: note })
    .where(and(eq(casinoLargeWins.roundId, roundId), sql`${casinoLargeWins.reviewedAt} is null`))
    .returning();
  return row ?? null;
}

// ------------------------------------------------------------------------------------------------ routes

const reviewers = aliasedTable(admins, 'large_win_reviewer');
type LargeWinFilters = z.infer<typeof casinoLargeWinFilters>;

const selectLargeWins = (ex: Executor) =>
  ex
    .select({ w: casinoLargeWins, roundRef: casinoRounds.roundRef, game: casinoGames.name, phone: bettors.phone, reviewer: reviewers.account })
    .from(casinoLargeWins)
    .leftJoin(casinoRounds, eq(casinoRounds.id, casinoLargeWins.roundId))
    .leftJoin(casinoGames, eq(casinoGames.id, casinoLargeWins.gameId))
    .leftJoin(bettors, eq(bettors.id, casinoLargeWins.bettorId))
    .leftJoin(reviewers, eq(reviewers.id, casinoLargeWins.reviewedBy));

type LargeWinSelect = { w: typeof casinoLargeWins.$inferSelect; roundRef: string | null; game: string | null; phone: string | null; reviewer: string | null };

const toLargeWinRow = (r: LargeWinSelect) => ({
  round_id: r.w.roundId, round_ref: r.roundRef, game_id: r.w.gameId, game_name: r.game, bettor_id: r.w.bettorId, phone: r.phone,
  bet_total: r.w.betTotal, win_total: r.w.winTotal, reason: r.w.reason, created_at: r.w.createdAt.toISOString(),
  reviewed: r.w.reviewedAt ? 'yes' : 'no', reviewed_account: r.reviewer, reviewed_at: r.w.reviewedAt?.toISOString() ?? null, review_note: r.w.reviewNote,
});

function largeWinWhere(q: LargeWinFilters, scope: Scope): SQL | undefined {
  return and(
    scopeCondition(scope, casinoLargeWins.agentId),
    q.game_id ? eq(casinoLargeWins.gameId, q.game_id) : undefined,
    q.bettor_id ? eq(casinoLargeWins.bettorId, q.bettor_id) : undefined,
    q.reason ? eq(casinoLargeWins.reason, q.reason) : undefined,
    q.reviewed === 'yes' ? sql`${casinoLargeWins.reviewedAt} is not null` : q.reviewed === 'no' ? sql`${casinoLargeWins.reviewedAt} is null` : undefined,
    withinDates(casinoLargeWins.createdAt, q.created_at_from, q.created_at_to),
  );
}

export const LARGE_WIN_LIST = defineList({
  name: 'casino_large_win', page: 'casino_large_win', path: '/api/v1/casino/large_wins', filters: casinoLargeWinFilters, where: largeWinWhere,
  select: selectLargeWins, idColumn: casinoLargeWins.roundId, summary: 'List the large wins of my branch (paid, for review), filtered, sorted and paged',
  sortable: { round_id: casinoLargeWins.roundId, created_at: casinoLargeWins.createdAt, bet_total: casinoLargeWins.betTotal, win_total: casinoLargeWins.winTotal },
  defaultSort: '-round_id', toRow: toLargeWinRow, row: casinoLargeWinRow,
  columns: [
    { key: 'round_id' }, { key: 'round_ref' }, { key: 'created_at' }, { key: 'game_name' }, { key: 'bettor_id' }, { key: 'phone' }, { key: 'bet_total', money: true },
    { key: 'win_total', money: true }, { key: 'reason' }, { key: 'reviewed' }, { key: 'reviewed_account' }, { key: 'reviewed_at' }, { key: 'review_note' },
  ],
});

export function largeWinRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  defineLargeWinJob(ctx);
  registerList(app, db, LARGE_WIN_LIST);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v1/casino/large_wins/:round_id/review',
    {
      config: { access: { page: 'casino_large_win', button: 'review' } },
      schema: { tags: ['casino_large_win'], summary: 'Record the review of a large win of my branch (once)', params: casinoLargeWinParams, body: casinoLargeWinReview, response: { 200: casinoLargeWinRow } },
    },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      const [found] = await db.select({ agentId: casinoLargeWins.agentId, reviewedAt: casinoLargeWins.reviewedAt }).from(casinoLargeWins).where(eq(casinoLargeWins.roundId, req.params.round_id));
      if (!found) throw notFound();
      if (!agentInScope(scope, found.agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
      await db.transaction(async (tx) => {
        const done = await reviewLargeWin(tx, req.params.round_id, authOf(req).admin.id, req.body.note);
        if (!done) throw new AppError(409, 'CASINO_LARGE_WIN_REVIEWED');
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Reviewed casino large win of round #${req.params.round_id}`, after: { note: req.body.note } });
      });
      const [row] = await selectLargeWins(db).where(eq(casinoLargeWins.roundId, req.params.round_id));
      return toLargeWinRow(row as LargeWinSelect);
    },
  );
}
