import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { defineList, isoDate, optionalInt, optionalText, registerList } from '../../platform/listing.js';
import { answerRow, text } from '@dau/contract';
import { AppError, conflict, notFound, tooMany } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import { LOG_TYPE } from '@dau/domain';
import { bettingTypes } from '../sports/index.js';
import { marketName, selectionName } from './names.js';
import { isMarketOpen, type FeedEngine, type FeedStore } from './engine.js';
import { feedEvents, feedProducers } from './schema.js';
import { RecoveryRefused } from './uof/client.js';
import { UofApiError } from './uof/api.js';
import { archivedMarkets, feedEventsAll } from './archive.js';

const iso = (ms: number) => new Date(ms).toISOString();
/** At most this many league choices (a feed covers a few hundred competitions). */
const LEAGUE_OPTIONS_MAX = 2000;

/** A row of the match list. */
const matchRow = answerRow({
  id: 'number', event_id: 'string', sport_id: 'number', league_id: 'string?', league_name: 'string?', home_team: 'string?', away_team: 'string?',
  start_time: 'string', event_status: 'number', match_status: 'number', is_visible: 'boolean', is_suspended: 'boolean', is_maintain: 'boolean',
  live_delay_seconds: 'number', random_bet: 'boolean', popularity: 'number', sequence: 'number', cancel_reason: 'string?', object_version: 'number',
  updated_at: 'string',
});

const price = z.union([z.string(), z.number()]).nullable();
/** GET /sports/matches/:id/odds: a match's markets and selections as the odds drawer shows them. */
const oddsAnswer = z.object({
  event_id: z.string(), home_team: z.string().nullable(), away_team: z.string().nullable(), event_status: z.number(),
  markets: z.array(
    answerRow({ key: 'string', type_id: 'number', type_name: 'string', specifiers: 'string', is_over_under: 'boolean', type_flag: 'number', status: 'number', suspended: 'boolean', count: 'number' })
      .extend({
        suspended_by: z.object({ operator: z.boolean().nullable().optional(), bet_stop: z.boolean().nullable().optional(), producer: z.boolean().nullable().optional() }),
        selections: z.array(
          answerRow({ id: 'string', name: 'string', label: 'string', visible: 'boolean', suspended: 'boolean', suspended_by_operator: 'boolean', bet_status: 'number', updated_at: 'string?' })
            .extend({ outcome: z.number().nullable().optional(), outcome_status: z.number().nullable().optional(), price, original_price: price.optional() }),
        ),
      }),
  ),
});
const errorCounts = z.object({ data_error: z.number(), unknown_type: z.number() });
/** GET /sports/receiving_statistics: what each producer of the feed delivered. */
const receivingAnswer = z.object({
  items: z.array(
    answerRow({
      producer: 'number', alive: 'boolean', last_message_at: 'string?', last_alive_at: 'string?', duplicates: 'number',
      out_of_order: 'number', downs: 'number', recoveries: 'number', selection_updates: 'number', last_error: 'string?',
      name: 'string', description: 'string', last_processed_at: 'string?',
    }).extend({
      errors: errorCounts,
      messages: z.record(z.string(), z.number()).describe('Messages received, by message type'),
      state: z.enum(['up', 'down', 'recovering']).describe('As the feed client last saw it (durable, every process reads it)'),
      recovery: z
        .object({ request_id: z.number(), since: z.string(), after: z.string().nullable().describe('Recovering the messages since this time; null: a full recovery') })
        .nullable(),
    }),
  ),
  unattributed_errors: errorCounts,
  events: z.number(),
});

/**
 * The match list (spec §3 match_list): the events the feed keeps, with the operator's flags, live and
 * archived (`feed_events_all`, ./archive.ts: its default order merges the two tables' indexes).
 */
