/**
 * Duties (DESIGN "Duties: branch, whole book, two people"): the pending changes of settings that can move
 * money or open a door, and the history of every change of a whole-product setting. The rings themselves
 * are enforced for every route by platform/duties.ts, from the `duty` each route declares beside its access.
 *
 *  - GET  /system/pending_changes            the changes, newest first (filter by status, setting, mine);
 *  - POST /system/pending_changes/:id/approve a second whole-book admin holding the same button applies it;
 *  - POST /system/pending_changes/:id/refuse  another admin refuses it with a reason, or its requester withdraws it;
 *  - GET  /system/setting_history (+ /export) who changed which setting when, before → after, approved by whom.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { aliasedTable, and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import {
  csvAnswer, pendingApprovalAnswer, pendingChangeAnswer, pendingChangeDecision, pendingChangeIdParams, pendingChangeList, pendingChangeQuery, settingHistoryList,
  settingHistoryQuery, settingNamesAnswer, type PendingChangeRow,
} from '@dau/contract';
import { LOG_TYPE } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import { admins, pendingChanges, settingHistory } from '../../platform/schema.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { csvHeader, csvLine, timeZoneOf, cellReader, labelsFor, labelsParam } from '../../platform/csv.js';
import { localeOf } from '../../platform/http.js';
import type { Db, Executor } from '../../platform/db.js';
import {
  applyPendingChange, approversOf, decidePendingChange, expirePendingChanges, installDuties, isWholeBook, type DutyHooks,
} from '../../platform/duties.js';
import { createNotices, publishNotices } from '../notices/index.js';
import { pageOffset } from '../../platform/paging.js';

type Change = typeof pendingChanges.$inferSelect;
const requesters = aliasedTable(admins, 'requester');
const deciders = aliasedTable(admins, 'decider');
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A change's status as the caller sees it: a pending one past its expiry is expired. */
const statusOf = (c: Change): PendingChangeRow['status'] => (c.status === 'pending' && c.expiresAt.getTime() <= Date.now() ? 'expired' : (c.status as PendingChangeRow['status']));

/** Approvers per (page, button, requester), asked once per answered page of changes rather than once per row. */
type ApproverCache = Map<string, Promise<number[]>>;

async function answerOf(
  ex: Executor,
  c: Change,
  req: FastifyRequest,
  accounts?: { requested: string | null; decided: string | null },
  cache: ApproverCache = new Map(),
): Promise<PendingChangeRow> {
  const auth = authOf(req);
  const names = accounts ?? {
    requested: (await ex.select({ a: admins.account }).from(admins).where(eq(admins.id, c.requestedBy)))[0]?.a ?? null,
    decided: c.decidedBy ? ((await ex.select({ a: admins.account }).from(admins).where(eq(admins.id, c.decidedBy)))[0]?.a ?? null) : null,
  };
  const status = statusOf(c);
  const key = `${c.page}:${c.button ?? ''}:${c.requestedBy}`;
  if (status === 'pending' && !cache.has(key)) cache.set(key, approversOf(ex, c.page, c.button, c.requestedBy));
  const approvers = status === 'pending' ? await cache.get(key)! : [];
  return {
    id: c.id, setting: c.setting, method: c.method, url: c.url, page: c.page, button: c.button,
    diff: (c.diff as PendingChangeRow['diff']) ?? [], status,
    requested_by: c.requestedBy, requested_account: names.requested, requested_at: c.requestedAt.toISOString(), expires_at: c.expiresAt.toISOString(),
    decided_by: c.decidedBy, decided_account: names.decided, decided_at: iso(c.decidedAt), reason: c.reason,
    result_status: c.resultStatus, result_code: c.resultCode,
    can_decide: status === 'pending' && c.requestedBy !== auth.admin.id && approvers.includes(auth.admin.id),
    approvers: approvers.length,
  };
}

