/**
 * The casino wallet API (issue 13; design: docs/architecture.md, "The casino wallet and virtual racing")
 * through the app: every status, signatures (HMAC and RSA), the timestamp window, the IP allow-list, admin credentials refused, the
 * idempotency of every transaction (replays, duplicates, 50 identical concurrent calls → one bill),
 * bet/win/rollback orderings (tombstones, win after rollback, rollback after win), sessions and their
 * expiry, the money on the ledger (bills 23/24/25 with their house counter-entries) and the operator
 * routes (sessions, rounds, round details, providers with a write-only secret). Every refusal changes
 * nothing. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { BET_STATUS, BILL_TYPE, RISK_LEVEL, USER_DISABLED } from '@dau/domain';
import { bettors, bills } from '../src/schema.js';
import { HOUSE, checkInvariants } from '../src/modules/money/ledger';
import { casinoGames, casinoProviders, casinoRounds, casinoSettings, casinoTransactions } from '../src/modules/casino/schema';
import { systemLogs } from '../src/platform/schema';
import { approved, ADMIN_PASSWORD, createTestApp, exportFinished, makeWorld, type TestApp } from './helpers';
import { grantKeys } from './payments-fixtures';
import { makeBettor } from './money-helpers';
import { WalletClient, cashOf, casinoBills, forget, houseBalance, sandboxClient, sandboxGame, session, uid } from './casino-wallet-support';

let t: TestApp;
let token: string;
let w: Awaited<ReturnType<typeof makeWorld>>;
let c: WalletClient;
let game: typeof casinoGames.$inferSelect;

beforeAll(async () => {
  // Opening a session for a bettor is a sandbox route (issue 22): this file exercises it.
  t = await createTestApp({ sandboxRoutes: true });
  token = await t.login('admin', ADMIN_PASSWORD);
  w = await makeWorld(t);
  c = await sandboxClient(t);
  game = await sandboxGame(t);
}, 60_000);
afterAll(async () => {
  expect(await checkInvariants(t.database.db)).toEqual([]);
  await t?.close();
});

/** A funded bettor with an open session on the sandbox game. */
async function player(cash = 1_000_00, agentId = w.agentA, now?: Date) {
  const b = await makeBettor(t, agentId, { cash });
  const s = await session(t, b.id, game.id, now);
  return { id: b.id, user: String(b.id), token: s.token };
}

type Player = Awaited<ReturnType<typeof player>>;
const betBody = (p: Player, o: Record<string, unknown> = {}) => ({
  request_uuid: uid('rq'), token: p.token, user: p.user, game_code: game.gameCode, round: uid('round'), transaction_uuid: uid('bet'), currency: 'TZS', amount: 10_00, ...o,
});
const winBody = (p: Player, ref: string, o: Record<string, unknown> = {}) => ({
  request_uuid: uid('rq'), token: p.token, user: p.user, game_code: game.gameCode, round: 'r1', transaction_uuid: uid('win'), reference_transaction_uuid: ref,
  currency: 'TZS', amount: 25_00, ...o,
});
const rollbackBody = (p: Player, ref: string, o: Record<string, unknown> = {}) => ({
  request_uuid: uid('rq'), token: p.token, user: p.user, game_code: game.gameCode, round: 'r1', transaction_uuid: uid('rb'), reference_transaction_uuid: ref, ...o,
});

/** What a refusal must leave as it was. */
async function snapshot(bettorId: number) {
  const db = t.database.db;
  const [[b], [tx], [rounds]] = await Promise.all([
    db.select({ n: count() }).from(bills),
    db.select({ n: count() }).from(casinoTransactions),
    db.select({ n: count(), bet: sql<string>`coalesce(sum(${casinoRounds.betTotal}), 0)`, win: sql<string>`coalesce(sum(${casinoRounds.winTotal}), 0)` }).from(casinoRounds),
  ]);
  return { cash: await cashOf(t, bettorId), bills: b!.n, txns: tx!.n, rounds: rounds!.n, bet: rounds!.bet, win: rounds!.win, casino: await houseBalance(t, HOUSE.casino) };
}

async function refused(p: Player, path: string, body: Record<string, unknown>, status: string, o: Parameters<WalletClient['call']>[2] = {}, client = c) {
  const before = await snapshot(p.id);
  const r = await client.call(path, body, o);
  expect(r.status).toBe(200);
  expect(r.body.status).toBe(status);
  expect(await snapshot(p.id)).toEqual(before);
  return r.body;
}

