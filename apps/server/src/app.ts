import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Database } from './platform/db.js';
import { installAccessControl, type DeclaredRoute } from './platform/access.js';
import { installAuditTrail, LogTypeSwitch } from './platform/audit.js';
import { answerSerializer, frameworkErrors, installErrorHandler, redactQuery } from './platform/http.js';
import { IpBlocklist } from './platform/ipblock.js';
import { SocketHub } from './platform/socket.js';
import { Jobs } from './platform/jobs.js';
import { installMetrics } from './platform/metrics.js';
import { documentTransform, documentTransformObject } from './platform/openapi.js';
import type { AppContext } from './platform/context.js';
import { authRoutes } from './modules/auth/routes.js';
import { revokedSessionSocketChannel } from './modules/auth/sessions.js';
import { noticeRoutes } from './modules/notices/routes.js';
import { noticeSocketChannel } from './modules/notices/service.js';
import { adminRoutes } from './modules/system/admins-routes.js';
import { roleRoutes } from './modules/system/roles-routes.js';
import { dutiesRoutes, installDutyRings } from './modules/system/duties-routes.js';
import { systemResources } from './modules/system/resources.js';
import { ServerLogLevels } from './modules/system/index.js';
import { sportsResources } from './modules/sports/resources.js';
import { publicRoutes } from './modules/system/public-routes.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { sandboxPaymentRoutes } from './modules/payments/sandbox-routes.js';
import { statementRoutes } from './modules/payments/index.js';
import { bettingSandboxRoutes } from './modules/betting/sandbox-routes.js';
import { feedSandboxRoutes } from './modules/feed/sandbox-routes.js';
import { exportRoutes } from './modules/exports/routes.js';
import { preferenceRoutes } from './modules/system/preferences-routes.js';
import { savedFilterRoutes } from './modules/system/saved-filters-routes.js';
import { bettorRoutes } from './modules/money/bettors-routes.js';
import { billRoutes } from './modules/money/bills-routes.js';
import { FeedEngine, type FeedLogEntry, type MarginFn } from './modules/feed/engine.js';
import { PgFeedStore } from './modules/feed/pg-store.js';
import { loadStoredMarketDescriptions } from './modules/feed/uof/client.js';
import { feedRoutes } from './modules/feed/routes.js';
import { FeedLivePush } from './modules/feed/live-push.js';
import { MarginBook } from './modules/feed/margins.js';
import { BettingFeedHook } from './modules/betting/feed-hook.js';
import { defineRemindJob } from './modules/betting/remind.js';
import { bettingRoutes } from './modules/betting/routes.js';
import { feedControls } from './modules/feed/controls.js';
import { defineMatchArchive } from './modules/feed/archive.js';
import { changeTotals, ordersWaitingOn, voidEventOrders, withPreview } from './modules/betting/settlement.js';
import { statisticsRoutes } from './modules/statistics/routes.js';
import { issuesWaitingOn, jackpotRoutes } from './modules/jackpot/index.js';
import { tronRoutes } from './modules/tron/index.js';
import type { TronOptions } from './modules/tron/runtime.js';
import { casinoRoutes } from './modules/casino/index.js';
import { promotionsRoutes } from './modules/promotions/index.js';
import { racingRoutes } from './modules/racing/index.js';
import { pushRoutes } from './modules/push/index.js';
import { telegramRoutes } from './modules/telegram/index.js';
import { filesRoutes } from './modules/files/index.js';
import { contentRoutes } from './modules/content/index.js';
import { smsRoutes } from './modules/sms/index.js';
import { operationsRoutes } from './modules/operations/index.js';
import { messagingRoutes } from './modules/messaging/index.js';
import { shopRoutes } from './modules/shop/index.js';
import { visitorRoutes } from './modules/visitors/index.js';
import { searchRoutes } from './modules/search/index.js';
import { reportsRoutes } from './modules/reports/index.js';

