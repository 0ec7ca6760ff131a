import type { MobileMoneyProvider } from '../provider.js';
import { MpesaClient } from './client.js';
import { mpesaSandbox } from './sandbox.js';

/**
 * Vodacom M-Pesa through its OpenAPI (market vodacomTZN), pay type 6. Going live is the account row: the
 * production base URL below (the portal's sandbox is `https://openapi.m-pesa.com/sandbox/ipg/v2/vodacomTZN`),
 * the API key and the portal's public key, the service provider code (shortcode) and the Origin.
 */
export const mpesa: MobileMoneyProvider = {
  id: 'mpesa',
  name: 'Vodacom M-Pesa (OpenAPI)',
  payTypes: [6],
  productionBaseUrl: 'https://openapi.m-pesa.com/openapi/ipg/v2/vodacomTZN',
  sendsCallbacks: false,
  client: (deps) => new MpesaClient(deps),
  sandbox: mpesaSandbox,
};

export { MpesaClient, MPESA_PATHS, verdictOf, type ReversalAnswer } from './client.js';
export { MPESA_CODES } from './codes.js';
