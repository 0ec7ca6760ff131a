/**
 * The TRON defects of the console walk (issue 29), through the API the console calls:
 *  - the address-poisoning hold of a USDT withdrawal is seen by the review (list, approval, detail: the
 *    destination, the USDT amount, the hold's kind and the look-alike address) and its release waits for a
 *    second whole-book admin (a pending change, platform/duties.ts);
 *  - the TRON settings (rate, confirmations, collect threshold, hot-wallet ceiling) have a route: whole
 *    book only, the rate and the ceiling through a second admin, USDT read as the operator types it;
 *  - the USDT exports write amounts as USDT with 6 decimals, and directions and states as words of the
 *    asker's language (a confirmed outgoing transfer is "Sent", not "Credited").
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { PAY_TYPE, WITHDRAWAL_STATUS } from '@dau/domain';
import { paymentConfig, withdrawals } from '../src/schema.js';
import { pendingChanges, settingHistory } from '../src/platform/schema.js';
import { tronSettings, tronSweeps, tronTransfers, TRON_WALLET_ROLE } from '../src/modules/tron/schema.js';
import { setChainReader } from '../src/modules/tron/watcher.js';
import { setChainSender } from '../src/modules/tron/chain-sender.js';
import { toBase58 } from '../src/modules/tron/chain-reader.js';
import { tronSettingsOf } from '../src/modules/tron/deposits.js';
import { requestUsdtWithdrawal } from '../src/modules/tron/withdrawals.js';
import { requestWithdrawal } from '../src/modules/payments/withdrawals.js';
import { ADMIN_PASSWORD, checkerToken, createTestApp, exportFinished, makeWorld, type TestApp } from './helpers.js';
import { PAYMENT_KEYS, grantKeys, makePayer } from './payments-fixtures.js';
import { makeBettor } from './money-helpers.js';
import { FakeChain, insertWallet, randomHex } from './support/tron-fake-chain.js';

process.env.DAU_TRON_WATCHER = '0'; // nothing runs the chain here but the test

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let checker: string;
let agentA: string;
let agentB: string;
let hot: Awaited<ReturnType<typeof insertWallet>>;
const db = () => t.database.db;
const TRON_KEYS = ['tron', 'tron_config', 'tron_config:edit', 'usdt_transaction_record', 'usdt_transaction_record:export', 'tron_transaction_summary'];

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, [...PAYMENT_KEYS, ...TRON_KEYS]);
  root = await t.login('admin', ADMIN_PASSWORD);
  checker = await checkerToken(t);
  agentA = await t.login('agent_a');
  agentB = await t.login('agent_b');
  await tronSettingsOf(db());
  await db().update(tronSettings).set({ usdtRateTsh: 260_000 }).where(eq(tronSettings.id, 1));
  hot = await insertWallet(db(), { role: TRON_WALLET_ROLE.collection });
});
afterAll(() => t?.close());

beforeEach(async () => {
  const chain = new FakeChain();
  chain.fund(hot.addressHex, { trx: 1_000_000_000n, usdt: 100_000_000_000n });
  setChainReader(db(), chain);
  setChainSender(db(), chain);
  await db().update(paymentConfig).set({ disburseTimeoutMinutes: 60 }).where(eq(paymentConfig.id, 1));
});

const outside = () => toBase58(randomHex());
const view = (id: number, token = agentA) => t.call('GET', `/api/v1/tron/withdrawals/${id}`, { token });
const release = (id: number, token: string, remark = 'Checked the address with the bettor by phone') =>
  t.call('POST', `/api/v1/tron/withdrawals/${id}/release`, { token, body: { remark } });
const pendingOf = async (id: number) =>
  db().select().from(pendingChanges).where(and(eq(pendingChanges.setting, 'usdt_hold_release'), eq(pendingChanges.url, `/api/v1/tron/withdrawals/${id}/release`)));

/** A USDT withdrawal of a bettor of agent A to `to`, held when `to` looks like a recent counterparty. */
async function heldWithdrawal() {
  const dest = outside();
  const real = outside();
  const lookAlike = `${dest.slice(0, 4)}${real.slice(4, -4)}${dest.slice(-4)}`;
  await db().insert(tronTransfers).values({
    fingerprint: `${randomHex()}:0`, txHash: randomHex(), eventIndex: 0, fromAddress: lookAlike, toAddress: hot.addressBase58, amount: 1, direction: 'in', status: 2,
  });
  const b = await makePayer(t, w.agentA, 100_000_00);
  const x = await requestUsdtWithdrawal(db(), { bettorId: b.id, amount: 26_000_00, toAddress: dest });
  return { id: x.withdrawal.id, dest, lookAlike };
}