export interface BuildOptions {
  database: Database;
  /** The built console to serve at /, when present. */
  webDist?: string;
  /** Pino options (a stream for tests); requests are logged with their secret query values masked. */
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream };
  trustProxy?: boolean;
  /** Where the server writes files (exports); without it, a temporary folder removed when the app closes. */
  dataDir?: string;
  /** Registers the sandbox-only bettor requests (DAU_SANDBOX_ROUTES=1): never in production. */
  sandboxRoutes?: boolean;
  /** Margin (basis points) the feed engine applies to provider prices; default none. */
  feedMargin?: MarginFn;
  /** Radar errors of the feed (log types 13 and 14). */
  onFeedLog?: (entry: FeedLogEntry) => void;
  /** The OpenAPI document at /api/docs/json for anyone (DAU_PUBLIC_DOCS=1); by default for signed-in admins only. */
  publicDocs?: boolean;
  /**
   * Offer the periodic jobs (sweeps, cashout checks, abnormal bet alerts): the serving process does
   * (main.ts); a test app only runs the jobs it is sent.
   */
  periodicJobs?: boolean;
  /** TRON (issue 14): the full node the TronWeb client talks to and the wallets' key wrapper (main.ts). */
  tron?: TronOptions;
}

export interface DauApp {
  app: FastifyInstance;
  /** Every route with its declared access (the permission matrix is built from it). */
  routes: DeclaredRoute[];
  ctx: AppContext;
  sockets: SocketHub;
  /** The odds feed engine on the app database: providers (the sandbox in `npm start`) feed it with `ingest`. */
  feed: FeedEngine;
  /** The betting engine's follow-up of feed messages (`drain()` waits for queued settlements). */
  betting: BettingFeedHook;
}

/**
 * Content-Security-Policy of the console and the API (checked screen by screen in Chromium, e2e/csp.test.ts):
 * scripts and connections (fetch and the same-origin socket, ws:/wss: included by CSP 3 'self') only
 * from this origin; antd and ECharts write inline styles; images may be data: (QR codes), blob: and https:
 * (logos and pictures are operator-given URLs); no plugins, no framing by anyone.
 */
const CONSOLE_CSP =
  "default-src 'self'; base-uri 'self'; connect-src 'self'; font-src 'self' data:; form-action 'self'; frame-ancestors 'none'; " +
  "img-src 'self' data: blob: https:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'";

/**
 * Security headers on every answer (@fastify/helmet): the CSP above, nosniff, Referrer-Policy no-referrer,
 * X-Frame-Options DENY, and HSTS only on requests that came over https (directly, or per the proxy's
 * X-Forwarded-Proto with DAU_TRUST_PROXY=1): a plain-http LAN install is not told to switch to https.
 */
async function installSecurityHeaders(app: FastifyInstance) {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: parseCsp(CONSOLE_CSP) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: false,
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}

function parseCsp(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
      const [name, ...values] = d.split(/\s+/);
      return [name!, values];
    }),
  );
}

/**
 * /api/docs: the Swagger UI page and its files are public (nothing of ours in them); the document itself
 * (/api/docs/json and /yaml) needs a signed-in admin unless DAU_PUBLIC_DOCS=1. The page sends the
 * console's token (same origin, localStorage "token"), so a signed-in admin opening /api/docs reads it.
 */
function declareDocsAccess(app: FastifyInstance, publicDocs: boolean) {
  app.addHook('onRoute', (route) => {
    if (route.url !== '/api/docs' && !route.url.startsWith('/api/docs/')) return;
    const isDocument = /^\/api\/docs\/(json|yaml)$/.test(route.url);
    const access = isDocument && !publicDocs ? { signedIn: true as const } : { public: true as const };
    route.config = { ...(route.config ?? {}), access } as typeof route.config;
  });
}

/** Swagger UI's request interceptor, written out as browser code (the plugin serialises it with toString). */
const consoleTokenInterceptor = Object.assign(<T>(req: T): T => req, {
  toString: () =>
    "function (req) { try { var t = window.localStorage.getItem('token'); if (t && !req.headers.Authorization) req.headers.Authorization = 'Bearer ' + t; } catch (e) {} return req; }",
});

/** A request as the log writes it: tokens in the query (the SMS gateway's callbacks carry one) are never written. */
function requestForLog(req: { method: string; url: string; ip?: string; id?: string }) {
  return { id: req.id, method: req.method, url: redactQuery(req.url), remoteAddress: req.ip };
}

