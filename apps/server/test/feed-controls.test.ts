/**
 * Operator controls of the match list (issue 4): each control changes the row and writes its audit row
 * (before / after); an operator suspension survives a producer down / up and a newer odds change; bad
 * input is PARAM_INVALID; a role without the button is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { BETTING_OFFER_STATUS, EVENT_STATUS, LOG_TYPE, MATCH_STATUS, SPORT } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages';
import { FB } from '../src/modules/feed/simulator';
import { systemLogs } from '../src/platform/schema';
import { leagues, locations } from '../src/modules/sports/schema';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, type TestApp } from './helpers';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const EV = 'sr:match:10';
const ENDED = 'sr:match:11';
/** The match the cancel case cancels (for good: the other cases keep EV open). */
const CANCELLED = 'sr:match:12';
const TOTAL = `${FB.total}|total=2.5`;
const X12 = `${FB.oneXtwo}|`;
let t: TestApp;
let token: string;

const fixture = (id: string, status: number): FeedMessageInput => ({
  type: 'fixture_change',
  producer: PRODUCER.prematch,
  timestamp: T0,
  event_id: id,
  sport_id: SPORT.football,
  league_id: 'epl',
  league_name: 'EPL',
  home_team: `${id} home`,
  away_team: `${id} away`,
  start_time: T0 + 3_600_000,
  status,
});

const odds = (ts: number, price: string, event = EV): FeedMessageInput => ({
  type: 'odds_change',
  producer: PRODUCER.live,
  timestamp: ts,
  event_id: event,
  event_status: EVENT_STATUS.not_started,
  markets: [
    { id: FB.oneXtwo, status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '1', price, active: true }, { id: '2', price: '3.40', active: true }, { id: '3', price: '3.90', active: true }] },
    { id: FB.total, specifiers: 'total=2.5', status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '12', price: '1.90', active: true }, { id: '13', price: '1.95', active: true }] },
  ],
});

const send = async (m: FeedMessageInput) => expect(await t.feed.ingest(m)).toMatchObject({ ok: true });
const url = (path = '', event = EV) => `/api/v1/sports/matches/${encodeURIComponent(event)}${path}`;
const mkt = (key: string) => url(`/markets/${encodeURIComponent(key)}`);

async function lastAudit() {
  const [row] = await t.database.db.select().from(systemLogs).orderBy(desc(systemLogs.id)).limit(1);
  return row;
}

async function oddsView(event = EV) {
  const r = await t.call('GET', url('/odds', event), { token });
  expect(r.status).toBe(200);
  return r.body as { markets: { key: string; suspended: boolean; suspended_by: Record<string, boolean>; selections: { name: string; suspended: boolean; price: string }[] }[] };
}

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  await send(fixture(EV, EVENT_STATUS.not_started));
  await send(fixture(ENDED, EVENT_STATUS.ended));
  await send(odds(T0 + 1000, '2.10'));
  await send(fixture(CANCELLED, EVENT_STATUS.not_started));
  await send(odds(T0 + 1000, '2.10', CANCELLED));
});
afterAll(async () => {
  await t?.close();
});

/** Sets the match's operator flags (path and body per flag), each answered 200: a case's given state. */
async function given(flags: [string, Record<string, unknown>][]) {
  for (const [path, body] of flags) {
    const r = await t.call('POST', url(path), { token, body });
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  }
}

