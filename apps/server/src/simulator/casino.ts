/**
 * The simulator's casino activity (issue 13), plugged into `startSimulator`: bettors with money open a
 * game session on a game of the sandbox provider (the casino service's `openSession`, as the
 * bettor-facing app does), and their game client plays a few rounds through the SANDBOX GAME PROVIDER
 * (POST /play at the launch URL's origin), which calls our wallet API with its failures. A light rate:
 * one tick in about twelve.
 *  - A fresh install (no casino round yet) gets a history at once: HISTORY_SESSIONS sessions of
 *    HISTORY_ROUNDS rounds each, so the casino screens show rounds, revenue and RTP from the start. The
 *    sandbox provider may not listen yet on the first ticks (it starts on its own leader): the history is
 *    then played at a later tick.
 */
import { and, eq, gte, sql } from 'drizzle-orm';
import { USER_DISABLED } from '@dau/domain';
import type { AppContext } from '../platform/context.js';
import { bettors } from '../modules/money/schema.js';
import { casinoGames, casinoProviders, casinoRounds } from '../modules/casino/schema.js';
import { openSession } from '../modules/casino/service.js';
import { SANDBOX_PROVIDER_CODE } from '../modules/casino/seed.js';

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
}

export const HISTORY_SESSIONS = 16;
export const HISTORY_ROUNDS = 12;
const STAKES = [100_00, 200_00, 500_00, 1_000_00, 2_000_00, 5_000_00];

let historyDone = false;
let historyAttempts = 0;
/** Until the history is played (at most 10 tries), every tick that is not the jackpot's; then one tick in about twelve. */
export const casinoDue = (roll: number) => !historyDone || (roll >= 0.78 && roll < 0.86);

/** Plays the casino: the history of a fresh install, or one bettor's short session. */
export async function simulateCasino(ctx: AppContext, rng: Rng): Promise<void> {
  if (!historyDone) {
    const provider = await sandboxProvider(ctx);
    if (!provider) {
      historyDone = true; // no sandbox provider (removed by the operator): nothing to play
      return;
    }
    const [any] = await ctx.db.select({ id: casinoRounds.id }).from(casinoRounds).where(eq(casinoRounds.providerId, provider.id)).limit(1);
    if (!any) {
      // The sandbox provider may not be up yet (or is off: DAU_CASINO_SANDBOX=0): a few tries, then the light rate.
      if (++historyAttempts >= 10) historyDone = true;
      let played = 0;
      for (let i = 0; i < HISTORY_SESSIONS; i++) played += await playSession(ctx, rng, HISTORY_ROUNDS);
      if (!played) return;
    }
    historyDone = true;
    return;
  }
  await playSession(ctx, rng, rng.int(1, 6));
}

async function sandboxProvider(ctx: AppContext) {
  const [p] = await ctx.db
    .select({ id: casinoProviders.id, enabled: casinoProviders.enabled })
    .from(casinoProviders)
    .where(eq(casinoProviders.code, SANDBOX_PROVIDER_CODE));
  return p?.enabled ? p : null;
}

/** One bettor, one game, `rounds` rounds through the sandbox provider; answers the rounds played. */
async function playSession(ctx: AppContext, rng: Rng, rounds: number): Promise<number> {
  const { db } = ctx;
  const games = await db
    .select({ id: casinoGames.id, code: casinoGames.gameCode, minBet: casinoGames.minBet, maxBet: casinoGames.maxBet })
    .from(casinoGames)
    .innerJoin(casinoProviders, eq(casinoProviders.id, casinoGames.providerId))
    .where(and(eq(casinoProviders.code, SANDBOX_PROVIDER_CODE), eq(casinoProviders.enabled, true), eq(casinoGames.enabled, true)));
  if (!games.length) return 0;
  const [b] = await db
    .select({ id: bettors.id, cash: bettors.cashBalance })
    .from(bettors)
    .where(and(eq(bettors.disabled, USER_DISABLED.enabled), gte(bettors.cashBalance, 2_000_00)))
    .orderBy(sql`random()`)
    .limit(1);
  if (!b) return 0;
  const game = rng.pick(games);
  const affordable = STAKES.filter((s) => s * 10 <= b.cash && s >= game.minBet && (game.maxBet <= 0 || s <= game.maxBet));
  if (!affordable.length) return 0;
  const stake = rng.pick(affordable);
  const session = await openSession(db, b.id, game.id, { lang: rng.pick(['en-US', 'sw-KE', 'zh-CN']) });
  // The bettor's game client, opened at the launch URL, presses "spin": the provider's own endpoint.
  const play = new URL('/play', new URL(session.launchUrl).origin);
  const res = await fetch(play, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: session.token, game: game.code, rounds, stake }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) return 0;
  const answer = (await res.json()) as { rounds?: unknown[] };
  return answer.rounds?.length ?? 0;
}
