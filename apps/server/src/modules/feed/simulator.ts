/**
 * SANDBOX provider: a simulated Sportradar-style feed for development, demos and tests. It is not a
 * real provider and its odds are invented. It emits the messages of ./messages to a callback.
 *
 * Deterministic: everything comes from the seed (mulberry32 and its `Rng`, @dau/domain) and the injected
 * start time; no Date.now or Math.random. Time is simulated: `step()` advances the simulated clock
 * by one minute; `advance(realMs)` advances it by realMs × speed (what a timer calls in `npm start`).
 * The default speed is 1: the simulated clock is the wall clock, so a fixture's start time is when it
 * really kicks off (a faster clock would play and settle "tomorrow's" matches today).
 *
 * Plausible fixtures: each team plays in its own league (LEAGUES), and a match lasts as long as a real
 * one: football 90 minutes plus stoppage time and a 15-minute half-time (final whistle at least 105
 * minutes after kick-off), basketball 48 minutes of play over about two and a quarter hours (at least
 * 130 minutes). A match is settled only at its final whistle (or voided when cancelled before kick-off).
 *
 * What it does:
 *  - creates fixtures (football, basketball) in league rounds, and publishes each next round when it comes
 *    within `days` of now, so a sandbox left running never runs dry;
 *  - sends margin-free (fair) prices from a simple scoring model, drifting before the match;
 *  - takes matches live (event status 1 → 2 → 3) on the live producer;
 *  - sends a bet stop on every goal (football) and reopens the markets on the next odds change;
 *  - settles every market at the end, including quarter-line Asian handicaps (±0.25: a draw is half
 *    lost for -0.25 and half won for +0.25), and voids everything (void_factor 1) of a cancelled match;
 *  - occasionally cancels a time window of a live match's markets (and sometimes rolls the cancel
 *    back), occasionally rolls a settlement back and re-settles it;
 *  - occasionally goes down (producer_down, then producer_up after a few minutes).
 */
import { EVENT_STATUS, BETTING_OFFER_STATUS, SPORT } from '@dau/domain';
import { Rng } from '@dau/domain';
import { PRODUCER, type FeedMessageInput } from './messages';

export interface SandboxOptions {
  seed: number;
  /** Start of the simulated clock (epoch ms); inject (no Date.now inside). */
  startTime: number;
  /** Simulated ms per real ms for `advance()`. Default 1 (real time); tests run faster. */
  speed?: number;
  emit: (msg: FeedMessageInput) => void;
  footballMatches?: number;
  basketballMatches?: number;
  /** A league round is published this many days before its first day. Default 3. */
  days?: number;
  /** Probabilities (0..1). */
  cancelMatchRate?: number;
  cancelWindowRate?: number;
  rollbackRate?: number;
  /** Chance per simulated minute that the live producer goes down. */
  downRate?: number;
}

const MINUTE = 60_000;

/** Football market ids (UOF numbering). */
export const FB = { oneXtwo: 1, handicap: 16, total: 18 } as const;
/** Basketball market ids. */
export const BB = { moneyline: 219, handicap: 223, total: 225 } as const;

interface SimMatch {
  eventId: string;
  sport: number;
  leagueId: string;
  leagueName: string;
  home: string;
  away: string;
  start: number;
  /** Scoring rates per minute. */
  rh: number;
  ra: number;
  /** Minutes of play, stoppage time included. */
  duration: number;
  /** Wall-clock minutes from kick-off to the final whistle (breaks included). */
  realMinutes: number;
  minute: number;
  sh: number;
  sa: number;
  status: number;
  cancelled: boolean;
  settled: boolean;
  betStopped: boolean;
  cancelWindowAt: number | null;
}

export interface SandboxLeague {
  id: string;
  name: string;
  /** The clubs of this league: a fixture pairs two of them, never clubs of different leagues. */
  teams: readonly string[];
}

