import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { ASYNC_OPERATION_STATUS, EXPORT_FORMAT, message, normalizeLocale } from '@dau/domain';
import { asyncOperations } from '../money/schema.js';
import { adminAuthOf } from '../../platform/access.js';
import { AppError } from '../../platform/errors.js';
import { listSpecs, scopeForList } from '../../platform/listing.js';
import type { AppContext } from '../../platform/context.js';
import { createNotices, publishNotices } from '../notices/service.js';
import { EXTENSION, ExportCancelled, runExport, type ExportFormat } from './run.js';
import { ZipTooLargeError } from './zip.js';

export type AsyncOperation = typeof asyncOperations.$inferSelect;

const { in_progress: IN_PROGRESS, completed: COMPLETED, abnormal: ABNORMAL } = ASYNC_OPERATION_STATUS;

/** A sentence for the operator (stored as error_message): never a stack, a query or its parameters. */
export class ExportRefused extends Error {}

/** The name of the file of a job inside the exports folder: `<id>-<type>.<csv|xlsx>`. */
export function fileNameOf(job: Pick<AsyncOperation, 'id' | 'type' | 'format'>) {
  return `${job.id}-${job.type.replace(/[^A-Za-z0-9_-]/g, '_')}.${EXTENSION[job.format as ExportFormat] ?? 'csv'}`;
}

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

export interface ExportJobsOptions {
  /** How often an idle runner looks for work queued by other processes (a local request wakes it at once). */
  pollMs?: number;
  /** How often the row count (and so updated_at, the heartbeat) is written while a job runs. */
  progressMs?: number;
  /** A job in progress without a heartbeat for this long belonged to a process that died: it is marked abnormal. */
  staleMs?: number;
}

/**
 * The in-process export runner: one job at a time per process. A job is claimed with one statement
 * (`UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED)`, setting its file path), so several
 * processes on one PostgreSQL share the queue without taking the same job; on PGlite there is one
 * process and the jobs simply run in turn. Status 1 with no file path is queued, with a file path
 * running. The asking admin's scope and permission are read again when the job runs.
 */
export class ExportJobs {
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private pending = false;
  private current: AbortController | null = null;
  private lastStaleCheck = 0;
  private readonly pollMs: number;
  private readonly progressMs: number;
  private readonly staleMs: number;

  constructor(
    private ctx: AppContext,
    readonly dir: string,
    private log: FastifyBaseLogger,
    opts: ExportJobsOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 2000;
    this.progressMs = opts.progressMs ?? 1000;
    this.staleMs = opts.staleMs ?? 120_000;
  }

  async start() {
    if (this.loop) return;
    await fs.mkdir(this.dir, { recursive: true });
    this.stopping = false;
    this.loop = this.run();
  }

