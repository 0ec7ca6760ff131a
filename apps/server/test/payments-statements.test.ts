import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { PAY_STATUS, WITHDRAWAL_STATUS, localDay } from '@dau/domain';
import { notifications, operatorStatementItems, operatorStatements, recharges, withdrawals } from '../src/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import type { ManualScheduler } from '../src/modules/payments/operators.js';
import type { PaymentRuntime } from '../src/modules/payments/callbacks.js';
import { startRecharge } from '../src/modules/payments/recharges.js';
import { approveWithdrawal, requestWithdrawal } from '../src/modules/payments/withdrawals.js';
import { AppError } from '../src/platform/errors.js';
import { STATEMENT_FORMATS, type PortalTxn } from '../src/modules/payments/statements/formats.js';
import { parseStatement, reconcileYesterday } from '../src/modules/payments/statements/service.js';
import { portalPath } from '../src/modules/payments/statements/sandbox-portal.js';
import { ADMIN_PASSWORD, createTestApp, exportFinished, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers.js';
import { PAYMENT_KEYS, disbursed, grantKeys, makePayer, manualClock, operatorForgets } from './payments-fixtures.js';

/**
 * Issue 28, statements reconciled: a day's statement file of each provider's format (the built-in
 * sandbox's portal writes it from its books, or an admin uploads one) matched against our recharges and
 * withdrawals; each mismatch kind made by real activity through the services (and by a doctored line);
 * the findings point to the payments; a notice when a day does not match; every import kept; whole-book
 * duty and permissions; the export.
 */

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let clock: ManualScheduler;
let rt: PaymentRuntime;
const AIRTEL = 4;
const db = () => t.database.db;
const today = () => localDay(Date.now());
const STATEMENT_KEYS = ['operator_statements', 'operator_statements:import', 'operator_statements:export'];

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, PAYMENT_KEYS);
  root = await t.login('admin', ADMIN_PASSWORD);
  ({ clock, rt } = manualClock(t));
  // Airtel collects by USSD push: the sandbox's subscriber always enters the PIN (outcomes come from the queue).
  rt.sandbox(AIRTEL).ussdAnswer = 'pin';
});
afterAll(() => t?.close());
afterEach(async () => {
  await clock.runAll();
  expect(await checkInvariants(db())).toEqual([]);
  rt.sandbox(AIRTEL).queue.length = 0;
});

let phones = 0;
/** An Airtel number (prefix 78): payments are refused to a number of another network. */
const airtelPhone = () => `25578${String(1_000_000 + (phones += 1) * 7 + Math.floor(Math.random() * 5)).slice(-7)}`;
const actor = () => ({ adminId: w.rootId, scope: { all: true as const }, req: null });

/** A recharge through the service, completed at the sandbox operator (its callback delivered unless told). */
async function recharge(amount: number, behaviour: 'success' | 'fail' | 'no_callback' = 'success') {
  const b = await makePayer(t, w.agentA);
  rt.sandbox(AIRTEL).queue.push(behaviour);
  const r = await startRecharge(db(), { bettorId: b.id, payType: AIRTEL, amount, phone: airtelPhone() });
  await clock.runAll();
  const [after] = await db().select().from(recharges).where(eq(recharges.id, r.id));
  return after!;
}

/** A withdrawal requested, approved and disbursed through the services. */
async function withdrawal(amount: number, behaviour: 'success' | 'fail' | 'no_callback' = 'success') {
  const b = await makePayer(t, w.agentA, amount * 2);
  const x = await requestWithdrawal(db(), { bettorId: b.id, payType: AIRTEL, amount, phone: airtelPhone() });
  rt.sandbox(AIRTEL).queue.push(behaviour);
  await approveWithdrawal(t.ctx, actor(), x.id);
  await disbursed(t);
  await clock.runAll();
  const [after] = await db().select().from(withdrawals).where(eq(withdrawals.id, x.id));
  return after!;
}

const fetchNow = (token = root) => t.call('POST', '/api/v1/money/operator_statements/fetch', { token, body: { pay_type: AIRTEL, day: today() } });
const upload = (text: string, token = root, extra: Record<string, unknown> = {}) =>
  t.call('POST', '/api/v1/money/operator_statements/import', { token, body: { pay_type: AIRTEL, day: today(), file_name: 'doctored.csv', text, ...extra } });
