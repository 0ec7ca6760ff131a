/**
 * Visitors (issue 16): `recordVisit` is what the bettor-facing site and app call for each page view or
 * app open (the simulator drives it); `visitorStats` reads the hourly totals for the console's charts;
 * `seedVisitHistory` gives a fresh demo install 30 days of history; `pruneVisits` keeps 90 days of visits.
 */
import { sql } from 'drizzle-orm';
import { VISIT_DEVICE, VISIT_SOURCE, VISITOR_KIND, isEnumValue } from '@dau/domain';
import type { VisitCounts, VisitorStats } from '@dau/contract';
import type { Db, Executor } from '../../platform/db.js';
import { badRequest } from '../../platform/errors.js';
import { visits } from './schema.js';

/** Dar es Salaam is UTC+3 all year. */
const DAR_OFFSET_MS = 3 * 3_600_000;
export const darDay = (t: Date | number) => new Date((typeof t === 'number' ? t : t.getTime()) + DAR_OFFSET_MS).toISOString().slice(0, 10);
const darHour = (t: Date) => new Date(t.getTime() + DAR_OFFSET_MS).getUTCHours();
const hourStart = (t: Date) => new Date(Math.floor(t.getTime() / 3_600_000) * 3_600_000);

/** How long visits are kept (the hourly totals are kept for good); DAU_VISITS_KEEP_DAYS. */
export const VISITS_KEEP_DAYS = Math.max(1, Number(process.env.DAU_VISITS_KEEP_DAYS ?? 90) || 90);

export interface VisitInput {
  /** The site's cookie id or the app's device id (1-64 visible characters). */
  visitorId: string;
  device: number;
  source: number;
  /** ISO 3166-1 alpha-2 (any case); anything else is recorded as ZZ (unknown). */
  country?: string | null;
  path?: string | null;
  /** Default now; the seed and tests give other instants. */
  at?: Date;
}

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** The visit as it will be stored, or a 400 naming the bad field. */
export function normaliseVisit(v: VisitInput) {
  const key = String(v.visitorId ?? '').trim();
  if (!/^[\x21-\x7e]{1,64}$/.test(key)) throw badRequest('PARAM_INVALID', [{ field: 'visitor_id', message: '1-64 visible ASCII characters' }]);
  if (!isEnumValue('visit_device', v.device)) throw badRequest('PARAM_INVALID', [{ field: 'device' }]);
  if (!isEnumValue('visit_source', v.source)) throw badRequest('PARAM_INVALID', [{ field: 'source' }]);
  const country = /^[A-Za-z]{2}$/.test(v.country ?? '') ? v.country!.toUpperCase() : 'ZZ';
  const path = String(v.path ?? '/').replace(/[\0-\x1f]/g, '').slice(0, 300) || '/';
  return { key, device: v.device, source: v.source, country, path, at: v.at ?? new Date() };
}

/**
 * Records one visit in one transaction: the visitor's profile (new or returning; first visit of the day),
 * the hourly total of its bucket, the visit row. Three single-row statements: cheap at ~100k visits a day.
 */
export async function recordVisit(db: Db, input: VisitInput): Promise<{ kind: number; firstOfDay: boolean }> {
  const v = normaliseVisit(input);
  const day = darDay(v.at);
  return db.transaction(async (tx) => {
    const [p] = rowsOf<{ first_day: string; last_day: string; day_visits: number }>(
      await tx.execute(sql`
        INSERT INTO visitor_profiles (visitor_key, first_day, last_day, first_seen_at, last_seen_at, visits, day_visits)
        VALUES (${v.key}, ${day}, ${day}, ${v.at.toISOString()}::timestamptz, ${v.at.toISOString()}::timestamptz, 1, 1)
        ON CONFLICT (visitor_key) DO UPDATE SET
          visits = visitor_profiles.visits + 1,
          day_visits = CASE WHEN excluded.last_day = visitor_profiles.last_day THEN visitor_profiles.day_visits + 1
                            WHEN excluded.last_day > visitor_profiles.last_day THEN 1 ELSE visitor_profiles.day_visits END,
          first_day = LEAST(visitor_profiles.first_day, excluded.first_day),
          first_seen_at = LEAST(visitor_profiles.first_seen_at, excluded.first_seen_at),
          last_day = GREATEST(visitor_profiles.last_day, excluded.last_day),
          last_seen_at = GREATEST(visitor_profiles.last_seen_at, excluded.last_seen_at)
        RETURNING first_day, last_day, day_visits`),
    );
    const kind = p!.first_day === day ? VISITOR_KIND.new : VISITOR_KIND.returning;
    // A late visit (of a day before the visitor's last) is a visit, not a visitor: it counts no one.
    const firstOfDay = p!.last_day === day && Number(p!.day_visits) === 1;
    await tx.execute(sql`
      INSERT INTO visit_hourly (hour, day, hour_of_day, device, source, country, kind, visits, visitors)
      VALUES (${hourStart(v.at).toISOString()}::timestamptz, ${day}, ${darHour(v.at)}, ${v.device}, ${v.source}, ${v.country}, ${kind}, 1, ${firstOfDay ? 1 : 0})
      ON CONFLICT (hour, device, source, country, kind) DO UPDATE SET visits = visit_hourly.visits + 1, visitors = visit_hourly.visitors + excluded.visitors`);
    await tx.insert(visits).values({ visitorKey: v.key, kind, device: v.device, source: v.source, country: v.country, path: v.path, visitedAt: v.at });
    return { kind, firstOfDay };
  });
}

