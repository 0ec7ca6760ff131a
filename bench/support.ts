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
  /**
   * Empties the scratch database for a fresh data set, or keeps it when BENCH_KEEP=1 and it exists;
   * answers whether the data set must be generated.
   */
  const prepare = async (): Promise<boolean> => {
    const keep = process.env.BENCH_KEEP === '1';
    const exists = (await admin(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).rowCount;
    if (exists && keep) return false;
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${name}`);
    return true;
  };
  return { url, admin, prepare };
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

/** How many rows a production holds (issue 25's review): the benches' default data size. */
export const PRODUCTION_ROWS = {
  bettors: Number(process.env.BENCH_BETTORS ?? 100_000),
  bills: Number(process.env.BENCH_BILLS ?? 1_000_000),
  rounds: Number(process.env.BENCH_ROUNDS ?? 1_000_000),
  matches: Number(process.env.BENCH_MATCHES ?? 200_000),
};

/**
 * Grows a seeded demo database (with the sandbox game provider's games) to a production's size by
 * `INSERT ... SELECT generate_series`: bettors of the first agent, bills of one bettor chain spread over
 * the last 30 days, rounds of the first game, matches a minute apart ending now; then ANALYZE. Answers
 * the tables' sizes afterwards and throws when one is smaller than asked.
 */
export async function growToProductionSize(exec: (sql: string) => Promise<unknown>, query: (sql: string) => Promise<{ rows: any[] }>, rows = PRODUCTION_ROWS) {
  await exec(`
    INSERT INTO bettors (phone, name, agent_id, created_at)
    SELECT '2557' || lpad(i::text, 8, '0'), 'bench ' || i, a.agent_id, now() - make_interval(secs => i * 30)
    FROM (SELECT agent_id FROM bettors ORDER BY id LIMIT 1) a, generate_series(1, ${rows.bettors}) i
    ON CONFLICT DO NOTHING;
    INSERT INTO bills (created_at, serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, txn_id)
    SELECT now() - make_interval(secs => i * 2.5), 'LD' || lpad(i::text, 9, '0'), b.id, b.agent_id, 1, 1, 100, (i - 1) * 100, i * 100, 'admin', 'ld-' || i
    FROM (SELECT id, agent_id FROM bettors ORDER BY id LIMIT 1) b, generate_series(1, ${rows.bills}) i;
    INSERT INTO casino_rounds (provider_id, round_ref, game_id, bettor_id, agent_id, bet_total, win_total, status, created_at, updated_at, ended_at)
    SELECT g.provider_id, 'ld-' || i, g.id, b.id, b.agent_id, 1000, (i % 3) * 700, 2, now() - make_interval(secs => i), now() - make_interval(secs => i), now() - make_interval(secs => i)
    FROM (SELECT id, provider_id FROM casino_games ORDER BY id LIMIT 1) g, (SELECT id, agent_id FROM bettors ORDER BY id LIMIT 1) b, generate_series(1, ${rows.rounds}) i;
    INSERT INTO feed_events (event_id, sport_id, league_id, home_team, away_team, start_time, event_status, updated_ts)
    SELECT 'sr:match:ld' || i, 1, 'sr:tournament:ld', 'home ' || i, 'away ' || i, now() - make_interval(mins => ${rows.matches} - i), 4, 0
    FROM generate_series(1, ${rows.matches}) i;
    ANALYZE;
  `);
  const sizes = (await query(`SELECT (SELECT count(*) FROM bettors)::int AS bettors, (SELECT count(*) FROM bills)::int AS bills, (SELECT count(*) FROM casino_rounds)::int AS rounds, (SELECT count(*) FROM feed_events)::int AS matches`)).rows[0];
  if (sizes.bettors < rows.bettors || sizes.bills < rows.bills || sizes.rounds < rows.rounds || sizes.matches < rows.matches) {
    throw new Error(`the tables are smaller than asked (${JSON.stringify(sizes)}): the set-up wrote too little`);
  }
  return sizes as Record<keyof typeof rows, number>;
}
