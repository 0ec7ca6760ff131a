import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPORT } from '@dau/domain';
import { openPostgres, type Database } from '../src/platform/db.js';
import { MarginBook } from '../src/modules/feed/margins.js';
import { priceMargins } from '../src/modules/sports/schema.js';
import { freshDatabase } from './helpers.js';

/**
 * Several processes price the feed: a margin an operator changes through one process prices the next
 * odds change in every process at once (the bus), not after the other's next periodic reload.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('margins across processes (PostgreSQL)', () => {
  let a: Database & { dispose(): Promise<void> };
  let b: Database;
  const books: MarginBook[] = [];

  beforeAll(async () => {
    a = await freshDatabase();
    b = await openPostgres(a.url!, { max: 4 });
  });
  afterAll(async () => {
    for (const book of books) book.stop();
    await b?.close();
    await a?.dispose();
  });

  it('a change made in one process reprices in the other', async () => {
    const here = await new MarginBook(a.db, 0, a.bus).start();
    // The other process's periodic reload is out of reach: only the bus can tell it.
    const there = await new MarginBook(b.db, 0, b.bus, 3_600_000).start();
    books.push(here, there);
    const football = { sportId: SPORT.football, leagueId: null };
    for (const end = Date.now() + 60_000; !b.bus.live() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    await a.db.insert(priceMargins).values({ sportId: SPORT.football, leagueId: null, margin: 777 }).onConflictDoUpdate({ target: [priceMargins.sportId, priceMargins.leagueId], set: { margin: 777 } });
    await here.changed();
    expect(here.margin(football)).toBe(777);
    // The other process hears of it through LISTEN/NOTIFY.
    const end = Date.now() + 60_000;
    while (there.margin(football) !== 777 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(there.margin(football)).toBe(777);
  });
});
