/**
 * SANDBOX Unified Odds Feed: what a Betradar account looks like from our side, on localhost, fed by the
 * simulated provider (../simulator.ts, invented odds).
 *
 *  - The feed: every message the provider makes is published as the UOF XML document a real broker carries,
 *    with its routing key: to a topic exchange of a RabbitMQ virtual host (`AmqpPublisher`), or handed
 *    in-process to the client's transport (the embedded default).
 *  - The REST API (`handle`, served over HTTP by `listen`): producers, market descriptions, fixtures, and
 *    recovery: `initiate_request` answers 202 at once, then replays the producer's current state (fixtures
 *    and odds, tagged with the request id) and ends with `snapshot_complete`, as the real feed does. The
 *    access token is checked (401), recovery requests are rate-limited per producer (429).
 *  - Misbehaviour on demand (`faults`): a producer silent (no alive), `alive subscribed="0"`, every
 *    message published twice. Tests also publish their own documents (`publishXml`), e.g. a settlement
 *    before the last odds change, a rollback, a cancel window.
 *
 * The provider's `producer_down` / `producer_up` are not UOF messages: an outage is the producer's silence
 * (no alive, no messages), which the client notices; the provider's end of a recovery is the request's
 * `snapshot_complete`.
 */
import { createServer, type Server } from 'node:http';
import amqp from 'amqplib';
import { SPORT } from '@dau/domain';
import type { FeedMessageInput } from '../messages.js';
import { SandboxProvider, type SandboxOptions } from '../simulator.js';
import type { UofHttpAnswer, UofHttpRequest } from './api.js';
import { fixtureXml, fromFeedMessage, MARKET_DESCRIPTIONS, marketDescriptionsXml, producersXml, responseXml, routingKey, uofXml } from './documents.js';
import { uofSportId } from './sports.js';
import type { UofDelivery } from './transport.js';
import type { UofFixture, UofMessage, UofProducer } from './types.js';

/** The sandbox's producers, numbered as UOF numbers them. */
export const SANDBOX_PRODUCERS: UofProducer[] = [
  { id: 1, name: 'LO', description: 'Live Odds', api_url: 'https://api.betradar.com/v1/liveodds/', active: true, scope: ['live'], stateful_recovery_window_in_minutes: 600 },
  { id: 3, name: 'Ctrl', description: 'Betradar Ctrl', api_url: 'https://api.betradar.com/v1/pre/', active: true, scope: ['prematch'], stateful_recovery_window_in_minutes: 4320 },
];

export type Publish = (d: UofDelivery) => Promise<void> | void;

export interface UofSandboxOptions {
  publish: Publish;
  /** The access token the API accepts (default 'sandbox-token'). */
  token?: string;
  /** Recovery requests of one producer at most this often (default 10 s). */
  recoveryIntervalMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

export interface UofSandboxFaults {
  /** Producers that send no alive (and nothing else) until cleared. */
  silent: Set<number>;
  /** Producers whose alive says subscribed="0". */
  unsubscribed: Set<number>;
  /** Publish every message twice. */
  duplicate: boolean;
}

const xmlAnswer = (status: number, body: string): UofHttpAnswer => ({ status, body });
/** The API's answer document: what it did (accepted) or why not. */
const response = (code: string, text: string) => responseXml(code === 'ACCEPTED' || code === 'OK' ? { response_code: code, action: text } : { response_code: code, message: text });

export class UofSandbox {
  readonly fixtures = new Map<string, UofFixture>();
  private readonly sportOf = new Map<string, number>();
  readonly faults: UofSandboxFaults = { silent: new Set(), unsubscribed: new Set(), duplicate: false };
  /** The provider's own outage (its producer_down … producer_up). */
  private readonly down = new Set<number>();
  /** The recovery being replayed: its messages carry the request id. */
  private replaying: { producer: number; requestId: number } | null = null;
  /** Recoveries asked during an outage: answered when it ends. */
  private readonly held = new Map<number, number>();
  private readonly lastRecovery = new Map<number, number>();
  private provider: SandboxProvider | null = null;
  private server: Server | null = null;
  /** Documents published (tests read what went out). */
  published = 0;

  constructor(private readonly o: UofSandboxOptions) {}

  get token(): string {
    return this.o.token ?? 'sandbox-token';
  }