/** The sandbox's leagues per sport, each with its own clubs. */
export const LEAGUES: Readonly<Record<number, readonly SandboxLeague[]>> = {
  [SPORT.football]: [
    { id: 'sr:tournament:tz-plq', name: 'Tanzania Premier League', teams: ['Simba', 'Yanga', 'Azam', 'Coastal Union', 'KMC', 'Namungo', 'Singida Black Stars', 'Tanzania Prisons'] },
    { id: 'sr:tournament:17', name: 'Premier League', teams: ['Arsenal', 'Chelsea', 'Liverpool', 'Everton', 'Manchester City', 'Tottenham Hotspur', 'Newcastle United', 'Aston Villa'] },
    { id: 'sr:tournament:8', name: 'LaLiga', teams: ['Real Madrid', 'Barcelona', 'Atletico Madrid', 'Sevilla', 'Real Betis', 'Valencia', 'Villarreal', 'Athletic Club'] },
  ],
  [SPORT.basketball]: [
    { id: 'sr:tournament:132', name: 'NBA', teams: ['Los Angeles Lakers', 'Boston Celtics', 'Chicago Bulls', 'Miami Heat', 'New York Knicks', 'Phoenix Suns', 'Golden State Warriors', 'Denver Nuggets'] },
    { id: 'sr:tournament:138', name: 'EuroLeague', teams: ['Real Madrid', 'Olympiacos', 'Panathinaikos', 'Fenerbahce', 'FC Barcelona', 'Maccabi Tel Aviv', 'Anadolu Efes', 'Zalgiris'] },
  ],
};

const DAY = 24 * 60 * MINUTE;
/** Dar es Salaam is UTC+3 all year. */
const EAT_OFFSET = 3 * 60 * MINUTE;
/** Kick-off times of a round's evening, minutes after midnight in Dar es Salaam: 16:00, 17:15, 18:30, 19:45, 21:00, 22:15. */
const EVENING_SLOTS = [16 * 60, 17 * 60 + 15, 18 * 60 + 30, 19 * 60 + 45, 21 * 60, 22 * 60 + 15];
/** Days between two rounds of a league. */
const ROUND_DAYS = 4;
/** Midnight in Dar es Salaam of the day holding `ms`. */
const eatDayStart = (ms: number) => Math.floor((ms + EAT_OFFSET) / DAY) * DAY - EAT_OFFSET;

/** The rounds of a round-robin (circle method): each round pairs every team once. */
export function roundRobin(teams: readonly string[]): [string, string][][] {
  const t = teams.length % 2 ? [...teams, ''] : [...teams];
  const rounds: [string, string][][] = [];
  for (let r = 0; r < t.length - 1; r++) {
    const pairs: [string, string][] = [];
    for (let i = 0; i < t.length / 2; i++) {
      const [x, y] = [t[i]!, t[t.length - 1 - i]!];
      if (x && y) pairs.push(r % 2 ? [y, x] : [x, y]);
    }
    rounds.push(pairs);
    t.splice(1, 0, t.pop()!);
  }
  return rounds;
}

/** Football: the second half starts after a 15-minute break at minute 45. */
const HALF_TIME = 15;
/** Basketball: 48 minutes of play spread over this many wall-clock minutes (stoppages, quarters, half-time). */
const BASKETBALL_REAL_MINUTES = 130;

function poissonPmf(lambda: number, kMax: number): number[] {
  const out: number[] = [];
  let p = Math.exp(-lambda);
  for (let k = 0; k <= kMax; k++) {
    out.push(p);
    p = (p * lambda) / (k + 1);
  }
  return out;
}

/** Standard normal CDF (Abramowitz-Stegun 26.2.17). */
function normCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = 0.3989422804014327 * Math.exp((-x * x) / 2);
  const p = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x > 0 ? 1 - p : p;
}

