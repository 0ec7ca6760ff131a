/**
 * The durable job queue: pg-boss 10 on the product's own database (PostgreSQL, or PGlite through an
 * adapter), so that work which follows a committed change survives a crash and runs once among several
 * processes.
 *
 * - `send(ex, name, data)` enqueues inside the caller's transaction: the job exists if and only if the
 *   change that causes it commits (pg-boss's `db` option runs its INSERT on that executor).
 * - A job that fails is retried with exponential back-off; one whose process died (kill -9) stays active
 *   until its expiry, then is retried by any process (pg-boss's supervisor). Handlers must therefore be
 *   idempotent: they change money through the keys the code already uses (order state, bill serials,
 *   conditional updates), so a second run changes nothing the first one did.
 * - `every(name, seconds, handler)`: periodic work. Every process offers one job per time slot
 *   (pg-boss throttling: one job per name and slot across processes) and the queue's singleton policy
 *   lets one run at a time; a process that dies leaves the next slot to the others.
 * - One look for due jobs per process and `pollSeconds` (`dispatch`): a single query over every queue
 *   wakes the workers of the queues that have one (due: queued by another process, a retry whose delay
 *   has passed, a `startAfter` reached). The workers' own polling is only a fallback (every
 *   FALLBACK_POLL_SECONDS): with about 30 queues, each polling every second, an idle embedded server spent
 *   a tenth of a core asking. A worker that finished a job looks again at once (a backlog drains without
 *   waiting for the next look).
 * - Job state stays queryable in the `pgboss` schema (`pgboss.job`: name, state, retry_count, output).
 */
import PgBoss from 'pg-boss';
import type { Database, Executor } from './db.js';
import { startupLock } from './leader.js';

export interface JobOptions {
  /** Retries after the first attempt (default 10), with exponential back-off from `retryDelaySeconds` (default 2). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** An active job older than this is taken as lost (its process died) and retried (default: the queue's setting). */
  expireInSeconds?: number;
  /** Fetch loops of this queue in each process (default 1). */
  workers?: number;
  /** `singleton`: at most one job of the queue active at a time, across processes. */
  policy?: 'standard' | 'singleton';
}

export interface SendOptions {
  /** With `singletonSeconds`: at most one job per key and time slot (the others are dropped). */
  singletonKey?: string;
  singletonSeconds?: number;
  /** With `singletonSeconds`: when this slot already holds a job, queue one in the next slot (so the latest change is always followed). */
  nextSlot?: boolean;
  /** Not before this many seconds from now. */
  startAfterSeconds?: number;
}

type Handler = (data: any) => Promise<void>;

/** How often a worker polls its own queue when nothing woke it (the dispatcher normally does). */
const FALLBACK_POLL_SECONDS = 30;
type Log = (msg: string, err?: unknown) => void;

interface Definition {
  handler: Handler;
  opts: JobOptions;
}

export interface JobsOptions {
  /** How often this process looks for due jobs (queued by other processes, retries, delayed; seconds, ≥ 0.5; default 1). */
  pollSeconds?: number;
  /** Default expiry of an active job (seconds; default 120; `DAU_JOB_EXPIRE_SECONDS`). */
  expireInSeconds?: number;
  /** How often the supervisor retries expired jobs and archives finished ones (seconds; default DAU_JOB_MAINTENANCE_SECONDS, else 10). */
  maintenanceSeconds?: number;
  log?: Log;
  /** Offer the periodic jobs from this process (default true). Their handlers run either way. */
  periodic?: boolean;
}

/**
 * pg-boss passes objects for jsonb columns (PGlite wants their JSON text; arrays it binds itself) and
 * undefined for options not given (a parameter like any other: null).
 */
function bindable(values: unknown[] | undefined): unknown[] {
  return (values ?? []).map((v) =>
    v === undefined ? null : v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) ? JSON.stringify(v) : v,
  );
}

/**
 * The pg-boss `db` of an executor (a transaction, usually): its statement runs on the executor's own
 * connection as written. (Not through drizzle's `sql`: pg-boss uses a parameter several times with
 * different casts in one statement, which drizzle would split into separately typed parameters.)
 */
const onExecutor = (ex: Executor) => {
  const client = (ex as unknown as { session?: { client?: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } } }).session?.client;
  if (!client) throw new Error('jobs: this executor has no connection to enqueue on');
  return {
    async executeSql(text: string, values?: unknown[]) {
      const r = await client.query(text, bindable(values));
      return { rows: r.rows ?? [] };
    },
  };
};

export class Jobs {
  readonly boss: PgBoss;
  private defs = new Map<string, Definition>();
  private periodic = new Map<string, number>();
  private timers: NodeJS.Timeout[] = [];
  private workerIds = new Map<string, string[]>();
  private started = false;
  /** Jobs this process is running now (the server list shows it). */
  running = 0;
  private readonly log: Log;
  private readonly pollSeconds: number;
  private readonly expireInSeconds: number;
  private readonly offerPeriodic: boolean;

