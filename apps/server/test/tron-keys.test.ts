import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TronWeb, Trx, utils } from 'tronweb';
import {
  KeyMaterialError, LocalKeyWrapper, MASTER_KEY_FILE, dataFolderMasterKey, masterKeyFromConfig, newSealedAccount, openSealedKey, parseMasterKey, sealPrivateKey,
} from '../src/modules/tron/keys.js';

/**
 * Addresses and signatures against TronWeb's own derivation of known vectors, and the envelope
 * encryption of wallet keys (AES-256-GCM data key per wallet under the master key).
 */

// Private key 1 and 2: their Ethereum addresses are well known; a TRON address is 0x41 + the same 20 bytes.
const VECTORS = [
  { key: '0000000000000000000000000000000000000000000000000000000000000001', hex: '417e5f4552091a69125d5dfcb7b8c2659029395bdf' },
  { key: '0000000000000000000000000000000000000000000000000000000000000002', hex: '412b5ad5c4795c026514f8317c7a215e218dccd6cf' },
];
// TRON's documentation example key pair.
const DOC_VECTOR = { key: 'da146374a75310b9666e834ee4ad0866d6f4035967bfc76217c5a495fff9f0d0', base58: 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY' };

const wrapper = () => new LocalKeyWrapper(crypto.randomBytes(32));

describe('addresses and signatures (TronWeb derivation)', () => {
  it('derives the known addresses of fixed private keys, Base58 and hex agreeing', () => {
    for (const v of VECTORS) {
      const base58 = TronWeb.address.fromPrivateKey(v.key) as string;
      expect((TronWeb.address.toHex(base58) as string).toLowerCase()).toBe(v.hex);
      expect(TronWeb.address.fromHex(v.hex)).toBe(base58);
      expect(base58.startsWith('T')).toBe(true);
      expect(TronWeb.isAddress(base58)).toBe(true);
    }
    expect(TronWeb.address.fromPrivateKey(DOC_VECTOR.key)).toBe(DOC_VECTOR.base58);
    // One changed character breaks the Base58Check checksum.
    const bad = DOC_VECTOR.base58.slice(0, -1) + (DOC_VECTOR.base58.endsWith('Y') ? 'Z' : 'Y');
    expect(TronWeb.isAddress(bad)).toBe(false);
  });

  it('signs a transaction that recovers to the signer, and a message that verifies', async () => {
    const tw = new TronWeb({ fullHost: 'http://127.0.0.1:1' });
    const from = TronWeb.address.fromPrivateKey(DOC_VECTOR.key) as string;
    const raw = {
      contract: [{ parameter: { value: { amount: 1_000_000, owner_address: TronWeb.address.toHex(from), to_address: VECTORS[0]!.hex }, type_url: 'type.googleapis.com/protocol.TransferContract' }, type: 'TransferContract' }],
      ref_block_bytes: '0001', ref_block_hash: '0011223344556677', expiration: 1_800_000_060_000, timestamp: 1_800_000_000_000,
    };
    const tx: any = { visible: false, txID: '', raw_data: raw, raw_data_hex: '' };
    const pb = utils.transaction.txJsonToPb(tx);
    tx.txID = utils.transaction.txPbToTxID(pb).replace(/^0x/, '');
    tx.raw_data_hex = utils.transaction.txPbToRawDataHex(pb).toLowerCase();
    const signed = await tw.trx.sign(tx, DOC_VECTOR.key);
    expect(Trx.ecRecover(signed)).toBe(from);
    // Another key's signature recovers another address.
    const other = await tw.trx.sign(tx, VECTORS[1]!.key, true, true).catch(() => null);
    if (other) expect(Trx.ecRecover(other)).not.toBe(from);
    // A key that is not the owner's is refused by TronWeb before signing.
    await expect(tw.trx.sign(tx, VECTORS[0]!.key)).rejects.toThrow(/does not match/);
    const message = Buffer.from('dau tron').toString('hex');
    const sig = Trx.signString(message, DOC_VECTOR.key);
    expect(Trx.verifySignature(message, from, sig)).toBe(true);
    expect(Trx.verifySignature(message, TronWeb.address.fromHex(VECTORS[0]!.hex) as string, sig)).toBe(false);
  });
});

describe('envelope encryption', () => {
  it('round-trips a key and seals each wallet under its own data key', async () => {
    const w = wrapper();
    const a = await sealPrivateKey(w, DOC_VECTOR.key, DOC_VECTOR.base58);
    const b = await sealPrivateKey(w, DOC_VECTOR.key, DOC_VECTOR.base58);
    expect(a.keyCiphertext).not.toBe(b.keyCiphertext);
    expect(a.dataKeyWrapped).not.toBe(b.dataKeyWrapped);
    for (const v of Object.values(a)) expect(v).not.toContain(DOC_VECTOR.key);
    const opened = await openSealedKey(w, a, DOC_VECTOR.base58);
    expect(opened.toString('hex')).toBe(DOC_VECTOR.key);
  });

  it('detects tampering: ciphertext, tag, IV, wrapped data key, another address, another master key', async () => {
    const w = wrapper();
    const s = await sealPrivateKey(w, DOC_VECTOR.key, DOC_VECTOR.base58);
    const flip = (b64: string, at = 0) => {
      const buf = Buffer.from(b64, 'base64');
      buf[at] = buf[at]! ^ 1;
      return buf.toString('base64');
    };
    await expect(openSealedKey(w, { ...s, keyCiphertext: flip(s.keyCiphertext) }, DOC_VECTOR.base58)).rejects.toThrow(KeyMaterialError);
    await expect(openSealedKey(w, { ...s, keyTag: flip(s.keyTag) }, DOC_VECTOR.base58)).rejects.toThrow(KeyMaterialError);
    await expect(openSealedKey(w, { ...s, keyIv: flip(s.keyIv) }, DOC_VECTOR.base58)).rejects.toThrow(KeyMaterialError);
    const wrapped = 'local-v1:' + flip(s.dataKeyWrapped.slice('local-v1:'.length), 20);
    await expect(openSealedKey(w, { ...s, dataKeyWrapped: wrapped }, DOC_VECTOR.base58)).rejects.toThrow(KeyMaterialError);
    await expect(openSealedKey(w, s, 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZZ')).rejects.toThrow(KeyMaterialError);
    await expect(openSealedKey(wrapper(), s, DOC_VECTOR.base58)).rejects.toThrow(KeyMaterialError);
    // The errors never carry the key.
    const err = await openSealedKey(wrapper(), s, DOC_VECTOR.base58).catch((e: Error) => e);
    expect(String((err as Error).message)).not.toContain(DOC_VECTOR.key);
  });

  it('a fresh account from TronWeb opens to a key whose address is the wallet address', async () => {
    const w = wrapper();
    const acc = await newSealedAccount(w);
    const key = await openSealedKey(w, acc, acc.addressBase58);
    expect(TronWeb.address.fromPrivateKey(key.toString('hex'))).toBe(acc.addressBase58);
    expect((TronWeb.address.toHex(acc.addressBase58) as string).toLowerCase()).toBe(acc.addressHex);
    expect(JSON.stringify(w)).not.toMatch(/[A-Za-z0-9+/]{40,}/);
  });
});

describe('master key', () => {
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'dau-key-'));

  it('PostgreSQL in production without DAU_MASTER_KEY refuses to start', () => {
    expect(() => masterKeyFromConfig({ databaseKind: 'pg', nodeEnv: 'production', dataDir: tmp() })).toThrow(/DAU_MASTER_KEY is required/);
  });

  it('the embedded demo generates data/master.key (0600), says so without the key, and keeps it', () => {
    const dir = tmp();
    const said: string[] = [];
    const w1 = masterKeyFromConfig({ databaseKind: 'pglite', nodeEnv: 'production', dataDir: dir, log: (m) => said.push(m) });
    const file = path.join(dir, MASTER_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = fs.readFileSync(file, 'utf8').trim();
    expect(Buffer.from(stored, 'base64').length).toBe(32);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(file);
    expect(said[0]).not.toContain(stored);
    // The second start reads the same key: what the first sealed, the second opens.
    const w2 = masterKeyFromConfig({ databaseKind: 'pglite', nodeEnv: 'production', dataDir: dir, log: (m) => said.push(m) });
    expect(said).toHaveLength(1);
    return (async () => {
      const s = await sealPrivateKey(w1, DOC_VECTOR.key, DOC_VECTOR.base58);
      expect((await openSealedKey(w2, s, DOC_VECTOR.base58)).toString('hex')).toBe(DOC_VECTOR.key);
      expect(dataFolderMasterKey(dir).toString('base64')).toBe(stored);
    })();
  });

  it('DAU_MASTER_KEY must be 32 bytes of base64; the message never repeats it', () => {
    const short = crypto.randomBytes(16).toString('base64');
    let message = '';
    try {
      parseMasterKey(short);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/32 bytes/);
    expect(message).not.toContain(short);
    const good = crypto.randomBytes(32).toString('base64');
    expect(parseMasterKey(good).toString('base64')).toBe(good);
    expect(() => masterKeyFromConfig({ masterKey: good, databaseKind: 'pg', nodeEnv: 'production', dataDir: tmp() })).not.toThrow();
  });
});
