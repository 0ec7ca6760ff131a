/**
 * Messaging services (issue 15, MSG): sending in-app messages (now or scheduled, broadcast or targeted),
 * their durable fan-out, and what the bettor app (and the simulator) calls: the message board, the inbox,
 * reading a message, and the app's version check.
 *
 * Reach of a send: every send carries `scope_admin_id`, the root of the branch it may reach (null: every
 * bettor, the super admin's sends). A broadcast reaches, when read, the bettors of that subtree who
 * registered before it was sent: nothing is written per bettor until one reads it. A targeted send writes
 * its recipients in chunks of `messageChunk()` bettors, each chunk one transaction that locks the message row,
 * inserts `INSERT … SELECT … ON CONFLICT DO NOTHING` from the bettor id after the stored cursor, counts and
 * moves the cursor: a job retried after a crash resumes at the cursor and writes nobody twice.
 */
import { and, eq, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { appUpdateFor, parsePhoneList, tzPhoneStored, normaliseTzPhone } from '@dau/domain';
import { MESSAGE_MAX_PHONES, type BettorTargetFilter, type MessageTarget } from '@dau/contract';
import type { Db, Executor, Tx } from '../../platform/db.js';
import type { Jobs } from '../../platform/jobs.js';
import { AppError, notFound, unprocessable } from '../../platform/errors.js';
import { agentInScope } from '../../platform/ownership.js';
import type { Scope } from '../../platform/listing.js';
import { admins } from '../../platform/schema.js';
import { bettors, bettorWhere } from '../money/index.js';
import { appVersions, boardMessages, messageReads, messageRecipients, messages } from './schema.js';

export const DELIVER_JOB = 'messaging.deliver';
/** Recipients written per transaction of a targeted send (DAU_MESSAGE_CHUNK, default 5,000). */
export const messageChunk = () => Math.max(1, Number(process.env.DAU_MESSAGE_CHUNK) || 5_000);
/** A job run writes chunks for at most this long, then queues the rest as the next job. */
const RUN_BUDGET_MS = 20_000;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown) => (r as Rows<T>).rows;

/** Bettors (column `agentCol`) of the subtree of admin `rootId`; every bettor when null. */
export function branchCondition(rootId: number | null, agentCol: SQL | typeof bettors.agentId = bettors.agentId): SQL {
  if (rootId === null) return sql`true`;
  return sql`${agentCol} IN (SELECT a.id FROM admins a WHERE a.id = ${rootId} OR a.path LIKE (SELECT s.path || s.id::text || '/%' FROM admins s WHERE s.id = ${rootId}))`;
}

/** The root of the branch a scope covers (null: everything). */
export async function branchRoot(ex: Executor, scope: Scope, adminId: number): Promise<number | null> {
  if (scope.all) return null;
  if (!scope.agentIds.length) return adminId;
  const [root] = await ex
    .select({ id: admins.id })
    .from(admins)
    .where(inArray(admins.id, scope.agentIds))
    .orderBy(sql`length(${admins.path})`, admins.id)
    .limit(1);
  return root?.id ?? adminId;
}

// ------------------------------------------------------------------------------------------ sending

export interface SendInput {
  title: string;
  content: string;
  target: MessageTarget;
  sendAt?: Date;
}

export interface PhoneReport {
  found: number;
  not_found: string[];
  invalid: string[];
  duplicates: number;
}

/**
 * Resolves a pasted phone list against the bettors of a branch. Numbers of other branches are reported
 * with the unknown ones ("not found in your branch"): telling them apart would reveal which numbers
 * another branch's bettors use.
 */