describe('match flags', () => {
  // Each case first brings the row to its `before` (with `given`, else the `before` itself as the body), so
  // the cases hold in any order.
  const cases: { path: string; body: Record<string, unknown>; after: Record<string, unknown>; before: Record<string, unknown>; given?: Record<string, unknown> }[] = [
    { path: '/visibility', body: { is_visible: false }, before: { is_visible: true }, after: { is_visible: false } },
    { path: '/suspension', body: { is_suspended: true }, before: { is_suspended: false }, after: { is_suspended: true } },
    { path: '/live-delay', body: { seconds: 8 }, before: { live_delay_seconds: 0 }, after: { live_delay_seconds: 8 }, given: { seconds: 0 } },
    { path: '/random-bet', body: { random_bet: true }, before: { random_bet: false }, after: { random_bet: true } },
    { path: '/ranking', body: { popularity: 90, sequence: 3 }, before: { popularity: 0, sequence: 0 }, after: { popularity: 90, sequence: 3 } },
    { path: '/ranking', body: { sequence: 7 }, before: { sequence: 3 }, after: { sequence: 7 } },
    { path: '/maintenance', body: { is_maintain: true }, before: { is_maintain: false }, after: { is_maintain: true } },
    { path: '/maintenance', body: { is_maintain: false }, before: { is_maintain: true }, after: { is_maintain: false } },
    { path: '/suspension', body: { is_suspended: false }, before: { is_suspended: true }, after: { is_suspended: false } },
  ];
  for (const c of cases) {
    it(`${c.path} ${JSON.stringify(c.body)} changes the row and is audited`, async () => {
      const given = await t.call('POST', url(c.path), { token, body: c.given ?? c.before });
      expect(given.status, JSON.stringify(given.body)).toBe(200);
      expect(given.body).toMatchObject(c.before);
      const r = await t.call('POST', url(c.path), { token, body: c.body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ event_id: EV, ...c.after });
      const list = await t.call('GET', '/api/v1/sports/matches', { token });
      expect(list.body.items.find((i: { event_id: string }) => i.event_id === EV)).toMatchObject(c.after);
      const a = await lastAudit();
      expect(a).toMatchObject({ type: LOG_TYPE.ordinary, before: c.before, after: c.after, account: 'admin' });
      expect(a.route).toBe(`/api/v1/sports/matches/:id${c.path}`);
    });
  }

  it('shows every market of a suspended match as suspended in the odds view, and open again after', async () => {
    await given([['/suspension', { is_suspended: false }], ['/maintenance', { is_maintain: false }]]);
    const open = (await oddsView()).markets.filter((m) => !m.suspended).map((m) => m.key);
    expect(open.length).toBeGreaterThan(0);
    expect((await t.call('POST', url('/suspension'), { token, body: { is_suspended: true } })).status).toBe(200);
    const closed = await oddsView();
    expect(closed.markets.every((m) => m.suspended && m.selections.every((x) => x.suspended))).toBe(true);
    expect((await t.call('POST', url('/suspension'), { token, body: { is_suspended: false } })).status).toBe(200);
    expect((await oddsView()).markets.filter((m) => !m.suspended).map((m) => m.key)).toEqual(open);
  });

  it('keeps the operator flags across a fixture change', async () => {
    await given([
      ['/visibility', { is_visible: false }],
      ['/suspension', { is_suspended: false }],
      ['/live-delay', { seconds: 8 }],
      ['/ranking', { popularity: 90, sequence: 7 }],
      ['/random-bet', { random_bet: true }],
    ]);
    await send({ ...fixture(EV, EVENT_STATUS.not_started), timestamp: T0 + 500 });
    const list = await t.call('GET', '/api/v1/sports/matches', { token });
    expect(list.body.items.find((i: { event_id: string }) => i.event_id === EV)).toMatchObject({ is_visible: false, is_suspended: false, live_delay_seconds: 8, popularity: 90, random_bet: true });
  });

  it('refuses bad input with PARAM_INVALID', async () => {
    const bad: [string, unknown][] = [
      ['/visibility', { is_visible: 'no' }],
      ['/visibility', { is_visible: true, extra: 1 }],
      ['/suspension', {}],
      ['/live-delay', { seconds: 601 }],
      ['/live-delay', { seconds: -1 }],
      ['/live-delay', { seconds: 1.5 }],
      ['/random-bet', { random_bet: 1 }],
      ['/ranking', {}],
      ['/ranking', { popularity: -1 }],
      ['/maintenance', { is_maintain: null }],
      ['/cancel', {}],
      ['/cancel', { reason: '   ' }],
      ['/markets/1%7C/suspension', { is_suspended: 'yes' }],
    ];
    for (const [path, body] of bad) {
      const r = await t.call('POST', url(path), { token, body });
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.code).toBe('PARAM_INVALID');
    }
  });

  it('answers 404 for an unknown match, market or selection', async () => {
    const missing = '/api/v1/sports/matches/sr:match:404';
    expect((await t.call('POST', `${missing}/visibility`, { token, body: { is_visible: true } })).status).toBe(404);
    expect((await t.call('POST', `${missing}/cancel`, { token, body: { reason: 'x' } })).status).toBe(404);
    expect((await t.call('POST', `${mkt('99|')}/suspension`, { token, body: { is_suspended: true } })).status).toBe(404);
    expect((await t.call('POST', `${mkt(X12)}/outcomes/77/suspension`, { token, body: { is_suspended: true } })).status).toBe(404);
  });
});

