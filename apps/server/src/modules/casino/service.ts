/**
 * Casino core services (issue 13): the providers', games' and settings' cache the wallet reads on every
 * call, secrets (sealed at rest when DAU_CASINO_SECRET_KEY is set), game sessions. The wallet calls
 * themselves are in ./wallet.ts.
 */
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { USER_DISABLED } from '@dau/domain';
import { CASINO_CURRENCY } from '@dau/contract';
import type { Executor } from '../../platform/db.js';
import { AppError, notFound } from '../../platform/errors.js';
import { bettors } from '../money/index.js';
import { casinoGames, casinoProviders, casinoSessions, casinoSettings } from './schema.js';

export type CasinoProvider = typeof casinoProviders.$inferSelect;
export type CasinoGame = typeof casinoGames.$inferSelect;
export type CasinoSettings = typeof casinoSettings.$inferSelect;
export type CasinoSession = typeof casinoSessions.$inferSelect;

/** How long a game session's token lets the bettor bet. */
export const SESSION_HOURS = 4;

// --------------------------------------------------------------------------------------------- secrets

const SEALED = 'sealed:v1:';

function secretKey(): Buffer | null {
  const b64 = process.env.DAU_CASINO_SECRET_KEY;
  if (!b64) return null;
  const key = Buffer.from(b64, 'base64');
  return key.length === 32 ? key : null;
}

/** A provider's secret as stored: AES-256-GCM sealed when a key is configured, else as given. */
export function sealSecret(plain: string): string {
  const key = secretKey();
  if (!key) return plain;
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${SEALED}${iv.toString('base64')}:${body.toString('base64')}`;
}

/** The plain secret of a stored one ('' when it cannot be opened: a provider that cannot sign in). */
export function openSecret(stored: string): string {
  if (!stored.startsWith(SEALED)) return stored;
  const key = secretKey();
  if (!key) return '';
  try {
    const [ivB64, dataB64] = stored.slice(SEALED.length).split(':');
    const raw = Buffer.from(dataB64 ?? '', 'base64');
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(ivB64 ?? '', 'base64'));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(0, raw.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return '';
  }
}

/** The plain HMAC secret of a provider, for a sandbox provider that signs its calls (C2). Null when unknown. */
export async function providerSecretFor(ex: Executor, code: string): Promise<string | null> {
  const [p] = await ex.select({ secret: casinoProviders.secret }).from(casinoProviders).where(eq(casinoProviders.code, code));
  return p ? openSecret(p.secret) : null;
}

// ----------------------------------------------------------------------------------------------- cache

/**
 * Providers, games and settings as the wallet reads them on every call: cached per process for a few
 * seconds (an edit in this process invalidates at once; another process sees it within TTL_MS).
 * Sessions never change once written, so a session read once is kept until it is long expired.
 */
const TTL_MS = 3_000;

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

export class WalletCache {
  private providers = new Map<string, Cached<{ row: CasinoProvider | null; secret: string }>>();
  private games = new Map<string, Cached<CasinoGame | null>>();
  private settings = new Map<1, Cached<CasinoSettings | null>>();
  private sessions = new Map<string, CasinoSession>();

  invalidate() {
    this.providers.clear();
    this.games.clear();
    this.settings.clear();
  }

  /**
   * The value of `key`, read at most once per TTL_MS: concurrent callers share one read (without it, every
   * call in flight when the entry expires reads the row again: hundreds of reads at once under load).
   */
  private cached<K, T>(map: Map<K, Cached<T>>, key: K, max: number, read: () => Promise<T>): Promise<T> {
    const hit = map.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    if (map.size >= max) map.clear();
    const value = read();
    const entry = { at: Date.now(), value };
    map.set(key, entry);
    // A failed read is not kept: the next call reads again.
    value.catch(() => map.get(key) === entry && map.delete(key));
    return value;
  }

  provider(ex: Executor, code: string) {
    return this.cached(this.providers, code, 1000, async () => {
      const [row] = await ex.select().from(casinoProviders).where(eq(casinoProviders.code, code));
      return { row: row ?? null, secret: row ? openSecret(row.secret) : '' };
    });
  }

  game(ex: Executor, providerId: number, gameCode: string): Promise<CasinoGame | null> {
    return this.cached(this.games, `${providerId}\u0000${gameCode}`, 5000, async () => {
      const [row] = await ex.select().from(casinoGames).where(and(eq(casinoGames.providerId, providerId), eq(casinoGames.gameCode, gameCode)));
      return row ?? null;
    });
  }

  async gameById(ex: Executor, id: number): Promise<CasinoGame | null> {
    const [row] = await ex.select().from(casinoGames).where(eq(casinoGames.id, id));
    return row ?? null;
  }

  settingsRow(ex: Executor): Promise<CasinoSettings | null> {
    return this.cached(this.settings, 1, 1, async () => {
      const [row] = await ex.select().from(casinoSettings).where(eq(casinoSettings.id, 1));
      return row ?? null;
    });
  }

  async session(ex: Executor, token: string): Promise<CasinoSession | null> {
    const hit = this.sessions.get(token);
    if (hit) return hit;
    const [row] = await ex.select().from(casinoSessions).where(eq(casinoSessions.token, token));
    if (!row) return null;
    if (this.sessions.size > 50_000) this.sessions.clear();
    this.sessions.set(token, row);
    return row;
  }
}

/** The process's cache (the resource routes invalidate it after an edit). */
export const walletCache = new WalletCache();

// -------------------------------------------------------------------------------------------- sessions

export interface OpenedSession {
  token: string;
  launchUrl: string;
  expiresAt: Date;
  currency: string;
}

/**
 * Opens a game session for a bettor (the bettor-facing app's launch; the simulator calls it too): a
 * random token bound to bettor, game, provider and TSh, valid for SESSION_HOURS for bets. The caller
 * checks the bettor's scope. Refuses a disabled bettor, an unknown or disabled game or provider.
 */
export async function openSession(ex: Executor, bettorId: number, gameId: number, opts: { lang?: string; now?: Date } = {}): Promise<OpenedSession> {
  const [b] = await ex.select({ id: bettors.id, agentId: bettors.agentId, disabled: bettors.disabled }).from(bettors).where(eq(bettors.id, bettorId));
  if (!b) throw notFound();
  if (b.disabled === USER_DISABLED.disabled) throw new AppError(422, 'BET_USER_BLOCKED');
  const [g] = await ex
    .select({ game: casinoGames, provider: casinoProviders })
    .from(casinoGames)
    .innerJoin(casinoProviders, eq(casinoProviders.id, casinoGames.providerId))
    .where(eq(casinoGames.id, gameId));
  if (!g) throw notFound();
  if (!g.game.enabled || !g.provider.enabled) throw new AppError(409, 'CONFLICT');
  const token = crypto.randomBytes(24).toString('base64url');
  const now = opts.now ?? new Date();
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3600_000);
  await ex.insert(casinoSessions).values({
    token, bettorId, agentId: b.agentId, gameId, providerId: g.provider.id, currency: CASINO_CURRENCY, expiresAt, createdAt: now,
  });
  const q = new URLSearchParams({ token, game: g.game.gameCode, lang: opts.lang ?? 'en-US' });
  const base = g.provider.launchUrl;
  const launchUrl = base ? `${base}${base.includes('?') ? '&' : '?'}${q.toString()}` : `?${q.toString()}`;
  return { token, launchUrl, expiresAt, currency: CASINO_CURRENCY };
}
