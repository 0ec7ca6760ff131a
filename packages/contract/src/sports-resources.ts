import { defineResource, type FieldDef, type ResourceDef } from './resource.js';

/**
 * The sports catalogue (issue 4, spec §2 betting and matches): reference lists that matches, markets and
 * odds point to, one declaration each. The server binds each to its table (apps/server/src/modules/sports/
 * resources.ts) with the checks a type cannot say (a league's location exists, a translation's language
 * is one of the languages list). Sports are the domain's `sport` ids (1 football, 8 basketball).
 */

const id: FieldDef = { key: 'id', type: 'number', sortable: true, width: 80 };
const sport: FieldDef = { key: 'sport_id', type: 'enum', enum: 'sport', search: 'exact', editable: true, required: true, default: 1, width: 110 };
const name: FieldDef = { key: 'name', type: 'text', search: 'like', editable: true, required: true, maxLength: 100 };
const nameZh: FieldDef = { key: 'name_zh', type: 'text', search: 'like', editable: true, maxLength: 100 };
const sort: FieldDef = { key: 'sort', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0, width: 90 };
const visible: FieldDef = { key: 'is_visible', type: 'switch', search: 'exact', editable: true, default: true, width: 90 };
const updated: FieldDef = { key: 'updated_at', type: 'datetime', sortable: true };

const catalogue = (name: string, api: string, fields: readonly FieldDef[], extra: Partial<ResourceDef> = {}) =>
  defineResource({
    name,
    page: name,
    api,
    kind: 'list',
    defaultSort: '-id',
    actions: ['create', 'edit', 'delete', 'export'],
    // One catalogue for every branch: a setting of the whole product.
    duty: {},
    fields,
    ...extra,
  });

/** Betting › Locations: countries, continents, miscellaneous areas and the world; `parent_id` makes region lists. */
export const locationResource = /* @__PURE__ */ catalogue('location', '/sports/locations', [
  id,
  name,
  nameZh,
  { key: 'type', type: 'enum', enum: 'location_type', search: 'exact', editable: true, required: true, default: 1, label: 'field.location_type' },
  { key: 'parent_id', type: 'number', search: 'exact', editable: true, min: 1, label: 'field.parent_location' },
  { key: 'code', type: 'text', search: 'exact', editable: true, maxLength: 16, width: 90 },
  sort,
  updated,
], { defaultSort: 'sort' });

