/**
 * Promotions at work (issue 17):
 *  - events: the owning modules write a row of `promotion_events` in the cause's transaction
 *    (`promotionEvent`); the `promotions.events` job evaluates them in id order (`processPromotionEvents`),
 *    each batch in one transaction that also marks its events processed, so an event is evaluated once; each
 *    event in its own savepoint, so one that throws is retried at the next run and set aside after 5 attempts;
 *  - qualification: one `activity_qualifications` row per (campaign, bettor, period), inserted with
 *    ON CONFLICT DO NOTHING against the partial unique index: a replayed event qualifies once;
 *  - approval (`approveQualification`): the budget guard (UPDATE … WHERE spent + award ≤ budget), the
 *    award through the ledger (cash bill 7/9/12/17 by type, or credit bill 101 and a bonus grant), the
 *    row marked success with its bill — all in the caller's transaction;
 *  - bonus funds: credit bets use a grant's remaining and count towards its wagering; past its expiry an
 *    active grant's remainder is removed with credit bill 105, once (`expireBonusGrants`).
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE, ORDER_STATUS, formatAmount } from '@dau/domain';
import type { Db, Executor } from '../../platform/db.js';
import { AppError, notFound } from '../../platform/errors.js';
import { agentInScope } from '../../platform/ownership.js';
import type { Scope } from '../../platform/listing.js';
import { HOUSE, bettors, countReward, listenToBettors, markSignedIn, post } from '../money/index.js';
import { activityQualifications } from './schema.js';
import { awardOf, cashBillType, dayKey, previousDay } from './rules.js';
import { bonusGrants, bonusOrderSpends, campaignProgress, campaigns, promotionEvents } from './schema.js';

type Campaign = typeof campaigns.$inferSelect;
type Qualification = typeof activityQualifications.$inferSelect;

const rowsOf = async <T>(ex: Executor, q: ReturnType<typeof sql>) => ((await ex.execute(q)) as unknown as { rows: T[] }).rows;

// ---------------------------------------------------------------------------------------------- events

export type PromotionEvent =
  | { kind: 'signin'; bettorId: number; ip?: string | null }
  | { kind: 'deposit'; bettorId: number; amount: number; rechargeId: number }
  | { kind: 'settled'; bettorIds: number[]; orderIds?: number[] }
  | { kind: 'invited'; bettorId: number; inviterId: number }
  | { kind: 'credit_bet'; bettorId: number; stake: number; creditStake: number; orderId: number };

/** Records an event in the cause's transaction (one INSERT; evaluated later by the events job). */
export async function promotionEvent(ex: Executor, e: PromotionEvent): Promise<void> {
  if (e.kind === 'settled') {
    const ids = [...new Set(e.bettorIds)];
    const orderIds = [...new Set(e.orderIds ?? [])];
    if (!ids.length && !orderIds.length) return;
    await ex.insert(promotionEvents).values({ kind: 'settled', bettorId: null, data: { bettor_ids: ids, order_ids: orderIds } });
    return;
  }
  const { kind, bettorId, ...data } = e;
  await ex.insert(promotionEvents).values({ kind, bettorId, data });
}

// A bettor who registers with an inviter is an invitation event; a bettor who moves to another branch
// takes their qualifications along (money calls these in its own transaction).
listenToBettors('promotions', {
  async registered(ex, b) {
    if (b.inviterId) await promotionEvent(ex, { kind: 'invited', bettorId: b.id, inviterId: b.inviterId });
  },
  async moved(ex, bettorId, agentId) {
    await ex.update(activityQualifications).set({ agentId }).where(eq(activityQualifications.bettorId, bettorId));
  },
});

/**
 * A bettor signs in (the bettor app; today the simulator): the last sign-in on the bettor's row and a
 * sign-in event for the streak campaigns, together.
 */
export async function recordBettorSignIn(db: Db, bettorId: number, ip: string | null = null): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await markSignedIn(tx, bettorId))) throw notFound();
    await promotionEvent(tx, { kind: 'signin', bettorId, ip });
  });
}

