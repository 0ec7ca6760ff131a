/**
 * Push (issue 15) against the sandbox FCM through google-auth-library: the service account's JWT is
 * verified by the sandbox's token endpoint, per-device results, invalid tokens (UNREGISTERED,
 * INVALID_ARGUMENT) marked, QUOTA_EXCEEDED / UNAVAILABLE retried, at most once per push and device after
 * a crash, the branch rule, the write-only key file. PGlite by default, PostgreSQL with TEST_DATABASE_URL.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { message } from '@dau/domain';
import { roles } from '../src/platform/schema.js';
import { approved, createTestApp, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { waitFor } from './support/processes.js';
import {
  configureSandboxAccount, deliverChunk, parseServiceAccount, registerDevice, sendFcm, setFcmEndpoints, startSandboxFcm, SANDBOX_PROJECT_ID, type SandboxFcm,
} from '../src/modules/push/index.js';
import { pushConfig, pushDevices, pushResults, pushSends, sandboxPushMessages } from '../src/modules/push/schema.js';

const PUSH_KEYS = ['messaging', 'push_device', 'push_device:push', 'precision_push_device', 'precision_push_device:push'];

let t: TestApp;
let sb: SandboxFcm;
let w: Awaited<ReturnType<typeof makeWorld>>;
let admin: string;
let agentA: string;
let agentB: string;
const dev: Record<string, number> = {};
const tokens: Record<string, string> = {};

async function booked(token: string) {
  return t.database.db.select().from(sandboxPushMessages).where(eq(sandboxPushMessages.token, token));
}

async function finished(path: string, token: string) {
  return waitFor(`push ${path} done`, async () => {
    const r = await t.call('GET', path, { token });
    return r.status === 200 && r.body.status === 'done' ? r.body : null;
  });
}

beforeAll(async () => {
  t = await createTestApp();
  sb = await startSandboxFcm({ db: t.database.db, port: 0 });
  setFcmEndpoints({ fcmBase: sb.url, tokenUrl: `${sb.url}/token`, sandbox: true });
  await configureSandboxAccount(t.database.db, sb);
  w = await makeWorld(t);
  const role = await makeRole(t, 'Pusher', PUSH_KEYS);
  // The pushers are agents: their bettors (and their sub-agent's) are their branch.
  const pA = await makeAdmin(t, 'push_a', role, w.agentA);
  const pA1 = await makeAdmin(t, 'push_a1', role, pA);
  const pB = await makeAdmin(t, 'push_b', role, w.agentB);
  admin = await t.login('admin', 'Admin#2026pass');
  agentA = await t.login('push_a');
  agentB = await t.login('push_b');
  const bA = await makeBettor(t, pA);
  const bA1 = await makeBettor(t, pA1);
  const bB = await makeBettor(t, pB);
  const add = async (name: string, bettorId: number, platform: 'android' | 'ios', token?: string, appVersion = '1.2.0') => {
    tokens[name] = token ?? (await sb.registerInstall(SANDBOX_PROJECT_ID));
    dev[name] = await registerDevice(t.database.db, { bettorId, token: tokens[name]!, platform, model: `Model ${name}`, osName: platform === 'ios' ? 'iOS' : 'Android', osVersion: '14', appVersion });
  };
  await add('a1', bA.id, 'android');
  await add('a2', bA1.id, 'ios');
  await add('gone', bA.id, 'android');
  await sb.unregister(tokens.gone!);
  await add('bogus', bA.id, 'android', `not-a-token-${crypto.randomBytes(4).toString('hex')}`);
  await add('old', bA.id, 'android', undefined, '1.1.0');
  await add('b1', bB.id, 'android');
}, 120_000);

afterAll(async () => {
  await sb?.stop();
  await t?.close();
});

describe('the FCM client against the sandbox', () => {
  it('signs the service account JWT that the token endpoint verifies, then sends', async () => {
    const [cfg] = await t.database.db.select().from(pushConfig);
    const key = parseServiceAccount(cfg!.serviceAccountJson)!;
    const out = await sendFcm(SANDBOX_PROJECT_ID, key, { token: tokens.a1!, title: 'Hello', body: 'direct' });
    expect(out).toMatchObject({ ok: true });
    expect((await booked(tokens.a1!)).map((m) => m.body)).toContain('direct');
  });

  it('refuses a JWT signed with another key (invalid_grant), and the message is not sent', async () => {
    const [cfg] = await t.database.db.select().from(pushConfig);
    const key = parseServiceAccount(cfg!.serviceAccountJson)!;
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const out = await sendFcm(SANDBOX_PROJECT_ID, { client_email: key.client_email, private_key: other }, { token: tokens.a1!, title: 'x', body: 'forged' });
    expect(out).toMatchObject({ ok: false, invalid: false });
    expect((await booked(tokens.a1!)).map((m) => m.body)).not.toContain('forged');
  });
});

describe('precision push', () => {
  it('answers a result per device and marks the invalid tokens', async () => {
    const r = await t.call('POST', '/api/v1/push/precision', { token: agentA, body: { title: 'Jackpot', body: 'Tonight 100M', device_ids: [dev.a1, dev.gone, dev.bogus] } });
    expect(r.status).toBe(202);
    expect(r.body.target_count).toBe(3);
    const done = await finished(`/api/v1/push/precision/${r.body.id}`, agentA);
    const byDevice = Object.fromEntries(done.results.map((x: any) => [x.device_id, x]));
    expect(byDevice[dev.a1!]).toMatchObject({ status: 'sent' });
    expect(byDevice[dev.a1!].provider_id).toMatch(/^projects\/dau-sandbox\/messages\//);
    expect(byDevice[dev.gone!]).toMatchObject({ status: 'invalid', error: 'UNREGISTERED' });
    expect(byDevice[dev.bogus!]).toMatchObject({ status: 'invalid', error: 'INVALID_ARGUMENT' });
    expect(done).toMatchObject({ sent_count: 1, invalid_count: 2, failed_count: 0 });
    const devices = await t.database.db.select().from(pushDevices);
    const of = (id: number) => devices.find((d) => d.id === id)!;
    expect(of(dev.gone!).invalidAt).not.toBeNull();
    expect(of(dev.bogus!).invalidReason).toBe('INVALID_ARGUMENT');
    expect(of(dev.a1!).invalidAt).toBeNull();
    expect(of(dev.a1!).lastTitle).toBe('Jackpot');
    expect((await booked(tokens.a1!)).filter((m) => m.body === 'Tonight 100M')).toHaveLength(1);
    const list = await t.call('GET', `/api/v1/push/devices?invalid=true`, { token: agentA });
    expect(list.body.items.map((d: any) => d.id).sort()).toEqual([dev.gone, dev.bogus].sort());
  });

  it('retries QUOTA_EXCEEDED and UNAVAILABLE with back-off, then sends once', async () => {
    sb.arm({ quota: 2, unavailable: 1, retryAfter: 0 });
    const r = await t.call('POST', '/api/v1/push/precision', { token: agentA, body: { title: 'Retry', body: 'after quota', device_ids: [dev.a2] } });
    const done = await finished(`/api/v1/push/precision/${r.body.id}`, agentA);
    expect(done.results[0]).toMatchObject({ status: 'sent' });
    const [row] = await t.database.db.select().from(pushResults).where(and(eq(pushResults.sendId, r.body.id), eq(pushResults.deviceId, dev.a2!)));
    expect(row!.attempts).toBe(4);
    expect((await booked(tokens.a2!)).filter((m) => m.body === 'after quota')).toHaveLength(1);
  });

  it("refuses another branch's device (403) and an unknown one (404)", async () => {
    expect((await t.call('POST', '/api/v1/push/precision', { token: agentA, body: { title: 't', body: 'b', device_ids: [dev.a1, dev.b1] } })).body.code).toBe('OUT_OF_SCOPE');
    expect((await t.call('POST', '/api/v1/push/precision', { token: agentA, body: { title: 't', body: 'b', device_ids: [999_999] } })).status).toBe(404);
    const mine = await t.call('POST', '/api/v1/push/precision', { token: agentA, body: { title: 't', body: 'b', device_ids: [dev.a1] } });
    expect((await t.call('GET', `/api/v1/push/precision/${mine.body.id}`, { token: agentB })).status).toBe(403);
    expect((await t.call('GET', `/api/v1/push/precision/${mine.body.id}`, { token: admin })).status).toBe(200);
    await finished(`/api/v1/push/precision/${mine.body.id}`, agentA);
  });
});

describe('public push', () => {
  // Given: FCM has refused the `gone` and `bogus` tokens once (a precision push marks them invalid), as
  // it would have before any public push; whichever case of the file ran first.
  beforeAll(async () => {
    const r = await t.call('POST', '/api/v1/push/precision', { token: agentA, body: { title: 'Check', body: 'tokens', device_ids: [dev.gone, dev.bogus] } });
    expect(r.status).toBe(202);
    await finished(`/api/v1/push/precision/${r.body.id}`, agentA);
  });

  it("counts and reaches the valid devices of the sender's branch in the segment", async () => {
    const count = await t.call('GET', '/api/v1/push/count?platform=android&app_version=1.2.0', { token: agentA });
    expect(count.body.count).toBe(1); // a1 (gone and bogus are invalid now, old is 1.1.0, b1 is B's)
    const all = await t.call('GET', '/api/v1/push/count', { token: agentA });
    expect(all.body.count).toBe(3); // a1, a2, old
    const r = await t.call('POST', '/api/v1/push/public', { token: agentA, body: { title: 'News', body: 'Segment only', segment: { platform: 'android', app_version: '1.2.0' } } });
    expect(r.status).toBe(202);
    expect(r.body.target_count).toBe(1);
    const done = await finished(`/api/v1/push/sends/${r.body.id}`, agentA);
    expect(done).toMatchObject({ sent_count: 1, failed_count: 0, invalid_count: 0 });
    expect((await booked(tokens.a1!)).filter((m) => m.body === 'Segment only')).toHaveLength(1);
    expect((await booked(tokens.b1!)).filter((m) => m.body === 'Segment only')).toHaveLength(0);
    expect((await booked(tokens.old!)).filter((m) => m.body === 'Segment only')).toHaveLength(0);
  });

  it('the super admin reaches every branch', async () => {
    const r = await t.call('POST', '/api/v1/push/public', { token: admin, body: { title: 'All', body: 'Everyone' } });
    expect(r.body.target_count).toBe(4); // a1, a2, old, b1
    const done = await finished(`/api/v1/push/sends/${r.body.id}`, admin);
    expect(done.sent_count).toBe(4);
    expect((await booked(tokens.b1!)).filter((m) => m.body === 'Everyone')).toHaveLength(1);
    expect((await t.call('GET', `/api/v1/push/sends/${r.body.id}`, { token: agentA })).status).toBe(403);
  });
});

describe('delivery after a crash', () => {
  it('does not send again to a device whose attempt was in flight, and a second run changes nothing', async () => {
    const db = t.database.db;
    const [send] = await db
      .insert(pushSends)
      .values({ kind: 'precision', title: 'Crash', body: 'in doubt', segment: { device_ids: [dev.a1, dev.a2] }, targetCount: 2, senderAdminId: w.rootId, status: 'sending' })
      .returning();
    // The process died after committing the attempt for a1, before FCM answered.
    await db.insert(pushResults).values({ sendId: send!.id, deviceId: dev.a1!, status: 'sending' });
    await deliverChunk(t.ctx, send!.id);
    const results = await db.select().from(pushResults).where(eq(pushResults.sendId, send!.id));
    expect(results.find((x) => x.deviceId === dev.a1)).toMatchObject({ status: 'failed', error: 'IN_DOUBT' });
    expect(results.find((x) => x.deviceId === dev.a2)).toMatchObject({ status: 'sent' });
    expect((await booked(tokens.a1!)).filter((m) => m.body === 'in doubt')).toHaveLength(0);
    await db.update(pushSends).set({ status: 'sending' }).where(eq(pushSends.id, send!.id));
    await deliverChunk(t.ctx, send!.id);
    expect((await booked(tokens.a2!)).filter((m) => m.body === 'in doubt')).toHaveLength(1);
    const [after] = await db.select().from(pushSends).where(eq(pushSends.id, send!.id));
    expect(after).toMatchObject({ status: 'done', sentCount: 1, failedCount: 1 });
  });
});

describe('devices and settings', () => {
  it("lists only my branch's devices, with the last push", async () => {
    const a = await t.call('GET', '/api/v1/push/devices?page=1&page_size=50', { token: agentA });
    expect(a.status).toBe(200);
    expect(a.body.items.map((d: any) => d.id)).not.toContain(dev.b1);
    expect(a.body.items.find((d: any) => d.id === dev.a1)).toMatchObject({ platform: 'android', os_name: 'Android', model: 'Model a1', invalid: false });
    const p = await t.call('GET', '/api/v1/push/precision/devices?phone=255', { token: agentB });
    expect(p.body.items.map((d: any) => d.id)).toEqual([dev.b1]);
  });

  it('never answers a device\'s FCM registration token (device list and precision list, whole book and branch)', async () => {
    const stored = (await t.database.db.select({ token: pushDevices.token }).from(pushDevices)).map((d) => d.token).filter(Boolean);
    expect(stored.length).toBeGreaterThan(0);
    const answers = [
      await t.call('GET', '/api/v1/push/devices?page=1&page_size=200', { token: admin }),
      await t.call('GET', '/api/v1/push/precision/devices?page=1&page_size=200', { token: admin }),
      await t.call('GET', '/api/v1/push/devices?page=1&page_size=200', { token: agentA }),
    ];
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body.items.length).toBeGreaterThan(0);
      for (const item of a.body.items) expect(item).not.toHaveProperty('token');
      const text = JSON.stringify(a.body);
      for (const tok of stored) expect(text).not.toContain(tok);
    }
  });

  it('registering a token again makes its device valid again', async () => {
    // A device of its own (the other cases count the file's devices): FCM refused its token once.
    const token = await sb.registerInstall(SANDBOX_PROJECT_ID);
    const id = await registerDevice(t.database.db, { bettorId: null, token, platform: 'android' });
    await t.database.db.update(pushDevices).set({ invalidAt: new Date(), invalidReason: 'UNREGISTERED' }).where(eq(pushDevices.id, id));
    await registerDevice(t.database.db, { bettorId: null, token, platform: 'android' });
    const [d] = await t.database.db.select().from(pushDevices).where(eq(pushDevices.token, token));
    expect(d!.id).toBe(id);
    expect(d!.invalidAt).toBeNull();
    expect(d!.invalidReason).toBeNull();
    expect(d!.agentId).toBeNull();
    await t.database.db.delete(pushDevices).where(eq(pushDevices.id, id));
  });

  it('never answers the key file, and refuses one that is not a service account', async () => {
    const get = await t.call('GET', '/api/v1/push/config', { token: admin });
    expect(get.status).toBe(200);
    expect(get.body.project_id).toBe(SANDBOX_PROJECT_ID);
    expect(JSON.stringify(get.body)).not.toContain('PRIVATE KEY');
    expect(get.body.service_account_json).toBeUndefined();
    const bad = await approved(t, 'PUT', '/api/v1/push/config', { token: admin, body: { service_account_json: '{"type":"user"}' } });
    expect(bad.status).toBe(400);
    expect((await approved(t, 'PUT', '/api/v1/push/config', { token: agentA, body: { rate_per_second: 5 } })).status).toBe(403);
  });

  it('the FCM settings serve every branch: a holder of the button who does not see the whole book is refused', async () => {
    const editor = await makeRole(t, 'Push editor', [...PUSH_KEYS, 'push_device:edit']);
    await makeAdmin(t, 'push_editor_a', editor, w.agentA);
    const branch = await t.login('push_editor_a');
    const [before] = await t.database.db.select().from(pushConfig);
    const refused = await approved(t, 'PUT', '/api/v1/push/config', { token: branch, body: { rate_per_second: 7 } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('WHOLE_BOOK_ONLY');
    for (const locale of ['en-US', 'sw-KE', 'zh-CN'] as const) expect(message('WHOLE_BOOK_ONLY', locale)).not.toBe('WHOLE_BOOK_ONLY');
    expect((await t.call('GET', '/api/v1/push/config', { token: admin })).body.rate_per_second).toBe(before!.ratePerSecond);
    // Staff serving the super admin's branch see the whole book: allowed.
    const staff = await makeRole(t, 'Push staff', [...PUSH_KEYS, 'push_device:edit']);
    await t.database.db.update(roles).set({ servesSuperiorBranch: true }).where(eq(roles.id, staff));
    await makeAdmin(t, 'push_staff', staff, w.rootId);
    const ok = await approved(t, 'PUT', '/api/v1/push/config', { token: await t.login('push_staff'), body: { rate_per_second: before!.ratePerSecond } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
