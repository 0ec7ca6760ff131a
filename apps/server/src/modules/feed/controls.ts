/**
 * Operator controls of the match list (issue 4, spec §3 match_list): each one a button permission of
 * `match_list`, each one a transaction that changes the row and writes its audit row (type ordinary,
 * before / after of the changed fields) together, each answering the updated row.
 *
 * The match's own flags (visibility, suspension, delay, random betting, ranking, maintenance, cancel)
 * are operator columns of feed_events that the feed never writes. Market and outcome suspensions go
 * through the engine (`setOperatorSuspensionByKey`): a flag of their own that odds changes, bet stops
 * and producer recovery leave alone, so the rules stay in one place.
 *
 * They act on live matches only: a match moved to the archive (./archive.ts) answers 409 MATCH_ARCHIVED.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { EVENT_STATUS, LOG_TYPE, MATCH_STATUS, SPORT } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { writeAudit } from '../../platform/audit.js';
import { authOf } from '../../platform/access.js';
import { conflict, notFound } from '../../platform/errors.js';
import { eachRow } from '../../platform/bulk.js';
import { leagues, priceMargins, saveMargin, type PriceMargin } from '../sports/index.js';
import type { FeedEngine, StoredMarket } from './engine.js';
import type { PgFeedStore } from './pg-store.js';
import { matchListSpec } from './routes.js';
import { answerRow, bulkAnswer, bulkMarketsBody, text } from '@dau/contract';
import { feedEvents } from './schema.js';
import { notLive } from './archive.js';

type EventRow = typeof feedEvents.$inferSelect;
type EventPatch = Partial<Pick<EventRow, 'isVisible' | 'isSuspended' | 'liveDelaySeconds' | 'randomBet' | 'popularity' | 'sequence' | 'isMaintain' | 'cancelReason' | 'matchStatus'>>;

const idParams = z.object({ id: text(64).min(1) });
const marketParams = idParams.extend({ market_key: text(200).min(1) });
const outcomeParams = marketParams.extend({ outcome_id: text(64).min(1) });
/** A match as the match list shows it (the changed row). */
const matchAnswer = matchListSpec.row!;
/** A market after an operator's suspension. */
const marketAnswer = z.object({
  event_id: z.string(), key: z.string(), type_id: z.number(), specifiers: z.string(), status: z.number(),
  suspended_by: z.object({ operator: z.boolean().nullable().optional(), bet_stop: z.boolean().nullable().optional(), producer: z.boolean().nullable().optional() }),
  selections: z.array(answerRow({ id: 'string', name: 'string', active: 'boolean', suspended_by_operator: 'boolean' }).extend({ price: z.string().nullable() })),
});
const marginAnswer = answerRow({ id: 'number', sport_id: 'number', league_id: 'number?', margin_bps: 'number', updated_at: 'string' });
const suspensionBody = z.object({ is_suspended: z.boolean() }).strict();
/** Ranking values: a larger value ranks higher (popularity and sequence alike). */
const rank = z.number().int().min(0).max(1_000_000);

/** The API names of the event columns a control changes (for the audit's before / after). */
const API_NAME: Record<keyof EventPatch, string> = {
  isVisible: 'is_visible',
  isSuspended: 'is_suspended',
  liveDelaySeconds: 'live_delay_seconds',
  randomBet: 'random_bet',
  popularity: 'popularity',
  sequence: 'sequence',
  isMaintain: 'is_maintain',
  cancelReason: 'cancel_reason',
  matchStatus: 'match_status',
};

function pick(row: EventRow, keys: (keyof EventPatch)[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [API_NAME[k], row[k]]));
}

function marketView(m: StoredMarket) {
  return {
    event_id: m.eventId,
    key: m.key,
    type_id: m.typeId,
    specifiers: m.specifiers,
    status: m.status,
    suspended_by: { operator: m.suspendedByOperator, bet_stop: m.suspendedByBetStop, producer: m.suspendedByProducer },
    selections: Object.values(m.outcomes)
      .sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }))
      .map((o) => ({ id: `${m.key}|${o.id}`, name: o.id, active: o.active, suspended_by_operator: o.suspendedByOperator ?? false, price: o.price })),
  };
}

