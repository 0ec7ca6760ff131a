import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ADMIN_PASSWORD, createTestApp, exportFinished, makeAdmin, makeRole, type TestApp } from './helpers.js';
import { darDay, pruneVisits, recordVisit, seedVisitHistory, visitHourly, visitorStats, visits } from '../src/modules/visitors/index.js';
import { Rng } from '../src/simulator/rng.js';
import { simulateVisits } from '../src/simulator/visitors.js';
import { mallProducts } from '../src/modules/shop/schema.js';
import { visitorProfiles } from '../src/modules/visitors/schema.js';

let t: TestApp;
let root: string;

beforeAll(async () => {
  t = await createTestApp();
  root = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

/** An instant of a Dar es Salaam day and hour (UTC+3). */
const dar = (day: string, hour: number, minute = 0) => new Date(Date.parse(`${day}T00:00:00Z`) - 3 * 3_600_000 + hour * 3_600_000 + minute * 60_000);

const waitDone = (id: number) => exportFinished(t, id);

/** No visit at all: the visits, their hourly totals and the visitors' first and last days. */
async function noVisits() {
  const db = t.database.db;
  await db.delete(visits);
  await db.delete(visitHourly);
  await db.delete(visitorProfiles);
}

// Each case starts with no visit and records those it needs: the stats are read over fixed days, which
// the demo history below also fills, and the history (like the simulator's first tick) is written only
// into empty tables.
beforeEach(noVisits);

/**
 * The visits of early March: cookie-a on the 2nd at 08:00 and 23:30 and on the 3rd at 00:15 (Dar time),
 * device-b from Kenya and device-c (no country) on the 3rd at 20:00 and 20:05. Answers what recordVisit
 * answered for cookie-a's three visits.
 */
async function marchVisits() {
  const db = t.database.db;
  const a = [
    await recordVisit(db, { visitorId: 'cookie-a', device: 1, source: 2, country: 'tz', path: '/sports', at: dar('2026-03-02', 8) }),
    await recordVisit(db, { visitorId: 'cookie-a', device: 1, source: 1, country: 'TZ', at: dar('2026-03-02', 23, 30) }),
    await recordVisit(db, { visitorId: 'cookie-a', device: 3, source: 1, country: 'TZ', at: dar('2026-03-03', 0, 15) }),
  ];
  await recordVisit(db, { visitorId: 'device-b', device: 3, source: 5, country: 'KE', at: dar('2026-03-03', 20) });
  await recordVisit(db, { visitorId: 'device-c', device: 2, source: 4, country: '??', at: dar('2026-03-03', 20, 5) });
  return a;
}

describe('recording visits', () => {
  it('counts visits, distinct visitors once a day, new on their first day and returning after', async () => {
    const db = t.database.db;
    const [a, sameDay, nextDay] = await marchVisits();
    expect(a).toEqual({ kind: 1, firstOfDay: true });
    // Same Dar day (23:30 is still the 2nd there, though it is the 2nd 20:30 UTC).
    expect(sameDay).toEqual({ kind: 1, firstOfDay: false });
    expect(nextDay).toEqual({ kind: 2, firstOfDay: true });

    const s = await visitorStats(db, '2026-03-01', '2026-03-03');
    expect(s.days).toEqual([
      { day: '2026-03-01', visits: 0, visitors: 0, new_visitors: 0, returning_visitors: 0 },
      { day: '2026-03-02', visits: 2, visitors: 1, new_visitors: 1, returning_visitors: 0 },
      { day: '2026-03-03', visits: 3, visitors: 3, new_visitors: 2, returning_visitors: 1 },
    ]);
    expect(s.totals).toEqual({ visits: 5, visitors: 4, new_visitors: 3, returning_visitors: 1 });
    expect(s.hours).toHaveLength(24);
    expect(s.hours[20]).toMatchObject({ hour: 20, visits: 2, visitors: 2 });
    expect(s.hours[23]).toMatchObject({ visits: 1, visitors: 0 });
    expect(s.devices.find((d) => d.device === 3)).toMatchObject({ visits: 2, visitors: 2 });
    expect(s.sources.map((x) => x.source)).toEqual([1, 2, 3, 4, 5]);
    // Unknown countries are ZZ; most visits first.
    expect(s.countries.map((c) => [c.country, c.visits])).toEqual([['TZ', 3], ['KE', 1], ['ZZ', 1]]);
    // Visitors add up across every breakdown.
    for (const list of [s.hours, s.devices, s.sources, s.countries]) expect(list.reduce((n, x) => n + x.visitors, 0)).toBe(s.totals.visitors);
  });

  it('refuses a visit it cannot read', async () => {
    const db = t.database.db;
    await expect(recordVisit(db, { visitorId: '', device: 1, source: 1 })).rejects.toMatchObject({ status: 400 });
    await expect(recordVisit(db, { visitorId: 'x y', device: 1, source: 1 })).rejects.toMatchObject({ status: 400 });
    await expect(recordVisit(db, { visitorId: 'ok', device: 9, source: 1 })).rejects.toMatchObject({ status: 400 });
    await expect(recordVisit(db, { visitorId: 'ok', device: 1, source: 0 })).rejects.toMatchObject({ status: 400 });
  });

  it('counts a new visitor once when their first visits arrive together', async () => {
    const db = t.database.db;
    const at = dar('2026-03-10', 12);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => recordVisit(db, { visitorId: 'burst', device: 1, source: 1, country: 'TZ', at: new Date(at.getTime() + i) })));
    expect(results.filter((r) => r.firstOfDay)).toHaveLength(1);
    const s = await visitorStats(db, '2026-03-10', '2026-03-10');
    expect(s.totals).toMatchObject({ visits: 12, visitors: 1, new_visitors: 1 });
  });
});

