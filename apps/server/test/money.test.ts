import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ADMIN_PASSWORD, AGENT_KEYS, createTestApp, makeRole, makeAdmin, makeWorld, type TestApp } from './helpers.js';
import { inArray } from 'drizzle-orm';
import { makeBettor } from './money-helpers.js';
import { activityQualifications, bettors, bills } from '../src/modules/money/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { admins, systemLogs } from '../src/modules/system/schema.js';

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let cashier: string;
let cashierB: string;
let alice: Awaited<ReturnType<typeof makeBettor>>;
let bob: Awaited<ReturnType<typeof makeBettor>>;

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
  const branchRole = await makeRole(t, 'Branch cashier', [...new Set([...AGENT_KEYS, ...MONEY_KEYS])]);
  await t.database.db.update(admins).set({ roleId: branchRole }).where(inArray(admins.id, [w.agentA, w.agentB]));
  // A cashier below agent A sees only their own (empty) subtree, not agent A's other children.
  await makeAdmin(t, 'cashier_a', branchRole, w.agentA);
  cashier = await t.login('agent_a');
  cashierB = await t.login('agent_b');
  alice = await makeBettor(t, w.agentA1, { cash: 50_000, phone: '255754111222', name: 'Alice Mrema' });
  bob = await makeBettor(t, w.agentB1, { cash: 20_000, phone: '255715333444', name: 'Bob Kweka' });
});
afterAll(() => t?.close());

describe('bettors: lists and scope', () => {
  it('the super admin sees every bettor; a cashier of branch A only branch A', async () => {
    const all = await t.call('GET', '/api/v1/money/bettors', { token: root });
    expect(all.body.items.map((b: { phone: string }) => b.phone).sort()).toEqual(['255715333444', '255754111222']);
    const a = await t.call('GET', '/api/v1/money/bettors', { token: cashier });
    expect(a.body.items.map((b: { phone: string }) => b.phone)).toEqual(['255754111222']);
    expect(a.body.items[0]).toMatchObject({ balance: 50_000, credit_money: 0, agent_account: 'agent_a1', risk_level: 1, bet_status: 1 });
    expect((await t.call('GET', `/api/v1/money/bettors/${bob.id}`, { token: cashier })).status).toBe(403);
    const below = await t.call('GET', '/api/v1/money/bettors', { token: await t.login('cashier_a') });
    expect(below.body.total).toBe(0);
  });

  it('filters by phone, agent, risk and creation date, and refuses an unknown sort', async () => {
    const byPhone = await t.call('GET', '/api/v1/money/bettors?phone=3334', { token: root });
    expect(byPhone.body.items.map((b: { id: number }) => b.id)).toEqual([bob.id]);
    const byAgent = await t.call('GET', `/api/v1/money/bettors?agent_id=${w.agentA1}`, { token: root });
    expect(byAgent.body.total).toBe(1);
    const future = await t.call('GET', `/api/v1/money/bettors?created_at_from=${new Date(Date.now() + 3600_000).toISOString()}`, { token: root });
    expect(future.body.total).toBe(0);
    expect((await t.call('GET', '/api/v1/money/bettors?sort=password_hash', { token: root })).status).toBe(400);
  });

  it('customer service finds a user by phone, and says so when none is given', async () => {
    const none = await t.call('GET', '/api/v1/money/cs/bettors', { token: cashier });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Please enter the mobile phone number of the user you want to query');
    const found = await t.call('GET', '/api/v1/money/cs/bettors?phone=255754111222', { token: cashier });
    expect(found.body.items).toHaveLength(1);
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
    const add = await t.call('POST', `/api/v1/money/bettors/${alice.id}/balance`, { token: cashier, body: { amount: 12_345, remark: 'Goodwill after outage' } });
    expect(add.status).toBe(200);
    expect(add.body.balance).toBe(62_345);
    expect(add.body.bill).toMatchObject({ type: 22, amount: 12_345, balanceBefore: 50_000, balanceAfter: 62_345 });
    const sub = await t.call('POST', `/api/v1/money/bettors/${alice.id}/balance`, { token: cashier, body: { amount: -2_345, remark: 'Correction' } });
    expect(sub.body.balance).toBe(60_000);
    const trail = await t.database.db.select().from(systemLogs).where(eq(systemLogs.type, 12));
    expect(trail).toHaveLength(2);
    expect(trail[0].before).toEqual({ balance: 50_000 });
    expect(await checkInvariants(t.database.db)).toEqual([]);
  });

  it('never goes below zero, needs a remark and a non-zero whole amount, and stays in scope', async () => {
    const tooMuch = await t.call('POST', `/api/v1/money/bettors/${alice.id}/balance`, { token: cashier, body: { amount: -60_001, remark: 'x' } });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.code).toBe('INSUFFICIENT_BALANCE');
    expect((await t.call('POST', `/api/v1/money/bettors/${alice.id}/balance`, { token: cashier, body: { amount: 100, remark: '' } })).status).toBe(400);
    expect((await t.call('POST', `/api/v1/money/bettors/${alice.id}/balance`, { token: cashier, body: { amount: 0, remark: 'zero' } })).status).toBe(400);
    expect((await t.call('POST', `/api/v1/money/bettors/${alice.id}/balance`, { token: cashier, body: { amount: 1.5, remark: 'float' } })).status).toBe(400);
    const foreign = await t.call('POST', `/api/v1/money/bettors/${bob.id}/balance`, { token: cashier, body: { amount: 100, remark: 'x' } });
    expect(foreign.status).toBe(403);
    const [b] = await t.database.db.select().from(bettors).where(eq(bettors.id, alice.id));
    expect(b.cashBalance).toBe(60_000);
  });

  it('is idempotent by key: a repeated submission moves money once and answers the same', async () => {
    const headers = { 'idempotency-key': 'dialog-8f3a2c1e' };
    const first = await t.call('POST', `/api/v1/money/bettors/${alice.id}/balance`, { token: cashier, headers, body: { amount: 500, remark: 'Promo' } });
    const again = await t.call('POST', `/api/v1/money/bettors/${alice.id}/balance`, { token: cashier, headers, body: { amount: 500, remark: 'Promo' } });
    expect(again.body).toEqual(first.body);
    const [b] = await t.database.db.select().from(bettors).where(eq(bettors.id, alice.id));
    expect(b.cashBalance).toBe(60_500);
  });

  it('edits credit money on the credit account with its own bills', async () => {
    const r = await t.call('POST', `/api/v1/money/bettors/${alice.id}/credit`, { token: cashier, body: { amount: 3_000, remark: 'Free bet' } });
    expect(r.body.bill).toMatchObject({ accountKind: 2, type: 106, balanceAfter: 3_000 });
    const credit = await t.call('GET', `/api/v1/money/bill_credit?bettor_id=${alice.id}`, { token: cashier });
    expect(credit.body.items).toHaveLength(1);
    const cash = await t.call('GET', `/api/v1/money/bills?bettor_id=${alice.id}`, { token: cashier });
    expect(cash.body.items.every((b: { account_kind: number }) => b.account_kind === 1)).toBe(true);
  });
});

