/**
 * Payments as other modules see it (issue 26: a module reaches another only through its index.ts): who
 * acts on a withdrawal, the payment settings, the operators' adapters, the checks another pay type adds
 * to an approval, a withdrawal asked again of its operator, and recharges received in bulk (the TRON
 * watcher's deposits). Routes are registered by the composition root.
 */
export { approvalChecks, paymentSettings, paymentsOf, recordReceivedRecharges, requeryWithdrawal, type Actor } from './service.js';
export type { MobileMoneyOperator, PayType } from './operators.js';
