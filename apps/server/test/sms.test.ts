/**
 * SMS (issue 15): the no-send list, preview (encoding, parts, cost), sends through the sandbox
 * Africa's Talking gateway as durable jobs, delivery reports (idempotent, token-checked), the gateway's
 * failures (invalid number, blacklist, insufficient credit, throttling, failed delivery), STOP replies,
 * the write-only API key, and the branch rule. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { admins, systemLogs } from '../src/platform/schema.js';
import { sandboxSmsMessages, smsConfig, smsExclusions, smsRecipients, smsSends } from '../src/modules/sms/schema.js';
import { applyDeliveryReport, configureSms, startSmsSandbox, type SmsSandbox } from '../src/modules/sms/index.js';
import { approved, ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, type TestApp, until } from './helpers.js';
import { makeBettor } from './money-helpers.js';

const SMS_KEYS = ['sms_send', 'sms_send:send', 'sms_send:config', 'no_send_sms', 'no_send_sms:create', 'no_send_sms:delete', 'no_send_sms:import'];

let t: TestApp;
let gw: SmsSandbox;
let root: string;
let tokA: string;
let tokB: string;
let agentA: number;
let agentB: number;
let callbackToken: string;
let appUrl: string;


const sendRow = async (id: number) => (await t.database.db.select().from(smsSends).where(eq(smsSends.id, id)))[0]!;
const waitDone = (id: number) => until(() => sendRow(id), (s) => s.status === 'done', `send ${id} done`);
const waitReported = (id: number) =>
  until(() => sendRow(id), (s) => s.status === 'done' && s.deliveredCount + s.failedCount >= s.recipientCount, `send ${id} reported`);
const booksFor = (phone: string) => t.database.db.select().from(sandboxSmsMessages).where(eq(sandboxSmsMessages.phone, phone));
const recipientsOf = (id: number) => t.database.db.select().from(smsRecipients).where(eq(smsRecipients.sendId, id)).orderBy(smsRecipients.id);

beforeAll(async () => {
  t = await createTestApp();
  root = await t.login('admin', ADMIN_PASSWORD);
  const [rootRow] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  const role = await makeRole(t, 'SMS agent', SMS_KEYS);
  agentA = await makeAdmin(t, 'sms_a', role, rootRow.id);
  agentB = await makeAdmin(t, 'sms_b', role, rootRow.id);
  tokA = await t.login('sms_a');
  tokB = await t.login('sms_b');
  appUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  callbackToken = (await t.database.db.select().from(smsConfig))[0]!.callbackToken;
  gw = await startSmsSandbox({
    db: t.database.db, port: 0, dlrDelayMs: 50,
    deliveryUrl: () => `${appUrl}/api/public/sms/at/delivery?token=${callbackToken}`,
    incomingUrl: () => `${appUrl}/api/public/sms/at/incoming?token=${callbackToken}`,
  });
  configureSms({ apiUrl: gw.apiUrl });
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await t?.close();
});

describe('no-send list', () => {
  it('normalises the local form, refuses duplicates and bad numbers, imports a list, deletes', async () => {
    const a = await t.call('POST', '/api/v1/sms/exclusions', { token: tokA, body: { phone: '0712 345 600' } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ phone: '+255712345600', source: 'manual', created_by: agentA });
    expect((await t.call('POST', '/api/v1/sms/exclusions', { token: tokA, body: { phone: '+255 712-345-600' } })).status).toBe(409);
    const bad = await t.call('POST', '/api/v1/sms/exclusions', { token: tokA, body: { phone: '12345' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('PHONE_INVALID');

    const imp = await t.call('POST', '/api/v1/sms/exclusions/import', { token: tokA, body: { text: '0712345600\n255712345601, 712345602; hello\n0712345601' } });
    expect(imp.status).toBe(200);
    expect(imp.body).toEqual({ added: 2, already: 1, invalid: ['hello'], invalid_count: 1 });

    const list = await t.call('GET', '/api/v1/sms/exclusions?phone=7123456', { token: tokB });
    expect(list.body.total).toBe(3);
    // Removing a number lifts an opt-out for every branch: a branch agent may not, even one they added.
    const refused = await t.call('DELETE', `/api/v1/sms/exclusions/${a.body.id}`, { token: tokA });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('WHOLE_BOOK_ONLY');
    expect((await t.database.db.select().from(smsExclusions).where(eq(smsExclusions.phone, '+255712345600'))).length).toBe(1);
    const del = await t.call('DELETE', `/api/v1/sms/exclusions/${a.body.id}`, { token: root });
    expect(del.status).toBe(200);
    expect((await t.database.db.select().from(smsExclusions).where(eq(smsExclusions.phone, '+255712345600'))).length).toBe(0);
  });

  it('a bettor\'s STOP reply (AT incoming-message callback) puts the number on the list', async () => {
    const res = await fetch(`${gw.url}/sandbox/incoming`, { method: 'POST', body: new URLSearchParams({ from: '+255712345690', text: 'STOP' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(((await res.json()) as { delivered: boolean }).delivered).toBe(true);
    const [row] = await t.database.db.select().from(smsExclusions).where(eq(smsExclusions.phone, '+255712345690'));
    expect(row?.source).toBe('stop');
    // Another branch's agent cannot lift the bettor's STOP.
    expect((await t.call('DELETE', `/api/v1/sms/exclusions/${row!.id}`, { token: tokB })).status).toBe(403);
    expect(await t.database.db.select().from(smsExclusions).where(eq(smsExclusions.id, row!.id))).toHaveLength(1);
    // Any other text does nothing; a wrong token is refused.
    await fetch(`${gw.url}/sandbox/incoming`, { method: 'POST', body: new URLSearchParams({ from: '+255712345691', text: 'hello' }) });
    expect((await t.database.db.select().from(smsExclusions).where(eq(smsExclusions.phone, '+255712345691'))).length).toBe(0);
    const wrong = await fetch(`${appUrl}/api/public/sms/at/incoming?token=nope`, { method: 'POST', body: new URLSearchParams({ from: '+255712345692', text: 'STOP' }) });
    expect(wrong.status).toBe(404);
  });
});

describe('preview: encoding, parts and cost', () => {
  const preview = (content: string) => t.call('POST', '/api/v1/sms/preview', { token: root, body: { content, target: { kind: 'one', phone: '0713000001' } } });
  it('English and Swahili are GSM-7, Chinese is UCS-2; cost = parts × recipients × cost of a part', async () => {
    const en = await preview('Your weekend bonus is ready. Bet now and win big!');
    expect(en.body).toMatchObject({ encoding: 'gsm7', segments: 1, recipient_count: 1, cost_per_segment_cents: 2500, estimated_cost_cents: 2500 });
    const sw = await preview('Habari! Bonasi yako ya wikendi iko tayari. Weka dau sasa ushinde zaidi. Kumbuka kucheza kwa kiasi na kwa uwajibikaji. Asante kwa kuwa nasi kila siku!');
    expect(sw.body).toMatchObject({ encoding: 'gsm7', segments: 1 });
    const swLong = await preview('Habari! '.repeat(25));
    expect(swLong.body).toMatchObject({ encoding: 'gsm7', segments: 2, estimated_cost_cents: 5000 });
    const zh = await preview('您的周末奖金已到账，立即投注赢取大奖！请理性投注，感谢您每天的支持。祝您好运连连，天天开心，万事如意，财源广进！');
    expect(zh.body.encoding).toBe('ucs2');
    expect(zh.body.segments).toBe(1);
    const zhLong = await preview('您的周末奖金已到账，立即投注赢取大奖！'.repeat(4));
    expect(zhLong.body).toMatchObject({ encoding: 'ucs2', segments: 2, estimated_cost_cents: 5000 });
  });

  it('reports invalid entries and duplicates of a pasted list', async () => {
    const r = await t.call('POST', '/api/v1/sms/preview', { token: root, body: { content: 'hi', target: { kind: 'phones', phones: '0713000001\n0713000001\nabc\n+255713000002' } } });
    expect(r.body).toMatchObject({ recipient_count: 2, duplicates: 1, invalid: ['abc'], invalid_count: 1 });
  });
});

describe('sending', () => {
  it('never sends to an excluded number, including one written in local form 07…', async () => {
    // The bettors of a desk of its own below agent A (other cases add bettors of A's): the filter is the desk's.
    const [{ roleId }] = await t.database.db.select({ roleId: admins.roleId }).from(admins).where(eq(admins.id, agentA));
    const desk = await makeAdmin(t, 'sms_a_desk', roleId, agentA);
    const b1 = await makeBettor(t, desk, { phone: '255713100001' });
    const b2 = await makeBettor(t, desk, { phone: '255713100002' });
    await makeBettor(t, desk, { phone: '255713100003' });
    expect((await t.call('POST', '/api/v1/sms/exclusions', { token: tokA, body: { phone: '0713 100 003' } })).status).toBe(201);

    // By filter (the bettors list's filters: this agent's bettors).
    const pv = await t.call('POST', '/api/v1/sms/preview', { token: tokA, body: { content: 'Karibu tena!', target: { kind: 'filter', filter: { agent_id: desk } } } });
    expect(pv.body).toMatchObject({ recipient_count: 2, excluded_count: 1 });
    const s1 = await t.call('POST', '/api/v1/sms/sends', { token: tokA, body: { content: 'Karibu tena!', target: { kind: 'filter', filter: { agent_id: desk } }, expected_cost_cents: pv.body.estimated_cost_cents } });
    expect(s1.status).toBe(201);
    // A filter send is answered while its recipients are written by the job `sms.prepare`.
    expect(s1.body).toMatchObject({ recipient_count: 2, excluded_count: 1 });
    expect(['preparing', 'sending']).toContain(s1.body.status);
    // By a pasted list in local forms.
    const s2 = await t.call('POST', '/api/v1/sms/sends', { token: tokA, body: { content: 'Second', target: { kind: 'phones', phones: '0713100001\n0713 100 003' } } });
    expect(s2.body).toMatchObject({ recipient_count: 1, excluded_count: 1 });
    // One number in local form, excluded: nothing left to send.
    const s3 = await t.call('POST', '/api/v1/sms/sends', { token: tokA, body: { content: 'Third', target: { kind: 'one', phone: '0713100003' } } });
    expect(s3.status).toBe(422);
    expect(s3.body.code).toBe('SMS_NO_RECIPIENTS');

    const done1 = await waitReported(s1.body.id);
    expect(done1).toMatchObject({ sentCount: 2, deliveredCount: 2, failedCount: 0 });
    await waitReported(s2.body.id);
    expect(await booksFor('+255713100003')).toEqual([]);
    expect((await booksFor('+255713100001')).length).toBe(2);
    const rows = await recipientsOf(s1.body.id);
    expect(rows.map((r) => [r.phone, r.bettorId, r.status, r.smsStatus])).toEqual([
      ['+255713100001', b1.id, 'delivered', 2],
      ['+255713100002', b2.id, 'delivered', 2],
    ]);
    // The per-recipient report as the console reads it.
    const rep = await t.call('GET', `/api/v1/sms/sends/${s1.body.id}/recipients`, { token: tokA });
    expect(rep.body.items[0]).toMatchObject({ status: 'delivered', sms_status: 2, attempts: 1 });
    expect(rep.body.items[0].provider_message_id).toMatch(/^ATXid_/);
  });

  it('a changed cost since the preview is refused (preview again)', async () => {
    const r = await t.call('POST', '/api/v1/sms/sends', { token: root, body: { content: 'x', target: { kind: 'one', phone: '0713200001' }, expected_cost_cents: 1 } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('SMS_PREVIEW_CHANGED');
  });

  it('the gateway\'s refusals and failed deliveries: invalid number, blacklist, failed delivery, insufficient credit', async () => {
    const s = await t.call('POST', '/api/v1/sms/sends', { token: root, body: { content: 'Test', target: { kind: 'phones', phones: '0799000001\n0798000001\n0797000001\n0713300001' } } });
    expect(s.status).toBe(201);
    const done = await waitReported(s.body.id);
    expect(done).toMatchObject({ sentCount: 2, deliveredCount: 1, failedCount: 3 });
    const rows = await recipientsOf(s.body.id);
    const by = Object.fromEntries(rows.map((r) => [r.phone, [r.status, r.failureReason, r.smsStatus]]));
    expect(by).toEqual({
      '+255799000001': ['failed', 'InvalidPhoneNumber', 1],
      '+255798000001': ['failed', 'UserInBlacklist', 1],
      '+255797000001': ['failed', 'DeliveryFailure', 2],
      '+255713300001': ['delivered', null, 2],
    });

    gw.setBalance(0);
    try {
      const poor = await t.call('POST', '/api/v1/sms/sends', { token: root, body: { content: 'Test', target: { kind: 'one', phone: '0713300002' } } });
      await waitDone(poor.body.id);
      const [r] = await recipientsOf(poor.body.id);
      expect([r!.status, r!.failureReason, r!.smsStatus]).toEqual(['failed', 'InsufficientBalance', 1]);
      expect(await booksFor('+255713300002')).toEqual([]);
    } finally {
      gw.setBalance(1_000_000_000_000);
    }
  });

  it('throttled by the gateway (429): the refused chunks are queued again and every number gets one message', async () => {
    await approved(t, 'PUT', '/api/v1/sms/config', { token: root, body: { rate_per_second: 3 } });
    gw.throttleNext(2);
    try {
      const phones = Array.from({ length: 7 }, (_, i) => `07134000${String(i).padStart(2, '0')}`).join('\n');
      const s = await t.call('POST', '/api/v1/sms/sends', { token: root, body: { content: 'Throttle', target: { kind: 'phones', phones } } });
      await waitReported(s.body.id);
      expect(gw.throttled()).toBeGreaterThan(0);
      const rows = await recipientsOf(s.body.id);
      expect(rows.every((r) => r.status === 'delivered')).toBe(true);
      for (const r of rows) expect((await booksFor(r.phone)).length).toBe(1);
    } finally {
      gw.throttleNext(0);
      await approved(t, 'PUT', '/api/v1/sms/config', { token: root, body: { rate_per_second: 50 } });
    }
  });

  it('a gateway that cannot be reached: nothing is in doubt, the numbers wait in the queue and go once it answers', async () => {
    // A port nobody listens on (taken, then freed): connections are refused.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const closedPort = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    configureSms({ apiUrl: `http://127.0.0.1:${closedPort}/version1` });
    let s: { status: number; body: any };
    try {
      s = await t.call('POST', '/api/v1/sms/sends', { token: root, body: { content: 'Unreachable', target: { kind: 'one', phone: '0713800001' } } });
      expect(s.status).toBe(201);
      const [created] = await recipientsOf(s.body.id);
      // The job tried (connection refused) and put the number back: queued, not in doubt.
      await until(() => recipientsOf(s.body.id), (rows) => rows[0]!.status === 'queued' && rows[0]!.updatedAt.getTime() > created!.updatedAt.getTime(), 'the refused attempt');
    } finally {
      configureSms({ apiUrl: gw.apiUrl });
    }
    await waitReported(s.body.id);
    const [row] = await recipientsOf(s.body.id);
    expect([row!.status, row!.attempts]).toEqual(['delivered', 1]);
    expect((await booksFor('+255713800001')).length).toBe(1);
  });
});

describe('delivery reports', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)('a report that overtakes our record of the gateway\'s answer is still applied (PostgreSQL: two connections)', async () => {
    const s = await t.call('POST', '/api/v1/sms/sends', { token: root, body: { content: 'Race', target: { kind: 'one', phone: '0713600001' } } });
    await waitReported(s.body.id);
    // The row as a claim leaves it: sending, no message id yet (the gateway's answer not recorded).
    const [row] = await recipientsOf(s.body.id);
    await t.database.db.update(smsRecipients).set({ status: 'sending', providerMessageId: null }).where(eq(smsRecipients.id, row!.id));
    await t.database.db.update(smsSends).set({ deliveredCount: 0 }).where(eq(smsSends.id, s.body.id));
    const messageId = `ATXid_race_${row!.id}`;
    // Our record of the answer holds the row (uncommitted) while the report arrives.
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const answer = t.database.db.transaction(async (tx) => {
      await tx.update(smsRecipients).set({ status: 'sent', providerMessageId: messageId }).where(eq(smsRecipients.id, row!.id));
      held();
      await released;
    });
    await holding;
    const report = applyDeliveryReport(t.database.db, { id: messageId, status: 'Success', phoneNumber: row!.phone });
    await until(
      async () => (await t.database.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%provider_message_id is null%'`)).rows[0].n,
      (n) => n > 0,
      'the report waiting on the row',
    );
    release();
    await answer;
    expect(await report).toEqual({ matched: true });
    const [after] = await recipientsOf(s.body.id);
    expect([after!.status, after!.providerMessageId]).toEqual(['delivered', messageId]);
    expect((await sendRow(s.body.id)).deliveredCount).toBe(1);
  });

  it('are idempotent and need the callback token', async () => {
    const s = await t.call('POST', '/api/v1/sms/sends', { token: root, body: { content: 'DLR', target: { kind: 'one', phone: '0713500001' } } });
    const done = await waitReported(s.body.id);
    const [r] = await recipientsOf(s.body.id);
    const post = (token: string, status = 'Success') =>
      fetch(`${appUrl}/api/public/sms/at/delivery?token=${token}`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id: r!.providerMessageId!, status, phoneNumber: r!.phone, networkCode: '64002', retryCount: '0' }),
      });
    for (let i = 0; i < 3; i++) expect((await post(callbackToken)).status).toBe(200);
    expect((await post(callbackToken, 'Failed')).status).toBe(200);
    expect(await sendRow(s.body.id)).toMatchObject({ sentCount: done.sentCount, deliveredCount: done.deliveredCount, failedCount: done.failedCount });
    expect((await recipientsOf(s.body.id))[0]!.status).toBe('delivered');
    expect((await post('wrong')).status).toBe(404);
    const noToken = await t.call('POST', '/api/public/sms/at/delivery', { body: { id: 'x', status: 'Success', phoneNumber: '+255713500001' } });
    expect(noToken.status).toBe(404);
    expect(noToken.body.code).toBe('SMS_CALLBACK_REFUSED');
  });

  it('settle a row in doubt (claimed, no answer recorded) by phone without sending it again', async () => {
    // A claim committed whose answer was lost: the row is 'sending' without a message id.
    const [send] = await t.database.db.insert(smsSends).values({ content: 'doubt', encoding: 'gsm7', segments: 1, targetKind: 'one', senderAdminId: 1, recipientCount: 1 }).returning();
    const [row] = await t.database.db.insert(smsRecipients).values({ sendId: send!.id, phone: '+255713600001', status: 'sending', attempts: 1 }).returning();
    const res = await fetch(`${appUrl}/api/public/sms/at/delivery?token=${callbackToken}`, {
      method: 'POST', body: new URLSearchParams({ id: 'ATXid_doubt1', status: 'Success', phoneNumber: '+255713600001' }),
    });
    expect(await res.json()).toEqual({ ok: true, matched: true });
    const [after] = await t.database.db.select().from(smsRecipients).where(eq(smsRecipients.id, row!.id));
    expect(after).toMatchObject({ status: 'delivered', providerMessageId: 'ATXid_doubt1', smsStatus: 2, attempts: 1 });
    expect(await sendRow(send!.id)).toMatchObject({ sentCount: 1, deliveredCount: 1 });
  });
});

describe('settings and scope', () => {
  it('the API key is write-only: never answered, never in the audit trail', async () => {
    const put = await approved(t, 'PUT', '/api/v1/sms/config', { token: root, body: { api_key: 'atsk_secret_value_123', sender_id: 'DAU' } });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain('atsk_secret_value_123');
    expect(put.body).toMatchObject({ api_key_set: true, sender_id: 'DAU' });
    expect(put.body.delivery_report_url).toContain('/api/public/sms/at/delivery?token=');
    const logs = await t.database.db.select().from(systemLogs);
    expect(JSON.stringify(logs)).not.toContain('atsk_secret_value_123');
    // Back to the sandbox's key (an empty key keeps the stored one).
    await approved(t, 'PUT', '/api/v1/sms/config', { token: root, body: { api_key: 'atsk_sandbox_dau_local', sender_id: '' } });
    const keep = await approved(t, 'PUT', '/api/v1/sms/config', { token: root, body: { api_key: '' } });
    expect(keep.body.api_key_set).toBe(true);
    expect((await t.database.db.select().from(smsConfig))[0]!.apiKey).toBe('atsk_sandbox_dau_local');
  });

  it('an agent messages only their own branch\'s bettors and sees only their branch\'s sends', async () => {
    await makeBettor(t, agentA, { phone: '255713700001' });
    // B pastes A's bettor and a number of nobody: neither is counted.
    const pv = await t.call('POST', '/api/v1/sms/preview', { token: tokB, body: { content: 'x', target: { kind: 'phones', phones: '0713700001\n0713700999' } } });
    expect(pv.body).toMatchObject({ recipient_count: 0, out_of_scope_count: 2 });
    const s = await t.call('POST', '/api/v1/sms/sends', { token: tokB, body: { content: 'x', target: { kind: 'one', phone: '0713700001' } } });
    expect(s.status).toBe(422);
    // The filter of another branch's agent reaches nobody.
    const f = await t.call('POST', '/api/v1/sms/preview', { token: tokB, body: { content: 'x', target: { kind: 'filter', filter: { agent_id: agentA } } } });
    expect(f.body.recipient_count).toBe(0);
    // The super admin may send to a number of nobody.
    const any = await t.call('POST', '/api/v1/sms/preview', { token: root, body: { content: 'x', target: { kind: 'phones', phones: '0713700001\n0713700999' } } });
    expect(any.body).toMatchObject({ recipient_count: 2, out_of_scope_count: 0 });

    // A send of A's own.
    const mine = await t.call('POST', '/api/v1/sms/sends', { token: tokA, body: { content: 'x', target: { kind: 'one', phone: '0713700001' } } });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const [aSend] = await t.database.db.select().from(smsSends).where(and(eq(smsSends.senderAdminId, agentA), eq(smsSends.id, mine.body.id)));
    expect((await t.call('GET', `/api/v1/sms/sends/${aSend!.id}`, { token: tokB })).status).toBe(404);
    expect((await t.call('GET', `/api/v1/sms/sends/${aSend!.id}/recipients`, { token: tokB })).status).toBe(404);
    expect((await t.call('GET', `/api/v1/sms/sends/${aSend!.id}`, { token: tokA })).status).toBe(200);
    const listB = await t.call('GET', '/api/v1/sms/sends', { token: tokB });
    expect(listB.body.items.every((x: { sender_admin_id: number }) => x.sender_admin_id === agentB)).toBe(true);
    const listRoot = await t.call('GET', '/api/v1/sms/sends', { token: root });
    expect(listRoot.body.items.some((x: { sender_admin_id: number }) => x.sender_admin_id === agentA)).toBe(true);
  });
});
