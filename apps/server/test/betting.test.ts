/**
 * The betting engine (issue 5) through the app: placement refusals for each rule (nothing debited, no
 * order), the spec's worked case settled from the feed to the cent, re-delivery, rollback and
 * resettlement with the ledger invariants after each, operator result changes with a preview, order
 * cancel, cashout and auto cashout, abnormal bet alerts, scope and required filters. Runs on PGlite and,
 * in CI, on PostgreSQL (with the concurrent-settlement case).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ACCOUNT_KIND, CREDIT_BILL_TYPE, type LegSettlement, ABNORMAL_BET_FLAG, billRemarkText, BET_STATUS, BETTING_OFFER_STATUS, BILL_TYPE, EVENT_STATUS, ORDER_STATUS, ORDER_TYPE, OUTCOME_STATUS, RISK_LEVEL, SPORT } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { bettors, bills, houseEntries } from '../src/schema.js';
import { HOUSE, checkInvariants, post } from '../src/modules/money/ledger';
import { orderEvents, orderLines, orders } from '../src/modules/betting/schema';
import { feedOutcomes } from '../src/modules/feed/schema';
import { placeOrder, type SlipSelection } from '../src/modules/betting/placement';
import { reconcileOrder, refreshFromFeed } from '../src/modules/betting/settlement';
import { acceptCashout, setCashoutRule } from '../src/modules/betting/cashout';
import { sweepAbnormalBets } from '../src/modules/betting/remind';
import { notifications } from '../src/modules/notices/schema.js';
import { admins } from '../src/platform/schema';
import { approved, ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';

let t: TestApp;
let token: string;
let rootId: number;
let clock = Date.now();
const tick = () => (clock += 1000);

const X12 = '1|';
const ev = (n: number) => `sr:match:b${n}`;

async function send(m: FeedMessageInput) {
  expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  await t.betting.drain();
}

/** A football match starting in an hour with a 1X2 market at these prices (margin 0 in these tests). */
async function match(n: number, prices: [string, string, string], startInMs = 3_600_000, sport: number = SPORT.football) {
  await send({
    type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), sport_id: sport,
    league_id: 'sr:tournament:test', league_name: 'Test League', home_team: `Home ${n}`, away_team: `Away ${n}`,
    start_time: Date.now() + startInMs, status: EVENT_STATUS.not_started,
  });
  await send({
    type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), event_status: EVENT_STATUS.not_started,
    markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: prices.map((p, i) => ({ id: String(i + 1), price: p, active: true })) }],
  });
}

const pick = (n: number, outcome: string, odds: string): SlipSelection => ({ eventId: ev(n), marketKey: X12, outcomeId: outcome, odds });

const settle = (n: number, outcomes: { id: string; result: 0 | 1; void_factor?: 0 | 0.5 | 1 }[]): FeedMessageInput => ({
  type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), markets: [{ id: 1, outcomes }],
});

async function balance(id: number) {
  const [b] = await t.database.db.select({ cash: bettors.cashBalance, credit: bettors.creditBalance }).from(bettors).where(eq(bettors.id, id));
  return b;
}
async function orderRow(id: number) {
  const [o] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return o;
}
/** The cash bills an order caused, in posting order. */
const orderBills = (orderId: number) =>
  t.database.db.select().from(bills).where(and(eq(bills.causeType, 'order'), eq(bills.causeId, String(orderId)))).orderBy(asc(bills.id));
async function invariantsHold() {
  expect(await checkInvariants(t.database.db)).toEqual([]);
}
const setConfig = async (body: Record<string, unknown>) => {
  const r = await approved(t, 'PUT', '/api/v1/betting/bet_config', { token, body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  rootId = root.id;
  // Fair prices in these tests: what the feed sends is what the bettor gets.
  expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  for (let n = 1; n <= 12; n++) await match(n, ['1.80', '3.40', '4.20']);
});
afterAll(async () => {
  await t?.close();
});

describe('placement refusals', () => {
  it('refuses each rule with its message, debits nothing and creates no order', async () => {
    const b = await makeBettor(t, rootId, { cash: 500_000 });
    const before = await balance(b.id);
    const [{ n: ordersBefore }] = (await t.database.db.execute(`select count(*)::int as n from orders`) as unknown as { rows: { n: number }[] }).rows;
    const refuse = async (legs: SlipSelection[], code: string, stake = 100_000, bettorId = b.id, creditStakeCents = 0) => {
      const err = await placeOrder(t.database.db, { bettorId, type: ORDER_TYPE.user_bet, stakeCents: stake, creditStakeCents, legs, skipLiveDelay: true }).then(
        () => null,
        (e) => e,
      );
      expect(err?.code, code).toBe(code);
    };
    await refuse([pick(1, '9', '1.80')], 'BET_SELECTION_CLOSED');
    await refuse([pick(1, '1', '1.80'), pick(1, '2', '3.40')], 'BET_SAME_MATCH');
    await refuse([pick(1, '1', '1.90')], 'BET_PRICE_CHANGED'); // the price fell since the slip: accept_higher refuses
    await refuse([pick(1, '1', '1.80')], 'BET_STAKE_TOO_LOW', 5_000);
    await refuse([pick(1, '1', '1.80')], 'BET_BALANCE_LOW', 600_000);
    await setConfig({ max_legs: 2 });
    await refuse([pick(1, '1', '1.80'), pick(2, '1', '1.80'), pick(3, '1', '1.80')], 'BET_TOO_MANY_LEGS');
    await setConfig({ max_legs: 30, max_payout: 150_000 });
    await refuse([pick(1, '1', '1.80')], 'BET_PAYOUT_TOO_HIGH');
    await setConfig({ max_payout: 10_000_000_000 });
    // Match suspended by an operator.
    expect((await t.call('POST', `/api/v1/sports/matches/${encodeURIComponent(ev(12))}/suspension`, { token, body: { is_suspended: true } })).status).toBe(200);
    await refuse([pick(12, '1', '1.80')], 'BET_MATCH_CLOSED');
    await t.database.db.update(bettors).set({ betStatus: BET_STATUS.not_allowed }).where(eq(bettors.id, b.id));
    await refuse([pick(1, '1', '1.80')], 'BET_USER_BLOCKED');
    await t.database.db.update(bettors).set({ betStatus: BET_STATUS.allowed, riskLevel: RISK_LEVEL.no_betting }).where(eq(bettors.id, b.id));
    await refuse([pick(1, '1', '1.80')], 'BET_RISK_BLOCKED');
    await t.database.db.update(bettors).set({ riskLevel: RISK_LEVEL.low }).where(eq(bettors.id, b.id));
    await setConfig({ max_stake: 50_000 });
    await refuse([pick(1, '1', '1.80')], 'BET_STAKE_TOO_HIGH');
    await setConfig({ max_stake: 500_000_000, max_odds: 5 });
    await refuse([pick(1, '1', '1.80'), pick(2, '2', '3.40')], 'BET_ODDS_TOO_HIGH'); // 6.12 combined
    await setConfig({ max_odds: 10_000, bonus_funds_share: 0 });
    await refuse([pick(1, '1', '1.80')], 'BET_BONUS_FUNDS_LIMIT', 100_000, b.id, 10_000);
    await setConfig({ bonus_funds_share: 10_000 });

    expect(await balance(b.id)).toEqual(before);
    const [{ n: ordersAfter }] = (await t.database.db.execute(`select count(*)::int as n from orders`) as unknown as { rows: { n: number }[] }).rows;
    expect(ordersAfter).toBe(ordersBefore);
    // A higher price than the slip is accepted (accept_higher) and placed at the current price.
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(1, '1', '1.70')], skipLiveDelay: true });
    expect(o).toMatchObject({ totalOdds: '1.8', potentialPayout: 180_000, cashStake: 100_000, status: ORDER_STATUS.pending });
    expect((await balance(b.id)).cash).toBe(before.cash - 100_000);
    await invariantsHold();
  });
});