function fair(prob: number): string {
  const p = Math.min(Math.max(prob, 0.0099), 0.99);
  return Math.min(Math.max(1 / p, 1.01), 100).toFixed(2);
}

export class SandboxProvider {
  readonly matches: SimMatch[] = [];
  private readonly rng: Rng;
  private readonly speed: number;
  private readonly emitFn: (msg: FeedMessageInput) => void;
  private simNow: number;
  private lastTs = 0;
  private pendingReal = 0;
  private liveDownUntil: number | null = null;
  private started = false;
  private readonly startTime: number;
  /** Event ids of this run start above this (the start minute × 1000): a restart never reuses an id. */
  private readonly idBase: number;
  private made = 0;
  /** Per sport: each league's round-robin, and the next round to publish. */
  private readonly rounds: Record<number, [string, string][][][]> = {};
  private readonly nextRound: Record<number, number> = {};
  /** While true, messages are not sent (catching up on matches already under way at the start). */
  private quiet = false;
  private readonly o: Required<Omit<SandboxOptions, 'emit' | 'seed' | 'startTime' | 'speed'>>;

  constructor(opts: SandboxOptions) {
    this.rng = new Rng(opts.seed);
    this.speed = opts.speed ?? 1;
    this.emitFn = opts.emit;
    this.simNow = opts.startTime;
    this.startTime = opts.startTime;
    this.idBase = Math.floor(opts.startTime / MINUTE) * 1000;
    this.o = {
      footballMatches: opts.footballMatches ?? 24,
      basketballMatches: opts.basketballMatches ?? 12,
      days: opts.days ?? 3,
      cancelMatchRate: opts.cancelMatchRate ?? 0.05,
      cancelWindowRate: opts.cancelWindowRate ?? 0.15,
      rollbackRate: opts.rollbackRate ?? 0.1,
      downRate: opts.downRate ?? 0.001,
    };
  }

  get now(): number {
    return this.simNow;
  }

  /** Strictly increasing message timestamps (the engine ignores odds not newer than the stored ones). */
  private ts(): number {
    this.lastTs = Math.max(this.simNow, this.lastTs + 1);
    return this.lastTs;
  }

  private emit(msg: FeedMessageInput) {
    if (!this.quiet) this.emitFn(msg);
  }

  /**
   * Believable fixtures (issue 23): each league plays in rounds (a round-robin: every club once per round),
   * a league's rounds ROUND_DAYS apart, so a club plays at most once in a few days. A round's matches kick
   * off on the quarter hour in the evening slots of Dar es Salaam (EVENING_SLOTS, UTC+3) of its first two
   * days; in the first round one match in six is already under way (kicked off on a quarter hour 15 to 75
   * minutes ago), so a fresh install shows live betting at once. Answers at most `limit` fixtures of round `r`.
   */
  private round(sport: number, r: number, limit: number): { league: SandboxLeague; home: string; away: string; start: number }[] {
    const leagues = LEAGUES[sport];
    const rounds = (this.rounds[sport] ??= leagues.map((l) => roundRobin(this.rng.shuffle([...l.teams]))));
    const out: { league: SandboxLeague; home: string; away: string; start: number }[] = [];
    const quarterNow = Math.floor(this.simNow / (15 * MINUTE)) * 15 * MINUTE;
    // The evening slots of this round's two days that are still ahead (at least 10 minutes from now).
    const slots = [0, 1].flatMap((d) => EVENING_SLOTS.map((m) => this.roundDay(r) + d * DAY + m * MINUTE)).filter((t) => t >= this.simNow + 10 * MINUTE);
    for (let li = 0; li < leagues.length && out.length < limit; li++) {
      const pairs = rounds[li]![r % rounds[li]!.length]!;
      for (const [h, a] of pairs) {
        if (out.length >= limit) break;
        const swap = (r + li) % 2 === 1;
        const live = r === 0 && this.rng.next() < 1 / 6;
        const start = live || !slots.length ? quarterNow - this.rng.int(1, 5) * 15 * MINUTE : this.rng.pick(slots);
        out.push({ league: leagues[li]!, home: swap ? a : h, away: swap ? h : a, start });
      }
    }
    return out;
  }

