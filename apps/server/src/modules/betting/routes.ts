/**
 * The betting engine's console routes (issue 5): order lists (order_list, cs_order, order_archive,
 * cs_order_archive, bet_remind), the order detail with lines, history, bills and cashout state, result
 * changes with a preview, order cancel, random bets, and the settings screens (bet_config, pay_config,
 * string_rewards) through the resource layer. Every route is scoped to the admin's bettors.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { ABNORMAL_BET_FLAG, LOG_TYPE, ORDER_STATUS, combinedOddsDisplay, type MessageCode, type OutcomeStatus } from '@dau/domain';
import { answerRow, betConfigResource, stringRewardsResource } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { defineList, isoDate, optionalBigId, optionalInt, optionalText, registerList, scopeCondition, scopeOf, type Scope } from '../../platform/listing.js';
import { registerResource } from '../../platform/resource.js';
import { admins } from '../../platform/schema.js';
import { archiveWindow, bettors, billRow, billsOfCause, ofBettor } from '../money/index.js';
import { betConfig, orderEvents, orderLines, orders, stringRewards } from './schema.js';
import { cancelOrder, changeResults, RESULT_STATUSES, withPreview, type OrderChange } from './settlement.js';
import { activeRules, priceCashout } from './cashout.js';
import { placeRandomBets, randomBetBody } from './random-bets.js';
import { ORDERS_PUSH } from './placement.js';
import { idempotent } from '../../platform/idempotency.js';
import { PUSH_TO_ADMINS } from '../../platform/socket.js';

const orderFilters = z.object({
  id: optionalBigId,
  order_no: optionalText,
  serial_number: optionalText,
  bettor_id: optionalInt,
  phone: optionalText,
  status: optionalInt,
  type: optionalInt,
  event_id: optionalText,
  abnormal_flag: optionalInt,
  created_at_from: isoDate,
  created_at_to: isoDate,
});
type OrderFilters = z.infer<typeof orderFilters>;


type Window = 'recent' | 'archive' | 'all';

function orderWhere(window: Window, extra?: () => SQL | undefined) {
  return (q: OrderFilters, scope: Scope): SQL | undefined => {
    return and(
      archiveWindow(orders.createdAt, window, q),
      scopeCondition(scope, orders.agentId),
      q.id ? eq(orders.id, q.id) : undefined,
      q.order_no ? eq(orders.orderNo, q.order_no) : undefined,
      q.serial_number ? eq(orders.serialNumber, q.serial_number) : undefined,
      ofBettor(orders.bettorId, q),
      q.status ? eq(orders.status, q.status) : undefined,
      q.type ? eq(orders.type, q.type) : undefined,
      q.abnormal_flag ? eq(orders.abnormalFlag, q.abnormal_flag) : undefined,
      // The match's orders through the selection index (a semi-join), not a probe per order row.
      q.event_id ? sql`${orders.id} in (select l.order_id from order_lines l where l.event_id = ${q.event_id})` : undefined,
      extra?.(),
    );
  };
}

const selectOrders = (ex: Executor) =>
  ex
    .select({ order: orders, phone: bettors.phone, name: bettors.name, balance: bettors.cashBalance })
    .from(orders)
    .innerJoin(bettors, eq(bettors.id, orders.bettorId));

/** A row of the order lists (what toOrderRow builds). */
const orderRow = answerRow({
  id: 'number', order_no: 'string', serial_number: 'string', bettor_id: 'number', phone: 'string?', user_name: 'string?', balance: 'number?',
  agent_id: 'number?', type: 'number', status: 'number', amount_payable: 'number', pay_payable: 'number', virtual_pay_amount: 'number',
  total_price: 'string', potential_payout: 'number', leg_count: 'number', payout: 'number?', profit: 'number?', tax_rate: 'number',
  tax_deduction_amount: 'number?', string_rewards: 'number?', reward_amount: 'number?', early_cashout_fee: 'number?', cashout_amount: 'number?',
  inviter_reward: 'number?', currency: 'string', note: 'string?', abnormal_flag: 'number', last_match_at: 'string', create_time: 'string',
  settlement_time: 'string?', version: 'number',
});

