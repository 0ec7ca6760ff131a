/**
 * THE SANDBOX GAME PROVIDER: how it turns a played round into the wallet calls a real provider makes,
 * including the failures real providers cause (design "The wallet API"; issue 13 "The sandbox provider").
 * Pure: the planner draws from the rng it is given.
 *
 * A round is a script of calls in order (`seq`), written whole to the outbox before the first is sent:
 *  - normal:        bet → win × 0..n → round/end
 *  - rollback:      bet → rollback of the bet (the round failed at the provider; no win, no end)
 *  - late_win:      bet → round/end → win × 1..n, the wins not sent before `lateMs` have passed
 *  - out_of_order:  rollback of the bet → bet (refused as rolled back) → round/end
 * and, on any script, a call answered then sent again (duplicate: the answer must be the first one)
 * and a call whose answer is thrown away once or twice (a timeout: retried with the same body).
 */
import crypto from 'node:crypto';
import { playRound, type CasinoGameKind, type Volatility } from '@dau/domain';

export type WalletCall = 'user/balance' | 'transaction/bet' | 'transaction/win' | 'transaction/rollback' | 'round/end';
export type RoundScript = 'normal' | 'rollback' | 'late_win' | 'out_of_order';

/** Rates (0..1) at which the sandbox misbehaves, per round. */
export interface FailureRates {
  /** One call of the round is sent again after its answer. */
  duplicate: number;
  /** One call's answer is dropped (1 or 2 times) and the call retried. */
  timeout: number;
  /** The round fails: its bet is rolled back. */
  rollback: number;
  /** The wins come after round/end, `lateMs` later. */
  lateWin: number;
  /** The rollback arrives before its bet. */
  outOfOrder: number;
}

export const DEFAULT_FAILURE_RATES: FailureRates = { duplicate: 0.03, timeout: 0.03, rollback: 0.02, lateWin: 0.02, outOfOrder: 0.01 };
export const NO_FAILURES: FailureRates = { duplicate: 0, timeout: 0, rollback: 0, lateWin: 0, outOfOrder: 0 };

export interface SandboxGame {
  gameCode: string;
  kind: CasinoGameKind;
  rtpBps: number;
  volatility: Volatility;
}

export interface PlannedCall {
  seq: number;
  call: WalletCall;
  transactionUuid: string | null;
  /** The JSON body, exactly as sent on every attempt. */
  body: string;
  notBefore: Date;
  dropAnswers: number;
  duplicates: number;
}

export interface PlannedRound {
  roundRef: string;
  script: RoundScript;
  /** Comma-separated: the script (unless normal) and 'duplicate' / 'timeout'. */
  failure: string;
  stake: number;
  multiplier: number;
  /** Cents won, floor(stake × multiplier). */
  payout: number;
  /** The win calls' amounts (adding up to `payout`; [0] = a zero win call; [] = none). */
  wins: number[];
  calls: PlannedCall[];
}

export interface PlanInput {
  token: string;
  /** The wallet's `user` of the session (from user/balance). */
  user: string;
  game: SandboxGame;
  stake: number;
  rng: () => number;
  rates: FailureRates;
  /** Delay of a late win (ms). */
  lateMs: number;
  now?: Date;
  /** Round id prefix (default 'SBX'). */
  prefix?: string;
}

export const CURRENCY = 'TZS';

