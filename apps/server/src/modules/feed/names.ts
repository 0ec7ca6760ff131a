/**
 * Readable names of the provider's market types and outcome ids.
 *
 * First the feed's market descriptions (./uof/descriptions.ts: the UOF client loads them; their name
 * templates rendered with the market's specifiers and the match's teams), when they know the market; else
 * the names below, for the Sportradar-style ids the sandbox feed sends: 1 / 2 / 3 home, draw, away (1X2);
 * 4 / 5 home, away (winner); 12 / 13 over, under a total; 1714 / 1715 home, away on a handicap. Other ids
 * keep the id.
 *
 * English: the descriptions are kept per language, but these callers (the odds views, bet placement) pass
 * none, so the English descriptions are used, as the names below are English; the bettor-language names
 * come from option_translation. A name from a description gets its first letter upper-cased when that
 * letter is the template's own text ('draw' → 'Draw', 'over {total}' → 'Over 2.5'), as the names below
 * and those already on order lines are written.
 */
import { describedMarketName, describedOutcomeName } from './uof/descriptions.js';

/** Names of the provider's market types when neither the catalogue (betting_type.provider_id) nor a description knows one. */
const MARKETS: Record<number, string> = { 1: '1X2', 16: 'Handicap', 18: 'Total', 219: 'Winner (incl. overtime)', 223: 'Handicap (incl. overtime)', 225: 'Total (incl. overtime)' };

/**
 * A market type's name: the catalogue's (betting_type.name) when given, as before; else its description's,
 * rendered with the specifiers when given ('Total {total}': 'Total 2.5'; without them the line is left out:
 * 'Total'); else the names above; else 'Market {id}'. `ctx` names the teams of a template that has them
 * ('{$competitor1} total'; 'Home' / 'Away' without).
 */
export const marketName = (typeId: number, catalogue?: string | null, specifiers?: string, ctx?: { home: string; away: string }): string =>
  catalogue ??
  describedMarketName(typeId, specifiers ?? '', { home: ctx?.home ?? 'Home', away: ctx?.away ?? 'Away', upperFirst: true }) ??
  MARKETS[typeId] ??
  `Market ${typeId}`;

const spec = (specifiers: string, key: string) => specifiers.split('|').find((s) => s.startsWith(`${key}=`))?.slice(key.length + 1);

const signed = (v: number) => (v > 0 ? `+${v}` : String(v));

/**
 * An outcome's name. With the market's type id (`typeId`), its description's name for the outcome when the
 * description knows both ('{$competitor1} ({+hcp})': 'Arsenal (-0.25)'); otherwise, or without `typeId`
 * (an outcome id alone does not say its market in UOF), the names below.
 */
export function selectionName(outcomeId: string, m: { home: string; away: string; specifiers: string; typeId?: number }): string {
  if (m.typeId !== undefined) {
    const described = describedOutcomeName(m.typeId, outcomeId, m.specifiers, { home: m.home, away: m.away, upperFirst: true });
    if (described !== null) return described;
  }
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
