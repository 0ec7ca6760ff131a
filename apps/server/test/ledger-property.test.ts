import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq, inArray } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE } from '@dau/domain';
import { freshDatabase } from './helpers.js';
import { bettors } from '../src/modules/money/schema.js';
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

  it('the invariant checker finds a tampered bill (so the property above can fail)', async () => {
    const [b] = await d.db.insert(bettors).values({ phone: '255699999999', agentId: 1 }).returning({ id: bettors.id });
    await d.db.transaction((tx) => post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: 1000, type: BILL_TYPE.user_recharge, cause: { type: 'recharge' }, house: HOUSE.clearing(4) }));
    await d.db.update(bettors).set({ cashBalance: 999 }).where(eq(bettors.id, b.id));
    const problems = await checkInvariants(d.db);
    expect(problems.some((p) => p.includes(`bettor ${b.id} account 1`))).toBe(true);
    await d.db.update(bettors).set({ cashBalance: 1000 }).where(eq(bettors.id, b.id));
  });
});