function uuid(rng: () => number): string {
  // Random enough for ids and replayable from the rng; shaped like a v4 UUID.
  const hex = Array.from({ length: 32 }, () => Math.floor(rng() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[Math.floor(rng() * 4)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Splits `payout` cents into 1..3 win calls (a slot's line wins and feature), or 0..1 call for nothing. */
function splitWins(payout: number, rng: () => number): number[] {
  if (payout <= 0) return rng() < 0.5 ? [0] : [];
  const parts = payout >= 3 && rng() < 0.3 ? 2 + Math.floor(rng() * 2) : 1;
  const out: number[] = [];
  let left = payout;
  for (let i = parts; i > 1; i--) {
    // Leaves at least one cent for each of the i - 1 calls still to come.
    const room = left - i + 1;
    const p = 1 + Math.floor(rng() * room * 0.6);
    out.push(p);
    left -= p;
  }
  out.push(left);
  return out;
}

/** Plays one round (domain `playRound`) and writes its script of wallet calls with the failures drawn. */
export function planRound(input: PlanInput): PlannedRound {
  const { token, user, game, stake, rng, rates, lateMs } = input;
  if (!Number.isSafeInteger(stake) || stake <= 0) throw new RangeError(`stake must be a positive integer of cents (got ${stake})`);
  const now = input.now ?? new Date();
  const roundRef = `${input.prefix ?? 'SBX'}-${now.getTime().toString(36)}-${uuid(rng).slice(0, 8)}`;
  const outcome = playRound(game.kind, game.rtpBps, game.volatility, rng);
  const payout = Math.floor(stake * outcome.multiplier + 1e-9);

  const roll = rng();
  let script: RoundScript = 'normal';
  if (roll < rates.rollback) script = 'rollback';
  else if (roll < rates.rollback + rates.lateWin) script = 'late_win';
  else if (roll < rates.rollback + rates.lateWin + rates.outOfOrder) script = 'out_of_order';
  let wins = script === 'rollback' || script === 'out_of_order' ? [] : splitWins(payout, rng);
  if (script === 'late_win' && !wins.length) wins = [0];

  const betUuid = uuid(rng);
  const base = { token, user, game_code: game.gameCode, round: roundRef };
  const body = (o: Record<string, unknown>) => JSON.stringify({ request_uuid: uuid(rng), ...base, ...o });
  const bet = () => ({ call: 'transaction/bet' as const, transactionUuid: betUuid, body: body({ transaction_uuid: betUuid, currency: CURRENCY, amount: stake }) });
  const rollback = () => {
    const t = uuid(rng);
    return { call: 'transaction/rollback' as const, transactionUuid: t, body: body({ transaction_uuid: t, reference_transaction_uuid: betUuid }) };
  };
  const win = (amount: number) => {
    const t = uuid(rng);
    return { call: 'transaction/win' as const, transactionUuid: t, body: body({ transaction_uuid: t, reference_transaction_uuid: betUuid, currency: CURRENCY, amount }) };
  };
  const end = () => ({ call: 'round/end' as const, transactionUuid: null, body: body({}) });

  type Step = { call: WalletCall; transactionUuid: string | null; body: string; late?: boolean };
  let steps: Step[];
  if (script === 'rollback') steps = [bet(), rollback()];
  else if (script === 'out_of_order') steps = [rollback(), bet(), end()];
  else if (script === 'late_win') steps = [bet(), end(), ...wins.map((w) => ({ ...win(w), late: true }))];
  else steps = [bet(), ...wins.map(win), end()];

  const calls: PlannedCall[] = steps.map((s, i) => ({
    seq: i + 1,
    call: s.call,
    transactionUuid: s.transactionUuid,
    body: s.body,
    notBefore: s.late ? new Date(now.getTime() + lateMs) : now,
    dropAnswers: 0,
    duplicates: 0,
  }));
  const failure: string[] = script === 'normal' ? [] : [script];
  if (rng() < rates.duplicate) {
    calls[Math.floor(rng() * calls.length)]!.duplicates = 1;
    failure.push('duplicate');
  }
  if (rng() < rates.timeout) {
    calls[Math.floor(rng() * calls.length)]!.dropAnswers = 1 + Math.floor(rng() * 2);
    failure.push('timeout');
  }
  return { roundRef, script, failure: failure.join(','), stake, multiplier: outcome.multiplier, payout, wins, calls };
}

/** A random source for the planner when no seed is given. */
export const cryptoRng = () => crypto.randomBytes(6).readUIntBE(0, 6) / 2 ** 48;