describe('market and selection suspension', () => {
  it('suspends a market and audits it; the suspension survives a producer down / up and newer odds', async () => {
    await given([['/suspension', { is_suspended: false }], ['/maintenance', { is_maintain: false }]]);
    const r = await t.call('POST', `${mkt(TOTAL)}/suspension`, { token, body: { is_suspended: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ key: TOTAL, suspended_by: { operator: true } });
    expect(await lastAudit()).toMatchObject({ type: LOG_TYPE.ordinary, before: { market: TOTAL, is_suspended: false }, after: { market: TOTAL, is_suspended: true } });

    const sel = await t.call('POST', `${mkt(X12)}/outcomes/1/suspension`, { token, body: { is_suspended: true } });
    expect(sel.status, JSON.stringify(sel.body)).toBe(200);
    expect(sel.body.selections.find((s: { name: string }) => s.name === '1')).toMatchObject({ suspended_by_operator: true });
    expect(await lastAudit()).toMatchObject({ before: { market: X12, outcome_id: '1', is_suspended: false }, after: { outcome_id: '1', is_suspended: true } });

    await send({ type: 'producer_down', producer: PRODUCER.live, timestamp: T0 + 2000 });
    let view = await oddsView();
    expect(view.markets.find((m) => m.key === X12)).toMatchObject({ suspended: true, suspended_by: { producer: true, operator: false } });
    await send({ type: 'producer_up', producer: PRODUCER.live, timestamp: T0 + 3000 });
    await send(odds(T0 + 4000, '2.20'));
    view = await oddsView();
    const total = view.markets.find((m) => m.key === TOTAL)!;
    expect(total).toMatchObject({ suspended: true, suspended_by: { operator: true, producer: false, bet_stop: false } });
    const x12 = view.markets.find((m) => m.key === X12)!;
    expect(x12).toMatchObject({ suspended: false, suspended_by: { producer: false, operator: false } });
    expect(x12.selections.find((s) => s.name === '1')).toMatchObject({ suspended: true, original_price: '2.20' });
    expect(x12.selections.find((s) => s.name === '2')).toMatchObject({ suspended: false });

    // Lifted by the operator only.
    expect((await t.call('POST', `${mkt(TOTAL)}/suspension`, { token, body: { is_suspended: false } })).status).toBe(200);
    expect((await t.call('POST', `${mkt(X12)}/outcomes/1/suspension`, { token, body: { is_suspended: false } })).status).toBe(200);
    view = await oddsView();
    expect(view.markets.every((m) => !m.suspended && m.selections.every((s) => !s.suspended))).toBe(true);
  });
});

describe('cancel', () => {
  it('cancels a match with the reason, suspends its markets, audits; a second cancel or an ended match is 409', async () => {
    const r = await t.call('POST', url('/cancel', CANCELLED), { token, body: { reason: 'Pitch flooded' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ cancel_reason: 'Pitch flooded', match_status: MATCH_STATUS.cancelled, is_suspended: true });
    const a = await lastAudit();
    expect(a).toMatchObject({ type: LOG_TYPE.ordinary, before: { cancel_reason: '', match_status: MATCH_STATUS.not_started }, after: { cancel_reason: 'Pitch flooded', match_status: MATCH_STATUS.cancelled } });
    expect((a.after as { suspended_markets: string[] }).suspended_markets.sort()).toEqual([X12, TOTAL].sort());
    const view = await oddsView(CANCELLED);
    expect(view.markets.every((m) => m.suspended && m.suspended_by.operator)).toBe(true);
    // The feed does not undo the operator's cancel.
    await send({ ...fixture(CANCELLED, EVENT_STATUS.in_progress), timestamp: T0 + 5000 });
    const list = await t.call('GET', '/api/v1/sports/matches', { token });
    expect(list.body.items.find((i: { event_id: string }) => i.event_id === CANCELLED)).toMatchObject({ match_status: MATCH_STATUS.cancelled, cancel_reason: 'Pitch flooded' });

    expect((await t.call('POST', url('/cancel', CANCELLED), { token, body: { reason: 'again' } })).status).toBe(409);
    const ended = await t.call('POST', `/api/v1/sports/matches/${encodeURIComponent(ENDED)}/cancel`, { token, body: { reason: 'late' } });
    expect(ended.status).toBe(409);
    expect(ended.body.code).toBe('CONFLICT');
  });
});

describe('price margins', () => {
  it('upserts the margin per sport and per league, lists them and audits', async () => {
    const db = t.database.db;
    const [loc] = await db.select({ id: locations.id }).from(locations).limit(1);
    const [lg] = loc
      ? await db.insert(leagues).values({ sportId: SPORT.football, locationId: loc.id, name: 'Test league' }).returning({ id: leagues.id })
      : [undefined];

    const put = (body: unknown) => t.call('PUT', '/api/v1/sports/margins', { token, body });
    const seeded = (await t.call('GET', '/api/v1/sports/margins', { token })).body.items.find(
      (i: { sport_id: number; league_id: number | null }) => i.sport_id === SPORT.football && i.league_id === null,
    );
    const a = await put({ sport_id: SPORT.football, margin_bps: 450 });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body).toMatchObject({ sport_id: SPORT.football, league_id: null, margin_bps: 450 });
    expect(await lastAudit()).toMatchObject({ type: LOG_TYPE.ordinary, before: seeded ? { margin_bps: seeded.margin_bps } : null, after: { sport_id: SPORT.football, league_id: null, margin_bps: 450 } });
    const b = await put({ sport_id: SPORT.football, margin_bps: 600 });
    expect(b.body).toMatchObject({ id: a.body.id, margin_bps: 600 });
    expect(await lastAudit()).toMatchObject({ before: { margin_bps: 450 }, after: { margin_bps: 600 } });
    if (lg) {
      const c = await put({ sport_id: SPORT.football, league_id: lg.id, margin_bps: 300 });
      expect(c.body).toMatchObject({ league_id: lg.id, margin_bps: 300 });
      expect((await put({ sport_id: SPORT.basketball, league_id: lg.id, margin_bps: 300 })).status).toBe(404);
    }
    expect((await put({ sport_id: SPORT.football, league_id: 999999, margin_bps: 300 })).status).toBe(404);

    const list = await t.call('GET', '/api/v1/sports/margins', { token });
    expect(list.status).toBe(200);
    const football = list.body.items.filter((i: { sport_id: number }) => i.sport_id === SPORT.football);
    expect(football.find((i: { league_id: number | null }) => i.league_id === null)).toMatchObject({ margin_bps: 600 });
    // One row per sport and league (an upsert, not a second row); the other case adds a league of its own.
    expect(football.filter((i: { league_id: number | null }) => i.league_id === null)).toHaveLength(1);
    if (lg) expect(football.filter((i: { league_id: number | null }) => i.league_id === lg.id)).toMatchObject([{ margin_bps: 300 }]);
    if (seeded) expect(a.body.id).toBe(seeded.id);

    for (const body of [{ sport_id: SPORT.football, margin_bps: 3001 }, { sport_id: 99, margin_bps: 100 }, { sport_id: SPORT.football }, { sport_id: SPORT.football, margin_bps: 10, x: 1 }]) {
      const r = await put(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe('PARAM_INVALID');
    }
  });
});

describe('margins reach the prices', () => {
  it("prices the next odds change with the league's margin through its provider id, else the sport's", async () => {
    const db = t.database.db;
    const [loc] = await db.select({ id: locations.id }).from(locations).limit(1);
    const [lg] = await db.insert(leagues).values({ sportId: SPORT.football, locationId: loc.id, name: 'Margin league', providerId: 'sr:tournament:m1' }).returning({ id: leagues.id });
    expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, margin_bps: 1000 } })).status).toBe(200);
    const priceOf = async (eventId: string) => {
      const r = await t.call('GET', `/api/v1/sports/matches/${encodeURIComponent(eventId)}/odds`, { token });
      return r.body.markets.find((m: { key: string }) => m.key === X12).selections.find((x: { name: string }) => x.name === '1');
    };
    const quote = async (eventId: string, leagueId: string, ts: number) => {
      await send({ ...fixture(eventId, EVENT_STATUS.not_started), league_id: leagueId, timestamp: ts } as FeedMessageInput);
      await send({ ...odds(ts + 1, '2.20'), event_id: eventId } as FeedMessageInput);
    };
    // Sport margin 10 %: 2.20 / 1.10 = 2.00.
    await quote('sr:match:m-sport', 'sr:tournament:none', T0 + 50_000);
    expect(await priceOf('sr:match:m-sport')).toMatchObject({ original_price: '2.20', price: '2.00' });
    // The league's own margin (0 %) wins over the sport's once it is set; the change prices the next odds change.
    expect((await t.call('PUT', '/api/v1/sports/margins', { token, body: { sport_id: SPORT.football, league_id: lg.id, margin_bps: 0 } })).status).toBe(200);
    await quote('sr:match:m-league', 'sr:tournament:m1', T0 + 60_000);
    expect(await priceOf('sr:match:m-league')).toMatchObject({ original_price: '2.20', price: '2.20' });
  });
});

