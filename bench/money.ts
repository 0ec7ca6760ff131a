/**
 * Money benchmark (issue 3): 1,000,000 bettors and 10,000,000 bills on PostgreSQL.
 *  - first page of `bill` by user, by type and date range, and unfiltered, as the super admin and as an agent
 *    (server time through app.inject, median of 25);
 *  - export of 1,000,000 bills to CSV (rows per second, peak RSS).
 * Run: `node --import tsx bench/money.ts` (BENCH_URL, BENCH_BETTORS, BENCH_BILLS to change; BENCH_KEEP=1 reuses the data).
 * Prints figures; never a gate.
 */
import pg from 'pg';
import { openPostgres } from '../apps/server/src/platform/db.js';
import { seed } from '../apps/server/src/seed.js';
import { buildApp } from '../apps/server/src/app.js';
import { scratchDatabase } from './support';

const BASE = process.env.BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'dau_bench_money';
const { url: dbUrl } = scratchDatabase(DB, BASE);
const BETTORS = Number(process.env.BENCH_BETTORS ?? 1_000_000);
const BILLS = Number(process.env.BENCH_BILLS ?? 10_000_000);
const PASSWORD = 'Bench#2026pass';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function prepare(): Promise<boolean> {
  const admin = new pg.Client({ connectionString: BASE });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [DB])).rowCount;
  if (exists && process.env.BENCH_KEEP === '1') {
    await admin.end();
    return false;
  }
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  return true;
}