/** Failed evaluations after which an event is set aside (processed_at set, its error kept) so the rest proceed. */
export const EVENT_MAX_ATTEMPTS = 5;

/**
 * Evaluates up to `limit` unprocessed events after id `afterId` (oldest first) in one transaction, each
 * in its own savepoint: an event that throws is rolled back alone, its attempts and error recorded, and
 * it stays for the next run — after EVENT_MAX_ATTEMPTS it is set aside — while the others are evaluated
 * and marked processed. Answers how many were taken and the last id.
 */
async function processBatch(db: Db, limit: number, afterId: number): Promise<{ taken: number; lastId: number }> {
  return db.transaction(async (tx) => {
    const events = await rowsOf<{ id: number; kind: string; bettor_id: number | null; data: Record<string, unknown>; at: Date | string }>(
      tx,
      sql`SELECT id, kind, bettor_id, data, at FROM promotion_events WHERE processed_at IS NULL AND id > ${afterId} ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    );
    if (!events.length) return { taken: 0, lastId: afterId };
    const active = await tx.select().from(campaigns).where(eq(campaigns.status, 'active'));
    const done: number[] = [];
    for (const e of events) {
      const at = new Date(e.at);
      try {
        await tx.transaction(async (sp) => {
          const data = typeof e.data === 'string' ? (JSON.parse(e.data) as Record<string, unknown>) : e.data;
          const live = active.filter((c) => c.startsAt <= at && at < c.endsAt);
          if (live.length) await evaluate(sp, live, e.kind, e.bettor_id, data, at);
        });
        done.push(Number(e.id));
      } catch (err) {
        const error = String((err as Error)?.message ?? err).slice(0, 500);
        await tx.execute(sql`UPDATE promotion_events SET attempts = attempts + 1, last_error = ${error},
          processed_at = CASE WHEN attempts + 1 >= ${EVENT_MAX_ATTEMPTS} THEN now() ELSE NULL END WHERE id = ${e.id}`);
      }
    }
    if (done.length) await tx.update(promotionEvents).set({ processedAt: new Date() }).where(inArray(promotionEvents.id, done));
    return { taken: events.length, lastId: Number(events[events.length - 1].id) };
  });
}

/** Evaluates up to `limit` unprocessed events (oldest first); answers how many were taken. */
export async function processPromotionEvents(db: Db, limit = 200): Promise<number> {
  return (await processBatch(db, limit, 0)).taken;
}

/** Processes every waiting event once (tests, the job): a failing event is tried again at the next run, not in a loop. */
export async function drainPromotionEvents(db: Db): Promise<number> {
  let total = 0;
  let after = 0;
  for (;;) {
    const { taken, lastId } = await processBatch(db, 200, after);
    total += taken;
    after = lastId;
    if (!taken) return total;
  }
}

interface BettorInfo {
  id: number;
  agentId: number;
  inviterId: number | null;
}

/** Whether a bettor of this agent falls in the campaign's branch (the agent or below it). */
export async function inBranch(ex: Executor, c: Pick<Campaign, 'agentId'>, agentId: number, cache = new Map<string, boolean>()): Promise<boolean> {
  if (c.agentId == null || c.agentId === agentId) return true;
  const key = `${c.agentId}:${agentId}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const [r] = await rowsOf<{ ok: boolean }>(
    ex,
    sql`SELECT EXISTS (SELECT 1 FROM admins a, admins ca WHERE a.id = ${agentId} AND ca.id = ${c.agentId}
        AND a.path LIKE ca.path || ca.id || '/%') AS ok`,
  );
  cache.set(key, !!r?.ok);
  return !!r?.ok;
}

async function bettorInfo(ex: Executor, id: number): Promise<BettorInfo | undefined> {
  const [b] = await ex.select({ id: bettors.id, agentId: bettors.agentId, inviterId: bettors.inviterId }).from(bettors).where(eq(bettors.id, id));
  return b;
}

async function evaluate(tx: Executor, live: Campaign[], kind: string, bettorId: number | null, data: Record<string, unknown>, at: Date): Promise<void> {
  const branch = new Map<string, boolean>();
  const ofType = async (type: string, b: BettorInfo) => {
    const out: Campaign[] = [];
    for (const c of live) if (c.type === type && (await inBranch(tx, c, b.agentId, branch))) out.push(c);
    return out;
  };
  if (kind === 'signin' && bettorId) {
    const b = await bettorInfo(tx, bettorId);
    if (!b) return;
    for (const c of await ofType('signin_streak', b)) await signInStreak(tx, c, b, at);
  } else if (kind === 'deposit' && bettorId) {
    const b = await bettorInfo(tx, bettorId);
    if (!b) return;
    const first = await firstDeposit(tx, b.id);
    const rechargeId = Number(data.rechargeId);
    if (!first || first.rechargeId !== rechargeId) return;
    for (const c of await ofType('deposit_match', b)) {
      if (first.amount >= Number(c.rules.min_first_deposit)) await qualify(tx, c, b, 'all', first.amount);
    }
    if (b.inviterId) await invitation(tx, live, b, branch);
  } else if (kind === 'invited' && bettorId) {
    const b = await bettorInfo(tx, bettorId);
    if (b?.inviterId) await invitation(tx, live, b, branch);
  } else if (kind === 'settled') {
    const ids = (data.bettor_ids as number[] | undefined) ?? [];
    for (const id of ids) {
      const b = await bettorInfo(tx, id);
      if (!b) continue;
      for (const c of await ofType('bet_to_get', b)) await betToGet(tx, c, b);
    }
    // Wagering of bonus grants: every order whose money changed, as it stands now (settled, void, rolled back).
    const orderIds = ((data.order_ids as number[] | undefined) ?? []).map(Number);
    if (orderIds.length) await countWagering(tx, orderIds);
  } else if (kind === 'credit_bet' && bettorId) {
    await spendBonus(tx, bettorId, Number(data.orderId), Number(data.creditStake));
  }
}

async function signInStreak(tx: Executor, c: Campaign, b: BettorInfo, at: Date) {
  const day = dayKey(at);
  const [p] = await tx
    .select()
    .from(campaignProgress)
    .where(and(eq(campaignProgress.campaignId, c.id), eq(campaignProgress.bettorId, b.id), eq(campaignProgress.periodKey, 'all')))
    .for('update');
  const state = (p?.state ?? {}) as { last_day?: string; streak?: number };
  // A replayed or late sign-in of a day at or before the last one counted changes nothing (ISO days sort as strings).
  if (state.last_day && day <= state.last_day) return;
  const streak = state.last_day === previousDay(day) ? (state.streak ?? 0) + 1 : 1;
  await tx
    .insert(campaignProgress)
    .values({ campaignId: c.id, bettorId: b.id, periodKey: 'all', state: { last_day: day, streak } })
    .onConflictDoUpdate({ target: [campaignProgress.campaignId, campaignProgress.bettorId, campaignProgress.periodKey], set: { state: { last_day: day, streak }, updatedAt: new Date() } });
  if (streak >= Number(c.rules.days)) await qualify(tx, c, b, 'all', null);
}

/** The bettor's first credited deposit ever (the recharge and its amount), from the bills. */
async function firstDeposit(tx: Executor, bettorId: number) {
  const [f] = await rowsOf<{ cause_id: string | null; amount: string; created_at: Date | string }>(
    tx,
    sql`SELECT cause_id, amount, created_at FROM bills WHERE bettor_id = ${bettorId} AND account_kind = ${ACCOUNT_KIND.cash}
        AND type IN (${BILL_TYPE.user_recharge}, ${BILL_TYPE.ussd_deposit}) AND amount > 0 ORDER BY id LIMIT 1`,
  );
  return f ? { rechargeId: Number(f.cause_id), amount: Number(f.amount), at: new Date(f.created_at) } : undefined;
}

/** The invitee's inviter qualifies once per invitee whose first deposit, within the period, is large enough. */
async function invitation(tx: Executor, live: Campaign[], invitee: BettorInfo, branch: Map<string, boolean>) {
  const inviter = await bettorInfo(tx, invitee.inviterId!);
  if (!inviter) return;
  const first = await firstDeposit(tx, invitee.id);
  if (!first) return;
  for (const c of live) {
    if (c.type !== 'invitation' || !(await inBranch(tx, c, inviter.agentId, branch))) continue;
    if (first.at < c.startsAt || first.at >= c.endsAt || first.amount < Number(c.rules.min_first_deposit)) continue;
    await qualify(tx, c, inviter, `invitee:${invitee.id}`, first.amount);
  }
}

/** An order whose money is decided: settled, or cashed out (early settlement, auto cashout). */
export const SETTLED_STATUSES = [ORDER_STATUS.settled, ORDER_STATUS.early_settlement, ORDER_STATUS.auto_cash_out];
/** `status IN (settled, cashed out)` of an orders query. */
export const settledStatusSql = sql.join(SETTLED_STATUSES.map((st) => sql`${st}`), sql`, `);

/** Settled or cashed-out orders placed within the period at total odds ≥ min_odds: their stakes summed reach min_stake. */
async function betToGet(tx: Executor, c: Campaign, b: BettorInfo) {
  const [s] = await rowsOf<{ stakes: string | null }>(
    tx,
    sql`SELECT sum(stake) AS stakes FROM orders WHERE bettor_id = ${b.id} AND status IN (${settledStatusSql})
        AND created_at >= ${c.startsAt.toISOString()} AND created_at < ${c.endsAt.toISOString()} AND total_odds >= ${Number(c.rules.min_odds)}`,
  );
  const stakes = Number(s?.stakes ?? 0);
  if (stakes >= Number(c.rules.min_stake)) await qualify(tx, c, b, 'all', stakes);
}

/**
 * One qualification row per (campaign, bettor, period): inserted pending (ON CONFLICT DO NOTHING), then
 * approved at once when the campaign auto-approves and its budget covers the award (else it stays pending
 * for an operator). Answers the new row's id, or null when the bettor had already qualified (or the cap
 * leaves nothing).
 */
export async function qualify(tx: Executor, c: Campaign, b: { id: number; agentId: number }, periodKey: string, amount: number | null, remark = ''): Promise<number | null> {
  const [earlier] = await rowsOf<{ total: string | null }>(
    tx,
    sql`SELECT sum(reward) AS total FROM activity_qualifications WHERE campaign_id = ${c.id} AND bettor_id = ${b.id}`,
  );
  const reward = awardOf(c.reward, amount, Number(earlier?.total ?? 0));
  if (reward <= 0) return null;
  const [row] = await tx
    .insert(activityQualifications)
    .values({ bettorId: b.id, agentId: b.agentId, activity: c.name, status: 1, reward, remark, campaignId: c.id, periodKey, qualifyingAmount: amount })
    .onConflictDoNothing()
    .returning({ id: activityQualifications.id });
  if (!row) return null;
  if (c.autoApprove) await approveQualification(tx, row.id, { adminId: null, leavePendingWhenOverBudget: true });
  return row.id;
}

// -------------------------------------------------------------------------------------------- approval

export interface Approved {
  row: Qualification;
  billId: number;
  grantId: number | null;
}

/**
 * Approves one pending campaign qualification in the caller's transaction: locks the row, checks the
 * scope, spends the award from the budget with a guarded UPDATE (409 PROMO_BUDGET_EXHAUSTED when it does
 * not fit — or null with `leavePendingWhenOverBudget`), posts the award and marks the row success.
 */
export async function approveQualification(
  tx: Executor,
  id: number,
  opts: { adminId: number | null; scope?: Scope; leavePendingWhenOverBudget?: boolean },
): Promise<Approved | null> {
  const [q] = await tx.select().from(activityQualifications).where(eq(activityQualifications.id, id)).for('update');
  if (!q) throw notFound();
  if (opts.scope && !agentInScope(opts.scope, q.agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
  if (q.campaignId == null) throw new AppError(422, 'PROMO_NOT_A_CAMPAIGN');
  if (q.status !== 1) throw new AppError(409, 'PROMO_ALREADY_APPROVED');
  const amount = Number(q.reward);
  const [c] = await tx
    .update(campaigns)
    .set({ spentCents: sql`${campaigns.spentCents} + ${amount}`, updatedAt: new Date() })
    .where(and(eq(campaigns.id, q.campaignId), sql`${campaigns.spentCents} + ${amount} <= ${campaigns.budgetCents}`))
    .returning();
  if (!c) {
    if (opts.leavePendingWhenOverBudget) return null;
    const [exists] = await tx.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.id, q.campaignId));
    if (!exists) throw notFound();
    throw new AppError(409, 'PROMO_BUDGET_EXHAUSTED');
  }
  const cause = { type: 'promotion' as const, id: q.id };
  const remark = { kind: 'campaign', params: { name: c.name, id: c.id } } as const;
  let billId: number;
  let grantId: number | null = null;
  if (c.reward.kind === 'bonus') {
    const bill = await post(tx, {
      bettorId: q.bettorId, account: ACCOUNT_KIND.credit, amount, type: CREDIT_BILL_TYPE.activity_credit_granted, cause, house: HOUSE.bonuses, adminId: opts.adminId, remark,
    });
    billId = bill.id;
    const [g] = await tx
      .insert(bonusGrants)
      .values({
        bettorId: q.bettorId, campaignId: c.id, qualificationId: q.id, amount, remaining: amount, wageringRequired: amount * c.wageringMultiplier,
        expiresAt: new Date(Date.now() + c.bonusExpiryDays * 86_400_000), grantBillId: bill.id,
      })
      .returning({ id: bonusGrants.id });
    grantId = g.id;
  } else {
    const bill = await post(tx, { bettorId: q.bettorId, account: ACCOUNT_KIND.cash, amount, type: cashBillType(c.type), cause, house: HOUSE.bonuses, adminId: opts.adminId, remark });
    billId = bill.id;
  }
  const now = new Date();
  const [row] = await tx
    .update(activityQualifications)
    .set({ status: 2, billId, approvedAt: now, qualifiedAt: now, reviewedBy: opts.adminId })
    .where(eq(activityQualifications.id, q.id))
    .returning();
  await countReward(tx, q.bettorId, amount);
  return { row, billId, grantId };
}

// ----------------------------------------------------------------------------------------- bonus funds

/** Whether a grant is done: its wagering met (when it has a requirement), else nothing left of it. */
const grantDone = (required: number, wagered: number, remaining: number) => (required > 0 ? wagered >= required : remaining <= 0);

/**
 * A bet staked partly with bonus funds (credit_bet event): its credit part uses the bettor's active
 * grants' remaining, soonest expiry first, recorded once per order in `bonus_order_spends` (its primary
 * key is the guard: a replayed event spends nothing more). Wagering is not counted here but at settlement
 * (`countWagering`), so a voided order adds nothing.
 */
async function spendBonus(tx: Executor, bettorId: number, orderId: number, creditStake: number) {
  if (!Number.isSafeInteger(orderId) || !(creditStake > 0)) return;
  const grants = await tx
    .select()
    .from(bonusGrants)
    .where(and(eq(bonusGrants.bettorId, bettorId), eq(bonusGrants.status, 'active')))
    .orderBy(asc(bonusGrants.expiresAt), asc(bonusGrants.id))
    .for('update');
  let left = creditStake;
  const parts: { grant_id: number; amount: number }[] = [];
  for (const g of grants) {
    const used = Math.min(left, Number(g.remaining));
    if (used <= 0) continue;
    left -= used;
    parts.push({ grant_id: g.id, amount: used });
  }
  const [won] = await tx.insert(bonusOrderSpends).values({ orderId, bettorId, parts }).onConflictDoNothing().returning({ orderId: bonusOrderSpends.orderId });
  if (!won) return;
  for (const p of parts) {
    const g = grants.find((x) => x.id === p.grant_id)!;
    const remaining = Number(g.remaining) - p.amount;
    const done = grantDone(Number(g.wageringRequired), Number(g.wagered), remaining);
    await tx.update(bonusGrants).set({ remaining, status: done ? 'completed' : 'active' }).where(eq(bonusGrants.id, g.id));
  }
}

/** Statuses whose stake is settled: settled, early settlement and auto cash-out. */

/**
 * Wagering progress from settlement (the settled event's order ids, each read as it stands now): an order
 * settled (or cashed out) and not void counts its stake once towards every grant of its bettor active
 * then and granted before the order was placed — one `bonus_wagering` row per (grant, order), inserted
 * ON CONFLICT DO NOTHING, only inserted rows add to `wagered`; an order void or back to open removes its
 * rows from the grants still active. A void order's credit refund gives the grants it used their part
 * back (and a void undone takes it again), guarded by `bonus_order_spends.refunded`.
 */
async function countWagering(tx: Executor, orderIds: number[]) {
  const list = await rowsOf<{ id: string; bettor_id: number; stake: string; status: number; created_at: Date | string; credited_credit: string; all_void: boolean }>(
    tx,
    sql`SELECT o.id, o.bettor_id, o.stake, o.status, o.created_at, o.credited_credit,
          bool_and(coalesce((l.settlement->>'voidFactor')::numeric = 1, false)) AS all_void
        FROM orders o JOIN order_lines l ON l.order_id = o.id
        WHERE o.id IN (${sql.join(orderIds.map((id) => sql`${id}`), sql`, `)}) GROUP BY o.id ORDER BY o.id`,
  );
  for (const o of list) {
    const settled = (SETTLED_STATUSES as number[]).includes(Number(o.status));
    const isVoid = settled && Number(o.status) === ORDER_STATUS.settled && !!o.all_void;
    const counts = settled && !isVoid;
    const placedAt = new Date(o.created_at).toISOString();
    // Lock the bettor's active grants (in id order) before moving their counters.
    await rowsOf(tx, sql`SELECT id FROM bonus_grants WHERE bettor_id = ${o.bettor_id} AND status = 'active' ORDER BY id FOR UPDATE`);
    const moved = counts
      ? await rowsOf<{ grant_id: string; stake: string }>(
          tx,
          sql`INSERT INTO bonus_wagering (grant_id, order_id, stake)
              SELECT g.id, ${o.id}, ${Number(o.stake)} FROM bonus_grants g
              WHERE g.bettor_id = ${o.bettor_id} AND g.status = 'active' AND g.created_at <= ${placedAt}
              ON CONFLICT DO NOTHING RETURNING grant_id, stake`,
        )
      : (
          await rowsOf<{ grant_id: string; stake: string }>(
            tx,
            sql`DELETE FROM bonus_wagering w USING bonus_grants g WHERE w.order_id = ${o.id} AND g.id = w.grant_id AND g.status = 'active'
                RETURNING w.grant_id, w.stake`,
          )
        ).map((r) => ({ grant_id: r.grant_id, stake: String(-Number(r.stake)) }));
    for (const m of moved) await moveGrant(tx, Number(m.grant_id), { wagered: Number(m.stake) });
    // The credit refund of a void order gives the grants back what the bet took from them (c).
    const refunded = isVoid && Number(o.credited_credit) > 0;
    const [flip] = await rowsOf<{ parts: { grant_id: number; amount: number }[] | string }>(
      tx,
      sql`UPDATE bonus_order_spends SET refunded = ${refunded} WHERE order_id = ${o.id} AND refunded = ${!refunded} RETURNING parts`,
    );
    if (flip) {
      const parts = typeof flip.parts === 'string' ? (JSON.parse(flip.parts) as { grant_id: number; amount: number }[]) : flip.parts;
      for (const p of parts) await moveGrant(tx, p.grant_id, { remaining: refunded ? p.amount : -p.amount });
    }
  }
}

/** Moves an active grant's wagered / remaining by a delta and completes it when it is done. */
async function moveGrant(tx: Executor, id: number, d: { wagered?: number; remaining?: number }) {
  const [g] = await tx.select().from(bonusGrants).where(and(eq(bonusGrants.id, id), eq(bonusGrants.status, 'active')));
  if (!g) return;
  const wagered = Math.max(0, Number(g.wagered) + (d.wagered ?? 0));
  const remaining = Math.max(0, Number(g.remaining) + (d.remaining ?? 0));
  const done = grantDone(Number(g.wageringRequired), wagered, remaining);
  await tx.update(bonusGrants).set({ wagered, remaining, status: done ? 'completed' : 'active' }).where(eq(bonusGrants.id, id));
}

/**
 * What the bettor still has to wager before a withdrawal (0 = nothing): the largest requirement left
 * among active, unexpired grants (one settled stake counts towards every grant, so the largest is what
 * unlocks them all). Withdrawal requests are refused while it is above zero (refuseWithdrawalWhileWagering).
 */
export async function bonusWageringLeft(ex: Executor, bettorId: number, now = new Date()): Promise<number> {
  const [r] = await rowsOf<{ left: string | null }>(
    ex,
    sql`SELECT max(wagering_required - wagered) AS left FROM bonus_grants
        WHERE bettor_id = ${bettorId} AND status = 'active' AND wagered < wagering_required AND expires_at > ${now.toISOString()}`,
  );
  return Math.max(0, Number(r?.left ?? 0));
}

/** Every withdrawal request (mobile money, USDT) asks this first: 422 PROMO_WAGERING_NOT_MET with the amount left. */
export async function refuseWithdrawalWhileWagering(ex: Executor, bettorId: number): Promise<void> {
  const left = await bonusWageringLeft(ex, bettorId);
  if (left > 0) throw new AppError(422, 'PROMO_WAGERING_NOT_MET', { left: formatAmount(left) });
}

/**
 * Removes the remainder of grants past their expiry with credit bill 105: the status update from
 * 'active' is the guard, so a grant expires once however often this runs. The amount removed is the
 * remainder, or the credit balance when the bettor has less. Answers how many grants expired.
 */
export async function expireBonusGrants(db: Db, now = new Date(), limit = 500): Promise<number> {
  const due = await db
    .select({ id: bonusGrants.id })
    .from(bonusGrants)
    .where(and(eq(bonusGrants.status, 'active'), lte(bonusGrants.expiresAt, now)))
    .orderBy(asc(bonusGrants.expiresAt))
    .limit(limit);
  let n = 0;
  for (const { id } of due) {
    await db.transaction(async (tx) => {
      const [g] = await tx
        .update(bonusGrants)
        .set({ status: 'expired' })
        .where(and(eq(bonusGrants.id, id), eq(bonusGrants.status, 'active')))
        .returning();
      if (!g) return;
      n++;
      const [b] = await tx.select({ credit: bettors.creditBalance }).from(bettors).where(eq(bettors.id, g.bettorId)).for('update');
      const amount = Math.min(Number(g.remaining), Number(b?.credit ?? 0));
      if (amount <= 0) return;
      const bill = await post(tx, {
        bettorId: g.bettorId, account: ACCOUNT_KIND.credit, amount: -amount, type: CREDIT_BILL_TYPE.credit_expired, cause: { type: 'promotion', id: g.qualificationId },
        house: HOUSE.bonuses, adminId: null, remark: { kind: 'bonus_expired', params: { grant: g.id } },
      });
      await tx.update(bonusGrants).set({ expiredBillId: bill.id, expiredAmount: amount, remaining: 0 }).where(eq(bonusGrants.id, g.id));
    });
  }
  return n;
}

/** Evaluated events older than a week are removed (the outbox stays small); the ones set aside after failing stay for an operator. */
export async function pruneEvents(db: Db, now = new Date()): Promise<void> {
  await db.execute(sql`DELETE FROM promotion_events WHERE processed_at IS NOT NULL AND processed_at < ${new Date(now.getTime() - 7 * 86_400_000).toISOString()}
    AND NOT (last_error IS NOT NULL AND attempts >= ${EVENT_MAX_ATTEMPTS})`);
}

/** Campaigns past their end are ended. */
export async function endCampaigns(db: Db, now = new Date()): Promise<number> {
  const rows = await db
    .update(campaigns)
    .set({ status: 'ended', updatedAt: now })
    .where(and(inArray(campaigns.status, ['active', 'paused']), lte(campaigns.endsAt, now)))
    .returning({ id: campaigns.id });
  return rows.length;
}
