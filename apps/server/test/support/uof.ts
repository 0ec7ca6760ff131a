/**
 * A sandbox Unified Odds Feed on its own exchange of the local RabbitMQ (virtual host `dau-uof`, which
 * scripts/test.mjs makes) with its REST API over HTTP, and the product's client consuming it into an engine:
 * what the UOF test files share. Each feed is stopped by `stopFeeds` (the file's afterEach).
 */
import { randomUUID } from 'node:crypto';
import { waitFor as waitForState } from './processes';
import type { Db } from '../../src/platform/db';
import type { FeedEngine } from '../../src/modules/feed/engine';
import { PRODUCER, type FeedMessageInput } from '../../src/modules/feed/messages';
import { fetchHttp, UofApi } from '../../src/modules/feed/uof/api';
import { UofClient } from '../../src/modules/feed/uof/client';
import { bindingKeys } from '../../src/modules/feed/uof/documents';
import { AmqpPublisher, UofSandbox } from '../../src/modules/feed/uof/sandbox';
import { AmqpTransport } from '../../src/modules/feed/uof/transport';
import type { UofMessage } from '../../src/modules/feed/uof/types';

/** The local broker's sandbox virtual host. */
export const AMQP_URL = process.env.UOF_TEST_AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672/dau-uof';

/** Polls a state (processes.ts's waitFor: a slow machine only waits longer; the bound is a hang guard). */
export const waitFor = (what: string, pred: () => boolean | Promise<boolean>) => waitForState(what, pred, { intervalMs: 20, timeoutMs: 60_000 }).then(() => undefined);

export interface Feed {
  sandbox: UofSandbox;
  client: UofClient;
  publisher: AmqpPublisher;
  /** Documents the client has processed, in order, with whether each changed anything. */
  processed: Array<{ m: UofMessage | null; applied: boolean }>;
  /** The recovery requests the sandbox API received. */
  recoveries: Array<{ product: string; request_id: number; after: number | null }>;
  connectionName: string;
  stop(): Promise<void>;
}

const running: Feed[] = [];
/** Stops every feed started since the last call (a file's afterEach). */
export async function stopFeeds() {
  for (const f of running.splice(0)) await f.stop();
}

/** A sandbox on its own exchange of the broker, and a client consuming it. */
export async function startFeed(db: Db, engine: FeedEngine, opts: { aliveCheckMs?: number } = {}): Promise<Feed> {
  const exchange = `unifiedfeed-test-${randomUUID()}`;
  const publisher = new AmqpPublisher(AMQP_URL, exchange);
  await publisher.open();
  const sandbox = new UofSandbox({ publish: publisher.publish, recoveryIntervalMs: 0 });
  const apiUrl = await sandbox.listen(0);
  const recoveries: Feed['recoveries'] = [];
  const http = fetchHttp(apiUrl);
  const api = new UofApi(async (req) => {
    const m = /^\/v1\/([^/]+)\/recovery\/initiate_request\?(.*)$/.exec(req.path);
    if (m) {
      const q = new URLSearchParams(m[2]);
      recoveries.push({ product: m[1], request_id: Number(q.get('request_id')), after: q.has('after') ? Number(q.get('after')) : null });
    }
    return http(req);
  }, sandbox.token);
  const connectionName = `dau-uof-test-${randomUUID()}`;
  const transport = new AmqpTransport({ url: AMQP_URL, exchange, bindings: bindingKeys({ prematch: true, live: true, virtuals: false }), retryMs: 50, maxRetryMs: 500, connectionName });
  const processed: Feed['processed'] = [];
  const client = new UofClient({ engine, db, transport, api, minRecoveryIntervalMs: 0, aliveCheckMs: opts.aliveCheckMs ?? 3_600_000, onProcessed: (m, applied) => processed.push({ m, applied }) });
  await client.start();
  const feed: Feed = {
    sandbox,
    client,
    publisher,
    processed,
    recoveries,
    connectionName,
    async stop() {
      await client.stop();
      await publisher.close({ deleteExchange: true });
      await sandbox.close();
    },
  };
  running.push(feed);
  // Up, and the snapshot_complete that brought each up counted as processed (the count is what senders wait on).
  await waitFor('both producers up (the start recovered)', () => client.state(PRODUCER.live) === 'up' && client.state(PRODUCER.prematch) === 'up' && processed.filter((p) => p.m?.type === 'snapshot_complete').length >= 2);
  return feed;
}

/** Publishes one provider message as UOF and waits until the client has processed it. */
export function sender(feed: Feed): (m: FeedMessageInput) => Promise<boolean> {
  return async (m: FeedMessageInput) => {
    const before = feed.processed.length;
    feed.sandbox.fromProvider(m);
    await waitFor(`the ${m.type} processed`, () => feed.processed.length > before);
    return feed.processed[before].applied;
  };
}

