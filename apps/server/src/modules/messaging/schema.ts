import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Messaging (issue 15, MSG): in-app messages the console sends to bettors, the message board bettors
 * write on, and the app versions the bettor app asks about. Design:
 * docs/architecture.md ("Messaging: in-app, board, SMS, push, Telegram").
 *
 * A broadcast ("all bettors" of a branch, `audience` 'all') is ONE `messages` row: it reaches every bettor
 * of `scope_admin_id`'s subtree (every bettor when null) who registered before it was sent, and a bettor's
 * read state is a `message_reads` row written only when they read it. Targeted sends (a phone list,
 * chosen bettors, a filter of the bettors list, a branch) write one `message_recipients` row per bettor,
 * set-based, in chunks, by the durable job `messaging.deliver`.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /** 'all' (broadcast), 'bettors' (a phone list or chosen bettors), 'filter' (the bettors list's filters), 'branch' (an agent's subtree). */
    audience: text('audience').notNull(),
    /** The spec's "all-users flag": a broadcast. */
    allUsers: boolean('all_users').notNull().default(false),
    /** Whose subtree the send reaches: the sender's branch root ('all', 'filter'), the chosen agent ('branch'); null = every bettor (super admin). */
    scopeAdminId: integer('scope_admin_id'),
    /** 'filter': the bettors list's filters; 'bettors': { bettor_ids }. */
    filter: jsonb('filter'),
    recipientCount: integer('recipient_count').notNull().default(0),
    deliveredCount: integer('delivered_count').notNull().default(0),
    readCount: integer('read_count').notNull().default(0),
    /** The last bettor id the fan-out of a targeted send has written (it resumes from here after a crash). */
    deliverCursor: integer('deliver_cursor').notNull().default(0),
    /** 'scheduled' | 'sending' | 'sent' | 'cancelled'. */
    status: text('status').notNull(),
    sendAt: ts('send_at').notNull(),
    sentAt: ts('sent_at'),
    /** The spec's "check time": when a recipient first read it. */
    firstReadAt: ts('first_read_at'),
    senderAdminId: integer('sender_admin_id').notNull(),
    /** A reply to a board message (the board row's id). */
    boardMessageId: integer('board_message_id'),
    /** Deleted from the console: gone from the list and from every inbox. */
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('messages_sender').on(t.senderAdminId, t.id),
    index('messages_broadcast').on(t.allUsers, t.status, t.sentAt),
    index('messages_status').on(t.status, t.sendAt),
  ],
);

export const messageRecipients = pgTable(
  'message_recipients',
  {
    messageId: integer('message_id').notNull(),
    bettorId: integer('bettor_id').notNull(),
    readAt: ts('read_at'),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.bettorId] }), index('message_recipients_bettor').on(t.bettorId, t.messageId)],
);

export const messageReads = pgTable(
  'message_reads',
  {
    messageId: integer('message_id').notNull(),
    bettorId: integer('bettor_id').notNull(),
    readAt: ts('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.bettorId] }), index('message_reads_bettor').on(t.bettorId)],
);

export const boardMessages = pgTable(
  'board_messages',
  {
    id: serial('id').primaryKey(),
    bettorId: integer('bettor_id').notNull(),
    /** The bettor's agent when written: the data scope. */
    agentId: integer('agent_id').notNull(),
    phone: text('phone').notNull(),
    content: text('content').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    readAt: ts('read_at'),
    readBy: integer('read_by'),
    repliedMessageId: integer('replied_message_id'),
    replyContent: text('reply_content'),
    repliedAt: ts('replied_at'),
    repliedBy: integer('replied_by'),
  },
  (t) => [index('board_messages_agent').on(t.agentId, t.id), index('board_messages_bettor').on(t.bettorId, t.id)],
);

export const appVersions = pgTable(
  'app_versions',
  {
    id: serial('id').primaryKey(),
    /** 'android' | 'ios'. */
    platform: text('platform').notNull(),
    /** Semantic version "1.4.2". */
    version: text('version').notNull(),
    versionCode: integer('version_code').notNull().default(0),
    /** Download poster: an upload path or an https URL. */
    poster: text('poster').notNull().default(''),
    downloadUrl: text('download_url').notNull().default(''),
    updateText: text('update_text').notNull().default(''),
    updateUrl: text('update_url').notNull().default(''),
    forceUpdate: boolean('force_update').notNull().default(false),
    updatedBy: text('updated_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('app_versions_platform').on(t.platform, t.versionCode)],
);
