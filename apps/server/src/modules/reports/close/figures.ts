import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, ORDER_STATUS, PAY_TYPE, addDays, dayStart } from '@dau/domain';
import type { CloseFigures, CloseLedger, CloseOperator, CloseProduct, CloseProductKey } from '@dau/contract';
import { HOUSE, ledgerBills, ledgerViolations } from '../../money/index.js';
import { clearingOf } from '../../payments/index.js';
import type { Db, Executor } from '../../../platform/db.js';
import { PRODUCT_CAUSES, PRODUCT_HOUSE_ACCOUNTS, PRODUCT_KEYS, PRODUCT_OF, betCounts, billGroups, emptyProduct, houseSums, productSums, type BillGroup } from '../products.js';

export type { CloseFigures, CloseLedger, CloseOperator, CloseProduct };

/**
 * The daily close's figures of one business day (Africa/Dar_es_Salaam, [00:00, 24:00) local), computed from
 * the ledger alone, so that every figure is a sum of bills (or of their counter-entries on the house
 * accounts) to the cent:
 *
 * - per product (sports, jackpot, casino, virtual racing) its bets, stakes, payouts, GGR, bonuses, NGR and
 *   withholding tax of the day's bills and journal lines, as ../products.ts defines them (the same as the
 *   Gaming Board's return); the stakes still at risk are the open bets, apart.
 * - the liability: each bettor account's balance after its last bill before the day's end (never the
 *   balance now), positive balances as owed, debts (negative balances after a correction) apart.
 * - open bets: sports orders placed before the end and still undecided then (their status at the end, read
 *   back from the first status change after it), their stakes and potential payout.
 * - payments per operator (pay type) and USDT, from the operators' clearing accounts: deposits credited
 *   (bills 4 and 11) and withdrawals paid out that day (their move from withdrawals clearing); withdrawals
 *   asked (holds) and returned from the bills; the withdrawals still in flight at the end. Operators' fees are
 *   not booked in the ledger: `fees` is null.
 * - the day's movement of all balances by cause (products, deposits, withdrawals, promotions, adjustments,
 *   racing coins, other), whose sum is the change of the bettors' balances over the day.
 * - the ledger check (money's invariants) at the time of the close.
 */

export const PRODUCTS: readonly CloseProductKey[] = PRODUCT_KEYS;
/** Offending rows of each kind a close keeps (the ledger check screen lists more). */
export const CLOSE_LEDGER_ROWS = 20;
/** Every operator the close reports, USDT last. */
const PAY_TYPES = [PAY_TYPE.tigo, PAY_TYPE.airtel, PAY_TYPE.vodacom, PAY_TYPE.halotel, PAY_TYPE.usdt] as const;

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const rowsOf = async <T>(ex: Executor, q: SQL) => ((await ex.execute(q)) as unknown as { rows: T[] }).rows;

/** The instants a business day spans. */
export const dayBounds = (day: string) => ({ from: dayStart(day), to: dayStart(addDays(day, 1)) });

/**
 * Computes the close of `day` from the ledger, in one read-only snapshot (REPEATABLE READ): every query sees
 * the same committed bills. `ledgerRows`: offending rows kept per kind of the ledger check.
 */
