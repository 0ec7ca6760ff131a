import { bpsOf } from '@dau/domain';
import type { jackpotBetTypes } from './schema.js';

type BetTypeRow = typeof jackpotBetTypes.$inferSelect;

/** The pool of an issue (design "Pool"), as jackpotPoolAnswer shows it. */
export interface PoolParts {
  /** The bet type's accumulated jackpot carried in. */
  carried: number;
  /** House-funded top-up of the carried amount to init_jackpot. */
  seedTopUp: number;
  /** pool_rate_bps x stakes. */
  fromStakes: number;
  /** incentives x lines sold (house-funded). */
  fromIncentives: number;
  total: number;
}

export function poolParts(bt: Pick<BetTypeRow, 'jackpot' | 'initJackpot' | 'poolRateBps'>, incentivesPerLine: number, stakes: number, lines: number): PoolParts {
  const carried = Math.max(0, bt.jackpot);
  const seedTopUp = Math.max(0, bt.initJackpot - carried);
  const fromStakes = bpsOf(stakes, bt.poolRateBps);
  const fromIncentives = incentivesPerLine * lines;
  return { carried, seedTopUp, fromStakes, fromIncentives, total: carried + seedTopUp + fromStakes + fromIncentives };
}
