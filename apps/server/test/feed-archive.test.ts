/**
 * The match archive (issue 25, modules/feed/archive.ts): the periodic job moves a match that is over,
 * started more than DAU_MATCH_RETENTION_DAYS (90) ago and that no bet waits on, with its markets and
 * outcomes, to the archive tables, row for row; what is recent, not over or waited on (an open order, an
 * unsettled jackpot issue) stays live. The history screens still read an archived match (matches list,
 * odds, match statistics), settlement and the jackpot's results still find its feed results, the live
 * paths never see it open, and the operator's controls answer 409 MATCH_ARCHIVED. A match the feed brings
 * back after it was archived is archived again, its live rows replacing the archived ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BETTING_OFFER_STATUS, EVENT_STATUS, JACKPOT_SETTLE_STATUS, ORDER_STATUS, ORDER_TYPE, SPORT, message } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { MATCH_ARCHIVE_JOB } from '../src/modules/feed/archive';
import { settled1x2 } from '../src/modules/feed/match-source';
import { placeOrder } from '../src/modules/betting/placement';
import { openSelections } from '../src/modules/betting/selections';
import { orders } from '../src/modules/betting/schema';
import { jackpotIssueMatches, jackpotIssues } from '../src/modules/jackpot/schema';
import { admins } from '../src/platform/schema';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';

const LEAGUE = 'sr:tournament:archive';
const ev = (name: string) => `sr:match:archive-${name}`;
/** Over, 100 days old, one settled order: archived. */
const OLD = ev('old');
/** Over, 100 days old, an order still open on it. */
const WAITED = ev('waited');
/** Over, 10 days old. */
const RECENT = ev('recent');
/** 100 days old but under way, and one never started. */
const PLAYING = ev('playing');
const NOT_STARTED = ev('not-started');
/** Over, 100 days old, no bet, on a jackpot issue not settled yet. */
const JACKPOT = ev('jackpot');
/** Over, 100 days old, no bet: archived, then brought back by the feed. */
const BACK = ev('back');
const DAY = 86_400_000;

let t: TestApp;
let token: string;
let clock = Date.now();
const tick = () => (clock += 1000);

async function send(m: FeedMessageInput) {
  expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  await t.betting.drain();
}
const fixture = (id: string, status: number, home = `${id} home`): FeedMessageInput => ({
  type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, sport_id: SPORT.football,
  league_id: LEAGUE, league_name: 'Archive League', home_team: home, away_team: `${id} away`, start_time: Date.now() + 3_600_000, status,
});
/** A 1X2 and a total market: five outcomes. */
const odds = (id: string): FeedMessageInput => ({
  type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: id, event_status: EVENT_STATUS.not_started,
  markets: [
    { id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: ['2.00', '3.00', '4.00'].map((p, i) => ({ id: String(i + 1), price: p, active: true })) },
    { id: 18, specifiers: 'total=2.5', status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '12', price: '1.90', active: true }, { id: '13', price: '1.95', active: true }] },
  ],
});
const homeWins = (id: string): FeedMessageInput => ({
  type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: id,
  markets: [{ id: 1, outcomes: [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }] }],
});

/** The rows of a match in the three tables of one side (live or archive), without the order of the rows. */
async function rowsOf(eventId: string, side: 'live' | 'archive') {
  const suffix = side === 'live' ? '' : '_archive';
  const read = async (table: string, order: string) =>
    (await t.database.query(`SELECT * FROM ${table}${suffix} WHERE event_id = $1 ORDER BY ${order}`, [eventId])).rows;
  return {
    events: await read('feed_events', 'event_id'),
    markets: await read('feed_markets', 'market_key'),
    outcomes: await read('feed_outcomes', 'market_key, outcome_id'),
  };
}
const none = { events: [], markets: [], outcomes: [] };

/** A match's age: the feed sends future kick-offs only. */
const age = (id: string, days: number) =>
  t.database.query(`UPDATE feed_events SET start_time = now() - make_interval(days => $2::int) WHERE event_id = $1`, [id, days]);

async function runArchive() {
  await t.ctx.jobs.send(t.database.db, MATCH_ARCHIVE_JOB, {});
  await t.ctx.jobs.drain([MATCH_ARCHIVE_JOB]);
  const { rows } = await t.database.query(`SELECT state FROM pgboss.job WHERE name = $1 ORDER BY created_on DESC LIMIT 1`, [MATCH_ARCHIVE_JOB]);
  expect(rows[0]?.state, 'the archive job ran to its end').toBe('completed');
}

const get = async (url: string, headers?: Record<string, string>) => {
  const r = await t.call('GET', url, { token, headers });
  expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
};
const matchesList = () => get(`/api/v1/sports/matches?league_id=${LEAGUE}&page_size=50`);
const oddsOf = (id: string) => get(`/api/v1/sports/matches/${encodeURIComponent(id)}/odds`);
const statisticsOf = (id: string) => get(`/api/v1/statistics/matches/${encodeURIComponent(id)}`);
const statisticsList = (id: string) => get(`/api/v1/statistics/matches?event_id=${encodeURIComponent(id)}`);

