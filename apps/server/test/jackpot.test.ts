/**
 * The jackpot's server core (issue 12) through the app: bet type checks, issues (identifier, 13 matches
 * from the feed, open bets, bet status, results from the feed and audited operator overrides), ticket
 * refusals with the spec's messages (nothing debited, no ticket), placement (one bill of the stake with
 * its house counter-entry, quote = place, idempotent), the branch scope of tickets and shares, shared
 * slips. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, like } from 'drizzle-orm';
import { ACCOUNT_KIND, BET_STATUS, BETTING_OFFER_STATUS, BILL_TYPE, CREDIT_BILL_TYPE, EVENT_STATUS, JACKPOT_BET_STATUS, JACKPOT_SETTLE_STATUS, RISK_LEVEL, SPORT, message } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { bettors, bills, houseEntries } from '../src/schema.js';
import { HOUSE, checkInvariants, post } from '../src/modules/money/ledger';
import { jackpotIssues, jackpotShares, jackpotTickets } from '../src/modules/jackpot/schema';
import { copyShare, shareTicket } from '../src/modules/jackpot/service';
import { systemLogs } from '../src/platform/schema';
import { ADMIN_PASSWORD, createTestApp, exportFinished, makeWorld, type TestApp } from './helpers';
import { grantKeys } from './payments-fixtures';
import { makeBettor } from './money-helpers';

let t: TestApp;
let token: string;
let w: Awaited<ReturnType<typeof makeWorld>>;
let tokenA: string;
let tokenB: string;
let clock = Date.now();
const tick = () => (clock += 1000);
const ev = (n: number) => `sr:match:jp${n}`;
const HOUR = 3_600_000;

async function send(m: FeedMessageInput) {
  expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  await t.betting.drain();
}

/** A football match with a 1X2 market at these prices, kicking off `startInMs` from now. */
async function match(n: number, prices: [string, string, string], startInMs: number) {
  await send({
    type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), sport_id: SPORT.football,
    league_id: 'sr:tournament:jp', league_name: 'Jackpot League', home_team: `Home ${n}`, away_team: `Away ${n}`,
    start_time: Date.now() + startInMs, status: EVENT_STATUS.not_started,
  });
  await send({
    type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), event_status: EVENT_STATUS.not_started,
    markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: prices.map((p, i) => ({ id: String(i + 1), price: p, active: true })) }],
  });
}

const TIERS = '[{"hits":13,"proportion_bps":6000},{"hits":12,"proportion_bps":2000},{"hits":11,"proportion_bps":1200},{"hits":10,"proportion_bps":800}]';
const betTypeBody = (extra: Record<string, unknown> = {}) => ({
  type: 'Mega 13', reward_type: 1, tiers: TIERS, pool_rate_bps: 5000, bet_amount: 100_00, incentives: 0, init_jackpot: 1_000_000_00,
  max_add_balance: 0, max_range_odds: 0, odds_rise_step: 0, guess_number: 20, max_doubles: 5, max_triples: 2, allow_bonus: false, cancel_rule: 1,
  cancel_void_threshold: 3, enabled: true, ...extra,
});

async function createBetType(extra: Record<string, unknown> = {}) {
  const r = await t.call('POST', '/api/v1/jackpot/bet_types', { token, body: betTypeBody(extra) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number };
}

/** An issue of the bet type on matches first..first+12, open for betting. */
async function openIssue(betTypeId: number, prefix = 'JP', first = 1) {
  const c = await t.call('POST', '/api/v1/jackpot/issues', { token, body: { bet_type_id: betTypeId, identifier_prefix: prefix, start_time: new Date(Date.now() + 2 * HOUR).toISOString() } });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  const id = c.body.issue.id as number;
  const m = await t.call('PUT', `/api/v1/jackpot/issues/${id}/matches`, { token, body: { event_ids: Array.from({ length: 13 }, (_, i) => ev(first + i)) } });
  expect(m.status, JSON.stringify(m.body)).toBe(200);
  const o = await t.call('POST', `/api/v1/jackpot/issues/${id}/open`, { token });
  expect(o.status, JSON.stringify(o.body)).toBe(200);
  return id;
}

const singles = () => Array.from({ length: 13 }, () => 1);
const withPicks = (changes: Record<number, number>) => singles().map((p, i) => changes[i] ?? p);

const ticketsOf = (bettorId: number) => t.database.db.select().from(jackpotTickets).where(eq(jackpotTickets.bettorId, bettorId));
const jackpotBills = (bettorId: number) => t.database.db.select().from(bills).where(and(eq(bills.bettorId, bettorId), eq(bills.causeType, 'jackpot'))).orderBy(asc(bills.id));
async function balance(id: number) {
  const [b] = await t.database.db.select({ cash: bettors.cashBalance, credit: bettors.creditBalance }).from(bettors).where(eq(bettors.id, id));
  return b!;
}
async function invariantsHold() {
  expect(await checkInvariants(t.database.db)).toEqual([]);
}

const JACKPOT_KEYS = [
  'jackpot_bet_type', 'jackpot_identifier', 'jackpot_bet', 'jackpot_bet:create', 'jackpot_bet_list', 'jackpot_bet_list:detail', 'super_list',
  'cs_jackpot_bet', 'cs_jackpot_bet_list', 'jackpot_identifier:change_result', 'jackpot_bet_list:export', 'super_list:export',
];

let betTypeId: number;
let issueId: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, JACKPOT_KEYS);
  tokenA = await t.login('agent_a');
  tokenB = await t.login('agent_b');
  expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  // 13 competitive matches kicking off in 3..4 hours, and a lopsided one.
  for (let n = 1; n <= 13; n++) await match(n, ['2.40', '3.10', '2.90'], 3 * HOUR + n * 60_000);
  await match(14, ['1.10', '8.00', '15.00'], 3 * HOUR + 30 * 60_000);
  betTypeId = (await createBetType()).id;
  issueId = await openIssue(betTypeId);
});
afterAll(async () => {
  await t?.close();
});

