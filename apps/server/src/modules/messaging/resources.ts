/**
 * App versions (app_config) through the resource layer: the platform is fixed at creation, the version
 * must be dotted numbers and unique per platform, links are http(s), and `updated_by` is the editor.
 * A version reaches every branch's bettors: only an admin who sees the whole book creates, edits or
 * deletes one (the declaration's duty: 403 WHOLE_BOOK_ONLY); reading stays with the page's holders.
 */
import type { FastifyInstance } from 'fastify';
import { and, eq, ne } from 'drizzle-orm';
import { parseAppVersion } from '@dau/domain';
import { APP_PLATFORMS, appVersionResource } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource.js';
import { appVersions } from './schema.js';

const invalid = (field: string, message: string) => badRequest('PARAM_INVALID', [{ field, message }]);

function httpUrl(v: unknown): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(String(v)).protocol);
  } catch {
    return false;
  }
}

export function appVersionResources(app: FastifyInstance, ctx: AppContext) {
  registerResource(app, ctx.db, {
    def: appVersionResource,
    table: appVersions,
    prepare: async (v, { mode, req, ex, before }) => {
      const platform = String(v.platform ?? before?.platform ?? '');
      if (!(APP_PLATFORMS as readonly string[]).includes(platform)) throw invalid('platform', `one of ${APP_PLATFORMS.join(', ')}`);
      if (v.version !== undefined) {
        if (!parseAppVersion(v.version)) throw badRequest('APP_VERSION_INVALID', [{ field: 'version', message: 'dotted numbers, e.g. 1.4.2' }]);
        const [same] = await ex
          .select({ id: appVersions.id })
          .from(appVersions)
          .where(and(eq(appVersions.platform, platform), eq(appVersions.version, String(v.version).trim()), mode === 'edit' ? ne(appVersions.id, Number(before!.id)) : undefined));
        if (same) throw new AppError(409, 'APP_VERSION_EXISTS');
        v.version = String(v.version).trim();
      }
      for (const key of ['download_url', 'update_url'] as const) {
        if (v[key] !== undefined && v[key] !== '' && !httpUrl(v[key])) throw invalid(key, 'an http(s) URL');
      }
      v.updated_by = authOf(req).admin.account;
    },
  });
}