describe('other admin actions', () => {
  it('change agent only within the subtree; the history follows the bettor', async () => {
    const out = await t.call('PUT', `/api/v1/money/bettors/${alice.id}/agent`, { token: cashier, body: { agent_id: w.agentB1 } });
    expect(out.status).toBe(403);
    const ok = await t.call('PUT', `/api/v1/money/bettors/${alice.id}/agent`, { token: root, body: { agent_id: w.agentB1 } });
    expect(ok.body.agent_id).toBe(w.agentB1);
    const bBills = await t.call('GET', `/api/v1/money/bills?bettor_id=${alice.id}`, { token: cashierB });
    expect(bBills.body.total).toBeGreaterThan(0);
    expect((await t.call('GET', `/api/v1/money/bills?bettor_id=${alice.id}`, { token: cashier })).body.total).toBe(0);
    await t.call('PUT', `/api/v1/money/bettors/${alice.id}/agent`, { token: root, body: { agent_id: w.agentA1 } });
  });

  it('invitation code (unique), reset password (generated once), disable, risk and bet status', async () => {
    const code = await t.call('PUT', `/api/v1/money/bettors/${alice.id}/invitation-code`, { token: cashier, body: { invitation_code: 'alice2026' } });
    expect(code.body.invitation_code).toBe('ALICE2026');
    expect((await t.call('PUT', `/api/v1/money/bettors/${bob.id}/invitation-code`, { token: root, body: { invitation_code: 'ALICE2026' } })).status).toBe(409);
    const pw = await t.call('POST', `/api/v1/money/bettors/${alice.id}/reset-password`, { token: cashier, body: {} });
    expect(pw.body.password).toHaveLength(10);
    const dis = await t.call('POST', `/api/v1/money/bettors/${alice.id}/disable`, { token: cashier, body: { disabled: 2 } });
    expect(dis.body.disabled).toBe(2);
    const risk = await t.call('PUT', `/api/v1/money/bettors/${alice.id}/risk`, { token: cashier, body: { risk_level: 5 } });
    expect(risk.body).toMatchObject({ risk_level: 5, bet_status: 2 });
    expect((await t.call('PUT', `/api/v1/money/bettors/${alice.id}/risk`, { token: cashier, body: {} })).status).toBe(400);
    const trail = await t.database.db.select().from(systemLogs).where(sql`${systemLogs.content} like '%255754111222%'`);
    expect(trail.length).toBeGreaterThanOrEqual(5);
  });

  it('force-refresh counts only online bettors of the scope', async () => {
    await t.database.db.update(bettors).set({ onlineStatus: 2 });
    const mine = await t.call('POST', '/api/v1/money/bettors/refresh', { token: cashier, body: {} });
    expect(mine.body.sent).toBe(1);
    const all = await t.call('POST', '/api/v1/money/bettors/refresh', { token: root, body: {} });
    expect(all.body.sent).toBe(2);
    expect((await t.call('POST', '/api/v1/money/bettors/refresh', { token: cashier, body: { bettor_ids: [bob.id] } })).status).toBe(403);
    const summary = await t.call('GET', '/api/v1/money/online/summary', { token: cashier });
    expect(summary.body).toMatchObject({ online: 1, total: 1 });
  });

  it('activity qualification: approval grants credit once', async () => {
    const [a] = await t.database.db.insert(activityQualifications).values({ bettorId: alice.id, agentId: w.agentA1, activity: 'Weekend 5-fold' }).returning();
    const ok = await t.call('POST', `/api/v1/money/activity_qualification/${a.id}/approve`, { token: cashier, body: { reward: 2_000 } });
    expect(ok.body.status).toBe(2);
    expect((await t.call('POST', `/api/v1/money/activity_qualification/${a.id}/approve`, { token: cashier, body: { reward: 2_000 } })).status).toBe(409);
    const [b] = await t.database.db.select().from(bettors).where(eq(bettors.id, alice.id));
    expect(b.creditBalance).toBe(5_000);
    expect((await t.call('GET', '/api/v1/money/cs/activity_qualification', { token: cashier })).status).toBe(400);
    const list = await t.call('GET', '/api/v1/money/activity_qualification?status=2', { token: cashier });
    expect(list.body.items.map((x: { activity: string }) => x.activity)).toEqual(['Weekend 5-fold']);
    expect((await t.call('GET', '/api/v1/money/activity_qualification', { token: cashierB })).body.total).toBe(0);
    expect(await checkInvariants(t.database.db)).toEqual([]);
  });
});

