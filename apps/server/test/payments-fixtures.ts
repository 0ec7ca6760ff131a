import { and, eq, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, PAY_STATUS, PAY_TYPE, WITHDRAWAL_STATUS, exampleNumber } from '@dau/domain';
import { bettors, bills, houseEntries, recharges, withdrawals } from '../src/schema.js';
import { menuItems, roleMenus, roles } from '../src/platform/schema.js';
import { HOUSE, post } from '../src/modules/money/ledger.js';
import { ManualScheduler } from '../src/modules/payments/operators.js';
import { paymentsOf } from '../src/modules/payments/callbacks.js';
import { startRecharge } from '../src/modules/payments/recharges.js';
import { DISBURSE_JOB, approveWithdrawal, requestWithdrawal } from '../src/modules/payments/withdrawals.js';
import { requeryRecharge, requeryWithdrawal } from '../src/modules/payments/reconciliation.js';
import { paymentSettings, type Actor } from '../src/modules/payments/shared.js';
import { sandboxOperatorTxns } from '../src/modules/payments/schema.js';
import type { TestApp } from './helpers.js';

/** The money pages and buttons of this module, as a role would hold them. */
export const PAYMENT_KEYS = [
  'recharge_list', 'recharge_list:requery', 'recharge_list:reconcile', 'recharge_list:export', 'cs_recharge', 'recharge_archive',
  'withdraw_list', 'withdraw_list:approve', 'withdraw_list:refuse', 'withdraw_list:requery', 'withdraw_list:reconcile', 'withdraw_list:export',
  'cs_withdraw', 'withdrawal_archive', 'airtel_transfer', 'airtel_transfer:requery', 'pay_config',
];

/** Adds catalogue keys to an existing role (and bumps its version, as the role screen does). */
export async function grantKeys(t: TestApp, roleId: number, keys: string[]) {
  const db = t.database.db;
  for (const key of keys) {
    const [m] = await db.select({ id: menuItems.id }).from(menuItems).where(eq(menuItems.key, key));
    if (!m) throw new Error(`no catalogue key ${key}`);
    await db.insert(roleMenus).values({ roleId, menuId: m.id }).onConflictDoNothing();
  }
  await db.update(roles).set({ version: sql`${roles.version} + 1` }).where(eq(roles.id, roleId));
}

let seq = 0;
/**
 * A bettor of an agent, inserted directly, funded with a recharge bill against an operator's clearing account.
 * Their number is on the network of `payType` (the number decides the network: a withdrawal through another
 * operator is refused).
 */
export async function makePayer(t: TestApp, agentId: number, cash = 0, payType: number = PAY_TYPE.vodacom) {
  seq += 1;
  const phone = exampleNumber(payType, (seq * 37 + Math.floor(Math.random() * 30)) % 10_000_000);
  const [b] = await t.database.db.insert(bettors).values({ phone, name: `Payer ${seq}`, agentId }).returning();
  if (cash) {
    await t.database.db.transaction((tx) =>
      post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: cash, type: BILL_TYPE.user_recharge, cause: { type: 'recharge', id: `fund-${b.id}` }, house: HOUSE.clearing(6) }),
    );
  }
  return b;
}

export async function balanceOf(t: TestApp, bettorId: number) {
  const [b] = await t.database.db.select().from(bettors).where(eq(bettors.id, bettorId));
  return b;
}

export async function billsOf(t: TestApp, bettorId: number, type?: number) {
  return t.database.db
    .select()
    .from(bills)
    .where(and(eq(bills.bettorId, bettorId), type ? eq(bills.type, type) : undefined))
    .orderBy(bills.id);
}

/** Simulated time for the sandboxes: nothing is delivered until the test says so. */
export function manualClock(t: TestApp) {
  const clock = new ManualScheduler();
  const rt = paymentsOf(t.ctx);
  rt.setScheduler(clock);
  return { clock, rt };
}

/**
 * The withdrawals clearing account holds exactly the money of withdrawals still in flight (requested,
 * under review, disbursing): what the house owes bettors who asked to withdraw.
 */
export async function withdrawalsClearingProblems(t: TestApp): Promise<string[]> {
  const db = t.database.db;
  const [h] = await db.select({ s: sql<string>`coalesce(sum(${houseEntries.amount}), 0)` }).from(houseEntries).where(eq(houseEntries.account, HOUSE.withdrawalsClearing));
  const [w] = await db.select({ s: sql<string>`coalesce(sum(${withdrawals.amount}), 0)` }).from(withdrawals).where(sql`${withdrawals.status} in (1, 2, 3)`);
  return Number(h.s) === Number(w.s) ? [] : [`withdrawals clearing ${h.s} != in-flight withdrawals ${w.s}`];
}

