/**
 * The zod answers of the resource layer (./resource.ts declares the resources without zod, so that the
 * console, which imports the declarations through `@dau/contract/ui`, does not bundle zod).
 */
import { z } from 'zod';
import type { FieldDef, ResourceDef } from './resource.js';
import { component } from './answers.js';

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

/** The API document's name of the row the resource layer answers for a declaration: `ip_black` → `IpBlackRow`. */
export const resourceRowId = (def: Pick<ResourceDef, 'name'>): string =>
  `${def.name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Row`;

const rows = new WeakMap<object, z.ZodObject>();

/**
 * The row a resource answers: its declared fields (null when unset) and the row id. Answers are
 * serialised from it, so a column that is not declared (or is write-only) never leaves the server.
 * Of a declaration (with its name), the row is one schema, named in the API document (`resourceRowId`)
 * with `x-resource: <name>`: its list, read, create and change operations refer to it, and the document
 * says which declaration the resource layer built it from (test/declarations.test.ts reads that).
 */
export function resourceRow(def: Pick<ResourceDef, 'fields'> & Partial<Pick<ResourceDef, 'name' | 'kind'>>): z.ZodObject {
  const known = rows.get(def);
  if (known) return known;
  const shape: Record<string, z.ZodType> = { id: z.number() };
  for (const f of def.fields) if (!f.writeOnly) shape[f.key] = f.key === 'id' ? z.number() : fieldAnswer(f);
  const row = z.object(shape);
  if (def.name) {
    const what = def.kind === 'singleton' ? `The ${def.name} settings` : `A row of the ${def.name} list`;
    component(row, resourceRowId({ name: def.name }), { description: `${what} (resource declaration ${def.name})`, 'x-resource': def.name });
  }
  rows.set(def, row);
  return row;
}

/** A page of a list: `{ items, total, page, page_size }` (`total_exact: false` when the total is capped). */
export const pageAnswer = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number(), total_exact: z.boolean().optional(), page: z.number(), page_size: z.number() });
/** The type of a page of a list whose items are `T` (the console's list answers). */
export type PageAnswer<T> = Omit<z.infer<ReturnType<typeof pageAnswer>>, 'items'> & { items: T[] };

/** The answer of a change that returns nothing else. */
export const okAnswer = z.object({ ok: z.boolean() });

/** A CSV download (UTF-8 with a byte order mark): declare with `produces: ['text/csv']`. */
export const csvAnswer = z.string().describe('CSV file, UTF-8 with a byte order mark');
