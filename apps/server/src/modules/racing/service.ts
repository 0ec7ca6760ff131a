/**
 * Virtual racing (issue 13, spec §3 bill types 13–16): races from the racing provider (./adapter.ts),
 * bets, settlement and the racing coin. Every money movement is one ledger posting with its counter-entry
 * on the house account `racing`, in the caller's transaction:
 *
 * - a bet: bill 13 virtual_racing_bet, −stake (cash), cause {racing, <bet id>};
 * - its result: bill 14 racing_result_change, +payout for a winner (stake x odds rounded down to the
 *   cent); a refund (race cancelled) is bill 8 amount_rolled_back, +stake (issue 23: a refund is named as
 *   one); a loser moves nothing. No withholding tax (as the
 *   casino's wins: the specification names none for virtual games);
 * - balance → coin: bill 15 balance_to_racing_coin, −cash, and the coins added to the bettor's coin
 *   account; coin → balance: bill 16 racing_coin_to_balance, +cash, and the coins taken. Each conversion
 *   is recorded in racing_coin_moves (cash, coins, bill); its bill's cause is {racing, coin-<move id>}.
 *
 * The coin rate (racing_settings.coin_rate_bps) is coins per TSh cent x 10,000 (10,000: one coin per cent;
 * 100: one coin per shilling). Rounding never favours the bettor and never loses their money:
 *   to coins:   coins = floor(cash x rate / 10,000); the cash taken is only what those coins cost,
 *               ceil(coins x 10,000 / rate) <= cash, so the rest stays on the balance;
 *   from coins: cash = floor(coins x 10,000 / rate); the coins taken are only what that cash is worth,
 *               ceil(cash x rate / 10,000) <= coins, so the rest stays on the coin account.
 * A conversion that would give nothing (0 coins, 0 cents) is refused (AMOUNT_INVALID). A round trip
 * never gives back more cash than it took.
 *
 * Settlement is idempotent: a race moves to finished/cancelled with one conditional update, and each bet
 * from open to its state with one conditional update before its bill, so a second run (another process,
 * a retry after a crash: the whole race is one transaction) pays nothing twice.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import Decimal from 'decimal.js';
import { ACCOUNT_KIND, BET_STATUS, BILL_TYPE, RACING_BET_STATUS, RACING_COIN_DIRECTION, RACING_RACE_STATUS, RISK_LEVEL, USER_DISABLED, type MessageCode } from '@dau/domain';
import type { Executor, Db } from '../../platform/db.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { bettors, countBet, HOUSE, post } from '../money/index.js';
import type { ProviderRace, RaceOutcome, RacingProvider } from './adapter.js';
import { racingBets, racingCoinAccounts, racingCoinMoves, racingRaces, racingSettings } from './schema.js';

/** Race status (domain racing_race_status): 1 open for bets, 2 running, 3 finished, 4 cancelled. */
export const RACE_STATUS = RACING_RACE_STATUS;
/** Bet status (domain racing_bet_status): 1 open, 2 won, 3 lost, 4 refunded (race cancelled). */
export { RACING_BET_STATUS };
/** Coin move direction (domain racing_coin_direction): 1 balance → coin (bill 15), 2 coin → balance (bill 16). */
export const COIN_DIRECTION = { toCoins: RACING_COIN_DIRECTION.to_coins, fromCoins: RACING_COIN_DIRECTION.from_coins } as const;

/** Stake limits of one bet, cents (TSh 1 .. TSh 1,000,000). */
export const RACING_MIN_STAKE = 100;
export const RACING_MAX_STAKE = 100_000_000;
/** A race still without a result this long after its start is cancelled (bets refunded). */
export const RACE_GIVE_UP_MS = 60 * 60_000;

export type RacingSettings = typeof racingSettings.$inferSelect;

/** Demo history only (the simulator's first run): the bets and bills are dated `now` as given, not the clock's. */
export interface Backfill {
  backfill?: boolean;
}