describe('per-match stake limit', () => {
  it('counts the stake already open on the match', async () => {
    const b = await makeBettor(t, rootId, { cash: 500_000 });
    await setConfig({ max_stake_per_match: 150_000 });
    await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(10, '1', '1.80')], skipLiveDelay: true });
    // 1,000.00 open on match 10: another 1,000.00 would make 2,000.00 over the 1,500.00 limit; 500.00 fits.
    const err = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(10, '2', '3.40')], skipLiveDelay: true }).catch((e) => e);
    expect(err.code).toBe('BET_MATCH_LIMIT');
    const ok = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 50_000, legs: [pick(10, '2', '3.40')], skipLiveDelay: true });
    expect(ok.stake).toBe(50_000);
    // Another match is not limited by this one.
    await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(11, '1', '1.80')], skipLiveDelay: true });
    await setConfig({ max_stake_per_match: 0 });
    await invariantsHold();
  });
});

describe('settlement from the feed', () => {
  it('settles the worked case to the cent; re-delivery changes nothing; rollback reverses; resettlement pays again', async () => {
    await setConfig({ bonus_enabled: false });
    const b = await makeBettor(t, rootId, { cash: 200_000 });
    // Legs: won 1.80, void 2.10, half won 1.90, half lost 2.00.
    await match(21, ['1.80', '3.00', '4.00']);
    await match(22, ['2.10', '3.00', '4.00']);
    await match(23, ['1.90', '3.00', '4.00']);
    await match(24, ['2.00', '3.00', '4.00']);
    const o = await placeOrder(t.database.db, {
      bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, skipLiveDelay: true,
      legs: [pick(21, '1', '1.80'), pick(22, '1', '2.10'), pick(23, '1', '1.90'), pick(24, '1', '2.00')],
    });
    expect((await balance(b.id)).cash).toBe(100_000);
    const won = settle(21, [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }]);
    await send(won);
    expect((await orderRow(o.id)).status).toBe(ORDER_STATUS.pending); // three legs still open
    await send(settle(22, [{ id: '1', result: 0, void_factor: 1 }]));
    await send(settle(23, [{ id: '1', result: 1, void_factor: 0.5 }]));
    const lastLeg = settle(24, [{ id: '1', result: 0, void_factor: 0.5 }]);
    await send(lastLeg);
    const settled = await orderRow(o.id);
    expect(settled).toMatchObject({ status: ORDER_STATUS.settled, payout: 130_500, taxAmount: 3_050, creditedCash: 127_450, profit: 27_450 });
    expect((await balance(b.id)).cash).toBe(100_000 + 127_450);
    await invariantsHold();
    const payoutBills = await t.database.db.select().from(bills).where(and(eq(bills.causeType, 'order'), eq(bills.causeId, String(o.id)))).orderBy(asc(bills.id));
    expect(payoutBills.map((x) => [x.type, x.amount])).toEqual([[BILL_TYPE.bet, -100_000], [BILL_TYPE.bet_payout, 127_450]]);
    const lines = await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, o.id)).orderBy(asc(orderLines.id));
    expect(lines.map((l) => l.outcomeStatus)).toEqual([OUTCOME_STATUS.won, OUTCOME_STATUS.void, OUTCOME_STATUS.half_won, OUTCOME_STATUS.half_lost]);

    // The same message again (re-delivery), and a settle run with nothing new: nothing changes.
    expect(await t.feed.ingest(lastLeg)).toMatchObject({ ok: true, applied: false });
    expect(await refreshFromFeed(t.database.db, ev(24))).toMatchObject({ changed: 0 });
    expect((await balance(b.id)).cash).toBe(227_450);

    // Rollback of one settlement: the order is open again and the payout reversed by a bill of its own.
    await send({ type: 'rollback_bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(24), markets: [{ id: 1 }] });
    expect(await orderRow(o.id)).toMatchObject({ status: ORDER_STATUS.pending, payout: 0, taxAmount: 0, creditedCash: 0 });
    expect((await balance(b.id)).cash).toBe(100_000);
    await invariantsHold();

    // Resettled differently (the last leg won in full): 1.80 x 1 x 1.45 x 2.00 = 5.22.
    await send(settle(24, [{ id: '1', result: 1 }]));
    const again = await orderRow(o.id);
    expect(again).toMatchObject({ status: ORDER_STATUS.settled, payout: 522_000, taxAmount: 42_200, creditedCash: 479_800 });
    expect((await balance(b.id)).cash).toBe(100_000 + 479_800);
    await invariantsHold();
    const history = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, o.id)).orderBy(asc(orderEvents.id));
    expect(history.map((h) => h.kind)).toEqual(['placed', 'settled', 'rolled_back', 'settled']);
    await setConfig({ bonus_enabled: true });
  });

  it('rolls back a settlement whose winnings were already spent: the balance goes below zero as a debt, the next deposit covers it', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    await match(13, ['2.00', '3.40', '4.20']);
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(13, '1', '2.00')], skipLiveDelay: true });
    await send(settle(13, [{ id: '1', result: 1 }]));
    // 2.00: payout 2,000.00, tax 10 % of the 1,000.00 won: 1,900.00 credited.
    expect((await balance(b.id)).cash).toBe(190_000);
    // The bettor stakes it all on another match before the provider corrects itself.
    await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 190_000, legs: [pick(8, '1', '1.80')], skipLiveDelay: true });
    expect((await balance(b.id)).cash).toBe(0);
    await send({ type: 'rollback_bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(13), markets: [{ id: 1 }] });
    expect(await orderRow(o.id)).toMatchObject({ status: ORDER_STATUS.pending, creditedCash: 0 });
    expect((await balance(b.id)).cash).toBe(-190_000);
    const [back] = await t.database.db.select().from(bills).where(and(eq(bills.bettorId, b.id), eq(bills.type, BILL_TYPE.amount_rolled_back)));
    expect(back).toMatchObject({ amount: -190_000, balanceBefore: 0, balanceAfter: -190_000 });
    await invariantsHold();
    // In debt: no bet; the next deposit pays the debt first.
    await expect(placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_00, legs: [pick(9, '1', '1.80')], skipLiveDelay: true })).rejects.toMatchObject({ code: 'BET_BALANCE_LOW' });
    await t.database.db.transaction((tx) =>
      post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: 200_000, type: BILL_TYPE.user_recharge, cause: { type: 'recharge', id: `debt-${b.id}` }, house: HOUSE.clearing(6) }),
    );
    expect((await balance(b.id)).cash).toBe(10_000);
    await invariantsHold();
  });

  it('voids the orders placed inside a cancel window only', async () => {
    const b = await makeBettor(t, rootId, { cash: 300_000 });
    const early = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(3, '2', '3.40')], skipLiveDelay: true });
    // The window opens 1 ms after the early order was placed (its own time, not a guess); the late one
    // is placed once the clock has passed that instant.
    const cut = (await orderRow(early.id)).createdAt.getTime() + 1;
    while (Date.now() <= cut) await new Promise((r) => setImmediate(r));
    const late = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(3, '2', '3.40')], skipLiveDelay: true });
    await send({ type: 'bet_cancel', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(3), start_time: cut, markets: [{ id: 1 }] });
    expect((await orderRow(late.id)).status).toBe(ORDER_STATUS.settled);
    expect((await orderRow(late.id)).creditedCash).toBe(100_000);
    expect((await orderRow(early.id)).status).toBe(ORDER_STATUS.pending);
    expect((await balance(b.id)).cash).toBe(200_000);
    // The void order's stake comes back as a refund (bill 8 "amount rolled back"), not as a payout (issue 23).
    expect((await orderBills(late.id)).map((x) => [x.type, x.amount])).toEqual([[BILL_TYPE.bet, -100_000], [BILL_TYPE.amount_rolled_back, 100_000]]);
    await send({ type: 'rollback_bet_cancel', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(3), start_time: cut, markets: [{ id: 1 }] });
    expect((await orderRow(late.id)).status).toBe(ORDER_STATUS.pending);
    expect((await balance(b.id)).cash).toBe(100_000);
    expect((await orderBills(late.id)).map((x) => [x.type, x.amount])).toEqual([
      [BILL_TYPE.bet, -100_000], [BILL_TYPE.amount_rolled_back, 100_000], [BILL_TYPE.amount_rolled_back, -100_000],
    ]);
    await invariantsHold();
  });

  it('pays the accumulator bonus on top of a winning accumulator, untaxed', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    for (const n of [31, 32, 33]) await match(n, ['2.00', '3.00', '4.00']);
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, skipLiveDelay: true, legs: [pick(31, '1', '2.00'), pick(32, '1', '2.00'), pick(33, '1', '2.00')] });
    for (const n of [31, 32, 33]) await send(settle(n, [{ id: '1', result: 1 }]));
    // 8.00: payout 800.00, net 700.00, tax 70.00; 3 legs -> 3 % of net = 21.00 bonus.
    expect(await orderRow(o.id)).toMatchObject({ payout: 800_000, taxAmount: 70_000, bonusAmount: 21_000, creditedCash: 751_000 });
    expect((await balance(b.id)).cash).toBe(751_000);
    await invariantsHold();
  });
});

