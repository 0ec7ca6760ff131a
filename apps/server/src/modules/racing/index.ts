/**
 * Virtual racing (issue 13, spec §3 bill types 13–16): the racing provider adapter (./adapter.ts) with its
 * sandbox (./sandbox.ts), races, bets and the racing coin (./service.ts), the operators' lists and
 * settings (./routes.ts), the periodic sync job (./jobs.ts), a sandbox-only bet for demos and browser tests
 * (./sandbox-routes.ts). Other modules and the simulator reach it
 * through the services exported here.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import type { ProviderRace, RacingProvider } from './adapter.js';
import { defineRacingJob } from './jobs.js';
import { registerRacingRoutes } from './routes.js';
import { racingSandboxRoutes } from './sandbox-routes.js';
import { SandboxRacingProvider } from './sandbox.js';

/** The racing provider in use: the sandbox (no real provider is connected yet). */
export const racingProvider: RacingProvider & { listedAt(now: Date): Promise<ProviderRace[]> } = new SandboxRacingProvider();

/** `sandboxRoutes`: the sandbox-only bettor request (DAU_SANDBOX_ROUTES=1): a bet on the next open race. */
export function racingRoutes(app: FastifyInstance, ctx: AppContext, opts: { sandboxRoutes?: boolean } = {}) {
  registerRacingRoutes(app, ctx);
  if (opts.sandboxRoutes) racingSandboxRoutes(app, ctx, racingProvider);
  defineRacingJob(ctx, racingProvider);
}

export type { ProviderRace, RaceOutcome, RacingProvider } from './adapter.js';
export { SandboxRacingProvider } from './sandbox.js';
export {
  RACE_STATUS, RACING_BET_STATUS, COIN_DIRECTION, coinBalanceOf, convertFromCoins, convertToCoins, placeRacingBet, racingSettingsOf, settleRace, syncRaces,
  checkCoinInvariants, coinsFor, cashFor,
} from './service.js';
