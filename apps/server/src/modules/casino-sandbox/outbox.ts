/**
 * THE SANDBOX GAME PROVIDER's retry queue: the wallet calls of its rounds, kept in its own table
 * (casino_sandbox_outbox) so that they outlive a network failure, our downtime and its own restart.
 *
 * - A round's calls are inserted in one transaction before the first is sent.
 * - A call is due when it is pending, its back-off and (late win) its `not_before` have passed, and every
 *   earlier call of its round is answered: a round's calls reach the wallet in the script's order.
 * - A call is sent with a fresh timestamp and signature over the SAME body (same request_uuid and
 *   transaction_uuid) on every attempt. No answer (connection refused or cut, timeout, HTTP 5xx, a body
 *   that is not a wallet answer, RS_ERROR_UNKNOWN, a refusal of our signature or partner) is retried with exponential back-off, forever: the
 *   provider's retries settle every round exactly once, the wallet's idempotency key making the repeat
 *   harmless. Any other answer (RS_OK or a refusal) is final and recorded.
 * - Simulated failures: a call with `drop_answers` gets its answer thrown away (the call did reach the
 *   wallet: a timeout after the fact) and is retried; a call with `duplicates` is sent once more after its
 *   answer, and the second answer, which must equal the first (status, and the balance after it for a
 *   transaction taken), is recorded next to it.
 * - A bet refused for good makes the round's later wins and rollbacks pointless: they are skipped
 *   (state 3); a round/end is still sent so that no round is left open at the wallet.
 *
 * Only one process runs the queue (the leader that runs the sandbox provider). Sending a call twice, from
 * a process that just lost the lead, is what the wallet's idempotency is for.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { casinoSandboxOutbox as outbox } from './schema.js';
import type { PlannedRound, WalletCall } from './rounds.js';

export type OutboxRow = typeof outbox.$inferSelect;

export const OUTBOX_STATE = { pending: 1, answered: 2, skipped: 3 } as const;

export interface WalletAnswer {
  status: string;
  request_uuid?: string;
  user?: string;
  currency?: string;
  balance?: number;
}

export type CallResult = { ok: true; answer: WalletAnswer } | { ok: false; error: string };

export interface WalletClientOptions {
  /** The operator's server, e.g. http://127.0.0.1:6009 (calls go to {walletUrl}/wallet/v1/{provider}/{call}). */
  walletUrl: string;
  providerCode: string;
  /** The HMAC shared secret (read again when a call is refused as badly signed). */
  secret: () => Promise<string>;
  /** Abort a call after this long (ms; default 10 s). */
  callTimeoutMs?: number;
}

/** Signs `${timestamp}.${body}` with HMAC-SHA256 (base64), as the wallet expects (X-Dau-Signature). */
export function signHmac(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('base64');
}

/** The provider's HTTP client: one signed POST, answering the wallet's answer or why there is none. */
export class WalletClient {
  constructor(private opts: WalletClientOptions) {}

  get providerCode() {
    return this.opts.providerCode;
  }

  async send(call: WalletCall, body: string): Promise<CallResult> {
    const secret = await this.opts.secret();
    const ts = Math.floor(Date.now() / 1000);
    const url = new URL(`${this.opts.walletUrl}/wallet/v1/${encodeURIComponent(this.opts.providerCode)}/${call}`);
    // node:http, not fetch: a server-to-server call carries no browser fetch metadata (Sec-Fetch-*),
    // which the wallet refuses as a browser's.
    const reply = await new Promise<{ status: number; text: string } | { error: string }>((resolve) => {
      const req = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method: 'POST',
          agent: url.protocol === 'https:' ? undefined : keepAlive,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-dau-timestamp': String(ts),
            'x-dau-signature': signHmac(secret, ts, body),
          },
          timeout: this.opts.callTimeoutMs ?? 10_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (err) => resolve({ error: `answer cut: ${err.message}` }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (err) => resolve({ error: `no answer: ${err.message}` }));
      req.end(body);
    });
    if ('error' in reply) return { ok: false, error: reply.error };
    const { status, text } = reply;
    if (status !== 200) return { ok: false, error: `HTTP ${status}: ${text.slice(0, 200)}` };
    let answer: WalletAnswer;
    try {
      answer = JSON.parse(text) as WalletAnswer;
    } catch {
      return { ok: false, error: `not JSON: ${text.slice(0, 200)}` };
    }
    if (!answer || typeof answer.status !== 'string') return { ok: false, error: `not a wallet answer: ${text.slice(0, 200)}` };
    return { ok: true, answer };
  }
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 32 });

