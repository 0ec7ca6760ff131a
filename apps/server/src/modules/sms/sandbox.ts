/**
 * THE SANDBOX SMS GATEWAY: a local stand-in for Africa's Talking's SMS API on its own Fastify server
 * (DAU_SMS_SANDBOX_PORT, 6039), speaking the documented protocol (see ./africastalking.ts) and failing
 * like it:
 *
 * - POST /version1/messaging (form-encoded, apiKey header): 401 for a wrong key, 429 when more messages
 *   per second are asked than its rate, per-recipient 403 InvalidPhoneNumber (national numbers 799…),
 *   406 UserInBlacklist (798…), 405 InsufficientBalance once its balance is spent; accepted messages are
 *   written to its books (`sandbox_sms_messages`) before it answers 201.
 * - Delivery reports: every accepted message is reported to the registered callback URL (form-encoded:
 *   id, status, phoneNumber, networkCode, failureReason, retryCount) after `dlrDelayMs`, Success, or
 *   Failed/DeliveryFailure for numbers 797…; a report our callback did not acknowledge (2xx) is sent
 *   again until it is, across our restarts (its books say what was reported).
 * - POST /sandbox/incoming { from, text }: a bettor's SMS to our short code, posted to the registered
 *   incoming-message callback in AT's format (from, to, text, date, id, linkId, networkCode).
 * - GET/POST /sandbox/balance: the account's credit (cents of TSh).
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { normaliseTzPhone, smsSegments } from '@dau/domain';
import type { Db } from '../../platform/db.js';
import { sandboxSmsMessages } from './schema.js';

export const DEFAULT_SMS_SANDBOX_PORT = 6039;
/** The API key the sandbox account accepts (seeded into sms_config for the sandbox). */
export const SANDBOX_SMS_API_KEY = 'atsk_sandbox_dau_local';
export const SANDBOX_SMS_USERNAME = 'sandbox';

export interface SmsSandboxOptions {
  db: Db;
  port?: number;
  host?: string;
  apiKey?: string;
  /** Messages per second accepted before answering 429 (default 1000). */
  ratePerSecond?: number;
  /** Credit of the account, cents of TSh (default 1e12). */
  balanceCents?: number;
  /** What one part costs in the sandbox, cents of TSh (default 2500). */
  costPerSegmentCents?: number;
  /** Delay before a message's delivery report (default 300 ms). */
  dlrDelayMs?: number;
  /** The delivery-report callback registered "in the dashboard" (asked each time: null = none yet). */
  deliveryUrl: () => Promise<string | null> | string | null;
  /** The incoming-message callback. */
  incomingUrl: () => Promise<string | null> | string | null;
  shortCode?: string;
  log?: (msg: string, err?: unknown) => void;
}

export interface SmsSandbox {
  url: string;
  /** Base URL the adapter uses: {url}/version1. */
  apiUrl: string;
  app: FastifyInstance;
  setRate(perSecond: number): void;
  setBalance(cents: number): void;
  /** Answers the next `n` send requests 429 (a burst of throttling). */
  throttleNext(n: number): void;
  /** Requests answered 429 so far. */
  throttled(): number;
  /** Sends pending delivery reports now (tests). */
  flushReports(): Promise<void>;
  stop(): Promise<void>;
}

/** The sandbox's delivery outcome of a number: national numbers 797… fail on the network. */
const outcomeOf = (phone: string) => (phone.startsWith('+255797') ? { outcome: 'Failed', reason: 'DeliveryFailure' } : { outcome: 'Success', reason: null });

