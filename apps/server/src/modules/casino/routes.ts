/**
 * The casino's hand-written routes (issue 13):
 *  - the wallet API that game providers call: POST /wallet/v1/:provider/<call>, outside /api/v1, public
 *    to the admin access layer but authenticated per provider (signature, timestamp window, IP allow-list)
 *    and refusing any admin credential or browser request; HTTP 200 for every business answer, 400 only
 *    for a body that is not JSON (./wallet.ts does the calls);
 *  - POST /api/v1/casino/sessions: a game session (launch URL) for a bettor of the admin's branch;
 *  - GET /api/v1/casino/rounds (casino_order, with background exports) and /casino/rounds/:id (every
 *    wallet transaction of the round with its bill).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, eq, sql } from 'drizzle-orm';
import {
  CASINO_CURRENCY, CASINO_SIGNATURE_HEADER, CASINO_TIMESTAMP_HEADER, CASINO_WALLET_CALLS, casinoRoundDetail, casinoRoundFilters, casinoRoundParams,
  casinoRoundRow, casinoSessionAnswer, casinoSessionBody, casinoWalletAnswer, casinoWalletBodies, type CasinoWalletAnswer, type CasinoWalletCall,
} from '@dau/contract';
import { LOG_TYPE } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { walletCalls } from '../../platform/metrics.js';
import { AppError, notFound } from '../../platform/errors.js';
import { defineList, registerList, scopeCondition, scopeOf, withinDates, type Scope } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { bettors, bills, ofBettor } from '../money/index.js';
import { casinoGames, casinoProviders, casinoRounds, casinoTransactions } from './schema.js';
import { openSession, walletCache } from './service.js';
import { ipAllowed, timestampInWindow, verifySignature } from './signature.js';
import { HotBatcher, MAX_BATCH, walletBatchesInFlight } from './hot-batch.js';
import { walletCall } from './wallet.js';

/** A wallet body is small: a provider's call is well under 1 KB. */
export const WALLET_BODY_LIMIT = 16 * 1024;

// ---------------------------------------------------------------------------------------------- wallet

export async function walletRoutes(app: FastifyInstance, ctx: AppContext) {
  // One group-commit batcher per app (per database pool): bets and wins that arrive together share a commit.
  const hot = new HotBatcher(ctx.prepared, (msg, err) => app.log.error({ err }, msg), { maxBatch: MAX_BATCH, maxInFlight: walletBatchesInFlight() });
  await app.register(async (w) => {
    // The signature covers the exact bytes: the body is read as text and parsed here.
    w.removeAllContentTypeParsers();
    w.addContentTypeParser('*', { parseAs: 'string', bodyLimit: WALLET_BODY_LIMIT }, (_req, body, done) => done(null, body));
    const r = w.withTypeProvider<ZodTypeProvider>();
    for (const call of CASINO_WALLET_CALLS) {
      r.post(
        `/wallet/v1/:provider/${call}`,
        {
          bodyLimit: WALLET_BODY_LIMIT,
          // A provider's server reads these answers, never a browser (browsers are refused below): the
          // browser security headers are left out, a few percent of the wallet's CPU per call.
          helmet: false,
          // ownErrors: its refusals are the wallet protocol's (200 with a status; 400 RS_ERROR_WRONG_SYNTAX), not ApiError.
          config: { access: { public: true }, ownErrors: true },
          // The shapes document the call; the handler reads the raw body itself (invalid fields answer RS_ERROR_WRONG_SYNTAX).
          attachValidation: true,
          validatorCompiler: () => () => true,
          schema: {
            tags: ['casino wallet'],
            summary: `Wallet API for game providers: ${call} (signed with ${CASINO_TIMESTAMP_HEADER} and ${CASINO_SIGNATURE_HEADER})`,
            params: z.object({ provider: z.string().max(64) }),
            body: casinoWalletBodies[call],
            // A body that is not JSON answers 400 with RS_ERROR_WRONG_SYNTAX in the same shape (undeclared: the
            // platform's own 4xx answers, e.g. a malformed URL, keep their { code, message } shape).
            response: { 200: casinoWalletAnswer },
          },
        },
        (req, reply) => handleWallet(ctx, hot, call, req, reply),
      );
    }
  });
}

