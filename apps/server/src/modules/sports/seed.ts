import { LOCATION_TYPE, SPORT, TYPE_FLAG } from '@dau/domain';
import type { Executor } from '../../platform/db.js';
import {
  bettingTypes, eventParts, eventTemplates, gameplayClassifications, leagues, locations, optionTranslations, outcomeSortingTypes,
  popularLeagues, priceMargins,
} from './schema.js';

const { football, basketball } = SPORT;
const PRE_AND_LIVE = TYPE_FLAG.pre_match_and_in_play;

/**
 * The reference rows of a fresh install: a few real locations, leagues, market types and templates for
 * football and basketball. Runs only while the catalogue is empty, so an operator's deletions stay deleted.
 */
export async function seedSportsCatalogue(ex: Executor): Promise<void> {
  const [any] = await ex.select({ id: locations.id }).from(locations).limit(1);
  if (any) return;

  const loc = async (name: string, nameZh: string, type: number, code: string, sort: number, parentId: number | null = null) => {
    const [row] = await ex.insert(locations).values({ name, nameZh, type, code, sort, parentId }).returning({ id: locations.id });
    return row.id;
  };
  const world = await loc('World', '世界', LOCATION_TYPE.world, 'WW', 100);
  const africa = await loc('Africa', '非洲', LOCATION_TYPE.continent, 'AF', 90, world);
  const europe = await loc('Europe', '欧洲', LOCATION_TYPE.continent, 'EU', 80, world);
  const america = await loc('North America', '北美洲', LOCATION_TYPE.continent, 'NA', 70, world);
  const tanzania = await loc('Tanzania', '坦桑尼亚', LOCATION_TYPE.country, 'TZ', 60, africa);
  const england = await loc('England', '英格兰', LOCATION_TYPE.country, 'EN', 50, europe);
  const spain = await loc('Spain', '西班牙', LOCATION_TYPE.country, 'ES', 40, europe);
  const usa = await loc('USA', '美国', LOCATION_TYPE.country, 'US', 30, america);

  // The provider ids are the sandbox feed's competitions (modules/feed/simulator.ts): its matches get these leagues' margins.
  const league = async (sportId: number, locationId: number, name: string, nameZh: string, shortName: string, popularity: number, sort: number, providerId: string | null = null) => {
    const [row] = await ex.insert(leagues).values({ sportId, locationId, name, nameZh, shortName, popularity, sort, providerId }).returning({ id: leagues.id });
    return row.id;
  };
  const tpl = await league(football, tanzania, 'Tanzanian Premier League', '坦桑尼亚超级联赛', 'NBC PL', 100, 100, 'sr:tournament:tz-plq');
  const epl = await league(football, england, 'English Premier League', '英格兰超级联赛', 'EPL', 95, 90, 'sr:tournament:17');
  await league(football, spain, 'LaLiga', '西班牙甲级联赛', 'LaLiga', 80, 80, 'sr:tournament:8');
  await league(football, europe, 'UEFA Champions League', '欧洲冠军联赛', 'UCL', 90, 70);
  await league(football, world, 'FIFA World Cup', '世界杯', 'WC', 70, 60);
  const nba = await league(basketball, usa, 'NBA', '美国职业篮球联赛', 'NBA', 85, 50, 'sr:tournament:132');
  await ex.insert(popularLeagues).values([{ leagueId: tpl, sort: 30 }, { leagueId: epl, sort: 20 }, { leagueId: nba, sort: 10 }]);

  await ex.insert(eventTemplates).values([
    { sportId: football, name: 'Football, 2 x 45 minutes', periods: 2, periodMinutes: 45 },
    { sportId: football, name: 'Football knockout, extra time and penalties', periods: 2, periodMinutes: 45, overtime: true, overtimeMinutes: 30, penalties: true },
    { sportId: basketball, name: 'NBA, 4 x 12 minutes', periods: 4, periodMinutes: 12, overtime: true, overtimeMinutes: 5 },
    { sportId: basketball, name: 'FIBA, 4 x 10 minutes', periods: 4, periodMinutes: 10, overtime: true, overtimeMinutes: 5 },
  ]);
  await ex.insert(eventParts).values([
    { sportId: football, name: 'Full time', sort: 30 },
    { sportId: football, name: '1st half', sort: 20 },
    { sportId: football, name: '2nd half', sort: 10 },
    { sportId: basketball, name: 'Full time incl. overtime', sort: 30 },
    { sportId: basketball, name: '1st half', sort: 20 },
    { sportId: basketball, name: '1st quarter', sort: 10 },
  ]);

  // Provider ids: the market types of the sandbox feed (modules/feed/simulator.ts FB / BB).
  const market = async (sportId: number, name: string, isOverUnder: boolean, sort: number, outcomes: string[], providerId: number | null = null) => {
    const [row] = await ex.insert(bettingTypes).values({ sportId, name, isOverUnder, typeFlag: PRE_AND_LIVE, sort, providerId }).returning({ id: bettingTypes.id });
    await ex.insert(outcomeSortingTypes).values(outcomes.map((outcome, i) => ({ bettingTypeId: row.id, outcome, sort: outcomes.length - i })));
    return row.id;
  };
  const x12 = await market(football, '1X2', false, 100, ['Home', 'Draw', 'Away'], 1);
  const ou = await market(football, 'Over/Under', true, 90, ['Over', 'Under'], 18);
  const ah = await market(football, 'Asian handicap', false, 80, ['Home', 'Away'], 16);
  const btts = await market(football, 'Both teams to score', false, 70, ['Yes', 'No']);
  const ml = await market(basketball, 'Moneyline', false, 100, ['Home', 'Away'], 219);
  const tp = await market(basketball, 'Total points', true, 90, ['Over', 'Under'], 225);
  await ex.insert(gameplayClassifications).values([
    { sportId: football, name: 'Main', bettingTypeIds: `${x12},${ou},${btts}`, sort: 20 },
    { sportId: football, name: 'Handicaps', bettingTypeIds: `${ah}`, sort: 10 },
    { sportId: basketball, name: 'Main', bettingTypeIds: `${ml},${tp}`, sort: 10 },
  ]);
  await ex.insert(optionTranslations).values([
    { kind: 'market', sourceId: x12, languageCode: 'sw-KE', text: '1X2 (Nyumbani, Sare, Ugenini)' },
    { kind: 'market', sourceId: x12, languageCode: 'zh-CN', text: '胜平负' },
    { kind: 'market', sourceId: ou, languageCode: 'sw-KE', text: 'Juu/Chini' },
    { kind: 'market', sourceId: ou, languageCode: 'zh-CN', text: '大小球' },
    { kind: 'market', sourceId: btts, languageCode: 'sw-KE', text: 'Timu zote kufunga' },
    { kind: 'market', sourceId: btts, languageCode: 'zh-CN', text: '双方进球' },
  ]);
  // Default margins per sport (basis points); a league may get its own later.
  await ex.insert(priceMargins).values([{ sportId: football, margin: 500 }, { sportId: basketball, margin: 450 }]).onConflictDoNothing();
}
