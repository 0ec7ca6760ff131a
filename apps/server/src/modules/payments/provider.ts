import type { FastifyInstance } from 'fastify';
import type { ClientDeps, MobileMoneyOperator, PayType } from './operators.js';
import type { CallbackRenderer, SandboxBook } from './sandbox/engine.js';

/**
 * What one mobile-money provider brings (issue 28): the client of its documented API, and the built-in
 * sandbox that speaks that API on localhost. The providers are ./mpesa (Vodacom M-Pesa OpenAPI, pay type 6),
 * ./airtel (Airtel Money Open API, 4) and ./aggregator (a Tanzanian aggregator: Tigo Pesa 3, HaloPesa 7,
 * and able to carry 4 and 6 when an operator is switched to it). The registry is ./providers.ts.
 */
export interface MobileMoneyProvider {
  /** The key of its account row (payment_providers.provider): 'mpesa' | 'airtel' | 'aggregator'. */
  id: ProviderId;
  /** Its name in the console. */
  name: string;
  /** The pay types it can carry. */
  payTypes: readonly PayType[];
  /** The production base URL the console suggests (the operator confirms it with their contract). */
  productionBaseUrl: string;
  /** Whether it posts callbacks (M-Pesa's OpenAPI answers within the call: no callback URL to register). */
  sendsCallbacks: boolean;
  /** Its client for one pay type (the runtime builds one per pay type it carries). */
  client(deps: ClientDeps): MobileMoneyOperator;
  /** The built-in sandbox of its API. */
  sandbox: SandboxFace;
}

export type ProviderId = 'mpesa' | 'airtel' | 'aggregator';

export interface SandboxFaceDeps {
  /** The sandbox books of a pay type (decisions, forced behaviours, the transactions). */
  book(payType: PayType): SandboxBook;
  /** The sandbox's own credentials for this provider (made by `newCredentials` at the first start). */
  credentials(): Promise<Record<string, string>>;
  /** Where the product receives this pay type's callbacks (the URL the face would post to). */
  callbackUrl(payType: PayType): string;
  log(msg: string, extra?: Record<string, unknown>): void;
}

export interface SandboxFace {
  /** Registers the API's documented routes on `app` (mounted under `/<provider id>` of the sandbox server). */
  routes(app: FastifyInstance, deps: SandboxFaceDeps): void;
  /** How the callbacks of a completed transaction of `payType` look in this API (null: it sends none). */
  renderer(payType: PayType, deps: SandboxFaceDeps): CallbackRenderer;
  /**
   * Fresh credentials for a new install, as the provider's portal would hand them out: `sandbox` is the
   * provider's side (its private keys, the keys it issued), `account` what we are configured with.
   */
  newCredentials(): { sandbox: Record<string, string>; account: { settings: Record<string, string>; secrets: Record<string, string> } };
}
