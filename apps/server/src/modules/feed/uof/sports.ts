/**
 * Sports as UOF numbers them (`sr:sport:1` soccer, `sr:sport:2` basketball) and as the product does (spec:
 * SPORT football 1, basketball 8). A sport the product has no number of keeps UOF's.
 */
import { SPORT } from '@dau/domain';

const FROM_UOF: Readonly<Record<number, number>> = { 1: SPORT.football, 2: SPORT.basketball };
const TO_UOF: Readonly<Record<number, number>> = Object.fromEntries(Object.entries(FROM_UOF).map(([u, o]) => [o, Number(u)]));

/** 'sr:sport:2' → 8 (basketball). */
export function sportFromUrn(urn: string): number {
  const n = Number(/(\d+)$/.exec(urn)?.[1] ?? NaN);
  return FROM_UOF[n] ?? n;
}

/** 8 (basketball) → 2, UOF's number of the sport (routing keys, `sr:sport:N`). */
export function uofSportId(sport: number): number {
  return TO_UOF[sport] ?? sport;
}
