import { eq } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db.js';
import { paymentConfig, paymentProviders, sandboxProviderAccounts } from './schema.js';
import type { PayType, ProviderAccount } from './operators.js';
import type { MobileMoneyProvider, ProviderId } from './provider.js';
import { mpesa } from './mpesa/index.js';
import { airtel } from './airtel/index.js';
import { aggregator } from './aggregator/index.js';

/**
 * The mobile-money providers (issue 28) and our accounts with them. A fresh install holds an account with
 * each provider's built-in sandbox: the sandbox's side (its private keys, the keys it issued) in
 * sandbox_provider_accounts, ours (the public keys, API keys, client ids and secrets it handed out) in
 * payment_providers with no base URL. Going live is that row: the provider's base URL and our real
 * credentials, entered in the console by one admin and approved by a second.
 */
export const PROVIDERS: Record<ProviderId, MobileMoneyProvider> = { mpesa, airtel, aggregator };
export const PROVIDER_IDS = Object.keys(PROVIDERS) as ProviderId[];
export const isProviderId = (v: unknown): v is ProviderId => typeof v === 'string' && Object.hasOwn(PROVIDERS, v);

/**
 * The origin under which the clients reach the built-in sandbox in-process (the runtime's fetch routes it
 * into the sandbox server without a socket); a listening sandbox server answers the same paths on its port.
 */
export const SANDBOX_ORIGIN = 'http://payments-sandbox.invalid';

/** Creates the accounts with the built-in sandboxes that do not exist yet (seed, and lazily on first use). */
export async function ensureProviderAccounts(ex: Executor): Promise<void> {
  const have = new Set((await ex.select({ p: paymentProviders.provider }).from(paymentProviders)).map((r) => r.p));
  for (const id of PROVIDER_IDS) {
    if (have.has(id)) continue;
    const made = PROVIDERS[id].sandbox.newCredentials();
    // The sandbox's side first: a concurrent first start keeps whichever pair landed first, on both sides.
    await ex.insert(sandboxProviderAccounts).values({ provider: id, credentials: made.sandbox }).onConflictDoNothing();
    const [sb] = await ex.select().from(sandboxProviderAccounts).where(eq(sandboxProviderAccounts.provider, id));
    const account = sb && sameIssue(sb.credentials, made.sandbox) ? made.account : null;
    if (!account) continue; // another process made the pair: it writes our side too
    await ex.insert(paymentProviders).values({ provider: id, baseUrl: null, settings: account.settings, secrets: account.secrets }).onConflictDoNothing();
  }
}

const sameIssue = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.keys(b).every((k) => a[k] === b[k]);

/** Our account with a provider; `sandboxBase` is where its built-in sandbox answers when no base URL is set. */
export async function providerAccount(db: Db, id: ProviderId, sandboxBase: string): Promise<ProviderAccount> {
  let [row] = await db.select().from(paymentProviders).where(eq(paymentProviders.provider, id));
  if (!row) {
    await ensureProviderAccounts(db);
    [row] = await db.select().from(paymentProviders).where(eq(paymentProviders.provider, id));
  }
  if (!row) throw new Error(`payments: no account with provider ${id}`);
  return { provider: id, baseUrl: (row.baseUrl ?? `${sandboxBase}/${id}`).replace(/\/+$/, ''), settings: row.settings, secrets: row.secrets };
}

/** The sandbox's own side of an account (the sandbox server's faces read it). */
export async function sandboxCredentials(db: Db, id: ProviderId): Promise<Record<string, string>> {
  let [row] = await db.select().from(sandboxProviderAccounts).where(eq(sandboxProviderAccounts.provider, id));
  if (!row) {
    await ensureProviderAccounts(db);
    [row] = await db.select().from(sandboxProviderAccounts).where(eq(sandboxProviderAccounts.provider, id));
  }
  if (!row) throw new Error(`payments: no sandbox account for provider ${id}`);
  return row.credentials;
}

/** Which provider carries each pay type (payment_config.provider_of), checked against what each can carry. */
export async function providerOf(ex: Executor): Promise<Record<PayType, ProviderId>> {
  const [c] = await ex.select({ p: paymentConfig.providerOf }).from(paymentConfig).where(eq(paymentConfig.id, 1));
  const given = c?.p ?? {};
  const out = { 3: 'aggregator', 4: 'airtel', 6: 'mpesa', 7: 'aggregator' } as Record<PayType, ProviderId>;
  for (const p of [3, 4, 6, 7] as PayType[]) {
    const id = given[String(p)];
    if (isProviderId(id) && PROVIDERS[id].payTypes.includes(p)) out[p] = id;
  }
  return out;
}
