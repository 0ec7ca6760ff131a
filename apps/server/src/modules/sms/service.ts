/**
 * SMS sending (issue 15): who a send reaches, its preview, the send itself (a row, its recipients and a
 * durable job in one transaction), the delivery job, delivery reports and STOP replies.
 *
 * Exactly once after a crash. A recipient row is claimed ('sending', attempts + 1) and that claim is
 * committed BEFORE the provider is called; the provider's answer is recorded after, only on rows still
 * 'sending'. A row found 'sending' later is in doubt: Africa's Talking has no idempotency key, so it is
 * not sent again blindly. Its delivery report (matched by message id, or for a row without one by phone,
 * oldest claim first) settles it; only when no report came within the grace period
 * (DAU_SMS_DOUBT_SECONDS, default 600) is it queued again and resent.
 *
 * A filter send writes no recipient in its request: the send is stored 'preparing' with its filter, the
 * sender's scope and the preview's counts, and the job `sms.prepare` writes its recipients in chunks of
 * `smsRuntime.filterChunk` bettors (DAU_SMS_FILTER_CHUNK, default 5,000), the pattern of messaging's
 * targeted fan-out: each chunk is one transaction (one run at a time per send) that runs one
 * `INSERT … SELECT … ON CONFLICT DO NOTHING` from the bettor id after the stored cursor and moves the
 * cursor, so a retried chunk writes nobody twice. Delivery starts with the first chunk and, caught up,
 * looks again every 2 s while the send is preparing; the last chunk turns the send 'sending'.
 */
import crypto from 'node:crypto';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { isStopRequest, normaliseTzPhone, parsePhoneList, smsQuote, SMS_STATUS, tzPhoneStored } from '@dau/domain';
import { bettors, bettorWhere } from '../money/index.js';
import { SMS_MAX_PHONES, type SmsTarget } from '@dau/contract';
import type { Db, Executor, Tx } from '../../platform/db.js';
import type { AppContext } from '../../platform/context.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { type Scope } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { smsConfig, smsExclusions, smsRecipients, smsSends } from './schema.js';
import { AfricasTalkingSms, AT_ACCEPTED, DLR_FAILED, type DeliveryReport, type SmsProvider } from './africastalking.js';

export const SMS_DELIVER_JOB = 'sms.deliver';
export const SMS_PREPARE_JOB = 'sms.prepare';

const rowsOf = async <T>(ex: Executor, q: SQL): Promise<T[]> => ((await ex.execute(q)) as unknown as { rows: T[] }).rows;

// ------------------------------------------------------------------------------------------ runtime

/** Where the adapter sends (the real API, or the sandbox) and the module's tunables. */
export const smsRuntime = {
  provider: null as SmsProvider | null,
  apiUrl: process.env.DAU_SMS_API_URL || `http://127.0.0.1:${Number(process.env.DAU_SMS_SANDBOX_PORT) || 6039}/version1`,
  /** Recipients per provider call. */
  chunk: Number(process.env.DAU_SMS_CHUNK) || 100,
  /** Provider calls per job run (at most, and at most `secondsPerJob` of them); the job then queues the next run. */
  callsPerJob: 50,
  secondsPerJob: 20,
  /** How long a row in doubt waits for its delivery report before it is sent again. */
  doubtSeconds: Number(process.env.DAU_SMS_DOUBT_SECONDS) || 600,
  /** Bettors read per transaction when a filter send's recipients are written. */
  filterChunk: Math.max(1, Number(process.env.DAU_SMS_FILTER_CHUNK) || 5_000),
  /** A run of `sms.prepare` writes chunks for at most this long, then queues the rest. */
  prepareBudgetMs: 20_000,
};

