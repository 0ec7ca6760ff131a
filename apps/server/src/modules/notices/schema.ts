import { bigserial, index, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
