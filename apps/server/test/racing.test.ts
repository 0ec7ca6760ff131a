/**
 * Virtual racing (issue 13, bills 13–16) on PGlite and, with TEST_DATABASE_URL, PostgreSQL: races from a
 * provider (a scripted one, and the sandbox's determinism), bets (bill 13 against the racing house
 * account), settlement (bill 14 for winners and refunds, once however often it runs), refusals with
 * nothing written, the racing coin both ways at a configured rate with its rounding, insufficient funds
 * and coins, the operators' lists and settings with the branch scope; ledger invariants clean. Since issue 23
 * racing has its own pages (racing_race, racing_order, racing_coin, racing_config, racing_statistics): a role
 * with only those reads racing, one with the casino's pages is refused, and an install upgraded to them
 * keeps its roles' racing access (the catalogue's `from`).
 *
 * Every case makes the races, bettors and settings it reads (a race day of its own: raceDay and the helpers
 * after it), so each passes alone and in any order.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { BILL_TYPE, RISK_LEVEL } from '@dau/domain';
import { flattenCatalogue } from '@dau/contract';
import { bettors, bills, houseEntries } from '../src/schema.js';
import { HOUSE, checkInvariants } from '../src/modules/money/ledger';
import { racingBets, racingCoinMoves, racingRaces, racingSettings } from '../src/modules/racing/schema';
import type { ProviderRace, RaceOutcome, RacingProvider } from '../src/modules/racing/adapter';
import { SandboxRacingProvider, RACE_EVERY_SECONDS, RACE_RUN_SECONDS } from '../src/modules/racing/sandbox';
import {
  RACE_STATUS, RACING_BET_STATUS, cashFor, checkCoinInvariants, coinBalanceOf, coinsFor, convertFromCoins, convertToCoins, placeRacingBet, settleRace, syncRaces,
} from '../src/modules/racing/service';
import { approved, ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers';
import { menuItems, roleMenus, roles } from '../src/platform/schema';
import { seed } from '../src/seed';
import { grantKeys } from './payments-fixtures';
import { makeBettor } from './money-helpers';
import { simulateRacing } from '../src/simulator/racing';
import { Rng } from '../src/simulator/rng';

let t: TestApp;
let token: string;
let w: Awaited<ReturnType<typeof makeWorld>>;

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** The first race day's start (raceDay); each later one starts a day earlier. */
const T0 = new Date('2026-06-01T12:00:00Z');

/** A provider whose races and outcomes the test writes. */
class ScriptedProvider implements RacingProvider {
  readonly code = 'scripted';
  list: ProviderRace[] = [];
  outcomes = new Map<string, RaceOutcome>();
  async races(from: Date, to: Date) {
    return this.list.filter((r) => r.startsAt >= from && r.startsAt < to);
  }
  async outcome(ref: string) {
    return this.outcomes.get(ref) ?? null;
  }
}
const runners = [
  { number: 1, name: 'Kilimanjaro Star', odds: '2.50' },
  { number: 2, name: 'Serengeti Wind', odds: '3.33' },
  { number: 3, name: 'Zanzibar Spice', odds: '7.00' },
];

const tx = <T>(fn: (ex: any) => Promise<T>) => t.database.db.transaction(fn);
const raceId = async (ref: string) => (await t.database.db.select({ id: racingRaces.id }).from(racingRaces).where(eq(racingRaces.raceRef, ref)))[0]!.id;
const cash = async (id: number) => (await t.database.db.select({ cash: bettors.cashBalance }).from(bettors).where(eq(bettors.id, id)))[0]!.cash;
const billsOf = (id: number) => t.database.db.select().from(bills).where(and(eq(bills.bettorId, id), eq(bills.causeType, 'racing'))).orderBy(asc(bills.id));
const houseRacing = async () => Number((await t.database.db.select({ s: sql<string>`coalesce(sum(${houseEntries.amount}), 0)` }).from(houseEntries).where(eq(houseEntries.account, HOUSE.racing)))[0]!.s);
async function clean() {
  expect(await checkInvariants(t.database.db)).toEqual([]);
  expect(await checkCoinInvariants(t.database.db)).toEqual([]);
}
async function refused(p: Promise<unknown>, status: number, code: string) {
  await expect(p).rejects.toMatchObject({ status, code });
}
/** A moment as a query parameter. */
const q = (d: Date) => encodeURIComponent(d.toISOString());

type RaceName = 'R1' | 'R2' | 'R3' | 'FAR';
let days = 0;
/**
 * A race day of one case's own: a scripted provider listing R1, R2 and R3 at T0 + 10, 13 and 16 minutes and
 * FAR two hours on (beyond the sync's 15 minutes), under references no other day uses (R1-d3 on the third).
 * A sync starts every race due by its `now`, and settles or gives up the running ones, whoever made them: so
 * each day is a day before the previous one, and a case's syncs never reach the races an earlier case left
 * open (the file's other races are later: the sandbox's in July, the simulator's and the sandbox bet's at the
 * real clock). `since`, the moment the day was made: the bets placed from then on are the day's only (the
 * cases run one at a time), which is how the whole book's lists and figures are read in the day's cases.
 */
