/**
 * The durable job queue: pg-boss 10 on the product's own database (PostgreSQL, or PGlite through an
 * adapter), so that work which follows a committed change survives a crash and runs once among several
 * processes.
 *
 * - `send(ex, name, data)` enqueues inside the caller's transaction: the job exists if and only if the
 *   change that causes it commits (pg-boss's `db` option runs its INSERT on that executor).
 * - A job that fails is retried with exponential back-off. A job whose process died (kill -9, a lost
 *   machine) is retried within seconds (`recover`): every process holds a session advisory lock of its own
 *   (`pg_advisory_lock(LIVENESS_NS, key)`) on a connection of its own for as long as it lives, and its job
 *   pool's connections carry the key in their `application_name` (`dau_jobs:<key>`); a trigger on
 *   `pgboss.job` writes, in the very statement that makes a job active, which key took it
 *   (`pgboss.job_runner`). Every `recoverSeconds` each process releases, in one conditional statement, the
 *   active jobs whose key no connection holds any more (their process is gone: PostgreSQL drops a dead
 *   session's locks at once) back to `retry`, due now. A live process's job is never released, so it never
 *   runs twice at the same time. On PGlite the data folder belongs to one process: at start, the jobs left
 *   active by the previous (dead) process are released. The expiry (pg-boss's supervisor) remains the last
 *   resort for a process that lives but hangs. Handlers must be idempotent all the same (a hung process
 *   may finish after its expiry; a process that loses its database connection looks dead): they change
 *   money through the keys the code already uses (order state, bill serials, conditional updates), so a
 *   second run changes nothing the first one did.
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
import crypto from 'node:crypto';
import pg from 'pg';
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

/** What a handler knows of its run besides the job's data. */
export interface JobRun {
  /** The job's id (pg-boss). */
  id: string;
  /**
   * Earlier runs of this same job (0 the first time). A job runs in one place at a time: when this is
   * above 0, the earlier run has ended (failed, or its process died), so what it held may be taken over.
   */
  retryCount: number;
}

type Handler = (data: any, run: JobRun) => Promise<void>;

/** How often a worker polls its own queue when nothing woke it (the dispatcher normally does). */
const FALLBACK_POLL_SECONDS = 30;
/** First key of the processes' liveness locks (`pg_advisory_lock(LIVENESS_NS, key)`; "JOB"). */
export const LIVENESS_NS = 0x4a4f42;
/** `application_name` of a process's liveness connection and prefix of its job pool's (`dau_jobs:<key>`). */
export const LIVENESS_APPLICATION = 'dau_live';
const JOBS_APPLICATION = 'dau_jobs';

/**
 * Which process runs each active job (PostgreSQL): written by a trigger in the statement that changes the
 * job's state, so no moment exists where a job is active without its runner (a process killed right after
 * it took a job leaves the row behind, which is the point). Made once, idempotent, under the start-up lock.
 */
const RUNNER_TRACKING = `
CREATE TABLE IF NOT EXISTS pgboss.job_runner (
  name text NOT NULL,
  id uuid NOT NULL,
  runner integer NOT NULL,
  PRIMARY KEY (name, id)
);
CREATE OR REPLACE FUNCTION pgboss.dau_job_runner() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  runner integer;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.state = 'active' THEN
    runner := substring(current_setting('application_name') from '^${JOBS_APPLICATION}:([0-9]+)$')::integer;
    IF runner IS NOT NULL THEN
      INSERT INTO pgboss.job_runner (name, id, runner) VALUES (NEW.name, NEW.id, runner)
      ON CONFLICT (name, id) DO UPDATE SET runner = EXCLUDED.runner;
      RETURN NULL;
    END IF;
  END IF;
  DELETE FROM pgboss.job_runner WHERE name = OLD.name AND id = OLD.id;
  RETURN NULL;
END
$fn$;
CREATE OR REPLACE TRIGGER dau_job_runner_state AFTER UPDATE OF state ON pgboss.job FOR EACH ROW
  WHEN (OLD.state IS DISTINCT FROM NEW.state AND (NEW.state = 'active' OR OLD.state = 'active'))
  EXECUTE FUNCTION pgboss.dau_job_runner();
CREATE OR REPLACE TRIGGER dau_job_runner_gone AFTER DELETE ON pgboss.job FOR EACH ROW
  WHEN (OLD.state = 'active')
  EXECUTE FUNCTION pgboss.dau_job_runner();
`;

/**
 * Puts active jobs matched by `from`/`where` back to be run now (`retry`, due at once; `failed` when its
 * retries are spent), as pg-boss's own expiry would but without its back-off: a crash is not the job's
 * fault. Conditional on the job still being active, so two processes releasing together, or a job that
 * finished meanwhile, change nothing twice. (Our queues use the `standard` and `singleton` policies and no
 * dead-letter queue: a plain state change is what pg-boss's fail would do for them.)
 */
const releaseJobs = (from: string, where: string) => `
UPDATE pgboss.job j SET
  state = CASE WHEN j.retry_count < j.retry_limit THEN 'retry'::pgboss.job_state ELSE 'failed'::pgboss.job_state END,
  start_after = now(),
  completed_on = CASE WHEN j.retry_count < j.retry_limit THEN NULL ELSE now() END,
  output = '{"value":{"message":"the process running this job stopped"}}'::jsonb
${from}
WHERE j.state = 'active' ${where}
RETURNING j.name`;

