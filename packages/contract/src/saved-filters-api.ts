import { z } from 'zod';
import { id, rawText, text } from './input.js';
import { SAVED_FILTER_NAME_MAX, SAVED_FILTER_QUERY_MAX } from './saved-filters.js';

/**
 * Saved filters (issue 29): on every list an admin saves the view's URL query (its filters, sort and page
 * size; never the page number) under a name, pins one as the list's default, and may share one, read-only,
 * with the admins of a role. Stored per admin on the server (GET/POST/PUT/DELETE /system/saved_filters).
 */
/** The catalogue page (menu.ts) a filter belongs to: the list's path, e.g. `withdraw_list`. */
const pagePath = () => text(64).min(1);
const name = () => text(SAVED_FILTER_NAME_MAX).min(1);
/** The list's URL query without the leading `?` (`status=1&sort=-create_time`); `page` is dropped. */
const query = () => rawText(SAVED_FILTER_QUERY_MAX);

export const savedFilterListQuery = z.object({ page: pagePath() });

export const savedFilterBody = z.strictObject({
  page: pagePath(),
  name: name(),
  query: query(),
  /** Pin it as this list's default (the one pinned before is unpinned). */
  is_default: z.boolean().optional(),
  /** Share it read-only with the admins of this role: one's own role, or a role one manages (the role page). */
  shared_role_id: id().nullable().optional(),
});
export type SavedFilterBody = z.infer<typeof savedFilterBody>;

/** A change of one's own filter: any of its name, query and sharing. */
export const savedFilterUpdateBody = z.strictObject({
  name: name().optional(),
  query: query().optional(),
  shared_role_id: id().nullable().optional(),
});
export type SavedFilterUpdateBody = z.infer<typeof savedFilterUpdateBody>;

export const savedFilterDefaultBody = z.strictObject({ is_default: z.boolean() });

export const savedFilterRow = z.object({
  id: z.number().int(),
  page: z.string(),
  name: z.string(),
  query: z.string(),
  /** The caller's own filter (editable); false: shared with the caller's role by another admin (read-only). */
  mine: z.boolean(),
  /** Pinned as the caller's default of the list (own filters only). */
  is_default: z.boolean(),
  shared_role_id: z.number().int().nullable(),
  shared_role_name: z.string().nullable(),
  owner_account: z.string(),
  create_time: z.string(),
  update_time: z.string(),
});
export type SavedFilterRow = z.infer<typeof savedFilterRow>;

export const savedFiltersAnswer = z.object({
  /** The caller's own filters of the list, then those shared with their role, each by name. */
  items: z.array(savedFilterRow),
  /** The caller's pinned default of the list, if any. */
  default_id: z.number().int().nullable(),
  /** The roles the caller may share a filter with. */
  share_roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type SavedFiltersAnswer = z.infer<typeof savedFiltersAnswer>;
