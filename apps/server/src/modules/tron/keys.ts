import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { tronweb } from './lib.js';
import type { Executor } from '../../platform/db.js';
import { tronWallets } from './schema.js';

/**
 * The wallets' private keys at rest: AES-256-GCM envelope encryption.
 *
 * - Each wallet has its own random 32-byte data key. The private key (32 raw bytes) is encrypted under it
 *   with AES-256-GCM; the additional authenticated data is the wallet's Base58 address, so a ciphertext
 *   moved to another row does not decrypt.
 * - The data key is wrapped by a KeyWrapper: the local one encrypts it (AES-256-GCM again) under the
 *   master key (DAU_MASTER_KEY, 32 bytes base64); a KMS adapter implements the same two calls.
 * - The decrypted key exists only inside withPrivateKey's callback; the buffers are zero-filled after.
 *   Nothing here logs, throws or returns a key: errors name the wallet, never the material.
 *
 * Where the master key comes from (masterKeyFromConfig): DAU_MASTER_KEY; else the embedded demo (PGlite)
 * or a test/development run generates one into the data folder (data/master.key, mode 0600) and says so;
 * a production run on PostgreSQL without DAU_MASTER_KEY refuses to start.
 */

/** Wraps and unwraps data keys (the local master key, or a KMS). The blob is opaque text. */
export interface KeyWrapper {
  wrap(dataKey: Buffer): Promise<string>;
  unwrap(blob: string): Promise<Buffer>;
}

/** A key that cannot be used: wrong length, tampered ciphertext, another master key. Never carries key material. */
export class KeyMaterialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyMaterialError';
  }
}

const WRAP_PREFIX = 'local-v1:';

/** The local KeyWrapper: AES-256-GCM under the 32-byte master key; blob = 'local-v1:' + base64(iv ‖ ciphertext ‖ tag). */
export class LocalKeyWrapper implements KeyWrapper {
  readonly #master: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new KeyMaterialError('The master key must be 32 bytes');
    this.#master = Buffer.from(masterKey);
  }

  async wrap(dataKey: Buffer): Promise<string> {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.#master, iv);
    cipher.setAAD(Buffer.from('dau-tron-data-key'));
    const body = Buffer.concat([iv, cipher.update(dataKey), cipher.final(), cipher.getAuthTag()]);
    return WRAP_PREFIX + body.toString('base64');
  }

  async unwrap(blob: string): Promise<Buffer> {
    if (!blob.startsWith(WRAP_PREFIX)) throw new KeyMaterialError('Unknown data key format');
    const raw = Buffer.from(blob.slice(WRAP_PREFIX.length), 'base64');
    if (raw.length !== 12 + 32 + 16) throw new KeyMaterialError('Malformed wrapped data key');
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.#master, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from('dau-tron-data-key'));
      decipher.setAuthTag(raw.subarray(12 + 32));
      return Buffer.concat([decipher.update(raw.subarray(12, 12 + 32)), decipher.final()]);
    } catch {
      throw new KeyMaterialError('The data key does not open with this master key (tampered or another key)');
    }
  }

  /** Never print the key: a wrapper logged by accident shows nothing. */
  toJSON() {
    return { wrapper: 'local' };
  }
}

/** Decodes DAU_MASTER_KEY (32 bytes, base64). The message never repeats the value. */
export function parseMasterKey(value: string): Buffer {
  const trimmed = value.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) throw new KeyMaterialError('DAU_MASTER_KEY must be 32 bytes in base64');
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== 32) throw new KeyMaterialError('DAU_MASTER_KEY must be 32 bytes in base64');
  return key;
}

export const MASTER_KEY_FILE = 'master.key';

export interface MasterKeySource {
  /** DAU_MASTER_KEY. */
  masterKey?: string;
  /** 'pglite' (embedded) or 'pg'. */
  databaseKind: 'pglite' | 'pg';
  /** NODE_ENV (the configuration's default is production). */
  nodeEnv: string;
  dataDir: string;
  /** Told once when a key is generated (the path, never the key). */
  log?: (message: string) => void;
}

/**
 * The master key of this run: DAU_MASTER_KEY; else, for the embedded demo or a test/development run, the
 * data folder's master.key (generated on first use, mode 0600); a production run on PostgreSQL without
 * DAU_MASTER_KEY throws (main.ts stops with the message).
 */
export function masterKeyFromConfig(src: MasterKeySource): LocalKeyWrapper {
  if (src.masterKey) return new LocalKeyWrapper(parseMasterKey(src.masterKey));
  if (src.databaseKind === 'pg' && src.nodeEnv === 'production') {
    throw new KeyMaterialError(
      'DAU_MASTER_KEY is required with PostgreSQL in production: set it to 32 random bytes in base64 (openssl rand -base64 32). The TRON wallets\' private keys are encrypted under it.',
    );
  }
  return new LocalKeyWrapper(dataFolderMasterKey(src.dataDir, src.log));
}

