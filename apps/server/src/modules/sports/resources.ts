import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  bettingTypeResource, eventPartResource, eventTemplateResource, gameplayClassificationResource, leagueResource,
  locationResource, optionTranslationResource, outcomeSortingTypeResource, popularResource,
} from '@dau/contract';
import { languages } from '../system/index.js';
import {
  bettingTypes, eventParts, eventTemplates, gameplayClassifications, leagues, locations, optionTranslations, outcomeSortingTypes,
  popularLeagues, teams,
} from './schema.js';
import { registerResource } from '../../platform/resource.js';
import { AppError, badRequest } from '../../platform/errors.js';
import type { Executor } from '../../platform/db.js';
import type { AppContext } from '../../platform/context.js';

type Values = Record<string, unknown>;

/** The row as it will be after the write: the stored values under the submitted ones. */
const merged = (v: Values, before?: Values): Values => ({ ...(before ?? {}), ...v });

/** Refuses a reference to a row that does not exist ("The parameter is invalid", naming the field). */
async function mustExist(ex: Executor, table: PgTable & { id: PgColumn }, id: unknown, field: string, extra?: SQL) {
  if (id === undefined || id === null) return;
  const [row] = await ex.select({ id: table.id }).from(table).where(and(eq(table.id, Number(id)), extra)).limit(1);
  if (!row) throw badRequest('PARAM_INVALID', [{ field }]);
}

/** Refuses a second row with the same values of a natural key (409 Conflict). */
async function mustBeUnique(ex: Executor, table: PgTable & { id: PgColumn }, key: [PgColumn, unknown][], before?: Values) {
  const conds = key.map(([c, v]) => eq(c, v as never));
  if (before?.id !== undefined) conds.push(ne(table.id, Number(before.id)));
  const [dup] = await ex.select({ id: table.id }).from(table).where(and(...conds)).limit(1);
  if (dup) throw new AppError(409, 'CONFLICT');
}

