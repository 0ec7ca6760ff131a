import { loadConfig } from './platform/config.js';
import { openDatabase } from './platform/db.js';
import { seed } from './seed.js';
import { buildApp } from './app.js';
import { seedDemoMoney } from './simulator/demo-money.js';
import { startSimulator } from './simulator/index.js';
import { simulatePayments } from './modules/payments/simulate.js';
import { paymentsOf } from './modules/payments/index.js';
import { simulateMessaging } from './simulator/messaging.js';
import { simulatePush } from './simulator/push.js';
import { startSandboxFeed, type SandboxFeed } from './modules/feed/sandbox-feed.js';
import { startAccountFeed } from './modules/feed/uof/account.js';
import type { UofClient } from './modules/feed/uof/client.js';
import { leadership, startupLock } from './platform/leader.js';
import { serveMetricsPort } from './platform/metrics.js';
import { masterKeyFromConfig, setKeyWrapper } from './modules/tron/keys.js';
import { sandboxNodeUrl } from './modules/tron/client.js';
import { SandboxTronNode } from './modules/tron/sandbox-node.js';
import { fundHouseWalletsInSandbox } from './modules/tron/seed.js';
import { runSandboxGameProvider } from './modules/casino-sandbox/index.js';
import { runSmsSandbox } from './modules/sms/index.js';
import { runSandboxFcm } from './modules/push/index.js';
import { runTelegram } from './modules/telegram/index.js';