describe('bet types', () => {
  it('refuses invalid tiers with JACKPOT_TIERS_INVALID and a zero unit, and keeps `jackpot` read-only', async () => {
    const bad = [
      'not json', '[]', '{"hits":13,"proportion_bps":6000}', '[{"hits":0,"proportion_bps":100}]', '[{"hits":14,"proportion_bps":100}]',
      '[{"hits":13,"proportion_bps":6000},{"hits":13,"proportion_bps":1000}]', '[{"hits":13,"proportion_bps":9000},{"hits":12,"proportion_bps":1001}]',
      '[{"hits":13,"proportion_bps":-1}]', '[{"hits":12.5,"proportion_bps":100}]', '[{"hits":13}]', '[{"hits":13,"proportion_bps":100,"x":1}]',
    ];
    for (const tiers of bad) {
      const r = await t.call('POST', '/api/v1/jackpot/bet_types', { token, body: betTypeBody({ tiers }) });
      expect(r.status, tiers).toBe(422);
      expect(r.body.code, tiers).toBe('JACKPOT_TIERS_INVALID');
      expect(r.body.message).toBe(message('JACKPOT_TIERS_INVALID', 'en-US'));
    }
    expect((await t.call('POST', '/api/v1/jackpot/bet_types', { token, body: betTypeBody({ bet_amount: 0 }) })).status).toBe(400);
    expect((await t.call('POST', '/api/v1/jackpot/bet_types', { token, body: betTypeBody({ jackpot: 5_000_00 }) })).status).toBe(400);
    expect((await t.call('PUT', `/api/v1/jackpot/bet_types/${betTypeId}`, { token, body: { jackpot: 5_000_00 } })).status).toBe(400);
    // Exactly 100 % is allowed; the tiers come back sorted by hits.
    const ok = await t.call('POST', '/api/v1/jackpot/bet_types', { token, body: betTypeBody({ tiers: '[{"hits":12,"proportion_bps":4000},{"hits":13,"proportion_bps":6000}]' }) });
    expect(ok.status).toBe(201);
    expect(JSON.parse(ok.body.tiers)).toEqual([{ hits: 13, proportion_bps: 6000 }, { hits: 12, proportion_bps: 4000 }]);
    expect(ok.body.jackpot).toBe(0);
    const edit = await t.call('PUT', `/api/v1/jackpot/bet_types/${ok.body.id}`, { token, body: { tiers: '[{"hits":13,"proportion_bps":10001}]' } });
    expect(edit.body.code).toBe('JACKPOT_TIERS_INVALID');
    // Unused: deleted.
    expect((await t.call('DELETE', `/api/v1/jackpot/bet_types/${ok.body.id}`, { token })).status).toBe(200);
  });

  it('refuses to delete a bet type that has issues', async () => {
    const r = await t.call('DELETE', `/api/v1/jackpot/bet_types/${betTypeId}`, { token });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('JACKPOT_BET_TYPE_IN_USE');
    expect((await t.call('GET', `/api/v1/jackpot/bet_types/${betTypeId}`, { token })).status).toBe(200);
  });
});

