/**
 * Rebuilds `stats_hourly` (the betting figures the betting service keeps by deltas, betting/stats.ts and
 * settlement.ts) for a period from the source rows, the same way the deltas were made:
 *
 * - turnover and orders: each order in the hour it was placed (`orders.created_at`, its stake);
 * - payouts, tax, bonuses, settled, settled_stake: each settlement, resettlement, rollback or cancel in the
 *   hour of its `order_events` row, as `after - before` of the order's money (settled = status 4);
 * - a cashout (`order_events` kind cashout) in its hour: its amount in payouts and cashouts, its withholding
 *   tax (issue 23; none recorded before), the order settled with its stake.
 *
 * Rows are per (hour, agent of the order). `diffHours` compares with what is stored; `rebuildHours`
 * replaces the period's rows in one transaction, holding off the betting service's upserts meanwhile
 * (SHARE ROW EXCLUSIVE on stats_hourly), so no placement or settlement falls between the read and the write.
 */
import { sql } from 'drizzle-orm';
import { ORDER_STATUS } from '@dau/domain';
import type { Db, Executor } from '../../platform/db.js';

export const HOUR_COLUMNS = ['turnover', 'orders', 'payouts', 'tax', 'bonuses', 'cashouts', 'settled', 'settled_stake'] as const;
export type HourColumn = (typeof HOUR_COLUMNS)[number];
export interface HourDiff {
  hour: string;
  agent_id: number;
  stored: Record<HourColumn, number>;
  rebuilt: Record<HourColumn, number>;
}

const settledNow = (side: 'after' | 'before') => sql.raw(`(coalesce((e.${side}->>'status')::int, 0) = ${ORDER_STATUS.settled})::int`);

const fromSource = (from: Date, to: Date) => sql`
  SELECT hour, agent_id, sum(turnover)::bigint AS turnover, sum(orders)::bigint AS orders, sum(payouts)::bigint AS payouts, sum(tax)::bigint AS tax,
         sum(bonuses)::bigint AS bonuses, sum(cashouts)::bigint AS cashouts, sum(settled)::bigint AS settled, sum(settled_stake)::bigint AS settled_stake
    FROM (
      SELECT date_trunc('hour', o.created_at) AS hour, o.agent_id, o.stake::bigint AS turnover, 1 AS orders, 0::bigint AS payouts, 0::bigint AS tax,
             0::bigint AS bonuses, 0::bigint AS cashouts, 0 AS settled, 0::bigint AS settled_stake
        FROM orders o WHERE o.created_at >= ${from.toISOString()}::timestamptz AND o.created_at < ${to.toISOString()}::timestamptz
      UNION ALL
      SELECT date_trunc('hour', e.created_at), o.agent_id, 0, 0,
             coalesce((e.after->>'payout')::bigint, 0) - coalesce((e.before->>'payout')::bigint, 0),
             coalesce((e.after->>'tax')::bigint, 0) - coalesce((e.before->>'tax')::bigint, 0),
             coalesce((e.after->>'bonus')::bigint, 0) - coalesce((e.before->>'bonus')::bigint, 0),
             0, ${settledNow('after')} - ${settledNow('before')}, (${settledNow('after')} - ${settledNow('before')}) * o.stake::bigint
        FROM order_events e JOIN orders o ON o.id = e.order_id
       WHERE e.after->>'payout' IS NOT NULL AND e.created_at >= ${from.toISOString()}::timestamptz AND e.created_at < ${to.toISOString()}::timestamptz
      UNION ALL
      SELECT date_trunc('hour', e.created_at), o.agent_id, 0, 0, (e.after->>'cashout_amount')::bigint, coalesce((e.after->>'tax')::bigint, 0), 0,
             (e.after->>'cashout_amount')::bigint, 1, o.stake::bigint
        FROM order_events e JOIN orders o ON o.id = e.order_id
       WHERE e.kind = 'cashout' AND e.created_at >= ${from.toISOString()}::timestamptz AND e.created_at < ${to.toISOString()}::timestamptz
    ) x
   GROUP BY hour, agent_id`;

const rowsOf = async <T>(ex: Executor, q: ReturnType<typeof sql>) => ((await ex.execute(q)) as unknown as { rows: T[] }).rows;

/** Stored and rebuilt rows of [from, to) that differ (a missing row counts as zeros). */
export async function diffHours(ex: Executor, from: Date, to: Date): Promise<HourDiff[]> {
  const cols = HOUR_COLUMNS.map((c) => `coalesce(s.${c}, 0)::float8 AS s_${c}, coalesce(r.${c}, 0)::float8 AS r_${c}`).join(', ');
  const differs = HOUR_COLUMNS.map((c) => `coalesce(s.${c}, 0) <> coalesce(r.${c}, 0)`).join(' OR ');
  const rows = await rowsOf<Record<string, unknown>>(ex, sql`
    WITH r AS (${fromSource(from, to)}),
         s AS (SELECT * FROM stats_hourly WHERE hour >= ${from.toISOString()}::timestamptz AND hour < ${to.toISOString()}::timestamptz)
    SELECT coalesce(s.hour, r.hour) AS hour, coalesce(s.agent_id, r.agent_id) AS agent_id, ${sql.raw(cols)}
      FROM s FULL JOIN r ON r.hour = s.hour AND r.agent_id = s.agent_id
     WHERE ${sql.raw(differs)}
     ORDER BY 1, 2`);
  return rows.map((x) => ({
    hour: new Date(x.hour as string).toISOString(),
    agent_id: Number(x.agent_id),
    stored: Object.fromEntries(HOUR_COLUMNS.map((c) => [c, Number(x[`s_${c}`])])) as Record<HourColumn, number>,
    rebuilt: Object.fromEntries(HOUR_COLUMNS.map((c) => [c, Number(x[`r_${c}`])])) as Record<HourColumn, number>,
  }));
}

/** Replaces the stored rows of [from, to) by the rebuilt ones, in one transaction; answers what differed. */
export async function rebuildHours(db: Db, from: Date, to: Date): Promise<{ diff: HourDiff[]; rows: number }> {
  return db.transaction(async (tx) => {
    // The betting service upserts stats_hourly (ROW EXCLUSIVE): wait for those in flight, hold off new ones.
    await tx.execute(sql`LOCK TABLE stats_hourly IN SHARE ROW EXCLUSIVE MODE`);
    const diff = await diffHours(tx, from, to);
    if (!diff.length) return { diff, rows: 0 };
    await tx.execute(sql`DELETE FROM stats_hourly WHERE hour >= ${from.toISOString()}::timestamptz AND hour < ${to.toISOString()}::timestamptz`);
    const made = await rowsOf<{ n: number }>(tx, sql`
      WITH r AS (${fromSource(from, to)}),
           ins AS (INSERT INTO stats_hourly (hour, agent_id, ${sql.raw(HOUR_COLUMNS.join(', '))})
                   SELECT hour, agent_id, ${sql.raw(HOUR_COLUMNS.join(', '))} FROM r
                    WHERE ${sql.raw(HOUR_COLUMNS.map((c) => `${c} <> 0`).join(' OR '))}
                   RETURNING 1)
      SELECT count(*)::int AS n FROM ins`);
    return { diff, rows: Number(made[0]?.n ?? 0) };
  });
}
