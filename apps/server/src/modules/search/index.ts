/**
 * Search everywhere (issue 29): one query over the modules' rows, classified by its shape (./classify.ts),
 * each kind looked up with its indexes (migration 0041) within the caller's pages and branch
 * (./service.ts), answered by GET /api/v1/search (./routes.ts). It reads the other modules through their
 * read-only faces; nothing imports it but the composition root.
 */
export { searchRoutes } from './routes.js';
export { classify } from './classify.js';
export { searchEverywhere, SEARCH_KINDS, type SearchGroup, type SearchItem, type SearchKind } from './service.js';
