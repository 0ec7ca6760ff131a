/**
 * Running THE SANDBOX GAME PROVIDER next to the server (main.ts): on one process at a time (the leader of
 * 'casino-sandbox', like the sandbox odds feed), on the port its provider's launch URL points to
 * (DAU_CASINO_SANDBOX_PORT overrides), calling this server's wallet API. On by default with the
 * simulator; DAU_CASINO_SANDBOX=1 runs it without (the crash test), 0 never.
 * Failure rates: DAU_CASINO_SANDBOX_{DUPLICATE,TIMEOUT,ROLLBACK,LATE_WIN,OUT_OF_ORDER}_RATE (0..1);
 * DAU_CASINO_SANDBOX_LATE_MS (a late win's delay), DAU_CASINO_SANDBOX_BACKOFF_MS (first retry delay).
 */
import type { Database, Db } from '../../platform/db.js';
import { leadership, type Leadership } from '../../platform/leader.js';
import { DEFAULT_SANDBOX_PORT, SANDBOX_PROVIDER_NAME, launchPortOf, pointLaunchUrlAt, sandboxProviderEnv, startSandboxGameProvider, type SandboxGameProvider } from './server.js';

export { SANDBOX_PROVIDER_NAME, startSandboxGameProvider, type SandboxGameProvider };

export interface RunOptions {
  /** This server's own address for the wallet calls, e.g. http://127.0.0.1:6009. */
  walletUrl: string;
  /** Whether the demo simulator runs (the sandbox provider follows it unless DAU_CASINO_SANDBOX says otherwise). */
  simulator: boolean;
  env?: NodeJS.ProcessEnv;
  log?: (msg: string, err?: unknown) => void;
  info?: (msg: string) => void;
}

/** Starts the sandbox game provider on the leader; null when it is off. */
export function runSandboxGameProvider(database: Database, db: Db, opts: RunOptions): Leadership | null {
  const env = sandboxProviderEnv(opts.env ?? process.env);
  if (!(env.enabled ?? opts.simulator)) return null;
  let running: SandboxGameProvider | null = null;
  let starting: Promise<void> | null = null;
  return leadership(database, 'casino-sandbox', {
    onLead: () => {
      starting = (async () => {
        const port = env.port ?? (await launchPortOf(db)) ?? DEFAULT_SANDBOX_PORT;
        // The launch URL follows the port the sandbox listens on (it was seeded with another one).
        await pointLaunchUrlAt(db, port);
        running = await startSandboxGameProvider({
          db, walletUrl: opts.walletUrl, port, rates: env.rates, lateMs: env.lateMs, backoffMs: env.backoffMs, log: opts.log, info: opts.info,
        });
      })();
      return starting;
    },
    onLose: async () => {
      await starting?.catch(() => {});
      await running?.stop();
      running = null;
    },
    log: opts.log,
  });
}
