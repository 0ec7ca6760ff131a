/**
 * The racing provider's periodic job (platform/jobs.ts `every`: one process at a time among several):
 * `racing.sync` every RACING_SYNC_SECONDS stores the races the provider lists, closes betting on those
 * that started and settles those whose outcome is known (./service.ts syncRaces). While racing is off
 * (racing_settings.enabled) no new race is taken, but the races already taken are still settled.
 */
import type { AppContext } from '../../platform/context.js';
import type { ProviderRace, RacingProvider } from './adapter.js';
import { racingSettingsOf, syncRaces } from './service.js';

export const RACING_SYNC_JOB = 'racing.sync';
export const RACING_SYNC_SECONDS = 20;

export function defineRacingJob(ctx: AppContext, provider: RacingProvider & { listedAt?(now: Date): Promise<ProviderRace[]> }) {
  ctx.jobs.every(RACING_SYNC_JOB, RACING_SYNC_SECONDS, async () => {
    const { enabled } = await racingSettingsOf(ctx.db);
    const now = new Date();
    await syncRaces(ctx.db, enabled ? provider : { code: provider.code, races: async () => [], listedAt: async () => [], outcome: (ref, at) => provider.outcome(ref, at) }, now);
  });
}
