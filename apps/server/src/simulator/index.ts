import { simulateBets } from '../modules/betting/simulate.js';
import type { AppContext } from '../platform/context.js';
import { Rng } from './rng.js';
import { simulateRegistration } from './registration.js';
import { jackpotDue, simulateJackpot } from './jackpot.js';
import { casinoDue, simulateCasino } from './casino.js';
import { simulateRacing } from './racing.js';
import { simulateTron, tronDue } from './tron.js';
import { simulateVisits } from './visitors.js';
import { simulateContent } from './content.js';
import { simulatePromotions } from './promotions.js';

export interface SimulatorOptions {
  /** Ticks per minute at speed 1 (default 12: one every 5 s). */
  speed?: number;
  seed?: number;
  /** Extra activity plugged in by other modules (payments: recharges and withdrawals through the operator sandboxes). */
  activities?: ((ctx: AppContext, rng: Rng) => Promise<void>)[];
  log?: (msg: string, err?: unknown) => void;
}

/**
 * The built-in bettor activity of a fresh install (docs/architecture.md): it drives the same
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
      await simulateVisits(ctx, rng).catch((err) => opts.log?.('simulator visits failed', err));
      await simulatePromotions(ctx, rng).catch((err) => opts.log?.('simulator promotions failed', err));
      await simulateContent(ctx, rng).catch((err) => opts.log?.('simulator content failed', err));
      const roll = rng.next();
      if (jackpotDue(roll)) await simulateJackpot(ctx, rng);
      else if (casinoDue(roll)) await simulateCasino(ctx, rng);
      else if (roll >= 0.7 && roll < 0.78) await simulateRacing(ctx, rng);
      else if (tronDue(roll)) await simulateTron(ctx, rng);
      else if (roll < 0.1) await simulateRegistration(ctx, rng);
      else if (roll < 0.6) await simulateBets(ctx, rng);
      else if (opts.activities?.length) await rng.pick(opts.activities)(ctx, rng);
      else await simulateBets(ctx, rng);
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

