import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
// s3rver: a real S3-compatible server (its own HTTP listener, signature V4 checks, a folder as store).
import S3rver from 's3rver';
import { eq } from 'drizzle-orm';
import { approved, ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.js';
import { imageConfig, uploads } from '../src/schema.js';
import { sniffImage } from '../src/modules/files/index.js';

/**
 * Uploads (issue 16): POST /api/v1/file/add keeps pictures only (type read from the content), within the
 * configured size (the spec's "File upload limit exceeded"), named by the sha256 of their content; both
 * storages (the data folder, and S3 through @aws-sdk/client-s3 against s3rver); /uploads/<name> serves
 * them with a long cache, their sniffed type, nosniff and a CSP that runs nothing.
 */

/** A small valid PNG (1x1), plus `extra` bytes after its end (another picture, same type). */
function png(extra = 0, seed = 0): Buffer {
  const base = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
    'hex',
  );
  return Buffer.concat([base, Buffer.alloc(extra, seed)]);
}
const gif = () => Buffer.concat([Buffer.from('GIF89a', 'ascii'), Buffer.from('0100010080000000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex')]);
const webp = () => Buffer.concat([Buffer.from('RIFF', 'ascii'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L', 'ascii'), Buffer.alloc(14, 1)]);

/** A multipart/form-data body with one file part. */
function multipart(filename: string, contentType: string, bytes: Buffer, field = 'file') {
  const boundary = `----dau${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let t: TestApp;
let token: string;

async function upload(filename: string, contentType: string, bytes: Buffer, opts: { token?: string | null; locale?: string } = {}) {
  const body = multipart(filename, contentType, bytes);
  const headers: Record<string, string> = { ...body.headers };
  const tk = opts.token === undefined ? token : opts.token;
  if (tk) headers.authorization = `Bearer ${tk}`;
  if (opts.locale) headers['x-locale'] = opts.locale;
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/file/add', headers, payload: body.payload });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, any> };
}

const fetchUpload = (url: string) => t.app.inject({ method: 'GET', url });
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

describe('type by content', () => {
  it('recognises PNG, JPEG, GIF and WebP by their first bytes, and nothing else', () => {
    expect(sniffImage(png())).toBe('png');
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('jpeg');
    expect(sniffImage(gif())).toBe('gif');
    expect(sniffImage(webp())).toBe('webp');
    expect(sniffImage(Buffer.from('<?php system($_GET["c"]); ?>'))).toBeNull();
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeNull();
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
  });
});

describe('POST /api/v1/file/add on the data folder', () => {
  it('keeps a picture under the sha256 of its content and serves it with safe headers', async () => {
    const bytes = png(10, 1);
    const r = await upload('banner.png', 'image/png', bytes);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ url: `/uploads/${sha(bytes)}.png`, name: `${sha(bytes)}.png`, size: bytes.length, content_type: 'image/png' });

    const res = await fetchUpload(r.body.url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe('inline');
    expect(String(res.headers['content-security-policy'])).toMatch(/^default-src 'none'/);

    // On disk under the data folder's uploads.
    expect(fs.existsSync(path.join(t.ctx.dataDir, 'uploads', r.body.name))).toBe(true);
  });

  it('gives the same content the same address, whatever its name, and stores it once', async () => {
    const bytes = gif();
    const a = await upload('a.gif', 'image/gif', bytes);
    const b = await upload('other-name.gif', 'application/octet-stream', bytes);
    expect(a.status).toBe(200);
    expect(b.body.url).toBe(a.body.url);
    expect(a.body.url).toMatch(/\.gif$/);
    const rows = await t.database.db.select().from(uploads).where(eq(uploads.name, a.body.name));
    expect(rows).toHaveLength(1);
  });

  it('takes the type from the content, not from the name or the declared type', async () => {
    const r = await upload('photo.jpg', 'image/jpeg', webp());
    expect(r.status).toBe(200);
    expect(r.body.content_type).toBe('image/webp');
    expect(r.body.url).toMatch(/\.webp$/);
    expect((await fetchUpload(r.body.url)).headers['content-type']).toBe('image/webp');
  });

  it('refuses a PHP file named .png, an SVG and a text file', async () => {
    const php = await upload('shell.png', 'image/png', Buffer.from('<?php echo shell_exec($_GET["c"]); ?>'));
    expect(php.status).toBe(422);
    expect(php.body.code).toBe('PARAM_INVALID');
    const svg = await upload('logo.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'));
    expect(svg.status).toBe(422);
    const txt = await upload('note.gif', 'image/gif', Buffer.from('hello'));
    expect(txt.status).toBe(422);
    const count = await t.database.db.select().from(uploads);
    expect(count.every((u) => ['image/png', 'image/gif', 'image/webp', 'image/jpeg'].includes(u.contentType))).toBe(true);
  });

  it('refuses a picture over the configured size with the spec message, in the caller language', async () => {
    const put = await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { max_size: 2048 } });
    expect(put.status).toBe(200);
    expect(put.body.max_size).toBe(2048);
    const big = png(3000, 7);
    const r = await upload('big.png', 'image/png', big);
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 'UPLOAD_LIMIT', message: 'File upload limit exceeded' });
    const sw = await upload('big.png', 'image/png', big, { locale: 'sw-KE' });
    expect(sw.body.message).toBe('Kikomo cha kupakia faili kimepitwa');
    const zh = await upload('big.png', 'image/png', big, { locale: 'zh-CN' });
    expect(zh.body.message).toBe('超出文件上传限制');
    // Nothing of it was kept.
    expect(await t.database.db.select().from(uploads).where(eq(uploads.name, `${sha(big)}.png`))).toHaveLength(0);
    // Just under the limit goes through.
    expect((await upload('ok.png', 'image/png', png(1900, 8))).status).toBe(200);
    await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { max_size: 5 * 1024 * 1024 } });
  });

  it('keeps to the allowed types of the config', async () => {
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { allowed_types: 'png, jpeg' } })).body.allowed_types).toBe('png,jpeg');
    expect((await upload('a.gif', 'image/gif', Buffer.concat([gif(), Buffer.from([1])]))).status).toBe(422);
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { allowed_types: 'png,svg' } })).status).toBe(400);
    await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { allowed_types: 'png,jpeg,gif,webp' } });
  });

  it('needs a signed-in admin and a multipart body', async () => {
    expect((await upload('a.png', 'image/png', png(), { token: null })).status).toBe(401);
    const json = await t.call('POST', '/api/v1/file/add', { token, body: { file: 'iVBORw0KGgo=' } });
    expect(json.status).toBe(400);
    const empty = await upload('empty.png', 'image/png', Buffer.alloc(0));
    expect(empty.status).toBe(400);
  });

  it('answers 404 for names that are not uploads', async () => {
    expect((await fetchUpload(`/uploads/${'a'.repeat(64)}.png`)).statusCode).toBe(404);
    expect((await fetchUpload('/uploads/..%2f..%2fetc%2fpasswd')).statusCode).toBe(404);
    expect((await fetchUpload('/uploads/index.html')).statusCode).toBe(404);
  });
});

describe('picture fields take uploads or https addresses', () => {
  it('refuses javascript:, data: and http: addresses and keeps uploads', async () => {
    const up = await upload('icon.png', 'image/png', png(5, 3));
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'http://example.com/a.png', '/uploads/../secret.png', 'https://exa mple.com/a.png']) {
      const r = await t.call('PUT', '/api/v1/system/configuration', { token, body: { icon: bad } });
      expect(r.status, bad).toBe(400);
    }
    const ok = await t.call('PUT', '/api/v1/system/configuration', { token, body: { icon: up.body.url, logo: 'https://cdn.example.com/logo.png' } });
    expect(ok.status).toBe(200);
    expect(ok.body.icon).toBe(up.body.url);
    // Clearing is allowed.
    expect((await t.call('PUT', '/api/v1/system/configuration', { token, body: { logo: '' } })).status).toBe(200);
  });

  it('keeps a stored value that predates the check (an edit that does not touch it saves)', async () => {
    const cat = await t.call('GET', '/api/v1/casino/categories?page=1&page_size=1', { token });
    const row = cat.body.items[0];
    const r = await t.call('PUT', `/api/v1/casino/categories/${row.id}`, { token, body: { icon: row.icon, sort: 5 } });
    expect(r.status).toBe(200);
  });
});

describe("'images' fields: an ordered list of uploads or https addresses", () => {
  it('keeps the order, answers an array, refuses bad items and too many, and keeps stored items on edit', async () => {
    const a = (await upload('a.png', 'image/png', png(11, 2))).body.url as string;
    const b = (await upload('b.png', 'image/png', png(12, 2))).body.url as string;
    const cat = await t.call('POST', '/api/v1/shop/categories', { token, body: { title: 'Pictures', show_status: 1, language: 'en-US' } });
    expect(cat.status).toBe(201);
    const base = { title: 'Pictured', category_id: cat.body.id, price: 1_000_00 };
    const p = await t.call('POST', '/api/v1/shop/products', { token, body: { ...base, cover_images: [b, a, 'https://cdn.example.com/c.webp'] } });
    expect(p.status).toBe(201);
    expect(p.body.cover_images).toEqual([b, a, 'https://cdn.example.com/c.webp']);
    for (const bad of ['javascript:alert(1)', 'http://example.com/a.png', '/uploads/x.png', '']) {
      const r = await t.call('POST', '/api/v1/shop/products', { token, body: { ...base, cover_images: [a, bad] } });
      expect(r.status, bad).toBe(400);
    }
    expect((await t.call('POST', '/api/v1/shop/products', { token, body: { ...base, cover_images: 'not-a-list' } })).status).toBe(400);
    expect((await t.call('POST', '/api/v1/shop/products', { token, body: { ...base, cover_images: Array(10).fill(a) } })).status).toBe(400);
    // Reordered and shortened on edit.
    const put = await t.call('PUT', `/api/v1/shop/products/${p.body.id}`, { token, body: { cover_images: [a, b] } });
    expect(put.status).toBe(200);
    expect(put.body.cover_images).toEqual([a, b]);
    expect((await t.call('GET', `/api/v1/shop/products/${p.body.id}`, { token })).body.cover_images).toEqual([a, b]);
  });
});

describe('S3 storage (s3rver, a real S3-compatible server)', () => {
  let s3: InstanceType<typeof S3rver>;
  let endpoint: string;
  let dir: string;
  const bucket = 'dau-pictures';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-s3rver-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
    // s3rver listens on loopback: this file's server allows private endpoints, as a MinIO next to it would need.
    process.env.DAU_ALLOW_PRIVATE_ENDPOINTS = '1';
  });
  afterAll(async () => {
    // Back to the data folder: the other cases of this file store there, in whatever order they run.
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { upload_type: 'local', save_path: '' } })).status).toBe(200);
    delete process.env.DAU_ALLOW_PRIVATE_ENDPOINTS;
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes to the bucket with the official client, serves from it, and keeps the secret write-only', async () => {
    const cfg = { upload_type: 's3', domain: endpoint, region: 'us-east-1', access_key_id: 'S3RVER', access_key_secret: 'S3RVER', bucket, save_path: 'console/pictures' };
    const put = await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: cfg });
    expect(put.status).toBe(200);
    expect(put.body).not.toHaveProperty('access_key_secret');
    expect(put.body.save_path).toBe('console/pictures/');
    expect((await t.call('GET', '/api/v1/system/image_config', { token })).body).not.toHaveProperty('access_key_secret');

    const bytes = png(40, 9);
    const r = await upload('s3.png', 'image/png', bytes);
    expect(r.status).toBe(200);
    // The object is in the bucket under the save path (read back with our own client).
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const obj = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `console/pictures/${r.body.name}` }));
    expect(Buffer.from(await obj.Body!.transformToByteArray()).equals(bytes)).toBe(true);
    expect(obj.ContentType).toBe('image/png');
    client.destroy();
    // Not on the local disk.
    expect(fs.existsSync(path.join(t.ctx.dataDir, 'uploads', 'console', 'pictures', r.body.name))).toBe(false);

    const res = await fetchUpload(r.body.url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');

    // Back to the data folder: the picture kept in S3 is still served from there; a new one goes to disk.
    await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { upload_type: 'local' } });
    expect((await fetchUpload(r.body.url)).rawPayload.equals(bytes)).toBe(true);
    const local = await upload('local.png', 'image/png', png(41, 9));
    expect(fs.existsSync(path.join(t.ctx.dataDir, 'uploads', 'console', 'pictures', local.body.name))).toBe(true);
  });

  it('fails cleanly (no object, no row) when S3 refuses the keys', async () => {
    // s3rver checks the access key id (it does not recompute V4 signatures): an unknown one is refused with 403.
    // Settings the storage refuses are not kept (422, in the caller's language)...
    const refused = await approved(t, 'PUT', '/api/v1/system/image_config', { token, headers: { 'x-locale': 'sw-KE' }, body: { upload_type: 's3', access_key_id: 'NOBODY', access_key_secret: 'wrong-secret' } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body).toMatchObject({ code: 'IMAGE_STORAGE_UNREACHABLE', message: 'Hifadhi haikukubali mipangilio hii (anwani, ndoo au funguo). Hakuna kilichobadilishwa.' });
    expect((await t.call('GET', '/api/v1/system/image_config', { token })).body).toMatchObject({ upload_type: 'local', access_key_id: 'S3RVER' });
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { upload_type: 's3', bucket: 'no-such-bucket' } })).status).toBe(422);
    // ...and keys revoked after they were kept fail the upload cleanly.
    await t.database.db.update(imageConfig).set({ uploadType: 's3', accessKeyId: 'NOBODY', accessKeySecret: 'wrong-secret' }).where(eq(imageConfig.id, 1));
    const bytes = png(60, 4);
    const r = await upload('refused.png', 'image/png', bytes);
    expect(r.status).toBe(502);
    expect(r.body.code).toBe('RESOURCE_ERROR');
    expect(JSON.stringify(r.body)).not.toMatch(/NOBODY|wrong-secret|127\.0\.0\.1/);
    expect(await t.database.db.select().from(uploads).where(eq(uploads.name, `${sha(bytes)}.png`))).toHaveLength(0);
    await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { upload_type: 'local' } });
    expect((await t.call('GET', '/api/v1/system/image_config', { token })).body.upload_type).toBe('local');
  });

  it('never serves an object it did not write: content that is not the named sha256 answers 404', async () => {
    const cfg = { upload_type: 's3', domain: endpoint, region: 'us-east-1', access_key_id: 'S3RVER', access_key_secret: 'S3RVER', bucket, save_path: 'console/pictures' };
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: cfg })).status).toBe(200);
    const bytes = png(44, 7);
    const r = await upload('kept.png', 'image/png', bytes);
    expect(r.status).toBe(200);
    expect((await fetchUpload(r.body.url)).statusCode).toBe(200);
    // Someone else writes other bytes under the same name in the bucket.
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `console/pictures/${r.body.name}`, Body: png(45, 8), ContentType: 'image/png' }));
    client.destroy();
    expect((await fetchUpload(r.body.url)).statusCode).toBe(404);
    await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { upload_type: 'local' } });
  });

  it('refuses an endpoint on an internal network unless private endpoints are allowed, at saving and at connecting', async () => {
    delete process.env.DAU_ALLOW_PRIVATE_ENDPOINTS;
    try {
      for (const domain of [endpoint, 'http://localhost:9000', 'http://10.1.2.3', 'http://169.254.169.254', 'http://[::1]:9000', 'http://[fd00::1]', 'http://192.168.1.10:9000', 'http://100.64.0.1']) {
        const r = await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { domain } });
        expect(r.status, domain).toBe(422);
        expect(r.body.code, domain).toBe('ENDPOINT_INTERNAL');
      }
      // A stored internal endpoint (kept before the rule, or a name that now resolves inside) is refused at connection: the upload fails, nothing is written.
      await t.database.db.update(imageConfig).set({ uploadType: 's3', domain: endpoint, bucket, accessKeyId: 'S3RVER', accessKeySecret: 'S3RVER' }).where(eq(imageConfig.id, 1));
      const bytes = png(46, 3);
      const r = await upload('inside.png', 'image/png', bytes);
      expect(r.status).toBe(502);
      expect(JSON.stringify(r.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|private/i);
      expect(await t.database.db.select().from(uploads).where(eq(uploads.name, `${sha(bytes)}.png`))).toHaveLength(0);
    } finally {
      process.env.DAU_ALLOW_PRIVATE_ENDPOINTS = '1';
      await t.database.db.update(imageConfig).set({ uploadType: 'local' }).where(eq(imageConfig.id, 1));
    }
  });

  it('refuses an S3 config without its endpoint, bucket or keys, and bad names', async () => {
    await t.database.db.update(imageConfig).set({ domain: '', bucket: '' }).where(eq(imageConfig.id, 1));
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { upload_type: 's3' } })).status).toBe(400);
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { bucket: 'Bad_Bucket' } })).status).toBe(400);
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { save_path: '../etc' } })).status).toBe(400);
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { domain: 'ftp://x' } })).status).toBe(400);
    expect((await approved(t, 'PUT', '/api/v1/system/image_config', { token, body: { upload_type: 'ftp' } })).status).toBe(400);
  });
});