/** Builds the whole server (tests drive it with `app.inject`, `main.ts` listens). */
export async function buildApp(opts: BuildOptions): Promise<DauApp> {
  const app = Fastify({
    logger: opts.logger ? { ...(typeof opts.logger === 'object' ? opts.logger : {}), serializers: { req: requestForLog } } : false,
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    // A malformed URL or a too long path parameter answers our { code, message } shape.
    frameworkErrors,
    genReqId: () => Math.random().toString(36).slice(2, 10),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer);

  const { db, bus, kind } = opts.database;
  const ipBlock = new IpBlocklist(db);
  const logTypeSwitch = new LogTypeSwitch(db);
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dau-data-'));
  if (!opts.dataDir) app.addHook('onClose', async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  // The levels of the server's loggers as System › Server log settings says, in every process (modules/system/log-levels.ts).
  const logLevels = await new ServerLogLevels(db, app.log, bus).start();
  app.addHook('onClose', async () => logLevels.stop());
  const logs = { of: (name: string) => logLevels.of(name), reload: () => logLevels.changed() };
  const jobs = new Jobs(opts.database, { log: (msg, err) => logs.of('jobs').error({ err }, msg), periodic: opts.periodicJobs ?? false });
  const ctx: AppContext = { db, bus, prepared: opts.database.prepared, databaseKind: kind, ipBlock, logTypeSwitch, dataDir, jobs, logs };

  app.decorate('logTypeSwitch', logTypeSwitch);
  installErrorHandler(app);
  ipBlock.install(app);
  await installSecurityHeaders(app);
  // Answers above 2 KB compressed for a browser that accepts it (brotli at a light level, else gzip): the
  // console's lists and /auth/me. The console's own files come compressed from the build instead.
  await app.register(fastifyCompress, { global: true, threshold: 2048, encodings: ['br', 'gzip'] });
  declareDocsAccess(app, !!opts.publicDocs);
  const routes = installAccessControl(app, db, { bus });
  installAuditTrail(app, db);
  // Settings of the whole product: the whole book's, some two people's (declared beside each route's access).
  installDutyRings(app, ctx);
  installMetrics(app, { database: opts.database, sockets: () => sockets.size });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Dau back office API', version: '1.0.0', description: 'Sportsbook, casino and shop back office.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    // Named schemas as components, operation ids, error answers (platform/openapi.ts).
    transform: documentTransform,
    transformObject: documentTransformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    // The document request carries the console's token (see declareDocsAccess).
    uiConfig: { requestInterceptor: consoleTokenInterceptor },
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });

  const feedStore = new PgFeedStore(db);
  const livePush = new FeedLivePush(ctx);
  app.addHook('onClose', async () => livePush.stop());
  // Prices carry the operator's margins (price_margins) unless the caller fixes one (tests, benches).
  let margin = opts.feedMargin;
  if (!margin) {
    const book = await new MarginBook(db, 0, bus).start();
    app.addHook('onClose', async () => book.stop());
    ctx.margins = { reload: () => book.changed() };
    margin = book.margin;
  }
  // Settlement, cancel and rollback messages settle the orders on the event; odds changes fire auto cashouts.
  const betting = new BettingFeedHook(ctx, (fn) => feedStore.withTx(fn), { concurrency: kind === 'pg' ? 4 : 1, log: (msg, err) => app.log.error({ err }, msg) });
  app.addHook('onClose', async () => betting.stop());
  defineRemindJob(ctx);
  // Matches over and past the retention move to the archive, unless an order or a jackpot issue still waits on them.
  defineMatchArchive(ctx, [ordersWaitingOn, issuesWaitingOn]);
  // The feed's market names (its descriptions, stored by the UOF client) in this process too.
  await loadStoredMarketDescriptions(db).catch(() => 0);
  const feed = new FeedEngine(feedStore, {
    margin,
    onLog: opts.onFeedLog,
    onApplying: betting.onApplying,
    onApplied: (msg) => {
      livePush.onApplied(msg);
      betting.onApplied(msg);
    },
  });
  // The modules' bus channels that reach the console's sockets.
  const sockets = new SocketHub(ctx, [noticeSocketChannel, revokedSessionSocketChannel]);
  await app.register(async (scoped) => {
    publicRoutes(scoped, ctx);
    authRoutes(scoped, ctx);
    noticeRoutes(scoped, ctx);
    adminRoutes(scoped, ctx);
    roleRoutes(scoped, ctx);
    dutiesRoutes(scoped, ctx);
    systemResources(scoped, ctx);
    sportsResources(scoped, ctx);
    paymentRoutes(scoped, ctx);
    statementRoutes(scoped, ctx);
    if (opts.sandboxRoutes) sandboxPaymentRoutes(scoped, ctx);
    exportRoutes(scoped, ctx);
    preferenceRoutes(scoped, ctx);
    savedFilterRoutes(scoped, ctx);
    bettorRoutes(scoped, ctx);
    billRoutes(scoped, ctx);
    feedRoutes(scoped, ctx, feed, feedStore);
    feedControls(scoped, ctx, feed, feedStore, {
      voidOrders: async (tx, eventId, adminId, reason) => changeTotals(await voidEventOrders(tx, eventId, { kind: 'cancelled', source: 'operator', adminId, reason })),
      preview: async (eventId, adminId, reason) =>
        changeTotals(await withPreview(db, true, (tx) => voidEventOrders(tx, eventId, { kind: 'cancelled', source: 'operator', adminId, reason }))),
    });
    bettingRoutes(scoped, ctx);
    await jackpotRoutes(scoped, ctx);
    await tronRoutes(scoped, ctx, { ...opts.tron, sandboxRoutes: opts.sandboxRoutes });
    await casinoRoutes(scoped, ctx, { sandboxRoutes: opts.sandboxRoutes });
    await promotionsRoutes(scoped, ctx);
    racingRoutes(scoped, ctx, { sandboxRoutes: opts.sandboxRoutes });
    pushRoutes(scoped, ctx, { sandboxRoutes: opts.sandboxRoutes });
    telegramRoutes(scoped, ctx);
    await filesRoutes(scoped, ctx);
    contentRoutes(scoped, ctx);
    smsRoutes(scoped, ctx);
    messagingRoutes(scoped, ctx, { sandboxRoutes: opts.sandboxRoutes });
    shopRoutes(scoped, ctx);
    visitorRoutes(scoped, ctx);
    searchRoutes(scoped, ctx);
    reportsRoutes(scoped, ctx);
    if (opts.sandboxRoutes) feedSandboxRoutes(scoped, feed);
    if (opts.sandboxRoutes) bettingSandboxRoutes(scoped, ctx, feed);
    statisticsRoutes(scoped, ctx);
    operationsRoutes(scoped, ctx, opts.database);
    sockets.install(scoped);
  });

  // Every module has declared its jobs: the workers start now and stop when the app closes.
  await jobs.start();
  app.addHook('onClose', async () => jobs.stop());

  const dist = opts.webDist;
  if (dist && fs.existsSync(path.join(dist, 'index.html'))) {
    // The console's files: a hashed asset never changes (a year, immutable), index.html is asked again each
    // time (a new build is seen at once); our own cache-control (the plugin's default would override it with
    // max-age=0), and the build's brotli or gzip copy when the browser accepts it (vite.config.ts).
    await app.register(fastifyStatic, { root: dist, serve: false, cacheControl: false, preCompressed: true });
    app.get('/*', { config: { access: { public: true } }, schema: { hide: true } }, (req, reply) => {
      const rel = decodeURIComponent((req.params as { '*': string })['*'] ?? '');
      const file = path.normalize(rel).replace(/^(\.\.(\/|\\|$))+/, '');
      if (file && fs.existsSync(path.join(dist, file)) && fs.statSync(path.join(dist, file)).isFile()) {
        const immutable = file.startsWith('assets/');
        return reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache').header('vary', 'accept-encoding').sendFile(file);
      }
      if (rel.startsWith('api/')) return reply.status(404).send({ code: 'NOT_FOUND', message: 'Not found' });
      return reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').sendFile('index.html');
    });
  }

  return { app, routes, ctx, sockets, feed, betting };
}