const t0 = Date.now();
const config = loadConfig();
// The TRON wallets' master key: DAU_MASTER_KEY, or the embedded demo's data-folder key; production on
// PostgreSQL without DAU_MASTER_KEY stops here (modules/tron/keys.ts).
let keyWrapper;
try {
  keyWrapper = masterKeyFromConfig({
    masterKey: config.tron.masterKey, databaseKind: config.databaseUrl ? 'pg' : 'pglite', nodeEnv: config.nodeEnv, dataDir: config.dataDir,
    log: (message) => console.warn(message),
  });
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
setKeyWrapper(keyWrapper);
const database = await openDatabase(config);
// Several processes may start together on one PostgreSQL: one at a time migrates and seeds.
const seeded = await startupLock(database, async () => {
  await database.migrate();
  const result = await seed(database.db, { adminPassword: config.adminPassword, demo: config.demo });
  if (result.adminCreated && config.demo) {
    await seedDemoMoney(database.db);
    // PGlite keeps no automatic statistics: plan the demo tables from real numbers.
    await database.exec('ANALYZE');
  }
  return result;
});
if (config.setupOnly) {
  await database.close();
  console.log(`migrated and seeded in ${Date.now() - t0} ms; DAU_SETUP_ONLY=1: not serving`);
  process.exit(0);
}
const { app, ctx, feed } = await buildApp({
  database,
  webDist: config.webDist,
  logger: { level: config.logLevel },
  trustProxy: config.trustProxy,
  publicDocs: config.publicDocs,
  sandboxRoutes: config.sandboxRoutes,
  dataDir: config.dataDir,
  onFeedLog: (e) => ctx.logs!.of('feed').warn({ feed: e }, 'odds feed error'),
  // Sweeps, cashout checks and abnormal bet alerts: offered by every process, run once among them.
  periodicJobs: true,
  tron: { fullNodeUrl: config.tron.fullNodeUrl ?? sandboxNodeUrl(config.tron.sandboxPort), apiKey: config.tron.apiKey, keyWrapper },
});

// Without TRON_FULL_NODE_URL the product talks to the SANDBOX TRON node: the leader serves it on
// TRON_SANDBOX_PORT (a block every 3 s) and funds the house wallets once.
let tronNode: SandboxTronNode | null = null;
const tronSandbox = config.tron.fullNodeUrl
  ? null
  : leadership(database, 'tron-sandbox', {
      onLead: async () => {
        const node = new SandboxTronNode(database.db, { log: (msg, err) => app.log.warn({ err }, msg) });
        await node.listen(config.tron.sandboxPort, { autoMine: true });
        tronNode = node;
        app.log.info(`this process runs the sandbox TRON node on ${node.url}`);
        await fundHouseWalletsInSandbox(database.db, node).catch((err) => app.log.warn({ err }, 'sandbox TRON node: funding the house wallets failed'));
      },
      onLose: async () => {
        await tronNode?.close();
        tronNode = null;
      },
      log: (msg, err) => app.log.warn({ err }, msg),
    });

// The odds feed (Sportradar's Unified Odds Feed) is consumed by one process at a time, a leader: a Betradar
// account when UOF_ACCESS_TOKEN is set (its own leader, `odds-feed`); else, with the simulator, the SANDBOX
// UOF fed by the simulated provider (in-process, or over the broker at UOF_AMQP_URL with its API on
// UOF_SANDBOX_API_PORT), on the simulator's leader. When the leader dies another process takes over within seconds.
const feedLog = (msg: string, err?: unknown) => ctx.logs!.of('feed').warn({ err }, msg);
const feedInfo = (msg: string) => ctx.logs!.of('feed').info(msg);
let sandboxFeed: SandboxFeed | null = null;
let accountFeed: UofClient | null = null;
const accountLeader = config.uof.accessToken
  ? leadership(database, 'odds-feed', {
      onLead: async () => {
        if (!config.uof.amqpUrl || !config.uof.apiUrl) throw new Error('UOF_ACCESS_TOKEN needs UOF_AMQP_URL and UOF_API_URL');
        app.log.info(`this process consumes the Betradar feed at ${new URL(config.uof.amqpUrl).host}`);
        accountFeed = await startAccountFeed(feed, ctx.db, { amqpUrl: config.uof.amqpUrl, apiUrl: config.uof.apiUrl, accessToken: config.uof.accessToken!, bookmakerId: config.uof.bookmakerId, nodeId: config.uof.nodeId, log: feedLog, info: feedInfo });
      },
      onLose: async () => {
        await accountFeed?.stop();
        accountFeed = null;
      },
      log: feedLog,
    })
  : null;

// The demo simulator (bettors, payments, messages) and, without an account, the sandbox odds feed.
let simulator: { stop(): void } | null = null;
const simulation = config.simulator
  ? leadership(database, 'simulation', {
      onLead: async () => {
        simulator = startSimulator(ctx, { activities: [simulatePayments, simulateMessaging, simulatePush], log: (msg, err) => app.log.warn({ err }, msg) });
        if (config.uof.accessToken) return app.log.info('this process runs the simulator');
        sandboxFeed = await startSandboxFeed(feed, ctx.db, { amqpUrl: config.uof.amqpUrl, apiPort: config.uof.amqpUrl ? config.uof.sandboxApiPort : undefined, log: feedLog, info: feedInfo });
        app.log.info(`this process runs the simulator and the sandbox odds feed (UOF ${config.uof.amqpUrl ? `over ${new URL(config.uof.amqpUrl).host}, API on ${sandboxFeed.apiUrl}` : 'in-process'})`);
      },
      onLose: async () => {
        simulator?.stop();
        simulator = null;
        await sandboxFeed?.stop();
        sandboxFeed = null;
      },
      log: feedLog,
    })
  : null;

// The SANDBOX game provider (its own HTTP server, calling our wallet API): on its own leader, with the
// simulator unless DAU_CASINO_SANDBOX says otherwise.
const sandboxGames = runSandboxGameProvider(database, ctx.db, {
  walletUrl: `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${config.port}`,
  simulator: config.simulator,
  log: (msg, err) => app.log.warn({ err }, msg),
  info: (msg) => app.log.info(msg),
});

// The SANDBOX SMS gateway (Africa's Talking's API on DAU_SMS_SANDBOX_PORT) on its own leader, unless DAU_SMS_API_URL is set.
const smsSandbox = runSmsSandbox(database, {
  ownUrl: `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${config.port}`,
  log: (msg, err) => app.log.warn({ err }, msg),
  info: (msg) => app.log.info(msg),
});

// Mobile money (issue 28): the callback URLs we give the providers, and the built-in sandboxes of M-Pesa,
// Airtel and the aggregator served on DAU_PAYMENTS_SANDBOX_PORT by one process (every process also reaches
// them in-process, over the books they share in the database).
const payments = paymentsOf(ctx.db);
payments.publicUrl = config.payments.publicUrl ?? `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${config.port}`;
let paymentsSandboxListened = false;
const paymentsSandbox = leadership(database, 'payments-sandbox', {
  onLead: async () => {
    const server = payments.sandboxServer();
    if (server.server.listening) return;
    // Fastify listens once; after a lost lead only its socket is reopened (the app stays open for in-process calls).
    if (!paymentsSandboxListened) await server.listen({ port: config.payments.sandboxPort, host: '127.0.0.1' });
    else await new Promise<void>((resolve, reject) => server.server.once('error', reject).listen(config.payments.sandboxPort, '127.0.0.1', () => resolve()));
    paymentsSandboxListened = true;
    payments.sandboxUrl = `http://127.0.0.1:${config.payments.sandboxPort}`;
    app.log.info(`this process serves the mobile-money sandboxes on ${payments.sandboxUrl} (/mpesa, /airtel, /aggregator)`);
  },
  onLose: async () => {
    payments.sandboxUrl = null;
    await new Promise<void>((resolve) => payments.sandboxServer().server.close(() => resolve()));
  },
  log: (msg, err) => app.log.warn({ err }, msg),
});

// The SANDBOX FCM (DAU_PUSH_SANDBOX_PORT) unless DAU_FCM_BASE_URL is set; Telegram's sandbox Bot API
// (DAU_TELEGRAM_SANDBOX_PORT, unless DAU_TELEGRAM_API_ROOT is set) and the bot: each on its own leader.
const pushSandbox = runSandboxFcm(database, ctx.db, { log: (msg, err) => app.log.warn({ err }, msg), info: (msg) => app.log.info(msg) });
const telegram = runTelegram(database, ctx.db, { log: (msg, err) => app.log.warn({ err }, msg), info: (msg) => app.log.info(msg) });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await simulation?.stop();
    await accountLeader?.stop();
    await tronSandbox?.stop();
    await sandboxGames?.stop();
    await smsSandbox?.stop();
    await paymentsSandbox.stop();
    await pushSandbox?.stop();
    await telegram.stop();
    await app.close();
    await database.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
// DAU_METRICS_PORT: the Prometheus metrics on a listener of their own (platform/metrics.ts).
if (process.env.DAU_METRICS_PORT) await serveMetricsPort(Number(process.env.DAU_METRICS_PORT), process.env.DAU_METRICS_HOST ?? config.host);
const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`;
const lines = [
  '',
  `  Dau back office is up on http://localhost:${config.port}  (${Date.now() - t0} ms, ${where})`,
  `  API docs: http://localhost:${config.port}/api/docs${config.publicDocs ? '' : ' (for signed-in admins: sign in to the console first)'}`,
];
if (seeded.adminCreated) {
  lines.push(
    `  Super admin account: admin`,
    config.adminPassword ? '  Password: the value of DAU_ADMIN_PASSWORD' : `  Password (shown once, change it after signing in): ${seeded.adminPassword}`,
  );
}
console.log(lines.join('\n') + '\n');