export function toOrderRow(r: { order: typeof orders.$inferSelect; phone: string; name: string; balance: number }) {
  const o = r.order;
  return {
    id: o.id,
    order_no: o.orderNo,
    serial_number: o.serialNumber,
    bettor_id: o.bettorId,
    phone: r.phone,
    user_name: r.name,
    balance: r.balance,
    agent_id: o.agentId,
    type: o.type,
    status: o.status,
    amount_payable: o.stake,
    pay_payable: o.cashStake,
    virtual_pay_amount: o.creditStake,
    // Combined odds as bettors see them (2 decimals, rounded down); the exact product stays on the order.
    total_price: combinedOddsDisplay([o.totalOdds]),
    potential_payout: o.potentialPayout,
    leg_count: o.legCount,
    payout: o.payout,
    profit: o.profit,
    tax_rate: o.taxRate,
    tax_deduction_amount: o.taxAmount,
    string_rewards: o.bonusRate,
    reward_amount: o.bonusAmount,
    early_cashout_fee: o.earlyCashoutFee,
    cashout_amount: o.cashoutAmount,
    inviter_reward: o.inviterReward,
    currency: o.currency,
    note: o.note,
    abnormal_flag: o.abnormalFlag,
    last_match_at: o.lastMatchAt.toISOString(),
    create_time: o.createdAt.toISOString(),
    settlement_time: o.settledAt?.toISOString() ?? null,
    version: o.version,
  };
}

const COLUMNS = [
  { key: 'order_no' }, { key: 'serial_number' }, { key: 'phone' }, { key: 'user_name' }, { key: 'type', enum: 'order_type' },
  { key: 'status', enum: 'order_status' }, { key: 'amount_payable', money: true }, { key: 'pay_payable', money: true },
  { key: 'virtual_pay_amount', money: true }, { key: 'total_price' }, { key: 'payout', money: true }, { key: 'profit', money: true },
  { key: 'tax_deduction_amount', money: true }, { key: 'reward_amount', money: true }, { key: 'early_cashout_fee', money: true },
  { key: 'create_time' }, { key: 'settlement_time' },
] as const;

const anyFilter = (q: OrderFilters): MessageCode | null => (Object.values(q).some((v) => v !== undefined && v !== '') ? null : 'ORDER_FILTER_REQUIRED');
const userOrOrder = (q: OrderFilters): MessageCode | null => (q.bettor_id || q.phone || q.order_no || q.id || q.serial_number ? null : 'ORDER_USER_REQUIRED');

const orderList = (name: string, page: string, path: string, window: Window, opts: { require?: (q: OrderFilters) => MessageCode | null; extra?: () => SQL | undefined; scopeMode?: 'serving' } = {}) =>
  defineList({
    name, page, path, filters: orderFilters, require: opts.require, scopeMode: opts.scopeMode, where: orderWhere(window, opts.extra), select: selectOrders,
    idColumn: orders.id, sortable: { id: orders.id, create_time: orders.createdAt, amount_payable: orders.stake, last_match_at: orders.lastMatchAt },
    defaultSort: '-create_time', countFrom: (ex: Executor) => ex.select({ id: orders.id }).from(orders), toRow: toOrderRow, row: orderRow, columns: COLUMNS,
  });

