import { Readable } from 'node:stream';
import { likeEscape } from './listing.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, asc, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { getTableColumns } from 'drizzle-orm';
import type { Duty, FieldDef, ResourceDef } from '@dau/contract';
import {
  bigIdParams, bigintMoney, csvAnswer, dateTime, decimal, idParams as serialIdParams, imagesMax, int16, int32, isEditable, isImageRef, okAnswer, pageAnswer, queryInt32, rawText,
  resourceRow, text, INT32_MAX,
} from '@dau/contract';
import { isEnumValue, LOG_TYPE } from '@dau/domain';
import type { Db, Executor } from './db.js';
import { badRequest, notFound } from './errors.js';
import { writeAudit } from './audit.js';
import { localeOf } from './http.js';
import { authOf, type Access } from './access.js';
import { cellReader, csvHeader, csvLine, labelsFor, labelsParam, timeZoneOf } from './csv.js';
import { pageQuery, pageOffset } from './paging.js';

/**
 * Server half of the resource layer: from a contract ResourceDef and a drizzle table, the validated,
 * permission-checked and audited list / get / create / update / delete / export routes.
 */
export interface ResourceBinding {
  def: ResourceDef;
  table: PgTable;
  /** Field key → column, when the column is not the camelCase of the key. */
  columns?: Record<string, PgColumn>;
  /** Extra checks and transformations of written values (throw AppError to refuse). */
  prepare?: (values: Record<string, unknown>, ctx: { mode: 'create' | 'edit'; req: FastifyRequest; ex: Executor; before?: Record<string, unknown> }) =>
    | void
    | Promise<void>;
  /** Called after a committed write (cache invalidation); awaited, so the answer comes once it is applied (its failure is logged, the write stands). */
  afterWrite?: () => void | Promise<void>;
  /** Log type of the audit rows (default ordinary). */
  auditType?: number;
  /** Id of the one row of a singleton resource. */
  singletonId?: number;
  /** The data scope of the signed-in admin, applied to list, get and export. */
  scope?: (req: FastifyRequest) => SQL | undefined;
  /** Refuse a delete (e.g. a language still the default). */
  beforeDelete?: (row: Record<string, unknown>, ex: Executor) => Promise<void> | void;
}

const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A binding's after-write hook, awaited; its failure is logged: the write has committed and stands. */
async function afterWrite(b: ResourceBinding, req: FastifyRequest): Promise<void> {
  try {
    await b.afterWrite?.();
  } catch (err) {
    req.log.error({ err }, `${b.def.name}: applying a committed write failed`);
  }
}

function columnOf(b: ResourceBinding, key: string): PgColumn {
  const cols = getTableColumns(b.table) as Record<string, PgColumn>;
  const c = b.columns?.[key] ?? cols[camel(key)];
  if (!c) throw new Error(`Resource ${b.def.name}: no column for field ${key}`);
  return c;
}

const isNumericColumn = (c: PgColumn) => c.columnType === 'PgNumeric';

