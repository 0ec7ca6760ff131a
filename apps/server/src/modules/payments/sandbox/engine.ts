import crypto from 'node:crypto';
import { mulberry32 } from '@dau/domain';
import { OperatorTimeoutError, type CollectAnswer, type MoneyRequest, type OperatorStatus, type PayType, type Scheduler } from '../operators.js';

/**
 * The sandbox operators' back office (issue 28): what each sandbox operator decides and remembers, behind
 * the API faces that speak the providers' own protocols (../mpesa/sandbox.ts, ../airtel/sandbox.ts,
 * ../aggregator/sandbox.ts). A face turns a documented request into a call here and renders the answer and
 * the callbacks in its protocol (a CallbackRenderer); this book decides the outcome (forced by tests and the
 * simulator's scenarios, or random by the operator's profile), keeps the transaction in its store (the
 * database in the server) and completes it on the scheduler.
 */

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
  /** A synchronous collection API (M-Pesa OpenAPI C2B single stage): the call answers the outcome. */
  syncCollect?: boolean;
}

/** Each operator's own character (rates are the sandbox's, chosen so that every path shows up in the demo). */
export const SANDBOX_PROFILES: Record<PayType, SandboxProfile> = {
  // Tigo Pesa and HaloPesa pay out through the aggregator's wallet cash-in, which answers within the call.
  3: { payType: 3, name: 'Tigo Pesa (sandbox)', carrierPrefix: 'TGP', failRate: 0.1, duplicateRate: 0.15, lostCallbackRate: 0.05, timeoutRate: 0.03, minDelayMs: 800, maxDelayMs: 6_000, syncDisburse: true },
  4: { payType: 4, name: 'Airtel Money (sandbox)', carrierPrefix: 'AM', failRate: 0.12, duplicateRate: 0.2, lostCallbackRate: 0.08, timeoutRate: 0.05, minDelayMs: 1_500, maxDelayMs: 12_000, syncDisburse: false },
  6: { payType: 6, name: 'Vodacom M-Pesa (sandbox)', carrierPrefix: 'MP', failRate: 0.08, duplicateRate: 0.1, lostCallbackRate: 0.03, timeoutRate: 0.02, minDelayMs: 500, maxDelayMs: 4_000, syncDisburse: true, syncCollect: true },
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
  /** Notifications sent so far. */
  events: number;
  /** What the face's protocol adds (conversation ids, the channel, the decrypted PIN's check…). */
  extra?: Record<string, unknown>;
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
  /** Merges face data into a transaction's `extra`. */
  annotate(payType: PayType, reference: string, extra: Record<string, unknown>): Promise<void>;
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
  async annotate(payType: PayType, reference: string, extra: Record<string, unknown>) {
    const row = this.rows.get(`${payType}:${reference}`);
    if (row) row.extra = { ...row.extra, ...extra };
  }
}

/** Posts a signed callback to our public route; answers the HTTP status. */
export type Deliver = (payType: PayType, headers: Record<string, string>, rawBody: string) => Promise<number>;

/** A callback as the face's provider posts it: headers and raw body (null: this API sends no callbacks). */
export type RenderedCallback = { headers: Record<string, string>; body: string } | null;

/** How a face renders the callback of a completed transaction (`event`: its notification number, from 1). */
export type CallbackRenderer = (txn: SandboxTxn, event: number, nowMs: number) => Promise<RenderedCallback>;

/** Faults an API face acts out (see SandboxBook.faults). */
export type SandboxFault = 'server_error' | 'bad_signature' | 'expire_credentials';

/** What a face keeps with a transaction it opens: `face` (its provider id) and its protocol's ids. */
export type FaceExtra = { face?: string } & Record<string, unknown>;

export interface SandboxContext {
  /** Read at every call, so a test can swap in a ManualScheduler. */
  scheduler: () => Scheduler;
  deliver: Deliver;
  seed?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
  /** Where the sandboxes keep their transactions (default: in memory). */
  store?: SandboxStore;
}

/**
 * A sandbox mobile-money operator's books. Keeps its own ledger of transactions keyed by our reference (a
 * repeated collect or disburse with the same reference is the same transaction, as with the real APIs: it
 * never pays twice) and completes them asynchronously, posting the callbacks its face renders to our
 * callback route. Its ledger is a SandboxStore (the database in the server), so it outlives our process
 * like a real operator: a transaction whose completion was due while we were down completes when it is
 * next asked about.
 */
