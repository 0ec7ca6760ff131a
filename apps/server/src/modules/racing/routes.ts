/**
 * Virtual racing for operators (issue 13; its own menu group `racing` since issue 23,
 * packages/contract/src/menu.ts; shapes in packages/contract/src/racing-api.ts):
 *
 * - GET /api/v1/racing/races (racing_race): the provider's races (schedule, runners and odds, status,
 *   finishing order); the races are the provider's, not a branch's; export type racing_race
 *   (racing_race:export). GET /racing/races/:id adds each runner's place and the bets on it in the branch;
 * - GET /api/v1/racing/bets (racing_order): bets, scoped to the admin's branch (the bettor's agent),
 *   filtered by race, bettor, phone, status, time; export type racing_bet (racing_order:export);
 *   GET /racing/bets/:id (racing_order:detail): the bet with its race, in the branch;
 * - GET /api/v1/racing/coin_moves (racing_coin): coin conversions (bills 15 and 16), scoped; export type
 *   racing_coin_move (racing_coin:export);
 * - GET/PUT /api/v1/racing/settings (racing_config, edit): racing on/off and the coin rate, audited; a change
 *   of the rate waits for a second whole-book admin;
 * - GET /api/v1/racing/statistics (racing_statistics): racing turnover, payouts, GGR over a period, scoped.
 *
 * The bettor's side (bills 13–16) shows in the bill lists through the ledger.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { LOG_TYPE } from '@dau/domain';
import {
  racingBetDetail, racingBetParams, racingBetRow, racingCoinMoveRow, racingRaceDetail, racingRaceParams, racingRaceRow, racingSettingsAnswer,
  racingSettingsBody, racingStatsAnswer, racingStatsQuery, type RacingStatsAnswer,
} from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { writeAudit } from '../../platform/audit.js';
import { defineList, isoDate, optionalInt, optionalText, registerList, scopeCondition, scopeOf, withinDates, type Scope } from '../../platform/listing.js';
import { authOf } from '../../platform/access.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { bettors, ofBettor } from '../money/index.js';
import { racingBets, racingCoinMoves, racingRaces, racingSettings, type RacingRunner } from './schema.js';
import { COIN_DIRECTION, RACING_BET_STATUS, racingSettingsOf } from './service.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ------------------------------------------------------------------------------------------------ races

const raceFilters = z.object({ status: z.coerce.number().int().min(1).max(4).optional(), race_ref: optionalText, starts_at_from: isoDate, starts_at_to: isoDate });
type RaceFilters = z.infer<typeof raceFilters>;

const toRaceRow = (r: typeof racingRaces.$inferSelect) => ({
  id: r.id, race_ref: r.raceRef, starts_at: r.startsAt.toISOString(), status: r.status, runners: r.runners, result: r.result ?? null,
  winner: r.result?.[0] ?? null, updated_at: r.updatedAt.toISOString(),
});

export const raceList = defineList({
  name: 'racing_race',
  page: 'racing_race',
  path: '/api/v1/racing/races',
  summary: "Virtual races from the racing provider: start, runners with odds, status (1 open, 2 running, 3 finished, 4 cancelled), finishing order",
  filters: raceFilters,
  where: (q: RaceFilters, _scope: Scope): SQL | undefined =>
    and(
      q.status ? eq(racingRaces.status, q.status) : undefined,
      q.race_ref ? eq(racingRaces.raceRef, q.race_ref) : undefined,
      withinDates(racingRaces.startsAt, q.starts_at_from, q.starts_at_to),
    ),
  select: (ex: Executor) => ex.select().from(racingRaces),
  idColumn: racingRaces.id,
  sortable: { id: racingRaces.id, starts_at: racingRaces.startsAt, status: racingRaces.status },
  defaultSort: '-starts_at',
  toRow: toRaceRow,
  row: racingRaceRow,
  columns: [{ key: 'id' }, { key: 'race_ref' }, { key: 'starts_at' }, { key: 'status', enum: 'racing_race_status' }, { key: 'winner' }],
});

// ------------------------------------------------------------------------------------------------- bets

const betFilters = z.object({
  /** One bet (a bill's source links here). */
  id: optionalInt,
  race_id: optionalInt,
  bettor_id: optionalInt,
  phone: optionalText,
  status: z.coerce.number().int().min(1).max(4).optional(),
  created_at_from: isoDate,
  created_at_to: isoDate,
});
type BetFilters = z.infer<typeof betFilters>;