/** The integer range a column can hold (null: not an integer column). */
function integerRange(c: PgColumn): [number, number] | null {
  switch (c.columnType) {
    case 'PgSmallInt':
    case 'PgSmallSerial':
      return [-32_768, 32_767];
    case 'PgInteger':
    case 'PgSerial':
      return [-2_147_483_648, INT32_MAX];
    case 'PgBigInt53':
    case 'PgBigSerial53':
      return [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
    default:
      return null;
  }
}

/** The largest absolute value a numeric(p, s) column holds. */
function numericLimit(c: PgColumn): number {
  const { precision, scale } = c as unknown as { precision?: number; scale?: number };
  return precision ? 10 ** (precision - (scale ?? 0)) - 10 ** -(scale ?? 0) : 1e15;
}

/** The zod type of a field's written value: the declaration's bounds within the column's real ones. */
function valueSchema(f: FieldDef, col: PgColumn): z.ZodTypeAny {
  const range = integerRange(col);
  switch (f.type) {
    case 'number':
    case 'odds': {
      if (range) return (col.columnType === 'PgSmallInt' ? int16 : range[1] === INT32_MAX ? int32 : bigintMoney)(f.min ?? range[0], f.max ?? range[1]);
      const limit = isNumericColumn(col) ? numericLimit(col) : 1e15;
      return decimal(Math.max(f.min ?? -limit, -limit), Math.min(f.max ?? limit, limit));
    }
    case 'money':
      return bigintMoney(Math.max(f.min ?? -Infinity, range?.[0] ?? -Infinity), Math.min(f.max ?? Infinity, range?.[1] ?? Infinity));
    case 'enum':
      return int32()
        .refine((v) => isEnumValue(f.enum as never, v), { message: `not a value of ${f.enum}` });
    case 'switch':
      return z.boolean();
    case 'datetime':
      return dateTime();
    case 'json':
      return f.required ? rawText(f.maxLength ?? 10_000).min(1) : rawText(f.maxLength ?? 10_000);
    case 'images':
      // Each address is checked against the stored list by checkPictures (uploads or https only).
      return f.required ? z.array(text(500).min(1)).min(1).max(imagesMax(f)) : z.array(text(500).min(1)).max(imagesMax(f));
    case 'image':
      return f.required ? text(f.maxLength ?? 500).min(1) : text(f.maxLength ?? 500);
    default:
      return f.required ? text(f.maxLength ?? 10_000).min(1) : text(f.maxLength ?? 10_000);
  }
}

function bodySchema(b: ResourceBinding, mode: 'create' | 'edit') {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const f of b.def.fields) {
    if (!isEditable(f, mode)) continue;
    const v = valueSchema(f, columnOf(b, f.key));
    shape[f.key] = mode === 'create' && f.required ? v : v.optional();
  }
  return z.strictObject(shape);
}

function querySchema(b: ResourceBinding) {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const f of b.def.fields) {
    if (!f.search) continue;
    if (f.search === 'range') {
      shape[`${f.key}_from`] = dateTime().optional();
      shape[`${f.key}_to`] = dateTime().optional();
    } else if (f.type === 'switch') {
      shape[f.key] = z.enum(['true', 'false']).optional();
    } else if (f.type === 'enum' || f.type === 'number' || f.type === 'money') {
      const range = integerRange(columnOf(b, f.key));
      shape[f.key] = (range && range[1] > INT32_MAX
        ? z.coerce.number().int().min(range[0]).max(range[1])
        : queryInt32(range?.[0], range?.[1])
      ).optional();
    } else {
      shape[f.key] = text(200).optional();
    }
  }
  return pageQuery.extend(shape);
}

/** On edit, an empty write-only field means "keep the stored secret": it is not written. */
function keepEmptySecrets(def: ResourceDef, body: Record<string, unknown>): Record<string, unknown> {
  for (const f of def.fields) if (f.writeOnly && (body[f.key] === '' || body[f.key] === null)) delete body[f.key];
  return body;
}

/**
 * Picture fields take our uploads (`/uploads/<sha256>.<ext>`) or https URLs, nothing else (no javascript:,
 * data: or http: addresses reaching an <img>). A value already stored is kept as it is (rows written before
 * pictures were checked, e.g. seeded icon names), so an edit that does not touch the picture still saves.
 */
function checkPictures(def: ResourceDef, body: Record<string, unknown>, before?: Record<string, unknown>) {
  const bad: { field: string; message: string }[] = [];
  for (const f of def.fields) {
    const v = body[f.key];
    if (f.type === 'image' && typeof v === 'string' && v !== '' && v !== before?.[f.key] && !isImageRef(v)) {
      bad.push({ field: f.key, message: 'not an uploaded picture or an https address' });
    }
    if (f.type === 'images' && Array.isArray(v)) {
      const kept = Array.isArray(before?.[f.key]) ? (before[f.key] as unknown[]) : [];
      v.forEach((item, i) => {
        if (typeof item === 'string' && !kept.includes(item) && !isImageRef(item)) bad.push({ field: `${f.key}.${i}`, message: 'not an uploaded picture or an https address' });
      });
    }
  }
  if (bad.length) throw badRequest('PARAM_INVALID', bad);
}


