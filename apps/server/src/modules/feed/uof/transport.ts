/**
 * How UOF messages reach the client: a transport hands over each message's body (the XML document as
 * published) and routing key, in order, and says when the connection is lost and back.
 *
 *  - `AmqpTransport`: AMQP 0-9-1 with amqplib, as Sportradar's feed requires. Connects to the broker
 *    (TLS with amqps://; virtual host = the bookmaker id, user = the access token), declares an exclusive
 *    server-named queue bound to the `unifiedfeed` topic exchange with the routing keys of the interest,
 *    and consumes it with acknowledgements: a message is acked once the client has processed it. A closed
 *    connection (the broker's side or the network) is reported and retried with back-off.
 *  - `InProcessTransport`: the embedded default (no broker configured): the sandbox hands the same XML
 *    documents to the same client code through a function call.
 */
import amqp from 'amqplib';

export interface UofDelivery {
  body: Buffer;
  routingKey: string;
}
export interface UofTransportEvents {
  /** One message; resolves when it is processed (the AMQP transport acks then). */
  onMessage(d: UofDelivery): Promise<void>;
  /** The connection is lost (or could not be made). */
  onDisconnected(reason: string): void;
  /** The connection is (re)established and the queue consumed. */
  onConnected(): void;
}
export interface UofTransport {
  start(events: UofTransportEvents): Promise<void>;
  stop(): Promise<void>;
  /** Whether messages can arrive now. */
  readonly connected: boolean;
  /** Messages received and not yet processed: a backlog of ours is not the producers' silence. */
  readonly backlog: number;
}

/** The broker URL of a Betradar account: user = the access token, no password, virtual host = the bookmaker id. */
export function accountAmqpUrl(base: string, token: string | undefined, bookmakerId: string | undefined): string {
  const url = new URL(base);
  if (!url.username && token) {
    url.username = encodeURIComponent(token);
    url.password = '';
  }
  if ((url.pathname === '' || url.pathname === '/') && bookmakerId) url.pathname = `/${encodeURIComponent(bookmakerId)}`;
  return url.toString();
}

export interface AmqpTransportOptions {
  url: string;
  /** Routing keys to bind (./documents.ts bindingKeys). */
  bindings: readonly string[];
  /** The topic exchange (UOF: 'unifiedfeed'; tests use their own). */
  exchange?: string;
  /** Unacked messages in flight (default 500). */
  prefetch?: number;
  /** Reconnect back-off (ms): first and at most. */
  retryMs?: number;
  maxRetryMs?: number;
  /** The connection's name on the broker (its management and rabbitmqctl show it). */
  connectionName?: string;
  log?: (msg: string, err?: unknown) => void;
}

export class AmqpTransport implements UofTransport {
  private conn: amqp.ChannelModel | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private delay: number;
  private events: UofTransportEvents | null = null;
  /** Messages are processed one after another, in the order the queue delivers them. */
  private chain: Promise<void> = Promise.resolve();
  connected = false;
  backlog = 0;

  constructor(private readonly o: AmqpTransportOptions) {
    this.delay = o.retryMs ?? 1000;
  }

  async start(events: UofTransportEvents): Promise<void> {
    this.events = events;
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped || !this.events) return;
    const events = this.events;
    try {
      const conn = await amqp.connect(this.o.url, { clientProperties: { connection_name: this.o.connectionName ?? 'dau-uof-client' } });
      this.conn = conn;
      let lost = false;
      const onLost = (reason: string) => {
        if (lost || this.stopped) return; // our own close (stop) is not a lost connection
        lost = true;
        this.connected = false;
        this.conn = null;
        events.onDisconnected(reason);
        this.schedule();
      };
      conn.on('error', (err: Error) => this.o.log?.('uof: broker connection error', err));
      conn.on('close', (err?: Error) => onLost(err?.message ?? 'connection closed'));
      const ch = await conn.createChannel();
      ch.on('error', (err: Error) => this.o.log?.('uof: channel error', err));
      await ch.prefetch(this.o.prefetch ?? 500);
      const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
      const exchange = this.o.exchange ?? 'unifiedfeed';
      for (const key of this.o.bindings) await ch.bindQueue(queue, exchange, key);
      await ch.consume(queue, (m) => {
        if (!m) return onLost('consumer cancelled by the broker');
        this.backlog++;
        this.chain = this.chain
          .then(() => events.onMessage({ body: m.content, routingKey: m.fields.routingKey }))
          .catch((err) => this.o.log?.('uof: message failed', err))
          .then(() => {
            this.backlog--;
            try {
              ch.ack(m);
            } catch {
              // The channel closed meanwhile: the broker redelivers after recovery; the engine's fingerprints make it a duplicate.
            }
          });
      });
      this.delay = this.o.retryMs ?? 1000;
      this.connected = true;
      events.onConnected();
    } catch (err) {
      this.o.log?.('uof: cannot connect to the broker', err);
      this.connected = false;
      const c = this.conn;
      this.conn = null;
      await c?.close().catch(() => {});
      events.onDisconnected((err as Error).message);
      this.schedule();
    }
  }

  private schedule() {
    if (this.stopped || this.retry) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, this.o.maxRetryMs ?? 30_000);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, wait);
    this.retry.unref();
  }

  /** Waits for the message being processed, then closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const c = this.conn;
    this.conn = null;
    this.connected = false;
    await this.chain;
    await c?.close().catch(() => {});
  }
}

/**
 * The embedded transport: `deliver` (called by the in-process sandbox) hands a document to the client as
 * the broker would, in order. Resolves when the client has processed it.
 */
export class InProcessTransport implements UofTransport {
  private events: UofTransportEvents | null = null;
  private chain: Promise<void> = Promise.resolve();
  connected = false;
  backlog = 0;

  async start(events: UofTransportEvents): Promise<void> {
    this.events = events;
    this.connected = true;
    events.onConnected();
  }

  deliver(d: UofDelivery): Promise<void> {
    const events = this.events;
    if (!events || !this.connected) return Promise.resolve();
    this.backlog++;
    const done = this.chain.then(() => events.onMessage(d)).finally(() => this.backlog--);
    this.chain = done.catch(() => {});
    return done;
  }

  /** The connection lost and back (the embedded sandbox's fault on demand). */
  disconnect(reason = 'connection closed'): void {
    if (!this.events || !this.connected) return;
    this.connected = false;
    this.events.onDisconnected(reason);
  }
  reconnect(): void {
    if (!this.events || this.connected) return;
    this.connected = true;
    this.events.onConnected();
  }

  /** Resolves once every document handed over so far is processed. */
  async drained(): Promise<void> {
    await this.chain;
  }

  async stop(): Promise<void> {
    this.connected = false;
    await this.chain;
    this.events = null;
  }
}