  constructor(
    private database: Database,
    opts: JobsOptions = {},
  ) {
    this.log = opts.log ?? (() => {});
    this.pollSeconds = Math.max(0.5, opts.pollSeconds ?? 1);
    this.offerPeriodic = opts.periodic ?? true;
    this.expireInSeconds = opts.expireInSeconds ?? (Number(process.env.DAU_JOB_EXPIRE_SECONDS) || 120);
    const common = {
      schema: 'pgboss',
      migrate: true,
      supervise: true,
      // Cron schedules are not used (periodic work is throttled sends, see `every`).
      schedule: false,
      maintenanceIntervalSeconds: opts.maintenanceSeconds ?? (Number(process.env.DAU_JOB_MAINTENANCE_SECONDS) || 10),
    };
    this.boss =
      database.kind === 'pg' && database.url
        ? new PgBoss({ ...common, connectionString: database.url, max: 4, application_name: 'dau_jobs' })
        : new PgBoss({ ...common, db: { executeSql: (text: string, values?: unknown[]) => database.query(text, bindable(values)) } } as PgBoss.ConstructorOptions);
    this.boss.on('error', (err) => this.log('job queue error', err));
  }

  /** Declares the handler of a queue (before `start`). */
  define<T>(name: string, handler: (data: T) => Promise<void>, opts: JobOptions = {}) {
    if (this.defs.has(name)) throw new Error(`job ${name} is defined twice`);
    this.defs.set(name, { handler: handler as Handler, opts });
    return this;
  }

  /** Periodic work: one run per `seconds` among all processes, one at a time. */
  every(name: string, seconds: number, handler: () => Promise<void>, opts: JobOptions = {}) {
    this.define(name, handler, { retryLimit: 0, ...opts, policy: 'singleton' });
    this.periodic.set(name, seconds);
    return this;
  }

  async start() {
    if (this.started) return;
    this.started = true;
    // Processes starting together on one fresh PostgreSQL would create the same queues at once and
    // deadlock on pg-boss's queue table (seen in the two-process test): one at a time, as for migrations.
    await startupLock(this.database, async () => {
      await this.boss.start();
      for (const [name, { opts }] of this.defs) {
        await this.boss.createQueue(name, {
          name,
          policy: opts.policy ?? 'standard',
          retryLimit: opts.retryLimit ?? 10,
          retryDelay: opts.retryDelaySeconds ?? 2,
          retryBackoff: true,
          expireInSeconds: opts.expireInSeconds ?? this.expireInSeconds,
        } as PgBoss.Queue);
      }
    });
    for (const [name, { handler, opts }] of this.defs) {
      const ids: string[] = [];
      for (let i = 0; i < Math.max(1, opts.workers ?? 1); i++) {
        let id = '';
        id = await this.boss.work(name, { pollingIntervalSeconds: FALLBACK_POLL_SECONDS, batchSize: 1 }, async ([job]) => {
          this.running++;
          try {
            await handler(job.data);
          } finally {
            this.running--;
            // Look again at once: the queue may hold more (a finished fetch otherwise waits for a wake-up).
            this.boss.notifyWorker(id);
          }
        });
        ids.push(id);
      }
      this.workerIds.set(name, ids);
    }
    const dispatcher = setInterval(() => void this.dispatch(), this.pollSeconds * 1000);
    dispatcher.unref();
    this.timers.push(dispatcher);
    for (const [name, seconds] of this.offerPeriodic ? this.periodic : []) {
      const offer = () =>
        void this.boss.send(name, {}, { singletonKey: name, singletonSeconds: seconds }).catch((err) => this.log(`could not offer the periodic job ${name}`, err));
      offer();
      const t = setInterval(offer, Math.max(500, (seconds * 1000) / 2));
      t.unref();
      this.timers.push(t);
    }
  }

  /**
   * Enqueues `name` on the executor `ex`: inside a transaction, the job commits or rolls back with it.
   * Answers the job's id (null when a singleton slot already held one).
   */
  async send(ex: Executor, name: string, data: object = {}, opts: SendOptions = {}): Promise<string | null> {
    if (!this.defs.has(name)) throw new Error(`unknown job ${name}`);
    const id = await this.boss.send(name, data, {
      db: onExecutor(ex),
      singletonKey: opts.singletonKey,
      singletonSeconds: opts.singletonSeconds,
      singletonNextSlot: opts.nextSlot,
      startAfter: opts.startAfterSeconds,
    } as PgBoss.SendOptions);
    this.nudge(name);
    return id;
  }

  private dispatching = false;

  /** Wakes the workers of every queue that has a job due now (one query for all queues). */
  private async dispatch() {
    if (this.dispatching || !this.started) return;
    this.dispatching = true;
    try {
      const { rows } = await this.database.query(
        `SELECT DISTINCT name FROM pgboss.job WHERE name = ANY($1::text[]) AND state < 'active' AND start_after < now()`,
        [[...this.workerIds.keys()]],
      );
      for (const { name } of rows as { name: string }[]) for (const id of this.workerIds.get(name) ?? []) this.boss.notifyWorker(id);
    } catch (err) {
      if (this.started) this.log('could not look for due jobs', err);
    } finally {
      this.dispatching = false;
    }
  }

  /** Wakes this process's workers of a queue (a job just queued here usually commits within moments). */
  private nudge(name: string) {
    const ids = this.workerIds.get(name);
    if (!ids) return;
    for (const delay of [20, 250]) {
      setTimeout(() => {
        for (const id of ids) this.boss.notifyWorker(id);
      }, delay).unref();
    }
  }

  /** Jobs of these queues (all when omitted) not finished yet: created, retry or active. */
  async pending(names: string[] = [...this.defs.keys()]): Promise<number> {
    const { rows } = await this.database.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active')`,
      [names],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Resolves when no job of these queues is waiting or running (tests, benches, shutdown of a test server). */
  async drain(names?: string[], pollMs = 50): Promise<void> {
    for (;;) {
      if ((await this.pending(names)) === 0) return;
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  async stop() {
    for (const t of this.timers.splice(0)) clearInterval(t);
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, close: true, timeout: 10_000 });
  }
}
