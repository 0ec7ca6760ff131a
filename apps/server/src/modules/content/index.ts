/**
 * Content (issue 16): banner groups and pictures (rotation_type, rotation), article types and articles
 * (image_text_type, image_text) through the resource layer, and the services the bettor-facing site
 * calls: `banners` (shown, in schedule, larger sorting first), `bannerClicked`, `articles`.
 */
import type { FastifyInstance } from 'fastify';
import { and, asc, count, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { imageTextResource, imageTextTypeResource, rotationResource, rotationTypeResource, isImageRef } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Db, Executor } from '../../platform/db.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource.js';
import { assertListedLanguage } from '../system/index.js';
import { imageTexts, imageTextTypes, rotations, rotationTypes } from './schema.js';
import { sanitizeArticle } from './sanitize.js';

export { sanitizeArticle } from './sanitize.js';

const invalid = (field: string, message: string) => badRequest('PARAM_INVALID', [{ field, message }]);

const CODE = /^[a-z0-9_-]{1,32}$/;

/** A banner's jump address: empty, an in-app route (`/path`, never `//host`) or an https address. */
export function isJumpUrl(v: string): boolean {
  if (v === '') return true;
  if (/^\/(?!\/)[^\s"'<>\\]*$/.test(v)) return true;
  return isImageRef(v) && v.startsWith('https://');
}

async function checkCode(ex: Executor, table: typeof rotationTypes | typeof imageTextTypes, code: unknown) {
  if (code === undefined) return;
  if (!CODE.test(String(code))) throw invalid('code', 'lower case letters, digits, _ and - (at most 32)');
  const [dup] = await ex.select({ id: table.id }).from(table).where(eq(table.code, String(code))).limit(1);
  if (dup) throw new AppError(409, 'CONTENT_CODE_EXISTS');
}

async function typeExists(ex: Executor, table: typeof rotationTypes | typeof imageTextTypes, id: unknown) {
  if (id === undefined) return;
  const [row] = await ex.select({ id: table.id }).from(table).where(eq(table.id, Number(id))).limit(1);
  if (!row) throw invalid('type_id', 'no such type');
}

/** A type list (banner groups, article types): a unique code on create; not deleted while rows of it remain. */
function typeResource(
  app: FastifyInstance, db: Db, def: typeof rotationTypeResource | typeof imageTextTypeResource,
  table: typeof rotationTypes | typeof imageTextTypes, rows: typeof rotations | typeof imageTexts,
) {
  registerResource(app, db, {
    def,
    table,
    prepare: async (v, { mode, ex }) => {
      if (mode === 'create') await checkCode(ex, table, v.code);
    },
    beforeDelete: async (row, ex) => {
      const [n] = await ex.select({ n: count() }).from(rows).where(eq(rows.typeId, Number(row.id)));
      if (Number(n?.n ?? 0) > 0) throw new AppError(409, 'CONTENT_TYPE_IN_USE');
    },
  });
}

export function contentRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  typeResource(app, db, rotationTypeResource, rotationTypes, rotations);

  registerResource(app, db, {
    def: rotationResource,
    table: rotations,
    prepare: async (v, { ex, before }) => {
      await typeExists(ex, rotationTypes, v.type_id);
      if (v.jump_url !== undefined && !isJumpUrl(String(v.jump_url))) throw invalid('jump_url', 'an in-app path (/...) or an https address');
      const start = v.start_at !== undefined ? v.start_at : before?.start_at;
      const end = v.end_at !== undefined ? v.end_at : before?.end_at;
      if (start && end && new Date(String(start)) >= new Date(String(end))) throw invalid('end_at', 'the end is not after the start');
    },
  });

  typeResource(app, db, imageTextTypeResource, imageTextTypes, imageTexts);

  registerResource(app, db, {
    def: imageTextResource,
    table: imageTexts,
    prepare: async (v, { ex }) => {
      await typeExists(ex, imageTextTypes, v.type_id);
      if (v.language !== undefined) await assertListedLanguage(ex, String(v.language));
      if (v.body !== undefined) {
        v.body = sanitizeArticle(String(v.body));
        if (v.body === '') throw invalid('body', 'nothing is left once cleaned');
      }
    },
  });
}

// ------------------------------------------------------------------------------ bettor-facing services

export interface Banner {
  id: number;
  picture: string;
  title: string;
  description: string;
  jump_url: string;
  jump_type: number;
}

/** The banners of a group as the bettor site shows them: shown, within their schedule, larger sorting first. */
export async function banners(db: Db, typeCode: string, now = new Date()): Promise<Banner[]> {
  const rows = await db
    .select({
      id: rotations.id, picture: rotations.picture, title: rotations.title, description: rotations.description,
      jumpUrl: rotations.jumpUrl, jumpType: rotations.jumpType,
    })
    .from(rotations)
    .innerJoin(rotationTypes, eq(rotationTypes.id, rotations.typeId))
    .where(
      and(
        eq(rotationTypes.code, typeCode),
        eq(rotations.shown, true),
        or(isNull(rotations.startAt), lte(rotations.startAt, now)),
        or(isNull(rotations.endAt), gt(rotations.endAt, now)),
      ),
    )
    .orderBy(desc(rotations.sort), desc(rotations.id));
  return rows.map((r) => ({ id: r.id, picture: r.picture, title: r.title, description: r.description, jump_url: r.jumpUrl, jump_type: r.jumpType }));
}

/** Counts a click on a banner (one statement, safe under concurrent clicks); false for an unknown banner. */
export async function bannerClicked(db: Db, id: number): Promise<boolean> {
  const rows = await db.update(rotations).set({ clicks: sql`${rotations.clicks} + 1` }).where(eq(rotations.id, id)).returning({ id: rotations.id });
  return rows.length > 0;
}

export interface Article {
  id: number;
  title: string;
  cover: string;
  body: string;
  language: string;
  updated_at: string;
}

/** The shown articles of a type in a language, larger sort first. */
export async function articles(db: Db, typeCode: string, language: string): Promise<Article[]> {
  const rows = await db
    .select({ id: imageTexts.id, title: imageTexts.title, cover: imageTexts.cover, body: imageTexts.body, language: imageTexts.language, updatedAt: imageTexts.updatedAt })
    .from(imageTexts)
    .innerJoin(imageTextTypes, eq(imageTextTypes.id, imageTexts.typeId))
    .where(and(eq(imageTextTypes.code, typeCode), eq(imageTexts.language, language), eq(imageTexts.shown, true)))
    .orderBy(desc(imageTexts.sort), asc(imageTexts.id));
  return rows.map((r) => ({ id: r.id, title: r.title, cover: r.cover, body: r.body, language: r.language, updated_at: r.updatedAt.toISOString() }));
}

/** A fresh install's banner groups and article types (names the operator may change). */
export async function seedContent(ex: Executor): Promise<void> {
  const groups = [
    { code: 'home_top', name: 'Home page, top', remarks: 'The carousel at the top of the home page' },
    { code: 'casino_lobby', name: 'Casino lobby', remarks: '' },
  ];
  for (const g of groups) await ex.insert(rotationTypes).values(g).onConflictDoNothing();
  const kinds = [
    { code: 'news', name: 'News', sort: 30 },
    { code: 'help', name: 'Help', sort: 20 },
    { code: 'terms', name: 'Terms and rules', sort: 10 },
  ];
  for (const k of kinds) await ex.insert(imageTextTypes).values(k).onConflictDoNothing();
}