describe('settle then roll back (property)', () => {
  /**
   * Hundreds of runs, each small: one order (1-4 legs on four shared matches, part of the stake from
   * bonus funds, placed by a bettor who has an inviter) placed, its lines given random results and priced
   * through `reconcileOrder` (the per-order path of the feed's settlement), then its lines reset to pending
   * and priced again. The bettor's and the inviter's cash and credit end exactly as after placement and the
   * order is open with nothing credited, whatever the results (won, lost, half won/lost, void, dead heat).
   * The feed's own rollback message is the worked case above.
   */
  const RUNS = 200;
  it(`leaves every balance as it was after placement, for any results (${RUNS} runs)`, { timeout: 600_000 }, async () => {
    const legResult = fc.constantFrom<LegSettlement>(
      { result: 1, voidFactor: 0, deadHeatFactor: null },
      { result: 0, voidFactor: 0, deadHeatFactor: null },
      { result: 1, voidFactor: 0.5, deadHeatFactor: null },
      { result: 0, voidFactor: 0.5, deadHeatFactor: null },
      { result: 0, voidFactor: 1, deadHeatFactor: null },
      { result: 1, voidFactor: 0, deadHeatFactor: 0.5 },
    );
    const MATCHES = [41, 42, 43, 44];
    for (const n of MATCHES) await match(n, ['1.95', '3.10', '4.40']);
    const PRICES: Record<string, string> = { '1': '1.95', '2': '3.10', '3': '4.40' };
    // One bettor for every run (the orders stay open after their rollback: no per-match stake limit here).
    await setConfig({ max_stake_per_match: 0 });
    const inviter = await makeBettor(t, rootId);
    const b = await makeBettor(t, rootId, { cash: 1_000_000_000 });
    await t.database.db.update(bettors).set({ inviterId: inviter.id }).where(eq(bettors.id, b.id));
    await t.database.db.transaction((tx) =>
      post(tx, { bettorId: b.id, account: ACCOUNT_KIND.credit, amount: 100_000_000, type: CREDIT_BILL_TYPE.activity_credit_granted, cause: { type: 'admin' }, house: HOUSE.creditIssued }),
    );
    const balances = async () =>
      Object.fromEntries(
        (await t.database.db.select({ id: bettors.id, cash: bettors.cashBalance, credit: bettors.creditBalance }).from(bettors).where(inArray(bettors.id, [b.id, inviter.id]))).map((r) => [r.id, r]),
      );
    /** Sets the order's line results (null: open again) and prices the order, in one transaction. */
    const settleLines = (orderId: number, results: (LegSettlement | null)[]) =>
      t.database.db.transaction(async (tx) => {
        const lines = await tx.select({ id: orderLines.id }).from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id));
        for (const [i, l] of lines.entries()) await tx.update(orderLines).set({ settlement: results[i] }).where(eq(orderLines.id, l.id));
        return reconcileOrder(tx, orderId, { kind: 'settled', source: 'feed' });
      });
    const seen = { settled: 0, inviterPaid: 0, creditRefunded: 0, won: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: MATCHES.length - 1 }), { minLength: 1, maxLength: MATCHES.length }),
        fc.array(fc.tuple(fc.constantFrom('1', '2', '3'), legResult), { minLength: MATCHES.length, maxLength: MATCHES.length }),
        fc.integer({ min: 100, max: 5_000 }),
        fc.integer({ min: 0, max: 10 }),
        async (which, picks, stakeTsh, creditPercent) => {
          // Up to 10 % of the stake from bonus funds (within the default bonus-funds share).
          const creditStakeCents = Math.floor((stakeTsh * creditPercent) / 100) * 100;
          const legs = which.map((i) => pick(MATCHES[i], picks[i][0], PRICES[picks[i][0]]));
          const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: stakeTsh * 100, creditStakeCents, skipLiveDelay: true, legs });
          const placed = await balances();

          const settled = await settleLines(o.id, which.map((i) => picks[i][1]));
          expect(settled?.after.status).toBe(ORDER_STATUS.settled);
          seen.settled++;
          if (settled!.after.inviter_reward > 0) seen.inviterPaid++;
          if (settled!.after.credited_credit > 0) seen.creditRefunded++;
          if (settled!.after.credited_cash > 0) seen.won++;

          const reopened = await settleLines(o.id, which.map(() => null));
          expect(reopened?.after).toMatchObject({ status: ORDER_STATUS.pending, credited_cash: 0, credited_credit: 0, payout: 0, tax: 0, bonus: 0, inviter_reward: 0 });
          expect(await balances()).toEqual(placed);
        },
      ),
      { numRuns: RUNS },
    );
    // The runs covered each kind of money movement a rollback must undo.
    expect(seen.settled).toBe(RUNS);
    expect(seen.won).toBeGreaterThan(0);
    expect(seen.inviterPaid).toBeGreaterThan(0);
    expect(seen.creditRefunded).toBeGreaterThan(0);
    await invariantsHold();
  });
});

