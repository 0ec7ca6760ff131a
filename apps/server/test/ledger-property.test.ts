import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq, inArray, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE } from '@dau/domain';
import { freshDatabase } from './helpers.js';
import { bettors, bills } from '../src/modules/money/schema.js';
import { HOUSE, checkInvariants, post } from '../src/modules/money/ledger.js';
import type { Database } from '../src/platform/db.js';

/**
 * Random sequences of deposits, bets, refunds, withdrawals and admin edits on a few bettors, against an
 * in-memory model: every accepted movement changes the model, every refused one (it would go below
 * zero) changes nothing, and the ledger invariants hold after each sequence.
 */
type Op = { kind: 'deposit' | 'bet' | 'refund' | 'withdraw' | 'edit' | 'credit_grant' | 'credit_bet'; who: number; amount: number };

const OPS: Record<Op['kind'], { account: 1 | 2; sign: 1 | -1 | 0; type: number; house: string }> = {
  deposit: { account: 1, sign: 1, type: BILL_TYPE.user_recharge, house: HOUSE.clearing(3) },
  bet: { account: 1, sign: -1, type: BILL_TYPE.bet, house: HOUSE.stakesHeld },
  refund: { account: 1, sign: 1, type: BILL_TYPE.amount_rolled_back, house: HOUSE.stakesHeld },
  withdraw: { account: 1, sign: -1, type: BILL_TYPE.user_withdrawal, house: HOUSE.withdrawalsClearing },
  edit: { account: 1, sign: 0, type: BILL_TYPE.admin_balance_change, house: HOUSE.adminAdjustments },
  credit_grant: { account: 2, sign: 1, type: CREDIT_BILL_TYPE.activity_credit_granted, house: HOUSE.creditIssued },
  credit_bet: { account: 2, sign: -1, type: CREDIT_BILL_TYPE.credit_bet, house: HOUSE.stakesHeld },
};

const opArb = fc.record({
  kind: fc.constantFrom(...(Object.keys(OPS) as Op['kind'][])),
  who: fc.integer({ min: 0, max: 2 }),
  amount: fc.integer({ min: 1, max: 5_000_000 }),
  negative: fc.boolean(),
}).map(({ kind, who, amount, negative }) => ({ kind, who, amount: OPS[kind].sign === 0 && negative ? -amount : amount }));

let d: Database & { dispose(): Promise<void> };
beforeAll(async () => {
  d = await freshDatabase();
});
afterAll(() => d?.dispose());

