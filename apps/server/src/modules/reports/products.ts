import { sql, type SQL } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE } from '@dau/domain';
import { HOUSE } from '../money/index.js';
import type { Executor } from '../../platform/db.js';

/**
 * The products the reports count and what each counts: one definition for the daily close
 * (./close/figures.ts, a day's bills) and the Gaming Board's return (./tax/compute.ts, a month's bills), so
 * that a month's GGR is the sum of its days' closes. Both are a cash basis: the money of the period, whenever
 * the bet was placed (the statistics screens count decided orders instead):
 *
 * - a product's bills are those caused by it (`bills.cause_type`: order, jackpot, casino, racing; racing's
 *   coin conversions, bills 15 and 16, left out), on both accounts (cash and bonus funds);
 * - `stakes` = −Σ of its bet bills: sports 1 (cash) and credit 103 (bonus funds), jackpot 3 debits (either
 *   account), casino 23, virtual racing 13; `bonus_stakes` the part of them paid with bonus funds;
 * - everything else those bills move is paid back: wins (2, 3 credits, 5, 14, 24), refunds of void bets and
 *   corrections (8, credit 104), the sports accumulator bonus and inviter reward (2, 8, 10), casino free
 *   wins (25);
 * - `tax`, the withholding tax: the product's journal lines on `withholding_tax_payable` in the period
 *   (sports: bill types 2 and 8; jackpot: 3 and 5); `bonuses`: what the product paid from the `bonuses`
 *   account, its lines there (sports: accumulator bonuses and inviter rewards, 2, 8 and 10; casino: free
 *   wins, 25), as paid;
 * - gross `payouts` = paid back − bonuses + tax (the bettor is credited net of tax), plus the jackpot prizes
 *   paid outside the balances (the lines on `jackpot_prizes_paid_outside`): the winnings before the tax,
 *   without the bonuses (the operator's cost, not a winning);
 * - GGR = stakes − payouts (the gaming tax is on a positive GGR only), NGR = GGR − bonuses;
 * - `bets`: the distinct causes among the period's bet bills (an order paid with cash and bonus funds is one
 *   bet).
 */

export const PRODUCT_KEYS = ['sports', 'jackpot', 'casino', 'racing'] as const;
export type ProductKey = (typeof PRODUCT_KEYS)[number];

/** A bill of the period, grouped: its cause, account, type and direction. */
export interface BillGroup {
  cause: string;
  kind: number;
  type: number;
  debit: boolean;
  total: number;
}

/** What the period's bills of a product are: its bet bills (the stakes), and its other bills (paid back). */
export interface ProductDef {
  cause: string;
  betTypes: readonly number[];
  bet: (g: BillGroup) => boolean;
  excluded?: (g: BillGroup) => boolean;
  /** The bill types of the product's withholding tax lines (settlement and cashout; jackpot settlement). */
  taxTypes?: readonly number[];
  /** The bill types of the product's lines on the bonuses account. */
  bonusTypes?: readonly number[];
}

export const PRODUCT_OF: Record<ProductKey, ProductDef> = {
  sports: {
    cause: 'order',
    betTypes: [BILL_TYPE.bet, CREDIT_BILL_TYPE.credit_bet],
    bet: (g) => (g.kind === ACCOUNT_KIND.cash ? g.type === BILL_TYPE.bet : g.type === CREDIT_BILL_TYPE.credit_bet),
    taxTypes: [BILL_TYPE.bet_payout, BILL_TYPE.amount_rolled_back],
    bonusTypes: [BILL_TYPE.bet_payout, BILL_TYPE.amount_rolled_back, BILL_TYPE.inviter_profit_reward],
  },
  // A jackpot ticket is paid with bill 3 on either account; a prize is a credit of the same type.
  jackpot: {
    cause: 'jackpot',
    betTypes: [BILL_TYPE.jackpot_payment],
    bet: (g) => g.type === BILL_TYPE.jackpot_payment && g.debit,
    taxTypes: [BILL_TYPE.jackpot_payment, BILL_TYPE.jackpot_result_change],
  },
  casino: {
    cause: 'casino',
    betTypes: [BILL_TYPE.casino_bet],
    bet: (g) => g.kind === ACCOUNT_KIND.cash && g.type === BILL_TYPE.casino_bet,
    bonusTypes: [BILL_TYPE.casino_award],
  },
  racing: {
    cause: 'racing',
    betTypes: [BILL_TYPE.virtual_racing_bet],
    bet: (g) => g.kind === ACCOUNT_KIND.cash && g.type === BILL_TYPE.virtual_racing_bet,
    excluded: (g) => g.type === BILL_TYPE.balance_to_racing_coin || g.type === BILL_TYPE.racing_coin_to_balance,
  },
};

/** The causes of the products' bills. */
export const PRODUCT_CAUSES: readonly string[] = PRODUCT_KEYS.map((k) => PRODUCT_OF[k].cause);
/** The house accounts whose journal lines split the products' bills: tax, bonuses, prizes paid outside. */
export const PRODUCT_HOUSE_ACCOUNTS: readonly string[] = [HOUSE.taxPayable, HOUSE.bonuses, HOUSE.jackpotPaidOutside];

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const rowsOf = async <T>(ex: Executor, q: SQL) => ((await ex.execute(q)) as unknown as { rows: T[] }).rows;
const list = <T>(xs: readonly T[]) => sql.join(xs.map((x) => sql`${x}`), sql`, `);
/** An instant as a parameter both drivers read the same way. */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The bills of [from, to) grouped by cause, account, type and direction, from `ledger` (ledgerBills: the
 * bills and their archives). `causes`: only those causes (all when absent).
 */