/** A callback body as the sandboxes send it. */
export function callbackJson(o: { eventId: string; kind?: 'collection' | 'disbursement'; reference: string; carrierRef: string; status?: 'SUCCESS' | 'FAILED'; amount: string; msisdn?: string; reason?: string }) {
  return JSON.stringify({
    event_id: o.eventId, event: o.kind ?? 'collection', reference: o.reference, transaction_id: o.carrierRef, status: o.status ?? 'SUCCESS',
    amount: o.amount, currency: 'TZS', msisdn: o.msisdn ?? '255700000000', ...(o.reason ? { reason: o.reason } : {}), timestamp: new Date().toISOString(),
  });
}

/** Waits until every queued disbursement job has run (approve enqueues one; its retries included). */
export const disbursed = (t: TestApp) => t.ctx.jobs.drain([DISBURSE_JOB]);

/**
 * The sandbox operator forgets a transaction, as the in-memory sandboxes did when the server restarted
 * (issue 11 finding 2): a re-query then answers "unknown".
 */
export async function operatorForgets(t: TestApp, reference: string) {
  await t.database.db.delete(sandboxOperatorTxns).where(eq(sandboxOperatorTxns.reference, reference));
}

/** The sandbox operators' own rows for a reference (one per operator and reference, by its unique key). */
export async function operatorRows(t: TestApp, reference: string) {
  return t.database.db.select().from(sandboxOperatorTxns).where(eq(sandboxOperatorTxns.reference, reference));
}

/** Moves a payment's creation (and a withdrawal's sending) back past the operator timeout plus five minutes. */
async function pastTimeout(t: TestApp, table: typeof recharges | typeof withdrawals, id: number) {
  const db = t.database.db;
  const back = sql`make_interval(mins => ${(await paymentSettings(db)).disburseTimeoutMinutes + 5})`;
  if (table === withdrawals) {
    await db.update(withdrawals).set({ createdAt: sql`${withdrawals.createdAt} - ${back}`, disbursedAt: sql`${withdrawals.disbursedAt} - ${back}` }).where(eq(withdrawals.id, id));
  } else {
    await db.update(recharges).set({ createdAt: sql`${recharges.createdAt} - ${back}` }).where(eq(recharges.id, id));
  }
}

/**
 * A withdrawal really waiting for reconciliation, made through the product's own services so the ledger
 * stays whole: requested (its amount held), approved by `approverId`, sent (the operator gave its number
 * and sends no callback), then the operator forgets it and a re-query past the timeout flags it.
 */
export async function withdrawalAwaitingReconciliation(t: TestApp, o: { bettorId: number; approverId: number; payType?: number; amount?: number }) {
  const db = t.database.db;
  const payType = o.payType ?? PAY_TYPE.airtel;
  const actor: Actor = { adminId: o.approverId, scope: { all: true }, req: null };
  const x = await requestWithdrawal(db, { bettorId: o.bettorId, payType, amount: o.amount ?? 2_000_00, phone: exampleNumber(payType, Math.floor(Math.random() * 9_999_999)) });
  paymentsOf(t.ctx).sandbox(payType).queue.push('no_callback');
  await approveWithdrawal(t.ctx, actor, x.id);
  await disbursed(t);
  await operatorForgets(t, x.serialNumber);
  await pastTimeout(t, withdrawals, x.id);
  const flagged = await requeryWithdrawal(db, actor, x.id);
  if (flagged.status !== WITHDRAWAL_STATUS.disbursing || !flagged.carrierOrderNumber || !flagged.reconcileSince) {
    throw new Error(`withdrawal ${x.serialNumber} is not awaiting reconciliation: ${JSON.stringify(flagged)}`);
  }
  return flagged;
}

/**
 * A recharge really waiting for reconciliation: started through the service (the operator gives its
 * number and sends no callback), forgotten by the operator, flagged by a re-query past the timeout.
 */
export async function rechargeAwaitingReconciliation(t: TestApp, o: { bettorId: number; adminId: number; payType?: number; amount?: number }) {
  const db = t.database.db;
  // Airtel: its collections are answered by callback (M-Pesa's OpenAPI answers within the call).
  const payType = o.payType ?? PAY_TYPE.airtel;
  paymentsOf(t.ctx).sandbox(payType).queue.push('no_callback');
  const r = await startRecharge(db, { bettorId: o.bettorId, payType, amount: o.amount ?? 2_000_00 });
  await operatorForgets(t, r.serialNumber);
  await pastTimeout(t, recharges, r.id);
  const flagged = await requeryRecharge(db, { adminId: o.adminId, scope: { all: true }, req: null }, r.id);
  if (flagged.payStatus !== PAY_STATUS.processing || !flagged.carrierOrderNumber || !flagged.reconcileSince) {
    throw new Error(`recharge ${r.serialNumber} is not awaiting reconciliation: ${JSON.stringify(flagged)}`);
  }
  return flagged;
}
