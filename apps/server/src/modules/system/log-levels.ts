/**
 * The server log configuration (System › Server log settings, table log_config) applied: each row's level
 * is the level of the server's logger of that name, in every process, at once. `http` is the server's own
 * logger (Fastify's: the request log, and whatever is logged under no name); the others (feed, jobs,
 * payments) are its children, each with a level of its own. `changed()` reloads here and tells the other
 * processes through the bus; a reload every RELOAD_MS is the safety net for a message lost while a
 * process's listener was down (as the feed's margins).
 *
 * Retention is not configured here: the server writes its log to standard output, and how long it is
 * kept is the host's (journald, the container runtime, the log collector), not a table the server could
 * prune. The audit trail (System › Log) is not this log and is kept whole.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bus, Executor } from '../../platform/db.js';
import { Reloaded, RELOAD_MS } from '../../platform/reloaded.js';
import { logConfig } from './schema.js';

/** Bus channel: the log configuration changed in some process. */
export const LOG_CONFIG_CHANGED = 'system.log-config-changed';
/** The logger whose level is the server logger's own. */
export const SERVER_LOGGER = 'http';
/** The domain's log levels (1 trace … 6 fatal) as pino names them. */
const PINO_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export const pinoLevel = (level: number): string => PINO_LEVELS[level - 1] ?? 'info';

export class ServerLogLevels extends Reloaded {
  private children = new Map<string, FastifyBaseLogger>();

  constructor(
    private db: Executor,
    private root: FastifyBaseLogger,
    bus?: Bus,
    reloadMs = RELOAD_MS,
  ) {
    super(LOG_CONFIG_CHANGED, bus, reloadMs);
  }

  /** The server's logger of this name (its level follows the configuration's row of that name). */
  of(name: string): FastifyBaseLogger {
    if (name === SERVER_LOGGER) return this.root;
    let child = this.children.get(name);
    if (!child) {
      child = this.root.child({ logger: name });
      this.children.set(name, child);
    }
    return child;
  }

  async reload(): Promise<void> {
    const rows = await this.db.select({ logger: logConfig.logger, level: logConfig.level }).from(logConfig);
    for (const r of rows) {
      const logger = this.of(r.logger);
      // Without a log (tests), a child is the server logger itself: only the server's own row sets it.
      if (logger === this.root && r.logger !== SERVER_LOGGER) continue;
      logger.level = pinoLevel(r.level);
    }
  }
}
