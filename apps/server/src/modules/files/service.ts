/**
 * Uploads (spec §7 `api/file/add`): a picture's type is read from its first bytes (PNG, JPEG, GIF, WebP;
 * never from the name or the declared type, and never SVG), its name is the sha256 of its content plus the
 * type's extension (the same picture twice is one object and one address), and it is kept in the store the
 * image config names. Served back at /uploads/<name>.
 */
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { UPLOAD_KINDS, type UploadType } from '@dau/contract';
import type { Db, Executor } from '../../platform/db.js';
import { openSecret } from '../casino/index.js';
import { imageConfig, uploads } from './schema.js';
import { normaliseSavePath, type StorageSettings, type StoreCache } from './storage.js';

export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const KIND_INFO: Record<UploadKind, { ext: string; contentType: string }> = {
  png: { ext: 'png', contentType: 'image/png' },
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
  gif: { ext: 'gif', contentType: 'image/gif' },
  webp: { ext: 'webp', contentType: 'image/webp' },
};

const startsWith = (b: Buffer, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The picture type of these bytes by their signature, or null (a script, a document, SVG, anything else). */
export function sniffImage(b: Buffer): UploadKind | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a'))) return 'gif';
  if (startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8)) return 'webp';
  return null;
}

export type ImageConfigRow = typeof imageConfig.$inferSelect;

export const DEFAULT_MAX_SIZE = 5 * 1024 * 1024;

export async function loadImageConfig(ex: Executor): Promise<ImageConfigRow> {
  const [row] = await ex.select().from(imageConfig).where(eq(imageConfig.id, 1)).limit(1);
  return row ?? {
    id: 1, uploadType: 'local', domain: '', region: '', accessKeyId: '', accessKeySecret: '', bucket: '', savePath: '',
    maxSize: DEFAULT_MAX_SIZE, allowedTypes: UPLOAD_KINDS.join(','), updatedAt: new Date(0),
  };
}

export function storageSettings(c: ImageConfigRow): StorageSettings {
  return {
    uploadType: (c.uploadType === 's3' ? 's3' : 'local') as UploadType,
    domain: c.domain, region: c.region, accessKeyId: c.accessKeyId, accessKeySecret: openSecret(c.accessKeySecret),
    bucket: c.bucket, savePath: normaliseSavePath(c.savePath) ?? '',
  };
}

/** The types the config allows (its comma-separated list, only known kinds). */
export const allowedKinds = (c: ImageConfigRow): Set<UploadKind> =>
  new Set(c.allowedTypes.split(',').map((s) => s.trim()).filter((s): s is UploadKind => (UPLOAD_KINDS as readonly string[]).includes(s)));

export interface StoredUpload {
  url: string;
  name: string;
  size: number;
  content_type: string;
}

/**
 * Keeps a picture already read and checked (size, type): writes it to the configured store unless a
 * picture of the same content is known, and records where it is. Answers its address.
 */
export async function storeUpload(db: Db, stores: StoreCache, config: ImageConfigRow, bytes: Buffer, kind: UploadKind, adminId: number | null): Promise<StoredUpload> {
  const { ext, contentType } = KIND_INFO[kind];
  const name = `${crypto.createHash('sha256').update(bytes).digest('hex')}.${ext}`;
  const answer = { url: `/uploads/${name}`, name, size: bytes.length, content_type: contentType };
  const [known] = await db.select({ name: uploads.name }).from(uploads).where(eq(uploads.name, name)).limit(1);
  if (known) return answer;
  const settings = storageSettings(config);
  const store = stores.of(settings);
  const objectKey = `${settings.savePath}${name}`;
  await store.put(objectKey, bytes, contentType);
  await db
    .insert(uploads)
    .values({ name, contentType, size: bytes.length, storage: store.kind, bucket: store.bucket, objectKey, uploadedBy: adminId })
    .onConflictDoNothing();
  return answer;
}

/** An upload's bytes and type by its name, or null (unknown name, or its object is gone). */
export async function openUpload(db: Db, stores: StoreCache, name: string): Promise<{ contentType: string; size: number; body: Readable } | null> {
  const [row] = await db.select().from(uploads).where(eq(uploads.name, name)).limit(1);
  if (!row) return null;
  const settings = storageSettings(await loadImageConfig(db));
  const body = await stores.reader(settings, row.storage, row.bucket).get(row.objectKey);
  return body ? { contentType: row.contentType, size: row.size, body } : null;
}
