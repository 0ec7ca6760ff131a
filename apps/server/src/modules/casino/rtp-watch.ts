/**
 * The RTP watch (issue 13 "Beyond"): a periodic job checks, for every enabled game, that its actual RTP
 * over the window is inside what its theoretical RTP and volatility allow for the number of rounds played
 * (the domain's confidence band `rtpBand`, at the casino setting's confidence, 99.9 % by default), and
 * stores each check in casino_rtp_checks (the chart of GET /api/v1/casino/games/:id/rtp).
 *
 * - Rounds read: completed rounds (status 2) started in the window (`DAU_RTP_WINDOW_DAYS`, default 7 days;
 *   0 = all time), in one grouped read of casino_rounds over its (created_at) index; actual RTP =
 *   Σ win_total / Σ bet_total in bps (rounded to the nearest).
 * - Below RTP_MIN_ROUNDS rounds the band is stored but the verdict is "inside": a normal approximation
 *   over a handful of rounds says nothing.
 * - When a game leaves the band (its previous check was inside, or it has none, and this one is outside)
 *   the super admins and the holders of the casino_game screen get a notice, in the same transaction as the
 *   check; the game's row is locked meanwhile, so two runs never both see the transition. A game staying
 *   outside is not announced again; one coming back inside and leaving again is.
 * - Checks older than RTP_KEEP_DAYS are pruned.
 */
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { CASINO_ROUND_STATUS, rtpBand, type RtpBand, type Volatility } from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { createNotices, noticeRecipients, publishNotices, type NoticeEvent } from '../notices/index.js';
import { casinoGames, casinoProviders, casinoRounds, casinoRtpChecks, casinoSettings } from './schema.js';

export const RTP_WATCH_JOB = 'casino.rtp-watch';
/** Seconds between two checks (DAU_RTP_WATCH_SECONDS, default 300; the browser test shortens it). */
export const RTP_WATCH_SECONDS = Math.max(1, Math.floor(Number(process.env.DAU_RTP_WATCH_SECONDS)) || 300);
/** Fewer completed rounds than this: the check is stored, the verdict is inside. */
export const RTP_MIN_ROUNDS = 100;
/** Checks are kept this long. */
export const RTP_KEEP_DAYS = 90;
/** Default confidence of the band when the settings row is missing (bps). */
export const DEFAULT_CONFIDENCE_BPS = 9990;
const DAY_MS = 86_400_000;

export interface RtpWatchOptions {
  /** Rounds started in the last this many days (0 = all time). Default DAU_RTP_WINDOW_DAYS or 7. */
  windowDays?: number;
  now?: Date;
}

export interface RtpCheckResult {
  gameId: number;
  rounds: number;
  turnover: number;
  payouts: number;
  actualBps: number;
  lowBps: number;
  highBps: number;
  inside: boolean;
  /** This check is a transition inside → outside: the notice went out. */
  alerted: boolean;
}

const windowDaysOf = (opts: RtpWatchOptions) => {
  if (opts.windowDays !== undefined) return opts.windowDays;
  const env = Number(process.env.DAU_RTP_WINDOW_DAYS);
  return Number.isFinite(env) && env >= 0 ? env : 7;
};

/** Who hears of a game leaving its band: super admins and the holders of the casino_game screen (enabled admins). */
export async function rtpListeners(ex: Executor): Promise<number[]> {
  return (await noticeRecipients(ex, 'casino_game')).map((a) => a.id);
}

const pct = (bps: number) => (bps / 100).toFixed(2);

/** The notice, in the three languages of the console (admins have no language of their own on the server). */
function noticeText(game: { name: string; gameCode: string; provider: string }, c: RtpCheckResult, theoretical: number): string {
  const what = `${game.name} (${game.provider}/${game.gameCode})`;
  return [
    `Casino RTP alert: ${what} left its band. Actual RTP ${pct(c.actualBps)} % over ${c.rounds} rounds, allowed ${pct(c.lowBps)} – ${pct(c.highBps)} % (theoretical ${pct(theoretical)} %). Check the game (casino_game, RTP chart).`,
    `Tahadhari ya RTP ya kasino: ${what} imetoka nje ya kiwango chake. RTP halisi ${pct(c.actualBps)} % katika mizunguko ${c.rounds}, kinachoruhusiwa ${pct(c.lowBps)} – ${pct(c.highBps)} % (ya kinadharia ${pct(theoretical)} %). Kagua mchezo (casino_game, chati ya RTP).`,
    `娱乐场 RTP 警报：${what} 超出其置信区间。实际 RTP ${pct(c.actualBps)} %（${c.rounds} 局），允许范围 ${pct(c.lowBps)} – ${pct(c.highBps)} %（理论值 ${pct(theoretical)} %）。请检查该游戏（casino_game，RTP 图表）。`,
  ].join('\n');
}

