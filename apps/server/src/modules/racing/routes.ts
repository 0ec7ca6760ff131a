/**
 * Virtual racing for operators (issue 13). The menu has no racing page (packages/contract/src/menu.ts):
 * racing is a virtual game next to the casino's, so its lists sit under the casino's pages:
 *
 * - GET /api/v1/racing/races (casino_order): the provider's races (schedule, runners and odds, status,
 *   finishing order); the races are the provider's, not a branch's;
 * - GET /api/v1/racing/bets (casino_order): bets, scoped to the admin's branch (the bettor's agent),
 *   filtered by race, bettor, phone, status, time; export type racing_bet (casino_order:export);
 * - GET /api/v1/racing/coin_moves (casino_order): coin conversions (bills 15 and 16), scoped; export type
 *   racing_coin_move;
 * - GET/PUT /api/v1/racing/settings (casino_config, edit): racing on/off and the coin rate, audited;
 * - GET /api/v1/racing/statistics (history_statistics): racing turnover, payouts, GGR over a period, scoped.
 *
 * The bettor's side (bills 13–16) shows in the bill lists through the ledger.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { LOG_TYPE } from '@dau/domain';
import { answerRow, dateTime } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { writeAudit } from '../../platform/audit.js';
import { defineList, isoDate, optionalInt, optionalText, registerList, scopeCondition, scopeOf, type Scope } from '../../platform/listing.js';
import { authOf } from '../../platform/access.js';
import { badRequest } from '../../platform/errors.js';
import { bettors } from '../money/schema.js';
import { ofBettorPhone } from '../money/bills-routes.js';
import { racingBets, racingCoinMoves, racingRaces, racingSettings, type RacingRunner } from './schema.js';
import { COIN_DIRECTION, RACING_BET_STATUS, racingSettingsOf } from './service.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ------------------------------------------------------------------------------------------------ races

const raceFilters = z.object({ status: z.coerce.number().int().min(1).max(4).optional(), race_ref: optionalText, starts_at_from: isoDate, starts_at_to: isoDate });
type RaceFilters = z.infer<typeof raceFilters>;

export const raceRow = answerRow({ id: 'number', race_ref: 'string', starts_at: 'string', status: 'number', winner: 'number?', updated_at: 'string' }).extend({
  runners: z.array(z.object({ number: z.number().int(), name: z.string(), odds: z.string() })),
  result: z.array(z.number().int()).nullable(),
});

export const raceList = defineList({
  name: 'racing_race',
  page: 'casino_order',
  path: '/api/v1/racing/races',
  summary: "Virtual races from the racing provider: start, runners with odds, status (1 open, 2 running, 3 finished, 4 cancelled), finishing order",
  filters: raceFilters,
  where: (q: RaceFilters, _scope: Scope): SQL | undefined =>
    and(
      q.status ? eq(racingRaces.status, q.status) : undefined,
      q.race_ref ? eq(racingRaces.raceRef, q.race_ref) : undefined,
      q.starts_at_from ? gte(racingRaces.startsAt, new Date(q.starts_at_from)) : undefined,
      q.starts_at_to ? lt(racingRaces.startsAt, new Date(q.starts_at_to)) : undefined,
    ),
  select: (ex: Executor) => ex.select().from(racingRaces),
  idColumn: racingRaces.id,
  sortable: { id: racingRaces.id, starts_at: racingRaces.startsAt, status: racingRaces.status },
  defaultSort: '-starts_at',
  toRow: (r: typeof racingRaces.$inferSelect) => ({
    id: r.id, race_ref: r.raceRef, starts_at: r.startsAt.toISOString(), status: r.status, runners: r.runners, result: r.result ?? null,
    winner: r.result?.[0] ?? null, updated_at: r.updatedAt.toISOString(),
  }),
  row: raceRow,
  columns: [{ key: 'race_ref' }, { key: 'starts_at' }, { key: 'status' }, { key: 'winner' }],
});

// ------------------------------------------------------------------------------------------------- bets

const betFilters = z.object({
  race_id: optionalInt,
  bettor_id: optionalInt,
  phone: optionalText,
  status: z.coerce.number().int().min(1).max(4).optional(),
  created_at_from: isoDate,
  created_at_to: isoDate,
});
type BetFilters = z.infer<typeof betFilters>;

export const racingBetRow = answerRow({
  id: 'number', race_id: 'number', race_ref: 'string', starts_at: 'string', bettor_id: 'number', phone: 'string', user_name: 'string', runner: 'number',
  runner_name: 'string', stake: 'number', odds: 'string', status: 'number', payout: 'number', created_at: 'string', settled_at: 'string?',
});

type BetJoin = { bet: typeof racingBets.$inferSelect; phone: string; name: string; raceRef: string; startsAt: Date; runners: RacingRunner[] };

export const racingBetList = defineList({
  name: 'racing_bet',
  page: 'casino_order',
  path: '/api/v1/racing/bets',
  summary: 'Virtual racing bets (status 1 open, 2 won, 3 lost, 4 refunded), in the caller’s branch',
  filters: betFilters,
  where: (q: BetFilters, scope: Scope) =>
    and(
      scopeCondition(scope, racingBets.agentId),
      q.race_id ? eq(racingBets.raceId, q.race_id) : undefined,
      q.bettor_id ? eq(racingBets.bettorId, q.bettor_id) : undefined,
      q.phone ? ofBettorPhone(racingBets.bettorId, q.phone) : undefined,
      q.status ? eq(racingBets.status, q.status) : undefined,
      q.created_at_from ? gte(racingBets.createdAt, new Date(q.created_at_from)) : undefined,
      q.created_at_to ? lt(racingBets.createdAt, new Date(q.created_at_to)) : undefined,
    ),
  select: (ex: Executor) =>
    ex
      .select({ bet: racingBets, phone: bettors.phone, name: bettors.name, raceRef: racingRaces.raceRef, startsAt: racingRaces.startsAt, runners: racingRaces.runners })
      .from(racingBets)
      .innerJoin(bettors, eq(bettors.id, racingBets.bettorId))
      .innerJoin(racingRaces, eq(racingRaces.id, racingBets.raceId)),
  countFrom: (ex: Executor) => ex.select({ id: racingBets.id }).from(racingBets),
  idColumn: racingBets.id,
  sortable: { id: racingBets.id, created_at: racingBets.createdAt, stake: racingBets.stake, payout: racingBets.payout },
  defaultSort: '-id',
  countCap: 10_000,
  toRow: ({ bet, phone, name, raceRef, startsAt, runners }: BetJoin) => ({
    id: bet.id, race_id: bet.raceId, race_ref: raceRef, starts_at: startsAt.toISOString(), bettor_id: bet.bettorId, phone, user_name: name,
    runner: bet.runner, runner_name: runners.find((r) => r.number === bet.runner)?.name ?? '', stake: bet.stake, odds: bet.odds, status: bet.status,
    payout: bet.payout, created_at: bet.createdAt.toISOString(), settled_at: iso(bet.settledAt),
  }),
  row: racingBetRow,
  columns: [
    { key: 'race_ref' }, { key: 'starts_at' }, { key: 'phone' }, { key: 'user_name' }, { key: 'runner' }, { key: 'runner_name' }, { key: 'stake', money: true },
    { key: 'odds' }, { key: 'status' }, { key: 'payout', money: true }, { key: 'created_at' }, { key: 'settled_at' },
  ],
});

// ------------------------------------------------------------------------------------------- coin moves

const moveFilters = z.object({ bettor_id: optionalInt, phone: optionalText, direction: z.coerce.number().int().min(1).max(2).optional(), created_at_from: isoDate, created_at_to: isoDate });
type MoveFilters = z.infer<typeof moveFilters>;

export const coinMoveRow = answerRow({
  id: 'number', bettor_id: 'number', phone: 'string', user_name: 'string', direction: 'number', cash: 'number', coins: 'number', bill_id: 'number?', created_at: 'string',
});

export const coinMoveList = defineList({
  name: 'racing_coin_move',
  page: 'casino_order',
  path: '/api/v1/racing/coin_moves',
  summary: 'Racing coin conversions: direction 1 balance → coin (bill 15), 2 coin → balance (bill 16), in the caller’s branch',
  filters: moveFilters,
  where: (q: MoveFilters, scope: Scope) =>
    and(
      scopeCondition(scope, bettors.agentId),
      q.bettor_id ? eq(racingCoinMoves.bettorId, q.bettor_id) : undefined,
      q.phone ? ofBettorPhone(racingCoinMoves.bettorId, q.phone) : undefined,
      q.direction ? eq(racingCoinMoves.direction, q.direction) : undefined,
      q.created_at_from ? gte(racingCoinMoves.createdAt, new Date(q.created_at_from)) : undefined,
      q.created_at_to ? lt(racingCoinMoves.createdAt, new Date(q.created_at_to)) : undefined,
    ),
  select: (ex: Executor) =>
    ex.select({ move: racingCoinMoves, phone: bettors.phone, name: bettors.name }).from(racingCoinMoves).innerJoin(bettors, eq(bettors.id, racingCoinMoves.bettorId)),
  idColumn: racingCoinMoves.id,
  sortable: { id: racingCoinMoves.id, created_at: racingCoinMoves.createdAt, cash: racingCoinMoves.cashCents, coins: racingCoinMoves.coins },
  defaultSort: '-id',
  countCap: 10_000,
  toRow: ({ move, phone, name }: { move: typeof racingCoinMoves.$inferSelect; phone: string; name: string }) => ({
    id: move.id, bettor_id: move.bettorId, phone, user_name: name, direction: move.direction, cash: move.cashCents, coins: move.coins, bill_id: move.billId,
    created_at: move.createdAt.toISOString(),
  }),
  row: coinMoveRow,
  columns: [{ key: 'phone' }, { key: 'user_name' }, { key: 'direction' }, { key: 'cash', money: true }, { key: 'coins' }, { key: 'bill_id' }, { key: 'created_at' }],
});

// --------------------------------------------------------------------------------------------- settings

export const racingSettingsAnswer = z.object({
  enabled: z.boolean(),
  /** Coins per TSh cent x 10,000 (10,000: one coin per cent; 100: one coin per shilling). */
  coin_rate_bps: z.number().int(),
  updated_at: z.string(),
});
const racingSettingsBody = z
  .object({ enabled: z.boolean().optional(), coin_rate_bps: z.number().int().min(1).max(100_000_000).optional() })
  .strict();

