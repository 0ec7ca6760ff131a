/**
 * The daily close and the ledger self-check (issue 30; apps/server/src/modules/reports/close): a day of
 * activity built through the services (bets placed and settled through the feed, a casino bet and win
 * through the wallet, a deposit and a withdrawal through the operators' sandboxes), moved into a past
 * business day, then closed: every figure matches the bills to the cent, a rerun stores nothing when the
 * figures are the same and a new run beside the old one when they differ, the nightly job closes a day
 * once, a corrupted balance fails the self-check naming the bettor, and a branch admin is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ORDER_TYPE, PAY_TYPE, SPORT, addDays, dayStart, localDay } from '@dau/domain';
import { placeOrder } from '../src/modules/betting/placement';
import { startRecharge } from '../src/modules/payments/recharges';
import { requestWithdrawal } from '../src/modules/payments/withdrawals';
import { closeDueDays } from '../src/modules/reports/close/service';
import { bettors } from '../src/schema';
import { admins } from '../src/platform/schema';
import { approved, ADMIN_PASSWORD, createTestApp, exportFinished, makeWorld, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';
import { feedMatches } from './support/feed-matches';
import { disbursed, grantKeys, makePayer, manualClock } from './payments-fixtures';
import { sandboxClient, sandboxGame, session, uid } from './casino-wallet-support';

let t: TestApp;
let root: string;
let rootId: number;
let clock: ReturnType<typeof manualClock>['clock'];
const { send, match, pick, settle } = feedMatches(() => t, 'close', 'Close League');
const home = (n: number) => pick(n, '1', '2.00');

/** The business days the cases write into, far enough apart that the nightly job's look-back sees only its own. */
const today = localDay(Date.now());
const DAY_A = addDays(today, -40);
const DAY_B = addDays(today, -39);
const DAY_JOB = addDays(today, -20);


