import { z } from 'zod';
import { unprocessable } from './errors.js';

/** The list query every list route takes (page, page_size up to 200, sort). */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(20),
  sort: z
    .string()
    .regex(/^-?[a-z_][a-z0-9_]*$/)
    .optional(),
});

export type PageQuery = z.infer<typeof pageQuery>;

export const listAnswer = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });

/**
 * How deep a list pages, and how far its first page counts (issue 25): an offset costs the rows it skips
 * and a count the rows it counts, so neither may grow with the table. Every list counts at most this many
 * rows (the console then says "10,000+" and offers the pages within them) and refuses a page beyond them
 * (422 LIST_TOO_DEEP: narrow the filter, or export: exports read the whole list by keyset).
 */
export const LIST_MAX_ROWS = 10_000;

/** The offset of a page, refused (422 LIST_TOO_DEEP) beyond the first LIST_MAX_ROWS rows. */
export function pageOffset(q: { page: number; page_size: number }): number {
  const offset = (q.page - 1) * q.page_size;
  if (offset >= LIST_MAX_ROWS) throw unprocessable('LIST_TOO_DEEP', { max: LIST_MAX_ROWS.toLocaleString('en-US') });
  return offset;
}

export function pageWindow(q: { page: number; page_size: number }) {
  return { limit: q.page_size, offset: pageOffset(q) };
}
