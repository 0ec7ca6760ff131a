/**
 * The betting settings as the rules read them: bet_config (slip limits; tax, cashout, bonus funds,
 * inviter share, accumulator bonus terms) and string_rewards (bonus tiers). Read inside the
 * transaction that uses them, so a change applies to the next bet, never half of one.
 */
import { asc, eq } from 'drizzle-orm';
import type { AccumulatorBonusConfig, BetLimits, PriceChangePolicy } from '@dau/domain';
import type { Executor } from '../../platform/db.js';
import { betConfig, stringRewards } from './schema.js';

export const PRICE_CHANGE: Record<number, PriceChangePolicy> = { 1: 'refuse', 2: 'accept_higher', 3: 'accept_any' };

export interface BettingSettings {
  limits: BetLimits;
  priceChange: PriceChangePolicy;
  allowSameMatch: boolean;
  taxBps: number;
  cashoutEnabled: boolean;
  cashoutMarginBps: number;
  cashoutDelaySeconds: number;
  bonusFundsShareBps: number;
  inviterShareBps: number;
  bonus: AccumulatorBonusConfig;
}

export async function loadSettings(ex: Executor): Promise<BettingSettings> {
  const [bet] = await ex.select().from(betConfig).where(eq(betConfig.id, 1));
  if (!bet) throw new Error('the bet_config row is missing (migration 0008 seeds it)');
  const pay = bet;
  const tiers = await ex.select().from(stringRewards).where(eq(stringRewards.isEnabled, true)).orderBy(asc(stringRewards.legs));
  return {
    limits: {
      minStakeCents: bet.minStake,
      maxStakeCents: bet.maxStake,
      maxPayoutCents: bet.maxPayout,
      maxLegs: bet.maxLegs,
      maxOdds: bet.maxOdds,
      maxStakePerMatchCents: bet.maxStakePerMatch,
    },
    priceChange: PRICE_CHANGE[bet.priceChange] ?? 'refuse',
    allowSameMatch: bet.allowSameMatch,
    taxBps: pay.taxRate,
    cashoutEnabled: pay.cashoutEnabled,
    cashoutMarginBps: pay.cashoutMargin,
    cashoutDelaySeconds: pay.cashoutDelaySeconds,
    bonusFundsShareBps: pay.bonusFundsShare,
    inviterShareBps: pay.inviterShare,
    bonus: {
      enabled: pay.bonusEnabled,
      tiers: tiers.map((t) => ({ legs: t.legs, rateBps: t.rate })),
      minOdds: pay.bonusMinOdds,
      capCents: pay.bonusCap,
      base: pay.bonusBase === 2 ? 'payout' : 'net',
      allowOnCashout: pay.bonusOnCashout,
      allowOnBonusFunds: pay.bonusOnBonusFunds,
    },
  };
}
