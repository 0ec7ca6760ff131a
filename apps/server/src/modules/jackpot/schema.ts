import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The 13-match jackpot (issue 12): bet types (the product's configuration), issues (rounds of 13
 * matches), tickets (13 pick masks each), the settlement records, shared slips and the odds checks of
 * the odds-rise rule. Readings of the spec's unnamed fields: docs/architecture.md ("The jackpot").
 *
 * Money is integer cents (bigint). Every amount a ticket shows is also on the ledger: bills with cause
 * type 'jackpot' and cause id = jackpot_tickets.id.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/** A prize tier: the exact number of hits that wins it and its share of the issue's pool (bps). */
export interface JackpotTierRow {
  hits: number;
  proportion_bps: number;
}

/** jackpot_bet_type: the configuration of a jackpot product. */
export const jackpotBetTypes = pgTable(
  'jackpot_bet_types',
  {
    id: serial('id').primaryKey(),
    /** The product's name (spec `type`). */
    type: text('type').notNull(),
    /** JACKPOT_REWARD_TYPE: 1 shared (pari-mutuel), 2 fixed per line. */
    rewardType: smallint('reward_type').notNull().default(1),
    /** Prize tiers: spec `parent` (hits) and `proportion` (bps of the pool). */
    tiers: jsonb('tiers').$type<JackpotTierRow[]>().notNull(),
    /** Share of the stakes that goes into the issue's prize pool (bps). */
    poolRateBps: integer('pool_rate_bps').notNull(),
    /** "Get matches" offers only matches whose highest 1X2 price is at most this; 0 = no filter. */
    maxRangeOdds: numeric('max_range_odds', { precision: 10, scale: 2 }).notNull().default('0'),
    /** Odds-rise rule: total rise over 5 consecutive rising checks that suspends betting; 0 = off. */
    oddsRiseStep: numeric('odds_rise_step', { precision: 10, scale: 2 }).notNull().default('0'),
    /** The unit stake of one line (spec `bet_amount`). */
    betAmount: cents('bet_amount').notNull(),
    /** House-funded boost added to the pool per line sold. */
    incentives: cents('incentives').notNull().default(0),
    /** Seed of the pool: the house tops the carried amount up to this. */
    initJackpot: cents('init_jackpot').notNull().default(0),
    /** Accumulated pool carried to the next issue (rollover); read-only, moved only by settlement. */
    jackpot: cents('jackpot').notNull().default(0),
    /** At most this is credited to a balance per ticket win (0 = no cap); the rest is withheld. */
    maxAddBalance: cents('max_add_balance').notNull().default(0),
    /** Maximum number of results picked across a ticket (sum of popcounts). */
    guessNumber: smallint('guess_number').notNull(),
    maxDoubles: smallint('max_doubles').notNull(),
    /** 0 = triples not allowed. */
    maxTriples: smallint('max_triples').notNull().default(0),
    allowBonus: boolean('allow_bonus').notNull().default(false),
    /** JACKPOT_CANCEL_RULE: 1 a cancelled match counts as won, 2 void the issue above the threshold. */
    cancelRule: smallint('cancel_rule').notNull().default(1),
    cancelVoidThreshold: smallint('cancel_void_threshold').notNull().default(3),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('jackpot_bet_types_created').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())],
);

