import { eq, inArray, like, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE, PAY_TYPE, networkOf } from '@dau/domain';
import { admins } from '../platform/schema.js';
import { activityQualifications, bettors, recharges, sandboxOperatorTxns, withdrawals } from '../schema.js';
import { HOUSE, newSerial, post, registerBettor } from '../modules/money/index.js';
import type { Db } from '../platform/db.js';
import { Rng } from './rng.js';

const FIRST = ['Amani', 'Baraka', 'Neema', 'Juma', 'Rehema', 'Faraji', 'Zawadi', 'Hassani', 'Upendo', 'Salim', 'Mwajuma', 'Tumaini', 'Halima', 'Idrisa', 'Pendo', 'Saidi', 'Subira', 'Omari', 'Imani', 'Yusufu'];
const LAST = ['Mwakyusa', 'Shirima', 'Kimaro', 'Lema', 'Mushi', 'Said', 'Massawe', 'Mrema', 'Kweka', 'Mollel', 'Nyerere', 'Mbwambo', 'Swai', 'Temba', 'Urio'];
const PREFIXES = ['65', '67', '71', '75', '76', '68', '62', '74', '78']; // Tigo, Airtel, Vodacom, Halotel ranges
/** The pay type of a demo number's network: the domain's prefix table (issue 28), so demo withdrawals pass the network check. */
export const operatorOf = (phone: string) => networkOf(phone)?.payType ?? PAY_TYPE.vodacom;

export function demoPhone(rng: Rng): string {
  return `255${rng.pick(PREFIXES)}${String(rng.int(0, 9_999_999)).padStart(7, '0')}`;
}

/**
 * Demo bettors with 60 days of history (so the 30-day archives have rows): recharges, bets and payouts,
 * admin corrections, credit money and activity qualifications. Everything goes through the ledger service,
 * so balances equal the sum of bills and the journal balances.
 */
