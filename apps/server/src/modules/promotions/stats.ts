/**
 * A campaign's statistics (GET /promotions/campaigns/:id/stats): its qualification rows, cost (what the
 * budget paid: cash awards and bonus funds granted), the bonus funds expired and wagered, and the GGR
 * (settled stakes minus payouts, by settlement time) of the qualified bettors in equal windows before and
 * after each bettor's first qualification; NGR after = GGR after − cost, and the cost's share of it.
 */
import { sql } from 'drizzle-orm';
import type { CampaignStatsAnswer } from '@dau/contract';
import { settledStatusSql } from './service.js';
import type { Executor } from '../../platform/db.js';
import type { campaigns } from './schema.js';

const one = async (ex: Executor, q: ReturnType<typeof sql>) => ((await ex.execute(q)) as unknown as { rows: Record<string, string | number | null>[] }).rows[0] ?? {};
const num = (v: unknown) => Number(v ?? 0);

export async function campaignStats(ex: Executor, c: typeof campaigns.$inferSelect, windowDays: number): Promise<CampaignStatsAnswer> {
  const q = await one(ex, sql`
    SELECT count(*) AS qualified, count(*) FILTER (WHERE status = 2) AS approved, count(*) FILTER (WHERE status = 1) AS pending
    FROM activity_qualifications WHERE campaign_id = ${c.id}`);
  const g = await one(ex, sql`
    SELECT coalesce(sum(amount), 0) AS granted, coalesce(sum(expired_amount), 0) AS expired, coalesce(sum(wagered), 0) AS wagered
    FROM bonus_grants WHERE campaign_id = ${c.id}`);
  const window = sql`make_interval(days => ${windowDays})`;
  const ggr = await one(ex, sql`
    WITH qb AS (SELECT bettor_id, min(created_at) AS t FROM activity_qualifications WHERE campaign_id = ${c.id} GROUP BY bettor_id)
    SELECT coalesce(sum(o.stake - o.payout) FILTER (WHERE o.settled_at < qb.t), 0) AS before,
           coalesce(sum(o.stake - o.payout) FILTER (WHERE o.settled_at >= qb.t), 0) AS after
    FROM qb JOIN orders o ON o.bettor_id = qb.bettor_id AND o.status IN (${settledStatusSql})
      AND o.settled_at >= qb.t - ${window} AND o.settled_at < qb.t + ${window}`);
  const cost = Number(c.spentCents);
  const granted = num(g.granted);
  const ggrAfter = num(ggr.after);
  const ngrAfter = ggrAfter - cost;
  return {
    campaign_id: c.id, qualified: num(q.qualified), approved: num(q.approved), pending: num(q.pending), cost, cash_awarded: cost - granted, bonus_granted: granted,
    bonus_expired: num(g.expired), bonus_wagered: num(g.wagered), budget: Number(c.budgetCents), window_days: windowDays, ggr_before: num(ggr.before), ggr_after: ggrAfter,
    ngr_after: ngrAfter, bonus_share_bps: ngrAfter > 0 ? Math.round((cost * 10_000) / ngrAfter) : null,
  };
}
