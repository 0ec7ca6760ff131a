import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { AppError } from './errors.js';

/**
 * Addresses an admin can configure (the storage endpoint, DESIGN "Integrations") never reach inside:
 * loopback, link-local, private, unique-local, carrier-grade NAT, unspecified, multicast and reserved
 * ranges are refused after DNS resolution, both when the setting is saved (a clear 422) and at every
 * connection (request-filtering-agent checks the resolved address, so a name that later resolves inside
 * is refused too). `DAU_ALLOW_PRIVATE_ENDPOINTS=1` allows them, for a MinIO on the same private network.
 * Refusals say the same whatever is behind the address, so no answer tells an admin whether a port is open.
 */
export const allowPrivateEndpoints = () => process.env.DAU_ALLOW_PRIVATE_ENDPOINTS === '1';

/** Whether an address is outside the public internet (ipaddr.js's ranges other than unicast). */
export function isInternalAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() !== 'unicast';
}

/** Refuses (422 ENDPOINT_INTERNAL, naming the field) a URL whose host is or resolves to an internal address. */
export async function assertPublicEndpoint(url: string, field: string): Promise<void> {
  if (allowPrivateEndpoints()) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    addresses = [];
  }
  if (!addresses.length || addresses.some(isInternalAddress)) throw new AppError(422, 'ENDPOINT_INTERNAL', { field }, [{ field }]);
}

/** http and https agents that refuse to connect to an internal address (unless allowed), for clients an admin points somewhere. */
export function publicOnlyAgents() {
  const opts = { allowPrivateIPAddress: allowPrivateEndpoints(), allowMetaIPAddress: allowPrivateEndpoints(), keepAlive: true };
  return { httpAgent: new RequestFilteringHttpAgent(opts), httpsAgent: new RequestFilteringHttpsAgent(opts) };
}
