/**
 * The jackpot's console routes (issue 12) besides the settlement (./settle-routes.ts): bet types through
 * the resource layer with the tier checks, issues (list, detail, create, candidates and the 13 matches,
 * open bets, bet status, results, statistics), tickets (quote, place, lists and detail for the jackpot
 * and customer-service pages) and shared slips.
 *
 * Scope: tickets and shares belong to the bettor's agent (the admin's branch subtree, as orders). An
 * issue is shared by every branch: anyone with the page reads it, but only an admin who sees the whole
 * book (scope all) may change it, as a match result change in the sportsbook.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { JACKPOT_BET_STATUS, JACKPOT_SETTLE_STATUS, LOG_TYPE, message } from '@dau/domain';
import {
  jackpotBetStatusBody, jackpotBetTypeResource, jackpotCandidatesAnswer, jackpotCandidatesQuery, jackpotCodeParams, jackpotIssueCreateBody, jackpotIssueDetail,
  jackpotIssueFilters, jackpotIssueRow, jackpotMatchesBody, jackpotMatchRow, jackpotQuoteAnswer, jackpotResultsBody, jackpotShareDetail, jackpotShareFilters,
  jackpotShareRow, jackpotTicketBody, jackpotTicketDetail, jackpotTicketFilters, jackpotTicketIdParams, jackpotTicketRow, idParams,
} from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Db, Executor } from '../../platform/db.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { localeOf } from '../../platform/http.js';
import { idempotent } from '../../platform/idempotency.js';
import { defineList, registerList, scopeCondition, scopeOf, withinDates, type Scope } from '../../platform/listing.js';
import { registerResource } from '../../platform/resource.js';
import { admins } from '../../platform/schema.js';
import { bettors, ofBettor, ofBettorPhone } from '../money/index.js';
import { upcomingMatches } from '../feed/index.js';
import { jackpotBetTypes, jackpotIssueMatches, jackpotIssues, jackpotShares, jackpotTickets } from './schema.js';
import {
  changeResults, createIssue, issueMatches, kickOffOf, loadBetType, loadIssue, openBets, parseTiers, placeTicket, poolOf, quoteTicket, refreshFeedResults, setBetStatus,
  setIssueMatches, type Issue, type IssueMatch, type Quote,
} from './service.js';

// ---------------------------------------------------------------------------------------------- rows

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

export function toIssueRow(i: Issue, extra: { betType?: string | null; matches?: number } = {}, now = Date.now()) {
  return {
    id: i.id, identifier: i.identifier, identifier_prefix: i.identifierPrefix, bet_type_id: i.betTypeId, bet_type: extra.betType ?? null,
    start_time: i.startTime.toISOString(), category_id: i.categoryId, league_id: i.leagueId, matches: extra.matches ?? 0, prize_pool: i.prizePool,
    max_choose: i.maxChoose, incentives: i.incentives, bet_close_at: iso(i.betCloseAt), bet_status: i.betStatus, settle_status: i.settleStatus,
    total_bet: i.totalBet, lines: i.lines, tickets: i.tickets, successful: i.successful, net_income: i.netIncome, net_profit: i.netProfit,
    expenditure: i.expenditure, settled_version: i.settledVersion, delete_reason: i.deleteReason, create_time: i.createdAt.toISOString(),
    closes_in: i.betCloseAt ? Math.max(0, Math.floor((i.betCloseAt.getTime() - now) / 1000)) : null,
  };
}

export function toMatchRow(m: IssueMatch) {
  return {
    position: m.position, event_id: m.eventId, home_team: m.homeTeam, away_team: m.awayTeam, league_name: m.leagueName, start_time: m.startTime.toISOString(),
    result: m.result, feed_result: m.feedResult, result_source: m.resultSource, override_reason: m.overrideReason,
  };
}

const matchCount = sql<number>`(select count(*)::int from jackpot_issue_matches m where m.issue_id = ${jackpotIssues.id})`;

const selectIssues = (ex: Executor) =>
  ex
    .select({ issue: jackpotIssues, betType: jackpotBetTypes.type, matches: matchCount })
    .from(jackpotIssues)
    .leftJoin(jackpotBetTypes, eq(jackpotBetTypes.id, jackpotIssues.betTypeId));

type IssueFilters = z.infer<typeof jackpotIssueFilters>;

export const ISSUE_LIST = defineList({
  name: 'jackpot_identifier',
  page: 'jackpot_identifier',
  path: '/api/v1/jackpot/issues',
  filters: jackpotIssueFilters,
  summary: 'List jackpot issues, filtered, sorted and paged',
  where: (q: IssueFilters) =>
    and(
      q.identifier ? eq(jackpotIssues.identifier, q.identifier) : undefined,
      q.bet_type_id ? eq(jackpotIssues.betTypeId, q.bet_type_id) : undefined,
      q.bet_status ? eq(jackpotIssues.betStatus, q.bet_status) : undefined,
      q.settle_status ? eq(jackpotIssues.settleStatus, q.settle_status) : undefined,
      withinDates(jackpotIssues.startTime, q.start_time_from, q.start_time_to),
    ),
  select: selectIssues,
  idColumn: jackpotIssues.id,
  sortable: { id: jackpotIssues.id, start_time: jackpotIssues.startTime, create_time: jackpotIssues.createdAt, bet_close_at: jackpotIssues.betCloseAt },
  defaultSort: '-id',
  countFrom: (ex: Executor) => ex.select({ id: jackpotIssues.id }).from(jackpotIssues),
  toRow: (r: { issue: Issue; betType: string | null; matches: number }) => toIssueRow(r.issue, { betType: r.betType, matches: Number(r.matches) }),
  row: jackpotIssueRow,
  columns: [
    { key: 'identifier' }, { key: 'bet_type' }, { key: 'start_time' }, { key: 'prize_pool', money: true }, { key: 'bet_close_at' },
    { key: 'bet_status', enum: 'jackpot_bet_status' }, { key: 'settle_status', enum: 'jackpot_settle_status' }, { key: 'total_bet', money: true },
    { key: 'lines' }, { key: 'tickets' },
  ],
});

type TicketFilters = z.infer<typeof jackpotTicketFilters>;
type Ticket = typeof jackpotTickets.$inferSelect;
const placer = alias(admins, 'placer');

const selectTickets = (ex: Executor) =>
  ex
    .select({ ticket: jackpotTickets, identifier: jackpotIssues.identifier, phone: bettors.phone, name: bettors.name, placedBy: placer.account })
    .from(jackpotTickets)
    .innerJoin(bettors, eq(bettors.id, jackpotTickets.bettorId))
    .innerJoin(jackpotIssues, eq(jackpotIssues.id, jackpotTickets.issueId))
    .leftJoin(placer, eq(placer.id, jackpotTickets.placedBy));

type TicketSelect = { ticket: Ticket; identifier: string; phone: string; name: string; placedBy: string | null };

export function toTicketRow(r: TicketSelect) {
  const t = r.ticket;
  return {
    id: t.id, serial_number: t.serialNumber, issue_id: t.issueId, identifier: r.identifier, bettor_id: t.bettorId, phone: r.phone, user_name: r.name,
    picks: t.picks, lines: t.lines, unit: t.unit, stake: t.stake, bonus_stake: t.bonusStake, status: t.status, best_hits: t.bestHits,
    winning_lines: t.winningLines, gross: t.gross, tax: t.tax, credited: t.credited, withheld: t.withheld, placed_by: r.placedBy,
    shared_from: t.sharedFrom, create_time: t.createdAt.toISOString(), settlement_time: iso(t.settledAt),
  };
}

const ticketWhere = (q: TicketFilters, scope: Scope): SQL | undefined =>
  and(
    scopeCondition(scope, jackpotTickets.agentId),
    q.id ? eq(jackpotTickets.id, q.id) : undefined,
    q.issue_id ? eq(jackpotTickets.issueId, q.issue_id) : undefined,
    q.identifier ? sql`${jackpotTickets.issueId} = (select id from jackpot_issues where identifier = ${q.identifier})` : undefined,
    ofBettor(jackpotTickets.bettorId, q),
    q.status ? eq(jackpotTickets.status, q.status) : undefined,
    q.min_hits !== undefined ? gte(jackpotTickets.bestHits, q.min_hits) : undefined,
    q.serial_number ? eq(jackpotTickets.serialNumber, q.serial_number) : undefined,
    withinDates(jackpotTickets.createdAt, q.created_at_from, q.created_at_to),
  );

const ticketList = (name: string, path: string) =>
  defineList({
    name, page: name, path, filters: jackpotTicketFilters, where: ticketWhere, select: selectTickets, idColumn: jackpotTickets.id,
    summary: 'List jackpot tickets of my branch, filtered, sorted and paged',
    sortable: { id: jackpotTickets.id, create_time: jackpotTickets.createdAt, stake: jackpotTickets.stake },
    defaultSort: '-id', countFrom: (ex: Executor) => ex.select({ id: jackpotTickets.id }).from(jackpotTickets), toRow: toTicketRow, row: jackpotTicketRow,
    columns: [
      { key: 'serial_number' }, { key: 'identifier' }, { key: 'phone' }, { key: 'user_name' }, { key: 'lines' }, { key: 'stake', money: true },
      { key: 'status', enum: 'jackpot_ticket_status' }, { key: 'best_hits' }, { key: 'winning_lines' }, { key: 'gross', money: true },
      { key: 'tax', money: true }, { key: 'credited', money: true }, { key: 'withheld', money: true }, { key: 'create_time' }, { key: 'settlement_time' },
    ],
  });

export const TICKET_LISTS = [ticketList('jackpot_bet_list', '/api/v1/jackpot/tickets'), ticketList('cs_jackpot_bet_list', '/api/v1/jackpot/cs/tickets')];

type ShareFilters = z.infer<typeof jackpotShareFilters>;
const selectShares = (ex: Executor) =>
  ex
    .select({ share: jackpotShares, serialNumber: jackpotTickets.serialNumber, identifier: jackpotIssues.identifier, phone: bettors.phone, lines: jackpotTickets.lines, stake: jackpotTickets.stake })
    .from(jackpotShares)
    .innerJoin(jackpotTickets, eq(jackpotTickets.id, jackpotShares.ticketId))
    .innerJoin(jackpotIssues, eq(jackpotIssues.id, jackpotTickets.issueId))
    .innerJoin(bettors, eq(bettors.id, jackpotShares.bettorId));
type ShareSelect = { share: typeof jackpotShares.$inferSelect; serialNumber: string; identifier: string; phone: string; lines: number; stake: number };
const toShareRow = (r: ShareSelect) => ({
  // The export's keyset key (the list answers without it).
  id: r.share.ticketId,
  code: r.share.code, ticket_id: r.share.ticketId, serial_number: r.serialNumber, identifier: r.identifier, bettor_id: r.share.bettorId, phone: r.phone,
  lines: r.lines, stake: r.stake, copies: r.share.copies, copy_stake: r.share.copyStake, create_time: r.share.createdAt.toISOString(),
});

export const SHARE_LIST = defineList({
  name: 'super_list', page: 'super_list', path: '/api/v1/jackpot/shares', filters: jackpotShareFilters, select: selectShares,
  summary: 'List shared jackpot slips of my branch, filtered, sorted and paged',
  where: (q: ShareFilters, scope: Scope) =>
    and(
      scopeCondition(scope, jackpotShares.agentId),
      q.code ? eq(jackpotShares.code, q.code.toUpperCase()) : undefined,
      q.phone ? ofBettorPhone(jackpotShares.bettorId, q.phone) : undefined,
      withinDates(jackpotShares.createdAt, q.created_at_from, q.created_at_to),
    ),
  idColumn: jackpotShares.ticketId,
  sortable: { create_time: jackpotShares.createdAt, copies: jackpotShares.copies, copy_stake: jackpotShares.copyStake },
  defaultSort: '-create_time', toRow: toShareRow, row: jackpotShareRow,
  columns: [{ key: 'code' }, { key: 'serial_number' }, { key: 'identifier' }, { key: 'phone' }, { key: 'lines' }, { key: 'stake', money: true }, { key: 'copies' }, { key: 'copy_stake', money: true }, { key: 'create_time' }],
});

// ------------------------------------------------------------------------------------------- helpers

/** The issue, answered 404 when missing. */
async function issueDetail(ex: Executor, id: number) {
  const [r] = await selectIssues(ex).where(eq(jackpotIssues.id, id));
  if (!r) throw notFound();
  const matches = await issueMatches(ex, id);
  const bt = await loadBetType(ex, r.issue.betTypeId);
  const pool = poolOf(r.issue, bt);
  const kickOff = await kickOffOf(ex, matches);
  return {
    issue: toIssueRow(r.issue, { betType: r.betType, matches: matches.length }),
    // Whether each match has kicked off: before it has, it gets no result but cancelled (issue 23).
    matches: matches.map((m) => ({ ...toMatchRow(m), kick_off: kickOff.get(m.position)!.at.toISOString(), started: kickOff.get(m.position)!.started })),
    pool: { carried: pool.carried, seed_top_up: pool.seedTopUp, from_stakes: pool.fromStakes, from_incentives: pool.fromIncentives, total: pool.total },
    tiers: bt.tiers,
  };
}

