import { getTableColumns, getTableName } from 'drizzle-orm';
import { QueryBuilder, type PgTable } from 'drizzle-orm/pg-core';

/**
 * A table as other modules may see it: read-only.
 *
 * A module owns its tables; another module that lists or joins them (a bettor's phone beside a withdrawal,
 * a match's name beside an order) reads them through the owner's `index.ts`, which exports this instead of
 * the table. It is a subquery over every column under the table's own name
 * (`(select … from bettors) as "bettors"`), so the queries read as before and PostgreSQL plans them as if
 * they named the table (a plain subquery in FROM is pulled up: same indexes, same plan); but it is not a
 * table, so `insert`, `update` and `delete` on it do not type-check. A write goes through the owner's
 * service, where its rules live. One difference from the table: PostgreSQL does not know the subquery's
 * key, so a `group by` its id must also name the other columns it selects.
 */
export function readModel<T extends PgTable>(table: T) {
  // `from` cannot see that a generic table is not an empty data-modifying subquery; a table never is.
  return new QueryBuilder().select(getTableColumns(table)).from(table as PgTable).as(getTableName(table));
}