  /** Midnight (Dar es Salaam) of the first day of round `r`. */
  private roundDay(r: number): number {
    return eatDayStart(this.startTime) + r * ROUND_DAYS * DAY;
  }

  /** A new fixture of this provider: its id is unique across runs (the start time is in it). */
  private createMatch(sport: number, f: { league: SandboxLeague; home: string; away: string; start: number }): SimMatch {
    const football = sport === SPORT.football;
    const strength = this.rng.next() - 0.5;
    const duration = football ? 90 + this.rng.int(2, 6) : 48;
    this.made++;
    const m: SimMatch = {
      eventId: `sr:match:${this.idBase + this.made}`,
      sport,
      leagueId: f.league.id,
      leagueName: f.league.name,
      home: f.home,
      away: f.away,
      start: f.start,
      rh: football ? (1.45 + strength * 0.8) / 90 : 1.72 + strength * 0.3,
      ra: football ? (1.15 - strength * 0.8) / 90 : 1.64 - strength * 0.3,
      duration,
      realMinutes: football ? duration + HALF_TIME : BASKETBALL_REAL_MINUTES + this.rng.int(0, 20),
      minute: 0,
      sh: 0,
      sa: 0,
      status: EVENT_STATUS.not_started,
      cancelled: false,
      settled: false,
      betStopped: false,
      cancelWindowAt: null,
    };
    this.matches.push(m);
    return m;
  }

  /** Create the fixtures of the first rounds and send their fixture changes and pre-match odds. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const first = (sport: number, n: number) => {
      let made = 0;
      for (let r = 0; made < n; r++) {
        for (const f of this.round(sport, r, n - made)) (this.createMatch(sport, f), made++);
        this.nextRound[sport] = r + 1;
      }
    };
    first(SPORT.football, this.o.footballMatches);
    first(SPORT.basketball, this.o.basketballMatches);
    for (const m of this.matches) {
      if (m.start <= this.simNow) {
        // Under way: play the minutes since kick-off without sending them; the feed sees the match live.
        m.status = EVENT_STATUS.in_progress;
        this.quiet = true;
        while (m.minute < this.playedBy(m)) this.playMinute(m);
        this.quiet = false;
        m.betStopped = false;
      }
      this.fixture(m);
      this.odds(m, m.status === EVENT_STATUS.in_progress ? PRODUCER.live : PRODUCER.prematch);
    }
    this.alive();
  }

  /**
   * The season goes on: a league's next round is published once it is within `days` of now (checked every
   * simulated hour), so a sandbox left running never runs out of matches. Matches settled a day ago are
   * forgotten (the feed keeps them; the provider need not).
   */
  private publishRounds(): void {
    for (const sport of [SPORT.football, SPORT.basketball]) {
      const next = this.nextRound[sport];
      if (next === undefined || next === 0) continue; // a sport with no fixtures asked for stays empty
      for (let r = next; this.roundDay(r) <= this.simNow + this.o.days * DAY; r = ++this.nextRound[sport]!) {
        for (const f of this.round(sport, r, Infinity)) {
          const m = this.createMatch(sport, f);
          this.fixture(m);
          this.odds(m, PRODUCER.prematch);
        }
      }
    }
    const forget = this.simNow - DAY;
    for (let i = this.matches.length - 1; i >= 0; i--) {
      const m = this.matches[i]!;
      if (m.settled && m.start + m.realMinutes * MINUTE < forget) this.matches.splice(i, 1);
    }
  }

  /** Advance by real elapsed ms × speed, in whole simulated minutes. */
  advance(realMs: number): void {
    this.pendingReal += realMs * this.speed;
    while (this.pendingReal >= MINUTE) {
      this.pendingReal -= MINUTE;
      this.step();
    }
  }

