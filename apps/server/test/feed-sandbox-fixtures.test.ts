import { describe, expect, it } from 'vitest';
import { EVENT_STATUS, SPORT } from '@dau/domain';
import { LEAGUES, SandboxProvider } from '../src/modules/feed/simulator';
import type { FeedMessageInput } from '../src/modules/feed/messages';

/**
 * What an operator would question in the sandbox feed: clubs of one league playing in another ("Liverpool
 * - Simba" in LaLiga, "Suns - Knicks" in EuroLeague), or a match settled before it could have been
 * played. Several seeds, three days and more of simulated time each.
 */
const T0 = Date.UTC(2026, 10, 20, 9, 0);
const MINUTE = 60_000;
/** The shortest plausible kick-off-to-final-whistle time: football 90 + half-time 15; basketball over two hours. */
const SHORTEST = { [SPORT.football]: 105 * MINUTE, [SPORT.basketball]: 120 * MINUTE } as Record<number, number>;

function play(seed: number) {
  const out: FeedMessageInput[] = [];
  const sim = new SandboxProvider({ seed, startTime: T0, emit: (m) => out.push(m), cancelMatchRate: 0.1, rollbackRate: 0.3 });
  sim.run(3 * 24 * 60 + 4 * 60);
  return out;
}
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
type Fixture = Extract<FeedMessageInput, { type: 'fixture_change' }>;
type Settlement = Extract<FeedMessageInput, { type: 'bet_settlement' }>;