const partnerRefusal = (status: CasinoWalletAnswer['status'], body?: Record<string, unknown>): CasinoWalletAnswer => ({
  status,
  request_uuid: typeof body?.request_uuid === 'string' ? body.request_uuid : null,
  user: typeof body?.user === 'string' ? body.user : null,
  currency: CASINO_CURRENCY,
  balance: 0,
});

async function handleWallet(ctx: AppContext, hot: HotBatcher, call: CasinoWalletCall, req: FastifyRequest, reply: FastifyReply): Promise<CasinoWalletAnswer> {
  const raw = typeof req.body === 'string' ? req.body : '';
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  // Never to browsers, never with an admin's credentials: an admin token, a cookie, or what only a browser
  // sends (Sec-Fetch-Site, Origin). Not Sec-Fetch-Mode: Node's own fetch sends it, and providers use it.
  if (req.headers.authorization !== undefined || req.headers.cookie !== undefined || req.headers['sec-fetch-site'] !== undefined || req.headers.origin !== undefined) {
    return partnerRefusal('RS_ERROR_INVALID_PARTNER', body);
  }
  const code = (req.params as { provider: string }).provider;
  if (typeof code !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(code)) return partnerRefusal('RS_ERROR_INVALID_PARTNER', body);
  const { row: provider, secret } = await walletCache.provider(ctx.db, code);
  if (!provider || !provider.enabled || !ipAllowed(provider.allowedIps, req.ip)) return partnerRefusal('RS_ERROR_INVALID_PARTNER', body);
  const ts = req.headers[CASINO_TIMESTAMP_HEADER];
  const sig = req.headers[CASINO_SIGNATURE_HEADER];
  const timestamp = typeof ts === 'string' ? ts : undefined;
  if (timestampInWindow(timestamp, Date.now()) === null || !verifySignature({ authKind: provider.authKind, publicKey: provider.publicKey, secret }, timestamp!, raw, typeof sig === 'string' ? sig : undefined)) {
    return partnerRefusal('RS_ERROR_INVALID_SIGNATURE', body);
  }
  if (!body) {
    reply.status(400);
    return partnerRefusal('RS_ERROR_WRONG_SYNTAX');
  }
  const parsed = casinoWalletBodies[call].safeParse(body);
  if (!parsed.success) return partnerRefusal('RS_ERROR_WRONG_SYNTAX', body);
  try {
    const answer = await walletCall({ db: ctx.db, hot, cache: walletCache, provider }, call, parsed.data as Record<string, unknown>);
    // An authenticated provider's call is recorded where it belongs (casino_transactions, with its bill), not
    // in the admins' audit trail: one more commit per wallet call would halve the wallet's throughput. Calls
    // refused before this point (partner, signature, syntax) still fall to the audit safety net.
    req.audited = true;
    walletCalls.inc({ call, status: answer.status });
    return answer;
  } catch (err) {
    // Nothing was committed (every call is one transaction): the provider retries.
    req.log.error({ err }, `casino wallet ${call} failed`);
    return partnerRefusal('RS_ERROR_UNKNOWN', body);
  }
}

// -------------------------------------------------------------------------------------------- sessions

export function sessionRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v1/casino/sessions',
    {
      config: { access: { page: 'casino_list' } },
      schema: { tags: ['casino_list'], summary: 'Open a game session for a bettor of my branch: its launch URL', body: casinoSessionBody, response: { 201: casinoSessionAnswer } },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const { db } = ctx;
      const scope = await scopeOf(db, auth);
      const [b] = await db.select({ agentId: bettors.agentId }).from(bettors).where(eq(bettors.id, req.body.bettor_id));
      if (!b) throw notFound();
      if (!agentInScope(scope, b.agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
      const s = await db.transaction(async (tx) => {
        const opened = await openSession(tx, req.body.bettor_id, req.body.game_id, { lang: req.body.lang });
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Opened casino game session: bettor #${req.body.bettor_id}, game #${req.body.game_id}` });
        return opened;
      });
      return reply.status(201).send({ token: s.token, launch_url: s.launchUrl, expires_at: s.expiresAt.toISOString(), currency: s.currency });
    },
  );
}

// ---------------------------------------------------------------------------------------------- rounds

type RoundFilters = z.infer<typeof casinoRoundFilters>;

