import crypto from 'node:crypto';
import { z } from 'zod';
import { PAY_TYPE, centsToDecimalString, mulberry32, parseTshToCents } from '@dau/domain';

/**
 * Mobile-money operators (spec §9: 3 Tigo, 4 Airtel, 6 Vodacom, 7 Halotel) behind ONE adapter interface.
 * The services only ever talk to `MobileMoneyOperator`; the sandboxes below behave like the real thing
 * (asynchronous signed callbacks, duplicates, callbacks that never come, failures with reasons, calls that
 * time out whether or not the money moved) so that every path of the services runs on a fresh install.
 */

/** The mobile-money pay types (USDT, pay type 10, moves on chain: modules/tron registers its own adapter). */
export type PayType = Exclude<(typeof PAY_TYPE)[keyof typeof PAY_TYPE], typeof PAY_TYPE.usdt>;
export const PAY_TYPES: readonly PayType[] = Object.values(PAY_TYPE).filter((p): p is PayType => p !== PAY_TYPE.usdt);
export const isPayType = (v: unknown): v is PayType => typeof v === 'number' && (PAY_TYPES as readonly number[]).includes(v);

export interface MoneyRequest {
  /** Our serial number: the idempotency reference the operator keys the transaction on. */
  reference: string;
  /** MSISDN, 255XXXXXXXXX. */
  phone: string;
  /** Cents of TSh. */
  amount: number;
}

export type OperatorStatus = 'pending' | 'success' | 'failed' | 'unknown';

/** A verified callback, as the services consume it. */
export interface CallbackEvent {
  payType: PayType;
  /** The operator's id of this notification: a repeat carries the same id. */
  eventId: string;
  kind: 'collect' | 'disburse';
  reference: string;
  carrierRef: string;
  status: 'success' | 'failed';
  /** Cents. */
  amount: number;
  reason?: string;
  /** The payload as received (stored in payment_callbacks). */
  payload: Record<string, unknown>;
}

export interface MobileMoneyOperator {
  readonly payType: PayType;
  readonly name: string;
  /** Asks the payer to confirm a payment requested from the bettor app; the outcome comes by callback or query. */
  collect(req: MoneyRequest): Promise<{ carrierRef: string; status: 'pending' }>;
  /**
   * The USSD push channel (bill 11): the operator pushes a PIN prompt to the payer's handset; the payer enters
   * the PIN, cancels, or lets the USSD session expire. The outcome comes by callback or query, as for
   * `collect`. Absent for adapters without a USSD channel (USDT).
   */
  ussdPush?(req: MoneyRequest): Promise<{ carrierRef: string; status: 'pending' }>;
  /** Sends money to a subscriber. Throws `OperatorTimeoutError` when the call times out (the money may or may not have moved). */
  disburse(req: MoneyRequest): Promise<{ carrierRef: string; status: 'pending' | 'success' | 'failed'; reason?: string }>;
  /** The truth about a transaction, by the operator's reference or ours. */
  queryStatus(ref: string): Promise<{ status: OperatorStatus; reason?: string; amount?: number; carrierRef?: string }>;
  /** Checks the signature and freshness of a callback and parses it; null when it is not genuine. */
  verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: string): CallbackEvent | null;
}

export class OperatorTimeoutError extends Error {
  constructor(operator: string) {
    super(`${operator}: the call timed out`);
  }
}

// ------------------------------------------------------------------------------------------------
// Time: an injectable clock and scheduler (tests advance a manual one instead of sleeping).

export interface Scheduler {
  now(): number;
  /** Runs `task` after `ms` milliseconds of this scheduler's time. */
  after(ms: number, task: () => Promise<void> | void): void;
  close?(): void;
}