/** What the history screens show of OLD before the archive, compared after it. */
let before: { live: Awaited<ReturnType<typeof rowsOf>>; row: unknown; odds: unknown; statistics: unknown; statisticsRow: unknown; result: unknown };
let settledOrder: number;
let openOrder: number;
let issueId: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  // Prices as the provider sends them, so the slips below name them.
  expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  const bettor = await makeBettor(t, root.id, { cash: 10_000_000 });
  const bet = (id: string) =>
    placeOrder(t.database.db, {
      bettorId: bettor.id, type: ORDER_TYPE.user_bet, stakeCents: 10_000, skipLiveDelay: true,
      legs: [{ eventId: id, marketKey: '1|', outcomeId: '1', odds: '2.00' }],
    });

  for (const id of [OLD, WAITED, RECENT, PLAYING, NOT_STARTED, JACKPOT, BACK]) {
    await send(fixture(id, EVENT_STATUS.not_started));
    await send(odds(id));
  }
  settledOrder = (await bet(OLD)).id;
  openOrder = (await bet(WAITED)).id;
  await send(homeWins(OLD));
  for (const id of [OLD, WAITED, RECENT, JACKPOT, BACK]) await send(fixture(id, EVENT_STATUS.ended));
  await send(fixture(PLAYING, EVENT_STATUS.in_progress));
  for (const id of [OLD, WAITED, PLAYING, NOT_STARTED, JACKPOT, BACK]) await age(id, 100);
  await age(RECENT, 10);

  const [issue] = await t.database.db
    .insert(jackpotIssues)
    .values({ betTypeId: 1, identifierPrefix: 'ARC', identifier: 'ARC1', startTime: new Date(Date.now() - 100 * DAY), maxChoose: 1 })
    .returning({ id: jackpotIssues.id });
  issueId = issue.id;
  await t.database.db.insert(jackpotIssueMatches).values({ issueId, position: 1, eventId: JACKPOT, startTime: new Date(Date.now() - 100 * DAY) });

  const [status] = await t.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, settledOrder));
  expect(status.status, 'the order on OLD is settled').toBe(ORDER_STATUS.settled);
  before = {
    live: await rowsOf(OLD, 'live'),
    row: (await matchesList()).items.find((m: { event_id: string }) => m.event_id === OLD),
    odds: await oddsOf(OLD),
    statistics: await statisticsOf(OLD),
    statisticsRow: (await statisticsList(OLD)).items,
    result: await settled1x2(t.database.db, [OLD]),
  };
  expect(before.live.events).toHaveLength(1);
  expect(before.live.markets).toHaveLength(2);
  expect(before.live.outcomes).toHaveLength(5);
  await runArchive();
});
afterAll(async () => {
  await t?.close();
});