/** One run of the watch over every enabled game (the periodic job; tests call it directly). */
export async function watchRtp(ctx: Pick<AppContext, 'db' | 'bus'>, opts: RtpWatchOptions = {}): Promise<RtpCheckResult[]> {
  const { db } = ctx;
  const now = opts.now ?? new Date();
  const windowDays = windowDaysOf(opts);
  const games = await db
    .select({ id: casinoGames.id, name: casinoGames.name, gameCode: casinoGames.gameCode, rtpBps: casinoGames.rtpBps, volatility: casinoGames.volatility, provider: casinoProviders.code })
    .from(casinoGames)
    .innerJoin(casinoProviders, eq(casinoProviders.id, casinoGames.providerId))
    .where(eq(casinoGames.enabled, true));
  if (!games.length) return [];
  const [settings] = await db.select({ confidence: casinoSettings.rtpAlertConfidence }).from(casinoSettings).limit(1);
  const confidenceBps = settings?.confidence ?? DEFAULT_CONFIDENCE_BPS;
  const r = casinoRounds;
  const figures = await db
    .select({ gameId: r.gameId, rounds: sql<string>`count(*)::bigint`, turnover: sql<string>`coalesce(sum(${r.betTotal}), 0)::bigint`, payouts: sql<string>`coalesce(sum(${r.winTotal}), 0)::bigint`,
      squares: sql<string>`coalesce(sum(${r.betTotal}::float8 * ${r.betTotal}::float8), 0)::float8` })
    .from(r)
    .where(
      and(
        eq(r.status, CASINO_ROUND_STATUS.completed),
        windowDays > 0 ? gte(r.createdAt, new Date(now.getTime() - windowDays * DAY_MS)) : undefined,
        sql`${r.createdAt} <= ${now.toISOString()}::timestamptz`,
        inArray(r.gameId, games.map((g) => g.id)),
      ),
    )
    .groupBy(r.gameId);
  const byGame = new Map(figures.map((f) => [f.gameId, { rounds: Number(f.rounds), turnover: Number(f.turnover), payouts: Number(f.payouts), squares: Number(f.squares) }]));
  const out: RtpCheckResult[] = [];
  const events: NoticeEvent[] = [];
  for (const g of games) {
    const found = byGame.get(g.id);
    if (!found || found.rounds === 0 || found.turnover <= 0) continue;
    const { squares, ...f } = found;
    const actualBps = Math.round((f.payouts * 10_000) / f.turnover);
    const perRound = f.turnover / f.rounds;
    let band: RtpBand;
    try {
      // Unequal stakes widen the band (Kish effective rounds: n x mean² / mean of squares).
      band = rtpBand({
        rtpBps: g.rtpBps, volatility: g.volatility as Volatility, rounds: f.rounds, confidenceBps,
        turnoverPerRound: perRound, stakeSquaresPerRound: Math.max(squares / f.rounds, perRound * perRound),
      });
    } catch {
      continue; // a game whose configuration the band cannot read (RTP or volatility out of range): nothing to say
    }
    const lowBps = Math.round(band.lowBps);
    const highBps = Math.round(band.highBps);
    const inside = f.rounds < RTP_MIN_ROUNDS || (actualBps >= lowBps && actualBps <= highBps);
    const check: RtpCheckResult = { gameId: g.id, ...f, actualBps, lowBps, highBps, inside, alerted: false };
    await db.transaction(async (tx) => {
      // The game's row serialises the checks of one game: one of two concurrent runs sees the transition.
      await tx.select({ id: casinoGames.id }).from(casinoGames).where(eq(casinoGames.id, g.id)).for('update');
      const [prev] = await tx
        .select({ inside: casinoRtpChecks.inside })
        .from(casinoRtpChecks)
        .where(eq(casinoRtpChecks.gameId, g.id))
        .orderBy(sql`${casinoRtpChecks.checkedAt} desc, ${casinoRtpChecks.id} desc`)
        .limit(1);
      await tx.insert(casinoRtpChecks).values({ gameId: g.id, checkedAt: now, rounds: f.rounds, turnover: f.turnover, payouts: f.payouts, actualBps, lowBps, highBps, inside });
      if (!inside && (prev?.inside ?? true)) {
        check.alerted = true;
        events.push(...(await createNotices(tx, await rtpListeners(tx), noticeText(g, check, g.rtpBps))));
      }
    });
    out.push(check);
  }
  await publishNotices(ctx.bus, events);
  await db.delete(casinoRtpChecks).where(sql`${casinoRtpChecks.checkedAt} < ${new Date(now.getTime() - RTP_KEEP_DAYS * DAY_MS).toISOString()}::timestamptz`);
  return out;
}

export function defineRtpWatchJob(ctx: AppContext) {
  ctx.jobs.every(RTP_WATCH_JOB, RTP_WATCH_SECONDS, async () => void (await watchRtp(ctx)));
}
