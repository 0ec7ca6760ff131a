import { and, eq, sql } from 'drizzle-orm';
import { PAY_STATUS, WITHDRAWAL_STATUS } from '@dau/domain';
import { paymentCallbacks, recharges, withdrawals } from './schema.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import type { Db } from '../../platform/db.js';
import type { Jobs } from '../../platform/jobs.js';
import type { FastifyInstance } from 'fastify';
import {
  TimerScheduler, isPayType, PAY_TYPES,
  type CallbackEvent, type CollectAnswer, type FetchLike, type MobileMoneyOperator, type MoneyRequest, type OperatorStatus, type PayType,
  type ProviderAccount, type Scheduler,
} from './operators.js';
import type { MobileMoneyProvider, ProviderId } from './provider.js';
import { PROVIDERS, SANDBOX_ORIGIN, providerAccount, providerOf, sandboxCredentials } from './providers.js';
import { sandboxBooks, type Deliver, type SandboxBook } from './sandbox/engine.js';
import { buildSandboxServer, inProcessFetch } from './sandbox/server.js';
import { DbSandboxStore } from './sandbox/store.js';
import { sandboxStatementRoutes } from './statements/sandbox-portal.js';
import { settleRecharge, settleWithdrawal, type Outcome } from './settle.js';

/**
 * Operator callbacks: the intake (the operator verifies the signature) and their application. The payment
 * runtime lives here too: its sandboxes deliver their callbacks to receiveCallback, which in turn reads the
 * runtime's operators, so the two cannot sit in different files without an import cycle.
 */

// ------------------------------------------------------------------------------------------------
// Runtime: the operators' clients, the built-in sandbox and the scheduler of one database (one app).

export interface PaymentRuntime {
  /** By pay type: the client of the provider that carries it (and adapters other modules register: USDT). */
  operators: Map<PayType, MobileMoneyOperator>;
  scheduler: Scheduler;
  /** Replaces the scheduler (tests: a ManualScheduler); the previous one is closed. */
  setScheduler(s: Scheduler): void;
  /** How the sandboxes post their callbacks: the HTTP route once routes are installed, else the handler directly. */
  deliver: Deliver;
  operator(payType: number): MobileMoneyOperator;
  /** The built-in sandbox's books of a pay type (tests, simulator): forced behaviours, transactions, callbacks. */
  sandbox(payType: number): SandboxBook;
  /** The built-in sandbox server (every provider's API face); reached in-process, served on a port by main.ts. */
  sandboxServer(): FastifyInstance;
  /** Forgets the cached accounts and routing (an admin changed a provider's account or the routing). */
  reload(): void;
  /** Our public base URL, for the callback URLs we give the providers. */
  publicUrl: string;
  /** Where the built-in sandbox server listens, when this process serves it on a port (main.ts). */
  sandboxUrl: string | null;
  log: (msg: string, extra?: Record<string, unknown>) => void;
  /** The job queue, once the routes are installed: a re-query asks again for a disbursement the operator never received. */
  jobs?: Jobs;
}

const runtimes = new WeakMap<object, PaymentRuntime>();
/** How long a process trusts its copy of an account or the routing (another process may have changed it). */
const ACCOUNT_TTL_MS = 10_000;

