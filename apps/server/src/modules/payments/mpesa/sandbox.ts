import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OperatorTimeoutError, type MoneyRequest, type PayType } from '../operators.js';
import type { SandboxFace, SandboxFaceDeps } from '../provider.js';
import { failureKey, type SandboxBook, type SandboxTxn } from '../sandbox/engine.js';
import { bearerOf, headerOf, newRsaKeyPair, rsaDecrypt } from '../http.js';
import { MPESA_CODES, type MpesaCodeId } from './codes.js';

/**
 * The built-in sandbox of the M-Pesa OpenAPI (vodacomTZN), mounted under `/mpesa`: the same relative paths
 * as the gateway (`getSession/`, `c2bPayment/singleStage/`, `b2cPayment/`, `queryTransactionStatus/`,
 * `reversal/`), the same headers and fields, the documented codes with their HTTP statuses. It holds the
 * RSA private key matching the public key our account is configured with and decrypts the bearers: the API
 * key for getSession, then the session ids it issued, which expire (by the books' clock). Outcomes are the
 * sandbox books' (pay type 6); this face turns them into the gateway's answers:
 *  - success → INS-0; a failure → its code (insufficient funds INS-2006, wrong PIN INS-6, cancelled INS-5,
 *    not registered INS-2051 / receiver invalid INS-2002 for B2C); a prompt nobody answered → INS-9, as the
 *    gateway times out waiting for the PIN (the status query then says Expired);
 *  - the book's 'timeout'/'timeout_lost' and a payout still in flight → HTTP 408 INS-9;
 *  - a repeated reference → 409 INS-10 (the client then asks queryTransactionStatus);
 *  - faults: 'server_error' → 500 INS-1 before anything is done; 'expire_credentials' → the issued sessions
 *    are forgotten, so the call is refused 401 INS-2 (the client renews its session once).
 * OpenAPI sends no callbacks for single-stage C2B/B2C: the renderer renders none.
 */

const VODACOM = 6 as PayType;
const FACE = 'mpesa';
const DEFAULT_SESSION_LIFETIME_S = 3_600;

type Body = Record<string, unknown>;
type Answer = { http: number; body: Body };

/** A documented answer: the code, its description and its HTTP status (201 for a created payment). */
function answer(code: MpesaCodeId, extra: Body = {}, http?: number): Answer {
  const c = MPESA_CODES[code];
  return { http: http ?? c.http, body: { output_ResponseCode: code, output_ResponseDesc: c.description, ...extra } };
}

const send = (reply: FastifyReply, a: Answer) => reply.code(a.http).header('content-type', 'application/json').send(JSON.stringify(a.body));
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** The gateway's code for a failed transaction, by the book's failure (see failureKey). */
export function failureCode(reason: string | undefined, api: 'c2b' | 'b2c'): MpesaCodeId {
  switch (failureKey(reason)) {
    case 'insufficient_funds':
      return 'INS-2006';
    case 'not_registered':
      return api === 'b2c' ? 'INS-2002' : 'INS-2051';
    case 'cancel':
      return 'INS-5';
    // The gateway held the call while the prompt was on the handset and gave up: a timeout to the caller.
    case 'no_answer':
    case 'operator_timeout':
      return 'INS-9';
    default:
      return 'INS-6';
  }
}

/** queryTransactionStatus's output_ResponseTransactionStatus of a book transaction. */
export function transactionStatus(txn: SandboxTxn): string {
  if (txn.status === 'pending') return 'Pending';
  if (txn.status === 'success') return 'Completed';
  const key = failureKey(txn.reason);
  if (key === 'cancel') return 'Cancelled';
  if (key === 'no_answer' || key === 'operator_timeout') return 'Expired';
  return 'Failed';
}

/** Mobile Money platform ids: a conversation id per request (the gateway's own format is opaque). */
const conversationId = () => `AG_${crypto.randomBytes(12).toString('hex')}`;

