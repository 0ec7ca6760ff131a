import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const post = async (path: string, body: unknown): Promise<any> => (await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();

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
});