function raceDay() {
  const n = ++days;
  const t0 = new Date(T0.getTime() - (n - 1) * DAY);
  const at = (minutes: number) => new Date(t0.getTime() + minutes * MIN);
  const ref = (name: RaceName) => `${name}-d${n}`;
  const provider = new ScriptedProvider();
  provider.list = [
    { raceRef: ref('R1'), startsAt: at(10), runners },
    { raceRef: ref('R2'), startsAt: at(13), runners },
    { raceRef: ref('R3'), startsAt: at(16), runners },
    { raceRef: ref('FAR'), startsAt: at(120), runners },
  ];
  return { since: new Date(), t0, at, ref, provider, raceId: (name: RaceName) => raceId(ref(name)) };
}

/** A race day with R1, R2 and R3 stored (R3 at the sync a minute and a half in), as the first case leaves it. */
async function listedDay() {
  const day = raceDay();
  await syncRaces(t.database.db, day.provider, day.t0);
  await syncRaces(t.database.db, day.provider, day.at(1.5));
  return day;
}

/** ...with the second case's bets on R1: Alice (100.00, branch A) 30.00 on runner 2 and 10.00 on 3, Bob (50.00, branch B) 50.00 on 1. */
async function dayWithBets() {
  const day = await listedDay();
  const alice = (await makeBettor(t, w.agentA, { cash: 100_00 })).id;
  const bob = (await makeBettor(t, w.agentB, { cash: 50_00 })).id;
  const r1 = await day.raceId('R1');
  for (const [bettorId, runner, stake] of [[alice, 2, 30_00], [alice, 3, 10_00], [bob, 1, 50_00]] as const) {
    await tx((ex) => placeRacingBet(ex, { bettorId, raceId: r1, runner, stake }, day.t0));
  }
  return { ...day, alice, bob };
}

/** ...and R1 run and finished 2, 1, 3: Alice's 30.00 on runner 2 won 99.90, the two others lost. */
async function dayR1Settled() {
  const day = await dayWithBets();
  await syncRaces(t.database.db, day.provider, day.at(10.5));
  day.provider.outcomes.set(day.ref('R1'), { status: 'finished', order: [2, 1, 3] });
  await syncRaces(t.database.db, day.provider, day.at(11.5));
  return day;
}

/** ...and R2 cancelled, Alice's 20.00 on runner 3 refunded: the whole day the lists, the detail and the statistics read. */
async function dayDone() {
  const day = await dayR1Settled();
  const r2 = await day.raceId('R2');
  await tx((ex) => placeRacingBet(ex, { bettorId: day.alice, raceId: r2, runner: 3, stake: 20_00 }, day.at(12)));
  day.provider.outcomes.set(day.ref('R2'), { status: 'cancelled' });
  await syncRaces(t.database.db, day.provider, day.at(14));
  return day;
}

/** The agents' racing pages (the cases that need more grant them). */
const AGENT_RACING_KEYS = ['racing', 'racing_race', 'racing_order', 'racing_order:export', 'racing_coin'];

beforeAll(async () => {
  t = await createTestApp({ sandboxRoutes: true });
  token = await t.login('admin', ADMIN_PASSWORD);
  w = await makeWorld(t);
});
/**
 * What the cases share, as each expects it whatever ran before: racing on at the default coin rate (the
 * settings row deleted, made again with its defaults as on a fresh install: cases turn racing off and change
 * the rate), and the agents' racing pages (the upgrade case deletes the racing catalogue entries, and with
 * them every role's racing pages).
 */
beforeEach(async () => {
  await t.database.db.delete(racingSettings);
  await grantKeys(t, w.agentRole, AGENT_RACING_KEYS);
});
afterAll(async () => {
  await t?.close();
});