type BetJoin = { bet: typeof racingBets.$inferSelect; phone: string; name: string; raceRef: string; startsAt: Date; runners: RacingRunner[] };

export const selectBets = (ex: Executor) =>
  ex
    .select({ bet: racingBets, phone: bettors.phone, name: bettors.name, raceRef: racingRaces.raceRef, startsAt: racingRaces.startsAt, runners: racingRaces.runners })
    .from(racingBets)
    .innerJoin(bettors, eq(bettors.id, racingBets.bettorId))
    .innerJoin(racingRaces, eq(racingRaces.id, racingBets.raceId));

export const toBetRow = ({ bet, phone, name, raceRef, startsAt, runners }: BetJoin) => ({
  id: bet.id, race_id: bet.raceId, race_ref: raceRef, starts_at: startsAt.toISOString(), bettor_id: bet.bettorId, phone, user_name: name,
  runner: bet.runner, runner_name: runners.find((r) => r.number === bet.runner)?.name ?? '', stake: bet.stake, odds: bet.odds, status: bet.status,
  payout: bet.payout, created_at: bet.createdAt.toISOString(), settled_at: iso(bet.settledAt),
});

export const racingBetList = defineList({
  name: 'racing_bet',
  page: 'racing_order',
  path: '/api/v1/racing/bets',
  summary: 'Virtual racing bets (status 1 open, 2 won, 3 lost, 4 refunded), in the caller’s branch',
  filters: betFilters,
  where: (q: BetFilters, scope: Scope) =>
    and(
      scopeCondition(scope, racingBets.agentId),
      q.id ? eq(racingBets.id, q.id) : undefined,
      q.race_id ? eq(racingBets.raceId, q.race_id) : undefined,
      ofBettor(racingBets.bettorId, q),
      q.status ? eq(racingBets.status, q.status) : undefined,
      withinDates(racingBets.createdAt, q.created_at_from, q.created_at_to),
    ),
  select: selectBets,
  countFrom: (ex: Executor) => ex.select({ id: racingBets.id }).from(racingBets),
  idColumn: racingBets.id,
  sortable: { id: racingBets.id, created_at: racingBets.createdAt, stake: racingBets.stake, payout: racingBets.payout },
  defaultSort: '-id',

  toRow: toBetRow,
  row: racingBetRow,
  columns: [
    { key: 'id' }, { key: 'race_ref' }, { key: 'starts_at' }, { key: 'phone' }, { key: 'user_name' }, { key: 'runner' }, { key: 'runner_name' },
    { key: 'stake', money: true }, { key: 'odds' }, { key: 'status', enum: 'racing_bet_status' }, { key: 'payout', money: true }, { key: 'created_at' },
    { key: 'settled_at' },
  ],
});

// ------------------------------------------------------------------------------------------- coin moves

const moveFilters = z.object({ bettor_id: optionalInt, phone: optionalText, direction: z.coerce.number().int().min(1).max(2).optional(), created_at_from: isoDate, created_at_to: isoDate });
type MoveFilters = z.infer<typeof moveFilters>;

export const coinMoveList = defineList({
  name: 'racing_coin_move',
  page: 'racing_coin',
  path: '/api/v1/racing/coin_moves',
  summary: 'Racing coin conversions: direction 1 balance → coin (bill 15), 2 coin → balance (bill 16), in the caller’s branch',
  filters: moveFilters,
  where: (q: MoveFilters, scope: Scope) =>
    and(
      scopeCondition(scope, bettors.agentId),
      ofBettor(racingCoinMoves.bettorId, q),
      q.direction ? eq(racingCoinMoves.direction, q.direction) : undefined,
      withinDates(racingCoinMoves.createdAt, q.created_at_from, q.created_at_to),
    ),
  select: (ex: Executor) =>
    ex.select({ move: racingCoinMoves, phone: bettors.phone, name: bettors.name }).from(racingCoinMoves).innerJoin(bettors, eq(bettors.id, racingCoinMoves.bettorId)),
  idColumn: racingCoinMoves.id,
  sortable: { id: racingCoinMoves.id, created_at: racingCoinMoves.createdAt, cash: racingCoinMoves.cashCents, coins: racingCoinMoves.coins },
  defaultSort: '-id',

  toRow: ({ move, phone, name }: { move: typeof racingCoinMoves.$inferSelect; phone: string; name: string }) => ({
    id: move.id, bettor_id: move.bettorId, phone, user_name: name, direction: move.direction, cash: move.cashCents, coins: move.coins, bill_id: move.billId,
    created_at: move.createdAt.toISOString(),
  }),
  row: racingCoinMoveRow,
  columns: [
    { key: 'id' }, { key: 'phone' }, { key: 'user_name' }, { key: 'direction', enum: 'racing_coin_direction' }, { key: 'cash', money: true }, { key: 'coins' },
    { key: 'bill_id' }, { key: 'created_at' },
  ],
});