describe('issues', () => {
  it('numbers identifiers per prefix, needs exactly 13 matches, closes bets at the first kick-off', async () => {
    const mk = (prefix: string) => t.call('POST', '/api/v1/jackpot/issues', { token, body: { bet_type_id: betTypeId, identifier_prefix: prefix, start_time: new Date().toISOString() } });
    const a = await mk('WK');
    const b = await mk('WK');
    const c = await mk('MID');
    expect([a.body.issue.identifier, b.body.issue.identifier, c.body.issue.identifier]).toEqual(['WK001', 'WK002', 'MID001']);
    expect(a.body.issue.bet_status).toBe(JACKPOT_BET_STATUS.not_open);
    expect(a.body.issue.max_choose).toBe(20);
    // The issue's pool starts at the seed (nothing carried yet).
    expect(a.body.pool).toMatchObject({ carried: 0, seed_top_up: 1_000_000_00, total: 1_000_000_00 });
    const id = a.body.issue.id;
    const twelve = Array.from({ length: 12 }, (_, i) => ev(i + 1));
    for (const event_ids of [twelve, [...twelve, ev(1)], [...twelve, ev(13), ev(14)]]) {
      const r = await t.call('PUT', `/api/v1/jackpot/issues/${id}/matches`, { token, body: { event_ids } });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('JACKPOT_MATCHES_REQUIRED');
      expect(r.body.message).toBe('A jackpot issue needs exactly 13 matches');
    }
    const open = await t.call('POST', `/api/v1/jackpot/issues/${id}/open`, { token });
    expect(open.body.code).toBe('JACKPOT_MATCHES_REQUIRED');
    const unknown = await t.call('PUT', `/api/v1/jackpot/issues/${id}/matches`, { token, body: { event_ids: [...twelve, 'sr:match:nope'] } });
    expect(unknown.status).toBe(422);
    const set = await t.call('PUT', `/api/v1/jackpot/issues/${id}/matches`, { token, body: { event_ids: [ev(14), ...twelve] } });
    expect(set.status).toBe(200);
    expect(set.body.matches.map((m: { event_id: string }) => m.event_id)).toEqual([ev(14), ...twelve]);
    const kickOffs = set.body.matches.map((m: { start_time: string }) => Date.parse(m.start_time));
    expect(Date.parse(set.body.issue.bet_close_at)).toBe(Math.min(...kickOffs));
    expect(set.body.issue.closes_in).toBeGreaterThan(0);
  });

  it('offers candidates without lopsided matches when max_range_odds is set', async () => {
    const all = await t.call('GET', `/api/v1/jackpot/issues/${issueId}/candidates`, { token });
    expect(all.status).toBe(200);
    const ids = all.body.items.map((m: { event_id: string }) => m.event_id);
    expect(ids).toContain(ev(14));
    expect(ids).toContain(ev(1));
    await t.call('PUT', `/api/v1/jackpot/bet_types/${betTypeId}`, { token, body: { max_range_odds: 6 } });
    const fair = await t.call('GET', `/api/v1/jackpot/issues/${issueId}/candidates`, { token });
    expect(fair.body.max_range_odds).toBe(6);
    const fairIds = fair.body.items.map((m: { event_id: string }) => m.event_id);
    expect(fairIds).not.toContain(ev(14));
    expect(fairIds).toContain(ev(1));
    await t.call('PUT', `/api/v1/jackpot/bet_types/${betTypeId}`, { token, body: { max_range_odds: 0 } });
  });

  it('lists issues with filters', async () => {
    const r = await t.call('GET', '/api/v1/jackpot/issues?identifier=JP001', { token });
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(1);
    expect(r.body.items[0]).toMatchObject({ id: issueId, bet_status: JACKPOT_BET_STATUS.open, matches: 13, bet_type: 'Mega 13' });
    // Other cases of the file add issues of their own: the filter keeps the open ones, this one among them.
    const open = await t.call('GET', `/api/v1/jackpot/issues?bet_status=${JACKPOT_BET_STATUS.open}`, { token });
    expect(open.body.items.map((i: { id: number }) => i.id)).toContain(issueId);
    expect(open.body.items.every((i: { bet_status: number }) => i.bet_status === JACKPOT_BET_STATUS.open)).toBe(true);
    const closed = await t.call('GET', `/api/v1/jackpot/issues?bet_status=${JACKPOT_BET_STATUS.closed}`, { token });
    expect(closed.body.items.map((i: { id: number }) => i.id)).not.toContain(issueId);
  });

  it('changes only with a whole-book scope', async () => {
    const r = await t.call('PUT', `/api/v1/jackpot/issues/${issueId}/results`, { token: tokenA, body: { results: [{ position: 1, result: 0, reason: 'x' }] } });
    expect(r.status).toBe(403);
  });
});