export function configureSms(opts: { apiUrl?: string; provider?: SmsProvider; doubtSeconds?: number; chunk?: number; filterChunk?: number }) {
  if (opts.apiUrl) {
    smsRuntime.apiUrl = opts.apiUrl;
    smsRuntime.provider = null;
  }
  if (opts.provider) smsRuntime.provider = opts.provider;
  if (opts.doubtSeconds) smsRuntime.doubtSeconds = opts.doubtSeconds;
  if (opts.chunk) smsRuntime.chunk = opts.chunk;
  if (opts.filterChunk) smsRuntime.filterChunk = Math.max(1, opts.filterChunk);
}

const providerOf = () => (smsRuntime.provider ??= new AfricasTalkingSms(smsRuntime.apiUrl, 10_000));

export async function loadSmsConfig(ex: Executor) {
  const [c] = await ex.select().from(smsConfig).where(eq(smsConfig.id, 1));
  if (!c) throw new AppError(409, 'SMS_DISABLED');
  return c;
}

// -------------------------------------------------------------------------------------- recipients

export interface Resolution {
  /** Recipients after exclusions and scope, for a list or one number (a filter counts in SQL). */
  phones: { phone: string; bettorId: number | null }[] | null;
  /** A filter's rows as a subquery condition. */
  filterWhere: SQL | null;
  recipientCount: number;
  excludedCount: number;
  outOfScopeCount: number;
  invalid: string[];
  duplicates: number;
}

/** The E.164 form of a bettor's stored phone ("255…" → "+255…"). */
const e164 = sql<string>`'+' || ${bettors.phone}`;

/**
 * Who a target reaches for this admin. A number of a bettor outside the admin's branch is not sent to
 * (counted in out_of_scope); a number that belongs to no bettor is sent to only by an admin whose scope
 * is the whole book (the super admin, or staff serving the super admin's branch): a branch admin
 * messages only their own branch's bettors. Excluded numbers are counted and left out.
 */
export async function resolveTarget(ex: Executor, scope: Scope, target: SmsTarget): Promise<Resolution> {
  if (target.kind === 'filter') {
    const where = bettorWhere(target.filter as never, scope) ?? sql`true`;
    const excluded = sql`exists (select 1 from ${smsExclusions} where ${smsExclusions.phone} = ${e164})`;
    const [row] = await ex
      .select({
        total: sql<number>`count(distinct ${bettors.phone})::int`,
        excluded: sql<number>`count(distinct ${bettors.phone}) filter (where ${excluded})::int`,
      })
      .from(bettors)
      .where(where);
    return {
      phones: null, filterWhere: where, recipientCount: (row?.total ?? 0) - (row?.excluded ?? 0), excludedCount: row?.excluded ?? 0,
      outOfScopeCount: 0, invalid: [], duplicates: 0,
    };
  }
  let list: string[];
  let invalid: string[] = [];
  let duplicates = 0;
  if (target.kind === 'one') {
    const p = normaliseTzPhone(target.phone);
    if (!p) throw badRequest('PHONE_INVALID', [{ field: 'target.phone' }]);
    list = [p];
  } else {
    const parsed = parsePhoneList(target.phones);
    if (parsed.phones.length > SMS_MAX_PHONES) throw new AppError(422, 'SMS_TOO_MANY_RECIPIENTS', { max: SMS_MAX_PHONES });
    ({ phones: list, invalid, duplicates } = parsed);
  }
  const owners = new Map<string, { id: number; agentId: number }>();
  for (let i = 0; i < list.length; i += 5000) {
    const stored = list.slice(i, i + 5000).map((p) => tzPhoneStored(p)!);
    const rows = await ex.select({ id: bettors.id, phone: bettors.phone, agentId: bettors.agentId }).from(bettors).where(inArray(bettors.phone, stored)).orderBy(asc(bettors.id));
    for (const r of rows) if (!owners.has(`+${r.phone}`)) owners.set(`+${r.phone}`, { id: r.id, agentId: r.agentId });
  }
  const excludedSet = new Set<string>();
  for (let i = 0; i < list.length; i += 5000) {
    const rows = await ex.select({ phone: smsExclusions.phone }).from(smsExclusions).where(inArray(smsExclusions.phone, list.slice(i, i + 5000)));
    for (const r of rows) excludedSet.add(r.phone);
  }
  const phones: { phone: string; bettorId: number | null }[] = [];
  let outOfScopeCount = 0;
  let excludedCount = 0;
  for (const phone of list) {
    const owner = owners.get(phone);
    if (owner ? !agentInScope(scope, owner.agentId) : !scope.all) {
      outOfScopeCount++;
      continue;
    }
    if (excludedSet.has(phone)) {
      excludedCount++;
      continue;
    }
    phones.push({ phone, bettorId: owner?.id ?? null });
  }
  return { phones, filterWhere: null, recipientCount: phones.length, excludedCount, outOfScopeCount, invalid, duplicates };
}