/** Real timers (the running server). Timers never keep the process alive and are dropped on close. */
export class TimerScheduler implements Scheduler {
  private timers = new Set<NodeJS.Timeout>();
  private closed = false;
  constructor(private onError: (err: unknown) => void = () => {}) {}
  now() {
    return Date.now();
  }
  after(ms: number, task: () => Promise<void> | void) {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (this.closed) return;
      Promise.resolve()
        .then(task)
        .catch((err) => this.onError(err));
    }, Math.max(0, ms));
    t.unref();
    this.timers.add(t);
  }
  close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** Simulated time for tests: nothing runs until `advance` or `runAll`, then tasks run in time order, awaited. */
export class ManualScheduler implements Scheduler {
  private t: number;
  private seq = 0;
  private queue: { at: number; seq: number; task: () => Promise<void> | void }[] = [];
  constructor(start = Date.now()) {
    this.t = start;
  }
  now() {
    return this.t;
  }
  after(ms: number, task: () => Promise<void> | void) {
    this.queue.push({ at: this.t + Math.max(0, ms), seq: this.seq++, task });
  }
  get pending() {
    return this.queue.length;
  }
  /** Moves time forward by `ms`, running every task that falls due (including tasks they schedule). */
  async advance(ms: number) {
    const until = this.t + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.queue[0];
      if (!next || next.at > until) break;
      this.queue.shift();
      this.t = Math.max(this.t, next.at);
      await next.task();
    }
    this.t = until;
  }
  /** Runs everything scheduled (up to a simulated hour ahead). */
  async runAll(horizonMs = 3_600_000) {
    await this.advance(horizonMs);
  }
}

// ------------------------------------------------------------------------------------------------
// Callback signatures: HMAC-SHA256 over "<unix seconds>.<raw body>", header `x-signature: t=<s>,v1=<hex>`.

export const SIGNATURE_HEADER = 'x-signature';
/** A callback older (or newer) than this is refused, so a captured one cannot be replayed later. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

export function signPayload(secret: string, rawBody: string, timestampSeconds: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}

export function checkSignature(secret: string, header: string | undefined, rawBody: string, nowMs: number): boolean {
  if (!header || header.length > 200) return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  const v1 = parts.v1;
  if (!Number.isSafeInteger(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(nowMs - t * 1000) > SIGNATURE_TOLERANCE_MS) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** The callback body every sandbox posts (amounts in shillings with two decimals, as operators send them). */
const callbackBody = z.object({
  event_id: z.string().min(1).max(100),
  event: z.enum(['collection', 'disbursement']),
  reference: z.string().min(1).max(64),
  transaction_id: z.string().min(1).max(64),
  status: z.enum(['SUCCESS', 'FAILED']),
  amount: z.string().max(32),
  currency: z.literal('TZS'),
  msisdn: z.string().max(20),
  reason: z.string().max(300).optional(),
  timestamp: z.string().max(40),
});

// ------------------------------------------------------------------------------------------------
// The sandboxes.

/** What a sandbox does with the next call, when forced (tests, the simulator's scenarios). */
export type SandboxBehaviour =
  /** Completes; one callback. */
  | 'success'
  /** Fails with a reason (`failReason` or a random one); one callback (a synchronous answer for operators that disburse synchronously). */
  | 'fail'
  /** Completes at the operator, but the callback never comes: only queryStatus tells the truth. */
  | 'no_callback'
  /** Completes; the callback is delivered twice (the same event id). */
  | 'duplicate'
  /** The call throws (timeout) although the operator received it: the money moves and the callback comes later. */
  | 'timeout'
  /** The call throws and the operator never received it: nothing moves; queryStatus says 'unknown'. */
  | 'timeout_lost';

export const FAILURE_REASONS = {
  insufficient_funds: "Insufficient funds in the payer's wallet",
  wrong_pin: 'Wrong PIN entered by the subscriber',
  not_registered: 'Subscriber not registered for mobile money',
  operator_timeout: 'Operator timeout: the subscriber did not confirm in time',
} as const;
export type FailureReason = keyof typeof FAILURE_REASONS;

