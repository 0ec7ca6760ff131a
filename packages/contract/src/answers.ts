import { z } from 'zod';

/**
 * Answer rows written compactly: `{ id: 'number', fail_reason: 'string?' }` (a `?` allows null). The
 * server serialises answers from these schemas, so a key that is not listed never leaves it, and the
 * OpenAPI document types every field for generated clients.
 */
export type AnswerType = 'number' | 'string' | 'boolean' | 'number?' | 'string?' | 'boolean?';

const base = { number: () => z.number(), string: () => z.string(), boolean: () => z.boolean() } as const;

type ZodOf<A extends AnswerType> = A extends 'number'
  ? z.ZodNumber
  : A extends 'string'
    ? z.ZodString
    : A extends 'boolean'
      ? z.ZodBoolean
      : A extends 'number?'
        ? z.ZodNullable<z.ZodNumber>
        : A extends 'string?'
          ? z.ZodNullable<z.ZodString>
          : z.ZodNullable<z.ZodBoolean>;

export function answerRow<T extends Record<string, AnswerType>>(fields: T): z.ZodObject<{ [K in keyof T]: ZodOf<T[K]> }> {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, t] of Object.entries(fields)) {
    const nullable = t.endsWith('?');
    const s = base[t.replace('?', '') as keyof typeof base]();
    shape[k] = nullable ? s.nullable() : s;
  }
  return z.object(shape) as unknown as z.ZodObject<{ [K in keyof T]: ZodOf<T[K]> }>;
}

/** What a named schema says about itself in the API document: a description, and `x-` extensions. */
export interface ComponentMeta {
  description?: string;
  [extension: `x-${string}`]: unknown;
}

const components = new Map<string, z.ZodType>();

/**
 * Names a schema in the API document: `components.schemas.<id>`, to which every operation answering it
 * refers (`$ref`) instead of repeating it, so a generated client has one type for it (the rows several
 * operations answer, the error answer, the recursive menu tree). Metadata only: what the schema accepts
 * and how answers are serialised stay the same. An id names one schema: zod's registry would silently
 * keep the last of two, so a second schema under a taken id is refused.
 */
export function component<T extends z.ZodType>(schema: T, id: string, meta: ComponentMeta = {}): T {
  const taken = components.get(id);
  if (taken && taken !== schema) throw new Error(`Two schemas named ${id} in the API document`);
  components.set(id, schema);
  z.globalRegistry.add(schema, { ...meta, id });
  return schema;
}