export async function previewSend(ex: Executor, scope: Scope, content: string, target: SmsTarget) {
  const config = await loadSmsConfig(ex);
  const r = await resolveTarget(ex, scope, target);
  const quote = smsQuote(content, r.recipientCount, config.costPerSegmentCents);
  return {
    resolution: r,
    answer: {
      recipient_count: r.recipientCount, excluded_count: r.excludedCount, out_of_scope_count: r.outOfScopeCount,
      invalid: r.invalid.slice(0, 50), invalid_count: r.invalid.length, duplicates: r.duplicates,
      encoding: quote.encoding, units: quote.units, segments: quote.segments,
      cost_per_segment_cents: config.costPerSegmentCents, estimated_cost_cents: quote.cost_cents,
    },
  };
}

/**
 * Creates a send in the caller's transaction: its row and, for a list or one number, every recipient row
 * and the delivery job; for a filter, the row 'preparing' (filter, scope, the preview's counts) and the
 * job `sms.prepare` that writes the recipients chunk by chunk after the commit. Answers the send's id.
 */
export async function createSend(
  ctx: AppContext, tx: Executor, input: { adminId: number; scope: Scope; content: string; target: SmsTarget; expectedCostCents?: number },
): Promise<{ id: number; preview: Awaited<ReturnType<typeof previewSend>>['answer'] }> {
  const config = await loadSmsConfig(tx);
  if (!config.enabled) throw new AppError(409, 'SMS_DISABLED');
  const { resolution: r, answer } = await previewSend(tx, input.scope, input.content, input.target);
  if (r.recipientCount === 0) throw new AppError(422, 'SMS_NO_RECIPIENTS');
  if (input.expectedCostCents !== undefined && input.expectedCostCents !== answer.estimated_cost_cents) throw new AppError(409, 'SMS_PREVIEW_CHANGED');
  const spec =
    input.target.kind === 'filter' ? { filter: input.target.filter } : input.target.kind === 'one' ? { phone: normaliseTzPhone(input.target.phone) } : { listed: r.recipientCount + r.excludedCount + r.outOfScopeCount };
  const filter = input.target.kind === 'filter';
  const [send] = await tx
    .insert(smsSends)
    .values({
      content: input.content, encoding: answer.encoding, segments: answer.segments, targetKind: input.target.kind, targetSpec: spec,
      recipientCount: r.recipientCount, excludedCount: r.excludedCount, estimatedCostCents: answer.estimated_cost_cents, senderAdminId: input.adminId,
      ...(filter ? { status: 'preparing', targetScope: input.scope } : { writtenCount: r.recipientCount }),
    })
    .returning({ id: smsSends.id });
  if (r.phones) {
    for (let i = 0; i < r.phones.length; i += 2000) {
      await tx.insert(smsRecipients).values(r.phones.slice(i, i + 2000).map((p) => ({ sendId: send.id, phone: p.phone, bettorId: p.bettorId })));
    }
    await ctx.jobs.send(tx, SMS_DELIVER_JOB, { sendId: send.id });
  } else {
    await ctx.jobs.send(tx, SMS_PREPARE_JOB, { sendId: send.id });
  }
  return { id: send.id, preview: answer };
}