/** How the subscriber answers a USSD push prompt on the handset (the sandbox's phone). */
export type UssdAnswer = 'pin' | 'cancel' | 'wrong_pin' | 'no_answer';
/** A USSD session the subscriber does not answer is closed by the operator after this long; then it fails. */
export const USSD_PROMPT_TIMEOUT_MS = 60_000;
/** Why an unanswered or refused USSD push failed, as the operators word it. */
export const USSD_FAILURE_REASONS: Record<Exclude<UssdAnswer, 'pin'>, string> = {
  cancel: 'Cancelled by the subscriber on the USSD prompt',
  wrong_pin: FAILURE_REASONS.wrong_pin,
  no_answer: 'USSD session expired: the subscriber did not answer the prompt',
};
/** Random answers of the sandbox's subscribers (the rest enter their PIN). */
const USSD_ANSWER_RATES: readonly [UssdAnswer, number][] = [['cancel', 0.08], ['no_answer', 0.07], ['wrong_pin', 0.04]];

export interface SandboxProfile {
  payType: PayType;
  name: string;
  /** Prefix of the operator's transaction ids (what the console shows as carrier order number). */
  carrierPrefix: string;
  /** Probabilities of the random mode (when no behaviour is forced). */
  failRate: number;
  duplicateRate: number;
  lostCallbackRate: number;
  timeoutRate: number;
  /** Callback delay range, ms. */
  minDelayMs: number;
  maxDelayMs: number;
  /** Some operators answer a disbursement at once (success or failure) and still send the callback. */
  syncDisburse: boolean;
}

/** Each operator's own character (rates are the sandbox's, chosen so that every path shows up in the demo). */
export const SANDBOX_PROFILES: Record<PayType, SandboxProfile> = {
  3: { payType: 3, name: 'Tigo Pesa (sandbox)', carrierPrefix: 'TGP', failRate: 0.1, duplicateRate: 0.15, lostCallbackRate: 0.05, timeoutRate: 0.03, minDelayMs: 800, maxDelayMs: 6_000, syncDisburse: false },
  4: { payType: 4, name: 'Airtel Money (sandbox)', carrierPrefix: 'AM', failRate: 0.12, duplicateRate: 0.2, lostCallbackRate: 0.08, timeoutRate: 0.05, minDelayMs: 1_500, maxDelayMs: 12_000, syncDisburse: false },
  6: { payType: 6, name: 'Vodacom M-Pesa (sandbox)', carrierPrefix: 'MP', failRate: 0.08, duplicateRate: 0.1, lostCallbackRate: 0.03, timeoutRate: 0.02, minDelayMs: 500, maxDelayMs: 4_000, syncDisburse: false },
  7: { payType: 7, name: 'HaloPesa (sandbox)', carrierPrefix: 'HP', failRate: 0.1, duplicateRate: 0.1, lostCallbackRate: 0.06, timeoutRate: 0.04, minDelayMs: 1_000, maxDelayMs: 8_000, syncDisburse: true },
};

/** A transaction as the sandbox operator keeps it (in its own table, see SandboxStore). */
export interface SandboxTxn {
  kind: 'collect' | 'disburse';
  reference: string;
  carrierRef: string;
  phone: string;
  amount: number;
  status: 'pending' | 'success' | 'failed';
  reason?: string;
  /** What the operator will decide when the transaction completes (decided when it is opened). */
  plannedStatus: 'success' | 'failed';
  plannedReason?: string;
  /** How many callbacks it sends when it completes (0: the callback never comes). */
  callbacks: number;
  /** When it completes, in the scheduler's milliseconds. */
  dueAt: number;
  /** Notifications sent so far (the callback event ids are `<carrier ref>-<n>`). */
  events: number;
}

/**
 * Where a sandbox operator keeps its transactions. A real operator remembers its payouts across our
 * restarts: the server's sandboxes keep them in the database (sandbox-store.ts), so a re-query after our
 * crash finds them; a bare sandbox (tests of the sandbox alone) keeps them in memory.
 */
