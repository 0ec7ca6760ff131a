/**
 * Jackpot tickets by the ten thousand, fast: written by bulk SQL, not `placeTicket`, for the jackpot
 * settlement benchmark (bench/jackpot-settle.ts) and crash test (test/jackpot-crash.test.ts).
 *
 * - `bettors` bettors under the super admin;
 * - a bet type (shared, tiers 13/12/11/10 hits, pool rate 50 %, unit 1.00) and one issue on 13 matches
 *   whose results are known (set as an operator's: the matches are not in the feed; bets closed), so it
 *   can be settled at once;
 * - `tickets` open tickets: picks from a seeded generator, each match right with probability ~0.7, ~12 %
 *   doubles and ~1 % triples (a few lines a ticket on average), so every tier has winners;
 * - the ledger whole: per bettor one recharge bill (house entry on the clearing account) and per ticket
 *   one stake bill (BILL_TYPE.jackpot_payment, negative; house entry on jackpot_stakes), balances
 *   chained, so `checkInvariants` checks all of it; the issue's totals and pool as placement leaves them.
 */
import { BILL_TYPE, JACKPOT_BET_STATUS, JACKPOT_TICKET_STATUS, mulberry32 } from '@dau/domain';
import type { Database } from '../../src/platform/db.js';
import { HOUSE } from '../../src/modules/money/ledger.js';

export const BULK_RESULTS = [0, 1, 2, 0, 0, 1, 2, 0, 1, 0, 2, 0, 1];

export interface BulkJackpotOptions {
  tickets: number;
  bettors: number;
  /** A prefix for phones, serials and the identifier (default `bulk`). */
  tag?: string;
  seed?: number;
}

export interface BulkJackpot {
  issueId: number;
  betTypeId: number;
  tickets: number;
  lines: number;
  stakes: number;
}

const POP = [0, 1, 1, 2, 1, 2, 2, 3];