const rows = async <T>(q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;
/** The database's clock now (rows written after it belong to the case). */
const dbNow = async () => (await rows<{ now: string }>(sql`SELECT clock_timestamp()::text AS now`))[0]!.now;

/**
 * Moves what the case wrote since `since` (bills, their house entries, orders and their history) into `day`
 * at 10:00 in Dar es Salaam, keeping the order and the gaps between the rows: the day's activity, as if it
 * had happened then.
 */
async function moveInto(since: string, day: string) {
  const target = new Date(dayStart(day).getTime() + 10 * 3_600_000).toISOString();
  const shift = sql`(${target}::timestamptz - ${since}::timestamptz)`;
  const after = sql`>= ${since}::timestamptz`;
  await t.database.db.execute(sql`UPDATE bills SET created_at = created_at + ${shift} WHERE created_at ${after}`);
  await t.database.db.execute(sql`UPDATE house_entries SET created_at = created_at + ${shift} WHERE created_at ${after}`);
  await t.database.db.execute(sql`UPDATE order_events SET created_at = created_at + ${shift} WHERE created_at ${after}`);
  await t.database.db.execute(sql`
    UPDATE orders SET created_at = created_at + ${shift}, updated_at = updated_at + ${shift}, settled_at = settled_at + ${shift} WHERE created_at ${after}`);
}

/** The bills of a day straight from the table, by cause, account and type (the truth the close must match). */
async function billsOf(day: string) {
  const from = dayStart(day).toISOString();
  const to = dayStart(addDays(day, 1)).toISOString();
  const r = await rows<{ cause: string; kind: number; type: number; total: string }>(sql`
    SELECT cause_type AS cause, account_kind AS kind, type, sum(amount) AS total FROM bills
    WHERE created_at >= ${from}::timestamptz AND created_at < ${to}::timestamptz GROUP BY 1, 2, 3`);
  const sum = (pred: (x: { cause: string; kind: number; type: number }) => boolean) => r.filter(pred).reduce((s, x) => s + Number(x.total), 0);
  return { sum, all: sum(() => true) };
}
/** Every account's balance at the end of a day as the sum of its bills until then (another way than the close's). */
async function balancesAt(day: string) {
  const to = dayStart(addDays(day, 1)).toISOString();
  const r = await rows<{ kind: number; total: string }>(sql`SELECT account_kind AS kind, sum(amount) AS total FROM bills WHERE created_at < ${to}::timestamptz GROUP BY 1`);
  return (kind: number) => Number(r.find((x) => Number(x.kind) === kind)?.total ?? 0);
}

const run = (day: string, token = root) => t.call('POST', '/api/v1/reports/daily_closes/run', { token, body: { day } });
const detail = (day: string, token = root) => t.call('GET', `/api/v1/reports/daily_closes/${day}`, { token });
const check = (token = root) => t.call('POST', '/api/v1/reports/ledger_check/run', { token, body: {} });

beforeAll(async () => {
  t = await createTestApp();
  root = await t.login('admin', ADMIN_PASSWORD);
  const [r] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  rootId = r!.id;
  const payments = manualClock(t);
  clock = payments.clock;
  // The operators' sandboxes answer success (their random failures are other tests' business).
  for (const p of [PAY_TYPE.tigo, PAY_TYPE.vodacom]) payments.rt.sandbox(p).behaviour = 'success';
  expect((await t.call('PUT', '/api/v1/sports/margins', { token: root, body: { sport_id: SPORT.football, margin_bps: 0 } })).status).toBe(200);
  // 10 % withholding tax on net winnings, no accumulator bonus (singles only).
  expect((await approved(t, 'PUT', '/api/v1/betting/bet_config', { token: root, body: { tax_rate: 1000 } })).status).toBe(200);
  for (let n = 1; n <= 3; n++) await match(n);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('daily close', () => {
  it('closes a past day from the bills, to the cent, and a rerun with the same figures stores nothing', async () => {
    const since = await dbNow();
    // Sports: three singles at 2.00 — 1,000.00 won (pays 2,000.00, 100.00 tax on the 1,000.00 won), 500.00 lost, 300.00 still open.
    const player = await makeBettor(t, rootId, { cash: 10_000_00 });
    const place = (n: number, stake: number) => placeOrder(t.database.db, { bettorId: player.id, type: ORDER_TYPE.user_bet, stakeCents: stake, legs: [home(n)], skipLiveDelay: true });
    await place(1, 1_000_00);
    await place(2, 500_00);
    await place(3, 300_00);
    await send(settle(1, '1'));
    await send(settle(2, '2'));
    // Casino: a 100.00 bet, a 150.00 win and a 5.00 free win (a bonus) through the wallet.
    const wallet = await sandboxClient(t);
    const game = await sandboxGame(t);
    const s = await session(t, player.id, game.id);
    const p = { token: s.token, user: String(player.id), game_code: game.gameCode, round: uid('round'), currency: 'TZS' };
    const bet = { ...p, request_uuid: uid('rq'), transaction_uuid: uid('bet'), amount: 100_00 };
    expect((await wallet.call('transaction/bet', bet)).body).toMatchObject({ status: 'RS_OK' });
    expect((await wallet.call('transaction/win', { ...p, request_uuid: uid('rq'), transaction_uuid: uid('win'), reference_transaction_uuid: bet.transaction_uuid, amount: 150_00 })).body).toMatchObject({ status: 'RS_OK' });
    expect((await wallet.call('transaction/win', { ...p, request_uuid: uid('rq'), transaction_uuid: uid('win'), reference_transaction_uuid: bet.transaction_uuid, amount: 5_00, is_free: true })).body).toMatchObject({ status: 'RS_OK' });
    // A Tigo deposit of 25,000.00 and a Vodacom withdrawal of 20,000.00, paid by the sandboxes.
    const payer = await makePayer(t, rootId, 0, PAY_TYPE.tigo);
    const r = await startRecharge(t.database.db, { bettorId: payer.id, payType: PAY_TYPE.tigo, amount: 25_000_00 });
    const taker = await makePayer(t, rootId, 50_000_00, PAY_TYPE.vodacom);
    const w = await requestWithdrawal(t.database.db, { bettorId: taker.id, payType: PAY_TYPE.vodacom, amount: 20_000_00 });
    expect((await t.call('POST', `/api/v1/money/withdrawals/${w.id}/approve`, { token: root })).status).toBe(200);
    await disbursed(t);
    await clock.runAll();
    // Both were paid (the sandboxes answer success, see beforeAll) before the day is moved.
    expect((await rows<{ paid: boolean }>(sql`SELECT paid_at IS NOT NULL AS paid FROM recharges WHERE id = ${r.id}`))[0]!.paid).toBe(true);
    expect((await rows<{ paid: boolean }>(sql`SELECT paid_at IS NOT NULL AS paid FROM withdrawals WHERE id = ${w.id}`))[0]!.paid).toBe(true);
    await moveInto(since, DAY_A);

    const first = await run(DAY_A);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ changed: true, run: { day: DAY_A, run: 1, source: 'admin', created_by_account: 'admin' } });
    const f = first.body.run.figures;
    expect(f.products.sports).toEqual({ bets: 3, stakes: 1_800_00, bonus_stakes: 0, payouts: 2_000_00, ggr: -200_00, bonuses: 0, ngr: -200_00, tax: 100_00 });
    expect(f.products.casino).toEqual({ bets: 1, stakes: 100_00, bonus_stakes: 0, payouts: 150_00, ggr: -50_00, bonuses: 5_00, ngr: -55_00, tax: 0 });
    expect(f.products.jackpot).toMatchObject({ stakes: 0, payouts: 0, ggr: 0 });
    expect(f.total).toMatchObject({ stakes: 1_900_00, payouts: 2_150_00, ggr: -250_00, bonuses: 5_00, ngr: -255_00, tax: 100_00 });
    expect(f.open_bets).toEqual({ orders: 1, stakes: 300_00, potential_payout: 600_00 });
    const op = (payType: number) => f.payments.operators.find((o: { pay_type: number }) => o.pay_type === payType);
    expect(op(PAY_TYPE.tigo)).toEqual({ pay_type: PAY_TYPE.tigo, deposits: 25_000_00, deposit_count: 1, withdrawals: 0, withdrawal_count: 0, fees: null });
    // Vodacom: the two bettors' funding, and the withdrawal paid out.
    expect(op(PAY_TYPE.vodacom)).toEqual({ pay_type: PAY_TYPE.vodacom, deposits: 60_000_00, deposit_count: 2, withdrawals: 20_000_00, withdrawal_count: 1, fees: null });
    expect(f.payments).toMatchObject({ deposits: 85_000_00, withdrawals: 20_000_00, withdrawals_requested: 20_000_00, withdrawals_returned: 0, withdrawals_in_flight: 0 });
    expect(f.ledger).toMatchObject({ ok: true, problems: 0 });

    // Against the bills of the day, to the cent.
    const b = await billsOf(DAY_A);
    expect(f.products.sports.stakes).toBe(-b.sum((x) => x.cause === 'order' && (x.type === 1 || x.type === 103)));
    expect(f.products.casino.stakes).toBe(-b.sum((x) => x.cause === 'casino' && x.type === 23));
    expect(f.products.casino.bonuses).toBe(b.sum((x) => x.cause === 'casino' && x.type === 25));
    expect(f.payments.deposits).toBe(b.sum((x) => x.cause === 'recharge' && (x.type === 4 || x.type === 11)));
    expect(f.payments.withdrawals_requested).toBe(-b.sum((x) => x.cause === 'withdrawal' && x.type === 6));
    expect(f.movement.cash + f.movement.credit).toBe(b.all);
    // The products' bills are what the bettors lost, net of bonuses and tax: −GGR + bonuses − tax.
    expect(f.movement.products).toBe(b.sum((x) => ['order', 'casino', 'jackpot'].includes(x.cause)));
    expect(f.movement.products).toBe(-f.total.ggr + f.total.bonuses - f.total.tax);
    // The liability: each account's last balance before the end, against the sum of every bill until then.
    const at = await balancesAt(DAY_A);
    expect(f.liability.cash + f.liability.cash_debts).toBe(at(1));
    expect(f.liability.credit + f.liability.credit_debts).toBe(at(2));
    expect(f.liability.total).toBe(f.liability.cash + f.liability.credit);

    // A rerun of the past day: the same figures, nothing stored.
    const again = await run(DAY_A);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ changed: false, run: { id: first.body.run.id, run: 1 } });
    const d = await detail(DAY_A);
    expect(d.status).toBe(200);
    expect(d.body.runs).toHaveLength(1);
    expect(d.body.differences).toEqual([]);
    // The list: the day with its main figures; the export goes through the exports module.
    const list = await t.call('GET', `/api/v1/reports/daily_closes?day_from=${DAY_A}&day_to=${DAY_A}`, { token: root });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ day: DAY_A, runs: 1, differs: false, stakes: 1_900_00, ggr: -250_00, tax: 100_00, sports_ggr: -200_00, casino_bonuses: 5_00, deposits_3: 25_000_00, ledger_ok: true });
    const exp = await t.call('POST', '/api/v1/exports', { token: root, body: { type: 'daily_close', format: 2, params: { day_from: DAY_A, day_to: DAY_A } } });
    expect(exp.status, JSON.stringify(exp.body)).toBe(202);
    expect((await exportFinished(t, exp.body.id)).status).toBe(2);
  });

  it('stores a rerun that finds other figures as the next run, and shows what differs', async () => {
    const since = await dbNow();
    const b = await makeBettor(t, rootId, { cash: 2_000_00 });
    await moveInto(since, DAY_B);
    const first = await run(DAY_B);
    expect(first.status).toBe(200);
    const before = first.body.run;
    // A correction booked later into that day (an admin's balance change, moved back to it).
    const since2 = await dbNow();
    expect((await t.call('POST', `/api/v1/money/bettors/${b.id}/balance`, { token: root, body: { amount: 300_00, remark: 'late correction' } })).status).toBe(200);
    await moveInto(since2, DAY_B);
    const second = await run(DAY_B);
    expect(second.body).toMatchObject({ changed: true, run: { run: before.run + 1 } });
    expect(second.body.run.figures.movement.adjustments - before.figures.movement.adjustments).toBe(300_00);
    const d = await detail(DAY_B);
    expect(d.body.runs.map((r: { run: number }) => r.run)).toEqual([before.run + 1, before.run]);
    const diff = new Map(d.body.differences.map((x: { path: string; before: number; after: number }) => [x.path, x]));
    expect(diff.get('movement.adjustments')).toMatchObject({ run: before.run + 1, previous_run: before.run, before: before.figures.movement.adjustments, after: before.figures.movement.adjustments + 300_00 });
    expect(diff.get('liability.cash')).toMatchObject({ after: before.figures.liability.cash + 300_00 });
    expect(diff.has('products.sports.ggr')).toBe(false);
    const list = await t.call('GET', `/api/v1/reports/daily_closes?day_from=${DAY_B}&day_to=${DAY_B}&differs=true`, { token: root });
    expect(list.body.items).toMatchObject([{ day: DAY_B, runs: before.run + 1, differs: true }]);
  });

  it('the nightly job closes the last day once; a day not over is refused', async () => {
    const since = await dbNow();
    await makeBettor(t, rootId, { cash: 700_00 });
    await moveInto(since, DAY_JOB);
    const now = dayStart(addDays(DAY_JOB, 1)).getTime() + 10 * 60_000;
    const done = await closeDueDays(t.ctx, now);
    expect(done.map((c) => [c.day, c.run, c.source])).toEqual([[DAY_JOB, 1, 'job']]);
    expect(done[0]!.figures.payments.deposits).toBe(700_00);
    // Again: the day has its close, nothing new; a rerun with the same figures neither.
    expect(await closeDueDays(t.ctx, now)).toEqual([]);
    expect((await run(DAY_JOB)).body).toMatchObject({ changed: false, run: { run: 1, source: 'job', created_by: null } });
    // Today is not over; a day that is not a day is refused.
    const open = await run(today);
    expect(open.status).toBe(422);
    expect(open.body.code).toBe('CLOSE_DAY_NOT_OVER');
    expect((await run('2026-02-30')).status).toBe(400);
    expect((await detail('2001-01-01')).status).toBe(404);
  });
});

