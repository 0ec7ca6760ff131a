/**
 * The specification's MySQL screens read from PostgreSQL's own views:
 *
 * - locks (`mysql_lock`): every backend of the product's database that holds or waits for a lock
 *   (pg_locks + pg_stat_activity): thread id = backend pid, query, state, start time, lock types, and who
 *   blocks whom (pg_blocking_pids). Releasing = pg_terminate_backend on that backend, only within the
 *   product's database and never one of the server's own connections (application_name dau_*: the query
 *   pool, the job queue, the bus listener, the leaderships, the startup lock — of every process);
 * - long queries (`mysql_time_consuming`): pg_stat_activity now, and pg_stat_statements' top statements
 *   by total and by mean time when the extension is installed in the database.
 *
 * PGlite is one embedded connection: there is nobody else to see, and the answers say so.
 */
import type { Database } from '../../platform/db.js';

/** Connections of the product itself (see platform/db.ts, jobs.ts, leader.ts). */
export const OWN_APPLICATION = /^dau_/;

export interface LockRow {
  pid: number;
  user: string | null;
  application: string | null;
  client: string | null;
  database: string | null;
  state: string | null;
  query: string | null;
  query_start: string | null;
  xact_start: string | null;
  wait_event: string | null;
  locks: string[];
  granted: boolean;
  blocked_by: number[];
  blocking: number[];
  own: boolean;
}

export async function listLocks(database: Database): Promise<LockRow[]> {
  const { rows } = await database.query(
    `WITH l AS (
       SELECT a.pid, a.usename, a.application_name, a.client_addr::text AS client_addr, a.client_port, a.datname, a.state,
              left(a.query, 2000) AS query, a.query_start, a.xact_start, a.wait_event_type, a.wait_event,
              array_agg(DISTINCT lk.locktype || ':' || lk.mode || CASE WHEN lk.relation IS NOT NULL THEN ':' || lk.relation::regclass::text ELSE '' END) AS locks,
              bool_and(lk.granted) AS granted,
              pg_blocking_pids(a.pid) AS blocked_by
         FROM pg_locks lk JOIN pg_stat_activity a ON a.pid = lk.pid
        WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
          AND lk.locktype NOT IN ('virtualxid')
          AND NOT (lk.locktype = 'relation' AND lk.mode = 'AccessShareLock' AND lk.relation::regclass::text LIKE 'pg_%')
        GROUP BY a.pid, a.usename, a.application_name, a.client_addr, a.client_port, a.datname, a.state, a.query, a.query_start, a.xact_start, a.wait_event_type, a.wait_event
     )
     SELECT l.*, coalesce((SELECT array_agg(o.pid) FROM l o WHERE l.pid = ANY(o.blocked_by)), '{}') AS blocking
       FROM l ORDER BY cardinality(l.blocked_by) DESC, l.xact_start NULLS LAST, l.pid`,
    [],
  );
  return rows.map((r) => ({
    pid: Number(r.pid),
    user: r.usename ?? null,
    application: r.application_name || null,
    client: r.client_addr ? `${r.client_addr}:${r.client_port}` : null,
    database: r.datname ?? null,
    state: r.state ?? null,
    query: r.query ?? null,
    query_start: r.query_start ? new Date(r.query_start).toISOString() : null,
    xact_start: r.xact_start ? new Date(r.xact_start).toISOString() : null,
    wait_event: r.wait_event_type ? `${r.wait_event_type}:${r.wait_event}` : null,
    locks: (r.locks ?? []) as string[],
    granted: !!r.granted,
    blocked_by: ((r.blocked_by ?? []) as number[]).map(Number),
    blocking: ((r.blocking ?? []) as number[]).map(Number),
    own: OWN_APPLICATION.test(r.application_name ?? ''),
  }));
}

/** The backend as the release sees it: in our database? one of ours? */
export async function backendOf(database: Database, pid: number): Promise<{ ours: boolean; own: boolean; self: boolean } | null> {
  const { rows } = await database.query(
    `SELECT datname = current_database() AS ours, coalesce(application_name, '') AS app, pid = pg_backend_pid() AS self FROM pg_stat_activity WHERE pid = $1`,
    [pid],
  );
  const r = rows[0];
  if (!r) return null;
  return { ours: !!r.ours, own: OWN_APPLICATION.test(r.app), self: !!r.self };
}

