/**
 * Helpers of the casino wallet tests: a provider's signed calls against the app (inject, exact bytes),
 * a session opened for a bettor, and the ledger figures the tests compare.
 */
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { bettors, bills, houseEntries } from '../src/schema.js';
import { casinoGames, casinoProviders } from '../src/modules/casino/schema.js';
import { openSession, providerSecretFor, signWalletBody, walletCache } from '../src/modules/casino/index.js';
import type { TestApp } from './helpers.js';

export type Signer = { authKind: 'hmac'; secret: string } | { authKind: 'rsa'; privateKey: crypto.KeyObject };

export interface WalletOpts {
  provider?: string;
  signer?: Signer;
  /** Unix seconds of the timestamp header (default now). */
  timestamp?: number;
  /** Replace the signature header. */
  signature?: string | null;
  ip?: string;
  headers?: Record<string, string>;
  /** Send these bytes instead of the JSON of the body. */
  raw?: string;
}

export class WalletClient {
  constructor(
    readonly t: TestApp,
    readonly signer: Signer,
    readonly provider = 'sandbox',
  ) {}

  async call(path: string, body: Record<string, unknown>, o: WalletOpts = {}) {
    const raw = o.raw ?? JSON.stringify(body);
    const ts = o.timestamp ?? Math.floor(Date.now() / 1000);
    const signature = o.signature === undefined ? signWalletBody(o.signer ?? this.signer, ts, raw) : o.signature;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-dau-timestamp': String(ts), ...(o.headers ?? {}) };
    if (signature !== null) headers['x-dau-signature'] = signature;
    const res = await this.t.app.inject({ method: 'POST', url: `/wallet/v1/${o.provider ?? this.provider}/${path}`, headers, payload: raw, remoteAddress: o.ip ?? '127.0.0.1' });
    let parsed: any = null;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      parsed = res.body;
    }
    return { status: res.statusCode, body: parsed };
  }
}

export async function sandboxClient(t: TestApp) {
  const secret = await providerSecretFor(t.database.db, 'sandbox');
  if (!secret) throw new Error('no sandbox provider');
  return new WalletClient(t, { authKind: 'hmac', secret });
}

export async function sandboxGame(t: TestApp, code = 'sb-safari-slots') {
  const [g] = await t.database.db
    .select({ game: casinoGames })
    .from(casinoGames)
    .innerJoin(casinoProviders, eq(casinoProviders.id, casinoGames.providerId))
    .where(and(eq(casinoProviders.code, 'sandbox'), eq(casinoGames.gameCode, code)));
  return g!.game;
}

export async function session(t: TestApp, bettorId: number, gameId: number, now?: Date) {
  return openSession(t.database.db, bettorId, gameId, { now });
}

export async function cashOf(t: TestApp, bettorId: number) {
  const [b] = await t.database.db.select({ cash: bettors.cashBalance }).from(bettors).where(eq(bettors.id, bettorId));
  return b!.cash;
}

export async function casinoBills(t: TestApp, bettorId: number) {
  return t.database.db
    .select({ type: bills.type, amount: bills.amount, causeId: bills.causeId })
    .from(bills)
    .where(and(eq(bills.bettorId, bettorId), eq(bills.causeType, 'casino')))
    .orderBy(bills.id);
}

export async function houseBalance(t: TestApp, account: string) {
  const [r] = await t.database.db.select({ s: sql<string>`coalesce(sum(${houseEntries.amount}), 0)` }).from(houseEntries).where(eq(houseEntries.account, account));
  return Number(r!.s);
}

/** Edits of providers/games made in the database directly: the wallet's cache must forget them. */
export const forget = () => walletCache.invalidate();

let n = 0;
export const uid = (p = 'tx') => `${p}-${Date.now().toString(36)}-${++n}-${crypto.randomBytes(3).toString('hex')}`;
