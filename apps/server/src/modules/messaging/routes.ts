/**
 * Messaging routes (issue 15, MSG):
 *  - the message board (message_board): list, mark read, reply (an in-app message to the bettor), delete,
 *    clear (every board message of my branch, after the spec's confirmation; audited);
 *  - in-app messages (message_list): list, send (now or scheduled; all bettors of my branch, a phone list,
 *    chosen bettors, the bettors list's filters, a branch), resolve a phone list before sending, delete
 *    (cancel a scheduled send or withdraw a sent one);
 *  - the bettor app's public version check GET /api/public/app-version.
 * Scope: board rows by the bettor's agent, messages by their sender (in my subtree).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { aliasedTable, and, eq, ilike, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { LOG_TYPE, MESSAGE_STATUS, tzPhoneStored } from '@dau/domain';
import {
  appVersionAnswer, appVersionQuery, boardClearAnswer, boardClearBody, boardFilters, boardReplyAnswer, boardReplyBody, boardRow, idParams,
  messageFilters, messageRow, messageSendAnswer, messageSendBody, okAnswer, phoneResolution, phoneResolveBody, recipientCountAnswer, recipientCountBody,
} from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { defineList, registerList, scopeCondition, scopeOf, withinDates, type Scope, likeEscape } from '../../platform/listing.js';
import { admins } from '../../platform/schema.js';
import { bettors } from '../money/index.js';
import { boardMessages, messages } from './schema.js';
import { branchRoot, checkAppVersion, countRecipients, createSend, deleteSend, replyToBoard, resolvePhones } from './service.js';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

// ---------------------------------------------------------------------------------------------- board

const repliers = aliasedTable(admins, 'replier');
type BoardSelect = { b: typeof boardMessages.$inferSelect; name: string | null; replier: string | null };

const selectBoard = (ex: Executor) =>
  ex
    .select({ b: boardMessages, name: bettors.name, replier: repliers.account })
    .from(boardMessages)
    .leftJoin(bettors, eq(bettors.id, boardMessages.bettorId))
    .leftJoin(repliers, eq(repliers.id, boardMessages.repliedBy));

export const toBoardRow = ({ b, name, replier }: BoardSelect) => ({
  id: b.id, bettor_id: b.bettorId, bettor_name: name, phone: b.phone, content: b.content,
  read_status: b.readAt ? MESSAGE_STATUS.viewed : MESSAGE_STATUS.not_viewed, replied: b.repliedMessageId ? 'yes' : 'no',
  reply_content: b.replyContent, replied_at: iso(b.repliedAt), replied_by: replier, read_at: iso(b.readAt), create_time: b.createdAt.toISOString(),
});

/** A phone filter: any typed form of a full number is exact; a fragment is a contains-search. */
function phoneIs(col: typeof boardMessages.phone, input: string): SQL {
  const full = tzPhoneStored(input);
  return full ? eq(col, full) : ilike(col, `%${likeEscape(input.replace(/\s+/g, ''))}%`);
}

type BoardFilters = z.infer<typeof boardFilters>;
const boardWhere = (q: BoardFilters, scope: Scope) =>
  and(
    scopeCondition(scope, boardMessages.agentId),
    q.bettor_id ? eq(boardMessages.bettorId, q.bettor_id) : undefined,
    q.phone ? phoneIs(boardMessages.phone, q.phone) : undefined,
    q.read_status === MESSAGE_STATUS.viewed ? isNotNull(boardMessages.readAt) : q.read_status === MESSAGE_STATUS.not_viewed ? isNull(boardMessages.readAt) : undefined,
    q.replied === 'yes' ? isNotNull(boardMessages.repliedMessageId) : q.replied === 'no' ? isNull(boardMessages.repliedMessageId) : undefined,
    withinDates(boardMessages.createdAt, q.created_at_from, q.created_at_to),
  );