export function toApiRow(b: ResourceBinding, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of b.def.fields) {
    // A write-only field (a secret) never leaves the server: not in answers, exports or audit rows.
    if (f.writeOnly) continue;
    const col = columnOf(b, f.key);
    let v = row[camel(f.key)] ?? row[col.name];
    if (v instanceof Date) v = v.toISOString();
    else if (isNumericColumn(col) && typeof v === 'string') v = Number(v);
    else if (f.type === 'json' && v !== null && typeof v === 'object') v = JSON.stringify(v);
    // A text[] column declared as a text field (a list of IPs) answers its items comma-separated.
    else if (Array.isArray(v) && f.type !== 'images') v = v.join(', ');
    out[f.key] = v ?? null;
  }
  const idCol = (getTableColumns(b.table) as Record<string, PgColumn>).id;
  if (idCol && !('id' in out)) out.id = row.id;
  return out;
}

function toColumnValues(b: ResourceBinding, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    const f = b.def.fields.find((x) => x.key === k)!;
    const col = columnOf(b, k);
    let val: unknown = v;
    if (f.type === 'datetime' && typeof v === 'string') val = new Date(v);
    if (isNumericColumn(col) && typeof v === 'number') val = String(v);
    out[camel(k)] = val;
  }
  return out;
}

function whereOf(b: ResourceBinding, q: Record<string, unknown>): SQL | undefined {
  const parts: SQL[] = [];
  for (const f of b.def.fields) {
    if (!f.search) continue;
    const col = columnOf(b, f.key);
    if (f.search === 'range') {
      const from = q[`${f.key}_from`] as string | undefined;
      const to = q[`${f.key}_to`] as string | undefined;
      if (from) parts.push(gte(col, new Date(from)));
      if (to) parts.push(lt(col, new Date(to)));
      continue;
    }
    const v = q[f.key];
    if (v === undefined || v === '') continue;
    if (f.type === 'switch') parts.push(eq(col, v === 'true'));
    else if (f.search === 'like') parts.push(sql`${col} ILIKE ${`%${likeEscape(String(v))}%`}`);
    else parts.push(eq(col, v as never));
  }
  return parts.length ? and(...parts) : undefined;
}

function orderOf(b: ResourceBinding, sort: string | undefined) {
  const wanted = sort ?? b.def.defaultSort ?? '-id';
  const key = wanted.replace(/^-/, '');
  const f = b.def.fields.find((x) => x.key === key && (x.sortable || x.key === 'id'));
  const fallback = (getTableColumns(b.table) as Record<string, PgColumn>).id;
  const col = f ? columnOf(b, key) : (b.def.defaultSort ? columnOf(b, b.def.defaultSort.replace(/^-/, '')) : fallback);
  if (sort && !f) throw badRequest('PARAM_INVALID', [{ field: 'sort', message: `cannot sort by ${key}` }]);
  const dir = (f ? wanted : (b.def.defaultSort ?? '-id')).startsWith('-') ? desc : asc;
  return fallback && col !== fallback ? [dir(col), dir(fallback)] : [dir(col)];
}

/** The access of a resource's write route: its button, and the duty its declaration states (platform/duties.ts). */
function writeAccess(def: ResourceDef, button: 'create' | 'edit' | 'delete'): Access {
  const d = def.duty;
  if (!d || (d.writes && !d.writes.includes(button))) return { page: def.page, button };
  const two = button === 'delete' ? !!d.twoDelete : !!d.two?.length && (button === 'edit' || !!d.twoCreate);
  const duty: Duty = two ? { ring: 'two', setting: def.name, ...(button === 'delete' ? {} : { fields: d.two }) } : { ring: 'book', setting: def.name };
  return { page: def.page, button, duty };
}