describe('ticket refusals', () => {
  it('answers each rule with its message, moves no money and creates no ticket; the quote says the same', async () => {
    const b = await makeBettor(t, w.agentA, { cash: 1_000_000_00 });
    const before = await balance(b.id);
    const refuse = async (picks: number[], code: string, body: Record<string, unknown> = {}, status = 422) => {
      const req = { issue_id: issueId, bettor_id: b.id, picks, ...body };
      const r = await t.call('POST', '/api/v1/jackpot/tickets', { token, body: req });
      expect(r.status, `${code} ${JSON.stringify(r.body)}`).toBe(status);
      expect(r.body.code).toBe(code);
      expect(r.body.message).toBe(message(code as never, 'en-US'));
      const q = await t.call('POST', '/api/v1/jackpot/tickets/quote', { token, body: req });
      expect(q.status).toBe(200);
      expect(q.body).toMatchObject({ ok: false, code, message: message(code as never, 'en-US'), stake: 0 });
      return q.body;
    };
    expect((await refuse(withPicks({ 4: 0 }), 'SELECT_RESULT')).match).toBe(5);
    await refuse(singles().slice(0, 12), 'SELECT_RESULT');
    await refuse(withPicks({ 0: 3, 1: 3, 2: 3, 3: 3, 4: 3, 5: 3 }), 'LIMIT_DOUBLES');
    await refuse(withPicks({ 0: 7, 1: 7, 2: 7 }), 'JACKPOT_TRIPLES_LIMIT');
    await refuse(withPicks({ 0: 7, 1: 7, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3 }), 'EXCEEDED_MAX_SELECTABLE');
    // Another bet type without triples.
    const noTriples = await createBetType({ type: 'Singles and doubles', max_triples: 0 });
    const other = await openIssue(noTriples.id, 'ND');
    const r = await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: other, bettor_id: b.id, picks: withPicks({ 3: 7 }) } });
    expect(r.body.code).toBe('TRIPLES_NOT_ALLOWED');
    expect(r.body.message).toBe('Triples not allowed');
    // Bonus funds on a bet type that does not allow them.
    await refuse(singles(), 'BET_BONUS_FUNDS_LIMIT', { use_bonus: true });
    // The bettor's state.
    await t.database.db.update(bettors).set({ betStatus: BET_STATUS.not_allowed }).where(eq(bettors.id, b.id));
    await refuse(singles(), 'BET_USER_BLOCKED');
    await t.database.db.update(bettors).set({ betStatus: BET_STATUS.allowed, riskLevel: RISK_LEVEL.no_betting }).where(eq(bettors.id, b.id));
    await refuse(singles(), 'BET_RISK_BLOCKED');
    await t.database.db.update(bettors).set({ riskLevel: RISK_LEVEL.low }).where(eq(bettors.id, b.id));
    const poor = await makeBettor(t, w.agentA, { cash: 50_00 });
    const low = await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: issueId, bettor_id: poor.id, picks: singles() } });
    expect(low.body.code).toBe('BET_BALANCE_LOW');
    // The issue's state.
    const suspend = await t.call('PUT', `/api/v1/jackpot/issues/${other}/bet_status`, { token, body: { bet_status: JACKPOT_BET_STATUS.suspended } });
    expect(suspend.body.issue.bet_status).toBe(JACKPOT_BET_STATUS.suspended);
    const onOther = (picks: number[]) => t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: other, bettor_id: b.id, picks } });
    expect((await onOther(singles())).body.code).toBe('JACKPOT_NOT_OPEN');
    await t.call('PUT', `/api/v1/jackpot/issues/${other}/bet_status`, { token, body: { bet_status: JACKPOT_BET_STATUS.open } });
    await t.database.db.update(jackpotIssues).set({ betCloseAt: new Date(Date.now() - 1000) }).where(eq(jackpotIssues.id, other));
    const closed = await onOther(singles());
    expect(closed.body).toMatchObject({ code: 'JACKPOT_BETS_CLOSED', message: 'Betting on this jackpot issue is closed' });
    expect((await t.call('POST', `/api/v1/jackpot/issues/${other}/open`, { token })).body.code).toBe('JACKPOT_BETS_CLOSED');
    await t.database.db.update(jackpotIssues).set({ betCloseAt: new Date(Date.now() + HOUR), settleStatus: JACKPOT_SETTLE_STATUS.settled }).where(eq(jackpotIssues.id, other));
    expect((await onOther(singles())).body.code).toBe('JACKPOT_ALREADY_SETTLED');
    await t.database.db.update(jackpotIssues).set({ settleStatus: JACKPOT_SETTLE_STATUS.deleted }).where(eq(jackpotIssues.id, other));
    expect((await onOther(singles())).body.code).toBe('JACKPOT_DELETED');
    // A new issue, never opened.
    const fresh = await t.call('POST', '/api/v1/jackpot/issues', { token, body: { bet_type_id: betTypeId, identifier_prefix: 'NO', start_time: new Date().toISOString() } });
    const notOpen = await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: fresh.body.issue.id, bettor_id: b.id, picks: singles() } });
    expect(notOpen.body).toMatchObject({ code: 'JACKPOT_NOT_OPEN', message: 'This jackpot issue is not open for betting' });
    // Malformed picks are refused by the schema.
    expect((await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: issueId, bettor_id: b.id, picks: withPicks({ 0: 8 }) } })).status).toBe(400);
    expect((await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: issueId, bettor_id: b.id, picks: [...singles(), 1] } })).status).toBe(400);
    // Nothing moved.
    expect(await balance(b.id)).toEqual(before);
    expect(await ticketsOf(b.id)).toEqual([]);
    expect(await jackpotBills(b.id)).toEqual([]);
    await invariantsHold();
  });
});

