/**
 * The FCM adapter: Firebase Cloud Messaging's HTTP v1 API through Google's official auth library.
 *
 * google-auth-library's JWT client signs the service account's RS256 assertion (iss = client_email,
 * scope = firebase.messaging, aud = the token URI), exchanges it at the token endpoint, caches the access
 * token until it expires and refreshes it on a 401; its `request` sends each message with that token.
 * The library (v10) always posts the assertion to Google's token URL, whatever the key file's token_uri
 * says; to reach the sandbox we give it its own gaxios transporter with a request interceptor that sends
 * that one URL to the sandbox's /token (the JWT still carries Google's token URI as aud, which the
 * sandbox checks as Google does). FCM itself is reached at the configured base URL.
 *
 * Where it goes: DAU_FCM_BASE_URL (production: https://fcm.googleapis.com) and optionally
 * DAU_FCM_TOKEN_URL; without DAU_FCM_BASE_URL, the sandbox FCM on 127.0.0.1:DAU_PUSH_SANDBOX_PORT (6049).
 * Tests point it at their own sandbox with `setFcmEndpoints`.
 */
import crypto from 'node:crypto';
import type { JWT } from 'google-auth-library';
import type * as GoogleAuth from 'google-auth-library';
import { onFirstUse } from '../../platform/lazy.js';

const googleAuth = onFirstUse<typeof GoogleAuth>('google-auth-library');
import { DEFAULT_PUSH_SANDBOX_PORT, FCM_SCOPE, GOOGLE_TOKEN_URL } from './sandbox.js';

export interface FcmEndpoints {
  /** FCM's origin, e.g. https://fcm.googleapis.com. */
  fcmBase: string;
  /** Where the token request goes (null: Google's, as the library does). */
  tokenUrl: string | null;
  sandbox: boolean;
}

export function fcmEndpointsFromEnv(env: NodeJS.ProcessEnv = process.env): FcmEndpoints {
  if (env.DAU_FCM_BASE_URL) return { fcmBase: env.DAU_FCM_BASE_URL.replace(/\/$/, ''), tokenUrl: env.DAU_FCM_TOKEN_URL || null, sandbox: false };
  const base = `http://127.0.0.1:${Number(env.DAU_PUSH_SANDBOX_PORT) || DEFAULT_PUSH_SANDBOX_PORT}`;
  return { fcmBase: base, tokenUrl: `${base}/token`, sandbox: true };
}

let endpoints: FcmEndpoints = fcmEndpointsFromEnv();
export const fcmEndpoints = () => endpoints;
/** Tests: the sandbox they started on port 0. */
export function setFcmEndpoints(e: FcmEndpoints) {
  endpoints = e;
  clients.clear();
}

export interface PushMessage {
  token: string;
  title: string;
  body: string;
  data?: Record<string, string>;
}

export type PushOutcome =
  | { ok: true; name: string }
  | { ok: false; code: string; message: string; /** The token is dead: mark the device. */ invalid: boolean; retryable: boolean; retryAfterMs?: number };

/** FCM's error codes that say the token is no use (docs: UNREGISTERED 404, INVALID_ARGUMENT 400 on the token, SENDER_ID_MISMATCH 403). */
const INVALID_TOKEN_CODES = new Set(['UNREGISTERED', 'INVALID_ARGUMENT', 'SENDER_ID_MISMATCH']);
/** Retried with exponential back-off (docs: 429 QUOTA_EXCEEDED, 503 UNAVAILABLE, 500 INTERNAL). */
const RETRYABLE_CODES = new Set(['QUOTA_EXCEEDED', 'UNAVAILABLE', 'INTERNAL', 'RESOURCE_EXHAUSTED', 'NETWORK']);

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
}

export function parseServiceAccount(json: string): ServiceAccountKey | null {
  try {
    const v = JSON.parse(json) as Record<string, unknown>;
    if (v.type !== 'service_account' || typeof v.client_email !== 'string' || typeof v.private_key !== 'string') return null;
    crypto.createPrivateKey(v.private_key);
    return { client_email: v.client_email, private_key: v.private_key };
  } catch {
    return null;
  }
}

/** One JWT client per key and endpoints (its access token is cached inside). */
const clients = new Map<string, JWT>();

function clientFor(key: ServiceAccountKey): JWT {
  const id = crypto.createHash('sha256').update(`${key.client_email}\n${key.private_key}\n${endpoints.tokenUrl}`).digest('hex');
  let c = clients.get(id);
  if (c) return c;
  const { JWT, gaxios } = googleAuth();
  const transporter = new gaxios.Gaxios();
  const tokenUrl = endpoints.tokenUrl;
  if (tokenUrl && tokenUrl !== GOOGLE_TOKEN_URL) {
    transporter.interceptors.request.add({
      resolved: async (o) => {
        if (String(o.url) === GOOGLE_TOKEN_URL) o.url = new URL(tokenUrl);
        return o;
      },
    });
  }
  c = new JWT({ email: key.client_email, key: key.private_key, scopes: [FCM_SCOPE], transporter });
  clients.set(id, c);
  return c;
}

function outcomeOfError(err: unknown): PushOutcome {
  const e = err as { response?: { status?: number; data?: any; headers?: any }; message?: string; code?: string };
  const res = e.response;
  if (!res) return { ok: false, code: 'NETWORK', message: String(e.message ?? e.code ?? 'network error').slice(0, 200), invalid: false, retryable: true };
  const data = res.data?.error;
  const detail = Array.isArray(data?.details) ? data.details.find((d: any) => String(d?.['@type'] ?? '').endsWith('google.firebase.fcm.v1.FcmError')) : undefined;
  // Errors of the token endpoint (invalid_grant…) answer { error: 'code', error_description }.
  const code = String(detail?.errorCode ?? data?.status ?? (typeof res.data?.error === 'string' ? res.data.error : `HTTP_${res.status}`));
  const message = String(data?.message ?? res.data?.error_description ?? e.message ?? '').slice(0, 300);
  const retryAfterHeader = typeof res.headers?.get === 'function' ? res.headers.get('retry-after') : res.headers?.['retry-after'];
  const retryAfterMs = retryAfterHeader && Number.isFinite(Number(retryAfterHeader)) ? Number(retryAfterHeader) * 1000 : undefined;
  // A bare 400 INVALID_ARGUMENT without the FcmError detail is a bad field of ours, not a dead token.
  const invalid = INVALID_TOKEN_CODES.has(code) && (code !== 'INVALID_ARGUMENT' || !!detail);
  return { ok: false, code, message, invalid, retryable: RETRYABLE_CODES.has(code) || (res.status ?? 0) >= 500, retryAfterMs };
}

/** Sends one message (one attempt). Never throws: the outcome says what FCM answered. */
export async function sendFcm(projectId: string, key: ServiceAccountKey, msg: PushMessage): Promise<PushOutcome> {
  try {
    const res = await clientFor(key).request<{ name: string }>({
      url: `${endpoints.fcmBase}/v1/projects/${encodeURIComponent(projectId)}/messages:send`,
      method: 'POST',
      data: { message: { token: msg.token, notification: { title: msg.title, body: msg.body }, ...(msg.data ? { data: msg.data } : {}) } },
      retry: false,
      timeout: 15_000,
    });
    return { ok: true, name: String(res.data?.name ?? '') };
  } catch (err) {
    return outcomeOfError(err);
  }
}
