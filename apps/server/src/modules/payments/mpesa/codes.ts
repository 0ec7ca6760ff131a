import type { OperatorStatus } from '../operators.js';

/**
 * The M-Pesa OpenAPI response codes (output_ResponseCode), each with the HTTP status the gateway answers
 * it with, as the OpenAPI portal's "Response Codes" table lists them (openapiportal.m-pesa.com; the same
 * table is published for the Vodacom markets on the gateway: TZN, LES, DRC, MOZ), and what each means for
 * us:
 *  - success: the payment is done (C2B/B2C single stage answer synchronously);
 *  - failed: definitively not done, by the customer's or the transaction's fault (cancelled, wrong PIN,
 *    insufficient balance, invalid MSISDN, limits): a recharge is voided, a withdrawal refunded;
 *  - unknown: the money may or may not have moved (timeouts, internal errors, overload, "unknown status"):
 *    OperatorTimeoutError, then a status query / reconciliation, never a refund;
 *  - duplicate: the gateway already has this reference: ask queryTransactionStatus, never pay again;
 *  - refused: the request itself was refused (credentials, configuration, malformed fields): nothing
 *    moved, but it is ours to fix, not the customer's: OperatorRefusedError (the services keep the payment
 *    for a re-query or retry instead of failing it).
 * A code that is not in this table is treated as unknown (never a refund on a code we do not know).
 */
export type MpesaOutcome = 'success' | 'failed' | 'unknown' | 'duplicate' | 'refused';

export interface MpesaCode {
  http: number;
  description: string;
  outcome: MpesaOutcome;
}

export const MPESA_CODES = {
  'INS-0': { http: 200, description: 'Request processed successfully', outcome: 'success' },
  'INS-1': { http: 500, description: 'Internal Error', outcome: 'unknown' },
  'INS-2': { http: 401, description: 'Invalid API Key', outcome: 'refused' },
  'INS-4': { http: 401, description: 'User is not active', outcome: 'refused' },
  'INS-5': { http: 401, description: 'Transaction cancelled by customer', outcome: 'failed' },
  'INS-6': { http: 401, description: 'Transaction Failed', outcome: 'failed' },
  'INS-9': { http: 408, description: 'Request timeout', outcome: 'unknown' },
  'INS-10': { http: 409, description: 'Duplicate Transaction', outcome: 'duplicate' },
  'INS-13': { http: 400, description: 'Invalid Shortcode Used', outcome: 'refused' },
  'INS-14': { http: 400, description: 'Invalid Reference Used', outcome: 'refused' },
  'INS-15': { http: 400, description: 'Invalid Amount Used', outcome: 'failed' },
  'INS-16': { http: 503, description: 'Unable to handle the request due to a temporary overloading', outcome: 'unknown' },
  'INS-17': { http: 400, description: 'Invalid Transaction Reference. Length Should Be Between 1 and 20.', outcome: 'refused' },
  'INS-18': { http: 400, description: 'Invalid TransactionID Used', outcome: 'refused' },
  'INS-19': { http: 400, description: 'Invalid ThirdPartyReference Used', outcome: 'refused' },
  'INS-20': { http: 400, description: 'Not All Parameters Provided. Please try again.', outcome: 'refused' },
  'INS-21': { http: 400, description: 'Parameter validations failed. Please try again.', outcome: 'refused' },
  'INS-22': { http: 400, description: 'Invalid Operation Type', outcome: 'refused' },
  'INS-23': { http: 400, description: 'Unknown Status. Contact M-Pesa Support', outcome: 'unknown' },
  'INS-24': { http: 400, description: 'Invalid InitiatorIdentifier Used', outcome: 'refused' },
  'INS-25': { http: 400, description: 'Invalid SecurityCredential Used', outcome: 'refused' },
  'INS-26': { http: 400, description: 'Not authorized', outcome: 'refused' },
  // Listed by the OpenAPI markets' tables (not by the v1x table): the fields only OpenAPI has.
  'INS-28': { http: 400, description: 'Invalid ThirdPartyConversationID Used', outcome: 'refused' },
  'INS-30': { http: 400, description: 'Invalid PurchasedItemsDesc Used', outcome: 'refused' },
  'INS-989': { http: 400, description: 'Session Creation Failed', outcome: 'refused' },
  'INS-990': { http: 400, description: 'Customer Transaction Value Limit Breached', outcome: 'failed' },
  'INS-991': { http: 400, description: 'Customer Transaction Count Limit Breached', outcome: 'failed' },
  'INS-993': { http: 400, description: 'Direct Debit Missing', outcome: 'refused' },
  'INS-994': { http: 400, description: 'Direct Debit Already Exists', outcome: 'refused' },
  'INS-995': { http: 400, description: "Customer's Profile Has Problems", outcome: 'failed' },
  'INS-996': { http: 400, description: 'Customer Account Status Not Active', outcome: 'failed' },
  // Answered for a query or reversal of a transaction the gateway does not know: nothing to conclude.
  'INS-997': { http: 400, description: 'Linking Transaction Not Found', outcome: 'unknown' },
  'INS-998': { http: 400, description: 'Invalid Market', outcome: 'refused' },
  'INS-2001': { http: 400, description: 'Initiator authentication error.', outcome: 'refused' },
  'INS-2002': { http: 400, description: 'Receiver invalid.', outcome: 'failed' },
  'INS-2006': { http: 422, description: 'Insufficient balance', outcome: 'failed' },
  'INS-2051': { http: 400, description: 'MSISDN invalid.', outcome: 'failed' },
  'INS-2057': { http: 400, description: 'Language code invalid.', outcome: 'refused' },
} as const satisfies Record<string, MpesaCode>;

export type MpesaCodeId = keyof typeof MPESA_CODES;

export const mpesaCode = (code: string): MpesaCode | undefined => (Object.hasOwn(MPESA_CODES, code) ? MPESA_CODES[code as MpesaCodeId] : undefined);

/** A readable reason with the code, as it goes into a recharge's or withdrawal's fail reason. */
export const reasonOf = (code: string, desc?: string): string => `M-Pesa ${code}: ${desc?.trim() || mpesaCode(code)?.description || 'no description'}`;

/**
 * queryTransactionStatus's output_ResponseTransactionStatus. The portal documents Completed, Pending,
 * Cancelled, Expired, Failed and N/A (no status: the gateway does not know the transaction); the others are
 * spellings seen from gateways in the field, mapped the same way. Anything else is unknown.
 */
export const TRANSACTION_STATUSES: Record<string, OperatorStatus> = {
  Completed: 'success',
  Success: 'success',
  Successful: 'success',
  Pending: 'pending',
  'In Progress': 'pending',
  Cancelled: 'failed',
  Expired: 'failed',
  Failed: 'failed',
  Declined: 'failed',
  Rejected: 'failed',
  'N/A': 'unknown',
};

export function transactionStatusOf(value: unknown): OperatorStatus {
  if (typeof value !== 'string') return 'unknown';
  const want = value.trim().toLowerCase();
  for (const [k, v] of Object.entries(TRANSACTION_STATUSES)) if (k.toLowerCase() === want) return v;
  return 'unknown';
}
