/**
 * One process at a time for continuous work that is not a job (the sandbox odds feed, the demo
 * simulator): the process holding a PostgreSQL session advisory lock leads. The lock lives on a
 * connection of its own, so it is released the moment the process dies (kill -9 closes the socket) or
 * loses the database, and another process, retrying every few seconds, takes over. On PGlite there is
 * one process: it leads at once.
 */
import pg from 'pg';
import type { Database } from './db.js';

export interface Leadership {
  isLeader(): boolean;
  stop(): Promise<void>;
}

export interface LeadershipOptions {
  /** Called when this process becomes the leader. */
  onLead: () => void | Promise<void>;
  /** Called when it stops being the leader (connection lost, or `stop`). */
  onLose: () => void | Promise<void>;
  /** How often a follower tries to take the lead (ms; default 2000). */
  retryMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

export const LEADER_APPLICATION = 'dau_leader';

/** The leaderships this process holds on each database (the server list shows them): per database, as two apps of one process (tests) lead apart. */
const heldOn = new WeakMap<Database, Set<string>>();
export const heldLeaderships = (database: Database): string[] => [...(heldOn.get(database) ?? [])].sort();

export function leadership(database: Database, name: string, opts: LeadershipOptions): Leadership {
  const held = heldOn.get(database) ?? new Set<string>();
  heldOn.set(database, held);
  let leading = false;
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  const log = opts.log ?? (() => {});

  const lead = async () => {
    leading = true;
    held.add(name);
    try {
      await opts.onLead();
    } catch (err) {
      log(`leader ${name}: could not start`, err);
    }
  };
  const lose = async () => {
    if (!leading) return;
    leading = false;
    held.delete(name);
    try {
      await opts.onLose();
    } catch (err) {
      log(`leader ${name}: could not stop`, err);
    }
  };

  if (database.kind !== 'pg' || !database.url) {
    void lead();
    return { isLeader: () => leading, stop: async () => void (await lose()) };
  }
  const url = database.url;

  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void attempt();
    }, opts.retryMs ?? 2000);
    timer.unref();
  };
  const drop = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    c.end().catch(() => {});
    void lose();
    schedule();
  };
  const attempt = async () => {
    if (stopped || client) return;
    const c = new pg.Client({ connectionString: url, application_name: LEADER_APPLICATION });
    client = c;
    c.on('error', () => drop(c));
    c.on('end', () => drop(c));
    try {
      await c.connect();
      const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [`dau:leader:${name}`]);
      if (rows[0]?.ok && !stopped) {
        await lead();
        return;
      }
    } catch (err) {
      log(`leader ${name}: attempt failed`, err);
    }
    // Not the leader (or no database): let the connection go and try again later.
    if (client === c) {
      client = null;
      c.removeAllListeners('end');
      c.removeAllListeners('error');
      c.on('error', () => {});
      await c.end().catch(() => {});
    }
    schedule();
  };
  void attempt();

  return {
    isLeader: () => leading,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await lose();
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners('end');
        c.removeAllListeners('error');
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}

/**
 * Runs `fn` while holding a PostgreSQL advisory lock (migrations and seeds when several processes start
 * together); on PGlite, just runs it.
 */
export async function startupLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  if (database.kind !== 'pg' || !database.url) return fn();
  const c = new pg.Client({ connectionString: database.url, application_name: 'dau_startup' });
  await c.connect();
  try {
    await c.query('SELECT pg_advisory_lock(hashtext($1))', ['dau:startup']);
    return await fn();
  } finally {
    await c.end().catch(() => {});
  }
}