describe('placement', () => {
  it('debits exactly the quoted stake with one bill and its house counter-entry, and updates the issue', async () => {
    const b = await makeBettor(t, w.agentA1, { cash: 100_000_00 });
    const [before] = await t.database.db.select().from(jackpotIssues).where(eq(jackpotIssues.id, issueId));
    // 2 doubles and 1 triple: 2 x 2 x 3 = 12 lines of 100.00.
    const picks = withPicks({ 0: 3, 5: 6, 9: 7 });
    const body = { issue_id: issueId, bettor_id: b.id, picks };
    const q = await t.call('POST', '/api/v1/jackpot/tickets/quote', { token, body });
    expect(q.body).toMatchObject({ ok: true, lines: 12, unit: 100_00, stake: 1_200_00, doubles: 2, triples: 1, picked: 17, bonus_stake: 0 });
    const r = await t.call('POST', '/api/v1/jackpot/tickets', { token, body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.ticket).toMatchObject({ lines: q.body.lines, stake: q.body.stake, picks, status: 1, issue_id: issueId, identifier: 'JP001', placed_by: 'admin' });
    expect(r.body.matches).toHaveLength(13);
    expect(r.body.matches[5]).toMatchObject({ position: 6, pick: 6, hit: null });
    expect((await balance(b.id)).cash).toBe(100_000_00 - 1_200_00);
    const billsOf = await jackpotBills(b.id);
    expect(billsOf).toHaveLength(1);
    expect(billsOf[0]).toMatchObject({ type: BILL_TYPE.jackpot_payment, amount: -1_200_00, accountKind: ACCOUNT_KIND.cash, causeId: String(r.body.ticket.id) });
    const house = await t.database.db.select().from(houseEntries).where(eq(houseEntries.txnId, billsOf[0]!.txnId));
    expect(house).toEqual([expect.objectContaining({ account: HOUSE.jackpotStakes, amount: 1_200_00, billType: BILL_TYPE.jackpot_payment })]);
    const [after] = await t.database.db.select().from(jackpotIssues).where(eq(jackpotIssues.id, issueId));
    expect(after!.totalBet - before!.totalBet).toBe(1_200_00);
    expect(after!.lines - before!.lines).toBe(12);
    expect(after!.tickets - before!.tickets).toBe(1);
    // Pool: seed 1,000,000.00 + 50 % of the stakes.
    expect(after!.prizePool).toBe(1_000_000_00 + Math.floor(after!.totalBet / 2));
    const detail = await t.call('GET', `/api/v1/jackpot/issues/${issueId}`, { token });
    expect(detail.body.pool.total).toBe(after!.prizePool);
    await invariantsHold();
  });

  it('is idempotent under an Idempotency-Key', async () => {
    const b = await makeBettor(t, w.agentA, { cash: 10_000_00 });
    const body = { issue_id: issueId, bettor_id: b.id, picks: withPicks({ 2: 5 }) };
    const headers = { 'idempotency-key': `jp-ticket-${b.id}-0001` };
    const first = await t.call('POST', '/api/v1/jackpot/tickets', { token, body, headers });
    const again = await t.call('POST', '/api/v1/jackpot/tickets', { token, body, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.ticket.id).toBe(first.body.ticket.id);
    expect(await ticketsOf(b.id)).toHaveLength(1);
    expect(await jackpotBills(b.id)).toHaveLength(1);
    expect((await balance(b.id)).cash).toBe(10_000_00 - 2 * 100_00);
    // The same key with another body is refused.
    const other = await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { ...body, picks: singles() }, headers });
    expect(other.status).toBe(422);
    await invariantsHold();
  });

  it('keeps the issue totals exact under concurrent placements and pays a doubled click once', async () => {
    const [before] = await t.database.db.select().from(jackpotIssues).where(eq(jackpotIssues.id, issueId));
    const people = await Promise.all(Array.from({ length: 8 }, () => makeBettor(t, w.agentA, { cash: 10_000_00 })));
    const results = await Promise.all(people.map((b, i) => t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: issueId, bettor_id: b.id, picks: withPicks({ [i]: 3 }) } })));
    expect(results.map((r) => r.status)).toEqual(people.map(() => 200));
    const [after] = await t.database.db.select().from(jackpotIssues).where(eq(jackpotIssues.id, issueId));
    expect(after!.tickets - before!.tickets).toBe(8);
    expect(after!.lines - before!.lines).toBe(16);
    expect(after!.totalBet - before!.totalBet).toBe(8 * 200_00);
    const b = await makeBettor(t, w.agentA, { cash: 10_000_00 });
    const headers = { 'idempotency-key': `jp-double-${b.id}` };
    const body = { issue_id: issueId, bettor_id: b.id, picks: singles() };
    const [x, y] = await Promise.all([t.call('POST', '/api/v1/jackpot/tickets', { token, body, headers }), t.call('POST', '/api/v1/jackpot/tickets', { token, body, headers })]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(x.body.ticket.id).toBe(y.body.ticket.id);
    expect(await ticketsOf(b.id)).toHaveLength(1);
    expect((await balance(b.id)).cash).toBe(10_000_00 - 100_00);
    await invariantsHold();
  });

  it('takes bonus funds only where the bet type allows them', async () => {
    const bonusType = await createBetType({ type: 'Bonus 13', allow_bonus: true, bet_amount: 50_00 });
    const bonusIssue = await openIssue(bonusType.id, 'BN');
    const b = await makeBettor(t, w.agentA, { cash: 1_000_00 });
    await t.database.db.transaction((tx) =>
      post(tx, { bettorId: b.id, account: ACCOUNT_KIND.credit, amount: 30_00, type: CREDIT_BILL_TYPE.activity_credit_granted, cause: { type: 'promotion' }, house: HOUSE.creditIssued }),
    );
    const r = await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: bonusIssue, bettor_id: b.id, picks: withPicks({ 0: 3 }), use_bonus: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.ticket).toMatchObject({ stake: 100_00, bonus_stake: 30_00 });
    expect(await balance(b.id)).toEqual({ cash: 1_000_00 - 70_00, credit: 0 });
    const bs = await jackpotBills(b.id);
    expect(bs.map((x) => [x.accountKind, x.type, x.amount])).toEqual([
      [ACCOUNT_KIND.cash, BILL_TYPE.jackpot_payment, -70_00],
      [ACCOUNT_KIND.credit, CREDIT_BILL_TYPE.jackpot_payment, -30_00],
    ]);
    await invariantsHold();
  });
});

