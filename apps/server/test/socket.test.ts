import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { sealMessage } from '../src/platform/crypto.js';
import { connectSocket, socketHello } from './support/socket-client.js';

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t?.close());

const connect = (key?: string) => connectSocket(port, key);

async function signIn(account: string, password?: string) {
  const r = await t.call('POST', '/api/v1/auth/login', { body: { account, password: password ?? 'Staff#2026pass' } });
  return r.body as { token: string; session_id: string; ws_key: string };
}

const hello = socketHello;

describe('socket', () => {
  it('authenticates with the encrypted login message and delivers notices live, encrypted', async () => {
    const s = await signIn('agent_a1');
    const c = await connect(s.ws_key);
    c.ws.send(hello(s));
    const welcome = await c.next((m) => m.type === 1);
    expect(welcome.status).toBe(true);
    const root = await t.login('admin', ADMIN_PASSWORD);
    await t.call('POST', '/api/v1/system/administrators/notify', { token: root, body: { admin_ids: [w.agentA1], content: 'Odds feed is down' } });
    const notice = await c.next((m) => m.type === 10);
    expect(notice.content.content).toBe('Odds feed is down');
    expect(notice.content.id).toBeGreaterThan(0);
    const online = await t.call('GET', `/api/v1/system/administrators/${w.agentA1}`, { token: root });
    expect(online.body.online_status).toBe(2);
    c.ws.close();
    await c.closed;
    // The server records the disconnection when it sees the close: poll the admin's state until it does.
    let offline = online;
    while (offline.body.online_status !== 1) {
      await new Promise((r) => setTimeout(r, 20));
      offline = await t.call('GET', `/api/v1/system/administrators/${w.agentA1}`, { token: root });
    }
    expect(offline.body.online_update_time).not.toBeNull();
    expect(new Date(offline.body.online_update_time).getTime()).toBeGreaterThanOrEqual(new Date(online.body.online_update_time ?? 0).getTime());
  });

  it('does not deliver another admin’s notices', async () => {
    const s = await signIn('agent_b1');
    const c = await connect(s.ws_key);
    c.ws.send(hello(s));
    await c.next((m) => m.type === 1);
    const root = await t.login('admin', ADMIN_PASSWORD);
    await t.call('POST', '/api/v1/system/administrators/notify', { token: root, body: { admin_ids: [w.agentA1], content: 'only for a1' } });
    // A notice for b1 sent after it: once it has arrived, the first one would have arrived before it.
    await t.call('POST', '/api/v1/system/administrators/notify', { token: root, body: { admin_ids: [w.agentB1], content: 'for b1' } });
    await c.next((m) => m.type === 10);
    expect(c.messages.filter((m) => m.type === 10).map((m) => m.content.content)).toEqual(['for b1']);
    c.ws.close();
  });

  it('closes with 3001 when the session signs out', async () => {
    const s = await signIn('agent_a');
    const c = await connect(s.ws_key);
    c.ws.send(hello(s));
    await c.next((m) => m.type === 1);
    await t.call('POST', '/api/v1/auth/logout', { token: s.token });
    const close = await c.next((m) => m.type === 3);
    expect(close.status).toBe(true);
    expect(await c.closed).toBe(3001);
  });

  it('refuses a message sealed with the wrong key or a token of another session, with 3001', async () => {
    const s = await signIn('agent_b');
    const other = await signIn('agent_b');
    const c = await connect();
    c.ws.send(JSON.stringify({ kid: s.session_id, ...sealMessage(other.ws_key, { type: 1, locale: 'en-US', token: s.token }) }));
    expect(await c.closed).toBe(3001);
    const d = await connect();
    d.ws.send(JSON.stringify({ kid: s.session_id, ...sealMessage(s.ws_key, { type: 1, locale: 'en-US', token: other.token }) }));
    expect(await d.closed).toBe(3001);
  });

  it('answers a plain ping without a token and keeps the socket open', async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ type: 'ping' }));
    // The server handles a socket's messages in order: the answer to a later malformed message means the
    // ping was handled, silently, and the socket stayed open.
    c.ws.send('not json');
    await c.next((m) => m.message === 'bad message');
    expect(c.messages).toEqual([{ status: false, type: 0, message: 'bad message' }]);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });
});