export const BOARD_LIST = defineList({
  name: 'message_board', page: 'message_board', path: '/api/v1/messaging/board', filters: boardFilters, where: boardWhere, select: selectBoard,
  idColumn: boardMessages.id, summary: 'List the message board of my branch (what bettors wrote), filtered, sorted and paged',
  sortable: { id: boardMessages.id, create_time: boardMessages.createdAt }, defaultSort: '-id',
  countFrom: (ex: Executor) => ex.select({ id: boardMessages.id }).from(boardMessages), toRow: toBoardRow, row: boardRow,
  columns: [{ key: 'id' }, { key: 'bettor_id' }, { key: 'phone' }, { key: 'content' }, { key: 'read_status', enum: 'message_status' }, { key: 'replied' }, { key: 'create_time' }],
});

/** A board row of my branch, locked for the caller's transaction; 404 outside it (its existence is not revealed). */
async function boardInScope(ex: Executor, scope: Scope, id: number) {
  const [row] = await selectBoard(ex).where(and(eq(boardMessages.id, id), scopeCondition(scope, boardMessages.agentId)));
  if (!row) throw notFound();
  return row as BoardSelect;
}

async function boardRowOf(ex: Executor, id: number) {
  const [row] = await selectBoard(ex).where(eq(boardMessages.id, id));
  return toBoardRow(row as BoardSelect);
}

