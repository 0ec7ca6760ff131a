/**
 * Operations (issue 16): the server list (./servers.ts beats), the script runner (./runner.ts with the
 * allow-list in ./scripts), the database's locks and long queries (./db-views.ts). `operationsRoutes`
 * registers the routes, starts this process's beat and runner, and stops them when the app closes.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import type { Database } from '../../platform/db.js';
import { operationsRoutes as routes } from './routes.js';
import { ServerBeat } from './servers.js';
import { interruptOrphans, ScriptRunner } from './runner.js';

export interface Operations {
  beat: ServerBeat;
  runner: ScriptRunner;
}

export function operationsRoutes(app: FastifyInstance, ctx: AppContext, database: Database): Operations {
  const log = (msg: string, err?: unknown) => app.log.warn({ err }, msg);
  const beat: ServerBeat = new ServerBeat(database, ctx.jobs, { log, extraRunning: (): number => runner.running });
  const runner: ScriptRunner = new ScriptRunner(beat.id, database, ctx, log);
  beat.onBeat = async () => {
    await interruptOrphans(database);
    await runner.poll();
  };
  routes(app, ctx, database, beat);
  app.addHook('onReady', async () => {
    await beat.start();
    runner.start();
  });
  app.addHook('onClose', async () => {
    await runner.stop();
    await beat.stop();
  });
  return { beat, runner };
}

export { ServerBeat, BEAT_SECONDS, DOWN_AFTER_SECONDS, VERSION } from './servers.js';
export { ScriptRunner, interruptOrphans } from './runner.js';
export { SCRIPTS } from './scripts/index.js';
export { redactText, knownSecrets } from './redact.js';
