/**
 * mulberry32: a small seeded pseudo-random generator (32-bit state). The same seed answers the same
 * sequence of uniform numbers in [0, 1) on every platform, so a simulation, a sandbox's decisions, a
 * casino round drawn from it (`playRound`) or a benchmark's input replays exactly. Not for secrets.
 * The one implementation: the server's simulator (`Rng`), its sandboxes, the tests and the benches use it.
 */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A small seeded PRNG over mulberry32: the simulator, the feed's simulated matches and the demo data are replayable. */
export class Rng {
  private readonly draw: () => number;
  constructor(seed: number) {
    this.draw = mulberry32(seed);
  }
  next(): number {
    return this.draw();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** Shuffles in place (Fisher-Yates) and answers the array. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  }
}
