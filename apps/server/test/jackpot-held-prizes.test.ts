/**
 * The queue of jackpot prizes held above a bet type's max_add_balance (issue 23), through the API on PGlite
 * and (TEST_DATABASE_URL) PostgreSQL: the list (held, paid, remaining, state) scoped to the bettor's branch
 * with its filters; a payment to the balance or recorded as paid outside waits for a second admin (the
 * asker cannot approve it), then moves exactly its amount from jackpot_prizes_payable as a jackpot payment
 * (bill 3), once under concurrent approvals; never more than is held (asks and approvals); refusing and
 * withdrawing move nothing; an Idempotency-Key makes a repeated ask answer the first; a resettlement that
 * lowers the prize keeps what was paid by hand as paid. The ledger invariants after each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { BILL_TYPE, JACKPOT_BET_STATUS, JACKPOT_HELD_STATE, JACKPOT_PAYOUT_KIND, JACKPOT_PAYOUT_STATUS, message } from '@dau/domain';
import { bettors, bills } from '../src/schema.js';
import { HOUSE, checkInvariants } from '../src/modules/money/ledger';
import { jackpotBetTypes, jackpotIssueMatches, jackpotIssues, jackpotPrizePayouts, jackpotTickets } from '../src/modules/jackpot/schema';
import { placeTicket } from '../src/modules/jackpot/service';
import { SETTLE_ISSUE_JOB } from '../src/modules/jackpot/settlement';
import { notifications } from '../src/modules/notices/schema.js';
import { systemLogs } from '../src/platform/schema';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers';
import { grantKeys } from './payments-fixtures';
import { makeBettor } from './money-helpers';

let t: TestApp;
let token: string;
let w: Awaited<ReturnType<typeof makeWorld>>;
/** agent A (approves for A's branch), sub-agent A1 (asks), agent B (another branch). */
let tokA: string;
let tokA1: string;
let tokB: string;
const db = () => t.database.db;

/** Results 0, 1, 2, 0, ...: a ticket picking them all has 13 hits. */
const R = Array.from({ length: 13 }, (_, i) => i % 3);
const ALL_HIT = R.map((r) => 1 << r);
/** The cap: 1,000.00 credited at most per ticket; the pool 10,000.00, 13 hits take 60 %. */
const CAP = 1_000_00;

let seq = 0;
/**
 * A settled issue (through the preview and the job) on which each of `bettorIds` won the 13-hit tier with
 * one line: each ticket's net prize above CAP is held; `loserId`'s ticket misses every match. Answers the
 * issue and the tickets in order (the loser's last).
 */
async function settledWithHeldPrizes(bettorIds: number[], loserId?: number) {
  const k = ++seq;
  const [bt] = await db()
    .insert(jackpotBetTypes)
    .values({ type: `Held ${k}`, rewardType: 1, poolRateBps: 0, betAmount: 10_00, initJackpot: 10_000_00, maxAddBalance: CAP, guessNumber: 20, maxDoubles: 5, maxTriples: 0, tiers: [{ hits: 13, proportion_bps: 6000 }] })
    .returning();
  const soon = new Date(Date.now() + 3_600_000);
  const [issue] = await db()
    .insert(jackpotIssues)
    .values({ betTypeId: bt.id, identifierPrefix: 'HP', identifier: `HP${k}`, startTime: soon, maxChoose: 20, betCloseAt: soon, betStatus: JACKPOT_BET_STATUS.open })
    .returning();
  await db().insert(jackpotIssueMatches).values(R.map((_, i) => ({ issueId: issue.id, position: i + 1, eventId: `sr:match:hp${k}_${i + 1}`, homeTeam: `H${i + 1}`, awayTeam: `A${i + 1}`, startTime: soon })));
  const tickets = [];
  for (const bettorId of bettorIds) tickets.push(await db().transaction((tx) => placeTicket(tx, { issueId: issue.id, bettorId, picks: ALL_HIT })));
  if (loserId) tickets.push(await db().transaction((tx) => placeTicket(tx, { issueId: issue.id, bettorId: loserId, picks: R.map((r) => 1 << ((r + 1) % 3)) })));
  await playAndSettle(issue.id, R);
  return { issue, tickets: await Promise.all(tickets.map((x) => ticket(x.id))) };
}