/** jackpot_identifier: an issue (round) of a bet type, on 13 matches. */
export const jackpotIssues = pgTable(
  'jackpot_issues',
  {
    id: serial('id').primaryKey(),
    betTypeId: integer('bet_type_id').notNull(),
    identifierPrefix: text('identifier_prefix').notNull(),
    /** prefix + running number per prefix. */
    identifier: text('identifier').notNull(),
    startTime: ts('start_time').notNull(),
    /** Country (catalogue category) the matches were taken from, if chosen. */
    categoryId: integer('category_id'),
    leagueId: text('league_id'),
    /** The issue's prize pool (carried + seed top-up + pool share of stakes + incentives). */
    prizePool: cents('prize_pool').notNull().default(0),
    /** guess_number in force for this issue. */
    maxChoose: smallint('max_choose').notNull(),
    /** Incentives per line in force for this issue. */
    incentives: cents('incentives').notNull().default(0),
    /** Bets close: the first kick-off of the 13 matches by default. */
    betCloseAt: ts('bet_close_at'),
    /** JACKPOT_BET_STATUS: 1 not open, 2 open, 3 suspended, 4 closed. */
    betStatus: smallint('bet_status').notNull().default(1),
    /** JACKPOT_SETTLE_STATUS: 1 unsettled, 2 settling, 3 settled, 4 deleted, 5 voided. */
    settleStatus: smallint('settle_status').notNull().default(1),
    totalBet: cents('total_bet').notNull().default(0),
    lines: bigint('lines', { mode: 'number' }).notNull().default(0),
    tickets: integer('tickets').notNull().default(0),
    /** Winning lines of the current settlement. */
    successful: bigint('successful', { mode: 'number' }).notNull().default(0),
    netIncome: cents('net_income').notNull().default(0),
    netProfit: cents('net_profit').notNull().default(0),
    expenditure: cents('expenditure').notNull().default(0),
    settledVersion: integer('settled_version').notNull().default(0),
    deleteReason: text('delete_reason'),
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('jackpot_issues_identifier').on(t.identifier),
    index('jackpot_issues_created').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('jackpot_issues_bet_type').on(t.betTypeId, t.id),
    index('jackpot_issues_prefix').on(t.identifierPrefix, t.id),
    index('jackpot_issues_start').on(t.startTime),
  ],
);

/** The 13 matches of an issue, in order, with their results (JACKPOT_RESULT; null = not known yet). */
export const jackpotIssueMatches = pgTable(
  'jackpot_issue_matches',
  {
    issueId: integer('issue_id').notNull(),
    /** 1..13. */
    position: smallint('position').notNull(),
    eventId: text('event_id').notNull(),
    homeTeam: text('home_team').notNull().default(''),
    awayTeam: text('away_team').notNull().default(''),
    leagueName: text('league_name').notNull().default(''),
    startTime: ts('start_time').notNull(),
    /** The result in force: 0 home, 1 draw, 2 away, 3 cancelled. */
    result: smallint('result'),
    /** The feed's settled 1X2 result. */
    feedResult: smallint('feed_result'),
    /** 'feed' or 'operator'. */
    resultSource: text('result_source'),
    overrideReason: text('override_reason'),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.position] }), index('jackpot_issue_matches_event').on(t.eventId)],
);

/** A ticket: 13 pick masks (1 home, 2 draw, 4 away) in the issue's match order. */
export const jackpotTickets = pgTable(
  'jackpot_tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serialNumber: text('serial_number').notNull(),
    issueId: integer('issue_id').notNull(),
    bettorId: integer('bettor_id').notNull(),
    /** The bettor's agent at placement: the data scope (same rule as orders). */
    agentId: integer('agent_id').notNull(),
    picks: smallint('picks').array().notNull(),
    lines: integer('lines').notNull(),
    /** Unit stake per line at placement. */
    unit: cents('unit').notNull(),
    /** The whole stake (lines x unit). */
    stake: cents('stake').notNull(),
    /** The part of the stake paid from bonus funds (credit account). */
    bonusStake: cents('bonus_stake').notNull().default(0),
    /** JACKPOT_TICKET_STATUS: 1 open, 2 won, 3 lost, 4 refunded. */
    status: smallint('status').notNull().default(1),
    bestHits: smallint('best_hits'),
    winningLines: integer('winning_lines').notNull().default(0),
    gross: cents('gross').notNull().default(0),
    tax: cents('tax').notNull().default(0),
    credited: cents('credited').notNull().default(0),
    /** Net prize above max_add_balance, held on jackpot_prizes_payable for a manual payout. */
    withheld: cents('withheld').notNull().default(0),
    /** Of `withheld`, what was paid by hand (approved jackpot_prize_payouts; never more than withheld). */
    heldPaid: cents('held_paid').notNull().default(0),
    settledVersion: integer('settled_version').notNull().default(0),
    /** The admin who placed it for the bettor (null when the bettor did). */
    placedBy: integer('placed_by'),
    /** The ticket this one copies (shared slip). */
    sharedFrom: bigint('shared_from', { mode: 'number' }),
    idempotencyKey: text('idempotency_key'),
    createdAt: ts('created_at').notNull().defaultNow(),
    settledAt: ts('settled_at'),
  },
  (t) => [
    uniqueIndex('jackpot_tickets_serial').on(t.serialNumber),
    uniqueIndex('jackpot_tickets_idempotency').on(t.bettorId, t.idempotencyKey),
    index('jackpot_tickets_issue').on(t.issueId, t.id),
    index('jackpot_tickets_created').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('jackpot_tickets_bettor').on(t.bettorId, t.createdAt.desc().nullsFirst()),
    index('jackpot_tickets_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
    /** The queue of held prizes (issue 23). */
    index('jackpot_tickets_held').on(t.id).where(sql`withheld > 0`),
    check('jackpot_tickets_held_paid_within', sql`${t.heldPaid} >= 0 and ${t.heldPaid} <= ${t.withheld}`),
  ],
);

