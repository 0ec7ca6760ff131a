/**
 * Casino revenue reports (issue 13, spec §2 casino_game and casino_user), read as SQL aggregates of
 * `casino_rounds` (one row per round, its bet and win totals kept by the wallet):
 *
 * - casino_game: per game (and so per provider) over a period: rounds, players (distinct bettors),
 *   turnover (Σ bet_total), payouts (Σ win_total), GGR = turnover − payouts, actual RTP = payouts /
 *   turnover next to the game's theoretical RTP;
 * - casino_user: per bettor: rounds, games played, turnover, payouts, GGR, last played.
 *
 * Definitions: a round counts in the period of its start (`created_at`, from inclusive, to exclusive);
 * rolled-back rounds (status 3) are left out (their bets were given back); open rounds count with what
 * they have moved so far. RTP in basis points, rounded to the nearest, null without turnover.
 *
 * Both are lists (platform/listing.ts) scoped to the admin's branch through the round's agent, filtered
 * by period, provider, game and the bettor's phone, sortable by every figure, and registered for the
 * background exports (`type` casino_game / casino_user, needing `casino_game:export` / `casino_user:export`).
 * A read goes through the (created_at), (game_id, created_at), (bettor_id, created_at) and
 * (agent_id, created_at) indexes of casino_rounds; the grouping is over the period's rounds only.
 */
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { answerRow, queryId } from '@dau/contract';
import { CASINO_ROUND_STATUS } from '@dau/domain';
import type { Executor } from '../../platform/db.js';
import { defineList, isoDate, optionalText, scopeCondition, withinDates, type Scope } from '../../platform/listing.js';
import { bettors, ofBettorPhone } from '../money/index.js';
import { casinoGames, casinoProviders, casinoRounds } from './schema.js';

/** A round whose bets were all given back. */
const ROUND_ROLLED_BACK = CASINO_ROUND_STATUS.rolled_back;

export const reportFilters = z.object({
  created_at_from: isoDate,
  created_at_to: isoDate,
  provider_id: queryId().optional(),
  game_id: queryId().optional(),
  phone: optionalText,
});
export type ReportFilters = z.infer<typeof reportFilters>;

/** The rounds a report reads: the period, the filters, the admin's branch; never rolled-back rounds. */
export function reportWhere(q: ReportFilters, scope: Scope): SQL | undefined {
  const r = casinoRounds;
  return and(
    ne(r.status, ROUND_ROLLED_BACK),
    withinDates(r.createdAt, q.created_at_from, q.created_at_to),
    scopeCondition(scope, r.agentId),
    q.provider_id ? eq(r.providerId, q.provider_id) : undefined,
    q.game_id ? eq(r.gameId, q.game_id) : undefined,
    q.phone ? ofBettorPhone(r.bettorId, q.phone) : undefined,
  );
}

const turnover = sql<string>`coalesce(sum(${casinoRounds.betTotal}), 0)::bigint`;
const payouts = sql<string>`coalesce(sum(${casinoRounds.winTotal}), 0)::bigint`;
const ggr = sql<string>`coalesce(sum(${casinoRounds.betTotal} - ${casinoRounds.winTotal}), 0)::bigint`;
const rounds = sql<string>`count(*)::bigint`;
/** Sort key of the actual RTP (rounds without turnover last when descending: NULL sorts first in DESC, so 0). */
const rtpSort = sql`coalesce(sum(${casinoRounds.winTotal})::numeric / nullif(sum(${casinoRounds.betTotal}), 0), 0)`;

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/** Actual RTP in bps (payouts / turnover), rounded to the nearest; null without turnover. */
export const rtpBpsOf = (turnoverCents: number, payoutCents: number): number | null =>
  turnoverCents > 0 ? Math.round((payoutCents * 10_000) / turnoverCents) : null;

/**
 * A grouped select shaped as the list layer expects: `.where(w)` gives the builder the layer goes on
 * with (`orderBy`, `limit`, `offset`, `as`): the conditions apply to the rounds before they are grouped.
 */
const grouped = <T>(build: (ex: Executor, where: SQL | undefined) => T) => (ex: Executor) => ({ where: (w: SQL | undefined) => build(ex, w) });

// ------------------------------------------------------------------------------------------ casino_game

export const gameReportRow = answerRow({
  id: 'number', game_id: 'number', game_name: 'string', game_code: 'string', kind: 'string', provider_id: 'number', provider_code: 'string',
  provider_name: 'string', rounds: 'number', players: 'number', turnover: 'number', payouts: 'number', ggr: 'number',
  actual_rtp_bps: 'number?', theoretical_rtp_bps: 'number',
});
export type GameReportRow = z.infer<typeof gameReportRow>;

const selectGames = grouped((ex, where) =>
  ex
    .select({
      gameId: casinoGames.id, gameName: casinoGames.name, gameCode: casinoGames.gameCode, kind: casinoGames.kind, rtpBps: casinoGames.rtpBps,
      providerId: casinoProviders.id, providerCode: casinoProviders.code, providerName: casinoProviders.name,
      rounds, players: sql<string>`count(distinct ${casinoRounds.bettorId})::bigint`, turnover, payouts,
    })
    .from(casinoRounds)
    .innerJoin(casinoGames, eq(casinoGames.id, casinoRounds.gameId))
    .innerJoin(casinoProviders, eq(casinoProviders.id, casinoGames.providerId))
    .where(where)
    .groupBy(casinoGames.id, casinoProviders.id),
);