describe('the address-poisoning hold in the withdrawal review', () => {
  it('the review list, approval and detail see the destination, the USDT amount, the hold and the look-alike address', async () => {
    const { id, dest, lookAlike } = await heldWithdrawal();
    const mobile = await requestWithdrawal(db(), { bettorId: (await makePayer(t, w.agentA, 50_000_00)).id, payType: PAY_TYPE.vodacom, amount: 10_000_00 });
    // The list's page asks for its rows at once: the USDT one is answered, the mobile-money one is not.
    const page = await t.call('GET', `/api/v1/tron/withdrawals?ids=${id},${mobile.id}`, { token: agentA });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.items).toEqual([
      expect.objectContaining({
        withdrawal_id: id, to_address: dest, usdt_amount: 10_000_000, held: true, hold_kind: 'counterparty', look_alike: lookAlike, release_pending: null,
      }),
    ]);
    expect((await view(id)).body).toMatchObject({ held: true, hold_kind: 'counterparty', look_alike: lookAlike, to_address: dest });
    // Another branch sees none of it.
    expect((await t.call('GET', `/api/v1/tron/withdrawals?ids=${id}`, { token: agentB })).body.items).toEqual([]);
    expect((await t.call('GET', '/api/v1/tron/withdrawals?ids=1;drop', { token: agentA })).status).toBe(400);
  });

  it('a withdrawal to one of our own wallets names the wallet as the look-alike', async () => {
    const b = await makePayer(t, w.agentA, 100_000_00);
    const x = await requestUsdtWithdrawal(db(), { bettorId: b.id, amount: 26_000_00, toAddress: hot.addressBase58 });
    expect((await view(x.withdrawal.id)).body).toMatchObject({ held: true, hold_kind: 'own_wallet', look_alike: hot.addressBase58 });
  });

  it('a release waits for a second whole-book admin; until then the approval is refused', async () => {
    const { id } = await heldWithdrawal();
    // A branch cannot release (the hold is the whole book's: it compares with the house's addresses and counterparties).
    const branch = await release(id, agentA);
    expect(branch.status).toBe(403);
    expect(branch.body.code).toBe('WHOLE_BOOK_ONLY');
    // The whole book asks: a pending change, the hold stays, the approval is still refused.
    const asked = await release(id, root);
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    expect(asked.body.pending_change).toMatchObject({ setting: 'usdt_hold_release', status: 'pending', requested_account: 'admin' });
    const changeId = asked.body.pending_change.id as number;
    expect((await view(id)).body).toMatchObject({ held: true, release_pending: changeId });
    expect((await t.call('POST', `/api/v1/money/withdrawals/${id}/approve`, { token: root })).body.code).toBe('WITHDRAWAL_HELD');
    // A second ask while one waits is refused at once, and stores nothing.
    const again = await release(id, checker, 'again');
    expect(again.status).toBe(409);
    expect(await pendingOf(id)).toHaveLength(1);
    // The asker cannot approve their own release; the second admin can.
    expect((await t.call('POST', `/api/v1/system/pending_changes/${changeId}/approve`, { token: root, body: {} })).body.code).toBe('PENDING_CHANGE_OWN');
    const ok = await t.call('POST', `/api/v1/system/pending_changes/${changeId}/approve`, { token: checker, body: {} });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.pending_change).toMatchObject({ status: 'applied', result_status: 200 });
    const after = (await view(id)).body;
    expect(after).toMatchObject({ held: false, warning: null, look_alike: null, release_pending: null });
    expect(after.remark).toMatch(/asked by admin/);
    const approved = await t.call('POST', `/api/v1/money/withdrawals/${id}/approve`, { token: agentA });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe(WITHDRAWAL_STATUS.disbursing);
  });

  it('a withdrawal that is not held, or not ours to see, is answered at once and nothing waits', async () => {
    const b = await makePayer(t, w.agentA, 100_000_00);
    const plain = await requestUsdtWithdrawal(db(), { bettorId: b.id, amount: 26_000_00, toAddress: outside() });
    const r = await release(plain.withdrawal.id, root);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('WITHDRAWAL_NOT_HELD');
    expect((await release(99_999_999, root)).status).toBe(404);
    expect(await pendingOf(plain.withdrawal.id)).toHaveLength(0);
  });
});

