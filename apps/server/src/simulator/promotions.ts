/**
 * The simulator's promotions (issue 17), run at every tick of `startSimulator`:
 *  - once per install, three campaigns for every branch: "Sign in 3 days in a row" (cash 500.00, reviewed by
 *    an operator: its rows appear pending), "Bet 5,000 at odds 1.50+" (bonus funds 1,000.00 with 3x
 *    wagering and 7 days' expiry, approved at once) and "Invite a friend" (cash 1,000.00 to the inviter when
 *    the invitee's first deposit reaches 2,000.00, approved at once), all started a week ago;
 *  - on the first tick, a sign-in history of the last four days for a third of the bettors (sign-in
 *    events at those instants, evaluated by the events job like any other), so a fresh install shows
 *    qualification rows at once;
 *  - then bettors sign in daily-ish: on about one tick in four, one to three bettors who have not signed in
 *    today (Tanzanian day) do (`recordBettorSignIn`, as a bettor app would).
 * Bet-to-get qualifies from the simulator's own settled bets.
 */
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../platform/context.js';
import { bettors } from '../modules/money/schema.js';
import { campaigns, promotionEvents } from '../modules/promotions/schema.js';
import { recordBettorSignIn } from '../modules/promotions/service.js';

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
}

const DAY = 86_400_000;
export const SIM_CAMPAIGNS = [
  {
    name: 'Sign in 3 days in a row', type: 'signin_streak', rules: { days: 3 }, reward: { kind: 'cash' as const, fixed_cents: 500_00, percent_bps: null, cap_cents: null },
    budgetCents: 5_000_000_00, autoApprove: false, wageringMultiplier: 0, bonusExpiryDays: 30,
  },
  {
    name: 'Bet 5,000 at odds 1.50+', type: 'bet_to_get', rules: { min_stake: 5_000_00, min_odds: 1.5 }, reward: { kind: 'bonus' as const, fixed_cents: 1_000_00, percent_bps: null, cap_cents: null },
    budgetCents: 5_000_000_00, autoApprove: true, wageringMultiplier: 3, bonusExpiryDays: 7,
  },
  {
    // Issue 29: the simulator's bettors register with friends' invitation codes (./registration.ts); the inviter
    // is paid (bill 9) when the friend's first deposit reaches 2,000.
    name: 'Invite a friend: 1,000 on their first deposit', type: 'invitation', rules: { min_first_deposit: 2_000_00 },
    reward: { kind: 'cash' as const, fixed_cents: 1_000_00, percent_bps: null, cap_cents: null },
    budgetCents: 5_000_000_00, autoApprove: true, wageringMultiplier: 0, bonusExpiryDays: 30,
  },
];

let seeded = false;

export async function simulatePromotions(ctx: AppContext, rng: Rng): Promise<void> {
  if (!seeded) {
    await seedCampaigns(ctx);
    seeded = true;
    return;
  }
  if (rng.next() >= 0.25) return;
  const due = await ctx.db
    .select({ id: bettors.id })
    .from(bettors)
    .where(sql`${bettors.lastLoginAt} is null or (${bettors.lastLoginAt} + interval '3 hours')::date < (now() + interval '3 hours')::date`)
    .orderBy(sql`random()`)
    .limit(rng.int(1, 3));
  for (const b of due) await recordBettorSignIn(ctx.db, b.id);
}

/** The two campaigns (once: by name) and, when they are new, the sign-in history that makes rows at once. */
async function seedCampaigns(ctx: AppContext) {
  const now = Date.now();
  let fresh = false;
  for (const c of SIM_CAMPAIGNS) {
    const [known] = await ctx.db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.name, c.name)).limit(1);
    if (known) continue;
    // The sign-in history is made for a new streak campaign only (an install that gains a later campaign keeps its history).
    if (c.type === 'signin_streak') fresh = true;
    await ctx.db.insert(campaigns).values({ ...c, startsAt: new Date(now - 7 * DAY), endsAt: new Date(now + 90 * DAY), agentId: null, status: 'active' });
  }
  if (!fresh) return;
  const some = await ctx.db.select({ id: bettors.id }).from(bettors).where(sql`${bettors.id} % 3 = 0`).limit(300);
  const events = some.flatMap((b) => [4, 3, 2, 1].map((d) => ({ kind: 'signin', bettorId: b.id, data: {}, at: new Date(now - d * DAY + ((b.id * 7919) % 36_000_000)) })));
  for (let i = 0; i < events.length; i += 500) await ctx.db.insert(promotionEvents).values(events.slice(i, i + 500));
}