describe('ledger against an in-memory model', () => {
  it('keeps balance = sum of bills, chained bills, no negative balance, balanced journal', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        run += 1;
        const ids: number[] = [];
        for (let i = 0; i < 3; i++) {
          const [b] = await d.db.insert(bettors).values({ phone: `2556${String(run * 10 + i).padStart(8, '0')}`, agentId: 1 }).returning({ id: bettors.id });
          ids.push(b.id);
        }
        const model = ids.map(() => ({ cash: 0, credit: 0 }));
        for (const op of ops) {
          const spec = OPS[op.kind];
          const amount = spec.sign === 0 ? op.amount : spec.sign * op.amount;
          const key = spec.account === 1 ? 'cash' : 'credit';
          const ok = model[op.who][key] + amount >= 0;
          let accepted = true;
          try {
            await d.db.transaction((tx) =>
              post(tx, { bettorId: ids[op.who], account: spec.account === 1 ? ACCOUNT_KIND.cash : ACCOUNT_KIND.credit, amount, type: spec.type, cause: { type: 'admin' }, house: spec.house }),
            );
          } catch (e) {
            accepted = false;
            expect((e as { code?: string }).code).toBe('INSUFFICIENT_BALANCE');
          }
          expect(accepted).toBe(ok);
          if (accepted) model[op.who][key] += amount;
        }
        const rows = await d.db.select().from(bettors).where(inArray(bettors.id, ids));
        for (const [i, id] of ids.entries()) {
          const row = rows.find((r) => r.id === id)!;
          expect(row.cashBalance).toBe(model[i].cash);
          expect(row.creditBalance).toBe(model[i].credit);
        }
        expect(await checkInvariants(d.db)).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it('allowNegative: only a correction (amount rolled back / credit refund) may take a balance below zero', async () => {
    const [b] = await d.db.insert(bettors).values({ phone: '255688888888', agentId: 1 }).returning({ id: bettors.id });
    const cash = (amount: number, type: number, allowNegative?: boolean) =>
      d.db.transaction((tx) => post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount, type, cause: { type: 'order', id: 1 }, house: HOUSE.payouts, allowNegative }));
    const refused = (p: Promise<unknown>) => p.then(() => null, (e: { status?: number; code?: string }) => [e.status, e.code]);
    const billCount = async () => (await d.db.select().from(bills).where(eq(bills.bettorId, b.id))).length;
    await cash(1_000, BILL_TYPE.bet_payout);
    // Without the flag the guard holds, whatever the type.
    expect(await refused(cash(-1_500, BILL_TYPE.amount_rolled_back))).toEqual([422, 'INSUFFICIENT_BALANCE']);
    // The flag on any other type is a programming error: refused before anything is written.
    expect(await refused(cash(-1_500, BILL_TYPE.bet, true))).toEqual([400, 'AMOUNT_INVALID']);
    expect(await billCount()).toBe(1);
    // A rollback of winnings already spent: the balance goes to -500, a debt.
    const debt = await cash(-1_500, BILL_TYPE.amount_rolled_back, true);
    expect(debt).toMatchObject({ amount: -1_500, balanceBefore: 1_000, balanceAfter: -500 });
    const [row] = await d.db.select().from(bettors).where(eq(bettors.id, b.id));
    expect(row.cashBalance).toBe(-500);
    // While in debt, an ordinary debit is still refused; the next deposit covers the debt first.
    expect(await refused(cash(-1, BILL_TYPE.bet))).toEqual([422, 'INSUFFICIENT_BALANCE']);
    expect(await cash(2_000, BILL_TYPE.user_recharge)).toMatchObject({ balanceBefore: -500, balanceAfter: 1_500 });
    // The credit account's correction type works the same way.
    await d.db.transaction((tx) => post(tx, { bettorId: b.id, account: ACCOUNT_KIND.credit, amount: 300, type: CREDIT_BILL_TYPE.credit_refund, cause: { type: 'order', id: 1 }, house: HOUSE.stakesHeld }));
    const creditDebt = await d.db.transaction((tx) =>
      post(tx, { bettorId: b.id, account: ACCOUNT_KIND.credit, amount: -800, type: CREDIT_BILL_TYPE.credit_refund, cause: { type: 'order', id: 1 }, house: HOUSE.stakesHeld, allowNegative: true }),
    );
    expect(creditDebt.balanceAfter).toBe(-500);
    expect(await checkInvariants(d.db)).toEqual([]);
    // A negative balance left by any other bill type is what the checker reports (a broken guard).
    await d.db.execute(sql`UPDATE bills SET type = ${BILL_TYPE.bet} WHERE id = ${debt.id}`);
    expect((await checkInvariants(d.db)).some((p) => p.startsWith(`bill ${debt.id}:`))).toBe(true);
    await d.db.execute(sql`UPDATE bills SET type = ${BILL_TYPE.amount_rolled_back} WHERE id = ${debt.id}`);
    expect(await checkInvariants(d.db)).toEqual([]);
  });

  it('the invariant checker finds a tampered bill (so the property above can fail)', async () => {
    const [b] = await d.db.insert(bettors).values({ phone: '255699999999', agentId: 1 }).returning({ id: bettors.id });
    await d.db.transaction((tx) => post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: 1000, type: BILL_TYPE.user_recharge, cause: { type: 'recharge' }, house: HOUSE.clearing(4) }));
    await d.db.update(bettors).set({ cashBalance: 999 }).where(eq(bettors.id, b.id));
    const problems = await checkInvariants(d.db);
    expect(problems.some((p) => p.includes(`bettor ${b.id} account 1`))).toBe(true);
    await d.db.update(bettors).set({ cashBalance: 1000 }).where(eq(bettors.id, b.id));
  });
});
