import { sql } from 'drizzle-orm';
import {
  bigint, bigserial, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, text,
  timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The platform's own tables, which every module stands on: identity (menu items as the permission
 * catalogue, roles, administrators, sessions), the audit trail (log types, system logs), the keys of
 * idempotent requests and the IP blacklist. Modules keep their tables in `modules/<area>/schema.ts`;
 * `src/schema.ts` gathers them all for drizzle and the migration generator.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

// Identity.

/** Spec §3 Menu item: the permission catalogue (seeded from @dau/contract's MENU_CATALOGUE). */
export const menuItems = pgTable('menu_items', {
  id: serial('id').primaryKey(),
  key: text('key').notNull().unique(),
  parentId: integer('parent_id'),
  name: text('name').notNull(),
  languageVariables: text('language_variables').notNull(),
  path: text('path').notNull(),
  type: smallint('type').notNull(),
  platform: smallint('platform').notNull().default(1),
  showHeadshot: smallint('show_headshot').notNull().default(1),
  hidden: boolean('hidden').notNull().default(false),
  icon: text('icon'),
  sort: integer('sort').notNull().default(0),
  allowSelect: boolean('allow_select').notNull().default(true),
});

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  remarks: text('remarks').notNull().default(''),
  isSuper: boolean('is_super').notNull().default(false),
  /**
   * A customer-service role: on the cs_ screens its admins see the branch of their superior (the whole
   * book when the superior is the super admin), read-only. Other roles see their own subtree there too.
   */
  servesSuperiorBranch: boolean('serves_superior_branch').notNull().default(false),
  /** Bumped on every change of the role's permissions: sessions re-read their permission set. */
  version: integer('version').notNull().default(1),
  createdBy: integer('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const roleMenus = pgTable(
  'role_menus',
  {
    roleId: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
    menuId: integer('menu_id').notNull().references(() => menuItems.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] })],
);