/** The settings row (created with its defaults the first time). */
export async function racingSettingsOf(ex: Executor): Promise<RacingSettings> {
  const [row] = await ex.select().from(racingSettings).where(eq(racingSettings.id, 1));
  if (row) return row;
  await ex.insert(racingSettings).values({ id: 1 }).onConflictDoNothing();
  const [created] = await ex.select().from(racingSettings).where(eq(racingSettings.id, 1));
  return created!;
}

const refuse = (code: MessageCode, status = 422, params: Record<string, string | number> = {}) => new AppError(status, code, params);

// ------------------------------------------------------------------------------------------------ races

export interface SyncResult {
  listed: number;
  started: number;
  finished: number;
  cancelled: number;
  betsSettled: number;
}

/**
 * One pass over the provider (the periodic job; tests and the simulator call it): stores the races it
 * lists (new ones only: the provider's `listedAt`, else those starting from 10 minutes ago to 15 minutes
 * ahead), closes betting on races that started, and settles those whose outcome is known (a race still
 * without one RACE_GIVE_UP_MS after its start is cancelled and its bets refunded).
 */
export async function syncRaces(db: Db, provider: RacingProvider & { listedAt?(now: Date): Promise<ProviderRace[]> }, now: Date = new Date(), opts: Backfill = {}): Promise<SyncResult> {
  const out: SyncResult = { listed: 0, started: 0, finished: 0, cancelled: 0, betsSettled: 0 };
  const listed = provider.listedAt ? await provider.listedAt(now) : await provider.races(new Date(now.getTime() - 10 * 60_000), new Date(now.getTime() + 15 * 60_000));
  if (listed.length) {
    const rows = await db
      .insert(racingRaces)
      .values(listed.map((r) => ({ raceRef: r.raceRef, startsAt: r.startsAt, runners: r.runners, status: r.startsAt <= now ? RACE_STATUS.running : RACE_STATUS.open })))
      .onConflictDoNothing()
      .returning({ id: racingRaces.id });
    out.listed = rows.length;
  }
  const started = await db
    .update(racingRaces)
    .set({ status: RACE_STATUS.running, updatedAt: now })
    .where(and(eq(racingRaces.status, RACE_STATUS.open), lte(racingRaces.startsAt, now)))
    .returning({ id: racingRaces.id });
  out.started = started.length;
  const due = await db
    .select({ id: racingRaces.id, raceRef: racingRaces.raceRef, startsAt: racingRaces.startsAt })
    .from(racingRaces)
    .where(and(eq(racingRaces.status, RACE_STATUS.running), lte(racingRaces.startsAt, now)))
    .orderBy(asc(racingRaces.startsAt));
  for (const race of due) {
    const outcome = await provider.outcome(race.raceRef, now);
    const giveUp = !outcome && now.getTime() - race.startsAt.getTime() > RACE_GIVE_UP_MS;
    if (!outcome && !giveUp) continue;
    const settled = await db.transaction((tx) => settleRace(tx, race.id, outcome ?? { status: 'cancelled' }, now, opts));
    if (settled === null) continue;
    if (outcome?.status === 'finished') out.finished += 1;
    else out.cancelled += 1;
    out.betsSettled += settled;
  }
  return out;
}

/**
 * Records a race's outcome and settles its open bets, inside the caller's transaction. Answers the number
 * of bets settled, or null when the race was already decided (nothing moved).
 */