describe('operator corrections', () => {
  it('previews a result change without making it, then makes it with the reason in the history', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(4, '1', '1.80')], skipLiveDelay: true });
    const [line] = await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, o.id));
    const url = `/api/v1/betting/orders/${o.id}/lines/${line.id}/result`;
    expect((await t.call('POST', url, { token, body: { reason: 'x' } })).body.code).toBe('RESULT_REQUIRED');
    expect((await t.call('POST', url, { token, body: { outcome_status: OUTCOME_STATUS.won } })).body.code).toBe('REASON_REQUIRED');
    expect((await t.call('POST', url, { token, body: { outcome_status: OUTCOME_STATUS.pending, reason: 'x' } })).body.code).toBe('RESULT_REQUIRED');

    const preview = await t.call('POST', url, { token, body: { outcome_status: OUTCOME_STATUS.won, reason: 'Official result', preview: true } });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ preview: true, totals: { orders: 1, cash: 172_000 } });
    expect(preview.body.changes[0]).toMatchObject({ order_id: o.id, before: { status: ORDER_STATUS.pending }, after: { status: ORDER_STATUS.settled, payout: 180_000, tax: 8_000 } });
    expect((await orderRow(o.id)).status).toBe(ORDER_STATUS.pending);
    expect((await balance(b.id)).cash).toBe(0);

    const done = await t.call('POST', url, { token, body: { outcome_status: OUTCOME_STATUS.won, reason: 'Official result' } });
    expect(done.body).toMatchObject({ preview: false, totals: { cash: 172_000 } });
    expect((await balance(b.id)).cash).toBe(172_000);
    // An operator's result stands against the feed.
    await send(settle(4, [{ id: '1', result: 0 }, { id: '2', result: 1 }]));
    expect((await orderRow(o.id)).creditedCash).toBe(172_000);

    const detail = await t.call('GET', `/api/v1/betting/orders/${o.id}`, { token });
    expect(detail.status).toBe(200);
    expect(detail.body.history.at(-1)).toMatchObject({ kind: 'result_changed', source: 'operator', admin_account: 'admin', reason: 'Official result' });
    expect(detail.body.bills.map((x: { amount: number }) => x.amount)).toEqual([-100_000, 172_000]);
    expect(detail.body.lines[0]).toMatchObject({ outcome_status: OUTCOME_STATUS.won, settled_by: 'operator', selection_id: '1', selection_name: 'Home 4', market_name: '1X2' });
    await invariantsHold();
  });

  it('takes an admin-cancelled result (10) for a leg: the leg is void and the stake comes back', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    await match(64, ['1.50', '3.50', '5.00']);
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(64, '1', '1.50')], skipLiveDelay: true });
    const [line] = await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, o.id));
    const r = await t.call('POST', `/api/v1/betting/orders/${o.id}/lines/${line.id}/result`, { token, body: { outcome_status: OUTCOME_STATUS.admin_cancelled, reason: 'Cancelled by the operator' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [after] = await t.database.db.select().from(orderLines).where(eq(orderLines.id, line.id));
    expect(after.outcomeStatus).toBe(OUTCOME_STATUS.admin_cancelled);
    expect((await balance(b.id)).cash).toBe(100_000);
    await invariantsHold();
  });

  it('cancelling a match voids its open orders and refunds them (preview first); a later feed settlement changes nothing', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    await match(66, ['1.80', '3.40', '4.20']);
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(66, '1', '1.80')], skipLiveDelay: true });
    expect((await balance(b.id)).cash).toBe(0);
    const url = `/api/v1/sports/matches/${encodeURIComponent(ev(66))}/cancel`;
    const preview = await t.call('POST', `${url}/preview`, { token, body: { reason: 'Pitch flooded' } });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toEqual({ orders: 1, cash: 100_000, credit: 0 });
    expect((await balance(b.id)).cash).toBe(0);
    const done = await t.call('POST', url, { token, body: { reason: 'Pitch flooded' } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await balance(b.id)).cash).toBe(100_000);
    const [line] = await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, o.id));
    expect(line.outcomeStatus).toBe(OUTCOME_STATUS.admin_cancelled);
    // A refund, bill 8, saying so as a kind with the operator's reason as its text (issue 23).
    const [, refund] = await orderBills(o.id);
    expect(refund).toMatchObject({ type: BILL_TYPE.amount_rolled_back, amount: 100_000, remark: 'Pitch flooded', remarkKind: 'order_change' });
    expect(refund.remarkParams).toEqual({ order_no: o.orderNo, change: 'cancelled' });
    // The feed settles the match afterwards as if it had been played: the operator's cancel stands.
    await send(settle(66, [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }]));
    expect((await balance(b.id)).cash).toBe(100_000);
    expect((await t.call('POST', url, { token, body: { reason: 'again' } })).status).toBe(409);
    await invariantsHold();
  });

  it('changes a selection result for every order holding it, previewed first', async () => {
    const a = await makeBettor(t, rootId, { cash: 100_000 });
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    await match(61, ['2.00', '3.00', '4.00']);
    const oa = await placeOrder(t.database.db, { bettorId: a.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(61, '1', '2.00')], skipLiveDelay: true });
    const ob = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 50_000, legs: [pick(61, '1', '2.00')], skipLiveDelay: true });
    const other = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 50_000, legs: [pick(61, '2', '3.00')], skipLiveDelay: true });
    const url = `/api/v1/betting/matches/${encodeURIComponent(ev(61))}/result`;
    const body = { market_key: X12, outcome_id: '1', outcome_status: OUTCOME_STATUS.won, reason: 'Official result' };
    const preview = await t.call('POST', url, { token, body: { ...body, preview: true } });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    // 1000 x 2.00 = 2000, tax 100 -> +1900; 500 x 2.00 = 1000, tax 50 -> +950.
    expect(preview.body.changes.map((c: { order_id: number }) => c.order_id)).toEqual([oa.id, ob.id]);
    expect(preview.body.totals).toMatchObject({ orders: 2, cash: 285_000 });
    expect((await balance(a.id)).cash).toBe(0);
    const done = await t.call('POST', url, { token, body });
    expect(done.body.totals).toMatchObject({ orders: 2, cash: 285_000 });
    expect((await balance(a.id)).cash).toBe(190_000);
    expect((await balance(b.id)).cash).toBe(95_000);
    expect((await orderRow(other.id)).status).toBe(ORDER_STATUS.pending);
    // Setting the same result again moves no money; the orders' history still records it.
    const again = await t.call('POST', url, { token, body: { ...body, reason: 'Confirmed again' } });
    expect(again.body.totals).toMatchObject({ orders: 0, cash: 0 });
    const history = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, oa.id)).orderBy(asc(orderEvents.id));
    expect(history.map((h) => [h.kind, h.reason])).toEqual([['placed', ''], ['result_changed', 'Official result'], ['result_changed', 'Confirmed again']]);
    await invariantsHold();
  });

  it('cancels an order with a reason and refunds the stake; a second cancel is refused', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(5, '1', '1.80')], skipLiveDelay: true });
    expect((await t.call('POST', `/api/v1/betting/orders/${o.id}/cancel`, { token, body: {} })).body.code).toBe('REASON_REQUIRED');
    const r = await t.call('POST', `/api/v1/betting/orders/${o.id}/cancel`, { token, body: { reason: 'Palpable error' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await balance(b.id)).cash).toBe(100_000);
    // The refund is a bill of its own on the order, chained after the stake, with the reason.
    const refund = await orderBills(o.id);
    expect(refund.map((x) => [x.type, x.amount, x.balanceBefore, x.balanceAfter])).toEqual([
      [BILL_TYPE.bet, -100_000, 100_000, 0],
      [BILL_TYPE.amount_rolled_back, 100_000, 0, 100_000],
    ]);
    // What the bills say is stored as a kind and parameters, read in the reader's language; the reason stays the admin's text.
    expect(refund.map((x) => [x.remarkKind, x.remarkParams, x.remark])).toEqual([
      ['order_stake', { order_no: o.orderNo }, ''],
      ['order_change', { order_no: o.orderNo, change: 'cancelled' }, 'Palpable error'],
    ]);
    expect(billRemarkText(refund[1].remarkKind, refund[1].remarkParams, refund[1].remark, 'en-US')).toBe(`Order ${o.orderNo}: cancelled — Palpable error`);
    expect(billRemarkText(refund[1].remarkKind, refund[1].remarkParams, refund[1].remark, 'sw-KE')).toBe(`Oda ${o.orderNo}: imeghairiwa — Palpable error`);
    expect(billRemarkText(refund[1].remarkKind, refund[1].remarkParams, refund[1].remark, 'zh-CN')).toBe(`订单 ${o.orderNo}：已取消：Palpable error`);
    // The order's detail answers them with the bills.
    const detail = await t.call('GET', `/api/v1/betting/orders/${o.id}`, { token });
    expect(detail.body.bills.map((x: { remark_kind: string; remark_params: unknown; remark: string }) => [x.remark_kind, x.remark_params, x.remark])).toEqual([
      ['order_stake', { order_no: o.orderNo }, ''],
      ['order_change', { order_no: o.orderNo, change: 'cancelled' }, 'Palpable error'],
    ]);
    const lines = await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, o.id));
    expect(lines[0].outcomeStatus).toBe(OUTCOME_STATUS.admin_cancelled);
    expect((await t.call('POST', `/api/v1/betting/orders/${o.id}/cancel`, { token, body: { reason: 'again' } })).status).toBe(409);
    await invariantsHold();
  });
});

