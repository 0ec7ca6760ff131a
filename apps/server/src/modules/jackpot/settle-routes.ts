/**
 * The jackpot's settlement routes (issue 12), on the jackpot_identifier screen's buttons:
 *  - settle: POST /jackpot/issues/:id/settle/preview (the plan: per tier the winning lines, prize per
 *    line, paid and rollover; tax, credited, withheld, the house result; a fingerprint), POST
 *    /jackpot/issues/:id/settle {fingerprint} (runs exactly that plan through the durable job: 202; also
 *    resettles a settled issue, moving only the difference), GET /jackpot/issues/:id/settlements (records);
 *  - statistics: GET /jackpot/issues/:id/statistics, GET /jackpot/issues/:id/risk (a non-super admin
 *    counts only their branch's tickets);
 *  - delete: DELETE /jackpot/issues/:id {reason} (every ticket refunded by the job; a repeated call
 *    answers the first call's record and refunds nothing more).
 * Issues are global configuration: any admin holding the button reaches every issue (404 when none).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { asc, eq, sql } from 'drizzle-orm';
import { JACKPOT_SETTLE_STATUS, JACKPOT_TICKET_STATUS, LOG_TYPE, bpsOf, hitCounts } from '@dau/domain';
import { answerRow, jackpotPoolAnswer, jackpotReasonBody, jackpotSettleBody } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { scopeCondition, scopeOf, type Scope } from '../../platform/listing.js';
import { admins } from '../../platform/schema.js';
import { jackpotSettlements, jackpotTickets } from './schema.js';
import { defineJackpotJobs } from './jobs.js';
import { issueRisk } from './risk.js';
import {
  issueResults, lastSettlement, takeFeedResults, loadBetType, loadIssue, picksOf, planSettlement, poolParts, startDelete, startSettlement, tiersOf,
  type PoolParts, type StoredPlan,
} from './settlement.js';

/**
 * Settling, resettling and deleting move every branch's tickets: only an admin who sees the whole book
 * may do it (as a match result change in the sportsbook); the records show the whole issue's money.
 */
async function requireWholeBook(ex: Executor, req: FastifyRequest) {
  const scope = await scopeOf(ex, authOf(req));
  if (!scope.all) throw new AppError(403, 'FORBIDDEN');
}

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

const poolAnswer = (p: PoolParts | null) =>
  p ? { carried: p.carried, seed_top_up: p.seedTopUp, from_stakes: p.fromStakes, from_incentives: p.fromIncentives, total: p.total } : null;

/** A settlement plan as the preview and the records answer it. */
export const jackpotPlanAnswer = z.object({
  issue_id: z.number(),
  version: z.number(),
  /** 'settle', 'resettle', 'void' (cancelled-match rule: every ticket refunded) or 'delete'. */
  kind: z.string(),
  /** Sent back by the confirmation; refused with JACKPOT_PREVIEW_STALE when what it hashes has changed. */
  fingerprint: z.string(),
  results: z.array(z.number().nullable()),
  pool: jackpotPoolAnswer.nullable(),
  reward_type: z.number(),
  tax_rate: z.number(),
  max_add_balance: z.number(),
  /** `capped`: what a shared tier's lines did not get because a line never pays more than a line of a tier with more hits (in its rollover). */
  tiers: z.array(answerRow({ hits: 'number', proportion_bps: 'number', share: 'number', winning_lines: 'number', prize_per_line: 'number', paid: 'number', rollover: 'number', capped: 'number' })),
  totals: answerRow({
    tickets: 'number', lines: 'number', stakes: 'number', bonus_stakes: 'number', winning_tickets: 'number', winning_lines: 'number',
    gross: 'number', tax: 'number', credited: 'number', withheld: 'number', rollover: 'number', house_funded: 'number', refunds: 'number',
    net_income: 'number', net_profit: 'number', expenditure: 'number',
  }),
  /** What this version moves on the ledger compared with what the tickets already hold. */
  difference: answerRow({ tickets: 'number', credited: 'number', tax: 'number', withheld: 'number', refunds: 'number' }),
});
export type JackpotPlanAnswer = z.infer<typeof jackpotPlanAnswer>;