describe('match archive', () => {
  it('moves an old finished match with its markets and outcomes, every row as it was', async () => {
    expect(await rowsOf(OLD, 'live')).toEqual(none);
    expect(await rowsOf(OLD, 'archive')).toEqual(before.live);
  });

  it('keeps live what a bet waits on, what is recent and what is not over', async () => {
    for (const id of [WAITED, RECENT, PLAYING, NOT_STARTED]) {
      const live = await rowsOf(id, 'live');
      expect(live.events, id).toHaveLength(1);
      expect(live.outcomes.length, id).toBeGreaterThan(0);
      expect(await rowsOf(id, 'archive'), id).toEqual(none);
    }
    const [open] = await t.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, openOrder));
    expect(open.status).toBe(ORDER_STATUS.pending);
  });

  it('keeps live a match of a jackpot issue not settled, archives it once the issue is settled', async () => {
    await runArchive();
    const live = await rowsOf(JACKPOT, 'live');
    expect(live.events).toHaveLength(1);
    expect(await rowsOf(JACKPOT, 'archive')).toEqual(none);
    await t.database.db.update(jackpotIssues).set({ settleStatus: JACKPOT_SETTLE_STATUS.settled }).where(eq(jackpotIssues.id, issueId));
    await runArchive();
    expect(await rowsOf(JACKPOT, 'live')).toEqual(none);
    expect(await rowsOf(JACKPOT, 'archive')).toEqual(live);
  });

  it('archives again a match the feed brought back: its live rows replace the archived ones, the others stay', async () => {
    const archived = await rowsOf(BACK, 'archive');
    expect(archived.events).toHaveLength(1);
    await send(fixture(BACK, EVENT_STATUS.ended, 'Renamed home'));
    await age(BACK, 100);
    const live = await rowsOf(BACK, 'live');
    expect(live.events).toHaveLength(1);
    await runArchive();
    expect(await rowsOf(BACK, 'live')).toEqual(none);
    expect(await rowsOf(BACK, 'archive')).toEqual({ ...archived, events: live.events });
    expect(live.events[0].home_team).toBe('Renamed home');
  });

  it('changes nothing when it runs again', async () => {
    const ids = [OLD, WAITED, RECENT, PLAYING, NOT_STARTED, JACKPOT, BACK];
    const all = async () => Promise.all(ids.map(async (id) => [await rowsOf(id, 'live'), await rowsOf(id, 'archive')]));
    const first = await all();
    await runArchive();
    expect(await all()).toEqual(first);
  });

  it('shows the archived match in the matches list, its odds and its statistics as before', async () => {
    const list = await matchesList();
    expect(list.items.filter((m: { event_id: string }) => m.event_id === OLD)).toEqual([before.row]);
    // The live matches are listed too, each once.
    expect(list.items.map((m: { event_id: string }) => m.event_id).sort()).toEqual([OLD, WAITED, RECENT, PLAYING, NOT_STARTED, JACKPOT, BACK].sort());
    expect(await oddsOf(OLD)).toEqual(before.odds);
    expect(await statisticsOf(OLD)).toEqual(before.statistics);
    expect((await statisticsList(OLD)).items).toEqual(before.statisticsRow);
  });

  it('settles from the archive: a later message on the match takes no settled order back, the jackpot still reads its result', async () => {
    // The engine finds no live market to roll back; the settlement job it queues still runs over the match's orders.
    await send({ type: 'rollback_bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: OLD, markets: [{ id: 1 }] });
    const [o] = await t.database.db.select({ status: orders.status, payout: orders.payout }).from(orders).where(eq(orders.id, settledOrder));
    expect(o).toEqual({ status: ORDER_STATUS.settled, payout: 20_000 });
    expect(await settled1x2(t.database.db, [OLD])).toEqual(before.result);
    expect((before.result as Map<string, number>).get(OLD)).toBe(0);
  });

  it('never offers an archived match to a live path, even one whose rows would look open', async () => {
    // Archive rows of a match that looks open in every way: only the live tables can make it bettable.
    const id = ev('archived-open');
    await t.database.query(
      `INSERT INTO feed_events_archive (event_id, id, sport_id, league_id, home_team, away_team, start_time, event_status, match_status, random_bet, updated_ts)
       VALUES ($1, 2000000000, 1, 'sr:tournament:elsewhere', 'h', 'a', now() + interval '1 hour', 1, 1, true, 0)`,
      [id],
    );
    await t.database.query(`INSERT INTO feed_markets_archive (event_id, market_key, type_id, producer, status, updated_ts) VALUES ($1, '1|', 1, 3, 1, 0)`, [id]);
    await t.database.query(
      `INSERT INTO feed_outcomes_archive (event_id, market_key, outcome_id, price, outcome_status, selection_outcome, updated_ts) VALUES ($1, '1|', '1', 2.00, 1, 0, 0)`,
      [id],
    );
    const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    const bettor = await makeBettor(t, root.id, { cash: 1_000_000 });
    await expect(
      placeOrder(t.database.db, {
        bettorId: bettor.id, type: ORDER_TYPE.user_bet, stakeCents: 10_000, skipLiveDelay: true,
        legs: [{ eventId: id, marketKey: '1|', outcomeId: '1', odds: '2.00' }],
      }),
    ).rejects.toMatchObject({ status: 422, code: 'BET_MATCH_CLOSED' });
    expect((await openSelections(t.database.db, undefined, 1000)).filter((s) => s.eventId === id)).toEqual([]);
    // The history screens do read it.
    expect((await oddsOf(id)).markets.map((m: { key: string }) => m.key)).toEqual(['1|']);
  });

  it("answers 409 MATCH_ARCHIVED to an operator's control on an archived match, 404 to an unknown one", async () => {
    const url = (id: string, path: string) => `/api/v1/sports/matches/${encodeURIComponent(id)}${path}`;
    const controls: [string, Record<string, unknown>][] = [
      ['/visibility', { is_visible: false }],
      ['/suspension', { is_suspended: true }],
      [`/markets/${encodeURIComponent('1|')}/suspension`, { is_suspended: true }],
      [`/markets/${encodeURIComponent('1|')}/outcomes/1/suspension`, { is_suspended: true }],
      ['/cancel', { reason: 'archived' }],
      ['/cancel/preview', { reason: 'archived' }],
    ];
    for (const [path, body] of controls) {
      const r = await t.call('POST', url(OLD, path), { token, body, headers: { 'x-locale': 'sw-KE' } });
      expect(r.status, path).toBe(409);
      expect(r.body, path).toMatchObject({ code: 'MATCH_ARCHIVED', message: message('MATCH_ARCHIVED', 'sw-KE') });
      expect((await t.call('POST', url(ev('unknown'), path), { token, body })).status, path).toBe(404);
    }
    // Nothing moved back to the live tables, nothing changed in the archive.
    expect(await rowsOf(OLD, 'live')).toEqual(none);
    expect(await rowsOf(OLD, 'archive')).toEqual(before.live);
  });
});