const marginRow = (r: PriceMargin) => ({
  id: r.id,
  sport_id: r.sportId,
  league_id: r.leagueId,
  margin_bps: r.margin,
  updated_at: r.updatedAt.toISOString(),
});

/** What cancelling a match does to the bets on it (the betting module's, wired by app.ts): the money it moves. */
export interface MatchCancelHooks {
  /** Voids the open selections of the event's orders in the caller's transaction. */
  voidOrders(tx: Executor, eventId: string, adminId: number, reason: string): Promise<CancelTotals>;
  /** The same, rolled back: what it would move. */
  preview(eventId: string, adminId: number, reason: string): Promise<CancelTotals>;
}
export interface CancelTotals {
  orders: number;
  cash: number;
  credit: number;
}

export function feedControls(app: FastifyInstance, ctx: AppContext, engine: FeedEngine, store: PgFeedStore, hooks?: MatchCancelHooks) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  // A match is every branch's: its controls are the whole book's (DESIGN "Duties").
  const button = (b: string) => ({ access: { page: 'match_list', button: b, duty: { ring: 'book' as const, setting: 'match_list' } } });

  /** Locks the event row, applies the patch, writes the audit row: one transaction. */
  async function patchEvent(
    req: FastifyRequest,
    eventId: string,
    what: string,
    patch: (row: EventRow) => EventPatch,
    after?: (tx: Executor, row: EventRow) => Promise<Record<string, unknown> | void>,
  ) {
    return store.withTx(async (tx) => {
      const [row] = await tx.select().from(feedEvents).where(eq(feedEvents.eventId, eventId)).for('update');
      if (!row) throw await notLive(tx, eventId);
      const set = patch(row);
      const keys = Object.keys(set) as (keyof EventPatch)[];
      const [updated] = await tx
        .update(feedEvents)
        .set({ ...set, objectVersion: sql`${feedEvents.objectVersion} + 1`, updatedAt: sql`now()` })
        .where(eq(feedEvents.eventId, eventId))
        .returning();
      const extra = (await after?.(tx, updated)) ?? {};
      await writeAudit(tx, req, {
        type: LOG_TYPE.ordinary,
        content: `match ${eventId}: ${what}`,
        before: pick(row, keys),
        after: { ...pick(updated, keys), ...extra },
      });
      return matchListSpec.toRow(updated);
    });
  }

  r.post(
    '/api/v1/sports/matches/:id/visibility',
    { config: button('hide'), schema: { tags: ['match_list'], summary: 'Show or hide a match', params: idParams, body: z.object({ is_visible: z.boolean() }).strict(), response: { 200: matchAnswer } } },
    (req) => patchEvent(req, req.params.id, req.body.is_visible ? 'show' : 'hide', () => ({ isVisible: req.body.is_visible })),
  );

  r.post(
    '/api/v1/sports/matches/:id/suspension',
    { config: button('suspend'), schema: { tags: ['match_list'], summary: 'Suspend or resume betting on a match', params: idParams, body: suspensionBody, response: { 200: matchAnswer } } },
    (req) => patchEvent(req, req.params.id, req.body.is_suspended ? 'suspend' : 'unsuspend', () => ({ isSuspended: req.body.is_suspended })),
  );

  async function suspendMarket(req: FastifyRequest, eventId: string, key: string, suspended: boolean, outcomeId?: string) {
    return store.withTx(async (tx) => {
      const res = await engine.setOperatorSuspensionByKey(eventId, key, suspended, outcomeId);
      if (!res) throw await notLive(tx, eventId);
      const target = outcomeId === undefined ? `market ${key}` : `selection ${key}|${outcomeId}`;
      await writeAudit(tx, req, {
        type: LOG_TYPE.ordinary,
        content: `match ${eventId}: ${suspended ? 'suspend' : 'unsuspend'} ${target}`,
        // `market`, not `market_key`: the audit trail redacts any field named like a key.
        before: { market: key, outcome_id: outcomeId, is_suspended: res.before },
        after: { market: key, outcome_id: outcomeId, is_suspended: suspended },
      });
      return marketView(res.market);
    });
  }

  r.post(
    '/api/v1/sports/matches/:id/markets/:market_key/suspension',
    { config: button('suspend'), schema: { tags: ['match_list'], summary: 'Suspend or resume a market of a match', params: marketParams, body: suspensionBody, response: { 200: marketAnswer } } },
    (req) => suspendMarket(req, req.params.id, req.params.market_key, req.body.is_suspended),
  );

  // Issue 29: markets of one match suspended or resumed together, each as the single control (its own
  // transaction and audit row); every market's outcome in the answer.
  r.post(
    '/api/v1/sports/matches/:id/markets/suspension',
    {
      config: button('suspend'),
      schema: { tags: ['match_list'], summary: 'Suspend or resume many markets of a match, each market\'s outcome answered', params: idParams, body: bulkMarketsBody, response: { 200: bulkAnswer } },
    },
    (req) =>
      eachRow(req, { db, type: LOG_TYPE.ordinary, what: `match ${req.params.id}: bulk ${req.body.is_suspended ? 'suspend' : 'unsuspend'} of markets` }, req.body.keys, async (key) => {
        await suspendMarket(req, req.params.id, key, req.body.is_suspended);
      }),
  );

  r.post(
    '/api/v1/sports/matches/:id/markets/:market_key/outcomes/:outcome_id/suspension',
    { config: button('suspend'), schema: { tags: ['match_list'], summary: 'Suspend or resume one selection of a market', params: outcomeParams, body: suspensionBody, response: { 200: marketAnswer } } },
    (req) => suspendMarket(req, req.params.id, req.params.market_key, req.body.is_suspended, req.params.outcome_id),
  );

  r.post(
    '/api/v1/sports/matches/:id/live-delay',
    { config: button('live_delay'), schema: { tags: ['match_list'], summary: 'Set the live betting delay of a match', params: idParams, body: z.object({ seconds: z.number().int().min(0).max(600) }).strict(), response: { 200: matchAnswer } } },
    (req) => patchEvent(req, req.params.id, `live delay ${req.body.seconds}s`, () => ({ liveDelaySeconds: req.body.seconds })),
  );

  r.post(
    '/api/v1/sports/matches/:id/random-bet',
    { config: button('random_bet'), schema: { tags: ['match_list'], summary: 'Allow or stop random bets on a match', params: idParams, body: z.object({ random_bet: z.boolean() }).strict(), response: { 200: matchAnswer } } },
    (req) => patchEvent(req, req.params.id, `random betting ${req.body.random_bet ? 'on' : 'off'}`, () => ({ randomBet: req.body.random_bet })),
  );

  r.post(
    '/api/v1/sports/matches/:id/ranking',
    {
      config: button('popularity'),
      schema: {
        tags: ['match_list'],
        summary: 'Rank a match (popularity and sequence)',
        description: 'Popularity and sequence of a match: a larger value ranks higher.',
        response: { 200: matchAnswer },
        params: idParams,
        body: z
          .object({ popularity: rank.optional(), sequence: rank.optional() })
          .strict()
          .refine((b) => b.popularity !== undefined || b.sequence !== undefined, { message: 'popularity or sequence required' }),
      },
    },
    (req) =>
      patchEvent(req, req.params.id, 'ranking', () => ({
        ...(req.body.popularity !== undefined ? { popularity: req.body.popularity } : {}),
        ...(req.body.sequence !== undefined ? { sequence: req.body.sequence } : {}),
      })),
  );

  r.post(
    '/api/v1/sports/matches/:id/maintenance',
    { config: button('maintain'), schema: { tags: ['match_list'], summary: 'Put a match in or out of maintenance', params: idParams, body: z.object({ is_maintain: z.boolean() }).strict(), response: { 200: matchAnswer } } },
    (req) => patchEvent(req, req.params.id, req.body.is_maintain ? 'maintenance on' : 'maintenance off', () => ({ isMaintain: req.body.is_maintain })),
  );

  r.post(
    '/api/v1/sports/matches/:id/cancel',
    {
      config: button('cancel'),
      schema: {
        tags: ['match_list'], summary: 'Cancel a match with a reason: every market suspended, its open bets voided (result 10) and refunded', params: idParams,
        body: z.object({ reason: text(500).min(1) }).strict(), response: { 200: matchAnswer },
      },
    },
    (req) =>
      patchEvent(
        req,
        req.params.id,
        `cancel: ${req.body.reason}`,
        (row) => {
          if (row.eventStatus === EVENT_STATUS.ended || row.matchStatus === MATCH_STATUS.ended || row.cancelReason !== '') throw conflict();
          return { cancelReason: req.body.reason, matchStatus: MATCH_STATUS.cancelled, isSuspended: true };
        },
        // Every market is suspended by the operator, and the bets placed on the match are voided in the
        // same transaction (the operator's result 10 stands against any later feed settlement).
        async (tx) => ({
          suspended_markets: await engine.suspendAllMarkets(req.params.id),
          ...(hooks ? { voided: await hooks.voidOrders(tx, req.params.id, authOf(req).admin.id, req.body.reason) } : {}),
        }),
      ),
  );

  r.post(
    '/api/v1/sports/matches/:id/cancel/preview',
    {
      config: button('cancel'),
      schema: {
        tags: ['match_list'], summary: 'What cancelling the match would void and refund (nothing is changed)', params: idParams,
        body: z.object({ reason: text(500).optional() }).strict(), response: { 200: z.object({ orders: z.number(), cash: z.number(), credit: z.number() }) },
      },
    },
    async (req) => {
      const [row] = await db.select({ id: feedEvents.eventId }).from(feedEvents).where(eq(feedEvents.eventId, req.params.id));
      if (!row) throw await notLive(db, req.params.id);
      return hooks ? hooks.preview(req.params.id, authOf(req).admin.id, req.body.reason ?? '') : { orders: 0, cash: 0, credit: 0 };
    },
  );

  r.get('/api/v1/sports/margins', { config: { access: { page: 'match_list' } }, schema: { tags: ['match_list'], summary: 'The price margins per sport and league', response: { 200: z.object({ items: z.array(marginAnswer) }) } } }, async () => {
    const rows = await db.select().from(priceMargins).orderBy(asc(priceMargins.sportId), asc(priceMargins.leagueId));
    return { items: rows.map(marginRow) };
  });

  const sportIds = Object.values(SPORT) as number[];
  r.put(
    '/api/v1/sports/margins',
    {
      config: { access: { page: 'match_list', button: 'odds', duty: { ring: 'book', setting: 'margins' } } },
      schema: {
        tags: ['match_list'],
        summary: 'Set the price margin of a sport or league',
        description: 'The margin (basis points) applied to provider prices of a sport, or of one league of it.',
        response: { 200: marginAnswer },
        body: z
          .object({
            sport_id: z.number().int().refine((v) => sportIds.includes(v), { message: 'unknown sport' }),
            league_id: z.number().int().positive().nullable().optional(),
            margin_bps: z.number().int().min(0).max(3000),
          })
          .strict(),
      },
    },
    async (req) => {
      const { sport_id: sportId, margin_bps: margin } = req.body;
      const leagueId = req.body.league_id ?? null;
      const saved = await db.transaction(async (tx) => {
        if (leagueId !== null) {
          const [l] = await tx.select({ sportId: leagues.sportId }).from(leagues).where(eq(leagues.id, leagueId));
          if (!l || l.sportId !== sportId) throw notFound();
        }
        const { prev, row } = await saveMargin(tx, sportId, leagueId, margin);
        await writeAudit(tx, req, {
          type: LOG_TYPE.ordinary,
          content: `price margin sport ${sportId}${leagueId === null ? '' : ` league ${leagueId}`}: ${margin} bps`,
          before: prev ? { sport_id: sportId, league_id: leagueId, margin_bps: prev.margin } : null,
          after: { sport_id: sportId, league_id: leagueId, margin_bps: margin },
        });
        return marginRow(row);
      });
      await ctx.margins?.reload();
      return saved;
    },
  );
}