/** Checks a payment request's fields as the gateway does; an answer when they are refused. */
function checkPayment(b: Body, creds: Record<string, string>, descField: string): Answer | MoneyRequest {
  const fields = ['input_Amount', 'input_Country', 'input_Currency', 'input_CustomerMSISDN', 'input_ServiceProviderCode', 'input_ThirdPartyConversationID', 'input_TransactionReference', descField];
  if (fields.some((f) => !str(b[f]))) return answer('INS-20');
  if (str(b.input_ServiceProviderCode) !== creds.serviceProviderCode) return answer('INS-13');
  if (str(b.input_Country) !== 'TZN' || str(b.input_Currency) !== 'TZS') return answer('INS-21');
  const ref = str(b.input_TransactionReference);
  if (ref.length > 20 || !/^[A-Za-z0-9_-]+$/.test(ref)) return answer('INS-17');
  const conv = str(b.input_ThirdPartyConversationID);
  if (conv.length > 64 || !/^[A-Za-z0-9_-]+$/.test(conv)) return answer('INS-28');
  const amount = str(b.input_Amount);
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) return answer('INS-15');
  const phone = str(b.input_CustomerMSISDN);
  if (!/^255\d{9}$/.test(phone)) return answer('INS-2051');
  return { reference: ref, phone, amount: Math.round(Number(amount) * 100) };
}

