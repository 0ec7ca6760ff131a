import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PAY_TYPE } from '@dau/domain';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { admins, bettors, roles, jackpotTickets, recharges, tronTransfers, tronWallets, withdrawals } from '../src/schema.js';
import { orders } from '../src/modules/betting/schema.js';

/**
 * Search everywhere (issue 29, GET /api/v1/search): each kind found by each of its forms, opening the page
 * that shows it; the branch and the pages of the caller bound what is found; bad queries are refused or
 * find nothing, never a 500.
 */
let t: TestApp;
let rootToken: string;
let ids: Record<string, number>;
const SERIAL = { order: 'S261204A1B2C3D4E5F6', orderNo: 'O261204A1B2C3D4E5F6', withdrawal: 'W261204ABCDEF012345', oldWithdrawal: 'W261001ABCDEF012345', recharge: 'R261204ABCDEF012345', ticket: 'J261204ABCDEF012345' };
const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const TX = 'a'.repeat(8) + 'b'.repeat(56);
const tokens: Record<string, string> = {};

type Group = { kind: string; items: { kind: string; id: number; title: string; subtitle: string; page: string; params: Record<string, string> }[] };
async function search(q: string, token = rootToken) {
  const r = await t.call('GET', `/api/v1/search?q=${encodeURIComponent(q)}`, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.groups as Group[];
}
const found = (groups: Group[], kind: string) => groups.find((g) => g.kind === kind)!.items;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  rootToken = await t.login('admin', ADMIN_PASSWORD);
  const [root] = await db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  const branchRole = await makeRole(t, 'Branch', ['users', 'user', 'betting', 'order_list', 'order_detailed', 'withdraw_list', 'recharge_list', 'withdrawal_archive']);
  const usersOnly = await makeRole(t, 'Users only', ['users', 'user']);
  // Staff: works for its superior's branch, as the lists scope it.
  await db.update(roles).set({ servesSuperiorBranch: true }).where(eq(roles.id, usersOnly));
  const agentA = await makeAdmin(t, 'search_agent_a', branchRole, root.id, { name: 'Neema Agent', phone: '0754111222' });
  const agentB = await makeAdmin(t, 'search_agent_b', branchRole, root.id);
  const clerk = await makeAdmin(t, 'search_clerk', usersOnly, agentA);
  for (const a of ['search_agent_a', 'search_agent_b', 'search_clerk']) tokens[a] = await t.login(a);

  const bettor = await makeBettor(t, agentA, { phone: '255712345678', name: 'Zawadi Mushi' });
  await db.update(bettors).set({ invitationCode: 'QWERTY23' }).where(eq(bettors.id, bettor.id));
  await makeBettor(t, agentB, { phone: '255712000999', name: 'Zawadi Other' });
  const common = { bettorId: bettor.id, agentId: agentA };
  const [order] = await db
    .insert(orders)
    .values({
      ...common, orderNo: SERIAL.orderNo, serialNumber: SERIAL.order, type: 1, status: 1, stake: 100_000, cashStake: 100_000, totalOdds: '2.5',
      potentialPayout: 250_000, legCount: 1, taxRate: 1000, lastMatchAt: new Date(),
    })
    .returning({ id: orders.id });
  const pay = { ...common, amount: 500_000, payType: PAY_TYPE.vodacom, phone: bettor.phone };
  const [w] = await db.insert(withdrawals).values({ ...pay, serialNumber: SERIAL.withdrawal, carrierOrderNumber: 'MP261204XYZ' }).returning({ id: withdrawals.id });
  const [old] = await db
    .insert(withdrawals)
    .values({ ...pay, serialNumber: SERIAL.oldWithdrawal, carrierOrderNumber: 'MP261001OLD', createdAt: new Date(Date.now() - 40 * 86_400_000) })
    .returning({ id: withdrawals.id });
  const [r] = await db.insert(recharges).values({ ...pay, serialNumber: SERIAL.recharge, carrierOrderNumber: 'TG99887766' }).returning({ id: recharges.id });
  const [ticket] = await db
    .insert(jackpotTickets)
    .values({ ...common, serialNumber: SERIAL.ticket, issueId: 1, picks: [1, 2, 3], lines: 1, unit: 1000, stake: 1000 })
    .returning({ id: jackpotTickets.id });
  const [wallet] = await db
    .insert(tronWallets)
    .values({
      role: 1, ...common, addressBase58: ADDRESS, addressHex: '41' + 'c'.repeat(40), publicKey: 'p', keyCiphertext: 'x', keyIv: 'x', keyTag: 'x', dataKeyWrapped: 'x',
    })
    .returning({ id: tronWallets.id });
  const [transfer] = await db
    .insert(tronTransfers)
    .values({ ...common, fingerprint: `${TX}:0`, txHash: TX, eventIndex: 0, fromAddress: 'TXYZ' + '1'.repeat(30), toAddress: ADDRESS, amount: 25_000_000, direction: 'in', walletId: wallet.id })
    .returning({ id: tronTransfers.id });
  ids = { agentA, agentB, clerk, bettor: bettor.id, order: order.id, withdrawal: w.id, old: old.id, recharge: r.id, ticket: ticket.id, wallet: wallet.id, transfer: transfer.id };
});

afterAll(async () => {
  await t?.close();
});