export async function seedDemoMoney(db: Db, seed = 2026): Promise<number> {
  const rng = new Rng(seed);
  const agents = await db.select({ id: admins.id, account: admins.account }).from(admins).where(like(admins.account, 'agent_%'));
  if (!agents.length) return 0;
  const [ops] = await db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'ops_lead'));
  const ids: number[] = [];
  for (let i = 0; i < 60; i++) {
    const b = await registerBettor(db, { phone: demoPhone(rng), name: `${rng.pick(FIRST)} ${rng.pick(LAST)}`, agentId: rng.pick(agents).id }).catch(() => null);
    if (b) ids.push(b.id);
  }
  const rows = await db.select().from(bettors).where(inArray(bettors.id, ids));
  const now = Date.now();
  for (const b of rows) {
    let t = now - 60 * 86_400_000 + rng.int(0, 5 * 86_400_000);
    // The account exists from just before its first movement.
    await db.update(bettors).set({ createdAt: new Date(t - rng.int(600_000, 86_400_000)) }).where(eq(bettors.id, b.id));
    const events = rng.int(4, 18);
    for (let e = 0; e < events && t < now - 60_000; e++) {
      const at = new Date(t);
      await db.transaction(async (tx) => {
        const [cur] = await tx.select({ cash: bettors.cashBalance }).from(bettors).where(eq(bettors.id, b.id));
        const roll = rng.next();
        if (cur.cash < 2_000_00 || roll < 0.25) {
          const amount = rng.pick([1_000_00, 2_000_00, 5_000_00, 10_000_00, 20_000_00, 50_000_00]);
          const payType = operatorOf(b.phone);
          const [rc] = await tx
            .insert(recharges)
            .values({
              serialNumber: newSerial('R'), bettorId: b.id, agentId: b.agentId, amount, payType, phone: b.phone,
              carrierOrderNumber: `DEMO${payType}${rng.int(10_000_000, 99_999_999)}`, payStatus: 2, previousRechargeAt: b.lastRechargeAt,
              callbackCount: 1, createdAt: at, paidAt: new Date(at.getTime() + rng.int(5, 90) * 1000), updatedAt: at,
            })
            .returning({ id: recharges.id, serialNumber: recharges.serialNumber, carrierOrderNumber: recharges.carrierOrderNumber, paidAt: recharges.paidAt });
          await operatorBooks(tx, { kind: 'collect', payType, reference: rc.serialNumber, carrierRef: rc.carrierOrderNumber!, phone: b.phone, amount, at: rc.paidAt! });
          await post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount, type: BILL_TYPE.user_recharge, cause: { type: 'recharge', id: rc.id }, house: HOUSE.clearing(payType), at });
          await tx.update(bettors).set({ totalRecharge: b.totalRecharge + amount, lastRechargeAt: at }).where(eq(bettors.id, b.id));
          b.totalRecharge += amount;
          b.lastRechargeAt = at;
        } else if (roll < 0.85) {
          const stake = Math.min(cur.cash, rng.pick([500_00, 1_000_00, 2_000_00, 5_000_00]));
          const bet = await post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: -stake, type: BILL_TYPE.bet, cause: { type: 'order', id: `demo-o-${b.id}-${e}` }, house: HOUSE.stakesHeld, at });
          let payout = 0;
          if (rng.next() < 0.4) {
            payout = Math.floor((stake * rng.int(150, 600)) / 100);
            await post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: payout, type: BILL_TYPE.bet_payout, cause: { type: 'order', id: `demo-o-${b.id}-${e}` }, house: HOUSE.payouts, txnId: bet.txnId, at: new Date(t + 3_600_000) });
          }
          await tx
            .update(bettors)
            .set({
              totalBets: sql`${bettors.totalBets} + ${stake}`,
              betsNum: sql`${bettors.betsNum} + 1`,
              profitNum: sql`${bettors.profitNum} + ${payout > 0 ? 1 : 0}`,
              bettingProfit: sql`${bettors.bettingProfit} + ${payout - stake}`,
            })
            .where(eq(bettors.id, b.id));
        } else if (roll < 0.92 && cur.cash >= 5_000_00) {
          // A withdrawal of the past, paid through the bettor's operator.
          const amount = Math.min(cur.cash, rng.pick([5_000_00, 10_000_00, 20_000_00]));
          const payType = operatorOf(b.phone);
          const [wd] = await tx
            .insert(withdrawals)
            .values({
              serialNumber: newSerial('W'), bettorId: b.id, agentId: b.agentId, amount, payType, phone: b.phone, status: 4, payStatus: 2,
              carrierOrderNumber: `DEMO${payType}${rng.int(10_000_000, 99_999_999)}`, firstApproverId: ops?.id ?? null,
              previousRechargeAt: b.lastRechargeAt, createdAt: at, reviewedAt: new Date(at.getTime() + 600_000),
              disbursedAt: new Date(at.getTime() + 600_000), paidAt: new Date(at.getTime() + 660_000), updatedAt: at,
            })
            .returning({ id: withdrawals.id, serialNumber: withdrawals.serialNumber, carrierOrderNumber: withdrawals.carrierOrderNumber, paidAt: withdrawals.paidAt });
          await operatorBooks(tx, { kind: 'disburse', payType, reference: wd.serialNumber, carrierRef: wd.carrierOrderNumber!, phone: b.phone, amount, at: wd.paidAt! });
          await post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: -amount, type: BILL_TYPE.user_withdrawal, cause: { type: 'withdrawal', id: wd.id }, house: HOUSE.clearing(payType), at });
          await tx.update(bettors).set({ totalWithdrawal: b.totalWithdrawal + amount }).where(eq(bettors.id, b.id));
          b.totalWithdrawal += amount;
        } else if (ops) {
          const amount = rng.pick([500_00, 1_000_00, -200_00]);
          if (cur.cash + amount >= 0) {
            await post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount, type: BILL_TYPE.admin_balance_change, cause: { type: 'admin', id: ops.id }, house: HOUSE.adminAdjustments, adminId: ops.id, remark: amount > 0 ? 'Goodwill credit after payment delay' : 'Duplicate bonus corrected', at });
          }
        }
      });
      t += rng.int(2, 8) * 86_400_000 * rng.next() + rng.int(600_000, 86_400_000);
    }
    if (rng.next() < 0.3) {
      await db.transaction((tx) => post(tx, { bettorId: b.id, account: ACCOUNT_KIND.credit, amount: rng.pick([500_00, 1_000_00]), type: CREDIT_BILL_TYPE.activity_credit_granted, cause: { type: 'promotion' }, house: HOUSE.creditIssued, remark: 'Welcome free bet' }));
    }
    if (rng.next() < 0.4) {
      await db.insert(activityQualifications).values({ bettorId: b.id, agentId: b.agentId, activity: rng.pick(['Weekend accumulator', 'First deposit bonus', 'Refer a friend', 'Jackpot week']), status: rng.next() < 0.5 ? 1 : 2 }).onConflictDoNothing();
    }
  }
  await db.update(bettors).set({ onlineStatus: 2, onlineUpdatedAt: new Date(), lastLoginAt: new Date() }).where(inArray(bettors.id, ids.slice(0, 12)));
  await seedDemoDoubts(db, ids, new Rng(seed + 1));
  return ids.length;
}