export async function startSmsSandbox(opts: SmsSandboxOptions): Promise<SmsSandbox> {
  const { db } = opts;
  const apiKey = opts.apiKey ?? SANDBOX_SMS_API_KEY;
  let rate = opts.ratePerSecond ?? 1000;
  let balance = opts.balanceCents ?? 1_000_000_000_000;
  const costPerSegment = opts.costPerSegmentCents ?? 2500;
  const dlrDelayMs = opts.dlrDelayMs ?? 300;
  const log = opts.log ?? (() => {});
  // Messages accepted in the current second (a fixed window).
  let windowStart = 0;
  let windowCount = 0;
  let throttled = 0;
  let throttleNext = 0;

  const app = Fastify({ logger: false, bodyLimit: 2 * 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  const formOf = (req: { body: unknown; headers: Record<string, unknown> }): Record<string, string> => {
    const raw = typeof req.body === 'string' ? req.body : '';
    if (String(req.headers['content-type'] ?? '').includes('json')) {
      try {
        return JSON.parse(raw) as Record<string, string>;
      } catch {
        return {};
      }
    }
    return Object.fromEntries(new URLSearchParams(raw));
  };

  app.post('/version1/messaging', async (req, reply) => {
    const key = req.headers['apikey'];
    if (key !== apiKey) return reply.status(401).type('text/plain').send('The supplied authentication is invalid');
    const form = formOf(req);
    const username = form.username ?? '';
    const message = form.message ?? '';
    const to = (form.to ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!username || !message || !to.length) return reply.status(400).type('text/plain').send('Request is missing required form field');
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      windowCount = 0;
    }
    if (throttleNext > 0 || windowCount + to.length > rate) {
      throttleNext = Math.max(0, throttleNext - 1);
      throttled++;
      return reply.status(429).header('retry-after', '1').type('text/plain').send('Too Many Requests');
    }
    windowCount += to.length;
    const segments = Math.max(1, smsSegments(message));
    const each = segments * costPerSegment;
    const recipients: { statusCode: number; number: string; status: string; cost: string; messageId: string }[] = [];
    const accepted: (typeof sandboxSmsMessages.$inferInsert)[] = [];
    for (const number of to) {
      const phone = normaliseTzPhone(number) ?? (/^\+\d{8,15}$/.test(number) ? number : null);
      const refuse = (statusCode: number, status: string) => recipients.push({ statusCode, number, status, cost: '0', messageId: 'None' });
      if (!phone || phone.startsWith('+255799')) refuse(403, 'InvalidPhoneNumber');
      else if (phone.startsWith('+255798')) refuse(406, 'UserInBlacklist');
      else if (balance < each) refuse(405, 'InsufficientBalance');
      else {
        balance -= each;
        const messageId = `ATXid_${crypto.randomBytes(16).toString('hex')}`;
        const { outcome, reason } = outcomeOf(phone);
        accepted.push({ messageId, username, phone, sender: form.from ?? '', content: message, outcome, failureReason: reason, costCents: each });
        recipients.push({ statusCode: 101, number: phone, status: 'Success', cost: `TZS ${(each / 100).toFixed(4)}`, messageId });
      }
    }
    // The books first: a message is accepted only once it is recorded.
    for (let i = 0; i < accepted.length; i += 1000) await db.insert(sandboxSmsMessages).values(accepted.slice(i, i + 1000));
    if (accepted.length) quietSince = 0;
    const total = accepted.reduce((s, m) => s + (m.costCents ?? 0), 0);
    return reply.status(201).send({ SMSMessageData: { Message: `Sent to ${accepted.length}/${to.length} Total Cost: TZS ${(total / 100).toFixed(4)}`, Recipients: recipients } });
  });

  app.post('/sandbox/incoming', async (req, reply) => {
    const form = formOf(req);
    const url = await opts.incomingUrl();
    if (!url) return reply.status(409).send({ error: 'no incoming-message callback registered' });
    const body = new URLSearchParams({
      date: new Date().toISOString().replace('T', ' ').slice(0, 19), from: form.from ?? '', id: crypto.randomUUID(), linkId: crypto.randomUUID(),
      text: form.text ?? '', to: opts.shortCode ?? '15522', networkCode: '64002',
    });
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }).catch(() => null);
    return { delivered: !!res?.ok, status: res?.status ?? 0 };
  });
  app.get('/sandbox/balance', async () => ({ balance_cents: balance }));
  app.post('/sandbox/balance', async (req) => {
    const form = formOf(req);
    balance = Number(form.balance_cents ?? balance);
    return { balance_cents: balance };
  });

  // Delivery reports: every accepted, unreported message past its delay, until our callback acknowledges it.
  let stopped = false;
  let sweeping: Promise<void> | null = null;
  // When the last sweep left nothing unreported (or no callback is registered): the sandbox looks again
  // when it accepts a message, else only every QUIET_SWEEP_MS (not twice a second on an idle server).
  let quietSince = 0;
  const QUIET_SWEEP_MS = 10_000;
  const sweep = async () => {
    const url = await opts.deliveryUrl();
    if (!url) {
      quietSince = Date.now();
      return;
    }
    for (;;) {
      const due = await db
        .select()
        .from(sandboxSmsMessages)
        .where(and(eq(sandboxSmsMessages.reported, false), lte(sandboxSmsMessages.createdAt, sql`now() - make_interval(secs => ${dlrDelayMs / 1000})`)))
        .orderBy(asc(sandboxSmsMessages.id))
        .limit(200);
      if (!due.length || stopped) {
        const waiting = await db.select({ id: sandboxSmsMessages.id }).from(sandboxSmsMessages).where(eq(sandboxSmsMessages.reported, false)).limit(1);
        if (!waiting.length) quietSince = Date.now();
        return;
      }
      const done: number[] = [];
      let failures = 0;
      const post = async (m: (typeof due)[number]) => {
        const body = new URLSearchParams({ id: m.messageId, status: m.outcome, phoneNumber: m.phone, networkCode: '64002', retryCount: '0' });
        if (m.failureReason) body.set('failureReason', m.failureReason);
        try {
          const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' }, signal: AbortSignal.timeout(10_000) });
          if (res.ok) done.push(m.id);
          else failures++;
        } catch {
          failures++;
        }
      };
      for (let i = 0; i < due.length; i += 20) await Promise.all(due.slice(i, i + 20).map(post));
      if (done.length) await db.update(sandboxSmsMessages).set({ reported: true }).where(inArray(sandboxSmsMessages.id, done));
      if (failures || due.length < 200) return;
    }
  };
  const flushReports = async () => {
    while (sweeping) await sweeping;
    sweeping = sweep().catch((err) => log('SMS sandbox: delivery reports failed', err)).finally(() => (sweeping = null));
    await sweeping;
  };
  const timer = setInterval(() => {
    if (quietSince && Date.now() - quietSince < QUIET_SWEEP_MS) return;
    if (!sweeping && !stopped) void flushReports();
  }, Math.max(100, Math.min(dlrDelayMs, 500)));
  timer.unref();

  const address = await app.listen({ port: opts.port ?? DEFAULT_SMS_SANDBOX_PORT, host: opts.host ?? '127.0.0.1' });
  return {
    url: address,
    apiUrl: `${address}/version1`,
    app,
    setRate: (n) => (rate = n),
    setBalance: (c) => (balance = c),
    throttled: () => throttled,
    throttleNext: (n) => (throttleNext = n),
    flushReports,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      while (sweeping) await sweeping;
      await app.close();
    },
  };
}