function noticeText(c: Change, account: string) {
  return [
    `A change of ${c.setting} asked by ${account} waits for a second approval (#${c.id}). Approve or refuse it under System › Pending changes within 24 hours.`,
    `Mabadiliko ya ${c.setting} yaliyoombwa na ${account} yanasubiri idhini ya pili (#${c.id}). Yaidhinishe au uyakatae kwenye Mfumo › Mabadiliko yanayosubiri ndani ya saa 24.`,
    `${account} 申请的 ${c.setting} 变更正在等待第二人审批（#${c.id}）。请在 24 小时内于 系统 › 待审批变更 中批准或拒绝。`,
  ].join('\n');
}

/** The duty hooks of the platform, with this module's answer and the approvers' notices. */
export function installDutyRings(app: FastifyInstance, ctx: AppContext) {
  const hooks: DutyHooks = {
    answer: (ex, c, req) => answerOf(ex, c, req),
    onPending: async (ex, c, approvers) => {
      const [who] = await ex.select({ a: admins.account }).from(admins).where(eq(admins.id, c.requestedBy));
      const events = await createNotices(ex, approvers, noticeText(c, who?.a ?? `#${c.requestedBy}`), c.requestedBy);
      // Published once the pending change has committed.
      return () => publishNotices(ctx.bus, events);
    },
  };
  installDuties(app, ctx.db, hooks);
  // Expired changes forget what they asked (secrets included).
  ctx.jobs.every('duties.expire', 600, async () => {
    await expirePendingChanges(ctx.db);
  });
}

function changeFilter(q: { status?: string; setting?: string; mine?: string }, me: number): SQL | undefined {
  const parts: SQL[] = [];
  if (q.status === 'expired') parts.push(sql`${pendingChanges.status} = 'pending' and ${pendingChanges.expiresAt} <= now()`);
  else if (q.status === 'pending') parts.push(sql`${pendingChanges.status} = 'pending' and ${pendingChanges.expiresAt} > now()`);
  else if (q.status) parts.push(eq(pendingChanges.status, q.status));
  if (q.setting) parts.push(eq(pendingChanges.setting, q.setting));
  if (q.mine === '1') parts.push(eq(pendingChanges.requestedBy, me));
  return parts.length ? and(...parts) : undefined;
}

function historyFilter(q: { setting?: string; account?: string; created_at_from?: string; created_at_to?: string }): SQL | undefined {
  const parts: SQL[] = [];
  if (q.setting) parts.push(eq(settingHistory.setting, q.setting));
  if (q.account) parts.push(sql`(${settingHistory.account} = ${q.account} or ${settingHistory.approvedAccount} = ${q.account})`);
  if (q.created_at_from) parts.push(gte(settingHistory.createdAt, new Date(q.created_at_from)));
  if (q.created_at_to) parts.push(lt(settingHistory.createdAt, new Date(q.created_at_to)));
  return parts.length ? and(...parts) : undefined;
}

const historyAnswer = (h: typeof settingHistory.$inferSelect) => ({
  id: h.id, setting: h.setting, method: h.method, url: h.url, admin_id: h.adminId, account: h.account,
  approved_by: h.approvedBy, approved_account: h.approvedAccount, pending_change_id: h.pendingChangeId,
  before: h.before, after: h.after, created_at: h.createdAt.toISOString(),
});

const HISTORY_CSV_KEYS = ['created_at', 'setting', 'method', 'url', 'account', 'approved_account', 'pending_change_id', 'before', 'after'] as const;

