/**
 * The sandbox feed route (DAU_SANDBOX_ROUTES=1 only): one provider message applied through the engine, as
 * the browser tests use it to create matches and move prices. Registered here on an app built without
 * the switch, so the test does not depend on how the switch is wired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BETTING_OFFER_STATUS, EVENT_STATUS, SPORT } from '@dau/domain';
import { buildApp, type DauApp } from '../src/app';
import { seed } from '../src/seed';
import { PRODUCER } from '../src/modules/feed/messages';
import { FB } from '../src/modules/feed/simulator';
import { feedSandboxRoutes } from '../src/modules/feed/sandbox-routes';
import { ADMIN_PASSWORD, freshDatabase, makeAdmin, makeRole, PASSWORD } from './helpers';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
let built: DauApp;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let token: string;

async function call(method: 'GET' | 'POST', url: string, body?: unknown, bearer = token) {
  const res = await built.app.inject({
    method,
    url,
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
}

beforeAll(async () => {
  database = await freshDatabase();
  await seed(database.db, { adminPassword: ADMIN_PASSWORD, demo: false });
  built = await buildApp({ database });
  await built.app.register(async (scoped) => feedSandboxRoutes(scoped, built.feed));
  await built.app.ready();
  token = (await call('POST', '/api/v1/auth/login', { account: 'admin', password: ADMIN_PASSWORD }, '')).body.token;
});
afterAll(async () => {
  await built?.app.close();
  await database?.dispose();
});

const fixture = {
  type: 'fixture_change',
  producer: PRODUCER.prematch,
  timestamp: T0,
  event_id: 'sr:match:77',
  sport_id: SPORT.football,
  league_id: 'sr:tournament:17',
  league_name: 'Premier League',
  home_team: 'Arsenal',
  away_team: 'Chelsea',
  start_time: T0 + 3_600_000,
  status: EVENT_STATUS.not_started,
};
const odds = (ts: number, home: string) => ({
  type: 'odds_change',
  producer: PRODUCER.live,
  timestamp: ts,
  event_id: 'sr:match:77',
  event_status: EVENT_STATUS.not_started,
  markets: [{ id: FB.oneXtwo, status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '1', price: home, active: true }, { id: '2', price: '3.40', active: true }, { id: '3', price: '3.90', active: true }] }],
});

describe('POST /sandbox/feed/messages', () => {
  it('creates a match and moves its prices through the engine; a repeat changes nothing', async () => {
    expect(await call('POST', '/api/v1/sandbox/feed/messages', fixture)).toMatchObject({ status: 201, body: { type: 'fixture_change', applied: true } });
    expect(await call('POST', '/api/v1/sandbox/feed/messages', odds(T0 + 1000, '2.10'))).toMatchObject({ status: 201, body: { applied: true } });
    expect(await call('POST', '/api/v1/sandbox/feed/messages', odds(T0 + 1000, '2.10'))).toMatchObject({ status: 201, body: { applied: false } });
    expect(await call('POST', '/api/v1/sandbox/feed/messages', odds(T0 + 2000, '2.25'))).toMatchObject({ status: 201, body: { applied: true } });
    const list = await call('GET', '/api/v1/sports/matches');
    expect(list.body.items.map((m: { event_id: string }) => m.event_id)).toEqual(['sr:match:77']);
    const view = await call('GET', `/api/v1/sports/matches/${encodeURIComponent('sr:match:77')}/odds`);
    expect(view.body.markets[0].selections.find((s: { name: string }) => s.name === '1').original_price).toBe('2.25');
  });

  it('refuses a message the engine cannot read, with the reason', async () => {
    const bad = await call('POST', '/api/v1/sandbox/feed/messages', { ...fixture, sport_id: 'football' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('PARAM_INVALID');
    expect(JSON.stringify(bad.body.details)).toMatch(/invalid fixture_change/);
    expect((await call('POST', '/api/v1/sandbox/feed/messages', { type: 'no_such_type' })).status).toBe(400);
    expect((await call('POST', '/api/v1/sandbox/feed/messages', {})).status).toBe(400);
  });

  it('needs a signed-in admin with the match list page', async () => {
    expect((await call('POST', '/api/v1/sandbox/feed/messages', fixture, '')).status).toBe(401);
    // The helpers only use the database.
    const role = await makeRole({ database } as never, 'no matches', ['system']);
    await makeAdmin({ database } as never, 'nomatch', role, null);
    const other = (await call('POST', '/api/v1/auth/login', { account: 'nomatch', password: PASSWORD }, '')).body.token;
    expect((await call('POST', '/api/v1/sandbox/feed/messages', fixture, other)).status).toBe(403);
  });
});