describe('races and bets', () => {
  it('stores the races the provider lists for the next 15 minutes, once', async () => {
    const { t0, at, ref, provider } = raceDay();
    const first = await syncRaces(t.database.db, provider, t0);
    expect(first.listed).toBe(2);
    expect((await syncRaces(t.database.db, provider, t0)).listed).toBe(0);
    // The day's races (the table holds the other cases' too).
    const rows = await t.database.db
      .select()
      .from(racingRaces)
      .where(inArray(racingRaces.raceRef, provider.list.map((r) => r.raceRef)))
      .orderBy(asc(racingRaces.startsAt));
    expect(rows.map((r) => [r.raceRef, r.status])).toEqual([[ref('R1'), RACE_STATUS.open], [ref('R2'), RACE_STATUS.open]]);
    expect((await syncRaces(t.database.db, provider, at(1.5))).listed).toBe(1);
    expect(rows[0]!.runners).toEqual(runners);
  });

  it('takes a bet: bill 13 of the stake against the racing house account, at the race’s odds', async () => {
    const day = await listedDay();
    const alice = (await makeBettor(t, w.agentA, { cash: 100_00 })).id;
    const bob = (await makeBettor(t, w.agentB, { cash: 50_00 })).id;
    const house0 = await houseRacing();
    const bet = await tx((ex) => placeRacingBet(ex, { bettorId: alice, raceId: 0, runner: 1, stake: 0 }, day.t0).catch((e) => e));
    expect(bet).toMatchObject({ status: 422, code: 'BET_STAKE_TOO_LOW' });
    const r1 = await day.raceId('R1');
    const placed = await tx((ex) => placeRacingBet(ex, { bettorId: alice, raceId: r1, runner: 2, stake: 30_00 }, day.t0));
    expect(placed).toMatchObject({ runner: 2, stake: 30_00, odds: '3.33', status: RACING_BET_STATUS.open });
    await tx((ex) => placeRacingBet(ex, { bettorId: alice, raceId: r1, runner: 3, stake: 10_00 }, day.t0));
    await tx((ex) => placeRacingBet(ex, { bettorId: bob, raceId: r1, runner: 1, stake: 50_00 }, day.t0));
    expect(await cash(alice)).toBe(60_00);
    expect(await cash(bob)).toBe(0);
    const ab = await billsOf(alice);
    expect(ab.map((b) => [b.type, b.amount, b.causeId])).toEqual([
      [BILL_TYPE.virtual_racing_bet, -30_00, String(placed.id)],
      [BILL_TYPE.virtual_racing_bet, -10_00, expect.any(String)],
    ]);
    expect(await houseRacing()).toBe(house0 + 90_00);
    await clean();
  });

  it('refuses without writing: no money, race started or unknown runner, blocked bettor, racing off', async () => {
    // Alice has 60.00 left, Bob nothing.
    const { alice, bob, t0, at, raceId } = await dayWithBets();
    const r1 = await raceId('R1');
    const r2 = await raceId('R2');
    const before = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(racingBets);
    await refused(tx((ex) => placeRacingBet(ex, { bettorId: bob, raceId: r2, runner: 1, stake: 1_00 }, t0)), 422, 'BET_BALANCE_LOW');
    await refused(tx((ex) => placeRacingBet(ex, { bettorId: alice, raceId: r2, runner: 1, stake: 60_01 }, t0)), 422, 'BET_BALANCE_LOW');
    // Bets close at the start.
    await refused(tx((ex) => placeRacingBet(ex, { bettorId: alice, raceId: r1, runner: 1, stake: 1_00 }, at(10))), 422, 'BET_MATCH_CLOSED');
    await refused(tx((ex) => placeRacingBet(ex, { bettorId: alice, raceId: r2, runner: 9, stake: 1_00 }, t0)), 400, 'PARAM_INVALID');
    await t.database.db.update(bettors).set({ riskLevel: RISK_LEVEL.no_betting }).where(eq(bettors.id, alice));
    await refused(tx((ex) => placeRacingBet(ex, { bettorId: alice, raceId: r2, runner: 1, stake: 1_00 }, t0)), 422, 'BET_RISK_BLOCKED');
    await t.database.db.update(bettors).set({ riskLevel: RISK_LEVEL.none }).where(eq(bettors.id, alice));
    expect((await approved(t, 'PUT', '/api/v1/racing/settings', { token, body: { enabled: false } })).status).toBe(200);
    await refused(tx((ex) => placeRacingBet(ex, { bettorId: alice, raceId: r2, runner: 1, stake: 1_00 }, t0)), 422, 'BET_MATCH_CLOSED');
    expect((await approved(t, 'PUT', '/api/v1/racing/settings', { token, body: { enabled: true } })).status).toBe(200);
    const after = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(racingBets);
    expect(after).toEqual(before);
    expect(await cash(alice)).toBe(60_00);
    await clean();
  });

  it('settles a finished race once: bill 14 for the winner (stake x odds, rounded down), nothing for losers', async () => {
    const { alice, bob, at, ref, provider, raceId } = await dayWithBets();
    // Not known yet: the race runs, nothing is settled.
    let run = await syncRaces(t.database.db, provider, at(10.5));
    expect(run).toMatchObject({ started: 1, finished: 0, betsSettled: 0 });
    provider.outcomes.set(ref('R1'), { status: 'finished', order: [2, 1, 3] });
    run = await syncRaces(t.database.db, provider, at(11.5));
    expect(run).toMatchObject({ finished: 1, betsSettled: 3 });
    // 30.00 x 3.33 = 99.90
    expect(await cash(alice)).toBe(60_00 + 99_90);
    expect(await cash(bob)).toBe(0);
    const rows = await t.database.db.select().from(racingBets).where(eq(racingBets.raceId, await raceId('R1'))).orderBy(asc(racingBets.id));
    expect(rows.map((b) => [b.runner, b.status, b.payout])).toEqual([[2, RACING_BET_STATUS.won, 99_90], [3, RACING_BET_STATUS.lost, 0], [1, RACING_BET_STATUS.lost, 0]]);
    const win = (await billsOf(alice)).filter((b) => b.type === BILL_TYPE.racing_result_change);
    expect(win.map((b) => [b.amount, b.causeId])).toEqual([[99_90, String(rows[0]!.id)]]);
    // Again: nothing moves.
    expect(await syncRaces(t.database.db, provider, at(12))).toMatchObject({ finished: 0, betsSettled: 0 });
    expect(await cash(alice)).toBe(60_00 + 99_90);
    const [race] = await t.database.db.select().from(racingRaces).where(eq(racingRaces.raceRef, ref('R1')));
    expect(race).toMatchObject({ status: RACE_STATUS.finished, result: [2, 1, 3] });
    await clean();
  });

  it('refunds the bets of a cancelled race with bill 8, a refund (issue 23)', async () => {
    // Alice has 60.00 and the 99.90 of her win on R1.
    const { alice, at, ref, provider, raceId } = await dayR1Settled();
    const r2 = await raceId('R2');
    await tx((ex) => placeRacingBet(ex, { bettorId: alice, raceId: r2, runner: 3, stake: 20_00 }, at(12)));
    expect(await cash(alice)).toBe(139_90);
    provider.outcomes.set(ref('R2'), { status: 'cancelled' });
    expect(await syncRaces(t.database.db, provider, at(14))).toMatchObject({ cancelled: 1, betsSettled: 1 });
    expect(await cash(alice)).toBe(159_90);
    const [bet] = await t.database.db.select().from(racingBets).where(eq(racingBets.raceId, r2));
    expect(bet).toMatchObject({ status: RACING_BET_STATUS.refunded, payout: 20_00 });
    const [refund] = (await billsOf(alice)).filter((b) => b.causeId === String(bet!.id) && b.amount > 0);
    expect(refund).toMatchObject({ type: BILL_TYPE.amount_rolled_back, amount: 20_00, remarkKind: 'racing_result' });
    expect(refund!.remarkParams).toMatchObject({ race: ref('R2'), runner: 3, change: 'race_cancelled' });
    await clean();
  });

  it('answers the operators’ lists in the branch, and the bills list shows the racing bills', async () => {
    const { alice, bob, since, t0, at, ref } = await dayDone();
    // The day's races (those starting in its first hour) and its bets (those placed since it began).
    const races = await t.call('GET', `/api/v1/racing/races?sort=starts_at&starts_at_from=${q(t0)}&starts_at_to=${q(at(60))}`, { token });
    expect(races.status, JSON.stringify(races.body)).toBe(200);
    expect(races.body.items.map((r: any) => [r.race_ref, r.status, r.winner])).toEqual([[ref('R1'), 3, 2], [ref('R2'), 4, null], [ref('R3'), 1, null]]);
    const all = await t.call('GET', `/api/v1/racing/bets?created_at_from=${q(since)}`, { token });
    expect(all.body.total).toBe(4);
    expect(all.body.items[all.body.items.length - 1]).toMatchObject({ race_ref: ref('R1'), runner: 2, runner_name: 'Serengeti Wind', stake: 30_00, odds: '3.33', status: 2, payout: 99_90 });
    const tokenB = await t.login('agent_b');
    const b = await t.call('GET', `/api/v1/racing/bets?created_at_from=${q(since)}`, { token: tokenB });
    expect(b.body.items.map((x: any) => x.bettor_id)).toEqual([bob]);
    const limited = await t.login('limited');
    expect((await t.call('GET', '/api/v1/racing/bets', { token: limited })).status).toBe(403);
    const billList = await t.call('GET', `/api/v1/money/bills?bettor_id=${alice}&type=${BILL_TYPE.racing_result_change}`, { token });
    expect(billList.status, JSON.stringify(billList.body)).toBe(200);
    expect(billList.body.items.map((x: any) => x.amount)).toEqual([99_90]);
    const refunds = await t.call('GET', `/api/v1/money/bills?bettor_id=${alice}&type=${BILL_TYPE.amount_rolled_back}`, { token });
    expect(refunds.body.items.map((x: any) => [x.amount, x.remark_kind])).toEqual([[20_00, 'racing_result']]);
  });
  it('guards racing by its own pages: a role with only the racing pages reads every racing route, one with the casino’s pages gets 403', async () => {
    const { since, raceId } = await dayDone();
    const r1 = await raceId('R1');
    const [bet] = await t.database.db.select({ id: racingBets.id }).from(racingBets).where(eq(racingBets.raceId, r1)).limit(1);
    const period = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
    const urls = [
      '/api/v1/racing/races', `/api/v1/racing/races/${r1}`, '/api/v1/racing/bets', `/api/v1/racing/bets/${bet!.id}`, '/api/v1/racing/coin_moves',
      `/api/v1/racing/statistics?${period}`, '/api/v1/racing/settings',
    ];
    const racingDesk = await makeRole(t, 'Racing desk', ['racing', 'racing_race', 'racing_order', 'racing_order:detail', 'racing_coin', 'racing_config', 'racing_statistics']);
    const casinoDesk = await makeRole(t, 'Casino desk', ['casino', 'casino_order', 'casino_order:detail', 'casino_order:export', 'casino_config', 'casino_config:edit', 'history_statistics']);
    // Both desks work for the whole book (staff of the super admin): only the pages differ.
    await t.database.db.update(roles).set({ servesSuperiorBranch: true }).where(eq(roles.id, racingDesk));
    await t.database.db.update(roles).set({ servesSuperiorBranch: true }).where(eq(roles.id, casinoDesk));
    await makeAdmin(t, 'racing_desk', racingDesk, w.rootId);
    await makeAdmin(t, 'casino_desk', casinoDesk, w.rootId);
    const racingToken = await t.login('racing_desk');
    const casinoToken = await t.login('casino_desk');
    for (const url of urls) {
      const ok = await t.call('GET', url, { token: racingToken });
      expect(ok.status, `${url} ${JSON.stringify(ok.body)}`).toBe(200);
      const refused = await t.call('GET', url, { token: casinoToken });
      expect(refused.status, url).toBe(403);
    }
    expect((await t.call('GET', `/api/v1/racing/bets?created_at_from=${q(since)}`, { token: racingToken })).body.total).toBe(4);
    // Exports follow the list's page: racing_order:export, which the racing desk does not hold.
    const asked = await t.call('POST', '/api/v1/exports', { token: racingToken, body: { type: 'racing_bet', format: 1, params: {} } });
    expect(asked.status).toBe(403);
    expect((await t.call('POST', '/api/v1/exports', { token: casinoToken, body: { type: 'racing_bet', format: 1, params: {} } })).status).toBe(403);
  });

  it('answers a race with each runner’s place and the branch’s bets on it, and a bet with its race (racing_order:detail), in the branch', async () => {
    const { ref, raceId } = await dayDone();
    const r1 = await raceId('R1');
    const race = await t.call('GET', `/api/v1/racing/races/${r1}`, { token });
    expect(race.status, JSON.stringify(race.body)).toBe(200);
    expect(race.body).toMatchObject({ race_ref: ref('R1'), status: 3, result: [2, 1, 3], winner: 2 });
    expect(race.body.book).toEqual([
      { number: 1, name: 'Kilimanjaro Star', odds: '2.50', place: 2, bets: 1, stake: 50_00, payout: 0 },
      { number: 2, name: 'Serengeti Wind', odds: '3.33', place: 1, bets: 1, stake: 30_00, payout: 99_90 },
      { number: 3, name: 'Zanzibar Spice', odds: '7.00', place: 3, bets: 1, stake: 10_00, payout: 0 },
    ]);
    // Agent B sees the race (the provider's) but only the bets of B's branch on it.
    const tokenB = await t.login('agent_b');
    const raceB = await t.call('GET', `/api/v1/racing/races/${r1}`, { token: tokenB });
    expect(raceB.body.book.map((r: any) => [r.number, r.bets, r.stake])).toEqual([[1, 1, 50_00], [2, 0, 0], [3, 0, 0]]);
    expect((await t.call('GET', '/api/v1/racing/races/999999', { token })).status).toBe(404);

    const [aliceBet] = await t.database.db.select().from(racingBets).where(and(eq(racingBets.raceId, r1), eq(racingBets.runner, 2)));
    const detail = await t.call('GET', `/api/v1/racing/bets/${aliceBet!.id}`, { token });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.bet).toMatchObject({ id: aliceBet!.id, race_ref: ref('R1'), runner: 2, runner_name: 'Serengeti Wind', status: 2, payout: 99_90 });
    expect(detail.body.race).toMatchObject({ id: r1, result: [2, 1, 3] });
    // The agents hold racing_order without its detail button: 403; with it, another branch's bet is not found.
    expect((await t.call('GET', `/api/v1/racing/bets/${aliceBet!.id}`, { token: tokenB })).status).toBe(403);
    await grantKeys(t, w.agentRole, ['racing_order:detail']);
    expect((await t.call('GET', `/api/v1/racing/bets/${aliceBet!.id}`, { token: await t.login('agent_b') })).status).toBe(404);
    expect((await t.call('GET', `/api/v1/racing/bets/${aliceBet!.id}`, { token: await t.login('agent_a') })).status).toBe(200);
  });

  it('answers racing turnover, payouts and GGR over a period in the branch (statistics)', async () => {
    const { since } = await dayDone();
    // A period from the day's start to an hour on: the day's bets only.
    const period = `from=${q(since)}&to=${q(new Date(Date.now() + 3_600_000))}`;
    const all = await t.call('GET', `/api/v1/racing/statistics?${period}`, { token });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    // R1: alice 30.00 on the winner (paid 99.90) and 10.00 lost, bob 50.00 lost; R2's 20.00 refunded (not turnover).
    expect(all.body).toEqual({ turnover: 90_00, settled_stake: 90_00, payouts: 99_90, ggr: -9_90, open_stakes: 0, bets: 3, bettors: 2, coins_bought_cash: 0, coins_sold_cash: 0 });
    const b = await t.call('GET', `/api/v1/racing/statistics?${period}`, { token: await t.login('agent_b') });
    expect(b.status).toBe(403);
    await grantKeys(t, w.agentRole, ['racing_statistics']);
    const b2 = await t.call('GET', `/api/v1/racing/statistics?${period}`, { token: await t.login('agent_b') });
    expect(b2.body).toMatchObject({ turnover: 50_00, payouts: 0, ggr: 50_00, bets: 1, bettors: 1 });
    expect((await t.call('GET', `/api/v1/racing/statistics?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`, { token })).status).toBe(400);
  });

  it('takes a sandbox bet (the bettor app’s request) for a bettor of my branch only, on the next open race', async () => {
    const dave = (await makeBettor(t, w.agentA, { cash: 50_00 })).id;
    const tokenA = await t.login('agent_a');
    const tokenB = await t.login('agent_b');
    const refused = await t.call('POST', '/api/v1/sandbox/racing/bets', { token: tokenB, body: { bettor_id: dave, stake: 10_00 } });
    expect(refused.status).toBe(403);
    expect(await t.database.db.select().from(racingBets).where(eq(racingBets.bettorId, dave))).toEqual([]);
    const placed = await t.call('POST', '/api/v1/sandbox/racing/bets', { token: tokenA, body: { bettor_id: dave, stake: 10_00 } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body).toMatchObject({ bettor_id: dave, stake: 10_00, status: 1 });
    expect(new Date(placed.body.starts_at).getTime()).toBeGreaterThan(Date.now());
    expect(await cash(dave)).toBe(40_00);
    await clean();
  });
});

