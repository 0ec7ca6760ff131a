/**
 * Messaging (issue 15, MSG) on PGlite and, with TEST_DATABASE_URL, PostgreSQL: the message board (scope,
 * read, reply into the inbox, delete, clear with confirmation), in-app sends (phone list with 07… forms,
 * chosen bettors, filter, branch, broadcast; scope refusals; chunked fan-out; scheduled and cancelled;
 * withdrawn), reads (once per bettor, check time), and the app versions with the public version check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, count as count_, eq, inArray, like } from 'drizzle-orm';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { grantKeys } from './payments-fixtures.js';
import { bettors } from '../src/schema.js';
import { boardMessages, messageReads, messageRecipients, messages } from '../src/modules/messaging/schema.js';
import { DELIVER_JOB, drainMessaging, inbox, markMessageRead, postBoardMessage } from '../src/modules/messaging/index.js';
import { systemLogs } from '../src/platform/schema.js';

const KEYS = ['message_board', 'message_board:reply', 'message_board:delete', 'message_board:clear', 'message_list', 'message_list:send', 'message_list:delete', 'app_config', 'app_config:create', 'app_config:edit', 'app_config:delete'];

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let agentA: string;
let agentB: string;
const db = () => t.database.db;
/** Bettors: a1x of sub-agent A1, aOwn of agent A, b1x of sub-agent B1. */
let a1x: { id: number; phone: string };
let a1y: { id: number; phone: string };
let aOwn: { id: number; phone: string };
let b1x: { id: number; phone: string };

/** "255712345678" → "0712 345 678" (how an operator types it). */
const local = (stored: string) => `0${stored.slice(3, 6)} ${stored.slice(6, 9)} ${stored.slice(9)}`;

beforeAll(async () => {
  process.env.DAU_MESSAGE_CHUNK = '2';
  t = await createTestApp();
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, KEYS);
  root = await t.login('admin', ADMIN_PASSWORD);
  agentA = await t.login('agent_a');
  agentB = await t.login('agent_b');
  // Registered a minute ago, so that a broadcast sent now reaches them.
  const past = new Date(Date.now() - 60_000);
  a1x = await makeBettor(t, w.agentA1);
  a1y = await makeBettor(t, w.agentA1);
  aOwn = await makeBettor(t, w.agentA);
  b1x = await makeBettor(t, w.agentB1);
  await db().update(bettors).set({ createdAt: past });
});
afterAll(async () => {
  delete process.env.DAU_MESSAGE_CHUNK;
  await t?.close();
});

async function send(token: string, body: Record<string, unknown>) {
  return t.call('POST', '/api/v1/messaging/messages', { token, body: { title: 'Hello', content: 'Karibu', ...body } });
}
const recipientsOf = async (id: number) =>
  (await db().select({ b: messageRecipients.bettorId }).from(messageRecipients).where(eq(messageRecipients.messageId, id))).map((r) => r.b).sort((x, y) => x - y);
const messageRow = async (id: number) => (await db().select().from(messages).where(eq(messages.id, id)))[0]!;

