import { z } from 'zod';
import { answerRow, component } from './answers.js';
import { dateTime, id, int16, queryBigId, queryId, queryInt32, text } from './input.js';

/**
 * Request and answer shapes of the jackpot's hand-written routes (issue 12; declarations without zod
 * in ./jackpot-resources.ts). Money in cents; picks are 13 bit masks (1 home, 2 draw, 4 away); results
 * 0 home, 1 draw, 2 away, 3 cancelled, null unknown.
 */

const optionalText = (max = 64) => text(max).optional();
const optionalDate = dateTime().optional();

// ---------------------------------------------------------------------------------------------- issues

export const jackpotIssueFilters = z.object({
  identifier: optionalText(),
  bet_type_id: queryId().optional(),
  bet_status: queryInt32(0, 100).optional(),
  settle_status: queryInt32(0, 100).optional(),
  start_time_from: optionalDate,
  start_time_to: optionalDate,
});

export const jackpotIssueRow = answerRow({
  id: 'number', identifier: 'string', identifier_prefix: 'string', bet_type_id: 'number', bet_type: 'string?', start_time: 'string',
  category_id: 'number?', league_id: 'string?', matches: 'number', prize_pool: 'number', max_choose: 'number', incentives: 'number',
  bet_close_at: 'string?', bet_status: 'number', settle_status: 'number', total_bet: 'number', lines: 'number', tickets: 'number',
  successful: 'number', net_income: 'number', net_profit: 'number', expenditure: 'number', settled_version: 'number',
  delete_reason: 'string?', create_time: 'string',
}).extend({
  /** Seconds until bets close (0 once closed; null without a close time). */
  closes_in: z.number().nullable(),
});
export type JackpotIssueRow = z.infer<typeof jackpotIssueRow>;

export const jackpotMatchRow = answerRow({
  position: 'number', event_id: 'string', home_team: 'string', away_team: 'string', league_name: 'string', start_time: 'string',
  result: 'number?', feed_result: 'number?', result_source: 'string?', override_reason: 'string?',
});
export type JackpotMatchRow = z.infer<typeof jackpotMatchRow>;

/** Pool composition of an issue (design "Pool"). */
export const jackpotPoolAnswer = z.object({
  carried: z.number(),
  seed_top_up: z.number(),
  from_stakes: z.number(),
  from_incentives: z.number(),
  total: z.number(),
});
export type JackpotPoolAnswer = z.infer<typeof jackpotPoolAnswer>;

export const jackpotIssueDetail = z.object({
  issue: jackpotIssueRow,
  /**
   * `kick_off`: the feed's kick-off time (a postponed match has its new one), else the stored one; `started`:
   * kicked off (the time passed, or the feed says under way or over). Before that a match gets no result but cancelled.
   */
  matches: z.array(jackpotMatchRow.extend({ kick_off: z.string(), started: z.boolean() })),
  pool: jackpotPoolAnswer,
  tiers: z.array(z.object({ hits: z.number(), proportion_bps: z.number() })),
});
export type JackpotIssueDetail = z.infer<typeof jackpotIssueDetail>;

export const jackpotIssueCreateBody = z.strictObject({
  bet_type_id: id(),
  /** Letters, digits, '-' and '_': the identifier is the prefix and a running number per prefix. */
  identifier_prefix: text(16).regex(/^[A-Za-z0-9_-]{1,16}$/),
  start_time: dateTime(),
  category_id: id().nullable().optional(),
  league_id: text(64).nullable().optional(),
  bet_close_at: dateTime().nullable().optional(),
});

export const jackpotCandidatesQuery = z.object({
  category_id: queryId().optional(),
  league_id: optionalText(),
  from: optionalDate,
  to: optionalDate,
  limit: queryInt32(1, 500).optional(),
});