/** Active jobs whose runner's liveness lock no session holds (PostgreSQL). */
const RELEASE_ORPHANS = releaseJobs(
  'FROM pgboss.job_runner r',
  `AND j.name = r.name AND j.id = r.id
   AND NOT EXISTS (
     SELECT 1 FROM pg_locks l
     WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.classid = ${LIVENESS_NS}::oid AND l.objid = r.runner::oid
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))`,
);
/** Every active job (PGlite at start: they were the dead previous process's). */
const RELEASE_ALL_ACTIVE = releaseJobs('', '');

/** The Jobs started in this process on each database (PGlite: only the first releases what it finds active). */
const startedOn = new WeakMap<Database, number>();
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
  /** How often this process releases the jobs of processes that died (seconds, ≥ 0.5; default DAU_JOB_RECOVER_SECONDS, else 2). */
  recoverSeconds?: number;
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
  private readonly recoverSeconds: number;
  /** This process's liveness key (PostgreSQL): its lock says the process lives; its job pool carries it. */
  readonly livenessKey = crypto.randomInt(1, 2 ** 31 - 1);
  private liveness: pg.Client | null = null;
  /** Jobs this process released because their process had died (the server list and tests read it). */
  released = 0;

  constructor(
    private database: Database,
    opts: JobsOptions = {},
  ) {
    this.log = opts.log ?? (() => {});
    this.pollSeconds = Math.max(0.5, opts.pollSeconds ?? 1);
    this.offerPeriodic = opts.periodic ?? true;
    this.expireInSeconds = opts.expireInSeconds ?? (Number(process.env.DAU_JOB_EXPIRE_SECONDS) || 120);
    this.recoverSeconds = Math.max(0.5, opts.recoverSeconds ?? (Number(process.env.DAU_JOB_RECOVER_SECONDS) || 2));
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
        ? new PgBoss({ ...common, connectionString: database.url, max: 4, application_name: `${JOBS_APPLICATION}:${this.livenessKey}` })
        : new PgBoss({ ...common, db: { executeSql: (text: string, values?: unknown[]) => database.query(text, bindable(values)) } } as PgBoss.ConstructorOptions);
    this.boss.on('error', (err) => this.log('job queue error', err));
  }

  /** Declares the handler of a queue (before `start`). */
  define<T>(name: string, handler: (data: T, run: JobRun) => Promise<void>, opts: JobOptions = {}) {
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
    const tracked = this.database.kind === 'pg' && !!this.database.url;
    // The liveness lock is held before this process can take any job: another process must never see a job
    // of ours whose key nobody holds.
    if (tracked) await this.live();
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
      if (tracked) await this.database.query(RUNNER_TRACKING);
    });
    const first = !startedOn.get(this.database);
    startedOn.set(this.database, (startedOn.get(this.database) ?? 0) + 1);
    // Before the workers start: what a dead process left behind goes first.
    if (tracked) await this.recover();
    else if (first) this.count(await this.database.query(RELEASE_ALL_ACTIVE));
    for (const [name, { handler, opts }] of this.defs) {
      const ids: string[] = [];
      for (let i = 0; i < Math.max(1, opts.workers ?? 1); i++) {
        let id = '';
        id = await this.boss.work(name, { pollingIntervalSeconds: FALLBACK_POLL_SECONDS, batchSize: 1, includeMetadata: true }, async ([job]) => {
          this.running++;
          try {
            await handler(job.data, { id: job.id, retryCount: job.retryCount });
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
    if (tracked) {
      const recoverer = setInterval(() => void this.recover(), this.recoverSeconds * 1000);
      recoverer.unref();
      this.timers.push(recoverer);
    }
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

  /**
   * Takes this process's liveness lock on a connection of its own, and takes it again (same key) when that
   * connection is lost while the process runs. Keep-alive probes make a vanished machine's session end
   * too, not only a killed process's.
   */
  private async live(): Promise<void> {
    const c = new pg.Client({
      connectionString: this.database.url,
      application_name: `${LIVENESS_APPLICATION}:${this.livenessKey}`,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    const lost = (err?: unknown) => {
      if (this.liveness !== c) return;
      this.liveness = null;
      c.removeAllListeners('end');
      c.on('error', () => {});
      c.end().catch(() => {});
      if (!this.started) return;
      this.log('job liveness connection lost: taking the lock again in 1 s', err);
      const again = setTimeout(() => void this.live().catch(() => {}), 1000);
      again.unref();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    this.liveness = c;
    try {
      await c.connect();
      const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [LIVENESS_NS, this.livenessKey]);
      if (!rows[0]?.ok) this.log(`job liveness key ${this.livenessKey} is held by another session: jobs of this process recover by expiry only`);
    } catch (err) {
      lost(err);
      throw err;
    }
  }

  private recovering = false;

  /** Releases the active jobs of processes that died (PostgreSQL); answers how many. */
  async recover(): Promise<number> {
    if (this.recovering) return 0;
    this.recovering = true;
    try {
      return this.count(await this.database.query(RELEASE_ORPHANS));
    } catch (err) {
      if (this.started) this.log('could not release the jobs of stopped processes', err);
      return 0;
    } finally {
      this.recovering = false;
    }
  }

  /** Counts released jobs, logs them and wakes their queues' workers here. */
  private count({ rows }: { rows: unknown[] }): number {
    const names = new Set((rows as { name: string }[]).map((r) => r.name));
    if (rows.length) {
      this.released += rows.length;
      this.log(`released ${rows.length} job(s) whose process had stopped: ${[...names].join(', ')}`);
      for (const name of names) this.nudge(name);
    }
    return rows.length;
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
    startedOn.set(this.database, Math.max(0, (startedOn.get(this.database) ?? 1) - 1));
    // Only now: a job still running above kept its lock until it finished.
    const c = this.liveness;
    this.liveness = null;
    await c?.end().catch(() => {});
  }
}
