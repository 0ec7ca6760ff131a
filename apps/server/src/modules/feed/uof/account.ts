/**
 * The feed of a Betradar account (UOF_ACCESS_TOKEN set): the UOF client on the account's broker and API,
 * nothing simulated. Going live is this configuration: the broker URL, the API URL, the token and the
 * bookmaker id (the broker's virtual host).
 */
import type { Db } from '../../../platform/db.js';
import type { FeedEngine } from '../engine.js';
import { fetchHttp, UofApi } from './api.js';
import { UofClient, type UofInterest } from './client.js';
import { bindingKeys } from './documents.js';
import { accountAmqpUrl, AmqpTransport } from './transport.js';

export interface AccountFeedConfig {
  amqpUrl: string;
  apiUrl: string;
  accessToken: string;
  bookmakerId?: string;
  nodeId?: number;
  interest?: UofInterest;
  log?: (msg: string, err?: unknown) => void;
  info?: (msg: string) => void;
}

export async function startAccountFeed(engine: FeedEngine, db: Db, c: AccountFeedConfig): Promise<UofClient> {
  const interest = c.interest ?? { prematch: true, live: true, virtuals: false };
  const transport = new AmqpTransport({ url: accountAmqpUrl(c.amqpUrl, c.accessToken, c.bookmakerId), bindings: bindingKeys(interest), log: c.log });
  const client = new UofClient({ engine, db, transport, api: new UofApi(fetchHttp(c.apiUrl), c.accessToken), interest, nodeId: c.nodeId, log: c.log, info: c.info });
  await client.start();
  return client;
}