const itemsOf = async (statementId: number, query = '') =>
  (await t.call('GET', `/api/v1/money/operator_statement_items?statement_id=${statementId}&page_size=200${query}`, { token: root })).body.items as any[];
/** The day's file as the sandbox portal gives it. */
async function portalFile() {
  const res = await rt.sandboxServer().inject({ method: 'GET', url: portalPath('airtel', AIRTEL, today()) });
  expect(res.statusCode).toBe(200);
  return res.body;
}

describe('statement formats', () => {
  const txns: PortalTxn[] = [
    { kind: 'collect', reference: 'R2026120400000000001', carrierRef: 'OP1', phone: '255780000001', amount: 1_500_00, status: 'success', completedAt: new Date('2026-12-04T07:00:00Z') },
    { kind: 'disburse', reference: 'W2026120400000000002', carrierRef: 'OP2', phone: '255780000002', amount: 2_000_50, status: 'failed', completedAt: new Date('2026-12-04T20:59:59Z') },
  ];
  for (const provider of ['mpesa', 'airtel', 'aggregator'] as const) {
    it(`${provider}: the portal's file reads back as the normalised lines`, () => {
      const payType = provider === 'mpesa' ? 6 : provider === 'airtel' ? 4 : 7;
      const f = STATEMENT_FORMATS[provider];
      const parsed = f.parse(f.render(txns, payType, '2026-12-04'), payType);
      expect(parsed.lines.map((l) => ({ ref: l.operatorRef, our: l.reference, kind: l.kind, amount: l.amount, status: l.status, time: l.time.toISOString() }))).toEqual([
        { ref: 'OP1', our: 'R2026120400000000001', kind: 'collect', amount: 1_500_00, status: 'success', time: '2026-12-04T07:00:00.000Z' },
        { ref: 'OP2', our: 'W2026120400000000002', kind: 'disburse', amount: 2_000_50, status: 'failed', time: '2026-12-04T20:59:59.000Z' },
      ]);
    });
  }

  it('reads an M-Pesa organisation statement with its preamble, quoted fields and charge lines', () => {
    const text = [
      'Organisation Name,Dau Ltd',
      'Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Reason Type,Other Party Info,Linked Transaction ID,A/C No.',
      'QK1,04-12-2026 10:00:00,04-12-2026 09:59:58,"Customer Payment, from 2557…",Completed,"1,000.00",,1000.00,Customer Payment,255754000001,,R1',
      'QK2,2026-12-04 10:05:00,2026-12-04 10:05:00,Charge,Completed,,-10.00,990.00,Business Payment Charge,,QK1,',
      'QK3,2026-12-04 11:00:00,2026-12-04 11:00:00,Payout,Failed,,-500,990.00,Business Payment to Customer,255754000002,,W1',
    ].join('\n');
    const parsed = parseStatement('mpesa', 6, text);
    expect(parsed.skipped).toBe(1);
    expect(parsed.lines.map((l) => [l.operatorRef, l.reference, l.kind, l.amount, l.status])).toEqual([
      ['QK1', 'R1', 'collect', 1_000_00, 'success'],
      ['QK3', 'W1', 'disburse', 500_00, 'failed'],
    ]);
  });

  it('leaves the other channels of an aggregator export out', () => {
    const text = STATEMENT_FORMATS.aggregator.render(txns, 3, '2026-12-04') + STATEMENT_FORMATS.aggregator.render(txns, 7, '2026-12-04').split('\n').slice(1).join('\n');
    const parsed = parseStatement('aggregator', 3, text);
    expect([parsed.lines.length, parsed.skipped]).toEqual([2, 2]);
  });

  const malformed: [string, 'mpesa' | 'airtel' | 'aggregator', string, number][] = [
    ['no header', 'airtel', 'a,b,c\n1,2,3\n', 1],
    ['an amount that is not one', 'airtel', 'Transaction ID,External Reference,Transaction Date,Transaction Type,MSISDN,Amount,Currency,Status\nA1,R1,2026-12-04 10:00:00,Disbursement,780000001,12.345,TZS,TS\n', 2],
    ['an unknown status', 'airtel', 'Transaction ID,External Reference,Transaction Date,Transaction Type,MSISDN,Amount,Currency,Status\nA1,R1,2026-12-04 10:00:00,Disbursement,780000001,100,TZS,TS\nA2,R2,2026-12-04 10:00:00,Disbursement,780000001,100,TZS,MAYBE\n', 3],
    ['a date that does not exist', 'aggregator', 'Date,Transaction ID,Reference,Channel,Type,MSISDN,Amount,Currency,Status\n2026-02-31 10:00:00,T1,R1,TIGO,COLLECTION,255,100,TZS,SUCCESS\n', 2],
    ['a short line', 'aggregator', 'Date,Transaction ID,Reference,Channel,Type,MSISDN,Amount,Currency,Status\n2026-12-04 10:00:00,T1,R1,TIGO\n', 2],
    ['an unclosed quote', 'mpesa', 'Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Reason Type,Other Party Info,Linked Transaction ID,A/C No.\nQ1,2026-12-04 10:00:00,,"open,Completed,10,,10,Customer Payment,,,R1\n', 2],
    ['both Paid In and Withdrawn', 'mpesa', 'Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Reason Type,Other Party Info,Linked Transaction ID,A/C No.\nQ1,2026-12-04 10:00:00,,x,Completed,10,-10,10,Customer Payment,,,R1\n', 2],
  ];
  for (const [what, provider, text, line] of malformed) {
    it(`refuses ${what} (${provider}) 422 with line ${line}`, () => {
      const payType = provider === 'mpesa' ? 6 : provider === 'airtel' ? 4 : 3;
      let err: unknown;
      try {
        parseStatement(provider, payType, text);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(422);
      expect((err as AppError).details).toMatchObject([{ field: 'text', line }]);
    });
  }

  it('answers a malformed upload 422 with the line, never a 500, and stores nothing', async () => {
    const before = await db().select().from(operatorStatements);
    const res = await upload('Transaction ID,External Reference,Transaction Date,Transaction Type,MSISDN,Amount,Currency,Status\nA1,R1,yesterday,Disbursement,780000001,100,TZS,TS\n');
    expect(res.status).toBe(422);
    expect(res.body.details).toMatchObject([{ field: 'text', line: 2 }]);
    expect(await db().select().from(operatorStatements)).toHaveLength(before.length);
  });
});

describe('a day reconciled', () => {
  it('matches a day where every recharge and withdrawal is on the statement (fetched from the sandbox portal)', async () => {
    const r1 = await recharge(1_500_00);
    const r2 = await recharge(700_00, 'fail');
    const x1 = await withdrawal(2_000_00);
    expect([r1.payStatus, r2.payStatus, x1.status]).toEqual([PAY_STATUS.paid, PAY_STATUS.voided, WITHDRAWAL_STATUS.paid]);
    const res = await fetchNow();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ pay_type: AIRTEL, provider: 'airtel', day: today(), source: 'fetched', result: 'matched', version: 1, lines: 3, matched: 3, ours_only: 0, theirs_only: 0 });
    expect(res.body).toMatchObject({ their_collect: 1_500_00, our_collect: 1_500_00, their_disburse: 2_000_00, our_disburse: 2_000_00 });
    // Drill-down: each finding points to its payment.
    const items = await itemsOf(res.body.id);
    expect(items.map((i) => [i.kind, i.recharge_id ?? i.withdrawal_id]).sort()).toEqual(
      [['matched', r1.id], ['matched', r2.id], ['matched', x1.id]].sort(),
    );
    // The line carries our serial number, and the operator's own transaction id as its books have it.
    const theirs = await rt.sandbox(AIRTEL).transaction(r1.serialNumber);
    expect(items.find((i) => i.recharge_id === r1.id)).toMatchObject({ reference: r1.serialNumber, operator_ref: theirs!.carrierRef, our_amount: 1_500_00, their_amount: 1_500_00, their_status: 'success' });
    // No notice for a day that matches.
    expect(await db().select().from(notifications).where(like(notifications.content, `%statement of ${today()}%`))).toHaveLength(0);
  });

  it('finds each mismatch made by real activity, points to the payments and to reconciliation, and notifies', async () => {
    // Ours only: credited here, but the operator's books lost it.
    const lost = await recharge(900_00);
    await operatorForgets(t, lost.serialNumber);
    // Theirs only: money paid into the till without a request of ours.
    rt.sandbox(AIRTEL).queue.push('success');
    await rt.sandbox(AIRTEL).collect({ reference: `FOREIGN${Date.now()}`, phone: '255780000999', amount: 300_00 }, { face: 'airtel' });
    await clock.runAll();
    // Completed at the operator, but no callback: ours still waits (status mismatch → reconciliation).
    const waitingR = await recharge(1_100_00, 'no_callback');
    const waitingW = await withdrawal(1_200_00, 'no_callback');
    expect([waitingR.payStatus, waitingW.status]).toEqual([PAY_STATUS.processing, WITHDRAWAL_STATUS.disbursing]);

    const res = await fetchNow();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ result: 'mismatch', version: 2, ours_only: 1, theirs_only: 1, status_mismatch: 2, amount_mismatch: 0 });
    const items = await itemsOf(res.body.id, '&problems=true');
    expect(items.find((i) => i.kind === 'ours_only')).toMatchObject({ recharge_id: lost.id, reference: lost.serialNumber, their_amount: null, our_amount: 900_00 });
    expect(items.find((i) => i.kind === 'theirs_only')).toMatchObject({ recharge_id: null, withdrawal_id: null, their_amount: 300_00, their_status: 'success' });
    expect(items.filter((i) => i.kind === 'status_mismatch').map((i) => [i.recharge_id ?? i.withdrawal_id, i.our_status, i.their_status, i.reconcile]).sort()).toEqual(
      [[waitingR.id, 'pending', 'success', true], [waitingW.id, 'pending', 'success', true]].sort(),
    );
    // Filters by kind.
    expect((await itemsOf(res.body.id, '&kind=ours_only')).map((i) => i.kind)).toEqual(['ours_only']);
    // A notice to the admins of the page (the super admin holds every page).
    const notes = await db().select().from(notifications).where(and(eq(notifications.adminId, w.rootId), like(notifications.content, `%statement of ${today()} does not match%`)));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.content).toContain('1 ours only, 1 theirs only, 2 status mismatch');
  });

  it('finds an amount and a status mismatch in a doctored statement line', async () => {
    const paid = await recharge(2_500_00);
    const out = await withdrawal(1_300_00);
    const lines = (await portalFile()).split('\n');
    const doctor = (ref: string, change: (cells: string[]) => void) => {
      const i = lines.findIndex((l) => l.includes(ref));
      expect(i).toBeGreaterThan(0);
      const cells = lines[i]!.split(',');
      change(cells);
      lines[i] = cells.join(',');
    };
    doctor(paid.serialNumber, (c) => (c[5] = '2600.00'));
    doctor(out.serialNumber, (c) => (c[7] = 'TF'));
    const res = await upload(lines.join('\n'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ source: 'uploaded', file_name: 'doctored.csv', result: 'mismatch', amount_mismatch: 1 });
    const items = await itemsOf(res.body.id, '&problems=true');
    expect(items.find((i) => i.kind === 'amount_mismatch')).toMatchObject({ recharge_id: paid.id, our_amount: 2_500_00, their_amount: 2_600_00, line_no: expect.any(Number) });
    expect(items.find((i) => i.withdrawal_id === out.id)).toMatchObject({ kind: 'status_mismatch', our_status: 'success', their_status: 'failed', reconcile: false });
    expect(items.find((i) => i.recharge_id === paid.id)!.their_line).toMatchObject({ 'External Reference': paid.serialNumber, Amount: '2600.00' });
  });

  it('keeps every import of a day: the list shows the latest by default and the history on asking', async () => {
    const all = (await t.call('GET', `/api/v1/money/operator_statements?pay_type=${AIRTEL}&day_from=${today()}&day_to=${today()}`, { token: root })).body;
    expect(all.items.map((s: any) => s.version)).toEqual([3, 2, 1]);
    const latest = (await t.call('GET', `/api/v1/money/operator_statements?pay_type=${AIRTEL}&day_from=${today()}&latest=true`, { token: root })).body;
    expect(latest.items.map((s: any) => [s.version, s.latest])).toEqual([[3, true]]);
    const mismatches = (await t.call('GET', `/api/v1/money/operator_statements?pay_type=${AIRTEL}&day_from=${today()}&result=mismatch`, { token: root })).body;
    expect(mismatches.items.map((s: any) => s.version)).toEqual([3, 2]);
    // The first import's findings are untouched by the later ones.
    const [first] = await db().select().from(operatorStatements).where(and(eq(operatorStatements.payType, AIRTEL), eq(operatorStatements.day, today()), eq(operatorStatements.version, 1)));
    expect(await db().select().from(operatorStatementItems).where(eq(operatorStatementItems.statementId, first!.id))).toHaveLength(3);
    const one = await t.call('GET', `/api/v1/money/operator_statements/${first!.id}`, { token: root });
    expect(one.body).toMatchObject({ id: first!.id, version: 1, latest: false, result: 'matched' });
  });

  it("the daily job fetches yesterday's statement of each sandbox provider once", async () => {
    const tomorrow = Date.now() + 86_400_000;
    const done = await reconcileYesterday(t.ctx, tomorrow);
    // Airtel's day was fetched already (by an admin, above): left alone; the others' days had no activity.
    expect(done.map((s) => [s.payType, s.day, s.source, s.result, s.createdBy]).sort()).toEqual([
      [3, today(), 'fetched', 'matched', null], [6, today(), 'fetched', 'matched', null], [7, today(), 'fetched', 'matched', null],
    ]);
    expect(await reconcileYesterday(t.ctx, tomorrow)).toEqual([]);
  });
});

