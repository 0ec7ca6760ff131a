/**
 * The casino wallet's group commit (modules/casino/hot-batch.ts, function dau_casino_hot_batch of
 * migration 0027, redefined by 0036 to move each element's money with the ledger's dau_ledger_post):
 * movements that arrive together are applied in one statement; each element that goes well answers its
 * balance, a refused one (no money, a replayed uuid, a win for no bet) answers undefined
 * and leaves nothing behind while the others of its batch commit; a failed statement answers undefined
 * for all and writes nothing. Through the wallet routes, concurrent calls share statements. Runs on
 * PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BET_STATUS, BILL_TYPE, RISK_LEVEL, USER_DISABLED } from '@dau/domain';
import { bettors, bills, houseEntries } from '../src/schema.js';
import { HOUSE, checkInvariants, post } from '../src/modules/money/ledger';
import { casinoRounds, casinoTransactions, type casinoGames } from '../src/modules/casino/schema';
import { HotBatcher, type HotMove } from '../src/modules/casino/hot-batch';
import { walletBatchSize } from '../src/platform/metrics';
import type { Database } from '../src/platform/db';
import { createTestApp, makeWorld, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';
import { cashOf, sandboxClient, sandboxGame, session, uid } from './casino-wallet-support';

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let game: typeof casinoGames.$inferSelect;
let providerId: number;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  game = await sandboxGame(t);
  providerId = game.providerId;
}, 60_000);
afterAll(async () => {
  expect(await checkInvariants(t.database.db)).toEqual([]);
  await t?.close();
});

/** The database's `prepared`, counting the statements it runs. */
function counted(inner: Database['prepared'] = t.database.prepared) {
  const calls: number[] = [];
  const prepared: Database['prepared'] = (name, text, values) => {
    calls.push((values[0] as unknown[]).length);
    return inner(name, text, values);
  };
  return { prepared, calls };
}

const bet = (bettorId: number, o: Partial<HotMove> = {}): HotMove =>
  ({ kind: 'bet', providerId, bettorId, gameId: game.id, roundRef: uid('round'), uuid: uid('bet'), hash: uid('h'), amount: 10_00, ...o }) as HotMove;

async function writtenFor(uuids: string[]) {
  const [r] = await t.database.db.select({ n: count() }).from(casinoTransactions).where(inArray(casinoTransactions.transactionUuid, uuids));
  return r!.n;
}

