import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Operations (issue 16, spec §2 server_list and script): the server processes' beats and the script
 * runner's runs and their output. Read by the console only; nothing here moves money.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One row per server process that ever started: it registers at start and beats every 5 s. */
export const serverProcesses = pgTable(
  'server_processes',
  {
    id: uuid('id').primaryKey(),
    host: text('host').notNull(),
    pid: integer('pid').notNull(),
    /** Package version, plus the git commit when known (`0.1.0+c915530`). */
    version: text('version').notNull(),
    databaseKind: text('database_kind').notNull(),
    startedAt: ts('started_at').notNull(),
    lastBeatAt: ts('last_beat_at').notNull(),
    /** Set by a graceful stop; a process that died just stops beating (down after 30 s). */
    stoppedAt: ts('stopped_at'),
    /** The leaderships it holds (platform/leader.ts names: simulation, tron-sandbox, casino-sandbox). */
    leaderships: jsonb('leaderships').$type<string[]>().notNull().default([]),
    jobsRunning: integer('jobs_running').notNull().default(0),
    rssBytes: bigint('rss_bytes', { mode: 'number' }).notNull().default(0),
    heapUsedBytes: bigint('heap_used_bytes', { mode: 'number' }).notNull().default(0),
    heapTotalBytes: bigint('heap_total_bytes', { mode: 'number' }).notNull().default(0),
    /** Event-loop delay, 99th percentile over the last beat's window (ms). */
    loopDelayP99Ms: real('loop_delay_p99_ms').notNull().default(0),
    poolInUse: integer('pool_in_use').notNull().default(0),
    poolTotal: integer('pool_total').notNull().default(0),
  },
  (t) => [index('server_processes_beat').on(t.lastBeatAt)],
);

/**
 * A run of an allow-listed script (./scripts): requested by an admin for a target process, approved by a
 * second admin when the script is dangerous (not for a dry run), claimed and run by the target process itself.
 * status: awaiting_approval → queued → running → succeeded | failed; interrupted when the target died;
 * withdrawn by its requester while it awaited approval.
 */
export const scriptRuns = pgTable(
  'script_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    script: text('script').notNull(),
    version: integer('version').notNull(),
    args: jsonb('args').$type<Record<string, unknown>>().notNull(),
    dryRun: boolean('dry_run').notNull(),
    dangerous: boolean('dangerous').notNull(),
    target: uuid('target').notNull(),
    requestedBy: integer('requested_by').notNull(),
    approvedBy: integer('approved_by'),
    status: text('status').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    approvedAt: ts('approved_at'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    /** The script's summary (a small JSON object), redacted. */
    result: jsonb('result').$type<Record<string, unknown>>(),
    error: text('error'),
  },
  (t) => [index('script_runs_target_status').on(t.target, t.status), index('script_runs_created').on(t.createdAt)],
);

/** The output lines of a run, in order (redacted before they are written). */
export const scriptRunOutput = pgTable(
  'script_run_output',
  {
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    seq: integer('seq').notNull(),
    line: text('line').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);