describe('scope', () => {
  it("an agent places only for their branch's bettors and sees only their branch's tickets", async () => {
    const mine = await makeBettor(t, w.agentA1, { cash: 10_000_00 });
    const theirs = await makeBettor(t, w.agentB1, { cash: 10_000_00 });
    const placed = await t.call('POST', '/api/v1/jackpot/tickets', { token: tokenA, body: { issue_id: issueId, bettor_id: mine.id, picks: singles() } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const refused = await t.call('POST', '/api/v1/jackpot/tickets', { token: tokenA, body: { issue_id: issueId, bettor_id: theirs.id, picks: singles() } });
    expect(refused.status).toBe(404);
    expect((await t.call('POST', '/api/v1/jackpot/tickets/quote', { token: tokenA, body: { issue_id: issueId, bettor_id: theirs.id, picks: singles() } })).status).toBe(404);
    expect(await ticketsOf(theirs.id)).toEqual([]);
    const id = placed.body.ticket.id;
    expect((await t.call('GET', `/api/v1/jackpot/tickets/${id}`, { token: tokenA })).status).toBe(200);
    expect((await t.call('GET', `/api/v1/jackpot/cs/tickets/${id}`, { token: tokenA })).status).toBe(200);
    expect((await t.call('GET', `/api/v1/jackpot/tickets/${id}`, { token: tokenB })).status).toBe(404);
    expect((await t.call('GET', `/api/v1/jackpot/cs/tickets/${id}`, { token: tokenB })).status).toBe(404);
    // A ticket of agent B's branch, placed by the super admin: B sees it, A does not.
    const bTicket = (await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: issueId, bettor_id: theirs.id, picks: singles() } })).body.ticket.id;
    expect((await t.call('GET', `/api/v1/jackpot/tickets/${bTicket}`, { token: tokenA })).status).toBe(404);
    const listA = await t.call('GET', `/api/v1/jackpot/tickets?issue_id=${issueId}&page_size=200`, { token: tokenA });
    const listB = await t.call('GET', `/api/v1/jackpot/tickets?issue_id=${issueId}&page_size=200`, { token: tokenB });
    const listAll = await t.call('GET', `/api/v1/jackpot/tickets?issue_id=${issueId}&page_size=200`, { token });
    const ids = (x: { body: { items: { id: number }[] } }) => x.body.items.map((i) => i.id);
    expect(ids(listA)).toContain(id);
    expect(ids(listB)).not.toContain(id);
    expect(ids(listAll)).toContain(id);
    expect(ids(listB)).toEqual([bTicket]);
    expect(ids(listA)).not.toContain(bTicket);
    expect(ids(listAll)).toContain(bTicket);
    const byPhone = await t.call('GET', `/api/v1/jackpot/cs/tickets?phone=${mine.phone}`, { token: tokenA });
    expect(ids(byPhone)).toEqual([id]);
    expect((await t.call('GET', `/api/v1/jackpot/cs/tickets?phone=${mine.phone}`, { token: tokenB })).body.items).toEqual([]);
  });
});

describe('exports', () => {
  async function exported(tok: string, type: string, params: Record<string, unknown>) {
    const r = await t.call('POST', '/api/v1/exports', { token: tok, body: { type, format: 1, params } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return exportFinished(t, r.body.id);
  }
  it("exports the tickets and shares of the asker's branch through the background exports", async () => {
    // An issue of its own with a ticket in each branch (the scope case counts the first issue's tickets).
    const exIssue = await openIssue(betTypeId, 'EX');
    for (const agent of [w.agentA1, w.agentB1]) {
      const b = await makeBettor(t, agent, { cash: 10_000_00 });
      const placed = await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: exIssue, bettor_id: b.id, picks: singles() } });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    }
    const all = await t.database.db.select({ agentId: jackpotTickets.agentId }).from(jackpotTickets).where(eq(jackpotTickets.issueId, exIssue));
    const superRun = await exported(token, 'jackpot_bet_list', { issue_id: exIssue });
    expect(superRun).toMatchObject({ status: 2, rowCount: all.length });
    const bRun = await exported(tokenB, 'jackpot_bet_list', { issue_id: exIssue });
    expect(bRun.rowCount).toBe(all.filter((x) => x.agentId === w.agentB || x.agentId === w.agentB1).length);
    expect(bRun.rowCount).toBe(1);
    expect(all).toHaveLength(2);
    expect((await exported(token, 'super_list', {})).status).toBe(2);
  });
});