export function planAnswer(issueId: number, p: StoredPlan): JackpotPlanAnswer {
  const plan = p.plan;
  return {
    issue_id: issueId,
    version: p.version,
    kind: p.kind,
    fingerprint: p.fingerprint,
    results: p.results,
    pool: poolAnswer(p.pool),
    reward_type: p.rewardType,
    tax_rate: p.taxBps,
    max_add_balance: p.maxAddBalance,
    tiers: (plan?.tiers ?? []).map((t, i) => ({
      hits: t.hits, proportion_bps: p.tiers[i]?.proportionBps ?? 0, share: t.share, winning_lines: t.winningLines, prize_per_line: t.prizePerLine, paid: t.paid, rollover: t.rollover,
      // Plans stored before issue 23 have no cap.
      capped: t.capped ?? 0,
    })),
    totals: {
      tickets: p.tickets, lines: p.lines, stakes: p.stakes, bonus_stakes: p.bonusStakes, winning_tickets: p.totals.winningTickets,
      winning_lines: p.totals.winningLines, gross: p.totals.gross, tax: p.totals.tax, credited: p.totals.credited, withheld: p.totals.withheld,
      rollover: plan?.rollover ?? 0, house_funded: plan?.houseFunded ?? 0, refunds: p.difference.refunds,
      net_income: p.figures.netIncome, net_profit: p.figures.netProfit, expenditure: p.figures.expenditure,
    },
    difference: p.difference,
  };
}

const recordRow = answerRow({
  id: 'number', issue_id: 'number', version: 'number', kind: 'string', status: 'string', reason: 'string', admin_id: 'number?', admin_account: 'string?',
  created_at: 'string', finished_at: 'string?',
}).extend({ plan: jackpotPlanAnswer });

const settleAnswer = z.object({ settlement: recordRow });

const deleteAnswer = z.object({
  issue_id: z.number(),
  settle_status: z.number(),
  version: z.number(),
  /** 'running' while the refunds are paid, then 'done'. */
  status: z.string(),
  reason: z.string(),
  tickets: z.number(),
  refunds: z.number(),
});

export const jackpotStatisticsAnswer = z.object({
  issue_id: z.number(),
  /** 'all' for the whole issue, 'branch' when only the admin's branch's tickets are counted. */
  scope: z.string(),
  settle_status: z.number(),
  tickets: z.number(),
  bettors: z.number(),
  lines: z.number(),
  stakes: z.number(),
  bonus_stakes: z.number(),
  refunded: z.number(),
  winning_tickets: z.number(),
  winning_lines: z.number(),
  /** Winning lines per tier under the current results (null while a result is unknown). */
  tiers: z.array(z.object({ hits: z.number(), proportion_bps: z.number(), winning_lines: z.number().nullable() })),
  gross: z.number(),
  tax: z.number(),
  credited: z.number(),
  withheld: z.number(),
  /** Stakes kept less prizes (gross). */
  net_income: z.number(),
  /** The house's result: stakes kept less the pool's share and what the house put into the pool. */
  net_profit: z.number(),
  /** Prizes (gross: tax and withheld included). */
  expenditure: z.number(),
  pool: jackpotPoolAnswer,
});

const riskAnswer = z.object({
  issue_id: z.number(),
  tickets: z.number(),
  lines_sold: z.number(),
  vectors: z.number(),
  pool: z.number(),
  reward_type: z.number(),
  per_tier: z.array(answerRow({ hits: 'number', max_lines: 'number', vectors_with_winner: 'number' })),
  top: z.array(z.object({ vector: z.array(z.number()), lines: z.array(z.number()), top_payout: z.number() })),
  coverage: z.array(answerRow({ position: 'number', home: 'number', draw: 'number', away: 'number' })),
});

