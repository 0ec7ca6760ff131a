import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ADMIN_PASSWORD, AGENT_KEYS, createTestApp, makeRole, makeAdmin, makeWorld, type TestApp } from './helpers.js';
import { and, inArray } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, LOG_TYPE } from '@dau/domain';
import { makeBettor } from './money-helpers.js';
import { activityQualifications, bettors, bills } from '../src/schema.js';
import { HOUSE, checkInvariants, post, type Cause } from '../src/modules/money/ledger.js';
import { admins, systemLogs } from '../src/platform/schema.js';

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let cashier: string;
let cashierB: string;
/** Two bettors the list and scope tests read (and no test changes): Alice under agent A1, Bob under B1. */
let alice: Awaited<ReturnType<typeof makeBettor>>;
let bob: Awaited<ReturnType<typeof makeBettor>>;
let branchRole: number;

const MONEY_KEYS = [
  'users', 'user', 'user:edit_balance', 'user:edit_credit', 'user:change_agent', 'user:invitation_code', 'user:reset_password',
  'user:disable', 'user:risk', 'user:refresh', 'user_list', 'bill', 'bill_credit', 'admin_bill', 'online_statistical',
  'activity_qualification', 'activity_qualification:edit', 'archive', 'bill_archive', 'bill_credit_archive',
  'customer_service', 'cs_user', 'cs_bill', 'cs_activity_qualification',
];

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  root = await t.login('admin', ADMIN_PASSWORD);
  // The heads of branches A and B handle their branch's money: they see only their own subtree's bettors.
  branchRole = await makeRole(t, 'Branch cashier', [...new Set([...AGENT_KEYS, ...MONEY_KEYS])]);
  await t.database.db.update(admins).set({ roleId: branchRole }).where(inArray(admins.id, [w.agentA, w.agentB]));
  // A cashier below agent A sees only their own (empty) subtree, not agent A's other children.
  await makeAdmin(t, 'cashier_a', branchRole, w.agentA);
  cashier = await t.login('agent_a');
  cashierB = await t.login('agent_b');
  alice = await makeBettor(t, w.agentA1, { cash: 50_000, phone: '255754111222', name: 'Alice Mrema' });
  bob = await makeBettor(t, w.agentB1, { cash: 20_000, phone: '255715333444', name: 'Bob Kweka' });
});
afterAll(() => t?.close());

/**
 * Every test below makes the bettors it changes (a bettor of agent A1 unless it says otherwise), so that
 * none depends on what another left behind.
 */
const fresh = (cash = 0, agentId = w.agentA1) => makeBettor(t, agentId, { cash });
const db = () => t.database.db;
const billsOf = (bettorId: number) => db().select().from(bills).where(eq(bills.bettorId, bettorId)).orderBy(bills.id);
/** The money audit rows (type update_balance) naming this bettor. */
const moneyAudit = (phone: string) =>
  db().select().from(systemLogs).where(and(eq(systemLogs.type, LOG_TYPE.update_balance), sql`${systemLogs.content} like ${`%${phone}%`}`)).orderBy(systemLogs.id);
const auditOf = (phone: string) => db().select().from(systemLogs).where(sql`${systemLogs.content} like ${`%${phone}%`}`).orderBy(systemLogs.id);
/** The bettors of agent A's branch (agent A and every admin below, however deep), as the database has them now. */
async function branchABettors() {
  const all = await db().select({ id: admins.id, superior: admins.superiorId }).from(admins);
  const branch = new Set([w.agentA]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const a of all) if (a.superior !== null && branch.has(a.superior) && !branch.has(a.id)) (branch.add(a.id), (grew = true));
  }
  return db().select({ id: bettors.id, phone: bettors.phone }).from(bettors).where(inArray(bettors.agentId, [...branch]));
}
const cashOf = async (id: number) => (await db().select().from(bettors).where(eq(bettors.id, id)))[0];
const editBalance = (id: number, amount: number, remark: string, token = cashier, headers?: Record<string, string>) =>
  t.call('POST', `/api/v1/money/bettors/${id}/balance`, { token, headers, body: { amount, remark } });