/** The feed has these matches kick off a minute ago (under way): they may get their results (issue 23). */
async function kickOff(...ns: number[]) {
  for (const n of ns) {
    await send({
      type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), sport_id: SPORT.football,
      league_id: 'sr:tournament:jp', league_name: 'Jackpot League', home_team: `Home ${n}`, away_team: `Away ${n}`,
      start_time: Date.now() - 60_000, status: EVENT_STATUS.in_progress,
    });
  }
}

describe('results', () => {
  // An issue on matches of its own: these cases kick them off and give them results, while the other
  // cases' matches stay upcoming (open for tickets), whatever order the cases run in.
  let resultsIssue: number;
  beforeAll(async () => {
    for (let n = 101; n <= 113; n++) await match(n, ['2.40', '3.10', '2.90'], 3 * HOUR + n * 60_000);
    resultsIssue = await openIssue(betTypeId, 'RS', 101);
  });

  it('refuses a home, draw or away result before the match kicks off, in three languages; cancelled may be set; the detail says which have started (issue 23)', async () => {
    const put = (results: unknown[], locale = 'en-US') => t.call('PUT', `/api/v1/jackpot/issues/${resultsIssue}/results`, { token, body: { results }, headers: { 'x-locale': locale } });
    const before = await t.call('GET', `/api/v1/jackpot/issues/${resultsIssue}`, { token });
    expect(before.body.matches[3]).toMatchObject({ position: 4, started: false, result: null });
    expect(Date.parse(before.body.matches[3].kick_off)).toBeGreaterThan(Date.now());
    const logsBefore = await t.database.db.select().from(systemLogs).where(like(systemLogs.content, `Jackpot issue #${resultsIssue} results changed%`));
    for (const result of [0, 1, 2]) {
      const early = await put([{ position: 4, result, reason: 'Reported by a bettor' }]);
      expect(early.status).toBe(422);
      expect(early.body).toMatchObject({ code: 'JACKPOT_MATCH_NOT_STARTED', message: 'Match 4 (Home 104 - Away 104) has not kicked off yet: it can get a result once it has started, or be marked cancelled' });
    }
    for (const locale of ['sw-KE', 'zh-CN'] as const) {
      expect((await put([{ position: 4, result: 0, reason: 'x' }], locale)).body.message).toBe(message('JACKPOT_MATCH_NOT_STARTED', locale, { position: 4, match: 'Home 104 - Away 104' }));
    }
    // With another, started match in the same call: nothing is changed.
    await kickOff(105);
    expect((await put([{ position: 5, result: 1, reason: 'Early goal' }, { position: 4, result: 0, reason: 'x' }])).status).toBe(422);
    const unchanged = await t.call('GET', `/api/v1/jackpot/issues/${resultsIssue}`, { token });
    expect(unchanged.body.matches.slice(3, 5).map((m: { result: number | null }) => m.result)).toEqual([null, null]);
    expect(unchanged.body.matches[4]).toMatchObject({ position: 5, started: true });
    expect(await t.database.db.select().from(systemLogs).where(like(systemLogs.content, `Jackpot issue #${resultsIssue} results changed%`))).toHaveLength(logsBefore.length);
    // A match cancelled before its start may say so, and go back to no result.
    const cancelled = await put([{ position: 4, result: 3, reason: 'Postponed by the league' }]);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.matches[3]).toMatchObject({ result: 3, result_source: 'operator', started: false });
    expect((await put([{ position: 4, result: null }])).body.matches[3]).toMatchObject({ result: null, result_source: null });
    // Once it has kicked off, its result is taken.
    const started = await put([{ position: 5, result: 1, reason: 'Early goal' }]);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.matches[4]).toMatchObject({ result: 1, result_source: 'operator', started: true });
    expect((await put([{ position: 5, result: null }])).body.matches[4].result).toBeNull();
  });

  it("takes the feed's settled result; an override needs a reason and is audited", async () => {
    await kickOff(102, 103);
    await send({ type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(102), markets: [{ id: 1, outcomes: [{ id: '1', result: 0 }, { id: '2', result: 1 }, { id: '3', result: 0 }] }] });
    // Reading the issue takes the feed's result in.
    const read = await t.call('GET', `/api/v1/jackpot/issues/${resultsIssue}`, { token });
    expect(read.body.matches[1]).toMatchObject({ position: 2, result: 1, feed_result: 1, result_source: 'feed' });
    const refreshed = await t.call('POST', `/api/v1/jackpot/issues/${resultsIssue}/results/refresh`, { token });
    expect(refreshed.body.matches[1]).toMatchObject({ position: 2, result: 1, feed_result: 1, result_source: 'feed' });
    // Setting the feed's result needs no reason; another one does.
    expect((await t.call('PUT', `/api/v1/jackpot/issues/${resultsIssue}/results`, { token, body: { results: [{ position: 2, result: 1 }] } })).status).toBe(200);
    const noReason = await t.call('PUT', `/api/v1/jackpot/issues/${resultsIssue}/results`, { token, body: { results: [{ position: 2, result: 0 }] } });
    expect(noReason.status).toBe(422);
    expect(noReason.body).toMatchObject({ code: 'JACKPOT_REASON_REQUIRED', message: 'Please give a reason' });
    // Without a feed result, any result is an override.
    expect((await t.call('PUT', `/api/v1/jackpot/issues/${resultsIssue}/results`, { token, body: { results: [{ position: 3, result: 2, reason: ' ' }] } })).body.code).toBe('JACKPOT_REASON_REQUIRED');
    const logsBefore = await t.database.db.select().from(systemLogs).where(like(systemLogs.content, `Jackpot issue #${resultsIssue} results changed%`));
    const ok = await t.call('PUT', `/api/v1/jackpot/issues/${resultsIssue}/results`, { token, body: { results: [{ position: 2, result: 0, reason: 'Goal after the whistle disallowed by the league' }] } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.matches[1]).toMatchObject({ result: 0, feed_result: 1, result_source: 'operator', override_reason: 'Goal after the whistle disallowed by the league' });
    const logs = await t.database.db.select().from(systemLogs).where(like(systemLogs.content, `Jackpot issue #${resultsIssue} results changed%`));
    expect(logs.length).toBe(logsBefore.length + 1);
    const row = logs.find((l) => !logsBefore.some((x) => x.id === l.id))!;
    expect(row.content).toContain('Goal after the whistle');
    expect(row.before).toEqual({ results: [{ position: 2, event_id: ev(102), result: 1 }] });
    expect(row.after).toMatchObject({ results: [{ position: 2, result: 0, source: 'operator' }] });
    // An operator's result stands when the feed is read again; null goes back to the feed's.
    expect((await t.call('POST', `/api/v1/jackpot/issues/${resultsIssue}/results/refresh`, { token })).body.matches[1].result).toBe(0);
    const back = await t.call('PUT', `/api/v1/jackpot/issues/${resultsIssue}/results`, { token, body: { results: [{ position: 2, result: null }] } });
    expect(back.body.matches[1]).toMatchObject({ result: 1, result_source: 'feed', override_reason: null });
    // A cancelled match reads as 3.
    await send({ type: 'bet_cancel', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(103), markets: [{ id: 1 }] } as FeedMessageInput);
    expect((await t.call('POST', `/api/v1/jackpot/issues/${resultsIssue}/results/refresh`, { token })).body.matches[2]).toMatchObject({ result: 3, feed_result: 3 });
  });
});

