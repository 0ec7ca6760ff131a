/**
 * GGR over settled orders (docs/architecture.md, "Statistics: GGR over what is decided": GGR = settled
 * stakes - payouts, cashouts inside payouts; NGR = GGR - bonuses; open stakes and liability apart),
 * through the real placement, settlement, rollback and cashout paths: the open stakes of the day never
 * count as revenue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ORDER_STATUS, ORDER_TYPE, SPORT } from '@dau/domain';
import { PRODUCER } from '../src/modules/feed/messages';
import { placeOrder } from '../src/modules/betting/placement';
import { acceptCashout } from '../src/modules/betting/cashout';
import { orders, statsHourly } from '../src/modules/betting/schema';
import { diffHours, rebuildHours } from '../src/modules/statistics/rebuild';
import { addDays, dayStart, localDay } from '../src/modules/statistics/figures';
import { and } from 'drizzle-orm';
import { admins } from '../src/platform/schema';
import { approved, ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';
import { feedMatches } from './support/feed-matches';

let t: TestApp;
let token: string;
let rootId: number;
const { tick, ev, send, match, pick, settle } = feedMatches(() => t, 'ggr', 'GGR League');
const home = (n: number) => pick(n, '1', '2.00');


const today = async () => {
  const r = await t.call('GET', '/api/v1/statistics/today', { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { totals: Record<string, number>; open: Record<string, number>; hours: Record<string, number>[] };
};

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  rootId = root.id;
  expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  // No withholding tax and no accumulator bonus: the figures below are plain stakes and payouts.
  expect((await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body: { tax_rate: 0, cashout_enabled: true } })).status).toBe(200);
  for (let n = 1; n <= 4; n++) await match(n);
});
afterAll(async () => {
  await t?.close();
});

describe('GGR over settled orders', () => {
  it('counts only decided orders; open stakes and liability stand apart', async () => {
    const b = await makeBettor(t, rootId, { cash: 10_000_000 });
    const place = (n: number, stake: number) =>
      placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: stake, legs: [home(n)], skipLiveDelay: true });
    // Four singles at 2.00: 1,000.00 lost, 2,000.00 won (pays 4,000.00), 3,000.00 open, 4,000.00 open.
    await place(1, 100_000);
    await place(2, 200_000);
    await place(3, 300_000);
    await place(4, 400_000);
    let s = await today();
    expect(s.totals.turnover).toBe(1_000_000);
    expect(s.totals.ggr, 'nothing settled yet: no revenue').toBe(0);
    expect(s.open).toEqual({ open_orders: 4, open_stakes: 1_000_000, open_liability: 2_000_000 });

    await send(settle(1, '2'));
    await send(settle(2, '1'));
    s = await today();
    expect(s.totals.settled).toBe(2);
    expect(s.totals.settled_stake).toBe(300_000);
    expect(s.totals.payouts).toBe(400_000);
    // Settled stakes 3,000.00 - payouts 4,000.00; the 7,000.00 still open is not kept by the house yet.
    expect(s.totals.ggr).toBe(-100_000);
    expect(s.totals.ngr).toBe(s.totals.ggr - s.totals.bonuses);
    expect(s.open).toEqual({ open_orders: 2, open_stakes: 700_000, open_liability: 1_400_000 });
    // The hours add up to the totals.
    expect(s.hours.reduce((sum, h) => sum + h.ggr, 0)).toBe(s.totals.ggr);
    expect(s.hours.reduce((sum, h) => sum + h.settled_stake, 0)).toBe(s.totals.settled_stake);

    // A rollback takes the order's stake back out of the settled stakes, with its payout.
    await send({ type: 'rollback_bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(2), markets: [{ id: 1 }] });
    s = await today();
    expect(s.totals.settled_stake).toBe(100_000);
    expect(s.totals.payouts).toBe(0);
    expect(s.totals.ggr).toBe(100_000);
    expect(s.open.open_stakes).toBe(900_000);

    // A cashout decides an order: its stake is settled, the amount paid is inside payouts.
    const [open3] = await t.database.db.select({ id: orders.id }).from(orders).where(eq(orders.stake, 300_000));
    expect(await acceptCashout(t.database.db, open3.id, 1, { delayMs: 0 })).toMatchObject({ paid: true });
    const [after3] = await t.database.db.select({ status: orders.status, cashout: orders.cashoutAmount }).from(orders).where(eq(orders.id, open3.id));
    expect(after3.status).not.toBe(ORDER_STATUS.pending);
    s = await today();
    expect(s.totals.settled_stake).toBe(400_000);
    expect(s.totals.cashouts).toBe(after3.cashout);
    expect(s.totals.ggr).toBe(400_000 - s.totals.payouts);
    expect(s.open).toEqual({ open_orders: 2, open_stakes: 600_000, open_liability: 1_200_000 });
  });

  it('rebuilds the stored hours from the orders and their events: they match; a corrupted or stray row is repaired in one go', async () => {
    const db = t.database.db;
    const from = dayStart(addDays(localDay(Date.now()), -1));
    const to = dayStart(addDays(localDay(Date.now()), 1));
    // Placement, settlement, rollback and cashout above: the deltas kept equal what the rows say.
    expect(await diffHours(db, from, to)).toEqual([]);
    const stored = await db.select().from(statsHourly);
    expect(stored.length).toBeGreaterThan(0);
    const row = stored.find((r) => r.payouts !== 0 || r.turnover !== 0)!;
    const where = and(eq(statsHourly.hour, row.hour), eq(statsHourly.agentId, row.agentId));
    await db.update(statsHourly).set({ payouts: row.payouts + 12_345, turnover: 0, settledStake: row.settledStake - 1 }).where(where);
    const strayHour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    await db.insert(statsHourly).values({ hour: strayHour, agentId: 2_147_000_001, turnover: 999, orders: 1 });
    const diff = await diffHours(db, from, to);
    expect(diff).toHaveLength(2);
    const fixed = diff.find((d) => d.agent_id === row.agentId)!;
    expect(fixed.rebuilt).toMatchObject({ payouts: row.payouts, turnover: row.turnover, settled_stake: row.settledStake });
    expect(fixed.stored).toMatchObject({ payouts: row.payouts + 12_345, turnover: 0 });
    expect(diff.find((d) => d.agent_id === 2_147_000_001)!.rebuilt.turnover).toBe(0);
    // Comparing changed nothing.
    expect((await db.select().from(statsHourly).where(where))[0].payouts).toBe(row.payouts + 12_345);

    const r = await rebuildHours(db, from, to);
    expect(r.diff).toHaveLength(2);
    expect(await diffHours(db, from, to)).toEqual([]);
    expect((await db.select().from(statsHourly).where(where))[0]).toEqual(row);
    expect(await db.select().from(statsHourly).where(eq(statsHourly.agentId, 2_147_000_001))).toEqual([]);
    const s = await today();
    expect(s.totals.settled_stake).toBe(400_000);
    expect(s.totals.turnover).toBe(1_000_000);
  });
});
