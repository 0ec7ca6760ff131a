/**
 * Search everywhere (issue 29) at the size the issue names: 1,000,000 bettors and 10,000,000 orders on
 * PostgreSQL, with 1,000,000 withdrawals, 1,000,000 recharges, 200,000 jackpot tickets, 100,000 TRON
 * deposit wallets and 500,000 USDT transfers beside them. Each query shape is timed through the app
 * (GET /api/v1/search with app.inject: routing, access, validation, the lookups of every kind the admin
 * may see, serialisation) as the super admin (the whole book) and as a branch admin (one branch of 5, its
 * role holding every screen search reads): BENCH_REPEAT (200) calls per shape, each for another target
 * drawn from the data, after 10 unmeasured ones; p50, p95 and p99. The target is p95 < 200 ms.
 *
 * Setup (not timed): the database dau_bench_search next to BENCH_URL, migrated (0041 included) and
 * seeded with the demo accounts; 5 branches of 9 agents; the rows written inside PostgreSQL by
 * `INSERT ... SELECT generate_series` (orders in chunks of 1,000,000, their secondary indexes dropped
 * during the load and built again after it, as a restore would), then VACUUM ANALYZE. With BENCH_KEEP=1
 * the database is kept and a later run reuses it (generation takes a long time on a small machine).
 *
 * Run: `BENCH_KEEP=1 node --import tsx bench/search.ts`. Prints figures; never a gate.
 *
 * Figures, this machine (2 cores shared with other sessions' builds and tests, load average 11-15;
 * 2026-12-05, 1,000,000 bettors, 10,000,012 orders; 200 calls each; p50 / p95 / p99 in ms):
 *                                   super admin (whole book)   branch admin (1 of 5 branches)
 *   local phone (0612 345 678)         19.8 /  84.3 / 169.7       15.7 / 76.0 / 193.0
 *   order serial                       11.9 /  40.1 /  72.6       14.8 / 55.7 / 158.0
 *   order id                            7.5 /  40.4 /  71.3       14.2 / 37.6 / 106.9
 *   operator reference (withdrawal)    21.5 /  67.3 / 160.7       22.4 / 48.0 /  91.8
 *   name prefix (first and last name)  13.8 /  51.2 /  93.9       13.5 / 34.1 /  43.9
 *   name prefix (full name)            15.7 /  60.7 / 143.4       15.2 / 35.8 /  65.3
 *   tx hash                             9.9 /  44.9 /  81.3       11.4 / 28.2 /  51.1
 *   TRON address                       24.8 /  95.4 / 229.4       21.4 / 45.4 /  59.5
 * Every p95 under the issue's 200 ms; the tails are the machine's load. Before bettors_agent_name_prefix
 * held the name and id (an index-only scan), a branch admin's "zawadi mu" read 1,250 rows: 100 ms warm.
 */
import os from 'node:os';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { openPostgres } from '../apps/server/src/platform/db.js';
import { seed } from '../apps/server/src/seed.js';
import { pct, scratchDatabase } from './support.js';

const DB = 'dau_bench_search';
const { url: dbUrl, admin: adminQuery } = scratchDatabase(DB);
const BETTORS = Number(process.env.BENCH_BETTORS ?? 1_000_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
const TICKETS = Math.min(200_000, PAYMENTS / 5);
const WALLETS = Math.min(100_000, BETTORS);
const TRANSFERS = Math.min(500_000, PAYMENTS / 2);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 200);
const PASSWORD = 'Bench#2026pass';
const CHUNK = 1_000_000;

const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(0)} s`;
/** A base58 TRON address made from a seed (md5 hex has no character outside base58 but 0). */
const ADDRESS = (seedSql: string) => `'T' || substr(translate(md5('a' || ${seedSql}) || md5('b' || ${seedSql}), '0', 'z'), 1, 33)`;
const FIRST_NAMES = ['Zawadi', 'Neema', 'Baraka', 'Juma', 'Amani', 'Rehema', 'Halima', 'Emmanuel', 'Joseph', 'Grace', 'Salma', 'Hassan', 'Mwajuma', 'Idrisa', 'Upendo', 'Faraja'];
const LAST_NAMES = ['Mushi', 'Mwakyusa', 'Kimaro', 'Lyimo', 'Massawe', 'Mollel', 'Shirima', 'Temba'];
const arr = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x}'`).join(',')}]`;

/** Loads rows into a table with its secondary indexes dropped, then builds them again (as a restore does). */
async function bulk(c: pg.Client, table: string, load: () => Promise<void>) {
  const defs = (await c.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexname NOT IN (SELECT conname FROM pg_constraint)`, [table])).rows as { indexname: string; indexdef: string }[];
  // In one transaction: a load that fails leaves the table with its indexes.
  await c.query('BEGIN');
  try {
    for (const d of defs) await c.query(`DROP INDEX "${d.indexname}"`);
    await load();
    for (const d of defs) await c.query(d.indexdef);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK');
    throw e;
  }
}