/** Betting › Leagues: competitions of a sport in a location. */
export const leagueResource = /* @__PURE__ */ catalogue('league_list', '/sports/leagues', [
  id,
  sport,
  { key: 'location_id', type: 'number', search: 'exact', editable: true, required: true, min: 1, width: 100 },
  name,
  nameZh,
  { key: 'short_name', type: 'text', editable: true, maxLength: 32 },
  { key: 'provider_id', type: 'text', search: 'exact', editable: true, maxLength: 64, width: 160 },
  { key: 'popularity', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
  sort,
  visible,
  updated,
]);

/** Betting › Event templates: how a sport's match is played (periods, their length, overtime). */
export const eventTemplateResource = /* @__PURE__ */ catalogue('event_template', '/sports/event_templates', [
  id,
  sport,
  name,
  { key: 'periods', type: 'number', editable: true, required: true, min: 1, max: 10, default: 2 },
  { key: 'period_minutes', type: 'number', editable: true, required: true, min: 1, max: 90, default: 45 },
  { key: 'overtime', type: 'switch', editable: true, default: false },
  { key: 'overtime_minutes', type: 'number', editable: true, min: 0, max: 60, default: 0 },
  { key: 'penalties', type: 'switch', editable: true, default: false },
  updated,
]);

/** Betting › Betting types: market types, over/under or not, and when offered (type flag). */
export const bettingTypeResource = /* @__PURE__ */ catalogue('betting_type', '/sports/betting_types', [
  id,
  sport,
  name,
  { key: 'provider_id', type: 'number', search: 'exact', editable: true, min: 1, max: 1_000_000, width: 110 },
  { key: 'is_over_under', type: 'switch', search: 'exact', editable: true, default: false },
  { key: 'type_flag', type: 'enum', enum: 'type_flag', search: 'exact', editable: true, required: true, default: 1 },
  sort,
  visible,
  updated,
]);

/** Betting › Play sub-types: the part of a match a market is about. */
export const eventPartResource = /* @__PURE__ */ catalogue('event_part', '/sports/event_parts', [id, sport, name, sort, updated]);

/** Betting › Popular leagues, in the order the bettors' front page lists them. */
export const popularResource = /* @__PURE__ */ catalogue('popular', '/sports/popular', [
  id,
  { key: 'league_id', type: 'number', search: 'exact', editable: true, required: true, min: 1 },
  sort,
  updated,
], { defaultSort: 'sort' });

/** Betting › Outcome sorting: the order of a market type's outcomes. */
export const outcomeSortingTypeResource = /* @__PURE__ */ catalogue('outcome_sorting_type', '/sports/outcome_sorting_types', [
  id,
  { key: 'betting_type_id', type: 'number', search: 'exact', editable: true, required: true, min: 1 },
  { key: 'outcome', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
  sort,
  updated,
]);

/** Betting › Play categories: tabs of the bettors' site, each a list of betting type ids of one sport. */
export const gameplayClassificationResource = /* @__PURE__ */ catalogue('gameplay_classification', '/sports/gameplay_classifications', [
  id,
  sport,
  name,
  { key: 'betting_type_ids', type: 'text', editable: true, maxLength: 500, width: 200 },
  sort,
  visible,
  updated,
]);

/** Betting › Option translations: market ('market', a betting type id) and selection names per bettor language. */
export const optionTranslationResource = /* @__PURE__ */ catalogue('option_translation', '/sports/option_translations', [
  id,
  { key: 'kind', type: 'text', search: 'exact', editable: true, required: true, maxLength: 16, default: 'market', label: 'field.option_kind' },
  { key: 'source_id', type: 'number', search: 'exact', editable: true, required: true, min: 1 },
  { key: 'language_code', type: 'text', search: 'exact', editable: true, required: true, maxLength: 16 },
  { key: 'text', type: 'text', search: 'like', editable: true, required: true, maxLength: 200, label: 'field.translation' },
  updated,
]);

/**
 * Betting › Matches (spec §3 match_list): the events the feed keeps, with the operator's flags. Read by
 * hand-written routes (apps/server/src/modules/feed/routes.ts): row keys and filters are theirs; the
 * start date range is `date_from` / `date_to`. The odds of a match are GET {api}/:event_id/odds.
 */
export const matchListResource = /* @__PURE__ */ defineResource({
  name: 'match_list',
  page: 'match_list',
  api: '/sports/matches',
  kind: 'list',
  title: 'menu.match_list',
  description: 'sports.describe.match_list',
  defaultSort: 'start_time',
  actions: ['export'],
  fetchDetail: false,
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 80, table: false },
    { key: 'league_name', type: 'text', width: 160, keep: true },
    { key: 'home_team', type: 'text', width: 150, keep: true },
    { key: 'away_team', type: 'text', width: 150, keep: true },
    { key: 'start_time', type: 'datetime', sortable: true, keep: true },
    { key: 'event_id', type: 'text', width: 150 },
    { key: 'sport_id', type: 'enum', enum: 'sport', search: 'exact', width: 110 },
    { key: 'league_id', type: 'text', search: 'exact', table: false },
    { key: 'date', type: 'datetime', search: 'range', table: false, detail: false, label: 'field.start_date' },
    { key: 'event_status', type: 'enum', enum: 'event_status', search: 'exact', width: 120 },
    { key: 'match_status', type: 'enum', enum: 'match_status', search: 'exact', width: 120, keep: true },
    { key: 'is_visible', type: 'switch', search: 'exact', width: 90 },
    { key: 'is_suspended', type: 'switch', width: 100, keep: true },
    { key: 'is_maintain', type: 'switch', table: false },
    { key: 'live_delay_seconds', type: 'number', table: false },
    { key: 'random_bet', type: 'switch', table: false },
    { key: 'popularity', type: 'number', sortable: true, width: 100 },
    { key: 'sequence', type: 'number', sortable: true, width: 100 },
    { key: 'cancel_reason', type: 'text', table: false },
    { key: 'updated_at', type: 'datetime', table: false },
  ],
});

/** Every catalogue declaration (the locale test checks each field, title and description has a text). */
export const SPORTS_RESOURCES: readonly ResourceDef[] = [
  locationResource,
  leagueResource,
  eventTemplateResource,
  bettingTypeResource,
  eventPartResource,
  popularResource,
  outcomeSortingTypeResource,
  gameplayClassificationResource,
  optionTranslationResource,
  matchListResource,
];
