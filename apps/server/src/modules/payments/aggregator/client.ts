import crypto from 'node:crypto';
import {
  OperatorRefusedError, OperatorTimeoutError,
  type CallbackEvent, type ClientDeps, type CollectAnswer, type MobileMoneyOperator, type MoneyRequest, type OperatorStatus, type PayType, type ProviderAccount,
} from '../operators.js';
import { headerOf, joinUrl, requestJson, type JsonAnswer } from '../http.js';
import { CASHIN_UTILITY, NOT_FOUND, answerStatusOf, paymentStatusOf, queryStatusOf, reasonOf } from './codes.js';

/**
 * The client of Selcom's API gateway (the aggregator of Tigo Pesa and HaloPesa; Airtel and M-Pesa when an
 * operator is switched to it), one instance per pay type:
 * - collection: `POST /v1/checkout/create-order-minimal` (order_id = our serial number) then
 *   `POST /v1/checkout/wallet-payment` (the USSD push to the payer's wallet); the outcome comes by the signed
 *   checkout webhook or `GET /v1/checkout/order-status?order_id=`;
 * - disbursement: `POST /v1/walletcashin/process` (transid = our serial number, the wallet's utility code by
 *   pay type), answered at once with a result code; `GET /v1/walletcashin/query?transid=`;
 * - every request signed as Selcom documents it (Authorization `SELCOM base64(api key)`, Digest-Method
 *   HS256, Digest = base64 HMAC-SHA256 with the API secret over `timestamp=…&field=value…` of Signed-Fields),
 *   and the webhook checked the same way.
 */

const NETWORK: Record<PayType, string> = { 3: 'Tigo Pesa', 4: 'Airtel Money', 6: 'Vodacom M-Pesa', 7: 'HaloPesa' };
/** Selcom's webhook must sign at least these (its documented Signed-Fields, plus the amount we credit). */
const WEBHOOK_SIGNED = ['transid', 'order_id', 'reference', 'result', 'resultcode', 'payment_status', 'amount'];
/** A signed request or webhook older or newer than this is refused (a replay). */
export const MAX_SKEW_MS = 5 * 60_000;

// ------------------------------------------------------------------------------------------------
// Selcom's request signature (shared with the sandbox face, which checks what this makes).

/** Selcom's Timestamp header: ISO 8601 with the offset, in East Africa Time (`2019-02-26T09:30:46+03:00`). */
export const selcomTimestamp = (ms: number): string => `${new Date(ms + 3 * 3_600_000).toISOString().slice(0, 19)}+03:00`;
export const authorizationOf = (apiKey: string): string => `SELCOM ${Buffer.from(apiKey, 'utf8').toString('base64')}`;
const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** base64 HMAC-SHA256 with the API secret over `timestamp=<ts>&f1=v1&f2=v2…` in Signed-Fields order. */
export function digestOf(secret: string, timestamp: string, fields: readonly string[], values: Record<string, unknown>): string {
  const data = [`timestamp=${timestamp}`, ...fields.map((f) => `${f}=${text(values[f])}`)].join('&');
  return crypto.createHmac('sha256', secret).update(data, 'utf8').digest('base64');
}

/** The headers of a request (or webhook) signing every field of `values`, in their order. */
export function signedHeaders(keys: { apiKey: string; apiSecret: string }, nowMs: number, values: Record<string, unknown>): Record<string, string> {
  const fields = Object.keys(values);
  const timestamp = selcomTimestamp(nowMs);
  return {
    Authorization: authorizationOf(keys.apiKey),
    'Digest-Method': 'HS256',
    Digest: digestOf(keys.apiSecret, timestamp, fields, values),
    Timestamp: timestamp,
    'Signed-Fields': fields.join(','),
  };
}

