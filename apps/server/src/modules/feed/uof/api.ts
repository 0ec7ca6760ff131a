/**
 * The UOF REST API as the client uses it (Sportradar's `https://api.betradar.com/v1/…`, or the sandbox's
 * on localhost): producers, market descriptions, fixtures, and the recovery requests. Every call carries
 * the access token in the `x-access-token` header, as the API requires.
 *
 * How a request reaches the API is a `UofHttp`: the global fetch against a URL (a real account, or the
 * sandbox's HTTP server), or the sandbox's handler called in-process (`npm start` with no broker). The
 * documents are the same XML either way and go through the same parsers.
 */
import type { UofFixture, UofMarketDescription, UofProducer } from './types.js';
import { parseFixture, parseMarketDescriptions, parseProducers } from './xml.js';

export interface UofHttpRequest {
  method: 'GET' | 'POST';
  /** Path and query below the API's root: '/v1/descriptions/producers.xml'. */
  path: string;
  headers: Record<string, string>;
}
export interface UofHttpAnswer {
  status: number;
  body: string;
}
export type UofHttp = (req: UofHttpRequest) => Promise<UofHttpAnswer>;

/** A UofHttp over the network: `root` is the API's base URL (UOF_API_URL: 'https://stgapi.betradar.com'). */
export function fetchHttp(root: string, timeoutMs = 15_000): UofHttp {
  const base = root.replace(/\/+$/, '');
  return async (req) => {
    const res = await fetch(`${base}${req.path}`, { method: req.method, headers: req.headers, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, body: await res.text() };
  };
}

/** A refused or failed API call: the status (0: no answer) and what the API said. */
export class UofApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'UofApiError';
  }
}

/** The product path of a producer's recovery URLs, from its `api_url` ('…/v1/liveodds/' → 'liveodds'). */
export function productPath(p: Pick<UofProducer, 'api_url' | 'id'>): string {
  const m = /\/v1\/([^/]+)\/?$/.exec(p.api_url.trim());
  return m?.[1] ?? String(p.id);
}

export class UofApi {
  constructor(
    private readonly http: UofHttp,
    private readonly token: string,
  ) {}

  private async call(method: 'GET' | 'POST', path: string): Promise<string> {
    let answer: UofHttpAnswer;
    try {
      answer = await this.http({ method, path, headers: { 'x-access-token': this.token, accept: 'application/xml' } });
    } catch (err) {
      throw new UofApiError(0, `${method} ${path}: ${(err as Error).message}`);
    }
    if (answer.status < 200 || answer.status >= 300) {
      const said = /<message>([^<]*)<\/message>/.exec(answer.body)?.[1] ?? answer.body.slice(0, 200);
      throw new UofApiError(answer.status, `${method} ${path}: ${answer.status} ${said}`.trim());
    }
    return answer.body;
  }

  async producers(): Promise<UofProducer[]> {
    return parseProducers(await this.call('GET', '/v1/descriptions/producers.xml'));
  }

  async marketDescriptions(lang: string): Promise<UofMarketDescription[]> {
    return parseMarketDescriptions(await this.call('GET', `/v1/descriptions/${encodeURIComponent(lang)}/markets.xml`));
  }

  async fixture(lang: string, eventUrn: string): Promise<UofFixture> {
    return parseFixture(await this.call('GET', `/v1/sports/${encodeURIComponent(lang)}/sport_events/${encodeURIComponent(eventUrn)}/fixture.xml`));
  }

  /**
   * Asks a producer for the messages since `after` (epoch ms; absent: a full recovery of its current
   * state), tagged with `requestId`; the feed ends it with `snapshot_complete` of that id.
   */
  async initiateRecovery(product: string, requestId: number, after?: number, nodeId?: number): Promise<void> {
    const q = new URLSearchParams({ request_id: String(requestId) });
    if (after !== undefined) q.set('after', String(after));
    if (nodeId !== undefined) q.set('node_id', String(nodeId));
    await this.call('POST', `/v1/${encodeURIComponent(product)}/recovery/initiate_request?${q}`);
  }

  /** Asks a producer for the current odds of one event (the match screen's recovery). */
  async initiateEventRecovery(product: string, eventUrn: string, requestId: number, nodeId?: number): Promise<void> {
    const q = new URLSearchParams({ request_id: String(requestId) });
    if (nodeId !== undefined) q.set('node_id', String(nodeId));
    await this.call('POST', `/v1/${encodeURIComponent(product)}/odds/events/${encodeURIComponent(eventUrn)}/initiate_request?${q}`);
  }
}