describe('cashout', () => {
  it('offers from current odds, locks on suspension, pays once and is final', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(6, '1', '1.80')], skipLiveDelay: true });
    // The price shortens to 1.50: fair 1000 x 1.80 / 1.50 = 1200.00; 5 % margin -> 1140.00.
    await send({ type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(6), event_status: EVENT_STATUS.not_started, markets: [{ id: 1, status: 1, outcomes: [{ id: '1', price: '1.50', active: true }] }] });
    const offer = await t.call('GET', `/api/v1/betting/orders/${o.id}/cashout`, { token });
    expect(offer.body).toMatchObject({ state: 5, amount: 114_000 });
    await send({ type: 'bet_stop', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(6) });
    expect((await t.call('GET', `/api/v1/betting/orders/${o.id}/cashout`, { token })).body).toMatchObject({ state: 4, amount: null });
    await expect(acceptCashout(t.database.db, o.id, 114_000, { delayMs: 0 })).rejects.toMatchObject({ code: 'CASHOUT_LOCKED' });
    await send({ type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(6), event_status: EVENT_STATUS.not_started, markets: [{ id: 1, status: 1, outcomes: [{ id: '1', price: '1.50', active: true }] }] });
    // The bettor accepted more than is offered now: nothing paid, the new offer answered.
    expect(await acceptCashout(t.database.db, o.id, 120_000, { delayMs: 0 })).toMatchObject({ paid: false, amount: 114_000 });
    // Withholding tax as at settlement (issue 23): 10 % of the net winnings 1,140.00 - 1,000.00 = 14.00.
    expect(await acceptCashout(t.database.db, o.id, 114_000, { delayMs: 0 })).toMatchObject({ paid: true, amount: 114_000, fee: 6_000, tax: 1_400, credited: 112_600 });
    expect(await orderRow(o.id)).toMatchObject({
      status: ORDER_STATUS.early_settlement, cashoutAmount: 114_000, earlyCashoutFee: 6_000, payout: 114_000, taxAmount: 1_400, creditedCash: 112_600, profit: 12_600,
    });
    expect((await balance(b.id)).cash).toBe(112_600);
    // The cashout bill: the offer less the tax, credited once, after the stake's bill; the tax moved to the tax account in its journal transaction.
    const paidOut = await orderBills(o.id);
    expect(paidOut.map((x) => [x.type, x.amount, x.balanceBefore, x.balanceAfter])).toEqual([
      [BILL_TYPE.bet, -100_000, 100_000, 0],
      [BILL_TYPE.bet_payout, 112_600, 0, 112_600],
    ]);
    expect([paidOut[1].remarkKind, paidOut[1].remarkParams]).toEqual(['order_change', { order_no: o.orderNo, change: 'cashout' }]);
    const journal = await t.database.db.select().from(houseEntries).where(eq(houseEntries.txnId, paidOut[1].txnId));
    expect(journal.map((e) => [e.account, e.amount]).sort()).toEqual([[HOUSE.payouts, -112_600], [HOUSE.payouts, -1_400], [HOUSE.taxPayable, 1_400]].sort());
    // The order's detail shows it.
    const detail = await t.call('GET', `/api/v1/betting/orders/${o.id}`, { token });
    expect(detail.body.order).toMatchObject({ cashout_amount: 114_000, tax_deduction_amount: 1_400, payout: 114_000, profit: 12_600 });
    await expect(acceptCashout(t.database.db, o.id, 1, { delayMs: 0 })).rejects.toMatchObject({ code: 'CASHOUT_FINAL' });
    // Final: the feed's result does not touch it.
    await send(settle(6, [{ id: '1', result: 1 }]));
    expect((await balance(b.id)).cash).toBe(112_600);
    expect(await orderBills(o.id)).toHaveLength(2);
    await invariantsHold();
  });

  it('fires an auto cashout when the offer reaches the target', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(7, '1', '1.80')], skipLiveDelay: true });
    await setCashoutRule(t.database.db, o.id, 150_000);
    await send({ type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(7), event_status: EVENT_STATUS.not_started, markets: [{ id: 1, status: 1, outcomes: [{ id: '1', price: '1.50', active: true }] }] });
    expect((await orderRow(o.id)).status).toBe(ORDER_STATUS.pending); // 1140.00 < 1500.00
    await send({ type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(7), event_status: EVENT_STATUS.not_started, markets: [{ id: 1, status: 1, outcomes: [{ id: '1', price: '1.10', active: true }] }] });
    // fair 1636.36, with margin 1554.54: above the target; taxed as a settlement: 10 % of 554.54 = 55.45.
    expect(await orderRow(o.id)).toMatchObject({ status: ORDER_STATUS.auto_cash_out, cashoutAmount: 155_454, taxAmount: 5_545, creditedCash: 149_909 });
    expect((await balance(b.id)).cash).toBe(149_909);
    await invariantsHold();
  });
});

