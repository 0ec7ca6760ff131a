/**
 * Jackpot settlement (issue 12) through the API and the durable job, on PGlite and (TEST_DATABASE_URL)
 * PostgreSQL: the preview is what the settlement pays (per tier, per ticket, to the cent, worked by hand
 * here), pari-mutuel prizes rounded down with the dust and the unwon tiers rolled over to the next issue,
 * withholding tax, the max_add_balance cap with the withheld remainder, the fixed reward type,
 * resettlement after a result change moving only the difference (a debt when the prize was spent) and a
 * second identical settlement moving nothing, delete refunding every ticket exactly once under two
 * concurrent calls, the cancelled-match rule both ways, a stale fingerprint refused, statistics and risk
 * scoped to the admin's branch, the odds-rise watch, and the ledger invariants after each.
 * The job runs in chunks of 2 tickets and parts of 5 here, so every settlement crosses chunks and parts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  ACCOUNT_KIND, BETTING_OFFER_STATUS, BILL_TYPE, CREDIT_BILL_TYPE, EVENT_STATUS, JACKPOT_BET_STATUS, JACKPOT_SETTLE_STATUS, JACKPOT_TICKET_STATUS, SPORT, message,
} from '@dau/domain';
import { bettors, bills, houseEntries } from '../src/schema.js';
import { HOUSE, checkInvariants, post } from '../src/modules/money/ledger';
import { jackpotBetTypes, jackpotIssueMatches, jackpotIssues, jackpotTickets } from '../src/modules/jackpot/schema';
import { placeTicket } from '../src/modules/jackpot/service';
import { SETTLEMENT_TUNING, SETTLE_ISSUE_JOB } from '../src/modules/jackpot/settlement';
import { watchOdds } from '../src/modules/jackpot/odds-watch';
import { simulateJackpot } from '../src/simulator/jackpot';
import { Rng } from '../src/simulator/rng';
import { SandboxProvider } from '../src/modules/feed/simulator';
import type { FeedMessageInput } from '../src/modules/feed/messages';
import { PRODUCER } from '../src/modules/feed/messages';
import { notifications } from '../src/modules/notices/schema.js';
import { systemLogs } from '../src/platform/schema';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';

let t: TestApp;
let token: string;
let rootId: number;
let branchId: number;
let branchToken: string;
let branchRole: number;

/** The results of the worked example: home, draw, away, home, ... (0, 1, 2, 0, ...). */
const R = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0];
const HIT = (r: number) => 1 << r;
const MISS = (r: number) => 1 << ((r + 1) % 3);
const allHit = (results = R) => results.map((r) => HIT(r % 3));

let n = 0;
const db = () => t.database.db;
const drain = () => t.ctx.jobs.drain([SETTLE_ISSUE_JOB]);

async function betType(over: Partial<typeof jackpotBetTypes.$inferInsert> = {}) {
  const [bt] = await db()
    .insert(jackpotBetTypes)
    .values({
      type: `Jackpot ${++n}`, rewardType: 1, poolRateBps: 5000, betAmount: 1_000, initJackpot: 1_000_001, maxAddBalance: 0, guessNumber: 20, maxDoubles: 5,
      maxTriples: 2, tiers: [{ hits: 13, proportion_bps: 6000 }, { hits: 12, proportion_bps: 2000 }, { hits: 11, proportion_bps: 1200 }, { hits: 10, proportion_bps: 800 }],
      ...over,
    })
    .returning();
  return bt;
}

/** An open issue of the bet type on 13 matches (rows written directly: the issue screens are not under test here). */
async function issue(betTypeId: number, eventIds?: string[]) {
  const bt = (await db().select().from(jackpotBetTypes).where(eq(jackpotBetTypes.id, betTypeId)))[0];
  const k = ++n;
  const start = new Date(Date.now() + 3_600_000);
  const [row] = await db()
    .insert(jackpotIssues)
    .values({
      betTypeId, identifierPrefix: 'JT', identifier: `JT${k}`, startTime: start, maxChoose: bt.guessNumber, incentives: bt.incentives,
      betCloseAt: start, betStatus: JACKPOT_BET_STATUS.open,
    })
    .returning();
  await db()
    .insert(jackpotIssueMatches)
    .values(R.map((_, i) => ({ issueId: row.id, position: i + 1, eventId: eventIds?.[i] ?? `sr:match:jt${k}_${i + 1}`, homeTeam: `H${i + 1}`, awayTeam: `A${i + 1}`, startTime: start })));
  return row;
}

async function place(issueId: number, bettorId: number, picks: number[], useBonus = false) {
  return db().transaction((tx) => placeTicket(tx, { issueId, bettorId, picks, useBonus }));
}

/** The 13 matches are played (their kick-off passed) and get these results (as an operator's). */
async function setResults(issueId: number, results: number[]) {
  await kickOff(issueId);
  for (const [i, r] of results.entries()) {
    await db().update(jackpotIssueMatches).set({ result: r, resultSource: 'operator', overrideReason: 'test' }).where(and(eq(jackpotIssueMatches.issueId, issueId), eq(jackpotIssueMatches.position, i + 1)));
  }
}

/** The issue's matches kicked off two hours ago (matches the feed does not know; the feed's own are moved by a fixture change). */
async function kickOff(issueId: number) {
  await db().update(jackpotIssueMatches).set({ startTime: new Date(Date.now() - 2 * 3_600_000) }).where(eq(jackpotIssueMatches.issueId, issueId));
}

