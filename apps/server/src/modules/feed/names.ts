/**
 * Readable names of the provider's market types and outcome ids (Sportradar-style ids, as the sandbox feed sends them):
 * 1 / 2 / 3 home, draw, away (1X2); 4 / 5 home, away (winner); 12 / 13 over, under a total; 1714 / 1715
 * home, away on a handicap. Other ids keep the id. English: the bettor-language names come from
 * option_translation.
 */
/** Names of the provider's market types when the catalogue (betting_type.provider_id) has no row for one. */
const MARKETS: Record<number, string> = { 1: '1X2', 16: 'Handicap', 18: 'Total', 219: 'Winner (incl. overtime)', 223: 'Handicap (incl. overtime)', 225: 'Total (incl. overtime)' };

export const marketName = (typeId: number, catalogue?: string | null): string => catalogue ?? MARKETS[typeId] ?? `Market ${typeId}`;

const spec = (specifiers: string, key: string) => specifiers.split('|').find((s) => s.startsWith(`${key}=`))?.slice(key.length + 1);

const signed = (v: number) => (v > 0 ? `+${v}` : String(v));

export function selectionName(outcomeId: string, m: { home: string; away: string; specifiers: string }): string {
  const total = spec(m.specifiers, 'total');
  const hcp = Number(spec(m.specifiers, 'hcp'));
  switch (outcomeId) {
    case '1':
    case '4':
      return m.home;
    case '2':
      return 'Draw';
    case '3':
    case '5':
      return m.away;
    case '12':
      return total ? `Over ${total}` : 'Over';
    case '13':
      return total ? `Under ${total}` : 'Under';
    case '1714':
      return Number.isFinite(hcp) ? `${m.home} (${signed(hcp)})` : m.home;
    case '1715':
      return Number.isFinite(hcp) ? `${m.away} (${signed(-hcp)})` : m.away;
    default:
      return outcomeId;
  }
}
