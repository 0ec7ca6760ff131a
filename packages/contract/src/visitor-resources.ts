import { defineResource, type FieldDef } from './resource.js';

/**
 * Visitors of the bettor-facing site and app (issue 16, spec §2 System › visitor). The server keeps each
 * visit (90 days) and hourly totals by device, source, country and new / returning (kept for good);
 * GET /visitors/stats reads the totals for the charts, GET /visitors/visits lists the visits and exports
 * them in the background (list `visitor`). Days and hours are Dar es Salaam's.
 */

/** GET /visitors/visits: row keys and filters. */
export const VISIT_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', sortable: true, width: 90 },
  { key: 'visited_at', type: 'datetime', sortable: true, search: 'range', width: 170 },
  /** The visitor's id (the site's cookie or the app's device id). */
  { key: 'visitor_id', type: 'text', search: 'exact', width: 180 },
  { key: 'kind', type: 'enum', enum: 'visitor_kind', search: 'exact' },
  { key: 'device', type: 'enum', enum: 'visit_device', search: 'exact' },
  { key: 'source', type: 'enum', enum: 'visit_source', search: 'exact' },
  /** ISO 3166-1 alpha-2 code (ZZ unknown); the console names it in the operator's language. */
  { key: 'country', type: 'text', search: 'exact', width: 110 },
  { key: 'path', type: 'text', width: 200 },
];

/** System › Visitors (visitor): the visits list under the charts. */
export const visitorResource = /* @__PURE__ */ defineResource({
  name: 'visitor',
  page: 'visitor',
  api: '/visitors/visits',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'visitor',
  fetchDetail: false,
  fields: VISIT_FIELDS,
});

/** The most days GET /visitors/stats covers at once. */
export const VISITOR_STATS_MAX_DAYS = 92;

/** Visits and distinct visitors (a visitor counts once a day, at their first visit of the day). */
export interface VisitCounts {
  visits: number;
  visitors: number;
  new_visitors: number;
  returning_visitors: number;
}

/** GET /visitors/stats?date_from&date_to (YYYY-MM-DD, Dar es Salaam days). */
export interface VisitorStats {
  date_from: string;
  date_to: string;
  totals: VisitCounts;
  /** One row per day of the range (days without visits included). */
  days: Array<VisitCounts & { day: string }>;
  /** Hours of the day 0-23 (Dar es Salaam), summed over the range. */
  hours: Array<VisitCounts & { hour: number }>;
  devices: Array<VisitCounts & { device: number }>;
  sources: Array<VisitCounts & { source: number }>;
  /** By visits, most first. */
  countries: Array<VisitCounts & { country: string }>;
}
