/**
 * Authentication of a provider's wallet call (design "The wallet API"): the signed bytes are
 * `${timestamp}.${rawBody}`; 'rsa' providers sign with RSA-SHA256 (verified with their public key),
 * 'hmac' providers with HMAC-SHA256 of the shared secret (compared in constant time). The timestamp
 * (unix seconds) must lie within ±CASINO_SIGNATURE_WINDOW_SECONDS of our clock.
 */
import crypto from 'node:crypto';
import { ipMatches } from '@dau/domain';
import { CASINO_SIGNATURE_WINDOW_SECONDS } from '@dau/contract';

const keys = new Map<string, crypto.KeyObject | null>();

function publicKeyOf(pem: string): crypto.KeyObject | null {
  let k = keys.get(pem);
  if (k === undefined) {
    try {
      k = crypto.createPublicKey(pem);
    } catch {
      k = null;
    }
    if (keys.size > 1000) keys.clear();
    keys.set(pem, k);
  }
  return k;
}

/** The timestamp header as unix seconds inside the window, or null. */
export function timestampInWindow(header: string | undefined, nowMs: number, windowSeconds = CASINO_SIGNATURE_WINDOW_SECONDS): number | null {
  if (!header || !/^\d{1,12}$/.test(header)) return null;
  const t = Number(header);
  return Math.abs(nowMs / 1000 - t) <= windowSeconds ? t : null;
}

export interface SignerKey {
  authKind: string;
  /** PEM public key ('rsa'). */
  publicKey: string;
  /** Plain shared secret ('hmac'). */
  secret: string;
}

/** Whether `signatureB64` signs `${timestamp}.${rawBody}` for this provider. */
export function verifySignature(p: SignerKey, timestamp: string, rawBody: string, signatureB64: string | undefined): boolean {
  if (!signatureB64 || signatureB64.length > 2048) return false;
  const given = Buffer.from(signatureB64, 'base64');
  if (!given.length) return false;
  const data = Buffer.from(`${timestamp}.${rawBody}`, 'utf8');
  if (p.authKind === 'rsa') {
    const key = publicKeyOf(p.publicKey);
    if (!key) return false;
    try {
      return crypto.verify('sha256', data, key, given);
    } catch {
      return false;
    }
  }
  if (p.authKind === 'hmac') {
    if (!p.secret) return false;
    const expected = crypto.createHmac('sha256', p.secret).update(data).digest();
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }
  return false;
}

/** The signature header a provider sends (for the sandbox provider and tests). */
export function signWalletBody(p: { authKind: 'hmac'; secret: string } | { authKind: 'rsa'; privateKey: crypto.KeyLike }, timestamp: number, rawBody: string): string {
  const data = Buffer.from(`${timestamp}.${rawBody}`, 'utf8');
  if (p.authKind === 'hmac') return crypto.createHmac('sha256', p.secret).update(data).digest('base64');
  return crypto.sign('sha256', data, p.privateKey).toString('base64');
}

/** Whether the caller's address is allowed (an empty list allows any). */
export function ipAllowed(allowed: readonly string[], ip: string): boolean {
  return !allowed.length || allowed.some((e) => ipMatches(ip, e));
}