export const ORDER_LISTS = [
  orderList('order_list', 'order_list', '/api/v1/betting/orders', 'recent', { require: anyFilter }),
  orderList('cs_order', 'cs_order', '/api/v1/betting/cs/orders', 'recent', { require: userOrOrder, scopeMode: 'serving' }),
  orderList('order_archive', 'order_archive', '/api/v1/betting/orders/archive', 'archive', { require: userOrOrder }),
  orderList('cs_order_archive', 'cs_order_archive', '/api/v1/betting/cs/orders/archive', 'archive', { require: userOrOrder, scopeMode: 'serving' }),
  // Abnormal bet alerts: open orders still without a result past a threshold after their last match time.
  orderList('bet_remind', 'bet_remind', '/api/v1/betting/reminders', 'all', {
    extra: () => and(eq(orders.status, ORDER_STATUS.pending), gt(orders.abnormalFlag, ABNORMAL_BET_FLAG.none)),
  }),
];

const idParams = z.object({ id: z.coerce.number().int().positive() });
const reason = z.string().trim().max(500).optional();
const resultBody = z
  .object({ outcome_status: z.number().int().optional(), reason, preview: z.boolean().optional() })
  .strict();

/** The order, if the admin's scope holds its bettor; 404 otherwise (no hint that it exists). */
async function scopedOrder(ex: Executor, req: FastifyRequest, id: number) {
  // Customer-service roles serve their superior's branch: scopeOf already answers that for them.
  const scope = await scopeOf(ex, authOf(req));
  const [r] = await selectOrders(ex).where(and(eq(orders.id, id), scopeCondition(scope, orders.agentId)));
  if (!r) throw notFound();
  return r;
}

function checkResult(body: { outcome_status?: number; reason?: string }): { status: OutcomeStatus; reason: string } {
  if (body.outcome_status === undefined || !RESULT_STATUSES.includes(body.outcome_status as OutcomeStatus)) throw badRequest('RESULT_REQUIRED');
  if (!body.reason) throw badRequest('REASON_REQUIRED');
  return { status: body.outcome_status as OutcomeStatus, reason: body.reason };
}

const money = answerRow({
  status: 'number', payout: 'number', tax: 'number', bonus: 'number', profit: 'number', credited_cash: 'number', credited_credit: 'number', inviter_reward: 'number',
});
/** What a result change or cancel does (or would do, with `preview`) to each order. */
const changeSchema = z.object({
  preview: z.boolean(),
  changes: z.array(
    answerRow({ order_id: 'number', order_no: 'string', bettor_id: 'number' }).extend({ before: money, after: money, balance_delta: z.object({ cash: z.number(), credit: z.number() }) }),
  ),
  totals: z.object({ orders: z.number(), cash: z.number(), credit: z.number() }),
});
const cashoutOffer = z.object({ state: z.number(), amount: z.number().nullable() });
/** An order with its selections, history, bills and cashout offer (the order detail screen). */
const detailAnswer = z.object({
  order: orderRow,
  lines: z.array(
    answerRow({
      id: 'number', match_id: 'string', market_id: 'string', market_type_id: 'number', specifiers: 'string?', market_name: 'string?', selection_id: 'string',
      selection_name: 'string?', odds: 'string', early_settlement_odds: 'string?', outcome_status: 'number', outcome: 'number', settled_by: 'string?',
      sport_id: 'number', competition_name: 'string?', teams_home_name: 'string?', teams_away_name: 'string?', fixture_date: 'string',
      fixture_timezone: 'string', event_status_at_bet: 'number', object_version: 'number', minutes_at_settlement: 'number?', settled_at: 'string?',
    }),
  ),
  history: z.array(
    answerRow({ id: 'number', kind: 'string', source: 'string', admin_id: 'number?', admin_account: 'string?', reason: 'string', created_at: 'string' })
      .extend({ before: z.unknown(), after: z.unknown() }),
  ),
  bills: z.array(billRow),
  cashout: cashoutOffer.extend({ auto_target: z.number().nullable() }).nullable(),
});
const randomBetsAnswer = z.object({
  placed: z.array(answerRow({ order_no: 'string', bettor_id: 'number', stake: 'number' })),
  refused: z.array(answerRow({ bettor_id: 'number', code: 'string' })),
});
const tickerAnswer = z.object({
  items: z.array(orderRow.extend({ legs: z.array(answerRow({ match: 'string', market: 'string?', selection: 'string?', odds: 'string', market_type_id: 'number', selection_id: 'string', specifiers: 'string' })) })),
});