describe('who may', () => {
  it('refuses the page without its keys, and a branch admin importing or fetching (whole book only)', async () => {
    const agentA = await t.login('agent_a');
    expect((await t.call('GET', '/api/v1/money/operator_statements', { token: agentA })).status).toBe(403);
    expect((await fetchNow(agentA)).status).toBe(403);
    await grantKeys(t, w.agentRole, STATEMENT_KEYS);
    const again = await t.login('agent_a');
    const fetched = await fetchNow(again);
    expect([fetched.status, fetched.body.code]).toEqual([403, 'WHOLE_BOOK_ONLY']);
    const uploaded = await upload('x', again);
    expect([uploaded.status, uploaded.body.code]).toEqual([403, 'WHOLE_BOOK_ONLY']);
    // A branch sees no operator account's statements.
    expect((await t.call('GET', '/api/v1/money/operator_statements', { token: again })).body.items).toEqual([]);
    // Staff serving the super admin see the whole book: they import.
    const staff = await makeRole(t, 'Reconciler', STATEMENT_KEYS);
    const { roles } = await import('../src/platform/schema.js');
    await db().update(roles).set({ servesSuperiorBranch: true }).where(eq(roles.id, staff));
    await makeAdmin(t, 'reconciler', staff, w.rootId);
    const res = await fetchNow(await t.login('reconciler'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Each import leaves an audit row.
    const { systemLogs } = await import('../src/platform/schema.js');
    const logs = await db().select().from(systemLogs).where(like(systemLogs.content, `Imported the Airtel Money statement of ${today()}%`));
    expect(logs.length).toBeGreaterThanOrEqual(4);
  });

  it('exports the findings of a statement (CSV through the exports module), with the export key only', async () => {
    const [s] = await db().select().from(operatorStatements).where(and(eq(operatorStatements.payType, AIRTEL), eq(operatorStatements.version, 2)));
    const r = await t.call('POST', '/api/v1/exports', { token: root, body: { type: 'operator_statement_items', format: 1, params: { statement_id: String(s!.id) } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const done = await exportFinished(t, r.body.id);
    expect(done).toMatchObject({ status: 2 });
    const file = await t.call('GET', `/api/v1/system/async_operations/${done.id}/download`, { token: root });
    const csv = String(file.res.body);
    expect(csv).toContain('ours_only');
    expect(csv).toContain('theirs_only');
    const list = await t.call('POST', '/api/v1/exports', { token: root, body: { type: 'operator_statements', format: 2, params: { day_from: today() } } });
    expect(list.status).toBe(202);
    expect((await exportFinished(t, list.body.id)).status).toBe(2);
    const limited = await t.login('limited');
    expect((await t.call('POST', '/api/v1/exports', { token: limited, body: { type: 'operator_statements', format: 1, params: {} } })).status).toBe(403);
  });
});
