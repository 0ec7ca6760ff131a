/**
 * Where uploaded pictures are kept (spec §3 Image storage config): a folder under the server's data folder
 * (`<dataDir>/uploads/<save path><name>`, the default) or an S3-compatible bucket through the official
 * client (@aws-sdk/client-s3, path-style addressing, endpoint = the config's domain). Objects are named by
 * the sha256 of their content, so a write of a name that exists is skipped: the bytes are the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type * as S3 from '@aws-sdk/client-s3';
import { onFirstUse } from '../../platform/lazy.js';

/** The S3 client, loaded when S3 storage is first used (the data folder needs none of it). */
const s3 = onFirstUse<typeof S3>('@aws-sdk/client-s3');
import type { UploadType } from '@dau/contract';
import { allowPrivateEndpoints, publicOnlyAgents } from '../../platform/endpoints.js';

export interface StorageSettings {
  uploadType: UploadType;
  domain: string;
  region: string;
  accessKeyId: string;
  /** The plain secret (opened from its sealed form). */
  accessKeySecret: string;
  bucket: string;
  savePath: string;
}

export interface ObjectStore {
  readonly kind: UploadType;
  /** The bucket (s3) or '' (local). */
  readonly bucket: string;
  /** Writes the bytes under `key` unless an object of that key exists (same name, same content). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object's bytes as a stream, or null when there is none. */
  get(key: string): Promise<Readable | null>;
}

/** A save path as a safe key prefix: segments of letters, digits, `_`, `-` and `.` (never `..`), ending in `/`. */
export function normaliseSavePath(raw: string): string | null {
  const parts = raw.split('/').filter(Boolean);
  if (parts.some((p) => p === '.' || p === '..' || !/^[A-Za-z0-9_.-]{1,64}$/.test(p))) return null;
  return parts.length ? `${parts.join('/')}/` : '';
}

export class LocalStore implements ObjectStore {
  readonly kind = 'local' as const;
  readonly bucket = '';
  constructor(private readonly root: string) {}

  private file(key: string): string {
    const file = path.resolve(this.root, key);
    // Keys are built from a checked save path and a hash; this is the last line against a path outside the folder.
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error('object key outside the uploads folder');
    return file;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.file(key);
    if (fs.existsSync(file)) return;
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Written whole under a temporary name, then renamed: a reader never sees half a picture.
    const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    await fs.promises.writeFile(tmp, bytes, { flag: 'wx' });
    await fs.promises.rename(tmp, file);
  }

  async get(key: string): Promise<Readable | null> {
    const file = this.file(key);
    try {
      const handle = await fs.promises.open(file, 'r');
      return handle.createReadStream();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }
}

export class S3Store implements ObjectStore {
  readonly kind = 's3' as const;
  readonly bucket: string;
  private readonly client: S3Client;

  constructor(s: StorageSettings) {
    this.bucket = s.bucket;
    this.client = new (s3().S3Client)({
      endpoint: s.domain || undefined,
      region: s.region || 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.accessKeySecret },
      maxAttempts: 2,
      // A storage that does not answer fails the upload in seconds, not after the OS's TCP timeout.
      // The endpoint is an admin's setting: the agents refuse internal addresses at every connection.
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000, ...publicOnlyAgents() },
    });
  }

  /** Whether the bucket exists and these keys may use it (HeadBucket); throws the service's refusal. */
  async check(): Promise<void> {
    await this.client.send(new (s3().HeadBucketCommand)({ Bucket: this.bucket }));
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    try {
      await this.client.send(new (s3().HeadObjectCommand)({ Bucket: this.bucket, Key: key }));
      return;
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    await this.client.send(
      new (s3().PutObjectCommand)({
        Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length,
        CacheControl: 'public, max-age=31536000, immutable',
        ChecksumSHA256: crypto.createHash('sha256').update(bytes).digest('base64'),
      }),
    );
  }

  /**
   * The object under `key`, only when its bytes are what we wrote: an object is named by the sha256 of its
   * content, so anything else at that name (another writer, a storage answering for another host) is not
   * served (null: 404).
   */
  async get(key: string): Promise<Readable | null> {
    try {
      const out = await this.client.send(new (s3().GetObjectCommand)({ Bucket: this.bucket, Key: key }));
      if (!out.Body) return null;
      const bytes = Buffer.from(await out.Body.transformToByteArray());
      const named = /([0-9a-f]{64})\.[a-z0-9]+$/.exec(key)?.[1];
      if (!named || crypto.createHash('sha256').update(bytes).digest('hex') !== named) return null;
      return Readable.from([bytes]);
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  destroy() {
    this.client.destroy();
  }
}

const isNotFound = (e: unknown) =>
  e instanceof s3().S3ServiceException ? e.$metadata.httpStatusCode === 404 || e.name === 'NoSuchKey' || e.name === 'NotFound' : false;

/**
 * One store per distinct settings: the S3 client (and its connection pool) is kept while the settings
 * stay the same, and replaced when an operator changes them.
 */
export class StoreCache {
  private key = '';
  private store: ObjectStore | null = null;
  constructor(private readonly uploadsRoot: string) {
    this.local = new LocalStore(uploadsRoot);
  }

  of(s: StorageSettings): ObjectStore {
    // Whether private endpoints are allowed is part of the client (its agents): a change makes a new one.
    const key = JSON.stringify({ ...s, allowPrivate: allowPrivateEndpoints() });
    if (this.store && key === this.key) return this.store;
    if (this.store instanceof S3Store) this.store.destroy();
    this.key = key;
    this.store = s.uploadType === 's3' ? new S3Store(s) : this.local;
    return this.store;
  }

  /** Readers of buckets written to under earlier settings (kept, a few at most: settings rarely change). */
  private readonly older = new Map<string, S3Store>();
  private readonly local: LocalStore;

  /** A store for reading an object written earlier, possibly to another bucket than the current one. */
  reader(s: StorageSettings, kind: string, bucket: string): ObjectStore {
    if (kind === 'local') return this.local;
    if (s.uploadType === 's3' && s.bucket === bucket) return this.of(s);
    const key = JSON.stringify({ ...s, bucket, allowPrivate: allowPrivateEndpoints() });
    let store = this.older.get(key);
    if (!store) {
      if (this.older.size >= 4) this.closeOlder();
      store = new S3Store({ ...s, bucket });
      this.older.set(key, store);
    }
    return store;
  }

  private closeOlder() {
    for (const st of this.older.values()) st.destroy();
    this.older.clear();
  }

  close() {
    if (this.store instanceof S3Store) this.store.destroy();
    this.store = null;
    this.closeOlder();
  }
}