describe('balance and the happy path', () => {
  it('answers the balance, takes a bet (bill 23 against the casino account), pays wins (24) and a free win (25, from bonuses)', async () => {
    const p = await player(1_000_00);
    const bal = await c.call('user/balance', { request_uuid: 'q1', token: p.token, game_code: game.gameCode });
    expect(bal).toEqual({ status: 200, body: { status: 'RS_OK', request_uuid: 'q1', user: p.user, currency: 'TZS', balance: 1_000_00 } });

    const casinoBefore = await houseBalance(t, HOUSE.casino);
    const bonusesBefore = await houseBalance(t, HOUSE.bonuses);
    const bet = betBody(p, { round: 'happy-1', amount: 100_00 });
    const r1 = await c.call('transaction/bet', bet);
    expect(r1.body).toEqual({ status: 'RS_OK', request_uuid: bet.request_uuid, user: p.user, currency: 'TZS', balance: 900_00 });
    const w1 = await c.call('transaction/win', winBody(p, bet.transaction_uuid, { round: 'happy-1', amount: 150_00 }));
    expect(w1.body).toMatchObject({ status: 'RS_OK', balance: 1_050_00 });
    const w0 = await c.call('transaction/win', winBody(p, bet.transaction_uuid, { round: 'happy-1', amount: 0 }));
    expect(w0.body).toMatchObject({ status: 'RS_OK', balance: 1_050_00 });
    const wf = await c.call('transaction/win', winBody(p, bet.transaction_uuid, { round: 'happy-1', amount: 5_00, is_free: true }));
    expect(wf.body).toMatchObject({ status: 'RS_OK', balance: 1_055_00 });
    const end = await c.call('round/end', { request_uuid: uid(), token: p.token, user: p.user, game_code: game.gameCode, round: 'happy-1' });
    expect(end.body).toMatchObject({ status: 'RS_OK', balance: 1_055_00 });

    const [round] = await t.database.db.select().from(casinoRounds).where(eq(casinoRounds.roundRef, 'happy-1'));
    expect(round).toMatchObject({ bettorId: p.id, gameId: game.id, betTotal: 100_00, winTotal: 155_00, status: 2, agentId: w.agentA });
    expect(round!.endedAt).not.toBeNull();
    // A zero win moves no money: three bills.
    expect(await casinoBills(t, p.id)).toEqual([
      { type: BILL_TYPE.casino_bet, amount: -100_00, causeId: String(round!.id) },
      { type: BILL_TYPE.casino_win, amount: 150_00, causeId: String(round!.id) },
      { type: BILL_TYPE.casino_award, amount: 5_00, causeId: String(round!.id) },
    ]);
    expect(await houseBalance(t, HOUSE.casino)).toBe(casinoBefore + 100_00 - 150_00);
    expect(await houseBalance(t, HOUSE.bonuses)).toBe(bonusesBefore - 5_00);
    const txns = await t.database.db.select().from(casinoTransactions).where(eq(casinoTransactions.roundId, round!.id));
    expect(txns.map((x) => [x.kind, x.amount, x.status, x.balanceAfter, x.billId !== null])).toEqual([
      ['bet', 100_00, 'RS_OK', 900_00, true],
      ['win', 150_00, 'RS_OK', 1_050_00, true],
      ['win', 0, 'RS_OK', 1_050_00, false],
      ['win', 5_00, 'RS_OK', 1_055_00, true],
    ]);
    // A late win after the end of the round is paid.
    const late = await c.call('transaction/win', winBody(p, bet.transaction_uuid, { round: 'happy-1', amount: 1_00 }));
    expect(late.body).toMatchObject({ status: 'RS_OK', balance: 1_056_00 });
  });

  it('rolls a bet back (bill 8, a refund) and marks the round rolled back', async () => {
    const p = await player(50_00);
    const bet = betBody(p, { round: 'rb-1', amount: 20_00 });
    expect((await c.call('transaction/bet', bet)).body).toMatchObject({ status: 'RS_OK', balance: 30_00 });
    const rb = rollbackBody(p, bet.transaction_uuid, { round: 'rb-1' });
    expect((await c.call('transaction/rollback', rb)).body).toMatchObject({ status: 'RS_OK', balance: 50_00 });
    const [round] = await t.database.db.select().from(casinoRounds).where(eq(casinoRounds.roundRef, 'rb-1'));
    expect(round).toMatchObject({ betTotal: 0, status: 3 });
    // The bet's money comes back as a refund: bill 8 "amount rolled back" (issue 23; it was a positive 23).
    expect((await casinoBills(t, p.id)).map((b) => [b.type, b.amount])).toEqual([[BILL_TYPE.casino_bet, -20_00], [BILL_TYPE.amount_rolled_back, 20_00]]);
    // The same rollback again replays; another rollback of the same bet moves nothing.
    expect((await c.call('transaction/rollback', rb)).body).toMatchObject({ status: 'RS_OK', balance: 50_00 });
    expect((await c.call('transaction/rollback', rollbackBody(p, bet.transaction_uuid, { round: 'rb-1' }))).body).toMatchObject({ status: 'RS_OK', balance: 50_00 });
    expect(await cashOf(t, p.id)).toBe(50_00);
    // A win for the rolled-back bet is refused.
    await refused(p, 'transaction/win', winBody(p, bet.transaction_uuid, { round: 'rb-1' }), 'RS_ERROR_TRANSACTION_ROLLED_BACK');
  });
});

