import { bigint, bigserial, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { LegSettlement } from '@dau/domain';

/**
 * The betting engine (issue 5): orders, their lines (one per selection), their history, the settings
 * screens (bet_config, string_rewards), auto-cashout rules and the hourly statistics.
 *
 * Money is integer cents (bigint); odds are `numeric` without scale so '1.80' comes back as placed.
 * Every amount the order shows is the sum of what was posted on the ledger for it (bills with cause
 * type 'order' and cause id = orders.id); settlement compares the wanted amounts with these and posts
 * only the difference, so settling twice posts nothing.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

export const orders = pgTable(
  'orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The order number operators search by. */
    orderNo: text('order_no').notNull(),
    /** The bettor-facing serial number (copy / share). */
    serialNumber: text('serial_number').notNull(),
    bettorId: integer('bettor_id').notNull(),
    /** The bettor's agent at placement: the data scope. */
    agentId: integer('agent_id').notNull(),
    /** ORDER_TYPE: 1 user bet, 2 admin bet, 3 random bet. */
    type: smallint('type').notNull(),
    /** ORDER_STATUS. */
    status: smallint('status').notNull(),
    /** amount_payable: the whole stake. */
    stake: cents('stake').notNull(),
    /** pay_payable: the part paid from the cash balance. */
    cashStake: cents('cash_stake').notNull(),
    /** virtual_pay_amount: the part paid from bonus funds (credit account). */
    creditStake: cents('credit_stake').notNull().default(0),
    /** total_price: combined odds at placement. */
    totalOdds: numeric('total_odds').notNull(),
    potentialPayout: cents('potential_payout').notNull(),
    legCount: smallint('leg_count').notNull(),
    /** Gross payout of the current settlement (stake x factor, floored); 0 while open. */
    payout: cents('payout').notNull().default(0),
    /** profit: what the bettor won or lost, net of tax and with the bonus (payout - tax + bonus - stake); 0 while open. */
    profit: cents('profit').notNull().default(0),
    taxRate: integer('tax_rate').notNull(),
    taxAmount: cents('tax_amount').notNull().default(0),
    /** string_rewards: accumulator bonus rate (bps) of the current settlement. */
    bonusRate: integer('bonus_rate').notNull().default(0),
    /** reward_amount: accumulator bonus paid. */
    bonusAmount: cents('bonus_amount').notNull().default(0),
    earlyCashoutFee: cents('early_cashout_fee').notNull().default(0),
    cashoutAmount: cents('cashout_amount').notNull().default(0),
    inviterReward: cents('inviter_reward').notNull().default(0),
    /** What the settlement has credited so far, per account (the ledger's sum for this order). */
    creditedCash: cents('credited_cash').notNull().default(0),
    creditedCredit: cents('credited_credit').notNull().default(0),
    currency: text('currency').notNull().default('TZS'),
    note: text('note').notNull().default(''),
    /** Who placed an admin or random bet. */
    adminId: integer('admin_id'),
    /** The latest start time of its matches: the abnormal-bet alerts count from it. */
    lastMatchAt: ts('last_match_at').notNull(),
    /** ABNORMAL_BET_FLAG reached so far (0 none). */
    abnormalFlag: smallint('abnormal_flag').notNull().default(0),
    /** Settlement version: bumped on every settle, resettle, rollback, cancel, cashout. */
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    settledAt: ts('settled_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_order_no').on(t.orderNo),
    uniqueIndex('orders_serial').on(t.serialNumber),
    index('orders_created').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('orders_bettor').on(t.bettorId, t.createdAt.desc().nullsFirst()),
    index('orders_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
    index('orders_open_match').on(t.status, t.lastMatchAt),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    eventId: text('event_id').notNull(),
    marketKey: text('market_key').notNull(),
    outcomeId: text('outcome_id').notNull(),
    marketTypeId: integer('market_type_id').notNull(),
    specifiers: text('specifiers').notNull().default(''),
    marketName: text('market_name').notNull(),
    selectionName: text('selection_name').notNull(),
    odds: numeric('odds').notNull(),
    /** early-settlement odds: the current odds when the order was cashed out. */
    cashoutOdds: numeric('cashout_odds'),
    /** OUTCOME_STATUS of the line (1 pending until settled). */
    outcomeStatus: smallint('outcome_status').notNull().default(1),
    /** SELECTION_OUTCOME (0 pending). */
    selectionOutcome: smallint('selection_outcome').notNull().default(0),
    /** The settlement the order is priced with: the feed's, or the operator's result. */
    settlement: jsonb('settlement').$type<LegSettlement | null>(),
    /** 'feed' or 'operator': an operator's result stands until an operator changes it again. */
    settledBy: text('settled_by'),
    sportId: smallint('sport_id').notNull(),
    competitionName: text('competition_name').notNull().default(''),
    homeTeam: text('home_team').notNull().default(''),
    awayTeam: text('away_team').notNull().default(''),
    fixtureDate: ts('fixture_date').notNull(),
    /** EVENT_STATUS at bet time. */
    eventStatusAtBet: smallint('event_status_at_bet').notNull(),
    /** The feed market's object version seen at bet time (odds_update_ts). */
    objectVersion: bigint('object_version', { mode: 'number' }).notNull().default(0),
    /** Minutes from the start of the match to its settlement (match duration at settlement). */
    minutesAtSettlement: integer('minutes_at_settlement'),
    settledAt: ts('settled_at'),
  },
  (t) => [
    index('order_lines_order').on(t.orderId),
    index('order_lines_selection').on(t.eventId, t.marketKey, t.outcomeId),
  ],
);