export async function resolvePhones(ex: Executor, text: string, rootId: number | null): Promise<{ ids: number[]; report: PhoneReport }> {
  const parsed = parsePhoneList(text);
  if (parsed.phones.length > MESSAGE_MAX_PHONES) throw unprocessable('MESSAGE_TOO_MANY_PHONES', { max: MESSAGE_MAX_PHONES });
  const stored = parsed.phones.map((p) => tzPhoneStored(p)!);
  const found = stored.length
    ? await ex
        .select({ id: bettors.id, phone: bettors.phone })
        .from(bettors)
        .where(and(sql`${bettors.phone} = ANY(${sql.param(stored)}::text[])`, branchCondition(rootId)))
    : [];
  const have = new Set(found.map((b) => normaliseTzPhone(b.phone)));
  return {
    ids: found.map((b) => b.id).sort((a, b) => a - b),
    report: { found: found.length, not_found: parsed.phones.filter((p) => !have.has(p)), invalid: parsed.invalid, duplicates: parsed.duplicates },
  };
}

interface ResolvedTarget {
  audience: 'all' | 'bettors' | 'filter' | 'branch';
  scopeAdminId: number | null;
  filter: Record<string, unknown> | null;
  recipientCount: number;
  phones: PhoneReport | null;
}

/**
 * Who a target reaches, as a send stores it. Refuses targets outside the sender's branch (403
 * OUT_OF_SCOPE): an agent, a bettor id or a filter's agent not in it.
 */
async function resolveTarget(ex: Executor, scope: Scope, senderId: number, t: MessageTarget): Promise<ResolvedTarget> {
  const root = await branchRoot(ex, scope, senderId);
  const out: ResolvedTarget = { audience: 'all', scopeAdminId: root, filter: null, recipientCount: 0, phones: null };
  switch (t.kind) {
    case 'all':
      return out;
    case 'phones': {
      const r = await resolvePhones(ex, t.phones, root);
      return { ...out, audience: 'bettors', filter: { bettor_ids: r.ids }, recipientCount: r.ids.length, phones: r.report };
    }
    case 'bettors': {
      const ids = [...new Set(t.bettor_ids)].sort((a, b) => a - b);
      const rows = await ex.select({ id: bettors.id, agentId: bettors.agentId }).from(bettors).where(inArray(bettors.id, ids));
      if (rows.length < ids.length || rows.some((b) => !agentInScope(scope, b.agentId))) throw new AppError(403, 'OUT_OF_SCOPE');
      return { ...out, audience: 'bettors', filter: { bettor_ids: ids }, recipientCount: ids.length };
    }
    case 'filter':
      if (t.filter.agent_id !== undefined && !agentInScope(scope, t.filter.agent_id)) throw new AppError(403, 'OUT_OF_SCOPE');
      return { ...out, audience: 'filter', filter: t.filter };
    case 'branch':
      if (!agentInScope(scope, t.agent_id)) throw new AppError(403, 'OUT_OF_SCOPE');
      return { ...out, audience: 'branch', scopeAdminId: t.agent_id };
  }
}

/**
 * How many bettors a send to this target would reach now (what the console's confirmation names before a
 * broadcast): the delivery's own conditions, nothing written.
 */
export async function countRecipients(ex: Executor, scope: Scope, senderId: number, t: MessageTarget): Promise<number> {
  const r = await resolveTarget(ex, scope, senderId, t);
  if (r.audience === 'bettors') return r.recipientCount;
  const where = r.audience === 'all' ? and(branchCondition(r.scopeAdminId), lte(bettors.createdAt, new Date()))! : targetCondition(r);
  const [{ n }] = rowsOf<{ n: number }>(await ex.execute(sql`SELECT count(*)::int AS n FROM ${bettors} WHERE ${where}`));
  return Number(n);
}

/** Creates a send in the caller's transaction and queues its delivery with it (targets as `resolveTarget`). */
export async function createSend(tx: Tx, jobs: Jobs, scope: Scope, senderId: number, input: SendInput) {
  const { audience, scopeAdminId, filter, recipientCount, phones } = await resolveTarget(tx, scope, senderId, input.target);
  if (input.target.kind === 'phones' && !recipientCount) throw unprocessable('MESSAGE_NO_RECIPIENTS');
  const now = new Date();
  const scheduled = !!input.sendAt && input.sendAt.getTime() > now.getTime() + 1_000;
  const [row] = await tx
    .insert(messages)
    .values({
      title: input.title, content: input.content, audience, allUsers: audience === 'all', scopeAdminId, filter, recipientCount,
      status: scheduled ? 'scheduled' : 'sending', sendAt: scheduled ? input.sendAt! : now, senderAdminId: senderId,
    })
    .returning();
  await jobs.send(tx, DELIVER_JOB, { messageId: row!.id }, scheduled ? { startAfterSeconds: Math.ceil((input.sendAt!.getTime() - now.getTime()) / 1000) } : {});
  return { message: row!, phones };
}

