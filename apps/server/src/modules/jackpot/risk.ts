/**
 * The operator's risk view before kick-off (issue 12 "Beyond what operators have"): the issue's open
 * tickets as one flat array of 13 masks each, read with one statement (`string_agg` of the masks' digits:
 * no array parsing per row), handed to the domain's `riskView` (every ticket's lines added into a table of
 * the 3^13 outcome vectors, then a per-coordinate Hamming transform). The answer holds per tier the
 * largest number of winning lines over all vectors and how many vectors have a winner, the ten vectors
 * with the largest top-tier payout and each match's coverage; not the table.
 * A non-super admin's view counts only their branch's tickets (like the statistics).
 */
import { sql } from 'drizzle-orm';
import { JACKPOT_MATCHES, JACKPOT_TICKET_STATUS, riskView } from '@dau/domain';
import type { Executor } from '../../platform/db.js';
import { scopeCondition, type Scope } from '../../platform/listing.js';
import { jackpotTickets } from './schema.js';
import { loadBetType, poolParts, tiersOf, type IssueRow } from './settlement.js';

export interface RiskAnswer {
  issue_id: number;
  tickets: number;
  lines_sold: number;
  vectors: number;
  pool: number;
  reward_type: number;
  per_tier: { hits: number; max_lines: number; vectors_with_winner: number }[];
  top: { vector: number[]; lines: number[]; top_payout: number }[];
  coverage: { position: number; home: number; draw: number; away: number }[];
}

/** Open tickets' picks as one byte array (13 masks each). */
export async function openPicks(ex: Executor, issueId: number, scope: Scope): Promise<{ picks: Uint8Array; tickets: number; stakes: number; lines: number }> {
  const where = scopeCondition(scope, jackpotTickets.agentId);
  const rows = (await ex.execute(sql`
    SELECT coalesce(string_agg(array_to_string(picks, ''), '' ORDER BY id), '') AS p, count(*)::int AS n,
           coalesce(sum(stake), 0)::bigint AS stakes, coalesce(sum(lines), 0)::bigint AS lines
    FROM jackpot_tickets WHERE issue_id = ${issueId} AND status = ${JACKPOT_TICKET_STATUS.open}${where ? sql` AND ${where}` : sql``}`)) as unknown as {
    rows: { p: string; n: number; stakes: string | number; lines: string | number }[];
  };
  const r = rows.rows[0];
  const text = r?.p ?? '';
  const picks = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) picks[i] = text.charCodeAt(i) - 48;
  return { picks, tickets: Number(r?.n ?? 0), stakes: Number(r?.stakes ?? 0), lines: Number(r?.lines ?? 0) };
}

export async function issueRisk(ex: Executor, issue: IssueRow, scope: Scope): Promise<RiskAnswer> {
  const bt = await loadBetType(ex, issue.betTypeId);
  // The pool as it stands: all tickets (the house's prize pool is one), whatever the admin's scope.
  const all = await ex.execute(sql`SELECT coalesce(sum(stake), 0)::bigint AS stakes, coalesce(sum(lines), 0)::bigint AS lines
    FROM jackpot_tickets WHERE issue_id = ${issue.id} AND status <> ${JACKPOT_TICKET_STATUS.refunded}`);
  const totals = (all as unknown as { rows: { stakes: string | number; lines: string | number }[] }).rows[0];
  const pool = poolParts(bt, issue.incentives, Number(totals?.stakes ?? 0), Number(totals?.lines ?? 0)).total;
  const { picks, tickets } = await openPicks(ex, issue.id, scope);
  const rewardType = (bt.rewardType === 2 ? 2 : 1) as 1 | 2;
  const tiers = tiersOf(bt).filter((t) => t.hits <= JACKPOT_MATCHES);
  const view = riskView(picks, tiers, pool, rewardType);
  return {
    issue_id: issue.id,
    tickets,
    lines_sold: view.linesSold,
    vectors: view.vectors,
    pool,
    reward_type: rewardType,
    per_tier: view.perTier.map((t) => ({ hits: t.hits, max_lines: t.maxLines, vectors_with_winner: t.vectorsWithWinner })),
    top: view.top.map((t) => ({ vector: t.vector, lines: t.lines, top_payout: t.topPayout })),
    coverage: view.coverage.map((c, i) => ({ position: i + 1, home: c.home, draw: c.draw, away: c.away })),
  };
}
