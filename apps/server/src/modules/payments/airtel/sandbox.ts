import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OperatorTimeoutError, type PayType } from '../operators.js';
import type { SandboxFace, SandboxFaceDeps } from '../provider.js';
import { failureKey, type CallbackRenderer, type SandboxTxn } from '../sandbox/engine.js';
import { bearerOf, headerOf, newRsaKeyPair, rsaDecrypt } from '../http.js';
import { CODE, COLLECTION_CODES, DISBURSEMENT_CODES, describeCode, type Kind } from './codes.js';
import { aesSign, callbackHash } from './client.js';

/**
 * The built-in sandbox of Airtel Money's Open API (mounted under /airtel, so `<sandbox>/airtel` stands for
 * https://openapi.airtel.africa): the documented paths, headers, envelopes and codes over the sandbox
 * books of pay type 4. It issues OAuth2 tokens that expire, decrypts the disbursement PIN with the private
 * key matching the public key our account holds, checks `x-signature`/`x-key` when a request carries them
 * (and requires them on the signed v2 collection), and posts the callback with its `hash`.
 * Failure modes: the books' behaviours (timeouts with and without the money moving, lost and duplicate
 * callbacks, failures with their documented codes), plus the faults 'server_error' (the next request
 * answers 503), 'expire_credentials' (the tokens issued so far are forgotten: the next call gets 401
 * invalid_token) and 'bad_signature' (the next callback's hash is wrong). A transaction whose request
 * timed out at the gateway is "TA" (ambiguous) at the enquiry until it completes.
 */

const PAY_TYPE: PayType = 4;
const TOKEN_SECONDS = 180;
const FACE = 'airtel';

/** How the sandbox's failures are worded in Airtel's codes. */
const COLLECT_FAILURE: Record<string, string> = {
  insufficient_funds: 'DP00800001007',
  wrong_pin: 'DP00800001002',
  not_registered: 'DP00800001010',
  operator_timeout: 'DP00800001029',
  cancel: 'DP00800001008',
  no_answer: 'DP00800001005',
};
const DISBURSE_FAILURE: Record<string, string> = {
  insufficient_funds: 'DP00900001007',
  not_registered: 'DP00900001012',
  operator_timeout: 'DP00900001005',
  wrong_pin: 'DP00900001005',
};
const failureCode = (txn: Pick<SandboxTxn, 'kind' | 'reason'>) => {
  const key = failureKey(txn.reason) ?? '';
  return txn.kind === 'collect' ? COLLECT_FAILURE[key] ?? 'DP00800001008' : DISBURSE_FAILURE[key] ?? 'DP00900001005';
};

type Req = FastifyRequest & { rawBody?: string };
type Body = Record<string, any>;

const envelope = (code: string, success: boolean, data?: Record<string, unknown>, httpCode = '200') => ({
  ...(data ? { data } : {}),
  status: {
    code: httpCode, message: success ? 'SUCCESS' : (COLLECTION_CODES[code] ?? DISBURSEMENT_CODES[code])?.title ?? 'FAILED',
    result_code: success ? 'ESB000010' : 'ESB000001', response_code: code, success,
  },
});

/** A transaction's state in an enquiry or disbursement answer: TS/TF/TIP, or TA while a timed-out request is unresolved. */
function stateOf(txn: SandboxTxn): { status: string; code: string; message: string } {
  const k: Kind = txn.kind;
  if (txn.status === 'success') return { status: 'TS', code: k === 'collect' ? CODE.collectSuccess : CODE.disburseSuccess, message: 'Transaction is successful.' };
  if (txn.status === 'failed') {
    const code = failureCode(txn);
    return { status: 'TF', code, message: describeCode(code) ?? 'Transaction Failed' };
  }
  if (txn.extra?.ambiguous) return { status: 'TA', code: k === 'collect' ? CODE.collectAmbiguous : CODE.disburseAmbiguous, message: 'Transaction is ambiguous.' };
  return { status: 'TIP', code: k === 'collect' ? CODE.collectInProcess : CODE.disburseProcessing, message: 'Transaction in progress.' };
}

/** Airtel's message signing, checked as the gateway does: decrypt x-key, encrypt the body received, compare. */
function signatureMatches(privateKey: string, req: Req): boolean {
  const sig = headerOf(req.headers, 'x-signature');
  const xkey = headerOf(req.headers, 'x-key');
  if (!sig || !xkey) return false;
  const pair = rsaDecrypt(privateKey, xkey)?.split(':');
  if (pair?.length !== 2) return false;
  const key = Buffer.from(pair[0]!, 'base64');
  const iv = Buffer.from(pair[1]!, 'base64');
  if (key.length !== 32 || iv.length !== 16) return false;
  const mine = Buffer.from(aesSign(key, iv, req.rawBody ?? ''));
  const theirs = Buffer.from(sig);
  return mine.length === theirs.length && crypto.timingSafeEqual(mine, theirs);
}