async function records(ex: Executor, issueId: number) {
  const rows = await ex
    .select({ s: jackpotSettlements, account: admins.account })
    .from(jackpotSettlements)
    .leftJoin(admins, eq(admins.id, jackpotSettlements.adminId))
    .where(eq(jackpotSettlements.issueId, issueId))
    .orderBy(asc(jackpotSettlements.version));
  return rows.map(({ s, account }) => recordOf(s, account));
}

function recordOf(s: typeof jackpotSettlements.$inferSelect, account: string | null) {
  return {
    id: s.id, issue_id: s.issueId, version: s.version, kind: s.kind, status: s.status, reason: s.reason, admin_id: s.adminId, admin_account: account,
    created_at: s.createdAt.toISOString(), finished_at: s.finishedAt?.toISOString() ?? null, plan: planAnswer(s.issueId, s.plan as StoredPlan),
  };
}

/** Statistics of an issue over the tickets the admin's scope holds. */
export async function issueStatistics(ex: Executor, issueId: number, scope: Scope): Promise<z.infer<typeof jackpotStatisticsAnswer>> {
  const issue = await loadIssue(ex, issueId);
  const bt = await loadBetType(ex, issue.betTypeId);
  const where = scopeCondition(scope, jackpotTickets.agentId);
  const cond = where ? sql` AND ${where}` : sql``;
  const [s] = (
    (await ex.execute(sql`
      SELECT count(*)::int AS tickets, count(DISTINCT bettor_id)::int AS bettors, coalesce(sum(lines), 0)::bigint AS lines,
             coalesce(sum(stake), 0)::bigint AS stakes, coalesce(sum(bonus_stake), 0)::bigint AS bonus_stakes,
             coalesce(sum(stake) FILTER (WHERE status = ${JACKPOT_TICKET_STATUS.refunded}), 0)::bigint AS refunded,
             coalesce(sum(lines) FILTER (WHERE status <> ${JACKPOT_TICKET_STATUS.refunded}), 0)::bigint AS kept_lines,
             count(*) FILTER (WHERE gross > 0)::int AS winning_tickets, coalesce(sum(winning_lines), 0)::bigint AS winning_lines,
             coalesce(sum(gross), 0)::bigint AS gross, coalesce(sum(tax), 0)::bigint AS tax, coalesce(sum(credited), 0)::bigint AS credited,
             coalesce(sum(withheld), 0)::bigint AS withheld
      FROM jackpot_tickets WHERE issue_id = ${issueId}${cond}`)) as unknown as { rows: Record<string, string | number>[] }
  ).rows;
  const n = (k: string) => Number(s?.[k] ?? 0);
  const tiers = tiersOf(bt);
  // Winning lines per tier under the current results (the tickets' hit counts, exact).
  let perTier: (number | null)[] = tiers.map(() => null);
  const results = await issueResults(ex, issueId).catch(() => null);
  if (results && results.every((r) => r !== null && r !== undefined) && issue.settleStatus !== JACKPOT_SETTLE_STATUS.deleted && issue.settleStatus !== JACKPOT_SETTLE_STATUS.voided) {
    const picks = (
      (await ex.execute(sql`SELECT array_to_string(picks, '') AS p FROM jackpot_tickets WHERE issue_id = ${issueId} AND status <> ${JACKPOT_TICKET_STATUS.refunded}${cond}`)) as unknown as {
        rows: { p: string }[];
      }
    ).rows;
    const sums = tiers.map(() => 0);
    for (const r of picks) {
      const c = hitCounts(picksOf(r.p), results);
      tiers.forEach((t, i) => (sums[i] += c[t.hits] ?? 0));
    }
    perTier = sums;
  }
  const kept = n('stakes') - n('refunded');
  const last = await lastSettlement(ex, issueId);
  const settledPlan = last && (last.kind === 'settle' || last.kind === 'resettle') ? (last.plan as StoredPlan) : null;
  // The pool: as settled, else as it stands now (over all tickets: one pool whatever the scope).
  let pool: PoolParts;
  if (settledPlan?.pool) pool = settledPlan.pool;
  else {
    const [all] = ((await ex.execute(sql`SELECT coalesce(sum(stake), 0)::bigint AS stakes, coalesce(sum(lines), 0)::bigint AS lines FROM jackpot_tickets
      WHERE issue_id = ${issueId} AND status <> ${JACKPOT_TICKET_STATUS.refunded}`)) as unknown as { rows: { stakes: string; lines: string }[] }).rows;
    pool = poolParts(bt, issue.incentives, Number(all?.stakes ?? 0), Number(all?.lines ?? 0));
  }
  let netProfit: number;
  if (kept === 0) netProfit = 0;
  else if (scope.all) netProfit = kept - pool.fromStakes - pool.seedTopUp - pool.fromIncentives - (settledPlan?.plan?.houseFunded ?? 0);
  // A branch: its stakes less their pool share and the incentives of its lines (the seed is the house's, not a branch's).
  else netProfit = kept - bpsOf(kept, bt.poolRateBps) - issue.incentives * n('kept_lines');
  return {
    issue_id: issueId,
    scope: scope.all ? 'all' : 'branch',
    settle_status: issue.settleStatus,
    tickets: n('tickets'),
    bettors: n('bettors'),
    lines: n('lines'),
    stakes: n('stakes'),
    bonus_stakes: n('bonus_stakes'),
    refunded: n('refunded'),
    winning_tickets: n('winning_tickets'),
    winning_lines: n('winning_lines'),
    tiers: tiers.map((t, i) => ({ hits: t.hits, proportion_bps: t.proportionBps, winning_lines: perTier[i] })),
    gross: n('gross'),
    tax: n('tax'),
    credited: n('credited'),
    withheld: n('withheld'),
    net_income: kept - n('gross'),
    net_profit: netProfit,
    expenditure: n('gross'),
    pool: poolAnswer(pool)!,
  };
}

