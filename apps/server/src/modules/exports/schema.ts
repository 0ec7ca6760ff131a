import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Spec §3 Async operation: background exports. */
export const asyncOperations = pgTable(
  'async_operations',
  {
    id: serial('id').primaryKey(),
    adminId: integer('admin_id').notNull(),
    type: text('type').notNull(),
    format: smallint('format').notNull(),
    params: jsonb('params').notNull(),
    /** 1 in progress, 2 completed, 3 abnormal. */
    status: smallint('status').notNull().default(1),
    rowCount: integer('row_count').notNull().default(0),
    filePath: text('file_path'),
    fileName: text('file_name'),
    errorMessage: text('error_message'),
    /** Runs of the export so far (claims by the export job): a crashed export is given up after a few. */
    attempts: integer('attempts').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('async_operations_admin').on(t.adminId, t.id), index('async_operations_status').on(t.status)],
);