describe('racing coin', () => {
  /** The coin rate of the cases below, 1.5 coins per shilling (150 per cent x 10,000), set as an operator does. */
  async function rateOf150() {
    expect((await approved(t, 'PUT', '/api/v1/racing/settings', { token, body: { coin_rate_bps: 150 } })).status).toBe(200);
  }
  /** A bettor as the conversion case leaves Carol: 100.00, then 15 coins for 10.00 and 7 of them back for 4.66 (94.66 and 8 coins). */
  async function carolAfterConversions() {
    await rateOf150();
    const carol = (await makeBettor(t, w.agentA, { cash: 100_00 })).id;
    await tx((ex) => convertToCoins(ex, carol, 10_01));
    await tx((ex) => convertFromCoins(ex, carol, 7));
    return carol;
  }

  it('rounds both ways without giving money away (coinsFor, cashFor)', () => {
    // 1.5 coins per shilling (150 per cent x 10,000): 10.01 TSh buys 15 coins costing 10.00 TSh.
    expect(coinsFor(10_01, 150)).toEqual({ coins: 15, cash: 10_00 });
    expect(cashFor(15, 150)).toEqual({ cash: 10_00, coins: 15 });
    // 3 coins per cent: 10 coins give 3 cents and take 9 coins (1 stays).
    expect(cashFor(10, 30_000)).toEqual({ cash: 3, coins: 9 });
    // 0.3333 coin per cent: 10 cents buy 3 coins costing ceil(3 / 0.3333) = 10 cents; 9 cents buy 2 coins costing 7.
    expect(coinsFor(10, 3_333)).toEqual({ coins: 3, cash: 10 });
    expect(coinsFor(9, 3_333)).toEqual({ coins: 2, cash: 7 });
    for (const rate of [1, 7, 100, 150, 3_333, 10_000, 30_000, 1_000_000]) {
      for (const c of [1, 99, 100, 12_345, 10_000_000]) {
        const buy = coinsFor(c, rate);
        expect(buy.cash).toBeLessThanOrEqual(c);
        const back = cashFor(buy.coins, rate);
        expect(back.cash).toBeLessThanOrEqual(buy.cash);
        expect(back.coins).toBeLessThanOrEqual(buy.coins);
      }
    }
  });

  it('converts balance → coin (bill 15) and coin → balance (bill 16) at the configured rate, each a bill with its house counter-entry', async () => {
    const carol = (await makeBettor(t, w.agentA, { cash: 100_00 })).id;
    // From the default rate (one coin per cent, beforeEach) to 1.5 coins per shilling.
    const set = await approved(t, 'PUT', '/api/v1/racing/settings', { token, body: { coin_rate_bps: 150 } });
    expect(set.body).toMatchObject({ coin_rate_bps: 150, enabled: true });
    const house0 = await houseRacing();
    const to = await tx((ex) => convertToCoins(ex, carol, 10_01));
    expect(to).toMatchObject({ direction: 1, cashCents: 10_00, coins: 15, coinBalance: 15, cashBalance: 90_00 });
    expect(await cash(carol)).toBe(90_00);
    expect(await houseRacing()).toBe(house0 + 10_00);
    const from = await tx((ex) => convertFromCoins(ex, carol, 7));
    // 7 coins at 1.5 per shilling: 4.66 TSh (floor), taking 7 coins (ceil(466 x 150 / 10,000) = 7).
    expect(from).toMatchObject({ direction: 2, cashCents: 4_66, coins: 7, coinBalance: 8, cashBalance: 94_66 });
    expect(await coinBalanceOf(t.database.db, carol)).toBe(8);
    const cb = await billsOf(carol);
    expect(cb.map((b) => [b.type, b.amount])).toEqual([[BILL_TYPE.balance_to_racing_coin, -10_00], [BILL_TYPE.racing_coin_to_balance, 4_66]]);
    const moves = await t.database.db.select().from(racingCoinMoves).where(eq(racingCoinMoves.bettorId, carol)).orderBy(asc(racingCoinMoves.id));
    expect(moves.map((m) => [m.direction, m.cashCents, m.coins, m.billId])).toEqual([[1, 10_00, 15, cb[0]!.id], [2, 4_66, 7, cb[1]!.id]]);
    expect(cb[0]!.causeId).toBe(`coin-${moves[0]!.id}`);
    expect(await houseRacing()).toBe(house0 + 10_00 - 4_66);
    await clean();
  });

  it('refuses more cash than the balance, more coins than held, and amounts that convert to nothing', async () => {
    const carol = await carolAfterConversions();
    const moves0 = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(racingCoinMoves);
    await refused(tx((ex) => convertToCoins(ex, carol, 94_67 + 100)), 422, 'INSUFFICIENT_BALANCE');
    await refused(tx((ex) => convertFromCoins(ex, carol, 9)), 422, 'INSUFFICIENT_BALANCE');
    // 0.66 TSh buys 0.99 coins: nothing.
    await refused(tx((ex) => convertToCoins(ex, carol, 66)), 422, 'AMOUNT_INVALID');
    await refused(tx((ex) => convertToCoins(ex, carol, 0)), 400, 'AMOUNT_INVALID');
    await refused(tx((ex) => convertFromCoins(ex, carol, -1)), 400, 'AMOUNT_INVALID');
    expect(await t.database.db.select({ n: sql<number>`count(*)::int` }).from(racingCoinMoves)).toEqual(moves0);
    expect(await coinBalanceOf(t.database.db, carol)).toBe(8);
    expect(await cash(carol)).toBe(94_66);
    // All 8 coins back: 5.33 TSh taking 8 coins (ceil(533 x 150 / 10,000) = 7.995 → 8).
    const all = await tx((ex) => convertFromCoins(ex, carol, 8));
    expect(all).toMatchObject({ cashCents: 5_33, coins: 8, coinBalance: 0, cashBalance: 99_99 });
    const list = await t.call('GET', `/api/v1/racing/coin_moves?bettor_id=${carol}`, { token });
    expect(list.body.items.map((m: any) => [m.direction, m.cash, m.coins])).toEqual([[2, 5_33, 8], [2, 4_66, 7], [1, 10_00, 15]]);
    const bList = await t.call('GET', `/api/v1/racing/coin_moves?bettor_id=${carol}`, { token: await t.login('agent_b') });
    expect(bList.body.items).toEqual([]);
    await clean();
  });

  it('validates the settings; a change is the whole book’s (racing_config:edit)', async () => {
    // The coin cases' rate, with racing on: what the refused changes below must leave as it is.
    await rateOf150();
    expect((await approved(t, 'PUT', '/api/v1/racing/settings', { token, body: { coin_rate_bps: 0 } })).status).toBe(400);
    expect((await approved(t, 'PUT', '/api/v1/racing/settings', { token, body: { other: 1 } })).status).toBe(400);
    expect((await approved(t, 'PUT', '/api/v1/racing/settings', { token: await t.login('agent_a'), body: { enabled: false } })).status).toBe(403);
    // With the page and its button, a branch agent is still refused: the settings are the whole book's.
    await grantKeys(t, w.agentRole, ['racing_config', 'racing_config:edit']);
    const tokenA = await t.login('agent_a');
    expect((await t.call('GET', '/api/v1/racing/settings', { token: tokenA })).status).toBe(200);
    const branch = await approved(t, 'PUT', '/api/v1/racing/settings', { token: tokenA, body: { enabled: false } });
    expect(branch.status).toBe(403);
    expect(branch.body.code).toBe('WHOLE_BOOK_ONLY');
    expect((await t.call('GET', '/api/v1/racing/settings', { token })).body).toMatchObject({ coin_rate_bps: 150, enabled: true });
  });
});