export const matchListSpec = defineList({
  name: 'match_list',
  page: 'match_list',
  path: '/api/v1/sports/matches',
  filters: z.object({
    sport_id: optionalInt,
    league_id: optionalText,
    /** Start time from (inclusive) / to (exclusive). */
    date_from: isoDate,
    date_to: isoDate,
    event_status: optionalInt,
    /** The operator-facing match status (spec §4: 1 not started ... 8 abandoned). */
    match_status: optionalInt,
    is_visible: z.enum(['true', 'false']).optional(),
  }),
  where: (q) => {
    const e = feedEventsAll;
    const c: SQL[] = [];
    if (q.sport_id !== undefined) c.push(eq(e.sportId, q.sport_id));
    if (q.league_id) c.push(eq(e.leagueId, q.league_id));
    if (q.date_from) c.push(gte(e.startTime, new Date(q.date_from)));
    if (q.date_to) c.push(lt(e.startTime, new Date(q.date_to)));
    if (q.event_status !== undefined) c.push(eq(e.eventStatus, q.event_status));
    if (q.match_status !== undefined) c.push(eq(e.matchStatus, q.match_status));
    if (q.is_visible) c.push(eq(e.isVisible, q.is_visible === 'true'));
    return c.length ? and(...c) : undefined;
  },
  select: (ex) => ex.select().from(feedEventsAll),
  idColumn: feedEventsAll.id,
  // The listing layer orders by one key (plus the id): the default stays the start time. Popularity and
  // sequence are sortable columns of their own.
  sortable: { id: feedEventsAll.id, start_time: feedEventsAll.startTime, popularity: feedEventsAll.popularity, sequence: feedEventsAll.sequence },
  defaultSort: 'start_time',
  row: matchRow,
  toRow: (r: typeof feedEvents.$inferSelect) => ({
    id: r.id,
    event_id: r.eventId,
    sport_id: r.sportId,
    league_id: r.leagueId,
    league_name: r.leagueName,
    home_team: r.homeTeam,
    away_team: r.awayTeam,
    start_time: r.startTime.toISOString(),
    event_status: r.eventStatus,
    match_status: r.matchStatus,
    is_visible: r.isVisible,
    is_suspended: r.isSuspended,
    is_maintain: r.isMaintain,
    live_delay_seconds: r.liveDelaySeconds,
    random_bet: r.randomBet,
    popularity: r.popularity,
    sequence: r.sequence,
    cancel_reason: r.cancelReason,
    object_version: r.objectVersion,
    updated_at: r.updatedAt.toISOString(),
  }),
  columns: [
    { key: 'event_id' }, { key: 'sport_id' }, { key: 'league_name' }, { key: 'home_team' }, { key: 'away_team' }, { key: 'start_time' },
    { key: 'event_status' }, { key: 'match_status' }, { key: 'is_visible' }, { key: 'is_suspended' }, { key: 'popularity' }, { key: 'sequence' },
  ],
});

/**
 * The match list, a match's odds and the feed's receiving statistics (issue 4). `store` is the engine's
 * store (PgFeedStore on the app database): the odds view reads what the engine wrote.
 */