async function generate(database: Awaited<ReturnType<typeof openPostgres>>) {
  const t0 = performance.now();
  await database.migrate();
  await seed(database.db, { adminPassword: PASSWORD, demo: true });
  const c = new pg.Client({ connectionString: dbUrl() });
  await c.connect();
  // 50 agents in 5 branches below the super admin; bettors spread over them.
  await c.query(`
    INSERT INTO admins (account, name, password_hash, role_id, superior_id, path)
    SELECT 'bench_branch_' || b, 'Branch ' || b, (SELECT password_hash FROM admins WHERE account = 'admin'),
           (SELECT id FROM roles WHERE name = 'Agent'), 1, '/1/'
    FROM generate_series(1, 5) b`);
  await c.query(`
    INSERT INTO admins (account, name, password_hash, role_id, superior_id, path)
    SELECT 'bench_agent_' || b || '_' || a, 'Agent ' || b || '.' || a, (SELECT password_hash FROM admins WHERE account = 'admin'),
           (SELECT id FROM roles WHERE name = 'Agent'), br.id, '/1/' || br.id || '/'
    FROM generate_series(1, 5) b, generate_series(1, 9) a, LATERAL (SELECT id FROM admins WHERE account = 'bench_branch_' || b) br`);
  const agents = (await c.query(`SELECT id FROM admins WHERE account LIKE 'bench_agent_%' ORDER BY id`)).rows.map((r) => r.id as number);
  await c.query(`CREATE TEMP TABLE agent_ids AS SELECT row_number() OVER () - 1 AS i, id FROM unnest($1::int[]) AS id`, [agents]);
  console.log(`admins: ${agents.length} agents`);
  await c.query(`
    INSERT INTO bettors (phone, name, agent_id, invitation_code, cash_balance, created_at)
    SELECT '2557' || lpad(g::text, 8, '0'), 'Bettor ' || g, a.id, 'BX' || g, (g % 1000) * 100, now() - (g % 400) * interval '1 day'
    FROM generate_series(1, ${BETTORS}) g JOIN agent_ids a ON a.i = g % ${agents.length}`);
  console.log(`bettors: ${BETTORS} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  await c.query(`SELECT dau_ensure_bill_partitions((now() - interval '13 months')::date, 15)`);
  const chunk = 1_000_000;
  for (let done = 0; done < BILLS; done += chunk) {
    const n = Math.min(chunk, BILLS - done);
    await c.query(`
      INSERT INTO bills (created_at, serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, txn_id)
      SELECT now() - ((g::bigint * 7919) % (365 * 86400)) * interval '1 second',
             'B' || lpad(g::text, 12, '0'), b.id, b.agent_id, 1,
             (ARRAY[1,2,4,6,8,22,23,24])[1 + g % 8], ((g % 2001) - 1000) * 100, 100000, 100000 + ((g % 2001) - 1000) * 100,
             'order', g::text, md5(g::text)
      FROM generate_series(${done + 1}, ${done + n}) g
      JOIN bettors b ON b.id = 1 + (g::bigint * 31) % ${BETTORS}`);
    console.log(`bills: ${done + n} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  await c.query('ANALYZE');
  await c.end();
  console.log(`data ready in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

async function main() {
  const fresh = await prepare();
  const database = await openPostgres(dbUrl(), { max: 10 });
  if (fresh) await generate(database);
  else await database.migrate();
  const { app } = await buildApp({ database });
  await app.ready();
  const login = async (account: string) => {
    if (account !== 'admin') {
      await database.exec(`UPDATE admins SET password_hash = (SELECT password_hash FROM admins WHERE account = 'admin') WHERE account = '${account}'`);
      // The Agent role sees bills.
      await database.exec(`INSERT INTO role_menus (role_id, menu_id) SELECT r.id, m.id FROM roles r, menu_items m WHERE r.name = 'Agent' AND m.key IN ('users', 'bill', 'bill:export') ON CONFLICT DO NOTHING`);
      await database.exec(`UPDATE roles SET version = version + 1 WHERE name = 'Agent'`);
    }
    const r = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { account, password: PASSWORD } });
    return JSON.parse(r.body).token as string;
  };
  const superToken = await login('admin');
  const agentToken = await login('bench_branch_1');
  const c = new pg.Client({ connectionString: dbUrl() });
  await c.connect();
  const somePhone = (await c.query(`SELECT b.phone FROM bettors b JOIN admins a ON a.id = b.agent_id WHERE a.path LIKE (SELECT path || id || '/%' FROM admins WHERE account = 'bench_branch_1') LIMIT 1 OFFSET 777`)).rows[0].phone;
  await c.end();
  const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
  const cases: [string, string][] = [
    ['unfiltered', '/api/v1/money/bills'],
    ['by user (phone)', `/api/v1/money/bills?phone=${somePhone}`],
    ['by type and date range (7 days)', `/api/v1/money/bills?type=22&created_at_from=${from}`],
  ];
  console.log(`\nfirst page of bill (20 rows), server time, median of 25 (${BETTORS.toLocaleString()} bettors, ${BILLS.toLocaleString()} bills):`);
  for (const [who, token] of [['super admin', superToken], ['agent (branch of 9 agents)', agentToken]] as const) {
    for (const [label, url] of cases) {
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < 25; i++) {
        const t0 = performance.now();
        const r = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
        times.push(performance.now() - t0);
        if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
        total = JSON.parse(r.body).items.length;
      }
      console.log(`  ${who.padEnd(28)} ${label.padEnd(34)} ${fmt(median(times)).padStart(10)}  (${total} rows)`);
    }
  }

  const { listSpecs } = await import('../apps/server/src/platform/listing.js');
  const { runExport } = await import('../apps/server/src/modules/exports/run.js');
  const { bills } = await import('../apps/server/src/modules/money/schema.js');
  const { and, eq, gt, sql } = await import('drizzle-orm');
  const spec = listSpecs().get('bill')!;
  const [{ max }] = (await database.db.execute(sql`select max(id)::bigint as max from bills`)).rows as { max: string }[];
  const n = Math.min(1_000_000, BILLS);
  // The newest million bills whatever their age (the list itself reads the last 30 days only).
  const million = { ...spec, where: () => and(eq(bills.accountKind, 1), gt(bills.id, Number(max) - n)) };
  for (const [label, format, file] of [['CSV', 1, '/tmp/dau-bench-bills.csv'], ['XLSX', 2, '/tmp/dau-bench-bills.xlsx']] as const) {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const r = await runExport(database.db, million, {}, { all: true }, format, file);
    clearInterval(sampler);
    console.log(`export of ${r.rows.toLocaleString()} bills to ${label}: ${(r.rows / (r.ms / 1000)).toFixed(0)} rows/s, ${(r.ms / 1000).toFixed(1)} s, ${(r.bytes / 1048576).toFixed(0)} MB, peak RSS ${(peak / 1048576).toFixed(0)} MB (process before: ${(baseline / 1048576).toFixed(0)} MB)`);
  }
  await app.close();
  await database.close();
}

await main();