describe('match statistics', () => {
  it('counts GGR over the settled stakes only, with the open stakes beside it (issue 23)', async () => {
    const b = await makeBettor(t, rootId, { cash: 1_000_000 });
    await match(71, ['2.00', '3.00', '4.00']);
    await match(72, ['1.80', '3.40', '4.20']);
    await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(71, '1', '2.00')], skipLiveDelay: true });
    await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 50_000, legs: [pick(71, '3', '4.00')], skipLiveDelay: true });
    const listed = async (n: number) => {
      const r = await t.call('GET', `/api/v1/statistics/matches?event_id=${encodeURIComponent(ev(n))}`, { token });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.items[0];
    };
    const detail = async (n: number) => (await t.call('GET', `/api/v1/statistics/matches/${encodeURIComponent(ev(n))}`, { token })).body.totals;
    // Nothing settled: no revenue yet, the stakes are open (before: GGR = turnover).
    expect(await listed(71)).toMatchObject({ turnover: 150_000, settled_stake: 0, open_stakes: 150_000, payouts: 0, ggr: 0 });
    expect(await detail(71)).toMatchObject({ turnover: 150_000, settled_stake: 0, open_stakes: 150_000, payouts: 0, ggr: 0 });
    // Home wins: 1,000.00 x 2.00 paid (gross), the away stake kept.
    await send(settle(71, [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }]));
    expect(await listed(71)).toMatchObject({ turnover: 150_000, settled_stake: 150_000, open_stakes: 0, payouts: 200_000, ggr: -50_000 });
    // A rollback opens them again.
    await send({ type: 'rollback_bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(71), markets: [{ id: 1 }] });
    expect(await listed(71)).toMatchObject({ settled_stake: 0, open_stakes: 150_000, payouts: 0, ggr: 0 });
    // A cashout decides its order: its stake is settled, its amount paid.
    const c = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(72, '1', '1.80')], skipLiveDelay: true });
    await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 20_000, legs: [pick(72, '2', '3.40')], skipLiveDelay: true });
    await send({ type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(72), event_status: EVENT_STATUS.not_started, markets: [{ id: 1, status: 1, outcomes: [{ id: '1', price: '1.50', active: true }] }] });
    expect(await acceptCashout(t.database.db, c.id, 114_000, { delayMs: 0 })).toMatchObject({ paid: true, amount: 114_000 });
    expect(await listed(72)).toMatchObject({ turnover: 120_000, settled_stake: 100_000, open_stakes: 20_000, payouts: 114_000, ggr: -14_000 });
    const sorted = await t.call('GET', '/api/v1/statistics/matches?sort=-open_stakes&page_size=200', { token });
    expect(sorted.status).toBe(200);
    await invariantsHold();
  });
});

