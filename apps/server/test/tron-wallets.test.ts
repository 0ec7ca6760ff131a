import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TronWeb } from 'tronweb';
import { buildApp, type DauApp } from '../src/app.js';
import { seed } from '../src/seed.js';
import { ADMIN_PASSWORD, PASSWORD, freshDatabase, makeAdmin, makeRole, until, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { admins, systemLogs } from '../src/platform/schema.js';
import { SandboxTronNode, SOLIDIFY_DEPTH } from '../src/modules/tron/sandbox-node.js';
import { MASTER_KEY_FILE, withPrivateKey } from '../src/modules/tron/keys.js';
import { configureTronNode } from '../src/modules/tron/runtime.js';
import { depositAddressFor, houseWallet, sendTrx, sendUsdt, ensureHouseWallets, SYNC_BALANCES_JOB } from '../src/modules/tron/wallets.js';
import { tronWallets } from '../src/modules/tron/schema.js';

/**
 * TRON wallets through the API on a real sandbox node: create (house and deposit wallets), scope (an
 * agent sees their branch's deposit wallets only), soft removal with confirmation, the live balance,
 * sync of every balance as a job, transfers signed inside withPrivateKey, and the key-leak search:
 * no response body, log line or audit row of this run contains a private key or the master key.
 * Each case starts with no wallet and makes the ones it needs (`wallets` below), so it runs alone and in
 * any order; the app, its log and the answers are the file's, so the key-leak search reads the whole run.
 */

let database: Awaited<ReturnType<typeof freshDatabase>>;
let built: DauApp;
let node: SandboxTronNode;
let t: TestApp;
const bodies: string[] = [];
const logLines: string[] = [];
/** The private keys of the wallets of the cases already run (their rows are deleted before the next case). */
const earlierKeys: string[] = [];
let superToken: string;
let tokA: string;
let tokB: string;
let ids: { rootId: number; agentA: number; agentB: number };
let bA: { id: number; phone: string };
let bB: { id: number; phone: string };

beforeAll(async () => {
  database = await freshDatabase();
  await seed(database.db, { adminPassword: ADMIN_PASSWORD, demo: false });
  node = new SandboxTronNode(database.db);
  const url = await node.listen(0);
  const stream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  // Every log line of the app, at the most verbose level, is captured for the key-leak search.
  const logger = { level: 'trace', stream } as unknown as { level: string };
  built = await buildApp({ database, logger, tron: { fullNodeUrl: url } });
  await built.app.ready();
  const call: TestApp['call'] = async (method, u, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await built.app.inject({ method: method as never, url: u, headers, remoteAddress: '127.0.0.1', ...(opts.body !== undefined ? { payload: opts.body as object } : {}) });
    bodies.push(res.body);
    let body: any = res.body;
    try {
      body = res.body ? JSON.parse(res.body) : null;
    } catch {
      /* text */
    }
    return { status: res.statusCode, body, res };
  };
  const login: TestApp['login'] = async (account, password = PASSWORD) => {
    const r = await call('POST', '/api/v1/auth/login', { body: { account, password } });
    if (r.status !== 200) throw new Error(`login ${account}: ${r.status}`);
    return r.body.token;
  };
  t = { ...built, database, call, login, close: async () => {} } as TestApp;
  const [root] = await database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  const role = await makeRole(t, 'Tron agent', ['tron', 'tron:create', 'tron:delete', 'tron:sync_balance']);
  ids = { rootId: root!.id, agentA: await makeAdmin(t, 'tron_a', role, root!.id), agentB: await makeAdmin(t, 'tron_b', role, root!.id) };
  bA = await makeBettor(t, ids.agentA);
  bB = await makeBettor(t, ids.agentB);
  superToken = await login('admin', ADMIN_PASSWORD);
  tokA = await login('tron_a');
  tokB = await login('tron_b');
});

afterAll(async () => {
  await built?.app.close();
  await node?.close();
  await database?.dispose();
});

const walletBody = (role: number, bettorId?: number) => ({ role, ...(bettorId ? { bettor_id: bettorId } : {}) });
const KEY_FIELDS = ['key_ciphertext', 'keyCiphertext', 'key_iv', 'key_tag', 'data_key_wrapped', 'dataKeyWrapped', 'private_key', 'privateKey'];

describe('TRON wallets', () => {
  // No wallet at the start of a case: the house wallet of a role is the oldest one, and the lists and
  // the sync are compared whole.
  beforeEach(async () => {
    await database.db.delete(tronWallets);
  });
  // A case's balance sync ends within it (a job still running would store balances into the next case's
  // wallets); its wallets' keys are kept for the key-leak search before the next case deletes the rows.
  afterEach(async () => {
    await built.ctx.jobs.drain([SYNC_BALANCES_JOB]);
    for (const r of await database.db.select({ id: tronWallets.id }).from(tronWallets)) await withPrivateKey(database.db, r.id, (pk) => void earlierKeys.push(pk));
  });

  /**
   * The wallets of the story up to the step a case starts from, made afresh as the earlier cases make
   * them: `house` the hot and gas wallets (the super admin, through the API); `deposits` agent A's bettor's
   * deposit wallet (agent A, through the API) and agent B's bettor's (the bettor-facing service); `funded`
   * the node's TRX and USDT on the house wallets, the hot wallet's live balance asked (so stored), 25 USDT
   * and 40 TRX sent to A's deposit wallet and solidified; `synced` every balance synced by the job;
   * `removed` A's deposit wallet removed by agent A and A's bettor's new deposit wallet.
   */
  async function wallets(upTo: 'house' | 'deposits' | 'funded' | 'synced' | 'removed') {
    const hot = await t.call('POST', '/api/v1/tron/wallets', { token: superToken, body: walletBody(2) });
    const gas = await t.call('POST', '/api/v1/tron/wallets', { token: superToken, body: walletBody(3) });
    expect([hot.status, gas.status], JSON.stringify([hot.body, gas.body])).toEqual([201, 201]);
    const w = { hotId: hot.body.id as number, gasId: gas.body.id as number, depA: 0, depB: 0 };
    if (upTo === 'house') return w;
    const a = await t.call('POST', '/api/v1/tron/wallets', { token: tokA, body: walletBody(1, bA.id) });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    w.depA = a.body.id;
    w.depB = (await depositAddressFor(database.db, bB.id)).walletId;
    if (upTo === 'deposits') return w;
    await node.deposit(hot.body.address_base58, 200_000_000, 'TRX');
    await node.deposit(hot.body.address_base58, 100_000_000, 'USDT');
    await node.deposit(gas.body.address_base58, 500_000_000, 'TRX');
    await node.mine(1);
    expect((await t.call('GET', `/api/v1/tron/wallets/${w.hotId}/balance`, { token: superToken })).status).toBe(200);
    await sendUsdt(database.db, w.hotId, a.body.address_base58, 25_000_000);
    await sendTrx(database.db, w.gasId, a.body.address_base58, 40_000_000);
    await node.mine(SOLIDIFY_DEPTH + 1);
    if (upTo === 'funded') return w;
    expect((await t.call('POST', '/api/v1/tron/wallets/sync', { token: superToken, body: { confirm: true } })).status).toBe(202);
    await built.ctx.jobs.drain([SYNC_BALANCES_JOB]);
    if (upTo === 'synced') return w;
    expect((await t.call('DELETE', `/api/v1/tron/wallets/${w.depA}`, { token: tokA, body: { confirm: true } })).status).toBe(200);
    await depositAddressFor(database.db, bA.id);
    return w;
  }

  it('the super admin creates the house wallets: valid TronWeb addresses, no key material in the answer', async () => {
    const hot = await t.call('POST', '/api/v1/tron/wallets', { token: superToken, body: walletBody(2) });
    expect(hot.status, JSON.stringify(hot.body)).toBe(201);
    const gas = await t.call('POST', '/api/v1/tron/wallets', { token: superToken, body: walletBody(3) });
    expect(gas.status).toBe(201);
    const hotId = hot.body.id;
    const gasId = gas.body.id;
    expect(TronWeb.isAddress(hot.body.address_base58)).toBe(true);
    expect((TronWeb.address.toHex(hot.body.address_base58) as string).toLowerCase()).toBe(hot.body.address_hex);
    for (const k of KEY_FIELDS) expect(hot.body).not.toHaveProperty(k);
    // The stored key opens to the address (TronWeb's derivation) and only inside withPrivateKey.
    const addr = await withPrivateKey(database.db, hotId, (pk) => TronWeb.address.fromPrivateKey(pk));
    expect(addr).toBe(hot.body.address_base58);
    // ensureHouseWallets does not add more when they exist.
    await ensureHouseWallets(database.db);
    expect((await houseWallet(database.db, 2))!.id).toBe(hotId);
    expect((await houseWallet(database.db, 3))!.id).toBe(gasId);
  });

  it('deposit wallets: one per bettor, created on first request, in the agent’s scope only', async () => {
    await wallets('house');
    const a = await t.call('POST', '/api/v1/tron/wallets', { token: tokA, body: walletBody(1, bA.id) });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({ role: 1, bettor_id: bA.id, agent_id: ids.agentA, bettor_phone: bA.phone });
    const depA = a.body.id;
    // Agent A may not create one for agent B's bettor, nor a house wallet.
    expect((await t.call('POST', '/api/v1/tron/wallets', { token: tokA, body: walletBody(1, bB.id) })).status).toBe(403);
    expect((await t.call('POST', '/api/v1/tron/wallets', { token: tokA, body: walletBody(2) })).status).toBe(403);
    expect((await t.call('POST', '/api/v1/tron/wallets', { token: tokA, body: walletBody(1) })).status).toBe(400);
    expect((await t.call('POST', '/api/v1/tron/wallets', { token: superToken, body: { role: 9 } })).status).toBe(400);
    // The bettor-facing service answers the same wallet, also when asked many times at once.
    const again = await Promise.all(Array.from({ length: 5 }, () => depositAddressFor(database.db, bA.id)));
    expect(new Set(again.map((x) => x.walletId))).toEqual(new Set([depA]));
    const forB = await depositAddressFor(database.db, bB.id);
    expect(forB.addressBase58).not.toBe(a.body.address_base58);
  });

  it('lists with filters; an agent sees only their branch’s deposit wallets', async () => {
    const { hotId, gasId, depA, depB } = await wallets('deposits');
    const all = await t.call('GET', '/api/v1/tron/wallets', { token: superToken });
    expect(all.status).toBe(200);
    expect(all.body.items.map((w: any) => w.id).sort()).toEqual([hotId, gasId, depA, depB].sort());
    const mine = await t.call('GET', '/api/v1/tron/wallets', { token: tokA });
    expect(mine.body.items.map((w: any) => w.id)).toEqual([depA]);
    expect((await t.call('GET', '/api/v1/tron/wallets', { token: tokB })).body.items.map((w: any) => w.id)).toEqual([depB]);
    const f = async (q: string) => (await t.call('GET', `/api/v1/tron/wallets?${q}`, { token: superToken })).body.items.map((w: any) => w.id);
    expect(await f('role=2')).toEqual([hotId]);
    expect(await f('role=3')).toEqual([gasId]);
    expect(await f(`bettor_id=${bB.id}`)).toEqual([depB]);
    expect(await f(`phone=${bA.phone.slice(-6)}`)).toEqual([depA]);
    const [w] = await database.db.select().from(tronWallets).where(eq(tronWallets.id, depB));
    expect(await f(`address=${w!.addressBase58}`)).toEqual([depB]);
    expect(await f(`address=${w!.addressHex}`)).toEqual([depB]);
    expect(await f('removed=1')).toEqual([]);
    expect((await t.call('GET', '/api/v1/tron/wallets?role=abc', { token: superToken })).status).toBe(400);
    // Detail: own branch yes, other branch and house wallets no.
    expect((await t.call('GET', `/api/v1/tron/wallets/${depA}`, { token: tokA })).status).toBe(200);
    expect((await t.call('GET', `/api/v1/tron/wallets/${depB}`, { token: tokA })).status).toBe(403);
    expect((await t.call('GET', `/api/v1/tron/wallets/${hotId}`, { token: tokA })).status).toBe(403);
    expect((await t.call('GET', `/api/v1/tron/wallets/999999`, { token: superToken })).status).toBe(404);
  });

  it('balance asked from the node now; transfers signed inside withPrivateKey and confirmed on chain', async () => {
    const { hotId, gasId, depA, depB } = await wallets('deposits');
    const hot = (await houseWallet(database.db, 2))!;
    const gas = (await houseWallet(database.db, 3))!;
    await node.deposit(hot.addressBase58, 200_000_000, 'TRX');
    await node.deposit(hot.addressBase58, 100_000_000, 'USDT');
    await node.deposit(gas.addressBase58, 500_000_000, 'TRX');
    await node.mine(1);
    const live = await t.call('GET', `/api/v1/tron/wallets/${hotId}/balance`, { token: superToken });
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body).toMatchObject({ trx_balance: 200_000_000, usdt_balance: 100_000_000, trx_balance_confirmed: 0, usdt_balance_confirmed: 0 });
    expect((await t.call('GET', `/api/v1/tron/wallets/${hotId}`, { token: superToken })).body).toMatchObject({ trx_balance: 200_000_000, usdt_balance: 100_000_000 });
    expect((await t.call('GET', `/api/v1/tron/wallets/${hotId}/balance`, { token: tokA })).status).toBe(403);

    const [dep] = await database.db.select().from(tronWallets).where(eq(tronWallets.id, depA));
    const usdtTx = await sendUsdt(database.db, hotId, dep!.addressBase58, 25_000_000);
    const trxTx = await sendTrx(database.db, gasId, dep!.addressBase58, 40_000_000);
    expect(usdtTx).toMatch(/^[0-9a-f]{64}$/);
    await node.mine(SOLIDIFY_DEPTH + 1);
    expect(await node.usdtBalance(dep!.addressBase58, true)).toBe(25_000_000);
    expect(await node.trxBalance(dep!.addressBase58, true)).toBe(40_000_000);
    const tw = new TronWeb({ fullHost: node.url });
    expect(((await tw.trx.getTransactionInfo(usdtTx)) as any).receipt.result).toBe('SUCCESS');
    // More than the wallet holds: refused by the node before anything is sent.
    await expect(sendTrx(database.db, depB, dep!.addressBase58, 1_000_000)).rejects.toThrow(/balance is not sufficient/);
  });

  it('a node that does not answer: 503 with the message, nothing stored', async () => {
    const { hotId } = await wallets('funded');
    const before = (await t.call('GET', `/api/v1/tron/wallets/${hotId}`, { token: superToken })).body;
    configureTronNode({ fullNodeUrl: 'http://127.0.0.1:9' });
    try {
      const r = await t.call('GET', `/api/v1/tron/wallets/${hotId}/balance`, { token: superToken });
      expect(r.status).toBe(503);
      expect(r.body.code).toBe('TRON_NODE_UNAVAILABLE');
    } finally {
      configureTronNode({ fullNodeUrl: node.url });
    }
    expect((await t.call('GET', `/api/v1/tron/wallets/${hotId}`, { token: superToken })).body).toEqual(before);
  });

  it('sync of every balance runs as a job and needs the confirmation', async () => {
    const { depA } = await wallets('funded');
    expect((await t.call('POST', '/api/v1/tron/wallets/sync', { token: superToken, body: {} })).status).toBe(400);
    expect((await t.call('POST', '/api/v1/tron/wallets/sync', { token: tokA, body: { confirm: true } })).status).toBe(403);
    const r = await t.call('POST', '/api/v1/tron/wallets/sync', { token: superToken, body: { confirm: true } });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ queued: true, wallets: 4 });
    await until(
      () => database.db.select().from(tronWallets).where(eq(tronWallets.id, depA)),
      (rows) => !!rows[0]!.balanceSyncedAt && rows[0]!.usdtBalance === 25_000_000,
      'the balances synced',
    );
    const [dep] = await database.db.select().from(tronWallets).where(eq(tronWallets.id, depA));
    expect(dep!.trxBalance).toBe(40_000_000);
  });

  it('removal is soft and asks for confirmation; the bettor then gets a new address', async () => {
    const { depA, depB } = await wallets('synced');
    expect((await t.call('DELETE', `/api/v1/tron/wallets/${depA}`, { token: tokA, body: {} })).status).toBe(400);
    expect((await t.call('DELETE', `/api/v1/tron/wallets/${depB}`, { token: tokA, body: { confirm: true } })).status).toBe(403);
    const del = await t.call('DELETE', `/api/v1/tron/wallets/${depA}`, { token: tokA, body: { confirm: true } });
    expect(del.status).toBe(200);
    const after = await t.call('GET', `/api/v1/tron/wallets/${depA}`, { token: tokA });
    expect(after.body.removed).toBe(true);
    expect(after.body.removed_at).not.toBeNull();
    expect((await t.call('GET', '/api/v1/tron/wallets?removed=1', { token: superToken })).body.items.map((w: any) => w.id)).toEqual([depA]);
    // The key stays (money may still arrive there); a second removal changes nothing.
    expect(await withPrivateKey(database.db, depA, (pk) => pk.length)).toBe(64);
    expect((await t.call('DELETE', `/api/v1/tron/wallets/${depA}`, { token: tokA, body: { confirm: true } })).status).toBe(200);
    const fresh = await depositAddressFor(database.db, bA.id);
    expect(fresh.walletId).not.toBe(depA);
  });

  it('a sealed key moved to another wallet row does not open (bound to its address)', async () => {
    const { depA } = await wallets('removed');
    const [a] = await database.db.select().from(tronWallets).where(eq(tronWallets.id, depA));
    const victim = await depositAddressFor(database.db, (await makeBettor(t, ids.agentA)).id);
    const [own] = await database.db.select().from(tronWallets).where(eq(tronWallets.id, victim.walletId));
    await database.db
      .update(tronWallets)
      .set({ keyCiphertext: a!.keyCiphertext, keyIv: a!.keyIv, keyTag: a!.keyTag, dataKeyWrapped: a!.dataKeyWrapped })
      .where(eq(tronWallets.id, victim.walletId));
    let called = false;
    await expect(withPrivateKey(database.db, victim.walletId, () => (called = true))).rejects.toThrow(/does not decrypt/);
    expect(called).toBe(false);
    await expect(sendTrx(database.db, victim.walletId, a!.addressBase58, 1)).rejects.toThrow();
    // Put its own key back: it opens again.
    await database.db
      .update(tronWallets)
      .set({ keyCiphertext: own!.keyCiphertext, keyIv: own!.keyIv, keyTag: own!.keyTag, dataKeyWrapped: own!.dataKeyWrapped })
      .where(eq(tronWallets.id, victim.walletId));
    expect(await withPrivateKey(database.db, victim.walletId, (pk) => TronWeb.address.fromPrivateKey(pk))).toBe(victim.addressBase58);
  });

  it('key-leak search: no answer, log line or audit row contains a private key or the master key', async () => {
    const { hotId } = await wallets('removed');
    // The answers of the screens too, whatever ran before: the list, an agent's list and every detail.
    expect((await t.call('GET', '/api/v1/tron/wallets', { token: superToken })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/tron/wallets', { token: tokA })).status).toBe(200);
    const rows = await database.db.select({ id: tronWallets.id }).from(tronWallets);
    for (const r of rows) expect((await t.call('GET', `/api/v1/tron/wallets/${r.id}`, { token: superToken })).status).toBe(200);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const keys = [...earlierKeys];
    for (const r of rows) await withPrivateKey(database.db, r.id, (pk) => void keys.push(pk));
    const secrets: string[] = [];
    for (const pk of keys) secrets.push(pk.toLowerCase(), pk.toUpperCase(), Buffer.from(pk, 'hex').toString('base64'), Buffer.from(pk, 'hex').toString('base64url'));
    const master = fs.readFileSync(path.join(built.ctx.dataDir, MASTER_KEY_FILE), 'utf8').trim();
    const masterBytes = Buffer.from(master, 'base64');
    secrets.push(master, masterBytes.toString('hex'), masterBytes.toString('base64url'));
    // Make the search able to fail: one answer of this run is known to hold a public key, the search finds it.
    const audit = JSON.stringify(await database.db.select().from(systemLogs));
    const haystacks = { bodies: bodies.join('\n'), logs: logLines.join('\n'), audit };
    expect(haystacks.bodies).toContain(rows.length ? (await database.db.select().from(tronWallets).where(eq(tronWallets.id, hotId)))[0]!.publicKey : '');
    expect(logLines.length).toBeGreaterThan(10);
    expect(audit).toContain('Created TRON wallet');
    for (const [where, text] of Object.entries(haystacks)) {
      for (const s of secrets) expect(text.includes(s), `${where} contains key material`).toBe(false);
      for (const k of KEY_FIELDS) expect(text.includes(`"${k}"`), `${where} has ${k}`).toBe(false);
    }
  });
});
