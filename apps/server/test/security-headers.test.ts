import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.js';
import { buildApp, type DauApp } from '../src/app.js';

/** Security headers on the API and the console, HSTS over https only, and who may read /api/docs. */
let t: TestApp;
let web: DauApp;
let publicDocs: DauApp;
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-web-'));
const ASSET = 'index-Ab12Cd34.js';
const ASSET_TEXT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`;

beforeAll(async () => {
  t = await createTestApp();
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Dau</title>');
  // A hashed asset beside the build's brotli and gzip copies (vite.config.ts makes them).
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'assets', ASSET), ASSET_TEXT);
  fs.writeFileSync(path.join(dist, 'assets', `${ASSET}.br`), zlib.brotliCompressSync(ASSET_TEXT));
  fs.writeFileSync(path.join(dist, 'assets', `${ASSET}.gz`), zlib.gzipSync(ASSET_TEXT));
  // The same database served as the console would be: behind a proxy that says https, docs public.
  web = await buildApp({ database: t.database, webDist: dist, trustProxy: true, feedMargin: () => 0 });
  publicDocs = await buildApp({ database: t.database, publicDocs: true, feedMargin: () => 0 });
});
afterAll(async () => {
  await web?.app.close();
  await publicDocs?.app.close();
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain('unsafe-eval');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
}

describe('security headers', () => {
  it('are on API answers, errors included, without HSTS over plain http', async () => {
    for (const url of ['/api/v1/auth/register-config', '/api/v1/auth/me', '/api/v1/nope']) {
      const r = await t.call('GET', url);
      expectSecurityHeaders(r.res.headers);
      expect(r.res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('are on the console, with HSTS when the request came over https', async () => {
    const plain = await web.app.inject({ url: '/' });
    expect(plain.statusCode).toBe(200);
    expectSecurityHeaders(plain.headers);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const https = await web.app.inject({ url: '/customer/home', headers: { 'x-forwarded-proto': 'https' } });
    expectSecurityHeaders(https.headers);
    expect(https.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
  });
});

describe('on the wire (issue 25)', () => {
  it("sends the build's brotli or gzip copy of an asset by the browser's accept-encoding, cached for a year", async () => {
    const url = `/assets/${ASSET}`;
    const br = await web.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(ASSET_TEXT);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    const gz = await web.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(ASSET_TEXT);
    const raw = await web.app.inject({ url });
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.payload).toBe(ASSET_TEXT);
    expect(raw.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('asks again for the page itself each time (a new build is seen at once)', async () => {
    for (const url of ['/', '/index.html', '/customer/home']) {
      const r = await web.app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('compresses API answers above 2 KB for a client that accepts it, and leaves small ones alone', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const me = await t.app.inject({ url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(zlib.gunzipSync(me.rawPayload).toString());
    expect(body.user_info.account).toBe('admin');
    expect(me.rawPayload.length).toBeLessThan(Buffer.byteLength(JSON.stringify(body)) / 3);
    const small = await t.app.inject({ url: '/api/v1/auth/register-config', headers: { 'accept-encoding': 'gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    const plain = await t.app.inject({ url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});

describe('/api/docs', () => {
  it('refuses the document to strangers by default and serves it to a signed-in admin', async () => {
    for (const url of ['/api/docs/json', '/api/docs/yaml']) {
      const anon = await t.call('GET', url);
      expect(anon.status, url).toBe(401);
      expect(anon.body.code).toBe('UNAUTHORIZED');
    }
    const token = await t.login('admin', ADMIN_PASSWORD);
    const doc = await t.call('GET', '/api/docs/json', { token });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    // The viewer page itself is public and sends the console's token with its requests.
    const page = await t.call('GET', '/api/docs');
    expect(page.status).toBe(200);
    const init = await t.call('GET', '/api/docs/static/swagger-initializer.js');
    expect(init.body).toContain("localStorage.getItem('token')");
  });

  it('serves it to anyone with DAU_PUBLIC_DOCS=1', async () => {
    const r = await publicDocs.app.inject({ url: '/api/docs/json' });
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body).paths['/api/v1/auth/login']).toBeTruthy();
  });

  it('describes every sign-in route with a summary and its success answer', async () => {
    const doc = await publicDocs.app.inject({ url: '/api/docs/json' }).then((r) => JSON.parse(r.body));
    const auth = Object.entries<Record<string, { summary?: string; responses?: Record<string, unknown> }>>(doc.paths).filter(([p]) => p.startsWith('/api/v1/auth/'));
    expect(auth.length).toBeGreaterThanOrEqual(9);
    for (const [p, ops] of auth) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${p}`).toBeTruthy();
        expect(Object.keys(op.responses ?? {}).some((s) => s.startsWith('2')), `${method} ${p}`).toBe(true);
      }
    }
  });
});
