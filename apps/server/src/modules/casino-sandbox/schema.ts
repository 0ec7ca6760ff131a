import { bigint, bigserial, index, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * THE SANDBOX GAME PROVIDER's own book (not the operator's): its outbox of wallet calls. A round is
 * written here whole (bet, wins, rollback, round end, in their order `seq`) before its first call is
 * sent; a call stays pending until the wallet answered it, and is retried with back-off, with the same
 * body (same transaction_uuid), until then, across restarts of our process, as a real provider's
 * retry queue outlives a network failure or our downtime. Nothing of ours reads this table for money:
 * the sandbox's tests and the crash test check against it.
 */
export const casinoSandboxOutbox = pgTable(
  'casino_sandbox_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The provider code (the wallet path segment) the call goes to. */
    providerCode: text('provider_code').notNull(),
    roundRef: text('round_ref').notNull(),
    /** Order of the call in its round: a call is sent only when every earlier call of its round is answered. */
    seq: smallint('seq').notNull(),
    /** 'transaction/bet' | 'transaction/win' | 'transaction/rollback' | 'round/end'. */
    call: text('call').notNull(),
    transactionUuid: text('transaction_uuid'),
    /** The exact JSON body, sent again byte for byte on every retry and duplicate. */
    body: text('body').notNull(),
    /** What the sandbox did to this round on purpose: '', 'rollback', 'late_win', 'out_of_order' (+ ',duplicate', ',timeout'). */
    failure: text('failure').notNull().default(''),
    /** A late win is not sent before this time. */
    notBefore: timestamp('not_before', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    /** Answers still to drop (a simulated timeout: the call reached the wallet, its answer is thrown away). */
    dropAnswers: smallint('drop_answers').notNull().default(0),
    /** Resends of the answered call still to make (a simulated duplicate); the answer must be the first one. */
    duplicates: smallint('duplicates').notNull().default(0),
    /** 1 pending, 2 answered, 3 skipped (a refused bet's wins). */
    state: smallint('state').notNull().default(1),
    answerStatus: text('answer_status'),
    answerBalance: bigint('answer_balance', { mode: 'number' }),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    /** The duplicate's answer (status and balance), to compare with the first. */
    duplicateStatus: text('duplicate_status'),
    duplicateBalance: bigint('duplicate_balance', { mode: 'number' }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('casino_sandbox_outbox_call').on(t.providerCode, t.roundRef, t.seq),
    index('casino_sandbox_outbox_due').on(t.nextAttemptAt).where(sql`${t.state} = 1`),
  ],
);
