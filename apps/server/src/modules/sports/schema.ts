import { boolean, index, integer, pgTable, serial, smallint, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The sports catalogue (issue 4, spec §2 betting and matches, §4): reference data that matches, markets
 * and odds point to. Sports are the domain's SPORT ids (1 football, 8 basketball); names with a `_zh`
 * twin carry the Chinese translation the spec asks for.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Countries, continents, miscellaneous areas and the world (location_type 1-4); `parent_id` builds the region lists. */
export const locations = pgTable(
  'locations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    nameZh: text('name_zh').notNull().default(''),
    type: smallint('type').notNull().default(1),
    parentId: integer('parent_id'),
    code: text('code').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('locations_name_type_uq').on(t.name, t.type), index('locations_parent_idx').on(t.parentId)],
);

/** Competitions (league_list). */
export const leagues = pgTable(
  'leagues',
  {
    id: serial('id').primaryKey(),
    sportId: smallint('sport_id').notNull(),
    locationId: integer('location_id').notNull().references(() => locations.id),
    name: text('name').notNull(),
    nameZh: text('name_zh').notNull().default(''),
    shortName: text('short_name').notNull().default(''),
    /** The odds provider's id of the competition (e.g. `sr:tournament:17`): links feed matches to this league (margins, names). */
    providerId: text('provider_id'),
    popularity: integer('popularity').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    isVisible: boolean('is_visible').notNull().default(true),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('leagues_sport_location_name_uq').on(t.sportId, t.locationId, t.name),
    index('leagues_location_idx').on(t.locationId),
    uniqueIndex('leagues_provider_id_uq').on(t.providerId),
  ],
);

export const teams = pgTable(
  'teams',
  {
    id: serial('id').primaryKey(),
    sportId: smallint('sport_id').notNull(),
    locationId: integer('location_id').references(() => locations.id),
    name: text('name').notNull(),
    nameZh: text('name_zh').notNull().default(''),
    abbreviation: text('abbreviation').notNull().default(''),
    logo: text('logo').notNull().default(''),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('teams_sport_name_uq').on(t.sportId, t.name)],
);

/** How a sport's match is played: periods, their length, overtime. */
export const eventTemplates = pgTable(
  'event_templates',
  {
    id: serial('id').primaryKey(),
    sportId: smallint('sport_id').notNull(),
    name: text('name').notNull(),
    periods: smallint('periods').notNull().default(2),
    periodMinutes: smallint('period_minutes').notNull().default(45),
    overtime: boolean('overtime').notNull().default(false),
    overtimeMinutes: smallint('overtime_minutes').notNull().default(0),
    penalties: boolean('penalties').notNull().default(false),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('event_templates_sport_name_uq').on(t.sportId, t.name)],
);

/** Market types: over/under or not, and when they are offered (type_flag 0-3). */
export const bettingTypes = pgTable(
  'betting_types',
  {
    id: serial('id').primaryKey(),
    sportId: smallint('sport_id').notNull(),
    name: text('name').notNull(),
    /** The odds provider's market type id (e.g. 1 = 1X2, 18 = total): links feed markets to this row. */
    providerId: integer('provider_id'),
    isOverUnder: boolean('is_over_under').notNull().default(false),
    typeFlag: smallint('type_flag').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    isVisible: boolean('is_visible').notNull().default(true),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('betting_types_sport_name_uq').on(t.sportId, t.name), uniqueIndex('betting_types_provider_id_uq').on(t.providerId)],
);

/** Play sub-types: the part of the match a market is about (full time, first half, a quarter...). */
export const eventParts = pgTable(
  'event_parts',
  {
    id: serial('id').primaryKey(),
    sportId: smallint('sport_id').notNull(),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('event_parts_sport_name_uq').on(t.sportId, t.name)],
);

/** Popular leagues, in the order the bettors' front page shows them. */
export const popularLeagues = pgTable('popular_leagues', {
  id: serial('id').primaryKey(),
  leagueId: integer('league_id').notNull().unique().references(() => leagues.id, { onDelete: 'cascade' }),
  sort: integer('sort').notNull().default(0),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** The order of a market's outcomes (Home, Draw, Away; Over, Under). */
export const outcomeSortingTypes = pgTable(
  'outcome_sorting_types',
  {
    id: serial('id').primaryKey(),
    bettingTypeId: integer('betting_type_id').notNull().references(() => bettingTypes.id, { onDelete: 'cascade' }),
    outcome: text('outcome').notNull(),
    sort: integer('sort').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('outcome_sorting_types_type_outcome_uq').on(t.bettingTypeId, t.outcome)],
);

/** Front-end play categories: tabs of the bettors' site grouping market types (ids as a comma list). */
export const gameplayClassifications = pgTable('gameplay_classifications', {
  id: serial('id').primaryKey(),
  sportId: smallint('sport_id').notNull(),
  name: text('name').notNull(),
  bettingTypeIds: text('betting_type_ids').notNull().default(''),
  sort: integer('sort').notNull().default(0),
  isVisible: boolean('is_visible').notNull().default(true),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Market (kind 'market', source = betting type id) and selection names in each bettor language. */
export const optionTranslations = pgTable(
  'option_translations',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    sourceId: integer('source_id').notNull(),
    languageCode: text('language_code').notNull(),
    text: text('text').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('option_translations_kind_source_lang_uq').on(t.kind, t.sourceId, t.languageCode)],
);

/** The margin applied to provider prices, per sport or per league of a sport, in basis points. */
export const priceMargins = pgTable(
  'price_margins',
  {
    id: serial('id').primaryKey(),
    sportId: smallint('sport_id').notNull(),
    leagueId: integer('league_id').references(() => leagues.id, { onDelete: 'cascade' }),
    margin: integer('margin').notNull().default(500),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [unique('price_margins_sport_league_uq').on(t.sportId, t.leagueId).nullsNotDistinct()],
);
