import crypto from 'node:crypto';
import {
  OperatorRefusedError, OperatorTimeoutError,
  type CallbackEvent, type ClientDeps, type CollectAnswer, type MobileMoneyOperator, type MoneyRequest, type OperatorStatus, type PayType, type ProviderAccount,
} from '../operators.js';
import { ExpiringCache, fingerprint, joinUrl, requestJson, rsaEncrypt, type JsonAnswer, type JsonRequest } from '../http.js';
import { mpesaCode, reasonOf, transactionStatusOf, type MpesaOutcome } from './codes.js';

/**
 * The client of the Vodacom M-Pesa OpenAPI (openapiportal.m-pesa.com), market vodacomTZN, pay type 6. The
 * base URL is the market's (`https://openapi.m-pesa.com/openapi/ipg/v2/vodacomTZN`, or `/sandbox/…` on
 * the portal's sandbox, or the built-in sandbox's `<origin>/mpesa`); every path below is relative to it:
 *  - `GET /getSession/` with `Authorization: Bearer <base64 RSA PKCS#1 v1.5 of the API key under the
 *    portal's public key>` answers `output_SessionID`; kept until its lifetime (set per application in
 *    the portal, so a setting here) runs out; every other call carries `Bearer <the session id encrypted
 *    the same way>`. A 401 that is not a transaction outcome (INS-5/INS-6 come with 401 too) means the
 *    session was refused: one fresh session, one retry;
 *  - `POST /c2bPayment/singleStage/`: the USSD push collection, answered synchronously (the gateway
 *    holds the call while the customer enters the PIN): INS-0, a failure code, or INS-9 (timeout);
 *  - `POST /b2cPayment/`: the disbursement, synchronous as well;
 *  - `GET /queryTransactionStatus/` (query string): output_ResponseTransactionStatus;
 *  - `PUT /reversal/`: reverses a completed transaction (statement reconciliation, not the services).
 * input_ThirdPartyConversationID and input_TransactionReference are our serial number, the idempotency
 * reference: a repeat is answered INS-10 (duplicate), on which we ask queryTransactionStatus and answer
 * what it says, never paying twice. OpenAPI sends no callbacks for single-stage C2B/B2C.
 *
 * Account: settings { country ('TZN'), currency ('TZS'), serviceProviderCode, origin, sessionLifetimeSeconds,
 * timeoutSeconds, itemsDesc }, secrets { apiKey, publicKey (the portal's, base64 DER or PEM) }.
 */

const NAME = 'Vodacom M-Pesa';

export const MPESA_PATHS = {
  session: '/getSession/',
  c2b: '/c2bPayment/singleStage/',
  b2c: '/b2cPayment/',
  query: '/queryTransactionStatus/',
  reversal: '/reversal/',
} as const;

/** The gateway holds a C2B call while the customer answers the PIN prompt: our timeout is longer than its own. */
const DEFAULT_PAYMENT_TIMEOUT_S = 90;
const DEFAULT_QUERY_TIMEOUT_MS = 30_000;
/** The portal's default session lifetime is an hour; refreshed a minute early. */
const DEFAULT_SESSION_LIFETIME_S = 3_600;
const SESSION_MARGIN_MS = 60_000;

interface Settings {
  country: string;
  currency: string;
  serviceProviderCode: string;
  origin: string;
  sessionLifetimeMs: number;
  paymentTimeoutMs: number;
  itemsDesc: string;
}

function settingsOf(acct: ProviderAccount): Settings {
  const s = acct.settings;
  const num = (v: string | undefined, d: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);
  return {
    country: s.country || 'TZN',
    currency: s.currency || 'TZS',
    serviceProviderCode: s.serviceProviderCode ?? '',
    origin: s.origin || '*',
    sessionLifetimeMs: num(s.sessionLifetimeSeconds, DEFAULT_SESSION_LIFETIME_S) * 1000,
    paymentTimeoutMs: num(s.timeoutSeconds, DEFAULT_PAYMENT_TIMEOUT_S) * 1000,
    itemsDesc: s.itemsDesc || 'Dau wallet',
  };
}

