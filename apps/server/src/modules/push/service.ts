/**
 * Push services: device registration (the bettor app, the simulator), the targets of a push, and its
 * delivery as a durable job.
 *
 * Delivery (`push.deliver`, one job per chunk of PUSH_CHUNK devices, the next chunk queued by the job in
 * the transaction that records the chunk's counters):
 *  1. the chunk's devices are those of the push's target without a result row yet (NOT EXISTS on the
 *     UNIQUE (send_id, device_id) key): a job run again after a crash skips every device already tried;
 *  2. their result rows are committed as 'sending' BEFORE FCM is called;
 *  3. each device is sent (rate-limited per process to push_config.rate_per_second; QUOTA_EXCEEDED,
 *     UNAVAILABLE, INTERNAL and network errors retried with exponential back-off honouring Retry-After),
 *     and its row becomes 'sent', 'invalid' (the device is marked) or 'failed';
 *  4. a row still 'sending' when a job starts was in flight when its process died: FCM has no
 *     idempotency key, so it is NOT sent again (at most once per push and device) and is recorded as
 *     'failed' with error IN_DOUBT.
 */
import { and, asc, count, eq, inArray, isNull, notExists, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { badRequest } from '../../platform/errors.js';
import { bettors } from '../money/index.js';
import { fcmEndpoints, parseServiceAccount, sendFcm, type PushOutcome } from './fcm.js';
import { pushConfig, pushDevices, pushResults, pushSends } from './schema.js';

export const PUSH_CHUNK = 500;
export const PUSH_DELIVER_JOB = 'push.deliver';
const MAX_ATTEMPTS = 5;
const PARALLEL = 8;

export interface PushSegmentSpec {
  platform?: string;
  app_version?: string;
  /** The sender's data scope when the push was made (null: the whole book). */
  agent_ids?: number[] | null;
  /** A precision push: exactly these devices. */
  device_ids?: number[];
}

export interface DeviceRegistration {
  bettorId: number | null;
  token: string;
  platform: 'android' | 'ios';
  model?: string;
  osName?: string;
  osVersion?: string;
  appVersion?: string;
}

/**
 * Registers (or refreshes) a device's FCM token. A token is unique: registering it again moves it to
 * this bettor and makes it valid again (the app got it from FCM just now). Returns the device id.
 */
export async function registerDevice(db: Executor, d: DeviceRegistration): Promise<number> {
  if (!d.token || d.token.length > 4096) throw badRequest('PARAM_INVALID', [{ field: 'token', message: 'an FCM registration token' }]);
  if (d.platform !== 'android' && d.platform !== 'ios') throw badRequest('PARAM_INVALID', [{ field: 'platform', message: "'android' or 'ios'" }]);
  let agentId: number | null = null;
  let phone: string | null = null;
  if (d.bettorId !== null) {
    const [b] = await db.select({ agentId: bettors.agentId, phone: bettors.phone }).from(bettors).where(eq(bettors.id, d.bettorId));
    if (!b) throw badRequest('PARAM_INVALID', [{ field: 'bettor_id', message: 'no such bettor' }]);
    agentId = b.agentId;
    phone = b.phone;
  }
  const values = {
    bettorId: d.bettorId, agentId, phone, token: d.token, platform: d.platform, model: (d.model ?? '').slice(0, 100),
    osName: (d.osName ?? '').slice(0, 50), osVersion: (d.osVersion ?? '').slice(0, 50), appVersion: (d.appVersion ?? '').slice(0, 32),
  };
  const [row] = await db
    .insert(pushDevices)
    .values(values)
    .onConflictDoUpdate({ target: pushDevices.token, set: { ...values, invalidAt: null, invalidReason: null, updatedAt: new Date() } })
    .returning({ id: pushDevices.id });
  return row!.id;
}

/** The push settings row (created with its defaults when missing). */
export async function pushConfigOf(ex: Executor) {
  const [row] = await ex.select().from(pushConfig).where(eq(pushConfig.id, 1));
  if (row) return row;
  await ex.insert(pushConfig).values({ id: 1 }).onConflictDoNothing();
  return (await ex.select().from(pushConfig).where(eq(pushConfig.id, 1)))[0]!;
}

/** The devices a push reaches (valid ones of a public push's segment; a precision push's chosen devices). */
export function targetCondition(seg: PushSegmentSpec): SQL | undefined {
  if (seg.device_ids) return inArray(pushDevices.id, seg.device_ids.length ? seg.device_ids : [0]);
  return and(
    isNull(pushDevices.invalidAt),
    seg.platform ? eq(pushDevices.platform, seg.platform) : undefined,
    seg.app_version ? eq(pushDevices.appVersion, seg.app_version) : undefined,
    seg.agent_ids ? (seg.agent_ids.length ? inArray(pushDevices.agentId, seg.agent_ids) : sql`false`) : undefined,
  );
}

export async function countTargets(ex: Executor, seg: PushSegmentSpec): Promise<number> {
  const [r] = await ex.select({ n: count() }).from(pushDevices).where(targetCondition(seg));
  return Number(r?.n ?? 0);
}

/** Creates a push and queues its first chunk, in the caller's transaction. */
export async function createPush(ctx: AppContext, tx: Executor, p: { kind: 'public' | 'precision'; title: string; body: string; segment: PushSegmentSpec; senderAdminId: number }) {
  const targetCount = await countTargets(tx, p.segment);
  const [row] = await tx
    .insert(pushSends)
    .values({ kind: p.kind, title: p.title, body: p.body, segment: p.segment, targetCount, senderAdminId: p.senderAdminId, status: targetCount ? 'queued' : 'done', finishedAt: targetCount ? null : new Date() })
    .returning();
  if (targetCount) await ctx.jobs.send(tx, PUSH_DELIVER_JOB, { sendId: row!.id });
  return row!;
}

// ─── Delivery ────────────────────────────────────────────────────────────────

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Per-process pacing of FCM calls (our side of FCM's quota). */
let nextSlot = 0;
async function paced(ratePerSecond: number) {
  const gap = 1000 / Math.max(1, ratePerSecond);
  const now = Date.now();
  const at = Math.max(now, nextSlot);
  nextSlot = at + gap;
  if (at > now) await sleep(at - now);
}

/** One message with retries of the retryable errors (exponential back-off from 250 ms, Retry-After honoured, 8 s cap). */
async function sendWithRetries(send: () => Promise<PushOutcome>, rate: number): Promise<{ outcome: PushOutcome; attempts: number }> {
  let attempts = 0;
  for (;;) {
    await paced(rate);
    attempts++;
    const outcome = await send();
    if (outcome.ok || !outcome.retryable || attempts >= MAX_ATTEMPTS) return { outcome, attempts };
    const backoff = Math.min(8_000, Math.max(outcome.retryAfterMs ?? 0, 250 * 2 ** (attempts - 1)));
    await sleep(backoff);
  }
}

export async function recountSend(ex: Executor, sendId: number) {
  await ex.execute(sql`
    UPDATE push_sends s SET
      sent_count = c.sent, failed_count = c.failed, invalid_count = c.invalid
    FROM (SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent,
                 count(*) FILTER (WHERE status = 'failed')::int AS failed,
                 count(*) FILTER (WHERE status = 'invalid')::int AS invalid
          FROM push_results WHERE send_id = ${sendId}) c
    WHERE s.id = ${sendId}`);
}

/** Runs one chunk of a push (the `push.deliver` job). */
export async function deliverChunk(ctx: AppContext, sendId: number): Promise<void> {
  const db = ctx.db;
  const [send] = await db.select().from(pushSends).where(eq(pushSends.id, sendId));
  if (!send || send.status === 'done') return;
  const seg = send.segment as PushSegmentSpec;
  const cfg = await pushConfigOf(db);
  // Rows left 'sending' by a run that died: in doubt, never sent again.
  await db
    .update(pushResults)
    .set({ status: 'failed', error: 'IN_DOUBT', updatedAt: new Date() })
    .where(and(eq(pushResults.sendId, sendId), eq(pushResults.status, 'sending')));
  if (send.status === 'queued') await db.update(pushSends).set({ status: 'sending' }).where(eq(pushSends.id, sendId));

  const chunk = await db
    .select({ id: pushDevices.id, token: pushDevices.token, invalidAt: pushDevices.invalidAt, invalidReason: pushDevices.invalidReason })
    .from(pushDevices)
    .where(and(targetCondition(seg), notExists(db.select({ one: sql`1` }).from(pushResults).where(and(eq(pushResults.sendId, sendId), eq(pushResults.deviceId, pushDevices.id))))))
    .orderBy(asc(pushDevices.id))
    .limit(PUSH_CHUNK);

  if (chunk.length) {
    // The attempt is committed before any call: a crash from here on leaves 'sending' rows (see above).
    const claimed = await db
      .insert(pushResults)
      .values(chunk.map((d) => ({ sendId, deviceId: d.id, status: 'sending' })))
      .onConflictDoNothing()
      .returning({ deviceId: pushResults.deviceId });
    const mine = new Set(claimed.map((c) => c.deviceId));
    const key = parseServiceAccount(cfg.serviceAccountJson);
    const work = chunk.filter((d) => mine.has(d.id));
    let i = 0;
    const worker = async () => {
      while (i < work.length) {
        const d = work[i++]!;
        if (d.invalidAt) {
          // A precision push to a device already known dead: no call.
          await record(db, sendId, d.id, { status: 'invalid', error: d.invalidReason ?? 'UNREGISTERED', attempts: 0 });
          continue;
        }
        if (!cfg.enabled || !key || !cfg.projectId) {
          await record(db, sendId, d.id, { status: 'failed', error: !cfg.enabled ? 'DISABLED' : 'NOT_CONFIGURED', attempts: 0 });
          continue;
        }
        const { outcome, attempts } = await sendWithRetries(() => sendFcm(cfg.projectId, key, { token: d.token, title: send.title, body: send.body, data: { push_id: String(sendId) } }), cfg.ratePerSecond);
        if (outcome.ok) {
          await db.transaction(async (tx) => {
            await record(tx, sendId, d.id, { status: 'sent', providerId: outcome.name, attempts });
            await tx.update(pushDevices).set({ lastTitle: send.title, lastBody: send.body, lastPushedAt: new Date(), updatedAt: new Date() }).where(eq(pushDevices.id, d.id));
          });
        } else if (outcome.invalid) {
          await db.transaction(async (tx) => {
            await record(tx, sendId, d.id, { status: 'invalid', error: outcome.code, attempts });
            await tx.update(pushDevices).set({ invalidAt: new Date(), invalidReason: outcome.code, updatedAt: new Date() }).where(and(eq(pushDevices.id, d.id), isNull(pushDevices.invalidAt)));
          });
        } else {
          await record(db, sendId, d.id, { status: 'failed', error: outcome.code, attempts });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, work.length) }, worker));
  }

  await db.transaction(async (tx) => {
    await recountSend(tx, sendId);
    if (chunk.length === PUSH_CHUNK) {
      await ctx.jobs.send(tx, PUSH_DELIVER_JOB, { sendId });
    } else {
      await tx.update(pushSends).set({ status: 'done', finishedAt: new Date() }).where(eq(pushSends.id, sendId));
    }
  });
}

async function record(ex: Executor, sendId: number, deviceId: number, r: { status: string; error?: string; providerId?: string; attempts: number }) {
  await ex
    .update(pushResults)
    .set({ status: r.status, error: r.error ?? null, providerId: r.providerId ?? null, attempts: r.attempts, updatedAt: new Date() })
    .where(and(eq(pushResults.sendId, sendId), eq(pushResults.deviceId, deviceId)));
}

export function definePushJobs(ctx: AppContext) {
  ctx.jobs.define<{ sendId: number }>(PUSH_DELIVER_JOB, (data) => deliverChunk(ctx, data.sendId), { retryLimit: 10, retryDelaySeconds: 2 });
}

/** Whether pushes go to the sandbox (for the console's settings card). */
export const pushUsesSandbox = () => fcmEndpoints().sandbox;

