/**
 * THE SANDBOX GAME PROVIDER (issue 13): a game server that is NOT part of the operator's product. It stands
 * in for a casino studio or aggregator in demos and tests: its own Fastify instance on its own port
 * (`DAU_CASINO_SANDBOX_PORT`, else the port of its provider's launch URL, else 6019), calling the
 * operator's wallet API over real HTTP with real HMAC signatures, and failing the way real providers fail
 * (./rounds.ts, ./outbox.ts). Started on the leader by main.ts, like the sandbox odds feed.
 *
 * Its routes are the game client's, not the operator's:
 *  - GET  /?token=&game=&lang= (also /launch)  the page a launch URL opens: the game "playing" with the bettor's
 *    balance (HTML; JSON when asked with Accept: application/json).
 *  - POST /play {token, game, rounds?, stake?}  the game client's spin button: plays 1..50 rounds with the
 *    game's configured kind, RTP and volatility (domain playRound) and queues their wallet calls; answers at
 *    once with what was played (the wallet calls follow from the outbox).
 *  - GET  /status  the outbox: calls pending, answered, retried; this process's counters.
 *  - GET  /health
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { CASINO_GAME_KINDS, type CasinoGameKind, type Volatility } from '@dau/domain';
import type { Db } from '../../platform/db.js';
import { providerSecretFor, SANDBOX_PROVIDER_CODE, walletCache } from '../casino/index.js';
import { casinoSandboxOutbox as outbox } from './schema.js';
import { OUTBOX_STATE, SandboxOutbox, WalletClient, isFinal, type WalletAnswer } from './outbox.js';
import { DEFAULT_FAILURE_RATES, cryptoRng, planRound, type FailureRates, type PlannedRound, type SandboxGame } from './rounds.js';

export const SANDBOX_PROVIDER_NAME = 'sandbox game provider';
export { SANDBOX_PROVIDER_CODE };
/** Where the seeded launch URL points (DAU_CASINO_SANDBOX_URL, default http://127.0.0.1:6019). */
export const DEFAULT_SANDBOX_PORT = 6019;

export interface SandboxGameProviderOptions {
  db: Db;
  /** The operator's server (the wallet API's origin), e.g. http://127.0.0.1:6009. */
  walletUrl: string;
  /** Port to listen on (0 = any free port); host default 127.0.0.1. */
  port: number;
  host?: string;
  providerCode?: string;
  /** The HMAC secret; default: the provider's secret as configured (read again every few seconds). */
  secret?: string;
  rates?: FailureRates;
  /** Delay of a late win (ms; default 3000). */
  lateMs?: number;
  /** Retry back-off (ms): first delay (default 500) and cap (default 30 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  callTimeoutMs?: number;
  concurrency?: number;
  rng?: () => number;
  /** Problems (a call refused, a failed read). */
  log?: (msg: string, err?: unknown) => void;
  /** The start line. */
  info?: (msg: string) => void;
}

export interface SandboxGameProvider {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly port: number;
  readonly outbox: SandboxOutbox;
  /** Plays rounds for a session (what POST /play does). */
  play(input: PlayInput): Promise<PlayAnswer>;
  stop(): Promise<void>;
}

export interface PlayInput {
  token: string;
  game: string;
  rounds?: number;
  /** Cents per round; default the game's minimum bet or 500 TSh, within its limits. */
  stake?: number;
}

export interface PlayAnswer {
  status: string;
  balance: number | null;
  rounds: { round: string; stake: number; multiplier: number; payout: number; failure: string }[];
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Reads the sandbox settings from the environment (main.ts). */
export function sandboxProviderEnv(env: NodeJS.ProcessEnv = process.env) {
  const port = env.DAU_CASINO_SANDBOX_PORT ? Number(env.DAU_CASINO_SANDBOX_PORT) : null;
  if (port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new Error('Invalid environment:\n  DAU_CASINO_SANDBOX_PORT: a port number');
  const rate = (name: string, dflt: number) => {
    const v = env[name];
    if (v === undefined || v === '') return dflt;
    const n = Number(v);
    if (!(n >= 0 && n <= 1)) throw new Error(`Invalid environment:\n  ${name}: a rate between 0 and 1`);
    return n;
  };
  const ms = (name: string) => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!(Number.isInteger(n) && n >= 0)) throw new Error(`Invalid environment:\n  ${name}: milliseconds`);
    return n;
  };
  return {
    /** DAU_CASINO_SANDBOX=1 runs it, 0 does not; unset: with the simulator. */
    enabled: env.DAU_CASINO_SANDBOX === undefined || env.DAU_CASINO_SANDBOX === '' ? null : env.DAU_CASINO_SANDBOX === '1',
    port,
    rates: {
      duplicate: rate('DAU_CASINO_SANDBOX_DUPLICATE_RATE', DEFAULT_FAILURE_RATES.duplicate),
      timeout: rate('DAU_CASINO_SANDBOX_TIMEOUT_RATE', DEFAULT_FAILURE_RATES.timeout),
      rollback: rate('DAU_CASINO_SANDBOX_ROLLBACK_RATE', DEFAULT_FAILURE_RATES.rollback),
      lateWin: rate('DAU_CASINO_SANDBOX_LATE_WIN_RATE', DEFAULT_FAILURE_RATES.lateWin),
      outOfOrder: rate('DAU_CASINO_SANDBOX_OUT_OF_ORDER_RATE', DEFAULT_FAILURE_RATES.outOfOrder),
    } satisfies FailureRates,
    lateMs: ms('DAU_CASINO_SANDBOX_LATE_MS'),
    backoffMs: ms('DAU_CASINO_SANDBOX_BACKOFF_MS'),
  };
}

