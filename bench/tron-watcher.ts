/**
 * Chain watcher benchmark (issue 14): a sandbox chain in memory (the watcher's ChainReader interface,
 * apps/server/test/support/tron-fake-chain.ts) over 100,000 bettors with a deposit address each
 * (BENCH_ADDRESSES), BENCH_BLOCKS blocks of 1,000 USDT transfers each (BENCH_PER_BLOCK) from outside
 * senders to random deposit addresses, solidified. The watcher's own scan (`scanChain`: per block, find
 * our addresses among the receivers, then in one transaction move the position, record and credit every
 * fingerprint once as a USDT recharge with its bill and journal entry) runs on PGlite (the default
 * install) and on PostgreSQL when BENCH_URL answers. Prints transfers processed per second for the first
 * scan and for a re-scan of the same blocks (everything already credited: the duplicate path), then
 * checks one recharge per transfer and the ledger's invariants. Prints figures; never a gate.
 * Run: `node --import tsx bench/tron-watcher.ts` (BENCH_ADDRESSES, BENCH_BLOCKS, BENCH_PER_BLOCK,
 * BENCH_URL, BENCH_TARGETS=pglite,pg).
 *
 * Figures, 2026-11-25, this machine (2 shared cores, load average ~9 from other sessions), 100,000
 * deposit addresses, 10 blocks of 1,000 transfers (every one credited):
 *   PGlite:     first scan   852 transfers/s (11.7 s, 1.17 s a block); re-scan 3,647 transfers/s; ok
 *   PostgreSQL: first scan   716 transfers/s (14.0 s, 1.40 s a block); re-scan 3,690 transfers/s; ok
 * Calm machine (load 0.6), 5 blocks of 1,000 (the default run):
 *   PGlite:     first scan 2,141 transfers/s (467 ms a block); re-scan 8,945 transfers/s; ok
 *   PostgreSQL: first scan 2,306 transfers/s (434 ms a block); re-scan 10,753 transfers/s; ok
 * (Crediting one recharge at a time through post() was 45 / 149 transfers/s: the block is now credited
 * set-based, payments.recordReceivedRecharges.) A TRON block comes every 3 s: 1,000 transfers a block is
 * 333 a second to keep up with, so the watcher has 2-2.5x headroom here on a loaded machine.
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, type Database } from '../apps/server/src/platform/db.js';
import { seed } from '../apps/server/src/seed.js';
import { checkInvariants } from '../apps/server/src/modules/money/ledger.js';
import { tronSettings } from '../apps/server/src/modules/tron/schema.js';
import { toBase58 } from '../apps/server/src/modules/tron/chain-reader.js';
import { tronSettingsOf } from '../apps/server/src/modules/tron/deposits.js';
import { scanChain, setWatcherPosition } from '../apps/server/src/modules/tron/watcher.js';
import { FakeChain } from '../apps/server/test/support/tron-fake-chain.js';
import { BENCH_URL, scratchDatabase } from './support';

const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 100_000);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 5);
const PER_BLOCK = Number(process.env.BENCH_PER_BLOCK ?? 1_000);
const TARGETS = (process.env.BENCH_TARGETS ?? 'pglite,pg').split(',');

const perSecond = (n: number, ms: number) => `${Math.round((n * 1000) / ms).toLocaleString('en-US')} transfers/s (${(ms / 1000).toFixed(1)} s)`;

async function writeWallets(database: Database): Promise<string[]> {
  const db = database.db;
  const [{ id: agentId }] = (await database.query(`SELECT id FROM admins WHERE account = 'admin'`)).rows as { id: number }[];
  await database.query(
    `INSERT INTO bettors (phone, name, agent_id, invitation_code)
     SELECT '2556' || lpad(i::text, 8, '0'), 'Holder ' || i, $1, 'TB' || i FROM generate_series(1, $2::int) i`,
    [agentId, ADDRESSES],
  );
  const ids = ((await database.query(`SELECT id FROM bettors WHERE invitation_code LIKE 'TB%' ORDER BY id`)).rows as { id: number }[]).map((r) => r.id);
  const hexes: string[] = [];
  for (let i = 0; i < ids.length; i += 5_000) {
    const part = ids.slice(i, i + 5_000);
    const hex = part.map(() => `41${crypto.randomBytes(20).toString('hex')}`);
    hexes.push(...hex);
    await database.query(
      `INSERT INTO tron_wallets (role, bettor_id, agent_id, address_base58, address_hex, public_key, key_ciphertext, key_iv, key_tag, data_key_wrapped)
       SELECT 1, b, $1, a58, ahex, 'bench', 'bench', 'bench', 'bench', 'bench' FROM unnest($2::int[], $3::text[], $4::text[]) AS x(b, a58, ahex)`,
      [agentId, part, hex.map(toBase58), hex],
    );
  }
  void db;
  return hexes;
}

async function run(label: string, database: Database) {
  let t = Date.now();
  await database.migrate();
  await seed(database.db, { adminPassword: 'Bench#2026pass', demo: false });
  const hexes = await writeWallets(database);
  console.log(`${label}: ${hexes.length.toLocaleString('en-US')} deposit addresses written in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const db = database.db;
  await tronSettingsOf(db);
  await db.update(tronSettings).set({ usdtRateTsh: 260_000, confirmations: 19 }).where(sql`id = 1`);
  const chain = new FakeChain();
  for (let b = 0; b < BLOCKS; b++) {
    for (let i = 0; i < PER_BLOCK; i++) chain.transfer({ to: hexes[crypto.randomInt(hexes.length)], amount: 1_000_000 + crypto.randomInt(100_000_000) });
    chain.mine(1);
  }
  chain.mine(19);
  const total = BLOCKS * PER_BLOCK;
  await setWatcherPosition(db, 0);

  t = Date.now();
  const first = await scanChain(db, { maxBlocks: BLOCKS, budgetMs: 3_600_000 }, chain);
  const firstMs = Date.now() - t;
  console.log(`${label}: first scan ${perSecond(total, firstMs)}; ${first.blocks} blocks, ${first.credited.toLocaleString('en-US')} credited, ${(firstMs / first.blocks).toFixed(0)} ms a block`);

  await setWatcherPosition(db, 0);
  t = Date.now();
  const again = await scanChain(db, { maxBlocks: BLOCKS, budgetMs: 3_600_000 }, chain);
  const againMs = Date.now() - t;
  console.log(`${label}: re-scan of the same blocks ${perSecond(total, againMs)}; ${again.credited} credited again`);

  const [{ n }] = (await database.query(`SELECT count(*)::int AS n FROM recharges WHERE pay_type = 10`)).rows as { n: number }[];
  const problems = await checkInvariants(db);
  console.log(`${label}: ${n.toLocaleString('en-US')} USDT recharges for ${total.toLocaleString('en-US')} transfers; checkInvariants ${problems.length ? `FAILED: ${problems.slice(0, 3).join('; ')}` : 'ok'}`);
}

if (TARGETS.includes('pglite')) {
  const d = await openPglite();
  try {
    await run('PGlite', d);
  } finally {
    await d.close();
  }
}
if (TARGETS.includes('pg')) {
  const name = `dau_bench_tron_${Date.now().toString(36)}`;
  const scratch = scratchDatabase(name);
  try {
    await scratch.admin(`CREATE DATABASE ${name}`);
  } catch (err) {
    console.log(`PostgreSQL: skipped (${String((err as Error).message)})`);
    process.exit(0);
  }
  const d = await openPostgres(scratch.url(), { max: 10 });
  try {
    await run('PostgreSQL', d);
  } finally {
    await d.close();
    await scratch.admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
process.exit(0);
