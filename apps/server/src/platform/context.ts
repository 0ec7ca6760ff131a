import type { FastifyBaseLogger } from 'fastify';
import type { Bus, Database, Db } from './db.js';
import type { Jobs } from './jobs.js';
import type { IpBlocklist } from './ipblock.js';
import type { LogTypeSwitch } from './audit.js';

/** A cache a module keeps in memory and reloads after an operator's edit. */
export interface Reloadable {
  reload(): Promise<void>;
}

/** The server's loggers by name, whose levels an operator sets (System › Server log settings): `reload` after an edit. */
export interface NamedLogs extends Reloadable {
  of(name: string): FastifyBaseLogger;
}

/** What every module's routes receive: the database, the cross-process bus and shared caches. */
export interface AppContext {
  db: Db;
  bus: Bus;
  /** A named prepared statement (Database.prepared): for the few statements on a hot path. */
  prepared: Database['prepared'];
  databaseKind: 'pglite' | 'pg';
  ipBlock: IpBlocklist;
  logTypeSwitch: LogTypeSwitch;
  /** Files the server writes (exports under `exports/`); a temporary folder when the app is built without one (tests). */
  dataDir: string;
  /** The durable job queue: modules define their jobs while their routes are registered and enqueue in their transactions. */
  jobs: Jobs;
  /**
   * The operator's price margins as the feed engine reads them (the feed's MarginBook, set by app.ts;
   * absent when a fixed margin was given): the screens that edit margins reload it.
   */
  margins?: Reloadable;
  /** The server's loggers by name (system's ServerLogLevels, set by app.ts): a module logs under its own name. */
  logs?: NamedLogs;
}