/** Only an admin who sees the whole book changes an issue (it holds every branch's tickets). */
async function assertWholeBook(ex: Executor, req: FastifyRequest) {
  const scope = await scopeOf(ex, authOf(req));
  if (!scope.all) throw new AppError(403, 'FORBIDDEN');
}

/** The ticket, if the admin's scope holds its bettor; 404 otherwise (no hint that it exists). */
async function scopedTicket(ex: Executor, req: FastifyRequest, id: number) {
  const scope = await scopeOf(ex, authOf(req));
  const [r] = await selectTickets(ex).where(and(eq(jackpotTickets.id, id), scopeCondition(scope, jackpotTickets.agentId)));
  if (!r) throw notFound();
  return r;
}

/** The bettor, if in the admin's branch; 404 otherwise. */
async function scopedBettor(ex: Executor, req: FastifyRequest, bettorId: number) {
  const scope = await scopeOf(ex, authOf(req));
  const [b] = await ex.select({ id: bettors.id }).from(bettors).where(and(eq(bettors.id, bettorId), scopeCondition(scope, bettors.agentId)));
  if (!b) throw notFound();
}

async function ticketDetail(ex: Executor, r: TicketSelect) {
  const matches = await issueMatches(ex, r.ticket.issueId);
  const [issueRow] = await selectIssues(ex).where(eq(jackpotIssues.id, r.ticket.issueId));
  const [share] = await ex.select({ code: jackpotShares.code }).from(jackpotShares).where(eq(jackpotShares.ticketId, r.ticket.id));
  return {
    ticket: toTicketRow(r),
    issue: toIssueRow(issueRow!.issue, { betType: issueRow!.betType, matches: Number(issueRow!.matches) }),
    matches: matches.map((m) => ({
      ...toMatchRow(m),
      pick: r.ticket.picks[m.position - 1] ?? 0,
      // A cancelled match (3) counts as a hit for every pick under the default rule.
      hit: m.result === null ? null : m.result === 3 ? true : ((r.ticket.picks[m.position - 1] ?? 0) & (1 << m.result)) !== 0,
    })),
    share_code: share?.code ?? null,
  };
}

