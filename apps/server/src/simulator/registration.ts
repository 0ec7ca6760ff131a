import { and, asc, gte, isNotNull, max, min, sql } from 'drizzle-orm';
import { admins } from '../platform/schema.js';
import { bettors, registerBettor } from '../modules/money/index.js';
import type { AppContext } from '../platform/context.js';
import type { Rng } from './rng.js';
import { demoPhone } from './demo-money.js';

/**
 * About this share of the simulator's new bettors register with an existing bettor's invitation code (a
 * friend's), as a bettor app's sign-up form takes it (issue 29: without it the invitation campaign, bill 9,
 * never had an invitee). The invitee belongs to the inviter's agent (registerBettor), and promotions hears
 * of the registration through money's bettor listener.
 */
export const INVITED_SHARE = 0.35;

/** A random bettor's invitation code (a point in the id range, then the next bettor: no full scan), or null. */
async function someInvitationCode(ctx: AppContext, rng: Rng): Promise<string | null> {
  const [range] = await ctx.db.select({ lo: min(bettors.id), hi: max(bettors.id) }).from(bettors);
  if (range?.lo == null || range.hi == null) return null;
  const [inviter] = await ctx.db
    .select({ code: bettors.invitationCode })
    .from(bettors)
    .where(and(gte(bettors.id, rng.int(Number(range.lo), Number(range.hi))), isNotNull(bettors.invitationCode), sql`${bettors.disabled} <> 2`))
    .orderBy(asc(bettors.id))
    .limit(1);
  return inviter?.code ?? null;
}

/** One bettor signs up: with a friend's invitation code about INVITED_SHARE of the time, else with an agent's link. */
export async function simulateRegistration(ctx: AppContext, rng: Rng) {
  const agents = await ctx.db.select({ id: admins.id }).from(admins).where(sql`${admins.account} like 'agent_%'`);
  if (!agents.length) return null;
  const inviterCode = rng.next() < INVITED_SHARE ? await someInvitationCode(ctx, rng) : null;
  return registerBettor(ctx.db, {
    phone: demoPhone(rng), name: `Player ${rng.int(100, 999)}`, agentId: rng.pick(agents).id, ...(inviterCode ? { inviterCode } : {}),
  }).catch(() => null);
}
