import type { MobileMoneyProvider } from '../provider.js';
import { SelcomClient } from './client.js';
import { selcomSandbox } from './sandbox.js';

/**
 * The Tanzanian payment aggregator: Selcom's API gateway (developers.selcommobile.com), chosen over AzamPay
 * because every Selcom request is signed (HMAC-SHA256 digest over the signed fields) and so is its checkout
 * webhook, while AzamPay's callback carries no documented signature or token (only a source address to
 * trust); Selcom also pays out to the wallets it collects from (wallet cash-in, with a status query) and
 * carries Tigo Pesa, HaloPesa, Airtel Money and Vodacom M-Pesa (utility codes TPCASHIN, HPCASHIN,
 * AMCASHIN, VMCASHIN). Pay types 3 and 7 go through it by default; 4 and 6 when an operator switches them.
 */
export const aggregator: MobileMoneyProvider = {
  id: 'aggregator',
  name: 'Selcom (aggregator)',
  payTypes: [3, 7, 4, 6],
  productionBaseUrl: 'https://apigw.selcommobile.com',
  sendsCallbacks: true,
  client: (deps) => new SelcomClient(deps),
  sandbox: selcomSandbox,
};