export function feedRoutes(app: FastifyInstance, ctx: AppContext, engine: FeedEngine, store: FeedStore) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerList(app, db, matchListSpec);

  // The leagues the feed has sent, for the match list's league filter (league ids are the provider's text ids).
  // Those of the live matches: the archive only grows, and a league of archived matches is still a filter.
  r.get(
    '/api/v1/sports/matches/leagues',
    {
      config: { access: { page: 'match_list' } },
      schema: {
        tags: ['match_list'], summary: 'Leagues of the feed\'s matches, for the league filter', description: 'Distinct leagues of the feed\'s matches, optionally of one sport.',
        querystring: z.object({ sport_id: optionalInt }),
        response: { 200: z.object({ items: z.array(answerRow({ sport_id: 'number', league_id: 'string?', league_name: 'string?' })) }) },
      },
    },
    async (req) => {
      const sportId = req.query.sport_id;
      const rows = await db
        .selectDistinct({ sportId: feedEvents.sportId, leagueId: feedEvents.leagueId, leagueName: feedEvents.leagueName })
        .from(feedEvents)
        .where(sportId === undefined ? undefined : eq(feedEvents.sportId, sportId))
        .orderBy(asc(feedEvents.sportId), asc(feedEvents.leagueName), asc(feedEvents.leagueId))
        .limit(LEAGUE_OPTIONS_MAX);
      // One choice per league even when its events carry different spellings of its name.
      const seen = new Set<string>();
      const items = rows
        .filter((l) => !seen.has(`${l.sportId}|${l.leagueId}`) && seen.add(`${l.sportId}|${l.leagueId}`))
        .map((l) => ({ sport_id: l.sportId, league_id: l.leagueId, league_name: l.leagueName }));
      return { items };
    },
  );

  r.get(
    '/api/v1/sports/matches/:id/odds',
    {
      config: { access: { page: 'match_list' } },
      schema: { tags: ['match_list'], summary: 'A match\'s markets and selections with their prices', params: z.object({ id: text(64).min(1) }), response: { 200: oddsAnswer } },
    },
    async (req) => {
      // Live or archived; the live row first (a match the feed brought back after it was archived).
      const [ev] = await db.select().from(feedEventsAll).where(eq(feedEventsAll.eventId, req.params.id)).orderBy(asc(feedEventsAll.archived)).limit(1);
      if (!ev) throw notFound();
      const markets = (ev.archived ? await archivedMarkets(db, ev.eventId) : await store.getMarkets(ev.eventId)).sort((a, b) => a.typeId - b.typeId || a.specifiers.localeCompare(b.specifiers));
      const typeIds = [...new Set(markets.map((m) => m.typeId))];
      const types = typeIds.length
        ? await db
            .select({ id: bettingTypes.providerId, name: bettingTypes.name, isOverUnder: bettingTypes.isOverUnder, typeFlag: bettingTypes.typeFlag })
            .from(bettingTypes)
            .where(inArray(bettingTypes.providerId, typeIds))
        : [];
      const byId = new Map(types.map((t) => [t.id, t]));
      const matchClosed = ev.isSuspended || ev.isMaintain || ev.cancelReason !== '';
      return {
        event_id: ev.eventId,
        home_team: ev.homeTeam,
        away_team: ev.awayTeam,
        event_status: ev.eventStatus,
        markets: markets.map((m) => {
          const t = byId.get(m.typeId);
          // A match the operator closed (suspended, in maintenance, cancelled) closes every market of it.
          const suspended = !isMarketOpen(m) || matchClosed;
          const outcomes = Object.values(m.outcomes).sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
          return {
            key: m.key,
            type_id: m.typeId,
            type_name: marketName(m.typeId, t?.name),
            specifiers: m.specifiers,
            // Without a catalogue row, a market with a total line is an over/under one.
            is_over_under: t ? Boolean(t.isOverUnder) : /(^|\|)total=/.test(m.specifiers),
            type_flag: t?.typeFlag ?? 0,
            status: m.status,
            suspended,
            suspended_by: { operator: m.suspendedByOperator, bet_stop: m.suspendedByBetStop, producer: m.suspendedByProducer },
            count: outcomes.length,
            selections: outcomes.map((o) => ({
              id: `${m.key}|${o.id}`,
              name: o.id,
              label: selectionName(o.id, { home: ev.homeTeam, away: ev.awayTeam, specifiers: m.specifiers, typeId: m.typeId }),
              outcome: o.selectionOutcome,
              visible: o.active,
              suspended: suspended || !o.active || (o.suspendedByOperator ?? false),
              /** The operator's own suspension of this selection (what the console's suspend / resume toggles). */
              suspended_by_operator: o.suspendedByOperator ?? false,
              bet_status: m.status,
              outcome_status: o.outcomeStatus,
              price: o.price,
              original_price: o.originalPrice,
              updated_at: iso(o.updatedTs),
            })),
          };
        }),
      };
    },
  );

  r.get(
    '/api/v1/sports/receiving_statistics',
    {
      config: { access: { page: 'receiving_statistics' } },
      schema: { tags: ['receiving_statistics'], summary: 'What each feed producer delivered: messages, duplicates, errors', response: { 200: receivingAnswer } },
    },
    async () => {
      // The producers as the feed client keeps them (every process reads the same rows) with the counts of
      // this process's engine (the process that consumes the feed has them; others show zeros).
      const rows = await db.select().from(feedProducers).orderBy(asc(feedProducers.producer));
      const stats = new Map(engine.stats().map((s) => [s.producer, s]));
      const ids = [...new Set([...rows.map((r) => r.producer), ...stats.keys()])].sort((a, b) => a - b);
      const zero = { messages: {}, duplicates: 0, outOfOrder: 0, downs: 0, recoveries: 0, selectionUpdates: 0, errors: { dataError: 0, unknownType: 0 }, lastError: null };
      return {
      items: ids.map((id) => {
        const row = rows.find((r) => r.producer === id);
        const s = stats.get(id);
        const c = s ?? zero;
        const state = row?.state ?? (s?.alive ? 'up' : 'down');
        return {
          producer: id,
          name: row?.name ?? '',
          description: row?.description ?? '',
          state,
          alive: state === 'up',
          last_message_at: s?.lastMessageAt != null ? iso(s.lastMessageAt) : row?.lastMessageAt?.toISOString() ?? null,
          last_alive_at: s?.lastAliveAt != null ? iso(s.lastAliveAt) : row?.lastAliveAt?.toISOString() ?? null,
          last_processed_at: row?.lastProcessedTs != null ? iso(row.lastProcessedTs) : null,
          recovery:
            row?.state === 'recovering' && row.recoveryRequestId !== null
              ? { request_id: row.recoveryRequestId, since: (row.recoverySince ?? row.updatedAt).toISOString(), after: row.recoveryAfterTs !== null ? iso(row.recoveryAfterTs) : null }
              : null,
          messages: c.messages,
          duplicates: c.duplicates,
          out_of_order: c.outOfOrder,
          downs: c.downs,
          recoveries: c.recoveries,
          selection_updates: c.selectionUpdates,
          errors: { data_error: c.errors.dataError, unknown_type: c.errors.unknownType },
          last_error: c.lastError,
        };
      }),
      unattributed_errors: { data_error: engine.unattributedErrors.dataError, unknown_type: engine.unattributedErrors.unknownType },
      events: Number(((await db.execute(sql`select count(*)::bigint as n from feed_events`)) as unknown as { rows: { n: string }[] }).rows[0].n),
      };
    },
  );

  // The operator's recoveries (issue 27): the producers and the matches are the whole book's.
  const recovery = () => {
    if (!engine.operatorRecovery) throw conflict('FEED_NOT_CONNECTED');
    return engine.operatorRecovery;
  };
  const refused = (err: unknown): never => {
    if (err instanceof RecoveryRefused) {
      if (err.code === 'RECOVERY_IN_PROGRESS') throw conflict('RECOVERY_IN_PROGRESS');
      if (err.code === 'RECOVERY_TOO_SOON') throw tooMany('RECOVERY_TOO_SOON', { seconds: Math.max(1, Math.ceil(err.retryInMs / 1000)) });
      throw notFound();
    }
    if (err instanceof UofApiError) throw new AppError(502, 'FEED_REFUSED', { reason: err.message });
    throw err;
  };
  r.post(
    '/api/v1/sports/producers/:producer/recovery',
    {
      config: { access: { page: 'receiving_statistics', button: 'recover', duty: { ring: 'book', setting: 'feed_recovery' } } },
      schema: {
        tags: ['receiving_statistics'],
        summary: 'Ask a producer of the feed for a recovery now',
        description:
          'UOF recovery: the producer is marked down (its markets suspended) and asked for the messages since the last one processed (a full recovery when that is older than its window); it is up again on the snapshot_complete of this request. 409 RECOVERY_IN_PROGRESS, 429 RECOVERY_TOO_SOON (the API limits requests), 409 FEED_NOT_CONNECTED (the feed is consumed by another process, or not yet connected).',
        params: z.object({ producer: z.coerce.number().int().positive() }),
        response: { 202: z.object({ request_id: z.number(), after: z.string().nullable() }) },
      },
    },
    async (req, reply) => {
      const res = await recovery().producer(req.params.producer).catch(refused);
      await writeAudit(db, req, { type: LOG_TYPE.ordinary, content: `feed producer ${req.params.producer}: recovery ${res.requestId} asked` });
      return reply.status(202).send({ request_id: res.requestId, after: res.after === null ? null : iso(res.after) });
    },
  );
  r.post(
    '/api/v1/sports/matches/:eventId/recovery',
    {
      config: { access: { page: 'match_list', button: 'recover', duty: { ring: 'book', setting: 'match_list' } } },
      schema: {
        tags: ['match_list'],
        summary: "Ask the feed for a match's current odds again",
        description: "UOF event recovery (`/v1/{product}/odds/events/{urn}/initiate_request`) from each producer: the match's fixture and odds arrive on the feed again. 404 for a match the feed does not know.",
        params: z.object({ eventId: z.string().min(1).max(64) }),
        response: { 202: z.object({ request_id: z.number() }) },
      },
    },
    async (req, reply) => {
      const [row] = await db.select({ eventId: feedEvents.eventId }).from(feedEvents).where(eq(feedEvents.eventId, req.params.eventId));
      if (!row) throw notFound();
      const res = await recovery().event(row.eventId).catch(refused);
      await writeAudit(db, req, { type: LOG_TYPE.ordinary, content: `match ${row.eventId}: odds recovery ${res.requestId} asked` });
      return reply.status(202).send({ request_id: res.requestId });
    },
  );
}