/** The sports catalogue screens (issue 4): one declaration each, with the checks a type cannot say. */
export function sportsResources(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerResource(app, db, {
    def: locationResource,
    table: locations,
    prepare: async (v, { ex, before }) => {
      const row = merged(v, before);
      if (v.parent_id !== undefined && v.parent_id !== null) {
        if (before && Number(v.parent_id) === Number(before.id)) throw badRequest('PARAM_INVALID', [{ field: 'parent_id' }]);
        await mustExist(ex, locations, v.parent_id, 'parent_id');
      }
      await mustBeUnique(ex, locations, [[locations.name, row.name], [locations.type, row.type]], before);
    },
    // A location still holding leagues, teams or sub-locations stays.
    beforeDelete: async (row, ex) => {
      const id = Number(row.id);
      const [league] = await ex.select({ id: leagues.id }).from(leagues).where(eq(leagues.locationId, id)).limit(1);
      const [team] = await ex.select({ id: teams.id }).from(teams).where(eq(teams.locationId, id)).limit(1);
      const [child] = await ex.select({ id: locations.id }).from(locations).where(eq(locations.parentId, id)).limit(1);
      if (league || team || child) throw new AppError(409, 'CONFLICT');
    },
  });

  registerResource(app, db, {
    def: leagueResource,
    table: leagues,
    prepare: async (v, { ex, before }) => {
      const row = merged(v, before);
      await mustExist(ex, locations, v.location_id, 'location_id');
      await mustBeUnique(ex, leagues, [[leagues.sportId, row.sport_id], [leagues.locationId, row.location_id], [leagues.name, row.name]], before);
      if (v.provider_id === '') v.provider_id = null;
      if (typeof v.provider_id === 'string') await mustBeUnique(ex, leagues, [[leagues.providerId, v.provider_id]], before);
    },
    afterWrite: () => ctx.margins?.reload(),
  });

  registerResource(app, db, {
    def: eventTemplateResource,
    table: eventTemplates,
    prepare: async (v, { ex, before }) => {
      const row = merged(v, before);
      // Overtime minutes only mean something when the template plays overtime.
      if (row.overtime === false && Number(row.overtime_minutes ?? 0) > 0) throw badRequest('PARAM_INVALID', [{ field: 'overtime_minutes' }]);
      await mustBeUnique(ex, eventTemplates, [[eventTemplates.sportId, row.sport_id], [eventTemplates.name, row.name]], before);
    },
  });

  registerResource(app, db, {
    def: bettingTypeResource,
    table: bettingTypes,
    prepare: async (v, { ex, before }) => {
      const row = merged(v, before);
      await mustBeUnique(ex, bettingTypes, [[bettingTypes.sportId, row.sport_id], [bettingTypes.name, row.name]], before);
      if (typeof v.provider_id === 'number') await mustBeUnique(ex, bettingTypes, [[bettingTypes.providerId, v.provider_id]], before);
    },
  });

  registerResource(app, db, {
    def: eventPartResource,
    table: eventParts,
    prepare: async (v, { ex, before }) => {
      const row = merged(v, before);
      await mustBeUnique(ex, eventParts, [[eventParts.sportId, row.sport_id], [eventParts.name, row.name]], before);
    },
  });

  registerResource(app, db, {
    def: popularResource,
    table: popularLeagues,
    prepare: async (v, { ex, before }) => {
      if (v.league_id === undefined) return;
      await mustExist(ex, leagues, v.league_id, 'league_id');
      await mustBeUnique(ex, popularLeagues, [[popularLeagues.leagueId, v.league_id]], before);
    },
  });

  registerResource(app, db, {
    def: outcomeSortingTypeResource,
    table: outcomeSortingTypes,
    prepare: async (v, { ex, before }) => {
      const row = merged(v, before);
      await mustExist(ex, bettingTypes, v.betting_type_id, 'betting_type_id');
      await mustBeUnique(ex, outcomeSortingTypes, [[outcomeSortingTypes.bettingTypeId, row.betting_type_id], [outcomeSortingTypes.outcome, row.outcome]], before);
    },
  });

  registerResource(app, db, {
    def: gameplayClassificationResource,
    table: gameplayClassifications,
    prepare: async (v, { ex, before }) => {
      if (v.betting_type_ids === undefined && v.sport_id === undefined) return;
      const row = merged(v, before);
      // "1, 2,3" → "1,2,3": betting types of the category's sport, each once.
      const parts = String(row.betting_type_ids ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (parts.some((p) => !/^\d{1,9}$/.test(p))) throw badRequest('PARAM_INVALID', [{ field: 'betting_type_ids' }]);
      const ids = [...new Set(parts.map(Number))];
      if (ids.length) {
        const found = await ex
          .select({ id: bettingTypes.id })
          .from(bettingTypes)
          .where(and(inArray(bettingTypes.id, ids), eq(bettingTypes.sportId, Number(row.sport_id))));
        if (found.length !== ids.length) throw badRequest('PARAM_INVALID', [{ field: 'betting_type_ids' }]);
      }
      v.betting_type_ids = ids.join(',');
    },
  });

  registerResource(app, db, {
    def: optionTranslationResource,
    table: optionTranslations,
    prepare: async (v, { ex, before }) => {
      const row = merged(v, before);
      if (v.kind !== undefined && v.kind !== 'market' && v.kind !== 'selection') throw badRequest('PARAM_INVALID', [{ field: 'kind' }]);
      if (v.language_code !== undefined) {
        const [lang] = await ex.select({ id: languages.id }).from(languages).where(eq(languages.code, String(v.language_code))).limit(1);
        if (!lang) throw badRequest('PARAM_INVALID', [{ field: 'language_code' }]);
      }
      // A market's name translates a betting type: it must be one.
      if (row.kind === 'market' && (v.kind !== undefined || v.source_id !== undefined)) await mustExist(ex, bettingTypes, row.source_id, 'source_id');
      await mustBeUnique(
        ex,
        optionTranslations,
        [[optionTranslations.kind, row.kind], [optionTranslations.sourceId, row.source_id], [optionTranslations.languageCode, row.language_code]],
        before,
      );
    },
  });
}

