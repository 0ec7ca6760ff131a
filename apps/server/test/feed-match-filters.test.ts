/**
 * The match list's filters (issue 4): match status, and the league choices of the league filter
 * (GET /sports/matches/leagues: one per league the feed has sent, optionally of one sport).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STATUS, MATCH_STATUS, SPORT } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, PASSWORD, type TestApp } from './helpers';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
let t: TestApp;
let token: string;

const fixture = (id: string, sport: number, league: string, leagueName: string, status: number = EVENT_STATUS.not_started, ts = T0): FeedMessageInput => ({
  type: 'fixture_change',
  producer: PRODUCER.prematch,
  timestamp: ts,
  event_id: id,
  sport_id: sport,
  league_id: league,
  league_name: leagueName,
  home_team: `${id} home`,
  away_team: `${id} away`,
  start_time: T0 + 3_600_000,
  status,
});

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  const send = async (m: FeedMessageInput) => expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
  await send(fixture('sr:match:1', SPORT.football, 'sr:tournament:17', 'Premier League'));
  await send(fixture('sr:match:2', SPORT.football, 'sr:tournament:17', 'Premier League'));
  await send(fixture('sr:match:3', SPORT.football, 'sr:tournament:8', 'LaLiga', EVENT_STATUS.in_progress));
  await send(fixture('sr:match:4', SPORT.basketball, 'sr:tournament:132', 'NBA'));
});
afterAll(async () => {
  await t?.close();
});

const ids = (body: { items: { event_id: string }[] }) => body.items.map((i) => i.event_id).sort();

describe('match list filters', () => {
  it('filters by match status', async () => {
    const live = await t.call('GET', `/api/v1/sports/matches?match_status=${MATCH_STATUS.in_progress}`, { token });
    expect(live.status).toBe(200);
    expect(ids(live.body)).toEqual(['sr:match:3']);
    const waiting = await t.call('GET', `/api/v1/sports/matches?match_status=${MATCH_STATUS.not_started}&sport_id=${SPORT.football}`, { token });
    expect(ids(waiting.body)).toEqual(['sr:match:1', 'sr:match:2']);
    expect((await t.call('GET', `/api/v1/sports/matches?match_status=${MATCH_STATUS.cancelled}`, { token })).body.total).toBe(0);
    const bad = await t.call('GET', '/api/v1/sports/matches?match_status=live', { token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('PARAM_INVALID');
  });

  it('offers each league of the feed once, by sport', async () => {
    const all = await t.call('GET', '/api/v1/sports/matches/leagues', { token });
    expect(all.status).toBe(200);
    expect(all.body.items).toEqual([
      { sport_id: SPORT.football, league_id: 'sr:tournament:8', league_name: 'LaLiga' },
      { sport_id: SPORT.football, league_id: 'sr:tournament:17', league_name: 'Premier League' },
      { sport_id: SPORT.basketball, league_id: 'sr:tournament:132', league_name: 'NBA' },
    ]);
    const basket = await t.call('GET', `/api/v1/sports/matches/leagues?sport_id=${SPORT.basketball}`, { token });
    expect(basket.body.items.map((l: { league_id: string }) => l.league_id)).toEqual(['sr:tournament:132']);
    // A league id picked there filters the list.
    expect(ids((await t.call('GET', '/api/v1/sports/matches?league_id=sr%3Atournament%3A17', { token })).body)).toEqual(['sr:match:1', 'sr:match:2']);
    expect((await t.call('GET', '/api/v1/sports/matches/leagues?sport_id=x', { token })).status).toBe(400);
  });

  it('needs the match list page', async () => {
    const role = await makeRole(t, 'no matches', ['system', 'log']);
    await makeAdmin(t, 'nomatch', role, null);
    const other = await t.login('nomatch', PASSWORD);
    expect((await t.call('GET', '/api/v1/sports/matches/leagues', { token: other })).status).toBe(403);
    expect((await t.call('GET', '/api/v1/sports/matches/leagues')).status).toBe(401);
  });
});
