/**
 * The sandbox game provider against the real wallet (issue 13): the app listens on a port, the sandbox
 * provider runs its own HTTP server and calls the wallet over HTTP with HMAC signatures, with every
 * failure kind at a high rate (duplicates, dropped answers retried, rollbacks, late wins after round/end,
 * rollbacks before their bet). Then every round of the provider's book ended completed or rolled back at
 * the wallet exactly as the provider meant it, the rounds' totals are their transactions', every
 * transaction's bill exists once, the bettors' balances are the sum of their bills and the ledger's
 * invariants hold. PGlite by default, PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { mulberry32 } from '@dau/domain';
import { createTestApp, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { checkSandboxRounds } from './support/casino-sandbox.js';
import { waitFor } from './support/processes.js';
import { admins } from '../src/platform/schema.js';
import { bettors } from '../src/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { casinoGames, casinoProviders } from '../src/modules/casino/schema.js';
import { openSession } from '../src/modules/casino/service.js';
import { casinoSandboxOutbox } from '../src/modules/casino-sandbox/schema.js';
import { startSandboxGameProvider, type SandboxGameProvider } from '../src/modules/casino-sandbox/server.js';
import { NO_FAILURES, planRound, type FailureRates } from '../src/modules/casino-sandbox/rounds.js';
import { HISTORY_ROUNDS, HISTORY_SESSIONS, casinoDue, simulateCasino } from '../src/simulator/casino.js';
import { Rng } from '../src/simulator/rng.js';
import { casinoRounds } from '../src/modules/casino/schema.js';

const FUNDS = 5_000_000_00;
const RATES: FailureRates = { duplicate: 0.3, timeout: 0.3, rollback: 0.15, lateWin: 0.15, outOfOrder: 0.1 };

describe('sandbox game provider: the round script', () => {
  const game = { gameCode: 'g', kind: 'slot' as const, rtpBps: 9_600, volatility: 3 as const };
  const plan = (rates: FailureRates, seed: number) => planRound({ token: 't', user: '7', game, stake: 1_000_00, rng: mulberry32(seed), rates, lateMs: 5_000, now: new Date(0) });
  it('pays floor(stake × multiplier) in win calls that add up to it, then ends the round', () => {
    for (let seed = 1; seed < 500; seed++) {
      const r = plan(NO_FAILURES, seed);
      expect(r.script).toBe('normal');
      expect(r.payout).toBe(Math.floor(1_000_00 * r.multiplier + 1e-9));
      expect(r.wins.reduce((s, w) => s + w, 0)).toBe(r.payout);
      expect(r.calls[0]!.call).toBe('transaction/bet');
      expect(r.calls.at(-1)!.call).toBe('round/end');
      expect(r.calls.filter((c) => c.call === 'transaction/win').map((c) => JSON.parse(c.body).amount)).toEqual(r.wins);
      const bet = JSON.parse(r.calls[0]!.body);
      expect(bet).toMatchObject({ token: 't', user: '7', game_code: 'g', round: r.roundRef, amount: 1_000_00, currency: 'TZS' });
      for (const w of r.calls.filter((c) => c.call === 'transaction/win')) expect(JSON.parse(w.body).reference_transaction_uuid).toBe(bet.transaction_uuid);
      expect(new Set(r.calls.map((c) => c.transactionUuid).filter(Boolean)).size).toBe(r.calls.filter((c) => c.transactionUuid).length);
    }
  });
  it('writes each failure script in its order', () => {
    const only = (k: keyof FailureRates) => ({ ...NO_FAILURES, [k]: 1 });
    expect(plan(only('rollback'), 3).calls.map((c) => c.call)).toEqual(['transaction/bet', 'transaction/rollback']);
    const late = plan(only('lateWin'), 4);
    expect(late.calls.slice(0, 2).map((c) => c.call)).toEqual(['transaction/bet', 'round/end']);
    expect(late.calls.slice(2).every((c) => c.call === 'transaction/win' && c.notBefore.getTime() === 5_000)).toBe(true);
    expect(late.calls.length).toBeGreaterThan(2);
    const ooo = plan(only('outOfOrder'), 5);
    expect(ooo.calls.map((c) => c.call)).toEqual(['transaction/rollback', 'transaction/bet', 'round/end']);
    expect(JSON.parse(ooo.calls[0]!.body).reference_transaction_uuid).toBe(ooo.calls[1]!.transactionUuid);
    const dup = plan(only('duplicate'), 6);
    expect(dup.calls.filter((c) => c.duplicates === 1)).toHaveLength(1);
    const to = plan(only('timeout'), 7);
    expect(to.calls.filter((c) => c.dropAnswers >= 1)).toHaveLength(1);
  });
});

describe('sandbox game provider against the wallet (over HTTP, every failure kind)', () => {
  let t: TestApp;
  let sandbox: SandboxGameProvider;
  let walletUrl: string;
  const players: { id: number }[] = [];
  const sessions: { token: string; game: string; bettorId: number }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    walletUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const db = t.database.db;
    const [root] = await db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    for (let i = 0; i < 3; i++) players.push(await makeBettor(t, root!.id, { cash: FUNDS }));
    const games = await db
      .select({ id: casinoGames.id, code: casinoGames.gameCode, kind: casinoGames.kind })
      .from(casinoGames)
      .innerJoin(casinoProviders, eq(casinoProviders.id, casinoGames.providerId))
      .where(eq(casinoProviders.code, 'sandbox'));
    expect(new Set(games.map((g) => g.kind))).toEqual(new Set(['slot', 'crash', 'roulette']));
    for (const [i, p] of players.entries()) {
      for (const g of games.filter((_, j) => j % players.length === i || games.length <= players.length)) {
        const s = await openSession(db, p.id, g.id);
        sessions.push({ token: s.token, game: g.code, bettorId: p.id });
      }
    }
    sandbox = await startSandboxGameProvider({ db, walletUrl, port: 0, rates: RATES, lateMs: 300, backoffMs: 20, maxBackoffMs: 300, rng: mulberry32(2026) });
  });

  afterAll(async () => {
    await sandbox?.stop();
    await t?.close();
  });

  it('opens the launch page of a session, and refuses an unknown token', async () => {
    const s = sessions[0]!;
    const html = await fetch(`${sandbox.url}/?token=${encodeURIComponent(s.token)}&game=${s.game}&lang=sw-KE`);
    expect(html.status).toBe(200);
    expect(await html.text()).toContain('Balance: TSh 5000000.00');
    const json = await fetch(`${sandbox.url}/launch?token=${encodeURIComponent(s.token)}&game=${s.game}`, { headers: { accept: 'application/json' } });
    expect(await json.json()).toMatchObject({ provider: 'sandbox game provider', status: 'playing', balance: FUNDS, wallet_status: 'RS_OK' });
    const bad = await fetch(`${sandbox.url}/launch?token=nope&game=${s.game}`, { headers: { accept: 'application/json' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ status: 'refused', wallet_status: 'RS_ERROR_INVALID_TOKEN' });
    const play = await fetch(`${sandbox.url}/play`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'nope', game: s.game }) });
    expect(play.status).toBe(409);
    expect(await play.json()).toMatchObject({ status: 'RS_ERROR_INVALID_TOKEN', rounds: [] });
    const badBody = await fetch(`${sandbox.url}/play`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: s.token, game: s.game, rounds: -1 }) });
    expect(badBody.status).toBe(400);
  });

  it('settles every round exactly once: completed or rolled back, totals = transactions = bills, balances = Σ bills', { timeout: 600_000 }, async () => {
    const played: string[] = [];
    for (let wave = 0; wave < 3; wave++) {
      const answers = await Promise.all(
        sessions.map(async (s) => {
          const res = await fetch(`${sandbox.url}/play`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ token: s.token, game: s.game, rounds: 12, stake: 1_000_00 + wave * 100 }),
          });
          expect(res.status).toBe(200);
          return (await res.json()) as { rounds: { round: string }[] };
        }),
      );
      for (const a of answers) played.push(...a.rounds.map((r) => r.round));
    }
    expect(played.length).toBe(sessions.length * 36);
    const db = t.database.db;
    const pending = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(casinoSandboxOutbox).where(eq(casinoSandboxOutbox.state, 1)))[0]!.n;
    await waitFor('the sandbox outbox drained', async () => (await pending()) === 0, { intervalMs: 200 });

    const report = await checkSandboxRounds(db);
    expect(report.problems).toEqual([]);
    expect(report.rounds).toBe(played.length);
    // Every failure kind happened, and the duplicates were answered as the first call.
    for (const script of ['normal', 'rollback', 'late_win', 'out_of_order']) expect(report.byScript[script] ?? 0, script).toBeGreaterThan(0);
    expect(report.duplicates).toBeGreaterThan(0);
    expect(report.dropped).toBeGreaterThan(0);
    expect(sandbox.outbox.stats.duplicateMismatches).toBe(0);

    // The bettors' money: what they had, minus the bets kept, plus the wins.
    const rows = await db.select({ id: bettors.id, cash: bettors.cashBalance }).from(bettors).where(sql`${bettors.id} in ${players.map((p) => p.id)}`);
    const cash = rows.reduce((s, r) => s + r.cash, 0);
    expect(cash).toBe(players.length * FUNDS - report.betTotal + report.winTotal);
    expect(await checkInvariants(db)).toEqual([]);

    // Replaying an answered call changes nothing: the wallet answers the stored answer.
    const [bet] = await db
      .select()
      .from(casinoSandboxOutbox)
      .where(and(eq(casinoSandboxOutbox.call, 'transaction/bet'), eq(casinoSandboxOutbox.answerStatus, 'RS_OK')))
      .limit(1);
    await db.update(casinoSandboxOutbox).set({ state: 1, nextAttemptAt: new Date() }).where(eq(casinoSandboxOutbox.id, bet!.id));
    sandbox.outbox.kick();
    await waitFor('the replayed bet answered', async () => (await pending()) === 0, { intervalMs: 100 });
    const [again] = await db.select().from(casinoSandboxOutbox).where(eq(casinoSandboxOutbox.id, bet!.id));
    expect(again).toMatchObject({ answerStatus: 'RS_OK', answerBalance: bet!.answerBalance });
    expect((await checkSandboxRounds(db)).problems).toEqual([]);
    const after = await db.select({ cash: bettors.cashBalance }).from(bettors).where(sql`${bettors.id} in ${players.map((p) => p.id)}`);
    expect(after.reduce((s, r) => s + r.cash, 0)).toBe(cash);
  });
});

describe('simulator: a fresh install gets casino history through the sandbox provider', () => {
  let t: TestApp;
  let sandbox: SandboxGameProvider;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const walletUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const db = t.database.db;
    const [root] = await db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    for (let i = 0; i < 5; i++) await makeBettor(t, root!.id, { cash: 1_000_000_00 });
    sandbox = await startSandboxGameProvider({ db, walletUrl, port: 0, lateMs: 100, backoffMs: 20, maxBackoffMs: 200 });
    // The seeded provider's launch URL points at this sandbox (main.ts listens where it points).
    await db.update(casinoProviders).set({ launchUrl: sandbox.url }).where(eq(casinoProviders.code, 'sandbox'));
  });

  afterAll(async () => {
    await sandbox?.stop();
    await t?.close();
  });

  it('plays the history at the first casino tick, then a light rate', { timeout: 600_000 }, async () => {
    const db = t.database.db;
    expect(casinoDue(0.1)).toBe(true); // before the history: any tick
    await simulateCasino(t.ctx, new Rng(7));
    expect(casinoDue(0.1)).toBe(false);
    expect(casinoDue(0.8)).toBe(true);
    await waitFor('the history settled', async () => (await db.select({ n: sql<number>`count(*)::int` }).from(casinoSandboxOutbox).where(eq(casinoSandboxOutbox.state, 1)))[0]!.n === 0, {
      intervalMs: 200,
    });
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(casinoRounds);
    expect(n).toBeGreaterThan(HISTORY_SESSIONS * HISTORY_ROUNDS * 0.8); // out-of-order rounds never reach the wallet
    const report = await checkSandboxRounds(db);
    expect(report.problems).toEqual([]);
    expect(report.rounds).toBe(HISTORY_SESSIONS * HISTORY_ROUNDS);
    // A second tick plays one short session, not the history again.
    await simulateCasino(t.ctx, new Rng(8));
    const [{ rows }] = await db.select({ rows: sql<number>`count(DISTINCT round_ref)::int` }).from(casinoSandboxOutbox);
    expect(rows).toBeGreaterThan(HISTORY_SESSIONS * HISTORY_ROUNDS);
    expect(rows).toBeLessThanOrEqual(HISTORY_SESSIONS * HISTORY_ROUNDS + 6);
    expect(await checkInvariants(db)).toEqual([]);
  });
});