// ------------------------------------------------------------------- a filter send's recipients

/**
 * One chunk of a filter send's recipients, in its own transaction under the send's advisory lock: the next
 * `filterChunk` bettors after the cursor that match the filter within the stored scope, one row per
 * distinct number (two bettors may share one: the first bettor's id, ON CONFLICT keeps it), numbers on
 * the no-send list left out; the cursor and the written count move in the same transaction. The first
 * chunk queues delivery; the last one makes the send 'sending' (its recipient count and cost become what
 * was written). Answers whether more remains; `requeue` queues the next run.
 *
 * Lock order: runs of this job for one send take turns on a transaction advisory lock, and the send's row
 * is locked only by the final UPDATE, after the INSERT. Delivery updates recipient rows and then the send's
 * counters, so holding the send's row while the INSERT waits on a conflicting recipient row being claimed
 * (a number shared with an earlier chunk, a replayed chunk) would deadlock.
 */
async function prepareStep(ctx: AppContext, tx: Tx, sendId: number, requeue: boolean): Promise<'done' | 'more' | 'queued'> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:prepare:${sendId}`}))`);
  const [send] = await tx.select().from(smsSends).where(eq(smsSends.id, sendId));
  if (!send || send.status !== 'preparing') return 'done';
  const filter = ((send.targetSpec ?? {}) as { filter?: unknown }).filter ?? {};
  const scope = (send.targetScope ?? { all: false, agentIds: [] }) as Scope;
  const where = bettorWhere(filter as never, scope) ?? sql`true`;
  const chunk = smsRuntime.filterChunk;
  const [r] = await rowsOf<{ n: number; last: number | string | null; inserted: number }>(tx, sql`
    with chunk as (
      select ${bettors.id} as id, ${bettors.phone} as phone from ${bettors}
      where ${where} and ${bettors.id} > ${send.prepareCursor} order by ${bettors.id} limit ${chunk}
    ), ins as (
      insert into ${smsRecipients} (send_id, phone, bettor_id)
      select ${sendId}, '+' || c.phone, min(c.id) from chunk c
      where not exists (select 1 from ${smsExclusions} e where e.phone = '+' || c.phone)
      group by c.phone
      on conflict do nothing returning 1
    )
    select (select count(*)::int from chunk) as n, (select max(id) from chunk) as last, (select count(*)::int from ins) as inserted`);
  const done = Number(r!.n) < chunk;
  const written = send.writtenCount + Number(r!.inserted);
  const config = done ? await loadSmsConfig(tx) : null;
  await tx
    .update(smsSends)
    .set({
      prepareCursor: r!.last === null ? send.prepareCursor : Number(r!.last),
      writtenCount: written,
      ...(done ? { status: 'sending', recipientCount: written, estimatedCostCents: send.segments * written * config!.costPerSegmentCents } : {}),
    })
    .where(and(eq(smsSends.id, sendId), eq(smsSends.status, 'preparing')));
  // Delivery starts with the first chunk and follows the writing (see the end of deliverSend).
  if (send.prepareCursor === 0) await ctx.jobs.send(tx, SMS_DELIVER_JOB, { sendId });
  if (done) return 'done';
  if (requeue) {
    await ctx.jobs.send(tx, SMS_PREPARE_JOB, { sendId });
    return 'queued';
  }
  return 'more';
}

/** The job `sms.prepare` {sendId}: writes chunks for up to `prepareBudgetMs`, then queues the rest. */
export async function prepareSend(ctx: AppContext, sendId: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const last = Date.now() - started > smsRuntime.prepareBudgetMs;
    const step = await ctx.db.transaction((tx) => prepareStep(ctx, tx, sendId, last));
    if (step !== 'more') return;
  }
}

