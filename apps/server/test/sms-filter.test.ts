/**
 * An SMS send to a filter of the bettors list writes its recipients after the request, in chunks
 * (job `sms.prepare`, chunk size DAU_SMS_FILTER_CHUNK; 4 here): answered while 'preparing' with no
 * recipient written, then every matching bettor of the sender's branch exactly once, numbers on the
 * no-send list (typed in local 07… form) never, another branch's bettors never, and a chunk job run twice
 * writes nobody twice. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { admins } from '../src/platform/schema.js';
import { sandboxSmsMessages, smsConfig, smsRecipients, smsSends } from '../src/modules/sms/schema.js';
import { configureSms, prepareSend, SMS_PREPARE_JOB, startSmsSandbox, type SmsSandbox } from '../src/modules/sms/index.js';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, type TestApp, until } from './helpers.js';
import { makeBettor } from './money-helpers.js';

const SMS_KEYS = ['sms_send', 'sms_send:send', 'sms_send:config', 'no_send_sms', 'no_send_sms:create', 'no_send_sms:delete', 'no_send_sms:import'];
const CHUNK = 4;
const A_BETTORS = 23; // 6 chunks, the last one partial
const B_BETTORS = 5;

let t: TestApp;
let gw: SmsSandbox;
let tokA: string;
let agentA: number;
let agentB: number;
const aPhones: string[] = [];
const bPhones: string[] = [];
const excluded = ['+255714100003', '+255714100007'];

const sendRow = async (id: number) => (await t.database.db.select().from(smsSends).where(eq(smsSends.id, id)))[0]!;
const recipientsOf = (id: number) => t.database.db.select().from(smsRecipients).where(eq(smsRecipients.sendId, id)).orderBy(smsRecipients.id);
const expected = () => aPhones.filter((p) => !excluded.includes(p)).sort();

beforeAll(async () => {
  t = await createTestApp();
  const [rootRow] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  await t.login('admin', ADMIN_PASSWORD);
  const role = await makeRole(t, 'SMS filter agent', SMS_KEYS);
  agentA = await makeAdmin(t, 'smsf_a', role, rootRow.id);
  agentB = await makeAdmin(t, 'smsf_b', role, rootRow.id);
  tokA = await t.login('smsf_a');
  // Interleaved ids: the other branch's bettors sit between this branch's, inside its chunks.
  for (let i = 1; i <= A_BETTORS; i++) {
    const phone = `2557141000${String(i).padStart(2, '0')}`;
    await makeBettor(t, agentA, { phone });
    aPhones.push(`+${phone}`);
    if (i <= B_BETTORS) {
      const other = `2557142000${String(i).padStart(2, '0')}`;
      await makeBettor(t, agentB, { phone: other });
      bPhones.push(`+${other}`);
    }
  }
  expect((await t.call('POST', '/api/v1/sms/exclusions', { token: tokA, body: { phone: '0714 100 003' } })).status).toBe(201);
  expect((await t.call('POST', '/api/v1/sms/exclusions/import', { token: tokA, body: { text: '0714100007' } })).body.added).toBe(1);
  const appUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const callbackToken = (await t.database.db.select().from(smsConfig))[0]!.callbackToken;
  gw = await startSmsSandbox({
    db: t.database.db, port: 0, dlrDelayMs: 50,
    deliveryUrl: () => `${appUrl}/api/public/sms/at/delivery?token=${callbackToken}`,
    incomingUrl: () => `${appUrl}/api/public/sms/at/incoming?token=${callbackToken}`,
  });
  configureSms({ apiUrl: gw.apiUrl, filterChunk: CHUNK });
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await t?.close();
});

const send = (content: string) => t.call('POST', '/api/v1/sms/sends', { token: tokA, body: { content, target: { kind: 'filter', filter: {} } } });

describe('SMS to a filter: recipients written in chunks by a job', () => {
  it('reaches every matching bettor of the branch once, never an excluded number or another branch', async () => {
    const pv = await t.call('POST', '/api/v1/sms/preview', { token: tokA, body: { content: 'Karibu!', target: { kind: 'filter', filter: {} } } });
    expect(pv.body).toMatchObject({ recipient_count: A_BETTORS - 2, excluded_count: 2 });
    const s = await send('Karibu!');
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ recipient_count: A_BETTORS - 2, excluded_count: 2 });
    expect(['preparing', 'sending', 'done']).toContain(s.body.status);

    const done = await until(() => sendRow(s.body.id), (x) => x.status === 'done' && x.deliveredCount + x.failedCount >= x.recipientCount, 'the send done');
    expect(done).toMatchObject({ recipientCount: A_BETTORS - 2, writtenCount: A_BETTORS - 2, deliveredCount: A_BETTORS - 2, failedCount: 0 });
    const rows = await recipientsOf(s.body.id);
    expect(rows.map((r) => r.phone).sort()).toEqual(expected());
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    // The gateway's books: each number once, none of the excluded or of the other branch.
    const books = await t.database.db.select().from(sandboxSmsMessages);
    const mine = books.filter((b) => b.content === 'Karibu!').map((b) => b.phone).sort();
    expect(mine).toEqual(expected());
    for (const p of [...excluded, ...bPhones]) expect(mine).not.toContain(p);
  });

  it('is answered before any recipient exists, and a chunk job run twice writes nobody twice', async () => {
    // No worker takes `sms.prepare` from here on: the test runs the job by hand.
    await t.ctx.jobs.boss.offWork(SMS_PREPARE_JOB);
    const s = await send('Habari tena!');
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ status: 'preparing', recipient_count: A_BETTORS - 2, written_count: 0, queued_count: 0 });
    expect(await recipientsOf(s.body.id)).toEqual([]);
    const listed = await t.call('GET', '/api/v1/sms/sends?status=preparing', { token: tokA });
    expect(listed.body.items.map((x: { id: number }) => x.id)).toContain(s.body.id);

    // Two runs of the job at once (a retry while the first still runs), then a third after the end.
    await Promise.all([prepareSend(t.ctx, s.body.id), prepareSend(t.ctx, s.body.id)]);
    await prepareSend(t.ctx, s.body.id);
    const after = await sendRow(s.body.id);
    expect(after.status === 'sending' || after.status === 'done').toBe(true);
    expect(after).toMatchObject({ writtenCount: A_BETTORS - 2, recipientCount: A_BETTORS - 2 });
    expect(after.prepareCursor).toBeGreaterThan(0);
    const rows = await recipientsOf(s.body.id);
    expect(rows.map((r) => r.phone).sort()).toEqual(expected());

    // A chunk replayed from an older cursor (its commit seen, its job delivered again) inserts nothing.
    await t.database.db.update(smsSends).set({ status: 'preparing', prepareCursor: 0, writtenCount: after.writtenCount }).where(eq(smsSends.id, s.body.id));
    await prepareSend(t.ctx, s.body.id);
    expect(await recipientsOf(s.body.id)).toHaveLength(A_BETTORS - 2);
    expect((await sendRow(s.body.id)).writtenCount).toBe(A_BETTORS - 2);

    await until(() => sendRow(s.body.id), (x) => x.status === 'done' && x.deliveredCount + x.failedCount >= x.recipientCount, 'the second send done');
    const books = (await t.database.db.select().from(sandboxSmsMessages)).filter((b) => b.content === 'Habari tena!').map((b) => b.phone).sort();
    expect(books).toEqual(expected());
  });
});