/** The matches kicked off and ended with these results; previewed and settled (or resettled) through the job. */
async function playAndSettle(issueId: number, results: number[]) {
  await db().update(jackpotIssueMatches).set({ startTime: new Date(Date.now() - 7_200_000) }).where(eq(jackpotIssueMatches.issueId, issueId));
  for (const [i, r] of results.entries()) {
    await db().update(jackpotIssueMatches).set({ result: r, resultSource: 'operator', overrideReason: 'played' }).where(and(eq(jackpotIssueMatches.issueId, issueId), eq(jackpotIssueMatches.position, i + 1)));
  }
  const p = await t.call('POST', `/api/v1/jackpot/issues/${issueId}/settle/preview`, { token });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  const s = await t.call('POST', `/api/v1/jackpot/issues/${issueId}/settle`, { token, body: { fingerprint: p.body.fingerprint } });
  expect(s.status, JSON.stringify(s.body)).toBe(202);
  await t.ctx.jobs.drain([SETTLE_ISSUE_JOB]);
}

const ticket = async (id: number) => (await db().select().from(jackpotTickets).where(eq(jackpotTickets.id, id)))[0];
const cash = async (id: number) => (await db().select({ c: bettors.cashBalance }).from(bettors).where(eq(bettors.id, id)))[0].c;
async function house(account: string) {
  const r = await t.database.query(`SELECT coalesce(sum(amount), 0)::bigint AS s FROM house_entries WHERE account = $1`, [account]);
  return Number(r.rows[0].s);
}
const invariants = async () => expect(await checkInvariants(db())).toEqual([]);
const held = (tok: string, id: number) => t.call('GET', `/api/v1/jackpot/held_prizes/${id}`, { token: tok });
const pay = (tok: string, id: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.call('POST', `/api/v1/jackpot/held_prizes/${id}/pay`, { token: tok, body, headers });
const payOutside = (tok: string, id: number, body: Record<string, unknown>) => t.call('POST', `/api/v1/jackpot/held_prizes/${id}/pay_outside`, { token: tok, body });
const approve = (tok: string, id: number) => t.call('POST', `/api/v1/jackpot/prize_payouts/${id}/approve`, { token: tok });
const refuse = (tok: string, id: number, reason?: string) => t.call('POST', `/api/v1/jackpot/prize_payouts/${id}/refuse`, { token: tok, body: reason === undefined ? {} : { reason } });

// The pool 10,000.00, 60 % to 13 hits: one winning line gets 6,000.00, tax 10 % of (6,000.00 - 10.00) = 599.00,
// net 5,401.00: 1,000.00 credited, 4,401.00 held. With two winning lines: 3,000.00 each, tax 299.00, 1,701.00 held.
const HELD_ONE = 6_000_00 - 599_00 - CAP;
const HELD_TWO = 3_000_00 - 299_00 - CAP;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, ['jackpot', 'jackpot_held_prize', 'jackpot_held_prize:pay', 'jackpot_held_prize:pay_outside', 'jackpot_held_prize:approve']);
  [tokA, tokA1, tokB] = [await t.login('agent_a'), await t.login('agent_a1'), await t.login('agent_b')];
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the queue', () => {
  it('lists the prizes held above the cap with held, paid, remaining and state, only in the bettor\'s branch, with filters', async () => {
    const mine = await makeBettor(t, w.agentA1, { cash: 100_00 });
    const theirs = await makeBettor(t, w.agentB1, { cash: 100_00 });
    const { issue, tickets } = await settledWithHeldPrizes([mine.id, theirs.id], mine.id);
    const [a, b, lost] = tickets;
    expect(a).toMatchObject({ credited: CAP, withheld: HELD_TWO, heldPaid: 0 });
    const row = { id: a.id, serial_number: a.serialNumber, identifier: issue.identifier, phone: mine.phone, held: HELD_TWO, paid: 0, pending: 0, remaining: HELD_TWO, state: JACKPOT_HELD_STATE.held };
    const all = await t.call('GET', `/api/v1/jackpot/held_prizes?identifier=${issue.identifier}`, { token });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.items.map((x: { id: number }) => x.id)).toEqual([b.id, a.id]);
    expect(all.body.items[1]).toMatchObject(row);
    const ofA = await t.call('GET', `/api/v1/jackpot/held_prizes?identifier=${issue.identifier}`, { token: tokA });
    expect(ofA.body.items.map((x: { id: number }) => x.id)).toEqual([a.id]);
    const ofB = await t.call('GET', `/api/v1/jackpot/held_prizes?identifier=${issue.identifier}`, { token: tokB });
    expect(ofB.body.items.map((x: { id: number }) => x.id)).toEqual([b.id]);
    for (const q of [`phone=${mine.phone}`, `serial_number=${a.serialNumber}`, `bettor_id=${mine.id}`]) {
      expect((await t.call('GET', `/api/v1/jackpot/held_prizes?${q}`, { token })).body.items.map((x: { id: number }) => x.id), q).toEqual([a.id]);
    }
    const paidOnes = await t.call('GET', `/api/v1/jackpot/held_prizes?identifier=${issue.identifier}&state=${JACKPOT_HELD_STATE.paid}`, { token });
    expect(paidOnes.body.items).toEqual([]);
    // The detail: the prize and its (no) requests; another branch's is not found.
    expect((await held(tokA, a.id)).body).toEqual({ prize: expect.objectContaining(row), payouts: [] });
    expect((await held(tokB, a.id)).status).toBe(404);
    // A ticket with nothing held is not in the queue, and nothing can be asked of it.
    expect(lost).toMatchObject({ gross: 0, withheld: 0 });
    expect((await held(token, lost.id)).status).toBe(404);
    expect((await pay(tokA1, lost.id, { amount: 1, reason: 'x' })).status).toBe(404);
  });
});