describe('sandbox feed fixtures', () => {
  it('pairs two clubs of the same league, and each club plays in one league of its sport', () => {
    const leagueOf = new Map<string, string>(); // sport:team -> league id
    for (const [sport, leagues] of Object.entries(LEAGUES)) {
      for (const l of leagues) {
        for (const team of l.teams) {
          expect(leagueOf.get(`${sport}:${team}`), `${team} in two ${sport} leagues`).toBeUndefined();
          leagueOf.set(`${sport}:${team}`, l.id);
        }
      }
    }
    // Real-world facts, independent of the table above.
    const facts: [number, string, string][] = [
      [SPORT.football, 'Simba', 'sr:tournament:tz-plq'],
      [SPORT.football, 'Yanga', 'sr:tournament:tz-plq'],
      [SPORT.football, 'Liverpool', 'sr:tournament:17'],
      [SPORT.football, 'Arsenal', 'sr:tournament:17'],
      [SPORT.football, 'Sevilla', 'sr:tournament:8'],
      [SPORT.basketball, 'Real Madrid', 'sr:tournament:138'],
      [SPORT.basketball, 'Olympiacos', 'sr:tournament:138'],
    ];
    for (const [sport, team, league] of facts) expect(leagueOf.get(`${sport}:${team}`), team).toBe(league);
    const nba = new Set(LEAGUES[SPORT.basketball].find((l) => l.name === 'NBA')!.teams);
    const euro = new Set(LEAGUES[SPORT.basketball].find((l) => l.name === 'EuroLeague')!.teams);
    expect([...nba].some((t) => /Suns/.test(t)) && [...nba].some((t) => /Knicks/.test(t))).toBe(true);
    expect([...euro].some((t) => /Suns|Knicks|Lakers|Celtics/.test(t))).toBe(false);

    let fixtures = 0;
    for (const seed of SEEDS) {
      for (const m of play(seed)) {
        if (m.type !== 'fixture_change') continue;
        fixtures++;
        const where = `${m.event_id} ${m.home_team} - ${m.away_team} in ${m.league_name} (seed ${seed})`;
        expect(m.home_team, where).not.toBe(m.away_team);
        expect(leagueOf.get(`${m.sport_id}:${m.home_team}`), where).toBe(m.league_id);
        expect(leagueOf.get(`${m.sport_id}:${m.away_team}`), where).toBe(m.league_id);
      }
    }
    expect(fixtures).toBeGreaterThan(SEEDS.length * 36);
  });

  it('settles a match only after its kick-off plus a plausible duration, once it has ended', () => {
    let played = 0;
    let underWayAtStart = 0;
    for (const seed of SEEDS) {
      const fixture = new Map<string, Fixture>();
      const ended = new Set<string>();
      const cancelled = new Set<string>();
      for (const m of play(seed)) {
        if (m.type === 'fixture_change') {
          fixture.set(m.event_id, m);
          if (m.status === EVENT_STATUS.ended) ended.add(m.event_id);
          if (m.status === EVENT_STATUS.cancelled) cancelled.add(m.event_id);
          continue;
        }
        if (m.type !== 'bet_settlement') continue;
        const f = fixture.get(m.event_id)!;
        const where = `${m.event_id} ${f.home_team} - ${f.away_team} (seed ${seed})`;
        const voidAll = (s: Settlement) => s.markets.every((k) => k.outcomes.every((o) => o.void_factor === 1));
        if (cancelled.has(m.event_id)) {
          // A match called off before kick-off: everything voided, never a result.
          expect(voidAll(m), where).toBe(true);
          expect(m.timestamp, where).toBeLessThan(f.start_time);
          continue;
        }
        expect(ended.has(m.event_id), `${where}: settled before it ended`).toBe(true);
        expect(m.timestamp - f.start_time, `${where}: settled ${Math.round((m.timestamp - f.start_time) / MINUTE)} min after kick-off`).toBeGreaterThanOrEqual(SHORTEST[f.sport_id]);
        played++;
        if (f.start_time < T0) underWayAtStart++;
      }
    }
    expect(played).toBeGreaterThan(SEEDS.length * 20);
    // Some matches were already live when the feed started: they too run their full length.
    expect(underWayAtStart).toBeGreaterThan(0);
  });

  it('runs on the wall clock by default (a fixture starts when its start time says)', () => {
    const sim = new SandboxProvider({ seed: 1, startTime: T0, emit: () => {} });
    sim.start();
    sim.advance(60_000);
    expect(sim.now).toBe(T0 + MINUTE);
    sim.advance(59_999);
    expect(sim.now).toBe(T0 + MINUTE);
  });

  it('is a believable fixture list: a club plays once a round, rounds days apart, kick-offs on the quarter hour in the evening (Dar es Salaam)', () => {
    for (const seed of SEEDS) {
      const first = new Map<string, Fixture>();
      for (const m of play(seed)) if (m.type === 'fixture_change' && !first.has(m.event_id)) first.set(m.event_id, m);
      const starts = new Map<string, number[]>(); // sport:team -> kick-offs
      for (const f of first.values()) {
        const where = `${f.event_id} ${f.home_team} - ${f.away_team} at ${new Date(f.start_time).toISOString()} (seed ${seed})`;
        const start = Number(f.start_time);
        expect(start % (15 * MINUTE), `${where}: on the quarter hour`).toBe(0);
        // Upcoming matches (not already under way when the feed started) kick off in the evening slots, 16:00 to 22:15 in Dar es Salaam.
        if (start > T0) {
          const local = new Date(start + 3 * 60 * MINUTE);
          const minutes = local.getUTCHours() * 60 + local.getUTCMinutes();
          expect(minutes >= 16 * 60 && minutes <= 22 * 60 + 15, `${where}: an evening slot`).toBe(true);
        }
        for (const team of [f.home_team, f.away_team]) {
          const k = `${f.sport_id}:${team}`;
          starts.set(k, [...(starts.get(k) ?? []), start]);
        }
      }
      for (const [team, list] of starts) {
        const sorted = list.sort((a, b) => a - b);
        for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!, `${team} twice within two days (seed ${seed})`).toBeGreaterThanOrEqual(2 * 24 * 60 * MINUTE);
      }
    }
  });

  it('never runs dry: left running for two weeks, it keeps publishing rounds ahead and settling matches, and keeps each club to one match a round', () => {
    const out: FeedMessageInput[] = [];
    const sim = new SandboxProvider({ seed: 3, startTime: T0, emit: (m) => out.push(m) });
    sim.run(14 * 24 * 60);
    const DAY = 24 * 60 * MINUTE;
    const first = new Map<string, Fixture>();
    for (const m of out) if (m.type === 'fixture_change' && !first.has(m.event_id)) first.set(m.event_id, m);
    // Matches to bet on in the days ahead of the end, and matches settled in its last two days.
    const upcoming = [...first.values()].filter((f) => f.start_time > sim.now && f.start_time < sim.now + 4 * DAY);
    expect(upcoming.length).toBeGreaterThanOrEqual(12);
    const settledLate = out.filter((m) => m.type === 'bet_settlement' && m.timestamp > sim.now - 2 * DAY);
    expect(settledLate.length).toBeGreaterThan(0);
    const starts = new Map<string, number[]>();
    for (const f of first.values()) for (const team of [f.home_team, f.away_team]) starts.set(`${f.sport_id}:${team}`, [...(starts.get(`${f.sport_id}:${team}`) ?? []), f.start_time]);
    for (const [team, list] of starts) {
      const sorted = list.sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!, `${team} twice within two days`).toBeGreaterThanOrEqual(2 * DAY);
    }
    // The provider forgets what it settled a day ago: its memory does not grow with the weeks.
    expect(sim.matches.length).toBeLessThan(80);
  });

  it('gives a restarted feed new event ids (a later run never rewrites an earlier run\'s match)', () => {
    const ids = (startTime: number) => {
      const seen = new Set<string>();
      const sim = new SandboxProvider({ seed: 1, startTime, emit: (m) => m.type === 'fixture_change' && seen.add(m.event_id) });
      sim.start();
      return seen;
    };
    const a = ids(T0);
    const b = ids(T0 + 7 * MINUTE);
    expect(a.size).toBeGreaterThan(30);
    expect([...a].filter((id) => b.has(id))).toEqual([]);
    for (const id of a) expect(id).toMatch(/^sr:match:\d+$/);
  });
});
