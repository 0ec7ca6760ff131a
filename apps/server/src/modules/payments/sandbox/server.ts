import Fastify, { type FastifyInstance } from 'fastify';
import type { FetchLike, PayType } from '../operators.js';
import type { MobileMoneyProvider, SandboxFaceDeps } from '../provider.js';
import type { SandboxBook } from './engine.js';

/**
 * The built-in sandbox server of mobile money (issue 28): each provider's API face mounted under
 * `/<provider id>` (so `<server>/mpesa` is the M-Pesa OpenAPI's base URL, `<server>/airtel` Airtel's,
 * `<server>/aggregator` the aggregator's), over the sandbox books of the pay types. The payment runtime
 * builds one per database and reaches it in-process (`inProcessFetch`); the server's leader also serves it
 * on DAU_PAYMENTS_SANDBOX_PORT for a person or a tool to call.
 */
export function buildSandboxServer(
  providers: readonly MobileMoneyProvider[],
  deps: (provider: MobileMoneyProvider) => SandboxFaceDeps,
  books: Map<PayType, SandboxBook>,
): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 1 << 20 });
  for (const provider of providers) {
    const d = deps(provider);
    for (const p of provider.payTypes) books.get(p)?.renderers.set(provider.id, provider.sandbox.renderer(p, d));
    app.register(async (scope) => provider.sandbox.routes(scope, d), { prefix: `/${provider.id}` });
  }
  return app;
}

/** A fetch into a Fastify app without a socket: the same request line, headers and body, through its router. */
export function inProcessFetch(app: FastifyInstance, origin: string): FetchLike {
  return async (url, init = {}) => {
    if (!url.startsWith(origin)) throw new TypeError(`in-process fetch: ${url} is not under ${origin}`);
    if (init.signal?.aborted) throw init.signal.reason ?? new Error('aborted');
    const res = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: url.slice(origin.length) || '/',
      headers: init.headers,
      payload: init.body,
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, String(one));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304 || (init.method ?? 'GET') === 'HEAD';
    return new Response(empty ? null : res.rawPayload, { status: res.statusCode, statusText: res.statusMessage, headers });
  };
}