const formatTzs = (cents: number) => (cents / 100).toLocaleString('en-US', { maximumFractionDigits: 2 });

export const airtelSandbox: SandboxFace = {
  newCredentials() {
    const keys = newRsaKeyPair();
    const clientId = crypto.randomUUID();
    const clientSecret = crypto.randomBytes(24).toString('base64url');
    const pin = String(crypto.randomInt(10_000)).padStart(4, '0');
    const callbackKey = crypto.randomBytes(32).toString('base64');
    return {
      sandbox: { client_id: clientId, client_secret: clientSecret, private_key: keys.privateKey, pin, callback_key: callbackKey },
      account: {
        settings: { country: 'TZ', currency: 'TZS', signing: 'off' },
        secrets: { client_id: clientId, client_secret: clientSecret, public_key: keys.publicKey, pin, callback_key: callbackKey },
      },
    };
  },

  renderer(payType: PayType, deps: SandboxFaceDeps): CallbackRenderer {
    return async (txn) => {
      if (txn.status === 'pending') return null;
      const creds = await deps.credentials();
      const transaction = {
        id: txn.reference,
        message: txn.status === 'success'
          ? `${txn.kind === 'collect' ? 'Paid' : 'Sent'} TZS ${formatTzs(txn.amount)} ${txn.kind === 'collect' ? 'to DAU' : `to ${txn.phone}`}, Trans ID ${txn.carrierRef}.`
          : describeCode(failureCode(txn)) ?? 'Transaction Failed',
        status_code: txn.status === 'success' ? 'TS' : 'TF',
        airtel_money_id: txn.carrierRef,
      };
      const key = deps.book(payType).takeFault('bad_signature') ? crypto.randomBytes(32).toString('base64') : creds.callback_key!;
      return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ transaction, hash: callbackHash(key, transaction) }) };
    };
  },

  routes(app: FastifyInstance, deps: SandboxFaceDeps) {
    // The signature is over the exact bytes received: keep them.
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      (req as Req).rawBody = body as string;
      try {
        done(null, body ? JSON.parse(body as string) : {});
      } catch {
        done(null, { __invalid: true });
      }
    });
    const book = () => deps.book(PAY_TYPE);
    /** Tokens issued, with their expiry in the books' time (forgotten on 'expire_credentials'). */
    const tokens = new Map<string, number>();

    app.post('/auth/oauth2/token', async (req, reply) => {
      const b = (req.body ?? {}) as Body;
      const creds = await deps.credentials();
      if (b.grant_type !== 'client_credentials') return reply.code(400).send({ error: 'unsupported_grant_type', error_description: 'Unsupported grant type' });
      if (b.client_id !== creds.client_id || b.client_secret !== creds.client_secret) {
        return reply.code(401).send({ error: 'invalid_client', error_description: 'Client authentication failed' });
      }
      const token = crypto.randomBytes(24).toString('base64url');
      const now = book().now();
      for (const [t, exp] of tokens) if (exp <= now) tokens.delete(t);
      tokens.set(token, now + TOKEN_SECONDS * 1000);
      return { access_token: token, expires_in: String(TOKEN_SECONDS), token_type: 'bearer' };
    });

    /** The gateway's checks before any API: faults, bearer, country and currency. Answers true when it replied. */
    const gate = (req: Req, reply: FastifyReply): boolean => {
      const b = book();
      if (b.takeFault('expire_credentials')) tokens.clear();
      if (b.takeFault('server_error')) {
        reply.code(503).send({ status: { code: '503', message: 'Service Unavailable', result_code: 'ESB000001', success: false } });
        return true;
      }
      const token = bearerOf(req.headers);
      const exp = token ? tokens.get(token) : undefined;
      if (exp === undefined || exp <= b.now()) {
        reply.code(401).send({ error_description: 'The access token is invalid or has expired', error: 'invalid_token' });
        return true;
      }
      if (!headerOf(req.headers, 'x-country')) {
        reply.code(400).send({ status_message: 'Partner not found', status_code: 'ROUTER110' });
        return true;
      }
      if (headerOf(req.headers, 'x-country') !== 'TZ' || headerOf(req.headers, 'x-currency') !== 'TZS') {
        reply.code(400).send({ status_code: 'ROUTER112', status_message: 'Invalid country or currency provided.' });
        return true;
      }
      return false;
    };

    /** Checks a signature when one is sent (and demands one where `required`): the documented Forbidden otherwise. */
    const signed = async (req: Req, reply: FastifyReply, code: string, required: boolean): Promise<boolean> => {
      const present = !!headerOf(req.headers, 'x-signature') || !!headerOf(req.headers, 'x-key');
      if (!present && !required) return true;
      if (present && signatureMatches((await deps.credentials()).private_key!, req)) return true;
      reply.code(400).send(envelope(code, false, undefined, '400'));
      return false;
    };

    /** Amounts in whole shillings (TZS has no minor unit at Airtel) → the books' cents. */
    const cents = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v * 100 : null);
    const phoneOf = (msisdn: unknown) => (typeof msisdn === 'string' && /^\d{9}$/.test(msisdn) ? `255${msisdn}` : null);

    const collection = (required: boolean) => async (req: Req, reply: FastifyReply) => {
      if (gate(req, reply) || !(await signed(req, reply, CODE.collectForbidden, required))) return;
      const b = (req.body ?? {}) as Body;
      const id = typeof b.transaction?.id === 'string' ? b.transaction.id : '';
      const amount = cents(b.transaction?.amount);
      const phone = phoneOf(b.subscriber?.msisdn);
      if (b.__invalid || !id || !phone) return reply.code(400).send(envelope('DP00800001008', false, undefined, '400'));
      if (amount === null) return reply.send(envelope(CODE.collectInvalidAmount, false, { transaction: { id, status: 'FAILED' } }));
      try {
        await book().ussdPush({ reference: id, phone, amount }, { face: FACE, reference: b.reference });
      } catch (err) {
        if (!(err instanceof OperatorTimeoutError)) throw err;
        await book().annotate(id, { ambiguous: true });
        return reply.code(504).send({ status: { code: '504', message: 'Gateway Timeout', result_code: 'ESB000001', success: false } });
      }
      return reply.send(envelope(CODE.collectInProcess, true, { transaction: { id, status: 'SUCCESS' } }));
    };
    app.post('/merchant/v1/payments/', collection(false));
    // v2 is the signed version of the same API.
    app.post('/merchant/v2/payments/', collection(true));

    const disbursement = async (req: Req, reply: FastifyReply) => {
      if (gate(req, reply) || !(await signed(req, reply, CODE.disburseForbidden, false))) return;
      const b = (req.body ?? {}) as Body;
      const creds = await deps.credentials();
      const pin = typeof b.pin === 'string' ? rsaDecrypt(creds.private_key!, b.pin) : null;
      if (pin === null) return reply.code(400).send({ status_code: 'ROUTER116', status_message: 'The encrypted value of the pin is incorrect. Kindly re-check the encryption mechanism.' });
      if (pin !== creds.pin) return reply.code(400).send({ status_code: 'ROUTER115', status_message: 'Pin you have entered is incorrect.' });
      const id = typeof b.transaction?.id === 'string' ? b.transaction.id : '';
      const amount = cents(b.transaction?.amount);
      const phone = phoneOf(b.payee?.msisdn);
      if (b.__invalid || !id) return reply.code(400).send(envelope('DP00900001013', false, undefined, '400'));
      if (!phone) return reply.send(envelope('DP00900001012', false, { transaction: { id, status: 'TF' } }));
      if (amount === null) return reply.send(envelope(CODE.disburseInvalidAmount, false, { transaction: { id, status: 'TF' } }));
      const existed = await book().find(id);
      try {
        // Asked of the books even for a repeat (it answers the same payout): the books count every request.
        await book().disburse({ reference: id, phone, amount }, { face: FACE, reference: b.reference });
      } catch (err) {
        if (!(err instanceof OperatorTimeoutError)) throw err;
        await book().annotate(id, { ambiguous: true });
        return reply.code(504).send({ status: { code: '504', message: 'Gateway Timeout', result_code: 'ESB000001', success: false } });
      }
      if (existed) return reply.send(envelope(CODE.disburseDuplicate, false, { transaction: { id } }));
      const txn = (await book().find(id))!;
      const s = stateOf(txn);
      return reply.send(envelope(s.code, true, {
        transaction: { reference_id: txn.carrierRef.slice(-8), airtel_money_id: txn.carrierRef, id, status: s.status, message: s.message },
      }));
    };
    app.post('/standard/v1/disbursements/', disbursement);
    app.post('/standard/v2/disbursements/', disbursement);

    /** The enquiries take our transaction id (the one we sent); anything else is not found. */
    const enquiry = (kind: Kind) => async (req: Req, reply: FastifyReply) => {
      if (gate(req, reply)) return;
      const id = (req.params as { id: string }).id;
      const txn = await book().find(id);
      if (!txn || txn.reference !== id || txn.kind !== kind) {
        const code = kind === 'collect' ? CODE.collectNotFound : CODE.disburseNotFound;
        return reply.send(envelope(code, false, undefined, '404'));
      }
      const s = stateOf(txn);
      return reply.send(envelope(s.code, true, { transaction: { airtel_money_id: txn.carrierRef, id, message: s.message, status: s.status } }));
    };
    app.get('/standard/v1/payments/:id', enquiry('collect'));
    app.get('/standard/v1/disbursements/:id', enquiry('disburse'));
    app.get('/standard/v2/disbursements/:id', enquiry('disburse'));
  },
};