/** The recipients a targeted send reaches (the where of its fan-out). */
function targetCondition(m: Pick<typeof messages.$inferSelect, 'scopeAdminId' | 'filter' | 'audience'>): SQL {
  const branch = branchCondition(m.scopeAdminId);
  const f = (m.filter ?? {}) as { bettor_ids?: number[] } & BettorTargetFilter;
  if (m.audience === 'bettors') return and(sql`${bettors.id} = ANY(${sql.param(f.bettor_ids ?? [])}::int[])`, branch)!;
  if (m.audience === 'filter') return and(bettorWhere(f as never, { all: true }), branch) ?? branch;
  return branch; // 'branch'
}

/**
 * One step of a send's delivery, in its own transaction with the message row locked. Answers whether
 * more remains (another chunk). `requeue` queues the follow-up job in the same transaction.
 */
async function deliverStep(tx: Tx, jobs: Jobs, messageId: number, requeue: boolean): Promise<'done' | 'more' | 'queued'> {
  const [m] = await tx.select().from(messages).where(eq(messages.id, messageId)).for('update');
  if (!m || m.deletedAt || m.status === 'cancelled' || m.status === 'sent') return 'done';
  const now = new Date();
  if (m.status === 'scheduled') {
    const wait = m.sendAt.getTime() - now.getTime();
    if (wait > 1_000) {
      // Woken early (pg-boss works in seconds): sleep again until it is due.
      await jobs.send(tx, DELIVER_JOB, { messageId }, { startAfterSeconds: Math.ceil(wait / 1000) });
      return 'queued';
    }
  }
  if (m.allUsers) {
    const [{ n }] = rowsOf<{ n: number }>(
      await tx.execute(sql`SELECT count(*)::int AS n FROM ${bettors} WHERE ${branchCondition(m.scopeAdminId)} AND ${bettors.createdAt} <= ${now}`),
    );
    await tx.update(messages).set({ status: 'sent', sentAt: now, recipientCount: n, deliveredCount: n }).where(eq(messages.id, messageId));
    return 'done';
  }
  const where = targetCondition(m);
  const chunk = messageChunk();
  const set: Partial<typeof messages.$inferInsert> = {};
  if (m.status === 'scheduled' || !m.sentAt) Object.assign(set, { status: 'sending', sentAt: m.sentAt ?? now });
  if (m.deliverCursor === 0 && m.audience !== 'bettors' && m.recipientCount === 0) {
    const [{ n }] = rowsOf<{ n: number }>(await tx.execute(sql`SELECT count(*)::int AS n FROM ${bettors} WHERE ${where}`));
    set.recipientCount = n;
  }
  const [r] = rowsOf<{ n: number; last: number | null; inserted: number }>(
    await tx.execute(sql`
      WITH chunk AS (
        SELECT ${bettors.id} AS id FROM ${bettors} WHERE ${where} AND ${bettors.id} > ${m.deliverCursor} ORDER BY ${bettors.id} LIMIT ${chunk}
      ), ins AS (
        INSERT INTO ${messageRecipients} (message_id, bettor_id) SELECT ${messageId}, id FROM chunk ON CONFLICT DO NOTHING RETURNING 1
      )
      SELECT (SELECT count(*)::int FROM chunk) AS n, (SELECT max(id) FROM chunk) AS last, (SELECT count(*)::int FROM ins) AS inserted`),
  );
  const done = Number(r!.n) < chunk;
  await tx
    .update(messages)
    .set({
      ...set,
      deliverCursor: r!.last ?? m.deliverCursor,
      deliveredCount: sql`${messages.deliveredCount} + ${Number(r!.inserted)}`,
      ...(done ? { status: 'sent' } : {}),
    })
    .where(eq(messages.id, messageId));
  if (done) return 'done';
  if (requeue) {
    await jobs.send(tx, DELIVER_JOB, { messageId });
    return 'queued';
  }
  return 'more';
}

