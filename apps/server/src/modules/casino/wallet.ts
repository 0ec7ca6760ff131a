/**
 * The wallet API's calls (issue 13; design: docs/architecture.md, "The casino wallet and virtual
 * racing"): balance, bet, win, rollback and end of round, for a provider already authenticated by
 * ./routes.ts.
 *
 * Idempotency. casino_transactions has one row per (provider, transaction_uuid), written in the same
 * transaction as the money it moved, with the answer's status and balance. The work of a call is one
 * transaction whose last write inserts that row (ON CONFLICT DO NOTHING): when the row already exists
 * (a retry, or one of many identical concurrent calls: the unique index makes the later ones wait for
 * the first to commit), the transaction is rolled back, so its debit or credit never happened, and the
 * stored answer is replayed; the same uuid with other content answers RS_ERROR_DUPLICATE_TRANSACTION.
 * Every refusal rolls back and then looks for a stored row first, so a retry of a call that succeeded
 * replays its answer even after the session expired or the game was switched off.
 *
 * Rollback of an unknown bet (a tombstone): the rollback also inserts the bet's uuid as a placeholder
 * row (kind 'bet', tombstone, status RS_ERROR_TRANSACTION_ROLLED_BACK), so the late bet conflicts on the
 * unique key and is refused; a bet and its rollback racing each other are ordered by that same key.
 *
 * Ordering. Every call that moves money on a round locks the round row (the bet's upsert, the win's and
 * the rollback's SELECT ... FOR UPDATE) and then the bettor's row (the ledger's guarded UPDATE), in that
 * order: wins and rollbacks of one round are serialised, and "rollback after win" / "win after rollback"
 * are decided on committed facts. A rollback also locks the bet first and marks it (reference_uuid = the
 * rollback's uuid); the one-statement win locks the bet too (bet → round → bettor, the same order), so it
 * re-reads the mark after any wait.
 *
 * Hot path. A bet or a win that goes well is one movement (round, debit or credit, bill, house entry,
 * transaction row) applied by ./hot-batch.ts together with the others that arrived with it: one round
 * trip and one commit for the lot. Anything else (a refusal, a replay, a race) rolls that movement back
 * alone, and the transactional path above decides the answer.
 *
 * Money (one statement per movement: the bettor's guarded UPDATE, the bill and the house counter-entry,
 * by the ledger's SQL function dau_ledger_post, as ledger.post and the group commit do): bet → bill 23
 * negative against HOUSE.casino; win → 24 positive against HOUSE.casino (a free win → 25 against HOUSE.bonuses; a zero win moves nothing); rollback → 8 "amount
 * rolled back" positive against HOUSE.casino (issue 23: a refund is named as one; before, a positive 23).
 * Cause {type 'casino', id round id}.
 */
import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { BET_STATUS, BILL_TYPE, RISK_LEVEL, USER_DISABLED } from '@dau/domain';
import { CASINO_CURRENCY, type CasinoWalletAnswer, type CasinoWalletCall, type CasinoWalletStatus } from '@dau/contract';
import type { Db, Executor } from '../../platform/db.js';
import { HOUSE, cashMovementCtes } from '../money/index.js';
import type { HotBatcher } from './hot-batch.js';
import type { CasinoProvider, WalletCache } from './service.js';

type Body = Record<string, unknown>;

/** A refusal: the transaction is rolled back and the stored answer, if any, wins. */
class Refuse extends Error {
  constructor(readonly status: CasinoWalletStatus) {
    super(status);
  }
}

/** The existing row of this uuid was met: roll back and replay it. */
class Replay extends Error {
  constructor() {
    super('replay');
  }
}

const rowsOf = async <T>(ex: Executor, q: SQL): Promise<T[]> => ((await ex.execute(q)) as unknown as { rows: T[] }).rows;

