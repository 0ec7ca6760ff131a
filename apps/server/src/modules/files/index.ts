/**
 * Files (issue 16): the image storage config (image_config), POST /api/v1/file/add (spec §7 `api/file/add`)
 * and /uploads/<name>, which serves the pictures to the console and the bettor site.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { imageConfigResource, UPLOAD_KINDS } from '@dau/contract';
import { LOG_TYPE } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { authOf } from '../../platform/access.js';
import { registerResource } from '../../platform/resource.js';
import { writeAudit } from '../../platform/audit.js';
import { assertPublicEndpoint } from '../../platform/endpoints.js';
import { openSecret, sealSecret } from '../casino/index.js';
import { imageConfig } from './schema.js';
import { allowedKinds, loadImageConfig, openUpload, sniffImage, storeUpload } from './service.js';
import { normaliseSavePath, S3Store, StoreCache } from './storage.js';

/** The settings whose change is tried against the storage before it is kept. */
const S3_KEYS = ['upload_type', 'domain', 'region', 'access_key_id', 'access_key_secret', 'bucket'];

export { sniffImage, storeUpload, openUpload, loadImageConfig, KIND_INFO } from './service.js';
export { LocalStore, S3Store, StoreCache, normaliseSavePath } from './storage.js';

/** The answer of POST /api/v1/file/add. */
const uploadAnswer = z.object({
  url: z.string().describe('Where the picture is served: /uploads/<sha256>.<ext>'),
  name: z.string(),
  size: z.number(),
  content_type: z.string(),
});

/** A stored picture's name: the sha256 of its content and its type's extension. */
const UPLOAD_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

const invalid = (field: string, message: string) => badRequest('PARAM_INVALID', [{ field, message }]);

/** The most bytes a multipart request may carry beyond the file (field names, boundaries). */
const ENVELOPE = 64 * 1024;
/** The largest upload any config may allow (the declaration's max). */
const HARD_MAX = imageConfigResource.fields.find((f) => f.key === 'max_size')!.max!;

export async function seedFiles(ex: Executor): Promise<void> {
  await ex.insert(imageConfig).values({ id: 1 }).onConflictDoNothing();
}