export async function settleRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  defineJackpotJobs(ctx);
  const access = (button: string) => ({ access: { page: 'jackpot_identifier', button } });
  // A jackpot issue holds every branch's tickets: acting on it is the whole book's (DESIGN "Duties").
  const acting = (button: string) => ({ access: { page: 'jackpot_identifier', button, duty: { ring: 'book' as const, setting: 'jackpot_issue' } } });
  const tags = ['jackpot_identifier'];

  r.post(
    '/api/v1/jackpot/issues/:id/settle/preview',
    {
      config: acting('settle'),
      schema: {
        tags, summary: 'Settlement preview of a jackpot issue', params: idParams, response: { 200: jackpotPlanAnswer },
        description: 'Per tier the winning lines, the prize per line (shared: rounded down to the cent, and never more than a tier with more hits pays a line: the capped part rolls over), paid and rollover; tax, credited, withheld, the house result, and what a resettlement would move. Confirm with its fingerprint. Refused (422 JACKPOT_MATCH_NOT_STARTED) while a match with a result has not kicked off.',
      },
    },
    async (req) => {
      const issue = await loadIssue(db, req.params.id);
      await requireWholeBook(db, req);
      await db.transaction((tx) => takeFeedResults(tx, issue));
      return planAnswer(issue.id, await planSettlement(db, issue));
    },
  );

  r.post(
    '/api/v1/jackpot/issues/:id/settle',
    {
      config: acting('settle'),
      schema: {
        tags, summary: 'Settle (or resettle) a jackpot issue as previewed', params: idParams, body: jackpotSettleBody, response: { 202: settleAnswer },
        description: "Runs the preview's plan through a durable job (tickets paid in chunks, exactly once even across a crash). Refused with JACKPOT_PREVIEW_STALE when the results, tickets or pool changed since the preview.",
      },
    },
    async (req, reply) => {
      await loadIssue(db, req.params.id);
      await requireWholeBook(db, req);
      const auth = authOf(req);
      const started = await db.transaction(async (tx) => {
        const s = await startSettlement(tx, ctx, req.params.id, req.body.fingerprint, auth.admin.id);
        await writeAudit(tx, req, {
          type: LOG_TYPE.update_balance,
          content: `jackpot issue ${req.params.id}: ${s.kind} version ${s.version} (${s.plan.totals.winningTickets} winning tickets, ${s.plan.totals.credited} credited, ${s.plan.difference.credited} moved)`,
          before: null,
          after: { version: s.version, kind: s.kind, results: s.plan.results, paid: s.plan.plan?.paid ?? 0, rollover: s.plan.plan?.rollover ?? 0, difference: s.plan.difference },
        });
        return s;
      });
      const [row] = (await records(db, req.params.id)).filter((x) => x.version === started.version);
      return reply.status(202).send({ settlement: row });
    },
  );

  r.get(
    '/api/v1/jackpot/issues/:id/settlements',
    { config: access('settle'), schema: { tags, summary: 'Settlement records of a jackpot issue', params: idParams, response: { 200: z.object({ items: z.array(recordRow) }) } } },
    async (req) => {
      await loadIssue(db, req.params.id);
      await requireWholeBook(db, req);
      return { items: await records(db, req.params.id) };
    },
  );

  r.get(
    '/api/v1/jackpot/issues/:id/statistics',
    {
      config: access('statistics'),
      schema: { tags, summary: 'Statistics of a jackpot issue', description: "Stakes, lines, tickets, winning lines per tier, net income, net profit, expenditure; a non-super admin counts only their branch's tickets.", params: idParams, response: { 200: jackpotStatisticsAnswer } },
    },
    async (req) => {
      await loadIssue(db, req.params.id);
      return issueStatistics(db, req.params.id, await scopeOf(db, authOf(req)));
    },
  );

  r.get(
    '/api/v1/jackpot/issues/:id/risk',
    {
      config: access('statistics'),
      schema: {
        tags, summary: 'Risk view of a jackpot issue before kick-off', params: idParams, response: { 200: riskAnswer },
        description: 'Over all 3^13 outcome vectors of the open tickets: per tier the most winning lines and how many vectors have a winner, the ten vectors with the largest top-tier payout, each match\'s coverage.',
      },
    },
    async (req) => {
      const issue = await loadIssue(db, req.params.id);
      return issueRisk(db, issue, await scopeOf(db, authOf(req)));
    },
  );

  r.delete(
    '/api/v1/jackpot/issues/:id',
    {
      config: acting('delete'),
      schema: {
        tags, summary: 'Delete a jackpot issue and refund every ticket', params: idParams, body: jackpotReasonBody, response: { 200: deleteAnswer, 202: deleteAnswer },
        description: 'Irreversible: every ticket of the issue is refunded by a durable job. Needs a reason. A repeated call answers the first call\'s record (202 while the refunds run, 200 once done) and refunds nothing more.',
      },
    },
    async (req, reply) => {
      await loadIssue(db, req.params.id);
      await requireWholeBook(db, req);
      const reason = req.body?.reason?.trim();
      if (!reason) throw badRequest('JACKPOT_REASON_REQUIRED');
      const auth = authOf(req);
      const out = await db.transaction(async (tx) => {
        const d = await startDelete(tx, ctx, req.params.id, reason, auth.admin.id);
        if (d.started) {
          await writeAudit(tx, req, {
            type: LOG_TYPE.update_balance,
            content: `jackpot issue ${req.params.id} deleted: ${reason} (${d.tickets} tickets, ${d.stakes} refunded)`,
            before: null,
            after: { version: d.version, tickets: d.tickets, refunds: d.stakes, reason },
          });
        }
        return d;
      });
      const issue = await loadIssue(db, req.params.id);
      const status = out.started ? 'running' : ((await lastSettlement(db, req.params.id))?.status ?? out.status);
      return reply.status(status === 'done' ? 200 : 202).send({
        issue_id: req.params.id, settle_status: issue.settleStatus, version: out.version, status, reason: out.reason, tickets: out.tickets, refunds: out.stakes,
      });
    },
  );
}
