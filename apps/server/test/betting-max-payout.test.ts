/**
 * A bet's potential payout is bounded: by bet_config's maximum payout (seeded at TSh 100,000,000), and,
 * when an operator removes that maximum (0), by what a safe integer of cents can hold (2^53). Both are
 * refused with 422 and a message, never thrown inside the payout arithmetic.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BETTING_OFFER_STATUS, EVENT_STATUS, message, ORDER_TYPE, SPORT } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { placeOrder, type SlipSelection } from '../src/modules/betting/placement';
import { orders } from '../src/modules/betting/schema';
import { admins } from '../src/platform/schema';
import { approved, ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';

let t: TestApp;
let token: string;
let bettorId: number;
let clock = Date.now();

const ev = (n: number) => `sr:match:payout${n}`;
const pick = (n: number): SlipSelection => ({ eventId: ev(n), marketKey: '1|', outcomeId: '1', odds: '900' });

async function send(m: FeedMessageInput) {
  expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
}

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  bettorId = (await makeBettor(t, root.id, { cash: 10_000_000 })).id;
  expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  // Six matches whose home win is priced 900: six legs combine to 900^6 = 5.3 x 10^17.
  for (let n = 1; n <= 6; n++) {
    await send({
      type: 'fixture_change', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: ev(n), sport_id: SPORT.football,
      league_id: 'sr:tournament:payout', league_name: 'Payout League', home_team: `Home ${n}`, away_team: `Away ${n}`,
      start_time: Date.now() + 3_600_000, status: EVENT_STATUS.not_started,
    });
    await send({
      type: 'odds_change', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: ev(n), event_status: EVENT_STATUS.not_started,
      markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '1', price: '900', active: true }, { id: '2', price: '1.01', active: true }] }],
    });
  }
  // No odds limit, so the payout rules are the ones that speak.
  expect((await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body: { max_odds: 0 } })).status).toBe(200);
});
afterAll(() => t?.close());
// Cases change the maximum: each leaves the default (TSh 100,000,000) for the next, in whatever order they run.
afterEach(async () => {
  expect((await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body: { max_payout: 10_000_000_000 } })).status).toBe(200);
});

const place = (legs: number, stakeCents: number) =>
  placeOrder(t.database.db, { bettorId, type: ORDER_TYPE.user_bet, stakeCents, legs: Array.from({ length: legs }, (_, i) => pick(i + 1)), skipLiveDelay: true }).then(
    () => null,
    (e: { status?: number; code?: string; params?: Record<string, string> }) => e,
  );

describe('maximum payout', () => {
  it('has a default of TSh 100,000,000 in bet_config and refuses a bet above it with 422', async () => {
    const cfg = await t.call('GET', '/api/v1/betting/bet_config', { token });
    expect(cfg.body.max_payout).toBe(10_000_000_000);
    // 1,000.00 x 900^3 = 72,900,000,000.00: above the default maximum.
    const err = await place(3, 100_000);
    expect(err).toMatchObject({ status: 422, code: 'BET_PAYOUT_TOO_HIGH', params: { max: '100,000,000.00' } });
  });

  it('refuses a payout beyond 2^53 cents with 422 when the maximum is removed, and places nothing', async () => {
    expect((await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body: { max_payout: 0 } })).status).toBe(200);
    // 1,000.00 x 900^6 = 5.3 x 10^22 cents.
    const err = await place(6, 100_000);
    expect(err).toMatchObject({ status: 422, code: 'BET_PAYOUT_OUT_OF_RANGE' });
    expect(message('BET_PAYOUT_OUT_OF_RANGE', 'en-US')).toMatch(/Lower the stake/);
    expect(await t.database.db.select({ id: orders.id }).from(orders)).toEqual([]);
    // Within range, the same settings place the bet: 1,000.00 x 900^2 = 810,000,000.00.
    expect(await place(2, 100_000)).toBeNull();
  });

  it('keeps the maximum editable within a safe amount of cents', async () => {
    const bad = await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body: { max_payout: 2 ** 53 + 2 } });
    expect(bad.status).toBe(400);
    const ok = await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body: { max_payout: 5_000_000_000 } });
    expect(ok.body.max_payout).toBe(5_000_000_000);
  });
});