describe('idempotency', () => {
  it('replays the first answer to a repeated call, even after the balance moved and the session expired', async () => {
    const p = await player(100_00);
    const bet = betBody(p, { round: 'idem-1', amount: 30_00 });
    const first = await c.call('transaction/bet', bet);
    expect(first.body).toMatchObject({ status: 'RS_OK', balance: 70_00 });
    await c.call('transaction/bet', betBody(p, { round: 'idem-1', amount: 10_00 }));
    const again = await c.call('transaction/bet', { ...bet, request_uuid: 'retry-1' });
    expect(again.body).toEqual({ status: 'RS_OK', request_uuid: 'retry-1', user: p.user, currency: 'TZS', balance: 70_00 });
    expect(await cashOf(t, p.id)).toBe(60_00);
    expect(await casinoBills(t, p.id)).toHaveLength(2);
    // Replayed also when the game is switched off meanwhile.
    await t.database.db.update(casinoGames).set({ enabled: false }).where(eq(casinoGames.id, game.id));
    forget();
    expect((await c.call('transaction/bet', bet)).body).toMatchObject({ status: 'RS_OK', balance: 70_00 });
    await t.database.db.update(casinoGames).set({ enabled: true }).where(eq(casinoGames.id, game.id));
    forget();
  });

  it('answers RS_ERROR_DUPLICATE_TRANSACTION to the same uuid with other content, changing nothing', async () => {
    const p = await player(100_00);
    const bet = betBody(p, { round: 'dup-1', amount: 30_00 });
    await c.call('transaction/bet', bet);
    const body = await refused(p, 'transaction/bet', { ...bet, amount: 31_00 }, 'RS_ERROR_DUPLICATE_TRANSACTION');
    expect(body.balance).toBe(70_00);
    await refused(p, 'transaction/win', { ...winBody(p, bet.transaction_uuid, { round: 'dup-1' }), transaction_uuid: bet.transaction_uuid }, 'RS_ERROR_DUPLICATE_TRANSACTION');
    const win = winBody(p, bet.transaction_uuid, { round: 'dup-1', amount: 40_00 });
    await c.call('transaction/win', win);
    await refused(p, 'transaction/win', { ...win, amount: 41_00 }, 'RS_ERROR_DUPLICATE_TRANSACTION');
  });

  it('takes 50 identical concurrent bets once: one bill, every answer the same', async () => {
    const p = await player(1_000_00);
    const bet = betBody(p, { round: 'conc-1', amount: 7_00 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => c.call('transaction/bet', bet)));
    for (const a of answers) expect(a.body).toMatchObject({ status: 'RS_OK', balance: 993_00 });
    expect(await casinoBills(t, p.id)).toHaveLength(1);
    expect(await cashOf(t, p.id)).toBe(993_00);
    const win = winBody(p, bet.transaction_uuid, { round: 'conc-1', amount: 9_00 });
    const wins = await Promise.all(Array.from({ length: 50 }, () => c.call('transaction/win', win)));
    for (const a of wins) expect(a.body).toMatchObject({ status: 'RS_OK', balance: 1_002_00 });
    expect(await casinoBills(t, p.id)).toHaveLength(2);
    const [round] = await t.database.db.select().from(casinoRounds).where(eq(casinoRounds.roundRef, 'conc-1'));
    expect(round).toMatchObject({ betTotal: 7_00, winTotal: 9_00 });
  });

  it('settles a bet racing its own rollback exactly once, whichever comes first', async () => {
    const p = await player(1_000_00);
    for (let i = 0; i < 10; i++) {
      const bet = betBody(p, { round: `race-${i}`, amount: 5_00 });
      const rb = rollbackBody(p, bet.transaction_uuid, { round: `race-${i}` });
      const [b, r] = await Promise.all([c.call('transaction/bet', bet), c.call('transaction/rollback', rb)]);
      expect(r.body.status).toBe('RS_OK');
      expect(['RS_OK', 'RS_ERROR_TRANSACTION_ROLLED_BACK']).toContain(b.body.status);
      expect(await cashOf(t, p.id)).toBe(1_000_00);
      // And stays so for any retry of either.
      expect((await c.call('transaction/bet', bet)).body.status).toBe(b.body.status);
      expect((await c.call('transaction/rollback', rb)).body.status).toBe('RS_OK');
      expect(await cashOf(t, p.id)).toBe(1_000_00);
    }
  });
});

describe('races', () => {
  it('a win racing the rollback of its bet: either the win is paid and the rollback refused, or the rollback is done and the win refused', async () => {
    const p = await player(1_000_00);
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const before = await cashOf(t, p.id);
      const bet = betBody(p, { round: uid('wr'), amount: 10_00 });
      expect((await c.call('transaction/bet', bet)).body.status).toBe('RS_OK');
      const win = winBody(p, bet.transaction_uuid, { round: bet.round, amount: 30_00 });
      const rb = rollbackBody(p, bet.transaction_uuid, { round: bet.round });
      const [w1, r1] = await Promise.all([c.call('transaction/win', win), c.call('transaction/rollback', rb)]);
      const outcome = `${w1.body.status}/${r1.body.status}`;
      seen.add(outcome);
      if (outcome === 'RS_OK/RS_ERROR_ROLLBACK_AFTER_WIN') expect(await cashOf(t, p.id)).toBe(before - 10_00 + 30_00);
      else if (outcome === 'RS_ERROR_TRANSACTION_ROLLED_BACK/RS_OK') expect(await cashOf(t, p.id)).toBe(before);
      else throw new Error(`unexpected outcome ${outcome}`);
    }
    expect(seen.size).toBeGreaterThanOrEqual(1);
  });
});

