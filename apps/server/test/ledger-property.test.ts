import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq, inArray, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE } from '@dau/domain';
import { freshDatabase } from './helpers.js';
import { bettors, bills, houseEntries } from '../src/schema.js';
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

  it('a credit to a bettor in debt is booked even when a smaller debt remains (only debits are guarded)', async () => {
    const [b] = await d.db.insert(bettors).values({ phone: '255677777777', agentId: 1 }).returning({ id: bettors.id });
    const cash = (amount: number, type: number, allowNegative?: boolean) =>
      d.db.transaction((tx) => post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount, type, cause: { type: 'order', id: 2 }, house: HOUSE.payouts, allowNegative }));
    await cash(1_000, BILL_TYPE.bet_payout);
    await cash(-1_500, BILL_TYPE.amount_rolled_back, true);
    expect(await cash(200, BILL_TYPE.user_recharge)).toMatchObject({ balanceBefore: -500, balanceAfter: -300 });
    await expect(cash(-1, BILL_TYPE.bet)).rejects.toMatchObject({ status: 422, code: 'INSUFFICIENT_BALANCE' });
    expect(await cash(300, BILL_TYPE.user_recharge)).toMatchObject({ balanceBefore: -300, balanceAfter: 0 });
    expect(await checkInvariants(d.db)).toEqual([]);
  });

  it('post answers the bill it wrote: remark kind and parameters, admin, the time it is backdated to, its house entry', async () => {
    const [b] = await d.db.insert(bettors).values({ phone: '255666666666', agentId: 1 }).returning({ id: bettors.id });
    const at = new Date(Date.UTC(2026, 0, 15, 10, 30, 0, 123));
    const posted = await d.db.transaction((tx) =>
      post(tx, {
        bettorId: b.id, account: ACCOUNT_KIND.credit, amount: 4_321, type: CREDIT_BILL_TYPE.activity_credit_granted, cause: { type: 'promotion', id: 77 },
        house: HOUSE.creditIssued, adminId: 1, remark: { kind: 'campaign', params: { name: 'Launch', n: 3 }, text: 'typed' }, txnId: 'txn-ledger-post-1', at,
      }),
    );
    const [row] = await d.db.select().from(bills).where(eq(bills.id, posted.id));
    expect(row).toMatchObject({
      serialNumber: posted.serialNumber, bettorId: b.id, agentId: 1, accountKind: ACCOUNT_KIND.credit, type: CREDIT_BILL_TYPE.activity_credit_granted,
      amount: 4_321, balanceBefore: 0, balanceAfter: 4_321, causeType: 'promotion', causeId: '77', adminId: 1, remark: 'typed',
      remarkKind: 'campaign', remarkParams: { name: 'Launch', n: 3 }, txnId: 'txn-ledger-post-1',
    });
    expect(row!.createdAt.getTime()).toBe(at.getTime());
    expect(posted).toEqual({
      id: row!.id, serialNumber: row!.serialNumber, bettorId: b.id, accountKind: ACCOUNT_KIND.credit, type: CREDIT_BILL_TYPE.activity_credit_granted,
      amount: 4_321, balanceBefore: 0, balanceAfter: 4_321, createdAt: at, txnId: 'txn-ledger-post-1',
    });
    expect(posted.serialNumber.startsWith('C')).toBe(true);
    const house = await d.db.select().from(houseEntries).where(eq(houseEntries.txnId, 'txn-ledger-post-1'));
    expect(house.map((h) => [h.account, h.amount, h.billType, h.createdAt.getTime()])).toEqual([[HOUSE.creditIssued, -4_321, CREDIT_BILL_TYPE.activity_credit_granted, at.getTime()]]);
    const [bal] = await d.db.select().from(bettors).where(eq(bettors.id, b.id));
    expect([bal!.cashBalance, bal!.creditBalance]).toEqual([0, 4_321]);
    // An unknown bettor is 404, not a refusal for the balance; nothing is written.
    await expect(d.db.transaction((tx) => post(tx, { bettorId: 999_999_999, account: ACCOUNT_KIND.cash, amount: 1, type: BILL_TYPE.user_recharge, cause: { type: 'recharge' }, house: HOUSE.clearing(3) })))
      .rejects.toMatchObject({ status: 404 });
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
