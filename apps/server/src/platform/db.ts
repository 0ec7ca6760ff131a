import crypto from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import { EventEmitter } from 'node:events';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';

/**
 * No relational schema is given to drizzle (queries name their tables), so the platform does not depend
 * on the modules' tables; `src/schema.ts` gathers them for the migration generator.
 */
export type Schema = Record<string, never>;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a query can run on: the database or an open transaction. */
export type Executor = Db | Tx;

import { MIGRATIONS_FOLDER } from './paths.js';

export { MIGRATIONS_FOLDER };

/** Cross-process fan-out of small messages (notices, session revocations): LISTEN/NOTIFY on PostgreSQL. */
export interface Bus {
  publish(channel: string, payload: unknown): Promise<void>;
  subscribe(channel: string, handler: (payload: unknown) => void): void;
  /**
   * Changes each time the process starts (again) to hear other processes: a cache kept valid by bus
   * messages is trusted only while `live()` and while the epoch it was filled in is the current one
   * (messages sent while the listener was down are lost).
   */
  epoch(): number;
  /** True while messages from other processes reach this one. */
  live(): boolean;
}

export interface Database {
  kind: 'pglite' | 'pg';
  db: Db;
  bus: Bus;
  /** Runs raw SQL (tests, benches, maintenance). */
  exec(sqlText: string): Promise<void>;
  /**
   * Raw SQL outside drizzle (the job queue's own statements): with `values`, one statement with $n
   * parameters; without, any number of statements (the result of the last).
   */
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
  /**
   * One statement with $n parameters that PostgreSQL keeps parsed and planned on each connection under
   * `name` (a hot path's statement: the casino wallet's); on PGlite an ordinary parameterised query.
   * Errors carry PostgreSQL's `code`.
   */
  prepared(name: string, text: string, values: unknown[]): Promise<{ rows: any[] }>;
  /** The connection string, on PostgreSQL. */
  url?: string;
  /** Connections of the pool: open and in use (PGlite: its one connection). */
  poolStats(): { total: number; inUse: number; waiting: number };
  migrate(): Promise<void>;
  /** PGlite: its data folder as one tar (what `openPglite(undefined, { from })` starts from: test templates). */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

const CHANNEL = 'dau_bus';

/** A bus message as NOTIFY carries it: channel, payload and the publishing Database (none from a trigger). */
interface Envelope {
  c: string;
  p: unknown;
  o?: string;
}

function parseEnvelope(text: string | undefined): Envelope | null {
  if (!text) return null;
  try {
    const e = JSON.parse(text) as Envelope;
    return typeof e?.c === 'string' ? e : null;
  } catch {
    return null; /* not ours */
  }
}

/**
 * PGlite is one process, one connection: the bus is local. What the database itself notifies (triggers,
 * sent at commit) is heard through PGlite's own LISTEN.
 */
function localBus(): Bus & { deliver(text: string): void } {
  const ee = new EventEmitter();
  ee.setMaxListeners(0);
  return {
    async publish(channel, payload) {
      ee.emit(channel, payload);
    },
    subscribe(channel, handler) {
      ee.on(channel, handler);
    },
    epoch: () => 0,
    live: () => true,
    deliver(text) {
      const e = parseEnvelope(text);
      if (e) ee.emit(e.c, e.p);
    },
  };
}

/**
 * PGlite's shared buffers live in its WebAssembly memory, in the server's own process: PostgreSQL's default
 * (128MB) is more than an embedded back office's data needs, and the pages it touches stay resident.
 * DAU_PGLITE_SHARED_BUFFERS (default 32MB) sets them; the files stay cached by the operating system too.
 */
const pgliteStartParams = () => [...PGlite.defaultStartParams, '-c', `shared_buffers=${process.env.DAU_PGLITE_SHARED_BUFFERS || '32MB'}`];

export async function openPglite(dataDir?: string, opts: { from?: Blob } = {}): Promise<Database> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const load = { startParams: pgliteStartParams(), ...(opts.from ? { loadDataDir: opts.from } : {}) };
  const client = dataDir ? new PGlite(dataDir, load) : new PGlite(load);
  await client.waitReady;
  const db = drizzlePglite(client) as unknown as Db;
  const bus = localBus();
  await client.listen(CHANNEL, (text) => bus.deliver(text));
  return {
    kind: 'pglite',
    db,
    bus,
    exec: async (s) => {
      await client.exec(s);
    },
    query: async (text, values) => {
      if (values?.length) return client.query(text, values);
      const results = await client.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
    prepared: (_name, text, values) => client.query(text, values),
    poolStats: () => ({ total: 1, inUse: 0, waiting: 0 }),
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER }),
    dump: () => client.dumpDataDir('none'),
    close: () => client.close(),
  };
}

