/**
 * Child-process plumbing shared by the server's process tests (./processes.ts) and the browser tests'
 * server (e2e/support/server.ts): a free port, a signal to a detached child's process group, a JSON call.
 * No server code is imported here.
 */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
}

/** JSON call to `{baseUrl}{path}`; answers the status and the parsed body (text when not JSON). */
export async function callJson<T = any>(baseUrl: string, method: string, p: string, body?: unknown, token?: string, headers: Record<string, string> = {}): Promise<ApiAnswer<T>> {
  const h: Record<string, string> = { 'x-locale': 'en-US', ...headers };
  if (body !== undefined) h['content-type'] = 'application/json';
  if (token) h.authorization = `Bearer ${token}`;
  const res = await fetch(`${baseUrl}${p}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

/** Sends a signal to a detached child's whole process group (no error when it is gone). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}
