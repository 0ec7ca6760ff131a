import { bigserial, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Visitors of the bettor-facing site and app (issue 16). Written by `recordVisit` only.
 *
 * Sized for ~100k visits a day: each visit is one row of `visits` (kept 90 days, for the list and its
 * export) and one increment of an hourly total in `visit_hourly` (kept for good: a day has at most
 * 24 × devices × sources × countries × 2 rows, a few thousand in practice), so the charts never scan the
 * visits: 30 days of charts read ~10^4-10^5 small rows instead of 3 million visits. `visitor_profiles`
 * remembers each visitor's first and last day, which says new or returning and whether this is the
 * visitor's first visit of the day (distinct visitors are counted there, so they add up across hours
 * and dimensions without a COUNT DISTINCT).
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const visitorProfiles = pgTable('visitor_profiles', {
  /** The site's cookie id or the app's device id. */
  visitorKey: text('visitor_key').primaryKey(),
  /** Dar es Salaam days, YYYY-MM-DD. */
  firstDay: text('first_day').notNull(),
  lastDay: text('last_day').notNull(),
  firstSeenAt: ts('first_seen_at').notNull(),
  lastSeenAt: ts('last_seen_at').notNull(),
  visits: integer('visits').notNull().default(0),
  /** Visits on last_day: 1 at the visitor's first visit of a day (then counted as a visitor of that day). */
  dayVisits: integer('day_visits').notNull().default(0),
});

export const visits = pgTable(
  'visits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    visitorKey: text('visitor_key').notNull(),
    /** 1 new, 2 returning (VISITOR_KIND). */
    kind: smallint('kind').notNull(),
    /** VISIT_DEVICE. */
    device: smallint('device').notNull(),
    /** VISIT_SOURCE. */
    source: smallint('source').notNull(),
    /** ISO 3166-1 alpha-2, ZZ unknown. */
    country: text('country').notNull(),
    path: text('path').notNull().default('/'),
    visitedAt: ts('visited_at').notNull(),
  },
  (t) => [index('visits_at').on(t.visitedAt), index('visits_visitor').on(t.visitorKey, t.visitedAt)],
);

export const visitHourly = pgTable(
  'visit_hourly',
  {
    /** The start of the hour (UTC instant). */
    hour: ts('hour').notNull(),
    /** Its Dar es Salaam day and hour of the day. */
    day: text('day').notNull(),
    hourOfDay: smallint('hour_of_day').notNull(),
    device: smallint('device').notNull(),
    source: smallint('source').notNull(),
    country: text('country').notNull(),
    kind: smallint('kind').notNull(),
    visits: integer('visits').notNull().default(0),
    /** Visitors whose first visit of the (Dar es Salaam) day fell in this hour and bucket. */
    visitors: integer('visitors').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hour, t.device, t.source, t.country, t.kind] }), index('visit_hourly_day').on(t.day)],
);
