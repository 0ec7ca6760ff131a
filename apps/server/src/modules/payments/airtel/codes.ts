import type { OperatorStatus } from '../operators.js';

/**
 * Airtel Money Open API's documented outcomes and what they mean to us (issue 28). Two vocabularies:
 *  - the transaction status (`data.transaction.status` of an enquiry or a disbursement answer, and a
 *    callback's `transaction.status_code`): TS, TF, TA, TIP (and TE, seen in Airtel's country portals);
 *  - the response code (`status.response_code`): DP008… for collections, DP009… for disbursements.
 * Tables as published in the Collection-APIs and Disbursement-APIs "error codes" pages of the Airtel
 * developer portals. Our mapping never says "failed" unless Airtel says the transaction did not and will
 * not happen: ambiguous, timed out, not found, "similar transaction exists" are "unknown" (a person or a
 * later enquiry decides; never a refund on them).
 */

export interface CodeInfo {
  mapped: OperatorStatus;
  title: string;
  description: string;
}

export const TRANSACTION_STATUSES: Record<string, CodeInfo> = {
  TS: { mapped: 'success', title: 'Transaction Success', description: 'The transaction is successful.' },
  TF: { mapped: 'failed', title: 'Transaction Failed', description: 'The transaction failed.' },
  TA: { mapped: 'unknown', title: 'Transaction Ambiguous', description: 'The transaction is in an ambiguous state: enquire again.' },
  TIP: { mapped: 'pending', title: 'Transaction In Progress', description: 'The transaction is in progress.' },
  TE: { mapped: 'failed', title: 'Transaction Expired', description: 'The transaction expired before the subscriber confirmed it.' },
};

export const COLLECTION_CODES: Record<string, CodeInfo> = {
  DP00800001000: { mapped: 'unknown', title: 'Ambiguous', description: 'The transaction is still processing and is in ambiguous state. Please do the transaction enquiry to fetch the transaction status.' },
  DP00800001001: { mapped: 'success', title: 'Success', description: 'Transaction is successful.' },
  DP00800001002: { mapped: 'failed', title: 'Incorrect Pin', description: 'Incorrect pin has been entered.' },
  DP00800001003: { mapped: 'failed', title: 'Exceeds withdrawal amount limit(s)', description: 'The User has exceeded their wallet allowed transaction limit.' },
  DP00800001004: { mapped: 'failed', title: 'Invalid Amount', description: 'The amount User is trying to transfer is less than the minimum amount allowed.' },
  DP00800001005: { mapped: 'failed', title: 'Transaction ID is invalid', description: "User didn't enter the pin." },
  DP00800001006: { mapped: 'pending', title: 'In process', description: 'Transaction in pending state. Please check after sometime.' },
  DP00800001007: { mapped: 'failed', title: 'Not enough balance', description: 'User wallet does not have enough money to cover the payable amount.' },
  DP00800001008: { mapped: 'failed', title: 'Refused', description: 'The transaction was refused.' },
  DP00800001009: { mapped: 'failed', title: 'Do not honor', description: 'This is a generic refusal that has several possible causes.' },
  DP00800001010: { mapped: 'failed', title: 'Transaction not permitted to Payee', description: 'Payee is already initiated for churn or barred or not registered on Airtel Money platform.' },
  DP00800001024: { mapped: 'unknown', title: 'Transaction Timed Out', description: 'The transaction was timed out.' },
  DP00800001025: { mapped: 'unknown', title: 'Transaction Not Found', description: 'The transaction was not found.' },
  DP00800001026: { mapped: 'failed', title: 'Forbidden', description: 'X-signature and payload did not match.' },
  DP00800001029: { mapped: 'failed', title: 'Transaction Expired', description: 'Transaction has been expired.' },
};

