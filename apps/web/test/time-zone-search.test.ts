import { describe, expect, it } from 'vitest';
import { zoneNames, zoneRank, zoneSearch } from '../src/app/shell/TimeZoneDialog';

/** The time-zone picker finds a zone by what the operator types: its name, its city or its offset. */
describe('time-zone search', () => {
  it('offers UTC although the browser does not list it', () => {
    expect(zoneNames()).toContain('UTC');
  });

  it('typing "UTC" finds UTC first and not every zone whose offset reads UTC±…', () => {
    const found = zoneSearch(zoneNames(), 'UTC');
    expect(found[0]).toBe('UTC');
    expect(found).not.toContain('Africa/Dar_es_Salaam');
    expect(zoneSearch(zoneNames(), 'utc')[0]).toBe('UTC');
  });

  it('finds a city by its words and a zone by its offset', () => {
    expect(zoneSearch(zoneNames(), 'dar es')).toContain('Africa/Dar_es_Salaam');
    expect(zoneSearch(zoneNames(), 'nairobi')[0]).toBe('Africa/Nairobi');
    const plusThree = zoneSearch(zoneNames(), 'UTC+03', Date.UTC(2026, 0, 15));
    expect(plusThree).toContain('Africa/Nairobi');
    expect(plusThree).not.toContain('UTC');
    expect(zoneRank('Europe/London', 'xyz')).toBe(-1);
  });
});