// --------------------------------------------------------------------------------------- delivery

/** Messages per second handed to the provider by this process (a sliding one-second budget). */
class RateLimiter {
  private windowStart = 0;
  private used = 0;
  async take(n: number, perSecond: number) {
    for (;;) {
      const now = Date.now();
      if (now - this.windowStart >= 1000) {
        this.windowStart = now;
        this.used = 0;
      }
      if (this.used === 0 || this.used + n <= perSecond) {
        this.used += n;
        return;
      }
      await new Promise((r) => setTimeout(r, 1000 - (now - this.windowStart) + 1));
    }
  }
}
const limiter = new RateLimiter();

type Claimed = { id: number; phone: string };

async function addCounters(ex: Executor, sendId: number, d: { sent?: number; delivered?: number; failed?: number }) {
  if (!d.sent && !d.delivered && !d.failed) return;
  await ex
    .update(smsSends)
    .set({
      sentCount: sql`${smsSends.sentCount} + ${d.sent ?? 0}`,
      deliveredCount: sql`${smsSends.deliveredCount} + ${d.delivered ?? 0}`,
      failedCount: sql`${smsSends.failedCount} + ${d.failed ?? 0}`,
    })
    .where(eq(smsSends.id, sendId));
}

/** Claims up to `limit` queued rows of a send (committed before any provider call); excluded ones fail at once. */
async function claim(db: Db, sendId: number, limit: number): Promise<Claimed[]> {
  return db.transaction(async (tx) => {
    const rows = await rowsOf<{ id: number | string; phone: string; excluded: boolean }>(tx, sql`
      select r.id, r.phone, exists (select 1 from ${smsExclusions} e where e.phone = r.phone) as excluded
      from ${smsRecipients} r where r.send_id = ${sendId} and r.status = 'queued'
      order by r.id limit ${limit} for update of r skip locked`);
    if (!rows.length) return [];
    const excluded = rows.filter((r) => r.excluded).map((r) => Number(r.id));
    const go = rows.filter((r) => !r.excluded).map((r) => ({ id: Number(r.id), phone: r.phone }));
    if (excluded.length) {
      // Added to the no-send list after the send was confirmed: never sent.
      await tx.update(smsRecipients).set({ status: 'failed', failureReason: 'Excluded', updatedAt: new Date() }).where(inArray(smsRecipients.id, excluded));
      await addCounters(tx, sendId, { failed: excluded.length });
    }
    if (go.length) {
      await tx
        .update(smsRecipients)
        .set({ status: 'sending', attempts: sql`${smsRecipients.attempts} + 1`, updatedAt: new Date() })
        .where(inArray(smsRecipients.id, go.map((g) => g.id)));
    }
    return go;
  });
}

/** Rows claimed but not sent (throttled, refused as a whole) go back to the queue. */
async function unclaim(db: Db, ids: number[]) {
  await db
    .update(smsRecipients)
    .set({ status: 'queued', attempts: sql`greatest(${smsRecipients.attempts} - 1, 0)`, updatedAt: new Date() })
    .where(and(inArray(smsRecipients.id, ids), eq(smsRecipients.status, 'sending')));
}

/** Records the provider's answer on the rows still 'sending' (a delivery report may have settled one first). */
async function recordAnswer(ex: Executor, sendId: number, claimed: Claimed[], results: Map<string, { statusCode: number; status: string; messageId: string; cost: string }>) {
  const values: SQL[] = [];
  for (const c of claimed) {
    const r = results.get(c.phone);
    if (!r) continue; // not in the answer: stays in doubt
    const ok = AT_ACCEPTED.has(Number(r.statusCode));
    values.push(
      sql`(${c.id}::bigint, ${ok ? 'sent' : 'failed'}::text, ${ok ? r.messageId : null}::text, ${ok ? SMS_STATUS.used : SMS_STATUS.unused}::smallint, ${ok ? r.cost : null}::text, ${ok ? null : r.status}::text)`,
    );
  }
  if (!values.length) return;
  const changed = await rowsOf<{ status: string }>(ex, sql`
    update ${smsRecipients} r set status = v.status, provider_message_id = v.mid, sms_status = v.ss, cost = v.cost, failure_reason = v.reason, updated_at = now()
    from (values ${sql.join(values, sql`, `)}) as v(id, status, mid, ss, cost, reason)
    where r.id = v.id and r.status = 'sending'
    returning r.status`);
  await addCounters(ex, sendId, { sent: changed.filter((c) => c.status === 'sent').length, failed: changed.filter((c) => c.status === 'failed').length });
}

