/**
 * The live exposure of the landing page (GET /api/v1/statistics/exposure,
 * apps/server/src/modules/statistics/exposure.ts): per live or upcoming match and market, what the book owes
 * on each outcome if it wins. Amounts in cents of TSh. No zod: the console imports it through `ui`.
 */
export type ExposureState = 'live' | 'upcoming' | 'all';

export interface ExposureOutcome {
  outcome_id: string;
  selection_name: string;
  /** Orders (legs) placed on it, decided ones included. */
  orders: number;
  stake: number;
  payout: number;
  /** What the book loses on the market if this outcome wins: payout - the market's stakes. */
  net: number;
  worst: boolean;
}

/** A match as the statistics answers name it (the exposure's markets, the match statistics' rows). */
export interface MatchHeading {
  event_id: string;
  sport_id: number;
  league_name: string;
  home_team: string;
  away_team: string;
  start_time: string;
  match_status: number;
}

export interface ExposureMarket extends MatchHeading {
  live: boolean;
  market_key: string;
  market_name: string;
  orders: number;
  stakes: number;
  worst_outcome_id: string;
  worst_payout: number;
  net_loss: number;
  outcomes: ExposureOutcome[];
}

export interface Exposure {
  generated_at: string;
  /** Markets with open orders (before the limit), and matches. */
  markets: number;
  matches: number;
  items: ExposureMarket[];
}