/**
 * The operator's side of a demo payment of the past: the sandbox operator's books (the transaction it
 * completed), so the daily statement it serves for a demo day matches our payments, as it would with a real
 * operator. Without it, a fresh demo's first reconciliation flagged every demo payment of yesterday as ours
 * only and greeted the operator with a mismatch notice.
 */
async function operatorBooks(
  tx: Pick<Db, 'insert'>,
  p: { kind: 'collect' | 'disburse'; payType: number; reference: string; carrierRef: string; phone: string; amount: number; at: Date },
) {
  await tx.insert(sandboxOperatorTxns).values({
    payType: p.payType, kind: p.kind, reference: p.reference, carrierRef: p.carrierRef, phone: p.phone, amount: p.amount,
    status: 'success', plannedStatus: 'success', callbacks: 1, dueAt: p.at.getTime(), createdAt: p.at, completedAt: p.at,
  });
}

/**
 * Payments in doubt for the stuck queue's "reconcile": two withdrawals that were sent to the operator
 * (its order number known, one attempt) two hours ago and that the operator now answers "unknown", and
 * one such recharge. Their money is where the services leave it: a withdrawal's amount held in the
 * withdrawals clearing account, nothing credited for the recharge.
 */
async function seedDemoDoubts(db: Db, ids: number[], rng: Rng) {
  const since = new Date(Date.now() - 2 * 3_600_000);
  const cause = (ref: string) => `Unknown at the operator after 60 minutes although it was sent (1 attempt, operator number ${ref})`;
  const payers = await db.select().from(bettors).where(inArray(bettors.id, ids));
  const rich = payers.filter((b) => b.cashBalance >= 30_000_00).slice(0, 2);
  for (const b of rich) {
    const payType = operatorOf(b.phone);
    const ref = `DEMO${payType}${rng.int(10_000_000, 99_999_999)}`;
    const amount = rng.pick([10_000_00, 15_000_00, 25_000_00]);
    await db.transaction(async (tx) => {
      const [wd] = await tx
        .insert(withdrawals)
        .values({
          serialNumber: newSerial('W'), bettorId: b.id, agentId: b.agentId, amount, payType, phone: b.phone, status: 3, payStatus: 1,
          carrierOrderNumber: ref, disburseAttempts: 1, previousRechargeAt: b.lastRechargeAt, createdAt: since, reviewedAt: since, disbursedAt: since,
          updatedAt: since, reconcileSince: new Date(since.getTime() + 3_600_000), reconcileCause: cause(ref),
        })
        .returning({ id: withdrawals.id });
      await post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: -amount, type: BILL_TYPE.user_withdrawal, cause: { type: 'withdrawal', id: wd.id }, house: HOUSE.withdrawalsClearing, at: since });
    });
  }
  const payer = payers[rich.length];
  if (payer) {
    const payType = operatorOf(payer.phone);
    const ref = `DEMO${payType}${rng.int(10_000_000, 99_999_999)}`;
    await db.insert(recharges).values({
      serialNumber: newSerial('R'), bettorId: payer.id, agentId: payer.agentId, amount: 5_000_00, payType, phone: payer.phone, carrierOrderNumber: ref,
      payStatus: 1, previousRechargeAt: payer.lastRechargeAt, createdAt: since, updatedAt: since,
      reconcileSince: new Date(since.getTime() + 3_600_000), reconcileCause: `Unknown at the operator after 60 minutes although it gave its number ${ref}`,
    });
  }
}
