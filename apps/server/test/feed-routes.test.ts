/**
 * The feed's read screens (issue 4): the match list with its filters, a match's odds (markets and
 * selections with and without margin, suspensions) and the receiving statistics, fed through the app's
 * own engine (PgFeedStore on the test database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BETTING_OFFER_STATUS, EVENT_STATUS, SPORT } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { FB } from '../src/modules/feed/simulator';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
let t: TestApp;
let token: string;

const fixture = (id: string, sport: number, league: string, start: number, status: number = EVENT_STATUS.not_started): FeedMessageInput => ({
  type: 'fixture_change',
  producer: PRODUCER.prematch,
  timestamp: T0,
  event_id: id,
  sport_id: sport,
  league_id: league,
  league_name: league.toUpperCase(),
  home_team: `${id} home`,
  away_team: `${id} away`,
  start_time: start,
  status,
});

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  const send = async (m: FeedMessageInput) => expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  await send(fixture('sr:match:1', SPORT.football, 'epl', T0 + 3_600_000));
  await send(fixture('sr:match:2', SPORT.football, 'ligue', T0 + 2 * 86_400_000));
  await send(fixture('sr:match:3', SPORT.basketball, 'nba', T0 + 3_600_000, EVENT_STATUS.in_progress));
  await send({
    type: 'odds_change',
    producer: PRODUCER.live,
    timestamp: T0 + 1000,
    event_id: 'sr:match:1',
    event_status: EVENT_STATUS.not_started,
    markets: [
      { id: FB.oneXtwo, status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '1', price: '2.10', active: true }, { id: '2', price: '3.40', active: true }, { id: '3', price: '3.90', active: true }] },
      { id: FB.total, specifiers: 'total=2.5', status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '12', price: '1.90', active: true }, { id: '13', price: '1.95', active: true }] },
    ],
  });
  await send({ type: 'bet_stop', producer: PRODUCER.live, timestamp: T0 + 2000, event_id: 'sr:match:1', markets: [{ id: FB.total, specifiers: 'total=2.5' }] });
  await t.feed.ingest({ type: 'no_such_type', producer: PRODUCER.live, timestamp: T0 });
});
afterAll(async () => {
  await t?.close();
});

const ids = (body: { items: { event_id: string }[] }) => body.items.map((i) => i.event_id).sort();

describe('match list', () => {
  it('lists the feed events and filters by sport, league, date and status', async () => {
    const all = await t.call('GET', '/api/v1/sports/matches', { token });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.items[0]).toMatchObject({ event_id: 'sr:match:1', home_team: 'sr:match:1 home', is_visible: true, event_status: EVENT_STATUS.not_started });
    expect(ids((await t.call('GET', `/api/v1/sports/matches?sport_id=${SPORT.basketball}`, { token })).body)).toEqual(['sr:match:3']);
    expect(ids((await t.call('GET', '/api/v1/sports/matches?league_id=ligue', { token })).body)).toEqual(['sr:match:2']);
    const from = new Date(T0 + 86_400_000).toISOString();
    expect(ids((await t.call('GET', `/api/v1/sports/matches?date_from=${encodeURIComponent(from)}`, { token })).body)).toEqual(['sr:match:2']);
    expect(ids((await t.call('GET', `/api/v1/sports/matches?date_to=${encodeURIComponent(from)}`, { token })).body)).toEqual(['sr:match:1', 'sr:match:3']);
    const live = (await t.call('GET', `/api/v1/sports/matches?event_status=${EVENT_STATUS.in_progress}`, { token })).body;
    expect(ids(live)).toEqual(['sr:match:3']);
    expect(live.items[0].match_status).toBe(EVENT_STATUS.in_progress);
    expect((await t.call('GET', '/api/v1/sports/matches?is_visible=false', { token })).body.total).toBe(0);
  });

  it('refuses bad filters with the parameter message', async () => {
    for (const q of ['date_from=yesterday', 'sport_id=abc', 'is_visible=maybe', 'sort=home_team']) {
      const r = await t.call('GET', `/api/v1/sports/matches?${q}`, { token });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('PARAM_INVALID');
    }
  });
});

describe('odds view', () => {
  it('answers markets with their selections: price with margin, original price, suspension', async () => {
    const r = await t.call('GET', `/api/v1/sports/matches/${encodeURIComponent('sr:match:1')}/odds`, { token });
    expect(r.status).toBe(200);
    expect(r.body.markets.map((m: { key: string }) => m.key)).toEqual(['1|', '18|total=2.5']);
    const [x12, total] = r.body.markets;
    expect(x12).toMatchObject({ type_id: FB.oneXtwo, count: 3, suspended: false, status: BETTING_OFFER_STATUS.bettable });
    // The seeded football margin (5 %): 2.10 / 1.05 = 2.00.
    expect(x12.selections[0]).toMatchObject({ id: '1||1', name: '1', price: '2.00', original_price: '2.10', visible: true, suspended: false, updated_at: new Date(T0 + 1000).toISOString() });
    expect(total).toMatchObject({ is_over_under: true, suspended: true, suspended_by: { bet_stop: true, operator: false, producer: false } });
    expect(total.selections.every((s: { suspended: boolean }) => s.suspended)).toBe(true);
  });

  it('answers 404 for an unknown match', async () => {
    expect((await t.call('GET', '/api/v1/sports/matches/sr:match:404/odds', { token })).status).toBe(404);
  });
});

describe('receiving statistics', () => {
  it('shows per producer: alive, last message, messages per type and errors', async () => {
    const r = await t.call('GET', '/api/v1/sports/receiving_statistics', { token });
    expect(r.status).toBe(200);
    const live = r.body.items.find((i: { producer: number }) => i.producer === PRODUCER.live);
    expect(live).toMatchObject({ alive: true, messages: { odds_change: 1, bet_stop: 1 }, errors: { data_error: 0, unknown_type: 1 }, selection_updates: 5 });
    expect(live.last_message_at).toEqual(expect.any(String));
    expect(r.body.events).toBe(3);
  });
});
