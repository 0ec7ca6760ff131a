import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TronWeb } from 'tronweb';
import { freshDatabase } from './helpers.js';
import { SandboxTronNode, SANDBOX_USDT_CONTRACT, SOLIDIFY_DEPTH, ENERGY_TRANSFER_NEW, SUN_PER_ENERGY } from '../src/modules/tron/sandbox-node.js';
import { createTronWeb } from '../src/modules/tron/client.js';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let node: SandboxTronNode;
let url: string;
let tw: TronWeb;

beforeAll(async () => {
  database = await freshDatabase();
  node = new SandboxTronNode(database.db);
  url = await node.listen(0);
  tw = createTronWeb({ fullNodeUrl: url });
});
afterAll(async () => {
  await node.close();
  await database.dispose();
});

const get = async (path: string): Promise<any> => (await fetch(url + path)).json();
const post = async (path: string, body: unknown): Promise<any> => (await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
// A case that arms a fault (lag, never confirm, out of energy) leaves the node healthy for the next, whatever the order.
afterEach(async () => {
  await post('/sandbox/faults', { lag: 0, neverConfirm: 0, outOfEnergy: 0 });
});

describe('sandbox TRON node through TronWeb', () => {
  it('balance, TRC-20 balanceOf, transfer, confirmation after 19 blocks', async () => {
    const a = await TronWeb.createAccount();
    const b = await TronWeb.createAccount();
    // Fund a: 100 TRX and 50 USDT from the faucet (outside sender).
    expect(await post('/sandbox/deposit', { to: a.address.base58, amount: 100_000_000, asset: 'TRX' })).toMatchObject({ result: true });
    expect((await post('/sandbox/deposit', { to: a.address.base58, amount: 50_000_000 })).result).toBe(true);
    await post('/sandbox/mine', { blocks: 1 });
    // Unconfirmed (full node) sees it, the solidified view (getBalance) not yet.
    expect(await tw.trx.getUnconfirmedBalance(a.address.base58)).toBe(100_000_000);
    expect(await tw.trx.getBalance(a.address.base58)).toBe(0);
    await post('/sandbox/mine', { blocks: SOLIDIFY_DEPTH });
    expect(await tw.trx.getBalance(a.address.base58)).toBe(100_000_000);
    const usdt = await tw.contract().at(SANDBOX_USDT_CONTRACT);
    expect(BigInt(await usdt.balanceOf(a.address.base58).call())).toBe(50_000_000n);

    const built = await tw.transactionBuilder.triggerSmartContract(SANDBOX_USDT_CONTRACT, 'transfer(address,uint256)', { feeLimit: 30_000_000 }, [
      { type: 'address', value: b.address.base58 },
      { type: 'uint256', value: 20_000_000 },
    ], a.address.base58);
    const signed = await tw.trx.sign(built.transaction, a.privateKey);
    const sent = await tw.trx.sendRawTransaction(signed);
    expect(sent.result).toBe(true);
    expect(await tw.trx.getTransactionInfo(signed.txID)).toEqual({});
    await post('/sandbox/mine', { blocks: 1 });
    expect(await tw.trx.getTransactionInfo(signed.txID)).toEqual({});
    const unconfirmed: any = await tw.trx.getUnconfirmedTransactionInfo(signed.txID);
    expect(unconfirmed.receipt.result).toBe('SUCCESS');
    expect(unconfirmed.receipt.energy_usage_total).toBe(ENERGY_TRANSFER_NEW);
    await post('/sandbox/mine', { blocks: SOLIDIFY_DEPTH });
    const info: any = await tw.trx.getTransactionInfo(signed.txID);
    expect(info.receipt.result).toBe('SUCCESS');
    expect(info.log[0].topics[0]).toBe('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
    expect(BigInt(await usdt.balanceOf(b.address.base58).call())).toBe(20_000_000n);
    expect(BigInt(await usdt.balanceOf(a.address.base58).call())).toBe(30_000_000n);
    // Energy and bandwidth burnt in TRX.
    expect(await tw.trx.getBalance(a.address.base58)).toBe(100_000_000 - info.fee);
    expect(info.fee).toBeGreaterThan(ENERGY_TRANSFER_NEW * SUN_PER_ENERGY);
    const block: any = await tw.trx.getCurrentBlock();
    expect(block.block_header.raw_data.number).toBe(info.blockNumber + SOLIDIFY_DEPTH);
  });

  async function funded(trx = 100_000_000, usdt = 50_000_000) {
    const acc = await TronWeb.createAccount();
    if (trx) expect(await post('/sandbox/deposit', { to: acc.address.base58, amount: trx, asset: 'TRX' })).toMatchObject({ result: true });
    if (usdt) expect(await post('/sandbox/deposit', { to: acc.address.base58, amount: usdt })).toMatchObject({ result: true });
    await post('/sandbox/mine', { blocks: 1 });
    return acc;
  }
  async function transfer(from: { privateKey: string; address: { base58: string } }, to: string, amount: number, feeLimit = 30_000_000) {
    const built = await tw.transactionBuilder.triggerSmartContract(SANDBOX_USDT_CONTRACT, 'transfer(address,uint256)', { feeLimit }, [
      { type: 'address', value: to },
      { type: 'uint256', value: amount },
    ], from.address.base58);
    const signed = await tw.trx.sign(built.transaction, from.privateKey);
    return { signed, sent: await tw.trx.sendRawTransaction(signed) };
  }
  const usdtOf = async (a: string) => Number(await node.usdtBalance(a));

  it('TRX transfer built by TronWeb (sendTrx) is charged bandwidth and activates the receiver', async () => {
    const a = await funded(50_000_000, 0);
    const b = await TronWeb.createAccount();
    const unsigned = await tw.transactionBuilder.sendTrx(b.address.base58, 2_000_000, a.address.base58);
    const signed = await tw.trx.sign(unsigned, a.privateKey);
    expect((await tw.trx.sendRawTransaction(signed)).result).toBe(true);
    await post('/sandbox/mine', { blocks: 1 });
    expect(await tw.trx.getUnconfirmedBalance(b.address.base58)).toBe(2_000_000);
    const info: any = await tw.trx.getUnconfirmedTransactionInfo(signed.txID);
    expect(info.fee).toBeGreaterThan(1_000_000); // bandwidth + the new account's activation
    expect(await tw.trx.getUnconfirmedBalance(a.address.base58)).toBe(50_000_000 - 2_000_000 - info.fee);
    const tx: any = await tw.trx.getTransaction(signed.txID);
    expect(tx.ret[0].contractRet).toBe('SUCCESS');
  });

  it('refuses a forged signature, a tampered transaction, a duplicate and an unfunded sender', async () => {
    const a = await funded(50_000_000, 10_000_000);
    const mallory = await TronWeb.createAccount();
    const built = await tw.transactionBuilder.triggerSmartContract(SANDBOX_USDT_CONTRACT, 'transfer(address,uint256)', { feeLimit: 30_000_000 }, [
      { type: 'address', value: mallory.address.base58 },
      { type: 'uint256', value: 1_000_000 },
    ], a.address.base58);
    // Signed by another key (TronWeb refuses to, so sign the txID by hand through multisig mode).
    const forged = await tw.trx.sign(built.transaction, mallory.privateKey, true, true);
    expect(await tw.trx.sendRawTransaction(forged)).toMatchObject({ result: false, code: 'SIGERROR' });
    const good = await tw.trx.sign(built.transaction, a.privateKey);
    const tampered = { ...good, raw_data: { ...good.raw_data, fee_limit: 1 } };
    expect(await tw.trx.sendRawTransaction(tampered)).toMatchObject({ result: false, code: 'SIGERROR' });
    expect((await tw.trx.sendRawTransaction(good)).result).toBe(true);
    expect(await tw.trx.sendRawTransaction(good)).toMatchObject({ result: false, code: 'DUP_TRANSACTION_ERROR' });
    const poor = await TronWeb.createAccount();
    await post('/sandbox/deposit', { to: poor.address.base58, amount: 1_000_000 });
    await post('/sandbox/mine', { blocks: 1 });
    const { sent } = await transfer(poor, a.address.base58, 1_000_000);
    expect(sent).toMatchObject({ result: false, code: 'BANDWITH_ERROR' });
  });

  it('out of energy: a fee limit too low, and the injected fault, burn TRX and move no USDT', async () => {
    const a = await funded();
    const b = await TronWeb.createAccount();
    const low = await transfer(a, b.address.base58, 1_000_000, 1_000_000);
    expect(low.sent.result).toBe(true);
    await post('/sandbox/faults', { outOfEnergy: 1 });
    const injected = await transfer(a, b.address.base58, 1_000_000);
    expect(injected.sent.result).toBe(true);
    await post('/sandbox/mine', { blocks: SOLIDIFY_DEPTH + 1 });
    for (const { signed } of [low, injected]) {
      const info: any = await tw.trx.getTransactionInfo(signed.txID);
      expect(info.receipt.result).toBe('OUT_OF_ENERGY');
      expect(info.result).toBe('FAILED');
      expect(info.fee).toBeGreaterThan(0);
      expect(info.log).toBeUndefined();
    }
    expect(await usdtOf(b.address.base58)).toBe(0);
    expect(await usdtOf(a.address.base58)).toBe(50_000_000);
  });

  it('a broadcast that never confirms: accepted, never in a block, no info ever', async () => {
    const a = await funded();
    const b = await TronWeb.createAccount();
    await post('/sandbox/faults', { neverConfirm: 1 });
    const { signed, sent } = await transfer(a, b.address.base58, 5_000_000);
    expect(sent.result).toBe(true);
    await post('/sandbox/mine', { blocks: SOLIDIFY_DEPTH + 5 });
    expect(await tw.trx.getUnconfirmedTransactionInfo(signed.txID)).toEqual({});
    expect(await tw.trx.getTransactionInfo(signed.txID)).toEqual({});
    await expect(tw.trx.getTransaction(signed.txID)).rejects.toThrow(/not found/i);
    expect(await usdtOf(b.address.base58)).toBe(0);
    // The next one goes through: the fault was for one broadcast.
    const next = await transfer(a, b.address.base58, 5_000_000);
    await post('/sandbox/mine', { blocks: 1 });
    expect(((await tw.trx.getUnconfirmedTransactionInfo(next.signed.txID)) as any).receipt.result).toBe('SUCCESS');
  });

  it('a reorganisation drops the transfers of the replaced blocks (balances undone, events gone); solidified blocks never change', async () => {
    const a = await funded();
    // The funding stays below the reorganised blocks, and the chain is deeper than the solidification
    // depth whatever ran before (a solidified block to compare).
    await post('/sandbox/mine', { blocks: SOLIDIFY_DEPTH + 10 });
    const b = await TronWeb.createAccount();
    const { signed } = await transfer(a, b.address.base58, 7_000_000);
    await post('/sandbox/mine', { blocks: 3 });
    const before: any = await tw.trx.getUnconfirmedTransactionInfo(signed.txID);
    expect(before.receipt.result).toBe('SUCCESS');
    const oldBlock: any = await tw.trx.getBlockByNumber(before.blockNumber);
    const events = async () => (await get(`/v1/accounts/${b.address.base58}/transactions/trc20`)).data;
    expect(await events()).toHaveLength(1);
    const head = (await get('/sandbox/state')).head;
    const solidBlock: any = await tw.trx.getBlockByNumber(head - SOLIDIFY_DEPTH);
    await post('/sandbox/faults', { reorg: 5 });
    expect((await get('/sandbox/state')).head).toBe(head);
    expect(await tw.trx.getUnconfirmedTransactionInfo(signed.txID)).toEqual({});
    expect(await usdtOf(b.address.base58)).toBe(0);
    expect(await usdtOf(a.address.base58)).toBe(50_000_000);
    expect(await events()).toHaveLength(0);
    const replaced: any = await tw.trx.getBlockByNumber(before.blockNumber);
    expect(replaced.blockID).not.toBe(oldBlock.blockID);
    expect(((await tw.trx.getBlockByNumber(head - SOLIDIFY_DEPTH)) as any).blockID).toBe(solidBlock.blockID);
  });

  it('a lagging node answers an older head', async () => {
    await post('/sandbox/mine', { blocks: 10 }); // a chain longer than the lag, whatever ran before
    const head = (await get('/sandbox/state')).head;
    await post('/sandbox/faults', { lag: 4 });
    expect(((await tw.trx.getCurrentBlock()) as any).block_header.raw_data.number).toBe(head - 4);
    await expect(tw.trx.getBlockByNumber(head)).rejects.toThrow(/not found/i);
    await post('/sandbox/faults', { lag: 0 });
    expect(((await tw.trx.getCurrentBlock()) as any).block_header.raw_data.number).toBe(head);
  });

  it('TronGrid contract events carry block, index and the transfer', async () => {
    const a = await funded();
    const b = await TronWeb.createAccount();
    const { signed } = await transfer(a, b.address.base58, 3_000_000);
    const mined = (await post('/sandbox/mine', { blocks: 1 })).head;
    const r = await get(`/v1/contracts/${SANDBOX_USDT_CONTRACT}/events?event_name=Transfer&block_number=${mined}`);
    const ev = r.data.find((e: any) => e.transaction_id === signed.txID);
    expect(ev).toMatchObject({ block_number: mined, event_index: 0, event_name: 'Transfer' });
    expect(TronWeb.address.fromHex('41' + ev.result.to.slice(2))).toBe(b.address.base58);
    expect(ev.result.value).toBe('3000000');
  });
});

