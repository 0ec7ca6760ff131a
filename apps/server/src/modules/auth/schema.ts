import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Sign-in attempts that were checked against a password, per account name (known or not) and client
 * address: the per-address limit, the per account+address limit, the account-wide back-off and the
 * "known place" (an address this account has signed in from) are all counted here, so that several
 * server processes agree. Requests refused by a limit before any check are not recorded.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    account: text('account').notNull(),
    ip: text('ip'),
    success: boolean('success').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_account_time').on(t.account, t.createdAt),
    index('login_attempts_ip_time').on(t.ip, t.createdAt),
    index('login_attempts_known_place').on(t.account, t.ip).where(sql`${t.success}`),
  ],
);

/**
 * The last Google authenticator (TOTP) time step accepted for an admin: a code is accepted once only,
 * and never for a step at or before the last one used (sign-in, binding, unbinding).
 */
export const totpSteps = pgTable('totp_steps', {
  adminId: integer('admin_id').primaryKey(),
  lastStep: bigint('last_step', { mode: 'number' }).notNull(),
});