export const DISBURSEMENT_CODES: Record<string, CodeInfo> = {
  DP00900001000: { mapped: 'unknown', title: 'Ambiguous', description: 'The transaction is still processing and is in ambiguous state. Please do the transaction enquiry to fetch the transaction status.' },
  DP00900001001: { mapped: 'success', title: 'Success', description: 'Transaction is successful.' },
  DP00900001003: { mapped: 'failed', title: 'Maximum transaction limit reached', description: 'Maximum transaction limit reached for the day.' },
  DP00900001004: { mapped: 'failed', title: 'Invalid Amount', description: 'Amount entered is out of range with respect to defined limits.' },
  DP00900001005: { mapped: 'failed', title: 'Failed', description: 'Transaction failed.' },
  DP00900001006: { mapped: 'pending', title: 'Processing', description: 'Transaction is in process.' },
  DP00900001007: { mapped: 'failed', title: 'Insufficient Funds', description: 'Not enough funds in account to complete the transaction.' },
  DP00900001009: { mapped: 'failed', title: 'Invalid Initiatee', description: 'Initiatee of the transaction is invalid.' },
  DP00900001010: { mapped: 'failed', title: 'User not allowed', description: 'Payer is not an allowed user.' },
  // "Similar information already exists": possibly our own earlier request, so the money may have moved.
  DP00900001011: { mapped: 'unknown', title: 'Transaction not allowed', description: 'Transaction with similar information already exists in this system.' },
  DP00900001012: { mapped: 'failed', title: 'Invalid mobile number', description: 'Mobile number entered is incorrect.' },
  DP00900001013: { mapped: 'failed', title: 'Refused', description: 'The transaction was refused.' },
  DP00900001014: { mapped: 'unknown', title: 'Transaction Timed Out', description: 'The transaction may be processed or failed due to time out. To know the exact status please do the transaction enquiry.' },
  DP00900001015: { mapped: 'unknown', title: 'Transaction Not Found', description: 'The transaction was not found.' },
  DP00900001016: { mapped: 'failed', title: 'Forbidden', description: 'X-signature and payload did not match.' },
  DP00900001017: { mapped: 'unknown', title: 'Duplicate transaction Id', description: 'Duplicate Transaction Id. To know the status of the actual transaction, please do transaction enquiry.' },
};

/** The codes the client acts on by name. */
export const CODE = {
  collectInProcess: 'DP00800001006',
  collectSuccess: 'DP00800001001',
  collectNotFound: 'DP00800001025',
  collectForbidden: 'DP00800001026',
  collectInvalidAmount: 'DP00800001004',
  collectAmbiguous: 'DP00800001000',
  disburseSuccess: 'DP00900001001',
  disburseProcessing: 'DP00900001006',
  disburseNotFound: 'DP00900001015',
  disburseForbidden: 'DP00900001016',
  disburseDuplicate: 'DP00900001017',
  disburseInvalidAmount: 'DP00900001004',
  disburseAmbiguous: 'DP00900001000',
} as const;

/** Router errors of the gateway about the disbursement PIN (outside the DP envelope): nothing was done. */
export const ROUTER_CODES: Record<string, string> = {
  ROUTER114: 'An error occurred while validating the pin.',
  ROUTER115: 'Pin you have entered is incorrect.',
  ROUTER116: 'The encrypted value of the pin is incorrect. Kindly re-check the encryption mechanism.',
};

export type Kind = 'collect' | 'disburse';
const tableOf = (kind: Kind) => (kind === 'collect' ? COLLECTION_CODES : DISBURSEMENT_CODES);

/** A code as a reason a person reads (the failure reason of a recharge or withdrawal). */
export function describeCode(code: string): string | undefined {
  const c = COLLECTION_CODES[code] ?? DISBURSEMENT_CODES[code];
  return c ? `${c.title}: ${c.description} (${code})` : undefined;
}

/**
 * What an answer about a transaction means: its status and its response code together. Either alone
 * decides; when both are present, any "unknown" or a contradiction (TS with a failure code, TF with a
 * success code) is "unknown"; otherwise the transaction status wins (a "processing" code describes the
 * request, TS/TF the transaction). Absent both: unknown.
 */
export function outcomeOf(kind: Kind, status: string | undefined, code: string | undefined): { status: OperatorStatus; reason?: string } {
  const s = status ? TRANSACTION_STATUSES[status]?.mapped ?? 'unknown' : undefined;
  const c = code ? tableOf(kind)[code]?.mapped ?? 'unknown' : undefined;
  let mapped: OperatorStatus;
  if (s === undefined) mapped = c ?? 'unknown';
  else if (c === undefined) mapped = s;
  else if (s === 'unknown' || c === 'unknown') mapped = 'unknown';
  else if ((s === 'success' && c === 'failed') || (s === 'failed' && c === 'success')) mapped = 'unknown';
  else mapped = s;
  if (mapped !== 'failed') return { status: mapped };
  const reason = (code && describeCode(code)) ?? (status ? `${TRANSACTION_STATUSES[status]?.title ?? status} (${status})` : 'Failed at Airtel Money');
  return { status: 'failed', reason };
}