/** The job `messaging.deliver` {messageId}: writes chunks for up to RUN_BUDGET_MS, then queues the rest. */
export function defineDeliverJob(db: Db, jobs: Jobs) {
  jobs.define<{ messageId: number }>(
    DELIVER_JOB,
    async ({ messageId }) => {
      const started = Date.now();
      for (;;) {
        const last = Date.now() - started > RUN_BUDGET_MS;
        const step = await db.transaction((tx) => deliverStep(tx, jobs, messageId, last));
        if (step !== 'more') return;
      }
    },
    { retryLimit: 20, retryDelaySeconds: 2 },
  );
}

/** Cancels a scheduled send or removes a sent one from the console and every inbox. Answers the new row. */
export async function deleteSend(tx: Tx, id: number) {
  const [m] = await tx.select().from(messages).where(and(eq(messages.id, id), isNull(messages.deletedAt))).for('update');
  if (!m) throw notFound();
  if (m.status === 'scheduled') {
    const [row] = await tx.update(messages).set({ status: 'cancelled' }).where(eq(messages.id, id)).returning();
    return { before: m, after: row!, cancelled: true };
  }
  const [row] = await tx.update(messages).set({ deletedAt: new Date() }).where(eq(messages.id, id)).returning();
  return { before: m, after: row!, cancelled: false };
}

/** A reply to a board message: an in-app message to its bettor (one recipient, written at once) and the board row marked. */
export async function replyToBoard(tx: Tx, boardId: number, admin: { id: number; account: string }, input: { title: string; content: string }) {
  const [b] = await tx.select().from(boardMessages).where(eq(boardMessages.id, boardId)).for('update');
  if (!b) throw notFound();
  if (b.repliedMessageId) throw new AppError(409, 'MESSAGE_ALREADY_REPLIED');
  const now = new Date();
  const [m] = await tx
    .insert(messages)
    .values({
      title: input.title, content: input.content, audience: 'bettors', allUsers: false, scopeAdminId: null, filter: { bettor_ids: [b.bettorId] },
      recipientCount: 1, deliveredCount: 1, deliverCursor: b.bettorId, status: 'sent', sendAt: now, sentAt: now, senderAdminId: admin.id, boardMessageId: b.id,
    })
    .returning();
  await tx.insert(messageRecipients).values({ messageId: m!.id, bettorId: b.bettorId });
  const [after] = await tx
    .update(boardMessages)
    .set({ repliedMessageId: m!.id, replyContent: input.content, repliedAt: now, repliedBy: admin.id, readAt: b.readAt ?? now, readBy: b.readBy ?? admin.id })
    .where(eq(boardMessages.id, boardId))
    .returning();
  return { before: b, after: after!, messageId: m!.id };
}

// ---------------------------------------------------------------------------------- bettor-facing

/** A bettor writes on the message board (the bettor app; the simulator). */
export async function postBoardMessage(db: Executor, bettorId: number, content: string) {
  const text = content.replace(/\0/g, '').trim().slice(0, 1000);
  if (!text) throw unprocessable('PARAM_INVALID');
  const [b] = await db.select({ agentId: bettors.agentId, phone: bettors.phone }).from(bettors).where(eq(bettors.id, bettorId));
  if (!b) throw notFound();
  const [row] = await db.insert(boardMessages).values({ bettorId, agentId: b.agentId, phone: b.phone, content: text }).returning();
  return row!;
}

/**
 * The condition "this broadcast reaches bettor b" in SQL (m = messages, b = bettors): sent, not deleted,
 * sent after the bettor registered, and within its branch.
 */
const broadcastReaches = sql`m.all_users AND m.status = 'sent' AND m.deleted_at IS NULL AND m.sent_at >= b.created_at
  AND (m.scope_admin_id IS NULL OR b.agent_id IN (SELECT a.id FROM admins a WHERE a.id = m.scope_admin_id
       OR a.path LIKE (SELECT s.path || s.id::text || '/%' FROM admins s WHERE s.id = m.scope_admin_id)))`;