// --------------------------------------------------------------------------------------------- settings

const settingsAnswer = (s: Awaited<ReturnType<typeof racingSettingsOf>>) => ({ enabled: s.enabled, coin_rate_bps: s.coinRateBps, updated_at: s.updatedAt.toISOString() });

// ------------------------------------------------------------------------------------------- statistics

/**
 * Racing figures over [from, to) in the admin's branch, for the statistics screens (the statistics
 * module sums sports only; racing answers its own figures here). Bets count in the period they were
 * placed in.
 */
export async function racingStatistics(ex: Executor, scope: Scope, from: Date, to: Date): Promise<RacingStatsAnswer> {
  const b = racingBets;
  const decided = sql`${b.status} IN (${RACING_BET_STATUS.won}, ${RACING_BET_STATUS.lost})`;
  const [row] = await ex
    .select({
      turnover: sql<string>`coalesce(sum(${b.stake}) FILTER (WHERE ${b.status} <> ${RACING_BET_STATUS.refunded}), 0)::bigint`,
      settled: sql<string>`coalesce(sum(${b.stake}) FILTER (WHERE ${decided}), 0)::bigint`,
      payouts: sql<string>`coalesce(sum(${b.payout}) FILTER (WHERE ${b.status} = ${RACING_BET_STATUS.won}), 0)::bigint`,
      open: sql<string>`coalesce(sum(${b.stake}) FILTER (WHERE ${b.status} = ${RACING_BET_STATUS.open}), 0)::bigint`,
      bets: sql<string>`count(*) FILTER (WHERE ${b.status} <> ${RACING_BET_STATUS.refunded})`,
      bettors: sql<string>`count(DISTINCT ${b.bettorId}) FILTER (WHERE ${b.status} <> ${RACING_BET_STATUS.refunded})`,
    })
    .from(b)
    .where(and(gte(b.createdAt, from), lt(b.createdAt, to), scopeCondition(scope, b.agentId)));
  const m = racingCoinMoves;
  const [coins] = await ex
    .select({
      bought: sql<string>`coalesce(sum(${m.cashCents}) FILTER (WHERE ${m.direction} = ${COIN_DIRECTION.toCoins}), 0)::bigint`,
      sold: sql<string>`coalesce(sum(${m.cashCents}) FILTER (WHERE ${m.direction} = ${COIN_DIRECTION.fromCoins}), 0)::bigint`,
    })
    .from(m)
    .innerJoin(bettors, eq(bettors.id, m.bettorId))
    .where(and(gte(m.createdAt, from), lt(m.createdAt, to), scopeCondition(scope, bettors.agentId)));
  const n = (v: unknown) => Number(v ?? 0);
  const settled = n(row?.settled);
  const payouts = n(row?.payouts);
  return {
    turnover: n(row?.turnover), settled_stake: settled, payouts, ggr: settled - payouts, open_stakes: n(row?.open), bets: n(row?.bets), bettors: n(row?.bettors),
    coins_bought_cash: n(coins?.bought), coins_sold_cash: n(coins?.sold),
  };
}