describe('sandbox provider', () => {
  it('runs a race every few minutes, the same in every process, with a result after the run', async () => {
    const a = new SandboxRacingProvider();
    const b = new SandboxRacingProvider();
    const from = new Date('2026-06-01T12:00:00Z');
    const to = new Date(from.getTime() + 30 * MIN);
    const races = await a.races(from, to);
    expect(races).toHaveLength((30 * 60) / RACE_EVERY_SECONDS);
    expect(await b.races(from, to)).toEqual(races);
    for (const r of races) {
      expect(r.runners.length).toBeGreaterThanOrEqual(6);
      expect(r.runners.length).toBeLessThanOrEqual(8);
      expect(new Set(r.runners.map((x) => x.name)).size).toBe(r.runners.length);
      // The book's overround: Σ 1/odds a little above 1.
      const book = r.runners.reduce((s, x) => s + 1 / Number(x.odds), 0);
      expect(book).toBeGreaterThan(1.1);
      expect(book).toBeLessThan(1.3);
    }
    const first = races[0]!;
    expect(await a.outcome(first.raceRef, new Date(first.startsAt.getTime() + RACE_RUN_SECONDS * 1000 - 1))).toBeNull();
    const out = await a.outcome(first.raceRef, new Date(first.startsAt.getTime() + RACE_RUN_SECONDS * 1000));
    expect(out).toEqual(await b.outcome(first.raceRef, new Date(first.startsAt.getTime() + 3_600_000)));
    if (out?.status === 'finished') expect([...out.order].sort()).toEqual(first.runners.map((x) => x.number).sort());
    expect(await a.outcome('OTHER-1', to)).toBeNull();
  });

  it('plays through the sandbox: listed, bet on, settled with invariants clean', async () => {
    const sandbox = new SandboxRacingProvider('test-seed');
    const now = new Date('2026-07-01T08:00:30Z');
    await syncRaces(t.database.db, sandbox, now);
    const open = await t.database.db.select().from(racingRaces).where(and(eq(racingRaces.status, RACE_STATUS.open), sql`${racingRaces.raceRef} like 'SBX-%'`)).orderBy(asc(racingRaces.startsAt));
    expect(open.length).toBeGreaterThanOrEqual(4);
    const dave = (await makeBettor(t, w.agentA1, { cash: 1_000_00 })).id;
    const race = open[0]!;
    for (const r of race.runners) await tx((ex) => placeRacingBet(ex, { bettorId: dave, raceId: race.id, runner: r.number, stake: 10_00 }, now));
    const later = new Date(race.startsAt.getTime() + (RACE_RUN_SECONDS + 1) * 1000);
    await syncRaces(t.database.db, sandbox, later);
    const [done] = await t.database.db.select().from(racingRaces).where(eq(racingRaces.id, race.id));
    expect([RACE_STATUS.finished, RACE_STATUS.cancelled]).toContain(done!.status);
    const bets = await t.database.db.select().from(racingBets).where(eq(racingBets.raceId, race.id));
    expect(bets.every((b) => b.status !== RACING_BET_STATUS.open)).toBe(true);
    const paid = bets.reduce((s, b) => s + b.payout, 0);
    if (done!.status === RACE_STATUS.finished) {
      const winner = bets.find((b) => b.runner === done!.result![0])!;
      expect(paid).toBe(Math.floor(10_00 * Number(winner.odds)));
    } else expect(paid).toBe(race.runners.length * 10_00);
    expect(await cash(dave)).toBe(1_000_00 - race.runners.length * 10_00 + paid);
    await clean();
  });
});