/** Reads data/master.key, or creates it (32 random bytes, base64, mode 0600) when absent. */
export function dataFolderMasterKey(dataDir: string, log?: (message: string) => void): Buffer {
  const file = path.join(dataDir, MASTER_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    const key = crypto.randomBytes(32);
    try {
      // 'wx': two processes starting together do not overwrite each other's key.
      fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
      log?.(`No DAU_MASTER_KEY: generated the TRON wallets' master key into ${file} (mode 0600). Keep this file with the database; without it the wallets' keys cannot be opened.`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      key.fill(0);
    }
  }
  try {
    return parseMasterKey(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new KeyMaterialError(`${file} does not hold a 32-byte base64 master key`);
  }
}

/** The encrypted columns of a wallet row. */
export interface SealedKey {
  keyCiphertext: string;
  keyIv: string;
  keyTag: string;
  dataKeyWrapped: string;
}

/** Encrypts a private key (64 hex) for the wallet at `addressBase58` under a fresh data key. */
export async function sealPrivateKey(wrapper: KeyWrapper, privateKeyHex: string, addressBase58: string): Promise<SealedKey> {
  if (!/^[0-9a-fA-F]{64}$/.test(privateKeyHex)) throw new KeyMaterialError('A private key is 32 bytes (64 hex)');
  const plain = Buffer.from(privateKeyHex, 'hex');
  const dataKey = crypto.randomBytes(32);
  try {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', dataKey, iv);
    cipher.setAAD(Buffer.from(addressBase58));
    const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
    return {
      keyCiphertext: ciphertext.toString('base64'),
      keyIv: iv.toString('base64'),
      keyTag: cipher.getAuthTag().toString('base64'),
      dataKeyWrapped: await wrapper.wrap(dataKey),
    };
  } finally {
    plain.fill(0);
    dataKey.fill(0);
  }
}

/** Opens a sealed key into a buffer the caller must zero-fill. Throws KeyMaterialError on any tampering. */
export async function openSealedKey(wrapper: KeyWrapper, sealed: SealedKey, addressBase58: string): Promise<Buffer> {
  const dataKey = await wrapper.unwrap(sealed.dataKeyWrapped);
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', dataKey, Buffer.from(sealed.keyIv, 'base64'));
    decipher.setAAD(Buffer.from(addressBase58));
    decipher.setAuthTag(Buffer.from(sealed.keyTag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.keyCiphertext, 'base64')), decipher.final()]);
  } catch {
    throw new KeyMaterialError(`The key of ${addressBase58} does not decrypt (tampered or another master key)`);
  } finally {
    dataKey.fill(0);
  }
}

/** A fresh key pair from TronWeb (its own secp256k1 and address derivation), sealed: what a new wallet row stores. */
export async function newSealedAccount(wrapper: KeyWrapper): Promise<{ addressBase58: string; addressHex: string; publicKey: string } & SealedKey> {
  const account = await tronweb().TronWeb.createAccount();
  const sealed = await sealPrivateKey(wrapper, account.privateKey, account.address.base58);
  const out = { addressBase58: account.address.base58, addressHex: account.address.hex.toLowerCase(), publicKey: account.publicKey, ...sealed };
  // The generated object is dropped here; its string cannot be zero-filled, but it never leaves this call.
  (account as { privateKey: string }).privateKey = '';
  return out;
}

let keyWrapper: KeyWrapper | null = null;

/** Sets the KeyWrapper of this process (app.ts, from BuildOptions or the data folder). */
export function setKeyWrapper(wrapper: KeyWrapper) {
  keyWrapper = wrapper;
}

export const hasKeyWrapper = () => keyWrapper !== null;

export function currentKeyWrapper(): KeyWrapper {
  if (!keyWrapper) throw new KeyMaterialError('No master key configured for the TRON wallets');
  return keyWrapper;
}

/**
 * Calls fn with the wallet's private key (64 hex) and zero-fills the decrypted buffer afterwards. The key
 * is checked against the wallet's address (TronWeb's derivation) before fn sees it. fn must use the key
 * only to sign (trx.sign) and must not return or store it.
 */
export async function withPrivateKey<T>(ex: Executor, walletId: number, fn: (privateKeyHex: string) => Promise<T> | T): Promise<T> {
  const [row] = await ex
    .select({
      addressBase58: tronWallets.addressBase58,
      keyCiphertext: tronWallets.keyCiphertext,
      keyIv: tronWallets.keyIv,
      keyTag: tronWallets.keyTag,
      dataKeyWrapped: tronWallets.dataKeyWrapped,
    })
    .from(tronWallets)
    .where(eq(tronWallets.id, walletId));
  if (!row) throw new KeyMaterialError(`No TRON wallet ${walletId}`);
  const plain = await openSealedKey(currentKeyWrapper(), row, row.addressBase58);
  try {
    const hex = plain.toString('hex');
    if (tronweb().TronWeb.address.fromPrivateKey(hex) !== row.addressBase58) throw new KeyMaterialError(`The key of wallet ${walletId} does not match its address`);
    return await fn(hex);
  } finally {
    plain.fill(0);
  }
}