  /** Run `minutes` simulated minutes. */
  run(minutes: number): void {
    for (let i = 0; i < minutes; i++) this.step();
  }

  /** One simulated minute. */
  step(): void {
    if (!this.started) this.start();
    this.simNow += MINUTE;
    // Producer down / up.
    if (this.liveDownUntil !== null && this.simNow >= this.liveDownUntil) {
      this.liveDownUntil = null;
      this.emit({ type: 'producer_up', producer: PRODUCER.live, timestamp: this.ts() });
      for (const m of this.matches) if (m.status === EVENT_STATUS.in_progress) this.odds(m, PRODUCER.live);
    } else if (this.liveDownUntil === null && this.rng.next() < this.o.downRate) {
      this.liveDownUntil = this.simNow + this.rng.int(2, 6) * MINUTE;
      this.emit({ type: 'producer_down', producer: PRODUCER.live, timestamp: this.ts() });
    }
    const liveUp = this.liveDownUntil === null;
    for (const m of this.matches) {
      if (m.settled) continue;
      if (m.status === EVENT_STATUS.not_started) {
        if (this.simNow >= m.start - 30 * MINUTE && this.simNow < m.start && !m.cancelled && this.rng.next() < this.o.cancelMatchRate / 30) {
          this.cancelMatch(m);
          continue;
        }
        if (this.simNow >= m.start) {
          if (!liveUp) continue; // kicks off when the live producer is back
          m.status = EVENT_STATUS.in_progress;
          this.fixture(m);
          this.odds(m, PRODUCER.live);
        } else if (this.rng.next() < 0.02) {
          // Pre-match drift of the strengths.
          const d = (this.rng.next() - 0.5) * 0.04;
          m.rh *= 1 + d;
          m.ra *= 1 - d;
          this.odds(m, PRODUCER.prematch);
        }
        continue;
      }
      if (m.status !== EVENT_STATUS.in_progress || !liveUp) continue;
      // Play catches up with the wall clock since kick-off (a minute at a time: breaks hold it).
      if (m.minute < this.playedBy(m)) this.playMinute(m);
    }
    if (this.simNow % (10 * MINUTE) < MINUTE) this.alive();
    if (this.simNow % (60 * MINUTE) < MINUTE) this.publishRounds();
  }

  /** Minutes of play a match has reached by now: the clock stops at half-time (football) and between plays (basketball). */
  private playedBy(m: SimMatch): number {
    const elapsed = Math.floor((this.simNow - m.start) / MINUTE);
    if (elapsed >= m.realMinutes) return m.duration;
    if (m.sport === SPORT.football) return elapsed <= 45 ? elapsed : elapsed <= 45 + HALF_TIME ? 45 : elapsed - HALF_TIME;
    return Math.floor((elapsed * m.duration) / m.realMinutes);
  }

  /**
   * What a real feed sends every few seconds: `alive` for each producer that is up (the runner calls it
   * on the wall clock, whatever the simulated speed).
   */
  heartbeat(): void {
    if (this.started) this.alive();
  }

  /**
   * A recovery the engine asked for (after the producer was silent): the current state of the producer's
   * events (fixtures and odds), then `producer_up`, as a UOF recovery ends with snapshot_complete. A live
   * producer in a simulated outage recovers when the outage ends.
   */
  recover(producer: number): void {
    if (producer === PRODUCER.live && this.liveDownUntil !== null) return;
    for (const m of this.matches) {
      if (m.settled) continue;
      const live = m.status === EVENT_STATUS.in_progress;
      if ((producer === PRODUCER.live) !== live) continue;
      this.fixture(m);
      this.odds(m, producer);
    }
    this.emit({ type: 'producer_up', producer, timestamp: this.ts() });
  }