export async function billGroups(ex: Executor, ledger: SQL, from: Date, to: Date, causes?: readonly string[]): Promise<BillGroup[]> {
  const only = causes ? sql` AND cause_type IN (${list(causes)})` : sql``;
  return (
    await rowsOf<{ cause: string; kind: number; type: number; debit: boolean | string; total: string }>(ex, sql`
      SELECT cause_type AS cause, account_kind AS kind, type, amount < 0 AS debit, sum(amount) AS total
      FROM ${ledger} b WHERE created_at >= ${at(from)} AND created_at < ${at(to)}${only}
      GROUP BY 1, 2, 3, 4`)
  ).map((g) => ({ cause: g.cause, kind: Number(g.kind), type: Number(g.type), debit: g.debit === true || String(g.debit) === 't', total: num(g.total) }));
}

/** The bets of each product's cause in [from, to): its distinct causes among the period's bet bills. */
export async function betCounts(ex: Executor, ledger: SQL, from: Date, to: Date): Promise<Map<string, number>> {
  return new Map(
    (
      await rowsOf<{ cause: string; n: string }>(ex, sql`
        SELECT cause_type AS cause, count(DISTINCT cause_id) AS n FROM ${ledger} b
        WHERE created_at >= ${at(from)} AND created_at < ${at(to)} AND amount < 0 AND (${sql.join(
          PRODUCT_KEYS.map((k) => sql`(cause_type = ${PRODUCT_OF[k].cause} AND type IN (${list(PRODUCT_OF[k].betTypes)}))`),
          sql` OR `,
        )})
        GROUP BY 1`)
    ).map((r) => [r.cause, num(r.n)]),
  );
}

/** The journal lines of [from, to) on house accounts, summed per account and bill type. */
export interface HouseSum {
  account: string;
  billType: number;
  total: number;
  n: number;
}

/** The journal lines of [from, to) on `accounts` (the products' house accounts unless told), per account and bill type. */
export async function houseSums(ex: Executor, from: Date, to: Date, accounts: readonly string[] = PRODUCT_HOUSE_ACCOUNTS): Promise<HouseSum[]> {
  return (
    await rowsOf<{ account: string; bill_type: number; total: string; n: string }>(ex, sql`
      SELECT account, bill_type, sum(amount) AS total, count(*) AS n FROM house_entries
      WHERE account IN (${list(accounts)}) AND created_at >= ${at(from)} AND created_at < ${at(to)}
      GROUP BY 1, 2`)
  ).map((h) => ({ account: h.account, billType: Number(h.bill_type), total: num(h.total), n: num(h.n) }));
}

/** The sum of the lines on `account` (of `types` only, when given). */
export const houseSum = (house: readonly HouseSum[], account: string, types?: readonly number[]) =>
  house.filter((h) => h.account === account && (!types || types.includes(h.billType))).reduce((s, h) => s + h.total, 0);

/** A product's figures of a period (the key order is the daily close's). */
export interface ProductSums {
  bets: number;
  stakes: number;
  bonus_stakes: number;
  payouts: number;
  ggr: number;
  bonuses: number;
  ngr: number;
  tax: number;
}

export const emptyProduct = (): ProductSums => ({ bets: 0, stakes: 0, bonus_stakes: 0, payouts: 0, ggr: 0, bonuses: 0, ngr: 0, tax: 0 });

/**
 * Each product's figures from the period's bill groups (billGroups) and house lines (houseSums). `bets`: the
 * bet counts per cause (betCounts); 0 without them.
 */
export function productSums(groups: readonly BillGroup[], house: readonly HouseSum[], bets?: ReadonlyMap<string, number>): Record<ProductKey, ProductSums> {
  const out = {} as Record<ProductKey, ProductSums>;
  for (const key of PRODUCT_KEYS) {
    const def = PRODUCT_OF[key];
    const mine = groups.filter((g) => g.cause === def.cause && !def.excluded?.(g));
    const betBills = mine.filter(def.bet);
    const p = emptyProduct();
    p.bets = bets?.get(def.cause) ?? 0;
    p.stakes = -betBills.reduce((s, g) => s + g.total, 0);
    p.bonus_stakes = -betBills.filter((g) => g.kind === ACCOUNT_KIND.credit).reduce((s, g) => s + g.total, 0);
    const paidBack = mine.filter((g) => !def.bet(g)).reduce((s, g) => s + g.total, 0);
    p.tax = def.taxTypes ? houseSum(house, HOUSE.taxPayable, def.taxTypes) : 0;
    // A bonus paid is a debit of the bonuses account (its counter-entry); a bonus taken back, a credit.
    p.bonuses = def.bonusTypes ? -houseSum(house, HOUSE.bonuses, def.bonusTypes) : 0;
    const outside = key === 'jackpot' ? houseSum(house, HOUSE.jackpotPaidOutside) : 0;
    p.payouts = paidBack - p.bonuses + p.tax + outside;
    p.ggr = p.stakes - p.payouts;
    p.ngr = p.ggr - p.bonuses;
    out[key] = p;
  }
  return out;
}