/**
 * A request to pay (part of) a ticket's held prize (issue 23), maker-checker: asked by one admin (pending),
 * approved by another (paid: the money moved from jackpot_prizes_payable in the approval's transaction,
 * `txn_id` its journal transaction), or refused with a reason (withdrawn when the asker cancels it).
 * Kind JACKPOT_PAYOUT_KIND: 1 to the bettor's balance, 2 recorded as paid outside (a bank transfer...,
 * with its reference). Scope: the ticket's agent.
 */
export const jackpotPrizePayouts = pgTable(
  'jackpot_prize_payouts',
  {
    id: serial('id').primaryKey(),
    ticketId: bigint('ticket_id', { mode: 'number' }).notNull(),
    bettorId: integer('bettor_id').notNull(),
    agentId: integer('agent_id').notNull(),
    kind: smallint('kind').notNull(),
    amount: cents('amount').notNull(),
    /** Outside payments: the bank transfer's (or cheque's...) reference. */
    reference: text('reference').notNull().default(''),
    reason: text('reason').notNull(),
    /** JACKPOT_PAYOUT_STATUS: 1 pending, 2 paid, 3 refused, 4 withdrawn. */
    status: smallint('status').notNull().default(1),
    requestedBy: integer('requested_by').notNull(),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    decidedBy: integer('decided_by'),
    decidedAt: ts('decided_at'),
    refuseReason: text('refuse_reason'),
    txnId: text('txn_id'),
  },
  (t) => [
    index('jackpot_prize_payouts_ticket').on(t.ticketId, t.id),
    index('jackpot_prize_payouts_pending').on(t.agentId, t.id).where(sql`status = 1`),
    check('jackpot_prize_payouts_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** Settlement records: one per settle, resettle, delete or void of an issue (its history). */
export const jackpotSettlements = pgTable(
  'jackpot_settlements',
  {
    id: serial('id').primaryKey(),
    issueId: integer('issue_id').notNull(),
    version: integer('version').notNull(),
    /** 'settle', 'resettle', 'delete', 'void'. */
    kind: text('kind').notNull(),
    /** The 13 results settled with. */
    results: jsonb('results').$type<(number | null)[]>().notNull(),
    /** The IssuePlan and totals. */
    plan: jsonb('plan').notNull(),
    reason: text('reason').notNull().default(''),
    /** 'running' or 'done'. */
    status: text('status').notNull().default('running'),
    adminId: integer('admin_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [uniqueIndex('jackpot_settlements_version').on(t.issueId, t.version)],
);

/** super_list: shared bet slips. */
export const jackpotShares = pgTable(
  'jackpot_shares',
  {
    code: text('code').primaryKey(),
    ticketId: bigint('ticket_id', { mode: 'number' }).notNull(),
    bettorId: integer('bettor_id').notNull(),
    /** Scope: the sharing bettor's agent. */
    agentId: integer('agent_id').notNull(),
    copies: integer('copies').notNull().default(0),
    copyStake: cents('copy_stake').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('jackpot_shares_ticket').on(t.ticketId),
    index('jackpot_shares_created').on(t.createdAt.desc().nullsFirst()),
    index('jackpot_shares_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
  ],
);

/** Consecutive 1X2 price checks of an issue's matches while bets are open (odds-rise rule). */
export const jackpotOddsChecks = pgTable(
  'jackpot_odds_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    issueId: integer('issue_id').notNull(),
    eventId: text('event_id').notNull(),
    checkedAt: ts('checked_at').notNull().defaultNow(),
    /** [home, draw, away] prices as text ('1.85'). */
    prices: jsonb('prices').$type<(string | null)[]>().notNull(),
  },
  (t) => [index('jackpot_odds_checks_issue').on(t.issueId, t.eventId, t.checkedAt)],
);