describe('bettors: lists and scope', () => {
  it('the super admin sees every bettor; a cashier of branch A only branch A', async () => {
    const all = await t.call('GET', '/api/v1/money/bettors?page_size=200', { token: root });
    const everyone = await db().select({ phone: bettors.phone }).from(bettors);
    expect(all.body.items.map((b: { phone: string }) => b.phone).sort()).toEqual(everyone.map((b) => b.phone).sort());
    expect(all.body.items.map((b: { phone: string }) => b.phone)).toEqual(expect.arrayContaining(['255715333444', '255754111222']));
    const a = await t.call('GET', '/api/v1/money/bettors?page_size=200', { token: cashier });
    const branchA = await branchABettors();
    expect(a.body.items.map((b: { phone: string }) => b.phone).sort()).toEqual(branchA.map((b) => b.phone).sort());
    expect(a.body.items.map((b: { phone: string }) => b.phone)).not.toContain('255715333444');
    expect(a.body.items.find((b: { phone: string }) => b.phone === '255754111222')).toMatchObject({ balance: 50_000, credit_money: 0, agent_account: 'agent_a1', risk_level: 1, bet_status: 1 });
    expect((await t.call('GET', `/api/v1/money/bettors/${bob.id}`, { token: cashier })).status).toBe(403);
    const below = await t.call('GET', '/api/v1/money/bettors', { token: await t.login('cashier_a') });
    expect(below.body.total).toBe(0);
  });

  it('filters by phone, agent, risk and creation date, and refuses an unknown sort', async () => {
    const byPhone = await t.call('GET', '/api/v1/money/bettors?phone=715333444', { token: root });
    expect(byPhone.body.items.map((b: { id: number }) => b.id)).toEqual([bob.id]);
    // An agent of its own, with one bettor.
    const agent = await makeAdmin(t, 'agent_filter', w.agentRole, w.agentA);
    const mine = await fresh(0, agent);
    const byAgent = await t.call('GET', `/api/v1/money/bettors?agent_id=${agent}`, { token: root });
    expect(byAgent.body.items.map((b: { id: number }) => b.id)).toEqual([mine.id]);
    const future = await t.call('GET', `/api/v1/money/bettors?created_at_from=${new Date(Date.now() + 3600_000).toISOString()}`, { token: root });
    expect(future.body.total).toBe(0);
    expect((await t.call('GET', '/api/v1/money/bettors?sort=password_hash', { token: root })).status).toBe(400);
  });

  it('customer service finds a user by phone, and says so when none is given', async () => {
    const none = await t.call('GET', '/api/v1/money/cs/bettors', { token: cashier });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Please enter the mobile phone number of the user you want to query');
    const found = await t.call('GET', '/api/v1/money/cs/bettors?phone=255754111222', { token: cashier });
    expect(found.body.items.map((b: { id: number }) => b.id)).toEqual([alice.id]);
    const other = await t.call('GET', '/api/v1/money/cs/bettors?phone=255715333444', { token: cashier });
    expect(other.body.items).toHaveLength(0);
  });
});

describe('staff scope', () => {
  it('a staff role serves its superior\'s branch: all under the super admin, branch A under agent A; agents keep their own subtree', async () => {
    const csRole = await makeRole(t, 'CS desk', ['customer_service', 'cs_user', 'cs_bill']);
    await t.call('PUT', `/api/v1/system/roles/${csRole}`, { token: root, body: { name: 'CS desk', remarks: '', serves_superior_branch: true } });
    await makeAdmin(t, 'cs_root', csRole, w.rootId);
    await makeAdmin(t, 'cs_branch_a', csRole, w.agentA);
    const rootDesk = await t.login('cs_root');
    const branchDesk = await t.login('cs_branch_a');
    expect((await t.call('GET', '/api/v1/money/cs/bettors?phone=255715333444', { token: rootDesk })).body.items).toHaveLength(1);
    expect((await t.call('GET', '/api/v1/money/cs/bettors?phone=255754111222', { token: branchDesk })).body.items).toHaveLength(1);
    expect((await t.call('GET', '/api/v1/money/cs/bettors?phone=255715333444', { token: branchDesk })).body.items).toHaveLength(0);
    // A local number is the same subscriber.
    expect((await t.call('GET', '/api/v1/money/cs/bettors?phone=0754111222', { token: branchDesk })).body.items).toHaveLength(1);
    // The agent themselves (no staff role) sees only their own subtree on the same screen.
    expect((await t.call('GET', '/api/v1/money/cs/bettors?phone=255715333444', { token: cashier })).body.items).toHaveLength(0);
    // The same desk still has no management screen.
    expect((await t.call('GET', '/api/v1/money/bettors', { token: branchDesk })).status).toBe(403);
  });
});

