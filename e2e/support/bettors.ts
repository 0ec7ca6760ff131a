import { beforeAll } from 'vitest';
import type { E2e } from './browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus, type ApiAnswer } from './server';

/** "255712345678" → "0712 345 678", the way an operator types it. */
export const localPhone = (stored: string) => `0${stored.slice(3, 6)} ${stored.slice(6, 9)} ${stored.slice(9)}`;

export interface SandboxBettors {
  /** JSON call to /api/v1{path} as the admin (signed in through the API in beforeAll). */
  api<T = any>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>>;
  /** The bettors made in beforeAll, each by a 100 TSh order through the betting sandbox route. */
  bettors: { id: number; phone: string }[];
}

/** Registers a beforeAll (after the server's start): the admin signed in through the API, and `count` sandbox bettors. */
export function useSandboxBettors(e2e: E2e, count: number): SandboxBettors {
  let token = '';
  const bettors: SandboxBettors['bettors'] = [];
  const api = <T = any>(method: string, path: string, body?: unknown) => e2e.server.api<T>(method, path, body, token);
  beforeAll(async () => {
    token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    for (let i = 0; i < count; i++) {
      const order = expectStatus(await api('POST', '/sandbox/betting/orders', { stake: 100_00 }), 201, 'sandbox bettor');
      bettors.push({ id: order.bettor_id, phone: order.phone });
    }
  });
  return { api, bettors };
}
