import { loadConfig } from './platform/config.js';
import { openDatabase } from './platform/db.js';
import { seed } from './seed.js';
import { buildApp } from './app.js';
import { seedDemoMoney } from './simulator/demo-money.js';
import { startSimulator } from './simulator/index.js';
import { simulatePayments } from './modules/payments/simulate.js';
import { startSandboxFeed } from './modules/feed/sandbox-feed.js';
import { startRemindJob } from './modules/betting/remind.js';

const t0 = Date.now();
const config = loadConfig();
const database = await openDatabase(config);
await database.migrate();
const seeded = await seed(database.db, { adminPassword: config.adminPassword, demo: config.demo });
if (seeded.adminCreated && config.demo) {
  await seedDemoMoney(database.db);
  // PGlite keeps no automatic statistics: plan the demo tables from real numbers.
  await database.exec('ANALYZE');
}
const { app, ctx, feed } = await buildApp({
  database,
  webDist: config.webDist,
  logger: { level: config.logLevel },
  trustProxy: config.trustProxy,
  publicDocs: config.publicDocs,
  sandboxRoutes: config.sandboxRoutes,
  dataDir: config.dataDir,
  onFeedLog: (e) => app.log.warn({ feed: e }, 'odds feed error'),
});

const simulator = config.simulator
  ? startSimulator(ctx, { activities: [simulatePayments], log: (msg, err) => app.log.warn({ err }, msg) })
  : null;
// The SANDBOX odds provider (invented odds) feeds the engine with the simulator switch, with alive checks.
const sandboxFeed = config.simulator ? startSandboxFeed(feed, { log: (msg, err) => app.log.warn({ err }, msg) }) : null;

// Abnormal bet alerts: open orders without a result past 120 min / 150 min / 5 h / 24 h after match time.
const remind = startRemindJob(database.db, database.bus, (msg, err) => app.log.warn({ err }, msg));

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    simulator?.stop();
    remind.stop();
    await sandboxFeed?.stop();
    await app.close();
    await database.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
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