/**
 * Terminates the backend, every condition inside the terminating statement itself (our database, not this
 * connection, not one of the product's own `dau_…` connections, and a backend that holds or waits for a
 * lock the list shows, never an idle one): a pid reused between the route's checks and this statement can
 * never end one of ours. False when no such backend is there any more.
 */
export async function terminateBackend(database: Database, pid: number): Promise<boolean> {
  const { rows } = await database.query(
    `SELECT pg_terminate_backend(a.pid) AS done FROM pg_stat_activity a
      WHERE a.pid = $1 AND a.datname = current_database() AND a.pid <> pg_backend_pid() AND coalesce(a.application_name, '') !~ $2
        AND EXISTS (SELECT 1 FROM pg_locks lk WHERE lk.pid = a.pid AND lk.locktype <> 'virtualxid'
                      AND NOT (lk.locktype = 'relation' AND lk.mode = 'AccessShareLock' AND lk.relation::regclass::text LIKE 'pg_%'))`,
    [pid, OWN_APPLICATION.source],
  );
  return !!rows[0]?.done;
}

export interface ActivityRow {
  pid: number;
  user: string | null;
  host: string | null;
  database: string | null;
  application: string | null;
  command: string | null;
  state: string | null;
  seconds: number;
  sql: string | null;
  own: boolean;
}

/** pg_stat_activity now: the client backends of the product's database, longest running first (MySQL's process list). */
export async function listActivity(database: Database): Promise<ActivityRow[]> {
  const { rows } = await database.query(
    `SELECT pid, usename, client_addr::text AS client_addr, client_port, datname, application_name, backend_type, state,
            coalesce(extract(epoch FROM now() - coalesce(query_start, backend_start)), 0)::float8 AS seconds, left(query, 2000) AS query
       FROM pg_stat_activity
      WHERE backend_type = 'client backend' AND datname = current_database() AND pid <> pg_backend_pid()
      ORDER BY (state = 'active') DESC, seconds DESC LIMIT 500`,
    [],
  );
  return rows.map((r) => ({
    pid: Number(r.pid),
    user: r.usename ?? null,
    host: r.client_addr ? `${r.client_addr}:${r.client_port}` : r.client_port === -1 ? 'local socket' : null,
    database: r.datname ?? null,
    application: r.application_name || null,
    command: r.state === 'active' ? 'Query' : r.state ? 'Sleep' : null,
    state: r.state ?? null,
    seconds: Math.round(Number(r.seconds) * 10) / 10,
    sql: r.query ?? null,
    own: OWN_APPLICATION.test(r.application_name ?? ''),
  }));
}

export interface StatementRow {
  query: string;
  calls: number;
  total_ms: number;
  mean_ms: number;
  rows: number;
}

/** pg_stat_statements' top 20 by total and by mean time (this database), or null when the extension is not installed here. */
export async function topStatements(database: Database): Promise<{ byTotal: StatementRow[]; byMean: StatementRow[] } | null> {
  const { rows: ext } = await database.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'`, []);
  if (!ext.length) return null;
  const read = async (order: string) => {
    try {
      const { rows } = await database.query(
        `SELECT left(s.query, 2000) AS query, s.calls::float8 AS calls, s.total_exec_time::float8 AS total_ms, s.mean_exec_time::float8 AS mean_ms, s.rows::float8 AS rows
           FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
          WHERE d.datname = current_database() ORDER BY ${order} DESC LIMIT 20`,
        [],
      );
      return rows.map((r) => ({ query: r.query, calls: Number(r.calls), total_ms: Math.round(Number(r.total_ms) * 100) / 100, mean_ms: Math.round(Number(r.mean_ms) * 100) / 100, rows: Number(r.rows) }));
    } catch {
      return null; // installed but not preloaded (shared_preload_libraries): it refuses to be read
    }
  };
  const byTotal = await read('s.total_exec_time');
  const byMean = await read('s.mean_exec_time');
  return byTotal && byMean ? { byTotal, byMean } : null;
}