/**
 * One run of the delivery job for a send: revive rows in doubt past the grace period, then claim, send
 * and record up to `callsPerJob` chunks; queue the next run (or a later check while rows are in doubt),
 * or close the send when nothing is left.
 */
export async function deliverSend(ctx: AppContext, sendId: number): Promise<void> {
  const { db } = ctx;
  const [send] = await db.select().from(smsSends).where(eq(smsSends.id, sendId));
  if (!send || send.status === 'done') return;
  await db
    .update(smsRecipients)
    .set({ status: 'queued', updatedAt: new Date() })
    .where(and(eq(smsRecipients.sendId, sendId), eq(smsRecipients.status, 'sending'), sql`${smsRecipients.updatedAt} < now() - make_interval(secs => ${smsRuntime.doubtSeconds})`));
  const config = await loadSmsConfig(db);
  const until = Date.now() + smsRuntime.secondsPerJob * 1000;
  for (let call = 0; call < smsRuntime.callsPerJob && Date.now() < until; call++) {
    const chunk = Math.max(1, Math.min(smsRuntime.chunk, config.ratePerSecond));
    const claimed = await claim(db, sendId, chunk);
    if (!claimed.length) break;
    await limiter.take(claimed.length, config.ratePerSecond);
    const outcome = await providerOf().send({ username: config.username, apiKey: config.apiKey, from: config.senderId || undefined, to: claimed.map((c) => c.phone), message: send.content });
    if (outcome.kind === 'throttled' || outcome.kind === 'refused') {
      await unclaim(db, claimed.map((c) => c.id));
      if (outcome.kind === 'refused') throw new Error(`SMS provider refused the request (HTTP ${outcome.status}): ${outcome.message}`);
      await db.transaction(async (tx) => {
        await ctx.jobs.send(tx, SMS_DELIVER_JOB, { sendId }, { startAfterSeconds: outcome.retryAfterSeconds });
      });
      return;
    }
    if (outcome.kind === 'unknown') break; // the claimed rows stay in doubt (their delivery reports settle them); the next run goes on
    const results = new Map(outcome.recipients.map((r) => [normaliseTzPhone(r.number) ?? r.number, r]));
    await db.transaction((tx) => recordAnswer(tx, sendId, claimed, results));
  }
  await db.transaction(async (tx) => {
    // Locked first, so the counts below see a chunk of recipients committed meanwhile (its transaction
    // holds this row), and a send still preparing is never closed.
    const [now] = await tx.select({ status: smsSends.status }).from(smsSends).where(eq(smsSends.id, sendId)).for('update');
    if (!now || now.status === 'done') return;
    const [left] = await tx
      .select({
        queued: sql<number>`count(*) filter (where ${smsRecipients.status} = 'queued')::int`,
        sending: sql<number>`count(*) filter (where ${smsRecipients.status} = 'sending')::int`,
      })
      .from(smsRecipients)
      .where(and(eq(smsRecipients.sendId, sendId), inArray(smsRecipients.status, ['queued', 'sending'])));
    if (left.queued > 0) await ctx.jobs.send(tx, SMS_DELIVER_JOB, { sendId });
    else if (left.sending > 0) await ctx.jobs.send(tx, SMS_DELIVER_JOB, { sendId }, { startAfterSeconds: Math.max(1, Math.min(30, Math.ceil(smsRuntime.doubtSeconds / 4))) });
    // Caught up with a send whose recipients are still being written: look again shortly.
    else if (now.status === 'preparing') await ctx.jobs.send(tx, SMS_DELIVER_JOB, { sendId }, { startAfterSeconds: 2 });
    else await tx.update(smsSends).set({ status: 'done', finishedAt: new Date() }).where(and(eq(smsSends.id, sendId), eq(smsSends.status, 'sending')));
  });
}