const sameText = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Checks Selcom's signature headers over `values`; answers why it is not genuine, or null when it is. */
export function signatureProblem(
  headers: Record<string, string | string[] | undefined>,
  values: Record<string, unknown>,
  keys: { apiKey: string; apiSecret: string },
  nowMs: number,
  mustSign: readonly string[],
): string | null {
  const auth = headerOf(headers, 'authorization') ?? '';
  if (!sameText(auth, authorizationOf(keys.apiKey))) return 'unknown API key';
  if (headerOf(headers, 'digest-method') !== 'HS256') return 'unsupported Digest-Method';
  const timestamp = headerOf(headers, 'timestamp') ?? '';
  const at = Date.parse(timestamp);
  if (!Number.isFinite(at) || Math.abs(nowMs - at) > MAX_SKEW_MS) return 'stale or missing Timestamp';
  const fields = (headerOf(headers, 'signed-fields') ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  if (!fields.length || new Set(fields).size !== fields.length) return 'bad Signed-Fields';
  if (fields.some((f) => !Object.hasOwn(values, f))) return 'Signed-Fields names a field that is not there';
  if (mustSign.some((f) => !fields.includes(f))) return 'a required field is not signed';
  const digest = headerOf(headers, 'digest') ?? '';
  return sameText(digest, digestOf(keys.apiSecret, timestamp, fields, values)) ? null : 'digest mismatch';
}

// ------------------------------------------------------------------------------------------------
// Amounts and numbers

/** Cents of TSh to Selcom's whole shillings; a fraction of a shilling is refused, never rounded. */
export function shillingsOf(cents: number, operator: string): number {
  if (!Number.isSafeInteger(cents) || cents <= 0 || cents % 100 !== 0) {
    throw new OperatorRefusedError(operator, 'AMOUNT', `TSh ${cents / 100} is not a whole number of shillings`);
  }
  return cents / 100;
}

/** Selcom's amount ("15000", "15000.00") in cents; undefined when it is not an amount. */
export function centsOf(v: unknown): number | undefined {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text(v).trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : undefined;
}

/** 255XXXXXXXXX as Selcom's wallet cash-in shows the recipient (`utilityref`): 0XXXXXXXXX. */
export const localMsisdn = (msisdn: string): string => (/^255\d{9}$/.test(msisdn) ? `0${msisdn.slice(3)}` : msisdn);

// ------------------------------------------------------------------------------------------------

interface SelcomAccount {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The checkout merchant (vendor) id. */
  vendor: string;
  /** The float account wallet cash-in is paid from, and its PIN. */
  floatVendor: string;
  pin: string;
  buyerEmail: string;
  buyerName: string;
}

function accountOf(a: ProviderAccount, operator: string): SelcomAccount {
  const { apiKey, apiSecret, pin } = a.secrets;
  const { vendor, floatVendor } = a.settings;
  if (!apiKey || !apiSecret || !vendor) throw new OperatorRefusedError(operator, 'CONFIG', 'the Selcom account lacks its API key, secret or vendor');
  return {
    baseUrl: a.baseUrl, apiKey, apiSecret, vendor, floatVendor: floatVendor || vendor, pin: pin ?? '',
    buyerEmail: a.settings.buyerEmail || 'payments@invalid.invalid', buyerName: a.settings.buyerName || 'Customer',
  };
}

type Kind = 'collect' | 'disburse';
interface Found { status: OperatorStatus; reason?: string; amount?: number; carrierRef?: string; notFound?: boolean }

export class SelcomClient implements MobileMoneyOperator {
  readonly payType: PayType;
  readonly name: string;
  /** The account last read (kept for a webhook that arrives while the account cannot be read). */
  private last: SelcomAccount | null = null;
  /**
   * Selcom's reference → our serial number. Its status APIs take only our ids (order_id, transid) while the
   * services re-query by the carrier number once they have it; a reference this process has not seen is
   * tried as our id (and answers "unknown" when it is not one).
   */
  private readonly refs = new Map<string, { reference: string; kind: Kind }>();

  constructor(private readonly deps: ClientDeps) {
    this.payType = deps.payType;
    this.name = `Selcom (${NETWORK[deps.payType]})`;
  }

  private async account(): Promise<SelcomAccount> {
    const a = accountOf(await this.deps.account(), this.name);
    this.last = a;
    return a;
  }

  private remember(carrierRef: string | undefined, reference: string, kind: Kind) {
    if (!carrierRef || carrierRef === reference) return;
    this.refs.set(carrierRef, { reference, kind });
    if (this.refs.size > 10_000) this.refs.delete(this.refs.keys().next().value!);
  }

  /** One signed call; 401/403 and other 4xx are refusals (nothing moved); transport errors and 5xx throw OperatorTimeoutError. */
  private async call(method: 'GET' | 'POST', path: string, values: Record<string, string | number>): Promise<Record<string, unknown>> {
    const acc = await this.account();
    const headers = signedHeaders(acc, this.deps.now(), values);
    const url = joinUrl(acc.baseUrl, path);
    const ans: JsonAnswer = method === 'GET'
      ? await requestJson(this.deps.fetch, this.name, url, { method, headers, query: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])) })
      : await requestJson(this.deps.fetch, this.name, url, { method, headers, body: values });
    if (ans.status >= 400) {
      throw new OperatorRefusedError(this.name, String(ans.body?.resultcode ?? ans.status), `HTTP ${ans.status} from ${path}: ${text(ans.body?.message) || ans.text.slice(0, 200)}`);
    }
    // A 2xx we cannot read says nothing about the money.
    if (!ans.body) throw new OperatorTimeoutError(this.name, `unreadable answer from ${path}`);
    return ans.body;
  }

  collect(req: MoneyRequest): Promise<CollectAnswer> {
    return this.checkout(req);
  }

  /** The USSD push: Selcom's checkout wallet pull is the push to the payer's handset. */
  ussdPush(req: MoneyRequest): Promise<CollectAnswer> {
    return this.checkout(req);
  }

  private async checkout(req: MoneyRequest): Promise<CollectAnswer> {
    const amount = shillingsOf(req.amount, this.name);
    const acc = await this.account();
    const order = await this.call('POST', '/v1/checkout/create-order-minimal', {
      vendor: acc.vendor, order_id: req.reference, buyer_email: acc.buyerEmail, buyer_name: acc.buyerName, buyer_phone: req.phone,
      amount, currency: 'TZS', webhook: Buffer.from(this.deps.callbackUrl, 'utf8').toString('base64'),
      buyer_remarks: 'Deposit', merchant_remarks: req.reference, no_of_items: 1,
    });
    const created = text(order.resultcode);
    const cs = answerStatusOf(created);
    if (cs === 'failed') throw new OperatorRefusedError(this.name, created, reasonOf(created, text(order.message)));
    if (cs !== 'success') throw new OperatorTimeoutError(this.name, `create-order-minimal answered ${created}`);
    const push = await this.call('POST', '/v1/checkout/wallet-payment', { transid: req.reference, order_id: req.reference, msisdn: req.phone });
    const code = text(push.resultcode);
    const carrierRef = text(push.reference) || req.reference;
    this.remember(carrierRef, req.reference, 'collect');
    const st = answerStatusOf(code);
    // The push was refused: the payer was never asked (Selcom's word on this request).
    if (st === 'failed') return { carrierRef, status: 'failed', reason: reasonOf(code, text(push.message)) };
    if (st === 'unknown') throw new OperatorTimeoutError(this.name, `wallet-payment answered ${code} (ambiguous)`);
    // 000 / 111 / 927: the prompt is on its way; the payer's answer comes by webhook or order-status.
    return { carrierRef, status: 'pending' };
  }

  async disburse(req: MoneyRequest): Promise<{ carrierRef: string; status: 'pending' | 'success' | 'failed'; reason?: string }> {
    const amount = shillingsOf(req.amount, this.name);
    const acc = await this.account();
    const ans = await this.call('POST', '/v1/walletcashin/process', {
      transid: req.reference, utilitycode: CASHIN_UTILITY[this.payType], utilityref: localMsisdn(req.phone), amount,
      vendor: acc.floatVendor, pin: acc.pin, msisdn: req.phone,
    });
    const code = text(ans.resultcode);
    const carrierRef = text(ans.reference) || req.reference;
    this.remember(carrierRef, req.reference, 'disburse');
    const st = answerStatusOf(code);
    if (st === 'success' || st === 'pending') return { carrierRef, status: st };
    if (st === 'unknown') throw new OperatorTimeoutError(this.name, `walletcashin answered ${code} (ambiguous)`);
    // A FAIL: believed only once the query agrees (a repeated transid may be refused although the first paid).
    const q = await this.queryCashin(req.reference);
    if (q.notFound) return { carrierRef, status: 'failed', reason: reasonOf(code, text(ans.message)) };
    if (q.status === 'success' || q.status === 'pending') return { carrierRef: q.carrierRef ?? carrierRef, status: q.status };
    if (q.status === 'failed') return { carrierRef: q.carrierRef ?? carrierRef, status: 'failed', reason: q.reason };
    throw new OperatorTimeoutError(this.name, `walletcashin answered ${code} and its query ${q.status}`);
  }

  async queryStatus(ref: string): Promise<{ status: OperatorStatus; reason?: string; amount?: number; carrierRef?: string }> {
    const known = this.refs.get(ref);
    const ours = known?.reference ?? ref;
    const kinds: Kind[] = known ? [known.kind] : ['collect', 'disburse'];
    try {
      for (const kind of kinds) {
        const { notFound, ...found } = kind === 'collect' ? await this.queryOrder(ours) : await this.queryCashin(ours);
        if (!notFound) return found;
      }
      return { status: 'unknown' };
    } catch (err) {
      // No answer (or our request refused): nothing is known, nothing is decided.
      if (err instanceof OperatorTimeoutError || err instanceof OperatorRefusedError) {
        this.deps.log('selcom status query failed', { ref, err: String(err) });
        return { status: 'pending' };
      }
      throw err;
    }
  }

  private async queryOrder(orderId: string): Promise<Found> {
    const ans = await this.call('GET', '/v1/checkout/order-status', { order_id: orderId });
    const code = text(ans.resultcode);
    const row = Array.isArray(ans.data) ? (ans.data[0] as Record<string, unknown> | undefined) : undefined;
    if (code === NOT_FOUND || (code === '000' && !row)) return { status: 'unknown', notFound: true };
    if (code !== '000' || !row) return { status: queryStatusOf(code) === 'pending' ? 'pending' : 'unknown' };
    const ps = text(row.payment_status);
    const status = paymentStatusOf(ps);
    const carrierRef = text(row.reference) || undefined;
    this.remember(carrierRef, orderId, 'collect');
    return {
      status, carrierRef, amount: status === 'success' ? centsOf(row.amount) : undefined,
      reason: status === 'failed' ? `Checkout order not paid at Selcom (payment_status ${ps})` : undefined,
    };
  }

  private async queryCashin(transid: string): Promise<Found> {
    const ans = await this.call('GET', '/v1/walletcashin/query', { transid });
    const code = text(ans.resultcode);
    if (code === NOT_FOUND) return { status: 'unknown', notFound: true };
    const row = Array.isArray(ans.data) ? (ans.data[0] as Record<string, unknown> | undefined) : undefined;
    const status = queryStatusOf(code);
    const carrierRef = text(ans.reference) || text(row?.reference) || undefined;
    this.remember(carrierRef, transid, 'disburse');
    return {
      status, carrierRef, amount: status === 'success' ? centsOf(row?.amount ?? ans.amount) : undefined,
      reason: status === 'failed' ? reasonOf(code, text(ans.message)) : undefined,
    };
  }

  async verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<CallbackEvent | null> {
    // The account as it is now (a rotated secret; read before any call of ours after a restart, too).
    const acc = await this.account().catch(() => this.last);
    if (!acc || !headerOf(headers, 'digest')) return null;
    let body: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(rawBody);
      if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
      body = v as Record<string, unknown>;
    } catch {
      return null;
    }
    if (signatureProblem(headers, body, acc, this.deps.now(), WEBHOOK_SIGNED)) return null;
    const ps = text(body.payment_status);
    const code = text(body.resultcode);
    let status = paymentStatusOf(ps);
    // COMPLETED must come with 000: a contradiction is not a word we act on.
    if (status === 'success' && answerStatusOf(code) !== 'success') status = 'unknown';
    const amount = centsOf(body.amount);
    const reference = text(body.order_id);
    const carrierRef = text(body.reference);
    if ((status !== 'success' && status !== 'failed') || amount === undefined || !reference || !carrierRef) return null;
    this.remember(carrierRef, reference, 'collect');
    return {
      payType: this.payType,
      // Selcom's webhook carries no notification id: a notification is its order, reference and outcome (a re-sent one repeats them).
      eventId: `selcom:${reference}:${carrierRef}:${ps}`,
      kind: 'collect',
      reference,
      carrierRef,
      status,
      amount,
      reason: status === 'failed' ? reasonOf(code, undefined, ps) : undefined,
      payload: body,
      ack: (a) => ({ reference: carrierRef, resultcode: a.ok ? '000' : '999', result: a.ok ? 'SUCCESS' : 'FAIL', message: a.duplicate ? 'Duplicate accepted' : a.ok ? 'Accepted' : a.reason ?? 'Not applied' }),
    };
  }
}
