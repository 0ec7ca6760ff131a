import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { networkOf as prefixNetwork } from '@dau/domain';
import { OperatorTimeoutError, type PayType } from '../operators.js';
import type { SandboxFace, SandboxFaceDeps } from '../provider.js';
import { failureKey, type CallbackRenderer, type SandboxBook, type SandboxTxn } from '../sandbox/engine.js';
import { CASHIN_UTILITY, CHECKOUT_CHANNEL, RESULT_CODES, payTypeOfUtility, type ResultCodeKey } from './codes.js';
import { signatureProblem, signedHeaders } from './client.js';

/**
 * The built-in sandbox of Selcom's API gateway (mounted under /aggregator: production is
 * https://apigw.selcommobile.com + the same /v1/... paths). It checks every request's HMAC digest with the
 * API secret it issued, turns the documented requests into calls on the sandbox books of the wallet's
 * network, and posts the checkout webhook signed the same way. Wallet cash-in sends no callback: its answer
 * and walletcashin/query are the truth, as with Selcom.
 */

const PAY_TYPES: readonly PayType[] = [3, 7, 4, 6];
const FACE = 'aggregator';

interface Order { orderId: string; amount: number; phone: string; webhook: string; createdAt: number }

/** The failure code the sandbox answers for a failed transaction's reason. */
function failureCode(reason: string | undefined): ResultCodeKey {
  const codes: Record<string, ResultCodeKey> = { insufficient_funds: '051', wrong_pin: '055', not_registered: '014', operator_timeout: '068', cancel: '070', no_answer: '071' };
  return codes[failureKey(reason) ?? ''] ?? '403';
}

/** A checkout order's payment_status as order-status and the webhook show it. */
function paymentStatusOfTxn(txn: SandboxTxn): string {
  if (txn.status === 'pending') return 'PENDING';
  if (txn.status === 'success') return 'COMPLETED';
  const k = failureKey(txn.reason);
  return k === 'cancel' ? 'USERCANCELLED' : k === 'no_answer' ? 'CANCELLED' : 'REJECTED';
}

const codeOf = (txn: SandboxTxn): ResultCodeKey => (txn.status === 'success' ? '000' : txn.status === 'pending' ? '111' : failureCode(txn.reason));
const envelope = (code: ResultCodeKey, extra: Record<string, unknown> = {}, message: string = RESULT_CODES[code].text) =>
  ({ resultcode: code, result: RESULT_CODES[code].result, message, data: [], ...extra });
const shillings = (cents: number) => String(cents / 100);
const to255 = (msisdn: string) => (/^0\d{9}$/.test(msisdn) ? `255${msisdn.slice(1)}` : msisdn);

/** How long the sandbox keeps an unpaid checkout order open (an assumption: Selcom's order validity is set per account). */
const ORDER_EXPIRY_MS = 60 * 60_000;