describe('shares', () => {
  it('shares a ticket by code, places copies and counts them, within the branch scope', async () => {
    const owner = await makeBettor(t, w.agentA, { cash: 10_000_00 });
    const copier = await makeBettor(t, w.agentA1, { cash: 10_000_00 });
    const placed = await t.call('POST', '/api/v1/jackpot/tickets', { token, body: { issue_id: issueId, bettor_id: owner.id, picks: withPicks({ 7: 3 }) } });
    const share = await t.database.db.transaction((tx) => shareTicket(tx, placed.body.ticket.id));
    expect(await t.database.db.transaction((tx) => shareTicket(tx, placed.body.ticket.id))).toMatchObject({ code: share.code });
    const copy = await t.database.db.transaction((tx) => copyShare(tx, share.code, copier.id));
    expect(copy).toMatchObject({ picks: withPicks({ 7: 3 }), stake: 200_00, sharedFrom: placed.body.ticket.id, issueId });
    const [row] = await t.database.db.select().from(jackpotShares).where(eq(jackpotShares.code, share.code));
    expect(row).toMatchObject({ copies: 1, copyStake: 200_00 });
    const got = await t.call('GET', `/api/v1/jackpot/shares/${share.code.toLowerCase()}`, { token: tokenA });
    expect(got.status).toBe(200);
    expect(got.body.share).toMatchObject({ code: share.code, copies: 1, copy_stake: 200_00, stake: 200_00, phone: owner.phone });
    expect(got.body.matches[7].pick).toBe(3);
    const hidden = await t.call('GET', `/api/v1/jackpot/shares/${share.code}`, { token: tokenB });
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('JACKPOT_SHARE_NOT_FOUND');
    const none = await t.call('GET', '/api/v1/jackpot/shares/NOPE1234', { token });
    expect(none.body).toMatchObject({ code: 'JACKPOT_SHARE_NOT_FOUND', message: 'No shared bet slip has this code' });
    const listA = await t.call('GET', `/api/v1/jackpot/shares?code=${share.code}`, { token: tokenA });
    expect(listA.body.items.map((s: { code: string }) => s.code)).toEqual([share.code]);
    expect((await t.call('GET', `/api/v1/jackpot/shares?code=${share.code}`, { token: tokenB })).body.items).toEqual([]);
    const missing = await t.database.db.transaction((tx) => copyShare(tx, 'NOPE1234', copier.id)).catch((e) => e);
    expect(missing.code).toBe('JACKPOT_SHARE_NOT_FOUND');
    await invariantsHold();
  });
});