/**
 * Whether an answer settles the call. Retried instead: "unknown error" (the wallet could not tell), and
 * the refusals of our credentials (bad signature or timestamp, unknown or disabled partner), which are
 * the provider's configuration, not the round's: a call retried after the operator fixed them goes through.
 */
export const RETRIED_STATUSES: readonly string[] = ['RS_ERROR_UNKNOWN', 'RS_ERROR_INVALID_SIGNATURE', 'RS_ERROR_INVALID_PARTNER'];
export const isFinal = (a: WalletAnswer) => !RETRIED_STATUSES.includes(a.status);

export interface OutboxOptions {
  client: WalletClient;
  /** First retry delay (ms; default 500), doubled per attempt up to `maxBackoffMs` (default 30 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Calls in flight at once (default 8). */
  concurrency?: number;
  /** Pause when nothing is due (ms; default 250). */
  idleMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

export class SandboxOutbox {
  private inFlight = new Set<number>();
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** Counters of this process (the table is the truth). */
  readonly stats = { sent: 0, answered: 0, retried: 0, dropped: 0, duplicates: 0, duplicateMismatches: 0 };

  constructor(
    private db: Db,
    private opts: OutboxOptions,
  ) {}

  private get code() {
    return this.opts.client.providerCode;
  }

  /** Writes a round's calls (one transaction: all or none) and wakes the queue. */
  async add(round: PlannedRound): Promise<void> {
    await this.db.insert(outbox).values(
      round.calls.map((c) => ({
        providerCode: this.code,
        roundRef: round.roundRef,
        seq: c.seq,
        call: c.call,
        transactionUuid: c.transactionUuid,
        body: c.body,
        failure: round.failure,
        notBefore: c.notBefore,
        nextAttemptAt: c.notBefore,
        dropAnswers: c.dropAnswers,
        duplicates: c.duplicates,
      })),
    );
    this.kick();
  }