describe('message board', () => {
  it('lists what bettors wrote in my branch only; read, reply into the inbox, once', async () => {
    const mine = await postBoardMessage(db(), a1x.id, '  My deposit has not arrived  ');
    const theirs = await postBoardMessage(db(), b1x.id, 'Amana yangu bado haijaingia');
    expect(mine.content).toBe('My deposit has not arrived');

    const listA = await t.call('GET', '/api/v1/messaging/board', { token: agentA });
    expect(listA.status).toBe(200);
    expect(listA.body.items.map((r: any) => r.id)).toEqual([mine.id]);
    expect(listA.body.items[0]).toMatchObject({ bettor_id: a1x.id, phone: a1x.phone, read_status: 1, replied: 'no' });
    // A phone in local form finds it; the other branch's row is invisible and untouchable.
    const byPhone = await t.call('GET', `/api/v1/messaging/board?phone=${encodeURIComponent(local(a1x.phone))}`, { token: agentA });
    expect(byPhone.body.items.map((r: any) => r.id)).toEqual([mine.id]);
    expect((await t.call('POST', `/api/v1/messaging/board/${theirs.id}/read`, { token: agentA })).status).toBe(404);
    expect((await t.call('POST', `/api/v1/messaging/board/${theirs.id}/reply`, { token: agentA, body: { content: 'x' } })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/messaging/board/${theirs.id}`, { token: agentA })).status).toBe(404);

    const read = await t.call('POST', `/api/v1/messaging/board/${mine.id}/read`, { token: agentA });
    expect(read.status).toBe(200);
    expect(read.body.read_status).toBe(2);

    const reply = await t.call('POST', `/api/v1/messaging/board/${mine.id}/reply`, { token: agentA, body: { title: 'Deposit', content: 'It has been credited now.' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.board).toMatchObject({ replied: 'yes', reply_content: 'It has been credited now.', replied_by: 'agent_a' });
    const box = await inbox(db(), a1x.id);
    expect(box.items.map((m) => m.title)).toContain('Deposit');
    expect(box.unread).toBeGreaterThanOrEqual(1);
    // The reply is a message of the sender's list with one recipient.
    const m = await messageRow(reply.body.message_id);
    expect(m).toMatchObject({ recipientCount: 1, deliveredCount: 1, status: 'sent', boardMessageId: mine.id });
    expect(await recipientsOf(m.id)).toEqual([a1x.id]);

    const again = await t.call('POST', `/api/v1/messaging/board/${mine.id}/reply`, { token: agentA, body: { content: 'Twice' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('MESSAGE_ALREADY_REPLIED');
  });

  it('clear asks for confirmation, deletes only my branch, and is audited', async () => {
    await postBoardMessage(db(), a1y.id, 'one');
    await postBoardMessage(db(), aOwn.id, 'two');
    const noConfirm = await t.call('POST', '/api/v1/messaging/board/clear', { token: agentA, body: {} });
    expect(noConfirm.status).toBe(400);
    // What the board holds now (the other case may have written to it before): A's branch's rows go, the others stay.
    const before = await db().select({ id: boardMessages.id, bettorId: boardMessages.bettorId }).from(boardMessages).orderBy(boardMessages.id);
    const branchA = new Set([a1x.id, a1y.id, aOwn.id]);
    const ofA = before.filter((r) => branchA.has(r.bettorId));
    expect(ofA.length).toBeGreaterThanOrEqual(2);
    const logsBefore = new Set((await db().select({ id: systemLogs.id }).from(systemLogs)).map((l) => l.id));
    const cleared = await t.call('POST', '/api/v1/messaging/board/clear', { token: agentA, body: { confirm: true } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.deleted).toBe(ofA.length);
    const left = await db().select({ id: boardMessages.id }).from(boardMessages).orderBy(boardMessages.id);
    expect(left.map((r) => r.id)).toEqual(before.filter((r) => !branchA.has(r.bettorId)).map((r) => r.id));
    const logs = (await db().select().from(systemLogs).where(and(eq(systemLogs.route, '/api/v1/messaging/board/clear'), like(systemLogs.content, 'Cleared%')))).filter((l) => !logsBefore.has(l.id));
    expect(logs.map((l) => l.content)).toEqual([`Cleared the message board: ${ofA.length} message(s) deleted`]);
    // Deleting one row of my own branch.
    const x = await postBoardMessage(db(), a1x.id, 'delete me');
    expect((await t.call('DELETE', `/api/v1/messaging/board/${x.id}`, { token: agentA })).status).toBe(200);
    expect(await db().select().from(boardMessages).where(eq(boardMessages.id, x.id))).toEqual([]);
  });
});

describe('sending in-app messages', () => {
  it('a phone list in any form reaches only bettors of my branch; the others are reported, not counted', async () => {
    const phones = [local(a1x.phone), `+${aOwn.phone}`, a1x.phone, local(b1x.phone), '0799 000 001', 'hello'].join('\n');
    const check = await t.call('POST', '/api/v1/messaging/recipients/resolve', { token: agentA, body: { phones } });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ found: 2, not_found: [`+${b1x.phone}`, '+255799000001'], invalid: ['hello'], duplicates: 1 });

    const r = await send(agentA, { target: { kind: 'phones', phones } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.message).toMatchObject({ audience: 'bettors', all_users: false, recipient_count: 2, sender_account: 'agent_a' });
    expect(r.body.phones.not_found).toEqual([`+${b1x.phone}`, '+255799000001']);
    await drainMessaging(t.ctx);
    const id = r.body.message.id;
    expect(await recipientsOf(id)).toEqual([a1x.id, aOwn.id].sort((x, y) => x - y));
    expect(await messageRow(id)).toMatchObject({ status: 'sent', deliveredCount: 2 });
    expect((await inbox(db(), b1x.id)).items.map((m) => m.id)).not.toContain(id);

    // Only the other branch's numbers: nobody to send to.
    const none = await send(agentA, { target: { kind: 'phones', phones: local(b1x.phone) } });
    expect(none.status).toBe(422);
    expect(none.body.code).toBe('MESSAGE_NO_RECIPIENTS');
  });

  it('reading: once per bettor, with the read count and the check time', async () => {
    const r = await send(agentA, { target: { kind: 'bettors', bettor_ids: [a1x.id, a1y.id] } });
    expect(r.status).toBe(201);
    await drainMessaging(t.ctx);
    const id = r.body.message.id;
    expect(await markMessageRead(db(), a1x.id, id)).toBe(true);
    expect(await markMessageRead(db(), a1x.id, id)).toBe(false);
    const m = await messageRow(id);
    expect(m.readCount).toBe(1);
    expect(m.firstReadAt).toBeInstanceOf(Date);
    expect((await inbox(db(), a1x.id)).items.find((x) => x.id === id)?.read).toBe(true);
    expect((await inbox(db(), a1y.id)).items.find((x) => x.id === id)?.read).toBe(false);
    // Not a recipient: not found.
    await expect(markMessageRead(db(), b1x.id, id)).rejects.toMatchObject({ status: 404 });
    const listed = await t.call('GET', `/api/v1/messaging/messages/${id}`, { token: agentA });
    expect(listed.body).toMatchObject({ read_count: 1, delivered_count: 2, recipient_count: 2 });
    expect(listed.body.first_read_at).not.toBeNull();
  });

  it('an agent messages only their own branch: other bettors, agents and filters are refused', async () => {
    const other = await send(agentA, { target: { kind: 'bettors', bettor_ids: [a1x.id, b1x.id] } });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('OUT_OF_SCOPE');
    expect((await send(agentA, { target: { kind: 'branch', agent_id: w.agentB1 } })).status).toBe(403);
    expect((await send(agentA, { target: { kind: 'filter', filter: { agent_id: w.agentB } } })).status).toBe(403);
    // Nothing was written by the refusals.
    const [{ n }] = await db().select({ n: count() }).from(messages).where(eq(messages.title, 'Hello'));
    const before = n;
    expect((await send(agentB, { target: { kind: 'bettors', bettor_ids: [a1x.id] } })).status).toBe(403);
    expect((await db().select({ n: count() }).from(messages).where(eq(messages.title, 'Hello')))[0]!.n).toBe(before);
    // The other branch does not see agent A's sends.
    const listB = await t.call('GET', '/api/v1/messaging/messages', { token: agentB });
    expect(listB.body.items).toEqual([]);
  });

  it('a branch send and a filter send write their recipients in chunks, each bettor once', async () => {
    const extra = [];
    for (let i = 0; i < 5; i++) extra.push(await makeBettor(t, w.agentA1));
    await db().update(bettors).set({ riskLevel: 3 }).where(eq(bettors.id, extra[0]!.id));
    await db().update(bettors).set({ riskLevel: 3 }).where(eq(bettors.id, b1x.id));

    const branch = await send(agentA, { target: { kind: 'branch', agent_id: w.agentA1 } });
    expect(branch.status).toBe(201);
    await drainMessaging(t.ctx);
    const a1 = (await db().select({ id: bettors.id }).from(bettors).where(eq(bettors.agentId, w.agentA1))).map((b) => b.id).sort((x, y) => x - y);
    // The set-up's two, these five and any another case added: more than 3 chunks of 2.
    expect(a1.length).toBeGreaterThanOrEqual(7);
    expect(await recipientsOf(branch.body.message.id)).toEqual(a1);
    expect(await messageRow(branch.body.message.id)).toMatchObject({ status: 'sent', recipientCount: a1.length, deliveredCount: a1.length });

    const filter = await send(agentA, { target: { kind: 'filter', filter: { risk_level: 3 } } });
    expect(filter.status).toBe(201);
    await drainMessaging(t.ctx);
    // b1x also has risk level 3 but is of the other branch.
    expect(await recipientsOf(filter.body.message.id)).toEqual([extra[0]!.id]);

    // The super admin's filter reaches every branch.
    const all = await send(root, { target: { kind: 'filter', filter: { risk_level: 3 } } });
    await drainMessaging(t.ctx);
    expect(await recipientsOf(all.body.message.id)).toEqual([extra[0]!.id, b1x.id].sort((x, y) => x - y));
  });

  it('a send resumed after a crash, and delivered twice at once (a retried job), writes each bettor once', async () => {
    const branchIds = (await db().select({ id: bettors.id }).from(bettors).where(eq(bettors.agentId, w.agentA1))).map((b) => b.id).sort((x, y) => x - y);
    // As a crash leaves it: the first chunk committed (its rows, its count and the cursor), the rest not.
    const [m] = await db()
      .insert(messages)
      .values({ title: 'Resumed', content: 'x', audience: 'branch', scopeAdminId: w.agentA1, status: 'sending', sendAt: new Date(), sentAt: new Date(), senderAdminId: w.agentA, recipientCount: branchIds.length, deliveredCount: 2, deliverCursor: branchIds[1]! })
      .returning();
    await db().insert(messageRecipients).values(branchIds.slice(0, 2).map((bettorId) => ({ messageId: m!.id, bettorId })));
    // The job delivered twice (a retry while the first still runs).
    await db().transaction(async (tx) => {
      await t.ctx.jobs.send(tx, DELIVER_JOB, { messageId: m!.id });
      await t.ctx.jobs.send(tx, DELIVER_JOB, { messageId: m!.id });
    });
    await drainMessaging(t.ctx);
    expect(await recipientsOf(m!.id)).toEqual(branchIds);
    expect(await messageRow(m!.id)).toMatchObject({ status: 'sent', deliveredCount: branchIds.length, deliverCursor: branchIds.at(-1) });
  });

  it('counts the bettors a send would reach, before it is sent (the confirmation of a broadcast names it)', async () => {
    const count = (token: string, target: unknown) => t.call('POST', '/api/v1/messaging/recipients/count', { token, body: { target } });
    const mine = await db().select({ n: count_() }).from(bettors).where(inArray(bettors.agentId, [w.agentA, w.agentA1]));
    const all = await count(agentA, { kind: 'all' });
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(Number(mine[0]!.n));
    const everyone = await db().select({ n: count_() }).from(bettors);
    expect((await count(root, { kind: 'all' })).body.count).toBe(Number(everyone[0]!.n));
    const ofA1 = Number((await db().select({ n: count_() }).from(bettors).where(eq(bettors.agentId, w.agentA1)))[0]!.n);
    expect(ofA1).toBeGreaterThan(1);
    expect((await count(agentA, { kind: 'branch', agent_id: w.agentA1 })).body.count).toBe(ofA1);
    expect((await count(agentA, { kind: 'phones', phones: `${local(b1x.phone)}\n${local(a1x.phone)}` })).body.count).toBe(1);
    expect((await count(agentA, { kind: 'filter', filter: { agent_id: w.agentA1 } })).body.count).toBe(ofA1);
    // Nothing is sent, and other branches stay out of reach.
    expect((await count(agentA, { kind: 'branch', agent_id: w.agentB })).status).toBe(403);
    expect((await count(agentA, { kind: 'filter', filter: { agent_id: w.agentB1 } })).status).toBe(403);
    expect((await count(agentA, { kind: 'nobody' })).status).toBe(400);
  });

  it('a broadcast is one row: it reaches the bettors of my branch registered before it, and a read writes one row', async () => {
    const r = await send(agentA, { title: 'Broadcast', target: { kind: 'all' } });
    expect(r.status).toBe(201);
    expect(r.body.message).toMatchObject({ audience: 'all', all_users: true });
    await drainMessaging(t.ctx);
    const id = r.body.message.id;
    const m = await messageRow(id);
    const [{ n: inBranch }] = await db().select({ n: count() }).from(bettors).where(and(eq(bettors.agentId, w.agentA1)));
    expect(m.status).toBe('sent');
    expect(m.recipientCount).toBe(Number(inBranch) + 1); // A1's bettors and agent A's own
    expect(await recipientsOf(id)).toEqual([]);
    expect((await inbox(db(), a1x.id)).items.map((x) => x.id)).toContain(id);
    expect((await inbox(db(), aOwn.id)).items.map((x) => x.id)).toContain(id);
    expect((await inbox(db(), b1x.id)).items.map((x) => x.id)).not.toContain(id);
    // Registered after it was sent: not in their inbox.
    const late = await makeBettor(t, w.agentA1);
    await db().update(bettors).set({ createdAt: new Date(Date.now() + 1000) }).where(eq(bettors.id, late.id));
    expect((await inbox(db(), late.id)).items.map((x) => x.id)).not.toContain(id);
    await expect(markMessageRead(db(), late.id, id)).rejects.toMatchObject({ status: 404 });

    expect(await markMessageRead(db(), a1x.id, id)).toBe(true);
    expect(await markMessageRead(db(), a1x.id, id)).toBe(false);
    const reads = await db().select().from(messageReads).where(eq(messageReads.messageId, id));
    expect(reads.map((x) => x.bettorId)).toEqual([a1x.id]);
    expect((await messageRow(id)).readCount).toBe(1);
  });

  it('scheduled: delivered when due; a cancelled one never; a deleted one leaves every inbox', async () => {
    const due = await send(agentA, { title: 'Soon', target: { kind: 'bettors', bettor_ids: [a1y.id] }, send_at: new Date(Date.now() + 2_500).toISOString() });
    expect(due.status).toBe(201);
    expect(due.body.message.status).toBe('scheduled');
    const cancel = await send(agentA, { title: 'Never', target: { kind: 'bettors', bettor_ids: [a1y.id] }, send_at: new Date(Date.now() + 3_000).toISOString() });
    expect((await t.call('DELETE', `/api/v1/messaging/messages/${cancel.body.message.id}`, { token: agentA })).status).toBe(200);
    expect((await messageRow(cancel.body.message.id)).status).toBe('cancelled');
    // Not in the inbox until sent (a slow machine may already have sent it: then it is there).
    const early = await messageRow(due.body.message.id);
    expect((await inbox(db(), a1y.id)).items.map((x) => x.title).includes('Soon')).toBe(early.status === 'sent');
    await drainMessaging(t.ctx); // waits for both jobs to come due and run
    expect((await messageRow(due.body.message.id)).status).toBe('sent');
    expect((await messageRow(cancel.body.message.id)).status).toBe('cancelled');
    const titles = (await inbox(db(), a1y.id)).items.map((x) => x.title);
    expect(titles).toContain('Soon');
    expect(titles).not.toContain('Never');

    const gone = await t.call('DELETE', `/api/v1/messaging/messages/${due.body.message.id}`, { token: agentA });
    expect(gone.status).toBe(200);
    expect((await inbox(db(), a1y.id)).items.map((x) => x.title)).not.toContain('Soon');
    expect((await t.call('GET', `/api/v1/messaging/messages/${due.body.message.id}`, { token: agentA })).status).toBe(404);
    // The other branch cannot delete agent A's sends.
    const mine = await send(agentA, { target: { kind: 'bettors', bettor_ids: [a1x.id] } });
    expect((await t.call('DELETE', `/api/v1/messaging/messages/${mine.body.message.id}`, { token: agentB })).status).toBe(404);
    // A time in the past is refused.
    const past = await send(agentA, { target: { kind: 'all' }, send_at: new Date(Date.now() - 3_600_000).toISOString() });
    expect(past.status).toBe(422);
    expect(past.body.code).toBe('MESSAGE_SEND_AT_INVALID');
  });
});

describe('app versions', () => {
  it('edited through app_config; the public check answers none, optional or forced', async () => {
    const api = '/api/v1/messaging/app_versions';
    const mk = (body: Record<string, unknown>, token = root) => t.call('POST', api, { token, body: { platform: 'android', download_url: 'https://dl.example/a.apk', ...body } });
    // A version reaches every branch's bettors: a branch agent holding the buttons is refused, nothing is written.
    const refused = await mk({ version: '0.9.0', version_code: 90 }, agentA);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('WHOLE_BOOK_ONLY');
    expect((await t.call('GET', `${api}?version=0.9.0`, { token: root })).body.items).toHaveLength(0);
    expect((await mk({ version: '1.0.0', version_code: 100 })).status).toBe(201);
    const forced = await mk({ version: '1.1.0', version_code: 110, force_update: true });
    expect(forced.status).toBe(201);
    expect(forced.body.updated_by).toBe('admin');
    const latest = await mk({ version: '1.2.0', version_code: 120, update_text: 'New lobby', poster: 'https://cdn.example/p.png' });
    expect(latest.status).toBe(201);
    expect((await mk({ version: '1.2.0', version_code: 121 })).status).toBe(409);
    const bad = await mk({ version: 'one', version_code: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('APP_VERSION_INVALID');
    expect((await mk({ version: '2.0.0', version_code: 200, download_url: 'ftp://x' })).status).toBe(400);
    expect((await mk({ platform: 'windows', version: '2.0.0', version_code: 200 })).status).toBe(400);
    // Nor may the agent edit or delete one.
    for (const [method, body] of [['PUT', { force_update: false }], ['DELETE', undefined]] as const) {
      const r = await t.call(method, `${api}/${forced.body.id}`, { token: agentA, body });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('WHOLE_BOOK_ONLY');
    }
    expect((await t.call('GET', `${api}/${forced.body.id}`, { token: root })).body.force_update).toBe(true);

    const check = (v: string, p = 'android') => t.call('GET', `/api/public/app-version?platform=${p}&version=${v}`);
    expect((await check('1.0.0')).body).toMatchObject({ latest: '1.2.0', update: 'forced', download_url: 'https://dl.example/a.apk', update_text: 'New lobby', poster: 'https://cdn.example/p.png' });
    expect((await check('1.1.0')).body.update).toBe('optional');
    expect((await check('1.2.0')).body.update).toBe('none');
    expect((await check('1.0.0', 'ios')).body).toMatchObject({ latest: null, update: 'none' });
    expect((await check('abc')).status).toBe(400);

    // The forced version edited to optional: 1.0.0 is now told "optional".
    const edit = await t.call('PUT', `${api}/${forced.body.id}`, { token: root, body: { force_update: false } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await check('1.0.0')).body.update).toBe('optional');
    expect((await t.call('DELETE', `${api}/${latest.body.id}`, { token: root })).status).toBe(200);
    expect((await check('1.0.0')).body.latest).toBe('1.1.0');
  });
});