describe('ledger self-check', () => {
  it('is ok on a sound ledger; a corrupted balance fails it and names the bettor and the difference', async () => {
    const b = await makeBettor(t, rootId, { cash: 1_000_00 });
    const ok = await check();
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, problems: 0, balances: [] });
    await t.database.db.update(bettors).set({ cashBalance: sql`${bettors.cashBalance} + 12345` }).where(eq(bettors.id, b.id));
    try {
      const bad = await check();
      expect(bad.body.ok).toBe(false);
      expect(bad.body.counts.balances).toBe(1);
      expect(bad.body.balances).toEqual([{ bettor_id: b.id, phone: b.phone, account_kind: 1, balance: 1_123_45, bills_sum: 1_000_00, difference: 123_45 }]);
      // A close run meanwhile carries the failed check.
      const c = await run(addDays(today, -60));
      expect(c.body.run.figures.ledger).toMatchObject({ ok: false, problems: 1, balances: [{ bettor_id: b.id, difference: 123_45 }] });
    } finally {
      await t.database.db.update(bettors).set({ cashBalance: sql`${bettors.cashBalance} - 12345` }).where(eq(bettors.id, b.id));
    }
    expect((await check()).body.ok).toBe(true);
  });
});

describe('access', () => {
  it('a branch admin holding the pages is refused: the close and the ledger are the whole book', async () => {
    const w = await makeWorld(t);
    await grantKeys(t, w.agentRole, ['daily_close', 'daily_close:run', 'daily_close:export', 'ledger_check', 'ledger_check:run']);
    const agent = await t.login('agent_a');
    const day = addDays(today, -61);
    expect((await run(day)).status).toBe(200);
    const refusedRun = await run(day, agent);
    expect(refusedRun.status).toBe(403);
    expect(refusedRun.body.code).toBe('WHOLE_BOOK_ONLY');
    expect((await check(agent)).status).toBe(403);
    expect((await detail(day, agent)).status).toBe(403);
    // The list answers, with nothing of the house's in it.
    const list = await t.call('GET', '/api/v1/reports/daily_closes', { token: agent });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
    // Without the pages: 403 before anything.
    const limited = await t.login('limited');
    expect((await t.call('GET', '/api/v1/reports/daily_closes', { token: limited })).status).toBe(403);
  });
});
