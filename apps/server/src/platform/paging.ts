import { z } from 'zod';

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

export function pageWindow(q: { page: number; page_size: number }) {
  return { limit: q.page_size, offset: (q.page - 1) * q.page_size };
}
