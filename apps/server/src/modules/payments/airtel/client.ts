import crypto from 'node:crypto';
import {
  OperatorRefusedError, OperatorTimeoutError,
  type CallbackEvent, type ClientDeps, type CollectAnswer, type MobileMoneyOperator, type MoneyRequest, type OperatorStatus, type PayType, type ProviderAccount,
} from '../operators.js';
import { ExpiringCache, fingerprint, joinUrl, requestJson, rsaEncrypt, type JsonAnswer } from '../http.js';
import { CODE, ROUTER_CODES, outcomeOf, type Kind } from './codes.js';

/**
 * The client of Airtel Money's Open API (developers.airtel.africa), pay type 4 in Tanzania (X-Country TZ,
 * X-Currency TZS):
 *  - `POST /auth/oauth2/token` (client credentials): a bearer token, kept until `expires_in`; a 401 on a
 *    call refreshes it once and retries;
 *  - collection by USSD push: `POST /merchant/v1/payments/` (`/merchant/v2/payments/` when the account has
 *    message signing, which v2 introduced), answered "in process" (DP00800001006); the outcome comes by the
 *    callback or `GET /standard/v1/payments/{id}`;
 *  - disbursement: `POST /standard/v2/disbursements/` with the PIN encrypted under Airtel's RSA public key,
 *    answered TS/TF at once or TIP/TA (then callback or `GET /standard/v2/disbursements/{id}`);
 *  - message signing (`x-signature`, `x-key`) when `settings.signing` is 'on';
 *  - the callback `{ transaction: { id, message, status_code, airtel_money_id }, hash }`, the hash being the
 *    base64 HMAC-SHA256 of the transaction under the callback key configured in the Airtel portal.
 * `transaction.id` is our serial number (the idempotency reference): Airtel keys enquiries on it.
 *
 * Account: settings { country, currency, signing: 'on'|'off' }, secrets { client_id, client_secret,
 * public_key (Airtel's RSA key, base64 DER), pin (the 4-digit disbursement PIN), callback_key }.
 */

const NAME = 'Airtel Money';
const PATHS = {
  token: '/auth/oauth2/token',
  collect: (signed: boolean) => (signed ? '/merchant/v2/payments/' : '/merchant/v1/payments/'),
  collectEnquiry: (id: string) => `/standard/v1/payments/${encodeURIComponent(id)}`,
  disburse: '/standard/v2/disbursements/',
  disburseEnquiry: (id: string) => `/standard/v2/disbursements/${encodeURIComponent(id)}`,
};

/** Our serial numbers: withdrawals are W…, recharges R… (modules/money newSerial). */
const kindOfReference = (reference: string): Kind => (reference.startsWith('W') ? 'disburse' : 'collect');

/** 255XXXXXXXXX → XXXXXXXXX: Airtel wants the MSISDN without the country code. */
export function localMsisdn(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.startsWith('255') ? digits.slice(3) : digits.replace(/^0/, '');
}

/** Cents of TSh → whole shillings (TZS has no minor unit at Airtel); never rounds. */
function shillings(amount: number): number | null {
  return Number.isSafeInteger(amount) && amount > 0 && amount % 100 === 0 ? amount / 100 : null;
}

// ------------------------------------------------------------------------------------------------
// Message signing and the callback hash (the sandbox face checks and makes them with the same functions).

/**
 * Airtel's message signing: a fresh AES-256 key and 128-bit IV; `x-signature` = base64 of the body
 * encrypted with AES/CBC/PKCS5Padding; `x-key` = base64 of "base64(key):base64(iv)" encrypted under
 * Airtel's RSA public key. Airtel decrypts x-key, encrypts the body it received the same way and compares.
 */
export function signPayload(publicKey: string, body: string): { 'x-signature': string; 'x-key': string } {
  const key = crypto.randomBytes(32);
  const iv = crypto.randomBytes(16);
  return { 'x-signature': aesSign(key, iv, body), 'x-key': rsaEncrypt(publicKey, `${key.toString('base64')}:${iv.toString('base64')}`) };
}

