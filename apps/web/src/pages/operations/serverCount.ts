import type { ServerRow } from '@dau/contract/ui';

type ServerState = ServerRow['state'];
const ORDER: readonly ServerState[] = ['up', 'down', 'stopped'];

/**
 * The server list's header: how many servers are in each state the rows show (up, down, stopped, in that
 * order; a state no row has is left out), so that the header and the state column use the same words.
 */
export function serverCounts(rows: readonly { state: ServerState }[]): { state: ServerState; n: number }[] {
  return ORDER.map((state) => ({ state, n: rows.filter((r) => r.state === state).length })).filter((c) => c.n > 0);
}
