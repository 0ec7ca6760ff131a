import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { validatePhone } from '@dau/domain';
import { bettors } from './schema.js';
import { promotionEvent } from '../promotions/index.js';
import { hashPassword } from '../../platform/crypto.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import type { Executor } from '../../platform/db.js';
import type { Scope } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function newInvitationCode(): string {
  return Array.from(crypto.randomBytes(8), (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

/**
 * Registers a bettor: the bettor-facing path (the simulator, a bettor app) calls this. The owning agent
 * is the inviter's agent when invited by code, else the given agent.
 */
export async function registerBettor(
  ex: Executor,
  input: { phone: string; name?: string; password?: string; agentId: number; inviterCode?: string; ip?: string },
) {
  const phone = validatePhone(input.phone);
  if (!phone.ok) throw badRequest(phone.code, [{ field: 'phone' }]);
  let inviterId: number | null = null;
  let agentId = input.agentId;
  if (input.inviterCode) {
    const [inv] = await ex.select({ id: bettors.id, agentId: bettors.agentId }).from(bettors).where(eq(bettors.invitationCode, input.inviterCode));
    if (!inv) throw badRequest('PARAM_INVALID', [{ field: 'invitation_code' }]);
    inviterId = inv.id;
    agentId = inv.agentId;
  }
  const taken = await ex.select({ id: bettors.id }).from(bettors).where(eq(bettors.phone, phone.value));
  if (taken.length) throw new AppError(409, 'ACCOUNT_EXISTS');
  const [row] = await ex
    .insert(bettors)
    .values({
      phone: phone.value, name: input.name ?? '', passwordHash: input.password ? await hashPassword(input.password) : '',
      invitationCode: newInvitationCode(), inviterId, agentId, registerIp: input.ip ?? null,
    })
    .returning();
  if (inviterId) await promotionEvent(ex, { kind: 'invited', bettorId: row.id, inviterId });
  return row;
}

/** Loads a bettor the caller may act on (404 when absent, 403 OUT_OF_SCOPE outside their scope), optionally locked. */
export async function scopedBettor(ex: Executor, scope: Scope, id: number, lock = false) {
  const q = ex.select().from(bettors).where(eq(bettors.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound();
  if (!agentInScope(scope, row.agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
  return row;
}
