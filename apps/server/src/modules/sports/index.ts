/**
 * The sports catalogue as other modules see it (issue 26): read-only faces of the leagues, the price
 * margins and the betting types (market types) the feed prices with and placement checks against. They are
 * changed through the sports screens (./resources.ts) and, for a margin, `saveMargin` (the feed's margin
 * screen). Its routes are registered by app.ts.
 */
import { readModel } from '../../platform/read-model.js';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db.js';
import { bettingTypes as bettingTypesTable, leagues as leaguesTable, priceMargins as priceMarginsTable } from './schema.js';

export const leagues = readModel(leaguesTable);
export const priceMargins = readModel(priceMarginsTable);
export const bettingTypes = readModel(bettingTypesTable);

export type PriceMargin = typeof priceMarginsTable.$inferSelect;

/**
 * Sets the margin of a sport (leagueId null) or of one league of it, in the caller's transaction: the row
 * before (locked; null when there was none) and after, for the caller's audit.
 */
export async function saveMargin(tx: Executor, sportId: number, leagueId: number | null, margin: number): Promise<{ prev: PriceMargin | null; row: PriceMargin }> {
  const t = priceMarginsTable;
  const where = and(eq(t.sportId, sportId), leagueId === null ? isNull(t.leagueId) : eq(t.leagueId, leagueId));
  const [prev] = await tx.select().from(t).where(where).for('update');
  const [row] = await tx
    .insert(t)
    .values({ sportId, leagueId, margin })
    .onConflictDoUpdate({ target: [t.sportId, t.leagueId], set: { margin, updatedAt: sql`now()` } })
    .returning();
  return { prev: prev ?? null, row: row! };
}
