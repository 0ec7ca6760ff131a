import { PAY_TYPE } from '@dau/domain';

/**
 * Mobile-money operators (spec §9: 3 Tigo, 4 Airtel, 6 Vodacom, 7 Halotel) behind ONE adapter interface.
 * The services only ever talk to `MobileMoneyOperator`. Each implementation is a client of the operator's
 * own documented API (issue 28): Vodacom M-Pesa OpenAPI (./mpesa), Airtel Money Open API (./airtel), and a
 * Tanzanian payment aggregator for Tigo Pesa and HaloPesa (./aggregator). Pointed at the built-in sandbox
 * (./sandbox: the same APIs on localhost, keeping their books in the database) by default; pointed at the
 * operator by its base URL and credentials (./providers.ts).
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
  /** Cents, when the provider's callback states it (Airtel's does not: then no amount check). */
  amount?: number;
  reason?: string;
  /** The payload as received (stored in payment_callbacks). */
  payload: Record<string, unknown>;
  /** The body the provider expects in answer (default: our `{ ok, duplicate?, reason? }` JSON). */
  ack?(answer: { ok: boolean; duplicate?: boolean; reason?: string }): unknown;
}

/**
 * What a collection request answers. Most APIs accept it ('pending': the outcome comes by callback or
 * query); a synchronous API (M-Pesa OpenAPI's C2B single stage) answers the outcome itself, which the
 * recharge service settles at once as it would a callback.
 */
export interface CollectAnswer {
  carrierRef: string;
  status: 'pending' | 'success' | 'failed';
  reason?: string;
}

export interface MobileMoneyOperator {
  readonly payType: PayType;
  readonly name: string;
  /** Asks the payer to confirm a payment requested from the bettor app; the outcome comes by callback or query. */
  collect(req: MoneyRequest): Promise<CollectAnswer>;
  /**
   * The USSD push channel (bill 11): the operator pushes a PIN prompt to the payer's handset; the payer enters
   * the PIN, cancels, or lets the USSD session expire. The outcome comes by callback or query, as for
   * `collect`. Absent for adapters without a USSD channel (USDT).
   */
  ussdPush?(req: MoneyRequest): Promise<CollectAnswer>;
  /** Sends money to a subscriber. Throws `OperatorTimeoutError` when the call times out (the money may or may not have moved). */
  disburse(req: MoneyRequest): Promise<{ carrierRef: string; status: 'pending' | 'success' | 'failed'; reason?: string }>;
  /** The truth about a transaction, asked by our reference (the serial number every provider keys on). */
  queryStatus(ref: string): Promise<{ status: OperatorStatus; reason?: string; amount?: number; carrierRef?: string }>;
  /**
   * Checks the signature and freshness of a callback and parses it; null when it is not genuine. May read
   * the provider's account (its keys) first, so a callback that arrives before any call of ours verifies.
   */
  verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: string): CallbackEvent | null | Promise<CallbackEvent | null>;
}

/** The call timed out or its answer was lost: the money may or may not have moved (never a refund on it). */
export class OperatorTimeoutError extends Error {
  constructor(operator: string, detail = 'the call timed out') {
    super(`${operator}: ${detail}`);
  }
}

/**
 * The operator refused the request itself (bad credentials, a malformed request, a 4xx with a documented
 * code): nothing moved. `code` is the operator's own code, kept in the reason.
 */
export class OperatorRefusedError extends Error {
  constructor(operator: string, readonly code: string, detail: string) {
    super(`${operator}: ${code} ${detail}`);
  }
}

/** The HTTP transport of the clients: the platform's fetch, or an in-process one into the built-in sandbox. */
export type FetchLike = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<Response>;

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


/** What the clients of mobile money are configured with (./providers.ts): the provider's API and our account there. */
export interface ProviderAccount {
  /** The provider: 'mpesa' | 'airtel' | 'aggregator'. */
  provider: string;
  /** The API's base URL (the built-in sandbox's when the operator has not been switched to production). */
  baseUrl: string;
  /** Non-secret settings (service provider code, market, country, currency, origin…). */
  settings: Record<string, string>;
  /** Credentials (API key, public key, client secret, PIN…): write-only in the console. */
  secrets: Record<string, string>;
}

/** What every client is built with. */
export interface ClientDeps {
  /** The pay type of ours this client serves (the aggregator's client serves 3 and 7: one instance each). */
  payType: PayType;
  /** The provider's account, read at each call (cached by the runtime; replaced when an admin changes it). */
  account: () => Promise<ProviderAccount>;
  fetch: FetchLike;
  /** The clock (token and session expiry), the payment runtime's scheduler's. */
  now: () => number;
  /** Our public callback URL for this pay type (what we register with the provider). */
  callbackUrl: string;
  log: (msg: string, extra?: Record<string, unknown>) => void;
}