// -------------------------------------------------------------------------------- callbacks (AT)

/** Whether a callback carries our token (constant-time comparison). */
export async function callbackTokenOk(ex: Executor, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const [c] = await ex.select({ token: smsConfig.callbackToken }).from(smsConfig).where(eq(smsConfig.id, 1));
  if (!c) return false;
  const a = crypto.createHash('sha256').update(token).digest();
  const b = crypto.createHash('sha256').update(c.token).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * A delivery report. Idempotent: only a row still 'sending' or 'sent' changes, and counters move with
 * the rows that changed, so a repeated report changes nothing. A row in doubt (no message id yet) is
 * matched by phone, oldest claim first.
 */
export async function applyDeliveryReport(db: Db, report: DeliveryReport): Promise<{ matched: boolean }> {
  const final = report.status === 'Success' ? 'delivered' : DLR_FAILED.has(report.status) ? 'failed' : null;
  const phone = normaliseTzPhone(report.phoneNumber) ?? report.phoneNumber;
  return db.transaction(async (tx) => {
    type Row = { id: number | string; send_id: number | string; status: string };
    const byMessageId = () => rowsOf<Row>(tx, sql`
      select id, send_id, status from ${smsRecipients} where provider_message_id = ${report.id} and status in ('sending', 'sent') for update`);
    let rows = await byMessageId();
    if (!rows.length) {
      const [known] = await tx.select({ id: smsRecipients.id }).from(smsRecipients).where(eq(smsRecipients.providerMessageId, report.id)).limit(1);
      if (known) return { matched: true }; // already final: a repeated report
      rows = await rowsOf<Row>(tx, sql`
        select id, send_id, status from ${smsRecipients} where phone = ${phone} and status = 'sending' and provider_message_id is null
        order by updated_at, id limit 1 for update`);
      // The report overtook our record of the gateway's answer: that record held the row, and once it
      // committed the row carries the message id (no longer "sending" without one). A new statement sees it.
      if (!rows.length) rows = await byMessageId();
    }
    const row = rows[0];
    if (!row) return { matched: false };
    const wasSending = row.status === 'sending';
    if (!final && !wasSending) return { matched: true }; // intermediate report on a sent row
    await tx
      .update(smsRecipients)
      .set({
        status: final ?? 'sent', providerMessageId: report.id, smsStatus: SMS_STATUS.used, updatedAt: new Date(),
        ...(final === 'failed' ? { failureReason: report.failureReason || report.status } : {}),
      })
      .where(eq(smsRecipients.id, Number(row.id)));
    await addCounters(tx, Number(row.send_id), { sent: wasSending ? 1 : 0, delivered: final === 'delivered' ? 1 : 0, failed: final === 'failed' ? 1 : 0 });
    return { matched: true };
  });
}

/** An incoming SMS: a STOP reply puts the number on the no-send list (once). */
export async function applyIncomingMessage(db: Db, msg: { from: string; text: string }): Promise<{ stopped: boolean }> {
  if (!isStopRequest(msg.text)) return { stopped: false };
  const phone = normaliseTzPhone(msg.from);
  if (!phone) return { stopped: false };
  await db.insert(smsExclusions).values({ phone, source: 'stop' }).onConflictDoNothing();
  return { stopped: true };
}