export interface SandboxStore {
  /** A transaction by our reference or by the operator's own reference. */
  find(payType: PayType, ref: string): Promise<SandboxTxn | undefined>;
  /** Opens a transaction unless one with this reference exists (then answers that one, `created: false`). */
  open(payType: PayType, txn: SandboxTxn): Promise<{ txn: SandboxTxn; created: boolean }>;
  /** Completes a pending transaction with its planned outcome; answers it (completed by this call or before). */
  complete(payType: PayType, reference: string): Promise<SandboxTxn | undefined>;
  /** Counts one more notification of a transaction; answers its number. */
  nextEvent(payType: PayType, reference: string): Promise<number>;
}

export class MemorySandboxStore implements SandboxStore {
  private rows = new Map<string, SandboxTxn>();
  private carrier = new Map<string, string>();
  async find(payType: PayType, ref: string) {
    const key = this.rows.has(`${payType}:${ref}`) ? `${payType}:${ref}` : this.carrier.get(`${payType}:${ref}`);
    const row = key ? this.rows.get(key) : undefined;
    return row ? { ...row } : undefined;
  }
  async open(payType: PayType, txn: SandboxTxn) {
    const key = `${payType}:${txn.reference}`;
    const existing = this.rows.get(key);
    if (existing) return { txn: { ...existing }, created: false };
    this.rows.set(key, { ...txn });
    this.carrier.set(`${payType}:${txn.carrierRef}`, key);
    return { txn: { ...txn }, created: true };
  }
  async complete(payType: PayType, reference: string) {
    const row = this.rows.get(`${payType}:${reference}`);
    if (row && row.status === 'pending') Object.assign(row, { status: row.plannedStatus, reason: row.plannedReason });
    return row ? { ...row } : undefined;
  }
  async nextEvent(payType: PayType, reference: string) {
    const row = this.rows.get(`${payType}:${reference}`);
    if (!row) return 0;
    row.events += 1;
    return row.events;
  }
}

/** Posts a signed callback to our public route; answers the HTTP status. */
export type Deliver = (payType: PayType, headers: Record<string, string>, rawBody: string) => Promise<number>;

export interface OperatorContext {
  /** Read at every call, so a test can swap in a ManualScheduler. */
  scheduler: () => Scheduler;
  deliver: Deliver;
  seed?: number;
  /** Signing secrets per pay type; random per process when absent (a sandbox secret must not live in the source). */
  secrets?: Partial<Record<PayType, string>>;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
  /** Where the sandboxes keep their transactions (default: in memory). */
  store?: SandboxStore;
}

/**
 * A sandbox mobile-money operator. Keeps its own ledger of transactions keyed by our reference (a repeated
 * collect or disburse with the same reference is the same transaction, as with the real APIs: it never
 * pays twice) and completes them asynchronously by posting signed callbacks to our callback route. Its
 * ledger is a SandboxStore (the database in the server), so it outlives our process like a real operator:
 * a transaction whose completion was due while we were down completes when it is next asked about.
 */
export class SandboxOperator implements MobileMoneyOperator {
  readonly payType: PayType;
  readonly name: string;
  /** Forced behaviour for every following call (null: random by the profile's rates). */
  behaviour: SandboxBehaviour | null = null;
  /** One-shot behaviours, used before `behaviour` (first in, first used). */
  readonly queue: SandboxBehaviour[] = [];
  /** Forced failure reason for 'fail'. */
  failReason: FailureReason | null = null;
  /** Forced callback delay (ms). */
  delayMs: number | null = null;
  /** Forced answer of the subscriber to every following USSD prompt (null: random). */
  ussdAnswer: UssdAnswer | null = null;
  /** One-shot USSD answers, used before `ussdAnswer`. */
  readonly ussdAnswers: UssdAnswer[] = [];
  private readonly secret: string;
  private readonly random: () => number;
  private readonly store: SandboxStore;
  private readonly disburseCount = new Map<string, number>();
  private counter = 0;