const settingsAnswer = (s: Awaited<ReturnType<typeof racingSettingsOf>>) => ({ enabled: s.enabled, coin_rate_bps: s.coinRateBps, updated_at: s.updatedAt.toISOString() });

// ------------------------------------------------------------------------------------------- statistics

const statsQuery = z.object({ from: dateTime(), to: dateTime() });

export const racingStatsAnswer = z.object({
  /** Stakes of the bets placed in the period, refunded bets left out. */
  turnover: z.number().int(),
  /** Stakes of those bets already decided (won or lost). */
  settled_stake: z.number().int(),
  /** What the won bets paid. */
  payouts: z.number().int(),
  /** settled_stake − payouts: what the house kept of the decided bets. */
  ggr: z.number().int(),
  /** Stakes of bets not decided yet. */
  open_stakes: z.number().int(),
  bets: z.number().int(),
  bettors: z.number().int(),
  /** Cash converted into racing coins (bill 15) and back (bill 16) in the period. */
  coins_bought_cash: z.number().int(),
  coins_sold_cash: z.number().int(),
});

/**
 * Racing figures over [from, to) in the admin's branch, for the statistics screens (the statistics
 * module sums sports only; racing answers its own figures here). Bets count in the period they were
 * placed in.
 */
export async function racingStatistics(ex: Executor, scope: Scope, from: Date, to: Date): Promise<z.infer<typeof racingStatsAnswer>> {
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

export function registerRacingRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  registerList(app, db, raceList);
  registerList(app, db, racingBetList);
  registerList(app, db, coinMoveList);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/racing/statistics',
    {
      config: { access: { page: 'history_statistics' } },
      schema: {
        tags: ['history_statistics'], summary: "Virtual racing figures over [from, to) in the caller's branch: turnover, settled stake, payouts, GGR, open stakes, bets, bettors, coin conversions",
        querystring: statsQuery, response: { 200: racingStatsAnswer },
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
    { config: { access: { page: 'casino_config' } }, schema: { tags: ['casino_config'], summary: 'Virtual racing settings: on/off and the racing coin rate', response: { 200: racingSettingsAnswer } } },
    async () => settingsAnswer(await racingSettingsOf(db)),
  );
  r.put(
    '/api/v1/racing/settings',
    {
      config: { access: { page: 'casino_config', button: 'edit', duty: { ring: 'two', fields: ['coin_rate_bps'], setting: 'racing_settings' } } },
      schema: { tags: ['casino_config'], summary: 'Change the virtual racing settings (audited)', body: racingSettingsBody, response: { 200: racingSettingsAnswer } },
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
