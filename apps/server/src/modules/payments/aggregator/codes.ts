import type { OperatorStatus, PayType } from '../operators.js';

/**
 * Selcom's codes (the aggregator chosen for Tigo Pesa and HaloPesa, see ./index.ts) and what they mean to us.
 *
 * Selcom's API reference documents one result table for every transaction API (wallet cash-in, checkout, their
 * status queries): `000` SUCCESS, `111`/`927` INPROGRESS ("query to know the exact status"), `999` AMBIGOUS
 * ("status unknown, wait for recon") and "FAIL: all others". It shows `403` FAIL "No response from upstream
 * system" as its failure example. It publishes no table of the failure codes themselves, so the failure codes
 * below past `403` are the ones our sandbox uses (each named so a failed payment says why); a code we do not
 * list is never read as a failure by a status query (see `queryStatusOf`).
 */

export interface ResultCode {
  result: 'SUCCESS' | 'INPROGRESS' | 'AMBIGOUS' | 'FAIL';
  /** What the transaction's state is when Selcom answers this code about it. */
  status: OperatorStatus;
  text: string;
  /** Documented by Selcom (false: the sandbox's own choice of failure code). */
  documented: boolean;
}

export const RESULT_CODES = {
  '000': { result: 'SUCCESS', status: 'success', text: 'Transaction successful', documented: true },
  '111': { result: 'INPROGRESS', status: 'pending', text: 'Transaction in progress, query to know the exact status', documented: true },
  '927': { result: 'INPROGRESS', status: 'pending', text: 'Transaction in progress, query to know the exact status', documented: true },
  '999': { result: 'AMBIGOUS', status: 'unknown', text: 'Transaction status unknown, wait for recon', documented: true },
  '403': { result: 'FAIL', status: 'failed', text: 'No response from upstream system', documented: true },
  // The sandbox's failure codes (Selcom: "FAIL: all others").
  '051': { result: 'FAIL', status: 'failed', text: "Insufficient funds in the payer's wallet", documented: false },
  '055': { result: 'FAIL', status: 'failed', text: 'Wrong PIN entered by the subscriber', documented: false },
  '014': { result: 'FAIL', status: 'failed', text: 'Subscriber not registered for mobile money', documented: false },
  '068': { result: 'FAIL', status: 'failed', text: 'Operator timeout: the subscriber did not confirm in time', documented: false },
  '070': { result: 'FAIL', status: 'failed', text: 'Cancelled by the subscriber on the USSD prompt', documented: false },
  '071': { result: 'FAIL', status: 'failed', text: 'USSD session expired: the subscriber did not answer the prompt', documented: false },
  '012': { result: 'FAIL', status: 'failed', text: 'Invalid amount', documented: false },
  '015': { result: 'FAIL', status: 'failed', text: 'Invalid utility code or wallet not supported', documented: false },
  // A status query about a transid / order_id Selcom has no record of: it says nothing of the money.
  '404': { result: 'FAIL', status: 'unknown', text: 'Transaction not found', documented: false },
} as const satisfies Record<string, ResultCode>;
export type ResultCodeKey = keyof typeof RESULT_CODES;
export const NOT_FOUND: ResultCodeKey = '404';
export const isResultCode = (c: unknown): c is ResultCodeKey => typeof c === 'string' && Object.hasOwn(RESULT_CODES, c);

/**
 * What a transaction API's own answer (wallet-payment, walletcashin/process) means. An unlisted code is a
 * FAIL as Selcom documents it ("all others"): the client confirms such a refusal by a status query before
 * it believes that nothing moved (a repeated transid may be refused although the first one paid).
 */
export function answerStatusOf(code: unknown): OperatorStatus {
  if (isResultCode(code)) return RESULT_CODES[code].status;
  return 'failed';
}

/**
 * What a status query's code means for the transaction it is about. Only the codes listed as failures are
 * a failure: anything else we do not know is 'unknown' (reconciliation by hand, never a refund on a guess).
 */
export function queryStatusOf(code: unknown): OperatorStatus {
  if (isResultCode(code)) return RESULT_CODES[code].status;
  return 'unknown';
}

/** Checkout orders' `payment_status` (order-status and the webhook), and our reading of each. */
export const PAYMENT_STATUSES = {
  PENDING: 'pending',
  INPROGRESS: 'pending',
  COMPLETED: 'success',
  CANCELLED: 'failed',
  USERCANCELLED: 'failed',
  REJECTED: 'failed',
} as const satisfies Record<string, OperatorStatus>;
export type PaymentStatus = keyof typeof PAYMENT_STATUSES;

/** An unlisted payment_status is 'unknown': never a failure on a word we cannot read. */
export function paymentStatusOf(s: unknown): OperatorStatus {
  return typeof s === 'string' && Object.hasOwn(PAYMENT_STATUSES, s) ? PAYMENT_STATUSES[s as PaymentStatus] : 'unknown';
}

/**
 * Wallet cash-in utility codes, by our pay type (Selcom's list: VMCASHIN Vodacom M-Pesa, AMCASHIN Airtel
 * Money, TPCASHIN Tigo Pesa / Mixx by Yas, HPCASHIN HaloPesa; EZCASHIN EzyPesa and TTCASHIN TTCL Pesa are
 * networks we do not carry).
 */
export const CASHIN_UTILITY: Record<PayType, string> = { 3: 'TPCASHIN', 4: 'AMCASHIN', 6: 'VMCASHIN', 7: 'HPCASHIN' };
export function payTypeOfUtility(code: unknown): PayType | undefined {
  for (const [p, u] of Object.entries(CASHIN_UTILITY)) if (u === code) return Number(p) as PayType;
  return undefined;
}

/** The wallet's name in Selcom's checkout `channel` field, by pay type. */
export const CHECKOUT_CHANNEL: Record<PayType, string> = { 3: 'TIGOPESA', 4: 'AIRTELMONEY', 6: 'MPESA', 7: 'HALOPESA' };

/** A readable reason for a failure: the code's text (or Selcom's message) with the code itself. */
export function reasonOf(code: string, message?: string, paymentStatus?: string): string {
  const text = message?.trim() || (isResultCode(code) ? RESULT_CODES[code].text : 'Failed at Selcom');
  return `${text} (Selcom ${paymentStatus ? `${paymentStatus}, ` : ''}resultcode ${code})`;
}
