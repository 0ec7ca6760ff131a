import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { selectionExposure } from '../betting/index.js';
import { feedEventsAll } from '../feed/index.js';
import { orderLines } from '../betting/index.js';
import { authOf } from '../../platform/access.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { defineList, listSpecs, optionalInt, parseListQuery, scopeCondition, scopeOf, withinDates, type Scope } from '../../platform/listing.js';
import { answerRow, figuresAnswer, openBookAnswer, pageAnswer, text } from '@dau/contract';
import { pageQuery, pageOffset } from '../../platform/paging.js';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { computeExposure } from './exposure.js';
import {
  DAY, HOUR, TIME_ZONE, UTC_OFFSET, addDays, addFigures, bettorsByDay, dayStart, emptyFigures, figuresUntil, finish, hourlyFigures, isDay, localDay, localHour, onlineBettors, openBook,
  type Figures,
} from './figures.js';

/** Longest span of history_statistics, in days. */
export const HISTORY_MAX_DAYS = 92;

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const isoOpt = z.string().datetime({ offset: true }).optional();

// ---------------------------------------------------------------------------------------------------
// match_statistics: per match, from selection_exposure (one row per selection and agent).
//
// Per match: orders = order legs on the match's selections (an order holding two selections of the same
// match counts twice), turnover = the stakes of those orders (an accumulator counts in full toward each
// of its matches), settled_stake = the stakes of those orders that are settled or cashed out, payouts =
// gross payouts of the settled ones, GGR = settled_stake - payouts (over decided orders only, as the
// landing page counts it: issue 23), open_stakes = turnover - settled_stake (shown beside GGR, not
// revenue until settled), liability = what the book pays if an outcome wins, summed over the open orders
// holding it; max_liability = the largest outcome liability of the match (the worst single outcome).
// Everything is summed from selection_exposure, kept per selection and agent by placement and settlement.
// The matches are read live or archived (`feed_events_all`, feed/archive.ts): the statistics are history.
// ---------------------------------------------------------------------------------------------------

const matchFilters = z.object({
  sport_id: optionalInt,
  event_id: z.string().trim().min(1).max(64).optional(),
  start_from: isoOpt,
  start_to: isoOpt,
});
type MatchFilters = z.infer<typeof matchFilters>;

const sx = selectionExposure;
const sumOf = (c: unknown) => sql<string>`coalesce(sum(${c}), 0)::bigint`;

const fe = feedEventsAll;

function matchWhere(q: MatchFilters, scope: Scope): SQL | undefined {
  return and(
    scopeCondition(scope, sx.agentId),
    q.sport_id !== undefined ? eq(fe.sportId, q.sport_id) : undefined,
    q.event_id ? eq(sx.eventId, q.event_id) : undefined,
    withinDates(fe.startTime, q.start_from, q.start_to),
  );
}

/** The grouped select (one row per match); `.where()` comes before the grouping, as ListSpec expects. */
const selectMatches = (ex: Executor) => ({
  where: (w: SQL | undefined) =>
    ex
      .select({
        id: fe.id,
        eventId: fe.eventId,
        sportId: fe.sportId,
        leagueName: fe.leagueName,
        homeTeam: fe.homeTeam,
        awayTeam: fe.awayTeam,
        startTime: fe.startTime,
        matchStatus: fe.matchStatus,
        orders: sumOf(sx.orders),
        turnover: sumOf(sx.stake),
        settledStake: sumOf(sx.settledStake),
        payouts: sumOf(sx.payouts),
        liability: sumOf(sx.liability),
      })
      .from(sx)
      .innerJoin(fe, eq(fe.eventId, sx.eventId))
      .where(w)
      // A view has no primary key to group by: every column shown (the id is the row's, live or archived).
      .groupBy(fe.id, fe.eventId, fe.sportId, fe.leagueName, fe.homeTeam, fe.awayTeam, fe.startTime, fe.matchStatus),
});

