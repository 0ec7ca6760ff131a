import type { CloseProduct, CloseProductKey } from '@dau/contract/ui';

/**
 * The text keys of the close's figures, by the figure's name in the answer (written out, so that every key
 * is one the text test finds): products, product figures, the balances' causes, the liability's parts.
 */
export const PRODUCT_LABEL: Record<CloseProductKey | 'total', string> = {
  sports: 'reports.close.product.sports',
  jackpot: 'reports.close.product.jackpot',
  casino: 'reports.close.product.casino',
  racing: 'reports.close.product.racing',
  total: 'reports.close.product.total',
};

export const FIGURE_LABEL: Record<keyof CloseProduct, string> = {
  bets: 'reports.close.figure.bets',
  stakes: 'reports.close.figure.stakes',
  bonus_stakes: 'reports.close.figure.bonus_stakes',
  payouts: 'reports.close.figure.payouts',
  ggr: 'reports.close.figure.ggr',
  bonuses: 'reports.close.figure.bonuses',
  ngr: 'reports.close.figure.ngr',
  tax: 'reports.close.figure.tax',
};

export const MOVEMENT_LABEL: Record<string, string> = {
  products: 'reports.close.movementKind.products',
  deposits: 'reports.close.movementKind.deposits',
  withdrawals: 'reports.close.movementKind.withdrawals',
  promotions: 'reports.close.movementKind.promotions',
  adjustments: 'reports.close.movementKind.adjustments',
  racing_coins: 'reports.close.movementKind.racing_coins',
  other: 'reports.close.movementKind.other',
  cash: 'reports.close.cash',
  credit: 'reports.close.credit',
};

export const LIABILITY_LABEL: Record<string, string> = {
  cash: 'reports.close.cash',
  credit: 'reports.close.credit',
  total: 'reports.close.total',
  cash_debts: 'reports.close.cashDebts',
  credit_debts: 'reports.close.creditDebts',
  accounts: 'reports.close.accounts',
};

export const OPEN_LABEL: Record<string, string> = {
  orders: 'reports.close.openOrders',
  stakes: 'reports.close.openStakes',
  potential_payout: 'reports.close.openPayout',
};

export const PAYMENT_LABEL: Record<string, string> = {
  deposits: 'reports.close.deposits',
  deposit_count: 'reports.close.depositCount',
  withdrawals: 'reports.close.withdrawals',
  withdrawal_count: 'reports.close.withdrawalCount',
  fees: 'reports.close.fees',
  withdrawals_requested: 'reports.close.requested',
  withdrawals_returned: 'reports.close.returned',
  withdrawals_in_flight: 'reports.close.inFlight',
};

/** The sections of a close's figures (the first part of a figure's path). */
export const SECTION_LABEL: Record<string, string> = {
  products: 'reports.close.products',
  total: 'reports.close.product.total',
  liability: 'reports.close.liability',
  open_bets: 'reports.close.openBets',
  payments: 'reports.close.payments',
  movement: 'reports.close.movement',
  ledger: 'reports.close.ledger',
};

/** Counts, not money, among the figures. */
export const COUNT_FIGURES = new Set(['bets', 'orders', 'accounts', 'deposit_count', 'withdrawal_count', 'problems']);