const changeAnswer = (preview: boolean, changes: OrderChange[]) => ({
  preview,
  changes,
  totals: {
    orders: changes.length,
    cash: changes.reduce((a, c) => a + c.balance_delta.cash, 0),
    credit: changes.reduce((a, c) => a + c.balance_delta.credit, 0),
  },
});

export function bettingRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const spec of ORDER_LISTS) registerList(app, db, spec);

  registerResource(app, db, { def: betConfigResource, table: betConfig, singletonId: 1 });
  registerResource(app, db, { def: stringRewardsResource, table: stringRewards });

  async function detail(req: FastifyRequest, id: number) {
    const row = await scopedOrder(db, req, id);
    const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, id)).orderBy(asc(orderLines.id));
    const history = await db
      .select({ e: orderEvents, account: admins.account })
      .from(orderEvents)
      .leftJoin(admins, eq(admins.id, orderEvents.adminId))
      .where(eq(orderEvents.orderId, id))
      .orderBy(asc(orderEvents.id));
    const billRows = await billsOfCause(db, 'order', String(id), row.order.createdAt);
    const offer = row.order.status === ORDER_STATUS.pending ? await priceCashout(db, id) : null;
    const rules = await activeRules(db, [id]);
    return {
      order: toOrderRow(row),
      lines: lines.map((l) => ({
        id: l.id,
        match_id: l.eventId,
        market_id: l.marketKey,
        market_type_id: l.marketTypeId,
        specifiers: l.specifiers,
        market_name: l.marketName,
        selection_id: l.outcomeId,
        selection_name: l.selectionName,
        odds: l.odds,
        early_settlement_odds: l.cashoutOdds,
        outcome_status: l.outcomeStatus,
        outcome: l.selectionOutcome,
        settled_by: l.settledBy,
        sport_id: l.sportId,
        competition_name: l.competitionName,
        teams_home_name: l.homeTeam,
        teams_away_name: l.awayTeam,
        fixture_date: l.fixtureDate.toISOString(),
        fixture_timezone: 'Africa/Dar_es_Salaam',
        event_status_at_bet: l.eventStatusAtBet,
        object_version: l.objectVersion,
        minutes_at_settlement: l.minutesAtSettlement,
        settled_at: l.settledAt?.toISOString() ?? null,
      })),
      history: history.map(({ e, account }) => ({
        id: e.id, kind: e.kind, source: e.source, admin_id: e.adminId, admin_account: account, reason: e.reason,
        before: e.before, after: e.after, created_at: e.createdAt.toISOString(),
      })),
      bills: billRows,
      cashout: offer ? { state: offer.state, amount: offer.amount, auto_target: rules.get(id) ?? null } : null,
    };
  }

  r.get('/api/v1/betting/orders/:id', { config: { access: { page: 'order_detailed' } }, schema: { tags: ['order_detailed'], summary: 'An order in full: selections, history, bills, cashout offer', params: idParams, response: { 200: detailAnswer } } }, (req) =>
    detail(req, req.params.id),
  );
  r.get('/api/v1/betting/cs/orders/:id', { config: { access: { page: 'cs_order_detailed' } }, schema: { tags: ['cs_order_detailed'], summary: 'An order in full, for customer service', params: idParams, response: { 200: detailAnswer } } }, (req) =>
    detail(req, req.params.id),
  );

  async function auditChanges(tx: Executor, req: FastifyRequest, what: string, reasonText: string, changes: OrderChange[]) {
    await writeAudit(tx, req, {
      type: LOG_TYPE.update_balance,
      content: `${what}: ${reasonText}`,
      before: { orders: changes.map((c) => ({ order_no: c.order_no, ...c.before })) },
      after: { orders: changes.map((c) => ({ order_no: c.order_no, ...c.after })) },
    });
  }

  r.post(
    '/api/v1/betting/orders/:id/lines/:line_id/result',
    {
      config: { access: { page: 'order_detailed', button: 'change_result' } },
      schema: { tags: ['order_detailed'], summary: 'Change the result of one selection of an order', response: { 200: changeSchema }, description: 'Per-selection result change; `preview: true` answers the changes without making them.', params: idParams.extend({ line_id: z.coerce.number().int().positive() }), body: resultBody },
    },
    async (req) => {
      const { status, reason: why } = checkResult(req.body);
      await scopedOrder(db, req, req.params.id);
      const [line] = await db.select({ orderId: orderLines.orderId }).from(orderLines).where(eq(orderLines.id, req.params.line_id));
      if (!line || line.orderId !== req.params.id) throw notFound();
      const admin = authOf(req).admin.id;
      const preview = req.body.preview ?? false;
      const changes = await withPreview(db, preview, async (tx) => {
        const c = await changeResults(tx, { lineId: req.params.line_id }, status, { kind: 'result_changed', source: 'operator', adminId: admin, reason: why });
        if (!preview) await auditChanges(tx, req, `order ${req.params.id} line ${req.params.line_id} result ${status}`, why, c);
        return c;
      });
      return changeAnswer(preview, changes);
    },
  );

  r.post(
    '/api/v1/betting/matches/:event_id/result',
    {
      config: { access: { page: 'order_detailed', button: 'change_match_result', duty: { ring: 'book', setting: 'match_result' } } },
      schema: {
        tags: ['order_detailed'],
        summary: 'Change the result of a selection for every order holding it',
        response: { 200: changeSchema },
        description: "Match result change: a selection's result for every order holding it (within the admin's scope: refused when other branches' orders hold it).",
        params: z.object({ event_id: z.string().min(1).max(64) }),
        body: resultBody.extend({ market_key: z.string().min(1).max(200), outcome_id: z.string().min(1).max(64) }).strict(),
      },
    },
    async (req) => {
      const { status, reason: why } = checkResult(req.body);
      const scope = await scopeOf(db, authOf(req));
      const target = { eventId: req.params.event_id, marketKey: req.body.market_key, outcomeId: req.body.outcome_id };
      // A match result moves every order on the selection: only an admin who sees all of them may do it.
      if (!scope.all) {
        const [outside] = await db
          .select({ id: orders.id })
          .from(orderLines)
          .innerJoin(orders, eq(orders.id, orderLines.orderId))
          .where(and(eq(orderLines.eventId, target.eventId), eq(orderLines.marketKey, target.marketKey), eq(orderLines.outcomeId, target.outcomeId), sql`not (${scopeCondition(scope, orders.agentId) ?? sql`true`})`))
          .limit(1);
        if (outside) throw new AppError(403, 'FORBIDDEN');
      }
      const admin = authOf(req).admin.id;
      const preview = req.body.preview ?? false;
      const changes = await withPreview(db, preview, async (tx) => {
        const c = await changeResults(tx, target, status, { kind: 'result_changed', source: 'operator', adminId: admin, reason: why });
        if (!preview) await auditChanges(tx, req, `match ${target.eventId} ${target.marketKey}|${target.outcomeId} result ${status}`, why, c);
        return c;
      });
      return changeAnswer(preview, changes);
    },
  );

  r.post(
    '/api/v1/betting/orders/:id/cancel',
    {
      config: { access: { page: 'order_detailed', button: 'cancel' } },
      schema: {
        tags: ['order_detailed'], summary: 'Cancel an order and return its stake', params: idParams,
        body: z.object({ reason, preview: z.boolean().optional() }).strict(), response: { 200: changeSchema },
      },
    },
    async (req) => {
      if (!req.body.reason) throw badRequest('REASON_REQUIRED');
      const why = req.body.reason;
      await scopedOrder(db, req, req.params.id);
      const admin = authOf(req).admin.id;
      const preview = req.body.preview ?? false;
      const changes = await withPreview(db, preview, async (tx) => {
        const c = await cancelOrder(tx, req.params.id, { kind: 'cancelled', source: 'operator', adminId: admin, reason: why });
        const list = c ? [c] : [];
        if (!preview) await auditChanges(tx, req, `order ${req.params.id} cancelled`, why, list);
        return list;
      });
      return changeAnswer(preview, changes);
    },
  );

  r.get('/api/v1/betting/orders/:id/cashout', { config: { access: { page: 'order_detailed' } }, schema: { tags: ['order_detailed'], summary: 'The cashout offer of an open order', params: idParams, response: { 200: cashoutOffer } } }, async (req) => {
    await scopedOrder(db, req, req.params.id);
    const offer = await priceCashout(db, req.params.id);
    return { state: offer.state, amount: offer.amount };
  });

  r.post(
    '/api/v1/betting/random-bets',
    {
      config: { access: { page: 'order_list', button: 'random_bet' } },
      schema: { tags: ['order_list'], summary: 'Place random bets for chosen bettors', description: 'Random bets (spec §2) for chosen bettors: placed as order type random bet.', body: randomBetBody, response: { 200: randomBetsAnswer } },
    },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      const ids = req.body.bettor_ids;
      const inScope = await db
        .select({ id: bettors.id })
        .from(bettors)
        .where(and(inArray(bettors.id, ids), scopeCondition(scope, bettors.agentId)));
      if (inScope.length !== new Set(ids).size) throw notFound();
      const result = await idempotent(db, req, async (tx) => {
        const r = await placeRandomBets(tx, req.body, authOf(req).admin.id);
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `random bets: ${r.placed.length} placed`, before: null, after: { ...req.body, placed: r.placed.map((o) => o.order_no), refused: r.refused.length } });
        return r;
      });
      if (result.placed.length) void ctx.bus.publish(PUSH_TO_ADMINS, { adminIds: 'all', message: ORDERS_PUSH }).catch(() => {});
      return result;
    },
  );

  r.get(
    '/api/v1/betting/ticker',
    {
      config: { access: { page: 'today_statistics' } },
      schema: {
        tags: ['today_statistics'],
        summary: 'The newest orders of my branch (live bet ticker)',
        response: { 200: tickerAnswer },
        description: 'Live bet ticker: the newest orders of my branch (after `after_id` when given), newest first. A socket push of type 21 says new orders arrived.',
        querystring: z.object({ after_id: z.coerce.number().int().min(0).optional(), limit: z.coerce.number().int().min(1).max(100).default(30) }),
      },
    },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      const rows = await selectOrders(db)
        .where(and(scopeCondition(scope, orders.agentId), req.query.after_id ? gt(orders.id, req.query.after_id) : undefined))
        .orderBy(desc(orders.id))
        .limit(req.query.limit);
      const ids = rows.map((x) => x.order.id);
      const legs = ids.length
        ? await db
            .select({ orderId: orderLines.orderId, home: orderLines.homeTeam, away: orderLines.awayTeam, market: orderLines.marketName, selection: orderLines.selectionName, odds: orderLines.odds, marketTypeId: orderLines.marketTypeId, outcomeId: orderLines.outcomeId, specifiers: orderLines.specifiers })
            .from(orderLines)
            .where(inArray(orderLines.orderId, ids))
            .orderBy(asc(orderLines.id))
        : [];
      return {
        items: rows.map((x) => ({
          ...toOrderRow(x),
          legs: legs
            .filter((l) => l.orderId === x.order.id)
            .map((l) => ({ match: `${l.home} - ${l.away}`, market: l.market, selection: l.selection, odds: l.odds, market_type_id: l.marketTypeId, selection_id: l.outcomeId, specifiers: l.specifiers })),
        })),
      };
    },
  );
}