  /** An event's recovery (the match screen's): its fixture and current odds again. False: the provider does not know it. */
  recoverEvent(eventId: string): boolean {
    const m = this.matches.find((x) => x.eventId === eventId);
    if (!m) return false;
    this.fixture(m);
    if (!m.settled) this.odds(m, m.status === EVENT_STATUS.in_progress ? PRODUCER.live : PRODUCER.prematch);
    return true;
  }

  /** Whether the live producer is in a simulated outage (a recovery of it waits for the outage's end). */
  isDown(producer: number): boolean {
    return producer === PRODUCER.live && this.liveDownUntil !== null;
  }

  private alive() {
    this.emit({ type: 'alive', producer: PRODUCER.prematch, timestamp: this.ts(), subscribed: true });
    if (this.liveDownUntil === null) this.emit({ type: 'alive', producer: PRODUCER.live, timestamp: this.ts(), subscribed: true });
  }

  private playMinute(m: SimMatch) {
    m.minute++;
    let scored = false;
    if (m.sport === SPORT.football) {
      if (this.rng.next() < m.rh) (m.sh++, (scored = true));
      if (this.rng.next() < m.ra) (m.sa++, (scored = true));
    } else {
      m.sh += Math.floor(this.rng.next() * 2 * m.rh + 0.5);
      m.sa += Math.floor(this.rng.next() * 2 * m.ra + 0.5);
    }
    if (m.minute >= m.duration) {
      m.status = EVENT_STATUS.ended;
      this.emit({ type: 'bet_stop', producer: PRODUCER.live, timestamp: this.ts(), event_id: m.eventId });
      this.fixture(m);
      this.settle(m);
      return;
    }
    if (scored) {
      // Goal: stop betting now; the next minute's odds change reopens the markets.
      m.betStopped = true;
      this.emit({ type: 'bet_stop', producer: PRODUCER.live, timestamp: this.ts(), event_id: m.eventId });
      return;
    }
    if (m.betStopped || m.sport === SPORT.basketball || this.rng.next() < 0.25) {
      m.betStopped = false;
      this.odds(m, PRODUCER.live);
    }
    // A bad-odds window: void the bets of the last few minutes on the 1X2 / moneyline market.
    if (m.cancelWindowAt === null && this.rng.next() < this.o.cancelWindowRate / m.duration) {
      m.cancelWindowAt = this.simNow;
      const market = [{ id: m.sport === SPORT.football ? FB.oneXtwo : BB.moneyline }];
      const window = { start_time: this.simNow - 3 * MINUTE, end_time: this.simNow };
      this.emit({ type: 'bet_cancel', producer: PRODUCER.live, timestamp: this.ts(), event_id: m.eventId, ...window, markets: market });
      if (this.rng.next() < 0.3)
        this.emit({ type: 'rollback_bet_cancel', producer: PRODUCER.live, timestamp: this.ts(), event_id: m.eventId, ...window, markets: market });
    }
  }

  private fixture(m: SimMatch) {
    this.emit({
      type: 'fixture_change',
      producer: PRODUCER.prematch,
      timestamp: this.ts(),
      event_id: m.eventId,
      sport_id: m.sport,
      league_id: m.leagueId,
      league_name: m.leagueName,
      home_team: m.home,
      away_team: m.away,
      start_time: m.start,
      status: m.status,
    });
  }

