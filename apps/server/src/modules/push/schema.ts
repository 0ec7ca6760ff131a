import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Push (issue 15): the FCM settings (one row), the bettors' registered devices, the pushes operators sent
 * and one result per (push, device). A device's FCM registration token is unique; a token FCM answered
 * UNREGISTERED or INVALID_ARGUMENT for is marked `invalid_at` and left out of later pushes.
 */
export const pushConfig = pgTable('push_config', {
  id: integer('id').primaryKey(),
  /** The Firebase project id: messages go to /v1/projects/{project_id}/messages:send. */
  projectId: text('project_id').notNull().default(''),
  /** The service account's key file (JSON with client_email, private_key, token_uri): written, never read back. */
  serviceAccountJson: text('service_account_json').notNull().default(''),
  /** Messages a second at most (our side of FCM's quota). */
  ratePerSecond: integer('rate_per_second').notNull().default(100),
  enabled: boolean('enabled').notNull().default(true),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export const pushDevices = pgTable(
  'push_devices',
  {
    id: serial('id').primaryKey(),
    bettorId: integer('bettor_id'),
    /** The bettor's agent at registration (the data scope); null for a device without a bettor (whole book only). */
    agentId: integer('agent_id'),
    token: text('token').notNull(),
    /** 'android' | 'ios'. */
    platform: text('platform').notNull(),
    model: text('model').notNull().default(''),
    osName: text('os_name').notNull().default(''),
    osVersion: text('os_version').notNull().default(''),
    appVersion: text('app_version').notNull().default(''),
    phone: text('phone'),
    lastTitle: text('last_title'),
    lastBody: text('last_body'),
    lastPushedAt: at('last_pushed_at'),
    invalidAt: at('invalid_at'),
    /** FCM's error code that made the token invalid. */
    invalidReason: text('invalid_reason'),
    registeredAt: at('registered_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_devices_token_uq').on(t.token),
    index('push_devices_agent_idx').on(t.agentId),
    index('push_devices_bettor_idx').on(t.bettorId),
  ],
);

export const pushSends = pgTable(
  'push_sends',
  {
    id: serial('id').primaryKey(),
    /** 'public' (all devices or a segment) | 'precision' (chosen devices). */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** {platform?, app_version?, agent_ids: number[] | null (the sender's scope), device_ids?: number[]}. */
    segment: jsonb('segment').notNull().default(sql`'{}'::jsonb`),
    targetCount: integer('target_count').notNull().default(0),
    sentCount: integer('sent_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    invalidCount: integer('invalid_count').notNull().default(0),
    /** 'queued' | 'sending' | 'done'. */
    status: text('status').notNull().default('queued'),
    senderAdminId: integer('sender_admin_id').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    finishedAt: at('finished_at'),
  },
  (t) => [index('push_sends_sender_idx').on(t.senderAdminId)],
);

export const pushResults = pgTable(
  'push_results',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sendId: integer('send_id').notNull(),
    deviceId: integer('device_id').notNull(),
    /** 'sending' (attempt committed, answer not recorded yet) | 'sent' | 'invalid' | 'failed'. */
    status: text('status').notNull(),
    /** FCM's error code (UNREGISTERED, INVALID_ARGUMENT, QUOTA_EXCEEDED, UNAVAILABLE, …). */
    error: text('error'),
    /** FCM's message name (projects/{p}/messages/{id}). */
    providerId: text('provider_id'),
    attempts: integer('attempts').notNull().default(0),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_results_send_device_uq').on(t.sendId, t.deviceId)],
);

/**
 * THE SANDBOX FCM's own books (not the operator's): the service accounts it knows (their public keys
 * verify the JWTs sent to its token endpoint), the registration tokens it handed to app installs, and
 * every message it accepted.
 */
export const sandboxPushAccounts = pgTable('sandbox_push_accounts', {
  clientEmail: text('client_email').primaryKey(),
  projectId: text('project_id').notNull(),
  publicKey: text('public_key').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

export const sandboxPushDevices = pgTable('sandbox_push_devices', {
  token: text('token').primaryKey(),
  projectId: text('project_id').notNull(),
  /** An uninstalled app's token answers UNREGISTERED. */
  unregistered: boolean('unregistered').notNull().default(false),
  createdAt: at('created_at').notNull().defaultNow(),
});

export const sandboxPushMessages = pgTable(
  'sandbox_push_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: text('project_id').notNull(),
    token: text('token').notNull(),
    title: text('title'),
    body: text('body'),
    message: jsonb('message').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('sandbox_push_messages_token_idx').on(t.token)],
);