describe('group commit', () => {
  it('applies movements that arrive together in one statement, each answering its own balance', async () => {
    const players = await Promise.all([1, 2, 3, 4, 5].map(() => makeBettor(t, w.agentA, { cash: 100_00 })));
    const { prepared, calls } = counted();
    const hot = new HotBatcher(prepared);
    const moves = players.map((p, i) => bet(p.id, { amount: (i + 1) * 1_00 }));
    const balances = await Promise.all(moves.map((m) => hot.apply(m)));
    expect(calls).toEqual([5]);
    expect(balances).toEqual(players.map((_, i) => 100_00 - (i + 1) * 1_00));
    for (const [i, p] of players.entries()) expect(await cashOf(t, p.id)).toBe(100_00 - (i + 1) * 1_00);
    const billRows = await t.database.db.select({ type: bills.type, amount: bills.amount }).from(bills).where(inArray(bills.bettorId, players.map((p) => p.id)));
    expect(billRows.filter((b) => b.type === BILL_TYPE.casino_bet).map((b) => b.amount).sort((a, b) => a - b)).toEqual([-5_00, -4_00, -3_00, -2_00, -1_00]);
    expect(await writtenFor(moves.map((m) => m.uuid))).toBe(5);
  });

  it('a win and a zero win of answered bets are paid in a batch (bill 24 for the win, none for the zero)', async () => {
    const p = await makeBettor(t, w.agentA, { cash: 50_00 });
    const q = await makeBettor(t, w.agentA, { cash: 50_00 });
    const hot = new HotBatcher(t.database.prepared);
    const b1 = bet(p.id);
    const b2 = bet(q.id);
    expect(await Promise.all([hot.apply(b1), hot.apply(b2)])).toEqual([40_00, 40_00]);
    const { prepared, calls } = counted();
    const hot2 = new HotBatcher(prepared);
    const win: HotMove = { kind: 'win', providerId, bettorId: p.id, roundRef: b1.roundRef, uuid: uid('win'), refUuid: b1.uuid, hash: uid('h'), amount: 25_00, free: false };
    const zero: HotMove = { kind: 'win', providerId, bettorId: q.id, roundRef: b2.roundRef, uuid: uid('win'), refUuid: b2.uuid, hash: uid('h'), amount: 0, free: false };
    expect(await Promise.all([hot2.apply(win), hot2.apply(zero)])).toEqual([65_00, 40_00]);
    expect(calls).toEqual([2]);
    const wins = await t.database.db.select({ amount: bills.amount }).from(bills).where(sql`${bills.bettorId} IN (${p.id}, ${q.id}) AND ${bills.type} = ${BILL_TYPE.casino_win}`);
    expect(wins.map((x) => x.amount)).toEqual([25_00]);
    const [round] = await t.database.db.select({ win: casinoRounds.winTotal }).from(casinoRounds).where(eq(casinoRounds.roundRef, b1.roundRef));
    expect(round!.win).toBe(25_00);
  });

  it('a refused element answers undefined and leaves nothing; the others of its batch commit', async () => {
    const rich = await makeBettor(t, w.agentA, { cash: 100_00 });
    const poor = await makeBettor(t, w.agentA, { cash: 5_00 });
    const first = new HotBatcher(t.database.prepared);
    const answered = bet(rich.id);
    expect(await first.apply(answered)).toBe(90_00);

    const { prepared, calls } = counted();
    const hot = new HotBatcher(prepared);
    const ok1 = bet(rich.id, { amount: 20_00 });
    const broke = bet(poor.id, { amount: 6_00 });
    const replayed = bet(rich.id, { uuid: answered.uuid, roundRef: answered.roundRef, hash: answered.hash });
    const orphanWin: HotMove = { kind: 'win', providerId, bettorId: rich.id, roundRef: uid('round'), uuid: uid('win'), refUuid: uid('nobet'), hash: uid('h'), amount: 5_00, free: false };
    const ok2 = bet(poor.id, { amount: 5_00 });
    const out = await Promise.all([ok1, broke, replayed, orphanWin, ok2].map((m) => hot.apply(m)));
    expect(calls).toEqual([5]);
    // Sorted by bettor inside the statement, answered in the callers' order.
    expect(out).toEqual([70_00, undefined, undefined, undefined, 0]);
    expect(await cashOf(t, rich.id)).toBe(70_00);
    expect(await cashOf(t, poor.id)).toBe(0);
    expect(await writtenFor([broke.uuid, orphanWin.uuid])).toBe(0);
    expect(await writtenFor([answered.uuid])).toBe(1);
    const [rounds] = await t.database.db.select({ n: count() }).from(casinoRounds).where(inArray(casinoRounds.roundRef, [broke.roundRef, orphanWin.roundRef]));
    expect(rounds!.n).toBe(0);
  });

  it('a statement that fails answers undefined for every element and writes nothing', async () => {
    const p = await makeBettor(t, w.agentA, { cash: 100_00 });
    const errors: string[] = [];
    const failing: Database['prepared'] = () => Promise.reject(Object.assign(new Error('connection terminated'), { code: '57P01' }));
    const hot = new HotBatcher(failing, (msg) => errors.push(msg));
    const moves = [bet(p.id), bet(p.id)];
    expect(await Promise.all(moves.map((m) => hot.apply(m)))).toEqual([undefined, undefined]);
    expect(errors).toHaveLength(1);
    expect(await cashOf(t, p.id)).toBe(100_00);
    expect(await writtenFor(moves.map((m) => m.uuid))).toBe(0);
  });

  it("moves each element's money with the ledger's posting (dau_ledger_post): the bettor's state refuses a bet, a win pays a bettor in debt", async () => {
    const hot = new HotBatcher(t.database.prepared);
    // A bettor who may not bet, for each of the three reasons: refused in the batch, nothing written.
    const barred = await Promise.all([{ disabled: USER_DISABLED.disabled }, { betStatus: BET_STATUS.not_allowed }, { riskLevel: RISK_LEVEL.no_betting }].map(async (state) => {
      const b = await makeBettor(t, w.agentA, { cash: 50_00 });
      await t.database.db.update(bettors).set(state).where(eq(bettors.id, b.id));
      return b;
    }));
    const refused = barred.map((b) => bet(b.id));
    expect(await Promise.all(refused.map((m) => hot.apply(m)))).toEqual([undefined, undefined, undefined]);
    for (const b of barred) expect(await cashOf(t, b.id)).toBe(50_00);
    expect(await writtenFor(refused.map((m) => m.uuid))).toBe(0);

    // A bettor in debt (a correction took more than the balance): a win smaller than the debt is paid, as a credit always is.
    const p = await makeBettor(t, w.agentA, { cash: 10_00 });
    const b1 = bet(p.id, { amount: 10_00 });
    expect(await hot.apply(b1)).toBe(0);
    await t.database.db.transaction((tx) =>
      post(tx, { bettorId: p.id, account: ACCOUNT_KIND.cash, amount: -5_00, type: BILL_TYPE.amount_rolled_back, cause: { type: 'order', id: 1 }, house: HOUSE.payouts, allowNegative: true }),
    );
    const win: HotMove = { kind: 'win', providerId, bettorId: p.id, roundRef: b1.roundRef, uuid: uid('win'), refUuid: b1.uuid, hash: uid('h'), amount: 3_00, free: false };
    expect(await hot.apply(win)).toBe(-2_00);
    const rows = await t.database.db
      .select({ type: bills.type, amount: bills.amount, before: bills.balanceBefore, after: bills.balanceAfter, cause: bills.causeType, txn: bills.txnId })
      .from(bills).where(eq(bills.bettorId, p.id)).orderBy(bills.id);
    expect(rows.map((r) => [r.type, r.amount, r.before, r.after])).toEqual([
      [BILL_TYPE.user_recharge, 10_00, 0, 10_00],
      [BILL_TYPE.casino_bet, -10_00, 10_00, 0],
      [BILL_TYPE.amount_rolled_back, -5_00, 0, -5_00],
      [BILL_TYPE.casino_win, 3_00, -5_00, -2_00],
    ]);
    // The win's counter-entry: the casino account pays it, in the bill's journal transaction.
    const last = rows.at(-1)!;
    expect(last.cause).toBe('casino');
    const house = await t.database.db.select({ account: houseEntries.account, amount: houseEntries.amount }).from(houseEntries).where(eq(houseEntries.txnId, last.txn));
    expect(house).toEqual([{ account: HOUSE.casino, amount: -3_00 }]);
    expect(await checkInvariants(t.database.db)).toEqual([]);
  });

  it('caps a batch at its maximum and runs the rest in the next statements', async () => {
    const p = await makeBettor(t, w.agentA, { cash: 1_000_00 });
    const { prepared, calls } = counted();
    const hot = new HotBatcher(prepared, () => {}, { maxBatch: 4, maxInFlight: 1 });
    const balances = await Promise.all(Array.from({ length: 10 }, () => hot.apply(bet(p.id, { amount: 1_00 }))));
    expect(calls).toEqual([4, 4, 2]);
    expect([...balances].sort((a, b) => b! - a!)).toEqual(Array.from({ length: 10 }, (_, i) => 1_000_00 - (i + 1) * 1_00));
  });
});