/** The port of the provider's launch URL, if it is one of ours (main.ts: the sandbox listens where its launch URL points). */
export async function launchPortOf(db: Db, code = SANDBOX_PROVIDER_CODE): Promise<number | null> {
  const p = (await walletCache.provider(db, code)).row;
  if (!p?.launchUrl) return null;
  try {
    const u = new URL(p.launchUrl);
    return u.port ? Number(u.port) : null;
  } catch {
    return null;
  }
}

export { pointLaunchUrlAt } from '../casino/index.js';

/** Starts the sandbox game provider: its HTTP server and its outbox of wallet calls. */
export async function startSandboxGameProvider(opts: SandboxGameProviderOptions): Promise<SandboxGameProvider> {
  const { db } = opts;
  const code = opts.providerCode ?? SANDBOX_PROVIDER_CODE;
  const log = (msg: string, err?: unknown) => opts.log?.(msg.startsWith(SANDBOX_PROVIDER_NAME) ? msg : `${SANDBOX_PROVIDER_NAME}: ${msg}`, err);
  const rng = opts.rng ?? cryptoRng;
  const rates = opts.rates ?? DEFAULT_FAILURE_RATES;

  let cachedSecret: { at: number; value: string } | null = null;
  const secret = async () => {
    if (opts.secret !== undefined) return opts.secret;
    if (cachedSecret && Date.now() - cachedSecret.at < 5_000) return cachedSecret.value;
    const value = (await providerSecretFor(db, code)) ?? '';
    cachedSecret = { at: Date.now(), value };
    return value;
  };
  const client = new WalletClient({ walletUrl: opts.walletUrl.replace(/\/$/, ''), providerCode: code, secret, callTimeoutMs: opts.callTimeoutMs });
  const queue = new SandboxOutbox(db, { client, backoffMs: opts.backoffMs, maxBackoffMs: opts.maxBackoffMs, concurrency: opts.concurrency, log });

  /** The balance call, asked directly (it moves nothing): retried a few times, then given up. */
  const balance = async (token: string, game: string): Promise<WalletAnswer | null> => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const r = await client.send('user/balance', JSON.stringify({ request_uuid: crypto.randomUUID(), token, game_code: game }));
      if (r.ok && isFinal(r.answer)) return r.answer;
      await new Promise((res) => setTimeout(res, 200 * 2 ** attempt));
    }
    return null;
  };

  const gameOf = async (gameCode: string): Promise<(SandboxGame & { name: string; minBet: number; maxBet: number }) | null> => {
    const p = (await walletCache.provider(db, code)).row;
    if (!p) return null;
    const g = await walletCache.game(db, p.id, gameCode);
    if (!g || !CASINO_GAME_KINDS.includes(g.kind as CasinoGameKind) || ![1, 2, 3].includes(g.volatility)) return null;
    return { gameCode: g.gameCode, name: g.name, kind: g.kind as CasinoGameKind, rtpBps: g.rtpBps, volatility: g.volatility as Volatility, minBet: g.minBet, maxBet: g.maxBet };
  };

  const play = async (input: PlayInput): Promise<PlayAnswer> => {
    const rounds = Math.max(1, Math.min(50, Math.floor(input.rounds ?? 1)));
    const game = await gameOf(input.game);
    if (!game) return { status: 'UNKNOWN_GAME', balance: null, rounds: [] };
    const b = await balance(input.token, input.game);
    if (!b) return { status: 'WALLET_UNAVAILABLE', balance: null, rounds: [] };
    if (b.status !== 'RS_OK' || typeof b.balance !== 'number' || typeof b.user !== 'string') return { status: b.status, balance: b.balance ?? null, rounds: [] };
    const min = Math.max(1, game.minBet);
    let stake = input.stake ?? Math.max(min, 500_00);
    if (game.maxBet > 0) stake = Math.min(stake, game.maxBet);
    stake = Math.max(stake, min);
    let left = b.balance;
    const played: PlannedRound[] = [];
    for (let i = 0; i < rounds && left >= stake; i++) {
      const round = planRound({ token: input.token, user: b.user, game, stake, rng, rates, lateMs: opts.lateMs ?? 3_000 });
      await queue.add(round);
      played.push(round);
      left -= stake;
    }
    return {
      status: played.length ? 'RS_OK' : 'RS_ERROR_NOT_ENOUGH_MONEY',
      balance: b.balance,
      rounds: played.map((r) => ({ round: r.roundRef, stake: r.stake, multiplier: r.multiplier, payout: r.payout, failure: r.failure })),
    };
  };

  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  app.get('/health', async () => ({ status: 'ok', provider: SANDBOX_PROVIDER_NAME }));
  const launch = async (req: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply: FastifyReply) => {
    const token = String(req.query.token ?? '');
    const gameCode = String(req.query.game ?? '');
    const json = String(req.headers.accept ?? '').includes('application/json');
    const game = await gameOf(gameCode);
    const b = game && token ? await balance(token, gameCode) : null;
    const ok = !!game && b?.status === 'RS_OK';
    const body = {
      provider: SANDBOX_PROVIDER_NAME,
      status: ok ? 'playing' : 'refused',
      game: game ? { code: game.gameCode, name: game.name, kind: game.kind, rtp_bps: game.rtpBps, volatility: game.volatility } : null,
      wallet_status: b?.status ?? null,
      balance: b?.balance ?? null,
      currency: 'TZS',
    };
    reply.status(ok ? 200 : game ? 401 : 404);
    if (json) return body;
    const title = game ? esc(game.name) : 'Unknown game';
    const line = ok
      ? `Playing ${title} (${esc(game!.kind)}, RTP ${(game!.rtpBps / 100).toFixed(2)} %). Balance: TSh ${((b!.balance ?? 0) / 100).toFixed(2)}`
      : `This session cannot play: ${esc(b?.status ?? (game ? 'no wallet answer' : 'unknown game'))}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Dau ${SANDBOX_PROVIDER_NAME}</title></head><body><h1>${title}</h1><p>${line}</p><p><small>Dau ${SANDBOX_PROVIDER_NAME}: not a real casino.</small></p></body></html>`);
  };
  app.get('/', launch);
  app.get('/launch', launch);
  app.post<{ Body: unknown }>('/play', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const intOrUndef = (v: unknown) => (v === undefined ? undefined : typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : NaN);
    const rounds = intOrUndef(b.rounds);
    const stake = intOrUndef(b.stake);
    if (typeof b.token !== 'string' || !b.token || typeof b.game !== 'string' || !b.game || Number.isNaN(rounds) || Number.isNaN(stake)) {
      return reply.status(400).send({ status: 'BAD_REQUEST', message: 'token and game are required; rounds and stake are positive integers' });
    }
    const answer = await play({ token: b.token, game: b.game, rounds, stake });
    return reply.status(answer.status === 'RS_OK' ? 200 : answer.status === 'UNKNOWN_GAME' ? 404 : 409).send(answer);
  });
  app.get('/status', async () => {
    const rows = await db
      .select({ state: outbox.state, n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(and(eq(outbox.providerCode, code)))
      .groupBy(outbox.state);
    const by = (s: number) => rows.find((r) => r.state === s)?.n ?? 0;
    return { provider: SANDBOX_PROVIDER_NAME, pending: by(OUTBOX_STATE.pending), answered: by(OUTBOX_STATE.answered), skipped: by(OUTBOX_STATE.skipped), process: queue.stats };
  });

  const address = await app.listen({ port: opts.port, host: opts.host ?? '127.0.0.1' });
  const port = Number(new URL(address).port);
  queue.start();
  opts.info?.(`${SANDBOX_PROVIDER_NAME}: listening on ${address}, calling the wallet at ${opts.walletUrl} as provider '${code}'`);
  return {
    app,
    url: address,
    port,
    outbox: queue,
    play,
    async stop() {
      await app.close();
      await queue.stop();
    },
  };
}
