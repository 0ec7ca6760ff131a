/**
 * Payments as other modules see it (issue 26: a module reaches another only through its index.ts): who
 * acts on a withdrawal, the payment settings, the operators' adapters, the checks another pay type adds
 * to an approval, a withdrawal asked again of its operator, and recharges received in bulk (the TRON
 * watcher's deposits). Routes are registered by the composition root.
 */
export { paymentSettings, type Actor } from './shared.js';
// Issue 30 (daily close): the house clearing account of each pay type (USDT has its own).
export { clearingOf } from './shared.js';
export { paymentsOf } from './callbacks.js';
export { approvalChecks, holdWithdrawal } from './withdrawals.js';
export type { WithdrawalRecord } from './shared.js';
export { recordReceivedRecharges } from './recharges.js';
export { requeryWithdrawal } from './reconciliation.js';
export { statementRoutes } from './statements/routes.js';
export type { MobileMoneyOperator, PayType } from './operators.js';

// Read-only faces of the payments' tables for other modules' lists and figures (platform/read-model.ts):
// the TRON screens list USDT recharges and withdrawals, statistics counts paid ones.
import { readModel } from '../../platform/read-model.js';
import { recharges as rechargesTable, withdrawals as withdrawalsTable } from './schema.js';
export const recharges = readModel(rechargesTable);
export const withdrawals = readModel(withdrawalsTable);
import { paymentConfig as paymentConfigTable } from './schema.js';
/** The payment settings row (the reports' significant events read the four-eyes threshold `large_withdrawal`). */
export const paymentConfig = readModel(paymentConfigTable);