  /** Runs the simulated provider into this feed. */
  attach(opts: Omit<SandboxOptions, 'emit'>): SandboxProvider {
    this.provider = new SandboxProvider({ ...opts, emit: (m) => this.fromProvider(m) });
    return this.provider;
  }

  /** One message of the provider (or of a test), published as UOF. */
  fromProvider(m: FeedMessageInput): void {
    switch (m.type) {
      case 'producer_down':
        this.down.add(m.producer);
        return;
      case 'producer_up': {
        if (this.replaying?.producer === m.producer) {
          this.send({ type: 'snapshot_complete', product: m.producer, timestamp: m.timestamp, request_id: this.replaying.requestId });
          return;
        }
        this.down.delete(m.producer);
        const held = this.held.get(m.producer);
        if (held !== undefined) {
          this.held.delete(m.producer);
          setImmediate(() => this.replay(m.producer, held));
        }
        return;
      }
      case 'alive':
        if (this.down.has(m.producer) || this.faults.silent.has(m.producer)) return;
        this.send({ type: 'alive', product: m.producer, timestamp: m.timestamp, subscribed: !this.faults.unsubscribed.has(m.producer) });
        return;
      case 'fixture_change': {
        this.fixtures.set(m.event_id, {
          id: m.event_id,
          start_time: m.start_time,
          status: fixtureStatus(m.status),
          sport: { id: `sr:sport:${uofSportId(m.sport_id)}`, name: m.sport_id === SPORT.football ? 'Soccer' : m.sport_id === SPORT.basketball ? 'Basketball' : `Sport ${m.sport_id}` },
          tournament: { id: m.league_id, name: m.league_name },
          competitors: [
            { id: `${m.event_id}:home`, name: m.home_team, qualifier: 'home' },
            { id: `${m.event_id}:away`, name: m.away_team, qualifier: 'away' },
          ],
        });
        this.sportOf.set(m.event_id, uofSportId(m.sport_id));
        break;
      }
    }
    if (this.faults.silent.has(m.producer) || (this.down.has(m.producer) && this.replaying?.producer !== m.producer)) return;
    const u = fromFeedMessage(m, this.replaying?.producer === m.producer ? { request_id: this.replaying.requestId } : undefined);
    if (u) this.send(u);
  }

  /** Publishes one UOF message (its XML and routing key). */
  send(u: UofMessage): void {
    const eventId = 'event_id' in u ? u.event_id : undefined;
    const key = routingKey(u, eventId ? this.sportOf.get(eventId) : undefined);
    this.publishXml(uofXml(u), key);
  }

  /** Publishes a document as it is (tests: documents a real feed sends, in the order they choose). */
  publishXml(xml: string, key: string): void {
    const body = Buffer.from(xml, 'utf8');
    const times = this.faults.duplicate ? 2 : 1;
    for (let i = 0; i < times; i++) {
      this.published++;
      void Promise.resolve(this.o.publish({ body, routingKey: key })).catch((err) => this.o.log?.('uof sandbox: publish failed', err));
    }
  }

