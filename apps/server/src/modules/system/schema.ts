import { bigserial, boolean, index, integer, numeric, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

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