export async function writeBulkJackpot(database: Database, opts: BulkJackpotOptions): Promise<BulkJackpot> {
  const { tickets: N, bettors: B } = opts;
  const tag = opts.tag ?? 'bulk';
  const q = (text: string, values?: unknown[]) => database.query(text, values);
  const rnd = mulberry32(opts.seed ?? 12345);

  const rootId = (await q(`SELECT id FROM admins WHERE account = 'admin'`)).rows[0].id as number;
  const [{ lo: before }] = (await q(`SELECT coalesce(max(id), 0) AS lo FROM bettors`)).rows;
  await q(
    `INSERT INTO bettors (phone, name, agent_id, invitation_code) SELECT '2557' || lpad((${Number(before)} + g)::text, 8, '0'), 'Jackpot ${tag} ' || g, $1, upper($2) || 'J' || g FROM generate_series(1, ${B}) g`,
    [rootId, tag],
  );
  const lo = Number((await q(`SELECT min(id) AS lo FROM bettors WHERE id > ${Number(before)}`)).rows[0].lo);

  const unit = 100;
  const tiers = [{ hits: 13, proportion_bps: 5000 }, { hits: 12, proportion_bps: 2000 }, { hits: 11, proportion_bps: 1500 }, { hits: 10, proportion_bps: 1000 }];
  const bt = (
    await q(
      `INSERT INTO jackpot_bet_types (type, reward_type, tiers, pool_rate_bps, bet_amount, init_jackpot, guess_number, max_doubles, max_triples)
       VALUES ($1, 1, $2::jsonb, 5000, ${unit}, 100000000, 26, 13, 13) RETURNING id`,
      [`Bulk ${tag}`, JSON.stringify(tiers)],
    )
  ).rows[0].id as number;
  const start = new Date(Date.now() - 3 * 3_600_000).toISOString();
  const issueId = (
    await q(
      `INSERT INTO jackpot_issues (bet_type_id, identifier_prefix, identifier, start_time, max_choose, bet_close_at, bet_status)
       VALUES ($1, $2, $3, $4, 26, $4, ${JACKPOT_BET_STATUS.closed}) RETURNING id`,
      [bt, `B${tag}`, `B${tag}001`, start],
    )
  ).rows[0].id as number;
  await q(
    `INSERT INTO jackpot_issue_matches (issue_id, position, event_id, home_team, away_team, start_time, result, result_source, override_reason)
     SELECT $1, p, 'sr:match:${tag}_' || p, 'Home ' || p, 'Away ' || p, $2, r, 'operator', 'bulk' FROM unnest($3::int[]) WITH ORDINALITY AS x(r, p)`,
    [issueId, start, BULK_RESULTS],
  );

  // Tickets, 5,000 a statement.
  let lines = 0;
  let stakes = 0;
  for (let from = 0; from < N; from += 5_000) {
    const rows = [];
    for (let g = from; g < Math.min(N, from + 5_000); g++) {
      let l = 1;
      const picks = BULK_RESULTS.map((r) => {
        const x = rnd();
        let m: number;
        if (x < 0.01) m = 7;
        else if (x < 0.13) m = 7 & ~(1 << ((r + 1 + Math.floor(rnd() * 2)) % 3)); // a double holding the result
        else m = rnd() < 0.7 ? 1 << r : 1 << ((r + 1 + Math.floor(rnd() * 2)) % 3);
        l *= POP[m];
        return m;
      });
      lines += l;
      stakes += l * unit;
      rows.push({ s: `J${tag}${g}`, b: lo + ((g * 7919) % B), p: picks.join(','), l, k: l * unit });
    }
    await q(
      `INSERT INTO jackpot_tickets (serial_number, issue_id, bettor_id, agent_id, picks, lines, unit, stake, status, created_at)
       SELECT v.s, $2, v.b, $3, string_to_array(v.p, ',')::smallint[], v.l, ${unit}, v.k, ${JACKPOT_TICKET_STATUS.open}, now() - interval '4 hours'
       FROM jsonb_to_recordset($1::jsonb) AS v(s text, b integer, p text, l integer, k bigint) ORDER BY v.s`,
      [JSON.stringify(rows), issueId, rootId],
    );
  }
  await q(`UPDATE jackpot_issues SET total_bet = $2, lines = $3, tickets = $4, prize_pool = 100000000 + ${Math.floor(stakes / 2)} WHERE id = $1`, [issueId, stakes, lines, N]);

  // Ledger: per bettor a recharge of its stakes + 1,000.00, then its stake bills chained in ticket id order.
  const funding = `bulk_jp_funding_${tag}`;
  const mine = `t.issue_id = ${issueId}`;
  await q(`CREATE TABLE ${funding} AS
    SELECT b.id AS bettor_id, coalesce(sum(t.stake), 0) + 100000 AS amount, md5('jfund${tag}' || b.id) AS txn_id
    FROM bettors b LEFT JOIN jackpot_tickets t ON t.bettor_id = b.id AND ${mine} WHERE b.id >= ${lo} GROUP BY b.id`);
  await q(`
    INSERT INTO bills (serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, txn_id)
    SELECT 'BJR${tag}' || f.bettor_id, f.bettor_id, ${rootId}, 1, ${BILL_TYPE.user_recharge}, f.amount, 0, f.amount, 'recharge', f.bettor_id::text, f.txn_id
    FROM ${funding} f ORDER BY f.bettor_id`);
  await q(`INSERT INTO house_entries (txn_id, account, amount, bill_type) SELECT txn_id, $1, -amount, ${BILL_TYPE.user_recharge} FROM ${funding}`, [HOUSE.clearing(1)]);
  await q(`
    INSERT INTO bills (serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, txn_id)
    SELECT 'BJS${tag}' || s.id, s.bettor_id, ${rootId}, 1, ${BILL_TYPE.jackpot_payment}, -s.stake, s.after + s.stake, s.after, 'jackpot', s.id::text, md5('jstake${tag}' || s.id)
    FROM (
      SELECT t.id, t.bettor_id, t.stake, f.amount - sum(t.stake) OVER (PARTITION BY t.bettor_id ORDER BY t.id) AS after
      FROM jackpot_tickets t JOIN ${funding} f ON f.bettor_id = t.bettor_id WHERE ${mine}
    ) s ORDER BY s.bettor_id, s.id`);
  await q(`INSERT INTO house_entries (txn_id, account, amount, bill_type) SELECT md5('jstake${tag}' || id), $1, stake, ${BILL_TYPE.jackpot_payment} FROM jackpot_tickets t WHERE ${mine}`, [
    HOUSE.jackpotStakes,
  ]);
  await q(`UPDATE bettors SET cash_balance = 100000 WHERE id >= ${lo}`);
  await q(`DROP TABLE ${funding}`);
  await q('ANALYZE');
  return { issueId, betTypeId: bt, tickets: N, lines, stakes };
}
