/**
 * Prometheus metrics (`prom-client`), one registry per process:
 *
 * - `dau_http_request_duration_seconds{method,route,status}`: HTTP latency by route (the route's pattern,
 *   never the raw URL, so ids do not explode the series);
 * - `dau_job_queue_depth{queue}` and `dau_job_queue_oldest_seconds{queue}`: jobs waiting (created or
 *   retry) per pg-boss queue and the age of the oldest, read from `pgboss.job` when scraped;
 * - `dau_settled_orders_total` and `dau_wallet_calls_total{call,status}`: settlement and casino wallet
 *   throughput, counted in their hot paths (one `inc` each: a counter is an addition in memory), and
 *   `dau_wallet_batch_size`: the wallet's movements per group-commit statement;
 * - `dau_socket_clients`, `dau_db_pool_connections{state}` and Node's default process metrics.
 *
 * Served at GET /metrics with `Authorization: Bearer <DAU_METRICS_TOKEN>`, or on its own listener on
 * `DAU_METRICS_PORT` (main.ts, `serveMetricsPort`); with no token set, /metrics answers 404 (a wrong token 401).
 */
import http from 'node:http';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from './db.js';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'dau_' });

export const httpDuration = new Histogram({
  name: 'dau_http_request_duration_seconds',
  help: 'HTTP request latency by route pattern',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** Orders whose money settlement changed (feed settlement, resettlement, operator actions). */
export const settledOrders = new Counter({
  name: 'dau_settled_orders_total',
  help: 'Orders settled or resettled (plans posted to the ledger)',
  registers: [metricsRegistry],
});

/** Movements per statement of the casino wallet's group commit (modules/casino/hot-batch.ts). */
export const walletBatchSize = new Histogram({
  name: 'dau_wallet_batch_size',
  help: 'Casino wallet bets and wins applied per statement (group commit)',
  buckets: [1, 2, 5, 10, 20, 35, 50],
  registers: [metricsRegistry],
});

/** Casino wallet calls by call (bet, win, rollback, balance, round_end) and answer status (RS_OK, ...). */
export const walletCalls = new Counter({
  name: 'dau_wallet_calls_total',
  help: 'Casino wallet API calls by call and answer status',
  labelNames: ['call', 'status'] as const,
  registers: [metricsRegistry],
});

/** What the gauges read when scraped: set once per process by `installMetrics`. */
interface Sources {
  database?: Database;
  sockets?: () => number;
}
const sources: Sources = {};

new Gauge({
  name: 'dau_socket_clients',
  help: 'Console sockets connected to this process',
  registers: [metricsRegistry],
  collect() {
    this.set(sources.sockets?.() ?? 0);
  },
});

new Gauge({
  name: 'dau_db_pool_connections',
  help: 'Database pool connections of this process by state',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    const s = sources.database?.poolStats();
    this.set({ state: 'total' }, s?.total ?? 0);
    this.set({ state: 'in_use' }, s?.inUse ?? 0);
    this.set({ state: 'waiting' }, s?.waiting ?? 0);
  },
});

const queueDepth = new Gauge({ name: 'dau_job_queue_depth', help: 'Jobs waiting (created or retry) per queue', labelNames: ['queue'] as const, registers: [metricsRegistry] });
const queueOldest = new Gauge({ name: 'dau_job_queue_oldest_seconds', help: 'Age of the oldest waiting job per queue', labelNames: ['queue'] as const, registers: [metricsRegistry] });
const queueActive = new Gauge({ name: 'dau_job_queue_active', help: 'Jobs running per queue', labelNames: ['queue'] as const, registers: [metricsRegistry] });

async function readQueues() {
  const database = sources.database;
  if (!database) return;
  queueDepth.reset();
  queueOldest.reset();
  queueActive.reset();
  try {
    const { rows } = await database.query(
      `SELECT q.name,
              count(j.id) FILTER (WHERE j.state IN ('created', 'retry'))::int AS depth,
              count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
              coalesce(extract(epoch FROM now() - min(j.created_on) FILTER (WHERE j.state IN ('created', 'retry'))), 0)::float8 AS oldest
         FROM pgboss.queue q LEFT JOIN pgboss.job j ON j.name = q.name
        GROUP BY q.name`,
      [],
    );
    for (const r of rows) {
      queueDepth.set({ queue: r.name }, Number(r.depth));
      queueActive.set({ queue: r.name }, Number(r.active));
      queueOldest.set({ queue: r.name }, Number(r.oldest));
    }
  } catch {
    /* the queue's schema is not there yet: no queue series */
  }
}

/** The scrape's text (Prometheus exposition format). */
export async function metricsText(): Promise<string> {
  await readQueues();
  return metricsRegistry.metrics();
}

/** Whether the bearer token is DAU_METRICS_TOKEN (compared in constant time). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = crypto.createHash('sha256').update(m[1]!).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * The latency hook (every route of the app) and GET /metrics. `token` defaults to DAU_METRICS_TOKEN;
 * without one the route answers 404 (the metrics may then be served on DAU_METRICS_PORT).
 */
export function installMetrics(app: FastifyInstance, opts: { database: Database; sockets?: () => number; token?: string }) {
  sources.database = opts.database;
  if (opts.sockets) sources.sockets = opts.sockets;
  const token = opts.token ?? process.env.DAU_METRICS_TOKEN ?? '';
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url;
    if (!route || route === '/metrics') return;
    httpDuration.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { config: { access: { public: true } }, schema: { hide: true } }, async (req, reply) => {
    if (!token) return reply.status(404).send({ code: 'NOT_FOUND', message: 'Not found' });
    if (!tokenMatches(req.headers.authorization, token)) return reply.status(401).send({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    return reply.header('content-type', metricsRegistry.contentType).header('cache-control', 'no-store').send(await metricsText());
  });
}

/** The metrics on a listener of their own (DAU_METRICS_PORT), for a scraper on the private network. */
export function serveMetricsPort(port: number, host = '0.0.0.0'): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metricsText().then(
      (text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
