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
import * as schema from '../schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a query can run on: the database or an open transaction. */
export type Executor = Db | Tx;

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../drizzle');

/** Cross-process fan-out of small messages (notices, session revocations): LISTEN/NOTIFY on PostgreSQL. */
export interface Bus {
  publish(channel: string, payload: unknown): Promise<void>;
  subscribe(channel: string, handler: (payload: unknown) => void): void;
}

export interface Database {
  kind: 'pglite' | 'pg';
  db: Db;
  bus: Bus;
  /** Runs raw SQL (tests, benches, maintenance). */
  exec(sqlText: string): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'dau_bus';

/** PGlite is one process, one connection: the bus is local. */
function localBus(): Bus {
  const ee = new EventEmitter();
  ee.setMaxListeners(0);
  return {
    async publish(channel, payload) {
      ee.emit(channel, payload);
    },
    subscribe(channel, handler) {
      ee.on(channel, handler);
    },
  };
}

export async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    bus: localBus(),
    exec: async (s) => {
      await client.exec(s);
    },
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
  };
}

export async function openPostgres(url: string, opts: { max?: number } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 20 });
  pool.on('error', () => {
    /* an idle client died; the pool replaces it */
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const ee = new EventEmitter();
  ee.setMaxListeners(0);
  let listener: pg.Client | null = null;
  const ensureListener = async () => {
    if (listener) return;
    listener = new pg.Client({ connectionString: url });
    await listener.connect();
    listener.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      try {
        const { c, p } = JSON.parse(n.payload) as { c: string; p: unknown };
        ee.emit(c, p);
      } catch {
        /* not ours */
      }
    });
    listener.on('error', () => {
      listener = null;
    });
    await listener.query(`LISTEN ${CHANNEL}`);
  };
  const bus: Bus = {
    async publish(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ c: channel, p: payload })]);
    },
    subscribe(channel, handler) {
      ee.on(channel, handler);
      void ensureListener();
    },
  };
  return {
    kind: 'pg',
    db,
    bus,
    exec: async (s) => {
      await pool.query(s);
    },
    migrate: () => migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      if (listener) await (listener as pg.Client).end().catch(() => {});
      await pool.end();
    },
  };
}

export function openDatabase(cfg: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return cfg.databaseUrl ? openPostgres(cfg.databaseUrl) : openPglite(path.join(cfg.dataDir, 'pgdata'));
}