type MatchRow = {
  id: number; eventId: string; sportId: number; leagueName: string; homeTeam: string; awayTeam: string; startTime: Date; matchStatus: number;
  orders: string; turnover: string; settledStake: string; payouts: string; liability: string;
};

/** A row of the match statistics list (what toMatchRow builds). */
const matchStatisticsRow = answerRow({
  id: 'number', event_id: 'string', sport_id: 'number?', league_name: 'string?', home_team: 'string?', away_team: 'string?', start_time: 'string',
  match_status: 'number?', orders: 'number', turnover: 'number', settled_stake: 'number', open_stakes: 'number', payouts: 'number', ggr: 'number',
  liability: 'number',
});

const toMatchRow = (r: MatchRow) => {
  const turnover = num(r.turnover);
  const settled = num(r.settledStake);
  const payouts = num(r.payouts);
  return {
    id: r.id,
    event_id: r.eventId,
    sport_id: r.sportId,
    league_name: r.leagueName,
    home_team: r.homeTeam,
    away_team: r.awayTeam,
    start_time: new Date(r.startTime).toISOString(),
    match_status: r.matchStatus,
    orders: num(r.orders),
    turnover,
    settled_stake: settled,
    open_stakes: turnover - settled,
    payouts,
    ggr: settled - payouts,
    liability: num(r.liability),
  };
};

/** The list (and its export through POST /api/v1/exports with type `match_statistics`). */
export const MATCH_STATISTICS = defineList({
  name: 'match_statistics',
  page: 'match_statistics',
  path: '/api/v1/statistics/matches',
  filters: matchFilters,
  where: matchWhere,
  select: selectMatches,
  idColumn: fe.id,
  sortable: {
    id: fe.id,
    start_time: fe.startTime,
    turnover: sql`sum(${sx.stake})`,
    orders: sql`sum(${sx.orders})`,
    payouts: sql`sum(${sx.payouts})`,
    settled_stake: sql`sum(${sx.settledStake})`,
    open_stakes: sql`sum(${sx.stake}) - sum(${sx.settledStake})`,
    ggr: sql`sum(${sx.settledStake}) - sum(${sx.payouts})`,
    liability: sql`sum(${sx.liability})`,
  },
  defaultSort: '-start_time',
  toRow: toMatchRow,
  row: matchStatisticsRow,
  columns: [
    { key: 'event_id' }, { key: 'sport_id', enum: 'sport' }, { key: 'league_name' }, { key: 'home_team' }, { key: 'away_team' }, { key: 'start_time' },
    { key: 'orders' }, { key: 'turnover', money: true }, { key: 'settled_stake', money: true }, { key: 'open_stakes', money: true }, { key: 'payouts', money: true },
    { key: 'ggr', money: true }, { key: 'liability', money: true },
  ],
});

/** Per outcome (summed over the agents in scope) of some matches. */
async function outcomesOf(ex: Executor, scope: Scope, eventIds: string[]) {
  if (!eventIds.length) return [];
  return ex
    .select({
      eventId: sx.eventId,
      marketKey: sx.marketKey,
      outcomeId: sx.outcomeId,
      orders: sumOf(sx.orders),
      stake: sumOf(sx.stake),
      settledStake: sumOf(sx.settledStake),
      liability: sumOf(sx.liability),
      payouts: sumOf(sx.payouts),
    })
    .from(sx)
    .where(and(inArray(sx.eventId, eventIds), scopeCondition(scope, sx.agentId)))
    .groupBy(sx.eventId, sx.marketKey, sx.outcomeId)
    .orderBy(asc(sx.eventId), asc(sx.marketKey), asc(sx.outcomeId));
}

function orderOf(sort: string | undefined) {
  const wanted = sort ?? MATCH_STATISTICS.defaultSort;
  const key = wanted.replace(/^-/, '');
  const col = MATCH_STATISTICS.sortable[key];
  if (!col) throw badRequest('PARAM_INVALID', [{ field: 'sort', message: `cannot sort by ${key}` }]);
  const dir = wanted.startsWith('-') ? desc : asc;
  return key === 'id' ? [dir(fe.id)] : [dir(col as never), dir(fe.id)];
}