async function preview(issueId: number) {
  const r = await t.call('POST', `/api/v1/jackpot/issues/${issueId}/settle/preview`, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** Preview, confirm with its fingerprint, wait for the job. Answers the preview. */
async function settle(issueId: number) {
  const p = await preview(issueId);
  const r = await t.call('POST', `/api/v1/jackpot/issues/${issueId}/settle`, { token, body: { fingerprint: p.fingerprint } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  expect(r.body.settlement.version).toBe(p.version);
  await drain();
  return p;
}

const ticket = async (id: number) => (await db().select().from(jackpotTickets).where(eq(jackpotTickets.id, id)))[0];
const ticketBills = (id: number) =>
  db().select().from(bills).where(and(eq(bills.causeType, 'jackpot'), eq(bills.causeId, String(id)))).orderBy(asc(bills.id));
/** The ticket's stake bill (the first: a jackpot payment debit). */
const isStake = (b: { type: number; amount: number }) => b.type === BILL_TYPE.jackpot_payment && b.amount < 0;
/** What the settlement credited a ticket: every bill but the stake (the first prize, result changes, debts). */
const creditedBy = async (id: number) => (await ticketBills(id)).filter((b) => !isStake(b)).reduce((s, b) => s + b.amount, 0);
async function house(account: string) {
  const r = await t.database.query(`SELECT coalesce(sum(amount), 0)::bigint AS s FROM house_entries WHERE account = $1`, [account]);
  return Number(r.rows[0].s);
}
const cash = async (id: number) => (await db().select({ c: bettors.cashBalance }).from(bettors).where(eq(bettors.id, id)))[0].c;
async function invariants() {
  expect(await checkInvariants(db())).toEqual([]);
}
const issueRow = async (id: number) => (await db().select().from(jackpotIssues).where(eq(jackpotIssues.id, id)))[0];
const btRow = async (id: number) => (await db().select().from(jackpotBetTypes).where(eq(jackpotBetTypes.id, id)))[0];

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  rootId = (await t.database.query(`SELECT id FROM admins WHERE account = 'admin'`)).rows[0].id;
  branchRole = await makeRole(t, 'Jackpot branch', ['jackpot', 'jackpot_identifier', 'jackpot_identifier:statistics', 'jackpot_identifier:settle', 'jackpot_identifier:delete']);
  branchId = await makeAdmin(t, 'jp_branch', branchRole, rootId);
  branchToken = await t.login('jp_branch');
  SETTLEMENT_TUNING.chunk = 2;
  SETTLEMENT_TUNING.jobTickets = 5;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('settlement: the worked example', () => {
  /** Match 13, a home win in R, turned into a draw. */
  const CHANGED = [...R.slice(0, 12), 1];

  /** The bettor spends their whole cash balance (an admin adjustment). */
  async function spendAll(bettorId: number) {
    const spend = await cash(bettorId);
    await db().transaction((tx) => post(tx, { bettorId, account: ACCOUNT_KIND.cash, amount: -spend, type: BILL_TYPE.admin_balance_change, cause: { type: 'admin' }, house: HOUSE.adminAdjustments }));
  }

  /** The next issue of the bet type with one ticket of a new bettor, results in: all draws. */
  async function nextIssueOnDraws(betTypeId: number) {
    const next = await issue(betTypeId);
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    await place(next.id, b.id, allHit());
    await setResults(next.id, R.map(() => 1)); // all draws: the ticket hits 5 matches, no tier
    return next;
  }

  /**
   * The worked example, built afresh by each case of this block up to where the case starts (so a case
   * runs alone and in any order): `placed` is the bet type, its issue, b1 (in the branch) and b2 (at the
   * root) and their six tickets; `settled` adds the results R and the first settlement; `rolled` the next
   * issue of the bet type settled on all draws (nobody wins: the pool rolls over again); `resettled` b2
   * spending everything, match 13 a draw, resettled, and the same again (version 3). pool0 is the jackpot
   * pool account before the example: the other cases of the file carry their rollovers in the same
   * account, so the example's pool is counted from there.
   */
  async function workedExample(upTo: 'placed' | 'settled' | 'rolled' | 'resettled') {
    const pool0 = await house(HOUSE.jackpotPool);
    const bt = await betType();
    const iss = await issue(bt.id);
    const b1 = await makeBettor(t, branchId, { cash: 1_000_000 });
    const b2 = await makeBettor(t, rootId, { cash: 1_000_000 });
    const twelve = [...allHit().slice(0, 12), MISS(R[12])];
    const doubles = allHit().map((m, i) => (i < 2 ? m | MISS(R[i]) : m));
    const ids: Record<string, number> = {};
    ids.T1 = (await place(iss.id, b1.id, allHit())).id;
    ids.T1b = (await place(iss.id, b2.id, allHit())).id;
    ids.T1c = (await place(iss.id, b2.id, allHit())).id;
    ids.T2 = (await place(iss.id, b1.id, twelve)).id;
    ids.T3 = (await place(iss.id, b2.id, doubles)).id; // 4 lines: 13, 12, 12, 11 hits
    ids.T4 = (await place(iss.id, b1.id, R.map(MISS))).id;
    const ex = { pool0, bt, iss, b1, b2, ids };
    if (upTo === 'placed') return ex;
    await setResults(iss.id, R);
    await settle(iss.id);
    if (upTo === 'settled') return ex;
    await settle((await nextIssueOnDraws(bt.id)).id);
    if (upTo === 'rolled') return ex;
    await spendAll(b2.id);
    await setResults(iss.id, CHANGED);
    await settle(iss.id);
    await settle(iss.id);
    return ex;
  }

  it('previews per tier exactly what the hand computation gives, then pays exactly that', async () => {
    const { bt, iss, b1, ids, pool0 } = await workedExample('placed');

    // Results unknown: refused.
    const missing = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle/preview`, { token });
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('JACKPOT_RESULTS_MISSING');
    await setResults(iss.id, R);

    // By hand: stakes 9 lines x 10.00 = 90.00; pool = seed 10,000.01 + 50 % of 90.00 = 10,045.01.
    const p = await preview(iss.id);
    expect(p.kind).toBe('settle');
    expect(p.pool).toEqual({ carried: 0, seed_top_up: 1_000_001, from_stakes: 4_500, from_incentives: 0, total: 1_004_501 });
    expect(p.tiers).toEqual([
      // 13 hits: 4 lines share floor(602,700.6) = 602,700 -> 150,675 each.
      { hits: 13, proportion_bps: 6000, share: 602_700, winning_lines: 4, prize_per_line: 150_675, paid: 602_700, rollover: 0, capped: 0 },
      // 12 hits: 3 lines share 200,900 -> 66,966 each (rounded down), 2 cents of dust roll over.
      { hits: 12, proportion_bps: 2000, share: 200_900, winning_lines: 3, prize_per_line: 66_966, paid: 200_898, rollover: 2, capped: 0 },
      // 11 hits: 1 line would get the whole 120,540, more than a 12-hit line: capped at 66,966 (issue 23), the rest rolls over.
      { hits: 11, proportion_bps: 1200, share: 120_540, winning_lines: 1, prize_per_line: 66_966, paid: 66_966, rollover: 53_574, capped: 53_574 },
      // 10 hits: nobody; the whole share rolls over.
      { hits: 10, proportion_bps: 800, share: 80_360, winning_lines: 0, prize_per_line: 0, paid: 0, rollover: 80_360, capped: 0 },
    ]);
    // Rollover = dust 2 + the 11-hit cap 53,574 + unwon 80,360 + unallocated 1 (the shares' rounding).
    expect(p.totals.rollover).toBe(133_937);
    // Tax 10 % of the net winnings, rounded down: T1 (150,675 - 1,000) -> 14,967; T2 (66,966 - 1,000) -> 6,596;
    // T3 (150,675 + 3 x 66,966 = 351,573) - 4,000 -> 34,757.
    const expected: Record<string, { gross: number; tax: number }> = {
      T1: { gross: 150_675, tax: 14_967 }, T1b: { gross: 150_675, tax: 14_967 }, T1c: { gross: 150_675, tax: 14_967 },
      T2: { gross: 66_966, tax: 6_596 }, T3: { gross: 150_675 + 3 * 66_966, tax: 34_757 }, T4: { gross: 0, tax: 0 },
    };
    const gross = Object.values(expected).reduce((s, e) => s + e.gross, 0);
    const tax = Object.values(expected).reduce((s, e) => s + e.tax, 0);
    expect(p.totals).toMatchObject({ tickets: 6, lines: 9, stakes: 9_000, winning_tickets: 5, winning_lines: 8, gross, tax, credited: gross - tax, withheld: 0 });
    expect(p.totals.net_income).toBe(9_000 - gross);
    expect(p.totals.net_profit).toBe(9_000 - 4_500 - 1_000_001);

    const taxBefore = await house(HOUSE.taxPayable);
    const cash1 = await cash(b1.id);
    await settle(iss.id);
    for (const [k, e] of Object.entries(expected)) {
      const tk = await ticket(ids[k]);
      expect({ k, gross: tk.gross, tax: tk.tax, credited: tk.credited, withheld: tk.withheld }).toEqual({ k, gross: e.gross, tax: e.tax, credited: e.gross - e.tax, withheld: 0 });
      expect(tk.status).toBe(e.gross > 0 ? JACKPOT_TICKET_STATUS.won : JACKPOT_TICKET_STATUS.lost);
      expect(tk.settledVersion).toBe(1);
      expect(await creditedBy(ids[k])).toBe(e.gross - e.tax);
      // One prize bill at most, from the pool: a first settlement's prize is a jackpot payment (bill 3), not a result change (issue 23).
      const prizes = (await ticketBills(ids[k])).filter((b) => !isStake(b));
      expect(prizes.map((b) => [b.type, b.amount])).toEqual(e.gross > 0 ? [[BILL_TYPE.jackpot_payment, e.gross - e.tax]] : []);
      if (e.gross > 0) {
        const entries = await db().select().from(houseEntries).where(eq(houseEntries.txnId, prizes[0].txnId));
        // The prize from the pool, the tax to the tax payable account: all of it bill 3.
        expect(entries.map((x) => x.billType)).toEqual(entries.map(() => BILL_TYPE.jackpot_payment));
        expect(entries.filter((x) => x.account === HOUSE.jackpotPool).reduce((sum, x) => sum + x.amount, 0)).toBe(-e.gross);
      }
    }
    expect((await ticket(ids.T3)).bestHits).toBe(13);
    expect((await ticket(ids.T3)).winningLines).toBe(4);
    expect(await cash(b1.id)).toBe(cash1 + expected.T1.gross - expected.T1.tax + expected.T2.gross - expected.T2.tax);
    expect((await house(HOUSE.taxPayable)) - taxBefore).toBe(tax);
    // The pool account holds exactly the rollover (over what it held before the example), which the bet type now carries.
    expect((await house(HOUSE.jackpotPool)) - pool0).toBe(133_937);
    expect((await btRow(bt.id)).jackpot).toBe(133_937);
    const done = await issueRow(iss.id);
    expect(done).toMatchObject({ settleStatus: JACKPOT_SETTLE_STATUS.settled, settledVersion: 1, successful: 8, expenditure: gross, netIncome: 9_000 - gross, prizePool: 1_004_501 });
    const recs = await t.call('GET', `/api/v1/jackpot/issues/${iss.id}/settlements`, { token });
    expect(recs.status).toBe(200);
    expect(recs.body.items.map((x: any) => [x.version, x.kind, x.status])).toEqual([[1, 'settle', 'done']]);
    expect(recs.body.items[0].plan.tiers).toEqual(p.tiers);
    await invariants();
  });

  it('rolls the unpaid amount into the next issue of the bet type', async () => {
    const { bt, pool0 } = await workedExample('settled');
    const next = await nextIssueOnDraws(bt.id);
    const p = await preview(next.id);
    // Carried 133,937; the seed tops it up to 1,000,001.
    expect(p.pool).toEqual({ carried: 133_937, seed_top_up: 1_000_001 - 133_937, from_stakes: 500, from_incentives: 0, total: 1_000_501 });
    await settle(next.id);
    // Nobody won: the whole pool rolls over again.
    expect((await btRow(bt.id)).jackpot).toBe(1_000_501);
    expect((await house(HOUSE.jackpotPool)) - pool0).toBe(1_000_501);
    await invariants();
  });

  it('statistics: the whole issue for the super admin, only its branch for a branch admin', async () => {
    const { iss } = await workedExample('settled');
    const all = await t.call('GET', `/api/v1/jackpot/issues/${iss.id}/statistics`, { token });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ scope: 'all', tickets: 6, lines: 9, stakes: 9_000, winning_tickets: 5, winning_lines: 8 });
    expect(all.body.tiers.map((x: any) => x.winning_lines)).toEqual([4, 3, 1, 0]);
    const branch = await t.call('GET', `/api/v1/jackpot/issues/${iss.id}/statistics`, { token: branchToken });
    expect(branch.status).toBe(200);
    // b1's tickets: T1 (13 hits), T2 (12), T4 (none).
    expect(branch.body).toMatchObject({ scope: 'branch', tickets: 3, lines: 3, stakes: 3_000, winning_tickets: 2, winning_lines: 2 });
    expect(branch.body.tiers.map((x: any) => x.winning_lines)).toEqual([1, 1, 0, 0]);
    expect(branch.body.gross).toBe(150_675 + 66_966);
  });

  it('resettles after a result change moving only the difference (a debt when the prize was spent), and a second identical settle moves nothing', async () => {
    const { bt, iss, b2, ids, pool0 } = await workedExample('rolled');
    // b2 spends everything: the prizes taken back leave a debt.
    await spendAll(b2.id);
    const before = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([k, id]) => [k, await ticket(id)] as const)));
    const billsBefore = (await db().select({ n: sql<number>`count(*)::int` }).from(bills))[0].n;
    // Match 13 was home; it is a draw: T1s drop to 12 hits, T2 rises to 13, T3 to (12, 11, 11, 10), T4 to 1 hit.
    await setResults(iss.id, CHANGED);
    const p = await preview(iss.id);
    expect(p.kind).toBe('resettle');
    expect(p.version).toBe(2);
    // The pool is the first settlement's.
    expect(p.pool.total).toBe(1_004_501);
    expect(p.tiers.map((x: any) => x.winning_lines)).toEqual([1, 4, 2, 1]);
    await settle(iss.id);
    let moved = 0;
    for (const [k, id] of Object.entries(ids)) {
      const now = await ticket(id);
      expect(now.settledVersion).toBe(2);
      // Every bill of the ticket together credits exactly what it holds now.
      expect(await creditedBy(id)).toBe(now.credited);
      // One new bill for a ticket whose money changed (the difference, a result change: bill 5, or a debt: bill 8), none for the others.
      const added = (await ticketBills(id)).filter((b) => b.type !== BILL_TYPE.jackpot_payment);
      if (now.credited === before[k].credited) expect(added, k).toEqual([]);
      else {
        expect(added.map((b) => b.amount), k).toEqual([now.credited - before[k].credited]);
        expect([BILL_TYPE.jackpot_result_change, BILL_TYPE.amount_rolled_back], k).toContain(added[0].type);
        moved++;
      }
    }
    expect(moved).toBeGreaterThan(0);
    // b2's first taken-back prize could not be covered: booked as amount rolled back, balance below zero.
    const b2Bills = await db().select().from(bills).where(eq(bills.bettorId, b2.id)).orderBy(asc(bills.id));
    const debt = b2Bills.filter((b) => b.type === BILL_TYPE.amount_rolled_back);
    expect(debt.length).toBeGreaterThan(0);
    expect(debt[0].balanceAfter).toBeLessThan(0);
    expect(await cash(b2.id)).toBeLessThan(0);
    // The bet type's jackpot moved by the rollover's difference; the pool account still equals the carried amounts.
    const v2 = p.totals.rollover;
    expect((await btRow(bt.id)).jackpot).toBe(1_000_501 - 133_937 + v2);
    expect((await house(HOUSE.jackpotPool)) - pool0).toBe((await btRow(bt.id)).jackpot);
    await invariants();

    // The same results again: version 3, nothing moves.
    const billsMid = (await db().select({ n: sql<number>`count(*)::int` }).from(bills))[0].n;
    expect(billsMid).toBeGreaterThan(billsBefore);
    const houseMid = (await t.database.query(`SELECT count(*)::int AS n FROM house_entries`)).rows[0].n;
    const again = await settle(iss.id);
    expect(again.version).toBe(3);
    expect(again.difference).toEqual({ tickets: 0, credited: 0, tax: 0, withheld: 0, refunds: 0 });
    expect((await db().select({ n: sql<number>`count(*)::int` }).from(bills))[0].n).toBe(billsMid);
    expect((await t.database.query(`SELECT count(*)::int AS n FROM house_entries`)).rows[0].n).toBe(houseMid);
    expect((await btRow(bt.id)).jackpot).toBe(1_000_501 - 133_937 + v2);
    await invariants();
  });

  it('refuses a stale fingerprint, and answers 404 for an unknown issue on every route', async () => {
    const { iss } = await workedExample('resettled');
    const p = await preview(iss.id);
    await setResults(iss.id, R);
    const stale = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle`, { token, body: { fingerprint: p.fingerprint } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('JACKPOT_PREVIEW_STALE');
    expect((await issueRow(iss.id)).settledVersion).toBe(3);
    for (const [method, path, body] of [
      ['POST', '/settle/preview', undefined], ['POST', '/settle', { fingerprint: 'x' }], ['GET', '/settlements', undefined],
      ['GET', '/statistics', undefined], ['GET', '/risk', undefined], ['DELETE', '', { reason: 'x' }],
    ] as const) {
      const r = await t.call(method, `/api/v1/jackpot/issues/999999${path}`, { token, body });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    // A settled issue cannot be deleted.
    const del = await t.call('DELETE', `/api/v1/jackpot/issues/${iss.id}`, { token, body: { reason: 'too late' } });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('JACKPOT_ALREADY_SETTLED');
  });
});

describe('cap, fixed reward type', () => {
  it('credits at most max_add_balance per ticket and holds the rest; fixed prizes are paid in full per line, the house funding the excess', async () => {
    const bt = await betType({ rewardType: 2, maxAddBalance: 100_000, initJackpot: 500_000, poolRateBps: 0, tiers: [{ hits: 13, proportion_bps: 5000 }, { hits: 12, proportion_bps: 1000 }] });
    const iss = await issue(bt.id);
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    const a = await place(iss.id, b.id, allHit());
    const c = await place(iss.id, b.id, allHit());
    const l = await place(iss.id, b.id, R.map(MISS));
    await setResults(iss.id, R);
    const p = await preview(iss.id);
    // Pool 500,000: tier 13 share 250,000 paid to each of 2 lines; tier 12 unwon: 50,000 rolls over with the unallocated 200,000.
    expect(p.tiers).toEqual([
      { hits: 13, proportion_bps: 5000, share: 250_000, winning_lines: 2, prize_per_line: 250_000, paid: 500_000, rollover: 0, capped: 0 },
      // Fixed: the prize of a line is the share, whoever wins it.
      { hits: 12, proportion_bps: 1000, share: 50_000, winning_lines: 0, prize_per_line: 50_000, paid: 0, rollover: 50_000, capped: 0 },
    ]);
    expect(p.totals.house_funded).toBe(250_000);
    expect(p.totals.rollover).toBe(250_000);
    const payableBefore = await house(HOUSE.jackpotPrizesPayable);
    const bonusesBefore = await house(HOUSE.bonuses);
    const poolBefore = await house(HOUSE.jackpotPool);
    await settle(iss.id);
    // Gross 250,000, tax floor(249,000 x 10 %) = 24,900, net 225,100: 100,000 credited, 125,100 withheld.
    for (const id of [a.id, c.id]) {
      expect(await ticket(id)).toMatchObject({ gross: 250_000, tax: 24_900, credited: 100_000, withheld: 125_100, status: JACKPOT_TICKET_STATUS.won });
      expect(await creditedBy(id)).toBe(100_000);
    }
    expect(await ticket(l.id)).toMatchObject({ gross: 0, credited: 0, status: JACKPOT_TICKET_STATUS.lost });
    expect((await house(HOUSE.jackpotPrizesPayable)) - payableBefore).toBe(2 * 125_100);
    // The house paid the seed and the fixed prizes' excess from bonuses.
    expect(bonusesBefore - (await house(HOUSE.bonuses))).toBe(500_000 + 250_000);
    expect((await house(HOUSE.jackpotPool)) - poolBefore).toBe(250_000);
    expect((await btRow(bt.id)).jackpot).toBe(250_000);
    await invariants();
  });
});

describe('cancelled matches', () => {
  const cancelled = (k: number) => R.map((r, i) => (i < k ? 3 : r));

  it('rule 2 voids the issue above the threshold: every ticket refunded (bonus funds to the credit account)', async () => {
    const bt = await betType({ cancelRule: 2, cancelVoidThreshold: 3, allowBonus: true });
    const iss = await issue(bt.id);
    const b = await makeBettor(t, rootId, { cash: 50_000 });
    await db().transaction((tx) => post(tx, { bettorId: b.id, account: ACCOUNT_KIND.credit, amount: 1_500, type: CREDIT_BILL_TYPE.activity_credit_granted, cause: { type: 'promotion' }, house: HOUSE.creditIssued }));
    const x = await place(iss.id, b.id, allHit().map((m, i) => (i < 2 ? 7 : m)), true); // 9 lines, 1,500 from bonus funds
    const y = await place(iss.id, b.id, R.map(MISS));
    expect(x.bonusStake).toBe(1_500);
    const cashAfterBets = await cash(b.id);
    await setResults(iss.id, cancelled(4));
    const p = await preview(iss.id);
    expect(p.kind).toBe('void');
    expect(p.totals.refunds).toBe(10_000);
    await settle(iss.id);
    expect((await issueRow(iss.id)).settleStatus).toBe(JACKPOT_SETTLE_STATUS.voided);
    for (const tk of [x, y]) expect((await ticket(tk.id)).status).toBe(JACKPOT_TICKET_STATUS.refunded);
    const refunds = (await ticketBills(x.id)).filter((bl) => bl.amount > 0);
    // Refunds are amounts rolled back (bill 8; the bonus funds a credit refund, 104), not jackpot payments (issue 23).
    expect(refunds.map((bl) => [bl.accountKind, bl.type, bl.amount])).toEqual([[ACCOUNT_KIND.cash, BILL_TYPE.amount_rolled_back, 7_500], [ACCOUNT_KIND.credit, CREDIT_BILL_TYPE.credit_refund, 1_500]]);
    expect(await cash(b.id)).toBe(cashAfterBets + 10_000 - 1_500);
    expect((await db().select({ c: bettors.creditBalance }).from(bettors).where(eq(bettors.id, b.id)))[0].c).toBe(1_500);
    // Nothing was funded or carried.
    expect((await btRow(bt.id)).jackpot).toBe(0);
    // A voided issue cannot be settled again.
    const again = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle/preview`, { token });
    expect(again.status).toBe(409);
    await invariants();
  });

  it('rule 2 at the threshold and rule 1 above it: the cancelled matches count as won for every line', async () => {
    for (const [rule, k] of [[2, 3], [1, 4]] as const) {
      const bt = await betType({ cancelRule: rule, cancelVoidThreshold: 3 });
      const iss = await issue(bt.id);
      const b = await makeBettor(t, rootId, { cash: 50_000 });
      // Wrong on the cancelled matches, right elsewhere: 13 hits all the same.
      const tk = await place(iss.id, b.id, R.map((r, i) => (i < k ? MISS(r) : HIT(r))));
      await setResults(iss.id, cancelled(k));
      const p = await preview(iss.id);
      expect(p.kind, `rule ${rule}`).toBe('settle');
      expect(p.tiers[0].winning_lines).toBe(1);
      await settle(iss.id);
      expect((await ticket(tk.id)).bestHits).toBe(13);
      expect((await issueRow(iss.id)).settleStatus).toBe(JACKPOT_SETTLE_STATUS.settled);
    }
    await invariants();
  });
});

describe('delete', () => {
  it('refunds every ticket exactly once under two concurrent calls, needs a reason, is audited once and answers the same again', async () => {
    const bt = await betType();
    const iss = await issue(bt.id);
    const people = [await makeBettor(t, rootId, { cash: 100_000 }), await makeBettor(t, branchId, { cash: 100_000 })];
    const start = await Promise.all(people.map((p) => cash(p.id)));
    const placed = [];
    for (let i = 0; i < 11; i++) placed.push(await place(iss.id, people[i % 2].id, allHit().map((m, j) => (j === i ? m | MISS(R[j]) : m))));
    const noReason = await t.call('DELETE', `/api/v1/jackpot/issues/${iss.id}`, { token, body: {} });
    expect(noReason.status).toBe(400);
    expect(noReason.body.code).toBe('JACKPOT_REASON_REQUIRED');
    const [a, b] = await Promise.all([1, 2].map(() => t.call('DELETE', `/api/v1/jackpot/issues/${iss.id}`, { token, body: { reason: 'matches postponed' } })));
    for (const r of [a, b]) expect([200, 202], JSON.stringify(r.body)).toContain(r.status);
    expect(a.body.version).toBe(b.body.version);
    expect(a.body.reason).toBe('matches postponed');
    expect(a.body.refunds).toBe(placed.reduce((s, p) => s + p.stake, 0));
    await drain();
    const third = await t.call('DELETE', `/api/v1/jackpot/issues/${iss.id}`, { token, body: { reason: 'again' } });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ version: a.body.version, status: 'done', reason: 'matches postponed', settle_status: JACKPOT_SETTLE_STATUS.deleted });
    for (const p of placed) {
      const refunds = (await ticketBills(p.id)).filter((bl) => bl.amount > 0);
      expect(refunds.map((bl) => [bl.type, bl.amount])).toEqual([[BILL_TYPE.amount_rolled_back, p.stake]]);
      expect((await ticket(p.id)).status).toBe(JACKPOT_TICKET_STATUS.refunded);
    }
    expect(await Promise.all(people.map((p) => cash(p.id)))).toEqual(start);
    const row = await issueRow(iss.id);
    expect(row).toMatchObject({ settleStatus: JACKPOT_SETTLE_STATUS.deleted, betStatus: JACKPOT_BET_STATUS.closed, deleteReason: 'matches postponed' });
    const audits = await db().select().from(systemLogs).where(sql`${systemLogs.content} like ${`jackpot issue ${iss.id} deleted:%`}`);
    expect(audits).toHaveLength(1);
    // Deleted: no settlement.
    const s = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle/preview`, { token });
    expect(s.status).toBe(409);
    expect(s.body.code).toBe('JACKPOT_DELETED');
    await invariants();
  });
});

describe("the agents' statement (issue 23)", () => {
  it('counts a jackpot stake as a stake, a first prize (bill 3) as a payout, and a deleted issue\'s refund (bill 8) as money paid back', async () => {
    const agent = await makeAdmin(t, `jp_stmt_${++n}`, branchRole, rootId);
    const from = new Date(Date.now() - 60_000).toISOString();
    const b = await makeBettor(t, agent, { cash: 100_000 });
    const won = await issue((await betType()).id);
    await place(won.id, b.id, allHit());
    const doomed = await issue((await betType()).id);
    await place(doomed.id, b.id, allHit());
    await setResults(won.id, R);
    await settle(won.id);
    const del = await t.call('DELETE', `/api/v1/jackpot/issues/${doomed.id}`, { token, body: { reason: 'statement test' } });
    expect([200, 202]).toContain(del.status);
    await drain();
    const credited = (await db().select().from(jackpotTickets).where(eq(jackpotTickets.issueId, won.id)))[0].credited;
    const to = new Date(Date.now() + 60_000).toISOString();
    const r = await t.call('GET', `/api/v1/money/admin_bills/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = r.body.items.find((x: { agent_id: number }) => x.agent_id === agent);
    // Two stakes of 10.00; the prize and the refunded stake paid back; the refund nets to nothing in GGR.
    expect(row).toMatchObject({ stakes: 2_000, payouts: credited + 1_000, withdrawals: 0, ggr: 2_000 - credited - 1_000 });
  });
});

describe('kick-off (issue 23)', () => {
  it('refuses to preview or settle while a match with a home, draw or away result has not kicked off; a cancelled one may have its result', async () => {
    const bt = await betType();
    const iss = await issue(bt.id); // kicking off in an hour
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    const tk = await place(iss.id, b.id, allHit());
    // Results written before kick-off (as the results route refused since): no preview, no settlement.
    for (const [i, r] of R.entries()) {
      await db().update(jackpotIssueMatches).set({ result: r, resultSource: 'operator', overrideReason: 'early' }).where(and(eq(jackpotIssueMatches.issueId, iss.id), eq(jackpotIssueMatches.position, i + 1)));
    }
    const early = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle/preview`, { token });
    expect(early.status, JSON.stringify(early.body)).toBe(422);
    expect(early.body).toMatchObject({ code: 'JACKPOT_MATCH_NOT_STARTED', message: message('JACKPOT_MATCH_NOT_STARTED', 'en-US', { position: 1, match: 'H1 - A1' }) });
    const sw = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle/preview`, { token, headers: { 'x-locale': 'sw-KE' } });
    expect(sw.body.message).toBe(message('JACKPOT_MATCH_NOT_STARTED', 'sw-KE', { position: 1, match: 'H1 - A1' }));
    const confirm = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle`, { token, body: { fingerprint: 'x' } });
    expect(confirm.body.code).toBe('JACKPOT_MATCH_NOT_STARTED');
    // 12 matches played; the 13th postponed before its start, cancelled: settleable (a cancelled match counts as won).
    await db().update(jackpotIssueMatches).set({ startTime: new Date(Date.now() - 7_200_000) }).where(and(eq(jackpotIssueMatches.issueId, iss.id), sql`${jackpotIssueMatches.position} <= 12`));
    await db().update(jackpotIssueMatches).set({ result: 3 }).where(and(eq(jackpotIssueMatches.issueId, iss.id), eq(jackpotIssueMatches.position, 13)));
    const p = await preview(iss.id);
    expect(p.tiers[0].winning_lines).toBe(1);
    // Its result turned back into a home win before it was played: refused again, naming it.
    await db().update(jackpotIssueMatches).set({ result: 0 }).where(and(eq(jackpotIssueMatches.issueId, iss.id), eq(jackpotIssueMatches.position, 13)));
    const again = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle/preview`, { token });
    expect(again.body).toMatchObject({ code: 'JACKPOT_MATCH_NOT_STARTED', message: message('JACKPOT_MATCH_NOT_STARTED', 'en-US', { position: 13, match: 'H13 - A13' }) });
    expect((await ticket(tk.id)).status).toBe(JACKPOT_TICKET_STATUS.open);
    expect((await issueRow(iss.id)).settleStatus).toBe(JACKPOT_SETTLE_STATUS.unsettled);
    await kickOff(iss.id);
    await settle(iss.id);
    expect((await ticket(tk.id)).bestHits).toBe(13);
    await invariants();
  });
});

describe('results from the feed', () => {
  it("the preview and the settlement take the feed's settled 1X2 results; an operator's override stays", async () => {
    let clock = Date.now();
    const ev = (i: number) => `sr:match:fr_${i + 1}`;
    for (let i = 0; i < 13; i++) {
      for (const m of [
        { type: 'fixture_change', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: ev(i), sport_id: SPORT.football, league_id: 'sr:tournament:fr', league_name: 'FR', home_team: `H${i}`, away_team: `A${i}`, start_time: Date.now() + 7_200_000, status: EVENT_STATUS.not_started },
        { type: 'odds_change', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: ev(i), event_status: EVENT_STATUS.not_started, markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: ['2.00', '3.20', '3.90'].map((price, j) => ({ id: String(j + 1), price, active: true })) }] },
      ] as const) expect(await t.feed.ingest(m as never)).toMatchObject({ ok: true });
    }
    const bt = await betType();
    const iss = await issue(bt.id, R.map((_, i) => ev(i)));
    const b = await makeBettor(t, rootId, { cash: 100_000 });
    const tk = await place(iss.id, b.id, allHit());
    // The matches are played: the feed moves them to their kick-off, two hours ago, and ends them.
    for (let i = 0; i < 13; i++) {
      const played = {
        type: 'fixture_change', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: ev(i), sport_id: SPORT.football, league_id: 'sr:tournament:fr',
        league_name: 'FR', home_team: `H${i}`, away_team: `A${i}`, start_time: Date.now() - 7_200_000, status: EVENT_STATUS.ended,
      };
      expect(await t.feed.ingest(played as never)).toMatchObject({ ok: true });
    }
    // The feed settles 12 matches as in R; match 13 stays without a result: not settleable yet.
    const settleMsg = (i: number, r: number) => ({
      type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: ev(i),
      markets: [{ id: 1, outcomes: [0, 1, 2].map((k) => ({ id: String(k + 1), result: k === r ? 1 : 0 })) }],
    });
    for (let i = 0; i < 12; i++) expect(await t.feed.ingest(settleMsg(i, R[i]) as never)).toMatchObject({ ok: true });
    await t.betting.drain();
    const early = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle/preview`, { token });
    expect(early.status).toBe(422);
    expect(early.body.code).toBe('JACKPOT_RESULTS_MISSING');
    // An operator's result for match 1 (away instead of the feed's home) stays; match 13 from the feed.
    await db().update(jackpotIssueMatches).set({ result: 2, resultSource: 'operator', overrideReason: 'video review' }).where(and(eq(jackpotIssueMatches.issueId, iss.id), eq(jackpotIssueMatches.position, 1)));
    expect(await t.feed.ingest(settleMsg(12, R[12]) as never)).toMatchObject({ ok: true });
    await t.betting.drain();
    const p = await preview(iss.id);
    expect(p.results).toEqual([2, ...R.slice(1)]);
    expect(p.tiers.map((x: any) => x.winning_lines)).toEqual([0, 1, 0, 0]);
    await settle(iss.id);
    expect((await ticket(tk.id)).bestHits).toBe(12);
    await invariants();
  });
});

describe('risk view and odds watch', () => {
  it('risk: coverage and tiers over the open tickets, scoped to the branch', async () => {
    const bt = await betType();
    const iss = await issue(bt.id);
    const mine = await makeBettor(t, branchId, { cash: 100_000 });
    const other = await makeBettor(t, rootId, { cash: 100_000 });
    await place(iss.id, mine.id, allHit().map((m, i) => (i === 0 ? 7 : m))); // 3 lines
    await place(iss.id, other.id, allHit());
    await place(iss.id, other.id, R.map(MISS));
    const all = await t.call('GET', `/api/v1/jackpot/issues/${iss.id}/risk`, { token });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body).toMatchObject({ tickets: 3, lines_sold: 5, vectors: 3 ** 13 });
    expect(all.body.coverage).toHaveLength(13);
    // Match 1: home by 2 tickets (1 line each... the triple gives 1 line per result), draw by the triple and the miss ticket.
    expect(all.body.coverage[0]).toEqual({ position: 1, home: 2, draw: 2, away: 1 });
    for (const c of all.body.coverage) expect(c.home + c.draw + c.away).toBe(5);
    expect(all.body.per_tier[0]).toMatchObject({ hits: 13, max_lines: 2 });
    expect(all.body.top.length).toBeGreaterThan(0);
    expect(all.body.top[0].vector).toEqual(R);
    const branch = await t.call('GET', `/api/v1/jackpot/issues/${iss.id}/risk`, { token: branchToken });
    expect(branch.status).toBe(200);
    expect(branch.body).toMatchObject({ tickets: 1, lines_sold: 3 });
    // A branch admin may read statistics but not settle or delete an issue every branch shares.
    const settle = await t.call('POST', `/api/v1/jackpot/issues/${iss.id}/settle/preview`, { token: branchToken });
    expect(settle.status).toBe(403);
    const del = await t.call('DELETE', `/api/v1/jackpot/issues/${iss.id}`, { token: branchToken, body: { reason: 'x' } });
    expect(del.status).toBe(403);
    expect((await issueRow(iss.id)).settleStatus).toBe(JACKPOT_SETTLE_STATUS.unsettled);
  });

  it('odds watch: a price rising at 5 consecutive checks by the step suspends betting with a notice; a smaller rise does not', async () => {
    const ev = (k: number, i: number) => `sr:match:ow${k}_${i + 1}`;
    let clock = Date.now();
    const prices = async (k: number, home: number) => {
      for (let i = 0; i < 13; i++) {
        const r = await t.feed.ingest({
          type: 'odds_change', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: ev(k, i), event_status: EVENT_STATUS.not_started,
          markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: [home.toFixed(2), '3.20', '3.90'].map((p, j) => ({ id: String(j + 1), price: i === 4 ? p : j === 0 ? '2.00' : p, active: true })) }],
        });
        expect(r).toMatchObject({ ok: true });
      }
    };
    const issues = [];
    for (const k of [1, 2]) {
      for (let i = 0; i < 13; i++) {
        await t.feed.ingest({
          type: 'fixture_change', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: ev(k, i), sport_id: SPORT.football,
          league_id: 'sr:tournament:ow', league_name: 'OW League', home_team: `H${i}`, away_team: `A${i}`, start_time: Date.now() + 7_200_000, status: EVENT_STATUS.not_started,
        });
      }
      const bt = await betType({ oddsRiseStep: k === 1 ? '0.50' : '1.00' });
      issues.push(await issue(bt.id, R.map((_, i) => ev(k, i))));
    }
    for (const [step, home] of [1.8, 1.95, 2.1, 2.25, 2.4].entries()) {
      await prices(1, home);
      await prices(2, home);
      const run = await watchOdds(t.ctx);
      if (step < 4) expect(run.suspended).toEqual([]);
      else expect(run.suspended.map((s) => s.issueId)).toEqual([issues[0].id]);
    }
    expect((await issueRow(issues[0].id)).betStatus).toBe(JACKPOT_BET_STATUS.suspended);
    expect((await issueRow(issues[1].id)).betStatus).toBe(JACKPOT_BET_STATUS.open);
    const notes = await db().select().from(notifications).where(sql`${notifications.content} like ${`Jackpot ${issues[0].identifier}:%`}`);
    expect(notes.length).toBeGreaterThan(0);
    expect(notes[0].content).toContain('match 5 home (1)');
    // Suspended issues are no longer watched.
    const again = await watchOdds(t.ctx);
    expect(again.suspended).toEqual([]);
  });
});