const selectRounds = (ex: Executor) =>
  ex
    .select({ round: casinoRounds, provider: casinoProviders.name, game: casinoGames.name, phone: bettors.phone, userName: bettors.name })
    .from(casinoRounds)
    .leftJoin(casinoProviders, eq(casinoProviders.id, casinoRounds.providerId))
    .leftJoin(casinoGames, eq(casinoGames.id, casinoRounds.gameId))
    .leftJoin(bettors, eq(bettors.id, casinoRounds.bettorId));

type RoundSelect = { round: typeof casinoRounds.$inferSelect; provider: string | null; game: string | null; phone: string | null; userName: string | null };

export const toRoundRow = (r: RoundSelect) => ({
  id: r.round.id, round_ref: r.round.roundRef, provider_id: r.round.providerId, provider: r.provider, game_id: r.round.gameId, game_name: r.game,
  bettor_id: r.round.bettorId, phone: r.phone, user_name: r.userName, bet_total: r.round.betTotal, win_total: r.round.winTotal,
  net: r.round.winTotal - r.round.betTotal, status: r.round.status, create_time: r.round.createdAt.toISOString(),
  update_time: r.round.updatedAt.toISOString(), end_time: r.round.endedAt?.toISOString() ?? null,
});

const roundWhere = (q: RoundFilters, scope: Scope) =>
  and(
    scopeCondition(scope, casinoRounds.agentId),
    q.round_ref ? eq(casinoRounds.roundRef, q.round_ref) : undefined,
    q.provider_id ? eq(casinoRounds.providerId, q.provider_id) : undefined,
    q.game_id ? eq(casinoRounds.gameId, q.game_id) : undefined,
    ofBettor(casinoRounds.bettorId, q),
    q.status ? eq(casinoRounds.status, q.status) : undefined,
    withinDates(casinoRounds.createdAt, q.created_at_from, q.created_at_to),
  );

export const ROUND_LIST = defineList({
  name: 'casino_order', page: 'casino_order', path: '/api/v1/casino/rounds', filters: casinoRoundFilters, where: roundWhere, select: selectRounds,
  idColumn: casinoRounds.id, summary: 'List casino rounds of my branch, filtered, sorted and paged',
  sortable: { id: casinoRounds.id, create_time: casinoRounds.createdAt, bet_total: casinoRounds.betTotal, win_total: casinoRounds.winTotal },
  defaultSort: '-id', countFrom: (ex: Executor) => ex.select({ id: casinoRounds.id }).from(casinoRounds), toRow: toRoundRow, row: casinoRoundRow,

  columns: [
    { key: 'id' }, { key: 'round_ref' }, { key: 'provider' }, { key: 'game_name' }, { key: 'phone' }, { key: 'user_name' }, { key: 'bet_total', money: true },
    { key: 'win_total', money: true }, { key: 'net', money: true }, { key: 'status', enum: 'casino_round_status' }, { key: 'create_time' }, { key: 'end_time' },
  ],
});

export function roundRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  registerList(app, db, ROUND_LIST);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/casino/rounds/:id',
    {
      config: { access: { page: 'casino_order_details' } },
      schema: { tags: ['casino_order_details'], summary: 'A casino round of my branch with every wallet transaction and its bill', params: casinoRoundParams, response: { 200: casinoRoundDetail } },
    },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      const [row] = await selectRounds(db).where(and(eq(casinoRounds.id, req.params.id), scopeCondition(scope, casinoRounds.agentId)));
      if (!row) throw notFound();
      const txns = await db
        .select({ t: casinoTransactions, serial: sql<string | null>`(select ${bills.serialNumber} from ${bills} where ${bills.id} = ${casinoTransactions.billId} limit 1)` })
        .from(casinoTransactions)
        .where(eq(casinoTransactions.roundId, req.params.id))
        .orderBy(casinoTransactions.id);
      return {
        round: toRoundRow(row as RoundSelect),
        transactions: txns.map(({ t, serial }) => ({
          id: t.id, transaction_uuid: t.transactionUuid, kind: t.kind, amount: t.amount, reference_uuid: t.referenceUuid, status: t.status,
          balance_after: t.balanceAfter, bill_id: t.billId, bill_serial: serial, tombstone: t.tombstone, create_time: t.createdAt.toISOString(),
        })),
      };
    },
  );
}
