/**
 * The sandbox racing provider: a stand-in for a virtual-racing provider, in process. It runs a horse race
 * every RACE_EVERY_SECONDS (aligned on the clock: slot n starts at n x interval), listed LISTED_AHEAD_MINUTES
 * before its start, with 6 to 8 runners drawn from a stable of names. Everything about a race (runners,
 * odds, finishing order, the rare cancellation) is a pure function of its slot and the sandbox's seed,
 * so every process, and a process restarted, tells the same story, like a real provider would.
 *
 * Odds: each runner gets a strength; its chance is its share of the strengths; the odds are
 * 1 / (chance x OVERROUND) rounded down to the cent (at least 1.01), so the book pays back about
 * 1 / 1.18 = 85 % of stakes on average. The finishing order is drawn by the strengths (Plackett-Luce: the
 * winner by chance, then the next among the rest, and so on). The result is known RACE_RUN_SECONDS after
 * the start; one race in CANCEL_ONE_IN is cancelled (all its bets refunded).
 */
import { mulberry32 } from '@dau/domain';
import type { ProviderRace, RaceOutcome, RacingProvider } from './adapter.js';
import type { RacingRunner } from './schema.js';

export const RACE_EVERY_SECONDS = 180;
export const RACE_RUN_SECONDS = 60;
export const LISTED_AHEAD_MINUTES = 15;
export const OVERROUND = 1.18;
export const CANCEL_ONE_IN = 40;
const PREFIX = 'SBX';

const STABLE = [
  'Kilimanjaro Star', 'Serengeti Wind', 'Zanzibar Spice', 'Ngorongoro Dust', 'Rufiji River', 'Mikumi Flash', 'Usambara Mist', 'Pemba Pearl',
  'Tanganyika Gold', 'Ruaha Runner', 'Mafia Breeze', 'Selous Thunder', 'Dodoma Dawn', 'Arusha Arrow', 'Mwanza Moon', 'Tarangire King',
  'Kigoma Comet', 'Moshi Mirage', 'Tanga Tide', 'Lindi Lightning',
] as const;

/** FNV-1a of a text: the seed of a race. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

interface Drawn {
  runners: RacingRunner[];
  strengths: number[];
}

export class SandboxRacingProvider implements RacingProvider {
  readonly code = 'sandbox';

  constructor(private readonly seed = 'dau-racing-sandbox') {}

  static refOf(slot: number) {
    return `${PREFIX}-${slot}`;
  }

  private slotOf(raceRef: string): number | null {
    const m = /^SBX-(\d{1,12})$/.exec(raceRef);
    return m ? Number(m[1]) : null;
  }

  private draw(slot: number): Drawn {
    const rng = mulberry32(hash(`${this.seed}:${slot}:runners`));
    const field = 6 + Math.floor(rng() * 3);
    const names = [...STABLE];
    const runners: RacingRunner[] = [];
    const strengths: number[] = [];
    for (let i = 0; i < field; i++) {
      const k = Math.floor(rng() * names.length);
      const [name] = names.splice(k, 1);
      strengths.push(0.4 + rng() * rng() * 3);
      runners.push({ number: i + 1, name: name!, odds: '0' });
    }
    const total = strengths.reduce((a, b) => a + b, 0);
    for (let i = 0; i < field; i++) {
      const chance = strengths[i]! / total;
      const odds = Math.max(1.01, Math.floor(100 / (chance * OVERROUND)) / 100);
      runners[i]!.odds = odds.toFixed(2);
    }
    return { runners, strengths };
  }

  async races(from: Date, to: Date): Promise<ProviderRace[]> {
    const step = RACE_EVERY_SECONDS * 1000;
    const out: ProviderRace[] = [];
    for (let slot = Math.ceil(from.getTime() / step); slot * step < to.getTime(); slot++) {
      out.push({ raceRef: SandboxRacingProvider.refOf(slot), startsAt: new Date(slot * step), runners: this.draw(slot).runners });
    }
    return out;
  }

  /** The races a process should know of at `now`: the listed ones ahead, and those recently run. */
  listedAt(now: Date) {
    return this.races(new Date(now.getTime() - 2 * RACE_EVERY_SECONDS * 1000), new Date(now.getTime() + LISTED_AHEAD_MINUTES * 60_000));
  }

  async outcome(raceRef: string, now: Date): Promise<RaceOutcome> {
    const slot = this.slotOf(raceRef);
    if (slot === null) return null;
    if (now.getTime() < slot * RACE_EVERY_SECONDS * 1000 + RACE_RUN_SECONDS * 1000) return null;
    const rng = mulberry32(hash(`${this.seed}:${slot}:result`));
    if (Math.floor(rng() * CANCEL_ONE_IN) === 0) return { status: 'cancelled' };
    const { runners, strengths } = this.draw(slot);
    const left = runners.map((r, i) => ({ number: r.number, strength: strengths[i]! }));
    const order: number[] = [];
    while (left.length) {
      const total = left.reduce((a, b) => a + b.strength, 0);
      let u = rng() * total;
      let k = 0;
      while (k < left.length - 1 && u >= left[k]!.strength) u -= left[k++]!.strength;
      order.push(left.splice(k, 1)[0]!.number);
    }
    return { status: 'finished', order };
  }
}