export const jackpotCandidateRow = answerRow({
  event_id: 'string', home_team: 'string', away_team: 'string', league_id: 'string?', league_name: 'string', category_id: 'number?',
  start_time: 'string', price_home: 'string?', price_draw: 'string?', price_away: 'string?',
});
export type JackpotCandidateRow = z.infer<typeof jackpotCandidateRow>;
export const jackpotCandidatesAnswer = z.object({ items: z.array(jackpotCandidateRow), max_range_odds: z.number() });
export type JackpotCandidatesAnswer = z.infer<typeof jackpotCandidatesAnswer>;

/** Exactly 13 event ids (checked by the route: "A jackpot issue needs exactly 13 matches"). */
export const jackpotMatchesBody = z.strictObject({ event_ids: z.array(text(64).min(1)).max(50) });
export const jackpotBetStatusBody = z.strictObject({ bet_status: int16(1, 4) });
export const jackpotResultsBody = z.strictObject({
  results: z
    .array(z.strictObject({ position: int16(1, 13), result: int16(0, 3).nullable(), reason: text(500).optional() }))
    .min(1)
    .max(13),
});
export const jackpotReasonBody = z.strictObject({ reason: text(500).optional() });
export const jackpotSettleBody = z.strictObject({ fingerprint: text(128).min(1) });

// --------------------------------------------------------------------------------------------- tickets

export const jackpotTicketBody = z.strictObject({
  issue_id: id(),
  bettor_id: id(),
  /** 13 masks in the issue's match order; a missing or 0 mask answers "Please select a result". */
  picks: z.array(int16(0, 7)).max(13),
  use_bonus: z.boolean().optional(),
});
export type JackpotTicketBody = z.infer<typeof jackpotTicketBody>;

/** The quote: what placing would do (ok with lines and stake) or the refusal's code and message. */
export const jackpotQuoteAnswer = z.object({
  ok: z.boolean(),
  code: z.string().nullable(),
  message: z.string().nullable(),
  /** 1-based position of the match the refusal is about. */
  match: z.number().nullable(),
  lines: z.number(),
  unit: z.number(),
  stake: z.number(),
  doubles: z.number(),
  triples: z.number(),
  picked: z.number(),
  /** Of the stake, the part bonus funds would pay. */
  bonus_stake: z.number(),
});
export type JackpotQuoteAnswer = z.infer<typeof jackpotQuoteAnswer>;

export const jackpotTicketFilters = z.object({
  id: queryBigId().optional(),
  issue_id: queryId().optional(),
  identifier: optionalText(),
  bettor_id: queryId().optional(),
  phone: optionalText(32),
  status: queryInt32(0, 100).optional(),
  min_hits: queryInt32(0, 13).optional(),
  serial_number: optionalText(),
  created_at_from: optionalDate,
  created_at_to: optionalDate,
});

export const jackpotTicketRow = answerRow({
  id: 'number', serial_number: 'string', issue_id: 'number', identifier: 'string', bettor_id: 'number', phone: 'string', user_name: 'string',
  lines: 'number', unit: 'number', stake: 'number', bonus_stake: 'number', status: 'number', best_hits: 'number?', winning_lines: 'number',
  gross: 'number', tax: 'number', credited: 'number', withheld: 'number', placed_by: 'string?', shared_from: 'number?',
  create_time: 'string', settlement_time: 'string?',
}).extend({ picks: z.array(z.number()) });
export type JackpotTicketRow = z.infer<typeof jackpotTicketRow>;

export const jackpotTicketDetail = z.object({
  ticket: jackpotTicketRow,
  issue: jackpotIssueRow,
  /** Each match with the ticket's pick (mask) and the result; `hit` null while the result is unknown. */
  matches: z.array(jackpotMatchRow.extend({ pick: z.number(), hit: z.boolean().nullable() })),
  share_code: z.string().nullable(),
});
export type JackpotTicketDetail = z.infer<typeof jackpotTicketDetail>;

// ---------------------------------------------------------------------------------------------- shares

export const jackpotShareFilters = z.object({
  code: optionalText(32),
  phone: optionalText(32),
  created_at_from: optionalDate,
  created_at_to: optionalDate,
});

