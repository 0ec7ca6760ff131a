/**
 * Finding 3 of issue 11: the PostgreSQL LISTEN connection comes back by itself after it is dropped, and
 * messages from another process reach this one again without a new subscribe call. PostgreSQL only (the
 * embedded database is one process with a local bus): the PostgreSQL pass of `npm test` runs it.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../src/platform/db.js';

const URL_ = process.env.TEST_DATABASE_URL;
if (!URL_) console.warn('SKIPPED: bus-listener.test.ts needs PostgreSQL (set TEST_DATABASE_URL)');

/** Polls `probe` until it answers a value (the test's timeout bounds the wait). */
async function until<T>(probe: () => Promise<T | undefined> | T | undefined, everyMs = 50): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

describe.skipIf(!URL_)('bus listener on PostgreSQL', () => {
  let a: Database;
  let b: Database;
  let admin: pg.Client;
  const dbName = `dau_t_bus_${crypto.randomBytes(4).toString('hex')}`;
  const channel = `test_${crypto.randomBytes(4).toString('hex')}`;
  const received: unknown[] = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: URL_ });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const u = new URL(URL_!);
    u.pathname = `/${dbName}`;
    a = await openPostgres(u.toString(), { max: 2 });
    b = await openPostgres(u.toString(), { max: 2 });
    a.bus.subscribe(channel, (p) => received.push(p));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin?.end();
  });

  /** Backends LISTENing in this test's database: process A's listener only (B never subscribed). */
  const listenerPids = async () =>
    (await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN%'`, [dbName])).rows.map(
      (r) => r.pid,
    );

  /** Publishes from B until A has heard `n` (a notification sent while A is reconnecting is lost). */
  const deliver = async (n: number) => {
    await until(async () => {
      await b.bus.publish(channel, { n });
      return received.some((p) => (p as { n: number }).n === n) || undefined;
    }, 100);
  };

  it('hears another process, loses its LISTEN backend, reconnects by itself and hears it again', async () => {
    await deliver(1);

    const [pid] = await until(async () => {
      const pids = await listenerPids();
      return pids.length === 1 ? pids : undefined;
    });
    const killed = await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid]);
    expect(killed.rows[0].ok).toBe(true);

    // A new LISTEN backend appears without anyone calling subscribe again...
    await until(async () => {
      const pids = await listenerPids();
      return pids.length === 1 && pids[0] !== pid ? true : undefined;
    });
    // ...and a message published by B reaches A's handler.
    await deliver(2);
    // A cache kept valid by the bus knows it may have missed messages meanwhile: the epoch moved on.
    expect(a.bus.live()).toBe(true);
    expect(a.bus.epoch()).toBe(2);
  }, 60_000);
});