/** A race with each runner's finishing place and the bets on it in the branch (refunded bets left out). */
async function raceDetail(ex: Executor, scope: Scope, race: typeof racingRaces.$inferSelect) {
  const b = racingBets;
  const rows = await ex
    .select({
      runner: b.runner,
      bets: sql<string>`count(*)`,
      stake: sql<string>`coalesce(sum(${b.stake}), 0)::bigint`,
      payout: sql<string>`coalesce(sum(${b.payout}), 0)::bigint`,
    })
    .from(b)
    .where(and(eq(b.raceId, race.id), sql`${b.status} <> ${RACING_BET_STATUS.refunded}`, scopeCondition(scope, b.agentId)))
    .groupBy(b.runner);
  const byRunner = new Map(rows.map((r) => [Number(r.runner), r]));
  const book = race.runners.map((runner) => {
    const at = race.result?.indexOf(runner.number) ?? -1;
    const r = byRunner.get(runner.number);
    return { ...runner, place: at >= 0 ? at + 1 : null, bets: Number(r?.bets ?? 0), stake: Number(r?.stake ?? 0), payout: Number(r?.payout ?? 0) };
  });
  return { ...toRaceRow(race), book };
}

export function registerRacingRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  registerList(app, db, raceList);
  registerList(app, db, racingBetList);
  registerList(app, db, coinMoveList);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/racing/races/:id',
    {
      config: { access: { page: 'racing_race' } },
      schema: {
        tags: ['racing_race'], summary: "A virtual race: runners with odds, finishing order, and each runner's bets, stakes and payouts in the caller's branch",
        params: racingRaceParams, response: { 200: racingRaceDetail },
      },
    },
    async (req) => {
      const [race] = await db.select().from(racingRaces).where(eq(racingRaces.id, req.params.id));
      if (!race) throw notFound();
      return raceDetail(db, await scopeOf(db, authOf(req)), race);
    },
  );
  r.get(
    '/api/v1/racing/bets/:id',
    {
      config: { access: { page: 'racing_order', button: 'detail' } },
      schema: { tags: ['racing_order'], summary: "A virtual racing bet of the caller's branch with its race", params: racingBetParams, response: { 200: racingBetDetail } },
    },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      // Another branch's bet is not found (its existence is not told).
      const [row] = await selectBets(db).where(and(eq(racingBets.id, req.params.id), scopeCondition(scope, racingBets.agentId)));
      if (!row) throw notFound();
      const [race] = await db.select().from(racingRaces).where(eq(racingRaces.id, row.bet.raceId));
      return { bet: toBetRow(row), race: toRaceRow(race!) };
    },
  );
  r.get(
    '/api/v1/racing/statistics',
    {
      config: { access: { page: 'racing_statistics' } },
      schema: {
        tags: ['racing_statistics'], summary: "Virtual racing figures over [from, to) in the caller's branch: turnover, settled stake, payouts, GGR, open stakes, bets, bettors, coin conversions",
        querystring: racingStatsQuery, response: { 200: racingStatsAnswer },
      },
    },
    async (req) => {
      const from = new Date(req.query.from);
      const to = new Date(req.query.to);
      if (!(from < to)) throw badRequest('PARAM_INVALID', [{ field: 'to', message: 'must be after from' }]);
      return racingStatistics(db, await scopeOf(db, authOf(req)), from, to);
    },
  );
  r.get(
    '/api/v1/racing/settings',
    { config: { access: { page: 'racing_config' } }, schema: { tags: ['racing_config'], summary: 'Virtual racing settings: on/off and the racing coin rate', response: { 200: racingSettingsAnswer } } },
    async () => settingsAnswer(await racingSettingsOf(db)),
  );
  r.put(
    '/api/v1/racing/settings',
    {
      config: { access: { page: 'racing_config', button: 'edit', duty: { ring: 'two', fields: ['coin_rate_bps'], setting: 'racing_settings' } } },
      schema: { tags: ['racing_config'], summary: 'Change the virtual racing settings (audited)', body: racingSettingsBody, response: { 200: racingSettingsAnswer } },
    },
    async (req) =>
      db.transaction(async (tx) => {
        const before = await racingSettingsOf(tx);
        const b = req.body;
        const [after] = await tx
          .update(racingSettings)
          .set({ ...(b.enabled !== undefined ? { enabled: b.enabled } : {}), ...(b.coin_rate_bps !== undefined ? { coinRateBps: b.coin_rate_bps } : {}), updatedAt: new Date() })
          .where(eq(racingSettings.id, 1))
          .returning();
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: 'Virtual racing settings changed', before: settingsAnswer(before), after: settingsAnswer(after!) });
        return settingsAnswer(after!);
      }),
  );
}