export function aesSign(key: Buffer, iv: Buffer, body: string): string {
  const c = crypto.createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([c.update(body, 'utf8'), c.final()]).toString('base64');
}

/** The callback's `hash`: base64 HMAC-SHA256 of the `transaction` object, as serialised in the body. */
export function callbackHash(key: string, transaction: unknown): string {
  return crypto.createHmac('sha256', key).update(JSON.stringify(transaction)).digest('base64');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

// ------------------------------------------------------------------------------------------------

type Envelope = {
  data?: { transaction?: { id?: unknown; status?: unknown; message?: unknown; airtel_money_id?: unknown; reference_id?: unknown } };
  status?: { code?: unknown; message?: unknown; response_code?: unknown; result_code?: unknown; success?: unknown };
  status_code?: unknown;
  status_message?: unknown;
  error?: unknown;
  error_description?: unknown;
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

export class AirtelClient implements MobileMoneyOperator {
  readonly payType: PayType;
  readonly name = NAME;
  private readonly tokens: ExpiringCache<string>;
  /** The account as last read (kept for a callback that arrives while the account cannot be read). */
  private account: ProviderAccount | null = null;
  /** Airtel's transaction ids we were given → our reference (Airtel's enquiries take our id). */
  private readonly byAirtelId = new Map<string, string>();

  constructor(private readonly deps: ClientDeps) {
    this.payType = deps.payType;
    this.tokens = new ExpiringCache<string>(deps.now);
  }

  // -- the adapter ---------------------------------------------------------------------------------

  collect(req: MoneyRequest): Promise<CollectAnswer> {
    return this.ussdPush(req);
  }

  /** Airtel's only collection is the USSD push: the payer gets a PIN prompt; the outcome comes later. */
  async ussdPush(req: MoneyRequest): Promise<CollectAnswer> {
    const acct = await this.load();
    const amount = shillings(req.amount);
    if (amount === null) throw new OperatorRefusedError(NAME, 'AMOUNT', `${req.amount} cents is not a whole number of shillings`);
    const signed = acct.settings.signing === 'on';
    const res = await this.call(acct, 'POST', PATHS.collect(signed), {
      reference: req.reference,
      subscriber: { country: this.country(acct), currency: this.currency(acct), msisdn: localMsisdn(req.phone) },
      transaction: { amount, country: this.country(acct), currency: this.currency(acct), id: req.reference },
    });
    const env = res.body as Envelope | undefined;
    const code = str(env?.status?.response_code);
    const { status, reason } = outcomeOf('collect', undefined, code);
    // Airtel gives no id of its own before the payer answers: its transaction is known by our id.
    if (status === 'pending' || status === 'success') return { carrierRef: req.reference, status };
    if (status === 'unknown') throw new OperatorTimeoutError(NAME, `collection ${req.reference}: ${code ?? `HTTP ${res.status}`}`);
    throw new OperatorRefusedError(NAME, code ?? this.refusalCode(res), reason ?? res.text.slice(0, 200));
  }

  async disburse(req: MoneyRequest): Promise<{ carrierRef: string; status: 'pending' | 'success' | 'failed'; reason?: string }> {
    const acct = await this.load();
    const amount = shillings(req.amount);
    // Nothing was sent: a payout Airtel cannot take fails here (and its money goes back).
    if (amount === null) return { carrierRef: req.reference, status: 'failed', reason: `Not a whole number of shillings: ${req.amount / 100}` };
    const pin = acct.secrets.pin;
    const key = acct.secrets.public_key;
    if (!pin || !key) throw new OperatorRefusedError(NAME, 'CONFIG', 'the account has no disbursement PIN or Airtel public key');
    const res = await this.call(acct, 'POST', PATHS.disburse, {
      payee: { msisdn: localMsisdn(req.phone), wallet_type: 'NORMAL' },
      reference: req.reference,
      pin: rsaEncrypt(key, pin),
      transaction: { amount, id: req.reference, type: 'B2C' },
    });
    const env = res.body as Envelope | undefined;
    const code = str(env?.status?.response_code);
    // A repeat of our id: Airtel has that payout (it never pays twice); its state is the enquiry's.
    if (code === CODE.disburseDuplicate) return this.disbursementState(req.reference);
    const router = str(env?.status_code);
    if (router && ROUTER_CODES[router]) throw new OperatorRefusedError(NAME, router, ROUTER_CODES[router]);
    const txn = env?.data?.transaction;
    const carrierRef = this.remember(req.reference, str(txn?.airtel_money_id));
    const tStatus = str(txn?.status);
    // TA in the answer: Airtel holds the payout but cannot say yet; the callback or the enquiry will.
    if (tStatus === 'TA' || tStatus === 'TIP') return { carrierRef, status: 'pending' };
    const out = outcomeOf('disburse', tStatus, code);
    if (out.status === 'success' || out.status === 'pending') return { carrierRef, status: out.status };
    if (out.status === 'failed') return { carrierRef, status: 'failed', reason: out.reason };
    throw new OperatorTimeoutError(NAME, `disbursement ${req.reference}: ${code ?? `HTTP ${res.status}`}`);
  }

  async queryStatus(ref: string): Promise<{ status: OperatorStatus; reason?: string; amount?: number; carrierRef?: string }> {
    const reference = this.byAirtelId.get(ref) ?? ref;
    const e = await this.enquire(reference);
    // Airtel's enquiry does not restate the amount: only our own record has it.
    return { status: e.status, reason: e.reason, carrierRef: e.airtelId };
  }

  async verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<CallbackEvent | null> {
    // The account's callback key as it is now (read before any call of ours after a restart, too).
    const acct = await this.load().catch(() => this.account);
    const key = acct?.secrets.callback_key;
    // Without callback authentication anyone could post a "TS": we then rely on enquiries alone.
    if (!key) return null;
    let body: { transaction?: Record<string, unknown>; hash?: unknown };
    try {
      body = JSON.parse(rawBody);
    } catch {
      return null;
    }
    const t = body?.transaction;
    const hash = str(body?.hash);
    if (!t || typeof t !== 'object' || !hash || !sameText(hash, callbackHash(key, t))) return null;
    const id = str(t.id);
    const statusCode = str(t.status_code);
    const airtelId = str(t.airtel_money_id) ?? '';
    if (!id || (statusCode !== 'TS' && statusCode !== 'TF')) {
      // Only final callbacks move money; an intermediate one (TIP/TA) is left for the enquiry.
      this.deps.log('airtel callback not final', { id, statusCode });
      return null;
    }
    const message = str(t.message);
    return {
      payType: this.payType,
      // Airtel's callbacks carry no notification id: a re-send is the same body, hence the same id.
      eventId: `airtel:${id}:${statusCode}:${airtelId}`,
      kind: kindOfReference(id),
      reference: id,
      carrierRef: airtelId || id,
      status: statusCode === 'TS' ? 'success' : 'failed',
      reason: statusCode === 'TF' ? message ?? 'Transaction Failed (TF)' : undefined,
      // Airtel's callback does not state the amount (only in its free-text message): settle checks none.
      amount: undefined,
      payload: body as Record<string, unknown>,
    };
  }

  // -- internals -----------------------------------------------------------------------------------

  private country = (a: ProviderAccount) => a.settings.country || 'TZ';
  private currency = (a: ProviderAccount) => a.settings.currency || 'TZS';

  private async load(): Promise<ProviderAccount> {
    this.account = await this.deps.account();
    return this.account;
  }

  private remember(reference: string, airtelId: string | undefined): string {
    if (!airtelId) return reference;
    if (this.byAirtelId.size > 50_000) this.byAirtelId.clear();
    this.byAirtelId.set(airtelId, reference);
    return airtelId;
  }

  /** The enquiry of a transaction by our id (collection or disbursement, by our serial's kind). */
  private async enquire(reference: string): Promise<{ status: OperatorStatus; reason?: string; airtelId?: string; txnStatus?: string }> {
    const kind = kindOfReference(reference);
    const acct = await this.load();
    const path = kind === 'collect' ? PATHS.collectEnquiry(reference) : PATHS.disburseEnquiry(reference);
    const res = await this.call(acct, 'GET', path, undefined, kind === 'disburse' ? { transactionType: 'B2C' } : undefined);
    const env = res.body as Envelope | undefined;
    const txn = env?.data?.transaction;
    const txnStatus = str(txn?.status);
    const airtelId = str(txn?.airtel_money_id);
    if (airtelId) this.remember(reference, airtelId);
    return { ...outcomeOf(kind, txnStatus, str(env?.status?.response_code)), airtelId, txnStatus };
  }

  /** After "duplicate transaction id": the payout exists at Airtel; in progress or ambiguous, it is pending for us. */
  private async disbursementState(reference: string) {
    const e = await this.enquire(reference);
    const carrierRef = e.airtelId ?? reference;
    if (e.txnStatus === 'TA' || e.txnStatus === 'TIP') return { carrierRef, status: 'pending' as const };
    if (e.status === 'success' || e.status === 'pending') return { carrierRef, status: e.status };
    if (e.status === 'failed') return { carrierRef, status: 'failed' as const, reason: e.reason };
    throw new OperatorTimeoutError(NAME, `disbursement ${reference}: a duplicate whose state Airtel cannot tell`);
  }

  private refusalCode(res: JsonAnswer): string {
    const env = res.body as Envelope | undefined;
    return str(env?.status_code) ?? str(env?.error) ?? `HTTP_${res.status}`;
  }

  /** The bearer token, from the cache or `POST /auth/oauth2/token`. */
  private token(acct: ProviderAccount): Promise<string> {
    const { client_id: id = '', client_secret: secret = '' } = acct.secrets;
    return this.tokens.get(fingerprint(acct.baseUrl, id, secret), async () => {
      const res = await requestJson(this.deps.fetch, NAME, joinUrl(acct.baseUrl, PATHS.token), {
        method: 'POST',
        body: { client_id: id, client_secret: secret, grant_type: 'client_credentials' },
      });
      const b = res.body ?? {};
      const token = str(b.access_token);
      const seconds = Number(b.expires_in);
      if (res.status !== 200 || !token || !(seconds > 0)) {
        throw new OperatorRefusedError(NAME, str(b.error) ?? `HTTP_${res.status}`, str(b.error_description) ?? 'no access token');
      }
      return { value: token, expiresAt: this.deps.now() + seconds * 1000 };
    });
  }

  /** One API call with the bearer, the country headers and (when enabled) the signature; a 401 refreshes the token once. */
  private async call(acct: ProviderAccount, method: 'GET' | 'POST', path: string, payload?: unknown, query?: Record<string, string>): Promise<JsonAnswer> {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const send = async (token: string) => {
      const headers: Record<string, string> = {
        Accept: '*/*', 'X-Country': this.country(acct), 'X-Currency': this.currency(acct), Authorization: `Bearer ${token}`,
      };
      if (body !== undefined && acct.settings.signing === 'on') {
        if (!acct.secrets.public_key) throw new OperatorRefusedError(NAME, 'CONFIG', 'message signing needs the Airtel public key');
        Object.assign(headers, signPayload(acct.secrets.public_key, body));
      }
      return requestJson(this.deps.fetch, NAME, joinUrl(acct.baseUrl, path), { method, headers, body, query });
    };
    const first = await this.token(acct);
    let res = await send(first);
    if (res.status === 401) {
      this.tokens.invalidate(first);
      res = await send(await this.token(acct));
      if (res.status === 401) throw new OperatorRefusedError(NAME, 'UNAUTHORIZED', res.text.slice(0, 200));
    }
    return res;
  }
}

export const airtelClient = (deps: ClientDeps): MobileMoneyOperator => new AirtelClient(deps);
