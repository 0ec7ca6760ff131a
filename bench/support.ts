/**
 * What the PostgreSQL benchmarks share: the scratch database's address next to the server's, a query
 * on the server's maintenance database (create / drop the scratch one), and percentiles.
 */
import pg from 'pg';
import { BETTING_OFFER_STATUS } from '@dau/domain';

export const BENCH_URL = process.env.BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function scratchDatabase(name: string, base = BENCH_URL) {
  const url = () => {
    const u = new URL(base);
    u.pathname = `/${name}`;
    return u.toString();
  };
  /** One statement on the server's own database (CREATE / DROP DATABASE cannot run inside the scratch one). */
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      return await c.query(q);
    } finally {
      await c.end();
    }
  };
  return { url, admin };
}

/** The p-th percentile (nearest rank) of a sample. */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/**
 * The markets of one benchmark odds change: `count` markets (1X2-like, every other one with a total line),
 * three selections each, every price from `price()`.
 */
export function pricedMarkets(count: number, price: (market: number, outcome: string) => string) {
  return Array.from({ length: count }, (_, k) => ({
    id: 1 + k,
    specifiers: k % 2 ? `total=${(k / 2).toFixed(1)}` : '',
    status: BETTING_OFFER_STATUS.bettable,
    outcomes: ['1', '2', '3'].map((id) => ({ id, price: price(k, id), active: true })),
  }));
}
