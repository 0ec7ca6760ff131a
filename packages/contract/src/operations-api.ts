import { z } from 'zod';
import { answerRow, component } from './answers.js';
import { queryBigId, queryInt32, text } from './input.js';

/**
 * Operations (issue 16, spec §2 server_list, script, mysql_lock, mysql_time_consuming): request and
 * answer shapes of /api/v1/operations/*.
 */

// ------------------------------------------------------------------------------------------ servers

export const SERVER_STATES = ['up', 'down', 'stopped'] as const;

export const serverRow = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number(),
  version: z.string(),
  database_kind: z.string(),
  started_at: z.string(),
  last_beat_at: z.string(),
  stopped_at: z.string().nullable(),
  state: z.enum(SERVER_STATES),
  /** This answer came from this process. */
  current: z.boolean(),
  leaderships: z.array(z.string()),
  jobs_running: z.number(),
  rss_bytes: z.number(),
  heap_used_bytes: z.number(),
  heap_total_bytes: z.number(),
  loop_delay_p99_ms: z.number(),
  pool_in_use: z.number(),
  pool_total: z.number(),
});
export type ServerRow = z.infer<typeof serverRow>;
export const serverListAnswer = z.object({ rows: z.array(serverRow), beat_seconds: z.number(), down_after_seconds: z.number() });
export type ServerListAnswer = z.infer<typeof serverListAnswer>;
export const serverParams = z.object({ id: z.string().uuid() });

// ------------------------------------------------------------------------------------------ scripts

export const scriptArgField = z.object({
  name: z.string(),
  type: z.enum(['int', 'day', 'text', 'choice']),
  required: z.boolean(),
  default: z.union([z.string(), z.number()]).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  options: z.array(z.string()).optional(),
});
export const scriptDefRow = z.object({
  name: z.string(),
  version: z.number(),
  dangerous: z.boolean(),
  changes_data: z.boolean(),
  fields: z.array(scriptArgField),
});
export type ScriptDefRow = z.infer<typeof scriptDefRow>;
/** A server a script can run on (up now). */
export const scriptTarget = z.object({ id: z.string(), host: z.string(), pid: z.number(), current: z.boolean() });
export type ScriptTarget = z.infer<typeof scriptTarget>;
export const scriptListAnswer = z.object({ rows: z.array(scriptDefRow), targets: z.array(scriptTarget) });
export type ScriptListAnswer = z.infer<typeof scriptListAnswer>;

export const SCRIPT_RUN_STATES = ['awaiting_approval', 'queued', 'running', 'succeeded', 'failed', 'interrupted', 'withdrawn'] as const;

export const scriptRunRow = z.object({
  id: z.number(),
  script: z.string(),
  version: z.number(),
  args: z.record(z.string(), z.unknown()),
  dry_run: z.boolean(),
  dangerous: z.boolean(),
  target: z.string(),
  target_host: z.string().nullable(),
  requested_by: z.number(),
  requested_by_account: z.string().nullable(),
  approved_by: z.number().nullable(),
  approved_by_account: z.string().nullable(),
  status: z.enum(SCRIPT_RUN_STATES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
});
export type ScriptRunRow = z.infer<typeof scriptRunRow>;
export const scriptRunListQuery = z.object({
  status: z.enum(SCRIPT_RUN_STATES).optional(),
  script: text(64).optional(),
  page: queryInt32(1, 100_000).optional(),
  size: queryInt32(1, 100).optional(),
});
export const scriptRunListAnswer = z.object({ rows: z.array(scriptRunRow), total: z.number() });
export type ScriptRunListAnswer = z.infer<typeof scriptRunListAnswer>;

/** A run request: the script's arguments are checked against its own schema (unknown script or bad arguments: 400). */
export const scriptRunBody = z.strictObject({
  script: text(64).pipe(z.string().min(1)),
  args: z.record(z.string(), z.unknown()).default({}),
  dry_run: z.boolean().default(false),
  target: z.string().uuid(),
});
export const scriptRunParams = z.object({ id: queryBigId() });
export const scriptOutputQuery = z.object({ after: queryInt32(0).optional(), limit: queryInt32(1, 1000).optional() });
export const scriptOutputLine = answerRow({ seq: 'number', line: 'string', at: 'string' });
export type ScriptOutputLine = z.infer<typeof scriptOutputLine>;
export const scriptOutputAnswer = z.object({ run: scriptRunRow, lines: z.array(scriptOutputLine) });
export type ScriptOutputAnswer = z.infer<typeof scriptOutputAnswer>;

// ----------------------------------------------------------------------------------- database views

export const lockRow = z.object({
  pid: z.number(),
  user: z.string().nullable(),
  application: z.string().nullable(),
  client: z.string().nullable(),
  database: z.string().nullable(),
  state: z.string().nullable(),
  query: z.string().nullable(),
  query_start: z.string().nullable(),
  xact_start: z.string().nullable(),
  wait_event: z.string().nullable(),
  locks: z.array(z.string()),
  granted: z.boolean(),
  blocked_by: z.array(z.number()),
  blocking: z.array(z.number()),
  /** One of the server's own connections: never released from here. */
  own: z.boolean(),
});
export type LockRow = z.infer<typeof lockRow>;
/** `supported` false on the embedded database (the message says what cannot be shown). */
export const lockListAnswer = z.object({ supported: z.boolean(), message: z.string().nullable(), rows: z.array(lockRow) });
export type LockListAnswer = z.infer<typeof lockListAnswer>;
export const lockParams = z.object({ pid: queryInt32(1) });

export const activityRow = z.object({
  pid: z.number(),
  user: z.string().nullable(),
  host: z.string().nullable(),
  database: z.string().nullable(),
  application: z.string().nullable(),
  command: z.string().nullable(),
  state: z.string().nullable(),
  seconds: z.number(),
  sql: z.string().nullable(),
  own: z.boolean(),
});
export type ActivityRow = z.infer<typeof activityRow>;
export const statementRow = answerRow({ query: 'string', calls: 'number', total_ms: 'number', mean_ms: 'number', rows: 'number' });
export type StatementRow = z.infer<typeof statementRow>;
export const activityAnswer = z.object({
  supported: z.boolean(),
  message: z.string().nullable(),
  rows: z.array(activityRow),
  statements: z.object({ available: z.boolean(), message: z.string().nullable(), by_total: z.array(statementRow), by_mean: z.array(statementRow) }),
});
export type ActivityAnswer = z.infer<typeof activityAnswer>;

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(scriptRunRow, 'ScriptRunRow');
