import { sql, type SQL } from 'drizzle-orm';
import { ORDER_CHANGE_KINDS } from '@dau/contract';
import { orderEvents as e, orderLines as l, orders } from '../../betting/index.js';

/**
 * The order changes the audit reports read (issue 30): every row of the orders' history that is not a
 * placement, a first settlement or a cashout (ORDER_CHANGE_KINDS of the contract), i.e. an operator's result (`result_changed`, a first result or a
 * change of one), an operator's void (`cancelled`: an order cancelled, or every open selection of a cancelled
 * match), and the feed's resettlements and rollbacks of settled orders (`resettled`, `rolled_back`).
 *
 * Its money is what the betting module posted for the change, read from the history row itself: settlement
 * (betting/settlement.ts `planOrder`) writes the order's amounts before and after, and the bills it posts in
 * the same transaction move exactly `credited_cash` and `credited_credit` of the order's bettor and
 * `inviter_reward` of the inviter by the difference (the withholding tax moves between house accounts only).
 * So `cash + credit + inviter` is, to the cent, the sum of the bills the change wrote: the preview's figures
 * (`changeTotals`), after the fact. A change that moved no money (a result equal to the one it had) has
 * zeros.
 *
 * Each change is put on one match and market: the line the change moved (the line of a one-line result, else
 * the line whose `settled_at` is the change's own time: the lines a settlement moves are written in its
 * transaction), else the order's first line. An accumulator moved in two markets by one action is counted
 * once, on the first, so the report's totals are the bills' totals.
 */

const amount = (doc: SQL, key: string) => sql`coalesce((${doc} ->> ${sql.raw(`'${key}'`)})::bigint, 0)`;
const delta = (key: string) => sql`(${amount(sql`${e.after}`, key)} - ${amount(sql`${e.before}`, key)})`;

/**
 * One row per order change, as a relation to select from (`… from ${orderChanges} as rc`). Columns: id,
 * created_at, order_id, kind, source, admin_id, reason, order_no, bettor_id, agent_id, event_id, market_key,
 * market_name, selection_name, home_team, away_team, status_before, status_after, payout_before,
 * payout_after, cash, credit, inviter, money (all cents as bigint).
 */
export const orderChanges = sql`(
  select ${e.id} as id, ${e.createdAt} as created_at, ${e.orderId} as order_id, ${e.kind} as kind, ${e.source} as source,
    ${e.adminId} as admin_id, ${e.reason} as reason, ${orders.orderNo} as order_no, ${orders.bettorId} as bettor_id, ${orders.agentId} as agent_id,
    ln.event_id, ln.market_key, ln.market_name, ln.selection_name, ln.home_team, ln.away_team,
    (${e.before} ->> 'status')::int as status_before, (${e.after} ->> 'status')::int as status_after,
    ${amount(sql`${e.before}`, 'payout')} as payout_before, ${amount(sql`${e.after}`, 'payout')} as payout_after,
    ${delta('credited_cash')} as cash, ${delta('credited_credit')} as credit, ${delta('inviter_reward')} as inviter,
    (${delta('credited_cash')} + ${delta('credited_credit')} + ${delta('inviter_reward')}) as money
  from ${e}
  join ${orders} on ${orders.id} = ${e.orderId}
  cross join lateral (
    select ${l.eventId} as event_id, ${l.marketKey} as market_key, ${l.marketName} as market_name, ${l.selectionName} as selection_name,
      ${l.homeTeam} as home_team, ${l.awayTeam} as away_team
    from ${l}
    where ${l.orderId} = ${e.orderId}
    order by coalesce(${l.id} = (${e.before} ->> 'line_id')::bigint, false) desc, coalesce(${l.settledAt} = ${e.createdAt}, false) desc, ${l.id}
    limit 1
  ) ln
  where ${e.kind} in (${sql.join(
    ORDER_CHANGE_KINDS.map((k) => sql.raw(`'${k}'`)),
    sql`, `,
  )})
)`;

/** A column of the changes relation under its alias `rc`. */
export const rc = (name: string) => sql.raw(`"rc"."${name}"`);
