import type { MobileMoneyProvider } from '../provider.js';
import { airtelClient } from './client.js';
import { airtelSandbox } from './sandbox.js';

/**
 * Airtel Money Open API (issue 28), pay type 4: OAuth2 client credentials, collection by USSD push, the
 * callback with its hash, disbursement with the RSA-encrypted PIN, enquiries, message signing. Production:
 * base URL https://openapi.airtel.africa and the credentials of the Airtel Africa developer portal.
 */
export const airtel: MobileMoneyProvider = {
  id: 'airtel',
  name: 'Airtel Money (Open API)',
  payTypes: [4],
  productionBaseUrl: 'https://openapi.airtel.africa',
  sendsCallbacks: true,
  client: airtelClient,
  sandbox: airtelSandbox,
};
