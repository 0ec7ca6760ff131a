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
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { UploadType } from '@dau/contract';

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
    this.client = new S3Client({
      endpoint: s.domain || undefined,
      region: s.region || 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.accessKeySecret },
      maxAttempts: 2,
    });
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return;
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length,
        CacheControl: 'public, max-age=31536000, immutable',
        ChecksumSHA256: crypto.createHash('sha256').update(bytes).digest('base64'),
      }),
    );
  }

  async get(key: string): Promise<Readable | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return out.Body instanceof Readable ? out.Body : out.Body ? Readable.fromWeb(out.Body.transformToWebStream() as never) : null;
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
  e instanceof S3ServiceException ? e.$metadata.httpStatusCode === 404 || e.name === 'NoSuchKey' || e.name === 'NotFound' : false;

/**
 * One store per distinct settings: the S3 client (and its connection pool) is kept while the settings
 * stay the same, and replaced when an operator changes them.
 */
export class StoreCache {
  private key = '';
  private store: ObjectStore | null = null;
  constructor(private readonly uploadsRoot: string) {}

  of(s: StorageSettings): ObjectStore {
    const key = JSON.stringify(s);
    if (this.store && key === this.key) return this.store;
    if (this.store instanceof S3Store) this.store.destroy();
    this.key = key;
    this.store = s.uploadType === 's3' ? new S3Store(s) : new LocalStore(this.uploadsRoot);
    return this.store;
  }

  /** A store for reading an object written earlier, possibly to another bucket than the current one. */
  reader(s: StorageSettings, kind: string, bucket: string): ObjectStore {
    if (kind === 'local') return this.local;
    if (s.uploadType === 's3' && s.bucket === bucket) return this.of(s);
    return new S3Store({ ...s, bucket });
  }

  private get local(): ObjectStore {
    return this.store instanceof LocalStore ? this.store : new LocalStore(this.uploadsRoot);
  }

  close() {
    if (this.store instanceof S3Store) this.store.destroy();
    this.store = null;
  }
}
