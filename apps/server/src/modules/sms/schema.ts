import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * SMS settings (one row, id 1): the Africa's Talking account. `api_key` is write-only in the console
 * (never answered, exported or audited). `callback_token` is the secret in the delivery-report and
 * incoming-message callback URLs we register with Africa's Talking (AT does not sign its callbacks).
 */
export const smsConfig = pgTable('sms_config', {
  id: integer('id').primaryKey(),
  username: text('username').notNull().default('sandbox'),
  apiKey: text('api_key').notNull().default(''),
  senderId: text('sender_id').notNull().default(''),
  /** What one part (segment) of one message costs, cents of TSh (the preview's estimate). */
  costPerSegmentCents: bigint('cost_per_segment_cents', { mode: 'number' }).notNull().default(2500),
  /** Messages per second we hand to the provider (all processes together, approximately). */
  ratePerSecond: integer('rate_per_second').notNull().default(50),
  enabled: boolean('enabled').notNull().default(true),
  callbackToken: text('callback_token').notNull().default(sql`md5(random()::text || clock_timestamp()::text)`),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Numbers that never receive an SMS ("no_send_sms"): E.164 "+255…", one row a number. */
export const smsExclusions = pgTable(
  'sms_exclusions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    phone: text('phone').notNull(),
    /** 'manual' | 'import' | 'stop' (the bettor replied STOP). */
    source: text('source').notNull().default('manual'),
    /** The admin who added it (null for a STOP reply). */
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sms_exclusions_phone_uq').on(t.phone)],
);

/** One SMS send (a text to a list, a filter of bettors or one number) and its progress counters. */
export const smsSends = pgTable(
  'sms_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    content: text('content').notNull(),
    /** 'gsm7' | 'ucs2'. */
    encoding: text('encoding').notNull(),
    segments: smallint('segments').notNull(),
    /** 'phones' | 'filter' | 'one'. */
    targetKind: text('target_kind').notNull(),
    /** The target as asked (filter values; a phone list's size, not the list). */
    targetSpec: jsonb('target_spec').notNull().default({}),
    recipientCount: integer('recipient_count').notNull().default(0),
    excludedCount: integer('excluded_count').notNull().default(0),
    estimatedCostCents: bigint('estimated_cost_cents', { mode: 'number' }).notNull().default(0),
    /** Accepted by the provider (charged: SMS status "used"). */
    sentCount: integer('sent_count').notNull().default(0),
    deliveredCount: integer('delivered_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    /**
     * 'preparing' (a filter send whose recipients the job `sms.prepare` is still writing, chunk by chunk)
     * | 'sending' | 'done'.
     */
    status: text('status').notNull().default('sending'),
    /** A filter send: the sender's data scope when confirmed (`{all}` or `{all: false, agentIds}`), which the chunks apply. */
    targetScope: jsonb('target_scope'),
    /** A filter send: the last bettor id whose chunk is written (moved in the chunk's transaction). */
    prepareCursor: bigint('prepare_cursor', { mode: 'number' }).notNull().default(0),
    /** Recipient rows written so far (all of them once preparing is over). */
    writtenCount: integer('written_count').notNull().default(0),
    senderAdminId: integer('sender_admin_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('sms_sends_sender_idx').on(t.senderAdminId, t.id)],
);

/**
 * One number of a send. status: 'queued' → 'sending' (the attempt is committed before the provider is
 * called) → 'sent' (accepted, message id known) → 'delivered' | 'failed' (delivery report), or 'failed'
 * at once (refused by the provider, or excluded meanwhile). sms_status (spec §4): 1 unused, 2 used =
 * the provider accepted (and charged) the message.
 */
export const smsRecipients = pgTable(
  'sms_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sendId: bigint('send_id', { mode: 'number' }).notNull(),
    phone: text('phone').notNull(),
    bettorId: integer('bettor_id'),
    status: text('status').notNull().default('queued'),
    providerMessageId: text('provider_message_id'),
    failureReason: text('failure_reason'),
    smsStatus: smallint('sms_status').notNull().default(1),
    /** Provider's cost text of the accepted message (e.g. "TZS 25.0000"). */
    cost: text('cost'),
    attempts: smallint('attempts').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sms_recipients_send_phone_uq').on(t.sendId, t.phone),
    index('sms_recipients_send_status_idx').on(t.sendId, t.status, t.id),
    index('sms_recipients_message_idx').on(t.providerMessageId),
    index('sms_recipients_doubt_idx').on(t.phone).where(sql`status = 'sending'`),
  ],
);

/**
 * THE SANDBOX SMS GATEWAY's own books (not ours): every message it accepted, as Africa's Talking would
 * remember it. Nothing of ours reads it; the tests and the crash test count here.
 */
export const sandboxSmsMessages = pgTable(
  'sandbox_sms_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: text('message_id').notNull(),
    username: text('username').notNull(),
    phone: text('phone').notNull(),
    sender: text('sender').notNull().default(''),
    content: text('content').notNull(),
    /** 'Success' | 'Failed' ... the delivery outcome the sandbox decided. */
    outcome: text('outcome').notNull(),
    failureReason: text('failure_reason'),
    costCents: bigint('cost_cents', { mode: 'number' }).notNull().default(0),
    /** Whether our callback acknowledged the delivery report. */
    reported: boolean('reported').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sandbox_sms_messages_id_uq').on(t.messageId), index('sandbox_sms_messages_phone_idx').on(t.phone)],
);
