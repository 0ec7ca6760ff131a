import { and, count, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { ONLINE_STATUS, ORDER_STATUS, PAY_STATUS } from '@dau/domain';
import { orders, statsBettorDay, statsHourly } from '../betting/index.js';
import { bettors } from '../money/index.js';
import { recharges, withdrawals } from '../payments/index.js';
import { scopeCondition, type Scope } from '../../platform/listing.js';
import type { Executor } from '../../platform/db.js';
import type { Figures } from '@dau/contract';

/**
 * The figures of the statistics screens (today_statistics, history_statistics), read from aggregates:
 *
 * - betting figures from `stats_hourly` (one row per hour bucket and agent, kept by the betting service
 *   in the transaction of every placement, settlement and cashout): a day is at most 24 x agents rows,
 *   whatever the number of orders;
 * - distinct bettors from `stats_bettor_day`;
 * - deposits (paid recharges, by `paid_at`), withdrawals (paid, by `paid_at`) and new bettors (by
 *   `created_at`) from their own tables, grouped by hour.
 *
 * Days and hours are those of the operator: Africa/Dar_es_Salaam, UTC+3 all year (Tanzania has no
 * daylight saving), whatever the server's or the database session's time zone. Buckets are computed
 * from epoch seconds, so no time-zone database is needed.
 *
 * Definitions (all money in cents of TSh):
 * - turnover: stakes taken (cash and bonus funds) by orders placed in the period;
 * - payouts: everything paid back on orders in the period: gross payouts of settlements (before
 *   withholding tax; a resettlement or rollback counts its difference) and cashout amounts (the betting
 *   service adds a cashout to both `payouts` and `cashouts`, betting/cashout.ts);
 * - cashouts: the part of payouts paid for cashed-out orders;
 * - settled_stake: stakes of the orders settled or cashed out in the period (a rolled-back settlement
 *   takes its stake back out, in the hour of the rollback);
 * - GGR (gross gaming revenue) = settled_stake - payouts: what the house kept of the orders that are
 *   decided, never the stakes of open orders (those are shown apart, as open stakes and liability:
 *   `openBook`). Tax withheld is the bettors' tax owed to the revenue authority: it neither adds to nor
 *   takes from GGR;
 * - NGR (net gaming revenue) = GGR - bonuses (accumulator bonuses paid);
 * - bettors: distinct bettors who placed at least one order that day;
 * - deposits / withdrawals: paid amounts and their count; new bettors: registrations; online bettors:
 *   bettors online now (not per hour or day: there is no history of it).
 */
// The operator's calendar (Dar es Salaam days and hours) is the domain's: money's bettor figures use it too.
import { TIME_ZONE, UTC_OFFSET, localDay, localHour, dayStart, isDay, addDays } from '@dau/domain';
export { TIME_ZONE, UTC_OFFSET, localDay, localHour, dayStart, isDay, addDays };
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type { Figures } from '@dau/contract';

export const emptyFigures = (): Figures => ({
  turnover: 0, settled_stake: 0, payouts: 0, cashouts: 0, ggr: 0, bonuses: 0, ngr: 0, tax: 0, orders: 0, settled: 0, bettors: 0,
  deposits: 0, deposit_count: 0, withdrawals: 0, withdrawal_count: 0, new_bettors: 0,
});

/** Adds b into a (bettors included: callers set the distinct count of a whole period themselves). */
export function addFigures(a: Figures, b: Figures): Figures {
  for (const k of Object.keys(a) as (keyof Figures)[]) a[k] += b[k];
  return a;
}

/** GGR and NGR from the parts (never summed across buckets: recomputed). */
export function finish(f: Figures): Figures {
  f.ggr = f.settled_stake - f.payouts;
  f.ngr = f.ggr - f.bonuses;
  return f;
}

/** Epoch hour number of a timestamptz column: time-zone independent bucket. */
const hourBucket = (col: unknown) => sql<string>`floor(extract(epoch from ${col}) / 3600)::bigint`;
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/**
 * Figures per UTC hour bucket (key: epoch ms of the hour's start) over [from, to), whole hours, in the
 * admin's scope. `bettors` per bucket = bettors whose first order of their (local) day fell in that hour,
 * so the buckets of one day add up to the day's distinct bettors.
 */
export async function hourlyFigures(ex: Executor, scope: Scope, from: Date, to: Date): Promise<Map<number, Figures>> {
  const out = new Map<number, Figures>();
  const at = (ms: number) => {
    let f = out.get(ms);
    if (!f) out.set(ms, (f = emptyFigures()));
    return f;
  };
  const s = statsHourly;
  const betting = ex
    .select({
      hour: s.hour,
      turnover: sql<string>`sum(${s.turnover})::bigint`,
      orders: sql<string>`sum(${s.orders})::bigint`,
      payouts: sql<string>`sum(${s.payouts})::bigint`,
      tax: sql<string>`sum(${s.tax})::bigint`,
      bonuses: sql<string>`sum(${s.bonuses})::bigint`,
      cashouts: sql<string>`sum(${s.cashouts})::bigint`,
      settled: sql<string>`sum(${s.settled})::bigint`,
      settledStake: sql<string>`sum(${s.settledStake})::bigint`,
    })
    .from(s)
    .where(and(gte(s.hour, from), lt(s.hour, to), scopeCondition(scope, s.agentId)))
    .groupBy(s.hour);
  const money = (table: typeof recharges | typeof withdrawals) =>
    ex
      .select({ h: hourBucket(table.paidAt), amount: sql<string>`sum(${table.amount})::bigint`, n: count() })
      .from(table)
      .where(and(eq(table.payStatus, PAY_STATUS.paid), gte(table.paidAt, from), lt(table.paidAt, to), scopeCondition(scope, table.agentId)))
      .groupBy(sql`1`);
  const registrations = ex
    .select({ h: hourBucket(bettors.createdAt), n: count() })
    .from(bettors)
    .where(and(gte(bettors.createdAt, from), lt(bettors.createdAt, to), scopeCondition(scope, bettors.agentId)))
    .groupBy(sql`1`);
  const days = daysBetween(from, to);
  // One row per (day, agent, bettor): count(*) is the distinct count, except for a bettor moved to another
  // agent that day (counted under each); the day's and the period's totals use count(distinct).
  const firstBets = ex
    .select({ day: statsBettorDay.day, hour: statsBettorDay.hour, n: count() })
    .from(statsBettorDay)
    .where(and(dayRange(days), scopeCondition(scope, statsBettorDay.agentId)))
    .groupBy(statsBettorDay.day, statsBettorDay.hour);
  const [b, r, w, reg, fb] = await Promise.all([betting, money(recharges), money(withdrawals), registrations, firstBets]);
  for (const x of b) {
    const f = at(x.hour.getTime());
    f.turnover += num(x.turnover);
    f.orders += num(x.orders);
    f.payouts += num(x.payouts);
    f.tax += num(x.tax);
    f.bonuses += num(x.bonuses);
    f.cashouts += num(x.cashouts);
    f.settled += num(x.settled);
    f.settled_stake += num(x.settledStake);
  }
  for (const x of r) {
    const f = at(num(x.h) * HOUR_MS);
    f.deposits += num(x.amount);
    f.deposit_count += num(x.n);
  }
  for (const x of w) {
    const f = at(num(x.h) * HOUR_MS);
    f.withdrawals += num(x.amount);
    f.withdrawal_count += num(x.n);
  }
  for (const x of reg) at(num(x.h) * HOUR_MS).new_bettors += num(x.n);
  for (const x of fb) {
    const ms = dayStart(x.day).getTime() + x.hour * HOUR_MS;
    if (ms >= from.getTime() && ms < to.getTime()) at(ms).bettors += num(x.n);
  }
  for (const f of out.values()) finish(f);
  return out;
}

/**
 * The figures of a day "up to the same time" (issue 29: today against yesterday and the same weekday last
 * week): from the day's start `from` over `elapsed` ms. Every figure is kept (or read) by the hour, so the
 * whole hours count in full and the hour under way counts in proportion to the minutes gone (rounded):
 * at 14:30 a day compares its 00:00-14:30 with the other day's 00:00-14:00 and half of its 14:00 hour.
 * `bettors` is the sum of the hours' first bettors, the day's distinct bettors up to then.
 */
export async function figuresUntil(ex: Executor, scope: Scope, from: Date, elapsed: number): Promise<Figures> {
  const whole = Math.floor(elapsed / HOUR_MS);
  const share = (elapsed - whole * HOUR_MS) / HOUR_MS;
  const hours = await hourlyFigures(ex, scope, from, new Date(from.getTime() + (whole + 1) * HOUR_MS));
  const out = emptyFigures();
  for (const [ms, f] of hours) {
    const h = Math.floor((ms - from.getTime()) / HOUR_MS);
    if (h < whole) addFigures(out, f);
    else if (h === whole && share > 0) for (const k of Object.keys(out) as (keyof Figures)[]) out[k] += Math.round(f[k] * share);
  }
  return finish(out);
}

/** The local days touched by [from, to). */
function daysBetween(from: Date, to: Date): { first: string; last: string } {
  return { first: localDay(from), last: localDay(to.getTime() - 1) };
}

const dayRange = ({ first, last }: { first: string; last: string }): SQL | undefined =>
  first === last ? eq(statsBettorDay.day, first) : and(gte(statsBettorDay.day, first), sql`${statsBettorDay.day} <= ${last}`);

/** Distinct bettors per local day over [first, last], and over the whole span. */
export async function bettorsByDay(ex: Executor, scope: Scope, first: string, last: string): Promise<{ perDay: Map<string, number>; total: number }> {
  const where = and(dayRange({ first, last }), scopeCondition(scope, statsBettorDay.agentId));
  const [rows, [all]] = await Promise.all([
    ex.select({ day: statsBettorDay.day, n: sql<string>`count(distinct ${statsBettorDay.bettorId})` }).from(statsBettorDay).where(where).groupBy(statsBettorDay.day),
    ex.select({ n: sql<string>`count(distinct ${statsBettorDay.bettorId})` }).from(statsBettorDay).where(where),
  ]);
  return { perDay: new Map(rows.map((r) => [r.day, num(r.n)])), total: num(all?.n) };
}

/**
 * The open book now, in the scope: orders not yet decided (pending), their stakes and their liability
 * (what they pay if every one of them wins). Read through the (status, last_match_at) index: only open
 * orders are touched.
 */
export async function openBook(ex: Executor, scope: Scope): Promise<{ open_orders: number; open_stakes: number; open_liability: number }> {
  const [row] = await ex
    .select({ n: count(), stakes: sql<string>`coalesce(sum(${orders.stake}), 0)::bigint`, liability: sql<string>`coalesce(sum(${orders.potentialPayout}), 0)::bigint` })
    .from(orders)
    .where(and(eq(orders.status, ORDER_STATUS.pending), scopeCondition(scope, orders.agentId)));
  return { open_orders: num(row?.n), open_stakes: num(row?.stakes), open_liability: num(row?.liability) };
}

/** Bettors online now, in the scope. */
export async function onlineBettors(ex: Executor, scope: Scope): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(bettors)
    .where(and(eq(bettors.onlineStatus, ONLINE_STATUS.online), scopeCondition(scope, bettors.agentId)));
  return num(row?.n);
}

export const HOUR = HOUR_MS;
export const DAY = DAY_MS;