export function toGameRow(r: {
  gameId: number; gameName: string; gameCode: string; kind: string; rtpBps: number; providerId: number; providerCode: string; providerName: string;
  rounds: unknown; players: unknown; turnover: unknown; payouts: unknown;
}): GameReportRow {
  const t = num(r.turnover);
  const p = num(r.payouts);
  return {
    id: r.gameId, game_id: r.gameId, game_name: r.gameName, game_code: r.gameCode, kind: r.kind, provider_id: r.providerId,
    provider_code: r.providerCode, provider_name: r.providerName, rounds: num(r.rounds), players: num(r.players), turnover: t, payouts: p,
    ggr: t - p, actual_rtp_bps: rtpBpsOf(t, p), theoretical_rtp_bps: r.rtpBps,
  };
}

export const gameReport = defineList({
  name: 'casino_game',
  page: 'casino_game',
  path: '/api/v1/casino/reports/games',
  summary: 'Casino revenue per game and provider over a period (rounds, players, turnover, payouts, GGR, actual and theoretical RTP)',
  filters: reportFilters,
  where: reportWhere,
  select: selectGames,
  idColumn: casinoGames.id,
  sortable: {
    id: casinoGames.id, game_name: casinoGames.name, provider_name: casinoProviders.name, rounds, players: sql`count(distinct ${casinoRounds.bettorId})`,
    turnover, payouts, ggr, actual_rtp_bps: rtpSort, theoretical_rtp_bps: casinoGames.rtpBps,
  },
  defaultSort: '-turnover',
  toRow: toGameRow,
  row: gameReportRow,
  columns: [
    { key: 'provider_name' }, { key: 'game_code' }, { key: 'game_name' }, { key: 'rounds' }, { key: 'players' }, { key: 'turnover', money: true },
    { key: 'payouts', money: true }, { key: 'ggr', money: true }, { key: 'actual_rtp_bps' }, { key: 'theoretical_rtp_bps' },
  ],
});

// ------------------------------------------------------------------------------------------ casino_user

export const userReportRow = answerRow({
  id: 'number', bettor_id: 'number', phone: 'string', user_name: 'string', agent_id: 'number', rounds: 'number', games: 'number', turnover: 'number',
  payouts: 'number', ggr: 'number', actual_rtp_bps: 'number?', last_played: 'string',
});
export type UserReportRow = z.infer<typeof userReportRow>;

const lastPlayed = sql<Date | string>`max(${casinoRounds.createdAt})`;

const selectUsers = grouped((ex, where) =>
  ex
    .select({
      bettorId: bettors.id, phone: bettors.phone, name: bettors.name, agentId: bettors.agentId, rounds,
      games: sql<string>`count(distinct ${casinoRounds.gameId})::bigint`, turnover, payouts, lastPlayed,
    })
    .from(casinoRounds)
    .innerJoin(bettors, eq(bettors.id, casinoRounds.bettorId))
    .where(where)
    .groupBy(bettors.id, bettors.phone, bettors.name, bettors.agentId),
);

export function toUserRow(r: {
  bettorId: number; phone: string; name: string; agentId: number; rounds: unknown; games: unknown; turnover: unknown; payouts: unknown; lastPlayed: Date | string;
}): UserReportRow {
  const t = num(r.turnover);
  const p = num(r.payouts);
  return {
    id: r.bettorId, bettor_id: r.bettorId, phone: r.phone, user_name: r.name, agent_id: r.agentId, rounds: num(r.rounds), games: num(r.games),
    turnover: t, payouts: p, ggr: t - p, actual_rtp_bps: rtpBpsOf(t, p),
    last_played: (r.lastPlayed instanceof Date ? r.lastPlayed : new Date(r.lastPlayed)).toISOString(),
  };
}

export const userReport = defineList({
  name: 'casino_user',
  page: 'casino_user',
  path: '/api/v1/casino/reports/bettors',
  summary: 'Casino figures per bettor over a period (rounds, games, turnover, payouts, GGR, last played)',
  filters: reportFilters,
  where: reportWhere,
  select: selectUsers,
  idColumn: bettors.id,
  sortable: { id: bettors.id, phone: bettors.phone, rounds, games: sql`count(distinct ${casinoRounds.gameId})`, turnover, payouts, ggr, actual_rtp_bps: rtpSort, last_played: lastPlayed },
  defaultSort: '-turnover',
  toRow: toUserRow,
  row: userReportRow,
  columns: [
    { key: 'phone' }, { key: 'user_name' }, { key: 'rounds' }, { key: 'games' }, { key: 'turnover', money: true }, { key: 'payouts', money: true },
    { key: 'ggr', money: true }, { key: 'actual_rtp_bps' }, { key: 'last_played' },
  ],
});

// ------------------------------------------------------------------------------------------- totals

export const reportTotals = answerRow({ rounds: 'number', players: 'number', games: 'number', turnover: 'number', payouts: 'number', ggr: 'number', actual_rtp_bps: 'number?' });
export type ReportTotals = z.infer<typeof reportTotals>;

/** The totals line of both reports over the same filters and scope (one aggregate, no grouping). */
export async function casinoTotals(ex: Executor, q: ReportFilters, scope: Scope): Promise<ReportTotals> {
  const [row] = await ex
    .select({
      rounds, players: sql<string>`count(distinct ${casinoRounds.bettorId})::bigint`, games: sql<string>`count(distinct ${casinoRounds.gameId})::bigint`,
      turnover, payouts,
    })
    .from(casinoRounds)
    .where(reportWhere(q, scope));
  const t = num(row?.turnover);
  const p = num(row?.payouts);
  return { rounds: num(row?.rounds), players: num(row?.players), games: num(row?.games), turnover: t, payouts: p, ggr: t - p, actual_rtp_bps: rtpBpsOf(t, p) };
}
