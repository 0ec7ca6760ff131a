import { mulberry32 } from '@dau/domain';

/** A small seeded PRNG (mulberry32, from the domain): the simulator and the demo data are replayable. */
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