describe('edit balance', () => {
  it('adds and subtracts with a bill, an audit row and the before/after values', async () => {
    const b = await fresh(50_000);
    const add = await editBalance(b.id, 12_345, 'Goodwill after outage');
    expect(add.status).toBe(200);
    expect(add.body.balance).toBe(62_345);
    expect(add.body.bill).toMatchObject({ type: 22, amount: 12_345, balanceBefore: 50_000, balanceAfter: 62_345 });
    const sub = await editBalance(b.id, -2_345, 'Correction');
    expect(sub.body.balance).toBe(60_000);
    const trail = await moneyAudit(b.phone);
    expect(trail.map((r) => [r.before, r.after])).toEqual([
      [{ balance: 50_000 }, { balance: 62_345, bill: add.body.bill.serialNumber }],
      [{ balance: 62_345 }, { balance: 60_000, bill: sub.body.bill.serialNumber }],
    ]);
    expect((await billsOf(b.id)).map((x) => [x.type, x.amount, x.balanceAfter])).toEqual([
      [BILL_TYPE.user_recharge, 50_000, 50_000],
      [22, 12_345, 62_345],
      [22, -2_345, 60_000],
    ]);
    expect(await checkInvariants(db())).toEqual([]);
  });

  it('never goes below zero, needs a remark and a non-zero whole amount, and stays in scope; a refusal writes no bill and no audit row', async () => {
    const b = await fresh(60_000);
    const other = await fresh(10_000, w.agentB1);
    const billsBefore = await billsOf(b.id);
    const tooMuch = await editBalance(b.id, -60_001, 'x');
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.code).toBe('INSUFFICIENT_BALANCE');
    expect((await editBalance(b.id, 100, '')).status).toBe(400);
    expect((await editBalance(b.id, 0, 'zero')).status).toBe(400);
    expect((await editBalance(b.id, 1.5, 'float')).status).toBe(400);
    const foreign = await editBalance(other.id, 100, 'x');
    expect(foreign.status).toBe(403);
    expect((await cashOf(b.id)).cashBalance).toBe(60_000);
    expect((await cashOf(other.id)).cashBalance).toBe(10_000);
    expect(await billsOf(b.id)).toEqual(billsBefore);
    expect(await billsOf(other.id)).toHaveLength(1);
    expect(await auditOf(b.phone)).toEqual([]);
    expect(await auditOf(other.phone)).toEqual([]);
  });

  it('is idempotent by key: a repeated submission moves money once and answers the same', async () => {
    const b = await fresh(60_000);
    const headers = { 'idempotency-key': 'dialog-8f3a2c1e' };
    const first = await editBalance(b.id, 500, 'Promo', cashier, headers);
    const again = await editBalance(b.id, 500, 'Promo', cashier, headers);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await cashOf(b.id)).cashBalance).toBe(60_500);
    expect((await billsOf(b.id)).filter((x) => x.type === 22)).toHaveLength(1);
    expect(await moneyAudit(b.phone)).toHaveLength(1);
  });

  it('refuses a key reused with another body (422 IDEMPOTENCY_KEY_REUSED) and moves nothing more', async () => {
    const b = await fresh(60_000);
    const headers = { 'idempotency-key': 'dialog-reused-77aa' };
    const first = await editBalance(b.id, 500, 'Promo', cashier, headers);
    expect(first.status).toBe(200);
    // Another amount, another remark: not a retry of the first request.
    for (const [amount, remark] of [[5_000, 'Promo'], [500, 'Other']] as const) {
      const other = await editBalance(b.id, amount, remark, cashier, headers);
      expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    }
    // The same body with its keys in another order is the same request: the first answer again.
    const same = await t.call('POST', `/api/v1/money/bettors/${b.id}/balance`, { token: cashier, headers, body: { remark: 'Promo', amount: 500 } });
    expect([same.status, same.body]).toEqual([200, first.body]);
    // The credit route keeps its keys apart in the same way.
    const credit = { 'idempotency-key': 'dialog-credit-77aa' };
    expect((await t.call('POST', `/api/v1/money/bettors/${b.id}/credit`, { token: cashier, headers: credit, body: { amount: 100, remark: 'Free bet' } })).status).toBe(200);
    const reused = await t.call('POST', `/api/v1/money/bettors/${b.id}/credit`, { token: cashier, headers: credit, body: { amount: 900, remark: 'Free bet' } });
    expect([reused.status, reused.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await cashOf(b.id)).toMatchObject({ cashBalance: 60_500, creditBalance: 100 });
    expect((await billsOf(b.id)).filter((x) => x.type === 22)).toHaveLength(1);
  });

  it('edits credit money on the credit account with its own bills', async () => {
    const b = await fresh(7_000);
    const r = await t.call('POST', `/api/v1/money/bettors/${b.id}/credit`, { token: cashier, body: { amount: 3_000, remark: 'Free bet' } });
    expect(r.body.bill).toMatchObject({ accountKind: 2, type: 106, balanceAfter: 3_000 });
    const credit = await t.call('GET', `/api/v1/money/bill_credit?bettor_id=${b.id}`, { token: cashier });
    expect(credit.body.items.map((x: { amount: number; account_kind: number }) => [x.account_kind, x.amount])).toEqual([[2, 3_000]]);
    // The cash list holds the cash bill (the funding recharge) and not the credit one.
    const cash = await t.call('GET', `/api/v1/money/bills?bettor_id=${b.id}`, { token: cashier });
    expect(cash.body.items.map((x: { amount: number; account_kind: number }) => [x.account_kind, x.amount])).toEqual([[1, 7_000]]);
    expect(await cashOf(b.id)).toMatchObject({ cashBalance: 7_000, creditBalance: 3_000 });
  });
});

