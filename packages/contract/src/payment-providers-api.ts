import { z } from 'zod';
import { text } from './input.js';

/**
 * The mobile-money providers' accounts and the routing of pay types (issue 28): where each provider's API
 * is (the built-in sandbox, or the provider's production base URL), its settings, which credentials are
 * stored (never their values), and which provider carries each pay type. Every change waits for a second
 * admin (it decides where money goes).
 */

export const PAYMENT_PROVIDER_IDS = ['mpesa', 'airtel', 'aggregator'] as const;
export type PaymentProviderId = (typeof PAYMENT_PROVIDER_IDS)[number];

export const paymentProviderRow = z.object({
  provider: z.enum(PAYMENT_PROVIDER_IDS),
  name: z.string(),
  /** The pay types it can carry. */
  pay_types: z.array(z.number()),
  /** The pay types it carries now. */
  carries: z.array(z.number()),
  /** Null: the built-in sandbox. */
  base_url: z.string().nullable(),
  /** Where the built-in sandbox answers, for reference (in-process in the server; served on a port when configured). */
  sandbox_url: z.string(),
  /** The provider's production base URL (to confirm with the contract). */
  production_base_url: z.string(),
  settings: z.record(z.string(), z.string()),
  /** The names of the stored credentials (their values never leave the server). */
  secrets_set: z.array(z.string()),
  /** Our callback URLs to register with the provider, per pay type it can carry. */
  callback_urls: z.record(z.string(), z.string()),
  updated_at: z.string(),
});
export type PaymentProviderRow = z.infer<typeof paymentProviderRow>;

export const paymentProvidersAnswer = z.object({ providers: z.array(paymentProviderRow) });
export type PaymentProvidersAnswer = z.infer<typeof paymentProvidersAnswer>;

export const paymentProviderParams = z.object({ provider: z.enum(PAYMENT_PROVIDER_IDS) });

const httpUrl = text(300).pipe(z.url({ protocol: /^https?$/ }));

export const paymentProviderBody = z.strictObject({
  /** The API's base URL; null or '' goes back to the built-in sandbox. */
  base_url: z.union([httpUrl, z.literal(''), z.null()]).optional(),
  /** Non-secret settings, merged into the stored ones. */
  settings: z.record(text(64).pipe(z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]*$/)), text(300)).optional(),
  /** Write-only credentials, merged; an empty value keeps the stored one. */
  secrets: z.record(text(64).pipe(z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]*$/)), text(8_000)).optional(),
});
export type PaymentProviderBody = z.infer<typeof paymentProviderBody>;

export const paymentRoutingAnswer = z.object({
  /** Pay type → provider id. */
  provider_of: z.record(z.string(), z.enum(PAYMENT_PROVIDER_IDS)),
});
export type PaymentRoutingAnswer = z.infer<typeof paymentRoutingAnswer>;

export const paymentRoutingBody = z.strictObject({
  provider_of: z.partialRecord(z.enum(['3', '4', '6', '7']), z.enum(PAYMENT_PROVIDER_IDS)),
});