export class SandboxBook {
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
  /**
   * One-shot faults of the API face in front of these books (tests): the next request the face serves
   * answers a 5xx, the next callback carries a wrong signature, or the face forgets the session/token it
   * issued (expired before its time). A face takes the ones it supports with `takeFault`.
   */
  readonly faults: SandboxFault[] = [];
  /**
   * How each face renders callbacks, by face (provider id): a transaction is called back in the protocol of
   * the face that opened it (`extra.face`). Set when the sandbox server is built.
   */
  readonly renderers = new Map<string, CallbackRenderer>();
  private readonly random: () => number;
  private readonly store: SandboxStore;
  private readonly disburseCount = new Map<string, number>();
  private counter = 0;

  constructor(
    readonly profile: SandboxProfile,
    private readonly ctx: SandboxContext,
  ) {
    this.payType = profile.payType;
    this.name = profile.name;
    this.random = mulberry32((ctx.seed ?? crypto.randomInt(2 ** 31)) + profile.payType * 7919);
    this.store = ctx.store ?? new MemorySandboxStore();
  }

  /** How many times this process called disburse for a reference (tests: two approvals must disburse once). */
  disburseCalls(reference: string): number {
    return this.disburseCount.get(reference) ?? 0;
  }

  /** Takes a queued fault of this kind (true: the face must act it out once). */
  takeFault(kind: SandboxFault): boolean {
    const i = this.faults.indexOf(kind);
    if (i < 0) return false;
    this.faults.splice(i, 1);
    return true;
  }

  /** Merges face data into a transaction (see SandboxTxn.extra). */
  annotate(reference: string, extra: Record<string, unknown>): Promise<void> {
    return this.store.annotate(this.payType, reference, extra);
  }

  /** The operator's own view of a transaction (tests). */
  transaction(reference: string): Promise<SandboxTxn | undefined> {
    return this.store.find(this.payType, reference);
  }

  /** The callback this operator would post for a transaction (tests forge late, foreign or tampered ones with it). */
  callbackFor(txn: SandboxTxn, event = 1): Promise<RenderedCallback> {
    const render = this.rendererOf(txn);
    return render ? render(txn, event, this.ctx.scheduler().now()) : Promise.resolve(null);
  }

  private rendererOf(txn: SandboxTxn): CallbackRenderer | undefined {
    const face = txn.extra?.face;
    return (typeof face === 'string' ? this.renderers.get(face) : undefined) ?? this.renderers.values().next().value;
  }

  /** The clock of this book (faces: session and token expiry). */
  now(): number {
    return this.ctx.scheduler().now();
  }

  /**
   * A collection asked of the operator. `extra` is what the face keeps with the transaction (at least
   * `face`, its provider id: the callbacks are rendered by that face).
   */
  async collect(req: MoneyRequest, extra: FaceExtra = {}): Promise<CollectAnswer> {
    const existing = await this.lookup(req.reference);
    if (existing) return this.answerOf(existing);
    const b = this.decide();
    if (b === 'timeout_lost') throw new OperatorTimeoutError(this.name);
    return this.openCollect({ ...this.plan('collect', req, b), extra }, b);
  }

  /** Opens a collection; a synchronous API completes it within the call (the payer answered the prompt). */
  private async openCollect(txn: SandboxTxn, b: SandboxBehaviour): Promise<CollectAnswer> {
    const sync = !!this.profile.syncCollect && b !== 'timeout';
    if (sync) txn.dueAt = this.ctx.scheduler().now();
    const { txn: opened, created } = await this.store.open(this.payType, txn);
    if (!created) return this.answerOf(opened);
    if (sync) {
      const done = (await this.store.complete(this.payType, opened.reference))!;
      this.sendCallbacks(done.reference, done.callbacks);
      return this.answerOf(done);
    }
    this.schedule(opened);
    if (b === 'timeout') throw new OperatorTimeoutError(this.name);
    return { carrierRef: opened.carrierRef, status: 'pending' };
  }

  private answerOf(txn: SandboxTxn): CollectAnswer {
    return this.profile.syncCollect && txn.status !== 'pending'
      ? { carrierRef: txn.carrierRef, status: txn.status, reason: txn.reason }
      : { carrierRef: txn.carrierRef, status: 'pending' };
  }