describe('orderings', () => {
  it('records a rollback of an unknown bet (tombstone): the late bet and its wins are refused', async () => {
    const p = await player(100_00);
    const betUuid = uid('late-bet');
    const rb = rollbackBody(p, betUuid, { round: 'tomb-1' });
    expect((await c.call('transaction/rollback', rb)).body).toMatchObject({ status: 'RS_OK', balance: 100_00 });
    const [tomb] = await t.database.db.select().from(casinoTransactions).where(eq(casinoTransactions.transactionUuid, rb.transaction_uuid));
    expect(tomb).toMatchObject({ kind: 'rollback', tombstone: true, referenceUuid: betUuid, billId: null });
    const body = await refused(p, 'transaction/bet', betBody(p, { round: 'tomb-1', transaction_uuid: betUuid, amount: 10_00 }), 'RS_ERROR_TRANSACTION_ROLLED_BACK');
    expect(body.balance).toBe(100_00);
    await refused(p, 'transaction/win', winBody(p, betUuid, { round: 'tomb-1' }), 'RS_ERROR_TRANSACTION_ROLLED_BACK');
    // The rollback retried, or another rollback of the same bet: still fine, nothing moves.
    expect((await c.call('transaction/rollback', rb)).body.status).toBe('RS_OK');
    expect((await c.call('transaction/rollback', rollbackBody(p, betUuid))).body.status).toBe('RS_OK');
    expect(await casinoBills(t, p.id)).toEqual([]);
  });

  it('refuses a win for an unknown bet, a rollback after a win, and a win after a rollback', async () => {
    const p = await player(100_00);
    await refused(p, 'transaction/win', winBody(p, uid('nobet'), { round: 'ord-0' }), 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    const bet = betBody(p, { round: 'ord-1', amount: 10_00 });
    await c.call('transaction/bet', bet);
    // A win naming a bet of another round.
    await refused(p, 'transaction/win', winBody(p, bet.transaction_uuid, { round: 'ord-2' }), 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    await c.call('transaction/win', winBody(p, bet.transaction_uuid, { round: 'ord-1', amount: 0 }));
    await refused(p, 'transaction/rollback', rollbackBody(p, bet.transaction_uuid, { round: 'ord-1' }), 'RS_ERROR_ROLLBACK_AFTER_WIN');
    const bet2 = betBody(p, { round: 'ord-3', amount: 10_00 });
    await c.call('transaction/bet', bet2);
    await c.call('transaction/rollback', rollbackBody(p, bet2.transaction_uuid, { round: 'ord-3' }));
    await refused(p, 'transaction/win', winBody(p, bet2.transaction_uuid, { round: 'ord-3' }), 'RS_ERROR_TRANSACTION_ROLLED_BACK');
    // A rollback naming a win: no such bet.
    const win = winBody(p, bet.transaction_uuid, { round: 'ord-1', amount: 1_00 });
    await c.call('transaction/win', win);
    await refused(p, 'transaction/rollback', rollbackBody(p, win.transaction_uuid, { round: 'ord-1' }), 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
  });

  it('refuses a bet after the session expired (RS_ERROR_TOKEN_EXPIRED) but accepts its wins and rollbacks', async () => {
    const b = await makeBettor(t, w.agentA, { cash: 100_00 });
    const fresh = await session(t, b.id, game.id);
    const p = { id: b.id, user: String(b.id), token: fresh.token };
    const bet = betBody(p, { round: 'exp-1', amount: 10_00 });
    await c.call('transaction/bet', bet);
    const bet2 = betBody(p, { round: 'exp-2', amount: 10_00 });
    await c.call('transaction/bet', bet2);
    // The same session, expired (sessions are immutable: expire it in the database and forget the cached copy).
    await t.database.db.execute(sql`UPDATE casino_sessions SET expires_at = now() - interval '1 minute' WHERE token = ${fresh.token}`);
    const { walletCache } = await import('../src/modules/casino/index');
    (walletCache as unknown as { sessions: Map<string, unknown> }).sessions.delete(fresh.token);
    await refused(p, 'transaction/bet', betBody(p, { round: 'exp-3' }), 'RS_ERROR_TOKEN_EXPIRED');
    expect((await c.call('transaction/win', winBody(p, bet.transaction_uuid, { round: 'exp-1', amount: 15_00 }))).body).toMatchObject({ status: 'RS_OK', balance: 95_00 });
    expect((await c.call('transaction/rollback', rollbackBody(p, bet2.transaction_uuid, { round: 'exp-2' }))).body).toMatchObject({ status: 'RS_OK', balance: 105_00 });
    expect((await c.call('user/balance', { request_uuid: 'b', token: p.token })).body).toMatchObject({ status: 'RS_OK', balance: 105_00 });
    // A session opened already expired.
    const old = await player(10_00, w.agentA, new Date(Date.now() - 5 * 3_600_000));
    await refused(old, 'transaction/bet', betBody(old), 'RS_ERROR_TOKEN_EXPIRED');
  });
});

describe('refusals (each changes nothing)', () => {
  it('RS_ERROR_NOT_ENOUGH_MONEY with the balance', async () => {
    const p = await player(5_00);
    const body = await refused(p, 'transaction/bet', betBody(p, { amount: 5_01 }), 'RS_ERROR_NOT_ENOUGH_MONEY');
    expect(body.balance).toBe(5_00);
    expect((await c.call('transaction/bet', betBody(p, { amount: 5_00 }))).body).toMatchObject({ status: 'RS_OK', balance: 0 });
  });

  it('RS_ERROR_USER_DISABLED for a disabled bettor, one who may not bet, or risk level "no betting"', async () => {
    for (const set of [{ disabled: USER_DISABLED.disabled }, { betStatus: BET_STATUS.not_allowed }, { riskLevel: RISK_LEVEL.no_betting }]) {
      const p = await player(100_00);
      await t.database.db.update(bettors).set(set).where(eq(bettors.id, p.id));
      const body = await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_USER_DISABLED');
      expect(body.balance).toBe(100_00);
    }
  });

  it('RS_ERROR_INVALID_TOKEN, RS_ERROR_INVALID_GAME, RS_ERROR_WRONG_CURRENCY', async () => {
    const p = await player(100_00);
    await refused(p, 'transaction/bet', betBody(p, { token: 'nope' }), 'RS_ERROR_INVALID_TOKEN');
    await refused(p, 'user/balance', { request_uuid: 'x', token: 'nope' }, 'RS_ERROR_INVALID_TOKEN');
    const other = await player(100_00);
    await refused(p, 'transaction/bet', betBody(p, { user: other.user }), 'RS_ERROR_INVALID_TOKEN');
    await refused(p, 'transaction/bet', betBody(p, { game_code: 'sb-roulette-eu' }), 'RS_ERROR_INVALID_GAME');
    await refused(p, 'transaction/bet', betBody(p, { game_code: 'no-such-game' }), 'RS_ERROR_INVALID_GAME');
    await refused(p, 'transaction/bet', betBody(p, { currency: 'KES' }), 'RS_ERROR_WRONG_CURRENCY');
    await t.database.db.update(casinoGames).set({ enabled: false }).where(eq(casinoGames.id, game.id));
    forget();
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_GAME');
    await t.database.db.update(casinoGames).set({ enabled: true }).where(eq(casinoGames.id, game.id));
    forget();
  });

  it('RS_ERROR_LIMIT: below the minimum, above the maximum (game or casino), casino off', async () => {
    const p = await player(10_000_000_00);
    await refused(p, 'transaction/bet', betBody(p, { amount: game.minBet - 1 }), 'RS_ERROR_LIMIT');
    await refused(p, 'transaction/bet', betBody(p, { amount: game.maxBet + 1 }), 'RS_ERROR_LIMIT');
    await refused(p, 'transaction/bet', betBody(p, { amount: 0 }), 'RS_ERROR_LIMIT');
    await t.database.db.update(casinoSettings).set({ maxBet: 50_00 }).where(eq(casinoSettings.id, 1));
    forget();
    await refused(p, 'transaction/bet', betBody(p, { amount: 50_01 }), 'RS_ERROR_LIMIT');
    await t.database.db.update(casinoSettings).set({ maxBet: 0, casinoEnabled: false }).where(eq(casinoSettings.id, 1));
    forget();
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_LIMIT');
    await t.database.db.update(casinoSettings).set({ casinoEnabled: true }).where(eq(casinoSettings.id, 1));
    forget();
    // A free bet (a free spin) is taken without touching the balance, whatever its amount; its win is an award (25).
    const cash = await cashOf(t, p.id);
    const free = betBody(p, { amount: 0, is_free: true, round: 'free-1' });
    expect((await c.call('transaction/bet', free)).body).toMatchObject({ status: 'RS_OK', balance: cash });
    const free2 = betBody(p, { amount: 5_00, is_free: true, round: 'free-2' });
    expect((await c.call('transaction/bet', free2)).body).toMatchObject({ status: 'RS_OK', balance: cash });
    expect(await casinoBills(t, p.id)).toEqual([]);
    // Its rollback gives nothing back (nothing was taken).
    expect((await c.call('transaction/rollback', rollbackBody(p, free2.transaction_uuid, { round: 'free-2' }))).body).toMatchObject({ status: 'RS_OK', balance: cash });
    expect(await casinoBills(t, p.id)).toEqual([]);
  });

  it('RS_ERROR_LIMIT for a win above the casino\'s maximum win: nothing paid; a win up to it is paid', async () => {
    const p = await player(1_000_00);
    const big = betBody(p, { round: 'max-win-1', amount: 10_00 });
    expect((await c.call('transaction/bet', big)).body.status).toBe('RS_OK');
    await t.database.db.update(casinoSettings).set({ maxWin: 1_000_00 }).where(eq(casinoSettings.id, 1));
    forget();
    const afterBet = await cashOf(t, p.id);
    await refused(p, 'transaction/win', winBody(p, big.transaction_uuid, { round: 'max-win-1', amount: 1_000_01 }), 'RS_ERROR_LIMIT');
    expect(await cashOf(t, p.id)).toBe(afterBet);
    expect((await c.call('transaction/win', winBody(p, big.transaction_uuid, { round: 'max-win-1', amount: 1_000_00 }))).body).toMatchObject({ status: 'RS_OK', balance: afterBet + 1_000_00 });
    await t.database.db.update(casinoSettings).set({ maxWin: 0 }).where(eq(casinoSettings.id, 1));
    forget();
  });

  it('RS_ERROR_WRONG_SYNTAX for missing or badly typed fields; a body that is not JSON answers 400', async () => {
    const p = await player(100_00);
    const { amount: _a, ...noAmount } = betBody(p);
    await refused(p, 'transaction/bet', noAmount, 'RS_ERROR_WRONG_SYNTAX');
    await refused(p, 'transaction/bet', betBody(p, { amount: '10' }), 'RS_ERROR_WRONG_SYNTAX');
    await refused(p, 'transaction/bet', betBody(p, { amount: -1 }), 'RS_ERROR_WRONG_SYNTAX');
    await refused(p, 'transaction/bet', betBody(p, { amount: 1.5 }), 'RS_ERROR_WRONG_SYNTAX');
    await refused(p, 'transaction/win', { ...winBody(p, 'x'), reference_transaction_uuid: undefined }, 'RS_ERROR_WRONG_SYNTAX');
    const r = await c.call('transaction/bet', {}, { raw: 'not json{' });
    expect(r.status).toBe(400);
    expect(r.body.status).toBe('RS_ERROR_WRONG_SYNTAX');
    // Too large a body is refused before it is read.
    const big = await c.call('transaction/bet', {}, { raw: JSON.stringify({ pad: 'x'.repeat(20_000) }) });
    expect(big.status).toBe(413);
  });
});

describe('audit trail', () => {
  it('an answered call is recorded in casino_transactions only; a call refused before authentication leaves an audit row', async () => {
    const walletLogs = async () =>
      (await t.database.db.select({ n: count() }).from(systemLogs).where(sql`${systemLogs.content} LIKE 'POST /wallet/v1/%'`))[0]!.n;
    const p = await player(100_00);
    const before = await walletLogs();
    const bet = betBody(p, { round: 'audit-1', amount: 10_00 });
    expect((await c.call('transaction/bet', bet)).body.status).toBe('RS_OK');
    expect((await c.call('transaction/win', winBody(p, bet.transaction_uuid, { round: 'audit-1', amount: 0 }))).body.status).toBe('RS_OK');
    expect((await c.call('transaction/bet', betBody(p, { amount: 1_000_00 }))).body.status).toBe('RS_ERROR_NOT_ENOUGH_MONEY');
    expect(await walletLogs()).toBe(before);
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_SIGNATURE', { signature: 'AAAA' });
    expect(await walletLogs()).toBe(before + 1);
  });
});

describe('authentication', () => {
  it('RS_ERROR_INVALID_SIGNATURE: bad, missing or foreign signatures, a timestamp outside ±300 s', async () => {
    const p = await player(100_00);
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_SIGNATURE', { signature: null });
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_SIGNATURE', { signature: 'AAAA' });
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_SIGNATURE', { signer: { authKind: 'hmac', secret: 'another-secret-of-someone' } });
    const now = Math.floor(Date.now() / 1000);
    // Outside the window by a minute more than it allows, read at each call: a slow machine's seconds between
    // reading the clock and the call do not bring a stamp back inside it.
    const at = (offset: number) => Math.floor(Date.now() / 1000) + offset;
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_SIGNATURE', { timestamp: at(-360) });
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_SIGNATURE', { timestamp: at(360) });
    // The signature covers the body: the same signature on other bytes fails.
    const body = betBody(p);
    const sig = (await import('../src/modules/casino/index')).signWalletBody(c.signer, now, JSON.stringify(body));
    await refused(p, 'transaction/bet', { ...body, amount: 99_00 }, 'RS_ERROR_INVALID_SIGNATURE', { signature: sig, timestamp: now });
    // Inside the window it is taken.
    expect((await c.call('transaction/bet', betBody(p), { timestamp: now - 290 })).body.status).toBe('RS_OK');
  });

  it('verifies RSA-SHA256 signatures with the provider\'s public key', async () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const [prov] = await t.database.db
      .insert(casinoProviders)
      .values({ code: 'rsa-studio', name: 'RSA Studio', authKind: 'rsa', publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(), launchUrl: 'https://rsa.example/launch' })
      .returning();
    const [g] = await t.database.db.insert(casinoGames).values({ providerId: prov!.id, gameCode: 'rsa-slot', name: 'RSA Slot', rtpBps: 9600, minBet: 1_00, maxBet: 1_000_00 }).returning();
    const rsa = new WalletClient(t, { authKind: 'rsa', privateKey }, 'rsa-studio');
    const b = await makeBettor(t, w.agentA, { cash: 100_00 });
    const s = await session(t, b.id, g!.id);
    const p = { id: b.id, user: String(b.id), token: s.token };
    const body = { request_uuid: uid(), token: p.token, user: p.user, game_code: 'rsa-slot', round: 'rsa-1', transaction_uuid: uid(), currency: 'TZS', amount: 10_00 };
    await refused(p, 'transaction/bet', body, 'RS_ERROR_INVALID_SIGNATURE', { signer: { authKind: 'rsa', privateKey: other.privateKey } }, rsa);
    // The sandbox's HMAC secret does not sign for an RSA provider.
    await refused(p, 'transaction/bet', body, 'RS_ERROR_INVALID_SIGNATURE', { signer: c.signer }, rsa);
    expect((await rsa.call('transaction/bet', body)).body).toMatchObject({ status: 'RS_OK', balance: 90_00 });
    // A session of another provider's game is not a token here.
    const sb = await player(10_00);
    await refused(sb, 'transaction/bet', { ...body, token: sb.token, user: sb.user, transaction_uuid: uid() }, 'RS_ERROR_INVALID_TOKEN', {}, rsa);
  });

  it('RS_ERROR_INVALID_PARTNER: unknown or disabled provider, an IP outside the allow-list, admin credentials, a browser', async () => {
    const p = await player(100_00);
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_PARTNER', { provider: 'nobody' });
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_PARTNER', { headers: { authorization: `Bearer ${token}` } });
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_PARTNER', { headers: { cookie: 'session=abc' } });
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_PARTNER', { headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' } });
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_PARTNER', { headers: { origin: 'https://console.example' } });
    // Node's own fetch sends Sec-Fetch-Mode: a provider written with it is not a browser.
    const node = await c.call('user/balance', { request_uuid: 'node-fetch', token: p.token, game_code: game.gameCode }, { headers: { 'sec-fetch-mode': 'cors' } });
    expect(node.body.status).toBe('RS_OK');
    await t.database.db.update(casinoProviders).set({ allowedIps: ['10.20.0.0/16', '192.0.2.7'] }).where(eq(casinoProviders.code, 'sandbox'));
    forget();
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_PARTNER');
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_PARTNER', { ip: '10.21.0.1' });
    expect((await c.call('transaction/bet', betBody(p, { round: 'ip-1' }), { ip: '10.20.3.4' })).body.status).toBe('RS_OK');
    expect((await c.call('transaction/bet', betBody(p, { round: 'ip-2' }), { ip: '192.0.2.7' })).body.status).toBe('RS_OK');
    await t.database.db.update(casinoProviders).set({ allowedIps: [], enabled: false }).where(eq(casinoProviders.code, 'sandbox'));
    forget();
    await refused(p, 'transaction/bet', betBody(p), 'RS_ERROR_INVALID_PARTNER');
    await t.database.db.update(casinoProviders).set({ enabled: true }).where(eq(casinoProviders.code, 'sandbox'));
    forget();
  });
});