describe('the TRON settings', () => {
  const url = '/api/v1/tron/settings';
  const stored = async () => (await db().select().from(tronSettings).where(eq(tronSettings.id, 1)))[0]!;
  const history = async () => Number((await db().select({ n: count() }).from(settingHistory).where(eq(settingHistory.setting, 'tron_settings')))[0]!.n);

  it('are read in USDT and TSh cents; confirmations and the threshold change at once, the rate and the ceiling through a second admin', async () => {
    await db().update(tronSettings).set({ confirmations: 19, usdtRateTsh: 260_000, collectThreshold: 10_000_000, hotWalletCeiling: 100_000_000_000 }).where(eq(tronSettings.id, 1));
    const got = await t.call('GET', url, { token: agentA });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ confirmations: 19, usdt_rate_tsh: 260_000, collect_threshold: 10, hot_wallet_ceiling: 100_000 });

    // Whole book only: a branch holding the edit button is refused whatever it asks.
    const branch = await t.call('PUT', url, { token: agentA, body: { confirmations: 5 } });
    expect(branch.status).toBe(403);
    expect(branch.body.code).toBe('WHOLE_BOOK_ONLY');

    const h = await history();
    const direct = await t.call('PUT', url, { token: root, body: { confirmations: 20, collect_threshold: 12.5 } });
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    expect(direct.body).toMatchObject({ confirmations: 20, collect_threshold: 12.5 });
    expect(await stored()).toMatchObject({ confirmations: 20, collectThreshold: 12_500_000 });
    expect(await history()).toBe(h + 1);

    const rate = await t.call('PUT', url, { token: root, body: { usdt_rate_tsh: 270_000, hot_wallet_ceiling: 50_000.000001 } });
    expect(rate.status, JSON.stringify(rate.body)).toBe(202);
    expect(rate.body.pending_change).toMatchObject({ setting: 'tron_settings', status: 'pending' });
    expect(await stored()).toMatchObject({ usdtRateTsh: 260_000, hotWalletCeiling: 100_000_000_000 });
    const ok = await t.call('POST', `/api/v1/system/pending_changes/${rate.body.pending_change.id}/approve`, { token: checker, body: {} });
    expect(ok.body.pending_change).toMatchObject({ status: 'applied', result_status: 200 });
    expect(await stored()).toMatchObject({ usdtRateTsh: 270_000, hotWalletCeiling: 50_000_000_001 });
    expect((await t.call('GET', url, { token: root })).body).toMatchObject({ usdt_rate_tsh: 270_000, hot_wallet_ceiling: 50_000.000001 });
    await db().update(tronSettings).set({ confirmations: 19, usdtRateTsh: 260_000, collectThreshold: 10_000_000, hotWalletCeiling: 100_000_000_000 }).where(eq(tronSettings.id, 1));
  });

  it('refuses what the chain cannot take: 400 with the field, nothing stored', async () => {
    const before = await stored();
    for (const body of [{ confirmations: 0 }, { collect_threshold: 1.0000001 }, { collect_threshold: 0 }, { usdt_rate_tsh: 0 }, { hot_wallet_ceiling: -1 }, { other: 1 }]) {
      const r = await t.call('PUT', url, { token: root, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(await stored()).toEqual(before);
  });
});

describe('the USDT exports', () => {
  /** Runs an export of `type` for the root admin in `locale` and answers the CSV's text. */
  async function exported(type: string, params: Record<string, string>, locale: string) {
    const r = await t.call('POST', '/api/v1/exports', { token: root, body: { type, format: 1, params, locale } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    await t.ctx.jobs.drain(['exports.run']);
    const row = await exportFinished(t, r.body.id);
    expect(row.status).toBe(2);
    const dl = await t.call('GET', `/api/v1/system/async_operations/${row.id}/download`, { token: root });
    return dl.res.rawPayload.subarray(3).toString('utf8');
  }

  it('writes USDT with 6 decimals, and the direction and the state in the asker\'s language (an outgoing transfer is sent, not credited)', async () => {
    const bettor = await makeBettor(t, w.agentA);
    const wallet = await insertWallet(db(), { bettorId: bettor.id, agentId: w.agentA });
    const row = (o: Partial<typeof tronTransfers.$inferInsert>) => ({
      fingerprint: `${randomHex()}:0`, txHash: randomHex(), eventIndex: 0, fromAddress: outside(), toAddress: wallet.addressBase58, walletId: wallet.id,
      bettorId: bettor.id, agentId: w.agentA, amount: 1, direction: 'in', status: 2, ...o,
    });
    await db().insert(tronTransfers).values([
      row({ amount: 50_600_169 }),
      row({ amount: 12_000_000, direction: 'out', fromAddress: wallet.addressBase58, toAddress: hot.addressBase58 }),
      row({ amount: 7, status: 1 }),
    ]);
    const en = await exported('usdt_transaction_record', { wallet_id: String(wallet.id) }, 'en-US');
    expect(en).toContain(',50.600169,In,');
    expect(en).toContain(',12.000000,Out,');
    expect(en).toContain(',0.000007,In,');
    expect(en).not.toMatch(/,50600169,|,in,|,out,/);
    const lines = en.split('\n');
    expect(lines.find((l) => l.includes(',50.600169,'))).toContain(',Credited,');
    expect(lines.find((l) => l.includes(',12.000000,'))).toContain(',Sent,');
    expect(lines.find((l) => l.includes(',12.000000,'))).not.toContain('Credited');
    expect(lines.find((l) => l.includes(',0.000007,'))).toContain(',Awaiting confirmations,');
    const sw = await exported('usdt_transaction_record', { wallet_id: String(wallet.id) }, 'sw-KE');
    expect(sw).toContain(',50.600169,Ndani,');
    expect(sw).toContain(',Imetumwa,');
    const zh = await exported('usdt_transaction_record', { wallet_id: String(wallet.id) }, 'zh-CN');
    expect(zh).toContain(',12.000000,转出,');
    expect(zh).toContain(',已入账,');
  });

  it('writes a sweep\'s amount in its asset with 6 decimals, its kind and its state as words', async () => {
    const number = `TC${Date.now()}`;
    await db().insert(tronSweeps).values({ number, kind: 'collect', fromAddress: outside(), toAddress: hot.addressBase58, amount: 30_000_001, asset: 'USDT', status: 2 });
    const en = await exported('tron_transaction_summary', { number }, 'en-US');
    expect(en).toMatch(new RegExp(`${number},Collection,.*,30\\.000001,USDT,Success,`));
  });
});