describe('visitor screen API', () => {
  it('answers the stats for a range and refuses bad ranges', async () => {
    await marchVisits();
    const ok = await t.call('GET', '/api/v1/visitors/stats?date_from=2026-03-02&date_to=2026-03-03', { token: root });
    expect(ok.status).toBe(200);
    expect(ok.body.totals.visits).toBe(5);
    expect(ok.body.days.map((d: { day: string }) => d.day)).toEqual(['2026-03-02', '2026-03-03']);
    const def = await t.call('GET', '/api/v1/visitors/stats', { token: root });
    expect(def.body.days).toHaveLength(7);
    expect(def.body.date_to).toBe(darDay(Date.now()));
    expect((await t.call('GET', '/api/v1/visitors/stats?date_from=2026-03-04&date_to=2026-03-03', { token: root })).status).toBe(400);
    expect((await t.call('GET', '/api/v1/visitors/stats?date_from=2026-01-01&date_to=2026-06-01', { token: root })).status).toBe(400);
    expect((await t.call('GET', '/api/v1/visitors/stats?date_from=2026-02-30', { token: root })).status).toBe(400);
  });

  it('lists, filters and exports the visits; needs the page and its export button', async () => {
    await marchVisits();
    const list = await t.call('GET', '/api/v1/visitors/visits?visitor_id=cookie-a', { token: root });
    expect(list.status).toBe(200);
    expect(list.body.items.map((v: { kind: number }) => v.kind)).toEqual([2, 1, 1]);
    expect(list.body.items[2]).toMatchObject({ visitor_id: 'cookie-a', device: 1, source: 2, country: 'TZ', path: '/sports' });
    const ke = await t.call('GET', '/api/v1/visitors/visits?country=ke&device=3', { token: root });
    expect(ke.body.items.map((v: { visitor_id: string }) => v.visitor_id)).toEqual(['device-b']);
    expect((await t.call('GET', '/api/v1/visitors/visits?device=7', { token: root })).status).toBe(400);

    const res = await t.call('POST', '/api/v1/exports', { token: root, body: { type: 'visitor', format: 1, params: { visitor_id: 'cookie-a' }, locale: 'sw-KE' } });
    expect(res.status).toBe(202);
    const done = await waitDone(res.body.id);
    expect(done.status).toBe(2);
    const file = await t.call('GET', `/api/v1/system/async_operations/${res.body.id}/download`, { token: root });
    const lines = file.res.body.split('\n').filter(Boolean);
    expect(lines).toHaveLength(4);
    expect(file.res.body).toContain('Wavuti ya simu');
    expect(file.res.body).toContain('Anayerudi');

    const viewerRole = await makeRole(t, 'Visitor viewer', ['system', 'visitor', 'async_operations']);
    await makeAdmin(t, 'visits_viewer', viewerRole, null);
    const viewer = await t.login('visits_viewer');
    expect((await t.call('GET', '/api/v1/visitors/stats', { token: viewer })).status).toBe(200);
    expect((await t.call('POST', '/api/v1/exports', { token: viewer, body: { type: 'visitor', format: 1, params: {} } })).status).toBe(403);
    const otherRole = await makeRole(t, 'No visitors', ['system', 'log']);
    await makeAdmin(t, 'no_visits', otherRole, null);
    const other = await t.login('no_visits');
    expect((await t.call('GET', '/api/v1/visitors/stats', { token: other })).status).toBe(403);
    expect((await t.call('GET', '/api/v1/visitors/visits', { token: other })).status).toBe(403);
  });
});