export interface InboxPage {
  items: { id: number; title: string; content: string; sent_at: string; read: boolean }[];
  total: number;
  unread: number;
}

/** A bettor's inbox, newest first: targeted messages written to them and the broadcasts that reach them. */
export async function inbox(db: Executor, bettorId: number, page = 1, pageSize = 20): Promise<InboxPage> {
  const rows = rowsOf<{ id: number; title: string; content: string; sent_at: Date | string; read: boolean; total: number; unread: number }>(
    await db.execute(sql`
      WITH b AS (SELECT id, agent_id, created_at FROM bettors WHERE id = ${bettorId}),
      mine AS (
        SELECT m.id, m.title, m.content, coalesce(m.sent_at, m.send_at) AS sent_at, r.read_at IS NOT NULL AS read
        FROM message_recipients r JOIN messages m ON m.id = r.message_id
        WHERE r.bettor_id = ${bettorId} AND m.deleted_at IS NULL AND m.status IN ('sending', 'sent')
        UNION ALL
        SELECT m.id, m.title, m.content, m.sent_at, EXISTS (SELECT 1 FROM message_reads x WHERE x.message_id = m.id AND x.bettor_id = ${bettorId}) AS read
        FROM messages m, b WHERE ${broadcastReaches}
      )
      SELECT mine.*, count(*) OVER ()::int AS total, (count(*) FILTER (WHERE NOT mine.read) OVER ())::int AS unread
      FROM mine ORDER BY sent_at DESC, id DESC LIMIT ${pageSize} OFFSET ${(Math.max(1, page) - 1) * pageSize}`),
  );
  return {
    items: rows.map((r) => ({ id: r.id, title: r.title, content: r.content, sent_at: new Date(r.sent_at).toISOString(), read: !!r.read })),
    total: Number(rows[0]?.total ?? 0),
    unread: Number(rows[0]?.unread ?? 0),
  };
}

/** A bettor opens a message: its read state (once), the message's read count and first read time. Answers whether it was new. */
export async function markMessageRead(db: Db, bettorId: number, messageId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const targeted = await tx
      .update(messageRecipients)
      .set({ readAt: now })
      .where(and(eq(messageRecipients.messageId, messageId), eq(messageRecipients.bettorId, bettorId), isNull(messageRecipients.readAt)))
      .returning({ id: messageRecipients.messageId });
    let fresh = targeted.length > 0;
    if (!fresh) {
      const [already] = await tx
        .select({ id: messageRecipients.messageId })
        .from(messageRecipients)
        .where(and(eq(messageRecipients.messageId, messageId), eq(messageRecipients.bettorId, bettorId)));
      if (already) return false;
      const reach = rowsOf<{ id: number }>(await tx.execute(sql`SELECT m.id FROM messages m, (SELECT id, agent_id, created_at FROM bettors WHERE id = ${bettorId}) b WHERE m.id = ${messageId} AND ${broadcastReaches}`));
      if (!reach.length) throw notFound();
      const ins = await tx.insert(messageReads).values({ messageId, bettorId, readAt: now }).onConflictDoNothing().returning({ id: messageReads.messageId });
      fresh = ins.length > 0;
    }
    if (fresh) {
      await tx
        .update(messages)
        .set({ readCount: sql`${messages.readCount} + 1`, firstReadAt: sql`coalesce(${messages.firstReadAt}, ${now})` })
        .where(eq(messages.id, messageId));
    }
    return fresh;
  });
}

/** What the app running `version` on `platform` is told (GET /api/public/app-version). */
export async function checkAppVersion(db: Executor, platform: string, version: string) {
  const rows = await db.select().from(appVersions).where(eq(appVersions.platform, platform));
  const { latest, update } = appUpdateFor(version, rows);
  return {
    latest: latest?.version ?? null,
    version_code: latest?.versionCode ?? null,
    update,
    download_url: latest?.downloadUrl || null,
    update_text: latest?.updateText || null,
    update_url: latest?.updateUrl || null,
    poster: latest?.poster || null,
  };
}

