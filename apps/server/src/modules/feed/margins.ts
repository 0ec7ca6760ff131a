/**
 * The operator's price margins (match list › margins, table price_margins) as the feed engine's
 * `MarginFn`. The engine asks for a margin on every odds change, synchronously, so the settings live in
 * memory: loaded at start and reloaded after every change, in every process: `changed()` reloads here and
 * tells the other processes through the bus; a reload every RELOAD_MS is the safety net for a message
 * lost while a process's listener was down.
 *
 * A league's own margin applies to the feed's matches of that league through the league's
 * `provider_id` (the provider's competition id, e.g. `sr:tournament:17`); otherwise the sport's;
 * otherwise `fallbackBps`. A new margin prices the next odds change of each selection: prices already
 * offered stay as they are until the provider moves them.
 */
import { isNotNull } from 'drizzle-orm';
import type { Bus, Db } from '../../platform/db.js';
import { Reloaded, RELOAD_MS } from '../../platform/reloaded.js';
import { leagues, priceMargins } from '../sports/index.js';
import type { MarginContext } from './engine.js';

/** Bus channel: the margins changed in some process. */
export const MARGINS_CHANGED = 'feed.margins-changed';

export class MarginBook extends Reloaded {
  private bySport = new Map<number, number>();
  private byLeague = new Map<string, number>();

  constructor(
    private db: Db,
    private fallbackBps = 0,
    bus?: Bus,
    reloadMs = RELOAD_MS,
  ) {
    super(MARGINS_CHANGED, bus, reloadMs);
  }

  async reload(): Promise<void> {
    const rows = await this.db
      .select({ sportId: priceMargins.sportId, leagueId: priceMargins.leagueId, margin: priceMargins.margin })
      .from(priceMargins);
    const providerIds = new Map(
      (await this.db.select({ id: leagues.id, providerId: leagues.providerId }).from(leagues).where(isNotNull(leagues.providerId))).map((l) => [
        l.id,
        l.providerId as string,
      ]),
    );
    const bySport = new Map<number, number>();
    const byLeague = new Map<string, number>();
    for (const r of rows) {
      if (r.leagueId === null) bySport.set(r.sportId, r.margin);
      else {
        const provider = providerIds.get(r.leagueId);
        if (provider) byLeague.set(`${r.sportId}|${provider}`, r.margin);
      }
    }
    this.bySport = bySport;
    this.byLeague = byLeague;
  }

  readonly margin = ({ sportId, leagueId }: MarginContext): number => {
    if (sportId === null) return this.fallbackBps;
    if (leagueId !== null) {
      const own = this.byLeague.get(`${sportId}|${leagueId}`);
      if (own !== undefined) return own;
    }
    return this.bySport.get(sportId) ?? this.fallbackBps;
  };
}