/** The `application_name` of the server's query pool (seen in pg_stat_activity). */
export const SERVER_APPLICATION = 'dau_server';

/** The `application_name` of the LISTEN connection (seen in pg_stat_activity). */
export const LISTENER_APPLICATION = 'dau_bus_listener';

/**
 * The one LISTEN connection of a process. When it fails or ends (server restart, failover, a killed
 * backend, a network cut) it is opened again with a growing back-off (0.1 s doubling to 10 s, with
 * jitter) and LISTENs again, without waiting for a new subscriber.
 */
function pgListener(url: string, deliver: (e: Envelope) => void) {
  let client: pg.Client | null = null;
  let connected = false;
  let epoch = 0;
  let started = false;
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | null = null;

  const retry = () => {
    if (stopped || timer) return;
    const delay = Math.min(10_000, 100 * 2 ** Math.min(failures, 7)) * (0.5 + Math.random() / 2);
    failures++;
    timer = setTimeout(() => {
      timer = null;
      void open();
    }, delay);
    timer.unref();
  };
  const drop = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    connected = false;
    c.removeAllListeners('notification');
    c.end().catch(() => {});
    retry();
  };
  const open = async () => {
    if (stopped || client) return;
    const c = new pg.Client({ connectionString: url, application_name: LISTENER_APPLICATION });
    client = c;
    c.on('error', () => drop(c));
    c.on('end', () => drop(c));
    c.on('notification', (n) => {
      const e = n.channel === CHANNEL ? parseEnvelope(n.payload) : null;
      if (e) deliver(e);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      if (client !== c) return;
      connected = true;
      epoch++;
      failures = 0;
    } catch {
      drop(c);
    }
  };
  return {
    start() {
      if (started) return;
      started = true;
      void open();
    },
    epoch: () => epoch,
    live: () => connected,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      connected = false;
      if (c) await c.end().catch(() => {});
    },
  };
}

export async function openPostgres(url: string, opts: { max?: number } = {}): Promise<Database> {
  // The name marks the server's own connections in pg_stat_activity (the lock screen never ends them).
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 20, application_name: SERVER_APPLICATION });
  pool.on('error', () => {
    /* an idle client died; the pool replaces it */
  });
  const db = drizzlePg(pool) as unknown as Db;
  const ee = new EventEmitter();
  ee.setMaxListeners(0);
  // This process's subscribers hear its own messages at once, not after a round trip through the server.
  const origin = crypto.randomBytes(8).toString('hex');
  const listen = pgListener(url, (e) => {
    if (e.o !== origin) ee.emit(e.c, e.p);
  });
  const bus: Bus = {
    async publish(channel, payload) {
      ee.emit(channel, payload);
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ c: channel, p: payload, o: origin } satisfies Envelope)]);
    },
    subscribe(channel, handler) {
      ee.on(channel, handler);
      listen.start();
    },
    epoch: () => listen.epoch(),
    live: () => listen.live(),
  };
  return {
    kind: 'pg',
    db,
    bus,
    exec: async (s) => {
      await pool.query(s);
    },
    query: async (text, values) => {
      const r = (await pool.query(text, values)) as pg.QueryResult | pg.QueryResult[];
      return Array.isArray(r) ? (r[r.length - 1] ?? { rows: [] }) : r;
    },
    prepared: (name, text, values) => pool.query({ name, text, values }),
    url,
    poolStats: () => ({ total: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    migrate: () => migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      await listen.stop();
      await pool.end();
    },
  };
}

export function openDatabase(cfg: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return cfg.databaseUrl ? openPostgres(cfg.databaseUrl) : openPglite(path.join(cfg.dataDir, 'pgdata'));
}