describe('alerts, lists and scope', () => {
  it('flags open orders without a result after the thresholds and notifies', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    await match(41, ['1.80', '3.40', '4.20'], 3_600_000);
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(41, '1', '1.80')], skipLiveDelay: true });
    const threeHoursAfter = new Date(o.lastMatchAt.getTime() + 3 * 3_600_000);
    // The notices of this sweep (other cases sweep too, and raise the 120-minute one).
    const seen = new Set((await t.database.db.select({ id: notifications.id }).from(notifications)).map((n) => n.id));
    const counts = await sweepAbnormalBets(t.database.db, t.ctx.bus, threeHoursAfter);
    expect(counts[ABNORMAL_BET_FLAG.no_result_150_minutes]).toBeGreaterThanOrEqual(1);
    expect((await orderRow(o.id)).abnormalFlag).toBe(ABNORMAL_BET_FLAG.no_result_150_minutes);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.adminId, rootId));
    // In the three languages of the console, as every notice.
    const note = notes.find((n) => !seen.has(n.id) && n.content.includes('Abnormal bets') && n.content.includes(' 150 minutes'));
    expect(note?.content).toMatch(/Madau yenye hitilafu: oda \d+ bila matokeo dakika 150/);
    expect(note?.content).toMatch(/异常注单：\d+ 张注单在比赛时间后 150 分钟 仍无赛果/);
    const list = await t.call('GET', '/api/v1/betting/reminders', { token });
    expect(list.body.items.map((r: { id: number }) => r.id)).toContain(o.id);
    // Sweeping again raises nothing new.
    expect(await sweepAbnormalBets(t.database.db, t.ctx.bus, threeHoursAfter)).toEqual({});
  });

  it('gives a basketball game its length before its bets look abnormal (120 minutes after tip-off is still in play)', async () => {
    const b = await makeBettor(t, rootId, { cash: 200_000 });
    await match(42, ['1.80', '3.40', '4.20'], 3_600_000);
    await match(43, ['1.70', '15.00', '2.10'], 3_600_000, SPORT.basketball);
    const football = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(42, '1', '1.80')], skipLiveDelay: true });
    // The price as the book offers it (basketball's margin is its own).
    const [offered] = await t.database.db.select({ price: feedOutcomes.price }).from(feedOutcomes).where(and(eq(feedOutcomes.eventId, ev(43)), eq(feedOutcomes.outcomeId, '1')));
    const basketball = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(43, '1', String(offered!.price))], skipLiveDelay: true });
    const at = (o: { lastMatchAt: Date }, minutes: number) => new Date(o.lastMatchAt.getTime() + minutes * 60_000);
    await sweepAbnormalBets(t.database.db, t.ctx.bus, at(basketball, 130));
    expect((await orderRow(football.id)).abnormalFlag).toBe(ABNORMAL_BET_FLAG.no_result_120_minutes);
    expect((await orderRow(basketball.id)).abnormalFlag).toBe(ABNORMAL_BET_FLAG.none);
    await sweepAbnormalBets(t.database.db, t.ctx.bus, at(basketball, 185));
    expect((await orderRow(basketball.id)).abnormalFlag).toBe(ABNORMAL_BET_FLAG.no_result_120_minutes);
  });

  it('asks for a filter, and keeps sub-admins to their branch', async () => {
    expect((await t.call('GET', '/api/v1/betting/orders', { token })).body.code).toBe('ORDER_FILTER_REQUIRED');
    expect((await t.call('GET', '/api/v1/betting/cs/orders?status=2', { token })).body.code).toBe('ORDER_USER_REQUIRED');
    const w = await makeWorld(t);
    const role = await makeRole(t, 'Order desk', ['betting', 'order_list', 'order_detailed', 'order_detailed:change_match_result']);
    const desk = await makeAdmin(t, 'order_desk', role, w.agentA);
    const mine = await makeBettor(t, desk, { cash: 100_000 });
    const theirs = await makeBettor(t, w.agentB, { cash: 100_000 });
    const a = await placeOrder(t.database.db, { bettorId: mine.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(8, '1', '1.80')], skipLiveDelay: true });
    const bo = await placeOrder(t.database.db, { bettorId: theirs.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(8, '1', '1.80')], skipLiveDelay: true });
    const agentToken = await t.login('order_desk');
    const list = await t.call('GET', '/api/v1/betting/orders?event_id=' + encodeURIComponent(ev(8)), { token: agentToken });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.items.map((r: { id: number }) => r.id)).toEqual([a.id]);
    expect((await t.call('GET', `/api/v1/betting/orders/${bo.id}`, { token: agentToken })).status).toBe(404);
    expect((await t.call('GET', `/api/v1/betting/orders/${a.id}`, { token: agentToken })).status).toBe(200);
    // A match result moves orders of other branches: refused to a sub-admin.
    const r = await t.call('POST', `/api/v1/betting/matches/${encodeURIComponent(ev(8))}/result`, {
      token: agentToken, body: { market_key: X12, outcome_id: '1', outcome_status: OUTCOME_STATUS.won, reason: 'x' },
    });
    expect(r.status).toBe(403);
  });
});