describe('simulator', () => {
  it('gives a fresh install an hour of settled races and bets through the services, then bets on the open races', async () => {
    // A fresh install as far as racing goes: no race yet (the bets' bills stay; settled bets only).
    const db = t.database.db;
    await db.execute(sql`DELETE FROM racing_races`);
    const rich = (await makeBettor(t, w.agentB1, { cash: 1_000_000_00 })).id;
    await simulateRacing(t.ctx, new Rng(7));
    const races = await db.select().from(racingRaces);
    expect(races.length).toBeGreaterThanOrEqual(20);
    const past = races.filter((r) => r.startsAt.getTime() < Date.now() - 2 * 60_000);
    expect(past.every((r) => r.status === RACE_STATUS.finished || r.status === RACE_STATUS.cancelled)).toBe(true);
    const placed = await db.select().from(racingBets).where(eq(racingBets.bettorId, rich));
    expect(placed.length).toBeGreaterThan(0);
    // History is dated as it happened: bets before their race's start.
    const byId = new Map(races.map((r) => [r.id, r]));
    for (const b of placed) expect(b.createdAt.getTime()).toBeLessThan(byId.get(b.raceId)!.startsAt.getTime());
    expect(placed.some((b) => b.createdAt.getTime() < Date.now() - 30 * 60_000)).toBe(true);
    await clean();
  });
});

