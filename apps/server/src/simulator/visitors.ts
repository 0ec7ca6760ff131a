/**
 * The simulator's visitors (issue 16), plugged into `startSimulator`: a few visits of the bettor-facing
 * site and app a minute through `recordVisit`, as the site would call it. A fresh install (no visit yet)
 * first gets 30 days of history and a demo shop (categories, brands, products) when the shop is empty.
 */
import type { AppContext } from '../platform/context.js';
import { demoVisit, recordVisit, seedVisitHistory } from '../modules/visitors/index.js';
import { seedShop } from '../modules/shop/index.js';

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
}

let seeded = false;

export async function simulateVisits(ctx: AppContext, rng: Rng) {
  if (!seeded) {
    await seedShop(ctx.db);
    await seedVisitHistory(ctx.db, rng);
    seeded = true;
  }
  // About one tick in three: 4 to 10 visits a minute at the default speed.
  if (rng.next() >= 0.3) return;
  for (let n = rng.int(1, 3); n > 0; n--) await recordVisit(ctx.db, demoVisit(rng, 1500, new Date()));
}