describe('search everywhere', () => {
  it('finds a bettor by a phone in any form, by name prefix, by id and by invitation code, and opens the drawer', async () => {
    for (const q of ['0712345678', '0712 345 678', '712345678', '+255712345678', '255 712 345 678']) {
      const items = found(await search(q), 'bettor');
      expect(items.map((i) => i.id), q).toEqual([ids.bettor]);
      expect(items[0]).toMatchObject({ title: '0712 345 678', page: 'user', params: { id: String(ids.bettor), open: String(ids.bettor) } });
    }
    expect(found(await search('zawadi m'), 'bettor').map((i) => i.id)).toEqual([ids.bettor]);
    expect(found(await search('ZAW'), 'bettor')).toHaveLength(2);
    expect(found(await search(String(ids.bettor)), 'bettor').map((i) => i.id)).toContain(ids.bettor);
    expect(found(await search('qwer ty23'), 'bettor').map((i) => i.id)).toEqual([ids.bettor]);
  });

  it('finds an order by serial, order number and id, opening its detail page', async () => {
    for (const q of [SERIAL.order, SERIAL.order.toLowerCase(), SERIAL.orderNo, String(ids.order)]) {
      const items = found(await search(q), 'order');
      expect(items.map((i) => i.id), q).toEqual([ids.order]);
      expect(items[0]).toMatchObject({ page: 'order_detailed', params: { id: String(ids.order) } });
    }
  });

  it('finds withdrawals and recharges by serial and by the operator reference; an old one opens in the archive', async () => {
    for (const q of [SERIAL.withdrawal, 'MP261204XYZ']) {
      expect(found(await search(q), 'withdrawal'), q).toMatchObject([{ id: ids.withdrawal, page: 'withdraw_list', params: { serial_number: SERIAL.withdrawal, open: String(ids.withdrawal) } }]);
    }
    expect(found(await search('MP261001OLD'), 'withdrawal')).toMatchObject([{ id: ids.old, page: 'withdrawal_archive' }]);
    for (const q of [SERIAL.recharge, 'TG99887766']) {
      expect(found(await search(q), 'recharge').map((i) => i.id), q).toEqual([ids.recharge]);
    }
    // A reference is not a serial of the other kind.
    expect(found(await search('MP261204XYZ'), 'recharge')).toEqual([]);
  });

  it('finds a jackpot ticket by serial, a TRON wallet and its transfers by address, a transfer by hash, an admin by account, name and phone', async () => {
    expect(found(await search(SERIAL.ticket), 'jackpot_ticket')).toMatchObject([{ id: ids.ticket, page: 'jackpot_bet_list', params: { serial_number: SERIAL.ticket } }]);
    const byAddress = await search(ADDRESS);
    expect(found(byAddress, 'tron_wallet')).toMatchObject([{ id: ids.wallet, page: 'tron', params: { address: ADDRESS } }]);
    expect(found(byAddress, 'tron_transfer').map((i) => i.id)).toEqual([ids.transfer]);
    expect(found(await search(`0x${TX.toUpperCase()}`), 'tron_transfer')).toMatchObject([{ id: ids.transfer, page: 'usdt_transaction_record', params: { tx_hash: TX } }]);
    for (const q of ['search_agent_a', 'SEARCH_AGENT_A', 'neema', '0754 111 222', '+255754111222']) {
      expect(found(await search(q), 'admin').map((i) => i.id), q).toContain(ids.agentA);
    }
  });

  it('a branch admin finds only their branch; a role without the order screen gets no orders', async () => {
    const a = await search('0712345678', tokens.search_agent_a);
    expect(found(a, 'bettor').map((i) => i.id)).toEqual([ids.bettor]);
    const b = await search('0712345678', tokens.search_agent_b);
    expect(found(b, 'bettor')).toEqual([]);
    expect(found(await search(SERIAL.order, tokens.search_agent_b), 'order')).toEqual([]);
    expect(found(await search('MP261204XYZ', tokens.search_agent_b), 'withdrawal')).toEqual([]);
    expect(found(await search('zaw', tokens.search_agent_b), 'bettor').map((i) => i.title)).toEqual(['0712 000 999']);
    // Admins: the branch's own subtree only (agent B holds no administrators page at all).
    expect(found(await search('search_', tokens.search_agent_b), 'admin')).toEqual([]);

    const clerk = tokens.search_clerk;
    expect(found(await search(SERIAL.order, clerk), 'order')).toEqual([]);
    expect(found(await search(String(ids.order), clerk), 'order')).toEqual([]);
    expect(found(await search(SERIAL.withdrawal, clerk), 'withdrawal')).toEqual([]);
    // …but the bettors of the branch it serves (agent A's) are there.
    expect(found(await search('0712345678', clerk), 'bettor').map((i) => i.id)).toEqual([ids.bettor]);
  });

  it('a query that is nothing finds nothing (every group empty), never a 500; an empty or over-long one is 400', async () => {
    for (const q of ["%_\\'\"; drop table bettors; --", '%', '___', 'zz', '💥💥', 'T' + '1'.repeat(33), '0'.repeat(16), '9'.repeat(40)]) {
      const groups = await search(q);
      expect(groups.map((g) => g.kind)).toEqual(['bettor', 'order', 'withdrawal', 'recharge', 'jackpot_ticket', 'tron_wallet', 'tron_transfer', 'tron_sweep', 'admin']);
      expect(groups.flatMap((g) => g.items), q).toEqual([]);
    }
    for (const url of ['/api/v1/search', '/api/v1/search?q=', '/api/v1/search?q=%20%20', `/api/v1/search?q=${'a'.repeat(101)}`, '/api/v1/search?q=a%00b']) {
      const r = await t.call('GET', url, { token: rootToken });
      expect(r.status, url).toBe(400);
      expect(r.body.code).toBe('PARAM_INVALID');
    }
    expect((await t.call('GET', '/api/v1/search?q=0712345678')).status).toBe(401);
  });
});