  /**
   * The USSD push: the prompt reaches the handset and the subscriber answers it (PIN, cancel, wrong PIN) after
   * a moment, or never (the session expires after USSD_PROMPT_TIMEOUT_MS). The transport can still time out,
   * lose or duplicate callbacks as for `collect` (the queue's forced behaviours apply to it too).
   */
  async ussdPush(req: MoneyRequest, extra: FaceExtra = {}): Promise<CollectAnswer> {
    const existing = await this.lookup(req.reference);
    if (existing) return this.answerOf(existing);
    const b = this.decide();
    if (b === 'timeout_lost') throw new OperatorTimeoutError(this.name);
    // A forced or random failure keeps its reason (plan); otherwise the subscriber answers the prompt.
    // A scenario forced by a test or the simulator is played as forced: the subscriber enters the PIN unless told otherwise.
    const answer: UssdAnswer = b === 'fail' ? 'pin' : this.ussdAnswers.shift() ?? this.ussdAnswer ?? (this.forced ? 'pin' : this.pickUssdAnswer());
    const txn = { ...this.plan('collect', req, b, answer === 'no_answer' ? USSD_PROMPT_TIMEOUT_MS : undefined), extra: { ...extra, channel: 'ussd' } };
    if (answer !== 'pin') Object.assign(txn, { plannedStatus: 'failed', plannedReason: USSD_FAILURE_REASONS[answer] });
    return this.openCollect(txn, b);
  }

  async disburse(req: MoneyRequest, extra: FaceExtra = {}): Promise<{ carrierRef: string; status: 'pending' | 'success' | 'failed'; reason?: string }> {
    this.disburseCount.set(req.reference, this.disburseCalls(req.reference) + 1);
    const existing = await this.lookup(req.reference);
    // Idempotent by reference: a repeat never pays twice; it answers the transaction's state.
    if (existing) return { carrierRef: existing.carrierRef, status: existing.status, reason: existing.reason };
    const b = this.decide();
    if (b === 'timeout_lost') throw new OperatorTimeoutError(this.name);
    const sync = this.profile.syncDisburse && (b === 'success' || b === 'fail' || b === 'duplicate');
    const opened = await this.store.open(this.payType, { ...this.plan('disburse', req, b, sync ? 0 : undefined), extra });
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

  // -- internals ---------------------------------------------------------------------------------

  /** Whether the last decision was forced (queue or behaviour) rather than drawn from the profile. */
  private forced = false;

  private decide(): SandboxBehaviour {
    const forced = this.queue.shift() ?? this.behaviour;
    this.forced = !!forced;
    if (forced) return forced;
    const p = this.profile;
    const r = this.random();
    if (r < p.timeoutRate) return this.random() < 0.5 ? 'timeout' : 'timeout_lost';
    if (r < p.timeoutRate + p.failRate) return 'fail';
    if (r < p.timeoutRate + p.failRate + p.lostCallbackRate) return 'no_callback';
    if (r < p.timeoutRate + p.failRate + p.lostCallbackRate + p.duplicateRate) return 'duplicate';
    return 'success';
  }

  /** A transaction by our reference or the operator's; one whose completion fell due while nobody was there to complete it (our restart) completes now. */
  find(ref: string): Promise<SandboxTxn | undefined> {
    return this.lookup(ref);
  }

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
      if (!this.rendererOf(txn)) return;
      const event = await this.store.nextEvent(this.payType, reference);
      // A duplicate is the same notification again (the same event id, signed afresh when it is sent).
      for (let i = 0; i < copies; i++) this.ctx.scheduler().after(i * 250, () => this.post({ ...txn, events: event }, event, 0));
    });
  }

  /** Posts one callback; retries a non-2xx answer or a failed delivery with backoff, as operators do. */
  private async post(txn: SandboxTxn, event: number, attempt: number): Promise<void> {
    let status = 0;
    try {
      // Rendered (signed) at sending time: a retry carries a fresh timestamp.
      const cb = await this.rendererOf(txn)?.(txn, event, this.ctx.scheduler().now());
      if (!cb) return;
      status = await this.ctx.deliver(this.payType, cb.headers, cb.body);
    } catch (err) {
      this.ctx.log?.('sandbox callback delivery failed', { operator: this.name, err: String(err) });
    }
    if (status >= 200 && status < 300) return;
    if (attempt >= 3) return;
    this.ctx.scheduler().after(1_000 * 2 ** attempt, () => this.post(txn, event, attempt + 1));
  }
}

/** The four sandbox books, by pay type. */
export function sandboxBooks(ctx: SandboxContext): Map<PayType, SandboxBook> {
  return new Map(Object.values(SANDBOX_PROFILES).map((p) => [p.payType, new SandboxBook(p, ctx)]));
}

/**
 * Why a sandbox transaction failed, as a key a face maps to its API's documented code: a FailureReason, or
 * the USSD prompt's outcome ('cancel', 'no_answer'; a wrong PIN is 'wrong_pin').
 */
export function failureKey(reason: string | undefined): FailureReason | 'cancel' | 'no_answer' | undefined {
  if (!reason) return undefined;
  for (const [k, v] of Object.entries(FAILURE_REASONS)) if (v === reason) return k as FailureReason;
  if (reason === USSD_FAILURE_REASONS.cancel) return 'cancel';
  if (reason === USSD_FAILURE_REASONS.no_answer) return 'no_answer';
  return undefined;
}
