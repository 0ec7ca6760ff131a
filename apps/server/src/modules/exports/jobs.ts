import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { ASYNC_OPERATION_STATUS, EXPORT_FORMAT, message, normalizeLocale } from '@dau/domain';
import { asyncOperations } from './schema.js';
import { adminAuthOf } from '../../platform/access.js';
import { AppError } from '../../platform/errors.js';
import { listSpecs, scopeForList } from '../../platform/listing.js';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import type { JobRun } from '../../platform/jobs.js';
import { createNotices, publishNotices } from '../notices/index.js';
import { EXTENSION, ExportCancelled, runExport, type ExportFormat } from './run.js';
import { ZipTooLargeError } from './zip.js';

export type AsyncOperation = typeof asyncOperations.$inferSelect;

const { in_progress: IN_PROGRESS, completed: COMPLETED, abnormal: ABNORMAL } = ASYNC_OPERATION_STATUS;

/** A sentence for the operator (stored as error_message): never a stack, a query or its parameters. */
export class ExportRefused extends Error {}

/** The name offered to the browser: `<type>-<yyyymmdd-hhmmss>.<ext>` (UTC). */
export function downloadNameOf(job: Pick<AsyncOperation, 'type' | 'format' | 'createdAt'>) {
  const stamp = job.createdAt.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${job.type.replace(/[^A-Za-z0-9_-]/g, '_')}-${stamp}.${EXTENSION[job.format as ExportFormat] ?? 'csv'}`;
}

function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

function errnoOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** What went wrong, as one sentence for the operator. */
export function describeFailure(err: unknown, locale: string): string {
  if (err instanceof ExportRefused || err instanceof ZipTooLargeError) return err.message;
  if (err instanceof AppError) {
    const details = Array.isArray(err.details)
      ? (err.details as { field?: string; message?: string }[]).map((d) => [d.field, d.message].filter(Boolean).join(': ')).join('; ')
      : '';
    return `The saved filters were refused: ${message(err.code, locale, err.params)}${details ? ` (${details})` : ''}.`;
  }
  const errno = errnoOf(err);
  if (errno === 'ENOSPC') return 'The server ran out of disk space while writing the file.';
  if (errno) return `The server could not write the export file (${errno}).`;
  const state = sqlState(err);
  if (state) return `The database refused the export query (SQLSTATE ${state}). Narrow the filters or try again; the server log has the details.`;
  return 'The export failed unexpectedly; the server log has the details.';
}

/** The queue of export runs and the periodic revival of runs cut by a crash (platform/jobs.ts). */
export const EXPORT_RUN_JOB = 'exports.run';
export const EXPORT_REVIVE_JOB = 'exports.revive';

/** What the operator reads when an export was cut short too many times. */
export const INTERRUPTED = 'The export was interrupted before it finished (the server stopped). Please export again.';

const seconds = (env: string | undefined, fallback: number) => (Number(env) > 0 ? Number(env) : fallback);

export interface ExportJobsOptions {
  /** How often the row count (and so updated_at, the heartbeat) is written while an export runs. */
  progressMs?: number;
  /** An export in progress without a heartbeat for this long belonged to a process that died (default 60 s; `DAU_EXPORT_STALE_SECONDS`). */
  staleMs?: number;
  /** How often one process looks for such exports (default 30 s; `DAU_EXPORT_REVIVE_SECONDS`). */
  reviveSeconds?: number;
  /** Runs of one export before an interrupted one is given up as abnormal (default 3). */
  maxAttempts?: number;
}

type Running = { abort: AbortController; done: Promise<void> };

/**
 * Exports run as durable jobs. The request inserts the `async_operations` row and enqueues an
 * `exports.run {id}` job in one transaction. The job claims the row with one conditional update (still
 * in progress, no file yet), which counts an attempt and names the attempt's file
 * `<id>-<attempt>-<type>.<ext>`, so each job runs an export at most once however often pg-boss delivers
 * it, across processes. Status 1 with no file path is queued, with a file path running; while it runs,
 * a timer writes the row count and `updated_at` (the heartbeat), and deleting the row cancels it.
 *
 * A run cut by a crash: the job queue hands the dead process's job to a live one within seconds, and
 * that later run of the same job takes the row over (`takeOver`: removes the partial file, claims a new
 * attempt). The periodic `exports.revive` job (one process at a time) remains for what the queue cannot
 * see (a row whose heartbeat stopped without its job being handed on: a run job lost, a process hung past
 * its job's expiry): it removes the partial file, puts the row back in the queue and enqueues a new run,
 * in one transaction. After `maxAttempts` runs either gives up and marks it abnormal, so an export that
 * kills its server does not loop forever. A graceful stop puts the running exports back
 * the same way, without counting the attempt. Every write of a run is conditional on its attempt, so a
 * run that lost its claim (revived while its process only stalled) stops and touches nothing else.
 * The asking admin's scope and permission are read again when the export runs.
 */
export class ExportJobs {
  private stopping = false;
  private running = new Map<number, Running>();
  private dirReady: Promise<unknown> | null = null;
  private readonly progressMs: number;
  private readonly staleSeconds: number;
  private readonly maxAttempts: number;

  constructor(
    private ctx: AppContext,
    readonly dir: string,
    private log: FastifyBaseLogger,
    opts: ExportJobsOptions = {},
  ) {
    this.progressMs = opts.progressMs ?? 1000;
    this.staleSeconds = opts.staleMs ? opts.staleMs / 1000 : seconds(process.env.DAU_EXPORT_STALE_SECONDS, 60);
    this.maxAttempts = opts.maxAttempts ?? 3;
    // Failures of an export are recorded on its row; a job fails only when the database could not be
    // reached (retried with back-off) or this process is stopping. An export may run long: the revive
    // job, not the job's expiry, decides when its process is gone.
    ctx.jobs.define<{ id: number }>(EXPORT_RUN_JOB, ({ id }, run) => this.runJob(id, run), { retryLimit: 10, retryDelaySeconds: 1, expireInSeconds: 3600 });
    ctx.jobs.every(EXPORT_REVIVE_JOB, opts.reviveSeconds ?? seconds(process.env.DAU_EXPORT_REVIVE_SECONDS, 30), () => this.revive());
  }

  /** On the transaction that queues the export: its run is enqueued if and only if the row commits. */
  async queue(tx: Executor, id: number) {
    await this.ctx.jobs.send(tx, EXPORT_RUN_JOB, { id });
  }

  /** Takes export jobs again after `stop` (tests). */
  start() {
    this.stopping = false;
  }

  /** Stops the running exports and puts them back in the queue (another process, or the next start, runs them). */
  async stop() {
    this.stopping = true;
    const running = [...this.running.values()];
    for (const r of running) r.abort.abort();
    await Promise.all(running.map((r) => r.done));
  }

  pathOf(fileName: string) {
    return path.join(this.dir, path.basename(fileName));
  }

  async removeFiles(fileName: string) {
    const p = this.pathOf(fileName);
    await fs.rm(p, { force: true }).catch(() => {});
    await fs.rm(`${p}.part`, { force: true }).catch(() => {});
  }

  /** The `exports.run` handler. */
  private async runJob(id: number, run: JobRun) {
    if (this.stopping) throw new Error('this server is stopping: the export runs after the retry delay, here after a restart or on another server');
    const abort = new AbortController();
    const done = (async () => {
      const job = run.retryCount > 0 ? await this.takeOver(id) : await this.claim(id);
      // Deleted, finished, or running under another claim: nothing to do.
      if (job) await this.execute(job, abort);
    })();
    this.running.set(id, { abort, done });
    try {
      await done;
    } finally {
      this.running.delete(id);
    }
  }

  /** A new attempt's claim of the row (its file name, the attempt counted), where `where` holds. */
  private async claimWhere(ex: Executor, where: SQL): Promise<AsyncOperation | null> {
    const attempt = sql`(${asyncOperations.attempts} + 1)`;
    const rows = await ex
      .update(asyncOperations)
      .set({
        filePath: sql`${asyncOperations.id}::text || '-' || ${attempt}::text || '-' || regexp_replace(${asyncOperations.type}, '[^A-Za-z0-9_-]', '_', 'g') || CASE ${asyncOperations.format} WHEN ${EXPORT_FORMAT.xlsx} THEN '.xlsx' ELSE '.csv' END`,
        attempts: attempt,
        rowCount: 0,
        updatedAt: sql`now()`,
      })
      .where(where)
      .returning();
    return rows[0] ?? null;
  }

  /** The first run of an export's job: the row if still queued (in progress, no file yet). */
  private claim(id: number): Promise<AsyncOperation | null> {
    return this.claimWhere(this.ctx.db, and(eq(asyncOperations.id, id), eq(asyncOperations.status, IN_PROGRESS), isNull(asyncOperations.filePath))!);
  }

  /**
   * A later run of the same job: the earlier one has ended (it failed, or its process died: the job queue
   * runs a job in one place at a time and hands a dead process's job on within seconds), so the row is
   * taken over at once, without waiting for its heartbeat to go stale: the earlier attempt's partial file
   * is removed and a new attempt claims the row (a run that only stalled loses its claim and stops). After
   * `maxAttempts` the export is given up, as by `revive`.
   */
  private async takeOver(id: number): Promise<AsyncOperation | null> {
    const { db } = this.ctx;
    const [prior] = await db.select().from(asyncOperations).where(and(eq(asyncOperations.id, id), eq(asyncOperations.status, IN_PROGRESS)));
    if (!prior) return null;
    if (!prior.filePath) return this.claim(id);
    const where = and(this.mine(prior), eq(asyncOperations.filePath, prior.filePath))!;
    if (prior.attempts >= this.maxAttempts) {
      await this.giveUp(prior, where);
      return null;
    }
    const job = await this.claimWhere(db, where);
    if (job) {
      this.log.warn({ job: id, attempts: job.attempts }, 'export runner: an export cut short by a stopped server runs again');
      await this.removeFiles(prior.filePath);
    }
    return job;
  }

  /** Marks an export abnormal ("interrupted"), removes its file and tells its admin, if the row still matches `where`. */
  private async giveUp(job: AsyncOperation, where: SQL) {
    const failed = await this.ctx.db
      .update(asyncOperations)
      .set({ status: ABNORMAL, errorMessage: INTERRUPTED, filePath: null, updatedAt: sql`now()` })
      .where(where)
      .returning({ id: asyncOperations.id });
    if (!failed.length) return;
    this.log.warn({ job: job.id, attempts: job.attempts }, 'export runner: an export cut short too many times is given up');
    if (job.filePath) await this.removeFiles(job.filePath);
    await this.notify(job, message('EXPORT_FAILED', localeOf(job), { id: job.id, type: job.type, reason: INTERRUPTED }));
  }

  /** The row of this run: still in progress under the same claim. */
  private mine(job: AsyncOperation): SQL {
    return and(eq(asyncOperations.id, job.id), eq(asyncOperations.status, IN_PROGRESS), eq(asyncOperations.attempts, job.attempts))!;
  }

  /**
   * Back to the queue with a new run job, in one transaction, if the row still matches `where`; the
   * attempt is counted unless `giveBack`. Answers whether it was put back.
   */
  private async putBack(id: number, where: SQL, giveBack: boolean): Promise<boolean> {
    return this.ctx.db.transaction(async (tx) => {
      const back = await tx
        .update(asyncOperations)
        .set({ filePath: null, rowCount: 0, updatedAt: sql`now()`, ...(giveBack ? { attempts: sql`greatest(${asyncOperations.attempts} - 1, 0)` } : {}) })
        .where(where)
        .returning({ id: asyncOperations.id });
      if (back.length) await this.queue(tx, id);
      return back.length > 0;
    });
  }

  /**
   * The `exports.revive` job: exports in progress whose heartbeat stopped (their process died) go back
   * to the queue with a new run, or are marked abnormal after `maxAttempts` runs; their partial files
   * are removed. Queued exports that lost their run job (queued before the job queue existed) get one.
   */
  async revive() {
    const { db } = this.ctx;
    const stale = sql`${asyncOperations.updatedAt} < now() - make_interval(secs => ${this.staleSeconds})`;
    const dead = await db
      .select()
      .from(asyncOperations)
      .where(and(eq(asyncOperations.status, IN_PROGRESS), isNotNull(asyncOperations.filePath), stale));
    for (const job of dead) {
      const where = and(this.mine(job), eq(asyncOperations.filePath, job.filePath!), stale)!;
      if (job.attempts < this.maxAttempts) {
        if (await this.putBack(job.id, where, false)) {
          this.log.warn({ job: job.id, attempts: job.attempts }, 'export runner: an export cut short by a stopped server is queued again');
          await this.removeFiles(job.filePath!);
        }
        continue;
      }
      await this.giveUp(job, where);
    }
    const orphans = await db
      .select({ id: asyncOperations.id })
      .from(asyncOperations)
      .where(
        and(
          eq(asyncOperations.status, IN_PROGRESS),
          isNull(asyncOperations.filePath),
          stale,
          sql`NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = ${EXPORT_RUN_JOB} AND j.state IN ('created', 'retry', 'active') AND j.data->>'id' = ${asyncOperations.id}::text)`,
        ),
      );
    for (const { id } of orphans) await db.transaction((tx) => this.queue(tx, id));
  }

  /** The asking admin as they are now: role, permission to export this list, and data scope. */
  private async askerOf(job: AsyncOperation) {
    const auth = await adminAuthOf(this.ctx.db, job.adminId);
    if (!auth) throw new ExportRefused('The administrator who asked for this export no longer exists or is disabled.');
    return auth;
  }

  private async execute(job: AsyncOperation, abort: AbortController) {
    const { db } = this.ctx;
    const params = (job.params ?? {}) as Record<string, unknown>;
    const locale = localeOf(job);
    const fileName = job.filePath!;
    const file = this.pathOf(fileName);
    let rows = 0;
    // Deleted, or revived by another process while this one stalled: the row is no longer this run's.
    let lost = false;
    let beating: Promise<void> | null = null;
    const beat = async () => {
      const r = await db.update(asyncOperations).set({ rowCount: rows, updatedAt: sql`now()` }).where(this.mine(job)).returning({ id: asyncOperations.id });
      if (!r.length) {
        lost = true;
        abort.abort();
      }
    };
    // The heartbeat runs on a timer, so a long query between two batches does not look like a dead process.
    const timer = setInterval(() => {
      if (beating) return;
      beating = beat()
        .catch((err) => this.log.warn({ err, job: job.id }, 'export runner: progress update failed'))
        .finally(() => {
          beating = null;
        });
    }, this.progressMs);
    try {
      await (this.dirReady ??= fs.mkdir(this.dir, { recursive: true }));
      const spec = listSpecs().get(job.type);
      if (!spec) throw new ExportRefused(`This kind of export (${job.type}) is not available on this server.`);
      if (job.format !== EXPORT_FORMAT.csv && job.format !== EXPORT_FORMAT.xlsx) throw new ExportRefused(`Unknown export format ${job.format}.`);
      const auth = await this.askerOf(job);
      if (!auth.can(spec.page, 'export')) throw new ExportRefused('The administrator who asked no longer holds the permission to export this list.');
      const scope = await scopeForList(db, auth, spec);
      const result = await runExport(db, spec, params, scope, job.format as ExportFormat, file, {
        signal: abort.signal,
        onProgress: (n) => {
          rows = n;
          return !abort.signal.aborted;
        },
      });
      rows = result.rows;
      clearInterval(timer);
      await beating;
      const done = await db
        .update(asyncOperations)
        .set({ status: COMPLETED, rowCount: result.rows, fileName: downloadNameOf(job), errorMessage: null, updatedAt: sql`now()` })
        .where(this.mine(job))
        .returning({ id: asyncOperations.id });
      if (!done.length) {
        // Deleted (or taken over) while it was finishing: the file has no owner any more.
        await this.removeFiles(fileName);
        return;
      }
      this.log.info({ job: job.id, type: job.type, rows: result.rows, ms: Math.round(result.ms), bytes: result.bytes }, 'export completed');
      await this.notify(job, message('EXPORT_READY', locale, { id: job.id, type: job.type, rows: result.rows }));
    } catch (err) {
      clearInterval(timer);
      await beating;
      await this.removeFiles(fileName);
      if (err instanceof ExportCancelled || abort.signal.aborted) {
        if (lost) return; // deleted by the operator, or run again elsewhere: nothing left to record here
        if (this.stopping) {
          // Shutting down: back to the queue, to be run again from the start; the stop is not the export's fault.
          await this.putBack(job.id, this.mine(job), true).catch((e: unknown) => this.log.warn({ err: e, job: job.id }, 'export runner: could not requeue'));
          return;
        }
      }
      const text = describeFailure(err, locale);
      if (!(err instanceof ExportRefused)) this.log.error({ err, job: job.id, type: job.type }, 'export failed');
      const failed = await db
        .update(asyncOperations)
        .set({ status: ABNORMAL, errorMessage: text, filePath: null, rowCount: rows, updatedAt: sql`now()` })
        .where(this.mine(job))
        .returning({ id: asyncOperations.id });
      if (failed.length) await this.notify(job, message('EXPORT_FAILED', locale, { id: job.id, type: job.type, reason: text }));
    } finally {
      clearInterval(timer);
    }
  }

  private async notify(job: AsyncOperation, content: string) {
    try {
      const events = await createNotices(this.ctx.db, [job.adminId], content);
      await publishNotices(this.ctx.bus, events);
    } catch (err) {
      this.log.warn({ err, job: job.id }, 'export runner: notice failed');
    }
  }
}

/** The language the export was asked in (its labels, its notices). */
function localeOf(job: AsyncOperation) {
  const params = (job.params ?? {}) as Record<string, unknown>;
  return normalizeLocale(typeof params.locale === 'string' ? params.locale : undefined);
}
