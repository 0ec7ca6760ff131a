/**
 * The casino's declared screens through the resource layer (issue 13): categories (casino_classification),
 * games (casino_list), providers and the casino settings (casino_config). The provider's HMAC secret is a
 * write-only field: never answered, exported or audited; stored sealed when DAU_CASINO_SECRET_KEY is set.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { parseIpOrCidr } from '@dau/domain';
import { CASINO_GAME_KINDS, casinoCategoryResource, casinoGameResource, casinoProviderResource, casinoSettingsResource } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource.js';
import { casinoCategories, casinoGames, casinoProviders, casinoSettings } from './schema.js';
import { sealSecret, walletCache } from './service.js';

const invalid = (field: string, message: string) => badRequest('PARAM_INVALID', [{ field, message }]);

export function casinoResources(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const afterWrite = () => walletCache.invalidate();

  registerResource(app, db, {
    def: casinoCategoryResource,
    table: casinoCategories,
    afterWrite,
    // A deleted category leaves its games without one (they stay playable).
    beforeDelete: async (row, ex) => {
      await ex.update(casinoGames).set({ categoryId: null, updatedAt: new Date() }).where(eq(casinoGames.categoryId, Number(row.id)));
    },
  });

  registerResource(app, db, {
    def: casinoGameResource,
    table: casinoGames,
    afterWrite,
    prepare: async (v, { mode, ex, before }) => {
      if (v.kind !== undefined && !(CASINO_GAME_KINDS as readonly string[]).includes(String(v.kind))) throw invalid('kind', `one of ${CASINO_GAME_KINDS.join(', ')}`);
      if (v.volatility !== undefined && ![1, 2, 3].includes(Number(v.volatility))) throw invalid('volatility', '1, 2 or 3');
      if (mode === 'create') {
        const [p] = await ex.select({ id: casinoProviders.id }).from(casinoProviders).where(eq(casinoProviders.id, Number(v.provider_id)));
        if (!p) throw invalid('provider_id', 'no such provider');
        const [same] = await ex
          .select({ id: casinoGames.id })
          .from(casinoGames)
          .where(and(eq(casinoGames.providerId, Number(v.provider_id)), eq(casinoGames.gameCode, String(v.game_code))));
        if (same) throw invalid('game_code', 'this provider already has a game with this code');
      }
      if (v.category_id !== undefined && v.category_id !== null) {
        const [c] = await ex.select({ id: casinoCategories.id }).from(casinoCategories).where(eq(casinoCategories.id, Number(v.category_id)));
        if (!c) throw invalid('category_id', 'no such category');
      }
      const min = Number(v.min_bet ?? before?.min_bet ?? 0);
      const max = Number(v.max_bet ?? before?.max_bet ?? 0);
      if (max > 0 && min > max) throw invalid('min_bet', 'the minimum bet is above the maximum bet');
    },
  });

  registerResource(app, db, {
    def: casinoProviderResource,
    table: casinoProviders,
    afterWrite,
    prepare: async (v, { before, mode, ex }) => {
      if (mode === 'create') {
        // The code is the wallet calls' path segment (POST /wallet/v1/<code>/...), fixed once created.
        if (!/^[A-Za-z0-9_.-]{1,64}$/.test(String(v.code ?? ''))) throw invalid('code', 'letters, digits, _ . - (at most 64)');
        const [same] = await ex.select({ id: casinoProviders.id }).from(casinoProviders).where(eq(casinoProviders.code, String(v.code)));
        if (same) throw invalid('code', 'another provider has this code');
        if (String(v.auth_kind ?? 'hmac') === 'hmac' && (typeof v.secret !== 'string' || v.secret === '')) throw invalid('secret', 'an HMAC provider needs its shared secret');
      }
      const kind = String(v.auth_kind ?? before?.auth_kind ?? 'hmac');
      if (!['rsa', 'hmac'].includes(kind)) throw invalid('auth_kind', "'rsa' or 'hmac'");
      const publicKey = String(v.public_key ?? before?.public_key ?? '');
      if (v.public_key !== undefined && publicKey !== '') {
        try {
          const key = crypto.createPublicKey(publicKey);
          if (key.asymmetricKeyType !== 'rsa') throw new Error('not rsa');
        } catch {
          throw invalid('public_key', 'an RSA public key in PEM');
        }
      }
      if (kind === 'rsa' && publicKey === '') throw invalid('public_key', 'an RSA provider needs its public key');
      if (v.allowed_ips !== undefined) {
        const list = String(v.allowed_ips ?? '').split(/[\s,]+/).filter(Boolean);
        for (const ip of list) if (!parseIpOrCidr(ip).ok) throw invalid('allowed_ips', `not an IP or CIDR: ${ip.slice(0, 64)}`);
        v.allowed_ips = list as never;
      }
      if (v.launch_url !== undefined && v.launch_url !== '') {
        let ok = false;
        try {
          ok = ['http:', 'https:'].includes(new URL(String(v.launch_url)).protocol);
        } catch {
          ok = false;
        }
        if (!ok) throw invalid('launch_url', 'an http(s) URL');
      }
      if (v.currency !== undefined && v.currency !== 'TZS') throw invalid('currency', "'TZS'");
      if (typeof v.secret === 'string' && v.secret !== '') {
        if (v.secret.length < 16) throw invalid('secret', 'at least 16 characters');
        v.secret = sealSecret(v.secret);
      }
    },
  });

  registerResource(app, db, { def: casinoSettingsResource, table: casinoSettings, singletonId: 1, afterWrite });
}
