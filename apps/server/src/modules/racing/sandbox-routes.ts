/**
 * Sandbox-only bettor request of virtual racing (DAU_SANDBOX_ROUTES=1, never in production): what the
 * bettor app would do, for the browser tests and demos. A bettor of my branch bets on the next race still
 * open (more than `lead_seconds`, 30 by default, before its start) of the racing provider, on the given
 * runner or the favourite.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, gt } from 'drizzle-orm';
import { racingBetRow, racingSandboxBetBody } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { AppError, notFound } from '../../platform/errors.js';
import { scopeOf } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { bettors } from '../money/index.js';
import type { ProviderRace, RacingProvider } from './adapter.js';
import { racingBets, racingRaces } from './schema.js';
import { RACE_STATUS, placeRacingBet, syncRaces } from './service.js';
import { selectBets, toBetRow } from './routes.js';

export function racingSandboxRoutes(app: FastifyInstance, ctx: AppContext, provider: RacingProvider & { listedAt?(now: Date): Promise<ProviderRace[]> }) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v1/sandbox/racing/bets',
    {
      config: { access: { page: 'racing_order' } },
      schema: {
        tags: ['sandbox'], summary: 'A bettor of my branch bets on the next open virtual race, as the bettor app does (sandbox only)',
        body: racingSandboxBetBody, response: { 201: racingBetRow },
      },
    },
    async (req, reply) => {
      const body = req.body;
      const [b] = await db.select({ agentId: bettors.agentId }).from(bettors).where(eq(bettors.id, body.bettor_id));
      if (!b) throw notFound();
      if (!agentInScope(await scopeOf(db, authOf(req)), b.agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
      const now = new Date();
      await syncRaces(db, provider, now);
      const [race] = await db
        .select()
        .from(racingRaces)
        .where(and(eq(racingRaces.status, RACE_STATUS.open), gt(racingRaces.startsAt, new Date(now.getTime() + (body.lead_seconds ?? 30) * 1000))))
        .orderBy(asc(racingRaces.startsAt))
        .limit(1);
      if (!race) throw new AppError(422, 'BET_MATCH_CLOSED');
      const favourite = [...race.runners].sort((x, y) => Number(x.odds) - Number(y.odds))[0]!;
      const bet = await db.transaction((tx) => placeRacingBet(tx, { bettorId: body.bettor_id, raceId: race.id, runner: body.runner ?? favourite.number, stake: body.stake }, now));
      const [row] = await selectBets(db).where(eq(racingBets.id, bet.id));
      return reply.status(201).send(toBetRow(row!));
    },
  );
}
