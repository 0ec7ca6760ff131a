import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './db.js';

/** A query drizzle can prepare (a select with its where, order and limit). */
interface Preparable {
  toSQL(): { sql: string };
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<unknown> };
}

type Prepared = ReturnType<Preparable['prepare']>;

/** How one shape of a list's query runs: prepared, or (never seen so far) built as before. */
type Shape = { rows: Prepared; count: Prepared } | 'unprepared';

const SHAPES_MAX = 200;

/**
 * The statements of a list, prepared once per shape. Building a select with drizzle (its columns, joins,
 * conditions, order) and sending its text costs more than running it; a list asks the same few shapes
 * again and again with other values. The shape is the text of the request's conditions: the conditions
 * are still built per request (they hold the filter values and the caller's scope), but only their text
 * and values are read from them; the full statement of that shape is built once, with placeholders for
 * the values, and prepared (a named statement on PostgreSQL: parsed and planned once per connection).
 * A shape whose prepared text would differ from the one drizzle builds directly is not prepared.
 */
export function listStatements(
  db: Db,
  name: string,
  build: (where: SQL | undefined, sort: string | undefined) => { rows: (limit: unknown, offset: unknown) => Preparable; count: () => Preparable },
) {
  const dialect = (db as unknown as { dialect: PgDialect }).dialect;
  const shapes = new Map<string, Shape>();

  const prepare = (q: Preparable, kind: string) => {
    const text = q.toSQL().sql;
    return q.prepare(`dau_${kind}_${crypto.createHash('sha256').update(text).digest('hex').slice(0, 24)}`);
  };

  /** The conditions with their values as placeholders w1..wn. */
  const template = (text: string) => {
    const chunks: SQL[] = [];
    let last = 0;
    for (const m of text.matchAll(/\$(\d+)/g)) {
      chunks.push(sql.raw(text.slice(last, m.index)), sql`${sql.placeholder(`w${m[1]}`)}`);
      last = m.index! + m[0].length;
    }
    chunks.push(sql.raw(text.slice(last)));
    return sql.join(chunks);
  };

  const shapeOf = (where: SQL | undefined, sort: string | undefined) => {
    const q = where ? dialect.sqlToQuery(where) : { sql: '', params: [] as unknown[] };
    const key = `${sort ?? ''}\n${q.sql}`;
    let shape = shapes.get(key);
    if (!shape) {
      const b = build(where ? template(q.sql) : undefined, sort);
      const rows = b.rows(sql.placeholder('limit'), sql.placeholder('offset'));
      // The same statement as drizzle builds it directly, or no preparing for this shape.
      const direct = build(where, sort).rows(1, 1).toSQL().sql; // (an offset of 0 is left out)
      shape = rows.toSQL().sql === direct ? { rows: prepare(rows, 'rows'), count: prepare(b.count(), 'count') } : 'unprepared';
      if (shapes.size >= SHAPES_MAX) shapes.delete(shapes.keys().next().value!);
      shapes.set(key, shape);
    }
    return { shape, values: Object.fromEntries(q.params.map((v, i) => [`w${i + 1}`, v])) };
  };

  return {
    /** The rows of one page. */
    async rows(where: SQL | undefined, sort: string | undefined, limit: number, offset: number): Promise<unknown[]> {
      const { shape, values } = shapeOf(where, sort);
      if (shape === 'unprepared') return (await (build(where, sort).rows(limit, offset) as unknown as Promise<unknown[]>)) ?? [];
      return (await shape.rows.execute({ ...values, limit, offset })) as unknown[];
    },
    /** The count's single row (`n`). */
    async count(where: SQL | undefined, sort: string | undefined): Promise<number> {
      const { shape, values } = shapeOf(where, sort);
      const rows = (shape === 'unprepared' ? await (build(where, sort).count() as unknown as Promise<unknown>) : await shape.count.execute(values)) as { n: string | number }[];
      return Number(rows[0]?.n ?? 0);
    },
    name,
  };
}
