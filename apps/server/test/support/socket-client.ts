/**
 * A console socket client for tests: connects to `/ws` of a server, opens sealed messages with the
 * session's key, and answers the first message (received or to come) that matches a predicate.
 */
import WebSocket from 'ws';
import { openMessage, sealMessage } from '../../src/platform/crypto.js';

export interface SocketClient {
  ws: WebSocket;
  messages: any[];
  closed: Promise<number>;
  /** The first message (already received or to come) matching `pred`; the test's timeout bounds the wait. */
  next(pred: (m: any) => boolean): Promise<any>;
}

/** Connects to `ws://127.0.0.1:{port}/ws`; with `key` (the session's ws_key), sealed messages are opened. */
export function connectSocket(port: number, key?: string): Promise<SocketClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const messages: any[] = [];
    const waiters: { pred: (m: any) => boolean; res: (m: any) => void }[] = [];
    ws.on('message', (raw) => {
      const env = JSON.parse(String(raw));
      const msg = key && env.iv ? openMessage(key, env) : env;
      messages.push(msg);
      for (const wt of [...waiters]) if (wt.pred(msg)) {
        waiters.splice(waiters.indexOf(wt), 1);
        wt.res(msg);
      }
    });
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('open', () =>
      resolve({
        ws, messages, closed,
        next: (pred) =>
          new Promise((res) => {
            const hit = messages.find(pred);
            if (hit) return res(hit);
            waiters.push({ pred, res });
          }),
      }),
    );
    ws.on('error', reject);
  });
}

/** The socket's sign-in message (type 1) of a session, sealed with its key. */
export const socketHello = (s: { token: string; session_id: string; ws_key: string }) =>
  JSON.stringify({ kid: s.session_id, ...sealMessage(s.ws_key, { type: 1, locale: 'en-US', token: s.token }) });
