import fs from 'node:fs/promises';
import { EXPORT_FORMAT, normalizeLocale } from '@dau/domain';
import type { Executor } from '../../platform/db.js';
import { iterateList, parseListQuery, type ListSpec, type Scope } from '../../platform/listing.js';
import { CsvWriter, XlsxWriter, type FileLook, type RowWriter } from './writers.js';
import { DEFAULT_TIME_ZONE, isTimeZone } from './cells.js';

export type ExportFormat = (typeof EXPORT_FORMAT)[keyof typeof EXPORT_FORMAT];

export const EXTENSION: Record<ExportFormat, string> = { 1: 'csv', 2: 'xlsx' };
export const CONTENT_TYPE: Record<ExportFormat, string> = {
  1: 'text/csv; charset=utf-8',
  2: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Thrown out of runExport when `onProgress` answers false or the signal aborts: the partial file is gone. */
export class ExportCancelled extends Error {
  constructor() {
    super('export cancelled');
  }
}

export interface ExportOptions {
  /** Called at most every `progressEveryMs` with the rows written so far; answering false cancels. */
  onProgress?: (rows: number) => boolean | void | Promise<boolean | void>;
  progressEveryMs?: number;
  signal?: AbortSignal;
  /** Rows per query (keyset batch). */
  batch?: number;
  /** XLSX deflate level (1 fastest .. 9 smallest). */
  level?: number;
}

/**
 * Streams the rows of a list, with its filters and a data scope, into `filePath` as CSV (1) or XLSX (2).
 * `params` are the list's filters as the client sent them plus an optional `locale` for the labels.
 * Memory stays flat: rows arrive in keyset batches (iterateList), each batch becomes one buffer that is
 * written (and, for XLSX, deflated) before the next is fetched, and nothing accumulates. The file is
 * written as `<filePath>.part` and renamed when complete; on any error or cancellation the partial file
 * is removed and the error is thrown.
 */
export async function runExport(
  db: Executor,
  spec: ListSpec,
  params: Record<string, unknown>,
  scope: Scope,
  format: ExportFormat,
  filePath: string,
  opts: ExportOptions = {},
): Promise<{ rows: number; ms: number; bytes: number }> {
  const t0 = performance.now();
  const { locale: rawLocale, labels: rawLabels, time_zone: rawZone, ...filters } = params;
  const locale = normalizeLocale(typeof rawLocale === 'string' ? rawLocale : undefined);
  const look: FileLook = {
    locale,
    labels: rawLabels && typeof rawLabels === 'object' ? Object.fromEntries(Object.entries(rawLabels).filter((e): e is [string, string] => typeof e[1] === 'string')) : undefined,
    timeZone: typeof rawZone === 'string' && isTimeZone(rawZone) ? rawZone : DEFAULT_TIME_ZONE,
  };
  const q = parseListQuery(spec, filters);
  const part = `${filePath}.part`;
  const fh = await fs.open(part, 'w');
  let rows = 0;
  let closed = false;
  try {
    const writer: RowWriter =
      format === EXPORT_FORMAT.xlsx ? new XlsxWriter(fh, spec.columns, look, spec.name, { level: opts.level }) : new CsvWriter(fh, spec.columns, look);
    await writer.start();
    const every = opts.progressEveryMs ?? 1000;
    let lastProgress = performance.now();
    const it = iterateList(db, spec, q, scope, opts.batch ?? 2000)[Symbol.asyncIterator]();
    // Fetch the next batch while the current one is written: one batch in flight, one being written.
    let next = it.next();
    next.catch(() => {});
    try {
      for (;;) {
        const r = await next;
        if (r.done) break;
        if (opts.signal?.aborted) throw new ExportCancelled();
        next = it.next();
        next.catch(() => {});
        await writer.write(r.value);
        rows += r.value.length;
        if (opts.onProgress && performance.now() - lastProgress >= every) {
          lastProgress = performance.now();
          if ((await opts.onProgress(rows)) === false) throw new ExportCancelled();
        }
      }
    } catch (err) {
      // Let the batch in flight settle before the generator is closed (a running async generator cannot return).
      await next.catch(() => {});
      await it.return?.(undefined).catch(() => {});
      throw err;
    }
    if (opts.signal?.aborted) throw new ExportCancelled();
    await writer.finish();
    const { size } = await fh.stat();
    await fh.close();
    closed = true;
    await fs.rename(part, filePath);
    return { rows, ms: performance.now() - t0, bytes: size };
  } catch (err) {
    if (!closed) await fh.close().catch(() => {});
    await fs.rm(part, { force: true }).catch(() => {});
    throw err;
  }
}