export const mpesaSandbox: SandboxFace = {
  routes(app: FastifyInstance, deps: SandboxFaceDeps) {
    /** Session ids issued, by id: when they expire (the books' clock). */
    const sessions = new Map<string, number>();
    const book = (): SandboxBook => deps.book(VODACOM);

    /** The server-error fault, and the Origin header every OpenAPI call carries. */
    const preflight = (req: FastifyRequest): Answer | null => {
      if (book().takeFault('server_error')) return answer('INS-1');
      if (!headerOf(req.headers, 'origin')) return answer('INS-20');
      return null;
    };

    /** The bearer of a call: a live session id issued here, encrypted under our public key. */
    const authorize = async (req: FastifyRequest): Promise<Answer | null> => {
      const refused = preflight(req);
      if (refused) return refused;
      // Forgotten before its time (tests): the session the client holds is refused as an expired one.
      if (book().takeFault('expire_credentials')) sessions.clear();
      const creds = await deps.credentials();
      const id = rsaDecrypt(creds.privateKey, bearerOf(req.headers) ?? '');
      const expiresAt = id ? sessions.get(id) : undefined;
      if (!id || expiresAt === undefined || expiresAt <= book().now()) {
        if (id) sessions.delete(id);
        return answer('INS-2');
      }
      return null;
    };

    app.get('/getSession/', async (req, reply) => {
      const refused = preflight(req);
      if (refused) return send(reply, refused);
      const creds = await deps.credentials();
      const key = rsaDecrypt(creds.privateKey, bearerOf(req.headers) ?? '');
      if (!key || key !== creds.apiKey) return send(reply, answer('INS-2'));
      const now = book().now();
      for (const [id, at] of sessions) if (at <= now) sessions.delete(id);
      const id = crypto.randomBytes(16).toString('hex');
      sessions.set(id, now + (Number(creds.sessionLifetimeSeconds) || DEFAULT_SESSION_LIFETIME_S) * 1000);
      return send(reply, answer('INS-0', { output_SessionID: id }));
    });

    /** C2B single stage (the USSD push) and B2C: synchronous, as the gateway answers them. */
    const payment = (api: 'c2b' | 'b2c') => async (req: FastifyRequest, reply: FastifyReply) => {
      const refused = await authorize(req);
      if (refused) return send(reply, refused);
      const creds = await deps.credentials();
      const b = (req.body ?? {}) as Body;
      const checked = checkPayment(b, creds, api === 'c2b' ? 'input_PurchasedItemsDesc' : 'input_PaymentItemsDesc');
      if ('http' in checked) return send(reply, checked);
      const ids = { output_ThirdPartyConversationID: str(b.input_ThirdPartyConversationID) };
      const existing = await book().find(checked.reference);
      if (existing) {
        return send(reply, answer('INS-10', { ...ids, output_ConversationID: str(existing.extra?.conversationId) || conversationId() }));
      }
      const conv = conversationId();
      const extra = { face: FACE, api: api === 'c2b' ? 'c2bPayment' : 'b2cPayment', conversationId: conv, thirdPartyConversationId: ids.output_ThirdPartyConversationID };
      let res: { carrierRef: string; status: 'pending' | 'success' | 'failed'; reason?: string };
      try {
        res = api === 'c2b' ? await book().ussdPush(checked, extra) : await book().disburse(checked, extra);
      } catch (err) {
        if (err instanceof OperatorTimeoutError) return send(reply, answer('INS-9', { ...ids, output_ConversationID: conv }));
        throw err;
      }
      const out = { ...ids, output_ConversationID: conv, output_TransactionID: res.carrierRef };
      // Still in flight when the gateway stops waiting: a timeout to the caller; the status query knows more.
      if (res.status === 'pending') return send(reply, answer('INS-9', out));
      if (res.status === 'success') return send(reply, answer('INS-0', out, 201));
      return send(reply, answer(failureCode(res.reason, api), out));
    };
    app.post('/c2bPayment/singleStage/', payment('c2b'));
    app.post('/b2cPayment/', payment('b2c'));

    app.get('/queryTransactionStatus/', async (req, reply) => {
      const refused = await authorize(req);
      if (refused) return send(reply, refused);
      const creds = await deps.credentials();
      const q = (req.query ?? {}) as Body;
      if (['input_QueryReference', 'input_ServiceProviderCode', 'input_ThirdPartyConversationID', 'input_Country'].some((f) => !str(q[f]))) {
        return send(reply, answer('INS-20'));
      }
      if (str(q.input_ServiceProviderCode) !== creds.serviceProviderCode) return send(reply, answer('INS-13'));
      const ids = { output_ThirdPartyConversationID: str(q.input_ThirdPartyConversationID) };
      // By our reference (ThirdPartyConversationID / TransactionReference) or M-Pesa's TransactionID.
      const txn = await book().find(str(q.input_QueryReference));
      if (!txn) return send(reply, answer('INS-0', { ...ids, output_ConversationID: conversationId(), output_ResponseTransactionStatus: 'N/A' }));
      return send(reply, answer('INS-0', {
        ...ids,
        output_ConversationID: str(txn.extra?.conversationId) || conversationId(),
        output_OriginalTransactionID: txn.carrierRef,
        output_ResponseTransactionStatus: transactionStatus(txn),
      }));
    });

    app.put('/reversal/', async (req, reply) => {
      const refused = await authorize(req);
      if (refused) return send(reply, refused);
      const creds = await deps.credentials();
      const b = (req.body ?? {}) as Body;
      if (['input_TransactionID', 'input_ServiceProviderCode', 'input_ThirdPartyConversationID', 'input_Country'].some((f) => !str(b[f]))) {
        return send(reply, answer('INS-20'));
      }
      if (str(b.input_ServiceProviderCode) !== creds.serviceProviderCode) return send(reply, answer('INS-13'));
      const ids = { output_ThirdPartyConversationID: str(b.input_ThirdPartyConversationID), output_ConversationID: conversationId() };
      const id = str(b.input_TransactionID);
      const txn = await book().find(id);
      if (!txn || txn.carrierRef !== id) return send(reply, answer('INS-18', ids));
      if (txn.extra?.reversal) return send(reply, answer('INS-10', ids));
      if (txn.status !== 'success') return send(reply, answer('INS-6', ids));
      const given = str(b.input_ReversalAmount);
      const amount = given ? Math.round(Number(given) * 100) : txn.amount;
      if (given && (!/^\d{1,12}(\.\d{1,2})?$/.test(given) || amount <= 0 || amount > txn.amount)) return send(reply, answer('INS-15', ids));
      const reversalId = `${book().profile.carrierPrefix}R${crypto.randomBytes(5).toString('hex').toUpperCase()}`;
      await book().annotate(txn.reference, {
        reversal: { transactionId: reversalId, amount, thirdPartyConversationId: ids.output_ThirdPartyConversationID, at: book().now() },
      });
      return send(reply, answer('INS-0', { ...ids, output_TransactionID: reversalId }));
    });
  },

  // OpenAPI single-stage C2B/B2C answer synchronously and post nothing.
  renderer: () => async () => null,

  newCredentials() {
    // The portal's key pair: it keeps the private key, hands out the public key (base64 DER, no PEM lines).
    const { publicKey, privateKey } = newRsaKeyPair();
    const apiKey = crypto.randomBytes(16).toString('hex');
    const serviceProviderCode = String(crypto.randomInt(100_000, 1_000_000));
    const sessionLifetimeSeconds = String(DEFAULT_SESSION_LIFETIME_S);
    return {
      sandbox: { privateKey, apiKey, serviceProviderCode, sessionLifetimeSeconds },
      account: {
        settings: { market: 'vodacomTZN', country: 'TZN', currency: 'TZS', serviceProviderCode, origin: '*', sessionLifetimeSeconds },
        secrets: { apiKey, publicKey },
      },
    };
  },
};
