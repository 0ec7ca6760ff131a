/**
 * Casino reports and the RTP watch (issue 13) through the app, on PGlite and, with TEST_DATABASE_URL,
 * PostgreSQL:
 *  - casino_game / casino_user figures exact on a data set worked out by hand (rounds written directly:
 *    the reports read casino_rounds only), a rolled-back round and a round outside the period left out;
 *    the branch scope of an agent; filters (provider, game, phone), sorts, totals; the background export;
 *  - the RTP watch: a game pushed outside its band is stored as outside and alerts the super admins and
 *    the casino_game holders once; a game staying outside does not alert again; back inside and out again
 *    alerts again; the chart route answers the series.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { CASINO_ROUND_STATUS } from '@dau/domain';
import { casinoGames, casinoProviders, casinoRounds, casinoRtpChecks } from '../src/modules/casino/schema';
import { watchRtp, RTP_MIN_ROUNDS } from '../src/modules/casino/rtp-watch';
import { notifications } from '../src/modules/notices/schema.js';
import { ADMIN_PASSWORD, createTestApp, exportFinished, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers';
import { grantKeys } from './payments-fixtures';
import { makeBettor } from './money-helpers';

let t: TestApp;
let token: string;
let tokenA: string;
let tokenB: string;
let w: Awaited<ReturnType<typeof makeWorld>>;
const ids = { p1: 0, p2: 0, g1: 0, g2: 0, g3: 0, b1: 0, b2: 0, b3: 0 };
const phones = { b1: '255711000001', b2: '255711000002', b3: '255711000003' };

const DAY0 = '2026-03-01T00:00:00Z';
const DAY1 = '2026-03-02T00:00:00Z';
const DAY2 = '2026-03-03T00:00:00Z';
const at = (day: string, h: number) => new Date(Date.parse(day) + h * 3_600_000);
const period = `created_at_from=${encodeURIComponent(DAY1)}&created_at_to=${encodeURIComponent(DAY2)}`;

let roundSeq = 0;
async function round(gameId: number, bettorId: number, agentId: number, bet: number, win: number, createdAt: Date, status: number = CASINO_ROUND_STATUS.completed) {
  const [g] = await t.database.db.select({ providerId: casinoGames.providerId }).from(casinoGames).where(eq(casinoGames.id, gameId));
  roundSeq += 1;
  await t.database.db.insert(casinoRounds).values({ providerId: g.providerId, roundRef: `r${roundSeq}`, gameId, bettorId, agentId, betTotal: bet, winTotal: win, status, createdAt, updatedAt: createdAt });
}

async function game(providerId: number, code: string, name: string, rtpBps: number, volatility = 2) {
  const [g] = await t.database.db.insert(casinoGames).values({ providerId, gameCode: code, name, rtpBps, volatility, kind: 'slot' }).returning({ id: casinoGames.id });
  return g.id;
}

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, ['casino', 'casino_game', 'casino_game:export', 'casino_user', 'casino_user:export']);
  tokenA = await t.login('agent_a');
  tokenB = await t.login('agent_b');
  const db = t.database.db;
  const [p1] = await db.insert(casinoProviders).values({ code: 'alpha', name: 'Alpha Studio' }).returning({ id: casinoProviders.id });
  const [p2] = await db.insert(casinoProviders).values({ code: 'beta', name: 'Beta Games' }).returning({ id: casinoProviders.id });
  ids.p1 = p1.id;
  ids.p2 = p2.id;
  ids.g1 = await game(p1.id, 'fruit', 'Fruit Slot', 9600);
  ids.g2 = await game(p1.id, 'rocket', 'Rocket Crash', 9700);
  ids.g3 = await game(p2.id, 'wheel', 'Wheel', 9730);
  ids.b1 = (await makeBettor(t, w.agentA, { phone: phones.b1 })).id;
  ids.b2 = (await makeBettor(t, w.agentA1, { phone: phones.b2 })).id;
  ids.b3 = (await makeBettor(t, w.agentB, { phone: phones.b3 })).id;
  // The data set (cents): see the expectations below.
  await round(ids.g1, ids.b1, w.agentA, 1000, 0, at(DAY1, 10));
  await round(ids.g1, ids.b1, w.agentA, 2000, 5000, at(DAY1, 11));
  await round(ids.g1, ids.b2, w.agentA1, 500, 400, at(DAY1, 12));
  await round(ids.g1, ids.b3, w.agentB, 3000, 0, at(DAY1, 13));
  await round(ids.g2, ids.b3, w.agentB, 1500, 1200, at(DAY1, 14));
  await round(ids.g3, ids.b1, w.agentA, 700, 0, at(DAY1, 15), CASINO_ROUND_STATUS.open);
  // Rolled back: not counted.
  await round(ids.g1, ids.b1, w.agentA, 900, 0, at(DAY1, 16), CASINO_ROUND_STATUS.rolled_back);
  // Before the period: not counted.
  await round(ids.g2, ids.b2, w.agentA1, 10_000, 0, at(DAY0, 12));
});
afterAll(async () => {
  await t?.close();
});

const pick = (rows: any[], keys: string[]) => rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])));
const GAME_KEYS = ['game_id', 'provider_id', 'rounds', 'players', 'turnover', 'payouts', 'ggr', 'actual_rtp_bps', 'theoretical_rtp_bps'];
const USER_KEYS = ['bettor_id', 'phone', 'rounds', 'games', 'turnover', 'payouts', 'ggr', 'last_played'];

describe('casino_game report', () => {
  it('answers rounds, players, turnover, payouts, GGR and actual next to theoretical RTP per game, most turnover first', async () => {
    const r = await t.call('GET', `/api/v1/casino/reports/games?${period}`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.total).toBe(3);
    expect(pick(r.body.items, GAME_KEYS)).toEqual([
      // 1000/0 + 2000/5000 + 500/400 + 3000/0: RTP 5400/6500 = 83.08 %
      { game_id: ids.g1, provider_id: ids.p1, rounds: 4, players: 3, turnover: 6500, payouts: 5400, ggr: 1100, actual_rtp_bps: 8308, theoretical_rtp_bps: 9600 },
      { game_id: ids.g2, provider_id: ids.p1, rounds: 1, players: 1, turnover: 1500, payouts: 1200, ggr: 300, actual_rtp_bps: 8000, theoretical_rtp_bps: 9700 },
      // An open round counts with what it moved so far.
      { game_id: ids.g3, provider_id: ids.p2, rounds: 1, players: 1, turnover: 700, payouts: 0, ggr: 700, actual_rtp_bps: 0, theoretical_rtp_bps: 9730 },
    ]);
    expect(r.body.items[0]).toMatchObject({ game_name: 'Fruit Slot', game_code: 'fruit', provider_name: 'Alpha Studio', provider_code: 'alpha' });
    const totals = await t.call('GET', `/api/v1/casino/reports/games/totals?${period}`, { token });
    expect(totals.body).toEqual({ rounds: 6, players: 3, games: 3, turnover: 8700, payouts: 6600, ggr: 2100, actual_rtp_bps: 7586 });
  });

  it("shows an agent only the rounds of their branch's bettors", async () => {
    const a = await t.call('GET', `/api/v1/casino/reports/games?${period}`, { token: tokenA });
    expect(a.status).toBe(200);
    expect(pick(a.body.items, GAME_KEYS)).toEqual([
      // b1 (agent A) and b2 (sub-agent A1): 1000/0 + 2000/5000 + 500/400
      { game_id: ids.g1, provider_id: ids.p1, rounds: 3, players: 2, turnover: 3500, payouts: 5400, ggr: -1900, actual_rtp_bps: 15429, theoretical_rtp_bps: 9600 },
      { game_id: ids.g3, provider_id: ids.p2, rounds: 1, players: 1, turnover: 700, payouts: 0, ggr: 700, actual_rtp_bps: 0, theoretical_rtp_bps: 9730 },
    ]);
    const b = await t.call('GET', `/api/v1/casino/reports/games?${period}`, { token: tokenB });
    expect(pick(b.body.items, ['game_id', 'rounds', 'turnover', 'payouts'])).toEqual([
      { game_id: ids.g1, rounds: 1, turnover: 3000, payouts: 0 },
      { game_id: ids.g2, rounds: 1, turnover: 1500, payouts: 1200 },
    ]);
    const bTotals = await t.call('GET', `/api/v1/casino/reports/games/totals?${period}`, { token: tokenB });
    expect(bTotals.body).toMatchObject({ rounds: 2, players: 1, turnover: 4500, payouts: 1200, ggr: 3300 });
    // Without the permission: refused.
    const limited = await t.login('limited');
    expect((await t.call('GET', `/api/v1/casino/reports/games?${period}`, { token: limited })).status).toBe(403);
  });

  it('filters by provider, game and phone, sorts by any figure, and reads every period when none is given', async () => {
    const byProvider = await t.call('GET', `/api/v1/casino/reports/games?${period}&provider_id=${ids.p2}`, { token });
    expect(byProvider.body.items.map((x: any) => x.game_id)).toEqual([ids.g3]);
    const byGame = await t.call('GET', `/api/v1/casino/reports/games?${period}&game_id=${ids.g2}`, { token });
    expect(pick(byGame.body.items, ['game_id', 'turnover'])).toEqual([{ game_id: ids.g2, turnover: 1500 }]);
    const byPhone = await t.call('GET', `/api/v1/casino/reports/games?${period}&phone=0711000001`, { token });
    expect(pick(byPhone.body.items, ['game_id', 'rounds', 'players', 'turnover', 'payouts'])).toEqual([
      { game_id: ids.g1, rounds: 2, players: 1, turnover: 3000, payouts: 5000 },
      { game_id: ids.g3, rounds: 1, players: 1, turnover: 700, payouts: 0 },
    ]);
    const byRtp = await t.call('GET', `/api/v1/casino/reports/games?${period}&sort=-actual_rtp_bps`, { token });
    expect(byRtp.body.items.map((x: any) => x.game_id)).toEqual([ids.g1, ids.g2, ids.g3]);
    const byGgr = await t.call('GET', `/api/v1/casino/reports/games?${period}&sort=ggr`, { token });
    expect(byGgr.body.items.map((x: any) => x.game_id)).toEqual([ids.g2, ids.g3, ids.g1]);
    const paged = await t.call('GET', `/api/v1/casino/reports/games?${period}&page_size=2&page=2`, { token });
    expect(paged.body).toMatchObject({ total: 3, page: 2 });
    expect(paged.body.items.map((x: any) => x.game_id)).toEqual([ids.g3]);
    // All time: the round of the day before counts (g2: 1500 + 10000).
    const all = await t.call('GET', '/api/v1/casino/reports/games?game_id=' + ids.g2, { token });
    expect(pick(all.body.items, ['rounds', 'players', 'turnover'])).toEqual([{ rounds: 2, players: 2, turnover: 11_500 }]);
    expect((await t.call('GET', `/api/v1/casino/reports/games?sort=nope`, { token })).status).toBe(400);
    expect((await t.call('GET', `/api/v1/casino/reports/games?created_at_from=yesterday`, { token })).status).toBe(400);
    expect((await t.call('GET', `/api/v1/casino/reports/games?provider_id=-1`, { token })).status).toBe(400);
    expect((await t.call('GET', `/api/v1/casino/reports/bettors/totals?game_id=99999999999`, { token })).status).toBe(400);
    const odd = await t.call('GET', `/api/v1/casino/reports/bettors?phone=${encodeURIComponent("0'; drop table bettors;--")}`, { token });
    expect(odd.status).toBe(200);
    expect(odd.body.items).toEqual([]);
  });
});

describe('casino_user report', () => {
  it('answers per bettor rounds, games, turnover, payouts, GGR and last played, in the branch', async () => {
    const r = await t.call('GET', `/api/v1/casino/reports/bettors?${period}`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(pick(r.body.items, USER_KEYS)).toEqual([
      { bettor_id: ids.b3, phone: phones.b3, rounds: 2, games: 2, turnover: 4500, payouts: 1200, ggr: 3300, last_played: at(DAY1, 14).toISOString() },
      { bettor_id: ids.b1, phone: phones.b1, rounds: 3, games: 2, turnover: 3700, payouts: 5000, ggr: -1300, last_played: at(DAY1, 15).toISOString() },
      { bettor_id: ids.b2, phone: phones.b2, rounds: 1, games: 1, turnover: 500, payouts: 400, ggr: 100, last_played: at(DAY1, 12).toISOString() },
    ]);
    const a = await t.call('GET', `/api/v1/casino/reports/bettors?${period}&sort=ggr`, { token: tokenA });
    expect(a.body.items.map((x: any) => x.bettor_id)).toEqual([ids.b1, ids.b2]);
    const last = await t.call('GET', `/api/v1/casino/reports/bettors?${period}&sort=-last_played`, { token });
    expect(last.body.items.map((x: any) => x.bettor_id)).toEqual([ids.b1, ids.b3, ids.b2]);
    const p2 = await t.call('GET', `/api/v1/casino/reports/bettors?${period}&provider_id=${ids.p2}`, { token });
    expect(pick(p2.body.items, ['bettor_id', 'rounds', 'turnover'])).toEqual([{ bettor_id: ids.b1, rounds: 1, turnover: 700 }]);
    const totals = await t.call('GET', `/api/v1/casino/reports/bettors/totals?${period}`, { token: tokenA });
    expect(totals.body).toEqual({ rounds: 4, players: 2, games: 2, turnover: 4200, payouts: 5400, ggr: -1200, actual_rtp_bps: 12857 });
  });
});

describe('exports', () => {
  async function exported(tok: string, type: string, params: Record<string, unknown>) {
    const r = await t.call('POST', '/api/v1/exports', { token: tok, body: { type, format: 1, params } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return exportFinished(t, r.body.id);
  }
  it('exports both reports with the figures and the asker’s branch', async () => {
    const params = { created_at_from: DAY1, created_at_to: DAY2 };
    const all = await exported(token, 'casino_game', params);
    expect(all).toMatchObject({ status: 2, rowCount: 3 });
    const file = await t.call('GET', `/api/v1/system/async_operations/${all.id}/download`, { token });
    expect(file.status).toBe(200);
    const csv = file.res.body.replace(/^\uFEFF/, '');
    // Money columns in TSh (cents / 100).
    expect(csv).toContain('Fruit Slot');
    expect(csv).toMatch(/Alpha Studio,fruit,Fruit Slot,4,3,65(\.00)?,54(\.00)?,11(\.00)?,8308,9600/);
    const b = await exported(tokenB, 'casino_user', params);
    expect(b).toMatchObject({ status: 2, rowCount: 1 });
    const a = await exported(tokenA, 'casino_user', params);
    expect(a.rowCount).toBe(2);
  });
});

describe('RTP watch', () => {
  let listener: number;
  const alerts = () => t.database.db.select().from(notifications).where(like(notifications.content, 'Casino RTP alert%'));
  /** The alerts about one game (each case watches games of its own: a run checks every game). */
  const alertsOf = async (code: string) => (await alerts()).filter((n) => n.content.includes(`(beta/${code})`));
  /** `n` completed rounds of `bet` cents each paying `win` cents each. */
  async function rounds(gameId: number, bettorId: number, agentId: number, n: number, bet: number, win: number) {
    const [g] = await t.database.db.select({ providerId: casinoGames.providerId }).from(casinoGames).where(eq(casinoGames.id, gameId));
    const now = Date.now();
    await t.database.db.insert(casinoRounds).values(
      Array.from({ length: n }, (_, i) => {
        roundSeq += 1;
        return { providerId: g.providerId, roundRef: `w${roundSeq}`, gameId, bettorId, agentId, betTotal: bet, winTotal: win, status: CASINO_ROUND_STATUS.completed, createdAt: new Date(now - 60_000 + i) };
      }),
    );
  }
  /** A game whose 200 rounds of 1.00 each paid 1.50: RTP 150 %, band 96 % ± 3.29 x 1.5 / √200 (±34.9 %). */
  async function hotGame(code: string, name: string) {
    const id = await game(ids.p2, code, name, 9600, 1);
    await rounds(id, ids.b1, w.agentA, 200, 100, 150);
    return id;
  }
  /**
   * Watches `id` (a hot game) leave its band, stay out, come back and leave again: the rounds of each run,
   * and whether it alerted.
   */
  async function outInOut(id: number) {
    const of = async () => (await watchRtp(t.ctx, { windowDays: 1 })).find((c) => c.gameId === id)!;
    const runs = [await of(), await of()];
    // 2,000 rounds at 0.90: RTP (30,000 + 180,000) / 220,000 = 95.45 %, inside.
    await rounds(id, ids.b1, w.agentA, 2000, 100, 90);
    runs.push(await of());
    // 1,000 rounds paying 3.00: RTP (210,000 + 300,000) / 320,000 = 159.38 %, outside again.
    await rounds(id, ids.b1, w.agentA, 1000, 100, 300);
    runs.push(await of());
    return runs;
  }

  beforeAll(async () => {
    // A holder of casino_game outside the agents' role, and one without it (no notice).
    const watcherRole = await makeRole(t, 'Casino watcher', ['casino', 'casino_game']);
    listener = await makeAdmin(t, 'casino_watcher', watcherRole, w.rootId);
  });

  it('stores a check per game and alerts the super admins and casino_game holders once when a game leaves its band', async () => {
    const hot = await hotGame('hot', 'Hot Slot');
    // Calm: 200 rounds of 1.00 paying 0.96: RTP 96 %.
    const calm = await game(ids.p2, 'calm', 'Calm Slot', 9600, 1);
    await rounds(calm, ids.b3, w.agentB, 200, 100, 96);
    const run = await watchRtp(t.ctx, { windowDays: 1 });
    const h = run.find((c) => c.gameId === hot)!;
    expect(h).toMatchObject({ rounds: 200, turnover: 20_000, payouts: 30_000, actualBps: 15_000, inside: false, alerted: true });
    expect(h.lowBps).toBeGreaterThan(6000);
    expect(h.highBps).toBeLessThan(13_200);
    expect(run.find((c) => c.gameId === calm)).toMatchObject({ rounds: 200, actualBps: 9600, inside: true, alerted: false });
    const sent = await alertsOf('hot');
    const receivers = sent.map((n) => n.adminId).sort((a, b) => a - b);
    // The super admin, the watcher and the agents (their role holds casino_game); not the limited admin nor the disabled one.
    expect(receivers).toEqual([w.rootId, w.agentA, w.agentA1, w.agentB, w.agentB1, listener].sort((a, b) => a - b));
    expect(sent[0].content).toContain('Hot Slot (beta/hot)');
    expect(sent[0].content).toContain('150.00 %');
    expect(await alertsOf('calm')).toHaveLength(0);
    const stored = await t.database.db.select().from(casinoRtpChecks).where(eq(casinoRtpChecks.gameId, hot));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ rounds: 200, turnover: 20_000, payouts: 30_000, actualBps: 15_000, inside: false });
  });

  it('does not alert again while the game stays outside; alerts again after it came back and left again', async () => {
    const runs = await outInOut(await hotGame('again', 'Again Slot'));
    expect(runs.map((r) => [r.rounds, r.inside, r.alerted])).toEqual([
      [200, false, true],
      [200, false, false],
      [2200, true, false],
      [3200, false, true],
    ]);
    expect(runs[2].actualBps).toBe(9545);
    // Six receivers, twice.
    expect(await alertsOf('again')).toHaveLength(12);
  });

  it('counts below RTP_MIN_ROUNDS rounds as inside, and leaves out games that are off or rounds outside the window', async () => {
    const few = await game(ids.p2, 'few', 'Few Rounds', 9600, 1);
    await rounds(few, ids.b1, w.agentA, RTP_MIN_ROUNDS - 1, 100, 500);
    const run = await watchRtp(t.ctx, { windowDays: 1 });
    expect(run.find((c) => c.gameId === few)).toMatchObject({ rounds: RTP_MIN_ROUNDS - 1, actualBps: 50_000, inside: true, alerted: false });
    await t.database.db.update(casinoGames).set({ enabled: false }).where(eq(casinoGames.id, few));
    expect((await watchRtp(t.ctx, { windowDays: 1 })).find((c) => c.gameId === few)).toBeUndefined();
    // The report data set lies in March 2026: a 1-day window from then holds only it.
    const march = await watchRtp(t.ctx, { windowDays: 1, now: new Date(DAY2) });
    expect(march.map((c) => c.gameId).sort()).toEqual([ids.g1, ids.g2].sort());
    expect(march.find((c) => c.gameId === ids.g1)).toMatchObject({ rounds: 4, turnover: 6500, payouts: 5400 });
  });

  it('answers the series of checks for the chart, oldest first', async () => {
    const chart = await hotGame('chart', 'Chart Slot');
    await outInOut(chart);
    const r = await t.call('GET', `/api/v1/casino/games/${chart}/rtp`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.game).toMatchObject({ id: chart, rtp_bps: 9600, volatility: 1 });
    expect(r.body.inside).toBe(false);
    expect(r.body.confidence_bps).toBe(9990);
    expect(r.body.points.map((p: any) => p.rounds)).toEqual([200, 200, 2200, 3200]);
    for (const p of r.body.points) expect(p.low_bps).toBeLessThan(p.high_bps);
    const limited = await t.call('GET', `/api/v1/casino/games/${chart}/rtp?limit=2`, { token: tokenA });
    expect(limited.body.points.map((p: any) => p.rounds)).toEqual([2200, 3200]);
    expect((await t.call('GET', '/api/v1/casino/games/999999/rtp', { token })).status).toBe(404);
    expect((await t.call('GET', `/api/v1/casino/games/${chart}/rtp`, { token: await t.login('limited') })).status).toBe(403);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('alerts once when two runs of the watch meet the same transition (PostgreSQL)', async () => {
    const twin = await game(ids.p2, 'twin', 'Twin Slot', 9600, 1);
    await rounds(twin, ids.b1, w.agentA, 300, 100, 200);
    const before = (await alerts()).length;
    const [x, y] = await Promise.all([watchRtp(t.ctx, { windowDays: 1 }), watchRtp(t.ctx, { windowDays: 1 })]);
    const flags = [x, y].map((run) => run.find((c) => c.gameId === twin)!.alerted);
    expect(flags.filter(Boolean)).toHaveLength(1);
    expect((await alerts()).length - before).toBe(6);
    expect(await t.database.db.select().from(casinoRtpChecks).where(eq(casinoRtpChecks.gameId, twin))).toHaveLength(2);
  });
});
