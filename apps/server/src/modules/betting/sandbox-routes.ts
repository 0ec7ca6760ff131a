import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, eq } from 'drizzle-orm';
import { ACCOUNT_KIND, BETTING_OFFER_STATUS, BILL_TYPE, EVENT_STATUS, ORDER_TYPE, SPORT } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { scopeOf } from '../../platform/listing.js';
import { badRequest, conflict } from '../../platform/errors.js';
import type { Executor } from '../../platform/db.js';
import { HOUSE, newSandboxBettor, post } from '../money/index.js';
import { feedOutcomes } from '../feed/index.js';
import { FB, marketKey, PRODUCER, type FeedEngine } from '../feed/index.js';
import { placeOrder } from './placement.js';

const body = z.strictObject({
  /** Stake in cents (default TSh 1,000). */
  stake: z.number().int().positive().max(100_000_000).default(1_000_00),
  /** Number of legs, each on a match of its own (default 1: a single). */
  legs: z.number().int().min(1).max(5).default(1),
  /** Cash the new bettor starts with, in cents (default TSh 50,000). */
  cash: z.number().int().positive().max(1_000_000_000).default(50_000_00),
  /** The new bettor registers with this invitation code (a bettor of the caller's scope invited them; issue 29). */
  invitation_code: z.string().trim().regex(/^[A-Za-z0-9]{4,16}$/).optional(),
});

const orderAnswer = z.object({
  id: z.number(), order_no: z.string(), serial_number: z.string(), bettor_id: z.number(), phone: z.string(),
  stake: z.number(), potential_payout: z.number(), event_ids: z.array(z.string()), inviter_id: z.number().nullable(),
});

let seq = 0;


/**
 * SANDBOX ONLY (registered when DAU_SANDBOX_ROUTES=1, never by default): creates an open order on demand
 * for demos and browser tests. Each leg gets a match of its own, ingested through the feed engine exactly
 * as a provider message would be (a fixture starting in two hours and a 1X2 market); a new bettor of the
 * calling admin's branch is funded through the ledger (a recharge bill, so the books stay balanced); the
 * order is then placed by the placement service (type admin bet), with every rule of a real bet. Needs the
 * random bet button of the order list: it places money on a bettor's account.
 */
export function bettingSandboxRoutes(app: FastifyInstance, { db, bus }: AppContext, feed: FeedEngine) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v1/sandbox/betting/orders',
    {
      config: { access: { page: 'order_list', button: 'random_bet' } },
      schema: {
        tags: ['sandbox'], summary: 'Create an open order for a new bettor of the caller\'s own branch (sandbox only)',
        description: 'Creates matches, a funded bettor and an open order on them (sandbox only).', body, response: { 201: orderAnswer },
      },
    },
    async (req, reply) => {
      const admin = authOf(req).admin;
      const now = Date.now();
      seq += 1;
      const tag = `${now.toString(36)}${seq}`;
      const prices = ['1.85', '2.10', '1.60', '2.40', '1.95'];
      const legs = [];
      for (let i = 0; i < req.body.legs; i++) {
        const eventId = `sr:match:sbx${tag}${i}`;
        const messages = [
          {
            type: 'fixture_change', producer: PRODUCER.prematch, timestamp: now, event_id: eventId, sport_id: SPORT.football,
            league_id: 'sbx-league', league_name: 'Sandbox League', home_team: `Home ${tag}-${i + 1}`, away_team: `Away ${tag}-${i + 1}`,
            start_time: now + 2 * 3_600_000, status: EVENT_STATUS.not_started,
          },
          {
            type: 'odds_change', producer: PRODUCER.prematch, timestamp: now + 1, event_id: eventId, event_status: EVENT_STATUS.not_started,
            markets: [
              {
                id: FB.oneXtwo, status: BETTING_OFFER_STATUS.bettable,
                outcomes: [{ id: '1', price: prices[i], active: true }, { id: '2', price: '3.40', active: true }, { id: '3', price: '3.90', active: true }],
              },
            ],
          },
        ];
        for (const m of messages) {
          const res = await feed.ingest(m);
          if (!res.ok) throw badRequest('PARAM_INVALID', [{ field: 'message', message: res.error }]);
        }
        // The price bettors see carries the operator's margin: the slip takes the stored one.
        const key = marketKey(FB.oneXtwo);
        const [sel] = await db
          .select({ price: feedOutcomes.price })
          .from(feedOutcomes)
          .where(and(eq(feedOutcomes.eventId, eventId), eq(feedOutcomes.marketKey, key), eq(feedOutcomes.outcomeId, '1')));
        legs.push({ eventId, marketKey: key, outcomeId: '1', odds: sel?.price ?? prices[i] });
      }

      const bettor = await db.transaction(async (tx) => {
        const invite = req.body.invitation_code ? { code: req.body.invitation_code, scope: await scopeOf(tx, authOf(req)) } : undefined;
        const b = await newSandboxBettor(tx, admin.id, tag, invite);
        await post(tx, {
          bettorId: b.id, account: ACCOUNT_KIND.cash, amount: req.body.cash, type: BILL_TYPE.user_recharge,
          cause: { type: 'recharge', id: `sandbox-${b.id}` }, house: HOUSE.clearing(6), remark: { kind: 'sandbox_funding' },
        });
        return b;
      });
      const order = await placeOrder(db, { bettorId: bettor.id, type: ORDER_TYPE.admin_bet, stakeCents: req.body.stake, legs, adminId: admin.id, skipLiveDelay: true, note: 'sandbox' }, { bus });
      return reply.status(201).send({
        id: order.id, order_no: order.orderNo, serial_number: order.serialNumber, bettor_id: bettor.id, phone: bettor.phone,
        stake: order.stake, potential_payout: order.potentialPayout, event_ids: legs.map((l) => l.eventId), inviter_id: bettor.inviterId,
      });
    },
  );
}
