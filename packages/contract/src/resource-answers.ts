/**
 * The zod answers of the resource layer (./resource.ts declares the resources without zod, so that the
 * console, which imports the declarations through `@dau/contract/ui`, does not bundle zod).
 */
import { z } from 'zod';
import type { FieldDef, ResourceDef } from './resource.js';

/** The JSON type of a field's value in an answer (cents, basis points and enumeration ids are numbers). */
export function fieldAnswer(f: FieldDef): z.ZodType {
  switch (f.type) {
    case 'number':
    case 'money':
    case 'odds':
    case 'enum':
      return z.number().nullable();
    case 'switch':
      return z.boolean().nullable();
    case 'images':
      return z.array(z.string()).nullable();
    default:
      return z.string().nullable();
  }
}

/**
 * The row a resource answers: its declared fields (null when unset) and the row id. Answers are
 * serialised from it, so a column that is not declared (or is write-only) never leaves the server.
 */
export function resourceRow(def: Pick<ResourceDef, 'fields'>): z.ZodObject {
  const shape: Record<string, z.ZodType> = { id: z.number() };
  for (const f of def.fields) if (!f.writeOnly) shape[f.key] = f.key === 'id' ? z.number() : fieldAnswer(f);
  return z.object(shape);
}

/** A page of a list: `{ items, total, page, page_size }` (`total_exact: false` when the total is capped). */
export const pageAnswer = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number(), total_exact: z.boolean().optional(), page: z.number(), page_size: z.number() });

/** The answer of a change that returns nothing else. */
export const okAnswer = z.object({ ok: z.boolean() });

/** A CSV download (UTF-8 with a byte order mark): declare with `produces: ['text/csv']`. */
export const csvAnswer = z.string().describe('CSV file, UTF-8 with a byte order mark');
