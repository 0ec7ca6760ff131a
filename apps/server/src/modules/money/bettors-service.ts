import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { validatePhone } from '@dau/domain';
import type { BettorNetworkAnswer } from '@dau/contract';
import { bettors, bills } from './schema.js';
import { hashPassword } from '../../platform/crypto.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
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
  for (const l of bettorListeners.values()) await l.registered?.(ex, row);
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

/**
 * What other modules do in the transaction of a change to a bettor: promotions records the invitation of
 * a bettor who registers with an inviter; the modules that keep the bettor's branch on their own rows
 * (payments' recharges and withdrawals, promotions' qualifications) move them with the bettor. They
 * register here, so money depends on none of them; a module registers under its name, once.
 */
export interface BettorListener {
  registered?(ex: Executor, bettor: { id: number; inviterId: number | null }): Promise<void>;
  moved?(ex: Executor, bettorId: number, agentId: number): Promise<void>;
  /** What the module adds to the bettor's detail (GET /money/bettors/:id): payments adds the phone's `network`. */
  detail?(ex: Executor, bettor: { id: number; phone: string }): Promise<BettorDetailParts>;
}
/** The parts of a bettor's detail other modules answer (declared in the detail's answer schema). */
export interface BettorDetailParts {
  network?: BettorNetworkAnswer;
}
const bettorListeners = new Map<string, BettorListener>();
export function listenToBettors(module: string, listener: BettorListener): void {
  bettorListeners.set(module, listener);
}
/** Moves what the bettor's branch decides (their bills here, other modules' rows through their listeners). */
export async function moveBettorRows(ex: Executor, bettorId: number, agentId: number): Promise<void> {
  await ex.update(bills).set({ agentId }).where(eq(bills.bettorId, bettorId));
  for (const l of bettorListeners.values()) await l.moved?.(ex, bettorId, agentId);
}
/** The other modules' parts of a bettor's detail, merged. */
export async function bettorDetailParts(ex: Executor, bettor: { id: number; phone: string }): Promise<BettorDetailParts> {
  const parts: BettorDetailParts = {};
  for (const l of bettorListeners.values()) if (l.detail) Object.assign(parts, await l.detail(ex, bettor));
  return parts;
}


// The bettor's running totals (spec §3 User: total bets and their number, recharges, withdrawals, rewards)
// and last sign-in: kept by the modules whose events they count, in the event's transaction, through here.

/** One more order (sports, jackpot, racing) of `stake` cents. */
export async function countBet(ex: Executor, bettorId: number, stake: number): Promise<void> {
  await ex.update(bettors).set({ totalBets: sql`${bettors.totalBets} + ${stake}`, betsNum: sql`${bettors.betsNum} + 1` }).where(eq(bettors.id, bettorId));
}
/** A recharge paid: its amount, and the time of the last one (the transaction's time, never earlier than the one kept). */
export async function countRecharge(ex: Executor, bettorId: number, amount: number): Promise<void> {
  await ex
    .update(bettors)
    .set({ totalRecharge: sql`${bettors.totalRecharge} + ${amount}`, lastRechargeAt: sql`greatest(coalesce(${bettors.lastRechargeAt}, now()), now())` })
    .where(eq(bettors.id, bettorId));
}
/** A withdrawal paid out. */
export async function countWithdrawal(ex: Executor, bettorId: number, amount: number): Promise<void> {
  await ex.update(bettors).set({ totalWithdrawal: sql`${bettors.totalWithdrawal} + ${amount}` }).where(eq(bettors.id, bettorId));
}
/** A promotion's reward granted. */
export async function countReward(ex: Executor, bettorId: number, amount: number): Promise<void> {
  await ex.update(bettors).set({ totalReward: sql`${bettors.totalReward} + ${amount}` }).where(eq(bettors.id, bettorId));
}
/** A sign-in of the bettor now; false when there is no such bettor. */
export async function markSignedIn(ex: Executor, bettorId: number): Promise<boolean> {
  const moved = await ex.update(bettors).set({ lastLoginAt: new Date() }).where(eq(bettors.id, bettorId)).returning({ id: bettors.id });
  return moved.length > 0;
}

/**
 * A new bettor of the admin's branch with a random sandbox phone (2557 and 8 digits) and invitation code.
 * Parallel calls, other processes and earlier runs on the same database may hold the number drawn: the
 * insert skips a taken phone or code and draws again. With an inviter (a bettor of the admin's scope, found
 * by their invitation code), the bettor registers as invited: the inviter's agent's, and the other modules
 * hear of it as of any registration (promotions records the invitation).
 */
export async function newSandboxBettor(ex: Executor, agentId: number, tag: string, invite?: { code: string; scope: Scope }) {
  let inviter: { id: number; agentId: number } | null = null;
  if (invite) {
    const [inv] = await ex.select({ id: bettors.id, agentId: bettors.agentId }).from(bettors).where(eq(bettors.invitationCode, invite.code.trim().toUpperCase()));
    if (!inv) throw badRequest('PARAM_INVALID', [{ field: 'invitation_code' }]);
    if (!agentInScope(invite.scope, inv.agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
    inviter = inv;
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const phone = `2557${String(crypto.randomInt(0, 100_000_000)).padStart(8, '0')}`;
    const invitationCode = `S${crypto.randomBytes(6).toString('hex').toUpperCase()}`;
    const [b] = await ex
      .insert(bettors)
      .values({ phone, name: `Sandbox ${tag}`, agentId: inviter?.agentId ?? agentId, invitationCode, inviterId: inviter?.id ?? null })
      .onConflictDoNothing()
      .returning();
    if (b) {
      for (const l of bettorListeners.values()) await l.registered?.(ex, b);
      return b;
    }
  }
  throw conflict();
}