/** Spec §3 Administrator. `path` is the materialised chain of superiors ('/1/5/9/'): a subtree is a prefix. */
export const admins = pgTable(
  'admins',
  {
    id: serial('id').primaryKey(),
    account: text('account').notNull(),
    name: text('name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    roleId: integer('role_id').notNull().references(() => roles.id),
    superiorId: integer('superior_id'),
    path: text('path').notNull().default('/'),
    shareRatio: numeric('share_ratio', { precision: 9, scale: 4 }).notNull().default('0'),
    /** Integer cents of TSh. */
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    invitationCode: text('invitation_code').unique(),
    onlineStatus: smallint('online_status').notNull().default(1),
    onlineUpdatedAt: ts('online_updated_at'),
    memberExpiry: ts('member_expiry'),
    registerIp: text('register_ip'),
    registerTime: ts('register_time').notNull().defaultNow(),
    loginIp: text('login_ip'),
    loginTime: ts('login_time'),
    disabled: smallint('disabled').notNull().default(1),
    googleSecret: text('google_secret'),
    googlePendingSecret: text('google_pending_secret'),
    googleBound: smallint('google_bound').notNull().default(2),
    passwordChangedAt: ts('password_changed_at').notNull().defaultNow(),
    /** IANA zone the console shows this admin's times in (lists, details, charts, exports). */
    timeZone: text('time_zone').notNull().default('Africa/Dar_es_Salaam'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('admins_account_lower').on(sql`lower(${t.account})`),
    index('admins_path').on(t.path),
    index('admins_superior').on(t.superiorId),
    // Issue 29, search everywhere: an account's or a name's left-anchored prefix (migration 0041).
    index('admins_account_prefix').on(sql`(lower(${t.account}) COLLATE "C")`),
    index('admins_name_prefix').on(sql`(lower(${t.name}) COLLATE "C")`),
  ],
);

/** Opaque session tokens, stored as SHA-256 hashes; the AES-GCM key of the socket travels with the session. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    adminId: integer('admin_id').notNull(),
    wsKey: text('ws_key').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    idleExpiresAt: ts('idle_expires_at').notNull(),
    absoluteExpiresAt: ts('absolute_expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('sessions_admin').on(t.adminId)],
);

// Audit.

/** Spec §4 log types, seeded with ids 1..16. */
export const logTypes = pgTable('log_types', {
  id: integer('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  remarks: text('remarks').notNull().default(''),
});

/** The audit trail (spec §3 System log). Rows are only ever inserted. */
export const systemLogs = pgTable(
  'system_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: integer('type').notNull(),
    content: text('content').notNull(),
    action: text('action'),
    method: text('method'),
    route: text('route'),
    status: integer('status'),
    adminId: integer('admin_id'),
    account: text('account'),
    ip: text('ip'),
    serverIp: text('server_ip'),
    source: text('source').notNull().default('api'),
    userAgent: text('user_agent'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('system_logs_created').on(t.createdAt),
    index('system_logs_type_created').on(t.type, t.createdAt),
    index('system_logs_admin_created').on(t.adminId, t.createdAt),
  ],
);

// Requests.

/**
 * Idempotency of money-moving admin requests: the console sends an Idempotency-Key per submitted dialog;
 * a repeat of the same key answers the first answer and moves nothing; the same key with another body is refused.
 */
export const requestKeys = pgTable('request_keys', {
  key: text('key').primaryKey(),
  adminId: integer('admin_id').notNull(),
  route: text('route').notNull(),
  /** SHA-256 of the request body as canonical JSON: the same key with another body is refused (null: rows from before). */
  bodyHash: text('body_hash'),
  status: integer('status').notNull(),
  response: jsonb('response').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const ipBlacklist = pgTable('ip_blacklist', {
  id: serial('id').primaryKey(),
  ip: text('ip').notNull().unique(),
  remark: text('remark').notNull().default(''),
  createdBy: integer('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

// Duties (DESIGN "Duties: branch, whole book, two people").

/**
 * A change of a setting that can move money or open a door, waiting for a second whole-book admin: the
 * route and body it replays when approved. `body` holds what was asked, secrets included, until the change
 * is decided or expires; it is cleared then and never answered (the `diff` is masked).
 * Status: pending → applying → applied | failed; pending → refused | withdrawn; a pending past `expires_at`
 * is expired (answered as such, cleared by the sweep).
 */
export const pendingChanges = pgTable(
  'pending_changes',
  {
    id: serial('id').primaryKey(),
    setting: text('setting').notNull(),
    method: text('method').notNull(),
    url: text('url').notNull(),
    route: text('route').notNull(),
    page: text('page').notNull(),
    button: text('button'),
    body: jsonb('body'),
    diff: jsonb('diff').notNull(),
    status: text('status').notNull().default('pending'),
    requestedBy: integer('requested_by').notNull(),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    decidedBy: integer('decided_by'),
    decidedAt: ts('decided_at'),
    reason: text('reason'),
    /** One-time token of the replay that applies an approved change (so only that replay skips the wait). */
    nonce: text('nonce'),
    resultStatus: integer('result_status'),
    resultCode: text('result_code'),
  },
  (t) => [index('pending_changes_status').on(t.status, t.requestedAt), index('pending_changes_setting').on(t.setting, t.requestedAt)],
);

/** Every change of every whole-product setting: who, when, before → after (secrets masked), approved by whom. */
export const settingHistory = pgTable(
  'setting_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    setting: text('setting').notNull(),
    method: text('method').notNull(),
    url: text('url').notNull(),
    adminId: integer('admin_id'),
    account: text('account'),
    approvedBy: integer('approved_by'),
    approvedAccount: text('approved_account'),
    pendingChangeId: integer('pending_change_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('setting_history_setting_created').on(t.setting, t.createdAt), index('setting_history_created').on(t.createdAt)],
);