  /** Calls not answered yet (of this provider). */
  async pending(): Promise<number> {
    const [r] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(and(eq(outbox.providerCode, this.code), eq(outbox.state, OUTBOX_STATE.pending)));
    return r?.n ?? 0;
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops taking calls; resolves when the calls in flight are done. */
  async stop() {
    this.running = false;
    this.kick();
    await this.loop;
    this.loop = null;
  }

  kick() {
    const w = this.wake;
    this.wake = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    w?.();
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.wake = null;
        resolve();
      }, ms);
      this.timer.unref();
    });
  }

  /** Forgets settled calls after a week (the book of a long-running demo stays small). */
  private async prune() {
    await this.db
      .delete(outbox)
      .where(and(eq(outbox.providerCode, this.code), sql`${outbox.state} <> ${OUTBOX_STATE.pending}`, lte(outbox.answeredAt, sql`now() - interval '7 days'`)));
  }

  private async run() {
    const concurrency = this.opts.concurrency ?? 8;
    const active = new Set<Promise<void>>();
    let pruned = 0;
    while (this.running) {
      if (Date.now() - pruned > 3_600_000) {
        pruned = Date.now();
        await this.prune().catch((err) => this.opts.log?.('sandbox game provider: pruning the outbox failed', err));
      }
      let due: OutboxRow[] = [];
      try {
        due = await this.due(concurrency * 2);
      } catch (err) {
        this.opts.log?.('sandbox game provider: reading the outbox failed', err);
      }
      for (const row of due) {
        if (!this.running) break;
        if (this.inFlight.has(row.id)) continue;
        while (active.size >= concurrency) await Promise.race(active);
        this.inFlight.add(row.id);
        const p = this.process(row)
          .catch((err) => this.opts.log?.(`sandbox game provider: call ${row.call} of round ${row.roundRef} failed`, err))
          .finally(() => {
            this.inFlight.delete(row.id);
            active.delete(p);
          });
        active.add(p);
      }
      if (!due.length || due.every((r) => this.inFlight.has(r.id))) {
        if (!due.length) await this.sleep(this.opts.idleMs ?? 250);
        else if (active.size) await Promise.race(active);
      }
    }
    await Promise.allSettled([...active]);
  }

  /** Due calls: pending, back-off and not_before passed, every earlier call of the round settled. */
  private async due(limit: number): Promise<OutboxRow[]> {
    const earlier = sql`NOT EXISTS (SELECT 1 FROM casino_sandbox_outbox p WHERE p.provider_code = ${outbox.providerCode}
      AND p.round_ref = ${outbox.roundRef} AND p.seq < ${outbox.seq} AND p.state = ${OUTBOX_STATE.pending})`;
    return this.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.state, OUTBOX_STATE.pending), eq(outbox.providerCode, this.code), lte(outbox.nextAttemptAt, sql`now()`), lte(outbox.notBefore, sql`now()`), earlier))
      .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
      .limit(limit);
  }

  private backoff(attempts: number) {
    const base = this.opts.backoffMs ?? 500;
    const ms = Math.min(this.opts.maxBackoffMs ?? 30_000, base * 2 ** Math.min(attempts, 20));
    return Math.round(ms * (0.75 + Math.random() * 0.5));
  }

  private async retryLater(row: OutboxRow, error: string, dropped: boolean) {
    await this.db
      .update(outbox)
      .set({
        attempts: sql`${outbox.attempts} + 1`,
        ...(dropped ? { dropAnswers: sql`greatest(${outbox.dropAnswers} - 1, 0)` } : {}),
        nextAttemptAt: new Date(Date.now() + this.backoff(row.attempts)),
        lastError: error.slice(0, 500),
      })
      .where(and(eq(outbox.id, row.id), eq(outbox.state, OUTBOX_STATE.pending)));
  }

  private async process(row: OutboxRow) {
    this.stats.sent++;
    const r = await this.opts.client.send(row.call as WalletCall, row.body);
    if (!r.ok || !isFinal(r.answer)) {
      this.stats.retried++;
      await this.retryLater(row, r.ok ? `answer ${r.answer.status}` : r.error, false);
      return;
    }
    if (row.dropAnswers > 0) {
      // The wallet did the call; we act as if its answer never came (a timeout) and ask again.
      this.stats.dropped++;
      await this.retryLater(row, `answer dropped (simulated timeout): ${r.answer.status}`, true);
      return;
    }
    const balance = typeof r.answer.balance === 'number' ? r.answer.balance : null;
    await this.db.transaction(async (tx) => {
      const [done] = await tx
        .update(outbox)
        .set({ state: OUTBOX_STATE.answered, answerStatus: r.answer.status, answerBalance: balance, answeredAt: new Date(), attempts: sql`${outbox.attempts} + 1` })
        .where(and(eq(outbox.id, row.id), eq(outbox.state, OUTBOX_STATE.pending)))
        .returning({ id: outbox.id });
      if (done && row.call === 'transaction/bet' && r.answer.status !== 'RS_OK') {
        // A bet refused for good: its wins and rollbacks have nothing to pay or undo.
        await tx
          .update(outbox)
          .set({ state: OUTBOX_STATE.skipped, answerStatus: 'SKIPPED', answeredAt: new Date() })
          .where(
            and(
              eq(outbox.providerCode, row.providerCode),
              eq(outbox.roundRef, row.roundRef),
              gt(outbox.seq, row.seq),
              eq(outbox.state, OUTBOX_STATE.pending),
              inArray(outbox.call, ['transaction/win', 'transaction/rollback']),
            ),
          );
      }
    });
    this.stats.answered++;
    if (r.answer.status !== 'RS_OK') this.opts.log?.(`sandbox game provider: ${row.call} of round ${row.roundRef} answered ${r.answer.status}`);
    if (row.duplicates > 0) await this.duplicate(row, r.answer.status, balance);
    this.kick(); // the round's next call may be due now
  }

  /** Sends an answered call again; its answer must be the first one. */
  private async duplicate(row: OutboxRow, status: string, balance: number | null) {
    const again = await this.opts.client.send(row.call as WalletCall, row.body);
    if (!again.ok) return; // a duplicate that got lost is no duplicate
    this.stats.duplicates++;
    const b2 = typeof again.answer.balance === 'number' ? again.answer.balance : null;
    // A transaction taken answers its stored answer (status and the balance after it); a round/end or a
    // refusal moved nothing and answers the same status with the balance of now.
    const stored = row.transactionUuid !== null && status === 'RS_OK';
    if (again.answer.status !== status || (stored && b2 !== balance)) {
      this.stats.duplicateMismatches++;
      this.opts.log?.(`sandbox game provider: the duplicate of ${row.call} ${row.transactionUuid ?? row.roundRef} answered ${again.answer.status}/${b2}, the first ${status}/${balance}`);
    }
    await this.db.update(outbox).set({ duplicates: 0, duplicateStatus: again.answer.status, duplicateBalance: b2 }).where(eq(outbox.id, row.id));
  }
}
