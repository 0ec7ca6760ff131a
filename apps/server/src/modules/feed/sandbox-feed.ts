/**
 * Runs the SANDBOX provider (./simulator.ts) against a FeedEngine in real time (`npm start` with the
 * simulator switch; never in tests unless a test starts it).
 *
 * Messages are applied one at a time, in order, through a queue (one message, one transaction). The
 * provider's clock only advances while the queue is drained, so a slow database slows the simulation
 * instead of piling up messages. Alive checks run on the same queue, and only when it is empty: a
 * backlog of our own is not the producer's silence.
 */
import type { FeedEngine, IngestResult } from './engine.js';
import type { FeedMessageInput } from './messages.js';
import { SandboxProvider } from './simulator.js';

export interface SandboxFeedOptions {
  seed?: number;
  /** Simulated ms per real ms (default 1: the wall clock, so start times are real kick-offs). */
  speed?: number;
  /** Real ms between clock advances (default 1000), between alive checks (default 5000) and between the producers' alive messages (default 5000). */
  tickMs?: number;
  aliveCheckMs?: number;
  heartbeatMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

export function startSandboxFeed(engine: FeedEngine, opts: SandboxFeedOptions = {}) {
  let queue: Promise<unknown> = Promise.resolve();
  let backlog = 0;
  let stopped = false;
  const run = (task: () => Promise<unknown>) => {
    backlog++;
    queue = queue
      .then(task)
      .catch((err) => opts.log?.('sandbox feed: message failed', err))
      .finally(() => backlog--);
  };
  const emit = (m: FeedMessageInput) =>
    run(async () => {
      if (stopped) return;
      const r: IngestResult = await engine.ingest(m);
      if (!r.ok) opts.log?.(`sandbox feed: ${r.error}`);
    });

  const provider = new SandboxProvider({ seed: opts.seed ?? Date.now() % 2 ** 31, startTime: Date.now(), speed: opts.speed, emit });
  provider.start();
  // A producer that went down (silent) and says alive again is recovered: its events' state, then up.
  engine.recover = (producer) => provider.recover(producer);
  // The producers say they are alive every few seconds, as a real feed does (the engine takes one silent
  // for 20 s as down), whatever the simulated speed.
  const heartbeat = setInterval(() => {
    if (backlog === 0) provider.heartbeat();
  }, opts.heartbeatMs ?? 5000);
  heartbeat.unref();
  let last = Date.now();
  const tick = setInterval(() => {
    const now = Date.now();
    const elapsed = now - last;
    last = now;
    if (backlog > 0) return; // the clock waits for the database: that time is not simulated
    provider.advance(elapsed);
  }, opts.tickMs ?? 1000);
  const alive = setInterval(() => {
    if (backlog === 0) run(() => engine.checkAlive());
  }, opts.aliveCheckMs ?? 5000);
  tick.unref();
  alive.unref();

  return {
    provider,
    /** An alive check now, on the queue (after the messages before it; one transaction at a time on PGlite). */
    checkAlive(): Promise<number[]> {
      return new Promise((resolve, reject) => run(() => engine.checkAlive().then(resolve, reject)));
    },
    /** Stops the clock and the alive checks; resolves when the message being applied is done. */
    async stop() {
      stopped = true;
      clearInterval(tick);
      clearInterval(alive);
      clearInterval(heartbeat);
      if (engine.recover) engine.recover = undefined;
      await queue;
    },
  };
}
