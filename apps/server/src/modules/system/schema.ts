import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, numeric, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { admins, roles } from '../../platform/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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


/**
 * Saved filters (issue 29): a list's URL query (filters, sort, page size; never the page number) saved by an
 * admin under a name for one catalogue page; at most one pinned as that admin's default for the page; shared
 * read-only with the admins of one role when `shared_role_id` is set (migration 0040).
 */
export const savedFilters = pgTable(
  'saved_filters',
  {
    id: serial('id').primaryKey(),
    adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
    page: text('page').notNull(),
    name: text('name').notNull(),
    query: text('query').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    sharedRoleId: integer('shared_role_id').references(() => roles.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_filters_name').on(t.adminId, t.page, t.name),
    uniqueIndex('saved_filters_default').on(t.adminId, t.page).where(sql`is_default`),
    index('saved_filters_shared').on(t.sharedRoleId, t.page).where(sql`shared_role_id is not null`),
  ],
);
