import crypto from 'node:crypto';
import { OperatorTimeoutError, type FetchLike } from './operators.js';

/**
 * Shared plumbing of the mobile-money clients and sandbox faces (issue 28): one JSON request with a timeout,
 * the providers' RSA PKCS#1 v1.5 scheme (M-Pesa's bearer, Airtel's PIN), a cached token or session keyed by
 * its expiry, and header reading. Written once here for every provider (./mpesa, ./airtel, ./aggregator).
 */

/** How long a call to a provider may take before its answer counts as lost (money may have moved). */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface JsonRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as JSON (a string is sent as is). */
  body?: unknown;
  /** Query string parameters (GET APIs such as M-Pesa's queryTransactionStatus). */
  query?: Record<string, string>;
  timeoutMs?: number;
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined when empty or not JSON). */
  body: Record<string, unknown> | undefined;
  text: string;
}

/**
 * One call to a provider. A network error, a timeout and any 5xx throw OperatorTimeoutError: the provider
 * may have acted on the request, so the caller must find out by a status query, never assume a failure.
 * A 4xx (and any 2xx/3xx) is answered for the caller to read the provider's own code.
 */
export async function requestJson(fetch: FetchLike, operator: string, url: string, req: JsonRequest = {}): Promise<JsonAnswer> {
  const qs = req.query ? new URLSearchParams(req.query).toString() : '';
  const full = qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  let body: string | undefined;
  if (req.body !== undefined) {
    body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  }
  let res: Response;
  let text: string;
  try {
    res = await fetch(full, { method: req.method ?? 'GET', headers, body, signal: AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS) });
    text = await res.text();
  } catch (err) {
    throw new OperatorTimeoutError(operator, `no answer from ${req.method ?? 'GET'} ${url} (${(err as Error)?.name ?? 'error'}: ${(err as Error)?.message ?? String(err)})`);
  }
  const parsed = parseJson(text);
  if (res.status >= 500) {
    throw new OperatorTimeoutError(operator, `HTTP ${res.status} from ${req.method ?? 'GET'} ${url}${text ? `: ${text.slice(0, 200)}` : ''}`);
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

function parseJson(text: string): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------------------------------------
// RSA PKCS#1 v1.5, as the providers' portals specify it (a base64 DER or PEM public key; base64 ciphertext).

/** A public key as portals hand it out: PEM, or base64 DER SubjectPublicKeyInfo without the PEM lines. */
export function publicKeyOf(key: string): crypto.KeyObject {
  const k = key.trim();
  if (k.startsWith('-----')) return crypto.createPublicKey(k);
  return crypto.createPublicKey({ key: Buffer.from(k.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
}

/** A private key: PEM, or base64 DER PKCS#8. */
export function privateKeyOf(key: string): crypto.KeyObject {
  const k = key.trim();
  if (k.startsWith('-----')) return crypto.createPrivateKey(k);
  return crypto.createPrivateKey({ key: Buffer.from(k.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'pkcs8' });
}

/** Encrypts `plain` under the provider's public key with PKCS#1 v1.5 padding; base64. */
export function rsaEncrypt(publicKey: string, plain: string): string {
  return crypto.publicEncrypt({ key: publicKeyOf(publicKey), padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(plain, 'utf8')).toString('base64');
}

/**
 * Decrypts a base64 PKCS#1 v1.5 ciphertext (the sandbox faces, holding the provider's private key); null when
 * it is not one made with the matching public key. Node refuses PKCS#1 v1.5 private decryption since
 * CVE-2023-46809 (a timing oracle, which matters to the real provider, not to a sandbox), so this does the
 * raw RSA operation and checks the padding itself.
 */
export function rsaDecrypt(privateKey: string, base64: string): string | null {
  try {
    const key = privateKeyOf(privateKey);
    const size = (key.asymmetricKeyDetails?.modulusLength ?? 2048) / 8;
    const data = Buffer.from(base64, 'base64');
    if (data.length !== size) return null;
    const em = crypto.privateDecrypt({ key, padding: crypto.constants.RSA_NO_PADDING }, data);
    // EM = 0x00 || 0x02 || PS (at least 8 non-zero bytes) || 0x00 || M
    if (em[0] !== 0x00 || em[1] !== 0x02) return null;
    const sep = em.indexOf(0x00, 2);
    if (sep < 10) return null;
    return em.subarray(sep + 1).toString('utf8');
  } catch {
    return null;
  }
}

/** A fresh RSA key pair as portals issue them: base64 DER (SPKI public, PKCS#8 private), no PEM lines. */
export function newRsaKeyPair(bits = 2048): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

// ------------------------------------------------------------------------------------------------
// Tokens and sessions

/**
 * A token or session the provider issued, kept until shortly before it expires (against the client's clock,
 * `deps.now()`, so tests move time). `key` identifies the credentials it was issued for: a changed account
 * loads a fresh one. Concurrent callers share one load; `invalidate(value)` drops it only if it is still the
 * one that was refused, so two calls refused at once refresh once.
 */
export class ExpiringCache<T> {
  private held: { key: string; value: T; expiresAt: number } | null = null;
  private loading: { key: string; promise: Promise<T> } | null = null;

  constructor(
    private readonly now: () => number,
    /** Refresh this long before the stated expiry (clock drift, the request's own time in flight). */
    private readonly marginMs = 30_000,
  ) {}

  async get(key: string, load: () => Promise<{ value: T; expiresAt: number }>): Promise<T> {
    const h = this.held;
    if (h && h.key === key && this.now() < h.expiresAt - this.marginMs) return h.value;
    if (this.loading?.key === key) return this.loading.promise;
    const promise = load().then(
      (got) => {
        this.held = { key, ...got };
        return got.value;
      },
    );
    const mine = { key, promise };
    this.loading = mine;
    try {
      return await promise;
    } finally {
      if (this.loading === mine) this.loading = null;
    }
  }

  /** Forgets `value` (the provider refused it as expired); another value loaded since is kept. */
  invalidate(value?: T): void {
    if (this.held && (value === undefined || this.held.value === value)) this.held = null;
  }
}

/** A short stable fingerprint of credentials, for ExpiringCache keys (never the secret itself). */
export const fingerprint = (...parts: string[]): string => crypto.createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);

// ------------------------------------------------------------------------------------------------
// Headers

/** A header of a received request, by name in any case (the first value when repeated). */
export function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== want || v === undefined) continue;
    return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(headerOf(headers, 'authorization')?.trim() ?? '');
  return m?.[1]?.trim();
}

/** Joins a base URL and a path with exactly one slash between them. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