export const jackpotShareRow = answerRow({
  code: 'string', ticket_id: 'number', serial_number: 'string', identifier: 'string', bettor_id: 'number', phone: 'string',
  lines: 'number', stake: 'number', copies: 'number', copy_stake: 'number', create_time: 'string',
});
export type JackpotShareRow = z.infer<typeof jackpotShareRow>;

export const jackpotShareDetail = z.object({ share: jackpotShareRow, ticket: jackpotTicketRow, matches: z.array(jackpotMatchRow.extend({ pick: z.number() })) });
export type JackpotShareDetail = z.infer<typeof jackpotShareDetail>;

export const jackpotCodeParams = z.object({ code: text(32).min(1) });
export const jackpotTicketIdParams = z.object({ id: queryBigId() });

// ----------------------------------------------------------------------------------- held prizes (issue 23)

/** GET /jackpot/held_prizes: tickets with a prize held above the bet type's max_add_balance. */
export const jackpotHeldFilters = z.object({
  serial_number: optionalText(),
  identifier: optionalText(),
  phone: optionalText(32),
  bettor_id: queryId().optional(),
  /** JACKPOT_HELD_STATE: 1 held, 2 awaiting approval, 3 part paid, 4 paid. */
  state: queryInt32(0, 100).optional(),
  settled_at_from: optionalDate,
  settled_at_to: optionalDate,
});

/** A held prize: `held` the ticket's withheld net prize, `paid` what was paid of it by hand, `pending` asked and not decided. */
export const jackpotHeldRow = answerRow({
  id: 'number', serial_number: 'string', issue_id: 'number', identifier: 'string', bettor_id: 'number', phone: 'string', user_name: 'string',
  gross: 'number', credited: 'number', held: 'number', paid: 'number', pending: 'number', remaining: 'number', state: 'number',
  settlement_time: 'string?',
});
export type JackpotHeldRow = z.infer<typeof jackpotHeldRow>;

/** A request to pay (part of) a held prize: JACKPOT_PAYOUT_KIND, JACKPOT_PAYOUT_STATUS. */
export const jackpotPayoutRow = answerRow({
  id: 'number', ticket_id: 'number', kind: 'number', amount: 'number', reference: 'string', reason: 'string', status: 'number',
  requested_by_id: 'number', requested_by: 'string?', requested_at: 'string', decided_by_id: 'number?', decided_by: 'string?', decided_at: 'string?',
  refuse_reason: 'string?',
});
export type JackpotPayoutRow = z.infer<typeof jackpotPayoutRow>;

export const jackpotHeldDetail = z.object({ prize: jackpotHeldRow, payouts: z.array(jackpotPayoutRow) });
export type JackpotHeldDetail = z.infer<typeof jackpotHeldDetail>;

const payoutAmount = () => z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** Pay (part of) a held prize to the bettor's balance: waits for a second admin's approval. */
export const jackpotPayBody = z.strictObject({ amount: payoutAmount(), reason: text(500).min(1) });
/** Record (part of) a held prize as paid outside the balances (a bank transfer...): waits for a second admin's approval. */
export const jackpotPayOutsideBody = z.strictObject({ amount: payoutAmount(), reference: text(100).min(1), reason: text(500).min(1) });
export const jackpotPayoutRefuseBody = z.strictObject({ reason: text(500).min(1) });

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(jackpotIssueRow, 'JackpotIssueRow');
component(jackpotPoolAnswer, 'JackpotPool');
component(jackpotIssueDetail, 'JackpotIssueDetail');
component(jackpotTicketRow, 'JackpotTicketRow');
component(jackpotTicketDetail, 'JackpotTicketDetail');
component(jackpotShareRow, 'JackpotShareRow');
component(jackpotHeldRow, 'JackpotHeldPrizeRow');
component(jackpotPayoutRow, 'JackpotPrizePayoutRow');
