import { bigint, bigserial, boolean, date, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CloseFigures } from '@dau/contract';

const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * Issue 30: the daily close (migration 0043). One row per business day (Africa/Dar_es_Salaam) and run: the
 * main figures as columns (the list sorts and compares them), every figure in `figures`. A run is never
 * rewritten; a close that finds the same figures as the day's latest run stores nothing (`digest`), one that
 * finds other figures is the day's next run, shown beside the earlier one.
 */
export const dailyCloses = pgTable(
  'daily_closes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    day: date('day', { mode: 'string' }).notNull(),
    /** 1, 2, … per day. */
    run: integer('run').notNull(),
    /** job (the nightly close) or admin (a rerun asked from the console). */
    source: text('source').notNull(),
    createdBy: integer('created_by'),
    /** sha256 of the figures as stored (the same figures, the same digest). */
    digest: text('digest').notNull(),
    stakes: cents('stakes').notNull(),
    payouts: cents('payouts').notNull(),
    ggr: cents('ggr').notNull(),
    bonuses: cents('bonuses').notNull(),
    ngr: cents('ngr').notNull(),
    tax: cents('tax').notNull(),
    deposits: cents('deposits').notNull(),
    withdrawals: cents('withdrawals').notNull(),
    liabilityCash: cents('liability_cash').notNull(),
    liabilityCredit: cents('liability_credit').notNull(),
    openOrders: integer('open_orders').notNull(),
    openPayout: cents('open_payout').notNull(),
    ledgerOk: boolean('ledger_ok').notNull(),
    ledgerProblems: integer('ledger_problems').notNull(),
    figures: jsonb('figures').$type<CloseFigures>().notNull(),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('daily_closes_day_run').on(t.day, t.run)],
);
