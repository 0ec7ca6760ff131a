import type { FastifyInstance } from 'fastify';
import { eq, inArray, sql } from 'drizzle-orm';
import {
  configurationResource, ipBlackResource, languageResource, logConfigResource, logResource, logTypeResource,
  subscriberConfigResource,
} from '@dau/contract';
import { LOG_TYPE, ipMatches, parseIpOrCidr } from '@dau/domain';
import { languages, logConfig, siteConfig, subscriberConfig } from './schema.js';
import { admins, ipBlacklist, logTypes, systemLogs } from '../../platform/schema.js';
import { subtreeCondition } from '../../platform/ownership.js';
import { registerResource } from '../../platform/resource.js';
import { PROTECTED_LOG_TYPES } from '../../platform/audit.js';
import { authOf } from '../../platform/access.js';
import { AppError, badRequest } from '../../platform/errors.js';
import type { AppContext } from '../../platform/context.js';

/** The system screens that are one declaration each (docs/architecture.md: one declaration per simple screen). */
export function systemResources(app: FastifyInstance, ctx: AppContext) {
  const { db, ipBlock } = ctx;

  registerResource(app, db, {
    def: ipBlackResource,
    table: ipBlacklist,
    auditType: LOG_TYPE.ip_blacklist,
    prepare: async (v, { req, ex, before }) => {
      if (v.ip === undefined) return;
      const parsed = parseIpOrCidr(v.ip);
      if (!parsed.ok) throw badRequest('PARAM_INVALID', [{ field: 'ip' }]);
      v.ip = parsed.value.text;
      // An operator cannot lock themselves out by accident.
      if (ipMatches(req.ip, parsed.value)) throw new AppError(422, 'IP_SELF_BLOCK');
      const [dup] = await ex.select({ id: ipBlacklist.id }).from(ipBlacklist).where(eq(ipBlacklist.ip, v.ip as string));
      if (dup && dup.id !== before?.id) throw new AppError(409, 'CONFLICT');
    },
    afterWrite: () => ipBlock.invalidate(),
  });

  registerResource(app, db, {
    def: languageResource,
    table: languages,
    prepare: async (v, { mode, ex, before }) => {
      if (v.code !== undefined) {
        const code = String(v.code);
        if (!/^[a-z]{2,3}(-[A-Z]{2})?$/.test(code)) throw badRequest('PARAM_INVALID', [{ field: 'code' }]);
      }
      if (v.default_language === 2) {
        // One default language: setting it here clears the others (in the same request).
        await ex.update(languages).set({ defaultLanguage: 1 }).where(mode === 'edit' && before ? sql`${languages.id} <> ${before.id as number}` : sql`true`);
      }
    },
    beforeDelete: (row) => {
      if (row.defaultLanguage === 2) throw new AppError(409, 'CONFLICT');
    },
  });

  registerResource(app, db, {
    def: logTypeResource,
    table: logTypes,
    prepare: (v, { before }) => {
      if (v.enabled === false && PROTECTED_LOG_TYPES.has(Number(before?.id))) throw new AppError(422, 'LOG_TYPE_PROTECTED');
    },
    afterWrite: () => ctx.logTypeSwitch.invalidate(),
  });

  registerResource(app, db, {
    def: logConfigResource,
    table: logConfig,
    // Applied at once, in every process (./log-levels.ts).
    afterWrite: () => ctx.logs?.reload(),
    prepare: (v) => {
      if (v.options !== undefined) {
        try {
          const parsed: unknown = JSON.parse(String(v.options));
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
          v.options = JSON.stringify(parsed, null, 2);
        } catch {
          throw badRequest('CONVERSION_FAILED', [{ field: 'options' }]);
        }
      }
    },
  });

  registerResource(app, db, {
    def: configurationResource,
    table: siteConfig,
    prepare: (v) => {
      if (v.color !== undefined && !/^#[0-9a-fA-F]{6}$/.test(String(v.color))) throw badRequest('PARAM_INVALID', [{ field: 'color' }]);
    },
  });

  registerResource(app, db, {
    def: subscriberConfigResource,
    table: subscriberConfig,
    prepare: (v) => {
      if (v.share_ratio !== undefined && (typeof v.share_ratio !== 'number' || v.share_ratio < 0)) {
        throw badRequest('SHARE_RATIO_INVALID', [{ field: 'share_ratio' }]);
      }
    },
  });

  registerResource(app, db, {
    def: logResource,
    table: systemLogs,
    // A sub-admin reads the trail of their own branch; the super admin reads everything.
    scope: (req) => {
      const auth = authOf(req);
      if (auth.isSuper) return undefined;
      return inArray(systemLogs.adminId, db.select({ id: admins.id }).from(admins).where(subtreeCondition(auth)));
    },
  });
}