async function generate(c: pg.Client) {
  const t0 = performance.now();
  await c.query(`SET maintenance_work_mem = '256MB'`);
  await c.query(`SET synchronous_commit = off`);
  /** How many rows a table holds (a stage already written by an earlier, interrupted run is skipped). */
  const rows = async (table: string) => Number((await c.query(`SELECT count(*) n FROM (SELECT 1 FROM ${table} LIMIT 20000000) x`)).rows[0].n);
  const resumed = Number((await c.query(`SELECT count(*) n FROM admins WHERE account = 'bench_branch_1'`)).rows[0].n) > 0;
  // 5 branches below the super admin, 9 agents each; the branch admin's role holds every screen search reads.
  if (!resumed) await c.query(`
    INSERT INTO admins (account, name, phone, password_hash, role_id, superior_id, path)
    SELECT 'bench_branch_' || b, 'Branch ' || b, '07540000' || lpad(b::text, 2, '0'), (SELECT password_hash FROM admins WHERE account = 'admin'),
           (SELECT role_id FROM admins WHERE account = 'admin'), 1, '/1/'
    FROM generate_series(1, 5) b`);
  if (!resumed) await c.query(`
    INSERT INTO admins (account, name, password_hash, role_id, superior_id, path)
    SELECT 'bench_agent_' || b || '_' || a, 'Agent ' || b || '.' || a, (SELECT password_hash FROM admins WHERE account = 'admin'),
           (SELECT role_id FROM admins WHERE account = 'admin'), br.id, '/1/' || br.id || '/'
    FROM generate_series(1, 5) b, generate_series(1, 9) a, LATERAL (SELECT id FROM admins WHERE account = 'bench_branch_' || b) br`);
  if (!resumed) await c.query(`INSERT INTO roles (name, remarks) VALUES ('BenchSearch', 'bench')`);
  if (!resumed) await c.query(`
    INSERT INTO role_menus (role_id, menu_id) SELECT r.id, m.id FROM roles r, menu_items m
    WHERE r.name = 'BenchSearch' AND m.key IN ('user', 'order_list', 'order_detailed', 'withdraw_list', 'withdrawal_archive', 'recharge_list',
      'recharge_archive', 'jackpot_bet_list', 'tron', 'usdt_transaction_record', 'tron_transaction_summary', 'administrators')`);
  if (!resumed) await c.query(`UPDATE admins SET role_id = (SELECT id FROM roles WHERE name = 'BenchSearch') WHERE account = 'bench_branch_1'`);
  await c.query(`CREATE TEMP TABLE agent_ids AS SELECT row_number() OVER (ORDER BY id) - 1 AS i, id FROM admins WHERE account LIKE 'bench_%'`);
  const agents = Number((await c.query('SELECT count(*) n FROM agent_ids')).rows[0].n);

  // Bettors: national numbers 6xxxxxxxx (the demo's are 7…), Swahili names, drawn invitation codes.
  if ((await rows('bettors')) < BETTORS) await bulk(c, 'bettors', async () => {
    await c.query(`
      INSERT INTO bettors (phone, name, agent_id, invitation_code, created_at)
      SELECT '2556' || lpad(g::text, 8, '0'),
             (${arr(FIRST_NAMES)})[1 + g % 16] || ' ' || (${arr(LAST_NAMES)})[1 + (g / 16) % 8] || ' ' || g,
             a.id, 'BX' || upper(to_hex(g)), now() - g * interval '30 seconds'
      FROM generate_series(1, ${BETTORS}) g JOIN agent_ids a ON a.i = g % ${agents}`);
  });
  await c.query(`CREATE TEMP TABLE bench_b AS SELECT substr(phone, 5)::int AS k, id, agent_id, phone FROM bettors WHERE phone LIKE '2556%' AND invitation_code LIKE 'BX%'`);
  await c.query(`CREATE UNIQUE INDEX ON bench_b (k)`);
  await c.query(`ANALYZE bench_b`);
  console.log(`admins: ${agents} agents and branches; bettors: ${BETTORS} (${secs(t0)})`);

  // Orders over the last 35 days, serials as ledger.newSerial writes them (letter, yymmdd, 12 hex digits).
  if ((await rows('orders')) < ORDERS) await bulk(c, 'orders', async () => {
    for (let done = 0; done < ORDERS; done += CHUNK) {
      const n = Math.min(CHUNK, ORDERS - done);
      await c.query(`
        INSERT INTO orders (order_no, serial_number, bettor_id, agent_id, type, status, stake, cash_stake, total_odds, potential_payout, leg_count,
                            tax_rate, last_match_at, created_at, updated_at)
        SELECT 'O' || x.ymd || x.hex, 'S' || x.ymd || x.hex, b.id, b.agent_id, 1, 2, 100000, 100000, 2.5, 250000, 1, 1000,
               x.at + interval '2 hours', x.at, x.at
        FROM generate_series(${done + 1}, ${done + n}) g
        JOIN bench_b b ON b.k = 1 + (g::bigint * 31) % ${BETTORS}
        CROSS JOIN LATERAL (SELECT now() - g * interval '0.3 seconds' AS at) t
        CROSS JOIN LATERAL (SELECT t.at, to_char(t.at AT TIME ZONE 'UTC', 'YYMMDD') AS ymd, upper(lpad(to_hex(g), 12, '0')) AS hex) x`);
      console.log(`orders: ${done + n} (${secs(t0)})`);
    }
  });
  console.log(`orders indexed (${secs(t0)})`);

  for (const [table, letter, ref, payType] of [['withdrawals', 'W', 'MP', 6], ['recharges', 'R', 'AT', 4]] as const) {
    if ((await rows(table)) < PAYMENTS) await bulk(c, table, async () => {
      await c.query(`
        INSERT INTO ${table} (serial_number, bettor_id, agent_id, amount, pay_type, phone, carrier_order_number, pay_status, created_at)
        SELECT '${letter}' || to_char(t.at AT TIME ZONE 'UTC', 'YYMMDD') || upper(lpad(to_hex(g), 12, '0')), b.id, b.agent_id, 500000, ${payType}, b.phone,
               '${ref}' || upper(lpad(to_hex(g::bigint * 7919), 10, '0')), 2, t.at
        FROM generate_series(1, ${PAYMENTS}) g JOIN bench_b b ON b.k = 1 + (g::bigint * 37) % ${BETTORS}
        CROSS JOIN LATERAL (SELECT now() - g * interval '5 seconds' AS at) t`);
    });
    console.log(`${table}: ${PAYMENTS} (${secs(t0)})`);
  }
  if ((await rows('jackpot_tickets')) < TICKETS) await c.query(`
    INSERT INTO jackpot_tickets (serial_number, issue_id, bettor_id, agent_id, picks, lines, unit, stake, created_at)
    SELECT 'J' || to_char(t.at AT TIME ZONE 'UTC', 'YYMMDD') || upper(lpad(to_hex(g), 12, '0')), 1, b.id, b.agent_id, '{1,2,3}', 1, 1000, 1000, t.at
    FROM generate_series(1, ${TICKETS}) g JOIN bench_b b ON b.k = 1 + (g::bigint * 41) % ${BETTORS}
    CROSS JOIN LATERAL (SELECT now() - g * interval '10 seconds' AS at) t`);
  if ((await rows('tron_wallets')) < WALLETS) await c.query(`
    INSERT INTO tron_wallets (role, bettor_id, agent_id, address_base58, address_hex, public_key, key_ciphertext, key_iv, key_tag, data_key_wrapped)
    SELECT 1, b.id, b.agent_id, ${ADDRESS('g')}, '41' || substr(md5('h' || g) || md5('i' || g), 1, 40), 'bench', 'x', 'x', 'x', 'x'
    FROM generate_series(1, ${WALLETS}) g JOIN bench_b b ON b.k = g`);
  if ((await rows('tron_transfers')) < TRANSFERS) await c.query(`
    INSERT INTO tron_transfers (fingerprint, tx_hash, event_index, block_number, from_address, to_address, amount, direction, wallet_id, bettor_id, agent_id, status, created_at)
    SELECT md5('t' || g) || md5('u' || g) || ':0', md5('t' || g) || md5('u' || g), 0, 60000000 + g, ${ADDRESS("'x' || g")}, w.address_base58, 25000000, 'in',
           w.id, w.bettor_id, w.agent_id, 2, now() - g * interval '6 seconds'
    FROM generate_series(1, ${TRANSFERS}) g JOIN tron_wallets w ON w.address_base58 = ${ADDRESS(`(1 + g % ${WALLETS})`)}`);
  console.log(`jackpot tickets: ${TICKETS}, TRON wallets: ${WALLETS}, transfers: ${TRANSFERS} (${secs(t0)})`);
  await c.query('VACUUM ANALYZE');
  console.log(`data ready in ${secs(t0)}`);
}

