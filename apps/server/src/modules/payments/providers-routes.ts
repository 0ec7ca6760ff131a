import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import {
  paymentProviderBody, paymentProviderParams, paymentProviderRow, paymentProvidersAnswer, paymentRoutingAnswer, paymentRoutingBody,
  type PaymentProviderRow,
} from '@dau/contract';
import { LOG_TYPE } from '@dau/domain';
import { paymentConfig, paymentProviders } from './schema.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { paymentsOf } from './callbacks.js';
import { PROVIDERS, PROVIDER_IDS, SANDBOX_ORIGIN, ensureProviderAccounts, providerOf } from './providers.js';
import type { ProviderId } from './provider.js';
import { paymentSettings } from './shared.js';

const tags = ['payment_providers'];
const page = 'payment_providers';

/**
 * The providers' accounts and the routing of pay types (issue 28). Whole book and two people: the base
 * URL and the credentials decide where money goes and who may ask for it. Credentials are write-only: the
 * answer names the stored ones, the audit row and the settings history mask them.
 */
export function providerRoutes(app: FastifyInstance, { db }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const rt = paymentsOf(db);

  const rowOf = async (ex: Executor, id: ProviderId): Promise<PaymentProviderRow> => {
    await ensureProviderAccounts(ex);
    const [row] = await ex.select().from(paymentProviders).where(eq(paymentProviders.provider, id));
    if (!row) throw notFound();
    const routing = await providerOf(ex);
    const p = PROVIDERS[id];
    return {
      provider: id,
      name: p.name,
      pay_types: [...p.payTypes],
      carries: p.payTypes.filter((t) => routing[t] === id),
      base_url: row.baseUrl,
      sandbox_url: `${rt.sandboxUrl ?? SANDBOX_ORIGIN}/${id}`,
      production_base_url: p.productionBaseUrl,
      settings: row.settings,
      secrets_set: Object.keys(row.secrets).filter((k) => row.secrets[k] !== '').sort(),
      callback_urls: p.sendsCallbacks ? Object.fromEntries(p.payTypes.map((t) => [String(t), `${rt.publicUrl}/api/v1/payments/callback/${t}`])) : {},
      updated_at: row.updatedAt.toISOString(),
    };
  };

  r.get('/api/v1/payments/providers', {
    config: { access: { page } },
    schema: { tags, summary: 'The mobile-money providers: where each API is, its settings, which credentials are stored, what it carries', response: { 200: paymentProvidersAnswer } },
  }, async () => ({ providers: await Promise.all(PROVIDER_IDS.map((id) => rowOf(db, id))) }));

  r.get('/api/v1/payments/providers/:provider', {
    config: { access: { page } },
    schema: { tags, summary: 'One provider\'s account (credentials named, never answered)', params: paymentProviderParams, response: { 200: paymentProviderRow } },
  }, async (req) => rowOf(db, req.params.provider));

  r.put('/api/v1/payments/providers/:provider', {
    config: { access: { page, button: 'edit', duty: { ring: 'two', fields: ['base_url', 'settings', 'secrets'], setting: 'payment_providers' } } },
    schema: {
      tags, summary: 'Point a provider at its production API or back at the sandbox, change its settings or credentials (a second admin approves)',
      params: paymentProviderParams, body: paymentProviderBody, response: { 200: paymentProviderRow },
    },
  }, async (req) => {
    const id = req.params.provider;
    const b = req.body;
    await db.transaction(async (tx) => {
      await ensureProviderAccounts(tx);
      const [before] = await tx.select().from(paymentProviders).where(eq(paymentProviders.provider, id)).for('update');
      if (!before) throw notFound();
      const keep = (v: Record<string, string>) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== ''));
      const [after] = await tx
        .update(paymentProviders)
        .set({
          ...(b.base_url !== undefined ? { baseUrl: b.base_url || null } : {}),
          ...(b.settings ? { settings: { ...before.settings, ...b.settings } } : {}),
          ...(b.secrets ? { secrets: { ...before.secrets, ...keep(b.secrets) } } : {}),
          updatedAt: new Date(),
        })
        .where(eq(paymentProviders.provider, id))
        .returning();
      // The credentials' values never reach the audit row: only which were replaced.
      const visible = (row: typeof before) => ({ base_url: row.baseUrl, settings: row.settings, secrets_set: Object.keys(row.secrets).sort() });
      const replaced = Object.keys(keep(b.secrets ?? {}));
      await writeAudit(tx, req, {
        type: LOG_TYPE.ordinary,
        content: `Edited the ${PROVIDERS[id].name} account${replaced.length ? ` (credentials replaced: ${replaced.join(', ')})` : ''}`,
        before: visible(before), after: visible(after!),
      });
    });
    rt.reload();
    return rowOf(db, id);
  });

  r.get('/api/v1/payments/routing', {
    config: { access: { page } },
    schema: { tags, summary: 'Which provider carries each pay type', response: { 200: paymentRoutingAnswer } },
  }, async () => ({ provider_of: Object.fromEntries(Object.entries(await providerOf(db)).map(([k, v]) => [k, v])) }));

  r.put('/api/v1/payments/routing', {
    config: { access: { page, button: 'edit', duty: { ring: 'two', fields: ['provider_of'], setting: 'payment_routing' } } },
    schema: { tags, summary: 'Send a pay type to its operator directly or through the aggregator (a second admin approves)', body: paymentRoutingBody, response: { 200: paymentRoutingAnswer } },
  }, async (req) => {
    for (const [payType, id] of Object.entries(req.body.provider_of)) {
      if (!PROVIDERS[id].payTypes.includes(Number(payType) as never)) {
        throw new AppError(422, 'PROVIDER_CANNOT_CARRY', { provider: PROVIDERS[id].name, pay_type: payType }, { field: 'provider_of' });
      }
    }
    await db.transaction(async (tx) => {
      const before = await paymentSettings(tx);
      const next = { ...before.providerOf, ...req.body.provider_of };
      await tx.update(paymentConfig).set({ providerOf: next, updatedAt: new Date() }).where(eq(paymentConfig.id, 1));
      await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: 'Changed which provider carries each pay type', before: before.providerOf, after: next });
    });
    rt.reload();
    return { provider_of: await providerOf(db) };
  });
}
