/**
 * The odds feed of `npm start`, in real time: the SANDBOX provider (./simulator.ts) publishes through the
 * sandbox Unified Odds Feed (./uof/sandbox.ts) and the product's UOF client (./uof/client.ts) applies what
 * arrives, exactly as it would a Betradar account's feed. Never in tests unless a test starts it.
 *
 * Two transports, everything after them shared:
 *  - embedded (no broker configured): the sandbox hands each XML document to the client in-process and
 *    answers the client's API requests by a function call;
 *  - over RabbitMQ (`amqpUrl`): the sandbox publishes to the broker's topic exchange and serves its REST API
 *    on localhost; the client consumes its own queue and calls the API over HTTP.
 *
 * The provider's clock advances only while the client has no backlog (embedded), so a slow database slows
 * the simulation instead of piling up messages. The producers say alive every few seconds of the wall
 * clock, whatever the simulated speed, and the client checks the alive gap as often.
 */
import type { Db } from '../../platform/db.js';
import type { FeedEngine } from './engine.js';
import { SandboxProvider } from './simulator.js';
import { fetchHttp, UofApi } from './uof/api.js';
import { UofClient } from './uof/client.js';
import { bindingKeys } from './uof/documents.js';
import { AmqpPublisher, UofSandbox } from './uof/sandbox.js';
import { AmqpTransport, InProcessTransport } from './uof/transport.js';

export interface SandboxFeedOptions {
  seed?: number;
  /** Simulated ms per real ms (default 1: the wall clock, so start times are real kick-offs). */
  speed?: number;
  /** Real ms between clock advances (default 1000), between alive checks (default 5000) and between the producers' alive messages (default 5000). */
  tickMs?: number;
  aliveCheckMs?: number;
  heartbeatMs?: number;
  /** Minimum time between two recovery requests of a producer (client and sandbox API; default 10 s). */
  recoveryIntervalMs?: number;
  /** Publish over this broker (amqp://…/vhost) and serve the API on `apiPort` (default: in-process). */
  amqpUrl?: string;
  exchange?: string;
  apiPort?: number;
  log?: (msg: string, err?: unknown) => void;
  info?: (msg: string) => void;
}

export interface SandboxFeed {
  provider: SandboxProvider;
  sandbox: UofSandbox;
  client: UofClient;
  /** The sandbox API's URL when it is served over HTTP. */
  apiUrl: string | null;
  /** An alive check now (after the documents delivered before it). */
  checkAlive(): Promise<number[]>;
  /** Resolves once every document handed over so far is processed (embedded). */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSandboxFeed(engine: FeedEngine, db: Db, opts: SandboxFeedOptions = {}): Promise<SandboxFeed> {
  const log = opts.log;
  let backlog = 0;
  let stopped = false;
  const local = opts.amqpUrl ? null : new InProcessTransport();
  const publisher = opts.amqpUrl ? new AmqpPublisher(opts.amqpUrl, opts.exchange) : null;
  const sandbox = new UofSandbox({
    recoveryIntervalMs: opts.recoveryIntervalMs ?? 10_000,
    log,
    publish: local
      ? (d) => {
          backlog++;
          return local.deliver(d).finally(() => backlog--);
        }
      : (d) => publisher!.publish(d),
  });
  await publisher?.open();
  const apiUrl = local ? null : await sandbox.listen(opts.apiPort ?? 0);
  const api = new UofApi(local ? (req) => sandbox.handle(req) : fetchHttp(apiUrl!), sandbox.token);
  const transport = local ?? new AmqpTransport({ url: opts.amqpUrl!, exchange: opts.exchange, bindings: bindingKeys({ prematch: true, live: true, virtuals: false }), log });
  const client = new UofClient({ engine, db, transport, api, aliveCheckMs: opts.aliveCheckMs ?? 5000, minRecoveryIntervalMs: opts.recoveryIntervalMs ?? 10_000, log, info: opts.info });

  const provider = sandbox.attach({ seed: opts.seed ?? Date.now() % 2 ** 31, startTime: Date.now(), speed: opts.speed });
  provider.start();
  await client.start();

  const heartbeat = setInterval(() => {
    if (backlog === 0) provider.heartbeat();
  }, opts.heartbeatMs ?? 5000);
  let last = Date.now();
  const tick = setInterval(() => {
    const now = Date.now();
    const elapsed = now - last;
    last = now;
    if (backlog > 0 || stopped) return; // the clock waits for the database: that time is not simulated
    provider.advance(elapsed);
  }, opts.tickMs ?? 1000);
  heartbeat.unref();
  tick.unref();

  return {
    provider,
    sandbox,
    client,
    apiUrl,
    async checkAlive() {
      await local?.drained();
      return client.checkAlive();
    },
    async drained() {
      await local?.drained();
    },
    async stop() {
      stopped = true;
      clearInterval(tick);
      clearInterval(heartbeat);
      await client.stop();
      await publisher?.close();
      await sandbox.close();
    },
  };
}