// ---------------------------------------------------------------------------------------------------

const historyQuery = z.object({ date_from: z.string().max(10), date_to: z.string().max(10) });

const figuresOut = (f: Figures) => ({ ...f });

const period = answerRow({ time_zone: 'string', utc_offset: 'string', from: 'string', to: 'string' });
const todayAnswer = period.extend({
  day: z.string(), current_hour: z.number(), generated_at: z.string(), totals: figuresAnswer.extend({ online_bettors: z.number() }), open: openBookAnswer,
  hours: z.array(figuresAnswer.extend({ hour: z.number(), start: z.string() })),
  /** The same figures yesterday and on the same weekday last week, each up to the same time of day (figuresUntil). */
  compare: z.object({ yesterday: figuresAnswer, last_week: figuresAnswer }),
});
const historyAnswer = period.extend({
  date_from: z.string(), date_to: z.string(), totals: figuresAnswer, open: openBookAnswer, items: z.array(figuresAnswer.extend({ day: z.string() })),
});
const matchesAnswer = pageAnswer(
  matchStatisticsRow.extend({ max_liability: z.number(), max_liability_market_key: z.string().nullable(), max_liability_outcome_id: z.string().nullable() }),
);
const outcomeFigures = answerRow({
  outcome_id: 'string', selection_name: 'string', orders: 'number', stake: 'number', settled_stake: 'number', liability: 'number', payouts: 'number',
});
const matchAnswer = z.object({
  event: answerRow({
    event_id: 'string', sport_id: 'number?', league_name: 'string?', home_team: 'string?', away_team: 'string?', start_time: 'string?', match_status: 'number?',
    event_status: 'number?',
  }),
  totals: answerRow({
    orders: 'number', turnover: 'number', settled_stake: 'number', open_stakes: 'number', payouts: 'number', ggr: 'number', liability: 'number', max_liability: 'number',
  }),
  markets: z.array(
    answerRow({
      market_key: 'string', market_name: 'string', orders: 'number', stake: 'number', settled_stake: 'number', open_stakes: 'number', payouts: 'number',
      max_liability: 'number', ggr: 'number',
    }).extend({ outcomes: z.array(outcomeFigures) }),
  ),
});