describe('bill lists', () => {
  it('filters by type, serial and date; the cashier of another branch sees none of them', async () => {
    const admin = await t.call('GET', '/api/v1/money/bills?type=22', { token: root });
    expect(admin.body.items.length).toBeGreaterThanOrEqual(3);
    const serial = admin.body.items[0].serial_number;
    const bySerial = await t.call('GET', `/api/v1/money/bills?serial_number=${serial}`, { token: root });
    expect(bySerial.body.items).toHaveLength(1);
    expect(bySerial.body.items[0]).toMatchObject({ phone: '255754111222', admin_account: 'agent_a' });
    const other = await t.call('GET', `/api/v1/money/bills?phone=255754111222`, { token: cashierB });
    expect(other.body.total).toBe(0);
    const adminBills = await t.call('GET', '/api/v1/money/admin_bills', { token: root });
    expect(adminBills.body.items.every((b: { admin_id: number | null }) => b.admin_id !== null)).toBe(true);
  });

  it('customer service bills need a phone; archives need a user or serial and hold only what is older than 30 days', async () => {
    expect((await t.call('GET', '/api/v1/money/cs/bills', { token: cashier })).body.code).toBe('CS_PHONE_REQUIRED');
    const arch = await t.call('GET', '/api/v1/money/bills/archive', { token: cashier });
    expect(arch.body.message).toBe('Please select the user to query');
    // Move one bill 40 days back (tests only: rows are otherwise never updated).
    await t.database.exec(`update bills set created_at = now() - interval '40 days' where id = (select min(id) from bills where bettor_id = ${alice.id})`);
    const old = await t.call('GET', `/api/v1/money/bills/archive?bettor_id=${alice.id}`, { token: cashier });
    expect(old.body.items).toHaveLength(1);
    const recent = await t.call('GET', `/api/v1/money/bills?bettor_id=${alice.id}`, { token: cashier });
    expect(recent.body.items.some((b: { id: number }) => b.id === old.body.items[0].id)).toBe(false);
  });

  it('the agent statement sums the branch bills and the share at the ratio, exactly', async () => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const s = await t.call('GET', `/api/v1/money/admin_bills/statement?from=${from}&to=${to}`, { token: root });
    const a1 = s.body.items.find((x: { account: string }) => x.account === 'agent_a1');
    expect(a1.admin_changes).toBe(12_345 - 2_345 + 500);
    const scoped = await t.call('GET', `/api/v1/money/admin_bills/statement?from=${from}&to=${to}`, { token: cashierB });
    expect(scoped.body.items.map((x: { account: string }) => x.account)).toEqual(['agent_b1']);
    expect((await t.call('GET', `/api/v1/money/admin_bills/statement?from=${to}&to=${from}`, { token: root })).status).toBe(400);
  });

  it('totals are capped on big lists and say so', async () => {
    const r = await t.call('GET', '/api/v1/money/bills', { token: root });
    expect(r.body.total_exact).toBe(true);
    expect(await checkInvariants(t.database.db)).toEqual([]);
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(bills);
    expect(n).toBeGreaterThan(5);
  });
});
