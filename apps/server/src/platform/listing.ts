import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { MessageCode } from '@dau/domain';
import { dateTime, pageAnswer, queryBigId, queryInt32, text } from '@dau/contract';
import { admins, roles } from './schema.js';
import { subtreeCondition } from './ownership.js';
import { authOf, type AuthContext } from './access.js';
import type { Db, Executor } from './db.js';
import { badRequest } from './errors.js';
import { LIST_MAX_ROWS, pageOffset, pageQuery } from './paging.js';
import { listStatements } from './list-statements.js';

import type { Scope } from './ownership.js';
export type { Scope };

export async function scopeOf(ex: Executor, auth: AuthContext): Promise<Scope> {
  if (auth.isSuper) return { all: true };
  // Staff roles (customer service, operations) work for their superior's branch: the whole book when the
  // superior is the super admin. Agent roles own their subtree. The served branch always lies within the
  // superior's subtree, so no one can widen their scope beyond whoever placed them.
  const [own] = await ex.select({ serves: roles.servesSuperiorBranch }).from(roles).where(eq(roles.id, auth.admin.roleId));
  const superiorId = auth.admin.superiorId;
  if (own?.serves && superiorId) {
    const [sup] = await ex
      .select({ id: admins.id, path: admins.path, isSuper: roles.isSuper })
      .from(admins)
      .innerJoin(roles, eq(roles.id, admins.roleId))
      .where(eq(admins.id, superiorId));
    if (sup?.isSuper) return { all: true };
    if (sup) {
      const rows = await ex.select({ id: admins.id }).from(admins).where(sql`${admins.id} = ${sup.id} or ${admins.path} like ${`${sup.path}${sup.id}/%`}`);
      return { all: false, agentIds: rows.map((r) => r.id) };
    }
  }
  const rows = await ex.select({ id: admins.id }).from(admins).where(subtreeCondition(auth));
  return { all: false, agentIds: rows.map((r) => r.id) };
}

/** The scope a list applies for this admin. */
export function scopeForList(ex: Executor, auth: AuthContext, _spec?: Pick<ListSpec, 'scopeMode'>): Promise<Scope> {
  return scopeOf(ex, auth);
}

/** The condition on a table's agent column; an empty subtree sees nothing. */
export function scopeCondition(scope: Scope, agentColumn: PgColumn): SQL | undefined {
  if (scope.all) return undefined;
  if (!scope.agentIds.length) return sql`false`;
  return inArray(agentColumn, scope.agentIds);
}

export interface ExportColumn {
  key: string;
  /** Label key in the console's `field` namespace (export headers use the English text of the domain when any). */
  enum?: string;
  money?: boolean;
  /**
   * A bill's remark (issue 23): written from the row's `remark_kind` and `remark_params` in the asker's
   * language (domain billRemarkText), with the row's free text after it; a row without a kind as its text.
   */
  remark?: boolean;
  /**
   * An integer amount in units of 10^-decimals written as a decimal, exactly (USDT: 6, `50600169` →
   * "50.600169"); `money` is TSh cents (2).
   */
  decimals?: number;
  /** A value the owning module writes as text in the asker's language (a code or a state read with its row). */
  text?: (value: unknown, row: Readonly<Record<string, unknown>>, locale: string) => string | null;
}

/**
 * One list screen: filters, scope, query and export columns, declared once and used by the list route,
 * the count and the background export job (which re-runs it with the asking admin's scope).
 */
export interface ListSpec<Q extends z.ZodObject = z.ZodObject> {
  name: string;
  /** Permission page; exports need `page:export`. */
  page: string;
  path: string;
  filters: Q;
  /** Refuse a query that lacks what the screen requires (e.g. "Please select the user to query"). */
  require?: (q: z.infer<Q>) => MessageCode | null;
  /** The rows: a select with its joins and every condition (filters and scope), without order or limit. */
  where: (q: z.infer<Q>, scope: Scope) => SQL | undefined;
  select: (ex: Executor) => any;
  /** Unique, monotonic key for paging exports (keyset) and for a stable order. */
  idColumn: PgColumn;
  sortable: Record<string, PgColumn | SQL>;
  defaultSort: string;
  toRow: (r: any) => Record<string, unknown>;
  columns: readonly ExportColumn[];
  /** The bare table to count from when the display joins are not needed by the conditions (much cheaper). */
  countFrom?: (ex: Executor) => any;
  /** Kept for declarations: every list applies the admin's data scope (scopeOf). */
  scopeMode?: 'own' | 'serving';
  /** One row of the answer as `toRow` builds it: the list answers with it (undeclared keys never leave). */
  row?: z.ZodObject;
  /** The route's OpenAPI summary (default: "List <name>, filtered, sorted and paged"). */
  summary?: string;
}

export const defineList = <Q extends z.ZodObject>(spec: ListSpec<Q>) => spec;

