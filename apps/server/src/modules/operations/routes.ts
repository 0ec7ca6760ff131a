/**
 * Operations routes (/api/v1/operations/*). These are tools over the whole installation (processes,
 * scripts, the database's sessions): no bettor's or branch's data, so the data scope does not narrow
 * them; the permission is the gate (seeded for the super admin only: the administrator role excludes
 * these pages, menu.ts).
 *
 * - GET  /servers (server_list), DELETE /servers/:id (server_list:delete, a process that is down or stopped);
 * - GET  /scripts (script): the allow-list with argument fields;
 * - GET  /script-runs, GET /script-runs/:id/output?after=seq (script); POST /script-runs (script:run);
 *   POST /script-runs/:id/approve (script:approve, never by the requester);
 * - GET  /locks (mysql_lock), POST /locks/:pid/release (mysql_lock:release);
 * - GET  /activity (mysql_time_consuming).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, count, desc, eq, gt } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { LOG_TYPE, message } from '@dau/domain';
import {
  activityAnswer, lockListAnswer, lockParams, okAnswer, scriptListAnswer, scriptOutputAnswer, scriptOutputQuery, scriptRunBody,
  scriptRunListAnswer, scriptRunListQuery, scriptRunParams, serverListAnswer, serverParams,
} from '@dau/contract';
import type { Database } from '../../platform/db.js';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../../platform/errors.js';
import { localeOf } from '../../platform/http.js';
import { admins } from '../../platform/schema.js';
import { scriptRunOutput, scriptRuns, serverProcesses } from './schema.js';
import { BEAT_SECONDS, DOWN_AFTER_SECONDS, stateSql, type ServerBeat } from './servers.js';
import { SCRIPTS } from './scripts/index.js';
import { SCRIPT_QUEUED } from './runner.js';
import { backendOf, listActivity, listLocks, terminateBackend, topStatements } from './db-views.js';
import { pageOffset } from '../../platform/paging.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function operationsRoutes(app: FastifyInstance, ctx: AppContext, database: Database, beat: ServerBeat) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ------------------------------------------------------------------------------------ servers
  r.get(
    '/api/v1/operations/servers',
    {
      config: { access: { page: 'server_list' } },
      schema: { tags: ['server_list'], summary: 'Server processes of the product with their last beat and state (down after 30 s without a beat)', response: { 200: serverListAnswer } },
    },
    async () => {
      const rows = await db.select({ p: serverProcesses, state: stateSql }).from(serverProcesses).orderBy(desc(serverProcesses.startedAt)).limit(500);
      return {
        beat_seconds: BEAT_SECONDS,
        down_after_seconds: DOWN_AFTER_SECONDS,
        rows: rows.map(({ p, state }) => ({
          id: p.id, host: p.host, pid: p.pid, version: p.version, database_kind: p.databaseKind, started_at: p.startedAt.toISOString(),
          last_beat_at: p.lastBeatAt.toISOString(), stopped_at: iso(p.stoppedAt), state, current: p.id === beat.id, leaderships: p.leaderships,
          jobs_running: p.jobsRunning, rss_bytes: p.rssBytes, heap_used_bytes: p.heapUsedBytes, heap_total_bytes: p.heapTotalBytes,
          loop_delay_p99_ms: p.loopDelayP99Ms, pool_in_use: p.poolInUse, pool_total: p.poolTotal,
        })),
      };
    },
  );

  r.delete(
    '/api/v1/operations/servers/:id',
    {
      config: { access: { page: 'server_list', button: 'delete', duty: { ring: 'book', setting: 'server_list' } } },
      schema: { tags: ['server_list'], summary: "Removes a down or stopped process's row (a running one answers 409)", params: serverParams, response: { 200: okAnswer } },
    },
    async (req) => {
      return db.transaction(async (tx) => {
        const [row] = await tx.select({ p: serverProcesses, state: stateSql }).from(serverProcesses).where(eq(serverProcesses.id, req.params.id)).for('update');
        if (!row) throw notFound();
        if (row.state === 'up') throw conflict('SERVER_STILL_RUNNING');
        await tx.delete(serverProcesses).where(eq(serverProcesses.id, req.params.id));
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `removed server process ${row.p.host} pid ${row.p.pid} (${row.state})`, before: row.p });
        return { ok: true };
      });
    },
  );

  // ------------------------------------------------------------------------------------ scripts
  r.get(
    '/api/v1/operations/scripts',
    {
      config: { access: { page: 'script' } },
      schema: { tags: ['script'], summary: 'The allow-listed scripts (name, version, dangerous: a second admin approves, changes data: dry run, argument fields) and the servers up to run them', response: { 200: scriptListAnswer } },
    },
    async () => {
      const up = await db.select({ p: serverProcesses, state: stateSql }).from(serverProcesses).orderBy(desc(serverProcesses.startedAt));
      return {
        rows: [...SCRIPTS.values()].map((s) => ({ name: s.name, version: s.version, dangerous: s.dangerous, changes_data: s.changesData, fields: s.fields.map((f) => ({ ...f, options: f.options ? [...f.options] : undefined })) })),
        targets: up.filter((x) => x.state === 'up').map(({ p }) => ({ id: p.id, host: p.host, pid: p.pid, current: p.id === beat.id })),
      };
    },
  );

  const requester = alias(admins, 'requester');
  const approver = alias(admins, 'approver');
  const runColumns = { run: scriptRuns, host: serverProcesses.host, requestedByAccount: requester.account, approvedByAccount: approver.account };
  const runsFrom = () =>
    db
      .select(runColumns)
      .from(scriptRuns)
      .leftJoin(serverProcesses, eq(serverProcesses.id, scriptRuns.target))
      .leftJoin(requester, eq(requester.id, scriptRuns.requestedBy))
      .leftJoin(approver, eq(approver.id, scriptRuns.approvedBy));
  type RunJoin = { run: typeof scriptRuns.$inferSelect; host: string | null; requestedByAccount: string | null; approvedByAccount: string | null };
  const runRow = ({ run, host, requestedByAccount, approvedByAccount }: RunJoin) => ({
    id: run.id, script: run.script, version: run.version, args: run.args, dry_run: run.dryRun, dangerous: run.dangerous, target: run.target,
    target_host: host, requested_by: run.requestedBy, requested_by_account: requestedByAccount, approved_by: run.approvedBy,
    approved_by_account: approvedByAccount, status: run.status as never, created_at: run.createdAt.toISOString(), started_at: iso(run.startedAt),
    finished_at: iso(run.finishedAt), result: run.result ?? null, error: run.error,
  });
  const loadRun = async (id: number) => {
    const [row] = await runsFrom().where(eq(scriptRuns.id, id));
    if (!row) throw notFound();
    return runRow(row);
  };

  r.get(
    '/api/v1/operations/script-runs',
    {
      config: { access: { page: 'script' } },
      schema: { tags: ['script'], summary: 'Script runs, newest first', querystring: scriptRunListQuery, response: { 200: scriptRunListAnswer } },
    },
    async (req) => {
      const q = req.query;
      const size = q.size ?? 20;
      const where = and(q.status ? eq(scriptRuns.status, q.status) : undefined, q.script ? eq(scriptRuns.script, q.script) : undefined);
      const rows = await runsFrom().where(where).orderBy(desc(scriptRuns.id)).limit(size).offset(pageOffset({ page: q.page ?? 1, page_size: size }));
      const [{ n }] = await db.select({ n: count() }).from(scriptRuns).where(where);
      return { rows: rows.map(runRow), total: Number(n) };
    },
  );

  r.post(
    '/api/v1/operations/script-runs',
    {
      config: { access: { page: 'script', button: 'run', duty: { ring: 'book', setting: 'script' } } },
      schema: {
        tags: ['script'],
        summary: 'Asks for a run of an allow-listed script on a target server (queued, or awaiting a second admin when dangerous and not a dry run); unknown script or bad arguments 400',
        body: scriptRunBody,
        response: { 201: scriptOutputAnswer.shape.run },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const b = req.body;
      const def = SCRIPTS.get(b.script);
      if (!def) throw badRequest('SCRIPT_UNKNOWN', { field: 'script' }, { name: b.script });
      const parsed = def.args.safeParse(b.args);
      if (!parsed.success) {
        throw badRequest('PARAM_INVALID', parsed.error.issues.map((i) => ({ field: ['args', ...i.path.map(String)].join('.'), message: i.message })));
      }
      const dryRun = def.changesData ? b.dry_run : false;
      // A dry run changes nothing: it needs no second admin, even of a dangerous script.
      const awaits = def.dangerous && !dryRun;
      // A real run the installation's state refuses is 422 now, not a failed run later (a dry run reports it).
      const refusal = dryRun ? null : await def.precheck?.({ db, database }, parsed.data);
      if (refusal) throw unprocessable(refusal.code, refusal.params);
      const id = await db.transaction(async (tx) => {
        const [target] = await tx.select({ state: stateSql }).from(serverProcesses).where(eq(serverProcesses.id, b.target));
        if (!target || target.state !== 'up') throw conflict('SERVER_NOT_RUNNING');
        const [run] = await tx
          .insert(scriptRuns)
          .values({
            script: def.name, version: def.version, args: parsed.data as Record<string, unknown>, dryRun, dangerous: def.dangerous, target: b.target,
            requestedBy: auth.admin.id, status: awaits ? 'awaiting_approval' : 'queued',
          })
          .returning({ id: scriptRuns.id });
        await writeAudit(tx, req, {
          type: LOG_TYPE.ordinary,
          content: `script run #${run!.id} ${def.name} v${def.version}${dryRun ? ' (dry run)' : ''} requested${awaits ? ', awaiting approval' : ''}`,
          after: { script: def.name, version: def.version, args: parsed.data, dry_run: dryRun, target: b.target },
        });
        return run!.id;
      });
      if (!awaits) await ctx.bus.publish(SCRIPT_QUEUED, { target: b.target });
      reply.status(201);
      return loadRun(id);
    },
  );

  r.post(
    '/api/v1/operations/script-runs/:id/approve',
    {
      config: { access: { page: 'script', button: 'approve', duty: { ring: 'book', setting: 'script' } } },
      schema: { tags: ['script'], summary: "Approves a dangerous script's run (another admin than the requester); it is then queued on its target", params: scriptRunParams, response: { 200: scriptOutputAnswer.shape.run } },
    },
    async (req) => {
      const auth = authOf(req);
      // The state may have changed since the request: a refused real run is 422 before anyone approves it
      // (checked outside the transaction: PGlite has one connection, the check reads the catalogue).
      const [asked] = await db.select().from(scriptRuns).where(eq(scriptRuns.id, req.params.id));
      const def = asked && SCRIPTS.get(asked.script);
      const args = def ? def.args.safeParse(asked.args) : null;
      const refusal = def && args?.success && !asked.dryRun && asked.status === 'awaiting_approval' && asked.requestedBy !== auth.admin.id ? await def.precheck?.({ db, database }, args.data) : null;
      if (refusal) throw unprocessable(refusal.code, refusal.params);
      const target = await db.transaction(async (tx) => {
        const [run] = await tx.select().from(scriptRuns).where(eq(scriptRuns.id, req.params.id)).for('update');
        if (!run) throw notFound();
        if (run.requestedBy === auth.admin.id) throw forbidden('SCRIPT_SELF_APPROVAL');
        if (run.status !== 'awaiting_approval') throw conflict('SCRIPT_NOT_AWAITING_APPROVAL');
        await tx.update(scriptRuns).set({ status: 'queued', approvedBy: auth.admin.id, approvedAt: new Date() }).where(eq(scriptRuns.id, run.id));
        await writeAudit(tx, req, {
          type: LOG_TYPE.ordinary,
          content: `script run #${run.id} ${run.script} v${run.version} approved`,
          before: { status: run.status, requested_by: run.requestedBy, args: run.args },
          after: { status: 'queued', approved_by: auth.admin.id },
        });
        return run.target;
      });
      await ctx.bus.publish(SCRIPT_QUEUED, { target });
      return loadRun(req.params.id);
    },
  );

  r.post(
    '/api/v1/operations/script-runs/:id/withdraw',
    {
      config: { access: { page: 'script', button: 'run', duty: { ring: 'book', setting: 'script' } } },
      schema: { tags: ['script'], summary: 'Withdraws a run awaiting approval (only its requester); it never runs', params: scriptRunParams, response: { 200: scriptOutputAnswer.shape.run } },
    },
    async (req) => {
      const auth = authOf(req);
      await db.transaction(async (tx) => {
        const [run] = await tx.select().from(scriptRuns).where(eq(scriptRuns.id, req.params.id)).for('update');
        if (!run) throw notFound();
        if (run.status !== 'awaiting_approval') throw conflict('SCRIPT_NOT_AWAITING_APPROVAL');
        if (run.requestedBy !== auth.admin.id) throw forbidden('SCRIPT_NOT_YOURS');
        await tx.update(scriptRuns).set({ status: 'withdrawn', finishedAt: new Date() }).where(eq(scriptRuns.id, run.id));
        await writeAudit(tx, req, {
          type: LOG_TYPE.ordinary,
          content: `script run #${run.id} ${run.script} v${run.version} withdrawn by its requester`,
          before: { status: run.status, args: run.args },
          after: { status: 'withdrawn' },
        });
      });
      return loadRun(req.params.id);
    },
  );

  r.get(
    '/api/v1/operations/script-runs/:id/output',
    {
      config: { access: { page: 'script' } },
      schema: { tags: ['script'], summary: 'A run and its output lines after `after` (seq), for the browser to follow it', params: scriptRunParams, querystring: scriptOutputQuery, response: { 200: scriptOutputAnswer } },
    },
    async (req) => {
      const run = await loadRun(req.params.id);
      const lines = await db
        .select()
        .from(scriptRunOutput)
        .where(and(eq(scriptRunOutput.runId, req.params.id), gt(scriptRunOutput.seq, req.query.after ?? 0)))
        .orderBy(asc(scriptRunOutput.seq))
        .limit(req.query.limit ?? 500);
      return { run, lines: lines.map((l) => ({ seq: l.seq, line: l.line, at: l.at.toISOString() })) };
    },
  );

  // ---------------------------------------------------------------------------- database views
  const unsupported = (req: Parameters<typeof localeOf>[0]) => message('DB_VIEWS_UNAVAILABLE', localeOf(req));

  r.get(
    '/api/v1/operations/locks',
    {
      config: { access: { page: 'mysql_lock' } },
      schema: { tags: ['mysql_lock'], summary: "Sessions of the product's database holding or waiting for locks, and who blocks whom (pg_locks, pg_stat_activity)", response: { 200: lockListAnswer } },
    },
    async (req) => (database.kind === 'pg' ? { supported: true, message: null, rows: await listLocks(database) } : { supported: false, message: unsupported(req), rows: [] }),
  );

  r.post(
    '/api/v1/operations/locks/:pid/release',
    {
      config: { access: { page: 'mysql_lock', button: 'release', duty: { ring: 'book', setting: 'mysql_lock' } } },
      schema: {
        tags: ['mysql_lock'],
        summary: "Releases a lock by terminating the backend holding it (pg_terminate_backend): only in the product's database, never one of the server's own connections",
        params: lockParams,
        response: { 200: okAnswer },
      },
    },
    async (req) => {
      if (database.kind !== 'pg') throw conflict('DB_VIEWS_UNAVAILABLE');
      const pid = req.params.pid;
      const backend = await backendOf(database, pid);
      if (!backend) throw notFound();
      if (!backend.ours) throw forbidden('LOCK_NOT_OURS');
      if (backend.own || backend.self) throw conflict('LOCK_OWN_CONNECTION');
      const before = (await listLocks(database)).find((l) => l.pid === pid) ?? { pid };
      const done = await terminateBackend(database, pid);
      if (!done) {
        // The statement refused it: gone, or the pid now belongs to one of our own connections.
        const now = await backendOf(database, pid);
        if (now && (now.own || now.self)) throw conflict('LOCK_OWN_CONNECTION');
        throw notFound();
      }
      await writeAudit(db, req, { type: LOG_TYPE.ordinary, content: `released database lock: terminated backend ${pid}`, before, after: { terminated: pid } });
      return { ok: true };
    },
  );

  r.get(
    '/api/v1/operations/activity',
    {
      config: { access: { page: 'mysql_time_consuming' } },
      schema: { tags: ['mysql_time_consuming'], summary: 'Sessions now, longest first (pg_stat_activity), and the top statements by total and mean time (pg_stat_statements, when enabled)', response: { 200: activityAnswer } },
    },
    async (req) => {
      if (database.kind !== 'pg') {
        return { supported: false, message: unsupported(req), rows: [], statements: { available: false, message: null, by_total: [], by_mean: [] } };
      }
      const top = await topStatements(database);
      return {
        supported: true,
        message: null,
        rows: await listActivity(database),
        statements: top
          ? { available: true, message: null, by_total: top.byTotal, by_mean: top.byMean }
          : { available: false, message: message('PG_STAT_STATEMENTS_OFF', localeOf(req)), by_total: [], by_mean: [] },
      };
    },
  );
}

