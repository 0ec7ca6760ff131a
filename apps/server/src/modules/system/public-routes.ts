import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { desc, eq, sql } from 'drizzle-orm';
import { PRIMARY_COLOR } from '@dau/domain';
import { languages, siteConfig } from './schema.js';
import type { AppContext } from '../../platform/context.js';
import { answerRow, siteInfo } from '@dau/contract';

const health = z.object({ status: z.string(), database: z.string(), time: z.string() });
const language = answerRow({
  id: 'number', code: 'string', title: 'string', default_language: 'number', show_status: 'number', icon: 'string?', country: 'string?',
  abbreviation: 'string?', phone_code: 'string?',
});

/** What the console needs before sign-in: website info (spec §7) and the language list. */
export function publicRoutes(app: FastifyInstance, { db, databaseKind }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/health', { config: { access: { public: true } }, schema: { tags: ['system'], summary: 'Health: the server and its database answer', response: { 200: health } } }, async () => {
    await db.execute(sql1);
    return { status: 'ok', database: databaseKind, time: new Date().toISOString() };
  });

  r.get('/api/v1/site', { config: { access: { public: true } }, schema: { tags: ['system'], summary: 'Website title, icon, logo and colour', response: { 200: siteInfo } } }, async () => {
    const [s] = await db.select().from(siteConfig).where(eq(siteConfig.id, 1));
    return { id: 1, title: s?.title ?? 'Dau', icon: s?.icon ?? '', logo: s?.logo ?? '', color: s?.color ?? PRIMARY_COLOR };
  });

  r.get(
    '/api/v1/languages',
    {
      config: { access: { public: true } },
      schema: {
        tags: ['system'], summary: 'The console languages', querystring: z.object({ show_status: z.coerce.number().int().min(1).max(2).optional() }),
        response: { 200: z.object({ items: z.array(language) }) },
      },
    },
    async (req) => {
      const rows = await db
        .select()
        .from(languages)
        .where(req.query.show_status ? eq(languages.showStatus, req.query.show_status) : undefined)
        .orderBy(desc(languages.sort), languages.id);
      return {
        items: rows.map((l) => ({
          id: l.id, code: l.code, title: l.title, default_language: l.defaultLanguage, show_status: l.showStatus, icon: l.icon,
          country: l.country, abbreviation: l.abbreviation, phone_code: l.phoneCode,
        })),
      };
    },
  );
}

const sql1 = sql`select 1`;
