import { sql } from 'drizzle-orm';
import {
  bigint, bigserial, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, text,
  timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
  ],
);

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

/** Spec §3 Website info (singleton row id 1). */
export const siteConfig = pgTable('site_config', {
  id: integer('id').primaryKey(),
  title: text('title').notNull(),
  icon: text('icon').notNull().default(''),
  color: text('color').notNull(),
  logo: text('logo').notNull().default(''),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Spec §3 Default subscriber config (singleton row id 1). */
export const subscriberConfig = pgTable('subscriber_config', {
  id: integer('id').primaryKey(),
  shareRatio: numeric('share_ratio', { precision: 9, scale: 4 }).notNull().default('0'),
  onlineCheck: boolean('online_check').notNull().default(true),
  loginFailureLimit: integer('login_failure_limit').notNull().default(5),
  failureWindowMinutes: integer('failure_window_minutes').notNull().default(15),
  allowRegistration: boolean('allow_registration').notNull().default(false),
  noRegistrationTip: text('no_registration_tip').notNull().default(''),
  defaultRoleId: integer('default_role_id'),
  sessionIdleMinutes: integer('session_idle_minutes').notNull().default(120),
  sessionAbsoluteHours: integer('session_absolute_hours').notNull().default(12),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Spec §3 Language. */
export const languages = pgTable('languages', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  title: text('title').notNull(),
  defaultLanguage: smallint('default_language').notNull().default(1),
  showStatus: smallint('show_status').notNull().default(2),
  icon: text('icon').notNull().default(''),
  country: text('country').notNull().default(''),
  abbreviation: text('abbreviation').notNull().default(''),
  phoneCode: text('phone_code').notNull().default(''),
  sort: integer('sort').notNull().default(0),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const ipBlacklist = pgTable('ip_blacklist', {
  id: serial('id').primaryKey(),
  ip: text('ip').notNull().unique(),
  remark: text('remark').notNull().default(''),
  createdBy: integer('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Server log configuration: one row per logger (spec: "server log configuration", "Conversion failed"). */
export const logConfig = pgTable('log_config', {
  id: serial('id').primaryKey(),
  logger: text('logger').notNull().unique(),
  /** Spec-style numeric level: 1 trace, 2 debug, 3 info, 4 warn, 5 error, 6 fatal (domain enum log_level). */
  level: smallint('level').notNull().default(3),
  retentionDays: integer('retention_days').notNull().default(180),
  /** JSON text the operator edits; rejected with "Conversion failed" when it does not parse to an object. */
  options: text('options').notNull().default('{}'),
  remark: text('remark').notNull().default(''),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Spec §3 Notification: notices for one admin. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminId: integer('admin_id').notNull(),
    content: text('content').notNull(),
    notifyStatus: smallint('notify_status').notNull().default(1),
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    viewedAt: ts('viewed_at'),
  },
  (t) => [index('notifications_admin_status').on(t.adminId, t.notifyStatus, t.id)],
);