export async function settleRace(ex: Executor, raceId: number, outcome: NonNullable<RaceOutcome>, now: Date = new Date(), opts: Backfill = {}): Promise<number | null> {
  const finished = outcome.status === 'finished';
  const [race] = await ex
    .update(racingRaces)
    .set({ status: finished ? RACE_STATUS.finished : RACE_STATUS.cancelled, result: finished ? outcome.order : null, updatedAt: now })
    .where(and(eq(racingRaces.id, raceId), inArray(racingRaces.status, [RACE_STATUS.open, RACE_STATUS.running])))
    .returning();
  if (!race) return null;
  const winner = finished ? outcome.order[0] : undefined;
  const open = await ex.select().from(racingBets).where(and(eq(racingBets.raceId, raceId), eq(racingBets.status, RACING_BET_STATUS.open))).orderBy(asc(racingBets.id));
  let n = 0;
  for (const bet of open) {
    const status = !finished ? RACING_BET_STATUS.refunded : bet.runner === winner ? RACING_BET_STATUS.won : RACING_BET_STATUS.lost;
    const payout = status === RACING_BET_STATUS.refunded ? bet.stake : status === RACING_BET_STATUS.won ? payoutOf(bet.stake, bet.odds) : 0;
    const [moved] = await ex
      .update(racingBets)
      .set({ status, payout, settledAt: now })
      .where(and(eq(racingBets.id, bet.id), eq(racingBets.status, RACING_BET_STATUS.open)))
      .returning({ id: racingBets.id });
    if (!moved) continue;
    n += 1;
    if (payout > 0) {
      // A win is bill 14 "racing result change"; the stake of a cancelled race comes back as a refund, bill 8 (issue 23).
      const type = status === RACING_BET_STATUS.won ? BILL_TYPE.racing_result_change : BILL_TYPE.amount_rolled_back;
      await post(ex, {
        bettorId: bet.bettorId, account: ACCOUNT_KIND.cash, amount: payout, type, cause: { type: 'racing', id: bet.id },
        house: HOUSE.racing, remark: { kind: 'racing_result', params: { race: race.raceRef, runner: bet.runner, change: status === RACING_BET_STATUS.won ? 'won' : 'race_cancelled' } },
        ...(opts.backfill ? { at: now } : {}),
      });
    }
  }
  return n;
}

/** A winning bet's payout: stake x odds, rounded down to the cent. */
export const payoutOf = (stake: number, odds: string) => new Decimal(stake).mul(odds).floor().toNumber();

// ------------------------------------------------------------------------------------------------- bets

export interface RacingBetInput {
  bettorId: number;
  raceId: number;
  /** The runner's number. */
  runner: number;
  /** Cents. */
  stake: number;
}

/**
 * Places a bet for a bettor, inside the caller's transaction: the race open and not started, the runner
 * in it, the stake within the limits, the bettor allowed to bet and with the cash; then the bet at the
 * race's odds and bill 13 (−stake) against the racing house account. Refusals: 422 BET_MATCH_CLOSED
 * (racing off, race not open or started), 400 PARAM_INVALID (runner), 422 BET_STAKE_TOO_LOW/HIGH,
 * BET_USER_BLOCKED, BET_RISK_BLOCKED, BET_BALANCE_LOW; nothing is written then.
 */
export async function placeRacingBet(ex: Executor, input: RacingBetInput, now: Date = new Date(), opts: Backfill = {}): Promise<typeof racingBets.$inferSelect> {
  if (!Number.isSafeInteger(input.stake) || input.stake < RACING_MIN_STAKE) throw refuse('BET_STAKE_TOO_LOW', 422, { min: RACING_MIN_STAKE / 100 });
  if (input.stake > RACING_MAX_STAKE) throw refuse('BET_STAKE_TOO_HIGH', 422, { max: RACING_MAX_STAKE / 100 });
  const settings = await racingSettingsOf(ex);
  if (!settings.enabled) throw refuse('BET_MATCH_CLOSED');
  // Shared lock on the race until the bet commits: its settlement (an UPDATE of the race) waits for the bet,
  // then sees it among the open bets; a bet after the settlement reads the race as decided and is refused.
  const [race] = await ex.select().from(racingRaces).where(eq(racingRaces.id, input.raceId)).for('share');
  if (!race) throw notFound();
  if (race.status !== RACE_STATUS.open || race.startsAt.getTime() <= now.getTime()) throw refuse('BET_MATCH_CLOSED');
  const runner = race.runners.find((r) => r.number === input.runner);
  if (!runner) throw badRequest('PARAM_INVALID', [{ field: 'runner', message: 'no such runner in this race' }]);
  const [bettor] = await ex.select().from(bettors).where(eq(bettors.id, input.bettorId)).for('update');
  if (!bettor) throw notFound();
  if (bettor.disabled === USER_DISABLED.disabled || bettor.betStatus !== BET_STATUS.allowed) throw refuse('BET_USER_BLOCKED');
  if (bettor.riskLevel === RISK_LEVEL.no_betting) throw refuse('BET_RISK_BLOCKED');
  if (bettor.cashBalance < input.stake) throw refuse('BET_BALANCE_LOW');
  const [bet] = await ex
    .insert(racingBets)
    .values({ raceId: race.id, bettorId: bettor.id, agentId: bettor.agentId, runner: runner.number, stake: input.stake, odds: runner.odds, status: RACING_BET_STATUS.open, ...(opts.backfill ? { createdAt: now } : {}) })
    .returning();
  await post(ex, {
    bettorId: bettor.id, account: ACCOUNT_KIND.cash, amount: -input.stake, type: BILL_TYPE.virtual_racing_bet, cause: { type: 'racing', id: bet!.id },
    house: HOUSE.racing, remark: { kind: 'racing_bet', params: { race: race.raceRef, runner: runner.number, name: runner.name, odds: runner.odds } },
    ...(opts.backfill ? { at: now } : {}),
  });
  await countBet(ex, bettor.id, input.stake);
  return bet!;
}

