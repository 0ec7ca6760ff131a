/**
 * The simulator's virtual racing (issue 13), plugged into `startSimulator`: it drives the racing services a
 * bettor-facing app would call, so the racing lists, the bettors' bills 13–16 and the coin moves are alive.
 *  - Every run syncs the racing provider (the sandbox): races listed, closed at the start, settled (the
 *    periodic job does the same on the leader; both are idempotent).
 *  - A fresh install (no race yet) gets an hour of history: the sandbox's races of the last hour, bet on
 *    before their start and settled, dated as they happened.
 *  - Bettors with money bet on the open races (favourites more often), TSh 500 to 5,000 a bet; now and
 *    then one converts part of their balance into racing coins, or coins back into balance.
 */
import { and, asc, eq, gt, gte, sql } from 'drizzle-orm';
import type { AppContext } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { bettors } from '../modules/money/schema.js';
import { racingCoinAccounts, racingRaces } from '../modules/racing/schema.js';
import { RACE_STATUS, convertFromCoins, convertToCoins, placeRacingBet, racingProvider, syncRaces } from '../modules/racing/index.js';
import { RACE_EVERY_SECONDS } from '../modules/racing/sandbox.js';

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
}

const STAKES = [500_00, 1_000_00, 2_000_00, 5_000_00];
const HISTORY_MS = 60 * 60_000;

/** A runner drawn with weight 1 / odds (the favourite most often). */
function runnerOf(rng: Rng, runners: { number: number; odds: string }[]): number {
  const w = runners.map((r) => 1 / Number(r.odds));
  let u = rng.next() * w.reduce((a, b) => a + b, 0);
  for (let i = 0; i < runners.length; i++) {
    u -= w[i]!;
    if (u < 0) return runners[i]!.number;
  }
  return runners[runners.length - 1]!.number;
}

/** Bets of a few bettors with money on the races open at `now`. */
async function bets(ctx: AppContext, rng: Rng, now: Date, backfill: boolean) {
  const { db } = ctx;
  const races = await db
    .select()
    .from(racingRaces)
    .where(and(eq(racingRaces.status, RACE_STATUS.open), gt(racingRaces.startsAt, new Date(now.getTime() + 10_000))))
    .orderBy(asc(racingRaces.startsAt))
    .limit(3);
  if (!races.length) return 0;
  const players = await db
    .select({ id: bettors.id })
    .from(bettors)
    .where(gte(bettors.cashBalance, STAKES[0]!))
    .orderBy(sql`random()`)
    .limit(rng.int(1, 5));
  let placed = 0;
  for (const p of players) {
    for (let k = rng.int(1, 3); k > 0; k--) {
      const race = rng.pick(races);
      try {
        await db.transaction((tx) => placeRacingBet(tx, { bettorId: p.id, raceId: race.id, runner: runnerOf(rng, race.runners), stake: rng.pick(STAKES) }, now, { backfill }));
        placed += 1;
      } catch (err) {
        if (!(err instanceof AppError)) throw err; // a refusal (no money, blocked bettor) is part of the story
      }
    }
  }
  return placed;
}

async function coins(ctx: AppContext, rng: Rng) {
  const { db } = ctx;
  try {
    if (rng.next() < 0.5) {
      const [p] = await db.select({ id: bettors.id, cash: bettors.cashBalance }).from(bettors).where(gte(bettors.cashBalance, 2_000_00)).orderBy(sql`random()`).limit(1);
      if (p) await db.transaction((tx) => convertToCoins(tx, p.id, rng.pick([1_000_00, 2_000_00, 5_000_00].filter((c) => c <= p.cash))));
    } else {
      const [a] = await db.select().from(racingCoinAccounts).where(gt(racingCoinAccounts.coins, 0)).orderBy(sql`random()`).limit(1);
      if (a) await db.transaction((tx) => convertFromCoins(tx, a.bettorId, Math.max(1, Math.floor(a.coins * rng.pick([0.25, 0.5, 1])))));
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
  }
}

/** One simulator run of racing. */
export async function simulateRacing(ctx: AppContext, rng: Rng): Promise<void> {
  const { db } = ctx;
  const [any] = await db.select({ id: racingRaces.id }).from(racingRaces).limit(1);
  if (!any) {
    // A fresh install: the last hour of races, bet on and settled as they happened.
    const step = RACE_EVERY_SECONDS * 1000;
    for (let t = Date.now() - HISTORY_MS; t < Date.now(); t += step) {
      const at = new Date(t);
      await syncRaces(db, racingProvider, at, { backfill: true });
      await bets(ctx, rng, at, true);
    }
  }
  await syncRaces(db, racingProvider);
  await bets(ctx, rng, new Date(), false);
  if (rng.next() < 0.3) await coins(ctx, rng);
}
