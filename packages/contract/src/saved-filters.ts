/** Bounds of saved filters (issue 29), shared by the server's validation and the console's form (no zod here). */
export const SAVED_FILTER_NAME_MAX = 40;
export const SAVED_FILTER_QUERY_MAX = 2000;
/** Filters one admin may keep for one list. */
export const SAVED_FILTERS_PER_PAGE = 50;
