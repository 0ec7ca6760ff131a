import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { desc, eq, sql } from 'drizzle-orm';
import { PRIMARY_COLOR } from '@dau/domain';
import { languages, siteConfig } from './schema.js';
import type { AppContext } from '../../platform/context.js';

/** What the console needs before sign-in: website info (spec §7) and the language list. */
export function publicRoutes(app: FastifyInstance, { db, databaseKind }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/health', { config: { access: { public: true } }, schema: { tags: ['system'] } }, async () => {
    await db.execute(sql1);
    return { status: 'ok', database: databaseKind, time: new Date().toISOString() };
  });

  r.get('/api/v1/site', { config: { access: { public: true } }, schema: { tags: ['system'] } }, async () => {
    const [s] = await db.select().from(siteConfig).where(eq(siteConfig.id, 1));
    return { id: 1, title: s?.title ?? 'Dau', icon: s?.icon ?? '', logo: s?.logo ?? '', color: s?.color ?? PRIMARY_COLOR };
  });

  r.get(
    '/api/v1/languages',
    { config: { access: { public: true } }, schema: { tags: ['system'], querystring: z.object({ show_status: z.coerce.number().int().min(1).max(2).optional() }) } },
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
