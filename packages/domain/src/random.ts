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
