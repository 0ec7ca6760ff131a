import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';

/**
 * The API tests drive the server through `app.inject` (light-my-request). Its cookie encoding comes from
 * the `cookie` package, pinned by the root package.json `overrides` to a major that runs on Node 20: this
 * proves the pinned major still encodes request cookies and reads response cookies as inject expects.
 */
describe('inject with cookies (light-my-request on the pinned cookie major)', () => {
  it('sends the request cookies encoded and parses the Set-Cookie of the answer', async () => {
    const app = Fastify();
    app.get('/echo', async (req, reply) => {
      reply.header('set-cookie', ['session=abc%20def; Path=/; HttpOnly', 'locale=sw-KE; Path=/']);
      return { cookie: req.headers.cookie ?? null };
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/echo', cookies: { theme: 'dark mode', locale: 'zh-CN' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ cookie: 'theme=dark%20mode; locale=zh-CN' });
      expect(res.cookies.map((c) => [c.name, c.value, c.httpOnly ?? false])).toEqual([
        ['session', 'abc def', true],
        ['locale', 'sw-KE', false],
      ]);
    } finally {
      await app.close();
    }
  });
});