  constructor(
    readonly profile: SandboxProfile,
    private readonly ctx: OperatorContext,
  ) {
    this.payType = profile.payType;
    this.name = profile.name;
    this.secret = ctx.secrets?.[profile.payType] ?? crypto.randomBytes(32).toString('hex');
    this.random = mulberry32((ctx.seed ?? crypto.randomInt(2 ** 31)) + profile.payType * 7919);
    this.store = ctx.store ?? new MemorySandboxStore();
  }

  /** How many times this process called disburse for a reference (tests: two approvals must disburse once). */
  disburseCalls(reference: string): number {
    return this.disburseCount.get(reference) ?? 0;
  }

  /** The operator's own view of a transaction (tests). */
  transaction(reference: string): Promise<SandboxTxn | undefined> {
    return this.store.find(this.payType, reference);
  }

  /** Signs a body as this operator does (tests forge stale or foreign callbacks with it). */
  sign(rawBody: string, timestampSeconds = Math.floor(this.ctx.scheduler().now() / 1000)): Record<string, string> {
    return { 'content-type': 'application/json', [SIGNATURE_HEADER]: signPayload(this.secret, rawBody, timestampSeconds) };
  }

  async collect(req: MoneyRequest): Promise<{ carrierRef: string; status: 'pending' }> {
    const existing = await this.lookup(req.reference);
    if (existing) return { carrierRef: existing.carrierRef, status: 'pending' };
    const b = this.decide();
    if (b === 'timeout_lost') throw new OperatorTimeoutError(this.name);
    const { txn, created } = await this.store.open(this.payType, this.plan('collect', req, b));
    if (created) this.schedule(txn);
    if (b === 'timeout') throw new OperatorTimeoutError(this.name);
    return { carrierRef: txn.carrierRef, status: 'pending' };
  }

  /**
   * The USSD push: the prompt reaches the handset and the subscriber answers it (PIN, cancel, wrong PIN) after
   * a moment, or never (the session expires after USSD_PROMPT_TIMEOUT_MS). The transport can still time out,
   * lose or duplicate callbacks as for `collect` (the queue's forced behaviours apply to it too).
   */
  async ussdPush(req: MoneyRequest): Promise<{ carrierRef: string; status: 'pending' }> {
    const existing = await this.lookup(req.reference);
    if (existing) return { carrierRef: existing.carrierRef, status: 'pending' };
    const b = this.decide();
    if (b === 'timeout_lost') throw new OperatorTimeoutError(this.name);
    const answer: UssdAnswer = b === 'fail' ? 'wrong_pin' : this.ussdAnswers.shift() ?? this.ussdAnswer ?? this.pickUssdAnswer();
    const txn = this.plan('collect', req, b, answer === 'no_answer' ? USSD_PROMPT_TIMEOUT_MS : undefined);
    if (answer !== 'pin') Object.assign(txn, { plannedStatus: 'failed', plannedReason: USSD_FAILURE_REASONS[answer] });
    const { txn: opened, created } = await this.store.open(this.payType, txn);
    if (created) this.schedule(opened);
    if (b === 'timeout') throw new OperatorTimeoutError(this.name);
    return { carrierRef: opened.carrierRef, status: 'pending' };
  }

