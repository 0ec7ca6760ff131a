/**
 * The messages of a Sportradar-style odds feed (Unified Odds Feed shaped), as a discriminated union
 * on `type`, with the zod schemas the adapter validates every incoming payload against.
 *
 * Conventions:
 *  - `timestamp`, `start_time`, `end_time` are epoch milliseconds (the provider's clock).
 *  - `producer` is the provider's product id (1 = live odds, 3 = pre-match, as in UOF).
 *  - a market is identified by its type id plus its specifiers ('' for none, 'total=2.5', 'hcp=-0.25');
 *    `marketKey()` turns the pair into the one string the store keys markets by.
 *  - prices are decimal strings ('1.85'); never floats on the wire.
 *  - status ids are those of spec §4 (EVENT_STATUS, BETTING_OFFER_STATUS).
 */
import { z } from 'zod';

export const PRODUCER = { live: 1, prematch: 3 } as const;

const ts = z.number().int().nonnegative();
const producer = z.number().int().positive();
const eventId = z.string().min(1).max(64);
const specifiers = z.string().max(200).default('');
/** Decimal odds as a string, > 1, at most 4 decimals. */
export const priceString = z
  .string()
  .regex(/^\d{1,5}(\.\d{1,4})?$/, 'price must be a decimal string')
  .refine((s) => Number(s) > 1, 'price must be greater than 1');

export const marketRefSchema = z.object({ id: z.number().int().positive(), specifiers });
export type MarketRef = z.infer<typeof marketRefSchema>;

export const fixtureChangeSchema = z.object({
  type: z.literal('fixture_change'),
  producer,
  timestamp: ts,
  event_id: eventId,
  sport_id: z.number().int().positive(),
  league_id: z.string().min(1).max(64),
  league_name: z.string().max(200),
  home_team: z.string().min(1).max(200),
  away_team: z.string().min(1).max(200),
  start_time: ts,
  /** EVENT_STATUS 1-8. */
  status: z.number().int().min(1).max(8),
});

export const oddsOutcomeSchema = z.object({
  id: z.string().min(1).max(64),
  /** Absent when the provider has no price for the outcome (offer status 2 "no odds"). */
  price: priceString.optional(),
  active: z.boolean(),
});

export const oddsMarketSchema = marketRefSchema.extend({
  /** BETTING_OFFER_STATUS 1-7. */
  status: z.number().int().min(1).max(7),
  outcomes: z.array(oddsOutcomeSchema).max(200),
});

export const oddsChangeSchema = z.object({
  type: z.literal('odds_change'),
  producer,
  timestamp: ts,
  event_id: eventId,
  /** EVENT_STATUS 1-8. */
  event_status: z.number().int().min(1).max(8),
  markets: z.array(oddsMarketSchema).max(2000),
});

export const betStopSchema = z.object({
  type: z.literal('bet_stop'),
  producer,
  timestamp: ts,
  event_id: eventId,
  /** Absent: every market of the event. */
  markets: z.array(marketRefSchema).optional(),
});

export const settlementOutcomeSchema = z.object({
  id: z.string().min(1).max(64),
  result: z.union([z.literal(0), z.literal(1)]),
  void_factor: z.union([z.literal(0), z.literal(0.5), z.literal(1)]).default(0),
  dead_heat_factor: z.number().gt(0).lte(1).optional(),
});

export const betSettlementSchema = z.object({
  type: z.literal('bet_settlement'),
  producer,
  timestamp: ts,
  event_id: eventId,
  markets: z.array(marketRefSchema.extend({ outcomes: z.array(settlementOutcomeSchema).min(1).max(200) })).min(1),
});

const cancelWindow = {
  /** Only bets placed in [start_time, end_time) are voided; either bound may be absent (open). */
  start_time: ts.optional(),
  end_time: ts.optional(),
};

export const betCancelSchema = z
  .object({
    type: z.literal('bet_cancel'),
    producer,
    timestamp: ts,
    event_id: eventId,
    ...cancelWindow,
    /** Absent: every market of the event. */
    markets: z.array(marketRefSchema).optional(),
  })
  .refine((m) => m.start_time === undefined || m.end_time === undefined || m.start_time < m.end_time, {
    message: 'start_time must be before end_time',
  });

export const rollbackBetSettlementSchema = z.object({
  type: z.literal('rollback_bet_settlement'),
  producer,
  timestamp: ts,
  event_id: eventId,
  markets: z.array(marketRefSchema).min(1),
});

export const rollbackBetCancelSchema = z.object({
  type: z.literal('rollback_bet_cancel'),
  producer,
  timestamp: ts,
  event_id: eventId,
  ...cancelWindow,
  markets: z.array(marketRefSchema).min(1),
});

export const aliveSchema = z.object({
  type: z.literal('alive'),
  producer,
  timestamp: ts,
  /** false: the provider says our session is not subscribed any more: treat as down until recovery. */
  subscribed: z.boolean(),
});

export const producerDownSchema = z.object({ type: z.literal('producer_down'), producer, timestamp: ts });
/** Recovery completed: the producer is back and the state it sent is current. */
export const producerUpSchema = z.object({ type: z.literal('producer_up'), producer, timestamp: ts });

export const feedMessageSchema = z.discriminatedUnion('type', [
  fixtureChangeSchema,
  oddsChangeSchema,
  betStopSchema,
  betSettlementSchema,
  betCancelSchema,
  rollbackBetSettlementSchema,
  rollbackBetCancelSchema,
  aliveSchema,
  producerDownSchema,
  producerUpSchema,
]);

export type FixtureChange = z.infer<typeof fixtureChangeSchema>;
export type OddsChange = z.infer<typeof oddsChangeSchema>;
export type BetStop = z.infer<typeof betStopSchema>;
export type BetSettlement = z.infer<typeof betSettlementSchema>;
export type BetCancel = z.infer<typeof betCancelSchema>;
export type RollbackBetSettlement = z.infer<typeof rollbackBetSettlementSchema>;
export type RollbackBetCancel = z.infer<typeof rollbackBetCancelSchema>;
export type Alive = z.infer<typeof aliveSchema>;
export type ProducerDown = z.infer<typeof producerDownSchema>;
export type ProducerUp = z.infer<typeof producerUpSchema>;
export type FeedMessage = z.infer<typeof feedMessageSchema>;
/** What a sender builds (defaults such as `specifiers` and `void_factor` may be left out). */
export type FeedMessageInput = z.input<typeof feedMessageSchema>;
export type FeedMessageType = FeedMessage['type'];

export const FEED_MESSAGE_TYPES: readonly FeedMessageType[] = [
  'fixture_change',
  'odds_change',
  'bet_stop',
  'bet_settlement',
  'bet_cancel',
  'rollback_bet_settlement',
  'rollback_bet_cancel',
  'alive',
  'producer_down',
  'producer_up',
];

/** The key a market is stored under: '18|total=2.5', '1|' (no specifiers). */
export function marketKey(id: number, specs = ''): string {
  return `${id}|${specs}`;
}
