import { describe, expect, it } from 'vitest';
import { serverCounts } from '../src/pages/operations/serverCount';
import enOperations from '../src/locales/en-US/operations';

/** The server list's header counts servers in the words of the rows' state column. */
describe('server count', () => {
  const label = (state: string) => (enOperations.operations.state as Record<string, string>)[state]!;

  it('names stopped servers "Stopped", as the rows do, not "down"', () => {
    const rows = [{ state: 'up' as const }, { state: 'stopped' as const }, { state: 'stopped' as const }];
    const counts = serverCounts(rows);
    expect(counts).toEqual([{ state: 'up', n: 1 }, { state: 'stopped', n: 2 }]);
    expect(counts.map((c) => `${label(c.state)}: ${c.n}`).join(' · ')).toBe('Up: 1 · Stopped: 2');
  });

  it('keeps the order up, down, stopped and leaves out states no row has', () => {
    expect(serverCounts([{ state: 'stopped' }, { state: 'down' }, { state: 'up' }, { state: 'up' }])).toEqual([
      { state: 'up', n: 2 }, { state: 'down', n: 1 }, { state: 'stopped', n: 1 },
    ]);
    expect(serverCounts([])).toEqual([]);
  });
});
