import { authenticator } from 'otplib';
import type QRCodeModule from 'qrcode';
import { onFirstUse } from '../../platform/lazy.js';

const qrCodes = onFirstUse<typeof QRCodeModule>('qrcode');
import { sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db.js';
import { totpSteps } from './schema.js';

/** RFC 6238 time step of Google authenticator codes. */
export const TOTP_STEP_SECONDS = 30;
authenticator.options = { window: 0, step: TOTP_STEP_SECONDS, digits: 6 };

export const newTotpSecret = () => authenticator.generateSecret(20);
export const totpStepAt = (ms: number) => Math.floor(ms / 1000 / TOTP_STEP_SECONDS);
/** The code of the step that holds the instant `ms` (tests, and the codes shown while binding). */
export const totpAt = (secret: string, ms: number) => authenticator.clone({ epoch: ms }).generate(secret);
export const totpNow = (secret: string) => totpAt(secret, Date.now());

/**
 * The time step of `code` when it is the code of the current step, else null. Only the current step is
 * accepted: no drift window (a code typed at the very end of its 30 s is refused and the next one asked).
 */
export function totpMatch(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    return authenticator.clone({ epoch: now }).check(code, secret) ? totpStepAt(now) : null;
  } catch {
    return null;
  }
}

/**
 * Records `step` as the admin's last accepted step, atomically: false when that step or a later one was
 * already used (a replayed code, or a race of two requests with the same code: only one wins).
 */
export async function consumeTotpStep(ex: Executor, adminId: number, step: number): Promise<boolean> {
  const rows = await ex
    .insert(totpSteps)
    .values({ adminId, lastStep: step })
    .onConflictDoUpdate({ target: totpSteps.adminId, set: { lastStep: step }, setWhere: sql`${totpSteps.lastStep} < ${step}` })
    .returning({ adminId: totpSteps.adminId });
  return rows.length === 1;
}

/** The code is the current step's and was not used before: consumed now. */
export async function totpAccept(ex: Executor, adminId: number, secret: string, code: string, now = Date.now()): Promise<boolean> {
  const step = totpMatch(secret, code, now);
  return step !== null && consumeTotpStep(ex, adminId, step);
}

export async function totpSetup(account: string, issuer: string, secret: string) {
  const otpauthUrl = authenticator.keyuri(account, issuer, secret);
  const qrDataUrl = await qrCodes().toDataURL(otpauthUrl, { margin: 1, width: 220 });
  return { otpauth_url: otpauthUrl, qr_data_url: qrDataUrl };
}
