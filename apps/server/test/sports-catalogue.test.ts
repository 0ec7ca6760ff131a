import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { LOG_TYPE } from '@dau/domain';
import { ADMIN_PASSWORD, PASSWORD, createTestApp, makeAdmin, makeRole, makeWorld, type TestApp } from './helpers.js';
import { systemLogs } from '../src/platform/schema.js';
import { seed } from '../src/seed.js';
import { leagues, locations } from '../src/modules/sports/schema.js';

let t: TestApp;
let root: string;
const api = '/api/v1/sports';
type Row = Record<string, any>;

beforeAll(async () => {
  t = await createTestApp();
  await makeWorld(t);
  root = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

const list = async (path: string, query = '') => (await t.call('GET', `${api}/${path}${query}`, { token: root })).body.items as Row[];

describe('the seeded catalogue', () => {
  it('holds football and basketball reference rows and is not seeded twice', async () => {
    const locs = await list('locations', '?page_size=100');
    expect(locs.map((l) => l.name)).toEqual(expect.arrayContaining(['Tanzania', 'England', 'Spain', 'Europe', 'World']));
    const tz = locs.find((l) => l.name === 'Tanzania')!;
    expect(tz.type).toBe(1);
    expect(locs.find((l) => l.id === tz.parent_id)?.name).toBe('Africa');
    const football = await list('leagues', '?sport_id=1&page_size=100');
    expect(football.map((l) => l.name)).toEqual(expect.arrayContaining(['Tanzanian Premier League', 'English Premier League']));
    expect((await list('leagues', '?sport_id=8')).map((l) => l.name)).toEqual(['NBA']);
    const types = await list('betting_types', '?page_size=100');
    expect(types.map((b) => b.name)).toEqual(expect.arrayContaining(['1X2', 'Over/Under', 'Asian handicap', 'Both teams to score', 'Moneyline', 'Total points']));
    expect(types.find((b) => b.name === 'Total points')).toMatchObject({ sport_id: 8, is_over_under: true, type_flag: 1 });
    // The seed's three (another case adds one of its own).
    const popular = (await list('popular')).map((p) => p.league_id);
    const seededPopular = (await t.database.db.select({ id: leagues.id }).from(leagues).where(inArray(leagues.name, ['Tanzanian Premier League', 'English Premier League', 'NBA']))).map((l) => l.id);
    expect(seededPopular).toHaveLength(3);
    expect(popular).toEqual(expect.arrayContaining(seededPopular));
    expect((await list('event_templates')).length).toBeGreaterThanOrEqual(4);
    expect((await list('event_parts', '?sport_id=8')).length).toBeGreaterThanOrEqual(1);

    const before = (await t.database.db.select().from(leagues)).length;
    await seed(t.database.db, { adminPassword: ADMIN_PASSWORD });
    expect((await t.database.db.select().from(leagues)).length).toBe(before);
  });
});

describe('locations and leagues', () => {
  it('creates, filters, edits, exports and deletes; checks references', async () => {
    const [europe] = await t.database.db.select().from(locations).where(eq(locations.name, 'Europe'));
    const it_ = await t.call('POST', `${api}/locations`, { token: root, body: { name: 'Italy', name_zh: '意大利', type: 1, parent_id: europe.id, code: 'IT' } });
    expect(it_.status).toBe(201);
    expect(it_.body).toMatchObject({ name: 'Italy', type: 1, parent_id: europe.id, sort: 0 });

    // A parent that does not exist, an unknown location type, a blank name.
    const noParent = await t.call('POST', `${api}/locations`, { token: root, body: { name: 'Atlantis', type: 1, parent_id: 999999 } });
    expect(noParent.status).toBe(400);
    expect(noParent.body.message).toBe('The parameter is invalid');
    expect(noParent.body.details[0].field).toBe('parent_id');
    expect((await t.call('POST', `${api}/locations`, { token: root, body: { name: 'Atlantis', type: 9 } })).status).toBe(400);
    expect((await t.call('POST', `${api}/locations`, { token: root, body: { name: '  ', type: 1 } })).status).toBe(400);
    expect((await t.call('POST', `${api}/locations`, { token: root, body: { name: 'Italy', type: 1 } })).status).toBe(409);
    expect((await t.call('PUT', `${api}/locations/${it_.body.id}`, { token: root, body: { parent_id: it_.body.id } })).status).toBe(400);

    const serieA = await t.call('POST', `${api}/leagues`, { token: root, body: { sport_id: 1, location_id: it_.body.id, name: 'Serie A', short_name: 'SA' } });
    expect(serieA.status).toBe(201);
    expect(serieA.body).toMatchObject({ sport_id: 1, is_visible: true, popularity: 0 });
    const badLoc = await t.call('POST', `${api}/leagues`, { token: root, body: { sport_id: 1, location_id: 999999, name: 'Nowhere League' } });
    expect(badLoc.status).toBe(400);
    expect(badLoc.body.message).toBe('The parameter is invalid');
    expect(badLoc.body.details[0].field).toBe('location_id');
    // Only football (1) and basketball (8).
    expect((await t.call('POST', `${api}/leagues`, { token: root, body: { sport_id: 2, location_id: it_.body.id, name: 'Tennis' } })).status).toBe(400);
    expect((await t.call('POST', `${api}/leagues`, { token: root, body: { sport_id: 1, location_id: it_.body.id, name: 'Serie A' } })).status).toBe(409);

    const edited = await t.call('PUT', `${api}/leagues/${serieA.body.id}`, { token: root, body: { is_visible: false, popularity: 60 } });
    expect(edited.body).toMatchObject({ is_visible: false, popularity: 60, name: 'Serie A' });
    const hidden = await list('leagues', '?is_visible=false');
    expect(hidden.map((l) => l.name)).toEqual(['Serie A']);
    expect((await list('leagues', '?name=serie')).map((l) => l.id)).toEqual([serieA.body.id]);

    const csv = await t.call('GET', `${api}/leagues/export?sport_id=1`, { token: root });
    expect(csv.status).toBe(200);
    expect(csv.res.headers['content-disposition']).toContain('league_list-');
    expect(csv.res.body).toContain('Serie A');
    expect(csv.res.body).not.toContain('NBA');

    // A location holding a league stays; once empty it goes.
    expect((await t.call('DELETE', `${api}/locations/${it_.body.id}`, { token: root })).status).toBe(409);
    expect((await t.call('DELETE', `${api}/leagues/${serieA.body.id}`, { token: root })).status).toBe(200);
    expect((await t.call('DELETE', `${api}/locations/${it_.body.id}`, { token: root })).status).toBe(200);
    const trail = await t.database.db.select().from(systemLogs).where(eq(systemLogs.type, LOG_TYPE.ordinary));
    expect(trail.map((r) => r.content)).toEqual(expect.arrayContaining([expect.stringContaining('Created league_list'), expect.stringContaining('Deleted location')]));
  });
});

describe('markets and their checks', () => {
  it('betting types, outcome sorting, popular leagues and event templates', async () => {
    const bt = await t.call('POST', `${api}/betting_types`, { token: root, body: { sport_id: 8, name: 'Race to 20 points', type_flag: 3 } });
    expect(bt.status).toBe(201);
    expect(bt.body).toMatchObject({ is_over_under: false, type_flag: 3, is_visible: true });
    expect((await t.call('POST', `${api}/betting_types`, { token: root, body: { sport_id: 8, name: 'X', type_flag: 4 } })).status).toBe(400);
    expect((await list('betting_types', '?type_flag=3')).map((b) => b.id)).toEqual([bt.body.id]);

    const os = await t.call('POST', `${api}/outcome_sorting_types`, { token: root, body: { betting_type_id: bt.body.id, outcome: 'Home', sort: 2 } });
    expect(os.status).toBe(201);
    const badOs = await t.call('POST', `${api}/outcome_sorting_types`, { token: root, body: { betting_type_id: 999999, outcome: 'Home' } });
    expect(badOs.status).toBe(400);
    expect(badOs.body.details[0].field).toBe('betting_type_id');

    const [cl] = await list('leagues', '?name=Champions');
    const pop = await t.call('POST', `${api}/popular`, { token: root, body: { league_id: cl.id, sort: 5 } });
    expect(pop.status).toBe(201);
    expect((await t.call('POST', `${api}/popular`, { token: root, body: { league_id: cl.id } })).status).toBe(409);
    expect((await t.call('POST', `${api}/popular`, { token: root, body: { league_id: 999999 } })).status).toBe(400);

    const tpl = await t.call('POST', `${api}/event_templates`, { token: root, body: { sport_id: 1, name: 'Youth, 2 x 35 minutes', periods: 2, period_minutes: 35 } });
    expect(tpl.status).toBe(201);
    expect(tpl.body).toMatchObject({ overtime: false, overtime_minutes: 0 });
    expect((await t.call('PUT', `${api}/event_templates/${tpl.body.id}`, { token: root, body: { overtime_minutes: 10 } })).status).toBe(400);
    expect((await t.call('PUT', `${api}/event_templates/${tpl.body.id}`, { token: root, body: { overtime: true, overtime_minutes: 10 } })).body.overtime_minutes).toBe(10);
    expect((await t.call('POST', `${api}/event_templates`, { token: root, body: { sport_id: 1, name: 'Long', periods: 2, period_minutes: 120 } })).status).toBe(400);

    const part = await t.call('POST', `${api}/event_parts`, { token: root, body: { sport_id: 8, name: '2nd quarter', sort: 9 } });
    expect(part.status).toBe(201);
    expect((await t.call('DELETE', `${api}/event_parts/${part.body.id}`, { token: root })).status).toBe(200);
  });

  it('play categories take betting types of their own sport', async () => {
    const types = await list('betting_types', '?page_size=100');
    const x12 = types.find((b) => b.name === '1X2')!;
    const ou = types.find((b) => b.name === 'Over/Under')!;
    const ml = types.find((b) => b.name === 'Moneyline')!;
    const gc = await t.call('POST', `${api}/gameplay_classifications`, { token: root, body: { sport_id: 1, name: 'Popular', betting_type_ids: ` ${x12.id}, ${ou.id},${x12.id}` } });
    expect(gc.status).toBe(201);
    expect(gc.body.betting_type_ids).toBe(`${x12.id},${ou.id}`);
    const wrongSport = await t.call('PUT', `${api}/gameplay_classifications/${gc.body.id}`, { token: root, body: { betting_type_ids: `${ml.id}` } });
    expect(wrongSport.status).toBe(400);
    expect(wrongSport.body.message).toBe('The parameter is invalid');
    expect((await t.call('PUT', `${api}/gameplay_classifications/${gc.body.id}`, { token: root, body: { betting_type_ids: 'a,b' } })).status).toBe(400);
  });

  it('option translations need a language of the languages list and an existing market', async () => {
    const [x12] = (await list('betting_types', '?page_size=100')).filter((b) => b.name === '1X2');
    const en = await t.call('POST', `${api}/option_translations`, { token: root, body: { kind: 'market', source_id: x12.id, language_code: 'en-US', text: 'Match result' } });
    expect(en.status).toBe(201);
    const badLang = await t.call('POST', `${api}/option_translations`, { token: root, body: { kind: 'market', source_id: x12.id, language_code: 'fr-FR', text: 'Résultat' } });
    expect(badLang.status).toBe(400);
    expect(badLang.body.message).toBe('The parameter is invalid');
    expect(badLang.body.details[0].field).toBe('language_code');
    const badKind = await t.call('POST', `${api}/option_translations`, { token: root, body: { kind: 'league', source_id: x12.id, language_code: 'en-US', text: 'x' } });
    expect(badKind.status).toBe(400);
    expect((await t.call('POST', `${api}/option_translations`, { token: root, body: { kind: 'market', source_id: 999999, language_code: 'en-US', text: 'x' } })).status).toBe(400);
    expect((await t.call('POST', `${api}/option_translations`, { token: root, body: { kind: 'market', source_id: x12.id, language_code: 'en-US', text: 'Again' } })).status).toBe(409);
    const sel = await t.call('POST', `${api}/option_translations`, { token: root, body: { kind: 'selection', source_id: 12345, language_code: 'sw-KE', text: 'Sare' } });
    expect(sel.status).toBe(201);
    expect((await list('option_translations', `?language_code=sw-KE&kind=selection`)).map((r) => r.text)).toEqual(['Sare']);
    const csv = await t.call('GET', `${api}/option_translations/export?language_code=zh-CN`, { token: root });
    expect(csv.res.body).toContain('胜平负');
    expect(csv.res.body).not.toContain('Sare');
  });
});

describe('permissions', () => {
  it('an admin without the page gets 403; with the page but no button, 403 on writes', async () => {
    const limited = await t.login('limited', PASSWORD);
    expect((await t.call('GET', `${api}/leagues`, { token: limited })).status).toBe(403);
    expect((await t.call('POST', `${api}/locations`, { token: limited, body: { name: 'Kenya', type: 1 } })).status).toBe(403);

    const readOnly = await makeRole(t, 'Catalogue reader', ['betting', 'league_list']);
    await makeAdmin(t, 'catalogue_reader', readOnly, null);
    const reader = await t.login('catalogue_reader', PASSWORD);
    expect((await t.call('GET', `${api}/leagues`, { token: reader })).status).toBe(200);
    expect((await t.call('GET', `${api}/leagues/export`, { token: reader })).status).toBe(403);
    expect((await t.call('POST', `${api}/leagues`, { token: reader, body: { sport_id: 1, location_id: 1, name: 'X' } })).status).toBe(403);
    expect((await t.call('GET', `${api}/betting_types`, { token: reader })).status).toBe(403);
  });
});
