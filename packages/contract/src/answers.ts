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