  /** Fair (margin-free) odds for the current state. */
  private odds(m: SimMatch, producer: number) {
    const remaining = Math.max(m.duration - m.minute, 0);
    const open = BETTING_OFFER_STATUS.bettable;
    const base = { type: 'odds_change' as const, producer, timestamp: this.ts(), event_id: m.eventId, event_status: m.status };
    if (m.sport === SPORT.football) {
      const ph = poissonPmf(m.rh * remaining, 12);
      const pa = poissonPmf(m.ra * remaining, 12);
      let w = 0, d = 0, l = 0, over = 0;
      for (let i = 0; i < ph.length; i++)
        for (let j = 0; j < pa.length; j++) {
          const p = ph[i] * pa[j];
          const diff = m.sh + i - (m.sa + j);
          if (diff > 0) w += p;
          else if (diff === 0) d += p;
          else l += p;
          if (m.sh + i + m.sa + j > 2.5) over += p;
        }
      const sum = w + d + l;
      (w /= sum), (d /= sum), (l /= sum), (over /= sum);
      // Home -0.25: win → won, draw → half lost, loss → lost. Fair price: W(p-1) = 0.5D + L.
      const minus = (W: number, D: number, L: number) => (1 + (0.5 * D + L) / Math.max(W, 1e-4)).toFixed(2);
      // Home +0.25: win → won, draw → half won, loss → lost. Fair price: (W + 0.5D)(p-1) = L.
      const plus = (W: number, D: number, L: number) => (1 + L / Math.max(W + 0.5 * D, 1e-4)).toFixed(2);
      const cap = (s: string) => (Number(s) > 100 ? '100.00' : Number(s) < 1.01 ? '1.01' : s);
      this.emit({
        ...base,
        markets: [
          { id: FB.oneXtwo, status: open, outcomes: [{ id: '1', price: fair(w), active: true }, { id: '2', price: fair(d), active: true }, { id: '3', price: fair(l), active: true }] },
          { id: FB.total, specifiers: 'total=2.5', status: open, outcomes: [{ id: '12', price: fair(over), active: true }, { id: '13', price: fair(1 - over), active: true }] },
          { id: FB.handicap, specifiers: 'hcp=-0.25', status: open, outcomes: [{ id: '1714', price: cap(minus(w, d, l)), active: true }, { id: '1715', price: cap(plus(l, d, w)), active: true }] },
          { id: FB.handicap, specifiers: 'hcp=0.25', status: open, outcomes: [{ id: '1714', price: cap(plus(w, d, l)), active: true }, { id: '1715', price: cap(minus(l, d, w)), active: true }] },
        ],
      });
    } else {
      const mean = m.sh - m.sa + (m.rh - m.ra) * remaining;
      const sd = Math.sqrt(Math.max(remaining, 0.25) * 2.2);
      const pHome = 1 - normCdf((0 - mean) / sd);
      const pCover = 1 - normCdf((4.5 - mean) / sd);
      const tMean = m.sh + m.sa + (m.rh + m.ra) * remaining;
      const pOver = 1 - normCdf((160.5 - tMean) / sd);
      this.emit({
        ...base,
        markets: [
          { id: BB.moneyline, status: open, outcomes: [{ id: '4', price: fair(pHome), active: true }, { id: '5', price: fair(1 - pHome), active: true }] },
          { id: BB.handicap, specifiers: 'hcp=-4.5', status: open, outcomes: [{ id: '1714', price: fair(pCover), active: true }, { id: '1715', price: fair(1 - pCover), active: true }] },
          { id: BB.total, specifiers: 'total=160.5', status: open, outcomes: [{ id: '12', price: fair(pOver), active: true }, { id: '13', price: fair(1 - pOver), active: true }] },
        ],
      });
    }
  }

