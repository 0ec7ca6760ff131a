import { z } from 'zod';
import { answerRow, component } from './answers.js';
import { bigIdParams, dateTime, id, idParams, int16, int32 } from './input.js';

/**
 * Request and answer shapes of virtual racing's routes (apps/server/src/modules/racing/routes.ts; the
 * console's declarations without zod are in ./racing-resources.ts). Money in cents of TSh, odds as decimal
 * text, statuses by the domain's enumerations racing_race_status, racing_bet_status, racing_coin_direction.
 */

const runner = z.object({ number: z.number().int(), name: z.string(), odds: z.string() });

/** A race as the list answers it: its runners with their odds and, once finished, the finishing order. */
export const racingRaceRow = answerRow({ id: 'number', race_ref: 'string', starts_at: 'string', status: 'number', winner: 'number?', updated_at: 'string' }).extend({
  runners: z.array(runner),
  /** Runner numbers, first past the post first; null until finished. */
  result: z.array(z.number().int()).nullable(),
});
export type RacingRaceRow = z.infer<typeof racingRaceRow>;

/**
 * GET /racing/races/:id: the race and each runner with its finishing place and the bets on it in the
 * caller's branch (refunded bets left out).
 */
export const racingRaceDetail = racingRaceRow.extend({
  book: z.array(runner.extend({ place: z.number().int().nullable(), bets: z.number().int(), stake: z.number().int(), payout: z.number().int() })),
});
export type RacingRaceDetail = z.infer<typeof racingRaceDetail>;

export const racingBetRow = answerRow({
  id: 'number', race_id: 'number', race_ref: 'string', starts_at: 'string', bettor_id: 'number', phone: 'string', user_name: 'string', runner: 'number',
  runner_name: 'string', stake: 'number', odds: 'string', status: 'number', payout: 'number', created_at: 'string', settled_at: 'string?',
});
export type RacingBetRow = z.infer<typeof racingBetRow>;

/** GET /racing/bets/:id (racing_order:detail): the bet and its race. */
export const racingBetDetail = z.object({ bet: racingBetRow, race: racingRaceRow });
export type RacingBetDetail = z.infer<typeof racingBetDetail>;

export const racingCoinMoveRow = answerRow({
  id: 'number', bettor_id: 'number', phone: 'string', user_name: 'string', direction: 'number', cash: 'number', coins: 'number', bill_id: 'number?', created_at: 'string',
});
export type RacingCoinMoveRow = z.infer<typeof racingCoinMoveRow>;

export const racingRaceParams = idParams;
export const racingBetParams = bigIdParams;

export const racingSettingsAnswer = z.object({
  enabled: z.boolean(),
  /** Coins per TSh cent x 10,000 (10,000: one coin per cent; 100: one coin per shilling). */
  coin_rate_bps: z.number().int(),
  updated_at: z.string(),
});
export const racingSettingsBody = z.strictObject({ enabled: z.boolean().optional(), coin_rate_bps: int32(1, 100_000_000).optional() });

export const racingStatsQuery = z.object({ from: dateTime(), to: dateTime() });

export const racingStatsAnswer = z.object({
  /** Stakes of the bets placed in the period, refunded bets left out. */
  turnover: z.number().int(),
  /** Stakes of those bets already decided (won or lost). */
  settled_stake: z.number().int(),
  /** What the won bets paid. */
  payouts: z.number().int(),
  /** settled_stake − payouts: what the house kept of the decided bets. */
  ggr: z.number().int(),
  /** Stakes of bets not decided yet. */
  open_stakes: z.number().int(),
  bets: z.number().int(),
  bettors: z.number().int(),
  /** Cash converted into racing coins (bill 15) and back (bill 16) in the period. */
  coins_bought_cash: z.number().int(),
  coins_sold_cash: z.number().int(),
});
export type RacingStatsAnswer = z.infer<typeof racingStatsAnswer>;

/**
 * POST /sandbox/racing/bets (sandbox only): a bettor of my branch bets on the next open race starting at least
 * `lead_seconds` from now (default 30; at most 12 minutes: the provider lists 15 minutes ahead), as the
 * bettor app would; the runner defaults to the favourite.
 */
export const racingSandboxBetBody = z.strictObject({ bettor_id: id(), stake: int32(1), runner: int16(1).optional(), lead_seconds: int32(0, 720).optional() });

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(racingRaceRow, 'RacingRaceRow');
component(racingBetRow, 'RacingBetRow');