/** The payment runtime of a database (created on first use). */
export function paymentsOf(target: Db | { db: Db }): PaymentRuntime {
  const db = ('db' in target ? target.db : target) as Db;
  let rt = runtimes.get(db);
  if (rt) return rt;
  const seedEnv = Number(process.env.PAYMENTS_SANDBOX_SEED);
  const cache = new Map<string, { at: number; value: Promise<unknown> }>();
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < ACCOUNT_TTL_MS) return hit.value as Promise<T>;
    const value = load();
    value.catch(() => cache.delete(key));
    cache.set(key, { at: Date.now(), value });
    return value;
  };
  let server: FastifyInstance | null = null;
  let books: Map<PayType, SandboxBook> | null = null;
  const runtime: PaymentRuntime = {
    operators: new Map(),
    scheduler: new TimerScheduler((err) => runtime.log('payment task failed', { err: String(err) })),
    setScheduler(s) {
      if (s !== runtime.scheduler) runtime.scheduler.close?.();
      runtime.scheduler = s;
    },
    deliver: async (payType, headers, rawBody) => (await receiveCallback(db, payType, headers, rawBody)).status,
    operator(payType) {
      // The mobile-money operators, and any adapter another module registered (modules/tron: USDT).
      const op = runtime.operators.get(payType as PayType);
      if (!op) throw badRequest('PARAM_INVALID', [{ field: 'pay_type' }]);
      return op;
    },
    sandbox(payType) {
      runtime.sandboxServer();
      const book = books!.get(payType as PayType);
      if (!book) throw new Error(`pay type ${payType} has no sandbox`);
      return book;
    },
    sandboxServer() {
      if (server) return server;
      books = sandboxBooks({
        scheduler: () => runtime.scheduler,
        deliver: (p, h, b) => runtime.deliver(p, h, b),
        seed: Number.isSafeInteger(seedEnv) ? seedEnv : undefined,
        log: (m, e) => runtime.log(m, e),
        // The sandboxes remember their transactions in the database, as a real operator does across our restarts.
        store: new DbSandboxStore(db),
      });
      const b = books;
      server = buildSandboxServer(Object.values(PROVIDERS), (provider) => ({
        book: (p) => b.get(p)!,
        credentials: () => cached(`sandbox:${provider.id}`, () => sandboxCredentials(db, provider.id)),
        callbackUrl: (p) => `${runtime.publicUrl}/api/v1/payments/callback/${p}`,
        log: (m, e) => runtime.log(m, { provider: provider.id, ...e }),
      }), b);
      // The sandbox providers' "portal": the day's statement file each would let a merchant download.
      server.register(async (scope) => sandboxStatementRoutes(scope, { db }));
      return server;
    },
    reload: () => cache.clear(),
    publicUrl: 'http://127.0.0.1:6009',
    sandboxUrl: null,
    log: () => {},
  };
  let inProcess: FetchLike | null = null;
  const fetcher: FetchLike = (url, init) => {
    if (!url.startsWith(SANDBOX_ORIGIN)) return fetch(url, init);
    inProcess ??= inProcessFetch(runtime.sandboxServer(), SANDBOX_ORIGIN);
    return inProcess(url, init);
  };
  const route = () => cached('routing', () => providerOf(db));
  for (const p of PAY_TYPES) {
    const clients = new Map<ProviderId, MobileMoneyOperator>();
    for (const provider of Object.values(PROVIDERS)) {
      if (!provider.payTypes.includes(p)) continue;
      clients.set(provider.id, provider.client({
        payType: p,
        account: () => cached(`account:${provider.id}`, () => providerAccount(db, provider.id, SANDBOX_ORIGIN)),
        fetch: fetcher,
        now: () => runtime.scheduler.now(),
        get callbackUrl() {
          return `${runtime.publicUrl}/api/v1/payments/callback/${p}`;
        },
        log: (m, e) => runtime.log(m, { provider: provider.id, ...e }),
      }));
    }
    runtime.operators.set(p, new RoutedOperator(p, clients, route));
  }
  rt = runtime;
  runtimes.set(db, rt);
  return rt;
}

/**
 * A pay type's operator: the client of the provider that carries it now (payment_config.provider_of: the
 * operator directly, or the aggregator). A callback is accepted from any provider that can carry the pay
 * type, each checking its own signature: a payment started before a switch still completes after it.
 */
class RoutedOperator implements MobileMoneyOperator {
  readonly name: string;
  constructor(
    readonly payType: PayType,
    private readonly clients: Map<ProviderId, MobileMoneyOperator>,
    private readonly route: () => Promise<Record<PayType, ProviderId>>,
  ) {
    this.name = [...clients.values()][0]?.name ?? `pay type ${payType}`;
  }
  private async current(): Promise<MobileMoneyOperator> {
    const id = (await this.route())[this.payType];
    const client = this.clients.get(id) ?? [...this.clients.values()][0];
    if (!client) throw new Error(`pay type ${this.payType}: no provider`);
    return client;
  }
  async collect(req: MoneyRequest): Promise<CollectAnswer> {
    return (await this.current()).collect(req);
  }
  async ussdPush(req: MoneyRequest): Promise<CollectAnswer> {
    const c = await this.current();
    return c.ussdPush ? c.ussdPush(req) : c.collect(req);
  }
  async disburse(req: MoneyRequest) {
    return (await this.current()).disburse(req);
  }
  async queryStatus(ref: string): Promise<{ status: OperatorStatus; reason?: string; amount?: number; carrierRef?: string }> {
    return (await this.current()).queryStatus(ref);
  }
  async verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<CallbackEvent | null> {
    for (const c of this.clients.values()) {
      const ev = await c.verifyCallback(headers, rawBody);
      if (ev) return ev;
    }
    return null;
  }
}