const quoteAnswer = (q: Quote, locale: string) =>
  q.ok
    ? { ok: true, code: null, message: null, match: null, lines: q.lines, unit: q.unit, stake: q.stake, doubles: q.doubles, triples: q.triples, picked: q.picked, bonus_stake: q.bonusStake }
    : { ok: false, code: q.code, message: message(q.code, locale, q.params), match: q.match, lines: 0, unit: 0, stake: 0, doubles: 0, triples: 0, picked: 0, bonus_stake: 0 };

const openIssuesAnswer = z.object({
  items: z.array(
    z.object({
      issue: jackpotIssueRow,
      matches: z.array(jackpotMatchRow),
      unit: z.number(), max_doubles: z.number(), max_triples: z.number(), allow_bonus: z.boolean(),
      tiers: z.array(z.object({ hits: z.number(), proportion_bps: z.number() })),
    }),
  ),
});

const issueParams = idParams;
const audit = (tx: Executor, req: FastifyRequest, content: string, before: unknown, after: unknown) =>
  writeAudit(tx, req, { type: LOG_TYPE.ordinary, content, before: before ?? null, after: after ?? null });

// ---------------------------------------------------------------------------------------------- routes

export function registerJackpotRoutes(app: FastifyInstance, ctx: AppContext) {
  const db: Db = ctx.db;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Bet types: the resource layer, with the checks a field type cannot say.
  registerResource(app, db, {
    def: jackpotBetTypeResource,
    table: jackpotBetTypes,
    prepare: (v) => {
      if (v.tiers !== undefined) v.tiers = parseTiers(v.tiers);
    },
    beforeDelete: async (row, ex) => {
      const [used] = await ex.select({ id: jackpotIssues.id }).from(jackpotIssues).where(eq(jackpotIssues.betTypeId, Number(row.id))).limit(1);
      if (used) throw new AppError(409, 'JACKPOT_BET_TYPE_IN_USE');
    },
  });

  // ------------------------------------------------------------------------------------------ issues
  registerList(app, db, ISSUE_LIST);

  r.get(
    '/api/v1/jackpot/issues/:id',
    {
      config: { access: { page: 'jackpot_identifier' } },
      schema: {
        tags: ['jackpot_identifier'], summary: 'A jackpot issue with its 13 matches, pool and tiers',
        description: "An unsettled issue takes the feed's settled 1X2 results as it is read (operator overrides stay).",
        params: issueParams, response: { 200: jackpotIssueDetail },
      },
    },
    async (req) => {
      const issue = await loadIssue(db, req.params.id);
      if (issue.settleStatus === JACKPOT_SETTLE_STATUS.unsettled) await db.transaction((tx) => refreshFeedResults(tx, issue.id));
      return issueDetail(db, req.params.id);
    },
  );

  r.post(
    '/api/v1/jackpot/issues',
    {
      config: { access: { page: 'jackpot_identifier', button: 'create', duty: { ring: 'book', setting: 'jackpot_issue' } } },
      schema: { tags: ['jackpot_identifier'], summary: 'Create a jackpot issue (identifier = prefix + running number); not open until its 13 matches are set', body: jackpotIssueCreateBody, response: { 201: jackpotIssueDetail } },
    },
    async (req, reply) => {
      await assertWholeBook(db, req);
      const b = req.body;
      const id = await db.transaction(async (tx) => {
        const issue = await createIssue(tx, {
          betTypeId: b.bet_type_id, identifierPrefix: b.identifier_prefix, startTime: new Date(b.start_time), categoryId: b.category_id ?? null,
          leagueId: b.league_id ?? null, betCloseAt: b.bet_close_at ? new Date(b.bet_close_at) : null, createdBy: authOf(req).admin.id,
        });
        await audit(tx, req, `Created jackpot issue ${issue.identifier}`, null, toIssueRow(issue));
        return issue.id;
      });
      return reply.status(201).send(await issueDetail(db, id));
    },
  );

  r.get(
    '/api/v1/jackpot/issues/:id/candidates',
    {
      config: { access: { page: 'jackpot_identifier', button: 'get_matches' } },
      schema: {
        tags: ['jackpot_identifier'], summary: "Upcoming football matches to choose the issue's 13 from",
        description: "Not started, open matches by kick-off, filtered by country (category), league and time; with the bet type's max_range_odds, only those whose highest 1X2 price is at most it.",
        params: issueParams, querystring: jackpotCandidatesQuery, response: { 200: jackpotCandidatesAnswer },
      },
    },
    async (req) => {
      const issue = await loadIssue(db, req.params.id);
      const bt = await loadBetType(db, issue.betTypeId);
      const q = req.query;
      const limit = q.limit ?? 200;
      const maxRange = Number(bt.maxRangeOdds);
      const rows = await upcomingMatches(db, {
        from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined,
        categoryId: q.category_id ?? issue.categoryId ?? undefined, leagueId: q.league_id ?? issue.leagueId ?? undefined,
        limit: maxRange > 0 ? limit * 5 : limit,
      });
      const fits = rows.filter((m) => {
        if (!(maxRange > 0)) return true;
        const prices = m.prices.filter((p): p is string => p !== null).map(Number);
        return prices.length === 3 && Math.max(...prices) <= maxRange;
      });
      return {
        max_range_odds: maxRange,
        items: fits.slice(0, limit).map((m) => ({
          event_id: m.eventId, home_team: m.homeTeam, away_team: m.awayTeam, league_id: m.leagueId, league_name: m.leagueName, category_id: m.categoryId,
          start_time: m.startTime.toISOString(), price_home: m.prices[0], price_draw: m.prices[1], price_away: m.prices[2],
        })),
      };
    },
  );

  r.put(
    '/api/v1/jackpot/issues/:id/matches',
    {
      config: { access: { page: 'jackpot_identifier', button: 'get_matches', duty: { ring: 'book', setting: 'jackpot_issue' } } },
      schema: { tags: ['jackpot_identifier'], summary: "Set the issue's 13 matches (in order)", params: issueParams, body: jackpotMatchesBody, response: { 200: jackpotIssueDetail } },
    },
    async (req) => {
      await assertWholeBook(db, req);
      await db.transaction(async (tx) => {
        const before = (await issueMatches(tx, req.params.id)).map((m) => m.eventId);
        const after = await setIssueMatches(tx, req.params.id, req.body.event_ids);
        await audit(tx, req, `Set the matches of jackpot issue #${req.params.id}`, { event_ids: before }, { event_ids: after.map((m) => m.eventId) });
      });
      return issueDetail(db, req.params.id);
    },
  );

  r.post(
    '/api/v1/jackpot/issues/:id/open',
    { config: { access: { page: 'jackpot_identifier', button: 'open_bets', duty: { ring: 'book', setting: 'jackpot_issue' } } }, schema: { tags: ['jackpot_identifier'], summary: 'Open betting on the issue', params: issueParams, response: { 200: jackpotIssueDetail } } },
    async (req) => {
      await assertWholeBook(db, req);
      await db.transaction(async (tx) => {
        const before = await loadIssue(tx, req.params.id);
        const after = await openBets(tx, req.params.id);
        await audit(tx, req, `Opened betting on jackpot issue ${after.identifier}`, { bet_status: before.betStatus }, { bet_status: after.betStatus, prize_pool: after.prizePool });
      });
      return issueDetail(db, req.params.id);
    },
  );

  r.put(
    '/api/v1/jackpot/issues/:id/bet_status',
    {
      config: { access: { page: 'jackpot_identifier', button: 'bet_status', duty: { ring: 'book', setting: 'jackpot_issue' } } },
      schema: { tags: ['jackpot_identifier'], summary: 'Change the betting state of the issue (open, suspended, closed)', params: issueParams, body: jackpotBetStatusBody, response: { 200: jackpotIssueDetail } },
    },
    async (req) => {
      await assertWholeBook(db, req);
      await db.transaction(async (tx) => {
        const before = await loadIssue(tx, req.params.id);
        const after = await setBetStatus(tx, req.params.id, req.body.bet_status);
        await audit(tx, req, `Bet status of jackpot issue ${after.identifier}: ${before.betStatus} -> ${after.betStatus}`, { bet_status: before.betStatus }, { bet_status: after.betStatus });
      });
      return issueDetail(db, req.params.id);
    },
  );

  r.put(
    '/api/v1/jackpot/issues/:id/results',
    {
      config: { access: { page: 'jackpot_identifier', button: 'change_result', duty: { ring: 'book', setting: 'jackpot_issue' } } },
      schema: {
        tags: ['jackpot_identifier'], summary: 'Set or change match results of the issue',
        description: "Results default to the feed's settled 1X2 result. A result other than the feed's is an operator override: it needs a reason and is audited. `result: null` goes back to the feed's. A match that has not kicked off (the feed's kick-off time, or its state) gets no home, draw or away result (422 JACKPOT_MATCH_NOT_STARTED), only cancelled (3).",
        params: issueParams, body: jackpotResultsBody, response: { 200: jackpotIssueDetail },
      },
    },
    async (req) => {
      await assertWholeBook(db, req);
      await db.transaction(async (tx) => {
        const { changes } = await changeResults(tx, req.params.id, req.body.results.map((x) => ({ position: x.position, result: x.result, reason: x.reason })));
        if (changes.length) {
          const why = changes.map((c) => c.reason).filter(Boolean).join('; ');
          await writeAudit(tx, req, {
            type: LOG_TYPE.ordinary,
            content: `Jackpot issue #${req.params.id} results changed${why ? `: ${why}` : ''}`,
            before: { results: changes.map((c) => ({ position: c.position, event_id: c.event_id, result: c.before })) },
            after: { results: changes.map((c) => ({ position: c.position, event_id: c.event_id, result: c.after, source: c.source, reason: c.reason })) },
          });
        }
      });
      return issueDetail(db, req.params.id);
    },
  );

  r.post(
    '/api/v1/jackpot/issues/:id/results/refresh',
    {
      config: { access: { page: 'jackpot_identifier', button: 'change_result', duty: { ring: 'book', setting: 'jackpot_issue' } } },
      schema: { tags: ['jackpot_identifier'], summary: "Take the feed's settled 1X2 results into the issue (operator overrides stay)", params: issueParams, response: { 200: jackpotIssueDetail } },
    },
    async (req) => {
      await loadIssue(db, req.params.id);
      await db.transaction((tx) => refreshFeedResults(tx, req.params.id));
      return issueDetail(db, req.params.id);
    },
  );

  r.get(
    '/api/v1/jackpot/open-issues',
    {
      config: { access: { page: 'jackpot_bet' } },
      schema: { tags: ['jackpot_bet'], summary: 'Issues open for betting, with their matches and the rules a ticket is checked against', response: { 200: openIssuesAnswer } },
    },
    async () => {
      const rows = await selectIssues(db).where(and(eq(jackpotIssues.betStatus, JACKPOT_BET_STATUS.open), sql`${jackpotIssues.betCloseAt} > now()`)).orderBy(asc(jackpotIssues.betCloseAt)).limit(50);
      const ids = rows.map((x) => x.issue.id);
      const all = ids.length ? await db.select().from(jackpotIssueMatches).where(inArray(jackpotIssueMatches.issueId, ids)).orderBy(asc(jackpotIssueMatches.issueId), asc(jackpotIssueMatches.position)) : [];
      const types = new Map((await db.select().from(jackpotBetTypes).where(inArray(jackpotBetTypes.id, [0, ...rows.map((x) => x.issue.betTypeId)]))).map((b) => [b.id, b]));
      return {
        items: rows.map((x) => {
          const bt = types.get(x.issue.betTypeId)!;
          return {
            issue: toIssueRow(x.issue, { betType: x.betType, matches: Number(x.matches) }),
            matches: all.filter((m) => m.issueId === x.issue.id).map(toMatchRow),
            unit: bt.betAmount, max_doubles: bt.maxDoubles, max_triples: bt.maxTriples, allow_bonus: bt.allowBonus, tiers: bt.tiers,
          };
        }),
      };
    },
  );

  // ----------------------------------------------------------------------------------------- tickets
  for (const spec of TICKET_LISTS) registerList(app, db, spec);

  r.post(
    '/api/v1/jackpot/tickets/quote',
    {
      config: { access: { page: 'jackpot_bet' } },
      schema: {
        tags: ['jackpot_bet'], summary: 'What placing this ticket would do: lines and stake, or the refusal (no money moved)',
        body: jackpotTicketBody, response: { 200: jackpotQuoteAnswer },
      },
    },
    async (req) => {
      await scopedBettor(db, req, req.body.bettor_id);
      const q = await quoteTicket(db, { issueId: req.body.issue_id, bettorId: req.body.bettor_id, picks: req.body.picks, useBonus: req.body.use_bonus });
      return quoteAnswer(q, localeOf(req));
    },
  );

  r.post(
    '/api/v1/jackpot/tickets',
    {
      config: { access: { page: 'jackpot_bet', button: 'create' } },
      schema: {
        tags: ['jackpot_bet'], summary: 'Place a jackpot ticket for a bettor of my branch (debits the stake)',
        description: 'Refusals answer 422 with the rule\'s message (the quote tells the same before). An `Idempotency-Key` header makes a repeat answer the first ticket.',
        body: jackpotTicketBody, response: { 200: jackpotTicketDetail },
      },
    },
    async (req) => {
      await scopedBettor(db, req, req.body.bettor_id);
      const rawKey = req.headers['idempotency-key'];
      const key = (Array.isArray(rawKey) ? rawKey[0] : rawKey) ?? null;
      const id = await idempotent(db, req, async (tx) => {
        const t = await placeTicket(tx, { issueId: req.body.issue_id, bettorId: req.body.bettor_id, picks: req.body.picks, useBonus: req.body.use_bonus }, { placedBy: authOf(req).admin.id, idempotencyKey: key });
        await writeAudit(tx, req, { type: LOG_TYPE.update_balance, content: `Jackpot ticket ${t.serialNumber} placed for bettor ${t.bettorId}: ${t.lines} lines, stake ${t.stake}`, before: null, after: { ticket_id: t.id, issue_id: t.issueId, picks: t.picks, stake: t.stake, bonus_stake: t.bonusStake } });
        return t.id;
      });
      return ticketDetail(db, await scopedTicket(db, req, id));
    },
  );

  r.get(
    '/api/v1/jackpot/tickets/:id',
    { config: { access: { page: 'jackpot_bet_list', button: 'detail' } }, schema: { tags: ['jackpot_bet_list'], summary: "A jackpot ticket with each match's pick and result", params: jackpotTicketIdParams, response: { 200: jackpotTicketDetail } } },
    async (req) => ticketDetail(db, await scopedTicket(db, req, req.params.id)),
  );
  r.get(
    '/api/v1/jackpot/cs/tickets/:id',
    { config: { access: { page: 'cs_jackpot_bet' } }, schema: { tags: ['cs_jackpot_bet'], summary: "A jackpot ticket with each match's pick and result, for customer service", params: jackpotTicketIdParams, response: { 200: jackpotTicketDetail } } },
    async (req) => ticketDetail(db, await scopedTicket(db, req, req.params.id)),
  );

  // ------------------------------------------------------------------------------------------ shares
  registerList(app, db, SHARE_LIST);
  r.get(
    '/api/v1/jackpot/shares/:code',
    { config: { access: { page: 'super_list' } }, schema: { tags: ['super_list'], summary: 'A shared jackpot slip by its code', params: jackpotCodeParams, response: { 200: jackpotShareDetail } } },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      const [s] = await selectShares(db).where(and(eq(jackpotShares.code, req.params.code.toUpperCase()), scopeCondition(scope, jackpotShares.agentId)));
      if (!s) throw new AppError(404, 'JACKPOT_SHARE_NOT_FOUND');
      const [t] = await selectTickets(db).where(eq(jackpotTickets.id, s.share.ticketId));
      const matches = await issueMatches(db, t!.ticket.issueId);
      return { share: toShareRow(s), ticket: toTicketRow(t!), matches: matches.map((m) => ({ ...toMatchRow(m), pick: t!.ticket.picks[m.position - 1] ?? 0 })) };
    },
  );
}