  /** Stops after the current batch: a job cut short goes back to the queue (another process, or the next start, runs it). */
  async stop() {
    this.stopping = true;
    this.current?.abort();
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  /** A job was queued here: look now rather than at the next poll. */
  kick() {
    this.pending = true;
    this.wake?.();
  }

  pathOf(fileName: string) {
    return path.join(this.dir, path.basename(fileName));
  }

  private sleep(ms: number) {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  private async run() {
    while (!this.stopping) {
      let worked = false;
      try {
        if (Date.now() - this.lastStaleCheck > Math.min(this.staleMs / 2, 60_000)) {
          this.lastStaleCheck = Date.now();
          await this.failStale();
        }
        const job = await this.claim();
        if (job) {
          worked = true;
          await this.execute(job);
        }
      } catch (err) {
        if (this.stopping) break;
        this.log.error({ err }, 'export runner: unexpected error');
      }
      if (!worked && !this.stopping) await this.sleep(this.pollMs);
    }
  }

  private async claim(): Promise<AsyncOperation | null> {
    const { db } = this.ctx;
    const rows = await db
      .update(asyncOperations)
      .set({
        filePath: sql`${asyncOperations.id}::text || '-' || regexp_replace(${asyncOperations.type}, '[^A-Za-z0-9_-]', '_', 'g') || CASE ${asyncOperations.format} WHEN ${EXPORT_FORMAT.xlsx} THEN '.xlsx' ELSE '.csv' END`,
        rowCount: 0,
        updatedAt: new Date(),
      })
      .where(
        eq(
          asyncOperations.id,
          sql`(SELECT id FROM async_operations WHERE status = ${IN_PROGRESS} AND file_path IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)`,
        ),
      )
      .returning();
    return rows[0] ?? null;
  }

  /** Jobs left running by a process that stopped without a word: abnormal, partial files removed. */
  async failStale() {
    const { db } = this.ctx;
    const rows = await db
      .update(asyncOperations)
      .set({ status: ABNORMAL, errorMessage: 'The export was interrupted before it finished (the server stopped). Please export again.', updatedAt: new Date() })
      .where(
        and(
          eq(asyncOperations.status, IN_PROGRESS),
          sql`${asyncOperations.filePath} IS NOT NULL`,
          sql`${asyncOperations.updatedAt} < now() - make_interval(secs => ${this.staleMs / 1000})`,
        ),
      )
      .returning({ id: asyncOperations.id, filePath: asyncOperations.filePath });
    for (const r of rows) if (r.filePath) await this.removeFiles(r.filePath);
    if (rows.length) this.log.warn({ ids: rows.map((r) => r.id) }, 'export runner: stale jobs marked abnormal');
  }

  async removeFiles(fileName: string) {
    const p = this.pathOf(fileName);
    await fs.rm(p, { force: true }).catch(() => {});
    await fs.rm(`${p}.part`, { force: true }).catch(() => {});
  }

  /** The asking admin as they are now: role, permission to export this list, and data scope. */
  private async askerOf(job: AsyncOperation) {
    const { db } = this.ctx;
    const auth = await adminAuthOf(db, job.adminId);
    if (!auth) throw new ExportRefused('The administrator who asked for this export no longer exists or is disabled.');
    return auth;
  }

  private async execute(job: AsyncOperation) {
    const { db, bus } = this.ctx;
    const params = (job.params ?? {}) as Record<string, unknown>;
    const locale = normalizeLocale(typeof params.locale === 'string' ? params.locale : undefined);
    const fileName = job.filePath ?? fileNameOf(job);
    const file = this.pathOf(fileName);
    const abort = new AbortController();
    this.current = abort;
    let rows = 0;
    let deleted = false;
    let beating: Promise<void> | null = null;
    const beat = async () => {
      const r = await db
        .update(asyncOperations)
        .set({ rowCount: rows, updatedAt: new Date() })
        .where(and(eq(asyncOperations.id, job.id), eq(asyncOperations.status, IN_PROGRESS)))
        .returning({ id: asyncOperations.id });
      if (!r.length) {
        deleted = true;
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
        .set({ status: COMPLETED, rowCount: result.rows, fileName: downloadNameOf(job), errorMessage: null, updatedAt: new Date() })
        .where(and(eq(asyncOperations.id, job.id), eq(asyncOperations.status, IN_PROGRESS)))
        .returning({ id: asyncOperations.id });
      if (!done.length) {
        // Deleted while it was finishing: the file has no owner any more.
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
        if (deleted) return; // the operator deleted it: nothing left to record
        if (this.stopping) {
          // Shutting down: back to the queue, to be run again from the start.
          await db
            .update(asyncOperations)
            .set({ filePath: null, rowCount: 0, updatedAt: new Date() })
            .where(and(eq(asyncOperations.id, job.id), eq(asyncOperations.status, IN_PROGRESS)))
            .catch((e: unknown) => this.log.warn({ err: e, job: job.id }, 'export runner: could not requeue'));
          return;
        }
      }
      const text = describeFailure(err, locale);
      if (!(err instanceof ExportRefused)) this.log.error({ err, job: job.id, type: job.type }, 'export failed');
      const failed = await db
        .update(asyncOperations)
        .set({ status: ABNORMAL, errorMessage: text, filePath: null, rowCount: rows, updatedAt: new Date() })
        .where(and(eq(asyncOperations.id, job.id), eq(asyncOperations.status, IN_PROGRESS)))
        .returning({ id: asyncOperations.id });
      if (failed.length) await this.notify(job, message('EXPORT_FAILED', locale, { id: job.id, type: job.type, reason: text }));
    } finally {
      clearInterval(timer);
      this.current = null;
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
