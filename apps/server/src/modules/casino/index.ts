/**
 * Casino (issue 13): the wallet API game providers call, game sessions, rounds (./routes.ts), the
 * declared screens (./resources.ts). Other modules (the sandbox provider, the simulator, reports) reach
 * it through the services exported here.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { casinoResources } from './resources.js';
import { roundRoutes, sessionRoutes, walletRoutes } from './routes.js';
import { casinoReportRoutes } from './report-routes.js';
import { largeWinRoutes } from './large-wins.js';

export async function casinoRoutes(app: FastifyInstance, ctx: AppContext, opts: { sandboxRoutes?: boolean } = {}) {
  casinoResources(app, ctx);
  // Opening a session for a bettor is a demo convenience: in production sessions come from the bettor's own launch.
  if (opts.sandboxRoutes) sessionRoutes(app, ctx);
  largeWinRoutes(app, ctx);
  roundRoutes(app, ctx);
  casinoReportRoutes(app, ctx);
  await walletRoutes(app, ctx);
}

export { openSession, providerSecretFor, walletCache, sealSecret, openSecret, SESSION_HOURS, type OpenedSession } from './service.js';
export { signWalletBody, verifySignature } from './signature.js';
export { walletCall, requestHash } from './wallet.js';
export { pointLaunchUrlAt, seedCasino, SANDBOX_PROVIDER_CODE, sandboxLaunchUrl } from './seed.js';
export { ROUND_LIST, WALLET_BODY_LIMIT } from './routes.js';

// Read-only faces for the reports (issue 30: the significant events list large wins and reuse the large-win amount).
import { readModel } from '../../platform/read-model.js';
import { casinoLargeWins as largeWinsTable, casinoSettings as settingsTable } from './schema.js';
export const casinoLargeWins = readModel(largeWinsTable);
export const casinoSettings = readModel(settingsTable);