const exposureQuery = z.object({
  state: z.enum(['all', 'live', 'upcoming']).default('all'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
const exposureOutcome = answerRow({
  outcome_id: 'string', selection_name: 'string', orders: 'number', stake: 'number', payout: 'number', net: 'number',
}).extend({ worst: z.boolean() });
const exposureAnswer = z.object({
  generated_at: z.string(),
  markets: z.number(),
  matches: z.number(),
  items: z.array(
    answerRow({
      event_id: 'string', sport_id: 'number', league_name: 'string', home_team: 'string', away_team: 'string', start_time: 'string', match_status: 'number',
      market_key: 'string', market_name: 'string', orders: 'number', stakes: 'number', worst_outcome_id: 'string', worst_payout: 'number', net_loss: 'number',
    }).extend({ live: z.boolean(), outcomes: z.array(exposureOutcome) }),
  ),
});

/**
 * The three statistics screens (issue 5, "Alerts and screens"): today_statistics, match_statistics and
 * history_statistics. Every figure is in the admin's data scope (their subtree of agents), in cents.
 * Days are Africa/Dar_es_Salaam days (UTC+3, no daylight saving): "today" runs from 00:00 to 24:00
 * local time, i.e. 21:00 UTC the day before to 21:00 UTC. Definitions of the figures: ./figures.ts.
 */
export function statisticsRoutes(app: FastifyInstance, { db }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listSpecs().set(MATCH_STATISTICS.name, MATCH_STATISTICS);

  /**
   * GET /api/v1/statistics/today: totals of the local day so far and its 24 hours (hours not yet come
   * are zero). Reads the hourly aggregate, never the orders: constant time in the number of orders.
   */
  r.get(
    '/api/v1/statistics/today',
    {
      config: { access: { page: 'today_statistics' } },
      schema: {
        tags: ['today_statistics'], summary: 'Today\'s figures, in total and by hour', response: { 200: todayAnswer },
        description:
          "Today's figures (Africa/Dar_es_Salaam day, UTC+3), totals and by hour, in the admin's scope; `compare`: the same figures yesterday and on the " +
          'same weekday last week, each up to the same time of day (the hour under way in proportion to the minutes gone).',
      },
    },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      const now = new Date();
      const day = localDay(now);
      const from = dayStart(day);
      const to = new Date(from.getTime() + DAY);
      const elapsed = now.getTime() - from.getTime();
      const [hours, bettors, online, open, yesterday, lastWeek] = await Promise.all([
        hourlyFigures(db, scope, from, to), bettorsByDay(db, scope, day, day), onlineBettors(db, scope), openBook(db, scope),
        figuresUntil(db, scope, dayStart(addDays(day, -1)), elapsed), figuresUntil(db, scope, dayStart(addDays(day, -7)), elapsed),
      ]);
      const totals = emptyFigures();
      const series = [];
      for (let h = 0; h < 24; h++) {
        const start = from.getTime() + h * HOUR;
        const f = hours.get(start) ?? emptyFigures();
        addFigures(totals, f);
        series.push({ hour: h, start: new Date(start).toISOString(), ...figuresOut(f) });
      }
      totals.bettors = bettors.total;
      finish(totals);
      return {
        day,
        time_zone: TIME_ZONE,
        utc_offset: UTC_OFFSET,
        from: from.toISOString(),
        to: to.toISOString(),
        current_hour: localHour(now),
        generated_at: now.toISOString(),
        totals: { ...figuresOut(totals), online_bettors: online },
        open,
        hours: series,
        compare: { yesterday: figuresOut(yesterday), last_week: figuresOut(lastWeek) },
      };
    },
  );

  /**
   * GET /api/v1/statistics/exposure: the live exposure of the landing page (./exposure.ts): per live and
   * upcoming match and market, what the open orders in scope pay on each outcome, riskiest market first.
   */
  r.get(
    '/api/v1/statistics/exposure',
    {
      config: { access: { page: 'today_statistics' } },
      schema: {
        tags: ['today_statistics'], summary: 'Live exposure per match, market and outcome', querystring: exposureQuery, response: { 200: exposureAnswer },
        description:
          'Open orders on live and upcoming matches, in the admin\'s scope: per market and outcome the open stakes, the payout owed if the outcome wins ' +
          '(an accumulator counts its whole potential payout on each of its legs) and the orders placed on it, the worst outcome and the net loss if it wins ' +
          '(its payout minus the market\'s open stakes); worst first.',
      },
    },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      return computeExposure(db, scope, { state: req.query.state, limit: req.query.limit });
    },
  );

  /** GET /api/v1/statistics/history: the same figures per local day over [date_from, date_to] (inclusive, at most 92 days). */
  r.get(
    '/api/v1/statistics/history',
    {
      config: { access: { page: 'history_statistics' } },
      schema: {
        tags: ['history_statistics'], summary: 'Figures per day over a period', querystring: historyQuery, response: { 200: historyAnswer },
        description: `Figures per Africa/Dar_es_Salaam day (UTC+3), date_from..date_to inclusive (YYYY-MM-DD, at most ${HISTORY_MAX_DAYS} days).`,
      },
    },
    async (req) => {
      const { date_from, date_to } = req.query;
      if (!isDay(date_from)) throw badRequest('PARAM_INVALID', [{ field: 'date_from', message: 'expected YYYY-MM-DD' }]);
      if (!isDay(date_to)) throw badRequest('PARAM_INVALID', [{ field: 'date_to', message: 'expected YYYY-MM-DD' }]);
      const from = dayStart(date_from);
      const to = new Date(dayStart(date_to).getTime() + DAY);
      const span = Math.round((to.getTime() - from.getTime()) / DAY);
      if (span < 1) throw badRequest('PARAM_INVALID', [{ field: 'date_to', message: 'date_to is before date_from' }]);
      if (span > HISTORY_MAX_DAYS) throw badRequest('PARAM_INVALID', [{ field: 'date_to', message: `at most ${HISTORY_MAX_DAYS} days` }]);
      const scope = await scopeOf(db, authOf(req));
      const [hours, bettors, open] = await Promise.all([hourlyFigures(db, scope, from, to), bettorsByDay(db, scope, date_from, date_to), openBook(db, scope)]);
      const days = new Map<string, Figures>();
      for (let i = 0; i < span; i++) days.set(addDays(date_from, i), emptyFigures());
      for (const [ms, f] of hours) {
        const d = days.get(localDay(ms));
        if (d) addFigures(d, f);
      }
      const totals = emptyFigures();
      const items = [...days].map(([day, f]) => {
        addFigures(totals, f);
        f.bettors = bettors.perDay.get(day) ?? 0;
        return { day, ...figuresOut(finish(f)) };
      });
      totals.bettors = bettors.total;
      return {
        date_from,
        date_to,
        time_zone: TIME_ZONE,
        utc_offset: UTC_OFFSET,
        from: from.toISOString(),
        to: to.toISOString(),
        totals: figuresOut(finish(totals)),
        open,
        items,
      };
    },
  );

  /** GET /api/v1/statistics/matches: per match figures (see above), with paging; newest start first. */
  r.get(
    MATCH_STATISTICS.path,
    {
      config: { access: { page: 'match_statistics' } },
      schema: {
        tags: ['match_statistics'], summary: 'Figures per match, with the riskiest selection', querystring: pageQuery.extend(matchFilters.shape), response: { 200: matchesAnswer },
        description: 'Per match turnover, settled and open stakes, orders, payouts, GGR (settled stakes minus payouts) and liability, in the admin\'s scope.',
      },
    },
    async (req) => {
      const all = req.query;
      const q = parseListQuery(MATCH_STATISTICS, all) as MatchFilters;
      if (q.start_from && q.start_to && !(new Date(q.start_from) < new Date(q.start_to))) throw badRequest('PARAM_INVALID', [{ field: 'start_to' }]);
      const scope = await scopeOf(db, authOf(req));
      const where = matchWhere(q, scope);
      const order = orderOf(all.sort);
      const base = selectMatches(db).where(where);
      const [rows, [{ n }]] = await Promise.all([
        base.orderBy(...order).limit(all.page_size).offset(pageOffset(all)),
        db.execute(sql`select count(*)::bigint as n from (${selectMatches(db).where(where)}) x`).then((x) => (x as unknown as { rows: { n: string }[] }).rows),
      ]);
      const items = (rows as MatchRow[]).map(toMatchRow);
      const outcomes = await outcomesOf(db, scope, items.map((i) => i.event_id));
      const worst = new Map<string, { liability: number; market_key: string; outcome_id: string }>();
      for (const o of outcomes) {
        const l = num(o.liability);
        const w = worst.get(o.eventId);
        if (!w || l > w.liability) worst.set(o.eventId, { liability: l, market_key: o.marketKey, outcome_id: o.outcomeId });
      }
      return {
        items: items.map((i) => {
          const w = worst.get(i.event_id);
          return { ...i, max_liability: w?.liability ?? 0, max_liability_market_key: w?.market_key ?? null, max_liability_outcome_id: w?.outcome_id ?? null };
        }),
        total: num(n),
        page: all.page,
        page_size: all.page_size,
      };
    },
  );

  /** GET /api/v1/statistics/matches/:event_id: one match, per market and outcome. 404 when no order touched it in scope and the feed does not know it. */
  r.get(
    '/api/v1/statistics/matches/:event_id',
    {
      config: { access: { page: 'match_statistics' } },
      schema: {
        tags: ['match_statistics'], summary: 'One match\'s figures per market and selection', params: z.object({ event_id: text(64).min(1) }), response: { 200: matchAnswer },
        description: 'One match: liability, stake, orders and payouts per market and outcome.',
      },
    },
    async (req) => {
      const eventId = req.params.event_id;
      const scope = await scopeOf(db, authOf(req));
      const [[ev], outcomes, names] = await Promise.all([
        // Live or archived; the live row first (a match the feed brought back after it was archived).
        db.select().from(fe).where(eq(fe.eventId, eventId)).orderBy(asc(fe.archived)).limit(1),
        outcomesOf(db, scope, [eventId]),
        // Market and selection names as the bettors saw them (any one line of each selection).
        db
          .selectDistinctOn([orderLines.marketKey, orderLines.outcomeId], {
            marketKey: orderLines.marketKey, outcomeId: orderLines.outcomeId, marketName: orderLines.marketName, selectionName: orderLines.selectionName,
          })
          .from(orderLines)
          .where(eq(orderLines.eventId, eventId))
          .orderBy(orderLines.marketKey, orderLines.outcomeId),
      ]);
      if (!ev && !outcomes.length) throw notFound();
      const nameOf = new Map(names.map((n) => [`${n.marketKey}\u0000${n.outcomeId}`, n]));
      type MarketFigures = { market_key: string; market_name: string; orders: number; stake: number; settled_stake: number; payouts: number; max_liability: number };
      const markets = new Map<string, MarketFigures & { outcomes: z.infer<typeof outcomeFigures>[] }>();
      const totals = { orders: 0, turnover: 0, settled_stake: 0, open_stakes: 0, payouts: 0, ggr: 0, liability: 0, max_liability: 0 };
      for (const o of outcomes) {
        const n = nameOf.get(`${o.marketKey}\u0000${o.outcomeId}`);
        let m = markets.get(o.marketKey);
        if (!m) {
          m = { market_key: o.marketKey, market_name: n?.marketName ?? '', orders: 0, stake: 0, settled_stake: 0, payouts: 0, max_liability: 0, outcomes: [] };
          markets.set(o.marketKey, m);
        }
        const row = {
          outcome_id: o.outcomeId, selection_name: n?.selectionName ?? '', orders: num(o.orders), stake: num(o.stake), settled_stake: num(o.settledStake),
          liability: num(o.liability), payouts: num(o.payouts),
        };
        m.outcomes.push(row);
        m.orders += row.orders;
        m.stake += row.stake;
        m.settled_stake += row.settled_stake;
        m.payouts += row.payouts;
        m.max_liability = Math.max(m.max_liability, row.liability);
        totals.orders += row.orders;
        totals.turnover += row.stake;
        totals.settled_stake += row.settled_stake;
        totals.payouts += row.payouts;
        totals.liability += row.liability;
        totals.max_liability = Math.max(totals.max_liability, row.liability);
      }
      totals.ggr = totals.settled_stake - totals.payouts;
      totals.open_stakes = totals.turnover - totals.settled_stake;
      return {
        event: ev
          ? {
              event_id: ev.eventId, sport_id: ev.sportId, league_name: ev.leagueName, home_team: ev.homeTeam, away_team: ev.awayTeam,
              start_time: ev.startTime.toISOString(), match_status: ev.matchStatus, event_status: ev.eventStatus,
            }
          : { event_id: eventId, sport_id: null, league_name: '', home_team: '', away_team: '', start_time: null, match_status: null, event_status: null },
        totals,
        markets: [...markets.values()].map((m) => ({ ...m, open_stakes: m.stake - m.settled_stake, ggr: m.settled_stake - m.payouts })),
      };
    },
  );
}