export async function filesRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const stores = new StoreCache(path.join(ctx.dataDir, 'uploads'));
  app.addHook('onClose', async () => stores.close());

  registerResource(app, db, {
    def: imageConfigResource,
    table: imageConfig,
    prepare: async (v, { before, req }) => {
      if (v.upload_type !== undefined && v.upload_type !== 'local' && v.upload_type !== 's3') throw invalid('upload_type', "'local' or 's3'");
      if (v.domain !== undefined && v.domain !== '') {
        let url: URL | null = null;
        try {
          url = new URL(String(v.domain));
        } catch {
          url = null;
        }
        if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password) throw invalid('domain', 'an http(s) address of the storage endpoint');
        v.domain = url.origin + url.pathname.replace(/\/+$/, '');
        await assertPublicEndpoint(String(v.domain), 'domain');
      }
      if (v.bucket !== undefined && v.bucket !== '' && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(String(v.bucket))) throw invalid('bucket', 'a bucket name (3-63 of a-z, 0-9, . and -)');
      if (v.save_path !== undefined) {
        const p = normaliseSavePath(String(v.save_path));
        if (p === null) throw invalid('save_path', 'folders of letters, digits, _, - and .');
        v.save_path = p;
      }
      if (v.allowed_types !== undefined) {
        const list = String(v.allowed_types).split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
        const bad = list.find((s) => !(UPLOAD_KINDS as readonly string[]).includes(s));
        if (bad || !list.length) throw invalid('allowed_types', `some of ${UPLOAD_KINDS.join(', ')}`);
        v.allowed_types = [...new Set(list)].join(',');
      }
      // S3 needs its endpoint, bucket and keys (the secret may be the one stored).
      const after = (k: string) => (v[k] !== undefined ? String(v[k]) : String(before?.[k.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())] ?? ''));
      if (after('upload_type') === 's3') {
        for (const k of ['domain', 'bucket', 'access_key_id', 'access_key_secret']) if (!after(k)) throw invalid(k, 'needed for S3 storage');
        // New S3 settings are tried before they are kept: a bucket the keys cannot reach is refused now, not at the next upload.
        if (S3_KEYS.some((k) => v[k] !== undefined)) {
          const secret = typeof v.access_key_secret === 'string' && v.access_key_secret !== '' ? v.access_key_secret : openSecret(after('access_key_secret'));
          const store = new S3Store({
            uploadType: 's3', domain: after('domain'), region: after('region'), accessKeyId: after('access_key_id'), accessKeySecret: secret,
            bucket: after('bucket'), savePath: '',
          });
          try {
            await store.check();
          } catch (e) {
            req.log.warn({ err: e }, 'image_config: the S3 storage refused the new settings');
            throw new AppError(422, 'IMAGE_STORAGE_UNREACHABLE');
          } finally {
            store.destroy();
          }
        }
      }
      if (typeof v.access_key_secret === 'string' && v.access_key_secret !== '') v.access_key_secret = sealSecret(v.access_key_secret);
    },
  });

  await app.register(async (scoped) => {
    await scoped.register(fastifyMultipart, { limits: { files: 1, fields: 4, fileSize: HARD_MAX, parts: 6, fieldSize: 1024 } });
    // The multipart body is read by the handler (req.file()), bounded by the config's size: not by the JSON body limit.
    scoped.addHook('onRoute', (route) => {
      route.bodyLimit = HARD_MAX + ENVELOPE;
    });
    const r = scoped.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/api/v1/file/add',
      {
        // Any signed-in admin: every screen with a picture field (site icon, banners, articles, shop, casino) uploads through it.
        config: { access: { signedIn: true } },
        schema: {
          tags: ['files'],
          summary: 'Upload a picture (multipart field "file"): PNG, JPEG, GIF or WebP by content, within the configured size',
          consumes: ['multipart/form-data'],
          response: { 200: uploadAnswer },
        },
      },
      async (req) => {
        if (!req.isMultipart()) throw invalid('file', 'send the picture as multipart/form-data, field "file"');
        const config = await loadImageConfig(db);
        const limit = Math.min(config.maxSize, HARD_MAX);
        const part = await req.file({ limits: { fileSize: limit, files: 1 } });
        if (!part) throw invalid('file', 'no file');
        let bytes: Buffer;
        try {
          bytes = await part.toBuffer();
        } catch (e) {
          if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'UPLOAD_LIMIT', {}, { max_size: limit });
          throw e;
        }
        if (part.file.truncated || bytes.length > limit) throw new AppError(413, 'UPLOAD_LIMIT', {}, { max_size: limit });
        if (!bytes.length) throw invalid('file', 'empty file');
        const kind = sniffImage(bytes);
        if (!kind || !allowedKinds(config).has(kind)) throw new AppError(422, 'PARAM_INVALID', {}, [{ field: 'file', message: `not a picture of an allowed type (${[...allowedKinds(config)].join(', ')})` }]);
        let stored;
        try {
          stored = await storeUpload(db, stores, config, bytes, kind, authOf(req).admin.id);
        } catch (e) {
          // The store refused or did not answer (wrong keys, no bucket, disk full): logged; the caller sees a plain refusal.
          if (e instanceof AppError) throw e;
          req.log.error({ err: e }, 'upload: the store refused the picture');
          throw new AppError(502, 'RESOURCE_ERROR');
        }
        await writeAudit(db, req, { type: LOG_TYPE.ordinary, content: `Uploaded ${stored.name} (${stored.size} bytes, ${kind})` });
        return stored;
      },
    );
  });

  // The pictures, for anyone (the bettor site shows banners): immutable names, the sniffed type, no sniffing,
  // no script (a picture opened on its own cannot run anything), usable by pages of other origins.
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/uploads/:name',
    {
      config: { access: { public: true } },
      schema: { tags: ['files'], summary: 'An uploaded picture', params: z.object({ name: z.string().max(80) }), produces: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
        response: { 200: z.string().describe('The picture, as stored (binary)') },
      },
    },
    async (req, reply) => {
      const { name } = req.params;
      if (!UPLOAD_NAME.test(name)) throw notFound();
      const file = await openUpload(db, stores, name);
      if (!file) throw notFound();
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(file.body as never);
    },
  );
}