export function registerResource(app: FastifyInstance, db: Db, b: ResourceBinding) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { def } = b;
  const base = `/api/v1${def.api}`;
  const tags = [def.page];
  const auditType = b.auditType ?? LOG_TYPE.ordinary;
  const idCol = () => (getTableColumns(b.table) as Record<string, PgColumn>).id;
  const loadOne = async (ex: Executor, id: number, lock = false, req?: FastifyRequest) => {
    const q = ex.select().from(b.table).where(and(eq(idCol(), id), req ? b.scope?.(req) : undefined)).limit(1);
    const rows = (lock ? await q.for('update') : await q) as Record<string, unknown>[];
    return rows[0];
  };
  const can = (a: string) => (def.actions as readonly string[]).includes(a);
  // Every route says what it does and what it answers (the row of the declaration, nothing more).
  const what = def.name.replace(/_/g, ' ');
  const row = resourceRow(def);

  if (def.kind === 'singleton') {
    const sid = b.singletonId ?? 1;
    r.get(base, { config: { access: { page: def.page } }, schema: { tags, summary: `Read the ${what} settings`, response: { 200: row } } }, async () => {
      const row = await loadOne(db, sid);
      if (!row) throw notFound();
      return toApiRow(b, row);
    });
    if (can('edit')) {
      const schema = { tags, summary: `Change the ${what} settings`, body: bodySchema(b, 'edit'), response: { 200: row } };
      r.put(base, { config: { access: writeAccess(def, 'edit') }, schema }, async (req) => {
        const body = keepEmptySecrets(def, { ...(req.body as Record<string, unknown>) });
        const after = await db.transaction(async (tx) => {
          const before = await loadOne(tx, sid, true);
          if (!before) throw notFound();
          checkPictures(def, body, toApiRow(b, before));
          await b.prepare?.(body, { mode: 'edit', req, ex: tx, before });
          const rows = (await tx
            .update(b.table)
            .set({ ...toColumnValues(b, body), ...('updatedAt' in getTableColumns(b.table) ? { updatedAt: new Date() } : {}) })
            .where(eq(idCol(), sid))
            .returning()) as Record<string, unknown>[];
          const a = toApiRow(b, rows[0]);
          await writeAudit(tx, req, { type: auditType, content: `Edited ${def.name}`, before: toApiRow(b, before), after: a });
          return a;
        });
        await afterWrite(b, req);
        return after;
      });
    }
    return;
  }

  const qSchema = querySchema(b);
  const listSchema = { tags, summary: `List ${what} rows, filtered, sorted and paged`, querystring: qSchema, response: { 200: pageAnswer(row) } };
  r.get(base, { config: { access: { page: def.page } }, schema: listSchema }, async (req) => {
    const q = req.query as Record<string, unknown> & { page: number; page_size: number; sort?: string };
    const where = and(whereOf(b, q), b.scope?.(req));
    const page = () => db.select().from(b.table).where(where).orderBy(...orderOf(b, q.sort)).limit(q.page_size).offset(pageOffset(q));
    const counted = async () => Number((await db.select({ n: count() }).from(b.table).where(where))[0]?.n ?? 0);
    let rows: Record<string, unknown>[];
    let total: number;
    if (q.page === 1) {
      // A short first page is the whole list: no count.
      rows = (await page()) as Record<string, unknown>[];
      total = rows.length < q.page_size ? rows.length : await counted();
    } else {
      [rows, total] = (await Promise.all([page(), counted()])) as [Record<string, unknown>[], number];
    }
    return { items: rows.map((x) => toApiRow(b, x)), total, page: q.page, page_size: q.page_size };
  });

  if (can('export')) {
    const schema = {
      tags, summary: `Download the filtered ${what} rows as CSV`, querystring: qSchema.omit({ page: true, page_size: true }).extend({ labels: labelsParam }),
      produces: ['text/csv'], response: { 200: csvAnswer },
    };
    r.get(`${base}/export`, { config: { access: { page: def.page, button: 'export' } }, schema }, async (req, reply) => {
      const { labels, ...q } = req.query as Record<string, unknown> & { sort?: string; labels?: string };
      const where = and(whereOf(b, q), b.scope?.(req));
      const order = orderOf(b, q.sort);
      const fields = def.fields.filter((f) => !f.writeOnly);
      // Headers in the caller's language, values as the background exports write them (DESIGN "Time").
      const keys = fields.map((f) => f.key);
      const zone = await timeZoneOf(db, authOf(req).admin.id);
      const read = fields.map((f) => cellReader({ key: f.key, enum: f.type === 'enum' ? f.enum : undefined, money: f.type === 'money' }, localeOf(req), zone));
      const BATCH = 1000;
      const MAX_ROWS = 1_000_000;
      const batch = (offset: number) =>
        db.select().from(b.table).where(where).orderBy(...order).limit(BATCH).offset(offset) as Promise<Record<string, unknown>[]>;
      // The first batch is read before the answer starts: a query the database refuses is still a clean 400.
      const first = await batch(0);
      async function* lines() {
        yield csvHeader(keys, labelsFor(labels, keys));
        for (let offset = 0; offset < MAX_ROWS; offset += BATCH) {
          const rows = offset === 0 ? first : await batch(offset);
          let chunk = '';
          for (const row of rows) {
            const api = toApiRow(b, row);
            chunk += csvLine(keys.map((k, i) => read[i]!(api[k])));
          }
          if (chunk) yield chunk;
          if (rows.length < BATCH) return;
        }
      }
      await writeAudit(db, req, { type: auditType, content: `Exported ${def.name}`, after: q });
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${def.name}-${new Date().toISOString().slice(0, 10)}.csv"`);
      // A stream is piped as it is: the response schema documents the CSV, it does not serialise it.
      return reply.send(Readable.from(lines()) as never);
    });
  }

  const idParams = integerRange(idCol())?.[1] === INT32_MAX ? serialIdParams : bigIdParams;
  r.get(`${base}/:id`, { config: { access: { page: def.page } }, schema: { tags, summary: `Read one ${what} row`, params: idParams, response: { 200: row } } }, async (req) => {
    const row = await loadOne(db, req.params.id, false, req);
    if (!row) throw notFound();
    return toApiRow(b, row);
  });

  if (can('create')) {
    const schema = { tags, summary: `Create a ${what} row`, body: bodySchema(b, 'create'), response: { 201: row } };
    r.post(base, { config: { access: writeAccess(def, 'create') }, schema }, async (req, reply) => {
      const body = { ...(req.body as Record<string, unknown>) };
      for (const f of def.fields) if (isEditable(f, 'create') && body[f.key] === undefined && f.default !== undefined) body[f.key] = f.default;
      checkPictures(def, body);
      const created = await db.transaction(async (tx) => {
        await b.prepare?.(body, { mode: 'create', req, ex: tx });
        const rows = (await tx.insert(b.table).values(toColumnValues(b, body) as never).returning()) as Record<string, unknown>[];
        const a = toApiRow(b, rows[0]);
        await writeAudit(tx, req, { type: auditType, content: `Created ${def.name} #${String(a.id)}`, after: a });
        return a;
      });
      await afterWrite(b, req);
      return reply.status(201).send(created);
    });
  }

  if (can('edit')) {
    const schema = { tags, summary: `Change a ${what} row`, params: idParams, body: bodySchema(b, 'edit'), response: { 200: row } };
    r.put(`${base}/:id`, { config: { access: writeAccess(def, 'edit') }, schema }, async (req) => {
      const body = keepEmptySecrets(def, { ...(req.body as Record<string, unknown>) });
      const updated = await db.transaction(async (tx) => {
        const before = await loadOne(tx, req.params.id, true);
        if (!before) throw notFound();
        checkPictures(def, body, toApiRow(b, before));
        await b.prepare?.(body, { mode: 'edit', req, ex: tx, before: toApiRow(b, before) });
        const set = toColumnValues(b, body);
        if ('updatedAt' in getTableColumns(b.table)) set.updatedAt = new Date();
        const rows = (await tx.update(b.table).set(set).where(eq(idCol(), req.params.id)).returning()) as Record<string, unknown>[];
        const a = toApiRow(b, rows[0]);
        await writeAudit(tx, req, { type: auditType, content: `Edited ${def.name} #${req.params.id}`, before: toApiRow(b, before), after: a });
        return a;
      });
      await afterWrite(b, req);
      return updated;
    });
  }

  if (can('delete')) {
    const schema = { tags, summary: `Delete a ${what} row`, params: idParams, response: { 200: okAnswer } };
    r.delete(`${base}/:id`, { config: { access: writeAccess(def, 'delete') }, schema }, async (req) => {
      await db.transaction(async (tx) => {
        const before = await loadOne(tx, req.params.id, true);
        if (!before) throw notFound();
        await b.beforeDelete?.(before, tx);
        await tx.delete(b.table).where(eq(idCol(), req.params.id));
        await writeAudit(tx, req, { type: auditType, content: `Deleted ${def.name} #${req.params.id}`, before: toApiRow(b, before) });
      });
      await afterWrite(b, req);
      return { ok: true };
    });
  }
}