// ------------------------------------------------------------------------------------------------- coins

const TEN_K = 10_000n;
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** Coins bought with `cash` cents at `rate`, and the cash they cost (<= cash). */
export function coinsFor(cash: number, rate: number): { coins: number; cash: number } {
  const coins = (BigInt(cash) * BigInt(rate)) / TEN_K;
  return { coins: Number(coins), cash: Number(ceilDiv(coins * TEN_K, BigInt(rate))) };
}

/** Cash given for `coins` at `rate`, and the coins it takes (<= coins). */
export function cashFor(coins: number, rate: number): { cash: number; coins: number } {
  const cash = (BigInt(coins) * TEN_K) / BigInt(rate);
  return { cash: Number(cash), coins: Number(ceilDiv(cash * BigInt(rate), TEN_K)) };
}

export interface CoinMove {
  id: number;
  direction: number;
  cashCents: number;
  coins: number;
  billId: number;
  /** The coin balance after the move. */
  coinBalance: number;
  /** The cash balance after the move. */
  cashBalance: number;
}

async function assertConvertible(ex: Executor, bettorId: number, amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw refuse('AMOUNT_INVALID', 400);
  const [bettor] = await ex.select().from(bettors).where(eq(bettors.id, bettorId)).for('update');
  if (!bettor) throw notFound();
  if (bettor.disabled === USER_DISABLED.disabled) throw refuse('BET_USER_BLOCKED');
  return bettor;
}

/** Balance → racing coin (bill 15), inside the caller's transaction. `cash`: the cents the bettor offers. */
export async function convertToCoins(ex: Executor, bettorId: number, cash: number): Promise<CoinMove> {
  const bettor = await assertConvertible(ex, bettorId, cash);
  const { coinRateBps } = await racingSettingsOf(ex);
  const q = coinsFor(cash, coinRateBps);
  if (q.coins <= 0 || q.cash <= 0) throw refuse('AMOUNT_INVALID', 422);
  if (bettor.cashBalance < q.cash) throw refuse('INSUFFICIENT_BALANCE');
  const [move] = await ex.insert(racingCoinMoves).values({ bettorId, direction: COIN_DIRECTION.toCoins, cashCents: q.cash, coins: q.coins }).returning({ id: racingCoinMoves.id });
  const bill = await post(ex, {
    bettorId, account: ACCOUNT_KIND.cash, amount: -q.cash, type: BILL_TYPE.balance_to_racing_coin, cause: { type: 'racing', id: `coin-${move!.id}` },
    house: HOUSE.racing, remark: { kind: 'racing_coins', params: { coins: q.coins } },
  });
  await ex.update(racingCoinMoves).set({ billId: bill.id }).where(eq(racingCoinMoves.id, move!.id));
  const [acct] = await ex
    .insert(racingCoinAccounts)
    .values({ bettorId, coins: q.coins })
    .onConflictDoUpdate({ target: racingCoinAccounts.bettorId, set: { coins: sql`${racingCoinAccounts.coins} + ${q.coins}` } })
    .returning({ coins: racingCoinAccounts.coins });
  return { id: move!.id, direction: COIN_DIRECTION.toCoins, cashCents: q.cash, coins: q.coins, billId: bill.id, coinBalance: acct!.coins, cashBalance: bill.balanceAfter };
}

