/**
 * Tax returns (issue 30, docs/architecture.md "Reports"): a month of activity through the real services
 * (sports orders won, lost, rolled back and settled again, cashed out after the odds fell; casino rounds),
 * the month's return computed by its job, and its figures checked against the ledger to the cent: the TRA
 * withholding tax per order, per bettor and in total against the entries on `withholding_tax_payable`, the
 * Gaming Board's lines per product against the scenario's stakes and payouts. The gaming tax rates wait for
 * a second admin; a branch admin is refused; a bad month is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { ASYNC_OPERATION_STATUS, BETTING_OFFER_STATUS, EVENT_STATUS, ORDER_TYPE, SPORT, addDays, localDay } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { placeOrder, type SlipSelection } from '../src/modules/betting/placement';
import { acceptCashout } from '../src/modules/betting/cashout';
import { orders } from '../src/modules/betting/schema';
import { houseEntries } from '../src/modules/money/schema';
import { gamingTaxRates, taxDayProducts, taxDays, taxReturnOrders } from '../src/modules/reports/tax/schema';
import { computeRecentDays } from '../src/modules/reports/tax/compute';
import { asyncOperations } from '../src/modules/exports/schema';
import { monthOf, monthRange, nextMonth, previousMonth } from '../src/modules/reports/tax/month';
import { admins } from '../src/platform/schema';
import { ADMIN_PASSWORD, approved, checkerToken, createTestApp, exportFinished, makeAdmin, makeRole, until, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';
import { sandboxClient, sandboxGame, session, uid } from './casino-wallet-support';

let t: TestApp;
let token: string;
let rootId: number;
let clock = Date.now();
const tick = () => (clock += 1000);
const ev = (n: number) => `sr:match:tax${n}`;
const month = monthOf(Date.now());

async function send(m: FeedMessageInput) {
  expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  await t.betting.drain();
}
const odds = (n: number, home: string): FeedMessageInput => ({
  type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), event_status: EVENT_STATUS.not_started,
  markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: [home, '3.00', '4.00'].map((p, i) => ({ id: String(i + 1), price: p, active: true })) }],
});
async function match(n: number) {
  await send({
    type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), sport_id: SPORT.football,
    league_id: 'sr:tournament:tax', league_name: 'Tax League', home_team: `Home ${n}`, away_team: `Away ${n}`,
    start_time: Date.now() + 3_600_000, status: EVENT_STATUS.not_started,
  });
  await send(odds(n, '2.00'));
}
const home = (n: number): SlipSelection => ({ eventId: ev(n), marketKey: '1|', outcomeId: '1', odds: '2.00' });
const settleHome = (n: number, result: 0 | 1): FeedMessageInput => ({
  type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n),
  markets: [{ id: 1, outcomes: [{ id: '1', result }, { id: '2', result: result ? 0 : 1 }, { id: '3', result: 0 }] }],
});

const get = async (url: string, who = token) => t.call('GET', url, { token: who });
/** The month's return once its job has computed the run asked last. */
async function computed(m = month) {
  const asked = await t.call('POST', `/api/v1/reports/tax/returns/${m}/compute`, { token, body: {} });
  expect(asked.status, JSON.stringify(asked.body)).toBe(202);
  const run = asked.body.run as number;
  return (await until(() => get(`/api/v1/reports/tax/returns/${m}`), (r) => r.body.run === run && ['ready', 'failed'].includes(r.body.status), `the return of ${m}`)).body;
}
/** Every row of a list of the return. */
async function all(path: string, q: Record<string, string>) {
  const r = await get(`/api/v1/reports/tax/${path}?${new URLSearchParams({ month, page_size: '200', ...q })}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.items as Record<string, any>[];
}
const sum = (rows: Record<string, any>[], k: string) => rows.reduce((a, r) => a + Number(r[k]), 0);

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  rootId = root!.id;
  expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  // 10 % withholding tax on net winnings (the rate waits for the checker).
  expect((await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body: { tax_rate: 1000, cashout_enabled: true } })).status).toBe(200);
  for (let n = 1; n <= 4; n++) await match(n);
});
afterAll(async () => {
  await t?.close();
});

describe('the tax return of a month', () => {
  it('withholding tax per order, per bettor and in total equals the tax bills to the cent; the Gaming Board lines per product and their tax', async () => {
    const db = t.database.db;
    const a = await makeBettor(t, rootId, { cash: 10_000_000 });
    const b = await makeBettor(t, rootId, { cash: 10_000_000 });
    const place = async (bettorId: number, n: number, stake: number) =>
      (await placeOrder(db, { bettorId, type: ORDER_TYPE.user_bet, stakeCents: stake, legs: [home(n)], skipLiveDelay: true })) as { id: number };
    const o1 = await place(a.id, 1, 100_000); // won at 2.00: net winnings 1,000.00, tax 100.00
    const o2 = await place(a.id, 2, 50_000); // lost
    const o3 = await place(b.id, 3, 300_000); // won (tax 300.00), rolled back, settled lost: tax withheld and given back
    const o4 = await place(b.id, 4, 200_000); // cashed out after its odds fell to 1.25: taxed on what it gained
    await send(settleHome(1, 1));
    await send(settleHome(2, 0));
    await send(settleHome(3, 1));
    await send({ type: 'rollback_bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(3), markets: [{ id: 1 }] });
    await send(settleHome(3, 0));
    await send(odds(4, '1.25'));
    expect(await acceptCashout(db, o4.id, 1, { delayMs: 0 })).toMatchObject({ paid: true });
    const mine = await db.select().from(orders).where(inArray(orders.id, [o1.id, o2.id, o3.id, o4.id]));
    const order = (id: number) => mine.find((o) => o.id === id)!;
    expect(order(o1.id).taxAmount).toBe(10_000);
    expect(order(o3.id).taxAmount).toBe(0);
    const cashout = order(o4.id).cashoutAmount!;
    expect(order(o4.id).taxAmount, 'a cashout above the stake is taxed').toBe(Math.floor((cashout - 200_000) / 10));
    expect(order(o4.id).taxAmount).toBeGreaterThan(0);

    // Casino: a round lost by the house (bet 100.00, win 250.00) and one won (bet 400.00, no win).
    const c = await sandboxClient(t);
    const game = await sandboxGame(t);
    const s = await session(t, a.id, game.id);
    const round = async (bet: number, win: number) => {
      const r = uid('round');
      const betId = uid('bet');
      const base = { token: s.token, user: String(a.id), game_code: game.gameCode, round: r, currency: 'TZS' };
      expect((await c.call('transaction/bet', { ...base, request_uuid: uid('rq'), transaction_uuid: betId, amount: bet })).body.status).toBe('RS_OK');
      if (win) expect((await c.call('transaction/win', { ...base, request_uuid: uid('rq'), transaction_uuid: uid('win'), reference_transaction_uuid: betId, amount: win })).body.status).toBe('RS_OK');
    };
    await round(10_000, 25_000);
    await round(40_000, 0);

    const ret = await computed();
    expect(ret.status, ret.error).toBe('ready');

    // The tax bills: the month's entries on withholding_tax_payable, read straight from the journal.
    const { from, to } = monthRange(month);
    const [bills] = await db
      .select({ total: sql<string>`coalesce(sum(${houseEntries.amount}), 0)` })
      .from(houseEntries)
      .where(and(eq(houseEntries.account, 'withholding_tax_payable'), gte(houseEntries.createdAt, from), lt(houseEntries.createdAt, to)));
    const taxBills = Number(bills!.total);
    expect(taxBills).toBe(10_000 + order(o4.id).taxAmount);
    expect(ret.wht).toMatchObject({ total: taxBills, attributed: taxBills, unattributed: 0 });

    // Per order and per bettor: the same entries, summed two other ways, to the cent.
    const perOrder = await all('wht_orders', {});
    const perBettor = await all('wht_bettors', {});
    expect(sum(perOrder, 'tax')).toBe(taxBills);
    expect(sum(perBettor, 'tax')).toBe(taxBills);
    const row = (id: number) => perOrder.find((r) => r.ref_id === id);
    expect(row(o1.id)).toMatchObject({ product: 1, ref_no: order(o1.id).orderNo, bettor_id: a.id, tax: 10_000, withheld: 10_000, reversed: 0, movements: 1 });
    expect(row(o3.id)).toMatchObject({ bettor_id: b.id, tax: 0, withheld: 30_000, reversed: 30_000, movements: 2 });
    expect(row(o4.id)).toMatchObject({ bettor_id: b.id, tax: order(o4.id).taxAmount });
    expect(row(o2.id), 'a lost order withholds nothing').toBeUndefined();
    for (const who of [a, b]) {
      const expected = mine.filter((o) => o.bettorId === who.id).reduce((x, o) => x + o.taxAmount, 0);
      expect(perBettor.find((r) => r.bettor_id === who.id), `bettor ${who.id}`).toMatchObject({ tax: expected, phone: who.phone });
      expect(sum(await all('wht_orders', { bettor_id: String(who.id) }), 'tax')).toBe(expected);
    }

    // The Gaming Board: stakes, payouts before the tax, GGR and the gaming tax at the rate in force (25 % by default).
    const line = (p: number) => ret.products.find((x: { product: number }) => x.product === p);
    const sportsPayouts = 200_000 + cashout; // order 1's 2,000.00 and the cashout; order 3's payment was taken back
    expect(line(1)).toMatchObject({ stakes: 650_000, payouts: sportsPayouts, ggr: 650_000 - sportsPayouts, wht: taxBills, rate_bps: ret.rates.sports_bps });
    expect(line(1).gaming_tax).toBe(Math.max(0, Math.floor(((650_000 - sportsPayouts) * ret.rates.sports_bps) / 10_000)));
    expect(line(3)).toMatchObject({ stakes: 50_000, payouts: 25_000, ggr: 25_000, rate_bps: 2500, gaming_tax: 6_250, wht: 0 });
    expect(line(2)).toMatchObject({ stakes: 0, payouts: 0, ggr: 0, gaming_tax: 0 });
    expect(line(4)).toMatchObject({ stakes: 0, payouts: 0, ggr: 0, gaming_tax: 0 });
    expect(ret.totals.gaming_tax).toBe(line(1).gaming_tax + 6_250);
    expect((await all('gaming_return', {})).map((r) => r.ggr)).toEqual(ret.products.map((p: { ggr: number }) => p.ggr));

    // Computing again gives the same figures (the rows of the month are replaced, not added to).
    const again = await computed();
    expect({ wht: again.wht, products: again.products }).toEqual({ wht: ret.wht, products: ret.products });
    expect(sum(await all('wht_bettors', {}), 'tax')).toBe(taxBills);

    // The per-bettor list as a background export (CSV), row for row.
    const ex = await t.call('POST', '/api/v1/exports', { token, body: { type: 'tax_wht_bettors', format: 1, params: { month } } });
    expect(ex.status, JSON.stringify(ex.body)).toBe(202);
    const done = await exportFinished(t, ex.body.id);
    expect(done.status, done.errorMessage ?? '').toBe(ASYNC_OPERATION_STATUS.completed);
    expect(done.rowCount).toBe(perBettor.length);
  });
});

describe('a month assembled from its days', () => {
  it("keeps a day computed after its end, computes again a day that was not over, and sums the month's days", async () => {
    const db = t.database.db;
    const past = previousMonth(month);
    const [kept, redo] = [`${past}-15`, `${past}-16`];
    // Stored pieces as a run would have left them: the 15th final (its figures are the ledger's as of its
    // end, here made up so that reading them is seen), the 16th computed while it was not over.
    const a = await makeBettor(t, rootId, { cash: 0 });
    await db.insert(taxDays).values([
      { day: kept, month: past, computedAt: new Date(), final: true, whtTotal: 12_345, whtAttributed: 12_345, unattributed: 0 },
      { day: redo, month: past, computedAt: new Date(), final: false, whtTotal: 999, whtAttributed: 999, unattributed: 0 },
    ]);
    await db.insert(taxReturnOrders).values([
      { month: past, day: kept, product: 1, refId: 424242, bettorId: a.id, tax: 12_345, withheld: 12_345, reversed: 0, movements: 1, lastAt: new Date() },
      { month: past, day: redo, product: 1, refId: 434343, bettorId: a.id, tax: 999, withheld: 999, reversed: 0, movements: 1, lastAt: new Date() },
    ]);
    await db.insert(taxDayProducts).values([
      { day: kept, product: 1, stakes: 500_000, payouts: 200_000, wht: 12_345 },
      { day: redo, product: 1, stakes: 7_000, payouts: 0, wht: 999 },
    ]);

    const ret = await computed(past);
    expect(ret.status, ret.error).toBe('ready');
    expect(ret.final, 'a month computed after its end is final').toBe(true);
    // The 15th's stored figures are summed, the 16th's were replaced by the ledger's (nothing that day).
    expect(ret.wht).toMatchObject({ total: 12_345, attributed: 12_345, orders: 1, bettors: 1 });
    expect(ret.products.find((p: { product: number }) => p.product === 1)).toMatchObject({ stakes: 500_000, payouts: 200_000, ggr: 300_000, wht: 12_345 });
    const rows = await all('wht_orders', { month: past });
    expect(rows.map((r) => [r.day, r.ref_id, r.tax])).toEqual([[kept, 424242, 12_345]]);
    expect(await all('wht_orders', { month: past, day: redo })).toEqual([]);
    expect(await all('wht_bettors', { month: past })).toMatchObject([{ bettor_id: a.id, orders: 1, tax: 12_345 }]);
    const days = await db.select().from(taxDays).where(eq(taxDays.month, past));
    expect(days.length, 'every day of the month is stored').toBe(Number(monthRange(nextMonth(past)).from.getTime() - monthRange(past).from.getTime()) / 86_400_000);
    expect(days.every((d) => d.final)).toBe(true);
    expect(days.find((d) => d.day === redo)).toMatchObject({ whtTotal: 0 });
  });

  it('the hourly job computes each day of the last week that is not final, and then leaves it', async () => {
    const db = t.database.db;
    const today = localDay(Date.now());
    const week = Array.from({ length: 7 }, (_, k) => addDays(today, -(k + 1)));
    const yesterday = week[0]!;
    // Yesterday as a run during it left it: not final.
    const row = { month: yesterday.slice(0, 7), computedAt: new Date(), final: false, whtTotal: 0, whtAttributed: 0, unattributed: 0 };
    await db.insert(taxDays).values({ day: yesterday, ...row }).onConflictDoUpdate({ target: taxDays.day, set: row });
    const first = await computeRecentDays(db);
    expect(first).toContain(yesterday);
    expect(first.every((d) => week.includes(d))).toBe(true);
    const stored = await db.select().from(taxDays).where(inArray(taxDays.day, week));
    expect(stored.map((d) => [d.day, d.final]).sort()).toEqual(week.map((d) => [d, true]).sort());
    expect(await computeRecentDays(db), 'the days are final: nothing to compute again').toEqual([]);
  });
});

describe('the gaming tax rates', () => {
  it('a change waits for a second whole-book admin; the asker cannot approve it; approved, it is in force from its month and kept in the history', async () => {
    const from = nextMonth(month);
    const before = (await get('/api/v1/reports/tax/gaming_rates')).body;
    const asked = await t.call('PUT', '/api/v1/reports/tax/gaming_rates', {
      token, body: { effective_month: from, sports_bps: 3000, jackpot_bps: before.jackpot_bps, casino_bps: before.casino_bps, racing_bps: before.racing_bps },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    expect(asked.body.pending_change).toMatchObject({ setting: 'gaming_tax_rates', status: 'pending' });
    const id = asked.body.pending_change.id as number;
    expect(await t.database.db.select().from(gamingTaxRates).where(eq(gamingTaxRates.effectiveMonth, from))).toEqual([]);

    const own = await t.call('POST', `/api/v1/system/pending_changes/${id}/approve`, { token, body: {} });
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('PENDING_CHANGE_OWN');
    expect(await t.database.db.select().from(gamingTaxRates).where(eq(gamingTaxRates.effectiveMonth, from))).toEqual([]);

    const ok = await t.call('POST', `/api/v1/system/pending_changes/${id}/approve`, { token: await checkerToken(t), body: {} });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.pending_change).toMatchObject({ status: 'applied' });
    const after = (await get('/api/v1/reports/tax/gaming_rates')).body;
    expect(after).toMatchObject({ effective_month: from, sports_bps: 3000, in_force: before.in_force });
    expect(after.schedule[0]).toMatchObject({ effective_month: from, requested_account: 'admin', approved_account: 'checker' });
    // This month's return keeps the rate in force this month.
    expect((await get(`/api/v1/reports/tax/returns/${month}`)).body.rates).toEqual(before.in_force);
    const history = await get(`/api/v1/system/setting_history?setting=gaming_tax_rates`);
    expect(history.body.items[0]).toMatchObject({ setting: 'gaming_tax_rates', account: 'admin', approved_account: 'checker' });

    // A month already over is refused when asked: a past return keeps its rate.
    const past = await t.call('PUT', '/api/v1/reports/tax/gaming_rates', { token, body: { ...after, effective_month: '2001-01', in_force: undefined, schedule: undefined } });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain('effective_month');
  });
});

describe('access and input', () => {
  it('a branch admin holding the page is refused every route of the return (403), exports included', async () => {
    const role = await makeRole(t, 'Tax desk of a branch', ['tax_returns', 'tax_returns:export', 'tax_returns:edit']);
    await makeAdmin(t, 'tax_branch', role, rootId);
    const branch = await t.login('tax_branch');
    for (const url of [`/api/v1/reports/tax/returns/${month}`, `/api/v1/reports/tax/wht_orders?month=${month}`, `/api/v1/reports/tax/wht_bettors?month=${month}`,
      `/api/v1/reports/tax/gaming_return?month=${month}`, '/api/v1/reports/tax/gaming_rates']) {
      const r = await get(url, branch);
      expect(r.status, url).toBe(403);
      expect(r.body.code, url).toBe('WHOLE_BOOK_ONLY');
    }
    expect((await t.call('POST', `/api/v1/reports/tax/returns/${month}/compute`, { token: branch, body: {} })).status).toBe(403);
    const put = await t.call('PUT', '/api/v1/reports/tax/gaming_rates', { token: branch, body: { effective_month: month, sports_bps: 1, jackpot_bps: 1, casino_bps: 1, racing_bps: 1 } });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('WHOLE_BOOK_ONLY');
    // An export it asks for is refused at once (the list's conditions are built with its scope): no job, no file.
    const exportsOf = async () => (await t.database.db.select({ n: count() }).from(asyncOperations))[0]!.n;
    const jobsBefore = await exportsOf();
    for (const type of ['tax_wht_orders', 'tax_wht_bettors', 'tax_gaming_return']) {
      const ex = await t.call('POST', '/api/v1/exports', { token: branch, body: { type, format: 1, params: { month } } });
      expect(ex.status, type).toBe(403);
      expect(ex.body.code, type).toBe('WHOLE_BOOK_ONLY');
    }
    expect(await exportsOf()).toBe(jobsBefore);
  });

  it('a bad or future month answers 400 naming the field', async () => {
    for (const m of ['2025-13', '2025-1', 'abc', '1999-12', nextMonth(month)]) {
      const r = await get(`/api/v1/reports/tax/returns/${m}`);
      expect(r.status, m).toBe(400);
      expect(r.body.code, m).toBe('PARAM_INVALID');
    }
    const missing = await get('/api/v1/reports/tax/wht_orders');
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('month');
    expect((await get(`/api/v1/reports/tax/wht_bettors?month=${nextMonth(month)}`)).status).toBe(400);
    expect((await t.call('POST', '/api/v1/reports/tax/returns/2025-00/compute', { token, body: {} })).status).toBe(400);
  });
});