describe('button permissions', () => {
  it('refuses a role that sees the match list but holds no control button', async () => {
    const role = await makeRole(t, 'Match viewer', ['match_list']);
    const [root] = await t.database.db.select({ id: systemLogs.adminId }).from(systemLogs).where(eq(systemLogs.account, 'admin')).limit(1);
    await makeAdmin(t, 'viewer', role, root?.id ?? null);
    const viewer = await t.login('viewer');
    expect((await t.call('GET', '/api/v1/sports/matches', { token: viewer })).status).toBe(200);
    const calls: [string, string, unknown][] = [
      ['POST', url('/visibility'), { is_visible: true }],
      ['POST', url('/suspension'), { is_suspended: false }],
      ['POST', `${mkt(X12)}/suspension`, { is_suspended: true }],
      ['POST', `${mkt(X12)}/outcomes/1/suspension`, { is_suspended: true }],
      ['POST', url('/live-delay'), { seconds: 1 }],
      ['POST', url('/random-bet'), { random_bet: false }],
      ['POST', url('/ranking'), { popularity: 1 }],
      ['POST', url('/maintenance'), { is_maintain: false }],
      ['POST', url('/cancel'), { reason: 'x' }],
      ['PUT', '/api/v1/sports/margins', { sport_id: SPORT.football, margin_bps: 1 }],
    ];
    for (const [method, path, body] of calls) {
      const r = await t.call(method, path, { token: viewer, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.code).toBe('FORBIDDEN');
    }
    expect((await t.call('GET', '/api/v1/sports/margins', { token: viewer })).status).toBe(200);
  });
});
