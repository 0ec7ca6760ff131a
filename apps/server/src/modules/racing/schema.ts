import { bigint, bigserial, boolean, index, integer, jsonb, numeric, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Virtual racing (issue 13, spec §3 bill types 13–16): the racing provider's races and bets, and the
 * racing coin (conversion balance → coin 15, coin → balance 16). Design: docs/architecture.md ("The casino
 * wallet and virtual racing").
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/** Racing settings (one row, id 1). */
export const racingSettings = pgTable('racing_settings', {
  id: smallint('id').primaryKey().default(1),
  /** Coins per TSh cent x 10000. */
  coinRateBps: integer('coin_rate_bps').notNull().default(10000),
  enabled: boolean('enabled').notNull().default(true),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** A runner of a race as the provider lists it. */
export interface RacingRunner {
  number: number;
  name: string;
  odds: string;
}

/** A virtual race. */
export const racingRaces = pgTable(
  'racing_races',
  {
    id: serial('id').primaryKey(),
    raceRef: text('race_ref').notNull(),
    startsAt: ts('starts_at').notNull(),
    /** RACING_RACE_STATUS: 1 open, 2 running, 3 finished, 4 cancelled. */
    status: smallint('status').notNull().default(1),
    runners: jsonb('runners').$type<RacingRunner[]>().notNull(),
    /** The finishing order (runner numbers) once finished. */
    result: jsonb('result').$type<number[] | null>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('racing_races_ref').on(t.raceRef), index('racing_races_starts').on(t.startsAt)],
);

/** A bet on a runner (bill 13 on placement, 14 on a result change). */
export const racingBets = pgTable(
  'racing_bets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    raceId: integer('race_id').notNull(),
    bettorId: integer('bettor_id').notNull(),
    /** The bettor's agent (scope). */
    agentId: integer('agent_id').notNull(),
    runner: smallint('runner').notNull(),
    stake: cents('stake').notNull(),
    odds: numeric('odds', { precision: 10, scale: 2 }).notNull(),
    /** RACING_BET_STATUS. */
    status: smallint('status').notNull().default(1),
    payout: cents('payout').notNull().default(0),
    settledAt: ts('settled_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('racing_bets_race').on(t.raceId, t.id),
    index('racing_bets_bettor').on(t.bettorId, t.createdAt.desc().nullsFirst()),
    index('racing_bets_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
  ],
);

/** A bettor's racing coins. */
export const racingCoinAccounts = pgTable('racing_coin_accounts', {
  bettorId: integer('bettor_id').primaryKey(),
  coins: bigint('coins', { mode: 'number' }).notNull().default(0),
});

/** Coin conversions: direction 1 balance → coin (bill 15), 2 coin → balance (bill 16). */
export const racingCoinMoves = pgTable(
  'racing_coin_moves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bettorId: integer('bettor_id').notNull(),
    direction: smallint('direction').notNull(),
    cashCents: cents('cash_cents').notNull(),
    coins: bigint('coins', { mode: 'number' }).notNull(),
    billId: bigint('bill_id', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('racing_coin_moves_bettor').on(t.bettorId, t.createdAt.desc().nullsFirst())],
);