/** Cents of TSh → whole shillings as the API's string amount; null for anything else (never rounded). */
export function shillings(amount: number): string | null {
  return Number.isSafeInteger(amount) && amount > 0 && amount % 100 === 0 ? String(amount / 100) : null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** What an answer of the gateway means for us (see codes.ts). */
export interface Verdict {
  outcome: MpesaOutcome;
  code: string;
  reason: string;
}

/**
 * Reads an answer: its output_ResponseCode against the documented table. A 2xx must carry INS-0 to be a
 * success; a 4xx without a code (a wrong path, a proxy) is a refusal; a code we do not know is unknown.
 * (5xx never get here: requestJson turns them into OperatorTimeoutError.)
 */
export function verdictOf(httpStatus: number, body: Record<string, unknown> | undefined): Verdict {
  const code = str(body?.output_ResponseCode);
  const desc = str(body?.output_ResponseDesc);
  const ok = httpStatus >= 200 && httpStatus < 300;
  if (!code) return ok ? { outcome: 'unknown', code: 'NO_CODE', reason: `M-Pesa answered HTTP ${httpStatus} without a response code` } : { outcome: 'refused', code: `HTTP_${httpStatus}`, reason: `M-Pesa answered HTTP ${httpStatus}` };
  const entry = mpesaCode(code);
  const reason = reasonOf(code, desc);
  if (!entry) return { outcome: 'unknown', code, reason: `${reason} (undocumented code)` };
  // INS-0 on an error status, or an error code on a 2xx: contradictory, so we do not conclude.
  if ((entry.outcome === 'success') !== ok) return { outcome: 'unknown', code, reason: `${reason} (with HTTP ${httpStatus})` };
  return { outcome: entry.outcome, code, reason };
}

/** A 401 is a refused session unless it carries a transaction outcome (INS-5 and INS-6 come with 401). */
function sessionRefused(res: JsonAnswer): boolean {
  if (res.status !== 401) return false;
  const outcome = mpesaCode(str(res.body?.output_ResponseCode))?.outcome;
  return outcome !== 'failed';
}

export interface ReversalAnswer {
  status: 'success' | 'failed';
  code: string;
  /** The reversal's own transaction id at M-Pesa. */
  reversalId?: string;
  reason?: string;
  /** INS-10: the transaction was already reversed. */
  duplicate?: boolean;
}

export class MpesaClient implements MobileMoneyOperator {
  readonly payType: PayType;
  readonly name = NAME;
  private readonly sessions: ExpiringCache<string>;

  constructor(private readonly deps: ClientDeps) {
    this.payType = deps.payType;
    this.sessions = new ExpiringCache<string>(deps.now, SESSION_MARGIN_MS);
  }

  /** The app's payment request and the USSD push are the same call in OpenAPI: C2B single stage pushes the PIN prompt. */
  collect(req: MoneyRequest): Promise<CollectAnswer> {
    return this.pay('c2b', req);
  }

  ussdPush(req: MoneyRequest): Promise<CollectAnswer> {
    return this.pay('c2b', req);
  }

  disburse(req: MoneyRequest): Promise<CollectAnswer> {
    return this.pay('b2c', req);
  }

  async queryStatus(ref: string): Promise<{ status: OperatorStatus; reason?: string; amount?: number; carrierRef?: string }> {
    const acct = await this.deps.account();
    const s = settingsOf(acct);
    const res = await this.call(acct, 'GET', MPESA_PATHS.query, {
      query: {
        input_QueryReference: ref,
        input_ServiceProviderCode: s.serviceProviderCode,
        // The query's own conversation id (it is a request of ours like any other).
        input_ThirdPartyConversationID: crypto.randomBytes(16).toString('hex'),
        input_Country: s.country,
      },
      timeoutMs: DEFAULT_QUERY_TIMEOUT_MS,
    });
    const v = verdictOf(res.status, res.body);
    if (v.outcome === 'refused') throw new OperatorRefusedError(NAME, v.code, v.reason);
    // The gateway does not know the transaction: 'unknown' (the services decide what that means by its age).
    if (v.code === 'INS-997') return { status: 'unknown', reason: v.reason };
    // A query that timed out or answered something we cannot read tells nothing: never 'unknown' (which
    // would let a recharge that never got an operator number be voided), but an error to ask again later.
    if (v.outcome !== 'success') throw new OperatorTimeoutError(NAME, `queryTransactionStatus: ${v.reason}`);
    const raw = str(res.body?.output_ResponseTransactionStatus);
    const status = transactionStatusOf(raw);
    const carrierRef = str(res.body?.output_OriginalTransactionID) || str(res.body?.output_TransactionID) || undefined;
    return {
      status,
      reason: status === 'failed' ? `M-Pesa transaction ${raw}` : status === 'unknown' ? `M-Pesa transaction status ${raw || 'missing'}` : undefined,
      carrierRef,
    };
  }

  /** OpenAPI posts no callbacks for single-stage C2B/B2C: nothing that arrives on our route is from it. */
  verifyCallback(): CallbackEvent | null {
    return null;
  }

  /**
   * Reverses (part of) a completed transaction by M-Pesa's transaction id; `amount` in cents (whole
   * shillings). For statement reconciliation. A timeout throws OperatorTimeoutError (ask the status later);
   * INS-10 means it was already reversed.
   */
  async reverse(transactionId: string, amount: number, thirdPartyConversationId = crypto.randomBytes(16).toString('hex')): Promise<ReversalAnswer> {
    const value = shillings(amount);
    if (value === null) throw new OperatorRefusedError(NAME, 'AMOUNT_INVALID', `${amount} cents is not a whole number of shillings`);
    const acct = await this.deps.account();
    const s = settingsOf(acct);
    const res = await this.call(acct, 'PUT', MPESA_PATHS.reversal, {
      body: {
        input_ReversalAmount: value,
        input_Country: s.country,
        input_ServiceProviderCode: s.serviceProviderCode,
        input_ThirdPartyConversationID: thirdPartyConversationId,
        input_TransactionID: transactionId,
      },
      timeoutMs: s.paymentTimeoutMs,
    });
    const v = verdictOf(res.status, res.body);
    switch (v.outcome) {
      case 'success':
        return { status: 'success', code: v.code, reversalId: str(res.body?.output_TransactionID) || undefined };
      case 'duplicate':
        return { status: 'success', code: v.code, duplicate: true, reason: v.reason };
      case 'failed':
        return { status: 'failed', code: v.code, reason: v.reason };
      case 'refused':
        throw new OperatorRefusedError(NAME, v.code, v.reason);
      default:
        // Nothing to reverse: the transaction is not known to the gateway.
        if (v.code === 'INS-997') return { status: 'failed', code: v.code, reason: v.reason };
        throw new OperatorTimeoutError(NAME, `reversal: ${v.reason}`);
    }
  }

  // -- internals ---------------------------------------------------------------------------------

  private async pay(kind: 'c2b' | 'b2c', req: MoneyRequest): Promise<CollectAnswer> {
    const value = shillings(req.amount);
    // TZS moves in whole shillings: a fraction is never rounded away (nothing is sent).
    if (value === null) throw new OperatorRefusedError(NAME, 'AMOUNT_INVALID', `${req.amount} cents is not a whole number of shillings`);
    const acct = await this.deps.account();
    const s = settingsOf(acct);
    const body: Record<string, string> = {
      input_Amount: value,
      input_Country: s.country,
      input_Currency: s.currency,
      input_CustomerMSISDN: req.phone,
      input_ServiceProviderCode: s.serviceProviderCode,
      input_ThirdPartyConversationID: req.reference,
      input_TransactionReference: req.reference,
      ...(kind === 'c2b' ? { input_PurchasedItemsDesc: s.itemsDesc } : { input_PaymentItemsDesc: s.itemsDesc }),
    };
    const res = await this.call(acct, 'POST', kind === 'c2b' ? MPESA_PATHS.c2b : MPESA_PATHS.b2c, { body, timeoutMs: s.paymentTimeoutMs });
    const v = verdictOf(res.status, res.body);
    // Failed answers carry the gateway's ids too; our reference stands in when it gave none (the carrier
    // order number is unique per pay type, so never an empty one).
    const carrierRef = str(res.body?.output_TransactionID) || str(res.body?.output_ConversationID) || req.reference;
    switch (v.outcome) {
      case 'success':
        return { carrierRef, status: 'success' };
      case 'failed':
        return { carrierRef, status: 'failed', reason: v.reason };
      case 'duplicate':
        return this.answerOfDuplicate(req.reference, v);
      case 'refused':
        throw new OperatorRefusedError(NAME, v.code, v.reason);
      default:
        throw new OperatorTimeoutError(NAME, `${kind === 'c2b' ? 'c2bPayment' : 'b2cPayment'} ${req.reference}: ${v.reason}`);
    }
  }

  /** INS-10: the gateway already has this reference. Its status says what happened; nothing is sent again. */
  private async answerOfDuplicate(reference: string, v: Verdict): Promise<CollectAnswer> {
    const q = await this.queryStatus(reference);
    this.deps.log('M-Pesa duplicate answered by its status', { reference, status: q.status });
    if (q.status === 'success') return { carrierRef: q.carrierRef ?? reference, status: 'success' };
    if (q.status === 'failed') return { carrierRef: q.carrierRef ?? reference, status: 'failed', reason: q.reason };
    if (q.status === 'pending' && q.carrierRef) return { carrierRef: q.carrierRef, status: 'pending' };
    throw new OperatorTimeoutError(NAME, `${v.reason}, and its status is ${q.status}`);
  }

  /** One call with the session's bearer; a refused session is renewed once and the call repeated. */
  private async call(acct: ProviderAccount, method: 'GET' | 'POST' | 'PUT', path: string, req: Pick<JsonRequest, 'body' | 'query' | 'timeoutMs'>): Promise<JsonAnswer> {
    const s = settingsOf(acct);
    for (let attempt = 0; ; attempt++) {
      const session = await this.session(acct, s);
      const res = await requestJson(this.deps.fetch, NAME, joinUrl(acct.baseUrl, path), {
        ...req,
        method,
        headers: { Authorization: `Bearer ${this.encrypt(acct, session)}`, Origin: s.origin },
      });
      if (attempt === 0 && sessionRefused(res)) {
        this.deps.log('M-Pesa refused the session: renewing it', { path, code: str(res.body?.output_ResponseCode) });
        this.sessions.invalidate(session);
        continue;
      }
      return res;
    }
  }

  private session(acct: ProviderAccount, s: Settings): Promise<string> {
    const apiKey = acct.secrets.apiKey ?? '';
    return this.sessions.get(fingerprint(acct.baseUrl, apiKey, acct.secrets.publicKey ?? ''), async () => {
      if (!apiKey) throw new OperatorRefusedError(NAME, 'CONFIG', 'no API key configured');
      const res = await requestJson(this.deps.fetch, NAME, joinUrl(acct.baseUrl, MPESA_PATHS.session), {
        method: 'GET',
        headers: { Authorization: `Bearer ${this.encrypt(acct, apiKey)}`, Origin: s.origin },
        timeoutMs: DEFAULT_QUERY_TIMEOUT_MS,
      });
      const v = verdictOf(res.status, res.body);
      const id = str(res.body?.output_SessionID);
      if (v.outcome === 'success' && id) return { value: id, expiresAt: this.deps.now() + s.sessionLifetimeMs };
      if (v.outcome === 'unknown') throw new OperatorTimeoutError(NAME, `getSession: ${v.reason}`);
      throw new OperatorRefusedError(NAME, v.code, `getSession: ${v.reason}`);
    });
  }

  private encrypt(acct: ProviderAccount, plain: string): string {
    try {
      return rsaEncrypt(acct.secrets.publicKey ?? '', plain);
    } catch (err) {
      throw new OperatorRefusedError(NAME, 'CONFIG', `the M-Pesa public key cannot be used (${(err as Error).message})`);
    }
  }
}
