import { and, eq, gte, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE } from '@dau/domain';
import { admins } from '../modules/system/schema.js';
import { bettors } from '../modules/money/schema.js';
import { HOUSE, post } from '../modules/money/ledger.js';
import { registerBettor } from '../modules/money/bettors-service.js';
import type { AppContext } from '../platform/context.js';
import { Rng } from './rng.js';
import { demoPhone } from './demo-money.js';

export interface SimulatorOptions {
  /** Ticks per minute at speed 1 (default 12: one every 5 s). */
  speed?: number;
  seed?: number;
  /** Extra activity plugged in by other modules (payments: recharges and withdrawals through the operator sandboxes). */
  activities?: ((ctx: AppContext, rng: Rng) => Promise<void>)[];
  log?: (msg: string, err?: unknown) => void;
}

/**
 * The built-in bettor activity of a fresh install (DESIGN "What the product is"): it drives the same
 * services a bettor-facing app would call, so the screens are alive. Off in tests; `DAU_SIMULATOR=0` turns it off.
 */
export function startSimulator(ctx: AppContext, opts: SimulatorOptions = {}) {
  const rng = new Rng(opts.seed ?? Date.now());
  const every = Math.max(250, Math.round(60_000 / ((opts.speed ?? 1) * 12)));
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const roll = rng.next();
      if (roll < 0.1) await registration(ctx, rng);
      else if (roll < 0.6) await betting(ctx, rng);
      else if (opts.activities?.length) await rng.pick(opts.activities)(ctx, rng);
      else await betting(ctx, rng);
    } catch (err) {
      opts.log?.('simulator tick failed', err);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), every);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

async function registration(ctx: AppContext, rng: Rng) {
  const agents = await ctx.db.select({ id: admins.id }).from(admins).where(sql`${admins.account} like 'agent_%'`);
  if (!agents.length) return;
  await registerBettor(ctx.db, { phone: demoPhone(rng), name: `Player ${rng.int(100, 999)}`, agentId: rng.pick(agents).id }).catch(() => undefined);
}

/** A stake and, sometimes, its payout: what the betting engine will do for real. */
async function betting(ctx: AppContext, rng: Rng) {
  const [b] = await ctx.db
    .select({ id: bettors.id, cash: bettors.cashBalance })
    .from(bettors)
    .where(and(gte(bettors.cashBalance, 500_00), eq(bettors.disabled, 1)))
    .orderBy(sql`random()`)
    .limit(1);
  if (!b) return;
  const stake = Math.min(b.cash, rng.pick([200_00, 500_00, 1_000_00, 2_000_00]));
  await ctx.db.transaction(async (tx) => {
    const bet = await post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: -stake, type: BILL_TYPE.bet, cause: { type: 'order', id: `sim-${Date.now()}` }, house: HOUSE.stakesHeld });
    await tx.update(bettors).set({ totalBets: sql`${bettors.totalBets} + ${stake}`, betsNum: sql`${bettors.betsNum} + 1` }).where(eq(bettors.id, b.id));
    if (rng.next() < 0.35) {
      const payout = Math.floor((stake * rng.int(120, 450)) / 100);
      await post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: payout, type: BILL_TYPE.bet_payout, cause: { type: 'order', id: bet.serialNumber }, house: HOUSE.payouts, txnId: bet.txnId });
      await tx.update(bettors).set({ profitNum: sql`${bettors.profitNum} + 1`, bettingProfit: sql`${bettors.bettingProfit} + ${payout - stake}` }).where(eq(bettors.id, b.id));
    } else {
      await tx.update(bettors).set({ bettingProfit: sql`${bettors.bettingProfit} - ${stake}` }).where(eq(bettors.id, b.id));
    }
  });
}