const zero = (): VisitCounts => ({ visits: 0, visitors: 0, new_visitors: 0, returning_visitors: 0 });
const SUMS = sql`sum(visits)::int AS visits, sum(visitors)::int AS visitors,
  coalesce(sum(visitors) FILTER (WHERE kind = ${VISITOR_KIND.new}), 0)::int AS new_visitors,
  coalesce(sum(visitors) FILTER (WHERE kind = ${VISITOR_KIND.returning}), 0)::int AS returning_visitors`;
const counts = (r: Record<string, unknown>): VisitCounts => ({
  visits: Number(r.visits ?? 0), visitors: Number(r.visitors ?? 0), new_visitors: Number(r.new_visitors ?? 0), returning_visitors: Number(r.returning_visitors ?? 0),
});

/** The charts' figures for Dar es Salaam days `from`..`to` (inclusive), from the hourly totals only. */
export async function visitorStats(ex: Executor, from: string, to: string): Promise<VisitorStats> {
  const by = async (col: string) =>
    rowsOf<Record<string, unknown>>(
      await ex.execute(sql`SELECT ${sql.raw(col)} AS k, ${SUMS} FROM visit_hourly WHERE day >= ${from} AND day <= ${to} GROUP BY 1 ORDER BY 1`),
    );
  const dayRows = await by('day');
  const hourRows = await by('hour_of_day');
  const deviceRows = await by('device');
  const sourceRows = await by('source');
  const countryRows = await by('country');
  const byDay = new Map(dayRows.map((r) => [String(r.k), counts(r)]));
  const days: VisitorStats['days'] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push({ day, ...(byDay.get(day) ?? zero()) });
  }
  const byHour = new Map(hourRows.map((r) => [Number(r.k), counts(r)]));
  const totals = days.reduce((a, d) => ({
    visits: a.visits + d.visits, visitors: a.visitors + d.visitors, new_visitors: a.new_visitors + d.new_visitors, returning_visitors: a.returning_visitors + d.returning_visitors,
  }), zero());
  return {
    date_from: from,
    date_to: to,
    totals,
    days,
    hours: Array.from({ length: 24 }, (_, hour) => ({ hour, ...(byHour.get(hour) ?? zero()) })),
    devices: Object.values(VISIT_DEVICE).map((device) => ({ device, ...counts(deviceRows.find((r) => Number(r.k) === device) ?? {}) })),
    sources: Object.values(VISIT_SOURCE).map((source) => ({ source, ...counts(sourceRows.find((r) => Number(r.k) === source) ?? {}) })),
    countries: countryRows.map((r) => ({ country: String(r.k), ...counts(r) })).sort((a, b) => b.visits - a.visits || a.country.localeCompare(b.country)),
  };
}

/** Removes visits older than VISITS_KEEP_DAYS (the hourly totals stay). */
export async function pruneVisits(ex: Executor, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - VISITS_KEEP_DAYS * 86_400_000);
  const r = await ex.execute(sql`DELETE FROM visits WHERE visited_at < ${cutoff.toISOString()}::timestamptz`);
  return Number((r as { rowCount?: number; affectedRows?: number }).rowCount ?? (r as { affectedRows?: number }).affectedRows ?? 0);
}

// ---------------------------------------------------------------------------------------------- demo

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
}

/** Where the demo's visitors come from: mostly Tanzania, then the neighbours. */
const COUNTRIES = ['TZ', 'TZ', 'TZ', 'TZ', 'TZ', 'TZ', 'KE', 'KE', 'UG', 'RW', 'BI', 'ZM', 'MZ', 'CD', 'GB', 'US', 'CN', 'IN', 'ZZ'];
const PATHS = ['/', '/sports', '/sports/live', '/jackpot', '/casino', '/racing', '/shop', '/promotions', '/deposit', '/my-bets'];
/** Mobile first (Tanzania), then the Android app. */
const DEVICES = [1, 1, 1, 1, 3, 3, 3, 2, 2, 4];
const SOURCES = [1, 1, 1, 2, 2, 3, 3, 3, 4, 5];
/** The share of a day's visits per Dar es Salaam hour (evenings and the weekend football peak). */
const HOUR_WEIGHT = [2, 1, 1, 1, 1, 2, 3, 5, 6, 6, 6, 7, 8, 8, 7, 7, 8, 9, 11, 13, 14, 12, 8, 4];

