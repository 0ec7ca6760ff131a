/**
 * Keeps the statistics tables (stats_hourly, stats_bettor_day, selection_exposure) in the transaction
 * of the bet or settlement that moves them: one upsert per order and table, deltas only, so they always
 * equal what the orders say.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db.js';

/** East Africa Time (UTC+3, no daylight saving): the operator's day. */
export const DAY_TZ = 'Africa/Dar_es_Salaam';

export interface HourDelta {
  turnover?: number;
  orders?: number;
  payouts?: number;
  tax?: number;
  bonuses?: number;
  cashouts?: number;
  settled?: number;
  /** Stakes of the orders this settles (negative when a settlement is rolled back). */
  settled_stake?: number;
}

export async function bumpHour(ex: Executor, agentId: number, d: HourDelta, at?: Date): Promise<void> {
  const v = { turnover: 0, orders: 0, payouts: 0, tax: 0, bonuses: 0, cashouts: 0, settled: 0, settled_stake: 0, ...d };
  if (Object.values(v).every((x) => x === 0)) return;
  const hour = at ? sql`date_trunc('hour', ${at.toISOString()}::timestamptz)` : sql`date_trunc('hour', now())`;
  await ex.execute(sql`
    INSERT INTO stats_hourly (hour, agent_id, turnover, orders, payouts, tax, bonuses, cashouts, settled, settled_stake)
    VALUES (${hour}, ${agentId}, ${v.turnover}, ${v.orders}, ${v.payouts}, ${v.tax}, ${v.bonuses}, ${v.cashouts}, ${v.settled}, ${v.settled_stake})
    ON CONFLICT (hour, agent_id) DO UPDATE SET
      turnover = stats_hourly.turnover + excluded.turnover, orders = stats_hourly.orders + excluded.orders,
      payouts = stats_hourly.payouts + excluded.payouts, tax = stats_hourly.tax + excluded.tax,
      bonuses = stats_hourly.bonuses + excluded.bonuses, cashouts = stats_hourly.cashouts + excluded.cashouts,
      settled = stats_hourly.settled + excluded.settled, settled_stake = stats_hourly.settled_stake + excluded.settled_stake`);
}

export async function markBettorDay(ex: Executor, agentId: number, bettorId: number, at?: Date): Promise<void> {
  const t = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  await ex.execute(sql`
    INSERT INTO stats_bettor_day (day, agent_id, bettor_id, hour)
    VALUES (to_char(${t} AT TIME ZONE ${DAY_TZ}, 'YYYY-MM-DD'), ${agentId}, ${bettorId}, extract(hour from ${t} AT TIME ZONE ${DAY_TZ})::smallint)
    ON CONFLICT DO NOTHING`);
}

export interface ExposureDelta {
  eventId: string;
  marketKey: string;
  outcomeId: string;
  orders?: number;
  stake?: number;
  liability?: number;
  payouts?: number;
  /** Stake of an order settled or cashed out (negative when a settlement is rolled back). */
  settled_stake?: number;
}

export async function bumpExposure(ex: Executor, agentId: number, rows: ExposureDelta[]): Promise<void> {
  for (const r of rows) {
    const v = { orders: 0, stake: 0, liability: 0, payouts: 0, settled_stake: 0, ...r };
    if (!v.orders && !v.stake && !v.liability && !v.payouts && !v.settled_stake) continue;
    await ex.execute(sql`
      INSERT INTO selection_exposure (event_id, market_key, outcome_id, agent_id, orders, stake, liability, payouts, settled_stake)
      VALUES (${v.eventId}, ${v.marketKey}, ${v.outcomeId}, ${agentId}, ${v.orders}, ${v.stake}, ${v.liability}, ${v.payouts}, ${v.settled_stake})
      ON CONFLICT (event_id, market_key, outcome_id, agent_id) DO UPDATE SET
        orders = selection_exposure.orders + excluded.orders, stake = selection_exposure.stake + excluded.stake,
        liability = selection_exposure.liability + excluded.liability, payouts = selection_exposure.payouts + excluded.payouts,
        settled_stake = selection_exposure.settled_stake + excluded.settled_stake`);
  }
}
