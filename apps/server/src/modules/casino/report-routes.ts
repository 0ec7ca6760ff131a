/**
 * Routes of the casino reports (./reports.ts) and the RTP chart (./rtp-watch.ts):
 *
 * - GET /api/v1/casino/reports/games (casino_game) and /reports/bettors (casino_user): the lists, scoped,
 *   filtered, sorted, paged; exported through POST /api/v1/system/async_operations {type: 'casino_game' |
 *   'casino_user', params: the same filters} with the page's `export` button;
 * - GET /api/v1/casino/reports/games/totals and /reports/bettors/totals: the totals line over the same filters;
 * - GET /api/v1/casino/games/:id/rtp (casino_game): the series of RTP checks of a game (actual RTP and the
 *   band's low and high) for the chart. A game's RTP is the health of the game itself, read over every
 *   round whatever the branch (it shows no bettor's data), so it is not narrowed to the admin's branch.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, desc, eq } from 'drizzle-orm';
import { answerRow, dateTime } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { notFound } from '../../platform/errors.js';
import { parseListQuery, registerList, scopeOf, withinDates } from '../../platform/listing.js';
import { casinoGames, casinoRtpChecks, casinoSettings } from './schema.js';
import { casinoTotals, gameReport, reportFilters, reportTotals, userReport, type ReportFilters } from './reports.js';
import { DEFAULT_CONFIDENCE_BPS, defineRtpWatchJob } from './rtp-watch.js';

const gameParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const rtpQuery = z.object({
  checked_from: dateTime().optional(),
  checked_to: dateTime().optional(),
  /** The newest checks, at most this many (default 500), answered oldest first. */
  limit: z.coerce.number().int().min(1).max(5000).optional(),
});

export const rtpPoint = answerRow({
  checked_at: 'string', rounds: 'number', turnover: 'number', payouts: 'number', actual_bps: 'number', low_bps: 'number', high_bps: 'number', inside: 'boolean',
});
export const rtpSeriesAnswer = z.object({
  game: answerRow({ id: 'number', name: 'string', game_code: 'string', provider_id: 'number', rtp_bps: 'number', volatility: 'number', enabled: 'boolean' }),
  /** The latest check's verdict; null before the first check. */
  inside: z.boolean().nullable(),
  /** The band's confidence now (casino settings; bps, 9990 = 99.9 %). */
  confidence_bps: z.number().int(),
  points: z.array(rtpPoint),
});

export function casinoReportRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  registerList(app, db, gameReport);
  registerList(app, db, userReport);
  defineRtpWatchJob(ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  for (const [spec, what] of [[gameReport, 'games'], [userReport, 'bettors']] as const) {
    r.get(
      `${spec.path}/totals`,
      {
        config: { access: { page: spec.page } },
        schema: { tags: [spec.page], summary: `Totals of the casino ${what} report over the same filters, in the caller's branch`, querystring: reportFilters, response: { 200: reportTotals } },
      },
      async (req) => {
        const q = parseListQuery(spec, req.query) as ReportFilters;
        return casinoTotals(db, q, await scopeOf(db, authOf(req)));
      },
    );
  }

  r.get(
    '/api/v1/casino/games/:id/rtp',
    {
      config: { access: { page: 'casino_game' } },
      schema: {
        tags: ['casino_game'], summary: "A game's RTP checks for the chart: actual RTP against the confidence band (low, high), oldest first",
        params: gameParams, querystring: rtpQuery, response: { 200: rtpSeriesAnswer },
      },
    },
    async (req) => {
      const [game] = await db.select().from(casinoGames).where(eq(casinoGames.id, req.params.id));
      if (!game) throw notFound();
      const q = req.query;
      const c = casinoRtpChecks;
      const rows = await db
        .select()
        .from(c)
        .where(and(eq(c.gameId, game.id), withinDates(c.checkedAt, q.checked_from, q.checked_to)))
        .orderBy(desc(c.checkedAt), desc(c.id))
        .limit(q.limit ?? 500);
      rows.reverse();
      const [latest] = await db.select({ inside: c.inside }).from(c).where(eq(c.gameId, game.id)).orderBy(desc(c.checkedAt), desc(c.id)).limit(1);
      const [settings] = await db.select({ confidence: casinoSettings.rtpAlertConfidence }).from(casinoSettings).limit(1);
      return {
        confidence_bps: settings?.confidence ?? DEFAULT_CONFIDENCE_BPS,
        game: { id: game.id, name: game.name, game_code: game.gameCode, provider_id: game.providerId, rtp_bps: game.rtpBps, volatility: game.volatility, enabled: game.enabled },
        inside: latest ? latest.inside : null,
        points: rows.map((x) => ({
          checked_at: x.checkedAt.toISOString(), rounds: x.rounds, turnover: x.turnover, payouts: x.payouts, actual_bps: x.actualBps,
          low_bps: x.lowBps, high_bps: x.highBps, inside: x.inside,
        })),
      };
    },
  );
}
