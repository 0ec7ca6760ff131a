/**
 * The racing provider adapter (issue 13, docs/architecture.md "Outside parties"): what the racing module
 * needs of a virtual-racing provider. The provider runs the races; we list its races with runners and
 * odds, take bets on them and read the results. The sandbox (./sandbox.ts) stands in for a real one.
 */
import type { RacingRunner } from './schema.js';

/** A race as the provider lists it. */
export interface ProviderRace {
  /** The provider's id of the race (unique). */
  raceRef: string;
  startsAt: Date;
  /** Runners with their fixed decimal odds (2 decimals, as text). */
  runners: RacingRunner[];
}

/** What became of a race: its finishing order (runner numbers, winner first), or cancelled; null while not known. */
export type RaceOutcome = { status: 'finished'; order: number[] } | { status: 'cancelled' } | null;

export interface RacingProvider {
  /** Short name (logs). */
  readonly code: string;
  /** The races starting in [from, to). */
  races(from: Date, to: Date): Promise<ProviderRace[]>;
  /** The outcome of a race as of `now` (null: not run yet, or unknown to the provider). */
  outcome(raceRef: string, now: Date): Promise<RaceOutcome>;
}