export function dutiesRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['pending_change'];

  const load = async (ex: Db | Executor, id: number) => {
    const [row] = await ex
      .select({ c: pendingChanges, requested: requesters.account, decided: deciders.account })
      .from(pendingChanges)
      .leftJoin(requesters, eq(requesters.id, pendingChanges.requestedBy))
      .leftJoin(deciders, eq(deciders.id, pendingChanges.decidedBy))
      .where(eq(pendingChanges.id, id));
    return row;
  };

  r.get(
    '/api/v1/system/pending_changes',
    { config: { access: { page: 'pending_change' } }, schema: { tags, summary: 'Pending changes of settings, newest first (secrets masked)', querystring: pendingChangeQuery, response: { 200: pendingChangeList } } },
    async (req) => {
      const q = req.query;
      const where = changeFilter(q, authOf(req).admin.id);
      const [rows, [{ n }]] = await Promise.all([
        db
          .select({ c: pendingChanges, requested: requesters.account, decided: deciders.account })
          .from(pendingChanges)
          .leftJoin(requesters, eq(requesters.id, pendingChanges.requestedBy))
          .leftJoin(deciders, eq(deciders.id, pendingChanges.decidedBy))
          .where(where)
          .orderBy(desc(pendingChanges.id))
          .limit(q.page_size)
          .offset(pageOffset(q)),
        db.select({ n: count() }).from(pendingChanges).where(where),
      ]);
      const items = [];
      const cache: ApproverCache = new Map();
      for (const x of rows) items.push(await answerOf(db, x.c, req, { requested: x.requested, decided: x.decided }, cache));
      return { items, total: Number(n), page: q.page, page_size: q.page_size };
    },
  );

  r.get(
    '/api/v1/system/pending_changes/:id',
    { config: { access: { page: 'pending_change' } }, schema: { tags, summary: 'One pending change', params: pendingChangeIdParams, response: { 200: pendingChangeAnswer } } },
    async (req) => {
      const row = await load(db, req.params.id);
      if (!row) throw notFound();
      return { pending_change: await answerOf(db, row.c, req, { requested: row.requested, decided: row.decided }) };
    },
  );

  /** Whole book and the same button as the change (the route's own permission is checked again when it is replayed). */
  const mayDecide = async (req: FastifyRequest, c: Change) => {
    const auth = authOf(req);
    if (!(await isWholeBook(db, req))) throw new AppError(403, 'WHOLE_BOOK_ONLY');
    if (!auth.can(c.page, c.button ?? undefined)) throw new AppError(403, 'FORBIDDEN');
  };

  r.post(
    '/api/v1/system/pending_changes/:id/approve',
    {
      config: { access: { page: 'pending_change' } },
      schema: {
        tags, summary: 'Approve a pending change: it is applied at once through its own route, as the approver (not its requester)',
        params: pendingChangeIdParams, body: pendingChangeDecision, response: { 200: pendingApprovalAnswer },
      },
    },
    async (req) => {
      const row = await load(db, req.params.id);
      if (!row) throw notFound();
      await mayDecide(req, row.c);
      if (row.c.requestedBy === authOf(req).admin.id) throw new AppError(403, 'PENDING_CHANGE_OWN');
      const result = await applyPendingChange(app, db, req, row.c.id);
      if (!result) throw conflict('PENDING_CHANGE_DECIDED');
      const after = await load(db, row.c.id);
      req.audited = true;
      await writeAudit(db, req, {
        type: LOG_TYPE.ordinary, content: `Approved pending change #${row.c.id} of ${row.c.setting} (asked by ${row.requested ?? row.c.requestedBy}) → ${result.status}`,
        after: { diff: row.c.diff, status: after!.c.status, result_status: result.status },
      });
      return { pending_change: await answerOf(db, after!.c, req, { requested: after!.requested, decided: after!.decided }), result: result.body };
    },
  );

  r.post(
    '/api/v1/system/pending_changes/:id/refuse',
    {
      config: { access: { page: 'pending_change' } },
      schema: {
        tags, summary: 'Refuse a pending change with a reason (another admin), or withdraw it (its requester)',
        params: pendingChangeIdParams, body: pendingChangeDecision, response: { 200: pendingChangeAnswer },
      },
    },
    async (req) => {
      const row = await load(db, req.params.id);
      if (!row) throw notFound();
      const me = authOf(req).admin.id;
      const withdraw = row.c.requestedBy === me;
      if (!withdraw) await mayDecide(req, row.c);
      const reason = req.body.reason?.trim() || null;
      if (!withdraw && !reason) throw new AppError(422, 'PENDING_CHANGE_REASON');
      const decided = await db.transaction(async (tx) => {
        const d = await decidePendingChange(tx, row.c.id, me, reason, withdraw);
        if (!d) return null;
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `${withdraw ? 'Withdrew' : 'Refused'} pending change #${row.c.id} of ${row.c.setting}`, after: { reason } });
        return d;
      });
      if (!decided) throw conflict('PENDING_CHANGE_DECIDED');
      return { pending_change: await answerOf(db, decided, req) };
    },
  );

  r.get(
    '/api/v1/system/setting_names',
    { config: { access: { signedIn: true } }, schema: { tags, summary: 'The settings named in the history and the pending changes', response: { 200: settingNamesAnswer } } },
    async () => {
      const rows = await db.execute<{ s: string }>(sql`select setting as s from ${settingHistory} union select setting from ${pendingChanges} order by 1`);
      return { items: (rows as unknown as { rows?: { s: string }[] }).rows?.map((x) => x.s) ?? (rows as unknown as { s: string }[]).map((x) => x.s) };
    },
  );

  r.get(
    '/api/v1/system/setting_history',
    { config: { access: { page: 'setting_history' } }, schema: { tags: ['setting_history'], summary: 'Every change of a whole-product setting: who, when, before → after (secrets masked), approved by', querystring: settingHistoryQuery, response: { 200: settingHistoryList } } },
    async (req) => {
      const q = req.query;
      const where = historyFilter(q);
      const [rows, [{ n }]] = await Promise.all([
        db.select().from(settingHistory).where(where).orderBy(desc(settingHistory.id)).limit(q.page_size).offset(pageOffset(q)),
        db.select({ n: count() }).from(settingHistory).where(where),
      ]);
      return { items: rows.map(historyAnswer), total: Number(n), page: q.page, page_size: q.page_size };
    },
  );

  r.get(
    '/api/v1/system/setting_history/export',
    {
      config: { access: { page: 'setting_history', button: 'export' } },
      schema: {
        tags: ['setting_history'], summary: 'Download the filtered settings history as CSV', produces: ['text/csv'],
        querystring: settingHistoryQuery.omit({ page: true, page_size: true }).extend({ labels: labelsParam }), response: { 200: csvAnswer },
      },
    },
    async (req, reply) => {
      const { labels, ...q } = req.query;
      const where = historyFilter(q);
      const zone = await timeZoneOf(db, authOf(req).admin.id);
      const read = HISTORY_CSV_KEYS.map((k) => cellReader({ key: k }, localeOf(req), zone));
      const BATCH = 1000;
      const first = await db.select().from(settingHistory).where(where).orderBy(desc(settingHistory.id)).limit(BATCH);
      async function* lines() {
        yield csvHeader([...HISTORY_CSV_KEYS], labelsFor(labels, [...HISTORY_CSV_KEYS]));
        let rows = first;
        for (;;) {
          let chunk = '';
          for (const h of rows) {
            const a = historyAnswer(h) as Record<string, unknown>;
            chunk += csvLine(HISTORY_CSV_KEYS.map((k, i) => read[i]!(typeof a[k] === 'object' && a[k] !== null ? JSON.stringify(a[k]) : a[k])));
          }
          if (chunk) yield chunk;
          if (rows.length < BATCH) return;
          const lastId = rows[rows.length - 1]!.id;
          rows = await db.select().from(settingHistory).where(and(where, lt(settingHistory.id, lastId))).orderBy(desc(settingHistory.id)).limit(BATCH);
        }
      }
      await writeAudit(db, req, { type: LOG_TYPE.ordinary, content: 'Exported the settings history', after: q });
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="setting-history-${new Date().toISOString().slice(0, 10)}.csv"`);
      return reply.send(Readable.from(lines()) as never);
    },
  );
}
