import { z } from 'zod';
import { isDay } from '@dau/domain';
import { answerRow, component } from './answers.js';
import { int32 } from './input.js';

/**
 * Request and answer shapes of the daily close and the ledger self-check (issue 30;
 * apps/server/src/modules/reports/close). Money in cents of TSh; a day is a business day of
 * Africa/Dar_es_Salaam (YYYY-MM-DD). The console's list declaration, without zod, is ./close-resources.ts.
 */

export type { CloseProductKey } from './close-resources.js';

const cents = () => z.number().int();

/** One product over the day (or all of them): see apps/server/src/modules/reports/close/figures.ts. */
export const closeProduct = z.object({
  /** Bets placed that day (orders, tickets, rounds, racing bets). */
  bets: z.number().int(),
  /** Bet bills of the day: cash and bonus funds. */
  stakes: cents(),
  /** The part of the stakes paid with bonus funds. */
  bonus_stakes: cents(),
  /** Gross payouts of the day (wins before withholding tax, refunds, corrections), bonuses apart. */
  payouts: cents(),
  ggr: cents(),
  bonuses: cents(),
  ngr: cents(),
  /** Withholding tax on winnings withheld that day. */
  tax: cents(),
});
export type CloseProduct = z.infer<typeof closeProduct>;

/** Deposits and withdrawals of one operator (pay type; 10 is USDT) over the day. */
export const closeOperator = z.object({
  pay_type: z.number().int(),
  deposits: cents(),
  deposit_count: z.number().int(),
  /** Withdrawals paid out that day. */
  withdrawals: cents(),
  withdrawal_count: z.number().int(),
  /** Operators' fees are not booked in the ledger: null. */
  fees: cents().nullable(),
});
export type CloseOperator = z.infer<typeof closeOperator>;

/** What breaks the ledger's invariants: each kind's count and its first rows (money's ledgerViolations). */
export const ledgerCounts = z.object({ balances: z.number().int(), bills: z.number().int(), chains: z.number().int(), journal: z.number().int() });
const ledgerRows = {
  /** A bettor's account whose balance is not the sum of its bills (difference = balance − sum). */
  balances: z.array(z.object({ bettor_id: z.number().int(), phone: z.string(), account_kind: z.number().int(), balance: cents(), bills_sum: cents(), difference: cents() })),
  /** A bill whose before + amount is not its after, or that leaves a balance negative without being a correction. */
  bills: z.array(
    z.object({
      bill_id: z.number().int(), bettor_id: z.number().int(), account_kind: z.number().int(), type: z.number().int(), amount: cents(),
      balance_before: cents(), balance_after: cents(),
    }),
  ),
  /** A bill that does not chain from the previous bill of its account. */
  chains: z.array(z.object({ bill_id: z.number().int(), bettor_id: z.number().int(), account_kind: z.number().int(), balance_before: cents(), previous_after: cents() })),
  /** A journal transaction (bills and house entries) that does not sum to zero. */
  journal: z.array(z.object({ txn_id: z.string(), total: cents() })),
};

/** The ledger check as a close keeps it. */
export const closeLedger = z.object({ ok: z.boolean(), problems: z.number().int(), counts: ledgerCounts, ...ledgerRows });
export type CloseLedger = z.infer<typeof closeLedger>;

/** Every figure of a day's close. */
export const closeFigures = component(
  z.object({
    day: z.string(),
    /** The instants the day spans, [from, to). */
    from: z.string(),
    to: z.string(),
    products: z.object({ sports: closeProduct, jackpot: closeProduct, casino: closeProduct, racing: closeProduct }),
    total: closeProduct,
    /** Bettors' balances at the end of the day, from their last bill before it: owed (positive) and debts (negative) apart. */
    liability: z.object({ cash: cents(), credit: cents(), total: cents(), cash_debts: cents(), credit_debts: cents(), accounts: z.number().int() }),
    /** Sports orders placed before the end and still undecided then. */
    open_bets: z.object({ orders: z.number().int(), stakes: cents(), potential_payout: cents() }),
    payments: z.object({
      operators: z.array(closeOperator),
      deposits: cents(),
      deposit_count: z.number().int(),
      withdrawals: cents(),
      withdrawal_count: z.number().int(),
      /** Withdrawals asked that day (the money held), and held money returned (refused, failed, timed out). */
      withdrawals_requested: cents(),
      withdrawals_returned: cents(),
      /** Held for withdrawals not paid out yet at the end of the day. */
      withdrawals_in_flight: cents(),
    }),
    /** The change of all bettors' balances over the day (cash + credit), by what caused it. */
    movement: z.object({
      cash: cents(), credit: cents(), products: cents(), deposits: cents(), withdrawals: cents(), promotions: cents(), adjustments: cents(),
      racing_coins: cents(), other: cents(),
    }),
    ledger: closeLedger,
  }),
  'CloseFigures',
);
export type CloseFigures = z.infer<typeof closeFigures>;

/** One stored run of a day's close. */
export const closeRunRow = answerRow({
  id: 'number', day: 'string', run: 'number', source: 'string', created_by: 'number?', created_by_account: 'string?', digest: 'string', duration_ms: 'number',
  create_time: 'string',
}).extend({ figures: closeFigures });
export type CloseRunRow = z.infer<typeof closeRunRow>;

/** A figure that differs between a run and the run before it (path such as `products.sports.ggr`). */
export const closeDifference = z.object({ run: z.number().int(), previous_run: z.number().int(), path: z.string(), before: z.unknown(), after: z.unknown() });

/**
 * GET /reports/daily_closes/:day: every run of the day (newest first), what differs between consecutive runs,
 * and the roll-forward against the day before (its latest close's balances + this day's movement), when closed.
 */
export const closeDayAnswer = z.object({
  day: z.string(),
  runs: z.array(closeRunRow),
  differences: z.array(closeDifference),
  roll_forward: z
    .object({ previous_day: z.string(), previous_balances: cents(), movement: cents(), expected: cents(), balances: cents(), ok: z.boolean() })
    .nullable(),
});
export type CloseDayAnswer = z.infer<typeof closeDayAnswer>;

/** A business day, YYYY-MM-DD (a real calendar day). */
const closeDay = () => z.string().refine(isDay, 'a day, YYYY-MM-DD');
export const closeDayParams = z.object({ day: closeDay() });
export const closeRunBody = z.strictObject({ day: closeDay() });

/** POST /reports/daily_closes/run: the run stored, or the day's latest when the figures are the same (`changed` false). */
export const closeRunAnswer = z.object({ changed: z.boolean(), run: closeRunRow });
export type CloseRunAnswer = z.infer<typeof closeRunAnswer>;

export const ledgerCheckBody = z.strictObject({
  /** Offending rows answered per kind (default 100). */
  limit: int32(1, 1000).optional(),
});
/** POST /reports/ledger_check/run: the invariants now, with the offending rows. */
export const ledgerCheckAnswer = component(
  z.object({ ok: z.boolean(), problems: z.number().int(), counts: ledgerCounts, ...ledgerRows, limit: z.number().int(), checked_at: z.string(), duration_ms: z.number().int() }),
  'LedgerCheck',
);
export type LedgerCheckAnswer = z.infer<typeof ledgerCheckAnswer>;