describe('paying a held prize', () => {
  it('to the balance: waits for a second admin (not the asker), then moves exactly the amount from prizes payable as a jackpot payment, once', async () => {
    const b = await makeBettor(t, w.agentA1, { cash: 100_00 });
    const { tickets: [tk] } = await settledWithHeldPrizes([b.id]);
    expect(tk.withheld).toBe(HELD_ONE);
    const cashBefore = await cash(b.id);
    const payableBefore = await house(HOUSE.jackpotPrizesPayable);
    const asked = await pay(tokA1, tk.id, { amount: 1_500_00, reason: 'Bettor came to the shop with his ID' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expect(asked.body).toMatchObject({ ticket_id: tk.id, kind: JACKPOT_PAYOUT_KIND.balance, amount: 1_500_00, status: JACKPOT_PAYOUT_STATUS.pending, requested_by: 'agent_a1' });
    // Nothing moved yet; the prize awaits approval; the approvers (agent A, the super admin), not the asker, heard of it.
    expect(await cash(b.id)).toBe(cashBefore);
    expect((await held(tokA, tk.id)).body.prize).toMatchObject({ state: JACKPOT_HELD_STATE.awaiting_approval, pending: 1_500_00, paid: 0, remaining: HELD_ONE });
    const told = await db().select({ adminId: notifications.adminId }).from(notifications).where(sql`${notifications.content} like ${`Held jackpot prize of ticket ${tk.serialNumber}:%`}`);
    expect(told.map((n) => n.adminId).sort()).toEqual([w.rootId, w.agentA].sort());
    // The asker cannot approve; another branch does not see it.
    const own = await approve(tokA1, asked.body.id);
    expect(own.status).toBe(422);
    expect(own.body).toMatchObject({ code: 'JACKPOT_PAYOUT_SAME_ADMIN', message: message('JACKPOT_PAYOUT_SAME_ADMIN', 'en-US') });
    expect((await approve(tokB, asked.body.id)).status).toBe(404);
    expect(await cash(b.id)).toBe(cashBefore);
    // Agent A approves: the money moves.
    const ok = await approve(tokA, asked.body.id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ status: JACKPOT_PAYOUT_STATUS.paid, decided_by: 'agent_a' });
    expect(await cash(b.id)).toBe(cashBefore + 1_500_00);
    const bill = (await db().select().from(bills).where(and(eq(bills.bettorId, b.id), eq(bills.causeType, 'jackpot'))).orderBy(asc(bills.id))).at(-1)!;
    expect(bill).toMatchObject({ type: BILL_TYPE.jackpot_payment, amount: 1_500_00, causeId: String(tk.id), adminId: w.agentA });
    expect(payableBefore - (await house(HOUSE.jackpotPrizesPayable))).toBe(1_500_00);
    expect(await ticket(tk.id)).toMatchObject({ withheld: HELD_ONE, heldPaid: 1_500_00 });
    expect((await held(tokA, tk.id)).body.prize).toMatchObject({ state: JACKPOT_HELD_STATE.part_paid, paid: 1_500_00, pending: 0, remaining: HELD_ONE - 1_500_00 });
    // Approving again moves nothing.
    const again = await approve(token, asked.body.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('JACKPOT_PAYOUT_DECIDED');
    expect(await cash(b.id)).toBe(cashBefore + 1_500_00);
    const audits = await db().select().from(systemLogs).where(sql`${systemLogs.content} like ${`Held jackpot prize of ticket ${tk.serialNumber}:%approved`}`);
    expect(audits).toHaveLength(1);
    await invariants();
  });

  it('never more than is held: asks beyond what is neither paid nor asked are refused; the rest recorded as paid outside; two approvals pay once', async () => {
    const b = await makeBettor(t, w.agentA1, { cash: 100_00 });
    const { tickets: [tk] } = await settledWithHeldPrizes([b.id]);
    const first = await pay(tokA1, tk.id, { amount: 1_000_00, reason: 'First part' });
    expect(first.status).toBe(201);
    const over = await payOutside(tokA1, tk.id, { amount: HELD_ONE - 1_000_00 + 1, reference: 'TT-001', reason: 'Bank transfer' });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'JACKPOT_PAYOUT_ABOVE_HELD', message: message('JACKPOT_PAYOUT_ABOVE_HELD', 'en-US', { remaining: '3,401.00' }) });
    // An outside payment needs its reference; amounts are whole positive cents.
    expect((await payOutside(tokA1, tk.id, { amount: 100, reason: 'Bank transfer' })).status).toBe(400);
    for (const amount of [0, -5, 1.5]) expect((await pay(tokA1, tk.id, { amount, reason: 'x' })).status, String(amount)).toBe(400);
    const rest = await payOutside(tokA1, tk.id, { amount: HELD_ONE - 1_000_00, reference: 'CRDB TT-2291', reason: 'Paid by bank transfer at his request' });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    expect(rest.body).toMatchObject({ kind: JACKPOT_PAYOUT_KIND.outside, reference: 'CRDB TT-2291' });
    expect((await pay(tokA1, tk.id, { amount: 1, reason: 'One more cent' })).body.code).toBe('JACKPOT_PAYOUT_ABOVE_HELD');
    // Two admins approve the outside payment at once: it is paid once.
    const outsideBefore = await house(HOUSE.jackpotPaidOutside);
    const cashBefore = await cash(b.id);
    const both = await Promise.all([approve(tokA, rest.body.id), approve(token, rest.body.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await house(HOUSE.jackpotPaidOutside)) - outsideBefore).toBe(HELD_ONE - 1_000_00);
    expect(await cash(b.id)).toBe(cashBefore);
    expect(await approve(tokA, first.body.id).then((r) => r.status)).toBe(200);
    const after = await held(tokA, tk.id);
    expect(after.body.prize).toMatchObject({ state: JACKPOT_HELD_STATE.paid, paid: HELD_ONE, remaining: 0, pending: 0 });
    expect(after.body.payouts.map((p: { status: number }) => p.status)).toEqual([JACKPOT_PAYOUT_STATUS.paid, JACKPOT_PAYOUT_STATUS.paid]);
    expect((await pay(tokA1, tk.id, { amount: 1, reason: 'More' })).body.code).toBe('JACKPOT_PAYOUT_ABOVE_HELD');
    // The database refuses more paid than held, whatever the code.
    const bypass = await db().update(jackpotTickets).set({ heldPaid: HELD_ONE + 1 }).where(eq(jackpotTickets.id, tk.id)).catch((e: unknown) => e);
    expect(bypass).toBeInstanceOf(Error);
    await invariants();
  });

  it('a refusal needs a reason and moves nothing; the asker withdrawing his own request; a repeated ask with its Idempotency-Key answers the first', async () => {
    const b = await makeBettor(t, w.agentA1, { cash: 100_00 });
    const { tickets: [tk] } = await settledWithHeldPrizes([b.id]);
    const cashBefore = await cash(b.id);
    const headers = { 'idempotency-key': `held-${tk.id}-0001` };
    const asked = await pay(tokA1, tk.id, { amount: 2_000_00, reason: 'Shop payout' }, headers);
    const repeat = await pay(tokA1, tk.id, { amount: 2_000_00, reason: 'Shop payout' }, headers);
    expect(repeat.body.id).toBe(asked.body.id);
    expect(await db().select().from(jackpotPrizePayouts).where(eq(jackpotPrizePayouts.ticketId, tk.id))).toHaveLength(1);
    expect((await refuse(tokA, asked.body.id)).status).toBe(400);
    const refused = await refuse(tokA, asked.body.id, 'No ID shown');
    expect(refused.body).toMatchObject({ status: JACKPOT_PAYOUT_STATUS.refused, refuse_reason: 'No ID shown', decided_by: 'agent_a' });
    expect((await approve(token, asked.body.id)).body.code).toBe('JACKPOT_PAYOUT_DECIDED');
    const mine = await pay(tokA1, tk.id, { amount: 3_000_00, reason: 'Typo' });
    expect((await refuse(tokA1, mine.body.id, 'Wrong amount')).body.status).toBe(JACKPOT_PAYOUT_STATUS.withdrawn);
    expect(await cash(b.id)).toBe(cashBefore);
    expect((await held(tokA, tk.id)).body.prize).toMatchObject({ state: JACKPOT_HELD_STATE.held, paid: 0, pending: 0 });
    await invariants();
  });

  it('a resettlement that lowers the prize keeps what was paid by hand as paid, and refuses an approval above what is left', async () => {
    const b = await makeBettor(t, w.agentA1, { cash: 100_00 });
    const { issue, tickets: [tk] } = await settledWithHeldPrizes([b.id]);
    const paid = await pay(tokA1, tk.id, { amount: 3_000_00, reason: 'Part paid at the shop' });
    expect((await approve(tokA, paid.body.id)).status).toBe(200);
    const waiting = await pay(tokA1, tk.id, { amount: HELD_ONE - 3_000_00, reason: 'The rest' });
    expect(waiting.status).toBe(201);
    const cashBefore = await cash(b.id);
    // The result of match 13 changes: the ticket drops to 12 hits, no tier, no prize at all.
    await playAndSettle(issue.id, [...R.slice(0, 12), (R[12] + 1) % 3]);
    const now = await ticket(tk.id);
    // Net prize 0 now: the 3,000.00 paid by hand stays paid (held), and is taken back from the balance with the credited part.
    expect(now).toMatchObject({ gross: 0, withheld: 3_000_00, heldPaid: 3_000_00, credited: -3_000_00 });
    expect(await cash(b.id)).toBe(cashBefore - CAP - 3_000_00);
    expect((await held(tokA, tk.id)).body.prize).toMatchObject({ held: 3_000_00, paid: 3_000_00, remaining: 0 });
    const late = await approve(tokA, waiting.body.id);
    expect(late.status).toBe(422);
    expect(late.body.code).toBe('JACKPOT_PAYOUT_ABOVE_HELD');
    await invariants();
  });
});