export function boardRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  registerList(app, db, BOARD_LIST);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['message_board'];

  r.post(
    '/api/v1/messaging/board/:id/read',
    { config: { access: { page: 'message_board' } }, schema: { tags, summary: 'Mark a board message of my branch read', params: idParams, response: { 200: boardRow } } },
    async (req) => {
      const auth = authOf(req);
      return db.transaction(async (tx) => {
        await boardInScope(tx, await scopeOf(tx, auth), req.params.id);
        const [before] = await tx.select().from(boardMessages).where(eq(boardMessages.id, req.params.id)).for('update');
        if (!before!.readAt) {
          await tx.update(boardMessages).set({ readAt: new Date(), readBy: auth.admin.id }).where(eq(boardMessages.id, req.params.id));
          await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Marked board message #${req.params.id} read`, before: { read_at: null }, after: { read: true } });
        } else {
          req.audited = true;
        }
        return boardRowOf(tx, req.params.id);
      });
    },
  );

  r.post(
    '/api/v1/messaging/board/:id/reply',
    {
      config: { access: { page: 'message_board', button: 'reply' } },
      schema: { tags, summary: "Answer a board message of my branch: an in-app message to the bettor's inbox; the board row is marked replied and read", params: idParams, body: boardReplyBody, response: { 200: boardReplyAnswer } },
    },
    async (req) => {
      const auth = authOf(req);
      return db.transaction(async (tx) => {
        await boardInScope(tx, await scopeOf(tx, auth), req.params.id);
        const title = req.body.title || 'Re:';
        const r = await replyToBoard(tx, req.params.id, auth.admin, { title, content: req.body.content });
        await writeAudit(tx, req, {
          type: LOG_TYPE.ordinary, content: `Replied to board message #${req.params.id} (bettor #${r.before.bettorId}) with message #${r.messageId}`,
          before: { replied_message_id: null }, after: { replied_message_id: r.messageId, reply_content: req.body.content },
        });
        return { board: await boardRowOf(tx, req.params.id), message_id: r.messageId };
      });
    },
  );

  r.delete(
    '/api/v1/messaging/board/:id',
    { config: { access: { page: 'message_board', button: 'delete' } }, schema: { tags, summary: 'Delete a board message of my branch', params: idParams, response: { 200: okAnswer } } },
    async (req) => {
      const auth = authOf(req);
      return db.transaction(async (tx) => {
        const row = await boardInScope(tx, await scopeOf(tx, auth), req.params.id);
        await tx.delete(boardMessages).where(eq(boardMessages.id, req.params.id));
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Deleted board message #${req.params.id}`, before: toBoardRow(row) });
        return { ok: true };
      });
    },
  );

  r.post(
    '/api/v1/messaging/board/clear',
    {
      config: { access: { page: 'message_board', button: 'clear' } },
      schema: { tags, summary: 'Clear the message board: delete every board message of my branch (asks for confirmation: { confirm: true })', body: boardClearBody, response: { 200: boardClearAnswer } },
    },
    async (req) => {
      const auth = authOf(req);
      return db.transaction(async (tx) => {
        const scope = await scopeOf(tx, auth);
        const gone = await tx.delete(boardMessages).where(scopeCondition(scope, boardMessages.agentId) ?? sql`true`).returning({ id: boardMessages.id });
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Cleared the message board: ${gone.length} message(s) deleted`, before: { count: gone.length }, after: { count: 0 } });
        return { deleted: gone.length };
      });
    },
  );
}

// ------------------------------------------------------------------------------------------- messages

const senders = aliasedTable(admins, 'sender');
type MessageSelect = { m: typeof messages.$inferSelect; sender: string | null };
const selectMessages = (ex: Executor) =>
  ex.select({ m: messages, sender: senders.account }).from(messages).leftJoin(senders, eq(senders.id, messages.senderAdminId));

export const toMessageRow = ({ m, sender }: MessageSelect) => ({
  id: m.id, title: m.title, content: m.content, audience: m.audience, all_users: m.allUsers, status: m.status, recipient_count: m.recipientCount,
  delivered_count: m.deliveredCount, read_count: m.readCount, send_at: m.sendAt.toISOString(), first_read_at: iso(m.firstReadAt),
  sender_account: sender, sent_at: iso(m.sentAt), create_time: m.createdAt.toISOString(),
});

type MessageFilters = z.infer<typeof messageFilters>;
const messageWhere = (q: MessageFilters, scope: Scope) =>
  and(
    isNull(messages.deletedAt),
    scopeCondition(scope, messages.senderAdminId),
    q.title ? ilike(messages.title, `%${likeEscape(q.title)}%`) : undefined,
    q.audience ? eq(messages.audience, q.audience) : undefined,
    q.status ? eq(messages.status, q.status) : undefined,
    q.sender_account ? eq(senders.account, q.sender_account) : undefined,
    withinDates(messages.createdAt, q.created_at_from, q.created_at_to),
  );

export const MESSAGE_LIST = defineList({
  name: 'message_list', page: 'message_list', path: '/api/v1/messaging/messages', filters: messageFilters, where: messageWhere, select: selectMessages,
  idColumn: messages.id, summary: 'List the in-app messages sent by my branch, with their progress and reads',
  sortable: { id: messages.id, send_at: messages.sendAt, recipient_count: messages.recipientCount }, defaultSort: '-id', toRow: toMessageRow, row: messageRow,

  columns: [
    { key: 'id' }, { key: 'title' }, { key: 'audience' }, { key: 'all_users' }, { key: 'status' }, { key: 'recipient_count' }, { key: 'delivered_count' },
    { key: 'read_count' }, { key: 'send_at' }, { key: 'first_read_at' }, { key: 'sender_account' },
  ],
});

/** A send of my branch (its sender in my subtree), or 404. */
async function messageInScope(ex: Executor, scope: Scope, id: number) {
  const [row] = await selectMessages(ex).where(and(eq(messages.id, id), isNull(messages.deletedAt), scopeCondition(scope, messages.senderAdminId)));
  if (!row) throw notFound();
  return row as MessageSelect;
}

/** The latest a send may be scheduled. */
const MAX_SCHEDULE_MS = 366 * 86_400_000;

export function messageRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, jobs } = ctx;
  registerList(app, db, MESSAGE_LIST);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['message_list'];

  r.get(
    '/api/v1/messaging/messages/:id',
    { config: { access: { page: 'message_list' } }, schema: { tags, summary: 'One in-app message of my branch with its progress', params: idParams, response: { 200: messageRow } } },
    async (req) => toMessageRow(await messageInScope(db, await scopeOf(db, authOf(req)), req.params.id)),
  );

  r.post(
    '/api/v1/messaging/recipients/resolve',
    {
      config: { access: { page: 'message_list', button: 'send' } },
      schema: { tags, summary: 'Check a pasted phone list before sending: bettors of my branch found, numbers not found in it, entries that are not numbers', body: phoneResolveBody, response: { 200: phoneResolution } },
    },
    async (req) => {
      const auth = authOf(req);
      const scope = await scopeOf(db, auth);
      return (await resolvePhones(db, req.body.phones, await branchRoot(db, scope, auth.admin.id))).report;
    },
  );

  r.post(
    '/api/v1/messaging/recipients/count',
    {
      config: { access: { page: 'message_list', button: 'send' } },
      schema: { tags, summary: 'How many bettors of my branch a send to this target would reach now (named by the confirmation before sending); sends nothing', body: recipientCountBody, response: { 200: recipientCountAnswer } },
    },
    async (req) => {
      req.audited = true; // reads only
      const auth = authOf(req);
      return { count: await countRecipients(db, await scopeOf(db, auth), auth.admin.id, req.body.target) };
    },
  );

  r.post(
    '/api/v1/messaging/messages',
    {
      config: { access: { page: 'message_list', button: 'send' } },
      schema: {
        tags, summary: 'Send an in-app message now or at send_at: to all bettors of my branch, a phone list, chosen bettors, a filter of the bettors list or a branch of mine (delivered by a durable job)',
        body: messageSendBody, response: { 201: messageSendAnswer },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const sendAt = req.body.send_at ? new Date(req.body.send_at) : undefined;
      if (sendAt && (sendAt.getTime() < Date.now() - 60_000 || sendAt.getTime() > Date.now() + MAX_SCHEDULE_MS)) {
        throw new AppError(422, 'MESSAGE_SEND_AT_INVALID');
      }
      const out = await db.transaction(async (tx) => {
        const scope = await scopeOf(tx, auth);
        const sent = await createSend(tx, jobs, scope, auth.admin.id, { title: req.body.title, content: req.body.content, target: req.body.target, sendAt });
        const t = req.body.target;
        const target = t.kind === 'phones' ? { kind: 'phones', found: sent.phones?.found } : t;
        await writeAudit(tx, req, {
          type: LOG_TYPE.ordinary, content: `Sent in-app message #${sent.message.id} "${req.body.title}" (${sent.message.audience}${sent.message.status === 'scheduled' ? `, scheduled ${sent.message.sendAt.toISOString()}` : ''})`,
          after: { id: sent.message.id, title: req.body.title, target, send_at: sent.message.sendAt.toISOString() },
        });
        return sent;
      });
      const [row] = await selectMessages(db).where(eq(messages.id, out.message.id));
      return reply.status(201).send({ message: toMessageRow(row as MessageSelect), phones: out.phones });
    },
  );

  r.delete(
    '/api/v1/messaging/messages/:id',
    {
      config: { access: { page: 'message_list', button: 'delete' } },
      schema: { tags, summary: 'Delete an in-app message of my branch: a scheduled one is cancelled; a sent one is withdrawn from the list and from every inbox', params: idParams, response: { 200: okAnswer } },
    },
    async (req) => {
      const auth = authOf(req);
      return db.transaction(async (tx) => {
        await messageInScope(tx, await scopeOf(tx, auth), req.params.id);
        const d = await deleteSend(tx, req.params.id);
        await writeAudit(tx, req, {
          type: LOG_TYPE.ordinary, content: `${d.cancelled ? 'Cancelled scheduled' : 'Deleted'} in-app message #${req.params.id}`,
          before: { status: d.before.status, deleted: false }, after: { status: d.after.status, deleted: !!d.after.deletedAt },
        });
        return { ok: true };
      });
    },
  );
}

// ----------------------------------------------------------------------------------------- public

export function publicAppVersionRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/public/app-version',
    {
      config: { access: { public: true } },
      schema: { tags: ['app_config'], summary: 'For the bettor app: is there a newer version of the app (none, optional or forced), with its download link, text and poster', querystring: appVersionQuery, response: { 200: appVersionAnswer } },
    },
    async (req) => checkAppVersion(ctx.db, req.query.platform, req.query.version),
  );
}