describe('operator routes', () => {
  // The agents' role may see the casino's pages: every case of this block, in any order.
  beforeAll(() => grantKeys(t, w.agentRole, ['casino', 'casino_list', 'casino_order', 'casino_order:detail', 'casino_order_details']));

  it('opens a session for a bettor of my branch with its launch URL; another branch is refused', async () => {
    const agentA = await t.login('agent_a');
    const mine = await makeBettor(t, w.agentA1, { cash: 10_00 });
    const theirs = await makeBettor(t, w.agentB, { cash: 10_00 });
    const ok = await t.call('POST', '/api/v1/casino/sessions', { token: agentA, body: { bettor_id: mine.id, game_id: game.id, lang: 'sw-KE' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const url = new URL(ok.body.launch_url);
    expect(url.searchParams.get('token')).toBe(ok.body.token);
    expect(url.searchParams.get('game')).toBe(game.gameCode);
    expect(url.searchParams.get('lang')).toBe('sw-KE');
    expect(ok.body.currency).toBe('TZS');
    expect(new Date(ok.body.expires_at).getTime() - Date.now()).toBeGreaterThan(3.9 * 3_600_000);
    const before = await t.database.db.select({ n: count() }).from(sql`casino_sessions`);
    expect((await t.call('POST', '/api/v1/casino/sessions', { token: agentA, body: { bettor_id: theirs.id, game_id: game.id } })).status).toBe(403);
    expect((await t.call('POST', '/api/v1/casino/sessions', { token: agentA, body: { bettor_id: mine.id, game_id: 999_999 } })).status).toBe(404);
    expect(await t.database.db.select({ n: count() }).from(sql`casino_sessions`)).toEqual(before);
    // The token plays.
    const bal = await c.call('user/balance', { request_uuid: 'x', token: ok.body.token });
    expect(bal.body).toMatchObject({ status: 'RS_OK', user: String(mine.id), balance: 10_00 });
  });

  it('lists rounds of my branch with filters and shows a round with every transaction and its bill', async () => {
    const agentA = await t.login('agent_a');
    const mine = await player(100_00, w.agentA1);
    const theirs = await player(100_00, w.agentB);
    const bet = betBody(mine, { round: 'list-mine', amount: 10_00 });
    await c.call('transaction/bet', bet);
    await c.call('transaction/win', winBody(mine, bet.transaction_uuid, { round: 'list-mine', amount: 0 }));
    await c.call('transaction/win', winBody(mine, bet.transaction_uuid, { round: 'list-mine', amount: 12_00 }));
    await c.call('transaction/bet', betBody(theirs, { round: 'list-theirs' }));
    const list = await t.call('GET', '/api/v1/casino/rounds?page=1&page_size=100', { token: agentA });
    expect(list.status).toBe(200);
    const refs = list.body.items.map((r: { round_ref: string }) => r.round_ref);
    expect(refs).toContain('list-mine');
    expect(refs).not.toContain('list-theirs');
    const filtered = await t.call('GET', `/api/v1/casino/rounds?round_ref=list-mine&bettor_id=${mine.id}&status=1&game_id=${game.id}`, { token: agentA });
    expect(filtered.body.items).toHaveLength(1);
    const row = filtered.body.items[0];
    expect(row).toMatchObject({ round_ref: 'list-mine', bet_total: 10_00, win_total: 12_00, net: 2_00, status: 1, game_name: game.name, provider: 'Sandbox provider' });
    const [b] = await t.database.db.select({ phone: bettors.phone }).from(bettors).where(eq(bettors.id, mine.id));
    expect((await t.call('GET', `/api/v1/casino/rounds?phone=${b!.phone}`, { token: agentA })).body.items).toHaveLength(1);
    const detail = await t.call('GET', `/api/v1/casino/rounds/${row.id}`, { token: agentA });
    expect(detail.status).toBe(200);
    expect(detail.body.transactions.map((x: { kind: string; amount: number; bill_serial: string | null }) => [x.kind, x.amount, x.bill_serial !== null])).toEqual([
      ['bet', 10_00, true], ['win', 0, false], ['win', 12_00, true],
    ]);
    const serials = (await t.database.db.select({ s: bills.serialNumber }).from(bills).where(eq(bills.bettorId, mine.id))).map((x) => x.s);
    expect(serials).toContain(detail.body.transactions[0].bill_serial);
    const [their] = await t.database.db.select({ id: casinoRounds.id }).from(casinoRounds).where(eq(casinoRounds.roundRef, 'list-theirs'));
    expect((await t.call('GET', `/api/v1/casino/rounds/${their!.id}`, { token: agentA })).status).toBe(404);
    expect((await t.call('GET', `/api/v1/casino/rounds/${their!.id}`, { token })).status).toBe(200);
  });

  it('exports the rounds of the asker\'s branch through the background exports', async () => {
    const exported = async (tok: string) => {
      const r = await t.call('POST', '/api/v1/exports', { token: tok, body: { type: 'casino_order', format: 1, params: {} } });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      return exportFinished(t, r.body.id);
    };
    await grantKeys(t, w.agentRole, ['casino_order', 'casino_order:export']);
    // A round in the asker's branch and one in another, whatever the other cases played.
    await c.call('transaction/bet', betBody(await player(100_00, w.agentA1), { round: 'export-mine' }));
    await c.call('transaction/bet', betBody(await player(100_00, w.agentB), { round: 'export-theirs' }));
    const all = await t.database.db.select({ agentId: casinoRounds.agentId }).from(casinoRounds);
    expect((await exported(token)).rowCount).toBe(all.length);
    const mine = all.filter((r) => r.agentId === w.agentA || r.agentId === w.agentA1).length;
    expect(mine).toBeGreaterThan(0);
    const run = await exported(await t.login('agent_a'));
    expect(run).toMatchObject({ status: 2, rowCount: mine });
    expect(mine).toBeLessThan(all.length);
  });

  it('never answers, exports or audits a provider\'s secret; an empty secret on edit keeps it', async () => {
    const [prov] = await t.database.db.select().from(casinoProviders).where(eq(casinoProviders.code, 'sandbox'));
    const list = await t.call('GET', '/api/v1/casino/providers', { token });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(prov!.secret);
    expect(list.body.items[0]).not.toHaveProperty('secret');
    const one = await t.call('GET', `/api/v1/casino/providers/${prov!.id}`, { token });
    expect(one.body).not.toHaveProperty('secret');
    const keep = await approved(t, 'PUT', `/api/v1/casino/providers/${prov!.id}`, { token, body: { name: 'Sandbox provider', secret: '', allowed_ips: '' } });
    expect(keep.status, JSON.stringify(keep.body)).toBe(200);
    const [same] = await t.database.db.select().from(casinoProviders).where(eq(casinoProviders.id, prov!.id));
    expect(same!.secret).toBe(prov!.secret);
    const p = await player(10_00);
    expect((await c.call('user/balance', { request_uuid: 'k', token: p.token })).body.status).toBe('RS_OK');
    // A new secret: the old one no longer signs, the new one does.
    const fresh = 'a-brand-new-shared-secret-0123456789';
    const changed = await approved(t, 'PUT', `/api/v1/casino/providers/${prov!.id}`, { token, body: { secret: fresh } });
    expect(changed.status).toBe(200);
    expect(JSON.stringify(changed.body)).not.toContain(fresh);
    await refused(p, 'user/balance', { request_uuid: 'k', token: p.token }, 'RS_ERROR_INVALID_SIGNATURE');
    const c2 = new WalletClient(t, { authKind: 'hmac', secret: fresh });
    expect((await c2.call('user/balance', { request_uuid: 'k', token: p.token })).body.status).toBe('RS_OK');
    const logs = await t.database.db.select().from(systemLogs);
    expect(JSON.stringify(logs)).not.toContain(fresh);
    // Bad values are refused.
    for (const body of [{ allowed_ips: '10.0.0.0/33' }, { auth_kind: 'md5' }, { launch_url: 'javascript:alert(1)' }, { secret: 'short' }, { auth_kind: 'rsa', public_key: 'nope' }]) {
      expect((await approved(t, 'PUT', `/api/v1/casino/providers/${prov!.id}`, { token, body })).status, JSON.stringify(body)).toBe(400);
    }
    // Restore the seeded secret for the other tests.
    await t.database.db.update(casinoProviders).set({ secret: prov!.secret }).where(eq(casinoProviders.id, prov!.id));
    forget();
  });

  it('adds a provider: a unique code, a secret for HMAC; its calls are signed with its own secret and never the others\'', async () => {
    const secret = 'the-new-studio-shared-secret-0001';
    for (const body of [
      { code: 'bad code', name: 'X', auth_kind: 'hmac', secret, currency: 'TZS' },
      { code: 'sandbox', name: 'X', auth_kind: 'hmac', secret, currency: 'TZS' },
      { code: 'nosecret', name: 'X', auth_kind: 'hmac', currency: 'TZS' },
    ]) {
      expect((await approved(t, 'POST', '/api/v1/casino/providers', { token, body })).status, JSON.stringify(body)).toBe(400);
    }
    const made = await approved(t, 'POST', '/api/v1/casino/providers', { token, body: { code: 'new-studio', name: 'New Studio', auth_kind: 'hmac', secret, currency: 'TZS', enabled: true } });
    expect(made.status).toBe(201);
    expect(JSON.stringify(made.body)).not.toContain(secret);
    forget();
    const p = await player(10_00);
    const mine = new WalletClient(t, { authKind: 'hmac', secret }, 'new-studio');
    // The session is the sandbox provider's: the new provider may not use it, whatever it signs.
    expect((await mine.call('user/balance', { request_uuid: 'n1', token: p.token })).body.status).toBe('RS_ERROR_INVALID_TOKEN');
    // The sandbox's secret does not sign for the new provider.
    const foreign = new WalletClient(t, c.signer, 'new-studio');
    expect((await foreign.call('user/balance', { request_uuid: 'n2', token: p.token })).body.status).toBe('RS_ERROR_INVALID_SIGNATURE');
  });

  it('serves categories, games and settings through the resource layer', async () => {
    const cats = await t.call('GET', '/api/v1/casino/categories?page=1&page_size=20', { token });
    expect(cats.body.items.map((x: { name_en: string }) => x.name_en)).toEqual(['Slots', 'Crash', 'Roulette', 'Live']);
    expect(cats.body.items[3]).toMatchObject({ name_sw: 'Mubashara', name_zh: '真人游戏' });
    const games = await t.call('GET', '/api/v1/casino/games?page=1&page_size=20', { token });
    expect(games.body.total).toBeGreaterThanOrEqual(6);
    const kinds = new Set(games.body.items.map((g: { kind: string }) => g.kind));
    expect([...kinds].sort()).toEqual(['crash', 'roulette', 'slot']);
    for (const g of games.body.items.filter((x: { provider_id: number }) => x.provider_id === game.providerId)) {
      expect(g.rtp_bps).toBeGreaterThanOrEqual(9400);
      expect(g.rtp_bps).toBeLessThanOrEqual(9700 + 30);
    }
    const bad = await t.call('POST', '/api/v1/casino/games', { token, body: { provider_id: game.providerId, game_code: game.gameCode, name: 'Dup', kind: 'slot', rtp_bps: 9600, volatility: 2 } });
    expect(bad.status).toBe(400);
    const settings = await t.call('GET', '/api/v1/casino/settings', { token });
    expect(settings.body).toMatchObject({ casino_enabled: true, rtp_alert_confidence: 9990 });
  });
});