async function main() {
  const keep = process.env.BENCH_KEEP === '1';
  const exists = (await adminQuery(`SELECT 1 FROM pg_database WHERE datname = '${DB}'`)).rowCount;
  const reuse = !!exists && keep;
  if (!reuse) {
    await adminQuery(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${DB}`);
  }
  const database = await openPostgres(dbUrl());
  const c = new pg.Client({ connectionString: dbUrl() });
  await c.connect();
  try {
    await database.migrate();
    // A kept database is reused; one an earlier run left unfinished is completed (each stage checks its rows).
    const done = reuse && Number((await c.query(`SELECT count(*) n FROM tron_transfers`)).rows[0].n) >= TRANSFERS;
    if (!done) {
      const seeded = Number((await c.query(`SELECT count(*) n FROM admins`)).rows[0].n) > 0;
      if (!seeded) await seed(database.db, { adminPassword: PASSWORD, demo: true });
      await generate(c);
    } else console.log(`reusing ${DB}`);
    const sizes = (await c.query(`SELECT (SELECT count(*) FROM bettors)::int AS bettors, (SELECT reltuples::bigint FROM pg_class WHERE relname = 'orders') AS orders_estimate`)).rows[0];
    console.log(`tables: ${JSON.stringify(sizes)}`);

    const built = await buildApp({ database, logger: false });
    await built.app.ready();
    const login = async (account: string) => {
      const r = await built.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { account, password: PASSWORD } });
      if (r.statusCode !== 200) throw new Error(`login ${account}: ${r.statusCode} ${r.body}`);
      return (JSON.parse(r.body) as { token: string }).token;
    };
    const callers = [
      ['super admin', await login('admin')],
      ['branch admin', await login('bench_branch_1')],
    ] as const;

    // Targets drawn from the data (each call another), in the forms an operator types. The branch admin's
    // targets are of its branch: agents of bench_branch_1.
    const sample = async (q: string) => (await c.query(q)).rows.map((r) => String(Object.values(r)[0]));
    const branchAgents = `(SELECT id FROM admins WHERE path LIKE '/1/' || (SELECT id FROM admins WHERE account = 'bench_branch_1') || '/%')`;
    const n = REPEAT + 10;
    const shapes = async (branch: boolean) => {
      const scope = branch ? `agent_id IN ${branchAgents}` : 'true';
      // A 1 % sample of the pages; on a small table (a trial run), any rows at random.
      const rnd = async (table: string, col: string, extra = 'true') => {
        const xs = await sample(`SELECT ${col} FROM ${table} TABLESAMPLE SYSTEM (1) WHERE ${scope} AND ${extra} LIMIT ${n}`);
        return xs.length >= n ? xs : sample(`SELECT ${col} FROM ${table} WHERE ${scope} AND ${extra} ORDER BY random() LIMIT ${n}`);
      };
      return {
        'local phone (0612 345 678)': (await rnd('bettors', 'phone', `phone LIKE '2556%'`)).map((p) => `0${p.slice(3, 6)} ${p.slice(6, 9)} ${p.slice(9)}`),
        'order serial': await rnd('orders', 'serial_number'),
        'order id': await rnd('orders', 'id'),
        'operator reference (withdrawal)': await rnd('withdrawals', 'carrier_order_number'),
        'name prefix (2 words)': (await rnd('bettors', 'name', `phone LIKE '2556%'`)).map((s) => s.split(' ').slice(0, 2).join(' ').toLowerCase()),
        'name prefix (full)': (await rnd('bettors', 'name', `phone LIKE '2556%'`)).map((s) => s.toLowerCase()),
        'tx hash': await rnd('tron_transfers', 'tx_hash'),
        'TRON address': await rnd('tron_wallets', 'address_base58'),
      };
    };
    console.log(`\n${REPEAT} calls per shape (p50 / p95 / p99), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    for (const [label, token] of callers) {
      const targets = await shapes(label === 'branch admin');
      for (const [shape, qs] of Object.entries(targets)) {
        if (qs.length < 20) {
          console.log(`${label}, ${shape}: too few targets (${qs.length})`);
          continue;
        }
        const xs: number[] = [];
        let hits = 0;
        for (let i = 0; i < Math.max(REPEAT + 10, qs.length); i++) {
          const q = qs[i % qs.length];
          const s = performance.now();
          const r = await built.app.inject({ method: 'GET', url: `/api/v1/search?q=${encodeURIComponent(q)}`, headers: { authorization: `Bearer ${token}` } });
          const ms = performance.now() - s;
          if (r.statusCode !== 200) throw new Error(`${shape} ${q}: ${r.statusCode} ${r.body}`);
          if (i >= 10) {
            xs.push(ms);
            if ((JSON.parse(r.body) as { groups: { items: unknown[] }[] }).groups.some((g) => g.items.length)) hits++;
          }
          if (xs.length >= REPEAT) break;
        }
        console.log(`${label}, ${shape}: p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms (${hits}/${xs.length} found)`);
      }
    }
    await built.app.close();
  } finally {
    await c.end();
    await database.close();
    if (!keep) await adminQuery(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  }
}

await main();
