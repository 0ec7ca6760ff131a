import { bigserial, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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

/** Sign-in attempts per account name (known or not), for the failure window and lockout. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    account: text('account').notNull(),
    ip: text('ip'),
    success: boolean('success').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('login_attempts_account_time').on(t.account, t.createdAt)],
);