describe('concurrency (PostgreSQL)', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)('never leaves a bet open on a settled race when bets and the settlement race each other', async () => {
    const db = t.database.db;
    const players = await Promise.all(Array.from({ length: 6 }, () => makeBettor(t, w.agentA, { cash: 100_00 })));
    for (let round = 0; round < 5; round++) {
      const [race] = await db.insert(racingRaces).values({ raceRef: `CC-${round}`, startsAt: new Date(Date.now() + 3_600_000), runners, status: RACE_STATUS.open }).returning();
      const bets = players.flatMap((p, i) => [0, 1].map((k) => tx((ex) => placeRacingBet(ex, { bettorId: p.id, raceId: race!.id, runner: ((i + k) % 3) + 1, stake: 1_00 })).then(() => 'placed', (e) => e.code)));
      const settle = tx((ex) => settleRace(ex, race!.id, { status: 'finished', order: [1, 2, 3] }));
      const outcomes = await Promise.all([...bets, settle]);
      for (const o of outcomes.slice(0, -1)) expect(['placed', 'BET_MATCH_CLOSED']).toContain(o);
      const open = await db.select().from(racingBets).where(and(eq(racingBets.raceId, race!.id), eq(racingBets.status, RACING_BET_STATUS.open)));
      expect(open).toEqual([]);
      const placed = outcomes.slice(0, -1).filter((o) => o === 'placed').length;
      expect(await db.select().from(racingBets).where(eq(racingBets.raceId, race!.id))).toHaveLength(placed);
    }
    await clean();
  });
});