describe('random bets and the ticker', () => {
  it('places random bets on matches open to them, within the amounts, and shows them in the ticker', async () => {
    const b = await makeBettor(t, rootId, { cash: 5_000_000 });
    const before = (await t.call('GET', '/api/v1/betting/ticker?limit=1', { token })).body.items[0]?.id ?? 0;
    const body = { bettor_ids: [b.id], orders: 3, min_amount: 100_000, max_amount: 200_000, days: 2, live_only: false, min_odds: 3, max_odds: 4 };
    // No match is open to random betting yet.
    expect((await t.call('POST', '/api/v1/betting/random-bets', { token, body })).body.code).toBe('BET_MATCH_CLOSED');
    expect((await t.call('POST', `/api/v1/sports/matches/${encodeURIComponent(ev(9))}/random-bet`, { token, body: { random_bet: true } })).status).toBe(200);
    const headers = { 'idempotency-key': `random-${b.id}-batch` };
    const r = await t.call('POST', '/api/v1/betting/random-bets', { token, body, headers });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.placed).toHaveLength(3);
    // The same request again (a retry) answers the first batch and places nothing more.
    const retry = await t.call('POST', '/api/v1/betting/random-bets', { token, body, headers });
    expect(retry.body).toEqual(r.body);
    // The same key with another body is not a retry: refused, nothing placed.
    const reused = await t.call('POST', '/api/v1/betting/random-bets', { token, body: { ...body, orders: 5 }, headers });
    expect([reused.status, reused.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const placed = await t.database.db.select().from(orders).where(eq(orders.bettorId, b.id));
    for (const o of placed) {
      expect(o.type).toBe(ORDER_TYPE.random_bet);
      expect(o.stake).toBeGreaterThanOrEqual(100_000);
      expect(o.stake).toBeLessThanOrEqual(200_000);
      expect(Number(o.totalOdds)).toBeGreaterThanOrEqual(3);
      expect(Number(o.totalOdds)).toBeLessThanOrEqual(4);
    }
    const ticker = await t.call('GET', `/api/v1/betting/ticker?after_id=${before}`, { token });
    expect(ticker.body.items.map((x: { id: number }) => x.id).sort()).toEqual(placed.map((o) => o.id).sort());
    // The provider's ids come with the names, so the console names the market in the operator's language.
    expect(ticker.body.items[0].legs[0]).toMatchObject({ match: 'Home 9 - Away 9', market_type_id: 1, selection_id: expect.stringMatching(/^[123]$/), specifiers: '' });
    for (const bad of [{ ...body, max_amount: 1 }, { ...body, bettor_ids: [] }, { ...body, max_odds: 2 }]) {
      expect((await t.call('POST', '/api/v1/betting/random-bets', { token, body: bad })).status).toBe(400);
    }
    await invariantsHold();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent settlement (PostgreSQL)', () => {
  it('two concurrent settlements of one order pay once', async () => {
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    await match(51, ['2.50', '3.00', '3.00']);
    const o = await placeOrder(t.database.db, { bettorId: b.id, type: ORDER_TYPE.user_bet, stakeCents: 100_000, legs: [pick(51, '1', '2.50')], skipLiveDelay: true });
    // The feed stores the result and its hook starts settling; three more runs race it on other connections.
    expect(await t.feed.ingest(settle(51, [{ id: '1', result: 1 }]))).toMatchObject({ ok: true });
    const runs = await Promise.all([refreshFromFeed(t.database.db, ev(51)), refreshFromFeed(t.database.db, ev(51)), refreshFromFeed(t.database.db, ev(51))]);
    await t.betting.drain();
    expect(runs.reduce((a, r) => a + r.changed + r.failed, 0)).toBeLessThanOrEqual(1);
    const paid = await t.database.db.select().from(bills).where(and(eq(bills.causeType, 'order'), eq(bills.causeId, String(o.id))));
    expect(paid.map((x) => x.amount).sort((x, y) => x - y)).toEqual([-100_000, 235_000]);
    expect((await balance(b.id)).cash).toBe(250_000 - 15_000);
    expect((await orderRow(o.id)).creditedCash).toBe(235_000);
    await invariantsHold();
  });
});