  async disburse(req: MoneyRequest): Promise<{ carrierRef: string; status: 'pending' | 'success' | 'failed'; reason?: string }> {
    this.disburseCount.set(req.reference, this.disburseCalls(req.reference) + 1);
    const existing = await this.lookup(req.reference);
    // Idempotent by reference: a repeat never pays twice; it answers the transaction's state.
    if (existing) return { carrierRef: existing.carrierRef, status: existing.status, reason: existing.reason };
    const b = this.decide();
    if (b === 'timeout_lost') throw new OperatorTimeoutError(this.name);
    const sync = this.profile.syncDisburse && (b === 'success' || b === 'fail' || b === 'duplicate');
    const opened = await this.store.open(this.payType, this.plan('disburse', req, b, sync ? 0 : undefined));
    // Two calls with one reference at once (two processes): one transaction, both answered by it.
    if (!opened.created) return { carrierRef: opened.txn.carrierRef, status: opened.txn.status, reason: opened.txn.reason };
    if (sync) {
      // Decided at once; the confirmation callback still follows.
      const done = (await this.store.complete(this.payType, req.reference))!;
      this.sendCallbacks(done.reference, done.callbacks);
      return { carrierRef: done.carrierRef, status: done.status, reason: done.reason };
    }
    this.schedule(opened.txn);
    if (b === 'timeout') throw new OperatorTimeoutError(this.name);
    return { carrierRef: opened.txn.carrierRef, status: 'pending' };
  }

  async queryStatus(ref: string): Promise<{ status: OperatorStatus; reason?: string; amount?: number; carrierRef?: string }> {
    const txn = await this.lookup(ref);
    if (!txn) return { status: 'unknown' };
    return { status: txn.status, reason: txn.reason, amount: txn.amount, carrierRef: txn.carrierRef };
  }

  verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: string): CallbackEvent | null {
    const raw = headers[SIGNATURE_HEADER];
    const header = Array.isArray(raw) ? raw[0] : raw;
    if (!checkSignature(this.secret, header, rawBody, this.ctx.scheduler().now())) return null;
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      return null;
    }
    const parsed = callbackBody.safeParse(json);
    if (!parsed.success) return null;
    const p = parsed.data;
    const amount = parseTshToCents(p.amount);
    if (amount === null || amount <= 0) return null;
    return {
      payType: this.payType,
      eventId: p.event_id,
      kind: p.event === 'collection' ? 'collect' : 'disburse',
      reference: p.reference,
      carrierRef: p.transaction_id,
      status: p.status === 'SUCCESS' ? 'success' : 'failed',
      amount,
      reason: p.reason,
      payload: json as Record<string, unknown>,
    };
  }

  // -- internals ---------------------------------------------------------------------------------

  private decide(): SandboxBehaviour {
    const forced = this.queue.shift() ?? this.behaviour;
    if (forced) return forced;
    const p = this.profile;
    const r = this.random();
    if (r < p.timeoutRate) return this.random() < 0.5 ? 'timeout' : 'timeout_lost';
    if (r < p.timeoutRate + p.failRate) return 'fail';
    if (r < p.timeoutRate + p.failRate + p.lostCallbackRate) return 'no_callback';
    if (r < p.timeoutRate + p.failRate + p.lostCallbackRate + p.duplicateRate) return 'duplicate';
    return 'success';
  }

  /** A transaction; one whose completion fell due while nobody was there to complete it (our restart) completes now. */
  private async lookup(ref: string): Promise<SandboxTxn | undefined> {
    const txn = await this.store.find(this.payType, ref);
    if (txn?.status === 'pending' && txn.dueAt <= this.ctx.scheduler().now()) return this.store.complete(this.payType, txn.reference);
    return txn;
  }

  /** A new transaction with its outcome decided now (completed after `delayMs`, or at once for 0). */
  private plan(kind: 'collect' | 'disburse', req: MoneyRequest, b: SandboxBehaviour, delayMs = this.delay()): SandboxTxn {
    this.counter += 1;
    const now = this.ctx.scheduler().now();
    const digits = `${Math.floor(now / 1000) % 1_000_000}`.padStart(6, '0') + `${this.counter}`.padStart(5, '0');
    const failed = b === 'fail';
    return {
      kind, reference: req.reference, carrierRef: `${this.profile.carrierPrefix}${digits}${crypto.randomBytes(3).toString('hex').toUpperCase()}`,
      phone: req.phone, amount: req.amount, status: 'pending', events: 0,
      plannedStatus: failed ? 'failed' : 'success',
      plannedReason: failed ? FAILURE_REASONS[this.failReason ?? this.pickReason(kind)] : undefined,
      callbacks: b === 'no_callback' ? 0 : b === 'duplicate' ? 2 : 1,
      dueAt: now + delayMs,
    };
  }

  private pickUssdAnswer(): UssdAnswer {
    let r = this.random();
    for (const [answer, rate] of USSD_ANSWER_RATES) {
      if (r < rate) return answer;
      r -= rate;
    }
    return 'pin';
  }

  private pickReason(kind: 'collect' | 'disburse'): FailureReason {
    const keys: FailureReason[] = kind === 'collect' ? ['insufficient_funds', 'wrong_pin', 'not_registered', 'operator_timeout'] : ['not_registered', 'operator_timeout'];
    return keys[Math.floor(this.random() * keys.length)]!;
  }

  private delay(): number {
    if (this.delayMs !== null) return this.delayMs;
    const { minDelayMs, maxDelayMs } = this.profile;
    return Math.round(minDelayMs + this.random() * (maxDelayMs - minDelayMs));
  }

  /** The transaction completes at the operator when due; then the callbacks (none, one or two). */
  private schedule(txn: SandboxTxn) {
    this.ctx.scheduler().after(txn.dueAt - this.ctx.scheduler().now(), async () => {
      const done = await this.store.complete(this.payType, txn.reference);
      if (done && done.callbacks > 0) this.sendCallbacks(done.reference, done.callbacks, 0);
    });
  }

  private sendCallbacks(reference: string, copies: number, afterMs = this.delay()) {
    if (copies <= 0) return;
    this.ctx.scheduler().after(afterMs, async () => {
      const txn = await this.store.find(this.payType, reference);
      if (!txn || txn.status === 'pending') return;
      const event = await this.store.nextEvent(this.payType, reference);
      const ts = new Date(this.ctx.scheduler().now()).toISOString();
      const body = JSON.stringify({
        event_id: `${txn.carrierRef}-${event}`,
        event: txn.kind === 'collect' ? 'collection' : 'disbursement',
        reference: txn.reference,
        transaction_id: txn.carrierRef,
        status: txn.status === 'success' ? 'SUCCESS' : 'FAILED',
        amount: centsToDecimalString(txn.amount),
        currency: 'TZS',
        msisdn: txn.phone,
        ...(txn.reason ? { reason: txn.reason } : {}),
        timestamp: ts,
      });
      for (let i = 0; i < copies; i++) this.ctx.scheduler().after(i * 250, () => this.post(body, 0));
    });
  }

  /** Posts one callback; retries a non-2xx answer or a failed delivery with backoff, as operators do. */
  private async post(body: string, attempt: number): Promise<void> {
    let status = 0;
    try {
      // Signed at sending time: a retry carries a fresh timestamp.
      status = await this.ctx.deliver(this.payType, this.sign(body), body);
    } catch (err) {
      this.ctx.log?.('sandbox callback delivery failed', { operator: this.name, err: String(err) });
    }
    if (status >= 200 && status < 300) return;
    if (attempt >= 3) return;
    this.ctx.scheduler().after(1_000 * 2 ** attempt, () => this.post(body, attempt + 1));
  }
}

/**
 * The operators the server uses, by pay type. These are the four sandboxes; a production adapter (the
 * operator's real API, its credentials from the environment) would be constructed here instead of the
 * sandbox of its pay type, behind the same interface, and nothing else would change.
 */
export function operators(ctx: OperatorContext): Map<PayType, MobileMoneyOperator> {
  return new Map(PAY_TYPES.map((p) => [p, new SandboxOperator(SANDBOX_PROFILES[p], ctx)]));
}
