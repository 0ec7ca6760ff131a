/**
 * The casino's reference rows (a ModuleSeed, see src/seed.ts): the settings row, the sandbox provider
 * (code 'sandbox', HMAC with a secret generated on first seed and kept, launch URL at the sandbox game
 * server: DAU_CASINO_SANDBOX_URL, default http://127.0.0.1:6019), four categories in three languages
 * and six games across kinds with their RTP and volatility. Idempotent; an operator's edits are kept.
 */
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db.js';
import { casinoCategories, casinoGames, casinoProviders, casinoSettings } from './schema.js';
import { sealSecret, walletCache } from './service.js';

export const SANDBOX_PROVIDER_CODE = 'sandbox';
export const sandboxLaunchUrl = () => process.env.DAU_CASINO_SANDBOX_URL ?? `http://127.0.0.1:${process.env.DAU_CASINO_SANDBOX_PORT || 6019}`;

const CATEGORIES = [
  { nameEn: 'Slots', nameSw: 'Mashine za Sloti', nameZh: '老虎机', icon: 'slot', sort: 1 },
  { nameEn: 'Crash', nameSw: 'Crash', nameZh: '崩溃游戏', icon: 'crash', sort: 2 },
  { nameEn: 'Roulette', nameSw: 'Rulet', nameZh: '轮盘', icon: 'roulette', sort: 3 },
  { nameEn: 'Live', nameSw: 'Mubashara', nameZh: '真人游戏', icon: 'live', sort: 4 },
] as const;

/** [game code, name, category (index), kind, rtp bps, volatility, min bet, max bet, hot, new]. */
const GAMES: readonly [string, string, number, 'slot' | 'crash' | 'roulette', number, number, number, number, boolean, boolean][] = [
  ['sb-safari-slots', 'Safari Slots', 0, 'slot', 9600, 2, 1_00, 100_000_00, true, false],
  ['sb-kilimanjaro-gold', 'Kilimanjaro Gold', 0, 'slot', 9450, 3, 1_00, 50_000_00, false, true],
  ['sb-zanzibar-fruits', 'Zanzibar Fruits', 0, 'slot', 9700, 1, 50, 20_000_00, false, false],
  ['sb-aviator-dar', 'Dar Aviator', 1, 'crash', 9700, 3, 1_00, 200_000_00, true, true],
  ['sb-roulette-eu', 'European Roulette', 2, 'roulette', 9730, 2, 1_00, 500_000_00, false, false],
  ['sb-live-roulette', 'Live Roulette Arusha', 3, 'roulette', 9730, 1, 5_00, 1_000_000_00, false, true],
];

export async function seedCasino(ex: Executor): Promise<void> {
  await ex.insert(casinoSettings).values({ id: 1 }).onConflictDoNothing();
  await ex
    .insert(casinoProviders)
    .values({
      code: SANDBOX_PROVIDER_CODE, name: 'Sandbox provider', authKind: 'hmac', secret: sealSecret(crypto.randomBytes(32).toString('base64url')),
      launchUrl: sandboxLaunchUrl(), currency: 'TZS', enabled: true,
    })
    .onConflictDoNothing();
  const [provider] = await ex.select({ id: casinoProviders.id }).from(casinoProviders).where(eq(casinoProviders.code, SANDBOX_PROVIDER_CODE));
  // Categories and games only on a casino without any (a fresh install): an operator's deletions stay deleted.
  const existing = await ex.select({ id: casinoCategories.id }).from(casinoCategories).limit(1);
  if (existing.length || !provider) return;
  const cats = await ex.insert(casinoCategories).values(CATEGORIES.map((c) => ({ ...c }))).returning({ id: casinoCategories.id });
  for (const [i, g] of GAMES.entries()) {
    const [code, name, cat, kind, rtpBps, volatility, minBet, maxBet, hot, isNew] = g;
    const [has] = await ex.select({ id: casinoGames.id }).from(casinoGames).where(and(eq(casinoGames.providerId, provider.id), eq(casinoGames.gameCode, code)));
    if (has) continue;
    await ex.insert(casinoGames).values({
      providerId: provider.id, gameCode: code, name, categoryId: cats[cat]!.id, kind, rtpBps, volatility, minBet, maxBet, hot, isNew, sort: GAMES.length - i,
      image: '',
    });
  }
}

/**
 * Points the sandbox provider's launch URL at the port its server listens on (DAU_CASINO_SANDBOX_PORT
 * may differ from the port seeded on the first start): the simulator and the console open games there.
 * Only a launch URL on this machine (loopback) is moved; answers whether it changed.
 */
export async function pointLaunchUrlAt(db: Db, port: number, code = SANDBOX_PROVIDER_CODE): Promise<boolean> {
  const p = (await walletCache.provider(db, code)).row;
  if (!p?.launchUrl) return false;
  let u: URL;
  try {
    u = new URL(p.launchUrl);
  } catch {
    return false;
  }
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) || Number(u.port || 80) === port) return false;
  u.port = String(port);
  await db.update(casinoProviders).set({ launchUrl: u.toString().replace(/\/$/, ''), updatedAt: new Date() }).where(eq(casinoProviders.code, code));
  walletCache.invalidate();
  return true;
}