describe('simulator', () => {
  it('a fresh install gets past issues with winners and a live issue on the next 13 sandbox matches; results from the feed settle it', { timeout: 300_000 }, async () => {
    // A fresh install of its own (the simulator's history is written when no issue exists yet).
    const s = await createTestApp();
    try {
      const sdb = s.database.db;
      const rng = new Rng(7);
      const root = (await s.database.query(`SELECT id FROM admins WHERE account = 'admin'`)).rows[0].id;
      for (let i = 0; i < 15; i++) await makeBettor(s, root, { cash: 50_000_000 });
      const sent: FeedMessageInput[] = [];
      new SandboxProvider({ seed: 11, startTime: Date.now(), emit: (m) => sent.push(m), basketballMatches: 0 }).start();
      for (const m of sent) await s.feed.ingest(m);
      const sdrain = () => s.ctx.jobs.drain([SETTLE_ISSUE_JOB]);
      await simulateJackpot(s.ctx, rng);
      await sdrain();
      const issues = await sdb.select().from(jackpotIssues).orderBy(asc(jackpotIssues.id));
      expect(issues).toHaveLength(4);
      const past = issues.slice(0, 3);
      for (const p of past) {
        expect(p.settleStatus, p.identifier).toBe(JACKPOT_SETTLE_STATUS.settled);
        expect(p.tickets).toBeGreaterThan(30);
        expect(p.startTime.getTime()).toBeLessThan(Date.now());
      }
      const winners = await s.database.query(`SELECT count(*)::int AS n FROM jackpot_tickets WHERE gross > 0 AND issue_id = ANY($1::int[])`, [past.map((p) => p.id)]);
      expect(winners.rows[0].n).toBeGreaterThan(0);
      const live = issues[3];
      expect(live).toMatchObject({ betStatus: JACKPOT_BET_STATUS.open, settleStatus: JACKPOT_SETTLE_STATUS.unsettled });
      expect(live.betCloseAt!.getTime()).toBeGreaterThan(Date.now());
      for (let i = 0; i < 12; i++) await simulateJackpot(s.ctx, rng);
      const tickets = await sdb.select().from(jackpotTickets).where(eq(jackpotTickets.issueId, live.id));
      expect(tickets.length).toBeGreaterThan(10);
      expect(tickets.some((x) => x.lines > 1)).toBe(true);
      // Bets close; the feed settles the 13 matches (home wins); the next step settles the issue through the job.
      await sdb.update(jackpotIssues).set({ betCloseAt: new Date(Date.now() - 1000) }).where(eq(jackpotIssues.id, live.id));
      const matches = await sdb.select().from(jackpotIssueMatches).where(eq(jackpotIssueMatches.issueId, live.id));
      let clock = Date.now() + 10_000_000;
      // They are played: the feed has them kick off two hours ago (a result before kick-off is refused, issue 23).
      for (const m of matches) {
        const [{ league_id }] = (await s.database.query(`SELECT league_id FROM feed_events WHERE event_id = $1`, [m.eventId])).rows;
        const r = await s.feed.ingest({
          type: 'fixture_change', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: m.eventId, sport_id: SPORT.football, league_id,
          league_name: m.leagueName, home_team: m.homeTeam, away_team: m.awayTeam, start_time: Date.now() - 7_200_000, status: EVENT_STATUS.ended,
        } as never);
        expect(r).toMatchObject({ ok: true });
      }
      for (const m of matches) {
        const r = await s.feed.ingest({ type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: (clock += 1000), event_id: m.eventId, markets: [{ id: 1, outcomes: [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }] }] });
        expect(r).toMatchObject({ ok: true });
      }
      await s.betting.drain();
      await simulateJackpot(s.ctx, rng);
      await sdrain();
      const done = (await sdb.select().from(jackpotIssues).where(eq(jackpotIssues.id, live.id)))[0];
      expect(done.settleStatus).toBe(JACKPOT_SETTLE_STATUS.settled);
      expect((await sdb.select().from(jackpotTickets).where(and(eq(jackpotTickets.issueId, live.id), eq(jackpotTickets.status, JACKPOT_TICKET_STATUS.open)))).length).toBe(0);
      expect(await checkInvariants(sdb)).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