  /** The recovery of a producer: its current state, then snapshot_complete (held while the producer is in an outage). */
  private replay(producer: number, requestId: number): void {
    const p = this.provider;
    if (this.down.has(producer) || p?.isDown(producer)) {
      this.held.set(producer, requestId);
      return;
    }
    if (!p) {
      this.send({ type: 'snapshot_complete', product: producer, timestamp: Date.now(), request_id: requestId });
      return;
    }
    this.replaying = { producer, requestId };
    try {
      p.recover(producer);
    } finally {
      this.replaying = null;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The REST API

  /** One API request, as `https://api.betradar.com` would answer it. */
  async handle(req: UofHttpRequest): Promise<UofHttpAnswer> {
    if (req.headers['x-access-token'] !== this.token) return xmlAnswer(401, response('FORBIDDEN', 'Invalid or missing x-access-token'));
    const url = new URL(req.path, 'http://sandbox');
    const path = url.pathname;
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && path === '/v1/descriptions/producers.xml') return xmlAnswer(200, producersXml(SANDBOX_PRODUCERS));
    if (req.method === 'GET' && (m = /^\/v1\/descriptions\/([a-zA-Z-]+)\/markets\.xml$/.exec(path))) return xmlAnswer(200, marketDescriptionsXml(MARKET_DESCRIPTIONS));
    if (req.method === 'GET' && (m = /^\/v1\/sports\/([a-zA-Z-]+)\/sport_events\/([^/]+)\/fixture\.xml$/.exec(path))) {
      const f = this.fixtures.get(decodeURIComponent(m[2]));
      return f ? xmlAnswer(200, fixtureXml(f)) : xmlAnswer(404, response('NOT_FOUND', `No fixture for ${decodeURIComponent(m[2])}`));
    }
    if (req.method === 'POST' && (m = /^\/v1\/([^/]+)\/recovery\/initiate_request$/.exec(path))) {
      const producer = SANDBOX_PRODUCERS.find((p) => p.api_url.endsWith(`/v1/${m![1]}/`));
      const requestId = Number(url.searchParams.get('request_id'));
      if (!producer) return xmlAnswer(404, response('NOT_FOUND', `Unknown product ${m[1]}`));
      if (!Number.isInteger(requestId) || requestId <= 0) return xmlAnswer(400, response('BAD_REQUEST', 'request_id is required'));
      const after = url.searchParams.get('after');
      if (after !== null && Date.now() - Number(after) > producer.stateful_recovery_window_in_minutes * 60_000)
        return xmlAnswer(400, response('BAD_REQUEST', 'after is older than the recovery window'));
      const last = this.lastRecovery.get(producer.id);
      if (last !== undefined && Date.now() - last < (this.o.recoveryIntervalMs ?? 10_000)) return xmlAnswer(429, response('TOO_MANY_REQUESTS', 'Too many recovery requests'));
      this.lastRecovery.set(producer.id, Date.now());
      // Accepted now; the snapshot follows on the feed.
      setImmediate(() => this.replay(producer.id, requestId));
      return xmlAnswer(202, response('ACCEPTED', `Request for recovery of ${m[1]} accepted`));
    }
    if (req.method === 'POST' && (m = /^\/v1\/([^/]+)\/odds\/events\/([^/]+)\/initiate_request$/.exec(path))) {
      const eventId = decodeURIComponent(m[2]);
      if (!this.fixtures.has(eventId)) return xmlAnswer(404, response('NOT_FOUND', `Unknown event ${eventId}`));
      setImmediate(() => this.provider?.recoverEvent(eventId));
      return xmlAnswer(202, response('ACCEPTED', `Request for odds of ${eventId} accepted`));
    }
    return xmlAnswer(404, response('NOT_FOUND', `${req.method} ${path}`));
  }

  /** Serves the API over HTTP on localhost (port 0: any free port). */
  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      void this.handle({ method: req.method === 'POST' ? 'POST' : 'GET', path: req.url ?? '/', headers }).then(
        (a) => res.writeHead(a.status, { 'content-type': 'application/xml; charset=utf-8' }).end(a.body),
        (err) => res.writeHead(500).end(String(err)),
      );
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
    const addr = this.server.address();
    return `http://${host}:${typeof addr === 'object' && addr ? addr.port : port}`;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

function fixtureStatus(status: number): string {
  return ['', 'not_started', 'live', 'ended', 'interrupted', 'cancelled', 'ended', 'abandoned', 'ended'][status] ?? 'not_started';
}

/** Publishes to a topic exchange of a RabbitMQ virtual host (declared, durable), as Betradar's broker carries the feed. */
export class AmqpPublisher {
  private conn: amqp.ChannelModel | null = null;
  private ch: amqp.Channel | null = null;

  constructor(
    private readonly url: string,
    readonly exchange = 'unifiedfeed',
  ) {}

  async open(): Promise<void> {
    this.conn = await amqp.connect(this.url, { clientProperties: { connection_name: 'dau-uof-sandbox' } });
    this.ch = await this.conn.createChannel();
    await this.ch.assertExchange(this.exchange, 'topic', { durable: true });
  }

  readonly publish: Publish = (d) => {
    if (!this.ch) throw new Error('the sandbox publisher is not open');
    this.ch.publish(this.exchange, d.routingKey, d.body, { contentType: 'text/xml', timestamp: Math.floor(Date.now() / 1000) });
  };

  /** Closes the connection; `deleteExchange` also removes the exchange (a test's or a bench's own). */
  async close(opts: { deleteExchange?: boolean } = {}): Promise<void> {
    if (opts.deleteExchange) await this.ch?.deleteExchange(this.exchange).catch(() => {});
    await this.conn?.close().catch(() => {});
    this.conn = null;
    this.ch = null;
  }
}