describe('upgrading an install to the racing pages', () => {
  const RACING_KEYS = flattenRacing();
  const keysOf = async (roleId: number) =>
    (await t.database.db.select({ key: menuItems.key }).from(roleMenus).innerJoin(menuItems, eq(menuItems.id, roleMenus.menuId)).where(eq(roleMenus.roleId, roleId)))
      .map((r) => r.key)
      .filter((k) => k.startsWith('racing'))
      .sort();

  it('gives every role the racing pages of the casino pages it held, once; the super admin sees the section', async () => {
    const db = t.database.db;
    const desk = await makeRole(t, 'Casino desk before racing', ['casino', 'casino_order', 'casino_order:export', 'casino_config', 'casino_config:edit', 'history_statistics']);
    const cs = await makeRole(t, 'No casino', ['system', 'log']);
    // The install as it was before the racing pages: none in the catalogue (nor any role).
    await db.delete(menuItems).where(sql`${menuItems.key} LIKE 'racing%'`);
    expect(await keysOf(desk)).toEqual([]);
    await seed(db, { adminPassword: ADMIN_PASSWORD, demo: false });
    expect(await keysOf(desk)).toEqual(
      ['racing', 'racing_coin', 'racing_coin:export', 'racing_config', 'racing_config:edit', 'racing_order', 'racing_order:export', 'racing_race', 'racing_race:export', 'racing_statistics'].sort(),
    );
    expect(await keysOf(cs)).toEqual([]);
    // The seeded Administrator gets the whole new section (new catalogue entries), the super admin sees it.
    const [adminRole] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'Administrator'));
    expect(await keysOf(adminRole!.id)).toEqual(RACING_KEYS);
    const me = await t.call('GET', '/api/v1/auth/me', { token: await t.login('admin', ADMIN_PASSWORD) });
    const section = me.body.menus.find((g: any) => g.key === 'racing');
    expect(section?.children.filter((c: any) => c.type === 1).map((c: any) => c.key)).toEqual(['racing_race', 'racing_order', 'racing_coin', 'racing_config', 'racing_statistics']);
    // A holder of the new pages reads racing at once (the seed bumped the role's version).
    await makeAdmin(t, 'old_desk', desk, w.rootId);
    expect((await t.call('GET', '/api/v1/racing/races', { token: await t.login('old_desk') })).status).toBe(200);
    // Once only: a page the operator takes away afterwards stays away at the next start.
    const [order] = await db.select({ id: menuItems.id }).from(menuItems).where(eq(menuItems.key, 'racing_order'));
    await db.delete(roleMenus).where(and(eq(roleMenus.roleId, desk), eq(roleMenus.menuId, order!.id)));
    await seed(db, { adminPassword: ADMIN_PASSWORD, demo: false });
    expect(await keysOf(desk)).not.toContain('racing_order');
    expect(await keysOf(desk)).toContain('racing_race');
  });
});

function flattenRacing(): string[] {
  return flattenCatalogue().filter((e) => e.key === 'racing' || e.parentKey === 'racing' || e.key.startsWith('racing_')).map((e) => e.key).sort();
}