export function computeClose(db: Db, day: string, ledgerRows = CLOSE_LEDGER_ROWS): Promise<CloseFigures> {
  return db.transaction((tx) => closeFigures(tx, day, ledgerRows), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

async function closeFigures(ex: Executor, day: string, ledgerRows: number): Promise<CloseFigures> {
  const { from, to } = dayBounds(day);
  const f = from.toISOString();
  const t = to.toISOString();
  const ledger = await ledgerBills(ex);

  // 1. The day's bills by cause, account, type and direction (every cause: the movement below needs them all), and the products' bets.
  const groups = await billGroups(ex, ledger, from, to);
  const bets = await betCounts(ex, ledger, from, to);

  // 2. The day's journal lines on the house accounts that split the bills: tax, bonuses, prizes paid outside, the operators' clearing.
  const clearing = new Map<string, number>(PAY_TYPES.map((p) => [clearingOf(p), p]));
  const house = await houseSums(ex, from, to, [...PRODUCT_HOUSE_ACCOUNTS, ...clearing.keys()]);

  // Products.
  const products: Record<CloseProductKey, CloseProduct> = productSums(groups, house, bets);
  const total = emptyProduct();
  for (const key of PRODUCTS) for (const k of Object.keys(total) as (keyof CloseProduct)[]) total[k] += products[key][k];

  // Movement of the bettors' balances by cause: the products, then the rest of the ledger's causes.
  const sumOf = (pred: (g: BillGroup) => boolean) => groups.filter(pred).reduce((s, g) => s + g.total, 0);
  const coin = (g: BillGroup) => g.cause === 'racing' && !!PRODUCT_OF.racing.excluded?.(g);
  const movement = {
    cash: sumOf((g) => g.kind === ACCOUNT_KIND.cash),
    credit: sumOf((g) => g.kind === ACCOUNT_KIND.credit),
    products: sumOf((g) => PRODUCT_CAUSES.includes(g.cause) && !coin(g)),
    deposits: sumOf((g) => g.cause === 'recharge'),
    withdrawals: sumOf((g) => g.cause === 'withdrawal'),
    promotions: sumOf((g) => g.cause === 'promotion' || g.cause === 'invitation'),
    adjustments: sumOf((g) => g.cause === 'admin'),
    racing_coins: sumOf(coin),
    other: 0,
  };
  movement.other = movement.cash + movement.credit - movement.products - movement.deposits - movement.withdrawals - movement.promotions - movement.adjustments - movement.racing_coins;

  // Payments per operator and USDT.
  const operators: CloseOperator[] = PAY_TYPES.map((payType) => {
    const lines = house.filter((h) => clearing.get(h.account) === payType);
    const deposits = lines.filter((h) => h.billType === BILL_TYPE.user_recharge || h.billType === BILL_TYPE.ussd_deposit);
    const paid = lines.filter((h) => h.billType === BILL_TYPE.user_withdrawal);
    return {
      pay_type: payType,
      deposits: -deposits.reduce((s, h) => s + h.total, 0),
      deposit_count: deposits.reduce((s, h) => s + h.n, 0),
      withdrawals: paid.reduce((s, h) => s + h.total, 0),
      withdrawal_count: paid.reduce((s, h) => s + h.n, 0),
      fees: null,
    };
  });
  const [inFlight] = await rowsOf<{ total: string }>(ex, sql`
    SELECT coalesce(sum(amount), 0) AS total FROM house_entries WHERE account = ${HOUSE.withdrawalsClearing} AND created_at < ${t}::timestamptz`);
  const payments = {
    operators,
    deposits: operators.reduce((s, o) => s + o.deposits, 0),
    deposit_count: operators.reduce((s, o) => s + o.deposit_count, 0),
    withdrawals: operators.reduce((s, o) => s + o.withdrawals, 0),
    withdrawal_count: operators.reduce((s, o) => s + o.withdrawal_count, 0),
    withdrawals_requested: -sumOf((g) => g.cause === 'withdrawal' && g.type === BILL_TYPE.user_withdrawal),
    withdrawals_returned: sumOf((g) => g.cause === 'withdrawal' && g.type === BILL_TYPE.amount_rolled_back),
    withdrawals_in_flight: num(inFlight?.total),
  };

  // 3. The liability: each account's balance after its last bill before the end.
  const balances = await rowsOf<{ kind: number; owed: string; debts: string; accounts: string }>(ex, sql`
    SELECT account_kind AS kind, coalesce(sum(balance_after) FILTER (WHERE balance_after > 0), 0) AS owed,
           coalesce(sum(balance_after) FILTER (WHERE balance_after < 0), 0) AS debts, count(*) FILTER (WHERE balance_after <> 0) AS accounts
    FROM (SELECT DISTINCT ON (bettor_id, account_kind) bettor_id, account_kind, balance_after FROM ${ledger} b
          WHERE created_at < ${t}::timestamptz ORDER BY bettor_id, account_kind, id DESC) last
    GROUP BY account_kind`);
  const of = (kind: number) => balances.find((b) => Number(b.kind) === kind);
  const liability = {
    cash: num(of(ACCOUNT_KIND.cash)?.owed),
    credit: num(of(ACCOUNT_KIND.credit)?.owed),
    total: num(of(ACCOUNT_KIND.cash)?.owed) + num(of(ACCOUNT_KIND.credit)?.owed),
    cash_debts: num(of(ACCOUNT_KIND.cash)?.debts),
    credit_debts: num(of(ACCOUNT_KIND.credit)?.debts),
    accounts: num(of(ACCOUNT_KIND.cash)?.accounts) + num(of(ACCOUNT_KIND.credit)?.accounts),
  };

  // 4. Open bets at the end: placed before it, undecided then. The status at the end is the one before the first
  //    status change after it (an order changed since), else the status now.
  const [open] = await rowsOf<{ n: string; stakes: string; payout: string }>(ex, sql`
    SELECT count(*) AS n, coalesce(sum(o.stake), 0) AS stakes, coalesce(sum(o.potential_payout), 0) AS payout
    FROM orders o
    WHERE o.created_at < ${t}::timestamptz AND (o.status = ${ORDER_STATUS.pending} OR o.updated_at >= ${t}::timestamptz)
      AND coalesce((SELECT (e.before ->> 'status')::int FROM order_events e
                     WHERE e.order_id = o.id AND e.created_at >= ${t}::timestamptz AND e.after ->> 'status' IS NOT NULL
                     ORDER BY e.id LIMIT 1), o.status) = ${ORDER_STATUS.pending}`);
  const openBets = { orders: num(open?.n), stakes: num(open?.stakes), potential_payout: num(open?.payout) };

  // 5. The ledger check, as of the close.
  const v = await ledgerViolations(ex, ledgerRows);
  const problems = v.counts.balances + v.counts.bills + v.counts.chains + v.counts.journal;
  const ledgerCheck: CloseLedger = { ok: problems === 0, problems, counts: v.counts, balances: v.balances, bills: v.bills, chains: v.chains, journal: v.journal };

  return { day, from: f, to: t, products, total, liability, open_bets: openBets, payments, movement, ledger: ledgerCheck };
}

/** The digest of a close's figures: the same figures, the same digest (keys in the order computeClose writes them). */
export const digestOf = (figures: CloseFigures) => crypto.createHash('sha256').update(JSON.stringify(figures)).digest('hex');

/** One figure of a close by its path (`products.sports.ggr`, `payments.operators.6.deposits`, `ledger.ok`). */
function flatten(value: unknown, path: string, out: Map<string, unknown>) {
  if (Array.isArray(value)) {
    // Operators by pay type; other lists (the ledger check's rows) as a whole.
    if (value.every((v) => v && typeof v === 'object' && 'pay_type' in v)) for (const v of value) flatten(v, `${path}.${(v as { pay_type: number }).pay_type}`, out);
    else out.set(path, JSON.stringify(value));
    return;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (k !== 'pay_type') flatten(v, path ? `${path}.${k}` : k, out);
    return;
  }
  out.set(path, value);
}

/** The figures that differ between two closes of a day: each path with its value in `a` and in `b`. */
export function differences(a: CloseFigures, b: CloseFigures): { path: string; before: unknown; after: unknown }[] {
  const x = new Map<string, unknown>();
  const y = new Map<string, unknown>();
  flatten(a, '', x);
  flatten(b, '', y);
  const out: { path: string; before: unknown; after: unknown }[] = [];
  for (const path of new Set([...x.keys(), ...y.keys()])) {
    const before = x.get(path) ?? null;
    const after = y.get(path) ?? null;
    if (JSON.stringify(before) !== JSON.stringify(after)) out.push({ path, before, after });
  }
  return out;
}