export function requestHash(call: CasinoWalletCall, b: Body): string {
  const parts = [call, b.user, b.game_code, b.round, b.amount, b.currency, b.reference_transaction_uuid ?? null, b.is_free === true];
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

export interface WalletCallContext {
  db: Db;
  /** The hot path: bets and wins that go well, applied in group-commit batches (./hot-batch.ts). */
  hot: HotBatcher;
  cache: WalletCache;
  provider: CasinoProvider;
  now?: () => number;
}

interface Stored {
  kind: string;
  status: string;
  balance_after: string | number;
  request_hash: string;
  tombstone: boolean;
}

const balanceOf = async (ex: Executor, bettorId: number | null): Promise<number> => {
  if (bettorId == null) return 0;
  const r = await rowsOf<{ b: string | number }>(ex, sql`SELECT cash_balance AS b FROM bettors WHERE id = ${bettorId}`);
  return r[0] ? Number(r[0].b) : 0;
};

/** One wallet call: the answer to send (always HTTP 200). */
export async function walletCall(c: WalletCallContext, call: CasinoWalletCall, b: Body): Promise<CasinoWalletAnswer> {
  const { db, cache, provider } = c;
  const now = c.now?.() ?? Date.now();
  const base = { request_uuid: typeof b.request_uuid === 'string' ? b.request_uuid : null, user: typeof b.user === 'string' ? b.user : null, currency: CASINO_CURRENCY };
  const answer = (status: CasinoWalletStatus, balance: number): CasinoWalletAnswer => ({ status, ...base, balance });
  const uuid = call.startsWith('transaction/') ? String(b.transaction_uuid) : null;
  const hash = requestHash(call, b);
  let bettorId: number | null = null;
  try {
    const session = await cache.session(db, String(b.token));
    if (!session || session.providerId !== provider.id) throw new Refuse('RS_ERROR_INVALID_TOKEN');
    if (call !== 'user/balance' && b.user !== String(session.bettorId)) throw new Refuse('RS_ERROR_INVALID_TOKEN');
    bettorId = session.bettorId;
    if (!base.user) base.user = String(session.bettorId);
    if (call === 'user/balance') return answer('RS_OK', await balanceOf(db, bettorId));
    // The game a call names must be the session's game (wins and rollbacks name it too, when they do).
    let game = null;
    if (typeof b.game_code === 'string') {
      game = await cache.game(db, provider.id, b.game_code);
      if (!game || game.id !== session.gameId) throw new Refuse('RS_ERROR_INVALID_GAME');
    }
    if ('currency' in b && b.currency !== session.currency) throw new Refuse('RS_ERROR_WRONG_CURRENCY');

    if (call === 'round/end') {
      const r = await rowsOf<{ b: string }>(
        db,
        sql`WITH e AS (UPDATE casino_rounds SET status = 2, ended_at = now(), updated_at = now()
                        WHERE provider_id = ${provider.id} AND round_ref = ${String(b.round)} AND bettor_id = ${bettorId} AND status = 1)
            SELECT cash_balance AS b FROM bettors WHERE id = ${bettorId}`,
      );
      return answer('RS_OK', Number(r[0]?.b ?? 0));
    }

    if (call === 'transaction/bet') {
      if (now > session.expiresAt.getTime()) throw new Refuse('RS_ERROR_TOKEN_EXPIRED');
      if (!game || !game.enabled || !provider.enabled) throw new Refuse('RS_ERROR_INVALID_GAME');
      const settings = await cache.settingsRow(db);
      const amount = Number(b.amount);
      const free = b.is_free === true;
      if (settings && !settings.casinoEnabled) throw new Refuse('RS_ERROR_LIMIT');
      if (!free) {
        if (amount < Math.max(1, game.minBet)) throw new Refuse('RS_ERROR_LIMIT');
        if (game.maxBet > 0 && amount > game.maxBet) throw new Refuse('RS_ERROR_LIMIT');
        if (settings && settings.maxBet > 0 && amount > settings.maxBet) throw new Refuse('RS_ERROR_LIMIT');
      }
      // A free bet (a free spin the operator granted) takes nothing from the balance: recorded with amount 0,
      // so that neither the round's turnover nor a rollback counts money that never moved.
      const debit = free ? 0 : amount;
      const args = [provider.id, session.bettorId, game.id, String(b.round), uuid!, hash, debit] as const;
      // One statement when everything goes well; any doubt (a refusal, a replay, a race) takes the full path.
      const fast = debit > 0 ? await c.hot.apply({ kind: 'bet', providerId: provider.id, bettorId: session.bettorId, gameId: game.id, roundRef: String(b.round), uuid: uuid!, hash, amount: debit }) : undefined;
      const balance = fast ?? (await db.transaction((tx) => bet(tx, ...args)));
      return answer('RS_OK', balance);
    }

    if (call === 'transaction/win') {
      const amount = Number(b.amount);
      const free = b.is_free === true;
      // The casino's maximum win of one call (casino_config; 0 = none): a larger one, the sign of a broken or
      // tampered game more often than of luck, is refused and changes nothing; the provider's support settles it.
      const settings = await cache.settingsRow(db);
      if (settings && settings.maxWin > 0 && amount > settings.maxWin) throw new Refuse('RS_ERROR_LIMIT');
      const args = [provider.id, session.bettorId, String(b.round), uuid!, String(b.reference_transaction_uuid), hash, amount, free] as const;
      const fast = await c.hot.apply({ kind: 'win', providerId: provider.id, bettorId: session.bettorId, roundRef: String(b.round), uuid: uuid!, refUuid: String(b.reference_transaction_uuid), hash, amount, free });
      const balance = fast ?? (await db.transaction((tx) => win(tx, ...args)));
      return answer('RS_OK', balance);
    }

    // transaction/rollback
    const balance = await db.transaction((tx) => rollback(tx, provider.id, session.bettorId, uuid!, String(b.reference_transaction_uuid), hash));
    return answer('RS_OK', balance);
  } catch (e) {
    if (!(e instanceof Refuse) && !(e instanceof Replay)) throw e;
    // Nothing of this call was written. A stored answer of the same uuid wins over the refusal.
    if (uuid) {
      const [s] = await rowsOf<Stored>(
        db,
        sql`SELECT kind, status, balance_after, request_hash, tombstone FROM casino_transactions WHERE provider_id = ${provider.id} AND transaction_uuid = ${uuid}`,
      );
      if (s) {
        if (s.tombstone && s.kind === 'bet' && s.request_hash === '') {
          // The placeholder of a rolled-back bet: the bet itself, arriving late, is refused.
          return answer(call === 'transaction/bet' ? 'RS_ERROR_TRANSACTION_ROLLED_BACK' : 'RS_ERROR_DUPLICATE_TRANSACTION', await balanceOf(db, bettorId));
        }
        if (s.request_hash === hash) return answer(s.status as CasinoWalletStatus, Number(s.balance_after));
        return answer('RS_ERROR_DUPLICATE_TRANSACTION', await balanceOf(db, bettorId));
      }
    }
    if (e instanceof Replay) return answer('RS_ERROR_UNKNOWN', await balanceOf(db, bettorId));
    return answer(e.status, await balanceOf(db, bettorId));
  }
}

/** Why a guarded debit found no row: the bettor's state or their balance. */
async function debitRefusal(ex: Executor, bettorId: number): Promise<never> {
  const [u] = await rowsOf<{ disabled: number; bet_status: number; risk_level: number }>(
    ex,
    sql`SELECT disabled, bet_status, risk_level FROM bettors WHERE id = ${bettorId}`,
  );
  if (!u) throw new Refuse('RS_ERROR_INVALID_TOKEN');
  if (u.disabled === USER_DISABLED.disabled || u.bet_status !== BET_STATUS.allowed || u.risk_level === RISK_LEVEL.no_betting) throw new Refuse('RS_ERROR_USER_DISABLED');
  throw new Refuse('RS_ERROR_NOT_ENOUGH_MONEY');
}

/**
 * The ledger's movement on the bettor's cash as the CTE `bl` (money/ledger.ts `cashMovementCtes`: the SQL
 * function dau_ledger_post, the one the group commit calls too), caused by a casino round. `when`: the
 * condition on this statement's other CTEs; `mayBet`: refuse a bettor who may not bet.
 */
const movement = (bettorId: number, amount: number, type: number, house: string, roundId: SQL, o: { when?: SQL; mayBet?: boolean } = {}): SQL =>
  cashMovementCtes({ bettorId, amount, type, house, causeType: 'casino', causeId: roundId, ...o });

async function bet(
  tx: Executor, providerId: number, bettorId: number, gameId: number, roundRef: string, uuid: string, hash: string, amount: number,
): Promise<number> {
  // The round (created, or its bet total raised if it is this bettor's), the debit refusing a bettor who
  // may not bet, and the transaction row last: a conflict there means this uuid was already answered.
  const round = sql`r AS (
      INSERT INTO casino_rounds (provider_id, round_ref, game_id, bettor_id, agent_id, bet_total)
      SELECT ${providerId}, ${roundRef}, ${gameId}, ${bettorId}, agent_id, ${amount} FROM bettors WHERE id = ${bettorId}
      ON CONFLICT (provider_id, round_ref) DO UPDATE SET bet_total = casino_rounds.bet_total + EXCLUDED.bet_total, status = 1, updated_at = now()
        WHERE casino_rounds.bettor_id = EXCLUDED.bettor_id AND casino_rounds.game_id = EXCLUDED.game_id
      RETURNING id)`;
  const guard = sql` AND disabled = ${USER_DISABLED.enabled} AND bet_status = ${BET_STATUS.allowed} AND risk_level <> ${RISK_LEVEL.no_betting} AND EXISTS (SELECT 1 FROM r)`;
  const q =
    amount > 0
      ? sql`WITH ${round}, ${movement(bettorId, -amount, BILL_TYPE.casino_bet, HOUSE.casino, sql`SELECT id FROM r`, { when: sql`EXISTS (SELECT 1 FROM r)`, mayBet: true })},
          t AS (
            INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, request_hash, status, balance_after, bill_id)
            SELECT ${providerId}, ${uuid}, r.id, 'bet', ${amount}, ${hash}, 'RS_OK', bl.balance_after, bl.id FROM r, bl
            ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
          SELECT (SELECT id FROM r) AS round_id, (SELECT balance_after FROM bl) AS balance, (SELECT id FROM t) AS txn_id`
      : sql`WITH ${round},
          u AS (SELECT cash_balance FROM bettors WHERE id = ${bettorId}${guard}),
          t AS (
            INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, request_hash, status, balance_after)
            SELECT ${providerId}, ${uuid}, r.id, 'bet', 0, ${hash}, 'RS_OK', u.cash_balance FROM r, u
            ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
          SELECT (SELECT id FROM r) AS round_id, (SELECT cash_balance FROM u) AS balance, (SELECT id FROM t) AS txn_id`;
  const [row] = await rowsOf<{ round_id: string | null; balance: string | null; txn_id: string | null }>(tx, q);
  if (row?.round_id == null) throw new Refuse('RS_ERROR_UNKNOWN'); // the round is another bettor's or game's
  if (row.balance == null) await debitRefusal(tx, bettorId);
  if (row.txn_id == null) throw new Replay();
  return Number(row.balance);
}

interface LockedRound {
  id: string;
  bettor_id: number;
  bet_id: string | null;
  bet_amount: string | null;
  bet_tombstone: boolean | null;
}

/** Locks the round (by its provider ref or id) and reads the referenced bet in it. */
async function lockRound(tx: Executor, providerId: number, where: SQL, betUuid: string): Promise<LockedRound | undefined> {
  const [r] = await rowsOf<LockedRound>(
    tx,
    sql`SELECT r.id, r.bettor_id, b.id AS bet_id, b.amount AS bet_amount, b.tombstone AS bet_tombstone
        FROM casino_rounds r
        LEFT JOIN casino_transactions b ON b.provider_id = ${providerId} AND b.transaction_uuid = ${betUuid} AND b.kind = 'bet' AND b.round_id = r.id
        WHERE ${where} FOR UPDATE OF r`,
  );
  return r;
}

async function win(
  tx: Executor, providerId: number, bettorId: number, roundRef: string, uuid: string, refUuid: string, hash: string, amount: number, free: boolean,
): Promise<number> {
  const r = await lockRound(tx, providerId, sql`r.provider_id = ${providerId} AND r.round_ref = ${roundRef}`, refUuid);
  if (!r || r.bettor_id !== bettorId || r.bet_id == null) {
    // Maybe the bet was rolled back before it was known (a placeholder outside any round).
    const [ph] = await rowsOf<{ tombstone: boolean }>(
      tx,
      sql`SELECT tombstone FROM casino_transactions WHERE provider_id = ${providerId} AND transaction_uuid = ${refUuid} AND kind = 'bet'`,
    );
    throw new Refuse(ph?.tombstone ? 'RS_ERROR_TRANSACTION_ROLLED_BACK' : 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
  }
  if (r.bet_tombstone) throw new Refuse('RS_ERROR_TRANSACTION_ROLLED_BACK');
  // Decided after the round lock: a rollback of this bet has committed or waits behind us.
  const rolled = sql`EXISTS (SELECT 1 FROM casino_transactions WHERE provider_id = ${providerId} AND reference_uuid = ${refUuid} AND kind = 'rollback' AND status = 'RS_OK')`;
  const q =
    amount > 0
      ? sql`WITH ${movement(bettorId, amount, free ? BILL_TYPE.casino_award : BILL_TYPE.casino_win, free ? HOUSE.bonuses : HOUSE.casino, sql`${Number(r.id)}::bigint`, { when: sql`NOT ${rolled}` })},
          rr AS (UPDATE casino_rounds SET win_total = win_total + ${amount}, updated_at = now() WHERE id = ${Number(r.id)} AND EXISTS (SELECT 1 FROM bl)),
          t AS (
            INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, reference_uuid, request_hash, status, balance_after, bill_id)
            SELECT ${providerId}, ${uuid}, ${Number(r.id)}, 'win', ${amount}, ${refUuid}, ${hash}, 'RS_OK', bl.balance_after, bl.id FROM bl
            ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
          SELECT ${rolled} AS rolled, (SELECT balance_after FROM bl) AS balance, (SELECT id FROM t) AS txn_id`
      : sql`WITH u AS (SELECT cash_balance FROM bettors WHERE id = ${bettorId} AND NOT ${rolled}),
          t AS (
            INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, reference_uuid, request_hash, status, balance_after)
            SELECT ${providerId}, ${uuid}, ${Number(r.id)}, 'win', 0, ${refUuid}, ${hash}, 'RS_OK', u.cash_balance FROM u
            ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
          SELECT ${rolled} AS rolled, (SELECT cash_balance FROM u) AS balance, (SELECT id FROM t) AS txn_id`;
  const [row] = await rowsOf<{ rolled: boolean; balance: string | null; txn_id: string | null }>(tx, q);
  if (row?.rolled) throw new Refuse('RS_ERROR_TRANSACTION_ROLLED_BACK');
  if (row?.balance == null) throw new Refuse('RS_ERROR_UNKNOWN');
  if (row.txn_id == null) throw new Replay();
  return Number(row.balance);
}

async function rollback(tx: Executor, providerId: number, bettorId: number, uuid: string, refUuid: string, hash: string): Promise<number> {
  // An unknown bet: record the tombstone (the bet's uuid as a refused placeholder, and this rollback).
  const [ph] = await rowsOf<{ ph: string | null; t: string | null; balance: string | null }>(
    tx,
    sql`WITH cur AS (SELECT cash_balance FROM bettors WHERE id = ${bettorId}),
        ph AS (
          INSERT INTO casino_transactions (provider_id, transaction_uuid, kind, request_hash, status, balance_after, tombstone)
          SELECT ${providerId}, ${refUuid}, 'bet', '', 'RS_ERROR_TRANSACTION_ROLLED_BACK', cur.cash_balance, true FROM cur
          ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id),
        t AS (
          INSERT INTO casino_transactions (provider_id, transaction_uuid, kind, reference_uuid, request_hash, status, balance_after, tombstone)
          SELECT ${providerId}, ${uuid}, 'rollback', ${refUuid}, ${hash}, 'RS_OK', cur.cash_balance, true FROM ph, cur
          ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
        SELECT (SELECT id FROM ph) AS ph, (SELECT id FROM t) AS t, (SELECT cash_balance FROM cur) AS balance`,
  );
  if (ph?.balance == null) throw new Refuse('RS_ERROR_INVALID_TOKEN');
  if (ph.ph != null) {
    if (ph.t == null) throw new Replay();
    return Number(ph.balance);
  }
  // The bet is known (or already a placeholder): lock it, then its round (the order wins take).
  const [bet] = await rowsOf<{ round_id: string | null; tombstone: boolean }>(
    tx,
    sql`SELECT round_id, tombstone FROM casino_transactions WHERE provider_id = ${providerId} AND transaction_uuid = ${refUuid} AND kind = 'bet' FOR UPDATE`,
  );
  if (!bet) throw new Refuse('RS_ERROR_TRANSACTION_DOES_NOT_EXIST'); // the uuid is a win's or a rollback's
  if (bet.tombstone || bet.round_id == null) {
    // Already rolled back before it was known: this rollback changes nothing.
    return storeNoop(tx, providerId, uuid, refUuid, hash, bettorId, null);
  }
  const r = await lockRound(tx, providerId, sql`r.id = ${Number(bet.round_id)}`, refUuid);
  if (!r || r.bettor_id !== bettorId) throw new Refuse('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
  const [state] = await rowsOf<{ won: boolean; rolled: boolean }>(
    tx,
    sql`SELECT EXISTS (SELECT 1 FROM casino_transactions WHERE round_id = ${Number(r.id)} AND kind = 'win' AND status = 'RS_OK') AS won,
               EXISTS (SELECT 1 FROM casino_transactions WHERE provider_id = ${providerId} AND reference_uuid = ${refUuid} AND kind = 'rollback' AND status = 'RS_OK') AS rolled`,
  );
  if (state?.rolled) return storeNoop(tx, providerId, uuid, refUuid, hash, bettorId, Number(r.id));
  if (state?.won) throw new Refuse('RS_ERROR_ROLLBACK_AFTER_WIN');
  const amount = Number(r.bet_amount ?? 0);
  // The round's totals, and the bet marked with the rollback that undid it (a win locking the bet sees it).
  const roundUpdate = sql`rr AS (UPDATE casino_rounds SET bet_total = bet_total - ${amount}, status = CASE WHEN bet_total - ${amount} <= 0 THEN 3 ELSE status END, updated_at = now()
                                 WHERE id = ${Number(r.id)}),
    mk AS (UPDATE casino_transactions SET reference_uuid = ${uuid} WHERE provider_id = ${providerId} AND transaction_uuid = ${refUuid} AND kind = 'bet')`;
  const q =
    amount > 0
      ? sql`WITH ${movement(bettorId, amount, BILL_TYPE.amount_rolled_back, HOUSE.casino, sql`${Number(r.id)}::bigint`)}, ${roundUpdate},
          t AS (
            INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, reference_uuid, request_hash, status, balance_after, bill_id)
            SELECT ${providerId}, ${uuid}, ${Number(r.id)}, 'rollback', ${amount}, ${refUuid}, ${hash}, 'RS_OK', bl.balance_after, bl.id FROM bl
            ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
          SELECT (SELECT balance_after FROM bl) AS balance, (SELECT id FROM t) AS txn_id`
      : sql`WITH u AS (SELECT cash_balance FROM bettors WHERE id = ${bettorId}), ${roundUpdate},
          t AS (
            INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, reference_uuid, request_hash, status, balance_after)
            SELECT ${providerId}, ${uuid}, ${Number(r.id)}, 'rollback', 0, ${refUuid}, ${hash}, 'RS_OK', u.cash_balance FROM u
            ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
          SELECT (SELECT cash_balance FROM u) AS balance, (SELECT id FROM t) AS txn_id`;
  const [row] = await rowsOf<{ balance: string | null; txn_id: string | null }>(tx, q);
  if (row?.balance == null) throw new Refuse('RS_ERROR_UNKNOWN');
  if (row.txn_id == null) throw new Replay();
  return Number(row.balance);
}

/** A rollback of a bet already rolled back: recorded (for its own retries), nothing moves. */
async function storeNoop(tx: Executor, providerId: number, uuid: string, refUuid: string, hash: string, bettorId: number, roundId: number | null): Promise<number> {
  const [row] = await rowsOf<{ balance: string | null; txn_id: string | null }>(
    tx,
    sql`WITH u AS (SELECT cash_balance FROM bettors WHERE id = ${bettorId}),
        t AS (
          INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, reference_uuid, request_hash, status, balance_after)
          SELECT ${providerId}, ${uuid}, ${roundId}, 'rollback', 0, ${refUuid}, ${hash}, 'RS_OK', u.cash_balance FROM u
          ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
        SELECT (SELECT cash_balance FROM u) AS balance, (SELECT id FROM t) AS txn_id`,
  );
  if (row?.balance == null) throw new Refuse('RS_ERROR_UNKNOWN');
  if (row.txn_id == null) throw new Replay();
  return Number(row.balance);
}