function orderOf(spec: ListSpec, sort: string | undefined) {
  const wanted = sort ?? spec.defaultSort;
  const key = wanted.replace(/^-/, '');
  const col = spec.sortable[key];
  if (!col) throw badRequest('PARAM_INVALID', [{ field: 'sort', message: `cannot sort by ${key}` }]);
  const dir = wanted.startsWith('-') ? desc : asc;
  return col === spec.idColumn ? [dir(col as PgColumn)] : [dir(col as PgColumn), dir(spec.idColumn)];
}

/** The rows a count counts: the bare table when declared (cheaper), at most LIST_MAX_ROWS + 1 of them. */
export function countInner(ex: Executor, spec: ListSpec, where: SQL | undefined) {
  return (spec.countFrom ?? spec.select)(ex).where(where).limit(LIST_MAX_ROWS + 1);
}

/** A count as the list answers it: beyond LIST_MAX_ROWS, that and `exact: false`. */
const capped = (total: number) => (total > LIST_MAX_ROWS ? { total: LIST_MAX_ROWS, exact: false } : { total, exact: true });


/** Rows of a list for an export, in id order, batch by batch (keyset: memory stays flat). */
export async function* iterateList(ex: Executor, spec: ListSpec, q: Record<string, unknown>, scope: Scope, batch = 2000) {
  const base = spec.where(q as never, scope);
  let last: number | null = null;
  for (;;) {
    const where = last === null ? base : and(base, lt(spec.idColumn, last));
    const rows = (await spec.select(ex).where(where).orderBy(desc(spec.idColumn)).limit(batch)) as Record<string, unknown>[];
    if (!rows.length) return;
    const mapped = rows.map(spec.toRow);
    yield mapped;
    last = Number(mapped[mapped.length - 1].id);
    if (rows.length < batch) return;
  }
}

/** Parses and checks a list query (shared by the list route and the export request). */
export function parseListQuery(spec: ListSpec, raw: unknown) {
  const parsed = spec.filters.safeParse(raw);
  if (!parsed.success) {
    throw badRequest('PARAM_INVALID', parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })));
  }
  const missing = spec.require?.(parsed.data as never);
  if (missing) throw badRequest(missing);
  return parsed.data as Record<string, unknown>;
}

const registry = new Map<string, ListSpec>();
export const listSpecs = () => registry;

/** GET {path}: the list, scoped to the caller. Exports go through the async operations module. */
export function registerList(app: FastifyInstance, db: Db, spec: ListSpec) {
  registry.set(spec.name, spec);
  const statements = listStatements(db, spec.name, (where, sort) => ({
    rows: (limit, offset) => spec.select(db).where(where).orderBy(...orderOf(spec, sort)).limit(limit).offset(offset),
    count: () => db.select({ n: sql<string>`count(*)::bigint` }).from(countInner(db, spec, where).as('x')),
  }));
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    spec.path,
    {
      config: { access: { page: spec.page } },
      schema: {
        tags: [spec.page],
        summary: spec.summary ?? `List ${spec.name.replace(/_/g, ' ')}, filtered, sorted and paged`,
        querystring: pageQuery.extend(spec.filters.shape),
        ...(spec.row ? { response: { 200: pageAnswer(spec.row) } } : {}),
      },
    },
    async (req: FastifyRequest) => {
      const auth = authOf(req);
      const all = req.query as Record<string, unknown> & { page: number; page_size: number; sort?: string };
      const q = parseListQuery(spec, all);
      orderOf(spec, all.sort); // an unknown sort is refused before any query
      const scope = await scopeForList(db, auth, spec);
      const where = spec.where(q as never, scope);
      const offset = pageOffset(all);
      const counted = async () => capped(await statements.count(where, all.sort));
      let rows: unknown[];
      let count: { total: number; exact: boolean };
      if (all.page === 1) {
        // A short first page is the whole list: no count.
        rows = await statements.rows(where, all.sort, all.page_size, offset);
        count = rows.length < all.page_size ? { total: rows.length, exact: true } : await counted();
      } else {
        [rows, count] = await Promise.all([statements.rows(where, all.sort, all.page_size, offset), counted()]);
      }
      return { items: rows.map(spec.toRow), total: count.total, total_exact: count.exact, page: all.page, page_size: all.page_size };
    },
  );
}

/** A list's period filter on a time column: from `from` (inclusive) to `to` (exclusive); either end may be left open. */
export const withinDates = (col: PgColumn, from: string | undefined, to: string | undefined): SQL | undefined =>
  and(from ? gte(col, new Date(from)) : undefined, to ? lt(col, new Date(to)) : undefined);

/** Filters of the lists, built from the contract's blocks (no NUL, an integer column's bounds). */
export const optionalInt = queryInt32().optional();
/** A filter on a `bigserial` id (orders, bills). */
export const optionalBigId = queryBigId().optional();
export const optionalText = text(64).optional();
export const isoDate = dateTime().optional();

/** A text searched with LIKE/ILIKE as typed: its `%`, `_` and `\\` match themselves. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);