describe('through the wallet routes', () => {
  it('concurrent bets of several bettors share statements, every one answered RS_OK with its balance', async () => {
    const c = await sandboxClient(t);
    const players = await Promise.all(Array.from({ length: 12 }, async () => {
      const b = await makeBettor(t, w.agentA, { cash: 100_00 });
      const s = await session(t, b.id, game.id);
      return { id: b.id, token: s.token };
    }));
    const before = (await walletBatchSize.get()).values;
    const sumOf = (vs: typeof before) => vs.find((v) => v.metricName === 'dau_wallet_batch_size_sum')?.value ?? 0;
    const countOf = (vs: typeof before) => vs.find((v) => v.metricName === 'dau_wallet_batch_size_count')?.value ?? 0;
    const answers = await Promise.all(players.map((p) =>
      c.call('transaction/bet', {
        request_uuid: uid('rq'), token: p.token, user: String(p.id), game_code: game.gameCode, round: uid('round'), transaction_uuid: uid('bet'), currency: 'TZS', amount: 7_00,
      })));
    expect(answers.map((a) => [a.body.status, a.body.balance])).toEqual(players.map(() => ['RS_OK', 93_00]));
    const after = (await walletBatchSize.get()).values;
    // Every bet went through the group commit, in fewer statements than calls.
    expect(sumOf(after) - sumOf(before)).toBe(12);
    expect(countOf(after) - countOf(before)).toBeLessThan(12);
  });
});