describe('demo history and retention', () => {
  it('seeds 30 days once, with hourly totals that match the visits, and prunes old visits only', async () => {
    const db = t.database.db;
    // Tables that already hold visits: the seed does nothing then.
    await marchVisits();
    expect(await seedVisitHistory(db, new Rng(1))).toBe(0);
    await noVisits();
    const now = dar('2026-04-01', 10);
    const n = await seedVisitHistory(db, new Rng(7), { now, perDay: [20, 40] });
    expect(n).toBeGreaterThan(30 * 20);
    expect(await seedVisitHistory(db, new Rng(8), { now })).toBe(0);
    const s = await visitorStats(db, '2026-03-02', '2026-03-31');
    expect(s.days).toHaveLength(30);
    expect(s.days.every((d) => d.visits > 0 && d.visitors > 0 && d.visitors <= d.visits)).toBe(true);
    expect(s.totals.visits).toBe(n);
    expect(s.days[0]!.returning_visitors).toBe(0);
    expect(s.days.at(-1)!.returning_visitors).toBeGreaterThan(0);
    // A visitor of the history coming back today is returning.
    const [old] = await db.select().from(visits).limit(1);
    expect((await recordVisit(db, { visitorId: old!.visitorKey, device: 1, source: 1, at: now })).kind).toBe(2);

    const pruned = await pruneVisits(db, new Date(now.getTime() + 75 * 86_400_000));
    expect(pruned).toBeGreaterThan(0);
    const left = await db.select({ at: visits.visitedAt }).from(visits);
    expect(left.every((v) => v.at.getTime() >= now.getTime() + (75 - 90) * 86_400_000)).toBe(true);
    // The charts keep the pruned days.
    expect((await visitorStats(db, '2026-03-02', '2026-03-31')).totals.visits).toBe(n);
  });
});

describe('simulator', () => {
  it('gives an empty shop its demo rows and records visits as the site would', async () => {
    const db = t.database.db;
    // A site that already has visits: the first tick writes no 30-day history (that is for a fresh install).
    await marchVisits();
    const [before] = await db.select({ n: sql<number>`count(*)::int` }).from(visits);
    // An rng that always takes the visit branch and the first choice.
    const rng = { next: () => 0.1, int: (min: number) => min, pick: <T>(xs: readonly T[]) => xs[0]! };
    await simulateVisits(t.ctx, rng);
    await simulateVisits(t.ctx, rng);
    const [after] = await db.select({ n: sql<number>`count(*)::int` }).from(visits);
    expect(Number(after!.n) - Number(before!.n)).toBe(2);
    expect((await db.select().from(mallProducts)).length).toBe(3);
  });
});