describe('other admin actions', () => {
  it('change agent only within the subtree; the history follows the bettor', async () => {
    const b = await fresh(4_000);
    await editBalance(b.id, 1_000, 'Bonus');
    const out = await t.call('PUT', `/api/v1/money/bettors/${b.id}/agent`, { token: cashier, body: { agent_id: w.agentB1 } });
    expect(out.status).toBe(403);
    const ok = await t.call('PUT', `/api/v1/money/bettors/${b.id}/agent`, { token: root, body: { agent_id: w.agentB1 } });
    expect(ok.body.agent_id).toBe(w.agentB1);
    const bBills = await t.call('GET', `/api/v1/money/bills?bettor_id=${b.id}`, { token: cashierB });
    expect(bBills.body.items.map((x: { amount: number }) => x.amount).sort()).toEqual([1_000, 4_000]);
    expect((await t.call('GET', `/api/v1/money/bills?bettor_id=${b.id}`, { token: cashier })).body.total).toBe(0);
  });

  it('invitation code (unique), reset password (generated once), disable, risk and bet status', async () => {
    const b = await fresh();
    const other = await fresh(0, w.agentB1);
    const code = await t.call('PUT', `/api/v1/money/bettors/${b.id}/invitation-code`, { token: cashier, body: { invitation_code: 'alice2026' } });
    expect(code.body.invitation_code).toBe('ALICE2026');
    expect((await t.call('PUT', `/api/v1/money/bettors/${other.id}/invitation-code`, { token: root, body: { invitation_code: 'ALICE2026' } })).status).toBe(409);
    const pw = await t.call('POST', `/api/v1/money/bettors/${b.id}/reset-password`, { token: cashier, body: {} });
    expect(pw.body.password).toHaveLength(10);
    const dis = await t.call('POST', `/api/v1/money/bettors/${b.id}/disable`, { token: cashier, body: { disabled: 2 } });
    expect(dis.body.disabled).toBe(2);
    const risk = await t.call('PUT', `/api/v1/money/bettors/${b.id}/risk`, { token: cashier, body: { risk_level: 5 } });
    expect(risk.body).toMatchObject({ risk_level: 5, bet_status: 2 });
    expect((await t.call('PUT', `/api/v1/money/bettors/${b.id}/risk`, { token: cashier, body: {} })).status).toBe(400);
    // One audit row per change that happened; none for the refused ones.
    const trail = await auditOf(b.phone);
    expect(trail).toHaveLength(4);
    expect(trail.map((r) => r.account)).toEqual(['agent_a', 'agent_a', 'agent_a', 'agent_a']);
    expect(await auditOf(other.phone)).toEqual([]);
  });

  it('force-refresh counts only online bettors of the scope', async () => {
    await db().update(bettors).set({ onlineStatus: 1 });
    const a = await fresh();
    const b = await fresh(0, w.agentB1);
    await db().update(bettors).set({ onlineStatus: 2 }).where(inArray(bettors.id, [a.id, b.id]));
    const mine = await t.call('POST', '/api/v1/money/bettors/refresh', { token: cashier, body: {} });
    expect(mine.body.sent).toBe(1);
    const all = await t.call('POST', '/api/v1/money/bettors/refresh', { token: root, body: {} });
    expect(all.body.sent).toBe(2);
    expect((await t.call('POST', '/api/v1/money/bettors/refresh', { token: cashier, body: { bettor_ids: [b.id] } })).status).toBe(403);
    const summary = await t.call('GET', '/api/v1/money/online/summary', { token: cashier });
    const branchA = await branchABettors();
    expect(summary.body).toMatchObject({ online: 1, total: branchA.length });
  });

  it('activity qualification: approval grants credit once', async () => {
    const b = await fresh();
    const [a] = await db().insert(activityQualifications).values({ bettorId: b.id, agentId: w.agentA1, activity: 'Weekend 5-fold' }).returning();
    const ok = await t.call('POST', `/api/v1/money/activity_qualification/${a.id}/approve`, { token: cashier, body: { reward: 2_000 } });
    expect(ok.body.status).toBe(2);
    expect((await t.call('POST', `/api/v1/money/activity_qualification/${a.id}/approve`, { token: cashier, body: { reward: 2_000 } })).status).toBe(409);
    expect((await cashOf(b.id)).creditBalance).toBe(2_000);
    expect((await billsOf(b.id)).map((x) => [x.accountKind, x.amount])).toEqual([[2, 2_000]]);
    expect((await t.call('GET', '/api/v1/money/cs/activity_qualification', { token: cashier })).status).toBe(400);
    const list = await t.call('GET', '/api/v1/money/activity_qualification?status=2', { token: cashier });
    expect(list.body.items.filter((x: { id: number }) => x.id === a.id).map((x: { activity: string }) => x.activity)).toEqual(['Weekend 5-fold']);
    expect((await t.call('GET', '/api/v1/money/activity_qualification', { token: cashierB })).body.items.some((x: { id: number }) => x.id === a.id)).toBe(false);
    expect(await checkInvariants(db())).toEqual([]);
  });
});