/** Every state change of an order, who made it and why (order history). */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    /** placed, settled, resettled, rolled_back, cancelled, result_changed, cashout, cashout_rule. */
    kind: text('kind').notNull(),
    /** 'feed', 'operator', 'system', 'bettor'. */
    source: text('source').notNull(),
    adminId: integer('admin_id'),
    reason: text('reason').notNull().default(''),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  // The reports' order changes of a kind over a period (migration 0045).
  (t) => [index('order_events_order').on(t.orderId, t.id), index('order_events_kind_created').on(t.kind, t.createdAt)],
);

/** Auto cashout (spec §4): fire when the offer reaches the target; can be cancelled before. */
export const cashoutRules = pgTable(
  'cashout_rules',
  {
    orderId: bigint('order_id', { mode: 'number' }).primaryKey(),
    target: cents('target').notNull(),
    /** active, fired, cancelled. */
    state: text('state').notNull().default('active'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('cashout_rules_state').on(t.state)],
);

/**
 * bet_config (singleton id 1): what a slip may be, and how orders are paid: withholding tax, cashout,
 * bonus funds, inviter reward and the accumulator bonus terms. (The pay_config screen already holds the
 * recharge and withdrawal limits of the money issue; the betting terms live here, next to the limits.)
 */
export const betConfig = pgTable('bet_config', {
  id: integer('id').primaryKey(),
  minStake: cents('min_stake').notNull(),
  maxStake: cents('max_stake').notNull(),
  maxPayout: cents('max_payout').notNull(),
  maxLegs: integer('max_legs').notNull(),
  /** Maximum combined odds; '0' = none. */
  maxOdds: numeric('max_odds').notNull(),
  /** Maximum stake of one bettor on one match over all open orders; 0 = none. */
  maxStakePerMatch: cents('max_stake_per_match').notNull(),
  /** PRICE_CHANGE_POLICY: 1 refuse, 2 accept higher, 3 accept any, when the price moved since the slip. */
  priceChange: smallint('price_change').notNull(),
  /** Several legs of one match in an accumulator (same-game parlay). */
  allowSameMatch: boolean('allow_same_match').notNull(),
  /** Withholding tax on net winnings (bps): 1000 = 10 % (spec §9). */
  taxRate: integer('tax_rate').notNull(),
  cashoutEnabled: boolean('cashout_enabled').notNull(),
  cashoutMargin: integer('cashout_margin').notNull(),
  /** Seconds an accepted cashout waits before the price is checked again and paid. */
  cashoutDelaySeconds: integer('cashout_delay_seconds').notNull(),
  /** Share of a stake that may come from bonus funds (bps; 0 = none). */
  bonusFundsShare: integer('bonus_funds_share').notNull(),
  inviterShare: integer('inviter_share').notNull(),
  bonusEnabled: boolean('bonus_enabled').notNull(),
  bonusMinOdds: numeric('bonus_min_odds').notNull(),
  bonusCap: cents('bonus_cap').notNull(),
  /** BONUS_BASE: 1 net winnings, 2 payout. */
  bonusBase: smallint('bonus_base').notNull(),
  bonusOnCashout: boolean('bonus_on_cashout').notNull(),
  bonusOnBonusFunds: boolean('bonus_on_bonus_funds').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** string_rewards: accumulator bonus rate by number of qualifying legs. */
export const stringRewards = pgTable(
  'string_rewards',
  {
    id: serial('id').primaryKey(),
    legs: integer('legs').notNull(),
    rate: integer('rate').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('string_rewards_legs').on(t.legs)],
);

/**
 * Statistics by hour and agent, kept in the transaction of every placement and settlement, so that
 * today_statistics / history_statistics read a few hundred rows instead of millions of orders.
 * Sign: amounts as the house sees them (turnover = stakes taken, payouts = gross payouts...).
 */
export const statsHourly = pgTable(
  'stats_hourly',
  {
    hour: ts('hour').notNull(),
    agentId: integer('agent_id').notNull(),
    turnover: cents('turnover').notNull().default(0),
    orders: integer('orders').notNull().default(0),
    payouts: cents('payouts').notNull().default(0),
    tax: cents('tax').notNull().default(0),
    bonuses: cents('bonuses').notNull().default(0),
    cashouts: cents('cashouts').notNull().default(0),
    settled: integer('settled').notNull().default(0),
    /** Stakes of the orders settled (or cashed out) in the hour, less those rolled back: GGR = settled_stake - payouts. */
    settledStake: cents('settled_stake').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hour, t.agentId] })],
);

/** Who bet on which day (distinct bettors of a day = rows of the day). */
export const statsBettorDay = pgTable(
  'stats_bettor_day',
  {
    day: text('day').notNull(),
    agentId: integer('agent_id').notNull(),
    bettorId: integer('bettor_id').notNull(),
    hour: smallint('hour').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.agentId, t.bettorId] })],
);

/**
 * Per selection and agent (match_statistics): orders and stake taken (cumulative), the liability of the
 * open orders holding it (what the book pays if it wins: the potential payouts, an accumulator counting
 * toward each of its selections), the payouts and stakes of the settled ones. Kept with placement and settlement.
 */
export const selectionExposure = pgTable(
  'selection_exposure',
  {
    eventId: text('event_id').notNull(),
    marketKey: text('market_key').notNull(),
    outcomeId: text('outcome_id').notNull(),
    agentId: integer('agent_id').notNull(),
    orders: integer('orders').notNull().default(0),
    stake: cents('stake').notNull().default(0),
    /** Sum of potential payouts of open orders holding this selection (what the book pays if it wins). */
    liability: cents('liability').notNull().default(0),
    payouts: cents('payouts').notNull().default(0),
    /** Stakes of the settled or cashed-out orders holding it (issue 23): GGR = settled_stake - payouts; stake - settled_stake is open. */
    settledStake: cents('settled_stake').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.marketKey, t.outcomeId, t.agentId] })],
);