  /** Settlement of every market from the final score. */
  private settle(m: SimMatch) {
    m.settled = true;
    const r = (b: boolean) => (b ? 1 : 0) as 0 | 1;
    const diff = m.sh - m.sa;
    const total = m.sh + m.sa;
    const markets =
      m.sport === SPORT.football
        ? [
            { id: FB.oneXtwo, outcomes: [{ id: '1', result: r(diff > 0) }, { id: '2', result: r(diff === 0) }, { id: '3', result: r(diff < 0) }] },
            { id: FB.total, specifiers: 'total=2.5', outcomes: [{ id: '12', result: r(total > 2.5) }, { id: '13', result: r(total < 2.5) }] },
            { id: FB.handicap, specifiers: 'hcp=-0.25', outcomes: quarter(diff, -0.25) },
            { id: FB.handicap, specifiers: 'hcp=0.25', outcomes: quarter(diff, 0.25) },
          ]
        : [
            { id: BB.moneyline, outcomes: [{ id: '4', result: r(diff > 0) }, { id: '5', result: r(diff < 0) }] },
            { id: BB.handicap, specifiers: 'hcp=-4.5', outcomes: [{ id: '1714', result: r(diff - 4.5 > 0) }, { id: '1715', result: r(diff - 4.5 < 0) }] },
            { id: BB.total, specifiers: 'total=160.5', outcomes: [{ id: '12', result: r(total > 160.5) }, { id: '13', result: r(total < 160.5) }] },
          ];
    const msg = { type: 'bet_settlement' as const, producer: PRODUCER.live, timestamp: this.ts(), event_id: m.eventId, markets };
    this.emit(msg);
    if (this.rng.next() < this.o.rollbackRate) {
      // The provider got it wrong, rolls back, and settles again (same result, newer timestamp).
      this.emit({ type: 'rollback_bet_settlement', producer: PRODUCER.live, timestamp: this.ts(), event_id: m.eventId, markets: markets.map(({ id, specifiers }) => ({ id, specifiers })) });
      this.emit({ ...msg, timestamp: this.ts() });
    }
  }

  /** A match cancelled before kick-off: every market voided (void_factor 1). */
  private cancelMatch(m: SimMatch) {
    m.cancelled = true;
    m.settled = true;
    m.status = EVENT_STATUS.cancelled;
    this.fixture(m);
    const voided = (ids: string[]) => ids.map((id) => ({ id, result: 0 as const, void_factor: 1 as const }));
    const markets =
      m.sport === SPORT.football
        ? [
            { id: FB.oneXtwo, outcomes: voided(['1', '2', '3']) },
            { id: FB.total, specifiers: 'total=2.5', outcomes: voided(['12', '13']) },
            { id: FB.handicap, specifiers: 'hcp=-0.25', outcomes: voided(['1714', '1715']) },
            { id: FB.handicap, specifiers: 'hcp=0.25', outcomes: voided(['1714', '1715']) },
          ]
        : [
            { id: BB.moneyline, outcomes: voided(['4', '5']) },
            { id: BB.handicap, specifiers: 'hcp=-4.5', outcomes: voided(['1714', '1715']) },
            { id: BB.total, specifiers: 'total=160.5', outcomes: voided(['12', '13']) },
          ];
    this.emit({ type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: this.ts(), event_id: m.eventId, markets });
  }
}

/**
 * Settlement of an Asian handicap quarter line for the home side `hcp` (±0.25) and the away side
 * (-hcp), given the goal difference home - away: the stake is split over the two half lines
 * (hcp ± 0.25) and each half wins, loses or is refunded.
 */
export function quarter(diff: number, hcp: number): { id: string; result: 0 | 1; void_factor: 0 | 0.5 | 1 }[] {
  const side = (d: number, h: number) => {
    const halves = [h - 0.25, h + 0.25].map((line) => Math.sign(d + line)); // 1 won, 0 push, -1 lost
    const won = halves.filter((x) => x > 0).length;
    const lost = halves.filter((x) => x < 0).length;
    if (won === 2) return { result: 1 as const, void_factor: 0 as const };
    if (lost === 2) return { result: 0 as const, void_factor: 0 as const };
    if (won === 1) return { result: 1 as const, void_factor: 0.5 as const }; // half won (other half push)
    if (lost === 1) return { result: 0 as const, void_factor: 0.5 as const }; // half lost
    return { result: 0 as const, void_factor: 1 as const };
  };
  return [
    { id: '1714', ...side(diff, hcp) },
    { id: '1715', ...side(-diff, -hcp) },
  ];
}