describe('bill lists', () => {
  it('filters by type, serial and date; the cashier of another branch sees none of them', async () => {
    const b = await fresh(10_000);
    const e1 = await editBalance(b.id, 300, 'One');
    const e2 = await editBalance(b.id, -200, 'Two');
    const admin = await t.call('GET', `/api/v1/money/bills?type=22&bettor_id=${b.id}`, { token: root });
    expect(admin.body.items.map((x: { serial_number: string }) => x.serial_number).sort()).toEqual([e1.body.bill.serialNumber, e2.body.bill.serialNumber].sort());
    const bySerial = await t.call('GET', `/api/v1/money/bills?serial_number=${e1.body.bill.serialNumber}`, { token: root });
    expect(bySerial.body.items).toHaveLength(1);
    expect(bySerial.body.items[0]).toMatchObject({ phone: b.phone, admin_account: 'agent_a', amount: 300 });
    const other = await t.call('GET', `/api/v1/money/bills?phone=${b.phone}`, { token: cashierB });
    expect(other.body.total).toBe(0);
    // The admin bills list holds the admins' own bills (both edits) and only bills with an admin.
    const adminBills = await t.call('GET', '/api/v1/money/admin_bills?page_size=200', { token: root });
    const serials = adminBills.body.items.map((x: { serial_number: string }) => x.serial_number);
    expect(serials).toEqual(expect.arrayContaining([e1.body.bill.serialNumber, e2.body.bill.serialNumber]));
    expect(adminBills.body.items.filter((x: { admin_id: number | null }) => x.admin_id === null)).toEqual([]);
  });

  it('customer service bills need a phone; archives need a user or serial and hold only what is older than 30 days', async () => {
    const b = await fresh(5_000);
    await editBalance(b.id, 100, 'Recent');
    expect((await t.call('GET', '/api/v1/money/cs/bills', { token: cashier })).body.code).toBe('CS_PHONE_REQUIRED');
    const arch = await t.call('GET', '/api/v1/money/bills/archive', { token: cashier });
    expect(arch.body.message).toBe('Please select the user to query');
    // Move the first bill 40 days back (tests only: rows are otherwise never updated).
    const [first] = await billsOf(b.id);
    await t.database.exec(`update bills set created_at = now() - interval '40 days' where id = ${first.id}`);
    const old = await t.call('GET', `/api/v1/money/bills/archive?bettor_id=${b.id}`, { token: cashier });
    expect(old.body.items.map((x: { id: number }) => x.id)).toEqual([first.id]);
    const recent = await t.call('GET', `/api/v1/money/bills?bettor_id=${b.id}`, { token: cashier });
    expect(recent.body.items.map((x: { amount: number }) => x.amount)).toEqual([100]);
  });

  it('the agent statement sums the branch bills and the share at the ratio, exactly', async () => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const statement = async (token = root) => (await t.call('GET', `/api/v1/money/admin_bills/statement?from=${from}&to=${to}`, { token })).body;
    const changesOf = (s: { items: { account: string; admin_changes: number }[] }) => s.items.find((x) => x.account === 'agent_a1')?.admin_changes ?? 0;
    const before = changesOf(await statement());
    const b = await fresh(20_000);
    await editBalance(b.id, 12_345, 'Goodwill');
    await editBalance(b.id, -2_345, 'Correction');
    await editBalance(b.id, 500, 'Promo');
    expect(changesOf(await statement()) - before).toBe(12_345 - 2_345 + 500);
    const scoped = await statement(cashierB);
    expect(scoped.items.map((x: { account: string }) => x.account)).toEqual(['agent_b1']);
    expect((await t.call('GET', `/api/v1/money/admin_bills/statement?from=${to}&to=${from}`, { token: root })).status).toBe(400);
  });

  it('the agent statement counts a refund (bill 8 of a bet) as money paid back, and bill 8 of a withdrawal as a withdrawal returned', async () => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const a1 = async () => (await t.call('GET', `/api/v1/money/admin_bills/statement?from=${from}&to=${to}`, { token: root })).body.items.find((x: { account: string }) => x.account === 'agent_b1');
    const before = await a1();
    const b = await fresh(50_000, w.agentB1);
    const move = (amount: number, type: number, cause: Cause, house: string) =>
      db().transaction((tx) => post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount, type, cause, house }));
    // A stake of 300.00 refunded (a void order), and a withdrawal of 100.00 refused (its money returned).
    await move(-30_000, BILL_TYPE.bet, { type: 'order', id: 'stmt-1' }, HOUSE.stakesHeld);
    await move(30_000, BILL_TYPE.amount_rolled_back, { type: 'order', id: 'stmt-1' }, HOUSE.payouts);
    await move(-10_000, BILL_TYPE.user_withdrawal, { type: 'withdrawal', id: 'stmt-2' }, HOUSE.withdrawalsClearing);
    await move(10_000, BILL_TYPE.amount_rolled_back, { type: 'withdrawal', id: 'stmt-2' }, HOUSE.withdrawalsClearing);
    const after = await a1();
    const d = (k: string) => (after?.[k] ?? 0) - (before?.[k] ?? 0);
    expect({ stakes: d('stakes'), payouts: d('payouts'), withdrawals: d('withdrawals'), ggr: d('ggr') }).toEqual({ stakes: 30_000, payouts: 30_000, withdrawals: 0, ggr: 0 });
  });

  it('totals are exact on lists below the cap and say so', async () => {
    await fresh(1_000);
    const r = await t.call('GET', '/api/v1/money/bills', { token: root });
    // The list holds the cash bills of the last 30 days (older ones are in the archive).
    const [{ n }] = await db().select({ n: sql<number>`count(*)::int` }).from(bills).where(and(eq(bills.accountKind, 1), sql`${bills.createdAt} > now() - interval '30 days'`));
    expect(r.body.total_exact).toBe(true);
    expect(r.body.total).toBe(n);
    expect(await checkInvariants(db())).toEqual([]);
  });
});