/** The providers (for the settings screen). */
export const paymentProvidersList = (): MobileMoneyProvider[] => Object.values(PROVIDERS);
export type { ProviderAccount };

// ------------------------------------------------------------------------------------------------
// Callbacks

export interface CallbackAnswer {
  ok: boolean;
  duplicate?: boolean;
  reason?: string;
}

/**
 * Records a verified callback and applies it. The callback row and the money movement commit together:
 * a repeat of the same event finds the row and only counts itself; a different event for a settled
 * transaction finds it no longer in the expected state and changes nothing.
 */
export async function applyCallback(db: Db, ev: CallbackEvent): Promise<CallbackAnswer> {
  const log = paymentsOf(db).log;
  return db.transaction(async (tx) => {
    const fresh = await tx
      .insert(paymentCallbacks)
      .values({ payType: ev.payType, eventId: ev.eventId, kind: ev.kind, reference: ev.reference, payload: ev.payload })
      .onConflictDoNothing()
      .returning({ id: paymentCallbacks.id });
    if (!fresh.length) {
      await tx
        .update(paymentCallbacks)
        .set({ duplicates: sql`${paymentCallbacks.duplicates} + 1` })
        .where(and(eq(paymentCallbacks.payType, ev.payType), eq(paymentCallbacks.eventId, ev.eventId)));
      return { ok: true, duplicate: true };
    }
    const outcome: Outcome =
      ev.status === 'success'
        ? { status: 'success', carrierRef: ev.carrierRef, amount: ev.amount }
        : { status: 'failed', reason: ev.reason ?? 'Failed at the operator', carrierRef: ev.carrierRef };
    if (ev.kind === 'collect') {
      const [r] = await tx
        .update(recharges)
        .set({ callbackCount: sql`${recharges.callbackCount} + 1` })
        .where(and(eq(recharges.serialNumber, ev.reference), eq(recharges.payType, ev.payType)))
        .returning();
      if (!r) return { ok: false, reason: 'unknown_reference' };
      const res = await settleRecharge(tx, r, outcome, log);
      if (!res.changed && res.ok && r.payStatus !== (ev.status === 'success' ? PAY_STATUS.paid : PAY_STATUS.voided)) {
        log('callback disagrees with a settled recharge', { serial: r.serialNumber, callback: ev.status, payStatus: r.payStatus });
      }
      return { ok: res.ok, reason: res.reason };
    }
    const [w] = await tx
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.serialNumber, ev.reference), eq(withdrawals.payType, ev.payType)));
    if (!w) return { ok: false, reason: 'unknown_reference' };
    const res = await settleWithdrawal(tx, w, outcome, log);
    if (!res.changed && w.status !== WITHDRAWAL_STATUS.disbursing) {
      const agrees = (ev.status === 'success') === (w.status === WITHDRAWAL_STATUS.paid);
      if (!agrees) log('callback disagrees with a settled withdrawal: reconcile by hand', { serial: w.serialNumber, callback: ev.status, status: w.status });
    }
    return { ok: res.ok, reason: res.reason };
  });
}

/** The callback route's work: the operator verifies the signature, then the event is applied. */
export async function receiveCallback(
  db: Db,
  payType: number,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
): Promise<{ status: 200; body: unknown }> {
  const rt = paymentsOf(db);
  const op = isPayType(payType) ? rt.operators.get(payType) : undefined;
  if (!op) throw notFound();
  const ev = await op.verifyCallback(headers, rawBody);
  if (!ev) throw new AppError(401, 'CALLBACK_SIGNATURE_INVALID');
  const answer = await applyCallback(db, ev);
  // Each provider expects its own acknowledgement body; ours is the default.
  return { status: 200, body: ev.ack ? ev.ack(answer) : answer };
}