/** A plausible visit for the demo: about a quarter from someone never seen, the rest from a pool of regulars. */
export function demoVisit(rng: Rng, visitorPool: number, at: Date): VisitInput {
  const fresh = rng.next() < 0.25;
  return {
    visitorId: fresh ? `n-${rng.int(0, 2_000_000_000).toString(36)}` : `v-${rng.int(1, visitorPool).toString(36).padStart(5, '0')}`,
    device: rng.pick(DEVICES),
    source: rng.pick(SOURCES),
    country: rng.pick(COUNTRIES),
    path: rng.pick(PATHS),
    at,
  };
}

/**
 * A fresh demo install's 30 days of visits (the days before today), written set-based: the visits with
 * their new / returning kind, then their hourly totals and the visitors' profiles computed from them in
 * SQL, so charts, list and later live visits agree. Does nothing when any visit exists.
 */
export async function seedVisitHistory(db: Db, rng: Rng, opts: { days?: number; perDay?: [number, number]; now?: Date } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const days = opts.days ?? 30;
  const [min, max] = opts.perDay ?? [300, 700];
  const [any] = rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM visit_hourly LIMIT 1) x`));
  if (Number(any?.n ?? 0) > 0) return 0;
  const today = darDay(now);
  const todayStart = Date.parse(`${today}T00:00:00Z`) - DAR_OFFSET_MS;
  const firstDay = new Map<string, string>();
  const rows: (typeof visits.$inferInsert)[] = [];
  const hourTotal = HOUR_WEIGHT.reduce((a, b) => a + b, 0);
  for (let d = days; d >= 1; d--) {
    const dayStart = todayStart - d * 86_400_000;
    // Growth over the month and busier weekends.
    const weekday = new Date(dayStart + DAR_OFFSET_MS).getUTCDay();
    const n = Math.round(rng.int(min, max) * (1 + (days - d) / (days * 2)) * (weekday === 0 || weekday === 6 ? 1.3 : 1));
    for (let i = 0; i < n; i++) {
      let u = rng.next() * hourTotal;
      let h = 0;
      while (h < 23 && u >= HOUR_WEIGHT[h]!) u -= HOUR_WEIGHT[h++]!;
      const at = new Date(dayStart + h * 3_600_000 + rng.int(0, 3_599_999));
      const v = normaliseVisit(demoVisit(rng, 1500, at));
      const day = darDay(at);
      if (!firstDay.has(v.key)) firstDay.set(v.key, day);
      rows.push({ visitorKey: v.key, kind: firstDay.get(v.key) === day ? VISITOR_KIND.new : VISITOR_KIND.returning, device: v.device, source: v.source, country: v.country, path: v.path, visitedAt: at });
    }
  }
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(visits).values(rows.slice(i, i + 1000));
    // Each visitor counts once a day, in the bucket of their first visit of that day.
    await tx.execute(sql`
      INSERT INTO visit_hourly (hour, day, hour_of_day, device, source, country, kind, visits, visitors)
      SELECT date_trunc('hour', visited_at), to_char(visited_at AT TIME ZONE 'Africa/Dar_es_Salaam', 'YYYY-MM-DD'),
             extract(hour FROM visited_at AT TIME ZONE 'Africa/Dar_es_Salaam')::smallint, device, source, country, kind,
             count(*)::int, count(*) FILTER (WHERE first_of_day)::int
      FROM (SELECT *, row_number() OVER (PARTITION BY visitor_key, to_char(visited_at AT TIME ZONE 'Africa/Dar_es_Salaam', 'YYYY-MM-DD') ORDER BY visited_at, id) = 1 AS first_of_day
            FROM visits) v
      GROUP BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT (hour, device, source, country, kind) DO UPDATE SET visits = visit_hourly.visits + excluded.visits, visitors = visit_hourly.visitors + excluded.visitors`);
    await tx.execute(sql`
      INSERT INTO visitor_profiles (visitor_key, first_day, last_day, first_seen_at, last_seen_at, visits, day_visits)
      SELECT visitor_key, to_char(min(visited_at) AT TIME ZONE 'Africa/Dar_es_Salaam', 'YYYY-MM-DD'), to_char(max(visited_at) AT TIME ZONE 'Africa/Dar_es_Salaam', 'YYYY-MM-DD'),
             min(visited_at), max(visited_at), count(*)::int,
             count(*) FILTER (WHERE to_char(visited_at AT TIME ZONE 'Africa/Dar_es_Salaam', 'YYYY-MM-DD') = to_char((SELECT max(visited_at) FROM visits w WHERE w.visitor_key = v.visitor_key) AT TIME ZONE 'Africa/Dar_es_Salaam', 'YYYY-MM-DD'))::int
      FROM visits v GROUP BY visitor_key
      ON CONFLICT (visitor_key) DO NOTHING`);
  });
  return rows.length;
}