/** Racing coin → balance (bill 16), inside the caller's transaction. `coins`: the coins the bettor offers. */
export async function convertFromCoins(ex: Executor, bettorId: number, coins: number): Promise<CoinMove> {
  await assertConvertible(ex, bettorId, coins);
  const { coinRateBps } = await racingSettingsOf(ex);
  const q = cashFor(coins, coinRateBps);
  if (q.cash <= 0 || q.coins <= 0) throw refuse('AMOUNT_INVALID', 422);
  // One guarded update: the coin account never goes below zero.
  const [acct] = await ex
    .update(racingCoinAccounts)
    .set({ coins: sql`${racingCoinAccounts.coins} - ${q.coins}` })
    .where(and(eq(racingCoinAccounts.bettorId, bettorId), sql`${racingCoinAccounts.coins} >= ${q.coins}`))
    .returning({ coins: racingCoinAccounts.coins });
  if (!acct) throw refuse('INSUFFICIENT_BALANCE');
  const [move] = await ex.insert(racingCoinMoves).values({ bettorId, direction: COIN_DIRECTION.fromCoins, cashCents: q.cash, coins: q.coins }).returning({ id: racingCoinMoves.id });
  const bill = await post(ex, {
    bettorId, account: ACCOUNT_KIND.cash, amount: q.cash, type: BILL_TYPE.racing_coin_to_balance, cause: { type: 'racing', id: `coin-${move!.id}` },
    house: HOUSE.racing, remark: { kind: 'racing_coins', params: { coins: q.coins } },
  });
  await ex.update(racingCoinMoves).set({ billId: bill.id }).where(eq(racingCoinMoves.id, move!.id));
  return { id: move!.id, direction: COIN_DIRECTION.fromCoins, cashCents: q.cash, coins: q.coins, billId: bill.id, coinBalance: acct.coins, cashBalance: bill.balanceAfter };
}

/** A bettor's racing coins (0 without an account). */
export async function coinBalanceOf(ex: Executor, bettorId: number): Promise<number> {
  const [row] = await ex.select({ coins: racingCoinAccounts.coins }).from(racingCoinAccounts).where(eq(racingCoinAccounts.bettorId, bettorId));
  return row?.coins ?? 0;
}

/**
 * The racing coin's own invariant (next to the ledger's checkInvariants): every coin account equals the
 * coins its moves added minus those they took, and none is negative. Answers every violation found.
 */
export async function checkCoinInvariants(ex: Executor): Promise<string[]> {
  const rows = (await ex.execute(sql`
    SELECT coalesce(a.bettor_id, m.bettor_id) AS bettor_id, coalesce(a.coins, 0) AS coins, coalesce(m.net, 0) AS net
    FROM racing_coin_accounts a
    FULL JOIN (SELECT bettor_id, sum(CASE direction WHEN ${COIN_DIRECTION.toCoins} THEN coins ELSE -coins END) AS net FROM racing_coin_moves GROUP BY bettor_id) m
      ON m.bettor_id = a.bettor_id
    WHERE coalesce(a.coins, 0) <> coalesce(m.net, 0) OR coalesce(a.coins, 0) < 0`)) as unknown as { rows: { bettor_id: number; coins: string; net: string }[] };
  return rows.rows.map((r) => `bettor ${r.bettor_id}: racing coins ${r.coins} != moves ${r.net}`);
}
