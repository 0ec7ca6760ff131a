/**
 * The chain watcher survives a kill -9 of the server (issue 14). A real server process on its own
 * PostgreSQL database (test/support/processes.ts) reads a sandbox TRON node served by this test process
 * (TRON_FULL_NODE_URL): 600 outside deposits to 600 bettors' deposit addresses in 60 blocks, solidified.
 * The process is killed (SIGKILL of its process group) as soon as the watcher has credited its first
 * deposits, restarted, and the test waits until the watcher's position reaches the solidified chain (a
 * state, not a time). Then each fingerprint was credited exactly once: one confirmed tron_transfers row
 * and one USDT recharge per deposit, its amount the deposit at the rate rounded down, one recharge bill
 * per bettor, the journal's USDT clearing account the negative of them all, the ledger's invariants clean.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BILL_TYPE, PAY_TYPE } from '@dau/domain';
import { HOUSE, checkInvariants } from '../src/modules/money/ledger.js';
import { bettors } from '../src/schema.js';
import { admins } from '../src/platform/schema.js';
import { tronSettings } from '../src/modules/tron/schema.js';
import { SandboxTronNode } from '../src/modules/tron/sandbox-node.js';
import { processDatabase, startServerProcess, waitFor, type ProcessDatabase, type ServerProcess } from './support/processes.js';
import { insertWallet } from './support/tron-fake-chain.js';

const DEPOSITS = 600;
const PER_BLOCK = 10;
const RATE = 260_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('tron watcher after a kill -9 (PostgreSQL, server process)', () => {
  let pdb: ProcessDatabase;
  let server: ServerProcess;
  let node: SandboxTronNode;
  const amounts = new Map<number, number>();
  const q = async (text: string, values?: unknown[]) => (await pdb.database.query(text, values)).rows as Record<string, any>[];

  beforeAll(async () => {
    pdb = await processDatabase({ prefix: 'dau_tron' });
    const db = pdb.database.db;
    node = new SandboxTronNode(db);
    const url = await node.listen(0);
    await db.insert(tronSettings).values({ id: 1, usdtRateTsh: RATE, confirmations: 19 }).onConflictDoNothing();
    const [root] = await db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    for (let i = 0; i < DEPOSITS; i++) {
      const [b] = await db.insert(bettors).values({ phone: `2557${String(20_000_000 + i).slice(-8)}`, name: `Holder ${i}`, agentId: root.id }).returning();
      const wallet = await insertWallet(db, { bettorId: b.id, agentId: root.id });
      const amount = 1_000_000 + ((i * 7_919) % 50_000_000) + 1; // odd units: rounding matters
      amounts.set(b.id, amount);
      const sent = await node.deposit(wallet.addressBase58, amount);
      if (!sent.result) throw new Error(`sandbox deposit refused: ${sent.code}`);
      if ((i + 1) % PER_BLOCK === 0) await node.mine(1);
    }
    await node.mine(20); // all solidified
    server = await startServerProcess(pdb.url, {
      name: 'tron',
      env: { TRON_FULL_NODE_URL: url, DAU_MASTER_KEY: crypto.randomBytes(32).toString('base64') },
    });
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await node?.close();
    await pdb?.dispose();
  });

  const credited = async () => Number((await q(`SELECT count(*)::int AS n FROM tron_transfers WHERE status = 2`))[0].n);

  it('resumes after a kill -9 while crediting; each fingerprint credited exactly once', { timeout: 900_000 }, async () => {
    await waitFor('the first credited deposits', async () => (await credited()) > 0, { intervalMs: 5, output: server.output });
    await server.kill();
    const atKill = await credited();
    expect(atKill).toBeGreaterThan(0);
    await server.restart();
    await waitFor('every deposit credited', async () => (await credited()) >= DEPOSITS, { intervalMs: 100, output: server.output });
    const head = Number((await q(`SELECT last_block FROM tron_chain_state WHERE key = 'watcher'`))[0].last_block);
    expect(head).toBeGreaterThanOrEqual(DEPOSITS / PER_BLOCK);

    const transfers = await q(`SELECT fingerprint, status, recharge_id, bettor_id, amount FROM tron_transfers`);
    expect(transfers).toHaveLength(DEPOSITS);
    expect(new Set(transfers.map((t) => t.fingerprint)).size).toBe(DEPOSITS);
    const recharges = await q(`SELECT id, bettor_id, amount, carrier_order_number, pay_status FROM recharges WHERE pay_type = $1`, [PAY_TYPE.usdt]);
    expect(recharges).toHaveLength(DEPOSITS);
    expect(new Set(recharges.map((r) => r.carrier_order_number)).size).toBe(DEPOSITS);
    for (const r of recharges) {
      const units = amounts.get(Number(r.bettor_id))!;
      expect(Number(r.amount)).toBe(Math.floor((units * RATE) / 1_000_000));
    }
    const bills = await q(`SELECT bettor_id, count(*)::int AS n FROM bills WHERE type = $1 GROUP BY bettor_id`, [BILL_TYPE.user_recharge]);
    expect(bills).toHaveLength(DEPOSITS);
    expect(bills.every((b) => b.n === 1)).toBe(true);
    const [clearing] = await q(`SELECT coalesce(sum(amount), 0)::bigint AS s FROM house_entries WHERE account = $1`, [HOUSE.usdtClearing]);
    expect(Number(clearing.s)).toBe(-recharges.reduce((s, r) => s + Number(r.amount), 0));
    expect(await checkInvariants(pdb.database.db)).toEqual([]);
    console.log(`tron crash test: killed with ${atKill} of ${DEPOSITS} deposits credited; after the restart ${DEPOSITS}, each once`);
  });
});