export const selcomSandbox: SandboxFace = {
  routes(app: FastifyInstance, deps: SandboxFaceDeps) {
    const orders = new Map<string, Order>();
    const now = () => deps.book(3).now();

    /** Checks the request's signature over `values` (every field must be signed); answers 401 as Selcom's gateway does. */
    async function authorized(headers: Record<string, string | string[] | undefined>, values: Record<string, unknown>, reply: FastifyReply) {
      const c = await deps.credentials();
      const problem = signatureProblem(headers, values, { apiKey: c.apiKey!, apiSecret: c.apiSecret! }, now(), Object.keys(values));
      if (!problem) return c;
      deps.log('selcom sandbox refused a request', { problem });
      await reply.code(401).send({ result: 'FAIL', message: `Unauthorized: ${problem}` });
      return null;
    }

    /** The book's one-shot 5xx fault for the network this request is about. */
    async function serverError(book: SandboxBook, reply: FastifyReply) {
      if (!book.takeFault('server_error')) return false;
      await reply.code(500).send({ result: 'FAIL', message: 'Internal Server Error' });
      return true;
    }

    /** The network of an order: our callback URL names the pay type (standing in for Selcom's
     * number-portability lookup, which the sandbox does not have), else the number's prefix. */
    function networkOf(order: Order): PayType | undefined {
      const byHook = PAY_TYPES.find((p) => deps.callbackUrl(p) === order.webhook);
      if (byHook) return byHook;
      const p = prefixNetwork(order.phone)?.payType;
      return PAY_TYPES.find((x) => x === p);
    }

    async function findTxn(ref: string, kind: SandboxTxn['kind']): Promise<{ book: SandboxBook; txn: SandboxTxn } | undefined> {
      for (const p of PAY_TYPES) {
        const txn = await deps.book(p).find(ref);
        if (txn && txn.kind === kind && txn.reference === ref) return { book: deps.book(p), txn };
      }
      return undefined;
    }

    /** A request the book timed out on: 999 when it reached the wallet (the transaction is open), else a gateway timeout. */
    async function timedOut(book: SandboxBook, reference: string, reply: FastifyReply, extra: Record<string, unknown>) {
      if (await book.find(reference)) return reply.send(envelope('999', extra));
      return reply.code(504).send({ result: 'FAIL', message: 'Gateway Timeout' });
    }

    app.post('/v1/checkout/create-order-minimal', async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const creds = await authorized(req.headers, b, reply);
      if (!creds) return reply;
      const orderId = String(b.order_id ?? '');
      const amount = Number(b.amount);
      const missing = ['vendor', 'order_id', 'buyer_email', 'buyer_name', 'buyer_phone', 'amount', 'currency', 'no_of_items'].filter((k) => b[k] === undefined || b[k] === '');
      if (missing.length || b.vendor !== creds.vendor) return reply.send(envelope('403', {}, missing.length ? `Missing ${missing.join(', ')}` : 'Unknown vendor'));
      if (!Number.isSafeInteger(amount) || amount <= 0 || b.currency !== 'TZS') return reply.send(envelope('012'));
      const order: Order = {
        orderId, amount: amount * 100, phone: to255(String(b.buyer_phone)),
        webhook: b.webhook ? Buffer.from(String(b.webhook), 'base64').toString('utf8') : '', createdAt: now(),
      };
      const p = networkOf(order);
      if (p && (await serverError(deps.book(p), reply))) return reply;
      if (!orders.has(orderId)) orders.set(orderId, order);
      return reply.send(envelope('000', {
        reference: crypto.randomInt(10 ** 9, 10 ** 10).toString(),
        data: [{ gateway_buyer_uuid: crypto.randomBytes(4).toString('hex'), payment_token: crypto.randomInt(10 ** 7, 10 ** 8).toString(), qr: 'QR', payment_gateway_url: Buffer.from(`https://sandbox.invalid/pg/${orderId}`).toString('base64') }],
      }, 'Order creation successful'));
    });

    app.post('/v1/checkout/wallet-payment', async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      if (!(await authorized(req.headers, b, reply))) return reply;
      const orderId = String(b.order_id ?? '');
      const transid = String(b.transid ?? '');
      const order = orders.get(orderId);
      // After a restart of ours the order may live only in the books: a repeated push answers its transaction.
      const open = order ? undefined : await findTxn(orderId, 'collect');
      if (open) return reply.send(envelope('000', { reference: open.txn.carrierRef, transid, result: 'PENDING' }, 'Request in progress. You will receive a callback shortly'));
      if (!order || !transid || !b.msisdn) return reply.send(envelope('403', {}, 'Order not found'));
      const p = networkOf({ ...order, phone: to255(String(b.msisdn)) });
      if (!p) return reply.send(envelope('015'));
      const book = deps.book(p);
      if (await serverError(book, reply)) return reply;
      try {
        const ans = await book.ussdPush({ reference: orderId, phone: to255(String(b.msisdn)), amount: order.amount }, { face: FACE, transid, network: CHECKOUT_CHANNEL[p] });
        if (ans.status === 'failed') return reply.send(envelope(failureCode(ans.reason), { reference: ans.carrierRef, transid }, ans.reason));
        return reply.send(envelope('000', { reference: ans.carrierRef, transid, result: 'PENDING' }, 'Request in progress. You will receive a callback shortly'));
      } catch (err) {
        if (!(err instanceof OperatorTimeoutError)) throw err;
        return timedOut(book, orderId, reply, { transid });
      }
    });

    app.get('/v1/checkout/order-status', async (req, reply) => {
      const q = (req.query ?? {}) as Record<string, unknown>;
      if (!(await authorized(req.headers, q, reply))) return reply;
      const orderId = String(q.order_id ?? '');
      const found = await findTxn(orderId, 'collect');
      const order = orders.get(orderId);
      const p = found?.book.payType ?? (order ? networkOf(order) : undefined);
      if (p && (await serverError(deps.book(p), reply))) return reply;
      if (!found && !order) return reply.send(envelope('404', {}, 'Order not found'));
      const t = found?.txn;
      return reply.send(envelope('000', {
        reference: crypto.randomInt(10 ** 9, 10 ** 10).toString(),
        data: [{
          order_id: orderId,
          creation_date: new Date(order?.createdAt ?? now()).toISOString().replace('T', ' ').slice(0, 19),
          amount: shillings(t?.amount ?? order!.amount),
          // An order whose push never reached the wallet expires unpaid (the sandbox's validity: ORDER_EXPIRY_MS).
          payment_status: t ? paymentStatusOfTxn(t) : now() - (order?.createdAt ?? now()) > ORDER_EXPIRY_MS ? 'CANCELLED' : 'PENDING',
          transid: t?.status === 'success' ? String(t.extra?.transid ?? orderId) : null,
          channel: t && t.status !== 'pending' ? String(t.extra?.network ?? CHECKOUT_CHANNEL[found!.book.payType]) : null,
          reference: t ? t.carrierRef : null,
          phone: t ? t.phone : null,
        }],
      }, 'Order fetch successful'));
    });

    app.post('/v1/walletcashin/process', async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const creds = await authorized(req.headers, b, reply);
      if (!creds) return reply;
      const transid = String(b.transid ?? '');
      const p = payTypeOfUtility(b.utilitycode);
      if (!transid || !b.utilityref) return reply.send(envelope('403', { transid }, 'Missing transid or utilityref'));
      if (!p) return reply.send(envelope('015', { transid }));
      const book = deps.book(p);
      if (await serverError(book, reply)) return reply;
      if (b.vendor !== creds.floatVendor || String(b.pin ?? '') !== creds.pin) return reply.send(envelope('403', { transid }, 'Invalid vendor or PIN'));
      const amount = Number(b.amount);
      if (!Number.isSafeInteger(amount) || amount <= 0) return reply.send(envelope('012', { transid }));
      try {
        const ans = await book.disburse({ reference: transid, phone: to255(String(b.utilityref)), amount: amount * 100 }, { face: FACE, utilitycode: CASHIN_UTILITY[p] });
        const code: ResultCodeKey = ans.status === 'success' ? '000' : ans.status === 'pending' ? '111' : failureCode(ans.reason);
        const message = ans.status === 'success' ? `Selcom Qwikpay\nTo ${to255(String(b.utilityref))}\nAmount TZS ${amount}\nReference ${ans.carrierRef}` : ans.reason;
        return reply.send(envelope(code, { reference: ans.carrierRef, transid }, message));
      } catch (err) {
        if (!(err instanceof OperatorTimeoutError)) throw err;
        return timedOut(book, transid, reply, { transid });
      }
    });

    app.get('/v1/walletcashin/query', async (req, reply) => {
      const q = (req.query ?? {}) as Record<string, unknown>;
      if (!(await authorized(req.headers, q, reply))) return reply;
      const transid = String(q.transid ?? '');
      const found = await findTxn(transid, 'disburse');
      if (found && (await serverError(found.book, reply))) return reply;
      if (!found) return reply.send(envelope('404', { transid }, 'Transaction not found'));
      const { txn } = found;
      return reply.send(envelope(codeOf(txn), {
        transid, reference: txn.carrierRef,
        data: [{ transid, reference: txn.carrierRef, utilitycode: String(txn.extra?.utilitycode ?? ''), utilityref: txn.phone, amount: shillings(txn.amount) }],
      }, txn.status === 'failed' ? txn.reason : undefined));
    });
  },

  renderer(payType: PayType, deps: SandboxFaceDeps): CallbackRenderer {
    return async (txn, _event, nowMs) => {
      // Selcom calls back checkout orders only; a wallet cash-in is answered by its request and its query.
      if (txn.kind !== 'collect' || txn.status === 'pending') return null;
      const c = await deps.credentials();
      const body = {
        transid: String(txn.extra?.transid ?? txn.reference),
        order_id: txn.reference,
        reference: txn.carrierRef,
        result: txn.status === 'success' ? 'SUCCESS' : 'FAIL',
        resultcode: codeOf(txn),
        payment_status: paymentStatusOfTxn(txn),
        channel: String(txn.extra?.network ?? CHECKOUT_CHANNEL[payType]),
        amount: shillings(txn.amount),
        phone: txn.phone,
      };
      // A forged or corrupted notification: signed with a secret that is not the one issued to us.
      const secret = deps.book(payType).takeFault('bad_signature') ? crypto.randomBytes(24).toString('base64') : c.apiSecret!;
      return { headers: { 'Content-Type': 'application/json', ...signedHeaders({ apiKey: c.apiKey!, apiSecret: secret }, nowMs, body) }, body: JSON.stringify(body) };
    };
  },

  newCredentials() {
    const apiKey = `DAU-${crypto.randomBytes(12).toString('hex').toUpperCase()}`;
    const apiSecret = crypto.randomBytes(32).toString('base64');
    const vendor = `TILL${crypto.randomInt(10 ** 7, 10 ** 8)}`;
    const floatVendor = `DAUFLOAT${crypto.randomInt(10 ** 5, 10 ** 6)}`;
    const pin = String(crypto.randomInt(0, 10_000)).padStart(4, '0');
    return {
      sandbox: { apiKey, apiSecret, vendor, floatVendor, pin },
      account: { settings: { vendor, floatVendor, buyerEmail: 'payments@sandbox.invalid', buyerName: 'Dau bettor' }, secrets: { apiKey, apiSecret, pin } },
    };
  },
};
